// The convlut family's words the predicate cases and the family's tests share (their baselines).
#pragma once

#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::convlut_words {

/// The CPTC leg: a 4-unit UINT32 block from SBUF 0x0 on 128 rows, lut_dtype CPTC1 (0x19).
inline Word base() {
  Word w{};
  set_header(w, 0xE4);
  store_le<int16_t>(&w[20], 1);
  store_le<uint16_t>(&w[24], 4);
  store_le<uint16_t>(&w[26], 1);
  w[32] = dtype::kUint32;
  w[38] = 128;
  w[39] = 128;
  w[44] = 0x0F;
  w[45] = 0x0F;
  w[47] = 0x19;
  return w;
}

/// The legacy leg on the baseline: lut_dtype INVALID, the 16-entry UINT16 table.
inline void to_legacy(Word& w) {
  w[47] = 0;
  w[32] = dtype::kUint16;
  store_le<uint16_t>(&w[24], 16);
}

}  // namespace tpbisa::test::convlut_words
