// The STATE.json reader: registers, semaphores, events and typed memory entries, every error naming its key.
#include "tpbisa/io/state.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "tpbisa/io/element.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/location.hpp"

namespace tpbisa::io {
namespace {

using json = nlohmann::json;  // inputs: std::map objects, O(log n) per key

std::optional<uint64_t> u64_text(std::string_view text) {
  uint64_t v = 0;
  if (!parse_u64_text(text, v)) return std::nullopt;
  return v;
}

/// STATE.json reader: one method per top-level key; `fail` prefixes the file name.
class StateLoader {
 public:
  StateLoader(std::string label, MachineState& state, const ConvertOptions& convert)
      : label_(std::move(label)), state_(state), convert_(convert) {}

  std::string error;

  bool load(const json& doc) {
    if (!doc.is_object()) return fail(fmt::format("the document must be an object, not {}", json_type_name(doc)));
    for (const auto& [key, value] : doc.items()) {
      if (key == "regs") {
        if (!regs(value)) return false;
      } else if (key == "semaphores") {
        if (!semaphores(value)) return false;
      } else if (key == "events") {
        if (!events(value)) return false;
      } else if (key == "memory") {
        if (!memory(value)) return false;
      } else {
        return fail(fmt::format("unknown key \"{}\" (expected regs, semaphores, events, memory)", key));
      }
    }
    return true;
  }

 private:
  bool fail(const std::string& message) {
    error = fmt::format("{}: {}", label_, message);
    return false;
  }

  /// A 32-bit value: 0..2^32-1, or a decimal / 0x hex string of one; with `allow_int32` also a negative int32
  /// (-2^31..-1, stored as its two's complement), as a number or a string with a leading '-'. Anything beyond
  /// 32 bits is out of range, however it is written (a string past 2^64, a number JSON reads as a float).
  bool u32_value(const json& v, const std::string& at, uint32_t& out, bool allow_int32) {
    const std::string_view int32_range = allow_int32 ? ", or -2147483648..-1 as int32" : "";
    const auto out_of_range = [&](const std::string& shown, std::string_view bound) {
      return fail(fmt::format("{}: {} is out of range ({}{})", at, shown, bound, int32_range));
    };
    constexpr std::string_view kDecimalBound = "0..4294967295";
    constexpr std::string_view kHexBound = "0..0xffffffff";
    if (v.is_number_unsigned()) {
      const uint64_t u = v.get<uint64_t>();
      if (u > UINT32_MAX) return out_of_range(fmt::format("{}", u), kDecimalBound);
      out = static_cast<uint32_t>(u);
      return true;
    }
    if (v.is_number_integer()) {
      const int64_t n = v.get<int64_t>();
      if (!allow_int32 || n < std::numeric_limits<int32_t>::min())
        return out_of_range(fmt::format("{}", n), kDecimalBound);
      out = static_cast<uint32_t>(static_cast<int32_t>(n));
      return true;
    }
    if (v.is_number_float()) {
      // JSON integers beyond 64 bits arrive as floats: they are out of range, not "not an integer".
      const double d = v.get<double>();
      if (std::isfinite(d) && std::trunc(d) == d && (d > UINT32_MAX || d < (allow_int32 ? INT32_MIN : 0)))
        return out_of_range(v.dump(), kDecimalBound);
      return fail(fmt::format("{}: {} is not an integer", at, v.dump()));
    }
    if (v.is_string()) {
      const std::string text = v.get<std::string>();
      const bool negative = text.starts_with('-');
      const std::string_view digits = std::string_view(text).substr(negative ? 1 : 0);
      if (!is_number_text(digits))
        return fail(fmt::format("{}: \"{}\" is not a decimal or 0x hex number {}{}", at, text, kHexBound,
                                allow_int32 ? " (or -2147483648..-1 as int32)" : ""));
      const bool hex = digits.size() > 2 && (digits[1] == 'x' || digits[1] == 'X');  // the bound as it is written
      const auto u = u64_text(digits);
      const uint64_t limit = negative ? uint64_t{1} << 31 : UINT32_MAX;
      if (!u || *u > limit || (negative && !allow_int32 && *u != 0))
        return out_of_range(fmt::format("\"{}\"", text), hex ? kHexBound : kDecimalBound);
      const auto bits = static_cast<uint32_t>(*u);
      out = negative ? static_cast<uint32_t>(uint32_t{0} - bits) : bits;  // two's complement of a negative int32
      return true;
    }
    return fail(fmt::format("{}: must be a number or a string, not {}", at, json_type_name(v)));
  }

  /// Decimal digits, or 0x and hex digits: a number in the syntax parse_u64 reads, whatever its size.
  static bool is_number_text(std::string_view t) {
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
      return t.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string_view::npos;
    return !t.empty() && t.find_first_not_of("0123456789") == std::string_view::npos;
  }

  bool regs(const json& v) {
    if (!v.is_object()) return fail(fmt::format("regs: must be an object, not {}", json_type_name(v)));
    for (const auto& [key, value] : v.items()) {
      const std::string at = fmt::format("regs.{}", key);
      const bool named = key.size() >= 2 && key.size() <= 3 && (key[0] == 'r' || key[0] == 'R') &&
                         key.find_first_not_of("0123456789", 1) == std::string::npos &&
                         !(key.size() == 3 && key[1] == '0');
      const auto n = named ? u64_text(std::string_view(key).substr(1)) : std::nullopt;
      if (!n || *n >= kNumRegisters)
        return fail(fmt::format("{}: not a register name (r0..r{})", at, kNumRegisters - 1));
      if (!u32_value(value, at, state_.regs[*n], true)) return false;
    }
    return true;
  }

