// The PE product kernel (vectorised with run-time SIMD dispatch), its scalar reference and the FMA-safety check.
// Highway compiles the HWY_NAMESPACE part once per SIMD target (foreach_target re-includes this file).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/matmul.cpp"
#include "kernels/hwy_targets.hpp"
// clang-format off: foreach_target must come before highway.h
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
// clang-format on

#include <cstdint>
#include <cstring>

#include "kernels/matmul.hpp"

HWY_BEFORE_NAMESPACE();
namespace tpbisa::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The moving tile's rows: row k at p + k * ld (a strided tile, or the packed strip), or at rows[k] + col (rows
// anywhere); at(n) is the same tile from column n on.
struct XStrided {
  const float* p;
  size_t ld;
  const float* row(size_t k) const { return p + k * ld; }
  XStrided at(size_t n) const { return {p + n, ld}; }
};
struct XRows {
  const float* const* rows;
  size_t col;
  const float* row(size_t k) const { return rows[k] + col; }
  XRows at(size_t n) const { return {rows, col + n}; }
};

// One output register block: rows [0, kRows) of `out` x columns [0, kVecs * Lanes(d)), each element its own
// running sum from +0.0f over k ascending (PROJ-CONV-F17). kFused selects MulAdd (one rounding; equal to the
// reference only when every product is exact) or Mul then Add (two roundings, exactly the reference).
// `resume`: the sums start from `out` instead (the running sums of earlier k, stored by a block over them).
// Output row i is out[i] from column `col` on.
template <size_t kRows, size_t kVecs, bool kFused, class D, class X>
HWY_INLINE void block(D d, const float* HWY_RESTRICT w, size_t ldw, const X& x, float* const* out, size_t col, size_t K,
                      bool accumulate, bool resume = false) {
  using V = hn::Vec<D>;
  const size_t lanes = hn::Lanes(d);
  V acc[kRows][kVecs];
#pragma GCC unroll 16
  for (size_t i = 0; i < kRows; ++i)
#pragma GCC unroll 16
    for (size_t j = 0; j < kVecs; ++j) acc[i][j] = resume ? hn::LoadU(d, out[i] + col + j * lanes) : hn::Zero(d);
#pragma GCC unroll 2
  for (size_t k = 0; k < K; ++k) {
    const float* xk = x.row(k);
    const float* wk = w + k * ldw;
    V xv[kVecs];
#pragma GCC unroll 16
    for (size_t j = 0; j < kVecs; ++j) xv[j] = hn::LoadU(d, xk + j * lanes);
#pragma GCC unroll 16
    for (size_t i = 0; i < kRows; ++i) {
      const V wv = hn::Set(d, wk[i]);
#pragma GCC unroll 16
      for (size_t j = 0; j < kVecs; ++j) {
        if constexpr (kFused) {
          acc[i][j] = hn::MulAdd(wv, xv[j], acc[i][j]);
        } else {
          acc[i][j] = hn::Add(acc[i][j], hn::Mul(wv, xv[j]));
        }
      }
    }
  }
#pragma GCC unroll 16
  for (size_t i = 0; i < kRows; ++i)
#pragma GCC unroll 16
    for (size_t j = 0; j < kVecs; ++j) {
      float* o = out[i] + col + j * lanes;
      V r = acc[i][j];
      if (accumulate) r = hn::Add(hn::LoadU(d, o), r);
      hn::StoreU(r, d, o);
    }
}

// All of M for one column strip of width kVecs * Lanes(d): blocks of kMr rows, then the row tail by 4, 2, 1.
template <size_t kMr, size_t kVecs, bool kFused, class D, class X>
HWY_INLINE void strip(D d, const float* w, size_t ldw, const X& x, float* const* out, size_t col, size_t K, size_t M,
                      bool accumulate, bool resume = false) {
  size_t m = 0;
  for (; m + kMr <= M; m += kMr) block<kMr, kVecs, kFused>(d, w + m, ldw, x, out + m, col, K, accumulate, resume);
  if constexpr (kMr > 4) {
    for (; m + 4 <= M; m += 4) block<4, kVecs, kFused>(d, w + m, ldw, x, out + m, col, K, accumulate, resume);
  }
  for (; m + 2 <= M; m += 2) block<2, kVecs, kFused>(d, w + m, ldw, x, out + m, col, K, accumulate, resume);
  for (; m < M; ++m) block<1, kVecs, kFused>(d, w + m, ldw, x, out + m, col, K, accumulate, resume);
}

