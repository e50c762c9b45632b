// STATE.json loading, memory locations, element values <-> bits, and the --dump spec parser.
#include "state_json.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "common.hpp"
#include "json_input.hpp"
#include "tpbisa/address.hpp"

namespace tpbisa::cli {
namespace {

using json = nlohmann::json;  // inputs: std::map objects, O(log n) per key
using ojson = nlohmann::ordered_json;

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  for (;;) {
    const size_t at = text.find(sep);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// End of the low SBUF/PSUM region (PROJ-CONV-N4): addresses below it are on-chip.
uint64_t low_region_end(Generation g) {
  const Geometry& geo = geometry(g);
  return geo.psum_size != 0 ? uint64_t{geo.psum_offset} + geo.psum_size : uint64_t{geo.sbuf_offset} + geo.sbuf_size;
}

bool parse_u32(std::string_view text, std::string_view what, uint32_t& out, std::string& error) {
  const auto v = parse_u64(text);
  if (!v || *v > UINT32_MAX) {
    error = fmt::format("{} '{}' is not a decimal or 0x hex number below 2^32", what, text);
    return false;
  }
  out = static_cast<uint32_t>(*v);
  return true;
}

/// Parses the location part of a split spec: parts[0..n) with n = 2 (dev) or 3 (sbuf/psum).
bool location_from_parts(const std::vector<std::string_view>& parts, Generation g, Location& out, std::string& error) {
  const std::string region = lower(parts[0]);
  if (region == "dev") {
    const auto a = parse_u64(parts[1]);
    if (!a) {
      error = fmt::format("address '{}' is not a decimal or 0x hex number below 2^64", parts[1]);
      return false;
    }
    out.kind = Location::Kind::Dev;
    out.address = *a;
    out.text = fmt::format("dev:{:#x}", *a);
    return true;
  }
  const bool sbuf = region == "sbuf";
  const Geometry& geo = geometry(g);
  uint32_t p = 0, off = 0;
  if (!parse_u32(parts[1], "partition", p, error) || !parse_u32(parts[2], "offset", off, error)) return false;
  const uint32_t parts_n = sbuf ? geo.sbuf_partitions : geo.psum_partitions;
  const uint32_t active = sbuf ? geo.sbuf_partition_active : geo.psum_partition_active;
  if (!sbuf && geo.psum_size == 0) {
    error = fmt::format("{} has no PSUM", to_string(g));
    return false;
  }
  if (p >= parts_n) {
    error = fmt::format("partition {} is outside {} (partitions 0..{})", p, sbuf ? "SBUF" : "PSUM", parts_n - 1);
    return false;
  }
  const auto a = sbuf ? sbuf_address(g, p, off) : psum_address(g, p, off);
  if (!a) {
    error = fmt::format("offset {:#x} is outside {} partition {}'s {:#x} backed bytes on {}", off,
                        sbuf ? "SBUF" : "PSUM", p, active, to_string(g));
    return false;
  }
  out.kind = sbuf ? Location::Kind::Sbuf : Location::Kind::Psum;
  out.partition = p;
  out.offset = off;
  out.address = *a;
  out.text = fmt::format("{}:{}:{:#x}", sbuf ? "sbuf" : "psum", p, off);
  return true;
}

constexpr std::string_view kLocationSyntax = "dev:ADDR, sbuf:PARTITION:OFFSET or psum:PARTITION:OFFSET";

/// The bits of a float value given as a JSON number or one of the strings nan, inf, -inf.
bool float_bits(const json& v, uint32_t& out, std::string& error) {
  if (v.is_string()) {
    const std::string s = lower(v.get<std::string>());
    if (s == "nan")
      out = 0x7FC00000U;
    else if (s == "inf" || s == "+inf")
      out = 0x7F800000U;
    else if (s == "-inf")
      out = 0xFF800000U;
    else {
      error = fmt::format("\"{}\" is not a number (strings allowed: \"nan\", \"inf\", \"-inf\")", v.get<std::string>());
      return false;
    }
    return true;
  }
  if (!v.is_number()) {
    error = fmt::format("must be a number, not {}", json_type_name(v));
    return false;
  }
  const double d = v.get<double>();
  const float f = static_cast<float>(d);
  if (std::isfinite(d) && !std::isfinite(f)) {
    error = fmt::format("{} is out of range for fp32 (largest finite magnitude {})", v.dump(),
                        std::numeric_limits<float>::max());
    return false;
  }
  out = std::bit_cast<uint32_t>(f);
  return true;
}

}  // namespace

bool parse_location(std::string_view text, Generation g, Location& out, std::string& error) {
  const auto parts = split(text, ':');
  const std::string region = lower(parts[0]);
  const size_t want = region == "dev" ? 2 : (region == "sbuf" || region == "psum") ? 3 : 0;
  if (want == 0 || parts.size() != want) {
    error = fmt::format("'{}' is not a location ({})", text, kLocationSyntax);
    return false;
  }
  return location_from_parts(parts, g, out, error);
}

bool check_extent(const Location& loc, Generation g, uint64_t bytes, std::string& error) {
  if (bytes == 0) return true;
  if (loc.kind != Location::Kind::Dev) {
    const bool sbuf = loc.kind == Location::Kind::Sbuf;
    const uint64_t last = uint64_t{loc.offset} + bytes - 1;
    const auto a = last > UINT32_MAX ? std::nullopt
                   : sbuf            ? sbuf_address(g, loc.partition, static_cast<uint32_t>(last))
                                     : psum_address(g, loc.partition, static_cast<uint32_t>(last));
    if (!a) {
      const Geometry& geo = geometry(g);
      error = fmt::format("{} bytes at {} run past {} partition {}'s {:#x} backed bytes on {}", bytes, loc.text,
                          sbuf ? "SBUF" : "PSUM", loc.partition,
                          sbuf ? geo.sbuf_partition_active : geo.psum_partition_active, to_string(g));
      return false;
    }
    return true;
  }
  const uint64_t last = loc.address + (bytes - 1);
  if (last < loc.address) {
    error = fmt::format("{} bytes at {} run past the end of the 64-bit address space", bytes, loc.text);
    return false;
  }
  const uint64_t low_end = low_region_end(g);
  if (loc.address >= low_end) return true;  // flat device memory (PROJ-CONV-N4)
  const PartitionAddress first = decode_partition_offset(static_cast<uint32_t>(loc.address), g);
  const PartitionAddress end = decode_partition_offset(static_cast<uint32_t>(std::min(last, low_end - 1)), g);
  if (last < low_end && first.region != Region::Outside && first.backed && end.backed && first.region == end.region &&
      first.partition == end.partition)
    return true;
  error = fmt::format(
      "{} bytes at {} are in the on-chip SBUF/PSUM region of {} but not inside one partition's "
      "backed bytes (PROJ-CONV-N2; write sbuf:P:OFF or psum:P:OFF)",
      bytes, loc.text, to_string(g));
  return false;
}

bool parse_element_type(std::string_view text, bool need_numeric, ElementType& out, std::string& error) {
  const auto code = parse_dtype(text);
  if (!code) {
    error = fmt::format(
        "unknown dtype '{}' (see 'tpbisa catalog dtypes'; short forms u8 i8 u16 i16 u32 i32 u64 "
        "i64 bf16 fp16 fp32 fp8e3 fp8e4 fp8e5)",
        text);
    return false;
  }
  ElementType t;
  t.code = *code;
  t.info = find_dtype(*code);
  if (t.info == nullptr || t.info->bits == 0 || t.info->bits % 8 != 0) {
    error = fmt::format("dtype {} has no byte-sized elements", t.info != nullptr ? t.info->name : text);
    return false;
  }
  t.size = t.info->bits / 8;
  t.integer = t.info->kind == DtypeKind::UInt || t.info->kind == DtypeKind::SInt;
  t.is_signed = t.info->kind == DtypeKind::SInt;
  t.floating = t.info->kind == DtypeKind::Float && convertible(t.code);
  if (need_numeric && !t.numeric()) {
    error = fmt::format("dtype {} has no numeric conversion in tpbisa; use its bits (\"bits\", or a dump as u8)",
                        t.info->name);
    return false;
  }
  out = t;
  return true;
}

bool value_to_bits(const json& v, const ElementType& t, const ConvertOptions& convert, uint64_t& bits,
                   std::string& error) {
  if (t.floating) {
    uint32_t f = 0;
    if (!float_bits(v, f, error)) return false;
    bits = from_fp32_bits(f, t.code, convert);
    return true;
  }
  if (!t.integer) {
    error = fmt::format("dtype {} has no numeric conversion; give \"bits\" instead of \"values\"", t.info->name);
    return false;
  }
  const unsigned width = 8 * t.size;
  if (!v.is_number_integer()) {
    error = v.is_number() ? fmt::format("{} is not an integer ({} takes integers)", v.dump(), t.info->name)
                          : fmt::format("must be an integer, not {}", json_type_name(v));
    return false;
  }
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  if (t.is_signed) {
    const int64_t lo = width == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (width - 1));
    const int64_t hi = width == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (width - 1)) - 1;
    const bool fits = v.is_number_unsigned() ? v.get<uint64_t>() <= static_cast<uint64_t>(hi)
                                             : v.get<int64_t>() >= lo && v.get<int64_t>() <= hi;
    if (!fits) {
      error = fmt::format("{} is out of range for {} ({}..{})", v.dump(), t.info->name, lo, hi);
      return false;
    }
    bits = static_cast<uint64_t>(v.get<int64_t>()) & mask;
    return true;
  }
  if (!v.is_number_unsigned() || v.get<uint64_t>() > mask) {
    error = fmt::format("{} is out of range for {} (0..{})", v.dump(), t.info->name, mask);
    return false;
  }
  bits = v.get<uint64_t>();
  return true;
}

