// Datapath family syntax: fields print and parse from their roles; the must-be-zero flags are quiet operands, and
// the MEM_PATTERN operands of S4D4_TR and S3S3D3_TT read as the indirect arm where datapath::indirect_arm says so.
#include <bit>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "families/family.hpp"
#include "text/asm_fields.hpp"
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
    if (path == "dst_element_count") return fmt::format("{} elements per partition", mr->dst_element_count);
  }
  return {};
}

// ---- The text of the Role::Custom fields in_dtype pair and set_value ----

using tasm::AsmField;
using tasm::error_at;
using tasm::FieldList;
using tasm::fit_int;
using tasm::FloatParse;
using tasm::fp32_literal;
using tasm::IntLiteral;
using tasm::IntParse;
using tasm::LineError;
using tasm::load_bits;
using tasm::parse_fp32;
using tasm::parse_int;
using tasm::range_text;
using tasm::sibling;
using tasm::store_bits;
using tasm::Token;
using tasm::ValueText;

// ---- DTYPE_PAIR: {src0, src1} dtypes, low nibble first (common-formats.md §9) ----

void print_dtype_pair(std::string& out, const AsmField& f, const Word& w, FieldList, Generation g) {
  const auto pair = static_cast<uint8_t>(load_bits(w, f.offset, 1));
  out += '{';
  for (const uint8_t d : {datapath::pair_lo(pair), datapath::pair_hi(pair)}) {
    if (out.back() != '{') out += ',';
    const DtypeInfo* row = find_dtype(d);
    if (row != nullptr && row->gens.has(g))
      out += row->short_name;
    else
      fmt::format_to(std::back_inserter(out), "{}", d);
  }
  out += '}';
}

bool parse_dtype_pair(const AsmField& f, const ValueText& v, Word& w, FieldList, Generation, LineError& error) {
  IntLiteral lit;
  uint64_t bits = 0;
  if (!v.list) {  // the raw byte
    if (parse_int(v.scalar.text, lit) != IntParse::Ok || !fit_int(lit, 8, false, bits)) {
      error = error_at(v.scalar, fmt::format("`{}` takes {{src0,src1}} dtypes (e.g. {{fp32,fp32}}) or the byte "
                                             "0..255, got `{}`",
                                             f.path, v.scalar.text));
      return false;
    }
    store_bits(w, f.offset, 1, bits);
    return true;
  }
  if (v.items.size() != 2) {
    error = error_at(v.open, fmt::format("`{}` takes two dtypes {{src0,src1}}, got {}", f.path, v.items.size()));
    return false;
  }
  uint8_t nibbles[2] = {0, 0};
  for (size_t k = 0; k < 2; ++k) {
    const Token& t = v.items[k];
    const std::optional<uint8_t> named = parse_dtype(t.text);
    if (named && *named <= 0xF) {
      nibbles[k] = *named;
      continue;
    }
    if (!named && parse_int(t.text, lit) == IntParse::Ok && fit_int(lit, 4, false, bits)) {
      nibbles[k] = static_cast<uint8_t>(bits);
      continue;
    }
    error = error_at(t, fmt::format("`{}[{}]` ({}): a dtype with a code 0..15 (a nibble) or a number 0..15, got `{}`",
                                    f.path, k, k == 0 ? "src0, low nibble" : "src1, high nibble", t.text));
    return false;
  }
  store_bits(w, f.offset, 1, static_cast<uint64_t>(nibbles[0] | (nibbles[1] << 4)));
  return true;
}

// ---- MEMSET set_value: one element of the fill dtype (real-programs.md §12.3) ----

/// The fill element's width in bytes (0: the dtype is no fill type, memset_set_value_type) and its row.
struct FillType {
  const DtypeInfo* dtype = nullptr;
  unsigned bytes = 0;
  uint32_t mask = 0;
};

FillType fill_type(const Word& w, FieldList all) {
  const AsmField* dt = sibling(all, Role::Dtype);
  const auto code = static_cast<uint8_t>(dt != nullptr ? load_bits(w, dt->offset, 1) : 0);
  FillType t;
  t.mask = datapath::memset_value_mask(code);
  t.dtype = find_dtype(code);
  t.bytes = t.mask == 0xFFU ? 1 : t.mask == 0xFFFFU ? 2 : t.mask != 0 ? 4 : 0;
  if (t.dtype == nullptr) t.bytes = 0;
  return t;
}