// Column strips of one narrower vector type (the tail after the full-width strips); returns the next column.
template <bool kFused, class D, class X>
HWY_INLINE size_t tail_strips(D d, size_t n, const float* w, size_t ldw, const X& x, float* const* out, size_t col0,
                              size_t K, size_t M, size_t N, bool accumulate) {
  const size_t lanes = hn::Lanes(d);
  for (; n + lanes <= N; n += lanes) strip<4, 1, kFused>(d, w, ldw, x.at(n), out, col0 + n, K, M, accumulate);
  return n;
}

// Register blocking per target: 32 vector registers (AVX-512, NEON) hold 8 x 3 accumulators, 16 (SSE4/AVX2) 6 x 2,
// leaving registers for the moving row and the broadcast weight.
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL || HWY_TARGET == HWY_NEON
constexpr size_t kRowsPerBlock = 8;
constexpr size_t kVecsPerBlock = 3;
#else
constexpr size_t kRowsPerBlock = 6;
constexpr size_t kVecsPerBlock = 2;
#endif

// The packed copy of one strip of `x`: rows of the strip side by side, at most this many floats (on the stack).
constexpr size_t kPackFloats = 8192;
// Strips packed together when all of K fits (a PE product's K is at most 128).
constexpr size_t kPackGroup = 4;

// Loop order: column strips outside, rows inside, so a strip of `x` (K x strip width) stays in L1/L2 while every
// block of rows reuses it; the k loop is innermost and each accumulator stays in a register for all of K. The strip
// is first copied into a contiguous buffer: in place its rows lie ldx apart, and at a power-of-two ldx (a 512- or
// 1024-column tile) every row falls into the same few cache sets, so the strip does not stay in any cache. A strip
// longer than the buffer goes in runs of k, each block storing its running sums and the next run resuming them
// (exact: the sums are fp32 either way); with `accumulate` the sums must start from zero, not from `out`, so such a
// strip is read in place.
template <bool kFused, class X>
void matmul_impl(const float* w, size_t ldw, const X& x, float* const* out, size_t col0, size_t K, size_t M, size_t N,
                 bool accumulate) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  const size_t wide = kVecsPerBlock * lanes;
  const size_t run = kPackFloats / wide;
  HWY_ALIGN float pack[kPackFloats];
  size_t n = 0;
  // Strips side by side: when kPackGroup strips of all of K fit the buffer, they are packed together, each row of `x`
  // read once for kPackGroup * wide consecutive columns (rows of a tile lie far apart, often a power of two apart,
  // so a strip's rows alone miss the caches one by one).
  if (K != 0 && K * wide * kPackGroup <= kPackFloats) {
    for (; n + kPackGroup * wide <= N; n += kPackGroup * wide) {
      for (size_t k = 0; k < K; ++k) {
        const float* xk = x.row(k) + n;
#pragma GCC unroll 8
        for (size_t j = 0; j < kPackGroup * kVecsPerBlock; ++j)
          hn::Store(hn::LoadU(d, xk + j * lanes), d,
                    pack + (j / kVecsPerBlock) * K * wide + k * wide + (j % kVecsPerBlock) * lanes);
      }
      for (size_t g = 0; g < kPackGroup; ++g)
        strip<kRowsPerBlock, kVecsPerBlock, kFused>(d, w, ldw, XStrided{pack + g * K * wide, wide}, out,
                                                    col0 + n + g * wide, K, M, accumulate);
    }
  }
  for (; n + wide <= N; n += wide) {
    if (K == 0 || (K > run && accumulate)) {
      strip<kRowsPerBlock, kVecsPerBlock, kFused>(d, w, ldw, x.at(n), out, col0 + n, K, M, accumulate);
      continue;
    }
    for (size_t k0 = 0; k0 < K; k0 += run) {
      const size_t ks = K - k0 < run ? K - k0 : run;
      for (size_t k = 0; k < ks; ++k) {
        const float* xk = x.row(k0 + k) + n;
#pragma GCC unroll 4
        for (size_t j = 0; j < kVecsPerBlock; ++j)
          hn::Store(hn::LoadU(d, xk + j * lanes), d, pack + k * wide + j * lanes);
      }
      strip<kRowsPerBlock, kVecsPerBlock, kFused>(d, w + k0 * ldw, ldw, XStrided{pack, wide}, out, col0 + n, ks, M,
                                                  accumulate, k0 != 0);
    }
  }
  for (; n + lanes <= N; n += lanes)
    strip<kRowsPerBlock, 1, kFused>(d, w, ldw, x.at(n), out, col0 + n, K, M, accumulate);
  n = tail_strips<kFused>(hn::CappedTag<float, 8>(), n, w, ldw, x, out, col0, K, M, N, accumulate);
  n = tail_strips<kFused>(hn::CappedTag<float, 4>(), n, w, ldw, x, out, col0, K, M, N, accumulate);
  tail_strips<kFused>(hn::CappedTag<float, 1>(), n, w, ldw, x, out, col0, K, M, N, accumulate);
}

