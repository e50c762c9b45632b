// Every instruction format: the field machinery, the formats of the registered families, and what is derived
// from the registry (the Operands variant, the layout of each catalog format per generation, the checks).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <variant>

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"
#include "tpbisa/generation.hpp"
// The families' format headers are the public part of each family folder; the registry lists them (the build and
// the install put them under tpbisa/families/).
#include "tpbisa/families/registry.hpp"

namespace tpbisa {

namespace detail {
template <class... L>
struct Concat;
template <>
struct Concat<> {
  using type = TypeList<>;
};
template <class... A>
struct Concat<TypeList<A...>> {
  using type = TypeList<A...>;
};
template <class... A, class... B, class... Rest>
struct Concat<TypeList<A...>, TypeList<B...>, Rest...> {
  using type = typename Concat<TypeList<A..., B...>, Rest...>::type;
};
template <class F>
struct LayoutsOf;
template <class... F>
struct LayoutsOf<TypeList<F...>> {
  using type = typename Concat<typename F::Layouts...>::type;
};
template <class L>
struct VariantOf;
template <class... S>
struct VariantOf<TypeList<S...>> {
  using type = std::variant<RawWord, S...>;
};
}  // namespace detail

/// Every layout of every registered family, in registry order.
using AllLayouts = typename detail::LayoutsOf<Families>::type;

/// The typed body of a decoded word: RawWord (operands not modeled) or one registered layout.
using Operands = typename detail::VariantOf<AllLayouts>::type;
inline constexpr size_t kOperandKinds = std::variant_size_v<Operands>;

namespace detail {

template <size_t I>
using Alternative = std::variant_alternative_t<I, Operands>;

/// Per layout (variant index >= 1): its catalog format, generations and owning family (registry position).
struct LayoutRow {
  Format format;
  GenSet gens;
  std::string_view name;
  uint8_t family;
};

template <class S, size_t Family>
constexpr LayoutRow layout_row() {
  return {S::kFormat, S::kGens, S::kName, static_cast<uint8_t>(Family)};
}

template <size_t Family, class... S>
constexpr void family_rows(TypeList<S...>, LayoutRow*& out) {
  ((*out++ = layout_row<S, Family>()), ...);
}

template <class... F, size_t... I>
constexpr std::array<LayoutRow, kOperandKinds - 1> make_layout_rows(TypeList<F...>, std::index_sequence<I...>) {
  std::array<LayoutRow, kOperandKinds - 1> rows{};
  LayoutRow* out = rows.data();
  (family_rows<I>(typename F::Layouts{}, out), ...);
  return rows;
}

template <class... F>
constexpr size_t count_of(TypeList<F...>) {
  return sizeof...(F);
}

}  // namespace detail

inline constexpr size_t kFamilyCount = detail::count_of(Families{});
/// Row k describes the variant alternative k + 1.
inline constexpr auto kLayoutRows = detail::make_layout_rows(Families{}, std::make_index_sequence<kFamilyCount>{});

/// Whether layout S has EVENTS at bytes 4-11: every layout but one that says it has none (`kNoEvents`, e.g.
/// COMPACT_CONTROL_INST, whose bytes 4-11 are instructions of its own). Such a layout keeps an `events` member that
/// is always zero and not part of the word: it waits for nothing and updates nothing.
template <class S>
constexpr bool carries_events() {
  if constexpr (requires { S::kNoEvents; })
    return !S::kNoEvents;
  else
    return true;
}

namespace detail {
template <size_t... I>
constexpr std::array<bool, kOperandKinds> make_carries_events(std::index_sequence<I...>) {
  return {carries_events<Alternative<I>>()...};
}
}  // namespace detail

/// carries_events of each variant alternative, indexed like Operands.
inline constexpr auto kCarriesEvents = detail::make_carries_events(std::make_index_sequence<kOperandKinds>{});

/// One more than the largest catalog format a layout decodes (the size of the per-format tables).
inline constexpr size_t kFormatSlots = [] {
  size_t n = 1;
  for (const auto& r : kLayoutRows) n = std::max(n, static_cast<size_t>(r.format) + 1);
  return n;
}();

/// The variant index a word of catalog format f decodes to on generation g (0 = RawWord).
inline constexpr auto kLayoutIndex = [] {
  std::array<std::array<uint8_t, kAllGenerations.size()>, kFormatSlots> index{};
  for (size_t k = 0; k < kLayoutRows.size(); ++k)
    for (Generation g : kAllGenerations)
      if (kLayoutRows[k].gens.has(g))
        index[static_cast<size_t>(kLayoutRows[k].format)][static_cast<size_t>(g)] = static_cast<uint8_t>(k + 1);
  return index;
}();

constexpr size_t layout_index(Format f, Generation g) {
  const auto slot = static_cast<size_t>(f);
  return slot < kFormatSlots ? kLayoutIndex[slot][static_cast<size_t>(g)] : 0;
}

/// The registry position of the family that owns catalog format f; kFamilyCount when no family does.
constexpr size_t family_index(Format f) {
  for (const auto& r : kLayoutRows)
    if (r.format == f) return r.family;
  return kFamilyCount;
}

// ---- Registration checks: the registry, the layouts and the catalog's format column agree ----

namespace detail {

template <size_t... I>
constexpr bool all_layouts(std::index_sequence<I...>) {
  // Every layout is a 64-byte format that tiles its word and starts with the header and the events; a layout that
  // says it carries no EVENTS declares none.
  return ((Layout<Alternative<I + 1>> && tiles_exactly<Alternative<I + 1>>() &&
           offset_of<Alternative<I + 1>>("header") == 0 &&
           offset_of<Alternative<I + 1>>("events") == (carries_events<Alternative<I + 1>>() ? 4U : 0xFFU)) &&
          ...);
}

/// Exactly one family owns each format: no format is declared by two families.
constexpr bool one_family_per_format() {
  for (const auto& a : kLayoutRows)
    for (const auto& b : kLayoutRows)
      if (a.format == b.format && a.family != b.family) return false;
  return true;
}

/// Every modeled catalog row has exactly one layout on each generation that has the opcode, with the
/// struct name the row names; every layout is bound by some row and covers only generations that have one.
constexpr bool catalog_matches_layouts() {
  for (const auto& row : kOpcodes) {
    if (row.format == Format::NotModeled) continue;
    for (Generation g : kAllGenerations) {
      if (!row.gens.has(g)) continue;
      unsigned n = 0;
      for (const auto& l : kLayoutRows)
        if (l.format == row.format && l.gens.has(g)) {
          ++n;
          if (l.name != row.struct_name) return false;
        }
      if (n != 1) return false;
    }
  }
  for (const auto& l : kLayoutRows) {
    if (l.format == Format::NotModeled) return false;
    bool bound = false;
    for (const auto& row : kOpcodes) bound = bound || row.format == l.format;
    if (!bound) return false;
  }
  return true;
}

}  // namespace detail

static_assert(detail::all_layouts(std::make_index_sequence<kOperandKinds - 1>{}),
              "a registered layout is not a 64-byte format with the header at 0 and the events at 4");
static_assert(detail::one_family_per_format(), "two families declare the same catalog format");
static_assert(detail::catalog_matches_layouts(),
              "a modeled catalog format needs exactly one layout per generation, named as the catalog row names "
              "its struct, and every layout a catalog row");

}  // namespace tpbisa
