// Vectorised element conversions between FP16/BF16 rows and FP32, bit-exact with to_fp32_bits/from_fp32_bits.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tpbisa::kernels {

/// out[i] = the fp32 value of FP16 pattern in[i]: exact; a NaN keeps its sign and payload and becomes quiet
/// (to_fp32_bits(in[i], FP16), PROJ-CONV-N12/N17).
void fp16_to_fp32(const uint16_t* in, float* out, size_t n);

/// out[i] = the fp32 value of BF16 pattern in[i]: the pattern shifted up 16 bits, a NaN made quiet
/// (to_fp32_bits(in[i], BFLOAT16)).
void bf16_to_fp32(const uint16_t* in, float* out, size_t n);

/// out[i] = FP16 pattern of in[i], round to nearest even, subnormals kept; NaN -> sign | 0x7E00; overflow and Inf
/// -> ±Inf, or ±max finite when `saturate` (ConvertOptions::sis) (from_fp32_bits(., FP16, {.sis = saturate})).
void fp32_to_fp16(const float* in, uint16_t* out, size_t n, bool saturate = false);

/// out[i] = BF16 pattern of in[i], round to nearest even; NaN -> sign | 0x7FC0; overflow and Inf -> ±Inf, or
/// ±max finite when `saturate` (from_fp32_bits(., BFLOAT16, {.sis = saturate})).
void fp32_to_bf16(const float* in, uint16_t* out, size_t n, bool saturate = false);

}  // namespace tpbisa::kernels
