// The PE array's product kernel: one Matmul's FP32 sums in the exact order of PROJ-CONV-F17.
#pragma once

#include <cstddef>

namespace tpbisa::kernels {

/// One Matmul over converted operands (real-programs.md §9.3): for every m < M and n < N,
///   acc = +0.0f; for k = 0 .. K-1 ascending: acc = acc + w[k*ldw + m] * x[k*ldx + n]   (FP32, RNE)
///   out[m*ldo + n] = accumulate ? out[m*ldo + n] + acc : acc
/// `w` is the stationary tile (row k = PE row k, column m = PE column m), `x` the moving tile (row k = source
/// partition k, column n = moving element n), `out` the PSUM tile (row m = destination partition m).
/// The result is bit-identical to this scalar definition for every input whose products are exact in FP32
/// (FP16, BF16 and FP8 operands), whatever the host's vector width.
void matmul_f32(const float* w, size_t ldw, const float* x, size_t ldx, float* out, size_t ldo, size_t K, size_t M,
                size_t N, bool accumulate);

/// The scalar definition above, kept as the reference the vector kernel is tested against.
void matmul_f32_reference(const float* w, size_t ldw, const float* x, size_t ldx, float* out, size_t ldo, size_t K,
                          size_t M, size_t N, bool accumulate);

}  // namespace tpbisa::kernels
