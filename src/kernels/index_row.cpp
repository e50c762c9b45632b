// Ramps, ramp selects, searches and channel-lane statistics of the index family rows, per SIMD target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/index_row.cpp"
#include "kernels/hwy_targets.hpp"
// clang-format off: foreach_target must come before highway.h
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
// clang-format on

#include <algorithm>
#include <cstring>
#include <limits>

#include "kernels/index_row.hpp"

HWY_BEFORE_NAMESPACE();
namespace tpbisa::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The most fp32 lanes a vector of this target holds (the stack arrays' size).
constexpr size_t kMaxLanes = HWY_LANES(float);

// The ramp's full vectors from i, then (with a one-lane tag) the rest; returns where it stopped.
template <class DU>
HWY_INLINE size_t ramp_lanes(DU du, uint32_t* out, size_t i, size_t n, uint32_t start, uint32_t step, bool as_fp32) {
  const hn::RebindToSigned<DU> di;
  const hn::Rebind<float, DU> df;
  const size_t lanes = hn::Lanes(du);
  auto v = hn::Add(hn::Set(du, start + static_cast<uint32_t>(i) * step), hn::Mul(hn::Iota(du, 0), hn::Set(du, step)));
  const auto stride = hn::Set(du, static_cast<uint32_t>(lanes) * step);
  for (; i + lanes <= n; i += lanes, v = hn::Add(v, stride)) {
    if (as_fp32)
      hn::StoreU(hn::BitCast(du, hn::ConvertTo(df, hn::BitCast(di, v))), du, out + i);
    else
      hn::StoreU(v, du, out + i);
  }
  return i;
}

void ramp_row(uint32_t* out, size_t n, uint32_t start, uint32_t step, bool as_fp32) {
  const size_t i = ramp_lanes(hn::ScalableTag<uint32_t>(), out, 0, n, start, step, as_fp32);
  ramp_lanes(hn::CappedTag<uint32_t, 1>(), out, i, n, start, step, as_fp32);
}

template <RampKeep Keep, class DI>
HWY_INLINE hn::Mask<DI> keeps(DI di, hn::Vec<DI> m) {
  const auto zero = hn::Zero(di);
  if constexpr (Keep == RampKeep::Gt) {
    return hn::Gt(m, zero);
  } else if constexpr (Keep == RampKeep::Ge) {
    return hn::Not(hn::Lt(m, zero));
  } else if constexpr (Keep == RampKeep::Eq) {
    return hn::Eq(m, zero);
  } else {
    return hn::Not(hn::Eq(m, zero));
  }
}

template <RampKeep Keep, class DU>
HWY_INLINE size_t select_lanes(DU du, const uint32_t* in, uint32_t* out, size_t i, size_t n, uint32_t start,
                               uint32_t step, uint32_t fill) {
  const hn::RebindToSigned<DU> di;
  const size_t lanes = hn::Lanes(du);
  auto v = hn::Add(hn::Set(du, start + static_cast<uint32_t>(i) * step), hn::Mul(hn::Iota(du, 0), hn::Set(du, step)));
  const auto stride = hn::Set(du, static_cast<uint32_t>(lanes) * step);
  const auto fills = hn::Set(du, fill);
  for (; i + lanes <= n; i += lanes, v = hn::Add(v, stride)) {
    const auto k = hn::RebindMask(du, keeps<Keep>(di, hn::BitCast(di, v)));
    hn::StoreU(hn::IfThenElse(k, hn::LoadU(du, in + i), fills), du, out + i);
  }
  return i;
}

template <RampKeep Keep>
void select_keep(const uint32_t* in, uint32_t* out, size_t n, uint32_t start, uint32_t step, uint32_t fill) {
  const size_t i = select_lanes<Keep>(hn::ScalableTag<uint32_t>(), in, out, 0, n, start, step, fill);
  select_lanes<Keep>(hn::CappedTag<uint32_t, 1>(), in, out, i, n, start, step, fill);
}

void select_row(const uint32_t* in, uint32_t* out, size_t n, uint32_t start, uint32_t step, RampKeep keep,
                uint32_t fill) {
  switch (keep) {
    case RampKeep::Gt: select_keep<RampKeep::Gt>(in, out, n, start, step, fill); break;
    case RampKeep::Ge: select_keep<RampKeep::Ge>(in, out, n, start, step, fill); break;
    case RampKeep::Eq: select_keep<RampKeep::Eq>(in, out, n, start, step, fill); break;
    case RampKeep::Ne: select_keep<RampKeep::Ne>(in, out, n, start, step, fill); break;
  }
}

size_t above(const float* x, size_t n, float threshold) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  const auto t = hn::Set(df, threshold);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto m = hn::Gt(hn::LoadU(df, x + i), t);
    if (!hn::AllFalse(df, m)) return i + static_cast<size_t>(hn::FindFirstTrue(df, m));
  }
  for (; i < n; ++i)
    if (x[i] > threshold) return i;
  return n;
}

