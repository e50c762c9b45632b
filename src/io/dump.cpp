// The --dump spec grammar: a location (any accepted spelling), a numeric dtype and a count; or an instance of a unit
// state a family declares (a DVE channel).
#include "tpbisa/io/dump.hpp"

#include <cctype>

#include <fmt/format.h>

#include "tpbisa/io/json.hpp"

namespace tpbisa::io {

std::pair<std::string, std::string> dump_unit_help() {
  std::string names, forms;
  for (const UnitState* u : unit_states()) {
    std::string upper(u->name), instance(u->instance);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (char& c : instance) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    names += fmt::format("{}{}", names.empty() ? "" : "/", upper);
    forms += fmt::format(" or {}:{}", u->name, instance);
  }
  return {names, forms};
}

std::string dump_forms() {
  return "LOCATION:DTYPE:COUNT (LOCATION as sbuf[pP]+OFF, psum[pP].bankB+OFF, dev:ADDR, sbuf:P:OFF or psum:P:OFF)" +
         dump_unit_help().second;
}

namespace {

/// INDEX of a unit state's NAME:INDEX.
Expected<DumpSpec> parse_unit_spec(const UnitState& u, std::string_view index) {
  uint64_t i = 0;
  bool too_big = false;
  if (!parse_u64_text(index, i, &too_big) && !too_big)
    return Error{ErrorKind::Syntax,
                 fmt::format("{} '{}' is not a decimal or 0x hex number", u.instance, printable(index))};
  if (too_big || i >= u.instances)
    return Error{ErrorKind::Range,
                 fmt::format("{} '{}' is out of range 0..{}", u.instance, printable(index), u.instances - 1)};
  DumpSpec d;
  d.kind = DumpSpec::Kind::Unit;
  d.unit = &u;
  d.instance = static_cast<unsigned>(i);
  return d;
}

}  // namespace

Expected<DumpSpec> parse_dump_spec(std::string_view text, Generation g) {
  const auto syntax = [](std::string m) { return Error{ErrorKind::Syntax, std::move(m)}; };
  if (const size_t colon = text.find(':'); colon != std::string_view::npos)
    if (const UnitState* u = find_unit_state(text.substr(0, colon))) return parse_unit_spec(*u, text.substr(colon + 1));
  DumpSpec d;
  // The location may hold colons itself (sbuf:2:0x100): DTYPE and COUNT are the last two fields.
  const size_t count_at = text.rfind(':');
  const size_t type_at =
      count_at == std::string_view::npos || count_at == 0 ? std::string_view::npos : text.rfind(':', count_at - 1);
  if (type_at == std::string_view::npos) return syntax(fmt::format("expected {}", dump_forms()));
  const auto loc = parse_location(text.substr(0, type_at), g);
  // A field too few or too many leaves no location before DTYPE: name the whole grammar, not the location's.
  if (!loc && loc.error().message.find("is not a location") != std::string::npos)
    return syntax(fmt::format("expected {}", dump_forms()));
  if (!loc) return loc.error();
  const auto type = parse_element_type(text.substr(type_at + 1, count_at - type_at - 1), true);
  if (!type) return type.error();
  const std::string_view count_text = text.substr(count_at + 1);
  uint64_t count = 0;
  bool too_big = false;
  if (!parse_u64_text(count_text, count, &too_big) && !too_big)
    return syntax(fmt::format("COUNT '{}' is not a decimal or 0x hex number", printable(count_text)));
  if (too_big || count == 0 || count > kMaxDumpElements)
    return Error{ErrorKind::Range,
                 fmt::format("COUNT '{}' is out of range 1..{}", printable(count_text), kMaxDumpElements)};
  d.at = *loc;
  d.type = *type;
  d.count = count;
  if (const auto extent = check_extent(d.at, g, d.count * d.type.size); !extent) return extent.error();
  return d;
}

}  // namespace tpbisa::io
