// MEM_2D and PSEUDO_MEM_2D layout goldens: every field little-endian at its bytes (a word of distinct bytes).
#include <gtest/gtest.h>

#include "../../support/layout_golden.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa::test {
namespace {

TEST(Golden, Mem2dLittleEndianFields) {
  const Word w = distinct_word(0xAA);
  const Instruction inst = decode(w, Generation::Cayman);
  ASSERT_EQ(inst.status, DecodeStatus::Modeled);
  const Mem2d* m = inst.as<Mem2d>();
  ASSERT_NE(m, nullptr);
  expect_common_prefix(m->header, m->events, 0xAA);
  EXPECT_EQ(m->dtype, 0x8C);
  EXPECT_EQ(m->src_datasrc, 0x8D);
  EXPECT_EQ(m->num_elem[0], 0x8E);
  EXPECT_EQ(m->num_elem[1], 0x8F);
  EXPECT_EQ(m->start_addr.raw, 0x9796959493929190ULL);
  EXPECT_EQ(m->start_addr.reg_lo(), 0x90);
  EXPECT_EQ(m->start_addr.reg_hi(), 0x91);
  EXPECT_EQ(m->start_addr.marker(), 0x94);  // byte 7 & 0xFC
  EXPECT_EQ(m->step_elem[0], static_cast<int32_t>(0x9B9A9998U));
  EXPECT_EQ(m->step_elem[1], static_cast<int32_t>(0x9F9E9D9CU));  // bytes 28..31, signed
  EXPECT_LT(m->step_elem[1], 0);
  for (unsigned k = 0; k < 32; ++k) EXPECT_EQ(m->data.reg(k), 0xA0 + k);
  EXPECT_EQ(m->data.u16(1), 0xA3A2);
  EXPECT_EQ(m->data.u32(0), 0xA3A2A1A0U);
  EXPECT_EQ(m->data.u64(3), 0xBFBEBDBCBBBAB9B8ULL);  // low word first
  EXPECT_EQ(encode(*m), w);
  EXPECT_EQ(encode(inst), w);

  // A field written through the typed struct lands at its bytes, little-endian, and nowhere else.
  Mem2d edited = *m;
  edited.step_elem[1] = -2;
  const Word e = encode(edited);
  EXPECT_EQ(e[28], 0xFE);
  EXPECT_EQ(e[29], 0xFF);
  EXPECT_EQ(e[30], 0xFF);
  EXPECT_EQ(e[31], 0xFF);
  for (size_t i = 0; i < kWordBytes; ++i)
    if (i < 28 || i > 31) {
      EXPECT_EQ(e[i], w[i]) << "byte " << i;
    }
}

// Edge case #60: var_offset is the 4 bytes 20..23; byte 24 (step_elem[0]) is untouched.
TEST(Golden, PseudoMem2dVarOffsetEdgeCase60) {
  const Word w = distinct_word(0xCE);
  const Instruction inst = decode(w, Generation::Mariana);
  ASSERT_EQ(inst.status, DecodeStatus::Modeled);
  const PseudoMem2d* p = inst.as<PseudoMem2d>();
  ASSERT_NE(p, nullptr);
  expect_common_prefix(p->header, p->events, 0xCE);
  EXPECT_EQ(p->dtype, 0x8C);
  EXPECT_EQ(p->src_datasrc, 0x8D);
  EXPECT_EQ(p->num_elem[0], 0x8E);
  EXPECT_EQ(p->num_elem[1], 0x8F);
  EXPECT_EQ(p->var_id, 0x93929190U);
  EXPECT_EQ(p->var_offset, 0x97969594U);
  EXPECT_EQ(p->step_elem[0], static_cast<int32_t>(0x9B9A9998U));
  EXPECT_EQ(p->step_elem[1], static_cast<int32_t>(0x9F9E9D9CU));
  EXPECT_EQ(p->data.reg(31), 0xBF);
  EXPECT_EQ(encode(*p), w);

  PseudoMem2d edited = *p;
  edited.var_offset = 0xDEADBEEF;
  const Word e = encode(edited);
  EXPECT_EQ(e[20], 0xEF);
  EXPECT_EQ(e[21], 0xBE);
  EXPECT_EQ(e[22], 0xAD);
  EXPECT_EQ(e[23], 0xDE);
  EXPECT_EQ(e[24], w[24]) << "byte 24 belongs to step_elem[0]";
  for (size_t i = 0; i < kWordBytes; ++i)
    if (i < 20 || i > 23) {
      EXPECT_EQ(e[i], w[i]) << "byte " << i;
    }
}

}  // namespace
}  // namespace tpbisa::test
