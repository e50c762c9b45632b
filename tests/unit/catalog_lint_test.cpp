// One catalog: outside it no source writes an opcode value, classifies an EVENTS mode by its value, or states where
// an opcode may run (a build check as a test, as field_table_test.cpp is for field offsets).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <initializer_list>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../support/source_scan.hpp"
#include "tpbisa/catalog.hpp"

namespace catalog_lint {
namespace {

namespace fs = std::filesystem;

/// Every C++ source of the library, its public headers, the command line and the Python module, except the catalog.
std::vector<fs::path> sources() {
  const fs::path root(TPBISA_SOURCE_DIR);
  std::vector<fs::path> out;
  for (const fs::path& p : tpbisa::test::source_files({"src", "include/tpbisa", "tools", "python/src"}))
    if (p != root / "include/tpbisa/catalog.hpp" && p.parent_path() != root / "src/catalog") out.push_back(p);
  return out;
}

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

/// The code of a source: comments, string and character literals blanked (newlines kept), so the rules read code
/// only (a message or a comment may name an opcode's value).
std::string code_of(const std::string& s) {
  std::string out = s;
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < out.size(); ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  size_t i = 0;
  while (i < s.size()) {
    if (s.compare(i, 2, "//") == 0) {
      const size_t end = s.find('\n', i);
      blank(i, end == std::string::npos ? s.size() : end);
      i = end == std::string::npos ? s.size() : end;
    } else if (s.compare(i, 2, "/*") == 0) {
      const size_t end = s.find("*/", i + 2);
      const size_t stop = end == std::string::npos ? s.size() : end + 2;
      blank(i, stop);
      i = stop;
    } else if (s[i] == 'R' && i + 1 < s.size() && s[i + 1] == '"' && (i == 0 || !ident_char(s[i - 1]))) {
      const size_t open = s.find('(', i);
      const std::string close = ")" + s.substr(i + 2, open - i - 2) + "\"";
      const size_t end = s.find(close, open);
      const size_t stop = end == std::string::npos ? s.size() : end + close.size();
      blank(i + 2, stop - 1);
      i = stop;
    } else if (s[i] == '"' || (s[i] == '\'' && (i == 0 || !std::isxdigit(static_cast<unsigned char>(s[i - 1]))))) {
      const char q = s[i];
      size_t k = i + 1;
      while (k < s.size() && s[k] != q && s[k] != '\n') k += s[k] == '\\' ? 2 : 1;
      blank(i + 1, k);
      i = k + 1;
    } else {
      ++i;
    }
  }
  return out;
}

size_t line_at(const std::string& text, size_t pos) {
  return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

/// The text of the balanced (...) or {...} that opens at `open`, or empty.
std::string balanced(const std::string& s, size_t open) {
  if (open >= s.size()) return "";
  const char o = s[open], c = o == '(' ? ')' : '}';
  int depth = 0;
  for (size_t k = open; k < s.size(); ++k) {
    if (s[k] == o) ++depth;
    if (s[k] == c && --depth == 0) return s.substr(open, k - open + 1);
  }
  return "";
}

/// A catalog opcode value written as hex (0x00 and the like are not opcodes: "no such opcode" probes pass).
bool is_opcode_hex(const std::string& literal) {
  const unsigned long v = std::stoul(literal, nullptr, 16);
  return v < 256 && tpbisa::find_opcode(static_cast<uint8_t>(v)) != nullptr;
}

constexpr const char* kHex = R"(0[xX][0-9a-fA-F]{1,2}\b)";

/// What one rule found: the matched text and its line.
struct Finding {
  size_t line;
  std::string text;
};

// ---- Rule 1: an opcode value outside the catalog ----

// An opcode expression compared with a literal, a literal given to an opcode look-up or opcode clause, or stored in
// a name that says it holds opcodes.
const std::regex kOpcodeCompare(std::string(R"(\bopcode\b\s*(\(\s*\))?\s*(==|!=)\s*()") + kHex + ")|(" + kHex +
                                R"()\s*(==|!=)\s*[\w.>\-]*\bopcode\b)");
const std::regex kOpcodeArgument(std::string(R"(\b(find_opcode|opcode_in|placement_of|is_pseudo|engine_may_issue|)") +
                                 R"(validator_for)\s*\(\s*()" + kHex + ")");
const std::regex kOpcodeClause(std::string(R"(\b(opcode_is|has_opcode|opcode_clause|opcode_rule)\s*<[^;>]*?()") + kHex +
                               ")");
const std::regex kOpcodeStore(std::string(R"(\b\w*[oO]pcode\w*\s*(\[\s*\w*\s*\])?\s*(=|\{)[^;]*?()") + kHex + ")");
const std::regex kOpcodeNamespace(R"(\bnamespace\s+opcode\s*\{)");
const std::regex kCaseHex(std::string(R"(\bcase\s+()") + kHex + R"()\s*:)");

/// Calls f(offset, text) for each statement of `code` (the text up to and including a `;`, or the tail) that holds
/// one of `triggers`: the rules' regular expressions then run over a few statements, not over whole files.
template <class F>
void statements_with(const std::string& code, std::initializer_list<std::string_view> triggers, F f) {
  size_t from = 0;
  while (from < code.size()) {
    const size_t semi = code.find(';', from);
    const size_t end = semi == std::string::npos ? code.size() : semi + 1;
    const std::string_view text(code.data() + from, end - from);
    if (std::any_of(triggers.begin(), triggers.end(), [&](std::string_view t) { return text.find(t) != text.npos; }))
      f(from, std::string(text));
    from = end;
  }
}

/// The `case 0x..:` labels of each `switch (COND)` whose condition `wants`, with their offsets.
template <class Wants>
std::vector<std::pair<size_t, std::string>> switch_cases(const std::string& code, Wants wants) {
  std::vector<std::pair<size_t, std::string>> out;
  for (size_t at = code.find("switch"); at != std::string::npos; at = code.find("switch", at + 6)) {
    if ((at > 0 && ident_char(code[at - 1])) || (at + 6 < code.size() && ident_char(code[at + 6]))) continue;
    const size_t open = code.find_first_not_of(" \t\n", at + 6);
    if (open == std::string::npos || code[open] != '(') continue;
    const std::string cond = balanced(code, open);
    if (!wants(cond)) continue;
    const size_t body = code.find('{', open + cond.size());
    const std::string block = balanced(code, body);
    for (std::sregex_iterator c(block.begin(), block.end(), kCaseHex), e; c != e; ++c)
      out.emplace_back(body + static_cast<size_t>(c->position()), c->str());
  }
  return out;
}

const std::regex kHexLiteral(kHex);

std::vector<Finding> opcode_literals(const std::string& code) {
  std::vector<Finding> out;
  const auto scan = [&](size_t offset, const std::string& text, const std::regex& r, int literal_group) {
    for (std::sregex_iterator it(text.begin(), text.end(), r), end; it != end; ++it) {
      std::string literal;
      for (int g = literal_group; g < static_cast<int>(it->size()) && literal.empty(); ++g)
        if ((*it)[g].matched && std::regex_match((*it)[g].str(), kHexLiteral)) literal = (*it)[g].str();
      if (literal_group == 0 || is_opcode_hex(literal))
        out.push_back({line_at(code, offset + static_cast<size_t>(it->position())), it->str()});
    }
  };
  statements_with(code, {"pcode", "placement_of", "is_pseudo", "engine_may_issue", "validator_for"},
                  [&](size_t offset, const std::string& text) {
                    scan(offset, text, kOpcodeCompare, 1);
                    scan(offset, text, kOpcodeArgument, 2);
                    scan(offset, text, kOpcodeClause, 2);
                    scan(offset, text, kOpcodeStore, 3);
                    scan(offset, text, kOpcodeNamespace, 0);
                  });
  // `case 0x..:` under a switch on an opcode.
  const auto on_opcode = [](const std::string& cond) { return std::regex_search(cond, std::regex(R"(\bopcode\b)")); };
  for (const auto& [at, text] : switch_cases(code, on_opcode))
    if (std::smatch m; std::regex_search(text, m, kHexLiteral) && is_opcode_hex(m.str()))
      out.push_back({line_at(code, at), text});
  return out;
}

// ---- Rule 2: an EVENTS mode classified by its value ----

// A wait or update mode (a field named so, or a variable initialised from one) compared with, masked by or switched
// over a number: what a mode does is its catalog row (wait_mode_info, update_mode_info).
const std::regex kModeAlias(R"(\b(\w+)\s*=\s*[\w.>\-]*\b(wait_mode|update_mode)\s*;)");
// A mode handed to a function about waits, updates, events or semaphores: `is_sem_wait(uint8_t mode)`.
const std::regex kModeFunction(R"(\b\w*(wait|update|event|sem)\w*\s*\(([^()]*)\))");
const std::regex kModeParameter(R"(\buint8_t\s+(\w*mode\w*)\b)");
const std::string kNumber = R"((0[xX][0-9a-fA-F]+|\d+)[uU]?\b)";

std::vector<Finding> mode_ranges(const std::string& code) {
  // The fields (any access path), then the variables a field was copied into (plain names only).
  std::vector<std::pair<std::string, std::string>> modes{{"_mode", R"([\w.>\-]*\b(wait_mode|update_mode)\b(?!\s*\())"}};
  std::set<std::string> aliases;
  statements_with(code, {"wait_mode", "update_mode"}, [&](size_t, const std::string& text) {
    for (std::sregex_iterator it(text.begin(), text.end(), kModeAlias), end; it != end; ++it)
      if ((*it)[1].str() != "wait_mode" && (*it)[1].str() != "update_mode") aliases.insert((*it)[1].str());
  });
  statements_with(code, {"mode"}, [&](size_t, const std::string& text) {
    for (std::sregex_iterator f(text.begin(), text.end(), kModeFunction), end; f != end; ++f) {
      const std::string params = (*f)[2].str();
      for (std::sregex_iterator p(params.begin(), params.end(), kModeParameter); p != end; ++p)
        aliases.insert((*p)[1].str());
    }
  });
  for (const std::string& a : aliases) modes.emplace_back(a, R"((?:^|[^\w.>]))" + a + R"(\b(?!\s*\())");
  std::vector<Finding> out;
  for (const auto& [trigger, mode] : modes) {
    const std::regex compared(mode + R"(\s*(==|!=|<=|>=|<|>|&|\|)\s*)" + kNumber + "|" + kNumber +
                              R"(\s*(==|!=|<=|>=|<|>)\s*)" + mode);
    statements_with(code, {trigger}, [&](size_t offset, const std::string& text) {
      for (std::sregex_iterator it(text.begin(), text.end(), compared), end; it != end; ++it)
        out.push_back({line_at(code, offset + static_cast<size_t>(it->position())), it->str()});
    });
    const std::regex in_cond(mode);
    for (const auto& [at, text] :
         switch_cases(code, [&](const std::string& c) { return std::regex_search(c, in_cond); }))
      out.push_back({line_at(code, at), text});
  }
  return out;
}

// ---- Rule 3: a placement rule outside the catalog ----

// An engine set built by hand, or one statement that decides by both an opcode and an engine: where an opcode may
// run is the catalog's placement column (placement_of, engine_may_issue).
const std::regex kEngineSet(R"(\bEnginePlacement\s*(\w+\s*)?\{|\bPlacement::(Pe|Datapath)\b|\bengine_bits\s*\()");
const std::regex kEngineValue(R"(\b(Engine|StreamEngine|EngineId)::(Pe|Act|Pool|Dve|Sp)\b)");
const std::regex kOpcodeMention(std::string(R"(\bopcode::k\w+|\bopcode\s*\(\s*\)|\.opcode\b)"));

std::vector<Finding> placement_rules(const std::string& code) {
  std::vector<Finding> out;
  statements_with(code, {"EnginePlacement", "Placement::", "engine_bits"}, [&](size_t offset, const std::string& text) {
    for (std::sregex_iterator it(text.begin(), text.end(), kEngineSet), end; it != end; ++it)
      out.push_back({line_at(code, offset + static_cast<size_t>(it->position())), it->str()});
  });
  // Statements end at `;`, `{` and `}` here: an `if` deciding by an opcode and an engine is one statement.
  size_t from = 0;
  for (size_t k = 0; k <= code.size(); ++k) {
    if (k < code.size() && code[k] != ';' && code[k] != '{' && code[k] != '}') continue;
    const std::string_view view(code.data() + from, k - from);
    if (view.find("::") != view.npos && view.find("ngine") != view.npos && view.find("pcode") != view.npos) {
      const std::string statement(view);
      std::smatch engine, op;
      if (std::regex_search(statement, engine, kEngineValue) && std::regex_search(statement, op, kOpcodeMention))
        out.push_back(
            {line_at(code, from + static_cast<size_t>(engine.position())), engine.str() + " ... " + op.str()});
    }
    from = k + 1;
  }
  return out;
}

std::string findings_text(const fs::path& p, const std::vector<Finding>& found) {
  std::string text;
  for (const Finding& f : found) text += "\n  " + p.string() + ":" + std::to_string(f.line) + ": " + f.text;
  return text;
}

TEST(CatalogLint, NoOpcodeLiteralOutsideTheCatalog) {
#if defined(TPBISA_ASAN)
  GTEST_SKIP() << "a scan of the sources: it runs in the optimised tree";
#endif
  const std::vector<fs::path> files = sources();
  ASSERT_GT(files.size(), 60U) << "the source folders were not found under " << TPBISA_SOURCE_DIR;
  for (const fs::path& p : files) {
    const std::vector<Finding> found = opcode_literals(code_of(tpbisa::test::read_text(p)));
    EXPECT_TRUE(found.empty()) << "opcode values written outside the catalog (name them opcode::k...):"
                               << findings_text(p, found);
  }
}

TEST(CatalogLint, NoEventsModeRangeOutsideTheCatalog) {
#if defined(TPBISA_ASAN)
  GTEST_SKIP() << "a scan of the sources: it runs in the optimised tree";
#endif
  for (const fs::path& p : sources()) {
    const std::vector<Finding> found = mode_ranges(code_of(tpbisa::test::read_text(p)));
    EXPECT_TRUE(found.empty()) << "EVENTS modes classified by value outside the catalog (ask wait_mode_info / "
                                  "update_mode_info):"
                               << findings_text(p, found);
  }
}

TEST(CatalogLint, NoPlacementRuleOutsideTheCatalog) {
#if defined(TPBISA_ASAN)
  GTEST_SKIP() << "a scan of the sources: it runs in the optimised tree";
#endif
  for (const fs::path& p : sources()) {
    const std::vector<Finding> found = placement_rules(code_of(tpbisa::test::read_text(p)));
    EXPECT_TRUE(found.empty()) << "engine placement decided outside the catalog's placement column:"
                               << findings_text(p, found);
  }
}

// ---- The rules find what they are meant to find, and nothing else (checks that can fail) ----

TEST(CatalogLint, CodeOfBlanksCommentsAndStrings) {
  const std::string code = code_of("a // opcode == 0xa1\nb /* 0x46 */ \"opcode == 0x47\" 'x' R\"(0x41)\" c\n");
  EXPECT_EQ(code.find("0x"), std::string::npos) << code;
  EXPECT_NE(code.find('c'), std::string::npos);
  EXPECT_EQ(std::count(code.begin(), code.end(), '\n'), 2);
  EXPECT_NE(code_of("kName = \"S3_LW\"; x == 0x41").find("0x41"), std::string::npos) << "an R\" inside a name";
}

TEST(CatalogLint, OpcodeRuleFindsLiterals) {
  for (const char* bad :
       {"if (inst.opcode() == 0xa1) halt();", "const bool cast = t.header.opcode == 0x47;", "return 0x46 != h.opcode;",
        "switch (inst.opcode()) {\n case 0x01: return f();\n}", "constexpr uint8_t kNotExecutedOpcodes[] = {0xd2};",
        "has_opcode<0xAA>", "opcode_rule<Tr, 0x46>(\"has_copy_opcode\")", "find_opcode(0xA0)",
        "namespace opcode {\ninline constexpr uint8_t kX = 1;\n}"})
    EXPECT_FALSE(opcode_literals(code_of(bad)).empty()) << bad;
  for (const char* good : {"if (inst.opcode() == opcode::kHalt) halt();", "mode == 0x10", "x.opcode == op",
                           "constexpr uint8_t kOpcodesOfEachClass[] = {opcode::kPtrMultiArith, 0x00};",
                           "switch (kind) {\n case 0x01: break;\n}", "case 0x01: return exec_ldweights(inst, txn);",
                           "fmt::format(\"opcode {} is not 0xa1\", op)", "a.mode == 0x20", "(b & 0x80) != 0"})
    EXPECT_TRUE(opcode_literals(code_of(good)).empty()) << good;
}

TEST(CatalogLint, ModeRuleFindsValueRanges) {
  for (const char* bad :
       {"if (e.wait_mode == 0x00 || e.wait_mode == 0xFE) return;",
        "return mode >= 0x91;\nconst uint8_t mode = e.wait_mode;", "ev.update_mode != 0",
        "bool is_sem_wait(uint8_t mode) {\n  return mode >= 0x01 && mode <= 0x05;\n}", "(x.wait_mode & 0xF0) == 0x80",
        "0x06 == w.wait_mode", "switch (e.update_mode) {\n case 0x03: break;\n}"})
    EXPECT_FALSE(mode_ranges(code_of(bad)).empty()) << bad;
  for (const char* good : {"if (a.mode == 0x10) {", "wait_mode_info(e.wait_mode)", "p.mode = *mode;",
                           "bool resolve(uint8_t mode) {\n  return mode == 0x10;\n}",
                           "e.wait_mode = wait_mode < kWordBytes ? w[wait_mode] : 0;", "w.wait_mode = e.wait_mode;",
                           "(x.update_mode & kBits)", "const unsigned r = e.semaphore_value & 0xFF;"})
    EXPECT_TRUE(mode_ranges(code_of(good)).empty()) << good;
}

TEST(CatalogLint, PlacementRuleFindsEngineDecisionsByOpcode) {
  for (const char* bad : {"inline constexpr EnginePlacement kPeEngine{1, \"PE\"};",
                          "if (inst.opcode() == opcode::kMatmul && e != StreamEngine::Pe) return false;",
                          "{opcode::kCopy, engine_bits({StreamEngine::Act})},", "row.placement = Placement::Pe;"})
    EXPECT_FALSE(placement_rules(code_of(bad)).empty()) << bad;
  for (const char* good : {"return placement_of(i.opcode()).has(*c.engine());", "mo.engine = EngineId::Dve;",
                           "r.engine = engine.id(); r.opcode = inst.opcode();",
                           "if (opts.engine == Engine::Pe) x = 1; y = inst.opcode();"})
    EXPECT_TRUE(placement_rules(code_of(good)).empty()) << good;
}

}  // namespace
}  // namespace catalog_lint
