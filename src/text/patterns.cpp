// The MEM_PATTERN operands of each layout, found once from the registry: the family names them, the format
// declaration gives their bytes.
#include "text/patterns.hpp"

#include <array>
#include <utility>
#include <variant>
#include <vector>

#include "families/family.hpp"

namespace tpbisa::text {
namespace {

template <class S>
std::vector<PatternOperand> collect(size_t alternative) {
  std::vector<PatternOperand> out;
  if (alternative == 0) return out;  // RawWord has no family
  const auto& row = kLayoutRows[alternative - 1];
  const family::Syntax& syntax = family::families()[row.family].syntax;
  if (syntax.pattern_operands == nullptr) return out;
  for (std::string_view name : syntax.pattern_operands(row.format))
    for (const FieldDesc& f : format_desc<S>().fields)
      if (f.name == name && f.sub != nullptr) out.push_back({f.name, f.offset, f.size, syntax.indirect_arm});
  return out;
}

template <size_t... I>
std::array<std::vector<PatternOperand>, sizeof...(I)> collect_all(std::index_sequence<I...>) {
  return {collect<std::variant_alternative_t<I, Operands>>(I)...};
}

}  // namespace

std::span<const PatternOperand> pattern_operands(size_t alternative) {
  static const auto kAll = collect_all(std::make_index_sequence<std::variant_size_v<Operands>>{});
  return alternative < kAll.size() ? std::span<const PatternOperand>(kAll[alternative])
                                   : std::span<const PatternOperand>{};
}

}  // namespace tpbisa::text
