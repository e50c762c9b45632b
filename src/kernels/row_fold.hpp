// Vectorised sequential folds of sixteen channel rows at once (reductions vectorised across partitions, each row's
// order kept) and the fp32 scalar-tensor-tensor row, bit-exact with alu_fp32 wherever their result is not a NaN.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/alu_row.hpp"

namespace tpbisa::kernels {

/// Rows folded together by fp32_lane_folds.
inline constexpr unsigned kFoldLanes = 16;

/// The fold's op, as alu_fp32 computes it on non-NaN operands: a + b; a < b ? b : a (MAX); b < a ? b : a (MIN).
enum class FoldOp : uint8_t { Add, Max, Min };
/// How a row's elements are stored: FP32, or BF16 (widened exactly: the pattern shifted up 16 bits).
enum class FoldElement : uint8_t { Fp32, Bf16 };

/// For each lane j < kFoldLanes, over elements [first, first + count) of rows[j] (elements of `element`, any
/// alignment): acc = seed[j] (or, with no seed, the first element, which is then not folded again), then
/// acc = acc op x for every element x in order, the running value the left operand; out[j] = acc. Each lane is the
/// sequential fold of PROJ-CONV-K6 computed in plain IEEE fp32 (round to nearest even, subnormals kept): bit for bit
/// alu_fp32's fold whenever out[j] is not a NaN. A lane whose out[j] is a NaN (a NaN operand, inf - inf, or a NaN
/// first element of a MAX/MIN) must be recomputed by the caller with alu_fp32. count >= 1 without a seed.
void fp32_lane_folds(FoldOp op, FoldElement element, const uint8_t* const* rows, uint64_t first, uint64_t count,
                     const float* seed, float* out);

/// out[i] = op1(op0(a[i], s), b[i]) over i < n, each op one of ScalarRowOp on its two operands as named there
/// ("x op y": Add x + y, Subtract x - y, ReverseSubtract y - x, Mult x * y), in fp32, round to nearest even,
/// subnormals kept. True when no out[i] is a NaN: then every element is bit for bit alu_fp32's composition; false
/// when one is (the caller recomputes the row element by element; out is then unspecified). a, b, out any alignment;
/// out may be a or b itself (element i is read before it is written) or disjoint from them.
bool fp32_scalar_tensor_row(ScalarRowOp op0, ScalarRowOp op1, const float* a, float s, const float* b, float* out,
                            size_t n);

}  // namespace tpbisa::kernels