bool hex_to_bits(const json& v, const ElementType& t, uint64_t& bits, std::string& error) {
  if (!v.is_string()) {
    error = fmt::format("must be a \"0x...\" string, not {}", json_type_name(v));
    return false;
  }
  const std::string s = v.get<std::string>();
  const bool prefixed = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const auto value = prefixed ? parse_u64(s) : std::nullopt;
  const uint64_t mask = t.size >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * t.size)) - 1;
  if (!value) {
    error = fmt::format("\"{}\" is not a 0x hex bit pattern", s);
    return false;
  }
  if (*value > mask) {
    error = fmt::format("\"{}\" does not fit the {} bits of {}", s, 8 * t.size, t.info->name);
    return false;
  }
  bits = *value;
  return true;
}

ojson float_json(float f) {
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
  // The shortest decimal that reads back as this float, stored as the double it spells.
  return std::strtod(fmt::format("{}", f).c_str(), nullptr);
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

namespace {

/// STATE.json reader: one method per top-level key; `fail` prefixes the file name.
class StateLoader {
 public:
  StateLoader(std::string label, MachineState& state, const ConvertOptions& convert, std::string& error)
      : label_(std::move(label)), state_(state), convert_(convert), error_(error) {}

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
    error_ = fmt::format("{}: {}", label_, message);
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
      const auto u = parse_u64(digits);
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
      const auto n = named ? parse_u64(std::string_view(key).substr(1)) : std::nullopt;
      if (!n || *n >= kNumRegisters) return fail(fmt::format("{}: not a register name (r0..r63)", at));
      if (!u32_value(value, at, state_.regs[*n], true)) return false;
    }
    return true;
  }

  static bool index_key(const std::string& key, uint64_t limit, uint64_t& out) {
    if (key.empty() || key.size() > 3 || key.find_first_not_of("0123456789") != std::string::npos) return false;
    if (key.size() > 1 && key[0] == '0') return false;
    out = *parse_u64(key);
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
    if (!where.is_string()) return fail(fmt::format("{}.at: must be a string ({})", at, kLocationSyntax));
    if (!dtype.is_string()) return fail(fmt::format("{}.dtype: must be a string", at));
    std::string why;
    Location loc;
    if (!parse_location(where.get<std::string>(), state_.gen, loc, why)) return fail(fmt::format("{}.at: {}", at, why));
    ElementType t;
    if (!parse_element_type(dtype.get<std::string>(), false, t, why)) return fail(fmt::format("{}.dtype: {}", at, why));
    const std::string list_key = has_values ? "values" : "bits";
    const json& list = e.at(list_key);
    if (!list.is_array())
      return fail(fmt::format("{}.{}: must be an array, not {}", at, list_key, json_type_name(list)));
    elements_ += list.size();
    if (elements_ > kMaxStateElements)
      return fail(fmt::format("{}.{}: more than {} elements in all; split the state", at, list_key, kMaxStateElements));
    if (!check_extent(loc, state_.gen, uint64_t{list.size()} * t.size, why))
      return fail(fmt::format("{}: {}", at, why));
    for (size_t i = 0; i < list.size(); ++i) {
      uint64_t bits = 0;
      const bool ok = has_values ? value_to_bits(list[i], t, convert_, bits, why) : hex_to_bits(list[i], t, bits, why);
      if (!ok) return fail(fmt::format("{}.{}[{}]: {}", at, list_key, i, why));
      if (!state_.memory.write(loc.address + i * t.size, t.size, bits))
        return fail(fmt::format("{}.{}[{}]: the state needs more simulated memory than --max-memory allows ({} bytes)",
                                at, list_key, i, state_.memory.max_bytes()));
    }
    return true;
  }

  std::string label_;
  MachineState& state_;
  const ConvertOptions& convert_;
  std::string& error_;
  uint64_t elements_ = 0;
};

}  // namespace

