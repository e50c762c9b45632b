// FP32 rows of one ALU op against a scalar per slice, per SIMD target (IEEE add, subtract, multiply; NaNs quietened).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/alu_row.cpp"
#include "kernels/hwy_targets.hpp"
// clang-format off: foreach_target must come before highway.h
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
// clang-format on

#include "kernels/alu_row.hpp"

HWY_BEFORE_NAMESPACE();
namespace tpbisa::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One vector: y = x op s, then a NaN gets its quiet bit (|y| above Inf's pattern; below 2^31, so a signed compare).
template <ScalarRowOp Op, class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> op_lanes(DF /*df*/, hn::Vec<DF> x, hn::Vec<DF> s) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  hn::Vec<DF> y;
  if constexpr (Op == ScalarRowOp::Add) {
    y = hn::Add(x, s);
  } else if constexpr (Op == ScalarRowOp::Subtract) {
    y = hn::Sub(x, s);
  } else if constexpr (Op == ScalarRowOp::ReverseSubtract) {
    y = hn::Sub(s, x);
  } else {
    y = hn::Mul(x, s);
  }
  const auto bits = hn::BitCast(du, y);
  const auto magnitude = hn::BitCast(di, hn::And(bits, hn::Set(du, 0x7FFFFFFFU)));
  const auto nan = hn::RebindMask(du, hn::Gt(magnitude, hn::Set(di, 0x7F800000)));
  return hn::IfThenElse(nan, hn::Or(bits, hn::Set(du, 0x00400000U)), bits);
}

// Full vectors of one slice from i, returning where they stopped (a one-lane tag reads and writes nothing out of
// range, so the same loop with it finishes the slice). Each vector is loaded before the same lanes are stored and
// nothing behind them is read again, so `out` may be `in` itself (alu_row.hpp).
template <ScalarRowOp Op, class DF>
HWY_INLINE size_t slice_lanes(DF df, const float* in, uint32_t* out, size_t i, size_t n, float s) {
  const hn::RebindToUnsigned<DF> du;
  const auto sv = hn::Set(df, s);
  const size_t lanes = hn::Lanes(df);
  for (; i + lanes <= n; i += lanes) hn::StoreU(op_lanes<Op>(df, hn::LoadU(df, in + i), sv), du, out + i);
  return i;
}

template <ScalarRowOp Op>
void rows_of(const float* in, uint32_t* out, size_t n, size_t slices, const float* scalars) {
  for (size_t k = 0; k < slices; ++k, in += n, out += n) {
    const size_t i = slice_lanes<Op>(hn::ScalableTag<float>(), in, out, 0, n, scalars[k]);
    slice_lanes<Op>(hn::CappedTag<float, 1>(), in, out, i, n, scalars[k]);
  }
}

void scalar_rows(ScalarRowOp op, const float* in, uint32_t* out, size_t n, size_t slices, const float* scalars) {
  switch (op) {
    case ScalarRowOp::Add: rows_of<ScalarRowOp::Add>(in, out, n, slices, scalars); break;
    case ScalarRowOp::Subtract: rows_of<ScalarRowOp::Subtract>(in, out, n, slices, scalars); break;
    case ScalarRowOp::ReverseSubtract: rows_of<ScalarRowOp::ReverseSubtract>(in, out, n, slices, scalars); break;
    case ScalarRowOp::Mult: rows_of<ScalarRowOp::Mult>(in, out, n, slices, scalars); break;
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace tpbisa::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tpbisa::kernels {

HWY_EXPORT(scalar_rows);

void fp32_scalar_rows(ScalarRowOp op, const float* in, uint32_t* out, size_t n, size_t slices, const float* scalars) {
  HWY_DYNAMIC_DISPATCH(scalar_rows)(op, in, out, n, slices, scalars);
}

}  // namespace tpbisa::kernels
#endif  // HWY_ONCE
