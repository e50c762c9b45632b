// The cci family's words the predicate cases and the family's tests share (their baselines).
#pragma once

#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::cci_words {

/// COMPACT_CONTROL_INST: MOV_IMM_LO r3 = 0x1234, ADD r5 = r3 + r4, then thirteen NOPs.
inline Word base() {
  Word w{};
  set_header(w, 0xB6);
  w[4] = 0x02;  // inst0: MOV_IMM_LO {op, dst, imm16}
  w[5] = 3;
  w[6] = 0x34;
  w[7] = 0x12;
  w[8] = 0x10;  // inst1: ADD {op, src0, src1, dst}
  w[9] = 3;
  w[10] = 4;
  w[11] = 5;
  return w;
}

}  // namespace tpbisa::test::cci_words
