// The VARS.json reader: the variable table of `lower` and `run --vars`, with ids checked as numbers.
#include "tpbisa/io/vars.hpp"

#include <map>

#include <fmt/format.h>

#include "tpbisa/io/json.hpp"
#include "tpbisa/location.hpp"

namespace tpbisa::io {
namespace {

using json = nlohmann::json;

Expected<VarTable> from_document(const json& doc, std::string_view label) {
  const auto fail = [&](const std::string& message) {
    return Error{ErrorKind::Invalid, fmt::format("{}: {}", label, message)};
  };
  if (!doc.is_object()) return fail(fmt::format("the document must be an object, not {}", json_type_name(doc)));
  for (const auto& [key, value] : doc.items())
    if (key != "vars") return fail(fmt::format("unknown key \"{}\" (expected \"vars\")", printable(key)));
  if (!doc.contains("vars")) return fail("no \"vars\" object");
  const json& table = doc.at("vars");
  if (!table.is_object()) return fail(fmt::format("\"vars\" must be an object, not {}", json_type_name(table)));
  if (table.size() > kMaxVariables)
    return fail(fmt::format("\"vars\" has {} variables; at most {} are accepted", table.size(), kMaxVariables));
  VarTable vars;
  std::map<uint32_t, std::string> spelled;  // id -> the key that defined it, to name both of two duplicates
  for (const auto& [id_text, var] : table.items()) {
    const std::string at = fmt::format("vars.\"{}\"", printable(id_text));
    const bool decimal =
        !id_text.empty() && id_text.size() <= 10 && id_text.find_first_not_of("0123456789") == std::string::npos;
    uint64_t id = 0;
    if (!decimal || !parse_u64_text(id_text, id) || id > UINT32_MAX)
      return fail(fmt::format("{}: a variable id must be a decimal number 0..4294967295", at));
    // "7" and "007" are different keys to JSON but the same variable: one would silently win.
    const auto [first, fresh] = spelled.emplace(static_cast<uint32_t>(id), id_text);
    if (!fresh)
      return fail(
          fmt::format("{}: variable {} is defined twice (also as vars.\"{}\")", at, id, printable(first->second)));
    if (!var.is_object()) return fail(fmt::format("{}: must be an object, not {}", at, json_type_name(var)));
    Variable v;
    for (const auto& [key, value] : var.items()) {
      if (key == "base" || key == "size") {
        const auto n = json_u64(value);
        if (!n) return fail(fmt::format("{}.{}: {}", at, key, n.error().message));
        (key == "base" ? v.base : v.size) = *n;
      } else {
        return fail(fmt::format("{}: unknown key \"{}\" (expected \"base\" and \"size\")", at, printable(key)));
      }
    }
    if (!var.contains("base")) return fail(fmt::format("{}: no \"base\"", at));
    if (!var.contains("size")) return fail(fmt::format("{}: no \"size\"", at));
    vars[static_cast<uint32_t>(id)] = v;
  }
  return vars;
}

}  // namespace

Expected<VarTable> parse_vars(std::string_view text, std::string_view label) {
  const auto doc = parse_json_text(text, label);
  if (!doc) return doc.error();
  return from_document(*doc, label);
}

Expected<VarTable> load_vars(const std::string& path) {
  const auto doc = read_json_file(path);
  if (!doc) return doc.error();
  return from_document(*doc, input_label(path));
}

}  // namespace tpbisa::io