void matmul_fused(const float* w, size_t ldw, const float* x, size_t ldx, float* const* out, size_t K, size_t M,
                  size_t N, bool accumulate) {
  matmul_impl<true>(w, ldw, XStrided{x, ldx}, out, 0, K, M, N, accumulate);
}

void matmul_unfused(const float* w, size_t ldw, const float* x, size_t ldx, float* const* out, size_t K, size_t M,
                    size_t N, bool accumulate) {
  matmul_impl<false>(w, ldw, XStrided{x, ldx}, out, 0, K, M, N, accumulate);
}

void matmul_fused_rows(const float* w, size_t ldw, const float* const* x, float* const* out, size_t col, size_t K,
                       size_t M, size_t N, bool accumulate) {
  matmul_impl<true>(w, ldw, XRows{x, col}, out, col, K, M, N, accumulate);
}

void matmul_unfused_rows(const float* w, size_t ldw, const float* const* x, float* const* out, size_t col, size_t K,
                         size_t M, size_t N, bool accumulate) {
  matmul_impl<false>(w, ldw, XRows{x, col}, out, col, K, M, N, accumulate);
}

/// out[j] = element j of the n elements of T at `in` (reversed: element n - 1 - j), zero-extended.
template <class T>
void widen_elements(const T* in, size_t n, bool reversed, uint32_t* out) {
  const hn::ScalableTag<uint32_t> d;
  const hn::Rebind<T, decltype(d)> dt;
  const size_t lanes = hn::Lanes(d);
  size_t j = 0;
  const auto load = [&](const T* p) {
    if constexpr (sizeof(T) == 4)
      return hn::LoadU(d, p);
    else
      return hn::PromoteTo(d, hn::LoadU(dt, p));
  };
  const auto element = [in](size_t i) {  // by bytes: a row need not be aligned to its element size
    T v;
    std::memcpy(&v, in + i, sizeof v);
    return static_cast<uint32_t>(v);
  };
  if (reversed) {
    for (; j + lanes <= n; j += lanes) hn::StoreU(hn::Reverse(d, load(in + n - j - lanes)), d, out + j);
    for (; j < n; ++j) out[j] = element(n - 1 - j);
  } else {
    for (; j + lanes <= n; j += lanes) hn::StoreU(load(in + j), d, out + j);
    for (; j < n; ++j) out[j] = element(j);
  }
}

void widen_row(const uint8_t* bytes, unsigned size, size_t n, bool reversed, uint32_t* out) {
  if (size == 4)
    widen_elements(reinterpret_cast<const uint32_t*>(bytes), n, reversed, out);  // NOLINT: little-endian elements
  else if (size == 2)
    widen_elements(reinterpret_cast<const uint16_t*>(bytes), n, reversed, out);  // NOLINT
  else
    widen_elements(bytes, n, reversed, out);
}

void note_selections(const uint32_t* x, int32_t row, size_t n, int32_t* sel) {
  const hn::ScalableTag<int32_t> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  const size_t lanes = hn::Lanes(d);
  const auto one = hn::Set(d, 0x3F800000), magnitude = hn::Set(d, 0x7FFFFFFF);
  const auto none = hn::Set(d, -1), not_one = hn::Set(d, -2), here = hn::Set(d, row);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto b = hn::BitCast(d, hn::LoadU(du, x + i));
    const auto s = hn::LoadU(d, sel + i);
    const auto if_one = hn::IfThenElse(hn::Eq(s, none), here, not_one);
    const auto other = hn::IfThenElse(hn::Eq(hn::And(b, magnitude), hn::Zero(d)), s, not_one);
    hn::StoreU(hn::IfThenElse(hn::Eq(b, one), if_one, other), d, sel + i);
  }
  for (; i < n; ++i) {
    const int32_t s = sel[i];
    sel[i] = x[i] == 0x3F800000U ? (s == -1 ? row : -2) : ((x[i] & 0x7FFFFFFFU) != 0 ? -2 : s);
  }
}

