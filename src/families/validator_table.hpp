// A family's validators as data: {opcode, validator} rows, checked against the catalog's format column.
#pragma once

#include <span>
#include <string_view>

#include "families/common.hpp"

namespace tpbisa::family {

/// The validator of a conjunct list: the compiled full pass and the raw-word acceptor, both generated from the list.
template <const auto& Conjuncts>
constexpr Validator full_validator(std::string_view name) {
  return {name, Checked::Full, Conjuncts, &evaluate_conjuncts<Conjuncts>, fast_acceptor<Conjuncts>()};
}

namespace detail {
template <class... S>
constexpr bool format_of_layouts([[maybe_unused]] Format f, TypeList<S...>) {
  return ((S::kFormat == f) || ...);  // false for an empty list
}
}  // namespace detail

/// The layouts another family declares whose opcodes family F also judges and runs (`using Uses = TypeList<...>` in
/// the family's record; none when it has no such member): a struct is declared once, by the family that first
/// decoded it, and every family that gives one of its opcodes a meaning lists it here.
template <class F>
struct UsesOf {
  using type = TypeList<>;
};
template <class F>
requires requires {
  typename F::Uses;
}
struct UsesOf<F> {
  using type = typename F::Uses;
};

/// Whether catalog format f is the format of one of family F's layouts, or of a layout it uses.
template <class F>
constexpr bool family_has_format(Format f) {
  return f != Format::NotModeled && (detail::format_of_layouts(f, typename F::Layouts{}) ||
                                     detail::format_of_layouts(f, typename UsesOf<F>::type{}));
}

/// What can be wrong with a validator table; None when it agrees with the catalog.
enum class TableError : uint8_t {
  None,
  UnknownOpcode,  ///< a row names an opcode the catalog does not have
  ForeignOpcode,  ///< a row names an opcode whose catalog format is neither one of the family's nor one it uses
  NoGeneration,   ///< a row names none of the generations the catalog gives its opcode
  NoValidator,    ///< a row has no validator
  TwoRows,        ///< an opcode has two rows on one generation
  MissingRow,     ///< a modeled opcode has no row in any family on a generation that has it (the registry's check)
};

/// Checks a table of family F against the catalog: every row names an opcode whose catalog format F declares or
/// uses, on some generation the catalog gives it, with a validator, and no opcode has two rows on one generation.
/// That every modeled opcode has exactly one row across all families on each of its generations (several families
/// share a struct) is the registry's check (tests/unit/registry_test.cpp).
template <class F>
constexpr TableError check_validator_table(std::span<const ValidatorRow> rows) {
  for (const ValidatorRow& r : rows) {
    const OpcodeInfo* info = find_opcode(r.opcode);
    if (info == nullptr) return TableError::UnknownOpcode;
    if (!family_has_format<F>(info->format)) return TableError::ForeignOpcode;
    if ((r.gens.bits & info->gens.bits) == 0) return TableError::NoGeneration;
    if (r.validator == nullptr) return TableError::NoValidator;
  }
  for (const ValidatorRow& a : rows)
    for (const ValidatorRow& b : rows)
      if (&a != &b && a.opcode == b.opcode && (a.gens.bits & b.gens.bits) != 0) return TableError::TwoRows;
  return TableError::None;
}

/// Checks the tables of every family together: each opcode the catalog gives a modeled format has exactly one row,
/// in one family, on each generation that has it (a struct several families share is judged opcode by opcode).
constexpr TableError check_registry_tables(std::span<const std::span<const ValidatorRow>> tables) {
  for (const OpcodeInfo& op : kOpcodes) {
    if (op.format == Format::NotModeled) continue;
    for (Generation g : kAllGenerations) {
      if (!op.gens.has(g)) continue;
      unsigned n = 0;
      for (std::span<const ValidatorRow> rows : tables)
        for (const ValidatorRow& r : rows) n += r.opcode == op.value && r.gens.has(g) ? 1U : 0U;
      if (n == 0) return TableError::MissingRow;
      if (n > 1) return TableError::TwoRows;
    }
  }
  return TableError::None;
}

/// The Validation of family F: its table Rows, checked against the catalog when it compiles.
template <class F, const auto& Rows>
constexpr Validation validator_table() {
  constexpr TableError kError = check_validator_table<F>(Rows);
  static_assert(kError != TableError::UnknownOpcode, "a validator row names an opcode the catalog does not have");
  static_assert(kError != TableError::ForeignOpcode,
                "a validator row names an opcode whose catalog format the family neither declares nor uses");
  static_assert(kError != TableError::NoGeneration, "a validator row names none of its opcode's generations");
  static_assert(kError != TableError::NoValidator, "a validator row has no validator");
  static_assert(kError != TableError::TwoRows, "an opcode has two validator rows on one generation");
  return Validation{Rows};
}

}  // namespace tpbisa::family
