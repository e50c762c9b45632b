// Conversions through the fp32 hub (memory-and-numerics.md §8.3) checked exhaustively against references built here.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../support/test_util.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/numerics.hpp"

// The references below never reuse the module's bit tricks: narrow values are decoded field by field into
// doubles with std::ldexp (spec §8.1 table), and from_fp32 is checked by a nearest-value search over the
// sorted finite values of the target format, ties broken on the code's low (mantissa) bit.

namespace tpbisa {
namespace {

using test::bits;
using test::flt;

bool is_quiet_nan(uint32_t f) {
  return (f & 0x7F800000U) == 0x7F800000U && (f & 0x00400000U) != 0;
}

// ---------------------------------------------------------------- reference formats (spec §8.1, N8)

struct RefFormat {
  const char* name;
  uint8_t dtype;
  int exp_bits;
  int mant_bits;
  int bias;
  bool e4m3_specials;         ///< no Inf, only S.1..1.1..1 is NaN
  uint32_t max_code;          ///< largest finite magnitude code
  uint32_t unsaturated_code;  ///< overflow result without saturation: Inf, or NaN for E4M3
  uint32_t nan_code;          ///< code written for a NaN input (sign added)
  bool fp8;                   ///< overflow governed by ocp_sat (else by sis)
  int width() const { return 1 + exp_bits + mant_bits; }
};

const RefFormat kE3m4{"E3M4", dtype::kFp8Exp3, 3, 4, 3, false, 0x6F, 0x70, 0x7F, true};
const RefFormat kE4m3{"E4M3", dtype::kFp8Exp4, 4, 3, 7, true, 0x7E, 0x7F, 0x7F, true};
const RefFormat kE5m2{"E5M2", dtype::kFp8Exp5, 5, 2, 15, false, 0x7B, 0x7C, 0x7F, true};
const RefFormat kFp16{"FP16", dtype::kFp16, 5, 10, 15, false, 0x7BFF, 0x7C00, 0x7E00, false};
const RefFormat kBf16{"BF16", dtype::kBfloat16, 8, 7, 127, false, 0x7F7F, 0x7F80, 0x7FC0, false};
const RefFormat* const kAllFormats[] = {&kE3m4, &kE4m3, &kE5m2, &kFp16, &kBf16};

enum class Kind { Finite, Inf, Nan };
struct RefValue {
  Kind kind;
  bool negative;
  double magnitude;
};

RefValue ref_decode(uint32_t code, const RefFormat& f) {
  const bool negative = ((code >> (f.exp_bits + f.mant_bits)) & 1U) != 0;
  const uint32_t e = (code >> f.mant_bits) & ((1U << f.exp_bits) - 1);
  const uint32_t m = code & ((1U << f.mant_bits) - 1);
  const uint32_t e_max = (1U << f.exp_bits) - 1;
  const uint32_t m_max = (1U << f.mant_bits) - 1;
  if (f.e4m3_specials) {
    if (e == e_max && m == m_max) return {Kind::Nan, negative, 0};
  } else if (e == e_max) {
    return {m == 0 ? Kind::Inf : Kind::Nan, negative, 0};
  }
  const double frac = std::ldexp(static_cast<double>(m), -f.mant_bits);
  const double magnitude = e == 0 ? std::ldexp(frac, 1 - f.bias) : std::ldexp(1.0 + frac, static_cast<int>(e) - f.bias);
  return {Kind::Finite, negative, magnitude};
}

/// Non-negative finite values of a format in ascending order, with their codes.
struct ValueTable {
  std::vector<double> values;
  std::vector<uint32_t> codes;
  double beyond = 0;  ///< the value one step above max finite with the exponent unbounded (code max_code + 1)
};

ValueTable build_table(const RefFormat& f) {
  std::vector<std::pair<double, uint32_t>> rows;
  for (uint32_t code = 0; code < (1U << (f.width() - 1)); ++code) {
    const RefValue v = ref_decode(code, f);
    if (v.kind == Kind::Finite) rows.emplace_back(v.magnitude, code);
  }
  std::sort(rows.begin(), rows.end());
  ValueTable t;
  for (const auto& [value, code] : rows) {
    t.values.push_back(value);
    t.codes.push_back(code);
  }
  const size_t n = t.values.size();
  t.beyond = t.values[n - 1] + (t.values[n - 1] - t.values[n - 2]);
  return t;
}

/// from_fp32 by nearest-value search: RNE with the exponent unbounded above, then the overflow rule of N12.
uint32_t ref_from_fp32(float x, const RefFormat& f, const ValueTable& t, const ConvertOptions& o) {
  const uint32_t sign = std::signbit(x) ? 1U << (f.exp_bits + f.mant_bits) : 0U;
  const bool saturate = f.fp8 ? o.ocp_sat : o.sis;
  const uint32_t overflow = sign | (saturate ? f.max_code : f.unsaturated_code);
  if (std::isnan(x)) return sign | f.nan_code;
  if (std::isinf(x)) return overflow;
  const double mag = std::fabs(static_cast<double>(x));
  const auto it = std::lower_bound(t.values.begin(), t.values.end(), mag);
  const auto idx = static_cast<size_t>(it - t.values.begin());
  if (idx < t.values.size() && t.values[idx] == mag) return sign | t.codes[idx];
  // mag lies strictly between below (idx-1) and above (idx, or `beyond` past the end); idx > 0 since values[0] = 0.
  const double below = t.values[idx - 1];
  const bool above_is_beyond = idx == t.values.size();
  const double above = above_is_beyond ? t.beyond : t.values[idx];
  const uint32_t below_code = t.codes[idx - 1];
  const uint32_t above_code = above_is_beyond ? f.max_code + 1 : t.codes[idx];
  if (mag > t.beyond) return overflow;
  bool take_above = false;
  if (mag - below != above - mag)
    take_above = above - mag < mag - below;
  else
    take_above = (above_code & 1U) == 0;  // tie: even mantissa
  if (!take_above) return sign | below_code;
  return above_is_beyond ? overflow : sign | above_code;
}

const ConvertOptions kOptionSets[] = {
    {true, false, false, false}, {false, false, false, false}, {true, true, false, false}, {false, true, false, false}};

// ---------------------------------------------------------------- to_fp32 of every narrow code

TEST(NumericsToFp32, EveryNarrowCodeWidensExactly) {
  for (const RefFormat* f : kAllFormats) {
    int failures = 0;
    for (uint32_t code = 0; code < (1U << f->width()); ++code) {
      const uint32_t got = to_fp32_bits(code, f->dtype);
      const RefValue ref = ref_decode(code, *f);
      bool ok = false;
      switch (ref.kind) {
        case Kind::Nan: ok = is_quiet_nan(got) && ((got >> 31) != 0) == ref.negative; break;
        case Kind::Inf: ok = got == (ref.negative ? 0xFF800000U : 0x7F800000U); break;
        case Kind::Finite: {
          const float g = flt(got);
          ok =
              std::isfinite(g) && static_cast<double>(std::fabs(g)) == ref.magnitude && std::signbit(g) == ref.negative;
          break;
        }
      }
      // Bits above the element width are not part of the element.
      ok = ok && to_fp32_bits(code | (uint64_t{0xA5A5A5A5} << f->width()), f->dtype) == got;
      if (!ok && ++failures <= 5) ADD_FAILURE() << f->name << " code 0x" << std::hex << code << " -> 0x" << got;
    }
    EXPECT_EQ(failures, 0) << f->name;
  }
}

TEST(NumericsToFp32, NamedFp8Values) {
  // E3M4 under PROJ-CONV-N8.
  EXPECT_EQ(flt(to_fp32_bits(0x6F, dtype::kFp8Exp3)), 15.5F);
  EXPECT_EQ(to_fp32_bits(0x70, dtype::kFp8Exp3), 0x7F800000U);
  EXPECT_EQ(to_fp32_bits(0xF0, dtype::kFp8Exp3), 0xFF800000U);
  EXPECT_TRUE(is_quiet_nan(to_fp32_bits(0x71, dtype::kFp8Exp3)));
  EXPECT_EQ(flt(to_fp32_bits(0x10, dtype::kFp8Exp3)), 0.25F);                 // min normal
  EXPECT_EQ(flt(to_fp32_bits(0x01, dtype::kFp8Exp3)), std::ldexp(1.0F, -6));  // min subnormal
  // E4M3: exponent 15 is finite except S.1111.111.
  EXPECT_EQ(flt(to_fp32_bits(0x7E, dtype::kFp8Exp4)), 448.0F);
  EXPECT_EQ(flt(to_fp32_bits(0x78, dtype::kFp8Exp4)), 256.0F);
  EXPECT_EQ(flt(to_fp32_bits(0xFE, dtype::kFp8Exp4)), -448.0F);
  EXPECT_TRUE(is_quiet_nan(to_fp32_bits(0x7F, dtype::kFp8Exp4)));
  EXPECT_TRUE(is_quiet_nan(to_fp32_bits(0xFF, dtype::kFp8Exp4)));
  EXPECT_EQ(flt(to_fp32_bits(0x08, dtype::kFp8Exp4)), std::ldexp(1.0F, -6));
  EXPECT_EQ(flt(to_fp32_bits(0x01, dtype::kFp8Exp4)), std::ldexp(1.0F, -9));
  // E5M2: IEEE-like.
  EXPECT_EQ(flt(to_fp32_bits(0x7B, dtype::kFp8Exp5)), 57344.0F);
  EXPECT_EQ(to_fp32_bits(0x7C, dtype::kFp8Exp5), 0x7F800000U);
  EXPECT_EQ(to_fp32_bits(0xFC, dtype::kFp8Exp5), 0xFF800000U);
  for (uint32_t c : {0x7DU, 0x7EU, 0x7FU, 0xFDU}) EXPECT_TRUE(is_quiet_nan(to_fp32_bits(c, dtype::kFp8Exp5)));
  EXPECT_EQ(flt(to_fp32_bits(0x01, dtype::kFp8Exp5)), std::ldexp(1.0F, -16));
  EXPECT_EQ(to_fp32_bits(0x80, dtype::kFp8Exp5), 0x80000000U);  // -0 keeps its sign
}

TEST(NumericsToFp32, NamedWideValues) {
  EXPECT_EQ(flt(to_fp32_bits(0x7BFF, dtype::kFp16)), 65504.0F);
  EXPECT_EQ(flt(to_fp32_bits(0x0001, dtype::kFp16)), std::ldexp(1.0F, -24));
  EXPECT_EQ(flt(to_fp32_bits(0x3C00, dtype::kFp16)), 1.0F);
  EXPECT_EQ(to_fp32_bits(0x7C00, dtype::kFp16), 0x7F800000U);
  EXPECT_TRUE(is_quiet_nan(to_fp32_bits(0x7C01, dtype::kFp16)));  // signalling in, quiet out (N12)
  EXPECT_EQ(to_fp32_bits(0x7F7F, dtype::kBfloat16), 0x7F7F0000U);
  EXPECT_EQ(to_fp32_bits(0x0001, dtype::kBfloat16), 0x00010000U);  // 2^-133, an fp32 subnormal, not flushed (N14)
  EXPECT_EQ(to_fp32_bits(0xFFC0, dtype::kBfloat16), 0xFFC00000U);
  EXPECT_TRUE(is_quiet_nan(to_fp32_bits(0x7F81, dtype::kBfloat16)));
}

// ---------------------------------------------------------------- round trips

TEST(NumericsRoundTrip, EveryNarrowCodeSurvivesTheHub) {
  for (const RefFormat* f : kAllFormats) {
    int failures = 0;
    for (uint32_t code = 0; code < (1U << f->width()); ++code) {
      const RefValue ref = ref_decode(code, *f);
      const uint32_t sign = code & (1U << (f->width() - 1));
      // A NaN comes back as the format's NaN with its sign; every other code comes back unchanged, whatever
      // the options (an exact value never overflows, and Inf is only saturated by the options that say so).
      for (const ConvertOptions& o : kOptionSets) {
        uint32_t expect = code;
        if (ref.kind == Kind::Nan) expect = sign | f->nan_code;
        if (ref.kind == Kind::Inf && (f->fp8 ? o.ocp_sat : o.sis)) expect = sign | f->max_code;
        const uint64_t got = from_fp32_bits(to_fp32_bits(code, f->dtype), f->dtype, o);
        if (got != expect && ++failures <= 5)
          ADD_FAILURE() << f->name << " code 0x" << std::hex << code << " -> 0x" << got;
      }
    }
    EXPECT_EQ(failures, 0) << f->name;
  }
}

// ---------------------------------------------------------------- from_fp32 against the nearest-value search

/// Inputs that probe every rounding decision of a format: each value, each midpoint between neighbours
/// (including max and the first value past it), the fp32 numbers on either side of those, both signs, plus
/// fp32 specials, subnormals and a fixed pseudo-random sample of all bit patterns.
std::vector<float> probe_inputs(const ValueTable& t) {
  std::vector<float> in;
  auto add = [&](double v) {
    const auto x = static_cast<float>(v);
    EXPECT_EQ(static_cast<double>(x), v) << "probe not exact in fp32";
    for (float y : {x, std::nextafter(x, 0.0F), std::nextafter(x, std::numeric_limits<float>::infinity())}) {
      in.push_back(y);
      in.push_back(-y);
    }
  };
  std::vector<double> values = t.values;
  values.push_back(t.beyond);
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] < static_cast<double>(std::numeric_limits<float>::max())) add(values[i]);
    if (i + 1 < values.size()) add((values[i] + values[i + 1]) / 2);
  }
  for (uint32_t b : {0x00000000U, 0x00000001U, 0x00400000U, 0x007FFFFFU, 0x00800000U, 0x7F7FFFFFU, 0x7F800000U,
                     0x7F800001U, 0x7FA00000U, 0x7FC00000U, 0x7FFFFFFFU, 0x3F800000U, 0x33800000U}) {
    in.push_back(flt(b));
    in.push_back(flt(b | 0x80000000U));
  }
  std::mt19937 rng(20240611);
  for (int i = 0; i < 40000; ++i) in.push_back(flt(static_cast<uint32_t>(rng())));
  return in;
}