/// out[i * N + n] = w[sel[n] * ldw + i] for i < g: a selection transpose's group of output rows. With eight rows on a
/// target of 256-bit vectors, eight selected rows' eight elements are loaded and transposed in registers: element by
/// element, the stores go to eight rows at once, and a transpose of 128 rows spent most of its time there.
void gather_selections(const uint32_t* w, size_t ldw, const int32_t* sel, size_t N, unsigned g, uint32_t* out) {
  size_t n = 0;
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  if (g == 8) {
    const hn::FixedTag<uint32_t, 8> d;
    const hn::Repartition<uint64_t, decltype(d)> d64;
    using V = hn::Vec<decltype(d)>;
    // Pairs of rows, then of pairs, interleaved within each 128-bit half; the halves then hold elements i and i + 4.
    const auto pairs = [&](V a, V b, V c, V e, V& q0, V& q1, V& q2, V& q3) {
      const auto ab_lo = hn::BitCast(d64, hn::InterleaveLower(d, a, b));
      const auto ab_hi = hn::BitCast(d64, hn::InterleaveUpper(d, a, b));
      const auto ce_lo = hn::BitCast(d64, hn::InterleaveLower(d, c, e));
      const auto ce_hi = hn::BitCast(d64, hn::InterleaveUpper(d, c, e));
      q0 = hn::BitCast(d, hn::InterleaveLower(d64, ab_lo, ce_lo));  // elements 0 | 4 of the four rows
      q1 = hn::BitCast(d, hn::InterleaveUpper(d64, ab_lo, ce_lo));  // 1 | 5
      q2 = hn::BitCast(d, hn::InterleaveLower(d64, ab_hi, ce_hi));  // 2 | 6
      q3 = hn::BitCast(d, hn::InterleaveUpper(d64, ab_hi, ce_hi));  // 3 | 7
    };
    for (; n + 8 <= N; n += 8) {
      V r[8];
      for (unsigned j = 0; j < 8; ++j) r[j] = hn::LoadU(d, w + static_cast<size_t>(sel[n + j]) * ldw);
      V u[4], v[4];
      pairs(r[0], r[1], r[2], r[3], u[0], u[1], u[2], u[3]);
      pairs(r[4], r[5], r[6], r[7], v[0], v[1], v[2], v[3]);
      for (unsigned i = 0; i < 4; ++i) {
        hn::StoreU(hn::ConcatLowerLower(d, v[i], u[i]), d, out + i * N + n);
        hn::StoreU(hn::ConcatUpperUpper(d, v[i], u[i]), d, out + (i + 4) * N + n);
      }
    }
  }
#endif
  for (; n < N; ++n) {
    const uint32_t* selected = w + static_cast<size_t>(sel[n]) * ldw;
    for (unsigned i = 0; i < g; ++i) out[i * N + n] = selected[i];
  }
}

// What this target's MulAdd is: one rounding (a fused instruction) or two (multiply, then add).
bool target_fuses() {
  return HWY_NATIVE_FMA != 0;
}

int64_t target_bits() {
  return HWY_TARGET;
}

}  // namespace HWY_NAMESPACE
}  // namespace tpbisa::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tpbisa::kernels {

HWY_EXPORT(matmul_fused);
HWY_EXPORT(matmul_unfused);
HWY_EXPORT(matmul_fused_rows);
HWY_EXPORT(matmul_unfused_rows);
HWY_EXPORT(target_fuses);
HWY_EXPORT(target_bits);
HWY_EXPORT(note_selections);
HWY_EXPORT(widen_row);
HWY_EXPORT(gather_selections);

void widen_elements(const uint8_t* bytes, unsigned size, size_t n, bool reversed, uint32_t* out) {
  HWY_DYNAMIC_DISPATCH(widen_row)(bytes, size, n, reversed, out);
}

void note_selection_row(const uint32_t* x, int32_t row, size_t n, int32_t* sel) {
  HWY_DYNAMIC_DISPATCH(note_selections)(x, row, n, sel);
}

void gather_selection_rows(const uint32_t* w, size_t ldw, const int32_t* sel, size_t N, unsigned g, uint32_t* out) {
  HWY_DYNAMIC_DISPATCH(gather_selections)(w, ldw, sel, N, g, out);
}

