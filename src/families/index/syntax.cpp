// Index family syntax: ACCUM_CMD and AFFINE_SELECT_CMP by name, the DTYPE_PAIR and IMM_VAL readings of each word.
#include <bit>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "families/family.hpp"
#include "families/index/format.hpp"
#include "tpbisa/describe.hpp"

namespace tpbisa::family {
namespace {

namespace ix = index;

// AFFINE_SELECT_CMP (act-index-ops.md §10.1), the one operand of this family alone; ACCUM_CMD is the catalog's.
constexpr EnumValue kAffineSelectCmp[] = {{ix::kCmpGt, "GREATER_THAN", kGensAll, ""},
                                          {ix::kCmpGe, "GREATER_THAN_EQ", kGensAll, ""},
                                          {ix::kCmpEq, "EQ", kGensAll, ""},
                                          {ix::kCmpNe, "NOT_EQ", kGensAll, ""}};

// RANGE_SELECT's reserved1 is not validated: written only when set.
constexpr std::string_view kQuiet[] = {"reserved1"};
constexpr std::string_view kHex[] = {"in_out_dtype"};

/// bound0 / bound1 of RANGE_SELECT are read per their IMM_SRC; base and fill_val are fp32 values.
ImmReading imm_reading(const Word& w, std::string_view path) {
  if (w[0] != ix::kRangeSelect) return ImmReading::Value;
  const S2d2Rs s = read_format<S2d2Rs>(w);
  if (path == "bound0") return ix::imm_reading_of(s.bound0_src);
  if (path == "bound1") return ix::imm_reading_of(s.bound1_src);
  return ImmReading::Value;
}

std::string pair_meaning(uint8_t pair, Generation g) {
  return fmt::format("input {} (low nibble), output {} (high nibble)", describe_dtype(ix::pair_in(pair), g),
                     describe_dtype(ix::pair_out(pair), g));
}

std::string int_imm_meaning(int32_t v, uint8_t src) {
  switch (src) {
    case ix::kImmInstruction: return fmt::format("the int32 value {}", v);
    case ix::kImmPointer:
      return fmt::format("a pointer ({:#010x}): each channel reads an int32 at partition + c",
                         static_cast<uint32_t>(v));
    case ix::kImmRegPtr:
      return fmt::format("R{} holds the pointer to the int32 operand", static_cast<uint32_t>(v) & 0xFF);
    default: return "an IMM_SRC outside 0..2 (invalid)";
  }
}

std::string meaning(const Instruction& inst, std::string_view path) {
  if (const auto* a = inst.as<S2d2TsAs>()) {
    if (path == "in_out_dtype") return pair_meaning(a->in_out_dtype, inst.gen);
    if (path == "fill_reg") return fmt::format("R{} holds the fp32 fill value", a->fill_reg);
    if (path == "channel_multiplier") return "added to the mask per channel (times the channel number)";
  }
  if (const auto* r = inst.as<S2d2Rs>()) {
    if (path == "in_out_dtype") return pair_meaning(r->in_out_dtype, inst.gen);
    if (path == "base") return "fp32 index origin: element k is at index base + k";
    if (path == "fill_val") return "fp32 value of a dropped element (must be -FLT_MAX)";
    if (path == "reduce_cmd") return "what the row max does to the DVE accumulator";
  }
  if (const auto* n = inst.as<S3d3NonzeroWithCount>()) {
    if (path == "index_offset") return int_imm_meaning(n->index_offset, n->index_offset_src);
    if (path == "padding_val") return int_imm_meaning(n->padding_val, n->padding_val_src);
  }
  if (inst.as<D4Iota>() != nullptr && path == "channel_multiplier")
    return "added to the ramp per channel (times the channel number)";
  if (const auto* i = inst.as<D4Iota>(); i != nullptr && path == "src.base")
    return fmt::format("the ramp's value at element 0 of channel 0: {} (int32)", i->src.base);
  if (const auto* a = inst.as<S2d2TsAs>(); a != nullptr && path == "mask.base")
    return fmt::format("the affine mask's value at element 0 of channel 0: {} (int32)", a->mask.base);
  if (inst.as<S2d2Rs>() != nullptr && path == "reserved1")
    return "not checked by the validator (act-index-ops.md §11.2); written only when not zero";
  return {};
}

constexpr CustomField kCustom[] = {
    {.path = "reduce_cmd", .names = kAccumCmd, .names_what = "ACCUM_CMD"},
    {.path = "fill_mode", .names = kAffineSelectCmp, .names_what = "AFFINE_SELECT_CMP"},
};

constexpr Syntax kSyntax{
    .note =
        "reduce_cmd (ACCUM_CMD) and fill_mode (AFFINE_SELECT_CMP) by name; in_out_dtype is the DTYPE_PAIR byte "
        "in hexadecimal; RANGE_SELECT's bounds follow their IMM_SRC; NONZERO_WITH_COUNT's int32 operands are "
        "numbers",
    .quiet_fields = kQuiet,
    .imm_reading = imm_reading,
    .hex_fields = kHex,
    .meaning = meaning,
    .custom_fields = kCustom};

}  // namespace

const Syntax& IndexFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
