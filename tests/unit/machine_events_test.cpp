// Simulator EVENTS semantics: semaphore/register/event waits (blocked steps, deadlocks) and every update mode.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string_view>

#include <fmt/format.h>

#include "../support/machine_builders.hpp"
#include "../support/test_util.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/state.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

using test::poke;
using test::word;
using Status = StepResult::Status;

using test::kC;
using test::kM;
using test::kS;
using test::kV;
constexpr std::array<Generation, 3> kEventGens{kS, kC, kM};
constexpr std::string_view kOp[] = {"?", "==", "<", "<=", ">", ">="};  ///< by compare kind 1..5

/// The carrier: TensorLoad of one UINT32 from 0x1000 into R0 (always executable), with the given EVENTS.
Mem2d carrier(uint8_t wait_mode, uint8_t wait_idx, uint8_t update_mode, uint8_t update_idx, uint32_t value) {
  Mem2d t = test::tl();
  t.num_elem = {1, 1};
  t.data = test::regs_data({0});
  t.events = Events{wait_mode, wait_idx, update_mode, update_idx, value};
  return t;
}

/// A machine running the carrier with memory[0x1000] = 0x77.
Machine machine(Generation g, const Mem2d& t) {
  Machine m(g, {word(t)}, test::recording());
  poke(m.mutable_state(), 0x1000, 4, 0x77);
  return m;
}

void expect_retired(const Machine& m, const StepResult& r) {
  ASSERT_EQ(r.status, Status::Retired) << to_string(r.fault.kind) << ": " << r.fault.detail;
  EXPECT_EQ(m.state().regs[0], 0x77U);
  EXPECT_EQ(m.pc(), 1U);
}

void expect_carrier_fault(const Machine& m, const StepResult& r, FaultKind kind) {
  ASSERT_EQ(r.status, Status::Faulted) << "expected " << to_string(kind);
  EXPECT_EQ(r.fault.kind, kind) << to_string(r.fault.kind) << ": " << r.fault.detail;
  EXPECT_EQ(m.state().regs[0], 0U);
  EXPECT_EQ(m.pc(), 0U);
  EXPECT_TRUE(test::no_effects(r));
}

/// A blocked step changes nothing and reports no effects; alone on its core, the engine is deadlocked.
void expect_carrier_blocked(const Machine& m, const StepResult& r) {
  ASSERT_EQ(r.status, Status::Blocked) << to_string(r.fault.kind) << ": " << r.fault.detail;
  EXPECT_EQ(m.state().regs[0], 0U);
  EXPECT_EQ(m.pc(), 0U);
  EXPECT_TRUE(test::no_effects(r));
  EXPECT_TRUE(m.deadlocked());
}

struct WaitCase {
  uint8_t mode;
  uint32_t sem;
  uint32_t comparand;
  bool satisfied;
};

// Compare kinds of 0x01..0x05 (EQ, LT, LE, GT, GE), unsigned 32-bit.
constexpr WaitCase kCompareCases[] = {
    {1, 7, 7, true}, {1, 7, 8, false}, {2, 7, 8, true},          {2, 7, 7, false},
    {3, 7, 7, true}, {3, 7, 6, false}, {4, 7, 6, true},          {4, 7, 7, false},
    {5, 7, 7, true}, {5, 7, 8, false}, {4, 0xFFFFFFFF, 1, true}, {2, 0xFFFFFFFF, 1, false},  // u32, not signed
};

// ================================================================ waits

TEST(MachineEvents, ImmediateWaits) {
  for (Generation g : kAllGenerations)
    for (const WaitCase& c : kCompareCases) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " mode " << int{c.mode} << " sem " << c.sem << " value "
                                      << c.comparand);
      Machine m = machine(g, carrier(c.mode, 3, 0, 0, c.comparand));
      m.mutable_state().sems[3] = c.sem;
      const StepResult r = m.step();
      if (c.satisfied) {
        expect_retired(m, r);
        EXPECT_TRUE(r.sem_writes.empty());
      } else {
        expect_carrier_blocked(m, r);
      }
    }
}

// An unsatisfied wait blocks, repeatably, never a fault; once the semaphore holds, the same word retires.
TEST(MachineEvents, UnsatisfiedWaitBlocksThenRetiresOnceSatisfied) {
  Machine m = machine(kM, carrier(0x01, 9, 0, 0, 4));
  expect_carrier_blocked(m, m.step());
  expect_carrier_blocked(m, m.step());
  m.mutable_state().sems[9] = 4;
  expect_retired(m, m.step());
  EXPECT_TRUE(m.finished());
  EXPECT_FALSE(m.deadlocked());
}

