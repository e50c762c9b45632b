// Lexing for the assembly language: comments, tokens, integer and fp32 literals.
#include "text/asm_lex.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

namespace tpbisa::tasm {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

TokKind punct_kind(char c) {
  switch (c) {
    case '=': return TokKind::Equals;
    case ',': return TokKind::Comma;
    case '{': return TokKind::LBrace;
    default: return TokKind::RBrace;
  }
}

bool is_punct(char c) {
  return c == '=' || c == ',' || c == '{' || c == '}';
}

char lower_char(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  const char l = lower_char(c);
  if (l >= 'a' && l <= 'f') return l - 'a' + 10;
  return -1;
}

bool has_hex_prefix(std::string_view t) {
  return t.size() >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
}

// The four spellings whose bits are fixed here rather than by from_chars, so they print back exactly.
struct SpecialFloat {
  std::string_view text;
  uint32_t bits;
};
constexpr std::array<SpecialFloat, 4> kSpecialFloats{
    {{"inf", 0x7F800000U}, {"-inf", 0xFF800000U}, {"nan", 0x7FC00000U}, {"-nan", 0xFFC00000U}}};

}  // namespace

std::string_view strip_comment(std::string_view line) {
  for (size_t i = 0; i < line.size(); ++i) {  // a plain loop: find_first_of calls memchr per byte
    if (line[i] != ';' && line[i] != '#') continue;
    line = line.substr(0, i);
    break;
  }
  while (!line.empty() && is_space(line.back())) line.remove_suffix(1);
  return line;
}

void tokenize(std::string_view line, std::vector<Token>& out) {
  out.clear();
  size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    if (is_space(c)) {
      ++i;
      continue;
    }
    if (is_punct(c)) {
      out.push_back({punct_kind(c), line.substr(i, 1), i});
      ++i;
      continue;
    }
    const bool event = c == '$';
    size_t j = i + 1;
    while (j < line.size() && !is_space(line[j]) && (event || !is_punct(line[j]))) ++j;
    out.push_back({TokKind::Word, line.substr(i, j - i), i});
    i = j;
  }
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower_char(a[i]) != lower_char(b[i])) return false;
  return true;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower_char(c);
  return out;
}

size_t edit_distance(std::string_view a, std::string_view b, size_t limit) {
  constexpr size_t kClip = 64;  // bounds the cost on hostile input
  a = a.substr(0, std::min(a.size(), kClip));
  b = b.substr(0, std::min(b.size(), kClip));
  const size_t over = limit == SIZE_MAX ? limit : limit + 1;
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > limit) return over;
  std::array<size_t, kClip + 1> prev{};
  std::array<size_t, kClip + 1> cur{};
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    size_t row_min = cur[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t subst = prev[j - 1] + (lower_char(a[i - 1]) == lower_char(b[j - 1]) ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
      row_min = std::min(row_min, cur[j]);
    }
    if (row_min > limit) return over;  // every later row is at least this far
    prev = cur;
  }
  return std::min(prev[b.size()], over);
}

IntParse parse_int(std::string_view t, IntLiteral& out) {
  out = {};
  if (!t.empty() && t[0] == '-') {
    out.negative = true;
    t.remove_prefix(1);
  }
  unsigned base = 10;
  if (has_hex_prefix(t)) {
    base = 16;
    out.hex = true;
    t.remove_prefix(2);
  }
  if (t.empty()) return IntParse::NotANumber;
  bool overflow = false;
  uint64_t v = 0;
  for (char c : t) {
    const int d = digit_value(c);
    if (d < 0 || static_cast<unsigned>(d) >= base) return IntParse::NotANumber;
    const auto ud = static_cast<uint64_t>(d);
    if (v > (std::numeric_limits<uint64_t>::max() - ud) / base)
      overflow = true;
    else
      v = v * base + ud;
  }
  if (overflow) return IntParse::TooLarge;
  out.magnitude = v;
  return IntParse::Ok;
}

bool fit_int(const IntLiteral& v, unsigned bits, bool is_signed, uint64_t& out) {
  const uint64_t umax = bits >= 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
  if (!v.negative) {
    const uint64_t limit = is_signed && !v.hex ? umax >> 1 : umax;
    if (v.magnitude > limit) return false;
    out = v.magnitude;
    return true;
  }
  if (v.magnitude == 0) {  // "-0" is zero in every field
    out = 0;
    return true;
  }
  if (!is_signed || v.magnitude > (umax >> 1) + 1) return false;
  out = (0 - v.magnitude) & umax;
  return true;
}

std::string range_text(unsigned bits, bool is_signed) {
  const uint64_t umax = bits >= 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
  if (!is_signed) return fmt::format("0..{}", umax);
  const uint64_t smax = umax >> 1;
  return fmt::format("-{}..{} (or 0x0..{:#x} as bits)", smax + 1, smax, umax);
}

bool parse_register(std::string_view text, uint8_t& reg) {
  if (text.size() < 2 || lower_char(text[0]) != 'r') return false;
  IntLiteral v;
  uint64_t n = 0;
  if (parse_int(text.substr(1), v) != IntParse::Ok || !fit_int(v, 8, false, n)) return false;
  reg = static_cast<uint8_t>(n);
  return true;
}

bool looks_like_float(std::string_view t) {
  for (const auto& s : kSpecialFloats)
    if (iequals(t, s.text)) return true;
  std::string_view digits = t.substr(!t.empty() && t[0] == '-' ? 1 : 0);
  if (has_hex_prefix(digits)) return false;
  return digits.find_first_of(".eE") != std::string_view::npos;
}

FloatParse parse_fp32(std::string_view t, uint32_t& bits) {
  for (const auto& s : kSpecialFloats) {
    if (!iequals(t, s.text)) continue;
    bits = s.bits;
    return FloatParse::Ok;
  }
  // from_chars also reads "infinity" and "nan(...)"; only plain decimal spellings are the language's.
  if (t.empty() || t.find_first_not_of("0123456789.eE+-") != std::string_view::npos) return FloatParse::NotANumber;
  if (t.find_first_of("0123456789") == std::string_view::npos) return FloatParse::NotANumber;
  float f = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), f, std::chars_format::general);
  if (ec == std::errc::result_out_of_range) return FloatParse::OutOfRange;
  if (ec != std::errc{} || end != t.data() + t.size()) return FloatParse::NotANumber;
  bits = std::bit_cast<uint32_t>(f);
  return FloatParse::Ok;
}

std::string fp32_literal(uint32_t bits) {
  for (const auto& s : kSpecialFloats)
    if (s.bits == bits) return std::string(s.text);
  const float f = std::bit_cast<float>(bits);
  if (std::isnan(f)) return "";
  std::string text = fmt::format("{}", f);
  // An integral value prints without a point; the point keeps it a float literal in every operand.
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  uint32_t back = 0;
  if (parse_fp32(text, back) != FloatParse::Ok || back != bits) return "";
  return text;
}

}  // namespace tpbisa::tasm
