// Vectorised FP32 rows of one ALU op against a scalar per slice (the PtrMulti row path), bit-exact with alu_fp32.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tpbisa::kernels {

/// The ops a row computes: y = x + s, x - s, s - x, x * s.
enum class ScalarRowOp : uint8_t { Add, Subtract, ReverseSubtract, Mult };

/// For each slice k < `slices`, over its `n` elements i = k * n ... (k + 1) * n - 1: out[i] = the fp32 bits of
/// (in[i] op scalars[k]), round to nearest even, subnormals kept, a NaN result made quiet. With no scalar a NaN, a
/// NaN result carries in[i]'s payload on every target, so each element is bit for bit alu_fp32's result for the op
/// (the caller takes a NaN scalar element by element). One call per row: the target is chosen once for all its
/// slices. `in` and `out` may be unaligned; they are either the same bytes (a row updated in place: element i is read
/// before it is written, and nothing is read behind it) or do not overlap.
void fp32_scalar_rows(ScalarRowOp op, const float* in, uint32_t* out, size_t n, size_t slices, const float* scalars);

/// How a row's elements are stored: FP32 bits, or BF16 patterns (read exactly as to_fp32_bits widens them, written
/// as from_fp32_bits(., BFLOAT16, {.sis = saturate}) narrows: round to nearest even; NaN -> sign | 0x7FC0).
enum class RowElement : uint8_t { Fp32, Bf16 };

/// The row of a TensorScalar pass: n elements read from `in`, n written to `out`.
struct ScalarRowIo {
  const void* in = nullptr;
  RowElement in_type = RowElement::Fp32;
  void* out = nullptr;
  RowElement out_type = RowElement::Fp32;
  bool saturate = false;
};

/// One pass per vector: x = in[i] as fp32 (a BF16 NaN made quiet), y = x op0 s0, then y = y op1 s1 unless op1 is
/// null, each step as fp32_scalar_rows computes it (a NaN result made quiet), out[i] = y in out_type. Bit for bit
/// bf16_to_fp32, fp32_scalar_rows per op and fp32_to_bf16 in sequence; so, with no scalar a NaN, alu_fp32's
/// composition. `in` and `out` may be unaligned; they are the same bytes (elements of one size) or do not overlap.
void scalar_row_io(ScalarRowOp op0, const ScalarRowOp* op1, float s0, float s1, const ScalarRowIo& io, size_t n);

/// The rows of a ScalarTensorTensor pass: a and b read; y kept as fp32 in `v` unless null, and written to `out` in
/// out_type unless null.
struct TensorRowIo {
  const void* a = nullptr;
  RowElement a_type = RowElement::Fp32;
  const void* b = nullptr;
  RowElement b_type = RowElement::Fp32;
  float* v = nullptr;
  void* out = nullptr;
  RowElement out_type = RowElement::Fp32;
  bool saturate = false;
};

/// y[i] = op1(op0(a[i], s), b[i]) over i < n, each op on its two operands as ScalarRowOp names them ("x op y"), in
/// fp32 from the exact fp32 values of a and b, round to nearest even, subnormals kept. True when no y[i] is a NaN:
/// then every element is bit for bit alu_fp32's composition (and out[i] from_fp32_bits'); false when one is (the
/// caller recomputes the row element by element; v and out then hold unspecified bits). Any alignment; v and out
/// may each be a or b itself with elements of the same size (element i is read before it is written) or disjoint.
bool scalar_tensor_row_io(ScalarRowOp op0, ScalarRowOp op1, float s, const TensorRowIo& io, size_t n);

}  // namespace tpbisa::kernels
