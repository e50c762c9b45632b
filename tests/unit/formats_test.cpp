// Formats: offsets, tiling and the little-endian decode/encode of each declared field.
#include <gtest/gtest.h>

#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa {
namespace {

TEST(Formats, Mem2dFieldsLandAtSpecOffsets) {
  Word w{};
  w[0] = 0xAA;
  w[1] = 16;
  w[12] = 0x09;
  w[14] = 4;
  w[15] = 1;
  store_le<uint64_t>(&w[16], 0x1000);
  store_le<int32_t>(&w[24], -1);
  w[32] = 7;
  const Mem2d m = read_format<Mem2d>(w);
  EXPECT_EQ(m.header.opcode, 0xAA);
  EXPECT_EQ(m.dtype, 0x09);
  EXPECT_EQ(m.num_elem[0], 4);
  EXPECT_EQ(m.start_addr.raw, 0x1000U);
  EXPECT_EQ(m.step_elem[0], -1);
  EXPECT_EQ(m.data.reg(0), 7);
  EXPECT_EQ(encode(m), w);
}

}  // namespace
}  // namespace tpbisa
