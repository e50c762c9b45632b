// The PE product kernel and its scalar reference (PROJ-CONV-F17).
#include "kernels/matmul.hpp"

namespace tpbisa::kernels {

void matmul_f32_reference(const float* w, size_t ldw, const float* x, size_t ldx, float* out, size_t ldo, size_t K,
                          size_t M, size_t N, bool accumulate) {
  for (size_t m = 0; m < M; ++m)
    for (size_t n = 0; n < N; ++n) {
      float acc = 0.0f;
      for (size_t k = 0; k < K; ++k) acc = acc + w[k * ldw + m] * x[k * ldx + n];
      float& o = out[m * ldo + n];
      o = accumulate ? o + acc : acc;
    }
}

// Until the vectorised kernel lands the reference is the kernel.
void matmul_f32(const float* w, size_t ldw, const float* x, size_t ldx, float* out, size_t ldo, size_t K, size_t M,
                size_t N, bool accumulate) {
  matmul_f32_reference(w, ldw, x, ldx, out, ldo, K, M, N, accumulate);
}

}  // namespace tpbisa::kernels
