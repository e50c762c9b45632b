// The --dump spec grammar: a location (any accepted spelling), a numeric dtype and a count; or a DVE channel.
#include "tpbisa/io/dump.hpp"

#include <cctype>

#include <fmt/format.h>

#include "tpbisa/io/json.hpp"
#include "tpbisa/state.hpp"

namespace tpbisa::io {

const std::string_view kDumpForms =
    "LOCATION:DTYPE:COUNT (LOCATION as sbuf[pP]+OFF, psum[pP].bankB+OFF, dev:ADDR, "
    "sbuf:P:OFF or psum:P:OFF) or dve:CHANNEL";

Expected<DumpSpec> parse_dump_spec(std::string_view text, Generation g) {
  const auto syntax = [](std::string m) { return Error{ErrorKind::Syntax, std::move(m)}; };
  DumpSpec d;
  if (text.size() >= 4 && std::tolower(static_cast<unsigned char>(text[0])) == 'd' &&
      std::tolower(static_cast<unsigned char>(text[1])) == 'v' &&
      std::tolower(static_cast<unsigned char>(text[2])) == 'e' && text[3] == ':') {
    const std::string_view ch = text.substr(4);
    uint64_t c = 0;
    bool too_big = false;
    if (!parse_u64_text(ch, c, &too_big) && !too_big)
      return syntax(fmt::format("channel '{}' is not a decimal or 0x hex number", printable(ch)));
    if (too_big || c >= kDveChannels)
      return Error{ErrorKind::Range,
                   fmt::format("channel '{}' is out of range 0..{}", printable(ch), kDveChannels - 1)};
    d.kind = DumpSpec::Kind::Dve;
    d.channel = static_cast<unsigned>(c);
    return d;
  }
  // The location may hold colons itself (sbuf:2:0x100): DTYPE and COUNT are the last two fields.
  const size_t count_at = text.rfind(':');
  const size_t type_at =
      count_at == std::string_view::npos || count_at == 0 ? std::string_view::npos : text.rfind(':', count_at - 1);
  if (type_at == std::string_view::npos) return syntax(fmt::format("expected {}", kDumpForms));
  const auto loc = parse_location(text.substr(0, type_at), g);
  // A field too few or too many leaves no location before DTYPE: name the whole grammar, not the location's.
  if (!loc && loc.error().message.find("is not a location") != std::string::npos)
    return syntax(fmt::format("expected {}", kDumpForms));
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
