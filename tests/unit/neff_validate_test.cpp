// A real Trainium2 (CAYMAN) program validates: every stream word, in full where its format is modeled.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include "tpbisa/catalog.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

namespace fs = std::filesystem;

const fs::path kNeffFile = fs::path(TPBISA_SHARED_DATA_DIR "/matmul_small.neff");
constexpr unsigned kNeffHeader = 1024;  // the NEFF header; a gzip'd tar follows (shared/data/README.md)
const std::set<std::string> kEngineStreams{"SP", "PE", "Pool", "DVE", "Activation"};

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The NEFF's payload, unpacked into a private temporary directory for the life of the test.
class NeffValidate : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kNeffFile)) GTEST_SKIP() << kNeffFile << " is absent (shared data not available)";
    std::string tmpl = (fs::temp_directory_path() / "tpbisa_neff_validate_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr) << "cannot create a temporary directory";
    dir_ = tmpl;
    const std::string cmd = "tail -c +" + std::to_string(kNeffHeader + 1) + " " + quoted(kNeffFile.string()) +
                            " | tar -xzf - -C " + quoted(dir_.string());
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    for (const auto& e : fs::recursive_directory_iterator(dir_)) {
      const fs::path& p = e.path();
      if (!e.is_regular_file() || p.extension() != ".bin") continue;
      if (!p.parent_path().filename().string().starts_with("sg") || !kEngineStreams.count(p.stem().string())) continue;
      streams_[p.parent_path().filename().string() + "/" + p.stem().string()] = p;
    }
  }

  void TearDown() override {
    if (dir_.empty()) return;
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  static std::vector<uint8_t> read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  fs::path dir_;
  std::map<std::string, fs::path> streams_;  // "sg00/PE" -> its .bin
};

TEST_F(NeffValidate, EveryWordHasAValidHeaderAndEventsOnCayman) {
  ASSERT_FALSE(streams_.empty()) << "no sgNN/<Engine>.bin stream in the NEFF";
  constexpr Generation kGen = Generation::Cayman;
  size_t words = 0;
  std::set<uint8_t> opcodes;
  for (const auto& [name, path] : streams_) {
    const std::vector<uint8_t> bytes = read(path);
    ASSERT_EQ(bytes.size() % kWordBytes, 0U) << name << " is not a whole number of 64-byte words";
    for (size_t off = 0; off < bytes.size(); off += kWordBytes) {
      SCOPED_TRACE(name + " word " + std::to_string(off / kWordBytes));
      const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(bytes.data() + off, kWordBytes), kGen);
      const Verdict v = validate(inst, kGen);
      EXPECT_FALSE(v.fails("has_valid_neuron_header")) << "opcode " << int{inst.opcode()};
      EXPECT_FALSE(v.fails("has_valid_neuron_events")) << "opcode " << int{inst.opcode()};

      // Words of a modeled format (CTRL_NO: ActivationTableLoad 0x23, Nop 0xa4; S4D4_TR: Copy 0x46) are judged in
      // full and pass; the other opcodes of the program are judged by their header only.
      const OpcodeInfo* row = find_opcode(inst.opcode());
      ASSERT_NE(row, nullptr) << "opcode " << int{inst.opcode()} << " is not in the catalog";
      const bool ctrl_no = inst.opcode() == 0x23 || inst.opcode() == 0xA4;
      const bool copy = inst.opcode() == 0x46;
      EXPECT_EQ(row->format, ctrl_no ? Format::CtrlNo : copy ? Format::S4d4Tr : Format::NotModeled) << row->enum_name;
      EXPECT_EQ(v.checked, ctrl_no || copy ? Checked::Full : Checked::HeaderOnly) << row->enum_name;
      EXPECT_EQ(v.validator, &validator_for(inst.opcode(), kGen));
      EXPECT_TRUE(v.valid) << row->enum_name;
      opcodes.insert(inst.opcode());
      ++words;
    }
  }
  EXPECT_GT(words, 0U);
  // The program's opcode set as documented in shared/data/README.md.
  EXPECT_EQ(opcodes, (std::set<uint8_t>{0x01, 0x02, 0x23, 0x46, 0xA0, 0xA4, 0xB1, 0xCC, 0xD4}));
}

}  // namespace
}  // namespace tpbisa