// A wait nothing can satisfy ends the run with a deadlock report naming the wait.
TEST(MachineEvents, RunStopsWithADeadlockAtAnUnsatisfiedWait) {
  const Mem2d first = carrier(0, 0, 0x03, 0, 0);   // sem[0] += 1
  const Mem2d second = carrier(0x05, 0, 0, 0, 2);  // wait sem[0] >= 2
  Machine m(kC, {word(first), word(second)}, test::recording());
  const RunSummary s = m.run(100);
  EXPECT_EQ(s.retired, 1U);
  EXPECT_FALSE(s.faulted);
  ASSERT_TRUE(s.deadlock);
  ASSERT_EQ(s.blocked.size(), 1U);
  const BlockedWait& w = s.blocked[0];
  EXPECT_EQ(w.engine, EngineId::Dve);  // PROJ-CONV-P1
  EXPECT_EQ(w.index, 1U);
  EXPECT_EQ(w.name, "TensorLoad");
  EXPECT_FALSE(w.event);
  EXPECT_EQ(w.id, 0U);
  EXPECT_EQ(w.value, 1U);
  EXPECT_EQ(wait_condition(w), "$S[0]>=2");
  EXPECT_EQ(m.pc(), 1U);
  EXPECT_EQ(m.state().sems[0], 1U);
}

TEST(MachineEvents, NoWaitAndUnordered) {
  for (Generation g : kAllGenerations)
    for (uint8_t mode : {uint8_t{0x00}, uint8_t{0xFE}}) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " mode " << int{mode});
      Machine m = machine(g, carrier(mode, 3, 0, 0, 12345));
      expect_retired(m, m.step());
    }
}

// PROJ-CONV-C3: the *_REG waits compare with R[semaphore_value & 0xFF] (upper bits ignored).
TEST(MachineEvents, RegisterWaits) {
  for (Generation g : kAllGenerations)
    for (const WaitCase& c : kCompareCases) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " mode " << int{c.mode | 0x80} << " sem " << c.sem);
      Machine m = machine(g, carrier(static_cast<uint8_t>(c.mode | 0x80), 3, 0, 0, 0xABCDEF05));
      m.mutable_state().sems[3] = c.sem;
      m.mutable_state().regs[5] = c.comparand;
      const StepResult r = m.step();
      if (c.satisfied) {
        ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
      } else {
        ASSERT_EQ(r.status, Status::Blocked);
        EXPECT_EQ(r.wait.comparand, c.comparand);
        EXPECT_EQ(r.wait.reg, 5);
        EXPECT_EQ(r.wait.value, c.sem);
      }
    }
}

TEST(MachineEvents, RegisterWaitWithRegisterBeyond63IsIllegal) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    Machine m = machine(g, carrier(0x81, 3, 0, 0, 0x40));
    const StepResult r = m.step();
    expect_carrier_fault(m, r, FaultKind::IllegalRegister);
    EXPECT_EQ(r.fault.reg, 64);
  }
}

// PROJ-CONV-C5 (MAVERICK): 0x91..0x95 compare sem[wait_idx] with R[value & 0xFF] + (value >> 8).
TEST(MachineEvents, MaverickRegisterOffsetWaits) {
  const uint32_t value = (1U << 8) | 5U;  // R5 + 1
  for (const WaitCase& c : kCompareCases) {
    SCOPED_TRACE(testing::Message() << "mode " << int{c.mode | 0x90} << " sem " << c.sem);
    Machine m = machine(kV, carrier(static_cast<uint8_t>(c.mode | 0x90), 3, 0, 0, value));
    m.mutable_state().sems[3] = c.sem;
    m.mutable_state().regs[5] = c.comparand - 1;  // every comparand >= 1: no wrap-around
    const StepResult r = m.step();
    if (c.satisfied) {
      ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    } else {
      ASSERT_EQ(r.status, Status::Blocked);
      EXPECT_EQ(r.wait.comparand, c.comparand);
      EXPECT_EQ(wait_condition(r.wait), fmt::format("$S[3]{}r5+0x1", kOp[c.mode]));
    }
  }
  // The offset is the full upper 24 bits: R5 = 1, off = 0xFFFFFF -> comparand 0x1000000.
  Machine m = machine(kV, carrier(0x91, 3, 0, 0, 0xFFFFFF05));
  m.mutable_state().regs[5] = 1;
  m.mutable_state().sems[3] = 0x1000000;
  expect_retired(m, m.step());
  Machine bad = machine(kV, carrier(0x91, 3, 0, 0, 0x140));  // reg 64, off 1
  expect_carrier_fault(bad, bad.step(), FaultKind::IllegalRegister);
}

