// Element types (dtype names with byte-sized elements) and the conversions of element values to and from bits.
#include "tpbisa/io/element.hpp"

#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "tpbisa/io/json.hpp"
#include "tpbisa/location.hpp"

namespace tpbisa::io {
namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

Error invalid(std::string message) {
  return {ErrorKind::Invalid, std::move(message)};
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// The bits of a float value given as a JSON number or one of the strings nan, inf, -inf.
Expected<uint32_t> float_bits(const json& v) {
  if (v.is_string()) {
    const std::string s = lower(v.get<std::string>());
    if (s == "nan") return 0x7FC00000U;
    if (s == "inf" || s == "+inf") return 0x7F800000U;
    if (s == "-inf") return 0xFF800000U;
    return invalid(fmt::format("\"{}\" is not a number (strings allowed: \"nan\", \"inf\", \"-inf\")",
                               printable(v.get<std::string>())));
  }
  if (!v.is_number()) return invalid(fmt::format("must be a number, not {}", json_type_name(v)));
  const double d = v.get<double>();
  const float f = static_cast<float>(d);
  if (std::isfinite(d) && !std::isfinite(f))
    return invalid(fmt::format("{} is out of range for fp32 (largest finite magnitude {})", v.dump(),
                               std::numeric_limits<float>::max()));
  return std::bit_cast<uint32_t>(f);
}

}  // namespace

Expected<ElementType> parse_element_type(std::string_view text, bool need_numeric) {
  const auto code = parse_dtype(text);
  if (!code)
    return Error{ErrorKind::Syntax, fmt::format("unknown dtype '{}' (see 'tpbisa catalog dtypes'; short forms u8 i8 "
                                                "u16 i16 u32 i32 u64 i64 bf16 fp16 fp32 fp8e3 fp8e4 fp8e5)",
                                                printable(text))};
  ElementType t;
  t.code = *code;
  t.info = find_dtype(*code);
  if (t.info == nullptr || t.info->bits == 0 || t.info->bits % 8 != 0)
    return Error{ErrorKind::Range, fmt::format("dtype {} has no byte-sized elements",
                                               t.info != nullptr ? std::string(t.info->name) : printable(text))};
  t.size = t.info->bits / 8;
  t.integer = t.info->kind == DtypeKind::UInt || t.info->kind == DtypeKind::SInt;
  t.is_signed = t.info->kind == DtypeKind::SInt;
  t.floating = t.info->kind == DtypeKind::Float && convertible(t.code);
  if (need_numeric && !t.numeric())
    return Error{ErrorKind::Range,
                 fmt::format("dtype {} has no numeric conversion in tpbisa; use its bits (\"bits\", or a dump as u8)",
                             t.info->name)};
  return t;
}

Expected<uint64_t> value_to_bits(const json& v, const ElementType& t, const ConvertOptions& convert) {
  if (t.floating) {
    const auto f = float_bits(v);
    if (!f) return f.error();
    return from_fp32_bits(*f, t.code, convert);
  }
  if (!t.integer)
    return invalid(
        fmt::format("dtype {} has no numeric conversion; give \"bits\" instead of \"values\"", t.info->name));
  const unsigned width = 8 * t.size;
  if (!v.is_number_integer())
    return invalid(v.is_number() ? fmt::format("{} is not an integer ({} takes integers)", v.dump(), t.info->name)
                                 : fmt::format("must be an integer, not {}", json_type_name(v)));
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  if (t.is_signed) {
    const int64_t lo = width == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (width - 1));
    const int64_t hi = width == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (width - 1)) - 1;
    const bool fits = v.is_number_unsigned() ? v.get<uint64_t>() <= static_cast<uint64_t>(hi)
                                             : v.get<int64_t>() >= lo && v.get<int64_t>() <= hi;
    if (!fits) return invalid(fmt::format("{} is out of range for {} ({}..{})", v.dump(), t.info->name, lo, hi));
    return static_cast<uint64_t>(v.get<int64_t>()) & mask;
  }
  if (!v.is_number_unsigned() || v.get<uint64_t>() > mask)
    return invalid(fmt::format("{} is out of range for {} (0..{})", v.dump(), t.info->name, mask));
  return v.get<uint64_t>();
}

Expected<uint64_t> hex_to_bits(const json& v, const ElementType& t) {
  if (!v.is_string()) return invalid(fmt::format("must be a \"0x...\" string, not {}", json_type_name(v)));
  const std::string s = v.get<std::string>();
  const bool prefixed = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  uint64_t value = 0;
  if (!prefixed || !parse_u64_text(s, value))
    return invalid(fmt::format("\"{}\" is not a 0x hex bit pattern", printable(s)));
  const uint64_t mask = t.size >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * t.size)) - 1;
  if (value > mask) return invalid(fmt::format("\"{}\" does not fit the {} bits of {}", s, 8 * t.size, t.info->name));
  return value;
}

ojson float_json(float f) {
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
  // The shortest decimal that reads back as this float, stored as the double it spells.
  char text[40];
  const char* end = fmt::format_to_n(text, sizeof text, "{}", f).out;
  double d = 0;
  std::from_chars(text, end, d);
  return d;
}

ojson bits_to_json(uint64_t bits, const ElementType& t) {
  if (t.floating) return float_json(std::bit_cast<float>(to_fp32_bits(bits, t.code)));
  if (t.is_signed) {
    const unsigned width = 8 * t.size;
    const int64_t v =
        width == 64 ? static_cast<int64_t>(bits) : static_cast<int64_t>(bits << (64 - width)) >> (64 - width);
    return v;
  }
  return bits;
}

std::string bits_to_text(uint64_t bits, const ElementType& t) {
  const ojson j = bits_to_json(bits, t);
  if (j.is_string()) return j.get<std::string>();
  if (t.floating) return fmt::format("{}", std::bit_cast<float>(to_fp32_bits(bits, t.code)));
  return j.dump();
}

std::string bits_hex(uint64_t bits, unsigned size) {
  return fmt::format("{:#0{}x}", bits, 2 + 2 * size);
}

}  // namespace tpbisa::io
