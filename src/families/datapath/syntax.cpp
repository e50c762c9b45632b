// Datapath family syntax: fields print and parse from their roles; the must-be-zero flags are quiet operands, and
// the MEM_PATTERN operands of S4D4_TR and S3S3D3_TT read as the indirect arm where datapath::indirect_arm says so.
#include <bit>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "families/family.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

// negated and mask_enable must be zero in every valid word: the disassembler writes them only when set.
constexpr std::string_view kQuiet[] = {"negated", "mask_enable"};

// MARIANA+ types these operands MEM_PATTERN4D / MEM_PATTERN3D (real-programs.md §10.1, §11.1); D4_MR's dst
// stays a plain TENSOR4D on every generation (§12.1).
constexpr std::string_view kTrPatterns[] = {"src", "dst"};
constexpr std::string_view kTtPatterns[] = {"src0", "src1", "dst"};

std::span<const std::string_view> pattern_operands(Format f) {
  switch (f) {
    case Format::S4d4Tr: return kTrPatterns;
    case Format::S3s3d3Tt: return kTtPatterns;
    default: return {};
  }
}

bool indirect(uint32_t start, Generation g) {
  return datapath::indirect_arm(Addr4{start}, g);
}

// ---- Meanings of the datapath roles (real-programs.md §10-§12), read with their neighbours here once ----

std::string dtype_pair_meaning(uint8_t pair, Generation g) {
  return fmt::format("src0 {} (low nibble), src1 {} (high nibble)", describe_dtype(datapath::pair_lo(pair), g),
                     describe_dtype(datapath::pair_hi(pair), g));
}

std::string serial_mode_meaning(uint64_t v) {
  if (v == datapath::kSerial) return "Serial (REG_SERIAL_MODE; value 0 by PROJ-CONV-F22)";
  return "not Serial (must be Serial = 0, PROJ-CONV-F22)";
}

/// One element of `d` from its low `bytes` bytes: fp32 as a float, integers in their signedness, else hex.
std::string element_text(uint64_t u, unsigned bytes, const DtypeInfo& d) {
  const unsigned bits = 8 * bytes;
  if (d.code == dtype::kFp32) return fmt::format("{}", std::bit_cast<float>(static_cast<uint32_t>(u)));
  if (d.kind == DtypeKind::SInt) {
    const unsigned shift = 64 - bits;
    return fmt::format("{}", static_cast<int64_t>(u << shift) >> shift);
  }
  if (d.kind == DtypeKind::UInt) return fmt::format("{}", u);
  return fmt::format("{:#0{}x}", u, 2 + bits / 4);
}

/// A fill value: the low type_size(dtype) bytes of set_value, one element of the word's dtype.
std::string fill_value_meaning(const D4Mr& m) {
  const uint8_t d = m.dtype;
  const uint32_t mask = datapath::memset_value_mask(d);
  const DtypeInfo* info = find_dtype(d);
  if (mask == 0 || info == nullptr) return "fill bit pattern (the dtype is not a MEMSET fill type)";
  const uint32_t v = m.set_value;
  const unsigned bytes = mask == 0xFF ? 1 : mask == 0xFFFF ? 2 : 4;
  // A float of any width reads as its exact fp32 widening; integers in their own width.
  const std::string value = info->kind == DtypeKind::Float && convertible(d)
                                ? fmt::format("{}", std::bit_cast<float>(to_fp32_bits(v & mask, d)))
                                : element_text(v & mask, bytes, *info);
  std::string text = fmt::format("each element set to {} {}", info->short_name, value);
  if ((v & ~mask) != 0) text += " (bits above the element width are set: invalid)";
  return text;
}

std::string meaning(const Instruction& inst, std::string_view path) {
  if (const auto* tt = inst.as<S3s3d3Tt>(); tt != nullptr && path == "in0_in1_dtype")
    return dtype_pair_meaning(tt->in0_in1_dtype, inst.gen);
  if (const auto* mr = inst.as<D4Mr>()) {
    if (path == "serialization_mode") return serial_mode_meaning(mr->serialization_mode);
    if (path == "set_value") return fill_value_meaning(*mr);
  }
  return {};
}

constexpr Syntax kSyntax{
    .note =
        "negated and mask_enable are written only when not zero; a MARIANA+ indirect MEM_PATTERN operand is "
        "written as its index, data, num_indices (and unused) fields",
    .quiet_fields = kQuiet,
    .meaning = meaning,
    .pattern_operands = pattern_operands,
    .indirect_arm = indirect};

}  // namespace

const Syntax& DatapathFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
