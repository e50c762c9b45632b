// Sixteen-row sequential folds (8 x 8 register transposes where the target has 256-bit vectors), per SIMD target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/row_fold.cpp"
#include "kernels/hwy_targets.hpp"
// clang-format off: foreach_target must come before highway.h
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
// clang-format on

#include <cstring>

#include "kernels/row_fold.hpp"

HWY_BEFORE_NAMESPACE();
namespace tpbisa::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Element k of a row as fp32 bits.
template <FoldElement E>
HWY_INLINE float element_at(const uint8_t* row, uint64_t k) {
  if constexpr (E == FoldElement::Fp32) {
    float v = 0;
    std::memcpy(&v, row + 4 * k, 4);
    return v;
  } else {
    uint16_t h = 0;
    std::memcpy(&h, row + 2 * k, 2);
    const uint32_t bits = uint32_t{h} << 16;
    float v = 0;
    std::memcpy(&v, &bits, 4);
    return v;
  }
}

// One step of the fold on non-NaN operands as alu_fp32 computes it (the running value `a` on the left).
template <FoldOp Op, class V>
HWY_INLINE V fold_step(V a, V b) {
  if constexpr (Op == FoldOp::Add) {
    return hn::Add(a, b);
  } else if constexpr (Op == FoldOp::Max) {
    return hn::IfThenElse(hn::Lt(a, b), b, a);
  } else {
    return hn::IfThenElse(hn::Lt(b, a), b, a);
  }
}

#if HWY_TARGET != HWY_SCALAR && HWY_MAX_BYTES >= 32
using D8 = hn::FixedTag<float, 8>;

// Row j's elements [k, k + 8) as eight fp32 lanes.
template <FoldElement E>
HWY_INLINE hn::Vec<D8> load_row(const uint8_t* row, uint64_t k) {
  const D8 df;
  if constexpr (E == FoldElement::Fp32) {
    return hn::LoadU(df, reinterpret_cast<const float*>(row) + k);
  } else {
    const hn::FixedTag<uint16_t, 8> dh;
    const hn::FixedTag<uint32_t, 8> du;
    const auto h = hn::LoadU(dh, reinterpret_cast<const uint16_t*>(row) + k);
    return hn::BitCast(df, hn::ShiftLeft<16>(hn::PromoteTo(du, h)));
  }
}

// Two rows' halves interleaved: lanes of 32 bits (t0, t1) or 64 bits (as doubles).
HWY_INLINE void zip32(hn::Vec<D8> a, hn::Vec<D8> b, hn::Vec<D8>& lo, hn::Vec<D8>& hi) {
  const D8 df;
  lo = hn::InterleaveLower(df, a, b);
  hi = hn::InterleaveUpper(df, a, b);
}
HWY_INLINE void zip64(hn::Vec<D8> a, hn::Vec<D8> b, hn::Vec<D8>& lo, hn::Vec<D8>& hi) {
  const D8 df;
  const hn::Repartition<double, D8> dd;
  lo = hn::BitCast(df, hn::InterleaveLower(dd, hn::BitCast(dd, a), hn::BitCast(dd, b)));
  hi = hn::BitCast(df, hn::InterleaveUpper(dd, hn::BitCast(dd, a), hn::BitCast(dd, b)));
}

// Eight rows' elements [k, k + 8) transposed: c_i = element k + i of rows 0..7. Spelt out with named vectors:
// loops over arrays of vectors were kept in memory.
struct Columns {
  hn::Vec<D8> c0, c1, c2, c3, c4, c5, c6, c7;
};
template <FoldElement E>
HWY_INLINE Columns columns8(const uint8_t* const* rows, uint64_t k) {
  const D8 df;
  hn::Vec<D8> t0, t1, t2, t3, t4, t5, t6, t7;
  zip32(load_row<E>(rows[0], k), load_row<E>(rows[1], k), t0, t1);  // rows 0, 1: elements 0 1 | 4 5; 2 3 | 6 7
  zip32(load_row<E>(rows[2], k), load_row<E>(rows[3], k), t2, t3);
  zip32(load_row<E>(rows[4], k), load_row<E>(rows[5], k), t4, t5);
  zip32(load_row<E>(rows[6], k), load_row<E>(rows[7], k), t6, t7);
  hn::Vec<D8> u0, u1, u2, u3, u4, u5, u6, u7;
  zip64(t0, t2, u0, u1);  // rows 0-3: element 0 | 4; 1 | 5
  zip64(t1, t3, u2, u3);  // 2 | 6; 3 | 7
  zip64(t4, t6, u4, u5);  // rows 4-7
  zip64(t5, t7, u6, u7);
  return {hn::ConcatLowerLower(df, u4, u0), hn::ConcatLowerLower(df, u5, u1), hn::ConcatLowerLower(df, u6, u2),
          hn::ConcatLowerLower(df, u7, u3), hn::ConcatUpperUpper(df, u4, u0), hn::ConcatUpperUpper(df, u5, u1),
          hn::ConcatUpperUpper(df, u6, u2), hn::ConcatUpperUpper(df, u7, u3)};
}

