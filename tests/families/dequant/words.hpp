// The dequant family's words the predicate cases and the family's tests share (their baselines).
#pragma once

#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::dequant_words {

/// TENSOR_DEQUANTIZE: 32 UINT32 words of FP4 codes from SBUF 0x0 into 64 UINT32 words of FP8 at SBUF 0x1000, 64
/// channels, E2M1TO_E5M2, no group.
inline Word base() {
  Word w{};
  set_header(w, 0x7B);
  store_le<uint32_t>(&w[12], 0x0);
  store_le<int16_t>(&w[16], 1);
  store_le<uint16_t>(&w[22], 32);
  store_le<uint16_t>(&w[24], 1);
  store_le<uint16_t>(&w[26], 1);
  w[32] = dtype::kUint32;
  w[33] = dtype::kUint32;
  w[34] = 64;
  w[35] = 1;
  store_le<uint32_t>(&w[44], 0x1000);
  store_le<int16_t>(&w[48], 1);
  store_le<uint16_t>(&w[54], 64);
  store_le<uint16_t>(&w[56], 1);
  store_le<uint16_t>(&w[58], 1);
  return w;
}

/// Partition 100 of SBUF: 64 channels from there run past partition 127.
inline uint32_t partition100(Generation g) {
  return 100 * partition1(g);
}

}  // namespace tpbisa::test::dequant_words
