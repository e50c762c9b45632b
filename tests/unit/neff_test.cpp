// A real compiled Trainium2 (CAYMAN) program: every engine-stream word decodes, is named, and re-encodes exactly.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "../support/test_util.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa {
namespace {

namespace fs = std::filesystem;

const fs::path kNeff = fs::path(TPBISA_SHARED_DATA_DIR) / "matmul_small.neff";
constexpr size_t kNeffHeaderBytes = 1024;

std::vector<uint8_t> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// Extracts the NEFF payload (a gzip tar after the 1024-byte header) into a scratch directory under the
/// working directory, and removes it again when the test ends.
class NeffStreams : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kNeff)) GTEST_SKIP() << kNeff << " is absent (shared data not available)";
    const std::vector<uint8_t> bytes = read_file(kNeff);
    ASSERT_GE(bytes.size(), kNeffHeaderBytes);
    ASSERT_EQ(load_le<uint64_t>(&bytes[8]), kNeffHeaderBytes) << "header_size";
    ASSERT_EQ(load_le<uint64_t>(&bytes[0x10]) + kNeffHeaderBytes, bytes.size()) << "data_size";
    ASSERT_EQ(bytes[kNeffHeaderBytes], 0x1F) << "gzip magic";
    ASSERT_EQ(bytes[kNeffHeaderBytes + 1], 0x8B) << "gzip magic";

    dir_ = fs::current_path() / ("neff_test_scratch_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    const std::string cmd = "tail -c +" + std::to_string(kNeffHeaderBytes + 1) + " " + shell_quote(kNeff.string()) +
                            " | tar -xzf - -C " + shell_quote(dir_.string());
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;

    for (const auto& entry : fs::recursive_directory_iterator(dir_)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".bin") continue;
      const std::string engine = entry.path().stem().string();
      const std::string sg = entry.path().parent_path().filename().string();
      if (!sg.starts_with("sg") || !kEngines.count(engine)) continue;
      streams_[sg + "/" + engine] = entry.path();
    }
  }

  void TearDown() override {
    if (!dir_.empty()) {
      std::error_code ec;
      fs::remove_all(dir_, ec);
    }
  }

  const std::set<std::string> kEngines{"SP", "PE", "Pool", "DVE", "Activation"};
  fs::path dir_;
  std::map<std::string, fs::path> streams_;  // "sg00/PE" -> file
};

TEST_F(NeffStreams, HasFiveEngineStreamsPerSubgraph) {
  std::set<std::string> engines;
  std::set<std::string> subgraphs;
  for (const auto& [name, path] : streams_) {
    engines.insert(path.stem().string());
    subgraphs.insert(path.parent_path().filename().string());
  }
  EXPECT_EQ(engines, kEngines);
  EXPECT_EQ(subgraphs, (std::set<std::string>{"sg00", "sg01"}));
  EXPECT_EQ(streams_.size(), 10U);
}

TEST_F(NeffStreams, EveryWordDecodesForCaymanAndReencodesExactly) {
  ASSERT_FALSE(streams_.empty());
  std::set<unsigned> seen;
  size_t words = 0;
  for (const auto& [name, path] : streams_) {
    SCOPED_TRACE(name);
    const std::vector<uint8_t> data = read_file(path);
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