void check_from_fp32(const RefFormat& f) {
  const ValueTable t = build_table(f);
  const std::vector<float> inputs = probe_inputs(t);
  int failures = 0;
  for (float x : inputs) {
    for (const ConvertOptions& o : kOptionSets) {
      const uint32_t expect = ref_from_fp32(x, f, t, o);
      const uint64_t got = from_fp32_bits(bits(x), f.dtype, o);
      if (got != expect && ++failures <= 8)
        ADD_FAILURE() << f.name << " from 0x" << std::hex << bits(x) << " (" << x << ") ocp_sat=" << o.ocp_sat
                      << " sis=" << o.sis << ": got 0x" << got << ", want 0x" << expect;
    }
  }
  EXPECT_EQ(failures, 0) << f.name << " over " << inputs.size() << " inputs";
}

TEST(NumericsFromFp32, E3m4MatchesNearestSearch) {
  check_from_fp32(kE3m4);
}
TEST(NumericsFromFp32, E4m3MatchesNearestSearch) {
  check_from_fp32(kE4m3);
}
TEST(NumericsFromFp32, E5m2MatchesNearestSearch) {
  check_from_fp32(kE5m2);
}
TEST(NumericsFromFp32, Fp16MatchesNearestSearch) {
  check_from_fp32(kFp16);
}
TEST(NumericsFromFp32, Bf16MatchesNearestSearch) {
  check_from_fp32(kBf16);
}

