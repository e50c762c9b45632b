// Bodies of the common validity predicates (common-formats.md §10) and their per-generation profiles.
#include "core/predicates.hpp"

namespace tpbisa::pred {

bool has_valid_neuron_header(const Header& h, Generation g) {
  return opcode_in(h.opcode, g) && h.opcode != opcode::kInvalid && h.inst_word_len == kInstWordLen;
}

bool has_valid_neuron_events(const Events& e, Generation g) {
  return wait_mode_in(e.wait_mode, g) && update_mode_in(e.update_mode, g);
}

bool is_valid_dtype(uint8_t d, bool allow_fp32r, const CheckContext& ctx, std::string_view* via) {
  auto fail = [&](std::string_view term) {
    if (via != nullptr) *via = term;
    return false;
  };
  if (d == dtype::kInvalid) return fail("d != INVALID");
  if (d == dtype::kFp32r && !allow_fp32r) return fail("d != FP32R");
  if (d == dtype::kUint64 || d == dtype::kInt64) return fail("d != UINT64 && d != INT64");
  if (ctx.gen == Generation::Maverick && (d == dtype::kFp4Exp2 || d == dtype::kInt4))
    return fail("dtype_4bit_illegal_check");
  if (ctx.gen == Generation::Maverick && d >= dtype::kSfp8E8 && d <= dtype::kSfp8E5)
    return fail("dtype_scale_illegal_check");
  const bool member = ctx.options.dtype_enum_runtime ? d <= 0x0F : dtype_in(d, ctx.gen);
  if (!member) return fail("is_valid_enum(DTYPE)");
  return true;
}

}  // namespace tpbisa::pred
