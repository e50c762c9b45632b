// The fp32-hub conversion module and the one shared ALU evaluator (memory-and-numerics.md §8.3, enums.md §5.3).
#include "tpbisa/numerics.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "tpbisa/catalog.hpp"

// Everything here is integer arithmetic on bit patterns except the fp32 ALU ops that IEEE 754 defines as
// correctly rounded (+ - * / and compares): results then do not depend on the host rounding mode, x87 or
// library quality, and every corner is reachable from the tests without UB (the suite runs under UBSan).

namespace tpbisa {
namespace {

// ---- ALU codes the catalog names but aluop:: does not spell (the integer band) ----

// Looked up by header name at compile time so no code value is restated here.
// Not constexpr: reaching it during constant evaluation makes a misspelt name a compile error.
void alu_name_missing_from_catalog() {}
consteval uint8_t alu_code(std::string_view name) {
  for (const auto& row : kAluOps)
    if (row.name == name) return row.code;
  alu_name_missing_from_catalog();
  return 0;
}
constexpr uint8_t kAddInt = alu_code("ADD_INT"), kMultInt = alu_code("MULT_INT"),
                  kSubtractInt = alu_code("SUBTRACT_INT"), kDivideInt = alu_code("DIVIDE_INT"),
                  kModInt = alu_code("MOD_INT"), kIsEqualInt = alu_code("IS_EQUAL_INT"),
                  kIsNeInt = alu_code("IS_NE_INT"), kAbsMaxInt = alu_code("ABS_MAX_INT"),
                  kAbsMinInt = alu_code("ABS_MIN_INT"), kAbsDiffInt = alu_code("ABS_DIFF_INT"),
                  kAbsValueInt = alu_code("ABS_VALUE_INT"), kMaxInt = alu_code("MAX_INT"),
                  kMinInt = alu_code("MIN_INT"), kIsGtInt = alu_code("IS_GT_INT"), kIsGeInt = alu_code("IS_GE_INT"),
                  kIsLeInt = alu_code("IS_LE_INT"), kIsLtInt = alu_code("IS_LT_INT"), kMaxUint = alu_code("MAX_UINT"),
                  kMinUint = alu_code("MIN_UINT"), kIsGtUint = alu_code("IS_GT_UINT"),
                  kIsGeUint = alu_code("IS_GE_UINT"), kIsLeUint = alu_code("IS_LE_UINT"),
                  kIsLtUint = alu_code("IS_LT_UINT"), kMultUint = alu_code("MULT_UINT"),
                  kDivideUint = alu_code("DIVIDE_UINT"), kModUint = alu_code("MOD_UINT");

// ---- fp32 bit fields ----

constexpr uint32_t kF32Sign = 0x80000000U;
constexpr uint32_t kF32Exp = 0x7F800000U;
constexpr uint32_t kF32Frac = 0x007FFFFFU;
constexpr uint32_t kF32Quiet = 0x00400000U;
constexpr uint32_t kF32QuietNan = 0x7FC00000U;
constexpr uint32_t kF32Inf = 0x7F800000U;

constexpr bool f32_is_nan(uint32_t f) {
  return (f & ~kF32Sign) > kF32Inf;
}
constexpr bool f32_is_inf(uint32_t f) {
  return (f & ~kF32Sign) == kF32Inf;
}

// ---- binary float formats no wider than fp32 ----

enum class Specials : uint8_t {
  Ieee,           ///< top exponent: mantissa 0 = ±Inf, else NaN (FP32, FP16, BF16, E5M2, E3M4 under N8)
  NanOnlyAllOnes  ///< E4M3: no Inf; S.1111.111 is the only NaN, the rest of the top exponent is finite
};

struct FloatFormat {
  int exp_bits;
  int mant_bits;
  int bias;
  Specials specials;
  uint32_t max_finite;  ///< magnitude code of the largest finite value
  uint32_t nan;         ///< magnitude code written for a NaN input (PROJ-CONV-N12)
  constexpr int sign_shift() const { return exp_bits + mant_bits; }
  constexpr uint32_t exp_max() const { return (1U << exp_bits) - 1; }
  constexpr uint32_t inf() const { return exp_max() << mant_bits; }
  constexpr int emin() const { return 1 - bias; }
};

constexpr FloatFormat kFp32Format{8, 23, 127, Specials::Ieee, 0x7F7FFFFFU, kF32QuietNan};
// FP16 NaN: the canonical quiet NaN with the input's sign (N17 leaves the payload open; BF16's rule, by analogy).
constexpr FloatFormat kFp16Format{5, 10, 15, Specials::Ieee, 0x7BFFU, 0x7E00U};
constexpr FloatFormat kBf16Format{8, 7, 127, Specials::Ieee, 0x7F7FU, 0x7FC0U};
constexpr FloatFormat kE3m4Format{3, 4, 3, Specials::Ieee, 0x6FU, 0x7FU};
constexpr FloatFormat kE4m3Format{4, 3, 7, Specials::NanOnlyAllOnes, 0x7EU, 0x7FU};
constexpr FloatFormat kE5m2Format{5, 2, 15, Specials::Ieee, 0x7BU, 0x7FU};

/// The magnitude code of sig * 2^exp2 (sig != 0) rounded to nearest-even in `fmt`, with the exponent range
/// unbounded above: a result above fmt.max_finite means overflow, and because codes are ordered like values
/// the comparison is exactly "the correctly rounded magnitude exceeds max finite" (N12). Subnormals are kept
/// (N14). The code is formed as ((biased_exp - 1) << M) + q with q counting quanta including the implicit
/// bit, so a rounding carry (q = 2^(M+1)) moves into the exponent and the subnormal -> normal step is free.
uint64_t round_magnitude(uint64_t sig, int exp2, const FloatFormat& fmt) {
  const int top = static_cast<int>(std::bit_width(sig)) - 1;  // value in [2^(top+exp2), 2^(top+exp2+1))
  const int e = top + exp2;
  const int eq = e > fmt.emin() ? e : fmt.emin();  // exponent of the binade that sets the quantum
  const int shift = eq - fmt.mant_bits - exp2;     // quantum = 2^(eq - M) = 2^shift units of sig
  uint64_t q = 0;
  if (shift <= 0) {
    q = sig << -shift;  // exact; fewer than M+1 significant bits, so no overflow
  } else if (shift <= 64) {
    const uint64_t rem = shift == 64 ? sig : sig & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    q = shift == 64 ? 0 : sig >> shift;
    if (rem > half || (rem == half && (q & 1U) != 0)) ++q;
  }  // shift > 64: below half the smallest quantum, rounds to zero
  if (q == 0) return 0;
  return (static_cast<uint64_t>(eq + fmt.bias - 1) << fmt.mant_bits) + q;
}

/// fp32 bits of sig * 2^exp2, rounded to nearest-even; overflow gives ±Inf (IEEE).
uint32_t fp32_from_parts(bool negative, uint64_t sig, int exp2) {
  const uint32_t sign = negative ? kF32Sign : 0U;
  if (sig == 0) return sign;
  const uint64_t code = round_magnitude(sig, exp2, kFp32Format);
  return sign | (code > kFp32Format.max_finite ? kF32Inf : static_cast<uint32_t>(code));
}

/// fp32 bits nearest (RNE) to a double, by integer arithmetic on its fields (the host cast is avoided so the
/// result cannot depend on the rounding mode); NaN gives the quiet NaN with the input's sign.
uint32_t fp32_from_double(double d) {
  const auto bits = std::bit_cast<uint64_t>(d);
  const bool negative = (bits >> 63) != 0;
  const auto exp_field = static_cast<int>((bits >> 52) & 0x7FF);
  const uint64_t frac = bits & ((uint64_t{1} << 52) - 1);
  if (exp_field == 0x7FF) return (negative ? kF32Sign : 0U) | (frac != 0 ? kF32QuietNan : kF32Inf);
  if (exp_field == 0) return fp32_from_parts(negative, frac, -1074);
  return fp32_from_parts(negative, frac | (uint64_t{1} << 52), exp_field - 1075);
}

/// Exact fp32 bits of a narrow-format code (every value of these formats is an fp32 value).
uint32_t widen(uint32_t code, const FloatFormat& fmt) {
  const bool negative = ((code >> fmt.sign_shift()) & 1U) != 0;
  const uint32_t sign = negative ? kF32Sign : 0U;
  const uint32_t exp_field = (code >> fmt.mant_bits) & fmt.exp_max();
  const uint32_t mant = code & ((1U << fmt.mant_bits) - 1);
  const uint32_t magnitude = code & ((1U << fmt.sign_shift()) - 1);
  const bool nan = fmt.specials == Specials::Ieee ? (exp_field == fmt.exp_max() && mant != 0)
                                                  : magnitude == ((1U << fmt.sign_shift()) - 1);
  // A narrow NaN becomes a quiet fp32 NaN keeping sign and (left-aligned) payload: N17 leaves both open,
  // and keeping them makes BF16 -> FP32 a plain shift for quiet NaNs.
  if (nan) return sign | kF32Exp | kF32Quiet | (mant << (23 - fmt.mant_bits));
  if (fmt.specials == Specials::Ieee && exp_field == fmt.exp_max()) return sign | kF32Inf;
  if (exp_field == 0) return fp32_from_parts(negative, mant, fmt.emin() - fmt.mant_bits);
  const int exp2 = static_cast<int>(exp_field) - fmt.bias - fmt.mant_bits;
  return fp32_from_parts(negative, mant | (1U << fmt.mant_bits), exp2);
}

/// fp32 -> narrow code: RNE; NaN -> sign | fmt.nan; Inf and overflow -> sign | overflow_code (N12).
uint32_t narrow(uint32_t f, const FloatFormat& fmt, uint32_t overflow_code) {
  const uint32_t sign = (f >> 31) << fmt.sign_shift();
  if (f32_is_nan(f)) return sign | fmt.nan;
  if (f32_is_inf(f)) return sign | overflow_code;  // "Inf input behaves like overflow"
  const auto exp_field = static_cast<int>((f >> 23) & 0xFF);
  const uint32_t frac = f & kF32Frac;
  if (exp_field == 0 && frac == 0) return sign;
  const uint64_t code =
      exp_field == 0 ? round_magnitude(frac, -149, fmt) : round_magnitude(frac | 0x800000U, exp_field - 150, fmt);
  return sign | (code > fmt.max_finite ? overflow_code : static_cast<uint32_t>(code));
}

/// BF16 by the spec's own recipe (N12): RNE on bit 16 by adding 0x7FFF + lsb and keeping the top half; the
/// carry of that add is exactly the rounding carry into the exponent and into Inf.
uint32_t narrow_bf16(uint32_t f, bool sis) {
  const uint32_t sign = (f >> 16) & 0x8000U;
  const uint32_t overflow = sis ? kBf16Format.max_finite : kBf16Format.inf();
  if (f32_is_nan(f)) return sign | kBf16Format.nan;
  if (f32_is_inf(f)) return sign | overflow;
  const uint32_t rounded = (f + 0x7FFFU + ((f >> 16) & 1U)) >> 16;  // |f| < Inf, so no wrap
  return (rounded & 0x7FFFU) > kBf16Format.max_finite ? sign | overflow : rounded;
}

uint32_t fp8_overflow_code(const FloatFormat& fmt, bool ocp_sat) {
  if (ocp_sat) return fmt.max_finite;
  return fmt.specials == Specials::Ieee ? fmt.inf() : fmt.nan;  // E5M2/E3M4 -> ±Inf, E4M3 -> NaN
}

// ---- integers ----

struct IntFormat {
  int bits;
  bool is_signed;
  constexpr uint64_t mask() const { return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
};

constexpr bool int_format(uint8_t dtype, IntFormat& out) {
  switch (dtype) {
    case dtype::kInt8: out = {8, true}; return true;
    case dtype::kUint8: out = {8, false}; return true;
    case dtype::kInt16: out = {16, true}; return true;
    case dtype::kUint16: out = {16, false}; return true;
    case dtype::kInt32: out = {32, true}; return true;
    case dtype::kUint32: out = {32, false}; return true;
    case dtype::kInt64: out = {64, true}; return true;
    case dtype::kUint64: out = {64, false}; return true;
    default: return false;
  }
}

/// Integer element (low `bits` of raw, two's complement when signed) -> fp32, RNE (N12).
uint32_t int_to_fp32(uint64_t raw, IntFormat fmt) {
  uint64_t v = raw & fmt.mask();
  const bool negative = fmt.is_signed && ((v >> (fmt.bits - 1)) & 1U) != 0;
  // Magnitude of a negative value: 2^bits - v, in modular arithmetic (covers the most negative value).
  if (negative) v = (0 - v) & fmt.mask();
  return fp32_from_parts(negative, v, 0);
}

/// fp32 -> integer element: NaN -> 0, truncate toward zero, clamp to the type's range (N12, T5).
uint64_t fp32_to_int(uint32_t f, IntFormat fmt) {
  if (f32_is_nan(f)) return 0;
  const bool negative = (f & kF32Sign) != 0;
  const auto exp_field = static_cast<int>((f >> 23) & 0xFF);
  // Truncated magnitude, or `huge` when it is 2^64 or more (Inf included).
  bool huge = false;
  uint64_t magnitude = 0;
  const int e = exp_field - 127;
  if (exp_field == 0xFF || e >= 64) {
    huge = true;
  } else if (e >= 0) {
    const uint64_t sig = (f & kF32Frac) | 0x800000U;
    magnitude = e >= 23 ? sig << (e - 23) : sig >> (23 - e);
  }
  if (fmt.is_signed) {
    const uint64_t max_pos = (uint64_t{1} << (fmt.bits - 1)) - 1;
    const uint64_t max_neg = uint64_t{1} << (fmt.bits - 1);
    if (negative) return (huge || magnitude >= max_neg) ? max_neg & fmt.mask() : (0 - magnitude) & fmt.mask();
    return (huge || magnitude > max_pos) ? max_pos : magnitude;
  }
  if (negative) return 0;
  return (huge || magnitude > fmt.mask()) ? fmt.mask() : magnitude;
}

// ---- fp32 ALU helpers ----

uint32_t bits_of(float x) {
  return std::bit_cast<uint32_t>(x);
}
float float_of(uint32_t b) {
  return std::bit_cast<float>(b);
}
bool is_nan(float x) {
  return f32_is_nan(bits_of(x));
}
float quiet_nan() {
  return float_of(kF32QuietNan);
}
float quieten(float x) {
  return is_nan(x) ? float_of(bits_of(x) | kF32Quiet) : x;
}
float fabs_bits(float x) {
  return float_of(bits_of(x) & ~kF32Sign);
}
float truth(bool v) {
  return v ? 1.0F : 0.0F;
}
bool nonzero(float x) {
  return !(x == 0.0F);
}  // NaN is non-zero (T12)

/// IEEE maxNum / minNum (T12): a NaN loses to a number; two NaNs give a quiet NaN; ±0 either way (N17).
float max_num(float a, float b) {
  if (is_nan(a)) return is_nan(b) ? quieten(a) : b;
  if (is_nan(b)) return a;
  return a < b ? b : a;
}
float min_num(float a, float b) {
  if (is_nan(a)) return is_nan(b) ? quieten(a) : b;
  if (is_nan(b)) return a;
  return b < a ? b : a;
}

/// Division with the IEEE results spelled out for a zero divisor, so no sanitizer setting can object.
float divide(float a, float b) {
  if (b == 0.0F && !is_nan(a)) {
    if (a == 0.0F) return quiet_nan();
    return float_of(((bits_of(a) ^ bits_of(b)) & kF32Sign) | kF32Inf);
  }
  return a / b;
}

/// 1/sqrt(a) through double (PROJ-CONV-E2: reference accuracy, tests flag it approximate).
float rsqrt(float a) {
  if (is_nan(a)) return quieten(a);
  if (a == 0.0F) return float_of((bits_of(a) & kF32Sign) | kF32Inf);  // rSqrt(±0) = ±Inf
  if (a < 0.0F) return quiet_nan();
  return float_of(fp32_from_double(1.0 / std::sqrt(static_cast<double>(a))));
}

/// a^b with C pow semantics through double (PROJ-CONV-E2).
float power(float a, float b) {
  return float_of(fp32_from_double(std::pow(static_cast<double>(a), static_cast<double>(b))));
}

// ---- int32 ALU helpers ----

constexpr uint32_t kIntSignBit = 0x80000000U;
/// Signed order on two's-complement words without converting out-of-range values: flip the sign bit.
constexpr bool less(uint32_t a, uint32_t b, bool is_signed) {
  return is_signed ? (a ^ kIntSignBit) < (b ^ kIntSignBit) : a < b;
}
constexpr uint32_t word_max(uint32_t a, uint32_t b, bool s) {
  return less(a, b, s) ? b : a;
}
constexpr uint32_t word_min(uint32_t a, uint32_t b, bool s) {
  return less(b, a, s) ? b : a;
}
/// |a| modulo 2^32: the magnitude as an unsigned word, so |INT_MIN| = 0x80000000 ("wraps to itself").
constexpr uint32_t word_abs(uint32_t a, bool s) {
  return (s && (a & kIntSignBit) != 0) ? 0U - a : a;
}
/// |a - b| exactly, modulo 2^32 (larger minus smaller in the operands' order).
constexpr uint32_t word_abs_diff(uint32_t a, uint32_t b, bool s) {
  return less(a, b, s) ? b - a : a - b;
}
constexpr uint32_t word_truth(bool v) {
  return v ? 1U : 0U;
}

/// Integer division and remainder with the PROJ-CONV-E1 rule for a zero divisor (quotient all ones, remainder =
/// dividend) and INT_MIN / -1 wrapping (computed in 64 bits, where it is defined, then truncated).
constexpr int64_t as_signed(uint32_t a) {
  return (a & kIntSignBit) != 0 ? static_cast<int64_t>(a) - (int64_t{1} << 32) : a;
}
constexpr uint32_t word_div(uint32_t a, uint32_t b, bool s) {
  if (b == 0) return 0xFFFFFFFFU;
  if (!s) return a / b;
  return static_cast<uint32_t>(static_cast<uint64_t>(as_signed(a) / as_signed(b)) & 0xFFFFFFFFU);
}
constexpr uint32_t word_mod(uint32_t a, uint32_t b, bool s) {
  if (b == 0) return a;
  if (!s) return a % b;
  return static_cast<uint32_t>(static_cast<uint64_t>(as_signed(a) % as_signed(b)) & 0xFFFFFFFFU);  // sign of a
}

/// PROJ-CONV-T8, the exact definition: crc = b; for each of the 4 bytes of a, least significant first:
/// crc ^= byte, then 8 times crc = (crc >> 1) ^ (crc & 1 ? 0xEDB88320 : 0). No pre- or post-inversion: `b` is the
/// raw running register, so a zlib CRC-32 of a message is ~fold(~0, words) over its little-endian words.
constexpr uint32_t crc32_step(uint32_t a, uint32_t b) {
  uint32_t crc = b;
  for (int byte = 0; byte < 4; ++byte) {
    crc ^= (a >> (8 * byte)) & 0xFFU;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1U) != 0 ? 0xEDB88320U : 0U);
  }
  return crc;
}

/// Signedness of an ALU op: integer-band ops in only the signed (or only the unsigned) class are fixed by their
/// name; ops in both classes, and the base band, follow the operand dtype (enums.md §5.1, §5.3).
bool op_signedness(uint8_t op, bool is_signed) {
  const AluOpInfo* row = find_aluop(op);
  if (row == nullptr) return is_signed;
  const bool s = row->is(kAluSigned), u = row->is(kAluUnsigned);
  if (s != u) return s;
  return is_signed;
}

}  // namespace

