// Sparsity-compress family semantics: SPARSITY_COMPRESS and SPARSITY_COMPRESS_TAG decode and validate, but are not
// executed. The header states the reduction (each op_dim group to its four extreme elements under MIN, MAX, ABS_MIN
// or ABS_MAX, written in extremity order with their 16-bit in-group indices), not the order among equal values or
// NaNs, the stream order a transposed source is read in, nor where a packed tag sits for an under-full group
// (PROJ-CONV-SC3): the run refuses the words saying so. The footprint hook places their operands.
#include "families/common.hpp"
#include "families/sc/format.hpp"

namespace tpbisa::family {
namespace {

constexpr std::string_view kWhy =
    "which of equal values or NaNs wins, and the element order of a 32 x 32 transposed source (the wiki's "
    "sparsity-compress-tag page §4 gives the header's behaviour block without them)";
constexpr Execution::NotPublic kNotPublic[] = {
    {sc::kSparsityCompress, S3d3Sc::kGens, kWhy},
    {sc::kSparsityCompressTag, S2d2d2Sc::kGens, kWhy},
};

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const Execution::NotPublic* n = not_public_row(inst, kNotPublic))
    return refuse_not_public(inst, txn, *n, "PROJ-CONV-SC3");
  return refuse_not_modeled(inst, txn);
}

/// The source in in_dtype, the destinations in their element dtypes, all on num_active_channels partitions.
Footprint operand_footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const auto* s = inst.as<S3d3Sc>()) {
    add_tensor_footprint(f, "src", s->src, dtype_size(s->in_dtype), s->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", s->dst, dtype_size(s->out_struct_dtype), s->num_active_channels, true, g);
  } else if (const auto* t = inst.as<S2d2d2Sc>()) {
    add_tensor_footprint(f, "src", t->src, dtype_size(t->in_dtype), t->num_active_channels, false, g);
    add_tensor_footprint(f, "data_dst", t->data_dst, dtype_size(t->out_data_dtype), t->num_active_channels, true, g);
    add_tensor_footprint(f, "tag_dst", t->tag_dst, dtype_size(t->out_tag_dtype), t->num_active_channels, true, g);
  }
  return f;
}

constexpr Execution kExecution{.execute = execute, .semantics_not_public = kNotPublic, .footprint = operand_footprint};

}  // namespace

const Execution& SparsityCompressFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
