// FP32 rows of one ALU op against a scalar per slice, per SIMD target (IEEE add, subtract, multiply; NaNs quietened).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/alu_row.cpp"
#include "kernels/hwy_targets.hpp"
// clang-format off: foreach_target must come before highway.h
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
// clang-format on

#include <bit>

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
// Without `nan`, a NaN's lanes hold unspecified patterns (for a caller that rewrites a row holding one).
template <class DU>
HWY_INLINE hn::Vec<DU> bf16_of(DU du, hn::Vec<DU> f, bool saturate, bool nan_lanes = true) {
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
  if (!nan_lanes) return r;
  const auto nan = hn::RebindMask(du, hn::IsNaN(hn::BitCast(df, f)));
  if (HWY_UNLIKELY(!hn::AllFalse(du, nan))) r = hn::IfThenElse(nan, hn::Or(sign(), hn::Set(du, 0x7FC0U)), r);
  return r;
}

// Stores a vector of fp32 bits as row elements from i (BF16 narrowed by bf16_of).
template <class DU>
HWY_INLINE void store_bits(DU du, hn::Vec<DU> bits, void* row, size_t i, RowElement e, bool saturate,
                           bool nan_lanes = true) {
  if (e == RowElement::Bf16) {
    const hn::Rebind<uint16_t, DU> d16;
    const hn::RebindToSigned<DU> di;
    // Every pattern is at most 0xFFFF: the demotion's saturation never acts.
    hn::StoreU(hn::DemoteTo(d16, hn::BitCast(di, bf16_of(du, bits, saturate, nan_lanes))), d16,
               static_cast<uint16_t*>(row) + i);
    return;
  }
  hn::StoreU(bits, du, static_cast<uint32_t*>(row) + i);
}

// ---- BF16 rows two elements per 32-bit lane: no widening or narrowing shuffles ----
// A vector of 32-bit lanes loaded from a BF16 row holds elements 2j (low half) and 2j + 1 (high half) of lane j
// (little-endian): the even elements widen by a shift, the odd ones by a mask, and the two narrowed patterns go back
// into one lane by a shift and a mask, so the row is stored in its own order.

// fp32 bits -> the BF16 pattern of bf16_of in the high 16 bits of each lane (the low 16 unspecified).
template <class DU>
HWY_INLINE hn::Vec<DU> bf16_high(DU du, hn::Vec<DU> f, bool saturate, bool nan_lanes) {
  const hn::Rebind<float, DU> df;
  const hn::RebindToSigned<DU> di;
  const auto lsb = hn::And(hn::ShiftRight<16>(f), hn::Set(du, 1U));
  auto r = hn::Add(f, hn::Add(lsb, hn::Set(du, 0x7FFFU)));  // overflow rounds to ±Inf
  const auto sign = [&] { return hn::And(f, hn::Set(du, 0x80000000U)); };
  if (HWY_UNLIKELY(saturate)) {
    const auto a = hn::BitCast(di, hn::And(f, hn::Set(du, 0x7FFFFFFFU)));
    const auto over = hn::RebindMask(du, hn::Gt(a, hn::Set(di, 0x7F7F7FFF)));
    r = hn::IfThenElse(over, hn::Or(sign(), hn::Set(du, 0x7F7F0000U)), r);
  }
  if (!nan_lanes) return r;
  const auto nan = hn::RebindMask(du, hn::IsNaN(hn::BitCast(df, f)));
  if (HWY_UNLIKELY(!hn::AllFalse(du, nan))) r = hn::IfThenElse(nan, hn::Or(sign(), hn::Set(du, 0x7FC00000U)), r);
  return r;
}

// A BF16 row's elements [i, i + 2 Lanes) as two vectors of fp32 bits: the even elements and the odd ones.
template <class DU>
HWY_INLINE void load_pairs(DU du, const void* row, size_t i, hn::Vec<DU>& even, hn::Vec<DU>& odd) {
  const hn::Repartition<uint16_t, DU> d16;
  const auto w = hn::BitCast(du, hn::LoadU(d16, static_cast<const uint16_t*>(row) + i));
  even = hn::ShiftLeft<16>(w);
  odd = hn::And(w, hn::Set(du, 0xFFFF0000U));
}

// Stores the narrowed even and odd elements (bf16_high of each) as BF16 row elements [i, i + 2 Lanes).
template <class DU>
HWY_INLINE void store_pairs(DU du, hn::Vec<DU> even_high, hn::Vec<DU> odd_high, void* row, size_t i) {
  const hn::Repartition<uint16_t, DU> d16;
  const auto w = hn::Or(hn::ShiftRight<16>(even_high), hn::And(odd_high, hn::Set(du, 0xFFFF0000U)));
  hn::StoreU(hn::BitCast(d16, w), d16, static_cast<uint16_t*>(row) + i);
}

