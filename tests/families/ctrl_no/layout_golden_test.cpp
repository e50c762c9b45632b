// CTRL_NO layout golden: reserved bytes, notification and drain_count at their bytes on every generation.
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>

#include "../../support/layout_golden.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa::test {
namespace {

// CTRL_NO (sequencer.md §3.1): reserved bytes 12..38, the notification flag at 39, drain_count at 40, reserved
// bytes 41..63; the same on every generation.
TEST(Golden, CtrlNoLayout) {
  for (uint8_t op : std::initializer_list<uint8_t>{0x23, 0xA1, 0xA2, 0xA3, 0xA4, 0xA6})
    for (Generation g : kAllGenerations) {
      const Word w = distinct_word(op);
      const Instruction inst = decode(w, g);
      ASSERT_EQ(inst.status, DecodeStatus::Modeled);
      EXPECT_EQ(inst.format_name(), "CTRL_NO");
      const CtrlNo* c = inst.as<CtrlNo>();
      ASSERT_NE(c, nullptr);
      expect_common_prefix(c->header, c->events, op);
      for (unsigned k = 0; k < 27; ++k) EXPECT_EQ(c->reserved0[k], 0x8CU + k);  // bytes 12..38
      EXPECT_EQ(c->notification, 0xA7);                                         // byte 39
      EXPECT_EQ(c->drain_count, 0xA8);                                          // byte 40
      for (unsigned k = 0; k < 23; ++k) EXPECT_EQ(c->reserved1[k], 0xA9U + k);  // bytes 41..63
      EXPECT_EQ(encode(*c), w);
    }
}

}  // namespace
}  // namespace tpbisa::test