TEST(MachineEvents, RegisterOffsetWaitsAreInvalidBeforeMaverick) {
  for (Generation g : kEventGens) {
    SCOPED_TRACE(to_string(g));
    Machine m = machine(g, carrier(0x91, 3, 0, 0, 5));
    const StepResult r = m.step();
    expect_carrier_fault(m, r, FaultKind::InvalidInstruction);
    EXPECT_TRUE(r.fault.verdict.fails("has_valid_neuron_events"));
  }
}

// Event waits (SUNDA..MARIANA): 0x06 set, 0x07 set then clear, 0x0E clear, 0x0F clear then set.
TEST(MachineEvents, EventWaits) {
  struct Case {
    uint8_t mode;
    bool set_before;
    bool satisfied;
    bool set_after;
  };
  const Case cases[] = {
      {0x06, true, true, true},   {0x06, false, false, false}, {0x07, true, true, false}, {0x07, false, false, false},
      {0x0E, false, true, false}, {0x0E, true, false, true},   {0x0F, false, true, true}, {0x0F, true, false, true},
  };
  for (Generation g : kEventGens)
    for (const Case& c : cases) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " mode " << int{c.mode} << " set " << c.set_before);
      Machine m = machine(g, carrier(c.mode, 9, 0, 0, 0));
      m.mutable_state().events[9] = c.set_before;
      const StepResult r = m.step();
      if (c.satisfied) {
        expect_retired(m, r);
        const bool changes = c.set_before != c.set_after;
        ASSERT_EQ(r.sem_writes.size(), changes ? 1U : 0U);
        if (changes) {
          EXPECT_EQ(test::key(r.sem_writes[0]),
                    test::key(SemWrite{9, true, c.set_before ? 1U : 0U, c.set_after ? 1U : 0U}));
        }
      } else {
        expect_carrier_blocked(m, r);
      }
      EXPECT_EQ(m.state().events[9], c.set_after);
      EXPECT_EQ(m.state().events.count(), c.set_after ? 1U : 0U);
    }
}

// Set-then-clear consumes the event: a second wait for it blocks.
TEST(MachineEvents, SetThenClearConsumesTheEvent) {
  Machine m(kC, {word(carrier(0x07, 9, 0, 0, 0)), word(carrier(0x06, 9, 0, 0, 0))}, test::recording());
  m.mutable_state().events[9] = true;
  const RunSummary s = m.run(10);
  EXPECT_EQ(s.retired, 1U);
  ASSERT_TRUE(s.deadlock);
  ASSERT_EQ(s.blocked.size(), 1U);
  EXPECT_TRUE(s.blocked[0].event);
  EXPECT_EQ(s.blocked[0].value, 0U);
  EXPECT_EQ(wait_condition(s.blocked[0]), "$E[9]?set");
  EXPECT_FALSE(m.state().events[9]);
}

TEST(MachineEvents, EventWaitsAreInvalidOnMaverick) {
  for (uint8_t mode : {uint8_t{0x06}, uint8_t{0x07}, uint8_t{0x0E}, uint8_t{0x0F}}) {
    Machine m = machine(kV, carrier(mode, 9, 0, 0, 0));
    const StepResult r = m.step();
    expect_carrier_fault(m, r, FaultKind::InvalidInstruction);
    EXPECT_TRUE(r.fault.verdict.fails("has_valid_neuron_events"));
  }
}

// ================================================================ updates

struct UpdateCase {
  uint8_t mode;
  uint32_t before;
  uint32_t value;  ///< semaphore_value (immediate forms) or R6 (register forms: value word 0xFFFFFF06)
  uint32_t after;
};

// INC/DEC ignore the value; ADD/SUB/WR use it; the _COMPLETE twins (+0x10) do the same on retirement.
TEST(MachineEvents, ImmediateUpdates) {
  const UpdateCase cases[] = {
      {0x03, 10, 1000, 11}, {0x04, 10, 1000, 9}, {0x05, 10, 5, 15}, {0x07, 10, 3, 7}, {0x09, 10, 42, 42},
      {0x13, 10, 1000, 11}, {0x14, 10, 1000, 9}, {0x15, 10, 5, 15}, {0x17, 10, 3, 7}, {0x19, 10, 42, 42},
  };
  for (Generation g : kAllGenerations)
    for (const UpdateCase& c : cases) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " mode " << std::hex << int{c.mode});
      Machine m = machine(g, carrier(0, 0, c.mode, 4, c.value));
      m.mutable_state().sems[4] = c.before;
      const StepResult r = m.step();
      expect_retired(m, r);
      EXPECT_EQ(m.state().sems[4], c.after);
      ASSERT_EQ(r.sem_writes.size(), 1U);
      EXPECT_EQ(test::key(r.sem_writes[0]), test::key(SemWrite{4, false, c.before, c.after}));
    }
}