// The same rules as named cases, so a reader can see each one without the reference.
const ConvertOptions kSat{};  // N11 defaults: ocp_sat on, sis off
const ConvertOptions kNoSat{false, false, false, false};
const ConvertOptions kSis{true, true, false, false};

TEST(NumericsFromFp32, Fp8OverflowAndSpecials) {
  // E4M3: 464 is the tie between 448 (mantissa 110, even) and 480 (past max): stays 448.
  EXPECT_EQ(from_fp32_bits(bits(464.0F), dtype::kFp8Exp4, kNoSat), 0x7EU);
  EXPECT_EQ(from_fp32_bits(bits(465.0F), dtype::kFp8Exp4, kSat), 0x7EU);
  EXPECT_EQ(from_fp32_bits(bits(465.0F), dtype::kFp8Exp4, kNoSat), 0x7FU);  // E4M3 has no Inf: NaN
  EXPECT_EQ(from_fp32_bits(bits(-1e9F), dtype::kFp8Exp4, kNoSat), 0xFFU);
  EXPECT_EQ(from_fp32_bits(0xFF800000U, dtype::kFp8Exp4, kSat), 0xFEU);  // -Inf behaves like overflow
  // E5M2: 61440 ties 57344 (odd mantissa) with 65536 (even): rounds up, i.e. overflows.
  EXPECT_EQ(from_fp32_bits(bits(61440.0F), dtype::kFp8Exp5, kNoSat), 0x7CU);
  EXPECT_EQ(from_fp32_bits(bits(61440.0F), dtype::kFp8Exp5, kSat), 0x7BU);
  EXPECT_EQ(from_fp32_bits(bits(61439.0F), dtype::kFp8Exp5, kNoSat), 0x7BU);
  EXPECT_EQ(from_fp32_bits(0x7F800000U, dtype::kFp8Exp5, kNoSat), 0x7CU);
  EXPECT_EQ(from_fp32_bits(0x7F800000U, dtype::kFp8Exp5, kSat), 0x7BU);
  // E3M4 (N8): 15.75 ties 15.5 (odd) with 16 (even, past max).
  EXPECT_EQ(from_fp32_bits(bits(15.75F), dtype::kFp8Exp3, kNoSat), 0x70U);
  EXPECT_EQ(from_fp32_bits(bits(-15.75F), dtype::kFp8Exp3, kSat), 0xEFU);
  EXPECT_EQ(from_fp32_bits(bits(15.7F), dtype::kFp8Exp3, kNoSat), 0x6FU);
  // NaN in -> sign | 0x7F for all three (N12).
  for (uint8_t d : {dtype::kFp8Exp3, dtype::kFp8Exp4, dtype::kFp8Exp5}) {
    EXPECT_EQ(from_fp32_bits(0x7FC00000U, d), 0x7FU);
    EXPECT_EQ(from_fp32_bits(0xFF800001U, d), 0xFFU);
  }
  // Subnormal targets and underflow (N14): half the smallest E4M3 subnormal ties to zero, a bit more rounds up.
  EXPECT_EQ(from_fp32_bits(bits(std::ldexp(1.0F, -10)), dtype::kFp8Exp4), 0x00U);
  EXPECT_EQ(from_fp32_bits(bits(std::ldexp(1.5F, -10)), dtype::kFp8Exp4), 0x01U);
  EXPECT_EQ(from_fp32_bits(bits(-std::ldexp(1.0F, -12)), dtype::kFp8Exp4), 0x80U);  // -0 keeps the sign
}