size_t equal_any(const float* x, size_t n, const float* keys) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  const auto k0 = hn::Set(df, keys[0]), k1 = hn::Set(df, keys[1]), k2 = hn::Set(df, keys[2]), k3 = hn::Set(df, keys[3]),
             k4 = hn::Set(df, keys[4]), k5 = hn::Set(df, keys[5]), k6 = hn::Set(df, keys[6]), k7 = hn::Set(df, keys[7]);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto v = hn::LoadU(df, x + i);
    const auto m = hn::Or(hn::Or(hn::Or(hn::Eq(v, k0), hn::Eq(v, k1)), hn::Or(hn::Eq(v, k2), hn::Eq(v, k3))),
                          hn::Or(hn::Or(hn::Eq(v, k4), hn::Eq(v, k5)), hn::Or(hn::Eq(v, k6), hn::Eq(v, k7))));
    if (!hn::AllFalse(df, m)) return i + static_cast<size_t>(hn::FindFirstTrue(df, m));
  }
  for (; i < n; ++i)
    if (std::any_of(keys, keys + 8, [v = x[i]](float k) { return v == k; })) return i;
  return n;
}

bool max_exact(const float* x, size_t n, float& out) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  auto mx = hn::Set(df, -std::numeric_limits<float>::infinity());
  auto nan = hn::Lt(mx, mx);  // all false
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto v = hn::LoadU(df, x + i);
    mx = hn::IfThenElse(hn::Lt(mx, v), v, mx);
    nan = hn::Or(nan, hn::Ne(v, v));
  }
  if (!hn::AllFalse(df, nan)) return false;
  HWY_ALIGN float lane[kMaxLanes];
  hn::Store(mx, df, lane);
  float m = lane[0];
  for (size_t j = 1; j < lanes; ++j) m = m < lane[j] ? lane[j] : m;
  for (; i < n; ++i) {
    if (x[i] != x[i]) return false;
    m = m < x[i] ? x[i] : m;
  }
  if (m == 0.0F) return false;
  out = m;
  return true;
}

// ---- Channel-lane statistics: lane j of a vector is row j of a group, gathered from the group's first row ----

// The gather offsets (in floats) of up to Lanes rows from rows[0], the missing lanes repeating the last row; false
// when one is not a whole number of floats or does not fit an int32 index (the group is then computed one row at a
// time).
template <class DF>
HWY_INLINE bool group_offsets(DF df, const float* const* rows, size_t count, int32_t* idx) {
  const auto base = reinterpret_cast<uintptr_t>(rows[0]);
  for (size_t j = 0; j < hn::Lanes(df); ++j) {
    const auto at = reinterpret_cast<uintptr_t>(rows[std::min(j, count - 1)]);
    const auto diff = static_cast<int64_t>(at - base);  // two's complement difference
    if (diff % 4 != 0 || diff / 4 > std::numeric_limits<int32_t>::max() ||
        diff / 4 < std::numeric_limits<int32_t>::min())
      return false;
    idx[j] = static_cast<int32_t>(diff / 4);
  }
  return true;
}