bool load_state(const std::string& path, MachineState& state, const ConvertOptions& convert, std::string& error) {
  const auto doc = read_json_file(path, error);
  if (!doc) return false;
  return StateLoader(input_label(path), state, convert, error).load(*doc);
}

bool parse_dump_spec(std::string_view text, Generation g, DumpSpec& out, std::string& error) {
  const auto parts = split(text, ':');
  const std::string kind = lower(parts[0]);
  DumpSpec d;
  d.text = std::string(text);
  if (kind == "dve") {
    uint32_t ch = 0;
    if (parts.size() != 2) {
      error = "expected dve:CHANNEL";
      return false;
    }
    if (!parse_u32(parts[1], "channel", ch, error)) return false;
    if (ch >= kDveChannels) {
      error = fmt::format("channel {} is outside 0..{}", ch, kDveChannels - 1);
      return false;
    }
    d.kind = DumpSpec::Kind::Dve;
    d.channel = ch;
    out = d;
    return true;
  }
  const size_t loc_parts = kind == "dev" ? 2 : (kind == "sbuf" || kind == "psum") ? 3 : 0;
  if (loc_parts == 0 || parts.size() != loc_parts + 2) {
    error = "expected dev:ADDR:DTYPE:COUNT, sbuf:P:OFF:DTYPE:COUNT, psum:P:OFF:DTYPE:COUNT or dve:CHANNEL";
    return false;
  }
  if (!location_from_parts(parts, g, d.at, error)) return false;
  if (!parse_element_type(parts[loc_parts], true, d.type, error)) return false;
  const auto count = parse_u64(parts[loc_parts + 1]);
  if (!count || *count == 0 || *count > kMaxDumpElements) {
    error = fmt::format("COUNT '{}' must be a number 1..{}", parts[loc_parts + 1], kMaxDumpElements);
    return false;
  }
  d.count = *count;
  if (!check_extent(d.at, g, d.count * d.type.size, error)) return false;
  out = d;
  return true;
}

}  // namespace tpbisa::cli