TEST(NumericsFromFp32, Fp16AndBf16OverflowFollowSis) {
  EXPECT_EQ(from_fp32_bits(bits(65519.0F), dtype::kFp16), 0x7BFFU);
  EXPECT_EQ(from_fp32_bits(bits(65520.0F), dtype::kFp16), 0x7C00U);  // tie goes to the even 65536: Inf
  EXPECT_EQ(from_fp32_bits(bits(65520.0F), dtype::kFp16, kSis), 0x7BFFU);
  EXPECT_EQ(from_fp32_bits(bits(-1e10F), dtype::kFp16, kSis), 0xFBFFU);
  EXPECT_EQ(from_fp32_bits(0x7F800000U, dtype::kFp16), 0x7C00U);
  EXPECT_EQ(from_fp32_bits(0xFF800000U, dtype::kFp16, kSis), 0xFBFFU);  // Inf in is saturated by sis too
  EXPECT_EQ(from_fp32_bits(0x7FC00000U, dtype::kFp16), 0x7E00U);
  EXPECT_EQ(from_fp32_bits(0xFF800001U, dtype::kFp16), 0xFE00U);
  EXPECT_EQ(from_fp32_bits(bits(1.0000001F), dtype::kFp16), 0x3C00U);             // edge case #157
  EXPECT_EQ(from_fp32_bits(bits(std::ldexp(1.0F, -25)), dtype::kFp16), 0x0000U);  // tie to even zero
  EXPECT_EQ(from_fp32_bits(bits(std::ldexp(3.0F, -26)), dtype::kFp16), 0x0001U);
  EXPECT_EQ(from_fp32_bits(0x7F7FFFFFU, dtype::kBfloat16), 0x7F80U);  // FLT_MAX rounds past 0x7F7F
  EXPECT_EQ(from_fp32_bits(0x7F7FFFFFU, dtype::kBfloat16, kSis), 0x7F7FU);
  EXPECT_EQ(from_fp32_bits(0x7F7F7FFFU, dtype::kBfloat16), 0x7F7FU);
  EXPECT_EQ(from_fp32_bits(0x3F808000U, dtype::kBfloat16), 0x3F80U);  // tie, even stays
  EXPECT_EQ(from_fp32_bits(0x3F818000U, dtype::kBfloat16), 0x3F82U);  // tie, odd rounds up
  EXPECT_EQ(from_fp32_bits(0x7F800001U, dtype::kBfloat16), 0x7FC0U);  // NaN -> sign | 0x7FC0
  EXPECT_EQ(from_fp32_bits(0xFFFFFFFFU, dtype::kBfloat16), 0xFFC0U);
  EXPECT_EQ(from_fp32_bits(0x00008000U, dtype::kBfloat16), 0x0000U);  // subnormal tie to even
  EXPECT_EQ(from_fp32_bits(0x00018000U, dtype::kBfloat16), 0x0002U);
  // The FP8 switch does not touch FP16/BF16, nor sis the FP8 formats.
  EXPECT_EQ(from_fp32_bits(bits(1e6F), dtype::kFp16, kNoSat), 0x7C00U);
  EXPECT_EQ(from_fp32_bits(bits(1e6F), dtype::kFp8Exp4, kSis), 0x7EU);
}

