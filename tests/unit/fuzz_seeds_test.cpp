// The per-format fuzz corpora (tests/fuzz/corpus/formats/, written by tests/fuzz/make_seeds.py): every operand format
// of the registry has one, holding words of its own opcodes, so a format added later is fuzzed too.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"

namespace tpbisa {
namespace {

TEST(FuzzSeeds, EveryFormatOfTheRegistryHasItsOwnCorpus) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(TPBISA_SOURCE_DIR) / "tests/fuzz/corpus/formats";
  size_t formats = 0;
  for (const OpcodeInfo& op : kOpcodes) {
    if (op.format == Format::NotModeled) continue;
    const fs::path dir = root / std::string(to_string(op.format));
    SCOPED_TRACE(dir.string());
    ASSERT_TRUE(fs::is_directory(dir)) << "no seeds for " << to_string(op.format)
                                       << ": run tests/fuzz/make_seeds.py with the tpbisa binary";
    size_t own = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
      std::ifstream in(e.path(), std::ios::binary);
      const std::vector<char> seed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      ASSERT_FALSE(seed.empty()) << e.path();
      const OpcodeInfo* row = find_opcode(static_cast<uint8_t>(seed[0]));
      ASSERT_NE(row, nullptr) << e.path();
      EXPECT_EQ(row->format, op.format) << e.path();  // a format's corpus holds only its words
      ++own;
    }
    EXPECT_GT(own, 0U);
    ++formats;
  }
  EXPECT_GT(formats, 0U);
}

}  // namespace
}  // namespace tpbisa
