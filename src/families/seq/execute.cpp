// Sequencer family execution: not modeled yet (issue 13). The words decode, validate and assemble; `run` reports
// them as UnsupportedOpcode, as for any opcode without an executor.
#include "families/family.hpp"
#include "families/seq/format.hpp"

namespace tpbisa::family {
namespace {

constexpr Execution kExecution{nullptr};  // not executable: no stub that pretends to run them

}  // namespace

const Execution& SeqFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