// PROJ-CONV-C3 for updates: the operand is R[value & 0xFF] (here R6, upper value bits ignored).
TEST(MachineEvents, RegisterUpdates) {
  const UpdateCase cases[] = {
      {0x85, 10, 5, 15}, {0x87, 10, 5, 5}, {0x89, 10, 5, 5}, {0x95, 10, 5, 15}, {0x97, 10, 5, 5}, {0x99, 10, 5, 5},
  };
  for (Generation g : kAllGenerations)
    for (const UpdateCase& c : cases) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " mode " << std::hex << int{c.mode});
      Machine m = machine(g, carrier(0, 0, c.mode, 4, 0xFFFFFF06));
      m.mutable_state().sems[4] = c.before;
      m.mutable_state().regs[6] = c.value;
      const StepResult r = m.step();
      expect_retired(m, r);
      EXPECT_EQ(m.state().sems[4], c.after);
    }
}

TEST(MachineEvents, RegisterUpdateWithRegisterBeyond63IsIllegal) {
  for (uint8_t mode : {uint8_t{0x85}, uint8_t{0x87}, uint8_t{0x89}, uint8_t{0x99}}) {
    SCOPED_TRACE(int{mode});
    Machine m = machine(kM, carrier(0, 0, mode, 4, 0xC8));  // r200
    m.mutable_state().sems[4] = 10;
    const StepResult r = m.step();
    expect_carrier_fault(m, r, FaultKind::IllegalRegister);
    EXPECT_EQ(r.fault.reg, 200);
    EXPECT_EQ(m.state().sems[4], 10U);
  }
}

// Event updates (SUNDA..MARIANA): 0x01 / 0x11 set, 0x02 / 0x12 clear; invalid on MAVERICK.
TEST(MachineEvents, EventUpdates) {
  struct Case {
    uint8_t mode;
    bool before, after;
  };
  for (Generation g : kEventGens)
    for (Case c : {Case{0x01, false, true}, Case{0x11, false, true}, Case{0x02, true, false}, Case{0x12, true, false},
                   Case{0x01, true, true}}) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " mode " << std::hex << int{c.mode});
      Machine m = machine(g, carrier(0, 0, c.mode, 200, 0));
      m.mutable_state().events[200] = c.before;
      const StepResult r = m.step();
      expect_retired(m, r);
      EXPECT_EQ(m.state().events[200], c.after);
      EXPECT_EQ(m.state().sems[200], 0U);  // an event, not the semaphore with that index
      ASSERT_EQ(r.sem_writes.size(), 1U);
      EXPECT_TRUE(r.sem_writes[0].event);
      EXPECT_EQ(r.sem_writes[0].index, 200);
    }
  for (uint8_t mode : {uint8_t{0x01}, uint8_t{0x02}, uint8_t{0x11}, uint8_t{0x12}}) {
    Machine m = machine(kV, carrier(0, 0, mode, 200, 0));
    const StepResult r = m.step();
    expect_carrier_fault(m, r, FaultKind::InvalidInstruction);
    EXPECT_TRUE(r.fault.verdict.fails("has_valid_neuron_events"));
  }
}

// PROJ-CONV-C6: semaphores are u32 with modular arithmetic.
TEST(MachineEvents, SemaphoresWrapModulo2To32) {
  const UpdateCase cases[] = {
      {0x03, 0xFFFFFFFF, 0, 0}, {0x04, 0, 0, 0xFFFFFFFF},          {0x05, 0xFFFFFFF0, 0x20, 0x10},
      {0x07, 5, 7, 0xFFFFFFFE}, {0x15, 0x80000001, 0x80000000, 1}, {0x17, 0, 0xFFFFFFFF, 1},
  };
  for (Generation g : kAllGenerations)
    for (const UpdateCase& c : cases) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " mode " << std::hex << int{c.mode});
      Machine m = machine(g, carrier(0, 0, c.mode, 255, c.value));
      m.mutable_state().sems[255] = c.before;
      expect_retired(m, m.step());
      EXPECT_EQ(m.state().sems[255], c.after);
    }
  Machine m = machine(kS, carrier(0, 0, 0x85, 1, 7));  // sem[1] += R7
  m.mutable_state().sems[1] = 0x80000001;
  m.mutable_state().regs[7] = 0x80000000;
  expect_retired(m, m.step());
  EXPECT_EQ(m.state().sems[1], 1U);
}

