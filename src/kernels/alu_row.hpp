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

}  // namespace tpbisa::kernels