// ---------------------------------------------------------------- FP32 and FP32R

TEST(NumericsFp32, IdentityKeepsEveryBit) {
  std::mt19937 rng(7);
  std::vector<uint32_t> samples = {0x00000000U, 0x80000000U, 0x7F800000U, 0x7F800001U, 0xFFBFFFFFU, 0x00000001U};
  for (int i = 0; i < 2000; ++i) samples.push_back(static_cast<uint32_t>(rng()));
  for (uint32_t b : samples) {
    for (uint8_t d : {dtype::kFp32, dtype::kFp32r}) {
      EXPECT_EQ(to_fp32_bits(b, d), b);
      EXPECT_EQ(to_fp32_bits(uint64_t{0xDEADBEEF00000000} | b, d), b);  // only the low 32 bits are the element
      EXPECT_EQ(from_fp32_bits(b, d, kNoSat), b);                       // PROJ-CONV-T6 for FP32R
    }
  }
}

// ---------------------------------------------------------------- integers

struct IntType {
  uint8_t dtype;
  int bits;
  bool is_signed;
};
const IntType kIntTypes[] = {{dtype::kInt8, 8, true},     {dtype::kUint8, 8, false},  {dtype::kInt16, 16, true},
                             {dtype::kUint16, 16, false}, {dtype::kInt32, 32, true},  {dtype::kUint32, 32, false},
                             {dtype::kInt64, 64, true},   {dtype::kUint64, 64, false}};

