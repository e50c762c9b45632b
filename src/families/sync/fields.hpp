// Field references by name for the sync family: a predicate's "fields read" and a description's byte range come
// from the format declarations (fields_of<>), never from offsets written again.
#pragma once

#include <string_view>

#include "tpbisa/fields.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::family::sync {

/// The field at a dotted path of format S ("ext.wait_mode", "src_num"), with its byte range in the word.
/// A path that names no field does not compile.
template <class S>
consteval FieldRef field(std::string_view path) {
  const FormatDesc* desc = &format_desc<S>();
  unsigned base = 0;
  std::string_view rest = path;
  while (desc != nullptr) {
    const size_t dot = rest.find('.');
    const std::string_view head = rest.substr(0, dot);
    const FieldDesc* hit = nullptr;
    for (const FieldDesc& f : desc->fields)
      if (f.name == head) hit = &f;
    if (hit == nullptr) break;
    if (dot == std::string_view::npos) return FieldRef{path, static_cast<uint8_t>(base + hit->offset), hit->size};
    base += hit->offset;
    desc = hit->sub;
    rest = rest.substr(dot + 1);
  }
  throw "no field at this path";  // reached only for a bad path: a compile-time error
}

}  // namespace tpbisa::family::sync
