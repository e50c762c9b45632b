// The PE array's product kernel: one Matmul's FP32 sums in the exact order of PROJ-CONV-F17.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tpbisa::kernels {

/// One Matmul over converted operands (real-programs.md §9.3): for every m < M and n < N,
///   acc = +0.0f; for k = 0 .. K-1 ascending: acc = acc + w[k*ldw + m] * x[k*ldx + n]   (FP32, RNE)
///   out[m*ldo + n] = accumulate ? out[m*ldo + n] + acc : acc
/// `w` is the stationary tile (row k = PE row k, column m = PE column m), `x` the moving tile (row k = source
/// partition k, column n = moving element n), `out` the PSUM tile (row m = destination partition m), which must not
/// overlap `w` or `x`. The kernel neither allocates nor throws.
/// The kernel uses fused multiply-add, so the result is bit-identical to this scalar definition exactly when every
/// product w*x is exact in FP32 (then fma(w, x, acc) and acc + w*x round the same sum once): always for FP16 and
/// FP8 operands; for BF16 operands only when no product leaves FP32's normal range (fma_exact_operands below
/// checks it; a BF16 value below 2^-63 or from 2^64 up can break it); never guaranteed for FP32 operands, which
/// take matmul_f32_generic. Any host vector width gives the same bits. A NaN result is some quiet NaN
/// (PROJ-CONV-N17: its sign and payload are not specified and may differ from the reference's).
void matmul_f32(const float* w, size_t ldw, const float* x, size_t ldx, float* out, size_t ldo, size_t K, size_t M,
                size_t N, bool accumulate);

/// The scalar definition above, kept as the reference the vector kernel is tested against.
void matmul_f32_reference(const float* w, size_t ldw, const float* x, size_t ldx, float* out, size_t ldo, size_t K,
                          size_t M, size_t N, bool accumulate);

/// The same product for any FP32 operands (fp32-mode passes, FP32 inputs): vectorised like matmul_f32 but with a
/// separate multiply and add per step, so every step rounds twice exactly as the scalar definition does.
void matmul_f32_generic(const float* w, size_t ldw, const float* x, size_t ldx, float* out, size_t ldo, size_t K,
                        size_t M, size_t N, bool accumulate);

/// matmul_f32 and matmul_f32_generic over rows anywhere, such as the partitions of a simulated memory, read and
/// summed into in place: moving element (k, n) at x[k][col + n], output element (m, n) at out[m][col + n]. No output
/// row may overlap another, `w` or a moving row.
void matmul_f32_rows(const float* w, size_t ldw, const float* const* x, float* const* out, size_t col, size_t K,
                     size_t M, size_t N, bool accumulate);
void matmul_f32_generic_rows(const float* w, size_t ldw, const float* const* x, float* const* out, size_t col, size_t K,
                             size_t M, size_t N, bool accumulate);

/// out[j] = element j of the n little-endian elements of `size` bytes (1, 2 or 4) at `bytes`, zero-extended;
/// `reversed`: element n - 1 - j. The bytes and `out` do not overlap.
void widen_elements(const uint8_t* bytes, unsigned size, size_t n, bool reversed, uint32_t* out);

/// Moving row `row`'s part in the selections of a transpose (PROJ-CONV-F18), x[0..n) its FP32 bits: sel[i] is the row
/// whose 1.0 column i selects, -1 while it has none, -2 once the column is no selection. Where x[i] is 1.0, sel[i]
/// becomes `row` if it was -1, else -2; where x[i] is another value than ±0, -2; where ±0, it stays.
void note_selection_row(const uint32_t* x, int32_t row, size_t n, int32_t* sel);

/// A selection transpose's group of g output rows of 32-bit elements (PROJ-CONV-F18): out[i * N + n] =
/// w[sel[n] * ldw + i] for i < g and n < N, every sel[n] >= 0. `out` overlaps neither `w` nor `sel`.
void gather_selection_rows(const uint32_t* w, size_t ldw, const int32_t* sel, size_t N, unsigned g, uint32_t* out);

/// Significant bits an operand may have for fma_exact_operands (two of them multiply exactly in FP32's 24).
inline constexpr int kFmaExactBits = 12;

/// True when every element of the rows x cols matrix at p (row stride ld) is ±0, ±Inf, NaN, or a normal value of
/// magnitude in [2^-63, 2^64) with at most kFmaExactBits significant bits. When both Matmul operands pass, every
/// product is exact in FP32 (normal, no overflow), so matmul_f32 equals matmul_f32_reference. FP16 and FP8 values
/// always pass; BF16 values pass unless extremely small or large.
bool fma_exact_operands(const float* p, size_t ld, size_t rows, size_t cols);

/// Whether the dispatched target's multiply-add is fused (false on targets without FMA, e.g. SSE4).
bool matmul_f32_fuses();

/// The SIMD target the kernels dispatch to on this host (Highway's name, e.g. "AVX3", "AVX2", "SSE4", "EMU128").
const char* simd_target_name();

/// The targets compiled into this build that the host supports, best first, as Highway target bits: writes up to
/// `capacity` of them and returns how many there are.
size_t simd_targets(int64_t* targets, size_t capacity);

/// Restricts the dispatch to one target from simd_targets (0 restores the host's best). For tests and
/// benchmarks only: process-wide and not thread-safe.
void force_simd_target(int64_t target);

}  // namespace tpbisa::kernels
