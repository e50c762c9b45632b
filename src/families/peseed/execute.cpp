// PE seed family semantics: PE_MANAGE_SEED decodes and validates, but is not executed. The header says it moves the
// 2048 PSUM stochastic-rounding seeds between SBUF and PSUM through the PE array, not which seed drives which bank's
// rounding nor how the rounding draws from it, and the model keeps no stochastic-rounding state (PROJ-CONV-PS3): the
// run refuses the word saying so. The footprint hook places the operands for the NEFF program checks.
#include "families/common.hpp"
#include "families/peseed/format.hpp"

namespace tpbisa::family {
namespace {

constexpr Execution::NotPublic kNotPublic[] = {
    {peseed::kPeManageSeed, S2s1d2PeSeed::kGens,
     "which of the 2048 seeds drives which PSUM bank's stochastic rounding, and how the rounding draws from it (the "
     "wiki's pe-matmul page §4 quotes the header's shapes only)"},
};

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const Execution::NotPublic* n = not_public_row(inst, kNotPublic))
    return refuse_not_public(inst, txn, *n, "PROJ-CONV-PS3");
  return refuse_not_modeled(inst, txn);
}

/// LOAD_SEED reads src (16 SBUF partitions of 4-byte seeds) and the identity; SAVE_SEED reads the identity and
/// writes dst (128 partitions of 4-byte seeds). A register start is placed at run time.
Footprint operand_footprint(const Instruction& inst, Generation g) {
  Footprint f;
  const auto* s = inst.as<S2s1d2PeSeed>();
  if (s == nullptr) return f;
  if (s->mode == peseed::kModeLoad)
    add_tensor_footprint(f, "src", s->src, peseed::kSeedBytes, s->num_active_rows, false, g);
  add_tensor_footprint(f, "identity", s->identity, dtype_size(s->identity_dtype), s->num_active_rows, false, g);
  if (s->mode == peseed::kModeSave)
    add_tensor_footprint(f, "dst", s->dst, peseed::kSeedBytes, s->num_active_cols, true, g);
  return f;
}

constexpr Execution kExecution{.execute = execute, .semantics_not_public = kNotPublic, .footprint = operand_footprint};

}  // namespace

const Execution& PeSeedFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
