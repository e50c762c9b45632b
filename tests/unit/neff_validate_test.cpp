// A real Trainium2 (CAYMAN) program validates: every stream word is valid, judged in full where its format is modeled.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "../support/test_util.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

namespace fs = std::filesystem;

using test::kNeff;

/// The NEFF's engine streams, read by the library's container reader.
class NeffValidate : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kNeff)) GTEST_SKIP() << kNeff << " is absent (shared data not available)";
    neff::Result<neff::Neff> r = neff::read_file(kNeff.string());
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    neff_ = std::move(*r);
    for (const neff::Stream* s : neff_.streams()) streams_[s->label()] = s;
  }

  neff::Neff neff_;
  std::map<std::string, const neff::Stream*> streams_;  // "sg00/PE" -> its words
};

TEST_F(NeffValidate, EveryWordHasAValidHeaderAndEventsOnCayman) {
  ASSERT_FALSE(streams_.empty()) << "no sgNN/<Engine>.bin stream in the NEFF";
  ASSERT_EQ(neff_.generation, Generation::Cayman);  // the kelf target, not a guess
  constexpr Generation kGen = Generation::Cayman;
  size_t words = 0;
  std::set<uint8_t> opcodes;
  for (const auto& [name, s] : streams_) {
    const auto& bytes = s->bytes;
    ASSERT_EQ(bytes.size() % kWordBytes, 0U) << name << " is not a whole number of 64-byte words";
    for (size_t off = 0; off < bytes.size(); off += kWordBytes) {
      SCOPED_TRACE(name + " word " + std::to_string(off / kWordBytes));
      const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(bytes.data() + off, kWordBytes), kGen);
      const Verdict v = validate(inst, kGen);
      EXPECT_FALSE(v.fails("has_valid_neuron_header")) << "opcode " << int{inst.opcode()};
      EXPECT_FALSE(v.fails("has_valid_neuron_events")) << "opcode " << int{inst.opcode()};

      // Words of a modeled operand format are judged in full, the others header-only.
      const OpcodeInfo* row = find_opcode(inst.opcode());
      ASSERT_NE(row, nullptr) << "opcode " << int{inst.opcode()} << " is not in the catalog";
      EXPECT_EQ(v.checked, row->format == Format::NotModeled ? Checked::HeaderOnly : Checked::Full) << row->enum_name;
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
