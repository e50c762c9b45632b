// JSON inputs: size-bounded reads, nlohmann's parser with duplicate-key, depth and trailing-byte checks.
#include "tpbisa/io/json.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "tpbisa/location.hpp"

namespace tpbisa::io {
namespace {

using json = nlohmann::json;

/// A first pass over the text with nlohmann's SAX interface: the parser's own errors (with line, column and
/// byte), duplicate object keys and excessive nesting. (nlohmann's parser callback would do the same, but
/// costs O(n) per nested object, O(n^2) for a table of many variables.)
class StructureCheck {
 public:
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(number_integer_t) { return true; }
  bool number_unsigned(number_unsigned_t) { return true; }
  bool number_float(number_float_t, const string_t&) { return true; }
  bool string(string_t&) { return true; }
  bool binary(binary_t&) { return true; }
  bool start_object(std::size_t) {
    keys_.emplace_back();
    return enter();
  }
  bool key(string_t& k) {
    if (keys_.back().insert(k).second) return true;
    problem = fmt::format("duplicate key \"{}\"", printable(k));
    return false;
  }
  bool end_object() {
    keys_.pop_back();
    --depth_;
    return true;
  }
  bool start_array(std::size_t) { return enter(); }
  bool end_array() {
    --depth_;
    return true;
  }
  bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception& e) {
    std::string what = e.what();
    const size_t cut = what.find("] ");
    if (cut != std::string::npos) what.erase(0, cut + 2);
    problem = fmt::format("{} (byte {})", printable(what), byte);
    return false;
  }

  std::string problem;

 private:
  bool enter() {
    if (++depth_ <= kMaxJsonDepth) return true;
    problem = fmt::format("nesting deeper than {} levels", kMaxJsonDepth);
    return false;
  }
  std::vector<std::set<std::string>> keys_;
  unsigned depth_ = 0;
};

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7F)
      out += fmt::format("\\x{:02x}", u);
    else
      out += c;
  }
  return out;
}

std::string input_label(std::string_view path) {
  return path == "-" ? "<stdin>" : std::string(path);
}

Expected<std::string> read_bounded(const std::string& path, uint64_t max_bytes, std::string_view what) {
  const std::string label = input_label(path);
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (f == nullptr) return Error{ErrorKind::Open, fmt::format("{}: cannot open: {}", label, std::strerror(errno))};
  std::string text;
  std::vector<char> buf(65536);
  Expected<std::string> result{std::string()};
  for (;;) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(buf.size(), max_bytes + 1 - text.size()));
    const size_t got = std::fread(buf.data(), 1, want, f);
    text.append(buf.data(), got);
    if (text.size() > max_bytes) {
      result = Error{ErrorKind::TooLarge, fmt::format("{}: larger than {} bytes ({} MiB), the most {} may have", label,
                                                      max_bytes, max_bytes >> 20, what)};
      break;
    }
    if (got == 0) {
      if (std::ferror(f) != 0)
        result = Error{ErrorKind::Read, fmt::format("{}: read error: {}", label, std::strerror(errno))};
      else
        result = std::move(text);
      break;
    }
  }
  if (f != stdin) std::fclose(f);
  return result;
}

Expected<json> parse_json_text(std::string_view text, std::string_view label) {
  const auto malformed = [&](const std::string& why) {
    return Error{ErrorKind::Malformed, fmt::format("{}: malformed JSON: {}", label, why)};
  };
  // A raw NUL is never JSON; without this check the parser would stop there and ignore the rest.
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
    return malformed(fmt::format("a NUL byte at byte {}", nul));
  StructureCheck check;
  if (!json::sax_parse(text, &check)) return malformed(check.problem);
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    return malformed(printable(e.what()));
  } catch (const std::exception& e) {
    return malformed(printable(e.what()));
  }
}

Expected<json> read_json_file(const std::string& path) {
  auto text = read_bounded(path, kMaxJsonBytes, "a JSON input");
  if (!text) return text.error();
  return parse_json_text(*text, input_label(path));
}

std::string json_type_name(const json& j) {
  switch (j.type()) {
    case json::value_t::object: return "object";
    case json::value_t::array: return "array";
    case json::value_t::string: return "string";
    case json::value_t::boolean: return "boolean";
    case json::value_t::null: return "null";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "number";
    default: return "value";
  }
}

Expected<uint64_t> json_u64(const json& j) {
  const auto bad = [](std::string m) { return Error{ErrorKind::Invalid, std::move(m)}; };
  if (j.is_number_unsigned()) return j.get<uint64_t>();
  if (j.is_number_integer()) return bad(fmt::format("{} is negative", j.get<int64_t>()));
  if (j.is_number_float()) return bad(fmt::format("{} is not an integer", j.dump()));
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    uint64_t v = 0;
    if (!parse_u64_text(s, v))
      return bad(fmt::format("\"{}\" is not a decimal or 0x hex number below 2^64", printable(s)));
    return v;
  }
  return bad(fmt::format("must be a number or a string, not {}", json_type_name(j)));
}

std::string dump_json(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace tpbisa::io
