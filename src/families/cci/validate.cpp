// Compact-control family validator: is_valid_ctrl_cci (0xB6 COMPACT_CONTROL_INST, MAVERICK), the three conjuncts the
// wiki quotes from the header (dma-transpose-opcode-cluster.md §3g). The word has no EVENTS, so the validator does
// not judge bytes 4-11 as EVENTS, and the compact instructions themselves are not judged (PROJ-CONV-CC2).
#include "families/cci/format.hpp"
#include "families/common.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

constexpr Predicate kOpcode =
    opcode_clause<CtrlCci, cci::kCompactControlInst>("has_cci_opcode", "", "the opcode is COMPACT_CONTROL_INST (0xb6)");

constexpr const Predicate* kConjuncts[] = {&kHasValidNeuronHeader, &kHasTileIdxZero, &kOpcode};

// No raw-word acceptor: the batch route's per-word checks read bytes 4-11 as EVENTS (fast_accept.hpp), which this
// word does not have; every word of it takes the compiled full pass.
constexpr Validator kValidator{"is_valid_ctrl_cci", Checked::Full, kConjuncts, &evaluate_conjuncts<kConjuncts>,
                               nullptr};

constexpr ValidatorRow kTable[] = {{cci::kCompactControlInst, &kValidator}};
constexpr Validation kValidation = validator_table<CompactControlFamily, kTable>();

}  // namespace

const Validation& CompactControlFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