bool convertible(uint8_t dtype) {
  IntFormat unused{};
  if (int_format(dtype, unused)) return true;
  switch (dtype) {
    case dtype::kFp32:
    case dtype::kFp32r:
    case dtype::kBfloat16:
    case dtype::kFp16:
    case dtype::kFp8Exp3:
    case dtype::kFp8Exp4:
    case dtype::kFp8Exp5: return true;
    default: return false;
  }
}

uint32_t to_fp32_bits(uint64_t raw, uint8_t dtype) {
  IntFormat ifmt{};
  if (int_format(dtype, ifmt)) return int_to_fp32(raw, ifmt);
  const auto low32 = static_cast<uint32_t>(raw);
  switch (dtype) {
    case dtype::kFp32:
    case dtype::kFp32r: return low32;  // identity: every NaN bit kept (N17)
    case dtype::kBfloat16: {
      const uint32_t f = (low32 & 0xFFFFU) << 16;
      return f32_is_nan(f) ? f | kF32Quiet : f;
    }
    case dtype::kFp16: return widen(low32 & 0xFFFFU, kFp16Format);
    case dtype::kFp8Exp3: return widen(low32 & 0xFFU, kE3m4Format);
    case dtype::kFp8Exp4: return widen(low32 & 0xFFU, kE4m3Format);
    case dtype::kFp8Exp5: return widen(low32 & 0xFFU, kE5m2Format);
    default: return kF32QuietNan;  // not convertible(): callers check first; a NaN makes misuse visible
  }
}

