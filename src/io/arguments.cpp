// The shared value grammars: byte sizes, schedules, NAME=VALUE pairs and trace filters.
#include "tpbisa/io/arguments.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <tuple>

#include <fmt/format.h>

#include "tpbisa/io/json.hpp"
#include "tpbisa/location.hpp"

namespace tpbisa::io {
namespace {

std::string lower_case(std::string_view text) {
  std::string s(text);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// The shift of a size suffix ("" and "b" 0, "k"/"kb"/"kib" 10, ... "t" 40), or -1.
int suffix_shift(std::string_view suffix) {
  const std::string s = lower_case(suffix);
  if (s.empty() || s == "b") return 0;
  constexpr std::string_view kUnits = "kmgt";
  const size_t unit = s.size() <= 3 ? kUnits.find(s[0]) : std::string_view::npos;
  if (unit == std::string_view::npos) return -1;
  const std::string_view rest = std::string_view(s).substr(1);
  if (rest.empty() || rest == "b" || rest == "ib") return 10 * static_cast<int>(unit + 1);
  return -1;
}

}  // namespace

std::optional<uint64_t> parse_size(std::string_view text) {
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  size_t digits = hex ? 2 : 0;
  while (digits < text.size() && (hex ? std::isxdigit(static_cast<unsigned char>(text[digits])) != 0
                                      : std::isdigit(static_cast<unsigned char>(text[digits])) != 0))
    ++digits;
  uint64_t n = 0;
  if (!parse_u64_text(text.substr(0, digits), n)) return std::nullopt;
  const int shift = suffix_shift(text.substr(digits));
  if (shift < 0 || (shift != 0 && n > (UINT64_MAX >> shift))) return std::nullopt;
  return n << shift;
}

bool parse_schedule(std::string_view text, MachineOptions& options) {
  constexpr std::string_view kRandom = "random:";
  uint64_t seed = 0;
  if (text == "default") {
    options.schedule = Schedule::RoundRobin;
  } else if (text == "reverse") {
    options.schedule = Schedule::ReverseRoundRobin;
  } else if (text.substr(0, kRandom.size()) == kRandom && parse_u64_text(text.substr(kRandom.size()), seed)) {
    options.schedule = Schedule::Random;
    options.seed = seed;
  } else {
    return false;
  }
  return true;
}

bool split_pair(std::string_view text, std::string& name, std::string& value) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size()) return false;
  name = text.substr(0, eq);
  value = text.substr(eq + 1);
  return true;
}

std::optional<std::string> TraceFilter::add(std::string_view text) {
  std::string key, value;
  if (!split_pair(text, key, value))
    return fmt::format("'{}' is not KEY=VALUE (engine=PE, opcode=Matmul, core=0)", text);
  if (key == "engine") {
    const auto e = parse_engine(value);
    if (!e)
      return fmt::format("engine '{}' is not an engine (pe, act, pool, dve, sp, or the stream names, any case)", value);
    engines_.push_back(*e);
  } else if (key == "opcode") {
    value = lower_case(value);
    if (value.size() == 3 && value[0] == '0' && value[1] == 'x') value.insert(2, "0");  // 0x2 is 0x02
    opcodes_.push_back(value);
  } else if (key == "core") {
    uint64_t n = 0;
    if (!parse_u64_text(value, n) || n > 255) return fmt::format("core '{}' is not a core number", value);
    cores_.push_back(static_cast<unsigned>(n));
  } else {
    return fmt::format("key '{}' is not engine, opcode or core", key);
  }
  return std::nullopt;
}

bool TraceFilter::pass(const StepResult& r) const {
  if (!engines_.empty() && std::find(engines_.begin(), engines_.end(), r.engine) == engines_.end()) return false;
  if (!cores_.empty() && std::find(cores_.begin(), cores_.end(), r.core) == cores_.end()) return false;
  if (opcodes_.empty()) return true;
  const std::string name = lower_case(r.name);
  const std::string hex = fmt::format("{:#04x}", r.opcode);
  return std::find(opcodes_.begin(), opcodes_.end(), name) != opcodes_.end() ||
         std::find(opcodes_.begin(), opcodes_.end(), hex) != opcodes_.end();
}

std::optional<uint64_t> number_option(std::string_view option, std::string_view text, uint64_t min, uint64_t max,
                                      std::string& error) {
  uint64_t v = 0;
  bool too_big = false;
  if (!parse_u64_text(text, v, &too_big)) {
    error = too_big ? fmt::format("{} '{}' is out of range {}..{}", option, text, min, max)
                    : fmt::format("{} '{}' is not a number", option, text);
    return std::nullopt;
  }
  if (v < min || v > max) {
    error = fmt::format("{} '{}' is out of range {}..{}", option, text, min, max);
    return std::nullopt;
  }
  return v;
}

std::optional<uint32_t> parse_fp32_operand(const std::string& text) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    uint64_t v = 0;
    if (!parse_u64_text(text, v) || v > UINT32_MAX) return std::nullopt;
    return static_cast<uint32_t>(v);
  }
  char* end = nullptr;
  const float f = std::strtof(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
  return std::bit_cast<uint32_t>(f);
}

std::optional<std::string> parse_tolerances(const std::string& rtol, const std::string& atol, double& r, double& a) {
  for (auto [text, value, flag] : {std::tuple{&rtol, &r, "--rtol"}, std::tuple{&atol, &a, "--atol"}}) {
    char* end = nullptr;
    *value = std::strtod(text->c_str(), &end);
    if (text->empty() || end != text->c_str() + text->size() || !std::isfinite(*value) || *value < 0)
      return fmt::format("{} '{}' is not a number 0 or more", flag, *text);
  }
  return std::nullopt;
}

std::optional<std::string> parse_dump_specs(std::span<const std::string> texts, Generation gen, uint64_t max_elements,
                                            std::vector<DumpSpec>& dumps) {
  uint64_t dumped = 0;
  for (const std::string& text : texts) {
    auto d = parse_dump_spec(text, gen);
    if (!d) return fmt::format("--dump '{}': {}", printable(text), d.error().message);
    dumped += d->kind == DumpSpec::Kind::Memory ? d->count : 0;
    // The output of all dumps together is bounded, not only that of each.
    if (dumped > max_elements)
      return fmt::format("--dump '{}': the dumps show more than {} elements in all (--max-dump-elements)",
                         printable(text), max_elements);
    dumps.push_back(std::move(*d));
  }
  return std::nullopt;
}

}  // namespace tpbisa::io
