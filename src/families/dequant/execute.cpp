// Tensor-dequantize family semantics: TENSOR_DEQUANTIZE decodes and validates, but is not executed. The wiki gives
// the format pairs and the word ratios, not the order of the codes inside a UINT32 word, the NF4 table the hardware
// holds, nor the bits of the in-band block scale (tensor-dequantize.md §4.1, §9; PROJ-CONV-DQ3): the run refuses the
// word saying so. The footprint hook places both operands for the NEFF program checks and the race checker.
#include "families/common.hpp"
#include "families/dequant/format.hpp"

namespace tpbisa::family {
namespace {

/// The word whose result no public source states: catalog --coverage reports it `semantics not public` with what
/// would settle it, and the run refuses it saying so.
constexpr Execution::NotPublic kNotPublic[] = {
    {dequant::kTensorDequantize, S3d3TensDequant::kGens,
     "the order of the packed codes inside a UINT32 word, the NF4 values the hardware holds and the bits of the "
     "in-band block scale (the wiki's tensor-dequantize page §4.1, §9 gives them as inferred)"},
};

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const Execution::NotPublic* n = not_public_row(inst, kNotPublic))
    return refuse_not_public(inst, txn, *n, "PROJ-CONV-DQ3");
  return refuse_not_modeled(inst, txn);
}

/// src and dst: num_active_channels SBUF partitions of 4-byte transport words. A register start is placed at run time.
Footprint operand_footprint(const Instruction& inst, Generation g) {
  Footprint f;
  const auto* d = inst.as<S3d3TensDequant>();
  if (d == nullptr) return f;
  add_tensor_footprint(f, "src", d->src, 4, d->num_active_channels, false, g);
  add_tensor_footprint(f, "dst", d->dst, 4, d->num_active_channels, true, g);
  return f;
}

constexpr Execution kExecution{.execute = execute, .semantics_not_public = kNotPublic, .footprint = operand_footprint};

}  // namespace

const Execution& DequantFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
