// The tests' own expectation of every catalog row, read by the generic catalog tests: each family states the rows it
// models in tests/families/<family>/catalog.tsv, and tests/catalog/unmodeled.tsv states the rows no family models.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tpbisa/catalog.hpp"

namespace tpbisa::test {

/// One row's expectation: its header name, the engines that may issue it and what tpbisa makes of it.
struct RowExpectation {
  uint8_t value = 0;
  std::string name;
  /// The engines, as `to_string(Engine)` spells them, comma-separated; "any" for all five.
  std::string engines;
  /// On every generation the catalog gives the opcode: `executed`, `lowered`, `convention PROJ-CONV-…` or
  /// `semantics not public` (a family's row); `layout not public`, `not modeled` or `invalid marker` (unmodeled.tsv).
  std::string state;
  std::string file;  ///< where it is stated, relative to the source folder
};

/// Every stated row by opcode, and what is wrong with the files (a malformed line, a row two families claim).
struct CatalogExpectations {
  std::map<uint8_t, RowExpectation> rows;
  std::vector<std::string> errors;
};

/// The rows of one expectation file (`opcode<TAB>name<TAB>engines<TAB>state`, `#` comments), its errors appended.
inline std::vector<RowExpectation> read_expectation_file(const std::filesystem::path& path, const std::string& label,
                                                         std::vector<std::string>& errors) {
  std::vector<RowExpectation> rows;
  std::ifstream in(path);
  if (!in) errors.push_back(fmt::format("{}: cannot open", label));
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, '\t');) cols.push_back(c);
    unsigned long value = 256;
    if (cols.size() == 4 && cols[0].starts_with("0x")) value = std::stoul(cols[0], nullptr, 16);
    if (value > 0xFF) {
      errors.push_back(fmt::format("{}:{}: not 'opcode<TAB>name<TAB>engines<TAB>state'", label, number));
      continue;
    }
    rows.push_back({static_cast<uint8_t>(value), cols[1], cols[2], cols[3], label});
  }
  return rows;
}

/// The union of every family's catalog.tsv (in folder order) and, for the opcodes no family states, unmodeled.tsv.
inline CatalogExpectations catalog_expectations() {
  namespace fs = std::filesystem;
  CatalogExpectations out;
  const fs::path root(TPBISA_SOURCE_DIR);
  std::vector<fs::path> families;
  for (const fs::directory_entry& e : fs::directory_iterator(root / "tests/families"))
    if (fs::exists(e.path() / "catalog.tsv")) families.push_back(e.path());
  std::sort(families.begin(), families.end());
  for (const fs::path& dir : families) {
    const std::string label = fmt::format("tests/families/{}/catalog.tsv", dir.filename().string());
    for (RowExpectation& r : read_expectation_file(dir / "catalog.tsv", label, out.errors)) {
      if (const auto it = out.rows.find(r.value); it != out.rows.end()) {
        out.errors.push_back(fmt::format("{:#04x} is stated by {} and {}", r.value, it->second.file, label));
        continue;
      }
      out.rows.emplace(r.value, std::move(r));
    }
  }
  // A row a family states is the family's: its line in unmodeled.tsv, if one is left there, is superseded.
  std::set<uint8_t> unmodeled;
  for (RowExpectation& r :
       read_expectation_file(root / "tests/catalog/unmodeled.tsv", "tests/catalog/unmodeled.tsv", out.errors)) {
    if (!unmodeled.insert(r.value).second)
      out.errors.push_back(fmt::format("{:#04x} is stated twice by tests/catalog/unmodeled.tsv", r.value));
    out.rows.emplace(r.value, std::move(r));
  }
  return out;
}

/// The engines of an expectation as a placement's engine set (bit e = Engine e); nullopt for a name it does not know.
inline std::optional<uint8_t> expected_engines(const std::string& engines) {
  if (engines == "any") return engine_placement(Placement::Any).engines;
  uint8_t set = 0;
  std::stringstream ss(engines);
  for (std::string name; std::getline(ss, name, ',');) {
    const auto e = std::find_if(kEngines.begin(), kEngines.end(), [&](Engine x) { return to_string(x) == name; });
    if (e == kEngines.end()) return std::nullopt;
    set = static_cast<uint8_t>(set | 1U << static_cast<unsigned>(*e));
  }
  return set;
}

}  // namespace tpbisa::test