uint64_t from_fp32_bits(uint32_t f, uint8_t dtype, const ConvertOptions& options) {
  IntFormat ifmt{};
  if (int_format(dtype, ifmt)) return fp32_to_int(f, ifmt);
  // sns and fp8_range_extension are recorded only (N11 defaults off); their effect is not specified.
  switch (dtype) {
    case dtype::kFp32: return f;
    case dtype::kFp32r: return f;  // PROJ-CONV-T6: fp32 bits unchanged (hook for the "FP22" rounding)
    case dtype::kBfloat16: return narrow_bf16(f, options.sis);
    case dtype::kFp16: return narrow(f, kFp16Format, options.sis ? kFp16Format.max_finite : kFp16Format.inf());
    case dtype::kFp8Exp3: return narrow(f, kE3m4Format, fp8_overflow_code(kE3m4Format, options.ocp_sat));
    case dtype::kFp8Exp4: return narrow(f, kE4m3Format, fp8_overflow_code(kE4m3Format, options.ocp_sat));
    case dtype::kFp8Exp5: return narrow(f, kE5m2Format, fp8_overflow_code(kE5m2Format, options.ocp_sat));
    default: return 0;  // not convertible(): callers check first
  }
}

float alu_fp32(uint8_t op, float a, float b) {
  switch (op) {
    case aluop::kBypass: return a;  // a copy: every bit kept, like the other bit-copy paths (N17)
    case aluop::kAdd: return quieten(a + b);
    case aluop::kSubtract: return quieten(a - b);
    case aluop::kMult: return quieten(a * b);
    case aluop::kDivide: return quieten(divide(a, b));
    case aluop::kMax: return max_num(a, b);
    case aluop::kMin: return min_num(a, b);
    case aluop::kLogicalAnd: return truth(nonzero(a) && nonzero(b));
    case aluop::kLogicalOr: return truth(nonzero(a) || nonzero(b));
    case aluop::kLogicalXor: return truth(nonzero(a) != nonzero(b));
    case aluop::kIsEq: return truth(a == b);
    case aluop::kIsGt: return truth(a > b);
    case aluop::kIsGe: return truth(a >= b);
    case aluop::kIsLe: return truth(a <= b);
    case aluop::kIsLt: return truth(a < b);
    case aluop::kIsNe: return truth(!(a == b));  // true when either is NaN (T12)
    case aluop::kAbsoluteDiff: return quieten(fabs_bits(a - b));
    case aluop::kAbsoluteValue: return quieten(fabs_bits(a));
    case aluop::kPow: return power(a, b);
    case aluop::kRsqrt: return rsqrt(a);
    case aluop::kAbsMax: return max_num(fabs_bits(a), fabs_bits(b));
    case aluop::kAbsMin: return min_num(fabs_bits(a), fabs_bits(b));
    // max(a, 0) under maxNum (T12): ReLU(NaN) = +0; ReLU(-0) = +0 (either zero is allowed, N17).
    case aluop::kReLu: return a > 0.0F ? a : 0.0F;
    case aluop::kSquare: return quieten(a * a);
    case aluop::kSymmetricClamp: {
      // sign(a) is a's sign bit (so ±0 give ±|b|); the magnitude follows ABS_MAX.
      const float magnitude = max_num(fabs_bits(a), fabs_bits(b));
      return float_of((bits_of(a) & kF32Sign) | bits_of(magnitude));
    }
    default: return quiet_nan();  // no fp32 meaning (bit-vector ops, MOD, CRC32, the integer band, gaps)
  }
}

