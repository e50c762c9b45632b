// The catalog's tables as rows with their cells and JSON forms, their coverage, and the catalog documents.
#include "tpbisa/io/catalog_tables.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "tpbisa/coverage.hpp"

namespace tpbisa::io {
namespace {

using ojson = nlohmann::ordered_json;

ojson generations_json(GenSet gens);

std::string hex_byte(uint8_t v) {
  return fmt::format("{:#04x}", v);
}

/// The generations on which `op` is modeled (catalog --coverage's sense).
GenSet modeled_gens(const OpcodeInfo& op) {
  GenSet s;
  for (Generation g : kAllGenerations)
    if (coverage(op, g).modeled()) s.bits = static_cast<uint8_t>(s.bits | 1U << static_cast<unsigned>(g));
  return s;
}

/// With --gen a `modeled` column; without, the presence columns mark the modeled generations M.
CatalogTable opcode_table(std::optional<Generation> gen) {
  CatalogTable t{"opcodes", {"value", "name", "mnemonic", "engine", "maint", "format"}, {}, true, {}, true};
  if (gen) t.columns.emplace_back("modeled");
  for (const auto& op : kOpcodes) {
    const std::string format(to_string(op.format));
    const GenSet modeled = modeled_gens(op);
    CatalogRow r{{hex_byte(op.value), std::string(op.enum_name), std::string(op.mnemonic),
                  std::string(to_string(op.affinity)), std::string(to_string(op.maint)), format},
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

CatalogTable dtype_table() {
  CatalogTable t{"dtypes", {"code", "name", "short", "bits", "kind", "layout"}, {}, true, {}};
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

CatalogTable aluop_table() {
  CatalogTable t{"aluops", {"code", "name", "classes", "computes"}, {}, true, {}};
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

CatalogTable enum_table(std::string name, std::span<const EnumValue> values) {
  CatalogTable t{std::move(name), {"value", "name", "convention"}, {}, true, {}};
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
  size_t layout_not_public = 0, semantics_not_public = 0;
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
    layout_not_public += c.layout_not_public() ? 1 : 0;
    semantics_not_public += c.executor == ExecutorKind::NotPublic ? 1 : 0;
  }
};

std::array<CoverageTotals, kAllGenerations.size()> coverage_totals() {
  std::array<CoverageTotals, kAllGenerations.size()> t{};
  for (const auto& op : kOpcodes)
    for (Generation g : kAllGenerations) t[static_cast<size_t>(g)].add(coverage(op, g));
  return t;
}

/// The executor letter without --gen: E runs, L after lowering, C refused by a convention, S semantics not public,
/// '-' none.
char executor_letter(ExecutorKind k) {
  switch (k) {
    case ExecutorKind::Yes: return 'E';
    case ExecutorKind::Lowered: return 'L';
    case ExecutorKind::Convention: return 'C';
    case ExecutorKind::NotPublic: return 'S';
    case ExecutorKind::None: break;
  }
  return '-';
}

/// One generation's cell without --gen: F (format; P layout not public), V (validator), the executor letter, M
/// (modeled), or '-' each; '.' when absent.
std::string coverage_cell(const OpcodeCoverage& c) {
  if (!c.present) return ".";
  return std::string{c.format                ? 'F'
                     : c.layout_not_public() ? 'P'
                     : c.invalid_marker      ? 'X'
                                             : '-',
                     c.validator ? 'V' : '-', executor_letter(c.executor), c.modeled() ? 'M' : '-'};
}

/// The executor column with --gen: yes, lowered, "convention PROJ-CONV-…", "semantics not public", or '-'.
std::string executor_cell(const OpcodeCoverage& c) {
  if (c.executor == ExecutorKind::None) return "-";
  if (c.executor == ExecutorKind::Convention) return fmt::format("convention {}", c.convention);
  return std::string(to_string(c.executor));
}

std::string totals_text(const CoverageTotals& t) {
  return fmt::format(
      "{} opcodes, {} with a format, {} with a validator, executors {} yes, {} lowered, {} by convention{}; {} "
      "modeled; {} layout not public, {} semantics not public",
      t.opcodes, t.format, t.validator, t.executor, t.lowered, t.convention,
      t.conventions.empty() ? "" : fmt::format(" ({})", fmt::join(t.conventions, ", ")), t.modeled, t.layout_not_public,
      t.semantics_not_public);
}

ojson coverage_totals_json(std::optional<Generation> gen) {
  const auto totals = coverage_totals();
  ojson out = ojson::object();
  for (Generation g : kAllGenerations) {
    if (gen && g != *gen) continue;
    const CoverageTotals& t = totals[static_cast<size_t>(g)];
    out[std::string(to_string(g))] = {
        {"opcodes", t.opcodes},
        {"format", t.format},
        {"validator", t.validator},
        {"executor", {{"yes", t.executor}, {"lowered", t.lowered}, {"convention", t.convention}}},
        {"conventions", std::vector<std::string_view>(t.conventions.begin(), t.conventions.end())},
        {"modeled", t.modeled},
        {"layout_not_public", t.layout_not_public},
        {"semantics_not_public", t.semantics_not_public}};
  }
  return out;
}

std::vector<CatalogTable> mode_tables() {
  return {enum_table("WAIT_MODE", kWaitModes),       enum_table("UPDATE_MODE", kUpdateModes),
          enum_table("DATA_SRC", kDataSrc),          enum_table("IMM_SRC", kImmSrc),
          enum_table("IMM_SRC_N", kImmSrcN),         enum_table("TENSOR_SUBDIM", kTensorSubdim),
          enum_table("TENS_SCALAR_REV_OPS", kRevOps)};
}

ojson generations_json(GenSet gens) {
  ojson list = ojson::array();
  for (Generation g : kAllGenerations)
    if (gens.has(g)) list.push_back(to_string(g));
  return list;
}

ojson table_json(const CatalogTable& t, std::optional<Generation> gen) {
  ojson counts = ojson::object();
  for (Generation g : kAllGenerations) counts[std::string(to_string(g))] = count_in(t, g);
  ojson entries = ojson::array();
  for (const auto& r : t.rows) {
    if (gen && !r.gens.has(*gen)) continue;
    ojson e = r.detail;
    e["generations"] = generations_json(r.gens);
    entries.push_back(std::move(e));
  }
  return {{"name", t.name},
          {"count", gen ? count_in(t, *gen) : t.rows.size()},
          {"counts", std::move(counts)},
          {"entries", std::move(entries)}};
}

}  // namespace

size_t count_in(const CatalogTable& t, Generation g) {
  size_t n = 0;
  for (const auto& r : t.rows) n += r.gens.has(g) ? 1 : 0;
  return n;
}

CatalogTable coverage_table(std::optional<Generation> gen) {
  CatalogTable t{"coverage", {"value", "name", "mnemonic"}, {}, false, {}};
  const auto totals = coverage_totals();
  if (gen) {
    t.columns.insert(t.columns.end(), {"format", "validator", "executor", "modeled"});
    t.summary = fmt::format("coverage on {}: {}", to_string(*gen), totals_text(totals[static_cast<size_t>(*gen)]));
  } else {
    for (Generation g : kAllGenerations) t.columns.emplace_back(to_string(g));
    std::vector<std::string> parts;
    for (Generation g : kAllGenerations)
      parts.push_back(fmt::format("{} {}/{} ({} layout not public, {} semantics not public)", to_string(g),
                                  totals[static_cast<size_t>(g)].modeled, totals[static_cast<size_t>(g)].opcodes,
                                  totals[static_cast<size_t>(g)].layout_not_public,
                                  totals[static_cast<size_t>(g)].semantics_not_public));
    t.summary = fmt::format(
        "coverage: format (F; P layout not public; X the invalid-opcode marker), validator (V), executor (E runs, L "
        "after lowering, C refused by "
        "a convention, S semantics not public), modeled (M); modeled: {}",
        fmt::join(parts, ", "));
  }
  for (const auto& op : kOpcodes) {
    CatalogRow r{{hex_byte(op.value), std::string(op.enum_name), std::string(op.mnemonic)}, op.gens, {}};
    ojson per = ojson::object();
    for (Generation g : kAllGenerations) {
      if (gen && g != *gen) continue;
      const OpcodeCoverage c = coverage(op, g);
      if (gen) {
        r.cells.insert(r.cells.end(), {c.format                ? std::string(to_string(op.format))
                                       : c.layout_not_public() ? "layout not public"
                                       : c.invalid_marker      ? "invalid-opcode marker"
                                                               : "-",
                                       c.validator ? "yes" : "-", executor_cell(c), c.modeled() ? "yes" : "-"});
      } else {
        r.cells.push_back(coverage_cell(c));
      }
      if (!c.present) continue;
      ojson cell = {{"format", c.format}, {"validator", c.validator}, {"executor", to_string(c.executor)}};
      if (c.executor == ExecutorKind::Convention) cell["convention"] = c.convention;
      if (c.layout_not_public()) cell["layout_not_public"] = c.not_public;
      if (c.invalid_marker) cell["invalid_marker"] = true;
      if (c.executor == ExecutorKind::NotPublic) cell["semantics_not_public"] = c.not_public;
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

std::vector<CatalogTable> catalog_tables(std::string_view which, std::optional<Generation> gen) {
  if (which == "dtypes") return {dtype_table()};
  if (which == "aluops") return {aluop_table()};
  if (which == "modes") return mode_tables();
  return {opcode_table(gen)};
}

ojson catalog_json(std::string_view which, std::optional<Generation> gen) {
  const std::vector<CatalogTable> tables = catalog_tables(which, gen);
  ojson doc{{"table", which}, {"generation", gen ? ojson(to_string(*gen)) : ojson(nullptr)}};
  if (which == "modes") {
    doc["enums"] = ojson::array();
    for (const auto& t : tables) doc["enums"].push_back(table_json(t, gen));
  } else {
    const ojson body = table_json(tables.front(), gen);
    doc["count"] = body["count"];
    doc["counts"] = body["counts"];
    doc["entries"] = body["entries"];
  }
  return doc;
}

std::string coverage_markdown() {
  const auto totals = coverage_totals();
  std::string o =
      "# Opcode coverage\n\n"
      "What tpbisa models of every opcode on every generation, read from the family registry and the catalog\n"
      "(`tpbisa catalog --coverage` prints the same). A cell is F (format: the operands decode field by field; P: no\n"
      "public source gives the layout, the word stays `.raw`; X: INVALID 0xFF, the header's invalid-opcode marker,\n"
      "which no instruction carries, PROJ-CONV-C20), V (a full validator), E (executed; L after `tpbisa\n"
      "lower`, C refused by a project convention, S refused because no public source gives the semantics) and M\n"
      "(modeled: format, validator and executor), `-` where a part is missing, `.` where the generation has no such\n"
      "opcode (PROJ-CONV-G6). This file is generated: `tests/unit/docs_coverage_test.cpp` fails when it differs from\n"
      "the library and writes the expected text next to itself.\n\n"
      "## Totals\n\n"
      "| Generation | Opcodes | Format | Validator | Executed | Lowered | By convention | Modeled | Layout not public "
      "| "
      "Semantics not public |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (Generation g : kAllGenerations) {
    const CoverageTotals& t = totals[static_cast<size_t>(g)];
    o += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", to_string(g), t.opcodes, t.format,
                     t.validator, t.executor, t.lowered, t.convention, t.modeled, t.layout_not_public,
                     t.semantics_not_public);
  }
  // The not-public opcodes, each once with the generations it applies to and its source.
  const auto not_public = [&](std::string_view title, auto applies) {
    o += fmt::format("\n## {}\n\n| Value | Name | Generations | What would settle it |\n|---|---|---|---|\n", title);
    size_t n = 0;
    for (const auto& op : kOpcodes) {
      std::vector<std::string_view> gens;
      std::string_view source;
      for (Generation g : kAllGenerations) {
        const OpcodeCoverage c = coverage(op, g);
        if (!applies(c)) continue;
        gens.push_back(to_string(g));
        source = c.not_public;
      }
      if (gens.empty()) continue;
      ++n;
      o += fmt::format("| {} | {} | {} | {} |\n", hex_byte(op.value), op.enum_name, fmt::join(gens, ", "), source);
    }
    if (n == 0) o += "| — | none | | |\n";
  };
  not_public("Layout not public", [](const OpcodeCoverage& c) { return c.layout_not_public(); });
  not_public("Semantics not public",
             [](const OpcodeCoverage& c) { return c.present && c.executor == ExecutorKind::NotPublic; });
  // INVALID: present in every enum as the invalid-opcode marker, nothing to settle (PROJ-CONV-C20).
  o += "\n## Not an instruction\n\n| Value | Name | Generations | Why |\n|---|---|---|---|\n";
  for (const auto& op : kOpcodes) {
    std::vector<std::string_view> gens;
    for (Generation g : kAllGenerations)
      if (coverage(op, g).invalid_marker) gens.push_back(to_string(g));
    if (!gens.empty())
      o += fmt::format(
          "| {} | {} | {} | the header's invalid-opcode marker: decode keeps the word `.raw`, validation "
          "rejects it (PROJ-CONV-C11, PROJ-CONV-C20) |\n",
          hex_byte(op.value), op.enum_name, fmt::join(gens, ", "));
  }
  o += "\n## Per opcode\n\n| Value | Name |";
  for (Generation g : kAllGenerations) o += fmt::format(" {} |", to_string(g));
  o += "\n|---|---|---|---|---|---|\n";
  for (const auto& op : kOpcodes) {
    o += fmt::format("| {} | {} |", hex_byte(op.value), op.enum_name);
    for (Generation g : kAllGenerations) o += fmt::format(" {} |", coverage_cell(coverage(op, g)));
    o += "\n";
  }
  return o;
}

ojson coverage_json(std::optional<Generation> gen) {
  ojson doc{{"table", "coverage"}, {"generation", gen ? ojson(to_string(*gen)) : ojson(nullptr)}};
  const ojson body = table_json(coverage_table(gen), gen);
  doc["count"] = body["count"];
  doc["totals"] = coverage_totals_json(gen);
  doc["entries"] = body["entries"];
  return doc;
}

namespace {

std::string catalog_counts_line(const CatalogTable& t, std::optional<Generation> gen) {
  if (gen) return fmt::format("{}: {} on {}", t.name, count_in(t, *gen), to_string(*gen));
  std::vector<std::string> parts;
  for (Generation g : kAllGenerations) parts.push_back(fmt::format("{} {}", to_string(g), count_in(t, g)));
  return fmt::format("{}: {} values ({})", t.name, t.rows.size(), fmt::join(parts, ", "));
}

/// The cells shown for a row: the table's own, then one presence column per generation when no --gen.
std::vector<std::string> catalog_shown_cells(const CatalogTable& t, const CatalogRow& r,
                                             std::optional<Generation> gen) {
  std::vector<std::string> cells = r.cells;
  if (!gen && t.presence_columns)
    for (Generation g : kAllGenerations)
      cells.emplace_back(!r.gens.has(g) ? "-" : t.modeled_marks && r.modeled.has(g) ? "M" : "x");
  return cells;
}

}  // namespace

std::string catalog_table_text(const CatalogTable& t, std::optional<Generation> gen) {
  std::string text;
  std::vector<std::string> titles = t.columns;
  if (!gen && t.presence_columns)
    for (Generation g : kAllGenerations) titles.emplace_back(to_string(g));
  std::vector<size_t> widths(titles.size());
  for (size_t c = 0; c < titles.size(); ++c) widths[c] = titles[c].size();
  std::vector<std::vector<std::string>> lines;
  for (const auto& r : t.rows) {
    if (gen && !r.gens.has(*gen)) continue;
    lines.push_back(catalog_shown_cells(t, r, gen));
    for (size_t c = 0; c < widths.size(); ++c) widths[c] = std::max(widths[c], lines.back()[c].size());
  }
  auto print_line = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t c = 0; c < cells.size(); ++c)
      line += c + 1 == cells.size() ? cells[c] : fmt::format("{:<{}}  ", cells[c], widths[c]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    text += line + '\n';
  };
  text += (t.summary.empty() ? catalog_counts_line(t, gen) : t.summary) + '\n';
  print_line(titles);
  for (const auto& cells : lines) print_line(cells);
  return text;
}

}  // namespace tpbisa::io
