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

using io::CatalogTable;

struct CatalogOptions {
  std::optional<Generation> gen;
  bool json = false;
  bool coverage = false;
  std::string table = "opcodes";
};

void print_tables(const CatalogOptions& o) {
  if (o.json) {
    out("{}\n", (o.coverage ? io::coverage_json(o.gen) : io::catalog_json(o.table, o.gen)).dump(2));
    return;
  }
  const auto tables =
      o.coverage ? std::vector<CatalogTable>{io::coverage_table(o.gen)} : io::catalog_tables(o.table, o.gen);
  for (size_t i = 0; i < tables.size(); ++i) {
    if (i > 0) out("\n");
    out_write(io::catalog_table_text(tables[i], o.gen));
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
