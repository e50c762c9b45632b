// Readable datapath numbers in the assembly language: DTYPE_PAIR as two dtypes and the MEMSET fill value in its dtype.
#include <gtest/gtest.h>

#include <string>

#include "tpbisa/describe.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa {
namespace {

Word one(const std::string& line, Generation g = Generation::Cayman) {
  const AsmResult r = assemble(line, "t.tasm", g);
  EXPECT_EQ(r.error_count, 0U) << line << ": " << (r.errors.empty() ? "" : r.errors[0].message);
  return r.words.empty() ? Word{} : r.words[0];
}

std::string first_error(const std::string& line) {
  const AsmResult r = assemble(line, "t.tasm", Generation::Cayman);
  return r.errors.empty() ? "" : r.errors[0].message;
}

TEST(DatapathSyntax, DtypePairIsTwoDtypesLowNibbleFirst) {
  EXPECT_EQ(one("TensorTensorArithOp in0_in1_dtype={fp32,fp32}")[12], 0xAA);
  EXPECT_EQ(one("TensorTensorArithOp in0_in1_dtype={i32,u32}")[12], 0x98);  // src0 INT32 low, src1 UINT32 high
  EXPECT_EQ(one("TensorTensorArithOp in0_in1_dtype={0,15}")[12], 0xF0);
  EXPECT_EQ(one("TensorTensorArithOp in0_in1_dtype=0x98")[12], 0x98);
  EXPECT_NE(first_error("TensorTensorArithOp in0_in1_dtype={fp32}").find("two dtypes"), std::string::npos);
  // FP4_EXP2 is code 0x10: no nibble holds it.
  EXPECT_NE(first_error("TensorTensorArithOp in0_in1_dtype={fp4e2,fp32}").find("code 0..15"), std::string::npos);
  EXPECT_NE(first_error("TensorTensorArithOp in0_in1_dtype=256").find("0..255"), std::string::npos);
}

TEST(DatapathSyntax, FillValueIsOneElementOfTheDtypeOrTheRawBits) {
  auto value = [](const Word& w) { return load_le<uint32_t>(&w[40]); };
  EXPECT_EQ(value(one("Memset dtype=fp32 set_value=1.0")), 0x3F800000U);
  EXPECT_EQ(value(one("Memset dtype=fp32 set_value=1")), 0x3F800000U);  // a number, not the bits
  EXPECT_EQ(value(one("Memset dtype=fp16 set_value=1.0")), 0x3C00U);
  EXPECT_EQ(value(one("Memset dtype=bf16 set_value=-2.5")), 0xC020U);
  EXPECT_EQ(value(one("Memset dtype=i16 set_value=-1")), 0xFFFFU);  // the element's width only
  EXPECT_EQ(value(one("Memset dtype=u8 set_value=255")), 0xFFU);
  EXPECT_EQ(value(one("Memset set_value=1.0 dtype=fp16")), 0x3C00U);  // read after the dtype, wherever written
  EXPECT_EQ(value(one("Memset dtype=fp16 set_value=0x3f800000")), 0x3F800000U);  // hex: the raw bits
  EXPECT_EQ(value(one("Memset dtype=fp32r set_value=7")), 7U);                   // no fill dtype: a number is the bits
  EXPECT_NE(first_error("Memset dtype=u8 set_value=256").find("out of range"), std::string::npos);
  EXPECT_NE(first_error("Memset dtype=fp16 set_value=one").find("not a fp16 value"), std::string::npos);

  const std::string canonical =
      disassemble(std::span<const uint8_t, kWordBytes>(one("Memset dtype=i16 set_value=0xffff")), Generation::Cayman,
                  DisasmOptions{});
  EXPECT_NE(canonical.find("set_value=-1 "), std::string::npos) << canonical;
}

// decode says the same: a narrow float fill reads as its value, the field's hex beside it.
TEST(DatapathSyntax, DecodeDescribesANarrowFloatFillByItsValue) {
  const Word w = one("Memset dtype=fp16 set_value=0x3c00");
  for (const DescribedField& f : describe_fields(decode(std::span<const uint8_t, kWordBytes>(w), Generation::Cayman)))
    if (f.name == "set_value") {
      EXPECT_EQ(f.meaning, "each element set to fp16 1");
      EXPECT_EQ(format_value(f), "0x3c00");
    }
}

}  // namespace
}  // namespace tpbisa
