// Conversion-LUT family semantics: CONV_LUT_LOAD decodes and validates, but is not executed. Its legacy leg programs
// the PE array's per-row 4-bit input converter, whose use in the MAC no public source states (the wiki's page calls
// the PE side out of its corpus), and the model keeps no converter table; its CPTC leg is the compressed-tensor
// decode, which this family does not model (PROJ-CONV-CL3). The run refuses the word saying so. The footprint hook
// places the source for the NEFF program checks.
#include "families/common.hpp"
#include "families/convlut/format.hpp"

namespace tpbisa::family {
namespace {

constexpr Execution::NotPublic kNotPublic[] = {
    {convlut::kConvLutLoad, S2Convlut::kGens,
     "how the PE array applies the loaded 4-bit converter table (the wiki's convlutload page §5, §7: out of its "
     "corpus), and the CPTC leg's decode (the wiki's cptc-codec page, not settled here)"},
};

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const Execution::NotPublic* n = not_public_row(inst, kNotPublic))
    return refuse_not_public(inst, txn, *n, "PROJ-CONV-CL3");
  return refuse_not_modeled(inst, txn);
}

/// src: the table or block, on one SBUF partition per active row (legacy: 128), in_dtype elements.
Footprint operand_footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const auto* c = inst.as<S2Convlut>())
    add_tensor_footprint(f, "src", c->src, dtype_size(c->in_dtype), c->num_active_rows, false, g);
  return f;
}

constexpr Execution kExecution{.execute = execute, .semantics_not_public = kNotPublic, .footprint = operand_footprint};

}  // namespace

const Execution& ConvLutFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
