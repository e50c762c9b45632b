// A real compiled Trainium2 (CAYMAN) program: every engine-stream word decodes, is named, and re-encodes exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../support/test_util.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa {
namespace {

namespace fs = std::filesystem;

using test::kNeff;

/// The engine streams of the NEFF, read by the library's container reader.
class NeffStreams : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kNeff)) GTEST_SKIP() << kNeff << " is absent (shared data not available)";
    neff::Result<neff::Neff> r = neff::read_file(kNeff.string());
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    neff_ = std::move(*r);
    for (const neff::Stream* s : neff_.streams()) streams_[s->label()] = s;
  }

  const std::set<std::string> kEngines{"SP", "PE", "Pool", "DVE", "Activation"};
  neff::Neff neff_;
  std::map<std::string, const neff::Stream*> streams_;  // "sg00/PE" -> its words
};

TEST_F(NeffStreams, HasFiveEngineStreamsPerSubgraph) {
  std::set<std::string> engines;
  std::set<std::string> subgraphs;
  for (const auto& [name, s] : streams_) {
    engines.insert(std::string(neff::engine_name(s->engine)));
    subgraphs.insert(s->subgraph);
  }
  EXPECT_EQ(engines, kEngines);
  EXPECT_EQ(subgraphs, (std::set<std::string>{"sg00", "sg01"}));
  EXPECT_EQ(streams_.size(), 10U);
}

TEST_F(NeffStreams, EveryWordDecodesForCaymanAndReencodesExactly) {
  ASSERT_FALSE(streams_.empty());
  std::set<unsigned> seen;
  size_t words = 0;
  for (const auto& [name, s] : streams_) {
    SCOPED_TRACE(name);
    const auto& data = s->bytes;
    ASSERT_FALSE(data.empty());
    ASSERT_EQ(data.size() % kWordBytes, 0U) << "size " << data.size();
    for (size_t off = 0; off < data.size(); off += kWordBytes) {
      Word w{};
      std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(off), kWordBytes, w.begin());
      ++words;
      const Instruction inst = decode(w, Generation::Cayman);
      SCOPED_TRACE("offset " + std::to_string(off) + " word " + test::to_hex(w));
      EXPECT_EQ(inst.header().inst_word_len, 16);
      EXPECT_TRUE(opcode_in(inst.opcode(), Generation::Cayman));
      EXPECT_NE(inst.status, DecodeStatus::Unknown);
      ASSERT_NE(inst.info, nullptr);
      EXPECT_EQ(inst.name(), inst.info->mnemonic);
      EXPECT_NE(inst.name(), "unknown");
      EXPECT_EQ(encode(inst), w);
      seen.insert(inst.opcode());
    }
  }
  EXPECT_GT(words, 0U);
  EXPECT_EQ(seen, test::bytes({0x01, 0x02, 0x23, 0x46, 0xA0, 0xA4, 0xB1, 0xCC, 0xD4}));
}

}  // namespace
}  // namespace tpbisa
