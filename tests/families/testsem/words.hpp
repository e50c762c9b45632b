// The testsem family's words the predicate cases and the family's tests share (their baselines).
#pragma once

#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::testsem_words {

/// READ_SEM: semaphores 3 and 7 into registers 1 and 2.
inline Word base() {
  Word w{};
  set_header(w, 0xB4);
  w[15] = 2;
  w[16] = 3;
  w[17] = 7;
  w[32] = 1;
  w[33] = 2;
  return w;
}

}  // namespace tpbisa::test::testsem_words
