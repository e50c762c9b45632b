// S4D4_TSM layout golden: every field little-endian at its bytes (edge case #142).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

#include "../../support/layout_golden.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa::test {
namespace {

// Edge case #142: byte 44 is the low byte of dst_mem_pattern.start_addr; reserved1 is exactly bytes 39..43.
TEST(Golden, S4d4TsmLayoutEdgeCase142) {
  const Word w = distinct_word(0x4F);
  const Instruction inst = decode(w, Generation::Maverick);
  ASSERT_EQ(inst.status, DecodeStatus::Modeled);
  const S4d4Tsm* t = inst.as<S4d4Tsm>();
  ASSERT_NE(t, nullptr);
  expect_common_prefix(t->header, t->events, 0x4F);
  EXPECT_EQ(t->src_mem_pattern.start_addr.raw, 0x8F8E8D8CU);  // byte 12
  EXPECT_EQ(t->src_mem_pattern.step_elem[0], static_cast<int16_t>(0x9190));
  EXPECT_EQ(t->src_mem_pattern.step_elem[3], static_cast<int16_t>(0x9796));
  EXPECT_EQ(t->src_mem_pattern.num_elem[0], 0x9998);
  EXPECT_EQ(t->src_mem_pattern.num_elem[3], 0x9F9E);  // W = num_elem[3]
  EXPECT_EQ(t->in_dtype, 0xA0);
  EXPECT_EQ(t->out_dtype, 0xA1);
  EXPECT_EQ(t->num_active_channels, 0xA2);
  EXPECT_EQ(t->reserved0[0], 0xA3);
  EXPECT_EQ(t->op, 0xA4);
  EXPECT_EQ(t->op_dim, 0xA5);
  EXPECT_EQ(t->reverse_operands, 0xA6);
  ASSERT_EQ(t->reserved1.size(), 5U);
  for (unsigned k = 0; k < 5; ++k) EXPECT_EQ(t->reserved1[k], 0xA7 + k);  // bytes 39..43
  EXPECT_EQ(t->dst_mem_pattern.start_addr.raw, 0xAFAEADACU);              // byte 44
  EXPECT_EQ(t->dst_mem_pattern.step_elem[0], static_cast<int16_t>(0xB1B0));
  EXPECT_EQ(t->dst_mem_pattern.num_elem[3], 0xBFBE);
  EXPECT_EQ(encode(*t), w);

  // The PM word of edge case #142: byte 44 = 0x04 (with byte 45 = 0x10) is dst start 0x1004, not reserved.
  Word pm{};
  pm[0] = 0x4F;
  pm[1] = 16;
  pm[44] = 0x04;
  pm[45] = 0x10;
  const Instruction pm_inst = decode(pm, Generation::Cayman);
  const S4d4Tsm* p = pm_inst.as<S4d4Tsm>();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->dst_mem_pattern.start_addr.raw, 0x1004U);
  for (uint8_t b : p->reserved1) EXPECT_EQ(b, 0);
  // Each of bytes 38..44 lands in exactly the field the layout says.
  for (size_t i = 38; i <= 44; ++i) {
    Word one{};
    one[0] = 0x4F;
    one[i] = 0x77;
    const Instruction one_inst = decode(one, Generation::Sunda);
    const S4d4Tsm* q = one_inst.as<S4d4Tsm>();
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(q->reverse_operands, i == 38 ? 0x77 : 0) << i;
    for (size_t k = 0; k < 5; ++k) EXPECT_EQ(q->reserved1[k], i == 39 + k ? 0x77 : 0) << i;
    EXPECT_EQ(q->dst_mem_pattern.start_addr.raw, i == 44 ? 0x77U : 0U) << i;
  }
}

}  // namespace
}  // namespace tpbisa::test