uint64_t width_mask(int width) {
  return width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

TEST(NumericsIntToFp32, SmallIntegersExhaustively) {
  for (const IntType& t : kIntTypes) {
    if (t.bits > 16) continue;
    for (uint32_t raw = 0; raw < (1U << t.bits); ++raw) {
      const bool negative = t.is_signed && raw >= (1U << (t.bits - 1));
      const double value = negative ? static_cast<double>(raw) - std::ldexp(1.0, t.bits) : static_cast<double>(raw);
      const uint32_t got = to_fp32_bits(raw | (uint64_t{0x5A} << t.bits), t.dtype);  // high bits ignored
      ASSERT_EQ(static_cast<double>(flt(got)), value) << "dtype " << int{t.dtype} << " raw " << raw;
    }
  }
}

TEST(NumericsIntToFp32, Int32AndUint32RoundToNearestEven) {
  // Edge case #87 and the first integers fp32 cannot hold.
  EXPECT_EQ(to_fp32_bits(0xFFFFFFFFU, dtype::kUint32), 0x4F800000U);
  EXPECT_EQ(to_fp32_bits(16777217U, dtype::kInt32), 0x4B800000U);  // tie -> 16777216 (even)
  EXPECT_EQ(to_fp32_bits(16777219U, dtype::kInt32), 0x4B800002U);  // tie -> 16777220 (even)
  EXPECT_EQ(to_fp32_bits(0x80000000U, dtype::kInt32), 0xCF000000U);
  EXPECT_EQ(to_fp32_bits(0xFFFFFFFFU, dtype::kInt32), 0xBF800000U);
  EXPECT_EQ(to_fp32_bits(0x7FFFFFFFU, dtype::kInt32), 0x4F000000U);
  // Reference: the host double holds every 32-bit integer exactly and its cast to float is IEEE RNE.
  std::mt19937 rng(87);
  for (int i = 0; i < 50000; ++i) {
    const auto raw = static_cast<uint32_t>(rng()) >> (rng() % 32);
    const auto as_int = static_cast<int32_t>(raw);
    EXPECT_EQ(to_fp32_bits(raw, dtype::kUint32), bits(static_cast<float>(static_cast<double>(raw))));
    EXPECT_EQ(to_fp32_bits(raw, dtype::kInt32), bits(static_cast<float>(static_cast<double>(as_int))));
  }
}

/// Distance between a non-negative integer v and a non-negative integral float F <= 2^64 (exact).
uint64_t distance(uint64_t v, float f) {
  if (static_cast<double>(f) == std::ldexp(1.0, 64)) return 0 - v;  // 2^64 - v, v != 0 here
  const auto fu = static_cast<uint64_t>(f);
  return v > fu ? v - fu : fu - v;
}

/// RNE fp32 of a 64-bit magnitude: the nearest of the float neighbours of a first guess, ties to even.
uint32_t ref_u64_to_fp32(uint64_t v) {
  const auto guess = static_cast<float>(static_cast<double>(v));  // within one ulp (double rounding)
  float best = guess;
  for (float c : {std::nextafter(guess, 0.0F), std::nextafter(guess, std::numeric_limits<float>::infinity())}) {
    if (static_cast<double>(c) > std::ldexp(1.0, 64) || c < 0.0F) continue;
    const uint64_t dc = distance(v, c), db = distance(v, best);
    if (dc < db || (dc == db && (bits(c) & 1U) == 0)) best = c;
  }
  return bits(best);
}

TEST(NumericsIntToFp32, SixtyFourBitRoundToNearestEven) {
  std::vector<uint64_t> samples = {0,
                                   1,
                                   16777217,
                                   (uint64_t{1} << 53) + 1,
                                   (uint64_t{1} << 63) - 1,
                                   uint64_t{1} << 63,
                                   ~uint64_t{0},
                                   0xFFFFFF7FFFFFFFFFULL,
                                   0xFFFFFF8000000000ULL,
                                   0xFFFFFF8000000001ULL,
                                   0x0000010000008000ULL,
                                   0x0000010000018000ULL};
  std::mt19937_64 rng(64);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t r = rng();
    samples.push_back(r >> (r % 64));
    // Values exactly on or next to a tie between two fp32 neighbours.
    const int top = 25 + static_cast<int>(r % 39);
    const uint64_t tie = (uint64_t{1} << top) | (r & ((uint64_t{1} << top) - 1) & ~((uint64_t{1} << (top - 24)) - 1)) |
                         (uint64_t{1} << (top - 24));
    for (uint64_t d : {tie - 1, tie, tie + 1}) samples.push_back(d);
  }
  for (uint64_t v : samples) {
    ASSERT_EQ(to_fp32_bits(v, dtype::kUint64), ref_u64_to_fp32(v)) << "u64 " << v;
    const auto s = static_cast<int64_t>(v);
    const uint64_t magnitude = s < 0 ? 0 - v : v;
    const uint32_t sign = s < 0 ? 0x80000000U : 0U;
    ASSERT_EQ(to_fp32_bits(v, dtype::kInt64), sign | ref_u64_to_fp32(magnitude)) << "i64 " << s;
  }
  EXPECT_EQ(to_fp32_bits(~uint64_t{0}, dtype::kUint64), 0x5F800000U);      // 2^64
  EXPECT_EQ(to_fp32_bits(uint64_t{1} << 63, dtype::kInt64), 0xDF000000U);  // -2^63
  EXPECT_EQ(to_fp32_bits(~uint64_t{0}, dtype::kInt64), 0xBF800000U);       // -1
}