// Lanes 0-7 and 8-15 as two independent chains, so that one's additions overlap the other's.
template <FoldOp Op, FoldElement E>
void folds(const uint8_t* const* rows, uint64_t first, uint64_t count, const float* seed, float* out) {
  const D8 df;
  HWY_ALIGN float column[16];
  const auto column_at = [&](uint64_t k, int h) {
    for (int j = 0; j < 8; ++j) column[8 * h + j] = element_at<E>(rows[8 * h + j], k);
    return hn::Load(df, column + 8 * h);
  };
  uint64_t k = first;
  const uint64_t end = first + count;
  hn::Vec<D8> acc0, acc1;
  if (seed != nullptr) {
    acc0 = hn::LoadU(df, seed);
    acc1 = hn::LoadU(df, seed + 8);
  } else {
    acc0 = column_at(k, 0);
    acc1 = column_at(k, 1);
    ++k;
  }
  for (; k + 8 <= end; k += 8) {
    const Columns v = columns8<E>(rows, k), w = columns8<E>(rows + 8, k);
    acc0 = fold_step<Op>(acc0, v.c0), acc1 = fold_step<Op>(acc1, w.c0);
    acc0 = fold_step<Op>(acc0, v.c1), acc1 = fold_step<Op>(acc1, w.c1);
    acc0 = fold_step<Op>(acc0, v.c2), acc1 = fold_step<Op>(acc1, w.c2);
    acc0 = fold_step<Op>(acc0, v.c3), acc1 = fold_step<Op>(acc1, w.c3);
    acc0 = fold_step<Op>(acc0, v.c4), acc1 = fold_step<Op>(acc1, w.c4);
    acc0 = fold_step<Op>(acc0, v.c5), acc1 = fold_step<Op>(acc1, w.c5);
    acc0 = fold_step<Op>(acc0, v.c6), acc1 = fold_step<Op>(acc1, w.c6);
    acc0 = fold_step<Op>(acc0, v.c7), acc1 = fold_step<Op>(acc1, w.c7);
  }
  for (; k < end; ++k) {
    acc0 = fold_step<Op>(acc0, column_at(k, 0));
    acc1 = fold_step<Op>(acc1, column_at(k, 1));
  }
  hn::StoreU(acc0, df, out);
  hn::StoreU(acc1, df, out + 8);
}
#else
// Without 256-bit vectors: eight named running values, so they stay in registers.
template <FoldOp Op>
HWY_INLINE float step1(float a, float b) {
  if constexpr (Op == FoldOp::Add) {
    return a + b;
  } else if constexpr (Op == FoldOp::Max) {
    return a < b ? b : a;
  } else {
    return b < a ? b : a;
  }
}

template <FoldOp Op, FoldElement E>
void folds8(const uint8_t* const* rows, uint64_t first, uint64_t count, const float* seed, float* out) {
  uint64_t k = first;
  const uint64_t end = first + count;
  float a0, a1, a2, a3, a4, a5, a6, a7;
  if (seed != nullptr) {
    a0 = seed[0], a1 = seed[1], a2 = seed[2], a3 = seed[3], a4 = seed[4], a5 = seed[5], a6 = seed[6], a7 = seed[7];
  } else {
    a0 = element_at<E>(rows[0], k), a1 = element_at<E>(rows[1], k), a2 = element_at<E>(rows[2], k);
    a3 = element_at<E>(rows[3], k), a4 = element_at<E>(rows[4], k), a5 = element_at<E>(rows[5], k);
    a6 = element_at<E>(rows[6], k), a7 = element_at<E>(rows[7], k);
    ++k;
  }
  for (; k < end; ++k) {
    a0 = step1<Op>(a0, element_at<E>(rows[0], k));
    a1 = step1<Op>(a1, element_at<E>(rows[1], k));
    a2 = step1<Op>(a2, element_at<E>(rows[2], k));
    a3 = step1<Op>(a3, element_at<E>(rows[3], k));
    a4 = step1<Op>(a4, element_at<E>(rows[4], k));
    a5 = step1<Op>(a5, element_at<E>(rows[5], k));
    a6 = step1<Op>(a6, element_at<E>(rows[6], k));
    a7 = step1<Op>(a7, element_at<E>(rows[7], k));
  }
  out[0] = a0, out[1] = a1, out[2] = a2, out[3] = a3, out[4] = a4, out[5] = a5, out[6] = a6, out[7] = a7;
}

template <FoldOp Op, FoldElement E>
void folds(const uint8_t* const* rows, uint64_t first, uint64_t count, const float* seed, float* out) {
  folds8<Op, E>(rows, first, count, seed, out);
  folds8<Op, E>(rows + 8, first, count, seed == nullptr ? nullptr : seed + 8, out + 8);
}
#endif

template <FoldOp Op>
void folds_of(FoldElement e, const uint8_t* const* rows, uint64_t first, uint64_t count, const float* seed,
              float* out) {
  if (e == FoldElement::Fp32)
    folds<Op, FoldElement::Fp32>(rows, first, count, seed, out);
  else
    folds<Op, FoldElement::Bf16>(rows, first, count, seed, out);
}

void lane_folds(FoldOp op, FoldElement e, const uint8_t* const* rows, uint64_t first, uint64_t count, const float* seed,
                float* out) {
  switch (op) {
    case FoldOp::Add: folds_of<FoldOp::Add>(e, rows, first, count, seed, out); break;
    case FoldOp::Max: folds_of<FoldOp::Max>(e, rows, first, count, seed, out); break;
    case FoldOp::Min: folds_of<FoldOp::Min>(e, rows, first, count, seed, out); break;
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace tpbisa::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tpbisa::kernels {

HWY_EXPORT(lane_folds);

void fp32_lane_folds(FoldOp op, FoldElement element, const uint8_t* const* rows, uint64_t first, uint64_t count,
                     const float* seed, float* out) {
  HWY_DYNAMIC_DISPATCH(lane_folds)(op, element, rows, first, count, seed, out);
}

}  // namespace tpbisa::kernels
#endif  // HWY_ONCE
