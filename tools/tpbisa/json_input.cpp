// JSON inputs: size-bounded reads, nlohmann's parser with duplicate-key and depth checks, VARS.json.
#include "json_input.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "common.hpp"

namespace tpbisa::cli {
namespace {

using json = nlohmann::json;

/// The parser quotes the input it read last; keep a message one clean line whatever the input held.
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
    problem = fmt::format("duplicate key \"{}\"", k);
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

/// Reads the input, stopping as soon as it has more than kMaxJsonBytes, so an over-long input is never read whole.
bool read_bounded(const std::string& path, const std::string& label, std::string& text, std::string& error) {
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    error = fmt::format("{}: cannot open: {}", label, std::strerror(errno));
    return false;
  }
  std::vector<char> buf(65536);
  bool ok = true;
  for (;;) {
    const size_t got = std::fread(buf.data(), 1, buf.size(), f);
    text.append(buf.data(), got);
    if (text.size() > kMaxJsonBytes) {
      error = fmt::format("{}: larger than {} bytes (16 MiB), the most a JSON input may have", label, kMaxJsonBytes);
      ok = false;
      break;
    }
    if (got == 0) {
      if (std::ferror(f) != 0) {
        error = fmt::format("{}: read error: {}", label, std::strerror(errno));
        ok = false;
      }
      break;
    }
  }
  if (f != stdin) std::fclose(f);
  return ok;
}

}  // namespace

std::string input_label(const std::string& path) {
  return path == "-" ? "<stdin>" : path;
}

std::optional<json> read_json_file(const std::string& path, std::string& error) {
  const std::string label = input_label(path);
  std::string text;
  if (!read_bounded(path, label, text, error)) return std::nullopt;
  StructureCheck check;
  if (!json::sax_parse(text, &check)) {
    error = fmt::format("{}: malformed JSON: {}", label, check.problem);
    return std::nullopt;
  }
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    error = fmt::format("{}: malformed JSON: {}", label, printable(e.what()));
  }
  return std::nullopt;
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

bool json_u64(const json& j, uint64_t& out, std::string& error) {
  if (j.is_number_unsigned()) {
    out = j.get<uint64_t>();
    return true;
  }
  if (j.is_number_integer()) {
    error = fmt::format("{} is negative", j.get<int64_t>());
    return false;
  }
  if (j.is_number_float()) {
    error = fmt::format("{} is not an integer", j.dump());
    return false;
  }
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    const auto v = parse_u64(s);
    if (!v) {
      error = fmt::format("\"{}\" is not a decimal or 0x hex number below 2^64", s);
      return false;
    }
    out = *v;
    return true;
  }
  error = fmt::format("must be a number or a string, not {}", json_type_name(j));
  return false;
}

bool load_vars(const std::string& path, VarTable& vars, std::string& error) {
  const std::string label = input_label(path);
  const auto doc = read_json_file(path, error);
  if (!doc) return false;
  const auto fail = [&](const std::string& message) {
    error = fmt::format("{}: {}", label, message);
    return false;
  };
  if (!doc->is_object()) return fail(fmt::format("the document must be an object, not {}", json_type_name(*doc)));
  for (const auto& [key, value] : doc->items())
    if (key != "vars") return fail(fmt::format("unknown key \"{}\" (expected \"vars\")", key));
  if (!doc->contains("vars")) return fail("no \"vars\" object");
  const json& table = doc->at("vars");
  if (!table.is_object()) return fail(fmt::format("\"vars\" must be an object, not {}", json_type_name(table)));
  if (table.size() > kMaxVariables)
    return fail(fmt::format("\"vars\" has {} variables; at most {} are accepted", table.size(), kMaxVariables));
  for (const auto& [id_text, var] : table.items()) {
    const std::string at = fmt::format("vars.\"{}\"", id_text);
    const bool decimal =
        !id_text.empty() && id_text.size() <= 10 && id_text.find_first_not_of("0123456789") == std::string::npos;
    const auto id = decimal ? parse_u64(id_text) : std::nullopt;
    if (!id || *id > UINT32_MAX)
      return fail(fmt::format("{}: a variable id must be a decimal number 0..4294967295", at));
    if (!var.is_object()) return fail(fmt::format("{}: must be an object, not {}", at, json_type_name(var)));
    Variable v;
    for (const auto& [key, value] : var.items()) {
      std::string why;
      if (key == "base") {
        if (!json_u64(value, v.base, why)) return fail(fmt::format("{}.base: {}", at, why));
      } else if (key == "size") {
        if (!json_u64(value, v.size, why)) return fail(fmt::format("{}.size: {}", at, why));
      } else {
        return fail(fmt::format("{}: unknown key \"{}\" (expected \"base\" and \"size\")", at, key));
      }
    }
    if (!var.contains("base")) return fail(fmt::format("{}: no \"base\"", at));
    if (!var.contains("size")) return fail(fmt::format("{}: no \"size\"", at));
    vars[static_cast<uint32_t>(*id)] = v;
  }
  return true;
}

}  // namespace tpbisa::cli
