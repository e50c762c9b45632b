// The shared ALU evaluator (enums.md §5.3) against hand-computed results, including edge cases #150-#163.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string_view>

#include "../support/test_util.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa {
namespace {

using test::bits;
using test::flt;

bool is_quiet_nan(float x) {
  return (bits(x) & 0x7F800000U) == 0x7F800000U && (bits(x) & 0x00400000U) != 0;
}

/// An ALU code by its header name, from the catalog (the integer band has no aluop:: constant).
uint8_t op(std::string_view name) {
  for (const auto& row : kAluOps)
    if (row.name == name) return row.code;
  ADD_FAILURE() << "no ALU op " << name;
  return 0xFF;
}

constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kSnan = flt(0x7F800001U);
constexpr uint32_t kIntMin = 0x80000000U;
constexpr uint32_t kIntMax = 0x7FFFFFFFU;
constexpr uint32_t neg(uint32_t v) {
  return 0U - v;
}  // two's-complement -v as a word

float f(uint8_t o, float a, float b = 0.0F) {
  return alu_fp32(o, a, b);
}
uint32_t s32(uint8_t o, uint32_t a, uint32_t b = 0) {
  return alu_int32(o, a, b, true);
}
uint32_t u32(uint8_t o, uint32_t a, uint32_t b = 0) {
  return alu_int32(o, a, b, false);
}

// ================================================================ fp32 path

TEST(AluFp32, ArithmeticIsCorrectlyRounded) {
  EXPECT_EQ(f(aluop::kAdd, 1.5F, 2.25F), 3.75F);
  EXPECT_EQ(f(aluop::kSubtract, 5.0F, 2.0F), 3.0F);   // #150 reverse None: x - s
  EXPECT_EQ(f(aluop::kSubtract, 2.0F, 5.0F), -3.0F);  // #150 reverse Both: s - x (the consumer swaps)
  EXPECT_EQ(f(aluop::kMult, 3.0F, -4.0F), -12.0F);
  EXPECT_EQ(bits(f(aluop::kDivide, 1.0F, 3.0F)), 0x3EAAAAABU);
  EXPECT_EQ(bits(f(aluop::kAdd, 1.0F, flt(0x33800000U))), 0x3F800000U);  // 1 + 2^-24: tie to even
  EXPECT_EQ(bits(f(aluop::kAdd, 1.0F, flt(0x33800001U))), 0x3F800001U);  // just past the tie
  EXPECT_EQ(f(aluop::kAdd, 16777216.0F, 0.0F), 16777216.0F);             // #154's fp32 step
  EXPECT_EQ(f(aluop::kSquare, -3.0F, 99.0F), 9.0F);                      // unary: b ignored
  EXPECT_EQ(f(aluop::kSquare, 1e20F), kInf);
  EXPECT_EQ(f(aluop::kAbsoluteDiff, 1.0F, 4.0F), 3.0F);
  EXPECT_EQ(f(aluop::kAbsoluteDiff, -1.0F, 4.0F), 5.0F);
  EXPECT_EQ(f(aluop::kAbsoluteValue, -4.0F, 7.0F), 4.0F);  // #153: the consumer passes the scalar as a
  EXPECT_EQ(bits(f(aluop::kAbsoluteValue, -0.0F)), 0U);
}

TEST(AluFp32, DivideByZeroIsIeee) {
  EXPECT_EQ(f(aluop::kDivide, 1.0F, 0.0F), kInf);
  EXPECT_EQ(f(aluop::kDivide, -1.0F, 0.0F), -kInf);
  EXPECT_EQ(f(aluop::kDivide, 1.0F, -0.0F), -kInf);
  EXPECT_TRUE(is_quiet_nan(f(aluop::kDivide, 0.0F, 0.0F)));
  EXPECT_TRUE(is_quiet_nan(f(aluop::kDivide, kNan, 0.0F)));
  EXPECT_EQ(f(aluop::kDivide, 1.0F, kInf), 0.0F);
}

TEST(AluFp32, BypassCopiesEveryBit) {
  EXPECT_EQ(bits(f(aluop::kBypass, kSnan, 2.0F)), 0x7F800001U);
  EXPECT_EQ(bits(f(aluop::kBypass, -0.0F, 2.0F)), 0x80000000U);
  EXPECT_EQ(f(aluop::kBypass, 10.0F, 20.0F), 10.0F);  // #152: with reverse Both the consumer passes s as a
}

// #151c and PROJ-CONV-T12 / N17.
TEST(AluFp32, MaxMinAreMaxNumMinNum) {
  EXPECT_EQ(f(aluop::kMax, 1.0F, 2.0F), 2.0F);
  EXPECT_EQ(f(aluop::kMin, 1.0F, 2.0F), 1.0F);
  EXPECT_EQ(bits(f(aluop::kMax, 1.5F, kNan)), bits(1.5F));  // exactly 1.5
  EXPECT_EQ(bits(f(aluop::kMax, kNan, 1.5F)), bits(1.5F));
  EXPECT_EQ(bits(f(aluop::kMin, 1.5F, kNan)), bits(1.5F));
  EXPECT_EQ(bits(f(aluop::kMin, kSnan, -1.5F)), bits(-1.5F));
  EXPECT_EQ(f(aluop::kMax, -kInf, kNan), -kInf);
  EXPECT_TRUE(is_quiet_nan(f(aluop::kMax, kNan, kSnan)));
  EXPECT_TRUE(is_quiet_nan(f(aluop::kMin, kSnan, kSnan)));
  for (uint8_t o : {aluop::kMax, aluop::kMin}) {
    // Either zero is correct (N17): only the value is checked.
    EXPECT_EQ(f(o, 0.0F, -0.0F), 0.0F);
    EXPECT_EQ(f(o, -0.0F, 0.0F), 0.0F);
  }
}

TEST(AluFp32, NanOperandsGiveQuietNans) {  // #151c
  EXPECT_TRUE(is_quiet_nan(f(aluop::kMult, kInf, 0.0F)));
  EXPECT_TRUE(is_quiet_nan(f(aluop::kAdd, kNan, 1.0F)));
  EXPECT_TRUE(is_quiet_nan(f(aluop::kAdd, kSnan, 1.0F)));
  EXPECT_TRUE(is_quiet_nan(f(aluop::kSubtract, kInf, kInf)));
  EXPECT_TRUE(is_quiet_nan(f(aluop::kAbsoluteValue, kSnan)));
  EXPECT_TRUE(is_quiet_nan(f(aluop::kAbsoluteDiff, -kInf, -kInf)));
  EXPECT_TRUE(is_quiet_nan(f(aluop::kSquare, kSnan)));
}

TEST(AluFp32, ComparesAreIeeeAndGiveOneOrZero) {
  EXPECT_EQ(bits(f(aluop::kIsEq, 1.0F, 1.0F)), bits(1.0F));
  EXPECT_EQ(bits(f(aluop::kIsEq, 1.0F, 2.0F)), bits(0.0F));  // +0, not -0
  EXPECT_EQ(f(aluop::kIsEq, 0.0F, -0.0F), 1.0F);
  EXPECT_EQ(f(aluop::kIsGt, 2.0F, 1.0F), 1.0F);  // #156
  EXPECT_EQ(f(aluop::kIsGt, 1.0F, 2.0F), 0.0F);
  EXPECT_EQ(f(aluop::kIsGe, 1.0F, 1.0F), 1.0F);
  EXPECT_EQ(f(aluop::kIsLe, 1.0F, 1.0F), 1.0F);
  EXPECT_EQ(f(aluop::kIsLt, -kInf, kInf), 1.0F);
  EXPECT_EQ(f(aluop::kIsNe, 1.0F, 2.0F), 1.0F);
  EXPECT_EQ(f(aluop::kIsNe, 1.0F, 1.0F), 0.0F);
  // T12: with a NaN every compare is false except IS_NE.
  for (uint8_t o : {aluop::kIsEq, aluop::kIsGt, aluop::kIsGe, aluop::kIsLe, aluop::kIsLt}) {
    EXPECT_EQ(f(o, kNan, 1.0F), 0.0F) << int{o};
    EXPECT_EQ(f(o, 1.0F, kNan), 0.0F) << int{o};
    EXPECT_EQ(f(o, kNan, kNan), 0.0F) << int{o};
  }
  EXPECT_EQ(f(aluop::kIsNe, kNan, kNan), 1.0F);
  EXPECT_EQ(f(aluop::kIsNe, 1.0F, kNan), 1.0F);
  // #156: a compare result narrowed to INT32 / FP32.
  EXPECT_EQ(from_fp32_bits(bits(f(aluop::kIsGt, 2.0F, 1.0F)), dtype::kInt32), 1U);
  EXPECT_EQ(from_fp32_bits(bits(f(aluop::kIsGt, 1.0F, 2.0F)), dtype::kFp32), 0U);
}

TEST(AluFp32, LogicalOpsTreatNanAsNonZero) {
  EXPECT_EQ(f(aluop::kLogicalAnd, 2.0F, 0.0F), 0.0F);
  EXPECT_EQ(f(aluop::kLogicalAnd, 2.0F, -3.0F), 1.0F);
  EXPECT_EQ(f(aluop::kLogicalAnd, kNan, 1.0F), 1.0F);
  EXPECT_EQ(f(aluop::kLogicalAnd, -0.0F, 1.0F), 0.0F);  // -0 is zero
  EXPECT_EQ(f(aluop::kLogicalOr, 0.0F, -0.0F), 0.0F);
  EXPECT_EQ(f(aluop::kLogicalOr, kNan, 0.0F), 1.0F);
  EXPECT_EQ(f(aluop::kLogicalXor, 1.0F, kNan), 0.0F);
  EXPECT_EQ(f(aluop::kLogicalXor, 0.0F, kNan), 1.0F);
}

TEST(AluFp32, AbsMaxAbsMinReluSymmetricClamp) {
  EXPECT_EQ(f(aluop::kAbsMax, -3.0F, 2.0F), 3.0F);
  EXPECT_EQ(f(aluop::kAbsMin, -3.0F, 2.0F), 2.0F);
  EXPECT_EQ(f(aluop::kAbsMax, kNan, -2.0F), 2.0F);  // maxNum on magnitudes
  EXPECT_EQ(f(aluop::kReLu, -2.0F, 5.0F), 0.0F);
  EXPECT_EQ(f(aluop::kReLu, 3.0F, -5.0F), 3.0F);
  EXPECT_EQ(bits(f(aluop::kReLu, kNan)), 0U);  // max(NaN, 0) under maxNum
  EXPECT_EQ(bits(f(aluop::kReLu, -0.0F)), 0U);
  // sign(a) * max(|a|, |b|), sign(a) being a's sign bit.
  EXPECT_EQ(f(aluop::kSymmetricClamp, -0.5F, 2.0F), -2.0F);
  EXPECT_EQ(f(aluop::kSymmetricClamp, 0.5F, -2.0F), 2.0F);
  EXPECT_EQ(f(aluop::kSymmetricClamp, 3.0F, 2.0F), 3.0F);
  EXPECT_EQ(f(aluop::kSymmetricClamp, -3.0F, 2.0F), -3.0F);
  EXPECT_EQ(f(aluop::kSymmetricClamp, 0.0F, 2.0F), 2.0F);
  EXPECT_EQ(f(aluop::kSymmetricClamp, -0.0F, 2.0F), -2.0F);
}

// PROJ-CONV-E2: POW and RSQRT are a reference, not a hardware-exact result.
TEST(AluFp32, PowAndRsqrtApproximateE2) {
  EXPECT_EQ(f(aluop::kPow, 2.0F, 10.0F), 1024.0F);
  EXPECT_EQ(bits(f(aluop::kPow, 2.0F, 0.5F)), 0x3FB504F3U);
  EXPECT_EQ(f(aluop::kPow, 0.0F, -1.0F), kInf);
  EXPECT_EQ(f(aluop::kPow, kNan, 0.0F), 1.0F);  // C pow semantics
  EXPECT_TRUE(is_quiet_nan(f(aluop::kPow, -8.0F, 1.0F / 3.0F)));
  EXPECT_EQ(f(aluop::kPow, 10.0F, 39.0F), kInf);  // overflow after the double step
  EXPECT_EQ(f(aluop::kPow, 2.0F, -149.0F), flt(1U));
  EXPECT_EQ(f(aluop::kRsqrt, 4.0F), 0.5F);
  EXPECT_EQ(bits(f(aluop::kRsqrt, 2.0F)), 0x3F3504F3U);
  EXPECT_EQ(f(aluop::kRsqrt, 0.0F), kInf);
  EXPECT_EQ(f(aluop::kRsqrt, -0.0F), -kInf);
  EXPECT_EQ(bits(f(aluop::kRsqrt, kInf)), 0U);
  EXPECT_TRUE(is_quiet_nan(f(aluop::kRsqrt, -1.0F)));
  EXPECT_TRUE(is_quiet_nan(f(aluop::kRsqrt, kSnan)));
}

TEST(AluFp32, OpsWithoutAnFp32MeaningGiveQuietNan) {
  const std::set<uint8_t> defined = {
      aluop::kBypass, aluop::kAdd,          aluop::kSubtract,      aluop::kMult,      aluop::kDivide,
      aluop::kMax,    aluop::kMin,          aluop::kLogicalAnd,    aluop::kLogicalOr, aluop::kLogicalXor,
      aluop::kIsEq,   aluop::kIsGt,         aluop::kIsGe,          aluop::kIsLe,      aluop::kIsLt,
      aluop::kIsNe,   aluop::kAbsoluteDiff, aluop::kAbsoluteValue, aluop::kPow,       aluop::kRsqrt,
      aluop::kAbsMax, aluop::kAbsMin,       aluop::kReLu,          aluop::kSquare,    aluop::kSymmetricClamp};
  for (unsigned code = 0; code < 256; ++code) {
    const auto o = static_cast<uint8_t>(code);
    if (defined.count(o) != 0) {
      EXPECT_FALSE(std::isnan(f(o, 2.0F, 1.0F))) << "op 0x" << std::hex << code;
    } else {
      EXPECT_TRUE(is_quiet_nan(f(o, 2.0F, 1.0F))) << "op 0x" << std::hex << code;
    }
  }
}

TEST(AluFp32, EveryProducedNanIsQuiet) {
  // N17(a): whatever the op and operands, a NaN result is quiet (BYPASS excepted: it is a bit copy).
  const float operands[] = {
      0.0F, -0.0F, 1.0F, -1.5F, kInf, -kInf, kNan, kSnan, flt(0xFFBFFFFFU), flt(1U), std::numeric_limits<float>::max()};
  for (unsigned code = 1; code < 256; ++code)
    for (float a : operands)
      for (float b : operands) {
        const float r = f(static_cast<uint8_t>(code), a, b);
        if (std::isnan(r)) {
          EXPECT_TRUE(is_quiet_nan(r)) << "op 0x" << std::hex << code;
        }
      }
}

// ================================================================ int32 path

TEST(AluInt32, WrapAroundArithmetic) {             // #183: wrap, no saturation
  EXPECT_EQ(u32(aluop::kSubtract, 5, 2), 3U);      // #150
  EXPECT_EQ(s32(aluop::kSubtract, 2, 5), neg(3));  // #150 reversed
  EXPECT_EQ(u32(aluop::kAdd, 0xFFFFFFFFU, 1), 0U);
  EXPECT_EQ(s32(aluop::kAdd, kIntMax, 1), kIntMin);
  EXPECT_EQ(s32(aluop::kSubtract, kIntMin, 1), kIntMax);
  EXPECT_EQ(u32(aluop::kMult, 0x10000U, 0x10000U), 0U);
  EXPECT_EQ(s32(aluop::kMult, neg(3), 5), neg(15));
  EXPECT_EQ(s32(aluop::kMult, kIntMin, neg(1)), kIntMin);
  EXPECT_EQ(u32(aluop::kMult, 0xFFFFFFFFU, 0xFFFFFFFFU), 1U);
  EXPECT_EQ(s32(aluop::kSquare, neg(3), 100), 9U);
  EXPECT_EQ(u32(aluop::kSquare, 0x10000U), 0U);
  EXPECT_EQ(u32(aluop::kBypass, 0xDEADBEEFU, 1), 0xDEADBEEFU);
}

TEST(AluInt32, ShiftsAndBitwise) {
  EXPECT_EQ(u32(aluop::kLogicalShiftLeft, 0x81, 1), 0x102U);  // #158: truncation to u8 (0x02) is the consumer's
  EXPECT_EQ(u32(aluop::kArithShiftLeft, 0x81, 1), 0x102U);
  EXPECT_EQ(u32(aluop::kArithShiftRight, 0x80000000U, 1), 0x40000000U);  // #159 (PROJ-CONV-T15)
  EXPECT_EQ(s32(aluop::kArithShiftRight, 0x80000000U, 1), 0xC0000000U);  // #159a
  EXPECT_EQ(u32(aluop::kArithShiftRight, 0x80U, 1), 0x40U);              // #160: zero-extended u8
  EXPECT_EQ(s32(aluop::kArithShiftRight, 0x80U, 1), 0x40U);
  EXPECT_EQ(s32(aluop::kArithShiftRight, neg(8), 2), neg(2));
  EXPECT_EQ(s32(aluop::kArithShiftRight, kIntMin, 31), 0xFFFFFFFFU);
  EXPECT_EQ(s32(aluop::kArithShiftRight, kIntMax, 31), 0U);
  EXPECT_EQ(s32(aluop::kLogicalShiftRight, 0x80000000U, 4), 0x08000000U);  // always zero-fill
  EXPECT_EQ(u32(aluop::kBitwiseNot, 0x00FF), 0xFFFFFF00U);                 // #161: the u16 consumer keeps 0xFF00
  EXPECT_EQ(u32(aluop::kBitwiseNot, 0x00FF) & 0xFFFFU, 0xFF00U);
  EXPECT_EQ(u32(aluop::kBitwiseAnd, 0xF0F0U, 0xFF00U), 0xF000U);
  EXPECT_EQ(u32(aluop::kBitwiseOr, 0xF0F0U, 0xFF00U), 0xFFF0U);
  EXPECT_EQ(u32(aluop::kBitwiseXor, 0xF0F0U, 0xFF00U), 0x0FF0U);
}

TEST(AluInt32, ShiftCountIsLowFiveBitsT7) {  // #162
  for (uint8_t o :
       {aluop::kArithShiftLeft, aluop::kArithShiftRight, aluop::kLogicalShiftLeft, aluop::kLogicalShiftRight}) {
    for (bool sgn : {false, true}) {
      for (uint32_t a : {0x80000001U, 0x12345678U, 0xFFFFFFFFU}) {
        EXPECT_EQ(alu_int32(o, a, 33, sgn), alu_int32(o, a, 1, sgn)) << int{o};
        EXPECT_EQ(alu_int32(o, a, 32, sgn), a) << int{o};
        EXPECT_EQ(alu_int32(o, a, 0xFFFFFFFFU, sgn), alu_int32(o, a, 31, sgn)) << int{o};
      }
    }
  }
}

// PROJ-CONV-T8 is a project convention: these pin the convention, not hardware behaviour.
TEST(AluInt32, Crc32ConventionOnlyT8) {  // #163
  auto word = [](const char* s) {        // four ASCII bytes, little-endian
    uint32_t w = 0;
    for (int i = 3; i >= 0; --i) w = (w << 8) | static_cast<uint8_t>(s[i]);
    return w;
  };
  const uint8_t crc = aluop::kCrc32;
  // zlib CRC-32 = ~(steps from ~0): "1234" -> 0x9BE3E0A3, "12345678" -> 0x9AE0DAAF, bytes 01 00 00 00 -> 0x99F8B879.
  EXPECT_EQ(~u32(crc, word("1234"), 0xFFFFFFFFU), 0x9BE3E0A3U);
  EXPECT_EQ(~u32(crc, word("5678"), u32(crc, word("1234"), 0xFFFFFFFFU)), 0x9AE0DAAFU);
  EXPECT_EQ(~u32(crc, 0x00000001U, 0xFFFFFFFFU), 0x99F8B879U);
  EXPECT_EQ(u32(crc, 0, 0), 0U);                                                        // no built-in inversion
  EXPECT_EQ(s32(crc, word("1234"), 0xFFFFFFFFU), u32(crc, word("1234"), 0xFFFFFFFFU));  // signedness-blind
}

TEST(AluInt32, BaseBandFollowsOperandSignedness) {
  EXPECT_EQ(s32(aluop::kMax, 0xFFFFFFFFU, 1), 1U);
  EXPECT_EQ(u32(aluop::kMax, 0xFFFFFFFFU, 1), 0xFFFFFFFFU);
  EXPECT_EQ(s32(aluop::kMin, 0xFFFFFFFFU, 1), 0xFFFFFFFFU);
  EXPECT_EQ(u32(aluop::kMin, 0xFFFFFFFFU, 1), 1U);
  EXPECT_EQ(s32(aluop::kIsGt, 0xFFFFFFFFU, 1), 0U);
  EXPECT_EQ(u32(aluop::kIsGt, 0xFFFFFFFFU, 1), 1U);
  EXPECT_EQ(s32(aluop::kIsLt, kIntMin, kIntMax), 1U);
  EXPECT_EQ(u32(aluop::kIsLt, kIntMin, kIntMax), 0U);
  EXPECT_EQ(s32(aluop::kIsGe, 5, 5), 1U);
  EXPECT_EQ(s32(aluop::kIsLe, 5, 5), 1U);
  EXPECT_EQ(u32(aluop::kIsLe, 6, 5), 0U);
  EXPECT_EQ(u32(aluop::kIsEq, 5, 5), 1U);
  EXPECT_EQ(u32(aluop::kIsNe, 5, 5), 0U);
  EXPECT_EQ(u32(aluop::kLogicalAnd, 4, 0), 0U);
  EXPECT_EQ(u32(aluop::kLogicalAnd, 4, 0x80000000U), 1U);
  EXPECT_EQ(u32(aluop::kLogicalOr, 0, 0), 0U);
  EXPECT_EQ(u32(aluop::kLogicalOr, 0, 7), 1U);
  EXPECT_EQ(u32(aluop::kLogicalXor, 3, 7), 0U);
  EXPECT_EQ(u32(aluop::kLogicalXor, 0, 7), 1U);
}

TEST(AluInt32, AbsoluteValuesWrap) {
  EXPECT_EQ(s32(aluop::kAbsoluteValue, neg(4)), 4U);
  EXPECT_EQ(s32(aluop::kAbsoluteValue, kIntMin), kIntMin);          // wraps to itself (§5.3)
  EXPECT_EQ(u32(aluop::kAbsoluteValue, 0xFFFFFFFCU), 0xFFFFFFFCU);  // unsigned: already a magnitude
  EXPECT_EQ(s32(aluop::kAbsoluteDiff, 3, neg(2)), 5U);
  EXPECT_EQ(s32(aluop::kAbsoluteDiff, neg(2), 3), 5U);
  EXPECT_EQ(s32(aluop::kAbsoluteDiff, kIntMax, kIntMin), 0xFFFFFFFFU);  // exact |a - b| mod 2^32
  EXPECT_EQ(u32(aluop::kAbsoluteDiff, 1, 0xFFFFFFFFU), 0xFFFFFFFEU);
  EXPECT_EQ(s32(aluop::kAbsMax, neg(7), 3), 7U);
  EXPECT_EQ(s32(aluop::kAbsMin, neg(7), 3), 3U);
  EXPECT_EQ(s32(aluop::kAbsMax, kIntMin, 5), kIntMin);  // |INT_MIN| is the largest magnitude
  EXPECT_EQ(u32(aluop::kAbsMax, 0xFFFFFFF9U, 3), 0xFFFFFFF9U);
  EXPECT_EQ(s32(aluop::kReLu, neg(5)), 0U);
  EXPECT_EQ(s32(aluop::kReLu, 5), 5U);
  EXPECT_EQ(u32(aluop::kReLu, 0xFFFFFFFBU), 0xFFFFFFFBU);
  EXPECT_EQ(s32(aluop::kSymmetricClamp, neg(1), 5), neg(5));
  EXPECT_EQ(s32(aluop::kSymmetricClamp, 7, 5), 7U);
  EXPECT_EQ(s32(aluop::kSymmetricClamp, 0, neg(5)), 5U);
  EXPECT_EQ(u32(aluop::kSymmetricClamp, 0xFFFFFFFFU, 5), 0xFFFFFFFFU);
}

TEST(AluInt32, IntegerBandArithmetic) {
  EXPECT_EQ(s32(op("ADD_INT"), kIntMax, 1), kIntMin);
  EXPECT_EQ(u32(op("SUBTRACT_INT"), 0, 1), 0xFFFFFFFFU);
  EXPECT_EQ(s32(op("MULT_INT"), neg(3), 7), neg(21));
  EXPECT_EQ(u32(op("MULT_UINT"), 0x80000001U, 2), 2U);
  // C semantics: truncate toward zero, remainder takes the dividend's sign.
  EXPECT_EQ(s32(op("DIVIDE_INT"), neg(7), 2), neg(3));
  EXPECT_EQ(s32(op("DIVIDE_INT"), 7, neg(2)), neg(3));
  EXPECT_EQ(s32(op("MOD_INT"), neg(7), 2), neg(1));
  EXPECT_EQ(s32(op("MOD_INT"), 7, neg(2)), 1U);
  EXPECT_EQ(s32(aluop::kMod, neg(7), 3), neg(1));
  EXPECT_EQ(s32(aluop::kMod, 7, neg(3)), 1U);
  EXPECT_EQ(u32(aluop::kMod, 0xFFFFFFF9U, 3), 0U);
  EXPECT_EQ(u32(op("DIVIDE_UINT"), 0xFFFFFFFFU, 2), 0x7FFFFFFFU);
  EXPECT_EQ(s32(op("DIVIDE_UINT"), 0xFFFFFFFFU, 2), 0x7FFFFFFFU);  // the op, not the dtype, says unsigned
  EXPECT_EQ(u32(op("MOD_UINT"), 0xFFFFFFFFU, 10), 5U);
  // DIVIDE_INT / MOD_INT are in both signedness classes: an unsigned dtype divides unsigned.
  EXPECT_EQ(u32(op("DIVIDE_INT"), 0xFFFFFFFFU, 2), 0x7FFFFFFFU);
  EXPECT_EQ(u32(op("MOD_INT"), 0xFFFFFFFFU, 10), 5U);
}

TEST(AluInt32, DivideByZeroE1AndIntMinOverMinusOne) {
  for (const char* name : {"DIVIDE_INT", "DIVIDE_UINT"})
    for (bool sgn : {false, true}) {
      EXPECT_EQ(alu_int32(op(name), 1234, 0, sgn), 0xFFFFFFFFU) << name;
      EXPECT_EQ(alu_int32(op(name), kIntMin, 0, sgn), 0xFFFFFFFFU) << name;
    }
  for (uint8_t o : {op("MOD_INT"), op("MOD_UINT"), aluop::kMod})
    for (bool sgn : {false, true}) EXPECT_EQ(alu_int32(o, neg(1234), 0, sgn), neg(1234)) << int{o};
  EXPECT_EQ(s32(op("DIVIDE_INT"), kIntMin, neg(1)), kIntMin);  // wraps, no trap
  EXPECT_EQ(s32(op("MOD_INT"), kIntMin, neg(1)), 0U);
  EXPECT_EQ(s32(aluop::kMod, kIntMin, neg(1)), 0U);
}

TEST(AluInt32, IntegerBandComparesFixTheirSignedness) {
  // _INT ops are signed and _UINT ops unsigned whatever the dtype flag says.
  for (bool sgn : {false, true}) {
    EXPECT_EQ(alu_int32(op("IS_GT_INT"), 0xFFFFFFFFU, 1, sgn), 0U);
    EXPECT_EQ(alu_int32(op("IS_GT_UINT"), 0xFFFFFFFFU, 1, sgn), 1U);
    EXPECT_EQ(alu_int32(op("IS_GE_INT"), kIntMin, 0, sgn), 0U);
    EXPECT_EQ(alu_int32(op("IS_GE_UINT"), kIntMin, 0, sgn), 1U);
    EXPECT_EQ(alu_int32(op("IS_LE_INT"), kIntMin, 0, sgn), 1U);
    EXPECT_EQ(alu_int32(op("IS_LE_UINT"), kIntMin, 0, sgn), 0U);
    EXPECT_EQ(alu_int32(op("IS_LT_INT"), neg(1), 0, sgn), 1U);
    EXPECT_EQ(alu_int32(op("IS_LT_UINT"), neg(1), 0, sgn), 0U);
    EXPECT_EQ(alu_int32(op("IS_GE_INT"), 5, 5, sgn), 1U);
    EXPECT_EQ(alu_int32(op("IS_LE_UINT"), 5, 5, sgn), 1U);
    EXPECT_EQ(alu_int32(op("MAX_INT"), neg(1), 1, sgn), 1U);
    EXPECT_EQ(alu_int32(op("MAX_UINT"), neg(1), 1, sgn), neg(1));
    EXPECT_EQ(alu_int32(op("MIN_INT"), neg(1), 1, sgn), neg(1));
    EXPECT_EQ(alu_int32(op("MIN_UINT"), neg(1), 1, sgn), 1U);
    EXPECT_EQ(alu_int32(op("IS_EQUAL_INT"), 9, 9, sgn), 1U);
    EXPECT_EQ(alu_int32(op("IS_NE_INT"), 9, 9, sgn), 0U);
    EXPECT_EQ(alu_int32(op("IS_NE_INT"), 9, 8, sgn), 1U);
    EXPECT_EQ(alu_int32(op("ABS_VALUE_INT"), neg(4), 0, sgn), 4U);
    EXPECT_EQ(alu_int32(op("ABS_VALUE_INT"), kIntMin, 0, sgn), kIntMin);
    EXPECT_EQ(alu_int32(op("ABS_DIFF_INT"), neg(2), 3, sgn), 5U);
    EXPECT_EQ(alu_int32(op("ABS_MAX_INT"), neg(7), 3, sgn), 7U);
    EXPECT_EQ(alu_int32(op("ABS_MIN_INT"), neg(7), 3, sgn), 3U);
  }
}

TEST(AluInt32, OpsWithoutAnIntMeaningGiveZero) {
  const uint8_t undefined[] = {aluop::kDivide,
                               aluop::kPow,
                               aluop::kRsqrt,
                               op("AMAX_INT"),
                               op("AMIN_INT"),
                               op("AMAX_UINT"),
                               op("AMIN_UINT"),
                               0x1E,
                               0x1F,
                               0x25,
                               0x80,
                               0xC3,
                               0xE2,
                               0xFF};
  for (uint8_t o : undefined) {
    EXPECT_EQ(s32(o, 7, 3), 0U) << int{o};
    EXPECT_EQ(u32(o, 0xFFFFFFFFU, 0), 0U) << int{o};
  }
}

TEST(AluInt32, EveryOpOnEdgeOperandsIsDefined) {
  // Under UBSan this sweeps every op over the operands that trip C++ UB (overflow, shifts, INT_MIN / -1, / 0).
  const uint32_t operands[] = {0, 1, 2, 31, 32, 33, kIntMax, kIntMin, neg(1), neg(2), 0xFFFFFFFEU, 0x55555555U};
  auto sweep = [&] {
    uint32_t sink = 0;
    for (unsigned code = 0; code < 256; ++code)
      for (uint32_t a : operands)
        for (uint32_t b : operands)
          for (bool sgn : {false, true}) sink = sink * 31U + alu_int32(static_cast<uint8_t>(code), a, b, sgn);
    return sink;
  };
  EXPECT_EQ(sweep(), sweep());  // deterministic: no uninitialised or host-dependent results
  // Codes that are not ALU ops have no integer meaning and give 0 (docs/conventions.md, numerics 9).
  for (unsigned code : {0x1EU, 0x1FU, 0x25U, 0x80U, 0xC3U, 0xE2U, 0xFFU})
    for (uint32_t a : operands)
      for (uint32_t b : operands) EXPECT_EQ(alu_int32(static_cast<uint8_t>(code), a, b, true), 0U) << code;
}

}  // namespace
}  // namespace tpbisa
