// `tpbisa catalog`: lays out the library's catalog tables (tpbisa/io/catalog_tables.hpp) as text or prints their
// JSON documents, for one generation or all four.
#include "commands.hpp"

#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "tpbisa/io/catalog_tables.hpp"

namespace tpbisa::cli {
namespace {

using io::CatalogRow;
using io::CatalogTable;

struct CatalogOptions {
  std::optional<Generation> gen;
  bool json = false;
  bool coverage = false;
  std::string table = "opcodes";
};

std::string counts_line(const CatalogTable& t, std::optional<Generation> gen) {
  if (gen) return fmt::format("{}: {} on {}", t.name, io::count_in(t, *gen), to_string(*gen));
  std::vector<std::string> parts;
  for (Generation g : kAllGenerations) parts.push_back(fmt::format("{} {}", to_string(g), io::count_in(t, g)));
  return fmt::format("{}: {} values ({})", t.name, t.rows.size(), fmt::join(parts, ", "));
}

/// The cells shown for a row: the table's own, then one presence column per generation when no --gen.
std::vector<std::string> shown_cells(const CatalogTable& t, const CatalogRow& r, std::optional<Generation> gen) {
  std::vector<std::string> cells = r.cells;
  if (!gen && t.presence_columns)
    for (Generation g : kAllGenerations)
      cells.emplace_back(!r.gens.has(g) ? "-" : t.modeled_marks && r.modeled.has(g) ? "M" : "x");
  return cells;
}

void print_text(const CatalogTable& t, std::optional<Generation> gen) {
  std::vector<std::string> titles = t.columns;
  if (!gen && t.presence_columns)
    for (Generation g : kAllGenerations) titles.emplace_back(to_string(g));
  std::vector<size_t> widths(titles.size());
  for (size_t c = 0; c < titles.size(); ++c) widths[c] = titles[c].size();
  std::vector<std::vector<std::string>> lines;
  for (const auto& r : t.rows) {
    if (gen && !r.gens.has(*gen)) continue;
    lines.push_back(shown_cells(t, r, gen));
    for (size_t c = 0; c < widths.size(); ++c) widths[c] = std::max(widths[c], lines.back()[c].size());
  }
  auto print_line = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t c = 0; c < cells.size(); ++c)
      line += c + 1 == cells.size() ? cells[c] : fmt::format("{:<{}}  ", cells[c], widths[c]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out("{}\n", line);
  };
  out("{}\n", t.summary.empty() ? counts_line(t, gen) : t.summary);
  print_line(titles);
  for (const auto& cells : lines) print_line(cells);
}

void print_tables(const CatalogOptions& o) {
  if (o.json) {
    out("{}\n", (o.coverage ? io::coverage_json(o.gen) : io::catalog_json(o.table, o.gen)).dump(2));
    return;
  }
  const auto tables =
      o.coverage ? std::vector<CatalogTable>{io::coverage_table(o.gen)} : io::catalog_tables(o.table, o.gen);
  for (size_t i = 0; i < tables.size(); ++i) {
    if (i > 0) out("\n");
    print_text(tables[i], o.gen);
  }
}

/// The tables are the whole result; stdout that cannot be written is reported by main (exit 3).
int run_catalog(const CatalogOptions& o) {
  if (o.coverage && o.table != "opcodes")
    return usage_error("catalog", fmt::format("--coverage applies to the opcodes table, not '{}'", o.table));
  print_tables(o);
  return out_flush() ? kExitOk : kExitInput;
}

}  // namespace

Command register_catalog(CLI::App& parent) {
  auto opts = std::make_shared<CatalogOptions>();
  CLI::App* app = parent.add_subcommand("catalog", "Print the ISA tables: opcodes, dtypes, ALU ops, modes");
  add_generation_option(*app, opts->gen,
                        "Only the members of this generation: sunda|cayman|mariana|maverick or v2..v5 "
                        "(default: all four, with presence columns)");
  app->add_flag("--json", opts->json, "Print JSON instead of a text table");
  app->add_flag("--coverage", opts->coverage,
                "Per opcode and generation, whether its format, validator and executor are modeled (the executor: "
                "yes, lowered, or refused by a named convention), with totals");
  app->add_option("TABLE", opts->table, "opcodes (default), dtypes, aluops or modes")
      ->type_name("TABLE")
      ->check(CLI::IsMember({"opcodes", "dtypes", "aluops", "modes"}));
  app->footer(
      "Exit codes: 0 success, 2 usage error (unknown TABLE or generation, a second TABLE), 3 output error "
      "(stdout cannot be written).");
  return {app, [opts] { return run_catalog(*opts); }};
}

}  // namespace tpbisa::cli
