// `tpbisa catalog`: renders the catalog tables as text or JSON, for one generation or all four.
#include "cmd_catalog.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "exit_codes.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/coverage.hpp"

namespace tpbisa::cli {
namespace {

using json = nlohmann::ordered_json;

struct CatalogOptions {
  std::optional<Generation> gen;
  bool json = false;
  bool coverage = false;
  std::string table = "opcodes";
};

/// One row of any table, reduced to what the renderers need: its cells and its generations.
struct Row {
  std::vector<std::string> cells;
  GenSet gens;
  json detail;       ///< the JSON form of the row, without the generations
  GenSet modeled{};  ///< opcodes: the generations on which it is modeled (format, validator and executor)
};

/// A table ready to print: its name, column titles and rows.
struct Table {
  std::string name;
  std::vector<std::string> columns;
  std::vector<Row> rows;
  bool presence_columns = true;  ///< without --gen, one x/- column per generation after the table's own
  std::string summary;           ///< the first line instead of the counts line, when not empty
  bool modeled_marks = false;    ///< presence columns say M (not x) where the row is modeled
};

std::string hex_byte(uint8_t v) {
  return fmt::format("{:#04x}", v);
}

json generations_json(GenSet gens);

/// The generations on which `op` is modeled (catalog --coverage's sense).
GenSet modeled_gens(const OpcodeInfo& op) {
  GenSet s;
  for (Generation g : kAllGenerations)
    if (coverage(op, g).modeled()) s.bits = static_cast<uint8_t>(s.bits | 1U << static_cast<unsigned>(g));
  return s;
}

/// With --gen a `modeled` column; without, the presence columns mark the modeled generations M.
Table opcode_table(std::optional<Generation> gen) {
  Table t{"opcodes", {"value", "name", "mnemonic", "engine", "maint", "format"}, {}, true, {}, true};
  if (gen) t.columns.emplace_back("modeled");
  for (const auto& op : kOpcodes) {
    const std::string format(to_string(op.format));
    const GenSet modeled = modeled_gens(op);
    Row r{{hex_byte(op.value), std::string(op.enum_name), std::string(op.mnemonic), std::string(to_string(op.affinity)),
           std::string(to_string(op.maint)), format},
          op.gens,
          {{"value", hex_byte(op.value)},
           {"name", op.enum_name},
           {"mnemonic", op.mnemonic},
           {"engine", to_string(op.affinity)},
           {"maintained", to_string(op.maint)},
           {"format", format},
           {"struct", op.struct_name},
           {"modeled", generations_json(modeled)}},
          modeled};
    if (gen) r.cells.emplace_back(modeled.has(*gen) ? "yes" : "-");
    t.rows.push_back(std::move(r));
  }
  return t;
}

Table dtype_table() {
  Table t{"dtypes", {"code", "name", "short", "bits", "kind", "layout"}, {}, true, {}};
  for (const auto& d : kDtypes) {
    t.rows.push_back({{hex_byte(d.code), std::string(d.name), std::string(d.short_name), fmt::format("{}", d.bits),
                       std::string(to_string(d.kind)), std::string(d.layout)},
                      d.gens,
                      {{"code", hex_byte(d.code)},
                       {"name", d.name},
                       {"short_name", d.short_name},
                       {"bits", d.bits},
                       {"kind", to_string(d.kind)},
                       {"layout", d.layout},
                       {"role", d.role}}});
  }
  return t;
}

Table aluop_table() {
  Table t{"aluops", {"code", "name", "classes", "computes"}, {}, true, {}};
  for (const auto& op : kAluOps) {
    const auto classes = alu_class_names(op);
    t.rows.push_back(
        {{hex_byte(op.code), std::string(op.name), fmt::format("{}", fmt::join(classes, ",")),
          std::string(op.computes)},
         op.gens,
         {{"code", hex_byte(op.code)}, {"name", op.name}, {"classes", classes}, {"computes", op.computes}}});
  }
  return t;
}

Table enum_table(std::string name, std::span<const EnumValue> values) {
  Table t{std::move(name), {"value", "name", "convention"}, {}, true, {}};
  for (const auto& v : values) {
    t.rows.push_back({{hex_byte(v.value), std::string(v.name), std::string(v.convention)},
                      v.gens,
                      {{"value", hex_byte(v.value)}, {"name", v.name}, {"convention", v.convention}}});
  }
  return t;
}

// ---- coverage (catalog --coverage) ----

/// Per generation: the opcodes it has and how many of them have each part modeled.
struct CoverageTotals {
  size_t opcodes = 0, format = 0, validator = 0, executor = 0, lowered = 0, convention = 0, modeled = 0;
  std::set<std::string_view> conventions;  ///< the conventions the refusals rest on
  void add(const OpcodeCoverage& c) {
    if (!c.present) return;
    ++opcodes;
    format += c.format ? 1 : 0;
    validator += c.validator ? 1 : 0;
    executor += c.executor == ExecutorKind::Yes ? 1 : 0;
    lowered += c.executor == ExecutorKind::Lowered ? 1 : 0;
    convention += c.executor == ExecutorKind::Convention ? 1 : 0;
    if (c.executor == ExecutorKind::Convention) conventions.insert(c.convention);
    modeled += c.modeled() ? 1 : 0;
  }
};

std::array<CoverageTotals, kAllGenerations.size()> coverage_totals() {
  std::array<CoverageTotals, kAllGenerations.size()> t{};
  for (const auto& op : kOpcodes)
    for (Generation g : kAllGenerations) t[static_cast<size_t>(g)].add(coverage(op, g));
  return t;
}

/// The executor letter without --gen: E runs, L after lowering, C refused by a convention, '-' none.
char executor_letter(ExecutorKind k) {
  switch (k) {
    case ExecutorKind::Yes: return 'E';
    case ExecutorKind::Lowered: return 'L';
    case ExecutorKind::Convention: return 'C';
    case ExecutorKind::None: break;
  }
  return '-';
}

/// One generation's cell without --gen: F (format), V (validator), the executor letter, M (modeled), or '-' each;
/// '.' when absent.
std::string coverage_cell(const OpcodeCoverage& c) {
  if (!c.present) return ".";
  return std::string{c.format ? 'F' : '-', c.validator ? 'V' : '-', executor_letter(c.executor),
                     c.modeled() ? 'M' : '-'};
}

/// The executor column with --gen: yes, lowered, "convention PROJ-CONV-…", or '-'.
std::string executor_cell(const OpcodeCoverage& c) {
  if (c.executor == ExecutorKind::None) return "-";
  if (c.executor == ExecutorKind::Convention) return fmt::format("convention {}", c.convention);
  return std::string(to_string(c.executor));
}

std::string totals_text(const CoverageTotals& t) {
  return fmt::format(
      "{} opcodes, {} with a format, {} with a validator, executors {} yes, {} lowered, {} by convention{}; {} "
      "modeled",
      t.opcodes, t.format, t.validator, t.executor, t.lowered, t.convention,
      t.conventions.empty() ? "" : fmt::format(" ({})", fmt::join(t.conventions, ", ")), t.modeled);
}

Table coverage_table(std::optional<Generation> gen) {
  Table t{"coverage", {"value", "name", "mnemonic"}, {}, false, {}};
  const auto totals = coverage_totals();
  if (gen) {
    t.columns.insert(t.columns.end(), {"format", "validator", "executor", "modeled"});
    t.summary = fmt::format("coverage on {}: {}", to_string(*gen), totals_text(totals[static_cast<size_t>(*gen)]));
  } else {
    for (Generation g : kAllGenerations) t.columns.emplace_back(to_string(g));
    std::vector<std::string> parts;
    for (Generation g : kAllGenerations)
      parts.push_back(fmt::format("{} {}/{}", to_string(g), totals[static_cast<size_t>(g)].modeled,
                                  totals[static_cast<size_t>(g)].opcodes));
    t.summary = fmt::format(
        "coverage: format (F), validator (V), executor (E runs, L after lowering, C refused by a convention), "
        "modeled (M); modeled: {}",
        fmt::join(parts, ", "));
  }
  for (const auto& op : kOpcodes) {
    Row r{{hex_byte(op.value), std::string(op.enum_name), std::string(op.mnemonic)}, op.gens, {}};
    json per = json::object();
    for (Generation g : kAllGenerations) {
      if (gen && g != *gen) continue;
      const OpcodeCoverage c = coverage(op, g);
      if (gen) {
        r.cells.insert(r.cells.end(), {c.format ? std::string(to_string(op.format)) : "-", c.validator ? "yes" : "-",
                                       executor_cell(c), c.modeled() ? "yes" : "-"});
      } else {
        r.cells.push_back(coverage_cell(c));
      }
      if (!c.present) continue;
      json cell = {{"format", c.format}, {"validator", c.validator}, {"executor", to_string(c.executor)}};
      if (c.executor == ExecutorKind::Convention) cell["convention"] = c.convention;
      cell["modeled"] = c.modeled();
      per[std::string(to_string(g))] = std::move(cell);
    }
    r.detail = {{"value", hex_byte(op.value)},
                {"name", op.enum_name},
                {"mnemonic", op.mnemonic},
                {"format", to_string(op.format)},
                {"coverage", std::move(per)}};
    t.rows.push_back(std::move(r));
  }
  return t;
}

json coverage_totals_json(std::optional<Generation> gen) {
  const auto totals = coverage_totals();
  json out = json::object();
  for (Generation g : kAllGenerations) {
    if (gen && g != *gen) continue;
    const CoverageTotals& t = totals[static_cast<size_t>(g)];
    out[std::string(to_string(g))] = {
        {"opcodes", t.opcodes},
        {"format", t.format},
        {"validator", t.validator},
        {"executor", {{"yes", t.executor}, {"lowered", t.lowered}, {"convention", t.convention}}},
        {"conventions", std::vector<std::string_view>(t.conventions.begin(), t.conventions.end())},
        {"modeled", t.modeled}};
  }
  return out;
}

std::vector<Table> mode_tables() {
  return {enum_table("WAIT_MODE", kWaitModes),       enum_table("UPDATE_MODE", kUpdateModes),
          enum_table("DATA_SRC", kDataSrc),          enum_table("IMM_SRC", kImmSrc),
          enum_table("IMM_SRC_N", kImmSrcN),         enum_table("TENSOR_SUBDIM", kTensorSubdim),
          enum_table("TENS_SCALAR_REV_OPS", kRevOps)};
}

std::vector<Table> tables_for(const std::string& which, std::optional<Generation> gen) {
  if (which == "dtypes") return {dtype_table()};
  if (which == "aluops") return {aluop_table()};
  if (which == "modes") return mode_tables();
  return {opcode_table(gen)};
}

// ---- rendering ----

size_t count_in(const Table& t, Generation g) {
  size_t n = 0;
  for (const auto& r : t.rows) n += r.gens.has(g) ? 1 : 0;
  return n;
}

std::string counts_line(const Table& t, std::optional<Generation> gen) {
  if (gen) return fmt::format("{}: {} on {}", t.name, count_in(t, *gen), to_string(*gen));
  std::vector<std::string> parts;
  for (Generation g : kAllGenerations) parts.push_back(fmt::format("{} {}", to_string(g), count_in(t, g)));
  return fmt::format("{}: {} values ({})", t.name, t.rows.size(), fmt::join(parts, ", "));
}

/// The cells shown for a row: the table's own, then one presence column per generation when no --gen.
std::vector<std::string> shown_cells(const Table& t, const Row& r, std::optional<Generation> gen) {
  std::vector<std::string> cells = r.cells;
  if (!gen && t.presence_columns)
    for (Generation g : kAllGenerations)
      cells.emplace_back(!r.gens.has(g) ? "-" : t.modeled_marks && r.modeled.has(g) ? "M" : "x");
  return cells;
}

void print_text(const Table& t, std::optional<Generation> gen) {
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

json generations_json(GenSet gens) {
  json list = json::array();
  for (Generation g : kAllGenerations)
    if (gens.has(g)) list.push_back(to_string(g));
  return list;
}

json table_json(const Table& t, std::optional<Generation> gen) {
  json counts = json::object();
  for (Generation g : kAllGenerations) counts[std::string(to_string(g))] = count_in(t, g);
  json entries = json::array();
  for (const auto& r : t.rows) {
    if (gen && !r.gens.has(*gen)) continue;
    json e = r.detail;
    e["generations"] = generations_json(r.gens);
    entries.push_back(std::move(e));
  }
  return {{"name", t.name},
          {"count", gen ? count_in(t, *gen) : t.rows.size()},
          {"counts", std::move(counts)},
          {"entries", std::move(entries)}};
}

void print_json(const std::string& which, const std::vector<Table>& tables, std::optional<Generation> gen) {
  json doc{{"table", which}, {"generation", gen ? json(to_string(*gen)) : json(nullptr)}};
  if (which == "modes") {
    doc["enums"] = json::array();
    for (const auto& t : tables) doc["enums"].push_back(table_json(t, gen));
  } else {
    const json body = table_json(tables.front(), gen);
    doc["count"] = body["count"];
    doc["counts"] = body["counts"];
    doc["entries"] = body["entries"];
  }
  out("{}\n", doc.dump(2));
}

void print_coverage_json(const Table& t, std::optional<Generation> gen) {
  json doc{{"table", "coverage"}, {"generation", gen ? json(to_string(*gen)) : json(nullptr)}};
  const json body = table_json(t, gen);
  doc["count"] = body["count"];
  doc["totals"] = coverage_totals_json(gen);
  doc["entries"] = body["entries"];
  out("{}\n", doc.dump(2));
}

void print_tables(const CatalogOptions& o) {
  if (o.coverage) {
    const Table t = coverage_table(o.gen);
    if (o.json)
      print_coverage_json(t, o.gen);
    else
      print_text(t, o.gen);
    return;
  }
  const auto tables = tables_for(o.table, o.gen);
  if (o.json) {
    print_json(o.table, tables, o.gen);
    return;
  }
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