template <class DF>
struct Gatherer {
  DF df;
  const float* base;
  hn::Vec<hn::RebindToSigned<DF>> idx;
  HWY_INLINE hn::Vec<DF> operator()(size_t k) const { return hn::GatherIndex(df, base + k, idx); }
};

// The lanes' moments of one group (group_offsets held): see fp32_moments_rows.
template <class DF>
HWY_INLINE void moments_group(const Gatherer<DF>& g, size_t n, unsigned halves, float* mean, float* nvar) {
  const DF df = g.df;
  using V = hn::Vec<DF>;
  if (halves == 1) {
    V s = hn::Zero(df);
    for (size_t k = 0; k < n; ++k) s = hn::Add(s, g(k));
    const V m = n == 0 ? hn::Zero(df) : hn::Mul(s, hn::Set(df, 1.0F / static_cast<float>(n)));
    V v = hn::Zero(df);
    for (size_t k = 0; k < n; ++k) {
      const V d = hn::Sub(g(k), m);
      const V sq = hn::Mul(d, d);
      v = hn::Add(v, sq);
    }
    hn::Store(m, df, mean);
    hn::Store(v, df, nvar);
    return;
  }
  const size_t c0 = (n + 1) / 2, c1 = n / 2;
  V s0 = hn::Zero(df), s1 = hn::Zero(df);
  size_t k = 0;
  for (; k + 1 < n; k += 2) {
    s0 = hn::Add(s0, g(k));
    s1 = hn::Add(s1, g(k + 1));
  }
  if (k < n) s0 = hn::Add(s0, g(k));
  const V m0 = c0 == 0 ? hn::Zero(df) : hn::Mul(s0, hn::Set(df, 1.0F / static_cast<float>(c0)));
  const V m1 = c1 == 0 ? hn::Zero(df) : hn::Mul(s1, hn::Set(df, 1.0F / static_cast<float>(c1)));
  V v0 = hn::Zero(df), v1 = hn::Zero(df);
  for (k = 0; k + 1 < n; k += 2) {
    const V d0 = hn::Sub(g(k), m0), d1 = hn::Sub(g(k + 1), m1);
    const V sq0 = hn::Mul(d0, d0), sq1 = hn::Mul(d1, d1);
    v0 = hn::Add(v0, sq0);
    v1 = hn::Add(v1, sq1);
  }
  if (k < n) {
    const V d0 = hn::Sub(g(k), m0);
    const V sq0 = hn::Mul(d0, d0);
    v0 = hn::Add(v0, sq0);
  }
  hn::Store(m0, df, mean);
  hn::Store(v0, df, nvar);
  hn::Store(m1, df, mean + hn::Lanes(df));
  hn::Store(v1, df, nvar + hn::Lanes(df));
}

template <class DF>
HWY_INLINE void aggregate_group(const Gatherer<DF>& g, size_t tuples, float* mean, float* variance) {
  const DF df = g.df;
  using V = hn::Vec<DF>;
  V total = hn::Zero(df), weighted = hn::Zero(df);
  for (size_t t = 0; t < tuples; ++t) {
    const V nt = g(3 * t), mt = g(3 * t + 1);
    total = hn::Add(total, nt);
    const V p = hn::Mul(nt, mt);
    weighted = hn::Add(weighted, p);
  }
  const V m = hn::Div(weighted, total);
  V m2 = hn::Zero(df);
  for (size_t t = 0; t < tuples; ++t) {
    const V nt = g(3 * t), mt = g(3 * t + 1), vt = g(3 * t + 2);
    const V d = hn::Sub(mt, m);
    const V d2 = hn::Mul(d, d);
    const V spread = hn::Mul(nt, d2);
    const V term = hn::Add(vt, spread);
    m2 = hn::Add(m2, term);
  }
  hn::Store(m, df, mean);
  hn::Store(hn::Div(m2, total), df, variance);
}

