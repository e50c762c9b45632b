// Vectorised rows of the index, select, statistics and search opcodes (act-index-ops.md §9-§15), bit-exact with the
// element paths of their executors.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tpbisa::kernels {

/// out[i] = start + i * step modulo 2^32 for i < n (one dimension of a DATA4D ramp); with `as_fp32`, that value read
/// as int32 and converted to fp32 with round to nearest even, its bits. `out` may be unaligned.
void int32_ramp(uint32_t* out, size_t n, uint32_t start, uint32_t step, bool as_fp32);

/// The AFFINE_SELECT keep test on the mask value m (read as int32): m > 0, m >= 0, m == 0, m != 0.
enum class RampKeep : uint8_t { Gt, Ge, Eq, Ne };

/// out[i] = in[i] when the mask value start + i * step (modulo 2^32, read as int32) passes `keep`, else `fill`, over
/// i < n four-byte elements. `in` and `out` may be unaligned; they are the same bytes or do not overlap.
void select_by_ramp(const uint32_t* in, uint32_t* out, size_t n, uint32_t start, uint32_t step, RampKeep keep,
                    uint32_t fill);

/// The first i < n with x[i] > threshold (an ordered compare: a NaN is never above), or n.
size_t first_above(const float* x, size_t n, float threshold);

/// MAX8's eight largest (§15.3, PROJ-CONV-A27) updated by x[0..n) in order: top holds fp32 bits in descending
/// order; an element enters only when it is above the last slot (a NaN never is), at the first slot it is above,
/// the slots below moving down one.
void max8_update(const float* x, size_t n, uint32_t* top);

/// The first i < n whose x[i] equals one of keys[0..8) under IEEE equality (+0 == -0, a NaN equals nothing), or n.
size_t first_equal_any(const float* x, size_t n, const float* keys);

/// The sequential maximum of x[0..n) (acc = acc < x ? x : acc, from x[0]), n >= 1: true with `out` when no x[i] is
/// a NaN and the maximum is not a zero, so that every maximal element has the same bits and the order of the
/// comparisons cannot change the result; false otherwise (the caller folds element by element).
bool fp32_max_exact(const float* x, size_t n, float& out);

/// For each of `rows` rows of n fp32 elements (rows[r], any alignment): the moments of §14.3 of the elements
/// k = h, h + halves, ... (h < halves, halves 1 or 2), each a sequential fp32 sum in element order: mean = sum *
/// (1 / count), nvar = the sum of (x - mean)^2 in element order; +0 and +0 for an empty set. Written to
/// mean[r * halves + h] and nvar[r * halves + h]. Several rows are computed at once, one per SIMD lane: with
/// `scratch` (lane_rows_scratch(n) floats) the rows are transposed into it on targets of 256-bit vectors and wider,
/// else gathered.
void fp32_moments_rows(const float* const* rows, size_t row_count, size_t n, unsigned halves, float* mean, float* nvar,
                       float* scratch);

/// For each of `rows` rows of `tuples` (count, mean, M2) triples of fp32 (rows[r], any alignment): the aggregate of
/// §14.3 in element order: N = sum of counts, mean = (sum of count * mean) / N, variance = (sum of (M2 + count *
/// (mean_t - mean)^2)) / N, into mean[r] and variance[r]; `scratch` as for fp32_moments_rows (n = 3 * tuples).
void fp32_aggregate_rows(const float* const* rows, size_t row_count, size_t tuples, float* mean, float* variance,
                         float* scratch);

/// Rows of n fp32 elements each stored in `segments` pieces that split every row at the same elements: element k of
/// row r, for bounds[s] <= k < bounds[s + 1], is pieces[s * row_count + r][k - bounds[s]] (any alignment);
/// bounds[0] = 0 and bounds[segments] = n. A row that crosses memory pages is so read where it lies, not copied.
struct RowPieces {
  const float* const* pieces = nullptr;
  const size_t* bounds = nullptr;
  size_t segments = 0;
  size_t row_count = 0;
};

/// fp32_aggregate_rows over rows in pieces of n >= 3 * tuples elements, bit for bit the same results; `scratch` as
/// for fp32_moments_rows of rows of n elements.
void fp32_aggregate_pieces(const RowPieces& rows, size_t tuples, float* mean, float* variance, float* scratch);

/// The floats of the scratch the channel-lane statistics transpose a group of rows of n elements into.
constexpr size_t lane_rows_scratch(size_t n) {
  return 16 * n;
}

}  // namespace tpbisa::kernels
