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

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2

// x86 with AVX2: the eight slots in one register, an element entering by a compare, a permute and two blends (the
// slots are in descending order, so the slots it is above are the last ones: they move down one and it takes the
// first of them); each candidate of a vector tried in turn against the slots as they are then.
void max8_row(const float* x, size_t n, uint32_t* top) {
  __m256 slots = _mm256_loadu_ps(reinterpret_cast<const float*>(top));
  const __m256i down = _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6);
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  __m256 last = _mm256_permutevar8x32_ps(slots, _mm256_set1_epi32(7));
  const auto enter = [&](float e) {
    const __m256 ev = _mm256_set1_ps(e);
    const __m256 above = _mm256_cmp_ps(ev, slots, _CMP_GT_OQ);  // a suffix of the slots; not empty: e > last
    const auto at = static_cast<int>(__builtin_ctz(static_cast<unsigned>(_mm256_movemask_ps(above))));
    slots = _mm256_blendv_ps(slots, _mm256_permutevar8x32_ps(slots, down), above);
    slots = _mm256_blendv_ps(slots, ev, _mm256_castsi256_ps(_mm256_cmpeq_epi32(lane, _mm256_set1_epi32(at))));
    last = _mm256_permutevar8x32_ps(slots, _mm256_set1_epi32(7));
  };
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    auto candidates = static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(v, last, _CMP_GT_OQ)));
    for (; candidates != 0; candidates &= candidates - 1) {
      const float e = x[i + static_cast<size_t>(__builtin_ctz(candidates))];
      if (e > _mm256_cvtss_f32(last)) enter(e);
    }
  }
  for (; i < n; ++i)
    if (x[i] > _mm256_cvtss_f32(last)) enter(x[i]);
  _mm256_storeu_ps(reinterpret_cast<float*>(top), slots);
}

#else

void max8_row(const float* x, size_t n, uint32_t* top) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  float last = 0.0F;
  std::memcpy(&last, &top[7], 4);
  // Element i enters (in order); returns the new last slot.
  const auto enter = [&](size_t i) {
    float e = x[i];
    unsigned p = 0;
    for (;; ++p) {
      float t = 0.0F;
      std::memcpy(&t, &top[p], 4);
      if (e > t) break;
    }
    for (unsigned q = 7; q > p; --q) top[q] = top[q - 1];
    std::memcpy(&top[p], &e, 4);
    std::memcpy(&e, &top[7], 4);
    return e;
  };
  size_t i = 0;
  while (i + lanes <= n) {  // from the first element above the last slot, the search starts again after it
    const auto m = hn::Gt(hn::LoadU(df, x + i), hn::Set(df, last));
    if (hn::AllFalse(df, m)) {
      i += lanes;
      continue;
    }
    i += static_cast<size_t>(hn::FindFirstTrue(df, m));
    last = enter(i++);
  }
  for (; i < n; ++i)
    if (x[i] > last) last = enter(i);
}

#endif