// Every group of Lanes rows through `body(gatherer, group's first row, rows in the group)`; a group whose offsets do
// not fit is taken one row at a time (every lane that row).
template <class Body>
HWY_INLINE void for_groups(const float* const* rows, size_t row_count, const Body& body) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const size_t lanes = hn::Lanes(df);
  HWY_ALIGN int32_t idx[kMaxLanes] = {};
  for (size_t r = 0; r < row_count; r += lanes) {
    const size_t count = std::min(lanes, row_count - r);
    if (group_offsets(df, rows + r, count, idx)) {
      body(Gatherer<decltype(df)>{df, rows[r], hn::Load(di, idx)}, r, count);
      continue;
    }
    for (size_t j = 0; j < count; ++j) body(Gatherer<decltype(df)>{df, rows[r + j], hn::Zero(di)}, r + j, 1);
  }
}

void moments_rows(const float* const* rows, size_t row_count, size_t n, unsigned halves, float* mean, float* nvar) {
  HWY_ALIGN float m[2 * (kMaxLanes)];
  HWY_ALIGN float v[2 * (kMaxLanes)];
  const size_t lanes = hn::Lanes(hn::ScalableTag<float>());
  for_groups(rows, row_count, [&](const auto& g, size_t first, size_t count) {
    moments_group(g, n, halves, m, v);
    for (size_t j = 0; j < count; ++j)
      for (unsigned h = 0; h < halves; ++h) {
        mean[(first + j) * halves + h] = m[h * lanes + j];
        nvar[(first + j) * halves + h] = v[h * lanes + j];
      }
  });
}

void aggregate_rows(const float* const* rows, size_t row_count, size_t tuples, float* mean, float* variance) {
  HWY_ALIGN float m[kMaxLanes];
  HWY_ALIGN float v[kMaxLanes];
  for_groups(rows, row_count, [&](const auto& g, size_t first, size_t count) {
    aggregate_group(g, tuples, m, v);
    std::copy(m, m + count, mean + first);
    std::copy(v, v + count, variance + first);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace tpbisa::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tpbisa::kernels {

HWY_EXPORT(ramp_row);
HWY_EXPORT(select_row);
HWY_EXPORT(above);
HWY_EXPORT(equal_any);
HWY_EXPORT(max_exact);
HWY_EXPORT(moments_rows);
HWY_EXPORT(aggregate_rows);

void int32_ramp(uint32_t* out, size_t n, uint32_t start, uint32_t step, bool as_fp32) {
  HWY_DYNAMIC_DISPATCH(ramp_row)(out, n, start, step, as_fp32);
}
void select_by_ramp(const uint32_t* in, uint32_t* out, size_t n, uint32_t start, uint32_t step, RampKeep keep,
                    uint32_t fill) {
  HWY_DYNAMIC_DISPATCH(select_row)(in, out, n, start, step, keep, fill);
}
size_t first_above(const float* x, size_t n, float threshold) {
  return HWY_DYNAMIC_DISPATCH(above)(x, n, threshold);
}
size_t first_equal_any(const float* x, size_t n, const float* keys) {
  return HWY_DYNAMIC_DISPATCH(equal_any)(x, n, keys);
}
bool fp32_max_exact(const float* x, size_t n, float& out) {
  return HWY_DYNAMIC_DISPATCH(max_exact)(x, n, out);
}
void fp32_moments_rows(const float* const* rows, size_t row_count, size_t n, unsigned halves, float* mean,
                       float* nvar) {
  HWY_DYNAMIC_DISPATCH(moments_rows)(rows, row_count, n, halves, mean, nvar);
}
void fp32_aggregate_rows(const float* const* rows, size_t row_count, size_t tuples, float* mean, float* variance) {
  HWY_DYNAMIC_DISPATCH(aggregate_rows)(rows, row_count, tuples, mean, variance);
}

}  // namespace tpbisa::kernels
#endif  // HWY_ONCE
