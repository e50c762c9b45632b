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

// fp32 bits with a NaN's quiet bit set (|y| above Inf's pattern; below 2^31, so a signed compare).
template <class DU>
HWY_INLINE hn::Vec<DU> quieted(DU du, hn::Vec<DU> bits) {
  const hn::RebindToSigned<DU> di;
  const auto magnitude = hn::BitCast(di, hn::And(bits, hn::Set(du, 0x7FFFFFFFU)));
  const auto nan = hn::RebindMask(du, hn::Gt(magnitude, hn::Set(di, 0x7F800000)));
  return hn::IfThenElse(nan, hn::Or(bits, hn::Set(du, 0x00400000U)), bits);
}

// x op y as ScalarRowOp names it.
template <ScalarRowOp Op, class V>
HWY_INLINE V apply(V x, V y) {
  if constexpr (Op == ScalarRowOp::Add) {
    return hn::Add(x, y);
  } else if constexpr (Op == ScalarRowOp::Subtract) {
    return hn::Sub(x, y);
  } else if constexpr (Op == ScalarRowOp::ReverseSubtract) {
    return hn::Sub(y, x);
  } else {
    return hn::Mul(x, y);
  }
}

// One vector: y = x op s, then a NaN gets its quiet bit.
template <ScalarRowOp Op, class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> op_lanes(DF /*df*/, hn::Vec<DF> x, hn::Vec<DF> s) {
  const hn::RebindToUnsigned<DF> du;
  const hn::Vec<DF> y = apply<Op>(x, s);
  return quieted(du, hn::BitCast(du, y));
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

// ---- The fused rows: FP32 or BF16 elements widened, the fp32 ops and the narrowing in one pass per vector ----

// The fp32 bits of a vector of row elements from i: FP32 as stored, BF16 shifted up 16 bits (no NaN quietened).
template <class DU>
HWY_INLINE hn::Vec<DU> load_bits(DU du, const void* row, size_t i, RowElement e) {
  if (e == RowElement::Bf16) {
    const hn::Rebind<uint16_t, DU> d16;
    return hn::ShiftLeft<16>(hn::PromoteTo(du, hn::LoadU(d16, static_cast<const uint16_t*>(row) + i)));
  }
  return hn::LoadU(du, static_cast<const uint32_t*>(row) + i);
}

// fp32 bits -> BF16 patterns in u32 lanes, as from_fp32_bits: RNE; NaN -> sign | 0x7FC0; overflow and Inf -> ±Inf,
// or ±max finite when saturating (kernels/convert.cpp narrows the same way on the magnitude; its helpers are per
// translation unit). Rounding the signed bits is the same: below NaN no carry reaches the sign bit.
template <class DU>
HWY_INLINE hn::Vec<DU> bf16_of(DU du, hn::Vec<DU> f, bool saturate) {
  const hn::Rebind<float, DU> df;
  const hn::RebindToSigned<DU> di;
  const auto lsb = hn::And(hn::ShiftRight<16>(f), hn::Set(du, 1U));
  auto r = hn::ShiftRight<16>(hn::Add(f, hn::Add(lsb, hn::Set(du, 0x7FFFU))));  // overflow rounds to ±Inf
  const auto sign = [&] { return hn::And(hn::ShiftRight<16>(f), hn::Set(du, 0x8000U)); };
  if (HWY_UNLIKELY(saturate)) {  // from the largest finite magnitude's rounding tie up, Inf included
    const auto a = hn::BitCast(di, hn::And(f, hn::Set(du, 0x7FFFFFFFU)));
    const auto over = hn::RebindMask(du, hn::Gt(a, hn::Set(di, 0x7F7F7FFF)));
    r = hn::IfThenElse(over, hn::Or(sign(), hn::Set(du, 0x7F7FU)), r);
  }
  const auto nan = hn::RebindMask(du, hn::IsNaN(hn::BitCast(df, f)));
  if (HWY_UNLIKELY(!hn::AllFalse(du, nan))) r = hn::IfThenElse(nan, hn::Or(sign(), hn::Set(du, 0x7FC0U)), r);
  return r;
}

// Stores a vector of fp32 bits as row elements from i (BF16 narrowed by bf16_of).
template <class DU>
HWY_INLINE void store_bits(DU du, hn::Vec<DU> bits, void* row, size_t i, RowElement e, bool saturate) {
  if (e == RowElement::Bf16) {
    const hn::Rebind<uint16_t, DU> d16;
    const hn::RebindToSigned<DU> di;
    // Every pattern is at most 0xFFFF: the demotion's saturation never acts.
    hn::StoreU(hn::DemoteTo(d16, hn::BitCast(di, bf16_of(du, bits, saturate))), d16, static_cast<uint16_t*>(row) + i);
    return;
  }
  hn::StoreU(bits, du, static_cast<uint32_t*>(row) + i);
}

// x86's vector arithmetic never returns a signalling NaN, and quietens a NaN operand keeping its payload: quieting
// an operand or a result there changes no bit, so the fused TensorScalar pass leaves it to the arithmetic.
#if HWY_ARCH_X86
constexpr bool kArithQuietens = true;
#else
constexpr bool kArithQuietens = false;
#endif

// TensorScalar: full vectors from i (a one-lane tag finishes the row), each loaded before its lanes are stored.
template <ScalarRowOp Op0, ScalarRowOp Op1, bool Second, class DU>
HWY_INLINE size_t scalar_io_lanes(DU du, float s0, float s1, const ScalarRowIo& io, size_t i, size_t n) {
  const hn::Rebind<float, DU> df;
  const auto v0 = hn::Set(df, s0), v1 = hn::Set(df, s1);
  // Locals, so that the stores through `out` cannot be taken to change them.
  const void* const in = io.in;
  void* const out = io.out;
  const RowElement in_type = io.in_type, out_type = io.out_type;
  const bool saturate = io.saturate, wide = in_type == RowElement::Bf16;
  const size_t lanes = hn::Lanes(du);
  for (; i + lanes <= n; i += lanes) {
    auto x = load_bits(du, in, i, in_type);
    if (!kArithQuietens && wide) x = quieted(du, x);  // as to_fp32_bits widens
    auto y = kArithQuietens ? hn::BitCast(du, apply<Op0>(hn::BitCast(df, x), v0))
                            : op_lanes<Op0>(df, hn::BitCast(df, x), v0);
    if constexpr (Second)
      y = kArithQuietens ? hn::BitCast(du, apply<Op1>(hn::BitCast(df, y), v1))
                         : op_lanes<Op1>(df, hn::BitCast(df, y), v1);
    store_bits(du, y, out, i, out_type, saturate);
  }
  return i;
}

template <ScalarRowOp Op0, ScalarRowOp Op1, bool Second>
void scalar_io_row(float s0, float s1, const ScalarRowIo& io, size_t n) {
  const size_t i = scalar_io_lanes<Op0, Op1, Second>(hn::ScalableTag<uint32_t>(), s0, s1, io, 0, n);
  scalar_io_lanes<Op0, Op1, Second>(hn::CappedTag<uint32_t, 1>(), s0, s1, io, i, n);
}

template <ScalarRowOp Op0>
void scalar_io_of(const ScalarRowOp* op1, float s0, float s1, const ScalarRowIo& io, size_t n) {
  if (op1 == nullptr) return scalar_io_row<Op0, Op0, false>(s0, s1, io, n);
  switch (*op1) {
    case ScalarRowOp::Add: return scalar_io_row<Op0, ScalarRowOp::Add, true>(s0, s1, io, n);
    case ScalarRowOp::Subtract: return scalar_io_row<Op0, ScalarRowOp::Subtract, true>(s0, s1, io, n);
    case ScalarRowOp::ReverseSubtract: return scalar_io_row<Op0, ScalarRowOp::ReverseSubtract, true>(s0, s1, io, n);
    case ScalarRowOp::Mult: return scalar_io_row<Op0, ScalarRowOp::Mult, true>(s0, s1, io, n);
  }
}

void scalar_io(ScalarRowOp op0, const ScalarRowOp* op1, float s0, float s1, const ScalarRowIo& io, size_t n) {
  switch (op0) {
    case ScalarRowOp::Add: return scalar_io_of<ScalarRowOp::Add>(op1, s0, s1, io, n);
    case ScalarRowOp::Subtract: return scalar_io_of<ScalarRowOp::Subtract>(op1, s0, s1, io, n);
    case ScalarRowOp::ReverseSubtract: return scalar_io_of<ScalarRowOp::ReverseSubtract>(op1, s0, s1, io, n);
    case ScalarRowOp::Mult: return scalar_io_of<ScalarRowOp::Mult>(op1, s0, s1, io, n);
  }
}

// ScalarTensorTensor: full vectors from i, each loaded before its lanes are stored; ORs a NaN result into `seen`.
template <ScalarRowOp Op0, ScalarRowOp Op1, class DU>
HWY_INLINE size_t tensor_io_lanes(DU du, float s, const TensorRowIo& io, size_t i, size_t n, bool& nan) {
  const hn::Rebind<float, DU> df;
  const auto sv = hn::Set(df, s);
  const size_t lanes = hn::Lanes(du);
  // Locals, so that the stores through `v` and `out` cannot be taken to change them.
  const void* const ar = io.a;
  const void* const br = io.b;
  float* const v = io.v;
  void* const out = io.out;
  const RowElement a_type = io.a_type, b_type = io.b_type, out_type = io.out_type;
  const bool saturate = io.saturate;
  auto seen = hn::Zero(df);
  for (; i + lanes <= n; i += lanes) {
    const auto a = hn::BitCast(df, load_bits(du, ar, i, a_type));
    const auto b = hn::BitCast(df, load_bits(du, br, i, b_type));
    const auto y = apply<Op1>(apply<Op0>(a, sv), b);
    seen = hn::Or(seen, hn::VecFromMask(df, hn::IsNaN(y)));
    if (v != nullptr) hn::StoreU(y, df, v + i);
    if (out != nullptr) store_bits(du, hn::BitCast(du, y), out, i, out_type, saturate);
  }
  nan = nan || !hn::AllFalse(df, hn::MaskFromVec(seen));
  return i;
}

template <ScalarRowOp Op0, ScalarRowOp Op1>
bool tensor_io_row(float s, const TensorRowIo& io, size_t n) {
  bool nan = false;
  const size_t i = tensor_io_lanes<Op0, Op1>(hn::ScalableTag<uint32_t>(), s, io, 0, n, nan);
  tensor_io_lanes<Op0, Op1>(hn::CappedTag<uint32_t, 1>(), s, io, i, n, nan);
  return !nan;
}

template <ScalarRowOp Op0>
bool tensor_io_of(ScalarRowOp op1, float s, const TensorRowIo& io, size_t n) {
  switch (op1) {
    case ScalarRowOp::Add: return tensor_io_row<Op0, ScalarRowOp::Add>(s, io, n);
    case ScalarRowOp::Subtract: return tensor_io_row<Op0, ScalarRowOp::Subtract>(s, io, n);
    case ScalarRowOp::ReverseSubtract: return tensor_io_row<Op0, ScalarRowOp::ReverseSubtract>(s, io, n);
    case ScalarRowOp::Mult: return tensor_io_row<Op0, ScalarRowOp::Mult>(s, io, n);
  }
  return false;
}

bool tensor_io(ScalarRowOp op0, ScalarRowOp op1, float s, const TensorRowIo& io, size_t n) {
  switch (op0) {
    case ScalarRowOp::Add: return tensor_io_of<ScalarRowOp::Add>(op1, s, io, n);
    case ScalarRowOp::Subtract: return tensor_io_of<ScalarRowOp::Subtract>(op1, s, io, n);
    case ScalarRowOp::ReverseSubtract: return tensor_io_of<ScalarRowOp::ReverseSubtract>(op1, s, io, n);
    case ScalarRowOp::Mult: return tensor_io_of<ScalarRowOp::Mult>(op1, s, io, n);
  }
  return false;
}

}  // namespace HWY_NAMESPACE
}  // namespace tpbisa::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tpbisa::kernels {

HWY_EXPORT(scalar_rows);
HWY_EXPORT(scalar_io);
HWY_EXPORT(tensor_io);

void fp32_scalar_rows(ScalarRowOp op, const float* in, uint32_t* out, size_t n, size_t slices, const float* scalars) {
  HWY_DYNAMIC_DISPATCH(scalar_rows)(op, in, out, n, slices, scalars);
}

void scalar_row_io(ScalarRowOp op0, const ScalarRowOp* op1, float s0, float s1, const ScalarRowIo& io, size_t n) {
  HWY_DYNAMIC_DISPATCH(scalar_io)(op0, op1, s0, s1, io, n);
}

bool scalar_tensor_row_io(ScalarRowOp op0, ScalarRowOp op1, float s, const TensorRowIo& io, size_t n) {
  return HWY_DYNAMIC_DISPATCH(tensor_io)(op0, op1, s, io, n);
}

}  // namespace tpbisa::kernels
#endif  // HWY_ONCE
