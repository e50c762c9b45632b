// Pool family syntax: POOL_TYPE, REDUCE_OP and REDUCE_AXIS by name, SORT's DTYPE_PAIR and index offset, and what each
// word's fields mean.
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "families/family.hpp"
#include "families/pool/format.hpp"
#include "tpbisa/describe.hpp"

namespace tpbisa::family {
namespace {

namespace pl = pool;

constexpr EnumValue kPoolType[] = {{pl::kPoolNone, "NONE", kGensAll, ""},
                                   {pl::kPoolMax, "MAX_POOL", kGensAll, ""},
                                   {pl::kPoolAvg, "AVG_POOL", kGensAll, ""}};
constexpr EnumValue kReduceOp[] = {
    {pl::kReduceAdd, "ADD", kGensAll, ""},         {pl::kReduceAverage, "AVERAGE", kGensAll, ""},
    {pl::kReduceMax, "MAX", kGensAll, ""},         {pl::kReduceOr, "BITWISE_OR", kGensAll, ""},
    {pl::kReduceAnd, "BITWISE_AND", kGensAll, ""}, {pl::kReduceXor, "BITWISE_XOR", kGensAll, ""}};
constexpr EnumValue kReduceAxis[] = {{pl::kAxisAll, "ALL", kGensAll, ""},
                                     {pl::kAxisPartitions, "PARTITIONS", kGensAll, ""}};

// The bytes the public tables leave unnamed are written only when set (PROJ-CONV-G71).
constexpr std::string_view kQuiet[] = {"pad35", "pad38", "pad37", "pad42", "src.pad10", "src.pad12"};
constexpr std::string_view kHex[] = {"in_out_dtype", "immediate"};

constexpr std::string_view kUnnamed = "not named by the public layout; kept as written, never judged (PROJ-CONV-G71)";

std::string index_offset_meaning(uint32_t v, uint8_t src) {
  switch (src) {
    case imm_src::kInstruction: return fmt::format("the u32 {} added to every emitted index", v);
    case imm_src::kPointer: return fmt::format("a pointer ({:#010x}): each channel reads its u32 offset there", v);
    case imm_src::kRegPointer: return fmt::format("R{} holds the pointer to the u32 offset", v & 0xFF);
    default: return "an IMM_SRC outside 0..2 (invalid)";
  }
}

std::string meaning(const Instruction& inst, std::string_view path) {
  if (path.starts_with("pad") || path.starts_with("src.pad")) return std::string{kUnnamed};
  if (inst.as<S4d4Gt>() != nullptr) {
    if (path == "src") return "the index tensor (in_dtype)";
    if (path == "in_dtype") return "the index dtype (UINT8, UINT16 or UINT32)";
    if (path == "index_miss_behavior")
      return "INDEX_MISS_BEHAVIOR: what an index outside the Pool buffer does "
             "(values not public)";
    if (path == "free_pool_buffer") return "non-zero: the Pool buffer is released after this gather";
    if (path == "immediate") return "the fill value of a missed index (raw bits)";
  }
  if (inst.as<S4d4Ic>() != nullptr) {
    if (path == "src.num_elem") return "elements read per partition (indices x src_num_elem_per_idx)";
    if (path == "src_num_elem_per_idx") return "contiguous elements copied per index";
    if (path == "dst_num_elem_per_idx") return "scatter width (scatter is not implemented: must be 0)";
    if (path == "src_buffer_size") return "elements in the source buffer (the index bound)";
    if (path == "dst_buffer_size") return "scatter bound (must be 0)";
  }
  if (const auto* s = inst.as<S1d2Sort>()) {
    if (path == "in_out_dtype")
      return fmt::format("input {} (low nibble), output {} (high nibble)",
                         describe_dtype(pl::pair_in(s->in_out_dtype), inst.gen),
                         describe_dtype(pl::pair_out(s->in_out_dtype), inst.gen));
    if (path == "comparison") return "IS_LT sorts ascending, IS_GT descending";
    if (path == "index_offset") return index_offset_meaning(s->index_offset, s->index_offset_src);
    if (path == "stable") return "1: equal values keep their source order";
    if (path == "dst") return "X = {value, index}, Y = the sorted positions";
  }
  if (inst.as<S4d4Pl>() != nullptr) {
    if (path == "pool_func") return "POOL_TYPE: MAX_POOL (windowed max) or AVG_POOL (windowed sum x pool_scale)";
    if (path == "pool_dim") return "the source dimensions of one window (X, XY, XYZ or XYZW)";
    if (path == "pool_scale") return "fp32 multiplier of AVG_POOL's sum (1.0 for MAX_POOL)";
  }
  if (inst.as<S4d4Cr>() != nullptr) {
    if (path == "reduce_op") return "REDUCE_OP: ADD, AVERAGE, MAX (0x7C) or BITWISE_OR, AND, XOR (0x7D)";
    if (path == "reduce_axis") return "ALL: one element; PARTITIONS: element-wise across the channels";
    if (path == "scale") return "fp32 multiplier of each element under AVERAGE";
  }
  return {};
}

constexpr CustomField kCustom[] = {
    {.path = "pool_func", .names = kPoolType, .names_what = "POOL_TYPE"},
    {.path = "reduce_op", .names = kReduceOp, .names_what = "REDUCE_OP"},
    {.path = "reduce_axis", .names = kReduceAxis, .names_what = "REDUCE_AXIS"},
};

constexpr Syntax kSyntax{
    .note =
        "pool_func (POOL_TYPE), reduce_op (REDUCE_OP) and reduce_axis (REDUCE_AXIS) by name; SORT's in_out_dtype "
        "is the DTYPE_PAIR byte and GATHER's immediate its raw bits, both in hexadecimal; the bytes the public "
        "layouts leave unnamed (padNN) are written only when set",
    .quiet_fields = kQuiet,
    .hex_fields = kHex,
    .meaning = meaning,
    .custom_fields = kCustom};

}  // namespace

const Syntax& PoolFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
