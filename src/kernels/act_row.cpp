// Activation-table rows per SIMD target: the lookup gathered per lane, the five BUCKET fields gathered, the cubic in
// binary32 and binary64 lanes in the reference's order (act_row.hpp).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/act_row.cpp"
#include "kernels/hwy_targets.hpp"
// clang-format off: foreach_target must come before highway.h
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
// clang-format on

#include "kernels/act_row.hpp"

HWY_BEFORE_NAMESPACE();
namespace tpbisa::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Binary64 lanes and binary32 lanes of the same count: a float vector is promoted whole and demoted back.
size_t eval_row(const ActRowTables& t, const uint32_t* in, uint32_t* out, size_t n) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const hn::Rebind<uint32_t, decltype(dd)> du;
  const hn::Rebind<int32_t, decltype(dd)> di;
  const size_t lanes = hn::Lanes(df);
  const auto abs_mask = hn::Set(du, 0x7FFFFFFFU);
  const auto fold = hn::Set(du, t.fold_negative ? 0x80000000U : 0U);
  const auto max_finite = hn::Set(di, 0x7F7FFFFF);
  const auto zero_i = hn::Zero(di);
  const auto mantissa = hn::Set(du, 0x7FFFFFU);
  const auto record_mask = hn::Set(du, kActLutRecordMask);
  const auto shift_mask = hn::Set(du, 31U);
  const auto point = hn::Set(df, t.point);
  const auto* lut = reinterpret_cast<const int32_t*>(t.lut);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto v = hn::LoadU(du, in + i);
    const auto mag = hn::And(v, abs_mask);
    const auto sel = t.symmetric ? hn::Or(mag, fold) : v;
    const auto entry = hn::GatherIndex(di, lut, hn::BitCast(di, hn::ShiftRight<23>(sel)));
    // Zero, Inf, NaN (a magnitude of 0 or above the largest finite) and the reference entries (bit 31).
    const auto mag_i = hn::BitCast(di, mag);
    const auto special = hn::Or(hn::Or(hn::Eq(mag_i, zero_i), hn::Gt(mag_i, max_finite)), hn::Lt(entry, zero_i));
    if (!hn::AllFalse(di, special)) break;
    const auto e = hn::BitCast(du, entry);
    const auto shift = hn::And(hn::ShiftRight<kActLutShiftAt>(e), shift_mask);
    const auto rec = hn::Add(hn::And(e, record_mask), hn::And(sel, mantissa) >> shift);
    const auto at = hn::BitCast(di, rec);
    const auto x0 = hn::GatherIndex(df, t.x0, at);
    const auto d0 = hn::GatherIndex(df, t.d0, at);
    const auto d1 = hn::GatherIndex(df, t.d1, at);
    const auto d2 = hn::GatherIndex(df, t.d2, at);
    const auto d3 = hn::GatherIndex(df, t.d3, at);
    // Step 6 (PROJ-CONV-A2): t and d0 + d1·t in binary32, the rest in binary64, one final rounding.
    const auto tf = hn::Sub(hn::BitCast(df, sel), x0);
    const auto a = hn::Add(hn::Mul(tf, d1), d0);
    const auto td = hn::PromoteTo(dd, tf);
    const auto t2 = hn::Mul(td, td);
    auto r = hn::Add(hn::PromoteTo(dd, a), hn::Mul(t2, hn::PromoteTo(dd, d2)));
    r = hn::Add(r, hn::Mul(hn::Mul(t2, td), hn::PromoteTo(dd, d3)));
    auto res = hn::DemoteTo(df, r);
    if (t.symmetric) {  // step 7 for the negative inputs
      const auto negative = hn::RebindMask(df, hn::Lt(hn::BitCast(di, v), zero_i));
      const auto back = hn::Add(t.invert ? hn::Neg(res) : res, point);
      res = hn::IfThenElse(negative, back, res);
    }
    hn::StoreU(hn::BitCast(du, res), du, out + i);
  }
  return i;
}

}  // namespace HWY_NAMESPACE
}  // namespace tpbisa::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tpbisa::kernels {

HWY_EXPORT(eval_row);

size_t act_eval_row(const ActRowTables& t, const uint32_t* in, uint32_t* out, size_t n) {
  return HWY_DYNAMIC_DISPATCH(eval_row)(t, in, out, n);
}

}  // namespace tpbisa::kernels
#endif  // HWY_ONCE