uint32_t alu_int32(uint8_t op, uint32_t a, uint32_t b, bool is_signed) {
  const bool s = op_signedness(op, is_signed);
  const uint32_t count = b & 31U;  // PROJ-CONV-T7
  switch (op) {
    case aluop::kBypass: return a;
    case aluop::kBitwiseNot: return ~a;
    case aluop::kArithShiftLeft:
    case aluop::kLogicalShiftLeft: return a << count;
    case aluop::kArithShiftRight:
      // PROJ-CONV-T15: sign-filling only for a signed operand dtype; spelled out to avoid shifting a negative int.
      return (s && (a & kIntSignBit) != 0) ? ~(~a >> count) : a >> count;
    case aluop::kLogicalShiftRight: return a >> count;
    case aluop::kBitwiseAnd: return a & b;
    case aluop::kBitwiseOr: return a | b;
    case aluop::kBitwiseXor: return a ^ b;
    case aluop::kCrc32: return crc32_step(a, b);
    case aluop::kAdd:
    case kAddInt: return a + b;
    case aluop::kSubtract:
    case kSubtractInt: return a - b;
    case aluop::kMult:
    case kMultInt:
    case kMultUint: return a * b;  // low 32 bits: identical for either signedness
    case aluop::kSquare: return a * a;
    case aluop::kMax:
    case kMaxInt:
    case kMaxUint: return word_max(a, b, s);
    case aluop::kMin:
    case kMinInt:
    case kMinUint: return word_min(a, b, s);
    case aluop::kLogicalAnd: return word_truth(a != 0 && b != 0);
    case aluop::kLogicalOr: return word_truth(a != 0 || b != 0);
    case aluop::kLogicalXor: return word_truth((a != 0) != (b != 0));
    case aluop::kIsEq:
    case kIsEqualInt: return word_truth(a == b);
    case aluop::kIsNe:
    case kIsNeInt: return word_truth(a != b);
    case aluop::kIsGt:
    case kIsGtInt:
    case kIsGtUint: return word_truth(less(b, a, s));
    case aluop::kIsGe:
    case kIsGeInt:
    case kIsGeUint: return word_truth(!less(a, b, s));
    case aluop::kIsLe:
    case kIsLeInt:
    case kIsLeUint: return word_truth(!less(b, a, s));
    case aluop::kIsLt:
    case kIsLtInt:
    case kIsLtUint: return word_truth(less(a, b, s));
    case aluop::kAbsoluteDiff:
    case kAbsDiffInt: return word_abs_diff(a, b, s);
    case aluop::kAbsoluteValue: return word_abs(a, s);
    case kAbsValueInt: return word_abs(a, true);  // "signed |a|" though in neither signedness class
    case aluop::kAbsMax:
    case kAbsMaxInt: return word_max(word_abs(a, s), word_abs(b, s), false);  // magnitudes compare unsigned
    case aluop::kAbsMin:
    case kAbsMinInt: return word_min(word_abs(a, s), word_abs(b, s), false);
    case aluop::kReLu: return (s && (a & kIntSignBit) != 0) ? 0U : a;
    case aluop::kSymmetricClamp: {
      // Same reading as the fp32 path: the sign of a applied to max(|a|, |b|); unsigned words have no sign.
      const uint32_t magnitude = word_max(word_abs(a, s), word_abs(b, s), false);
      return (s && (a & kIntSignBit) != 0) ? 0U - magnitude : magnitude;
    }
    case kDivideInt:
    case kDivideUint: return word_div(a, b, s);
    case aluop::kMod:
    case kModInt:
    case kModUint: return word_mod(a, b, s);
    // No int32 meaning (float-only DIVIDE/POW/RSQRT, the arg-max/min reductions, gaps): 0, a fixed harmless value.
    default: return 0;
  }
}

}  // namespace tpbisa
