// Golden assembly files (tests/asm: NAME.tasm -> NAME.hex -> NAME.canon.tasm) and every example of docs/asm.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../support/test_util.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa {
namespace {

namespace fs = std::filesystem;

const fs::path kGoldenDir = fs::path(TPBISA_SOURCE_DIR) / "tests" / "asm";
const fs::path kDoc = fs::path(TPBISA_SOURCE_DIR) / "docs" / "asm.md";

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream s(text);
  std::string line;
  while (std::getline(s, line)) lines.push_back(line);
  return lines;
}

/// The generation a source names on a `; gen: NAME` line (mariana otherwise).
Generation generation_of(const std::string& source) {
  for (const std::string& line : lines_of(source)) {
    if (!line.starts_with("; gen: ")) continue;
    const auto g = parse_generation(line.substr(7));
    if (g) return *g;
  }
  return Generation::Mariana;
}

std::string disasm_all(const std::vector<Word>& words, Generation g) {
  DisasmOptions options;
  options.verdicts = true;  // as `tpbisa disasm` prints by default
  std::string text;
  for (const Word& w : words) text += disassemble(std::span<const uint8_t, kWordBytes>(w), g, options) + "\n";
  return text;
}

std::vector<fs::path> golden_sources() {
  std::vector<fs::path> sources;
  for (const auto& entry : fs::directory_iterator(kGoldenDir)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".tasm") && !name.ends_with(".canon.tasm")) sources.push_back(entry.path());
  }
  std::sort(sources.begin(), sources.end());
  return sources;
}

TEST(AsmGolden, EverySourceGivesItsBytesAndItsCanonicalText) {
  const std::vector<fs::path> sources = golden_sources();
  ASSERT_GE(sources.size(), 10U) << "golden sources missing in " << kGoldenDir;
  for (const fs::path& src : sources) {
    SCOPED_TRACE(src.filename().string());
    const std::string source = read_text(src);
    const Generation g = generation_of(source);
    const AsmResult r = assemble(source, src.filename().string(), g);
    ASSERT_TRUE(r.ok()) << format_diagnostic(r.errors[0]);
    fs::path hex = src;
    hex.replace_extension(".hex");
    std::vector<std::string> got;
    for (const Word& w : r.words) got.push_back(test::to_hex(w));
    EXPECT_EQ(got, lines_of(read_text(hex))) << "bytes differ (tests/asm/regenerate.sh rebuilds them for review)";
    fs::path canon = src;
    canon.replace_extension(".canon.tasm");
    const std::string expected = read_text(canon);
    EXPECT_EQ(disasm_all(r.words, g), expected) << "canonical text differs";
    // The canonical text is a fixed point: it assembles to the same bytes and prints as itself.
    const AsmResult again = assemble(expected, canon.filename().string(), g);
    ASSERT_TRUE(again.ok()) << format_diagnostic(again.errors[0]);
    EXPECT_EQ(again.words, r.words);
    EXPECT_EQ(disasm_all(again.words, g), expected);
  }
}

// ---- docs/asm.md: every ```tasm block assembles; canonical blocks print as written; error blocks as shown ----

struct DocBlock {
  std::string info;  ///< the fence's info string: "tasm", "tasm input", "tasm-error"
  std::string body;
  size_t line = 0;  ///< line of the opening fence
};

std::vector<DocBlock> doc_blocks() {
  std::vector<DocBlock> blocks;
  const std::vector<std::string> lines = lines_of(read_text(kDoc));
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!lines[i].starts_with("```tasm")) continue;
    DocBlock b{lines[i].substr(3), "", i + 1};
    for (++i; i < lines.size() && lines[i] != "```"; ++i) b.body += lines[i] + "\n";
    blocks.push_back(b);
  }
  return blocks;
}

bool is_statement(const std::string& line) {
  const size_t first = line.find_first_not_of(" \t");
  if (first == std::string::npos || line[first] == ';' || line[first] == '#') return false;
  const size_t colon = line.find(':');
  const size_t space = line.find(' ');
  return !(colon != std::string::npos && colon + 1 == line.size() && space == std::string::npos);  // a label line
}

TEST(AsmDocs, EveryExampleAssemblesAndCanonicalExamplesPrintAsWritten) {
  const std::vector<DocBlock> blocks = doc_blocks();
  ASSERT_GE(blocks.size(), 12U) << "docs/asm.md examples missing";
  size_t canonical_lines = 0;
  for (const DocBlock& b : blocks) {
    if (b.info == "tasm-error") continue;
    SCOPED_TRACE("docs/asm.md block at line " + std::to_string(b.line));
    const Generation g = generation_of(b.body);
    const AsmResult r = assemble(b.body, "docs/asm.md", g);
    ASSERT_TRUE(r.ok()) << format_diagnostic(r.errors[0]);
    if (b.info != "tasm") continue;  // "tasm input": spellings that are read, not printed
    size_t k = 0;
    for (const std::string& line : lines_of(b.body)) {
      if (!is_statement(line)) continue;
      ASSERT_LT(k, r.words.size());
      DisasmOptions options;
      options.verdicts = true;
      std::string expect = line;
      if (const size_t colon = expect.find(": "); colon != std::string::npos && expect.find(' ') == colon + 1)
        expect = expect.substr(colon + 2);  // "label: Insn ..." prints without the label
      EXPECT_EQ(disassemble(std::span<const uint8_t, kWordBytes>(r.words[k++]), g, options), expect);
      ++canonical_lines;
    }
  }
  EXPECT_GE(canonical_lines, 12U);
}

// A tasm-error block: the first line is the source (line 1 of example.tasm, generation mariana unless a
// `; gen:` comment says otherwise), the rest is exactly what the assembler reports.
TEST(AsmDocs, ErrorExamplesShowWhatTheAssemblerPrints) {
  size_t seen = 0;
  for (const DocBlock& b : doc_blocks()) {
    if (b.info != "tasm-error") continue;
    SCOPED_TRACE("docs/asm.md block at line " + std::to_string(b.line));
    const std::vector<std::string> lines = lines_of(b.body);
    ASSERT_GE(lines.size(), 4U);
    const AsmResult r = assemble(lines[0], "example.tasm", Generation::Mariana);
    ASSERT_EQ(r.errors.size(), 1U);
    std::string shown;
    for (size_t i = 1; i < lines.size(); ++i) shown += (i == 1 ? "" : "\n") + lines[i];
    EXPECT_EQ(format_diagnostic(r.errors[0]), shown);
    ++seen;
  }
  EXPECT_GE(seen, 3U);
}

}  // namespace
}  // namespace tpbisa