// The pairs form applies where the lanes are little-endian halves and vectors have more than one lane.
constexpr bool kPairs = std::endian::native == std::endian::little && HWY_TARGET != HWY_SCALAR;

// x86's vector arithmetic never returns a signalling NaN, and quietens a NaN operand keeping its payload: quieting
// an operand or a result there changes no bit, so the fused TensorScalar pass leaves it to the arithmetic.
#if HWY_ARCH_X86
constexpr bool kArithQuietens = true;
#else
constexpr bool kArithQuietens = false;
#endif

// How a pass's rows are stored, as a template parameter so that the vector loop has no branch on it: every row FP32
// (kAllFp32) or every row BF16 (kAllBf16), else each row's type read from its io (kMixed).
constexpr int kAllFp32 = 0, kAllBf16 = 1, kMixed = 2;
constexpr RowElement kind_element(int kind, RowElement runtime) {
  return kind == kAllFp32 ? RowElement::Fp32 : kind == kAllBf16 ? RowElement::Bf16 : runtime;
}
int kind_of(RowElement a, RowElement b, RowElement c) {
  if (a != b || a != c) return kMixed;
  return a == RowElement::Fp32 ? kAllFp32 : kAllBf16;
}

// TensorScalar: full vectors from i (a one-lane tag finishes the row), each loaded before its lanes are stored.
template <ScalarRowOp Op0, ScalarRowOp Op1, bool Second, int Kind, class DU>
HWY_INLINE size_t scalar_io_lanes(DU du, float s0, float s1, const ScalarRowIo& io, size_t i, size_t n) {
  const hn::Rebind<float, DU> df;
  const auto v0 = hn::Set(df, s0), v1 = hn::Set(df, s1);
  // Locals, so that the stores through `out` cannot be taken to change them.
  const void* const in = io.in;
  void* const out = io.out;
  const RowElement in_type = kind_element(Kind, io.in_type), out_type = kind_element(Kind, io.out_type);
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

// TensorScalar over BF16 rows, two elements per lane (elements [i, i + 2 Lanes) per vector, both halves loaded
// before the lanes are stored): as scalar_io_lanes computes each element.
template <ScalarRowOp Op0, ScalarRowOp Op1, bool Second, class DU>
HWY_INLINE size_t scalar_pairs(DU du, float s0, float s1, const ScalarRowIo& io, size_t n) {
  const hn::Rebind<float, DU> df;
  const auto v0 = hn::Set(df, s0), v1 = hn::Set(df, s1);
  const void* const in = io.in;
  void* const out = io.out;
  const bool saturate = io.saturate;
  const auto step = [&](hn::Vec<DU> x) {
    if (!kArithQuietens) x = quieted(du, x);
    auto y = kArithQuietens ? hn::BitCast(du, apply<Op0>(hn::BitCast(df, x), v0))
                            : op_lanes<Op0>(df, hn::BitCast(df, x), v0);
    if constexpr (Second)
      y = kArithQuietens ? hn::BitCast(du, apply<Op1>(hn::BitCast(df, y), v1))
                         : op_lanes<Op1>(df, hn::BitCast(df, y), v1);
    return bf16_high(du, y, saturate, true);
  };
  const size_t lanes = hn::Lanes(du);
  size_t i = 0;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    hn::Vec<DU> even, odd;
    load_pairs(du, in, i, even, odd);
    store_pairs(du, step(even), step(odd), out, i);
  }
  return i;
}

template <ScalarRowOp Op0, ScalarRowOp Op1, bool Second, int Kind>
void scalar_io_kind(float s0, float s1, const ScalarRowIo& io, size_t n) {
  size_t i = 0;
  if constexpr (Kind == kAllBf16 && kPairs)
    i = scalar_pairs<Op0, Op1, Second>(hn::ScalableTag<uint32_t>(), s0, s1, io, n);
  i = scalar_io_lanes<Op0, Op1, Second, Kind>(hn::ScalableTag<uint32_t>(), s0, s1, io, i, n);
  scalar_io_lanes<Op0, Op1, Second, Kind>(hn::CappedTag<uint32_t, 1>(), s0, s1, io, i, n);
}

