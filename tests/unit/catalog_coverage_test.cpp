// catalog --coverage's library call: coverage read from the registry agrees with decode and validator dispatch.
#include <gtest/gtest.h>

#include <array>

#include "tpbisa/catalog.hpp"
#include "tpbisa/coverage.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

Instruction decode_opcode(uint8_t opcode, Generation g) {
  Word w{};
  w[0] = opcode;
  w[1] = 16;
  return decode(std::span<const uint8_t, kWordBytes>(w), g);
}

TEST(CatalogCoverage, AgreesWithDecodeAndValidatorDispatch) {
  for (const OpcodeInfo& op : kOpcodes)
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(std::string(op.enum_name) + " on " + std::string(to_string(g)));
      const OpcodeCoverage c = coverage(op, g);
      EXPECT_EQ(c.present, op.gens.has(g));
      EXPECT_EQ(c.format, c.present && decode_opcode(op.value, g).status == DecodeStatus::Modeled);
      EXPECT_EQ(c.validator, c.present && validator_for(op.value, g).checked == Checked::Full);
      if (c.executor) {
        EXPECT_TRUE(c.format);  // nothing runs that does not decode
      }
    }
}

TEST(CatalogCoverage, ExecutorsAreTheFamilies) {
  for (Generation g : kAllGenerations) {
    EXPECT_TRUE(coverage(*find_opcode(0xAA), g).executor);   // TensorLoad: the MEM_2D family runs it
    EXPECT_TRUE(coverage(*find_opcode(0xA4), g).executor);   // Nop: CTRL_NO, events only
    EXPECT_FALSE(coverage(*find_opcode(0xCE), g).executor);  // PseudoTensorLoad: lowered before it runs
    EXPECT_TRUE(coverage(*find_opcode(0xCE), g).format);
    EXPECT_FALSE(coverage(*find_opcode(0x03), g).executor);  // PeRegWrite: not modeled at all
  }
}

TEST(CatalogCoverage, EveryOpcodeOfCompiledCaymanMatmulProgramsIsModeled) {
  // real-programs.md §1 and sequencer.md: format and validator on CAYMAN (issue "Done when").
  constexpr std::array<uint8_t, 29> kSpecOpcodes{0x01, 0x02, 0x23, 0x41, 0x46, 0x47, 0x49, 0xA0, 0xA4, 0xB1,
                                                 0xCC, 0xD4, 0xA1, 0xA2, 0xA3, 0xA6, 0xA5, 0xA7, 0xA8, 0xA9,
                                                 0xB0, 0xB3, 0xB5, 0xD1, 0xD2, 0xD3, 0xDD, 0xDF, 0xA4};
  for (uint8_t op : kSpecOpcodes) {
    const OpcodeCoverage c = coverage(*find_opcode(op), Generation::Cayman);
    EXPECT_TRUE(c.format && c.validator) << int{op};
  }
}

}  // namespace
}  // namespace tpbisa
