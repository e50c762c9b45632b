// docs/coverage.md is generated from the registry and the catalog; this test keeps it equal to the library.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tpbisa/io/catalog_tables.hpp"

namespace tpbisa {
namespace {

TEST(DocsCoverage, DocumentMatchesTheLibrary) {
  std::ifstream in(TPBISA_SOURCE_DIR "/docs/coverage.md");
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string expected = io::coverage_markdown();
  if (buf.str() != expected) {
    std::ofstream("coverage.md.expected") << expected;  // written next to the test for review
    FAIL() << "docs/coverage.md is out of date; the expected text is in coverage.md.expected of the test's working "
              "directory";
  }
}

TEST(DocsCoverage, NamesEveryOpcodeWhoseLayoutIsNotPublicWithItsSource) {
  const std::string doc = io::coverage_markdown();
  for (const OpcodeInfo& op : kOpcodes) {
    if (op.layout_not_public.empty()) continue;
    EXPECT_NE(doc.find(std::string(op.enum_name) + " | "), std::string::npos) << op.enum_name;
    EXPECT_NE(doc.find(std::string(op.layout_not_public)), std::string::npos) << op.enum_name;
  }
}

}  // namespace
}  // namespace tpbisa
