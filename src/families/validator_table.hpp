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
constexpr bool format_of_layouts(Format f, TypeList<S...>) {
  return ((S::kFormat == f) || ...);
}
}  // namespace detail

/// Whether catalog format f is the format of one of family F's layouts.
template <class F>
constexpr bool family_has_format(Format f) {
  return f != Format::NotModeled && detail::format_of_layouts(f, typename F::Layouts{});
}

/// What can be wrong with a validator table; None when it agrees with the catalog.
enum class TableError : uint8_t {
  None,
  UnknownOpcode,  ///< a row names an opcode the catalog does not have
  ForeignOpcode,  ///< a row names an opcode whose catalog format is not one of the family's
  NoGeneration,   ///< a row names none of the generations the catalog gives its opcode
  NoValidator,    ///< a row has no validator
  MissingRow,     ///< an opcode of the family's formats has no row on a generation that has it
  TwoRows,        ///< an opcode has two rows on one generation
};

/// Checks a table of family F against the catalog: every row names an opcode whose catalog format belongs to F, on
/// some generation the catalog gives it, with a validator; every catalog opcode of F's formats has exactly one row on
/// each generation that has it.
template <class F>
constexpr TableError check_validator_table(std::span<const ValidatorRow> rows) {
  for (const ValidatorRow& r : rows) {
    const OpcodeInfo* info = find_opcode(r.opcode);
    if (info == nullptr) return TableError::UnknownOpcode;
    if (!family_has_format<F>(info->format)) return TableError::ForeignOpcode;
    if ((r.gens.bits & info->gens.bits) == 0) return TableError::NoGeneration;
    if (r.validator == nullptr) return TableError::NoValidator;
  }
  for (const OpcodeInfo& op : kOpcodes) {
    if (!family_has_format<F>(op.format)) continue;
    for (Generation g : kAllGenerations) {
      if (!op.gens.has(g)) continue;
      unsigned n = 0;
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
                "a validator row names an opcode whose catalog format belongs to another family");
  static_assert(kError != TableError::NoGeneration, "a validator row names none of its opcode's generations");
  static_assert(kError != TableError::NoValidator, "a validator row has no validator");
  static_assert(kError != TableError::MissingRow,
                "an opcode of the family's formats has no validator row on a generation the catalog gives it");
  static_assert(kError != TableError::TwoRows, "an opcode has two validator rows on one generation");
  return Validation{Rows};
}

}  // namespace tpbisa::family