template <ScalarRowOp Op0, ScalarRowOp Op1, bool Second>
void scalar_io_row(float s0, float s1, const ScalarRowIo& io, size_t n) {
  switch (kind_of(io.in_type, io.out_type, io.out_type)) {
    case kAllFp32: return scalar_io_kind<Op0, Op1, Second, kAllFp32>(s0, s1, io, n);
    case kAllBf16: return scalar_io_kind<Op0, Op1, Second, kAllBf16>(s0, s1, io, n);
    default: return scalar_io_kind<Op0, Op1, Second, kMixed>(s0, s1, io, n);
  }
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

// ScalarTensorTensor: full vectors from i, each loaded before its lanes are stored; ORs a NaN result into `nan`.
// Stores: kOut (out only), kBoth (v and out), or each when its pointer is not null (kEither). A NaN's lanes of a BF16
// out are left unspecified: the caller rewrites a piece holding one.
constexpr int kOut = 0, kBoth = 1, kEither = 2;
template <ScalarRowOp Op0, ScalarRowOp Op1, int Kind, int Stores, class DU>
HWY_INLINE size_t tensor_io_lanes(DU du, float s, const TensorRowIo& io, size_t i, size_t n, bool& nan) {
  const hn::Rebind<float, DU> df;
  const auto sv = hn::Set(df, s);
  const size_t lanes = hn::Lanes(du);
  // Locals, so that the stores through `v` and `out` cannot be taken to change them.
  const void* const ar = io.a;
  const void* const br = io.b;
  float* const v = io.v;
  void* const out = io.out;
  const RowElement a_type = kind_element(Kind, io.a_type), b_type = kind_element(Kind, io.b_type);
  const RowElement out_type = kind_element(Kind, io.out_type);
  const bool saturate = io.saturate;
  auto seen = hn::Zero(df);
  for (; i + lanes <= n; i += lanes) {
    const auto a = hn::BitCast(df, load_bits(du, ar, i, a_type));
    const auto b = hn::BitCast(df, load_bits(du, br, i, b_type));
    const auto y = apply<Op1>(apply<Op0>(a, sv), b);
    seen = hn::Or(seen, hn::VecFromMask(df, hn::IsNaN(y)));
    if (Stores == kBoth || (Stores == kEither && v != nullptr)) hn::StoreU(y, df, v + i);
    if (Stores != kEither || out != nullptr) store_bits(du, hn::BitCast(du, y), out, i, out_type, saturate, false);
  }
  nan = nan || !hn::AllFalse(df, hn::MaskFromVec(seen));
  return i;
}

// ScalarTensorTensor over BF16 rows into a BF16 out (no v), two elements per lane: as tensor_io_lanes.
template <ScalarRowOp Op0, ScalarRowOp Op1, class DU>
HWY_INLINE size_t tensor_pairs(DU du, float s, const TensorRowIo& io, size_t n, bool& nan) {
  const hn::Rebind<float, DU> df;
  const auto sv = hn::Set(df, s);
  const void* const ar = io.a;
  const void* const br = io.b;
  void* const out = io.out;
  const bool saturate = io.saturate;
  const size_t lanes = hn::Lanes(du);
  auto seen = hn::Zero(df);
  size_t i = 0;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    hn::Vec<DU> a0, a1, b0, b1;
    load_pairs(du, ar, i, a0, a1);
    load_pairs(du, br, i, b0, b1);
    const auto y0 = apply<Op1>(apply<Op0>(hn::BitCast(df, a0), sv), hn::BitCast(df, b0));
    const auto y1 = apply<Op1>(apply<Op0>(hn::BitCast(df, a1), sv), hn::BitCast(df, b1));
    seen = hn::Or(seen, hn::VecFromMask(df, hn::Or(hn::IsNaN(y0), hn::IsNaN(y1))));
    store_pairs(du, bf16_high(du, hn::BitCast(du, y0), saturate, false),
                bf16_high(du, hn::BitCast(du, y1), saturate, false), out, i);
  }
  nan = nan || !hn::AllFalse(df, hn::MaskFromVec(seen));
  return i;
}

template <ScalarRowOp Op0, ScalarRowOp Op1, int Kind, int Stores>
bool tensor_io_kind(float s, const TensorRowIo& io, size_t n) {
  bool nan = false;
  size_t i = 0;
  if constexpr (Kind == kAllBf16 && Stores == kOut && kPairs)
    i = tensor_pairs<Op0, Op1>(hn::ScalableTag<uint32_t>(), s, io, n, nan);
  i = tensor_io_lanes<Op0, Op1, Kind, Stores>(hn::ScalableTag<uint32_t>(), s, io, i, n, nan);
  tensor_io_lanes<Op0, Op1, Kind, Stores>(hn::CappedTag<uint32_t, 1>(), s, io, i, n, nan);
  return !nan;
}

template <ScalarRowOp Op0, ScalarRowOp Op1>
bool tensor_io_row(float s, const TensorRowIo& io, size_t n) {
  const int kind = kind_of(io.a_type, io.b_type, io.out_type);
  if (io.out == nullptr || kind == kMixed) return tensor_io_kind<Op0, Op1, kMixed, kEither>(s, io, n);
  if (kind == kAllFp32)
    return io.v == nullptr ? tensor_io_kind<Op0, Op1, kAllFp32, kOut>(s, io, n)
                           : tensor_io_kind<Op0, Op1, kAllFp32, kBoth>(s, io, n);
  return io.v == nullptr ? tensor_io_kind<Op0, Op1, kAllBf16, kOut>(s, io, n)
                         : tensor_io_kind<Op0, Op1, kAllBf16, kBoth>(s, io, n);
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