size_t equal_any(const float* x, size_t n, const float* keys) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  const auto k0 = hn::Set(df, keys[0]), k1 = hn::Set(df, keys[1]), k2 = hn::Set(df, keys[2]), k3 = hn::Set(df, keys[3]),
             k4 = hn::Set(df, keys[4]), k5 = hn::Set(df, keys[5]), k6 = hn::Set(df, keys[6]), k7 = hn::Set(df, keys[7]);
  // A value outside [lo, hi] of the keys that are not NaNs equals none (two compares instead of eight; -0 and +0
  // are inside together).
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (unsigned k = 0; k < 8; ++k)
    if (keys[k] == keys[k]) {
      lo = std::min(lo, keys[k]);
      hi = std::max(hi, keys[k]);
    }
  if (lo > hi) return n;  // every key a NaN
  const auto vlo = hn::Set(df, lo), vhi = hn::Set(df, hi);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto v = hn::LoadU(df, x + i);
    if (hn::AllFalse(df, hn::And(hn::Ge(v, vlo), hn::Le(v, vhi)))) continue;
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
template <class G>
HWY_INLINE void moments_group(const G& g, size_t n, unsigned halves, float* mean, float* nvar) {
  const auto df = g.df;
  using V = hn::Vec<decltype(g.df)>;
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

template <class G>
HWY_INLINE void aggregate_group(const G& g, size_t tuples, float* mean, float* variance) {
  const auto df = g.df;
  using V = hn::Vec<decltype(g.df)>;
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

#if HWY_TARGET != HWY_SCALAR && HWY_MAX_BYTES >= 32
// The transposed path (256-bit vectors and wider): a group of kGroup rows is first written lane-major,
// t[e * kGroup + j] = element e of row j, with 8 x 8 register transposes; the passes then load one vector of rows per
// element instead of gathering it.
constexpr size_t kGroup = 16;
using D8 = hn::FixedTag<float, 8>;

// Elements [k, k + 8) of rows r[0..8) into t[(k + i) * kGroup + lane0 ...] (eight lanes each).
HWY_INLINE void transpose8(const float* const* r, size_t k, float* t) {
  const D8 d;
  const hn::Repartition<double, D8> dd;
  const auto lo64 = [&](hn::Vec<D8> a, hn::Vec<D8> b) {
    return hn::BitCast(d, hn::InterleaveLower(dd, hn::BitCast(dd, a), hn::BitCast(dd, b)));
  };
  const auto hi64 = [&](hn::Vec<D8> a, hn::Vec<D8> b) {
    return hn::BitCast(d, hn::InterleaveUpper(dd, hn::BitCast(dd, a), hn::BitCast(dd, b)));
  };
  const auto r0 = hn::LoadU(d, r[0] + k), r1 = hn::LoadU(d, r[1] + k), r2 = hn::LoadU(d, r[2] + k),
             r3 = hn::LoadU(d, r[3] + k), r4 = hn::LoadU(d, r[4] + k), r5 = hn::LoadU(d, r[5] + k),
             r6 = hn::LoadU(d, r[6] + k), r7 = hn::LoadU(d, r[7] + k);
  const auto t0 = hn::InterleaveLower(d, r0, r1), t1 = hn::InterleaveUpper(d, r0, r1);
  const auto t2 = hn::InterleaveLower(d, r2, r3), t3 = hn::InterleaveUpper(d, r2, r3);
  const auto t4 = hn::InterleaveLower(d, r4, r5), t5 = hn::InterleaveUpper(d, r4, r5);
  const auto t6 = hn::InterleaveLower(d, r6, r7), t7 = hn::InterleaveUpper(d, r6, r7);
  const auto u0 = lo64(t0, t2), u1 = hi64(t0, t2), u2 = lo64(t1, t3), u3 = hi64(t1, t3);
  const auto u4 = lo64(t4, t6), u5 = hi64(t4, t6), u6 = lo64(t5, t7), u7 = hi64(t5, t7);
  float* o = t + k * kGroup;
  hn::StoreU(hn::ConcatLowerLower(d, u4, u0), d, o);
  hn::StoreU(hn::ConcatLowerLower(d, u5, u1), d, o + kGroup);
  hn::StoreU(hn::ConcatLowerLower(d, u6, u2), d, o + 2 * kGroup);
  hn::StoreU(hn::ConcatLowerLower(d, u7, u3), d, o + 3 * kGroup);
  hn::StoreU(hn::ConcatUpperUpper(d, u4, u0), d, o + 4 * kGroup);
  hn::StoreU(hn::ConcatUpperUpper(d, u5, u1), d, o + 5 * kGroup);
  hn::StoreU(hn::ConcatUpperUpper(d, u6, u2), d, o + 6 * kGroup);
  hn::StoreU(hn::ConcatUpperUpper(d, u7, u3), d, o + 7 * kGroup);
}

// kGroup rows' elements [0, n) (r[j] element 0 of row j) lane-major into t: n * kGroup floats.
HWY_INLINE void lane_major_of(const float* const* r, size_t n, float* t) {
  size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    transpose8(r, k, t);
    transpose8(r + 8, k, t + 8);
  }
  for (; k < n; ++k)
    for (size_t j = 0; j < kGroup; ++j) t[k * kGroup + j] = r[j][k];
}

// The group's rows (the missing ones repeating the last) lane-major into t: n * kGroup floats.
HWY_INLINE void lane_major(const float* const* rows, size_t count, size_t n, float* t) {
  const float* r[kGroup];
  for (size_t j = 0; j < kGroup; ++j) r[j] = rows[std::min(j, count - 1)];
  lane_major_of(r, n, t);
}
// The same of the group's pieces (rows from `first`, as RowPieces places them), segment by segment.
HWY_INLINE void lane_major_pieces(const RowPieces& p, size_t first, size_t count, float* t) {
  const float* r[kGroup];
  for (size_t s = 0; s < p.segments; ++s) {
    for (size_t j = 0; j < kGroup; ++j) r[j] = p.pieces[s * p.row_count + first + std::min(j, count - 1)];
    lane_major_of(r, p.bounds[s + 1] - p.bounds[s], t + p.bounds[s] * kGroup);
  }
}
// A lane-major group read as the gather path reads rows: element k of the lanes [o, o + Lanes).
struct LaneMajor {
  hn::ScalableTag<float> df;
  const float* t;
  HWY_INLINE hn::Vec<hn::ScalableTag<float>> operator()(size_t k) const { return hn::LoadU(df, t + k * kGroup); }
};

template <class Body>
HWY_INLINE void for_lane_major(const float* const* rows, size_t row_count, size_t n, float* scratch, const Body& body) {
  const size_t lanes = hn::Lanes(hn::ScalableTag<float>());
  for (size_t r = 0; r < row_count; r += kGroup) {
    const size_t count = std::min(kGroup, row_count - r);
    lane_major(rows + r, count, n, scratch);
    for (size_t o = 0; o < count; o += lanes)
      body(LaneMajor{hn::ScalableTag<float>(), scratch + o}, r + o, std::min(lanes, count - o));
  }
}
#endif

void moments_rows(const float* const* rows, size_t row_count, size_t n, unsigned halves, float* mean, float* nvar,
                  [[maybe_unused]] float* scratch) {
  HWY_ALIGN float m[2 * kMaxLanes];
  HWY_ALIGN float v[2 * kMaxLanes];
  const size_t lanes = hn::Lanes(hn::ScalableTag<float>());
  const auto out = [&](const auto& g, size_t first, size_t count) {
    moments_group(g, n, halves, m, v);
    for (size_t j = 0; j < count; ++j)
      for (unsigned h = 0; h < halves; ++h) {
        mean[(first + j) * halves + h] = m[h * lanes + j];
        nvar[(first + j) * halves + h] = v[h * lanes + j];
      }
  };
#if HWY_TARGET != HWY_SCALAR && HWY_MAX_BYTES >= 32
  if (scratch != nullptr) return for_lane_major(rows, row_count, n, scratch, out);
#endif
  for_groups(rows, row_count, out);
}

void aggregate_rows(const float* const* rows, size_t row_count, size_t tuples, float* mean, float* variance,
                    [[maybe_unused]] float* scratch) {
  HWY_ALIGN float m[kMaxLanes];
  HWY_ALIGN float v[kMaxLanes];
  const auto out = [&](const auto& g, size_t first, size_t count) {
    aggregate_group(g, tuples, m, v);
    std::copy(m, m + count, mean + first);
    std::copy(v, v + count, variance + first);
  };
#if HWY_TARGET != HWY_SCALAR && HWY_MAX_BYTES >= 32
  if (scratch != nullptr) return for_lane_major(rows, row_count, 3 * tuples, scratch, out);
#endif
  for_groups(rows, row_count, out);
}

void aggregate_pieces(const RowPieces& p, size_t tuples, float* mean, float* variance, float* scratch) {
  HWY_ALIGN float m[kMaxLanes];
  HWY_ALIGN float v[kMaxLanes];
  const auto out = [&](const auto& g, size_t first, size_t count) {
    aggregate_group(g, tuples, m, v);
    std::copy(m, m + count, mean + first);
    std::copy(v, v + count, variance + first);
  };
#if HWY_TARGET != HWY_SCALAR && HWY_MAX_BYTES >= 32
  const size_t lanes = hn::Lanes(hn::ScalableTag<float>());
  for (size_t r = 0; r < p.row_count; r += kGroup) {
    const size_t count = std::min(kGroup, p.row_count - r);
    lane_major_pieces(p, r, count, scratch);
    for (size_t o = 0; o < count; o += lanes)
      out(LaneMajor{hn::ScalableTag<float>(), scratch + o}, r + o, std::min(lanes, count - o));
  }
#else
  // Up to 16 rows at a time made whole in the scratch (lane_rows_scratch of the rows' length), then gathered as
  // rows are.
  const size_t length = p.bounds[p.segments];
  const float* whole[16];
  for (size_t r = 0; r < p.row_count; r += 16) {
    const size_t count = std::min<size_t>(16, p.row_count - r);
    for (size_t j = 0; j < count; ++j) {
      float* row = scratch + j * length;
      for (size_t s = 0; s < p.segments; ++s)
        std::copy_n(p.pieces[s * p.row_count + r + j], p.bounds[s + 1] - p.bounds[s], row + p.bounds[s]);
      whole[j] = row;
    }
    for_groups(whole, count, [&](const auto& g, size_t first, size_t c) { out(g, r + first, c); });
  }
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace tpbisa::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tpbisa::kernels {

HWY_EXPORT(ramp_row);
HWY_EXPORT(select_row);
HWY_EXPORT(above);
HWY_EXPORT(max8_row);
HWY_EXPORT(equal_any);
HWY_EXPORT(max_exact);
HWY_EXPORT(moments_rows);
HWY_EXPORT(aggregate_rows);
HWY_EXPORT(aggregate_pieces);

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
void max8_update(const float* x, size_t n, uint32_t* top) {
  HWY_DYNAMIC_DISPATCH(max8_row)(x, n, top);
}
size_t first_equal_any(const float* x, size_t n, const float* keys) {
  return HWY_DYNAMIC_DISPATCH(equal_any)(x, n, keys);
}
bool fp32_max_exact(const float* x, size_t n, float& out) {
  return HWY_DYNAMIC_DISPATCH(max_exact)(x, n, out);
}
void fp32_moments_rows(const float* const* rows, size_t row_count, size_t n, unsigned halves, float* mean, float* nvar,
                       float* scratch) {
  HWY_DYNAMIC_DISPATCH(moments_rows)(rows, row_count, n, halves, mean, nvar, scratch);
}
void fp32_aggregate_rows(const float* const* rows, size_t row_count, size_t tuples, float* mean, float* variance,
                         float* scratch) {
  HWY_DYNAMIC_DISPATCH(aggregate_rows)(rows, row_count, tuples, mean, variance, scratch);
}

void fp32_aggregate_pieces(const RowPieces& rows, size_t tuples, float* mean, float* variance, float* scratch) {
  HWY_DYNAMIC_DISPATCH(aggregate_pieces)(rows, tuples, mean, variance, scratch);
}

}  // namespace tpbisa::kernels
#endif  // HWY_ONCE
