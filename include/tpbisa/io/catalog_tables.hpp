// The catalog's tables as `tpbisa catalog` lists them and the Python module reads them: each row's cells and JSON
// object, the coverage of every opcode, and the documents of `tpbisa catalog --json`.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tpbisa/catalog.hpp"
#include "tpbisa/generation.hpp"

namespace tpbisa::io {

/// One row of any table: its cells, its generations, and its JSON form.
struct CatalogRow {
  std::vector<std::string> cells;
  GenSet gens;
  nlohmann::ordered_json detail;  ///< the JSON form of the row, without the generations
  GenSet modeled{};               ///< opcodes: the generations on which it is modeled (format, validator, executor)
};

/// A table ready to lay out: its name, column titles and rows.
struct CatalogTable {
  std::string name;
  std::vector<std::string> columns;
  std::vector<CatalogRow> rows;
  bool presence_columns = true;  ///< without a generation, one x/- column per generation after the table's own
  std::string summary;           ///< the first line instead of the counts line, when not empty
  bool modeled_marks = false;    ///< presence columns say M (not x) where the row is modeled
};

/// "opcodes" (with `gen`, a `modeled` column), "dtypes", "aluops", or "modes" (the seven mode enums).
std::vector<CatalogTable> catalog_tables(std::string_view which, std::optional<Generation> gen);
/// Per opcode and generation (or on `gen`), whether its format, validator and executor are modeled, with totals.
CatalogTable coverage_table(std::optional<Generation> gen);
/// The rows of `t` present on `g`.
size_t count_in(const CatalogTable& t, Generation g);

/// A table as `tpbisa catalog` prints it: its summary (or counts) line, then aligned columns; without a generation,
/// one presence column per generation (x, M for modeled, - absent); with one, only that generation's rows.
std::string catalog_table_text(const CatalogTable& t, std::optional<Generation> gen);

/// The document of `tpbisa catalog TABLE --json` (docs/cli.md): table, generation, count, counts, entries (or, for
/// modes, enums).
nlohmann::ordered_json catalog_json(std::string_view which, std::optional<Generation> gen);
/// The document of `tpbisa catalog --coverage --json`: table, generation, count, totals, entries.
nlohmann::ordered_json coverage_json(std::optional<Generation> gen);
/// docs/coverage.md: the coverage totals, the opcodes whose layout or semantics are not public with what would settle
/// them, and every opcode's cells, all read from the registry and the catalog (tests/unit/docs_coverage_test.cpp).
std::string coverage_markdown();

}  // namespace tpbisa::io
