// Layout goldens: a word whose every byte is distinct, and the HEADER / EVENTS bytes every layout opens with.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

#include "tpbisa/fields.hpp"

namespace tpbisa::test {

/// A word whose every byte is distinct: byte i = 0x80 + i, then the opcode in byte 0.
inline Word distinct_word(uint8_t opcode) {
  Word w{};
  for (size_t i = 0; i < kWordBytes; ++i) w[i] = static_cast<uint8_t>(0x80 + i);
  w[0] = opcode;
  return w;
}

inline void expect_common_prefix(const Header& h, const Events& e, uint8_t opcode) {
  EXPECT_EQ(h.opcode, opcode);
  EXPECT_EQ(h.inst_word_len, 0x81);
  EXPECT_EQ(h.debug_cmd, 0x82);
  EXPECT_EQ(h.debug_hint, 0x83);
  EXPECT_EQ(e.wait_mode, 0x84);
  EXPECT_EQ(e.wait_idx, 0x85);
  EXPECT_EQ(e.update_mode, 0x86);
  EXPECT_EQ(e.update_idx, 0x87);
  EXPECT_EQ(e.semaphore_value, 0x8B8A8988U);
}

}  // namespace tpbisa::test
