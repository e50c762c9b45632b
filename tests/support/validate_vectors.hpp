// The reader of tests/vectors/validate.tsv, shared by the vector test and the per-predicate completeness test.
#pragma once

#include <cstddef>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tpbisa/catalog.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::test {

inline constexpr const char* kTsvFile = TPBISA_SOURCE_DIR "/tests/vectors/validate.tsv";

/// One line of validate.tsv.
struct TsvVector {
  size_t line = 0;
  std::string id;
  std::vector<Generation> gens;
  bool valid = true;
  std::set<std::string> failing;
  std::string options_text;
  ValidateOptions options;
  Word word{};
};

inline std::vector<std::string> split_text(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t pos = s.find(sep, start);
    out.emplace_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) return out;
    start = pos + 1;
  }
}

/// "engine=ACT": the stream engine a vector is validated for (ValidateOptions::engine, PROJ-CONV-F1).
inline std::optional<StreamEngine> parse_engine_option(std::string_view opt) {
  constexpr std::string_view kPrefix = "engine=";
  if (!opt.starts_with(kPrefix)) return std::nullopt;
  for (StreamEngine e : kStreamEngines)
    if (opt.substr(kPrefix.size()) == to_string(e)) return e;
  return std::nullopt;
}

/// Parses one data line; returns an error text instead when the line is malformed.
inline std::optional<TsvVector> parse_vector_line(const std::string& text, size_t line, std::string& error) {
  const std::vector<std::string> cols = split_text(text, '\t');
  if (cols.size() != 6) {
    error = "expected 6 tab-separated columns, got " + std::to_string(cols.size());
    return std::nullopt;
  }
  TsvVector v;
  v.line = line;
  v.id = cols[0];
  for (const std::string& g : split_text(cols[1], ',')) {
    const std::optional<Generation> gen = parse_generation(g);
    if (!gen) {
      error = "unknown generation '" + g + "'";
      return std::nullopt;
    }
    v.gens.push_back(*gen);
  }
  if (cols[2] != "valid" && cols[2] != "invalid") {
    error = "expect must be valid or invalid, got '" + cols[2] + "'";
    return std::nullopt;
  }
  v.valid = cols[2] == "valid";
  if (cols[3] != "-")
    for (const std::string& name : split_text(cols[3], ',')) v.failing.insert(name);
  if (v.valid != v.failing.empty()) {
    error = "expect column disagrees with the failing-predicate column";
    return std::nullopt;
  }
  v.options_text = cols[4];
  if (cols[4] != "-") {
    for (const std::string& opt : split_text(cols[4], ',')) {
      if (opt == "strict_window")
        v.options.strict_window = true;
      else if (opt == "dtype_enum_runtime")
        v.options.dtype_enum_runtime = true;
      else if (const std::optional<StreamEngine> e = parse_engine_option(opt))
        v.options.engine = e;
      else {
        error = "unknown option '" + opt + "'";
        return std::nullopt;
      }
    }
  }
  HexError hex_error;
  if (!parse_hex_word(cols[5], v.word, hex_error)) {
    error = "bad hex word: " + std::string(hex_error.what);
    return std::nullopt;
  }
  return v;
}

struct TsvFile {
  bool readable = false;
  std::vector<TsvVector> vectors;
  std::vector<std::string> errors;
};

/// The file, read once per test binary.
inline const TsvFile& validate_vector_file() {
  static const TsvFile file = [] {
    TsvFile f;
    std::ifstream in(kTsvFile);
    if (!in) return f;
    f.readable = true;
    std::string text;
    size_t line = 0;
    while (std::getline(in, text)) {
      ++line;
      if (text.empty() || text[0] == '#') continue;
      std::string error;
      if (std::optional<TsvVector> v = parse_vector_line(text, line, error))
        f.vectors.push_back(std::move(*v));
      else
        f.errors.push_back("line " + std::to_string(line) + ": " + error);
    }
    return f;
  }();
  return file;
}

}  // namespace tpbisa::test