/// from_fp32 to an integer, computed with double arithmetic: NaN -> 0, trunc, clamp; then the element bits.
uint64_t ref_to_int(float x, const IntType& t) {
  if (std::isnan(x)) return 0;
  const double v = std::trunc(static_cast<double>(x));
  const double lo = t.is_signed ? -std::ldexp(1.0, t.bits - 1) : 0.0;
  const double hi_excl = t.is_signed ? std::ldexp(1.0, t.bits - 1) : std::ldexp(1.0, t.bits);
  const uint64_t max_bits = t.is_signed ? (uint64_t{1} << (t.bits - 1)) - 1 : width_mask(t.bits);
  if (v >= hi_excl) return max_bits;
  if (v <= lo) return t.is_signed ? (uint64_t{1} << (t.bits - 1)) & width_mask(t.bits) : 0;
  if (v < 0) return static_cast<uint64_t>(static_cast<int64_t>(v)) & width_mask(t.bits);
  return static_cast<uint64_t>(v);
}

TEST(NumericsFp32ToInt, TruncateSaturateNanToZero) {
  std::vector<float> inputs = {0.0F,
                               -0.0F,
                               0.5F,
                               -0.5F,
                               0.999F,
                               -0.999F,
                               1.0F,
                               -1.0F,
                               -3.9F,
                               300.7F,
                               std::numeric_limits<float>::infinity(),
                               -std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::quiet_NaN(),
                               -std::numeric_limits<float>::quiet_NaN(),
                               std::numeric_limits<float>::max(),
                               std::numeric_limits<float>::denorm_min()};
  for (int k = 0; k <= 64; ++k) {
    const float p = std::ldexp(1.0F, k);
    for (float y : {p, std::nextafter(p, 0.0F), std::nextafter(p, 1e30F), p + 0.5F, p - 0.5F})
      for (float z : {y, -y, y - 1.0F, -y + 1.0F}) inputs.push_back(z);
  }
  std::mt19937 rng(155);
  for (int i = 0; i < 30000; ++i) inputs.push_back(flt(static_cast<uint32_t>(rng())));
  for (int i = 0; i < 30000; ++i) inputs.push_back(static_cast<float>(static_cast<int32_t>(rng())) / 7.0F);
  for (const IntType& t : kIntTypes)
    for (float x : inputs)
      ASSERT_EQ(from_fp32_bits(bits(x), t.dtype), ref_to_int(x, t)) << "dtype " << int{t.dtype} << " x " << x;
}

