// S2_BN layout golden: every field little-endian at its bytes (edge case #65).
#include <gtest/gtest.h>

#include "../../support/layout_golden.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa::test {
namespace {

// Edge case #65: imm1 is at 28..31; byte 40 lies inside reserved2 (35..43).
TEST(Golden, S2BnLayoutEdgeCase65) {
  const Word w = distinct_word(0x70);
  const Instruction inst = decode(w, Generation::Sunda);
  ASSERT_EQ(inst.status, DecodeStatus::Modeled);
  const S2Bn* s = inst.as<S2Bn>();
  ASSERT_NE(s, nullptr);
  expect_common_prefix(s->header, s->events, 0x70);
  for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(s->reserved0[k], 0x8C + k);
  EXPECT_EQ(s->src_mem_pattern.start_addr.raw, 0x93929190U);
  EXPECT_EQ(s->src_mem_pattern.step_elem[0], static_cast<int16_t>(0x9594));
  EXPECT_EQ(s->src_mem_pattern.step_elem[1], static_cast<int16_t>(0x9796));
  EXPECT_LT(s->src_mem_pattern.step_elem[0], 0);
  EXPECT_EQ(s->src_mem_pattern.num_elem[0], 0x9998);
  EXPECT_EQ(s->src_mem_pattern.num_elem[1], 0x9B9A);
  EXPECT_EQ(s->imm1.raw, 0x9F9E9D9CU);  // byte 28
  EXPECT_EQ(s->dtype, 0xA0);            // byte 32
  EXPECT_EQ(s->reserved1[0], 0xA1);
  EXPECT_EQ(s->num_active_channels, 0xA2);                                // byte 34
  for (unsigned k = 0; k < 9; ++k) EXPECT_EQ(s->reserved2[k], 0xA3 + k);  // bytes 35..43
  EXPECT_EQ(s->reserved2[5], 0xA8) << "byte 40 is reserved2[5]";
  EXPECT_EQ(s->imm0_ptr.raw, 0xAFAEADACU);  // byte 44
  EXPECT_EQ(s->imm0_src, 0xB0);             // byte 48
  for (unsigned k = 0; k < 15; ++k) EXPECT_EQ(s->reserved3[k], 0xB1 + k);
  EXPECT_EQ(encode(*s), w);

  // Only byte 40 set: it shows up in reserved2, never in imm1.
  Word only40{};
  only40[0] = 0x70;
  only40[1] = 16;
  only40[40] = 0x5A;
  const Instruction only40_inst = decode(only40, Generation::Cayman);
  const S2Bn* z = only40_inst.as<S2Bn>();
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(z->imm1.raw, 0U);
  EXPECT_EQ(z->reserved2[5], 0x5A);
  EXPECT_EQ(z->imm0_ptr.raw, 0U);
  S2Bn imm1_only{};
  imm1_only.header.opcode = 0x70;
  imm1_only.imm1.raw = 0x04030201;
  const Word e = encode(imm1_only);
  EXPECT_EQ(e[28], 0x01);
  EXPECT_EQ(e[31], 0x04);
  EXPECT_EQ(e[40], 0x00);
}

}  // namespace
}  // namespace tpbisa::test
