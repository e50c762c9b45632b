// FP16/BF16 <-> FP32 rows by integer bit manipulation per SIMD target, so every pattern converts as the scalar
// module does (the host's F16C instructions are not used: their NaN and rounding details are not the module's).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/convert.cpp"
#include "kernels/hwy_targets.hpp"
// clang-format off: foreach_target must come before highway.h
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
// clang-format on

#include "kernels/convert.hpp"

HWY_BEFORE_NAMESPACE();
namespace tpbisa::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// a > c on u32 lanes, both below 2^31 (every caller's magnitude is): a signed compare, which all targets have.
template <class DU>
HWY_INLINE hn::Mask<DU> above(DU du, hn::Vec<DU> a, uint32_t c) {
  const hn::RebindToSigned<DU> di;
  return hn::RebindMask(du, hn::Gt(hn::BitCast(di, a), hn::Set(di, static_cast<int32_t>(c))));
}

// One vector of FP16 patterns (widened to u32 lanes) -> fp32 bits.
template <class DU>
HWY_INLINE hn::Vec<DU> fp16_bits_to_fp32(DU du, hn::Vec<DU> h) {
  const hn::Rebind<float, DU> df;
  const hn::Rebind<int32_t, DU> di;
  const auto sign = hn::ShiftLeft<16>(hn::And(h, hn::Set(du, 0x8000U)));
  const auto mag = hn::And(h, hn::Set(du, 0x7FFFU));
  // Normal: rebias the exponent (15 -> 127) and move the fields up 13 bits.
  const auto normal = hn::Add(hn::ShiftLeft<13>(mag), hn::Set(du, 112U << 23));
  // Exponent 31: Inf, or a NaN with its payload and the quiet bit set.
  const auto special = hn::Or(hn::Set(du, 0x7F800000U), hn::ShiftLeft<13>(hn::And(mag, hn::Set(du, 0x3FFU))));
  const auto quiet = hn::IfThenElse(above(du, mag, 0x7C00U), hn::Set(du, 0x400000U), hn::Zero(du));
  // Subnormal and zero: mant * 2^-24, both steps exact.
  const auto sub = hn::BitCast(du, hn::Mul(hn::ConvertTo(df, hn::BitCast(di, mag)), hn::Set(df, 0x1.0p-24F)));
  auto r = hn::IfThenElse(above(du, mag, 0x03FFU), normal, sub);
  r = hn::IfThenElse(above(du, mag, 0x7BFFU), hn::Or(special, quiet), r);
  return hn::Or(r, sign);
}

// One vector of fp32 bits -> FP16 patterns in u32 lanes.
template <class DU>
HWY_INLINE hn::Vec<DU> fp32_bits_to_fp16(DU du, hn::Vec<DU> f, bool saturate) {
  const hn::Rebind<float, DU> df;
  const auto sign = hn::And(hn::ShiftRight<16>(f), hn::Set(du, 0x8000U));
  const auto a = hn::And(f, hn::Set(du, 0x7FFFFFFFU));
  // Normal results: rebias, then RNE on bit 13 by adding 0xFFF + lsb; a carry moves into the exponent.
  const auto lsb = hn::And(hn::ShiftRight<13>(a), hn::Set(du, 1U));
  const auto normal =
      hn::ShiftRight<13>(hn::Add(hn::Sub(a, hn::Set(du, 112U << 23)), hn::Add(lsb, hn::Set(du, 0xFFFU))));
  // Subnormal results (|f| < 2^-14): adding 0.5 rounds |f| to a multiple of 2^-24 (RNE, the default mode); the
  // low bits then count those quanta, 0x400 being the smallest normal.
  const auto sub = hn::Sub(hn::BitCast(du, hn::Add(hn::BitCast(df, a), hn::Set(df, 0.5F))), hn::Set(du, 0x3F000000U));
  auto r = hn::IfThenElse(above(du, a, 0x387FFFFFU), normal, sub);
  // From 65520 (the tie above max finite, which rounds up) and Inf: overflow; above Inf: NaN.
  r = hn::IfThenElse(above(du, a, 0x477FEFFFU), hn::Set(du, saturate ? 0x7BFFU : 0x7C00U), r);
  r = hn::IfThenElse(above(du, a, 0x7F800000U), hn::Set(du, 0x7E00U), r);
  return hn::Or(r, sign);
}