  static bool index_key(const std::string& key, uint64_t limit, uint64_t& out) {
    if (key.empty() || key.size() > 3 || key.find_first_not_of("0123456789") != std::string::npos) return false;
    if (key.size() > 1 && key[0] == '0') return false;
    out = *u64_text(key);
    return out < limit;
  }

  bool semaphores(const json& v) {
    if (!v.is_object()) return fail(fmt::format("semaphores: must be an object, not {}", json_type_name(v)));
    for (const auto& [key, value] : v.items()) {
      const std::string at = fmt::format("semaphores.\"{}\"", key);
      uint64_t i = 0;
      if (!index_key(key, kNumSemaphores, i))
        return fail(fmt::format("{}: a semaphore id must be a decimal number 0..{}", at, kNumSemaphores - 1));
      if (!u32_value(value, at, state_.sems[i], false)) return false;
    }
    return true;
  }

  bool events(const json& v) {
    if (state_.gen == Generation::Maverick)
      return fail("events: maverick has no events (events exist on sunda, cayman and mariana)");
    if (!v.is_array()) return fail(fmt::format("events: must be an array of event indices, not {}", json_type_name(v)));
    for (size_t k = 0; k < v.size(); ++k) {
      const json& e = v[k];
      if (!e.is_number_unsigned() || e.get<uint64_t>() >= kNumEvents)
        return fail(fmt::format("events[{}]: {} is not an event index 0..{}", k, e.dump(), kNumEvents - 1));
      state_.events.set(e.get<uint64_t>());
    }
    return true;
  }

  bool memory(const json& v) {
    if (!v.is_array()) return fail(fmt::format("memory: must be an array, not {}", json_type_name(v)));
    for (size_t k = 0; k < v.size(); ++k)
      if (!memory_entry(v[k], fmt::format("memory[{}]", k))) return false;
    return true;
  }

  bool memory_entry(const json& e, const std::string& at) {
    if (!e.is_object()) return fail(fmt::format("{}: must be an object, not {}", at, json_type_name(e)));
    for (const auto& [key, value] : e.items())
      if (key != "at" && key != "dtype" && key != "values" && key != "bits")
        return fail(fmt::format("{}: unknown key \"{}\" (expected at, dtype, and values or bits)", at, key));
    if (!e.contains("at")) return fail(fmt::format("{}: no \"at\" location", at));
    if (!e.contains("dtype")) return fail(fmt::format("{}: no \"dtype\"", at));
    const bool has_values = e.contains("values"), has_bits = e.contains("bits");
    if (has_values == has_bits) return fail(fmt::format("{}: give exactly one of \"values\" and \"bits\"", at));
    const json& where = e.at("at");
    const json& dtype = e.at("dtype");
    if (!where.is_string()) return fail(fmt::format("{}.at: must be a string ({})", at, kLocationForms));
    if (!dtype.is_string()) return fail(fmt::format("{}.dtype: must be a string", at));
    const auto loc = parse_location(where.get<std::string>(), state_.gen);
    if (!loc) return fail(fmt::format("{}.at: {}", at, loc.error().message));
    const auto type = parse_element_type(dtype.get<std::string>(), false);
    if (!type) return fail(fmt::format("{}.dtype: {}", at, type.error().message));
    const ElementType& t = *type;
    const std::string list_key = has_values ? "values" : "bits";
    const json& list = e.at(list_key);
    if (!list.is_array())
      return fail(fmt::format("{}.{}: must be an array, not {}", at, list_key, json_type_name(list)));
    elements_ += list.size();
    if (elements_ > kMaxStateElements)
      return fail(fmt::format("{}.{}: more than {} elements in all; split the state", at, list_key, kMaxStateElements));
    if (const auto extent = check_extent(*loc, state_.gen, uint64_t{list.size()} * t.size); !extent)
      return fail(fmt::format("{}: {}", at, extent.error().message));
    for (size_t i = 0; i < list.size(); ++i) {
      const auto bits = has_values ? value_to_bits(list[i], t, convert_) : hex_to_bits(list[i], t);
      if (!bits) return fail(fmt::format("{}.{}[{}]: {}", at, list_key, i, bits.error().message));
      if (!state_.memory.write(loc->address + i * t.size, t.size, *bits))
        return fail(fmt::format("{}.{}[{}]: the state needs more simulated memory than --max-memory allows ({} bytes)",
                                at, list_key, i, state_.memory.max_bytes()));
    }
    return true;
  }

  std::string label_;
  MachineState& state_;
  const ConvertOptions& convert_;
  uint64_t elements_ = 0;
};

Expected<void> apply(const json& doc, std::string_view label, MachineState& state, const ConvertOptions& convert) {
  StateLoader loader{std::string(label), state, convert};
  if (!loader.load(doc)) return Error{ErrorKind::Invalid, std::move(loader.error)};
  return {};
}

}  // namespace

Expected<void> parse_state(std::string_view text, std::string_view label, MachineState& state,
                           const ConvertOptions& convert) {
  const auto doc = parse_json_text(text, label);
  if (!doc) return doc.error();
  return apply(*doc, label, state, convert);
}

Expected<void> load_state(const std::string& path, MachineState& state, const ConvertOptions& convert) {
  const auto doc = read_json_file(path);
  if (!doc) return doc.error();
  return apply(*doc, input_label(path), state, convert);
}

}  // namespace tpbisa::io
