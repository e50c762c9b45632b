// CTRL_NO: every opcode of the family retires with its EVENTS applied and no other effect; its payload bytes
// have meanings in `decode` although they have no generic role.
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>

#include "tpbisa/describe.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/state.hpp"

namespace tpbisa {
namespace {

using Status = StepResult::Status;

Word ctrl_no(uint8_t opcode, Events events = {}) {
  CtrlNo c;
  c.header = {opcode, 16, 0, 0};
  c.events = events;
  return encode(c);
}

TEST(CtrlNoExecution, EveryOpcodeRetiresWithItsUpdateAndNothingElse) {
  for (uint8_t op : std::initializer_list<uint8_t>{0x23, 0xA1, 0xA2, 0xA3, 0xA4, 0xA6})
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(std::to_string(op) + " on " + std::string(to_string(g)));
      // SEM_INC_READ of semaphore 5, twice: the second word waits for S[5] >= 1 (SEM_GE_IMM).
      MachineOptions recording;
      recording.record_effects = true;  // the effect lists are filled only when asked for
      Machine m(g, {ctrl_no(op, Events{0x00, 0, 0x03, 5, 0}), ctrl_no(op, Events{0x05, 5, 0x03, 5, 1})}, recording);
      // HALT retires with its update and stops its engine there (sequencer.md §3.3): the second word never runs.
      const int words = op == 0xA1 ? 1 : 2;
      for (int k = 0; k < words; ++k) {
        const StepResult r = m.step();
        ASSERT_EQ(r.status, Status::Retired) << to_string(r.fault.kind) << ": " << r.fault.detail;
        EXPECT_TRUE(r.reg_writes.empty());
        EXPECT_TRUE(r.mem_writes.empty());
        EXPECT_TRUE(r.mem_reads.empty());
        EXPECT_TRUE(r.dve_writes.empty());
        ASSERT_EQ(r.sem_writes.size(), 1U);
      }
      EXPECT_EQ(m.state().sems[5], static_cast<uint32_t>(words));
      EXPECT_EQ(m.step().status, Status::Halted);  // the end of the stream, or the HALT
      EXPECT_EQ(m.pc(), op == 0xA1 ? 0U : 2U);     // a HALT leaves the pc at itself
    }
}

TEST(CtrlNoExecution, AnInvalidWordFaultsAndChangesNothing) {
  Word w = ctrl_no(0xA4, Events{0x00, 0, 0x03, 5, 0});
  w[39] = 1;  // a notification flag on a Nop (ctrl_no_valid_notification)
  Machine m(Generation::Cayman, {w});
  const StepResult r = m.step();
  EXPECT_EQ(r.status, Status::Faulted);
  EXPECT_EQ(r.fault.kind, FaultKind::InvalidInstruction);
  EXPECT_EQ(m.state().sems[5], 0U);
}

std::string meaning_of(const Word& w, std::string_view name) {
  for (const DescribedField& f : describe_fields(decode(w, Generation::Mariana)))
    if (f.name == name) return f.meaning;
  return "<no field>";
}

// The family's Syntax hook gives the roleless payload fields a meaning, by opcode.
TEST(CtrlNoDescription, PayloadFieldsHaveMeanings) {
  for (uint8_t op : std::initializer_list<uint8_t>{0x23, 0xA1, 0xA2, 0xA3, 0xA4, 0xA6}) {
    SCOPED_TRACE(std::to_string(op));
    const Word w = ctrl_no(op);
    EXPECT_FALSE(meaning_of(w, "notification").empty());
    EXPECT_FALSE(meaning_of(w, "drain_count").empty());
  }
  EXPECT_EQ(meaning_of(ctrl_no(0xA2), "drain_count"), "drain count (the compiler emits 1: a full drain)");
  EXPECT_EQ(meaning_of(ctrl_no(0xA4), "drain_count"), "drain count (unused)");
  CtrlNo halt;
  halt.header = {0xA1, 16, 0, 0};
  halt.notification = 1;
  EXPECT_EQ(meaning_of(encode(halt), "notification"), "notification flag: set (the host is notified)");
  CtrlNo nop = halt;
  nop.header.opcode = 0xA4;
  EXPECT_EQ(meaning_of(encode(nop), "notification"),
            "notification flag (only Halt and Notify may set it, PROJ-CONV-Q3)");
  // Fields with a role keep their generic meaning: the hook is asked only for roleless ones.
  EXPECT_EQ(meaning_of(encode(nop), "header.opcode"), "Nop (NOP)");
}

}  // namespace
}  // namespace tpbisa