void matmul_f32_reference(const float* w, size_t ldw, const float* x, size_t ldx, float* out, size_t ldo, size_t K,
                          size_t M, size_t N, bool accumulate) {
  for (size_t m = 0; m < M; ++m)
    for (size_t n = 0; n < N; ++n) {
      float acc = 0.0f;
      for (size_t k = 0; k < K; ++k) acc = acc + w[k * ldw + m] * x[k * ldx + n];
      float& o = out[m * ldo + n];
      o = accumulate ? o + acc : acc;
    }
}

namespace {

using RowsKernel = void (*)(const float*, size_t, const float*, size_t, float* const*, size_t, size_t, size_t, bool);

// A strided output through the row kernel, kRowChunk rows at a time (their row pointers on the stack): each output
// element is its own sum, so the chunks give the same bits as one call.
constexpr size_t kRowChunk = 1024;
void strided(RowsKernel kernel, const float* w, size_t ldw, const float* x, size_t ldx, float* out, size_t ldo,
             size_t K, size_t M, size_t N, bool accumulate) {
  float* rows[kRowChunk];
  for (size_t m0 = 0; m0 < M; m0 += kRowChunk) {
    const size_t mc = M - m0 < kRowChunk ? M - m0 : kRowChunk;
    for (size_t i = 0; i < mc; ++i) rows[i] = out + (m0 + i) * ldo;
    kernel(w + m0, ldw, x, ldx, rows, K, mc, N, accumulate);
  }
}

}  // namespace

void matmul_f32(const float* w, size_t ldw, const float* x, size_t ldx, float* out, size_t ldo, size_t K, size_t M,
                size_t N, bool accumulate) {
  strided(&HWY_DYNAMIC_DISPATCH(matmul_fused), w, ldw, x, ldx, out, ldo, K, M, N, accumulate);
}

void matmul_f32_generic(const float* w, size_t ldw, const float* x, size_t ldx, float* out, size_t ldo, size_t K,
                        size_t M, size_t N, bool accumulate) {
  strided(&HWY_DYNAMIC_DISPATCH(matmul_unfused), w, ldw, x, ldx, out, ldo, K, M, N, accumulate);
}

void matmul_f32_rows(const float* w, size_t ldw, const float* const* x, float* const* out, size_t col, size_t K,
                     size_t M, size_t N, bool accumulate) {
  HWY_DYNAMIC_DISPATCH(matmul_fused_rows)(w, ldw, x, out, col, K, M, N, accumulate);
}

void matmul_f32_generic_rows(const float* w, size_t ldw, const float* const* x, float* const* out, size_t col, size_t K,
                             size_t M, size_t N, bool accumulate) {
  HWY_DYNAMIC_DISPATCH(matmul_unfused_rows)(w, ldw, x, out, col, K, M, N, accumulate);
}

namespace {

// The exponent and significand tests of fma_exact_operands on one fp32 pattern.
bool fma_exact_value(float v) {
  uint32_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  const uint32_t exp_field = (b >> 23) & 0xFFU;
  const uint32_t frac = b & 0x7FFFFFU;
  if (exp_field == 0xFFU || (exp_field == 0 && frac == 0)) return true;  // Inf, NaN, ±0
  // [2^-63, 2^64): biased exponents 64 .. 190 (a subnormal has field 0, below the range).
  if (exp_field < 127 - 63 || exp_field > 127 + 63) return false;
  return (frac & ((1U << (23 - (kFmaExactBits - 1))) - 1)) == 0;  // the low 23 - 11 fraction bits are zero
}

}  // namespace

bool fma_exact_operands(const float* p, size_t ld, size_t rows, size_t cols) {
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c)
      if (!fma_exact_value(p[r * ld + c])) return false;
  return true;
}

bool matmul_f32_fuses() {
  return HWY_DYNAMIC_DISPATCH(target_fuses)();
}

const char* simd_target_name() {
  return hwy::TargetName(HWY_DYNAMIC_DISPATCH(target_bits)());
}

size_t simd_targets(int64_t* targets, size_t capacity) {
  size_t count = 0;
  for (const int64_t t : hwy::SupportedAndGeneratedTargets()) {
    if (count < capacity) targets[count] = t;
    ++count;
  }
  return count;
}

void force_simd_target(int64_t target) {
  hwy::SetSupportedTargetsForTest(target);
}

}  // namespace tpbisa::kernels
#endif  // HWY_ONCE