// One vector of fp32 bits -> BF16 patterns in u32 lanes.
template <class DU>
HWY_INLINE hn::Vec<DU> fp32_bits_to_bf16(DU du, hn::Vec<DU> f, bool saturate) {
  const auto sign = hn::And(hn::ShiftRight<16>(f), hn::Set(du, 0x8000U));
  const auto a = hn::And(f, hn::Set(du, 0x7FFFFFFFU));
  const auto lsb = hn::And(hn::ShiftRight<16>(a), hn::Set(du, 1U));
  auto r = hn::ShiftRight<16>(hn::Add(a, hn::Add(lsb, hn::Set(du, 0x7FFFU))));
  r = hn::IfThenElse(above(du, a, 0x7F7F7FFFU), hn::Set(du, saturate ? 0x7F7FU : 0x7F80U), r);
  r = hn::IfThenElse(above(du, a, 0x7F800000U), hn::Set(du, 0x7FC0U), r);
  return hn::Or(r, sign);
}

// The row loops: full vectors, then single lanes (a one-lane vector type reads and writes nothing out of range).
template <class D>
HWY_INLINE size_t widen_rows(D du, const uint16_t* in, float* out, size_t i, size_t n, bool bf16) {
  const hn::Rebind<uint16_t, D> d16;
  const hn::Rebind<float, D> df;
  const size_t lanes = hn::Lanes(du);
  for (; i + lanes <= n; i += lanes) {
    const auto h = hn::PromoteTo(du, hn::LoadU(d16, in + i));
    hn::Vec<D> f;
    if (bf16) {
      const auto bits = hn::ShiftLeft<16>(h);
      const auto nan = above(du, hn::And(bits, hn::Set(du, 0x7FFFFFFFU)), 0x7F800000U);
      f = hn::IfThenElse(nan, hn::Or(bits, hn::Set(du, 0x400000U)), bits);
    } else {
      f = fp16_bits_to_fp32(du, h);
    }
    hn::StoreU(hn::BitCast(df, f), df, out + i);
  }
  return i;
}

template <class D>
HWY_INLINE size_t narrow_rows(D du, const float* in, uint16_t* out, size_t i, size_t n, bool bf16, bool saturate) {
  const hn::Rebind<uint16_t, D> d16;
  const hn::Rebind<int32_t, D> di;
  const hn::Rebind<float, D> df;
  const size_t lanes = hn::Lanes(du);
  for (; i + lanes <= n; i += lanes) {
    const auto f = hn::BitCast(du, hn::LoadU(df, in + i));
    const auto r = bf16 ? fp32_bits_to_bf16(du, f, saturate) : fp32_bits_to_fp16(du, f, saturate);
    hn::StoreU(hn::DemoteTo(d16, hn::BitCast(di, r)), d16, out + i);  // r <= 0xFFFF: the saturation never acts
  }
  return i;
}

void widen(const uint16_t* in, float* out, size_t n, bool bf16) {
  const size_t i = widen_rows(hn::ScalableTag<uint32_t>(), in, out, 0, n, bf16);
  widen_rows(hn::CappedTag<uint32_t, 1>(), in, out, i, n, bf16);
}

void narrow(const float* in, uint16_t* out, size_t n, bool bf16, bool saturate) {
  const size_t i = narrow_rows(hn::ScalableTag<uint32_t>(), in, out, 0, n, bf16, saturate);
  narrow_rows(hn::CappedTag<uint32_t, 1>(), in, out, i, n, bf16, saturate);
}

}  // namespace HWY_NAMESPACE
}  // namespace tpbisa::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tpbisa::kernels {

HWY_EXPORT(widen);
HWY_EXPORT(narrow);

void fp16_to_fp32(const uint16_t* in, float* out, size_t n) {
  HWY_DYNAMIC_DISPATCH(widen)(in, out, n, false);
}
void bf16_to_fp32(const uint16_t* in, float* out, size_t n) {
  HWY_DYNAMIC_DISPATCH(widen)(in, out, n, true);
}
void fp32_to_fp16(const float* in, uint16_t* out, size_t n, bool saturate) {
  HWY_DYNAMIC_DISPATCH(narrow)(in, out, n, false, saturate);
}
void fp32_to_bf16(const float* in, uint16_t* out, size_t n, bool saturate) {
  HWY_DYNAMIC_DISPATCH(narrow)(in, out, n, true, saturate);
}

}  // namespace tpbisa::kernels
#endif  // HWY_ONCE
