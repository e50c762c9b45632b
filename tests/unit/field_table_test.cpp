// One field table: outside the format declarations no source writes a field's byte offset (a build check as a test).
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "../support/source_scan.hpp"

namespace {

namespace fs = std::filesystem;

/// Every C++ source under the library folders that use fields: families, text, isa.
std::vector<fs::path> sources() {
  return tpbisa::test::source_files({"src/families", "src/text", "src/isa"});
}

/// The declarations themselves: a family's format.hpp (fields_of<> and its offset checks).
bool is_declaration(const fs::path& p) {
  return p.filename() == "format.hpp";
}

// A FieldRef written by hand: {"name", offset, size} or FieldRef{"name", offset, size}.
const std::regex kLiteralFieldRef(
    R"(\{\s*"[A-Za-z_][A-Za-z0-9_.\[\]]*"\s*,\s*(0x[0-9a-fA-F]+|[0-9]+)\s*,\s*[0-9]+\s*\})");
// A field declared outside a format header: Member<S, T>{...} or field("name", offset, &S::member).
const std::regex kMemberDeclaration(
    R"(Member<[A-Za-z0-9_]+,|\bfield\(\s*"[A-Za-z_][A-Za-z0-9_]*"\s*,\s*(0x[0-9a-fA-F]+|[0-9]+)\s*,)");

TEST(FieldTable, NoLiteralFieldOffsetsOutsideTheDeclarations) {
#if defined(TPBISA_ASAN)
  GTEST_SKIP() << "a scan of the sources: it runs in the optimised tree";
#endif
  const std::vector<fs::path> files = sources();
  ASSERT_GT(files.size(), 20U) << "the source folders were not found under " << TPBISA_SOURCE_DIR;
  size_t declarations = 0;
  for (const fs::path& p : files) {
    const std::string text = tpbisa::test::read_text(p);
    if (is_declaration(p)) {
      ++declarations;
      continue;
    }
    std::smatch m;
    EXPECT_FALSE(std::regex_search(text, m, kLiteralFieldRef))
        << p << " writes a field's byte range by hand: " << m.str() << " (use field_ref<Format>(\"path\"))";
    EXPECT_FALSE(std::regex_search(text, m, kMemberDeclaration))
        << p << " declares a field outside a family's format.hpp: " << m.str();
  }
  EXPECT_GE(declarations, 4U) << "every family folder has its format.hpp";
}

// The scan finds what it is meant to find (a check that can fail).
TEST(FieldTable, TheScanRecognisesALiteral) {
  EXPECT_TRUE(std::regex_search(std::string(R"(constexpr FieldRef f[] = {{"dtype", 12, 1}};)"), kLiteralFieldRef));
  EXPECT_TRUE(std::regex_search(std::string(R"(FieldRef{"src_mem_pattern.num_elem[3]", 0x1e, 2})"), kLiteralFieldRef));
  EXPECT_FALSE(std::regex_search(std::string(R"(field_ref<Mem2d>("dtype"))"), kLiteralFieldRef));
  EXPECT_TRUE(std::regex_search(std::string("Member<Mem2d, uint8_t>{\"dtype\""), kMemberDeclaration));
  EXPECT_TRUE(std::regex_search(std::string("field(\"dtype\", 12, &Mem2d::dtype, Role::Dtype)"), kMemberDeclaration));
  EXPECT_FALSE(std::regex_search(std::string("field(fs, \"cmp_op\")"), kMemberDeclaration));
}

}  // namespace
