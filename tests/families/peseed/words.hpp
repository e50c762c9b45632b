// The peseed family's words the predicate cases and the family's tests share (their baselines).
#pragma once

#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::peseed_words {

/// LOAD_SEED: 128 seeds per partition from SBUF 0x1000, a 16-element BF16 identity at SBUF 0x2000, 16 rows, 128
/// columns.
inline Word base() {
  Word w{};
  set_header(w, 0x08);
  store_le<uint32_t>(&w[12], 0x1000);
  store_le<int16_t>(&w[16], 1);
  store_le<uint16_t>(&w[20], 128);
  store_le<uint16_t>(&w[22], 1);
  store_le<uint32_t>(&w[24], 0x2000);
  store_le<int16_t>(&w[28], 1);
  store_le<uint16_t>(&w[30], 16);
  w[32] = dtype::kBfloat16;
  w[33] = 1;
  w[34] = 16;
  w[35] = 128;
  return w;
}

}  // namespace tpbisa::test::peseed_words
