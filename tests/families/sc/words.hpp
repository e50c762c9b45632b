// The sc family's words the predicate cases and the family's tests share (their baselines).
#pragma once

#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::sc_words {

/// SPARSITY_COMPRESS: 2 groups of 16 FP32 elements per partition from SBUF 0x0 (X), MAX, BFLOAT16 data in UINT32
/// {data, tag} elements, 8 of them at SBUF 0x1000, 64 channels.
inline Word sc_base() {
  Word w{};
  set_header(w, 0xE0);
  w[12] = dtype::kFp32;
  store_le<int16_t>(&w[20], 1);
  store_le<int16_t>(&w[22], 16);
  store_le<uint16_t>(&w[26], 16);
  store_le<uint16_t>(&w[28], 2);
  store_le<uint16_t>(&w[30], 1);
  w[32] = dtype::kBfloat16;
  w[33] = dtype::kUint32;
  w[34] = 64;
  w[36] = 0x09;  // MAX
  w[37] = 0x02;  // X
  store_le<uint32_t>(&w[48], 0x1000);
  store_le<int16_t>(&w[52], 1);
  store_le<uint16_t>(&w[58], 8);
  store_le<uint16_t>(&w[60], 1);
  store_le<uint16_t>(&w[62], 1);
  return w;
}

/// SPARSITY_COMPRESS_TAG: the same reduction, BFLOAT16 data at SBUF 0x1000, UINT16 tags at SBUF 0x2000.
inline Word sct_base() {
  Word w{};
  set_header(w, 0xE1);
  w[12] = dtype::kFp32;
  store_le<int16_t>(&w[24], 1);
  store_le<int16_t>(&w[26], 16);
  store_le<uint16_t>(&w[28], 16);
  store_le<uint16_t>(&w[30], 2);
  w[32] = dtype::kBfloat16;
  w[33] = dtype::kUint16;
  w[34] = 64;
  w[36] = 0x09;
  w[37] = 0x02;
  store_le<uint32_t>(&w[40], 0x1000);
  store_le<int16_t>(&w[44], 1);
  store_le<uint16_t>(&w[48], 8);
  store_le<uint16_t>(&w[50], 1);
  store_le<uint32_t>(&w[52], 0x2000);
  store_le<int16_t>(&w[56], 1);
  store_le<uint16_t>(&w[60], 8);
  store_le<uint16_t>(&w[62], 1);
  return w;
}

inline uint32_t partition100(Generation g) {
  return 100 * partition1(g);
}

}  // namespace tpbisa::test::sc_words
