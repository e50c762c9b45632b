// Sparse matmul family semantics: MATMUL_SPARSE decodes and validates, but is not executed. The public sources say
// that each PE cell picks one of the 2, 3 or 4 fmaps its partition sends by the tag LDTAGS loaded, not how a tag
// maps to an fmap or a cell, nor the layout LDTAGS loads them from (PROJ-CONV-SP5): the run refuses the word saying
// so. The footprint hook places its operands for the NEFF program checks and the race checker.
#include "families/common.hpp"
#include "families/sparse/format.hpp"

namespace tpbisa::family {
namespace {

/// The word whose result no public source states: catalog --coverage reports it `semantics not public` with what
/// would settle it, and the run refuses it saying so.
constexpr Execution::NotPublic kNotPublic[] = {
    {sparse::kMatmulSparse, S4d3Mm::kGens,
     "which loaded tag selects which fmap in which PE cell, and the layout LDTAGS loads the tags from (the wiki's "
     "pe-matmul page §9 and sparsity-compress-tag page §6 give the tag packing in prose; opcode-research.md §A.2.11)"},
};

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const Execution::NotPublic* n = not_public_row(inst, kNotPublic))
    return refuse_not_public(inst, txn, *n, "PROJ-CONV-SP5");
  return refuse_not_modeled(inst, txn);
}

/// src: num_active_rows SBUF partitions of in_dtype elements, every fmap; dst: num_active_cols partitions of 4-byte
/// FP32 accumulator elements. A register start is placed at run time.
Footprint operand_footprint(const Instruction& inst, Generation g) {
  Footprint f;
  const auto* m = inst.as<S4d3Mm>();
  if (m == nullptr) return f;
  add_tensor_footprint(f, "src", m->src, dtype_size(m->in_dtype), m->num_active_rows, false, g);
  add_tensor_footprint(f, "dst", m->dst, 4, m->num_active_cols, true, g);
  return f;
}

constexpr Execution kExecution{.execute = execute, .semantics_not_public = kNotPublic, .footprint = operand_footprint};

}  // namespace

const Execution& SparseFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