TEST(NumericsFp32ToInt, NamedCases) {
  EXPECT_EQ(from_fp32_bits(bits(-3.9F), dtype::kInt8), 0xFDU);  // edge case #155: -3
  EXPECT_EQ(from_fp32_bits(bits(300.7F), dtype::kInt8), 127U);  // edge case #155: saturate
  EXPECT_EQ(from_fp32_bits(bits(-300.7F), dtype::kInt8), 0x80U);
  EXPECT_EQ(from_fp32_bits(bits(-1.0F), dtype::kUint8), 0U);
  EXPECT_EQ(from_fp32_bits(bits(256.0F), dtype::kUint8), 255U);
  EXPECT_EQ(from_fp32_bits(0x7FC00000U, dtype::kInt32), 0U);
  EXPECT_EQ(from_fp32_bits(0xFF800000U, dtype::kInt32), 0x80000000U);
  EXPECT_EQ(from_fp32_bits(0x7F800000U, dtype::kUint32), 0xFFFFFFFFU);
  EXPECT_EQ(from_fp32_bits(bits(-2.5e9F), dtype::kInt32), 0x80000000U);
  EXPECT_EQ(from_fp32_bits(bits(3.0e9F), dtype::kUint32), 3000000000U);
  EXPECT_EQ(from_fp32_bits(bits(std::ldexp(1.0F, 63)), dtype::kInt64), 0x7FFFFFFFFFFFFFFFULL);
  EXPECT_EQ(from_fp32_bits(bits(-std::ldexp(1.0F, 63)), dtype::kInt64), 0x8000000000000000ULL);
  EXPECT_EQ(from_fp32_bits(bits(std::ldexp(1.0F, 64)), dtype::kUint64), ~uint64_t{0});
  EXPECT_EQ(from_fp32_bits(bits(std::nextafter(std::ldexp(1.0F, 64), 0.0F)), dtype::kUint64), 0xFFFFFF0000000000ULL);
}

// ---------------------------------------------------------------- which dtypes convert

TEST(NumericsConvertible, ExactlyTheListedDtypes) {
  const std::vector<uint8_t> yes = {dtype::kInt8,     dtype::kUint8, dtype::kInt16,   dtype::kUint16,  dtype::kInt32,
                                    dtype::kUint32,   dtype::kInt64, dtype::kUint64,  dtype::kFp32,    dtype::kFp32r,
                                    dtype::kBfloat16, dtype::kFp16,  dtype::kFp8Exp3, dtype::kFp8Exp4, dtype::kFp8Exp5};
  for (unsigned code = 0; code < 256; ++code) {
    const auto d = static_cast<uint8_t>(code);
    const bool listed = std::find(yes.begin(), yes.end(), d) != yes.end();
    EXPECT_EQ(convertible(d), listed) << "dtype 0x" << std::hex << code;
    if (!listed) {
      // Fixed, visible results for a caller that skipped the check: a quiet NaN in, zero out.
      EXPECT_TRUE(is_quiet_nan(to_fp32_bits(0x3C, d)));
      EXPECT_EQ(from_fp32_bits(0x3F800000U, d), 0U);
    }
  }
  // Every catalog float that is not listed (FP8_EXP2, FP4, scales) stays outside: executors raise
  // UnsupportedDtype for them (PROJ-CONV-T13).
  EXPECT_FALSE(convertible(dtype::kFp8Exp2));
  EXPECT_FALSE(convertible(dtype::kFp4Exp2));
  EXPECT_FALSE(convertible(dtype::kSfp8E8));
}

}  // namespace
}  // namespace tpbisa
