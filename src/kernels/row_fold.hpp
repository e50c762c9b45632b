// Vectorised sequential folds of sixteen channel rows at once (reductions vectorised across partitions, each row's
// order kept), bit-exact with alu_fp32 wherever their result is not a NaN.
#pragma once

#include <cstddef>
#include <cstdint>

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

}  // namespace tpbisa::kernels