// One semaphore_value serves both the wait and the update.
TEST(MachineEvents, WaitAndUpdateTogether) {
  Machine m = machine(kM, carrier(0x05, 1, 0x05, 2, 2));  // wait sem[1] >= 2; sem[2] += 2
  m.mutable_state().sems[1] = 2;
  m.mutable_state().sems[2] = 40;
  expect_retired(m, m.step());
  EXPECT_EQ(m.state().sems[1], 2U);
  EXPECT_EQ(m.state().sems[2], 42U);

  Machine same = machine(kC, carrier(0x01, 1, 0x03, 1, 3));  // wait sem[1] == 3; sem[1] += 1
  same.mutable_state().sems[1] = 3;
  expect_retired(same, same.step());
  EXPECT_EQ(same.state().sems[1], 4U);

  Machine blocked = machine(kC, carrier(0x01, 1, 0x03, 1, 3));
  blocked.mutable_state().sems[1] = 2;
  expect_carrier_blocked(blocked, blocked.step());
  EXPECT_EQ(blocked.state().sems[1], 2U);
}

// An instruction's update lets a later wait through: WR_IMM sem[7] = 5, then wait sem[7] == 5.
TEST(MachineEvents, UpdateThenWaitInOneProgram) {
  Machine m(kV, {word(carrier(0, 0, 0x09, 7, 5)), word(carrier(0x01, 7, 0x04, 7, 5))}, test::recording());
  const RunSummary s = m.run(10);
  EXPECT_FALSE(s.faulted) << s.fault.detail;
  EXPECT_EQ(s.retired, 2U);
  EXPECT_EQ(m.state().sems[7], 4U);
}

// The update belongs to the instruction: a faulting instruction applies none (nor the clear of its wait).
TEST(MachineEvents, FaultingInstructionAppliesNoUpdate) {
  Mem2d t = carrier(0x07, 9, 0x03, 4, 0);
  t.start_addr = test::addr8_imm(0x38000);  // CAYMAN: beyond partition 0's active bytes
  Machine m(kC, {word(t)}, test::recording());
  m.mutable_state().events[9] = true;
  m.mutable_state().sems[4] = 10;
  const StepResult r = m.step();
  expect_carrier_fault(m, r, FaultKind::OutOfRange);
  EXPECT_EQ(m.state().sems[4], 10U);
  EXPECT_TRUE(m.state().events[9]);
}

// Updates also apply to DVE instructions (ImmLd) and PtrMulti.
TEST(MachineEvents, UpdatesOnOtherFamilies) {
  S2Bn load = test::il();
  load.num_active_channels = 1;
  load.src_mem_pattern.num_elem = {1, 1};
  load.events = Events{0, 0, 0x13, 3, 0};
  S4d4Tsm add = test::pm();
  add.num_active_channels = 1;
  add.src_mem_pattern = test::dense4d(0, {1, 1, 1, 1});
  add.dst_mem_pattern = test::dense4d(0x1000, {1, 1, 1, 1});
  add.events = Events{0x01, 3, 0x19, 3, 1};  // wait sem[3] == 1, then sem[3] = 1
  Machine m(kM, {word(load), word(add)}, test::recording());
  const RunSummary s = m.run(10);
  EXPECT_FALSE(s.faulted) << s.fault.detail;
  EXPECT_EQ(s.retired, 2U);
  EXPECT_EQ(m.state().sems[3], 1U);
}

// An invalid EVENTS block is an InvalidInstruction fault carrying the validator's verdict.
TEST(MachineEvents, InvalidEventsCarryTheVerdict) {
  struct Case {
    uint8_t wait, update;
  };
  for (Generation g : kAllGenerations)
    for (Case c : {Case{0x08, 0x00}, Case{0x00, 0x06}, Case{0x86, 0x00}, Case{0x00, 0x8A}}) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " wait " << int{c.wait} << " update " << int{c.update});
      Machine m = machine(g, carrier(c.wait, 0, c.update, 0, 0));
      const StepResult r = m.step();
      expect_carrier_fault(m, r, FaultKind::InvalidInstruction);
      EXPECT_FALSE(r.fault.verdict.valid);
      EXPECT_TRUE(r.fault.verdict.fails("has_valid_neuron_events"));
      EXPECT_EQ(r.fault.verdict.n_failed, 1U);
    }
}

}  // namespace
}  // namespace tpbisa