/// A narrow float element (FP16, BF16, FP8) written as a number: the fp32 literal of its exact widening, when
/// that literal narrows back to the same bits (NaN payloads, for one, do not); empty otherwise.
std::string narrow_float_literal(uint32_t v, uint8_t code) {
  const std::string lit = fp32_literal(to_fp32_bits(v, code));
  uint32_t back = 0;
  if (lit.empty() || parse_fp32(lit, back) != FloatParse::Ok || from_fp32_bits(back, code) != v) return {};
  return lit;
}

bool narrow_float(const FillType& t) {
  return t.dtype->kind == DtypeKind::Float && t.bytes < 4 && convertible(t.dtype->code);
}

void print_fill(std::string& out, const AsmField& f, const Word& w, FieldList all, Generation) {
  const auto v = static_cast<uint32_t>(load_bits(w, f.offset, 4));
  const FillType t = fill_type(w, all);
  if (t.bytes == 0 || (v & ~t.mask) != 0) {  // no element of the dtype holds these bits: the raw bits
    fmt::format_to(std::back_inserter(out), "{:#010x}", v);
    return;
  }
  if (narrow_float(t)) {
    const std::string lit = narrow_float_literal(v, t.dtype->code);
    if (!lit.empty())
      out += lit;
    else
      fmt::format_to(std::back_inserter(out), "{:#0{}x}", v, 2 + 2 * t.bytes);
    return;
  }
  tasm::print_dtype_element(out, v, *t.dtype, t.bytes);
}

bool parse_fill(const AsmField& f, const ValueText& v, Word& w, FieldList all, Generation, LineError& error) {
  if (v.list) {
    error = error_at(v.open, fmt::format("`{}` takes one value, not a list", f.path));
    return false;
  }
  const Token& t = v.scalar;
  IntLiteral lit;
  const IntParse parsed = parse_int(t.text, lit);
  uint64_t bits = 0;
  const FillType type = fill_type(w, all);
  if ((parsed != IntParse::NotANumber && lit.hex) || type.bytes == 0) {  // the raw bits, whatever the dtype
    if (parsed != IntParse::Ok || !fit_int(lit, 32, false, bits)) {
      error = error_at(t, fmt::format("`{}`: `{}` is not a 32-bit value {}", f.path, t.text, range_text(32, false)));
      return false;
    }
    store_bits(w, f.offset, 4, bits);
    return true;
  }
  if (narrow_float(type)) {  // a number, rounded to the fill dtype (to nearest even)
    uint32_t f32 = 0;
    const FloatParse r = parse_fp32(t.text, f32);
    if (r != FloatParse::Ok) {
      error = error_at(t, fmt::format("`{}`: `{}` is not a {} value (a number, or 0x bits)", f.path, t.text,
                                      type.dtype->short_name));
      return false;
    }
    store_bits(w, f.offset, 4, from_fp32_bits(f32, type.dtype->code) & type.mask);
    return true;
  }
  if (!tasm::parse_dtype_element(f, 0, t, *type.dtype, type.bytes, bits, error)) return false;
  store_bits(w, f.offset, 4, bits & type.mask);  // one element: the bits above its width stay zero
  return true;
}

// serialization_mode is Role::Custom without an entry: a decimal number, shown in hex by decode.
constexpr CustomField kCustom[] = {
    {.path = "in0_in1_dtype", .print = print_dtype_pair, .parse = parse_dtype_pair},
    {.path = "set_value", .print = print_fill, .parse = parse_fill, .after_siblings = true},
};

constexpr Syntax kSyntax{
    .note =
        "negated and mask_enable are written only when not zero; a MARIANA+ indirect MEM_PATTERN operand is "
        "written as its index, data, num_indices (and unused) fields",
    .quiet_fields = kQuiet,
    .meaning = meaning,
    .pattern_operands = pattern_operands,
    .indirect_arm = indirect,
    .custom_fields = kCustom};

}  // namespace

const Syntax& DatapathFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
