// Atomicity: every fault kind leaves registers, semaphores, events, DVE state and memory byte-identical.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <initializer_list>

#include "../support/machine_builders.hpp"
#include "../support/test_util.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/state.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

using test::poke;
using test::Range;
using test::valid_on;
using test::word;
using Status = StepResult::Status;

using test::kC;
using test::kM;
using test::kS;
using test::kV;

/// Non-trivial state everywhere a faulting instruction could have written: registers, semaphores, events,
/// and the DVE state of channels 0..15 (imm flops, match keys and flags, BatchNorm parameters).
void seed(MachineState& s) {
  for (unsigned r = 0; r < kNumRegisters; ++r) s.regs[r] = 0xA5000000U + r;
  for (unsigned i = 0; i < kNumSemaphores; ++i) s.sems[i] = 3 * i + 1;
  for (unsigned e = 0; e < kNumEvents; e += 3) s.events[e] = true;
  for (unsigned c = 0; c < 16; ++c) {
    DveChannel& ch = s.dve[c];
    for (unsigned i = 0; i < 8; ++i) {
      ch.imm[i] = 0x3F800000U + 0x100U * c + i;
      ch.imm_class[i] = i % 2 == 0 ? DveChannel::ImmClass::Arith : DveChannel::ImmClass::Bitvec;
      ch.match_key[i] = 0xC0000000U + c * 8 + i;
      ch.match_key_written[i] = true;
      ch.matched[i] = i % 3 == 0;
    }
    ch.bn = {0x11U + c, 0x22U + c, 0x33U + c, 0x44U + c, 0x55U + c, true};
  }
}

/// Steps once and checks the atomicity contract: the fault kind, no reported effects, the machine still at
/// the faulting index, and the whole watched state byte-identical. A second step faults the same way.
void expect_atomic_fault(Machine& m, FaultKind kind, std::initializer_list<Range> watched) {
  const test::Snapshot before = test::snapshot(m.state(), watched);
  const size_t pc = m.pc();
  for (int attempt = 0; attempt < 2; ++attempt) {
    SCOPED_TRACE(testing::Message() << "attempt " << attempt);
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Faulted) << "expected " << to_string(kind);
    EXPECT_EQ(r.fault.kind, kind) << to_string(r.fault.kind) << ": " << r.fault.detail;
    EXPECT_EQ(r.index, pc);
    EXPECT_EQ(r.fault.index, pc);
    EXPECT_EQ(m.pc(), pc);
    EXPECT_TRUE(test::no_effects(r));
    EXPECT_TRUE(test::snapshot(m.state(), watched) == before) << "state changed by a faulting instruction";
  }
}

/// TensorStore of four UINT32 immediates 0xD0..0xD3 from `start` with element stride `step`.
Mem2d store4(uint64_t start, int32_t step = 1) {
  Mem2d t = test::ts();
  t.src_datasrc = 1;
  t.start_addr = test::addr8_imm(start);
  t.step_elem = {step, 0};
  t.data = {};
  for (unsigned k = 0; k < 4; ++k) store_le<uint32_t>(&t.data.bytes[4 * k], 0xD0 + k);
  return t;
}

// Every events block below would change state if applied: set-then-clear of a set event, INC of a semaphore.
constexpr Events kBusyEvents{0x07, 3, 0x03, 5, 0};

TEST(MachineAtomic, InvalidInstruction) {
  Mem2d t = store4(0x1000);
  t.header.inst_word_len = 15;
  Machine m(kM, {word(t)}, test::recording());
  seed(m.mutable_state());
  expect_atomic_fault(m, FaultKind::InvalidInstruction, {{0x1000, 16}});
}

TEST(MachineAtomic, PseudoNotLowered) {
  PseudoMem2d p = test::pts();
  p.events = kBusyEvents;
  Machine m(kC, {word(p)}, test::recording());
  seed(m.mutable_state());
  expect_atomic_fault(m, FaultKind::PseudoNotLowered, {{0x1000, 16}});
}

TEST(MachineAtomic, SequencerWideDtype) {
  RawWord w;
  w.header = test::hdr(0xA8);  // ALU_OP on UINT64: valid, but 64-bit register arithmetic is not modeled
  w.events = Events{0x00, 0, 0x03, 5, 0};
  w.operands[1] = dtype::kUint64;  // byte 13: BYPASS, UINT64, R0:R0 -> R0:R0
  ASSERT_TRUE(valid_on(encode(w), kM));
  Machine m(kM, {encode(w)}, test::recording());
  seed(m.mutable_state());
  expect_atomic_fault(m, FaultKind::UnsupportedDtype, {});
}

// A blocked wait is atomic too: nothing changes, however often the engine retries.
TEST(MachineAtomic, BlockedWait) {
  Mem2d t = store4(0x1000);
  t.events = Events{0x01, 3, 0x03, 5, 99};  // sem[3] == 99 does not hold
  Machine m(kV, {word(t)}, test::recording());
  seed(m.mutable_state());
  const test::Snapshot before = test::snapshot(m.state(), {{0x1000, 16}});
  for (int attempt = 0; attempt < 2; ++attempt) {
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Blocked) << to_string(r.fault.kind) << ": " << r.fault.detail;
    EXPECT_EQ(r.wait.id, 3U);
    EXPECT_EQ(r.wait.value, 10U);  // seed: sem[i] = 3i + 1
    EXPECT_EQ(m.pc(), 0U);
    EXPECT_TRUE(test::no_effects(r));
    EXPECT_TRUE(test::snapshot(m.state(), {{0x1000, 16}}) == before) << "state changed by a blocked step";
  }
}

TEST(MachineAtomic, UnsupportedDtype) {
  S4d4Tsm t = test::pm();
  t.in_dtype = dtype::kFp4Exp2;
  t.num_active_channels = 4;
  t.events = kBusyEvents;
  ASSERT_TRUE(valid_on(word(t), kM));
  Machine m(kM, {word(t)}, test::recording());
  seed(m.mutable_state());
  expect_atomic_fault(m, FaultKind::UnsupportedDtype, {{0x1000, 128}, {0x41000, 128}});
}

TEST(MachineAtomic, UnsupportedAddressingMode) {
  Mem2d t = store4(0x1000);
  t.start_addr = Addr8{0x1000 | (uint64_t{0x20} << 56)};
  t.events = kBusyEvents;
  Machine m(kS, {word(t)}, test::recording());
  seed(m.mutable_state());
  expect_atomic_fault(m, FaultKind::UnsupportedAddressingMode, {{0x1000, 16}});
}

TEST(MachineAtomic, UnsupportedShapeRegister) {
  S2Bn s = test::il();
  s.src_mem_pattern.start_addr = Addr4{0x40000000};
  s.src_mem_pattern.num_elem = {0, 0};
  s.num_active_channels = 8;
  s.events = kBusyEvents;
  Machine m(kC, {word(s)}, test::recording());
  seed(m.mutable_state());
  expect_atomic_fault(m, FaultKind::UnsupportedShapeRegister, {});
}

// A TensorLoad whose last data slot is r64: the first three loads must not happen.
TEST(MachineAtomic, IllegalDataRegister) {
  Mem2d t = test::tl();
  t.data = test::regs_data({0, 1, 2, 64});
  t.events = kBusyEvents;
  Machine m(kM, {word(t)}, test::recording());
  seed(m.mutable_state());
  for (unsigned k = 0; k < 4; ++k) poke(m.mutable_state(), 0x1000 + 4 * k, 4, 0xE0 + k);
  expect_atomic_fault(m, FaultKind::IllegalRegister, {{0x1000, 16}});
}

// The store itself is fine; the update register (r200) is not: neither the store nor anything else happens.
TEST(MachineAtomic, IllegalUpdateRegister) {
  Mem2d t = store4(0x1000);
  t.events = Events{0x07, 3, 0x85, 5, 200};
  Machine m(kS, {word(t)}, test::recording());
  seed(m.mutable_state());
  expect_atomic_fault(m, FaultKind::IllegalRegister, {{0x1000, 16}});
}

TEST(MachineAtomic, IllegalPtrMultiRegister) {
  S4d4Tsm t = test::pm();
  t.num_active_channels = 4;
  t.dst_mem_pattern.start_addr = test::addr4_reg(64);
  t.events = kBusyEvents;
  Machine m(kM, {word(t)}, test::recording());
  seed(m.mutable_state());
  expect_atomic_fault(m, FaultKind::IllegalRegister, {{0, 128}, {0x40, 128}});
}

// Element 0 of the store (0xFFFFF8, 0xFFFFFC) is inside the window; element 2 is not.
TEST(MachineAtomic, WindowViolation) {
  Machine m(kM, {word(store4(0xFFFFF8))}, test::recording());
  seed(m.mutable_state());
  expect_atomic_fault(m, FaultKind::WindowViolation, {{0xFFFFF0, 0x20}});
}

// CAYMAN: 0x37FF4, 0x37FF8, 0x37FFC are backed, 0x38000 is not.
TEST(MachineAtomic, OutOfRangeStore) {
  Mem2d t = store4(0x37FF4);
  t.events = kBusyEvents;
  Machine m(kC, {word(t)}, test::recording());
  seed(m.mutable_state());
  poke(m.mutable_state(), 0x37FF4, 4, 0x12345678);  // one initialised word among never-written ones
  expect_atomic_fault(m, FaultKind::OutOfRange, {{0x37FF0, 0x18}});
}

// ImmLd over channels 120..128: channels 120..127 would load, partition 128 does not exist.
TEST(MachineAtomic, OutOfRangeImmLd) {
  S2Bn s = test::il();
  s.src_mem_pattern.start_addr = test::addr4_imm(static_cast<uint32_t>(test::sbuf(kM, 120, 0)));
  s.num_active_channels = 9;
  s.events = kBusyEvents;
  Machine m(kM, {word(s)}, test::recording());
  seed(m.mutable_state());
  for (unsigned c = 120; c < 128; ++c) {
    test::set_imm(m.mutable_state(), c, 0, 0x7777);
    poke(m.mutable_state(), test::sbuf(kM, c, 0), 16, 0x4040404040404040);
  }
  expect_atomic_fault(m, FaultKind::OutOfRange, {{test::sbuf(kM, 120, 0), 16}});
}

// PtrMulti with register-form patterns over channels 120..128: channels 120..127 would write.
TEST(MachineAtomic, OutOfRangePtrMulti) {
  S4d4Tsm t = test::pm();
  t.src_mem_pattern.start_addr = test::addr4_reg(1);
  t.dst_mem_pattern.start_addr = test::addr4_reg(2);
  t.num_active_channels = 9;
  t.events = kBusyEvents;
  Machine m(kS, {word(t)}, test::recording());
  seed(m.mutable_state());
  m.mutable_state().regs[1] = static_cast<uint32_t>(test::sbuf(kS, 120, 0));
  m.mutable_state().regs[2] = static_cast<uint32_t>(test::sbuf(kS, 120, 0x1000));
  expect_atomic_fault(m, FaultKind::OutOfRange,
                      {{test::sbuf(kS, 120, 0x1000), 128}, {test::sbuf(kS, 127, 0x1000), 128}});
}

// MatchValueLoad and BatchNormParamLoad past partition 127 leave every channel's keys/flags/parameters alone.
TEST(MachineAtomic, OutOfRangeMatchValueAndBatchNorm) {
  S2Bn mv = test::mvl();
  mv.src_mem_pattern.start_addr = test::addr4_imm(static_cast<uint32_t>(test::sbuf(kC, 124, 0)));
  mv.num_active_channels = 5;
  Machine m1(kC, {word(mv)}, test::recording());
  seed(m1.mutable_state());
  for (unsigned c = 124; c < 128; ++c) m1.mutable_state().dve[c].matched[0] = true;
  expect_atomic_fault(m1, FaultKind::OutOfRange, {});

  S2Bn bn = test::bnpl();
  bn.imm0_ptr.raw = 0x38000;  // CAYMAN: the batch-mean pointer is beyond the active bytes
  bn.num_active_channels = 4;
  Machine m2(kC, {word(bn)}, test::recording());
  seed(m2.mutable_state());
  expect_atomic_fault(m2, FaultKind::OutOfRange, {});
}

// max_memory = one page: element 0 lands in the allocated page, element 1 needs a new one.
TEST(MachineAtomic, MemoryLimit) {
  MachineOptions opts = test::recording();
  opts.max_memory = SparseMemory::kPageBytes;
  Mem2d t = store4(0x1000, 0x400);  // 0x1000, 0x2000, 0x3000, 0x4000
  t.events = kBusyEvents;
  Machine m(kM, {word(t)}, opts);
  seed(m.mutable_state());
  ASSERT_TRUE(poke(m.mutable_state(), 0x1000, 4, 0xFEEDFACE));
  ASSERT_EQ(m.state().memory.allocated_bytes(), SparseMemory::kPageBytes);
  expect_atomic_fault(m, FaultKind::MemoryLimit, {{0x1000, 8}, {0x2000, 8}, {0x3000, 8}, {0x4000, 8}});
  EXPECT_EQ(m.state().memory.allocated_bytes(), SparseMemory::kPageBytes);
}

// A PtrMulti whose destination needs a page beyond the bound.
TEST(MachineAtomic, MemoryLimitPtrMulti) {
  MachineOptions opts = test::recording();
  opts.max_memory = SparseMemory::kPageBytes;
  S4d4Tsm t = test::pm();
  t.num_active_channels = 1;
  t.events = kBusyEvents;
  Machine m(kC, {word(t)}, opts);
  seed(m.mutable_state());
  ASSERT_TRUE(poke(m.mutable_state(), 0, 128, 0x3F8000003F800000));
  expect_atomic_fault(m, FaultKind::MemoryLimit, {{0, 128}, {0x1000, 128}});
}

// Untraced, the block path writes rows in place when commit cannot fail: here channel 0's destination page exists
// and channel 1's would be new, beyond the bound, so the PtrMulti faults and channel 0's row is not written either
// (the in-place decision covers every row before the first is written).
TEST(MachineAtomic, MemoryLimitPtrMultiUntracedWritesNoRow) {
  const uint64_t part1 = geometry(kC).sbuf_offset + geometry(kC).sbuf_partition_size;
  for (const bool room : {false, true}) {
    SCOPED_TRACE(room ? "a page to spare" : "at the bound");
    MachineOptions opts;  // untraced
    opts.max_memory = (room ? 4 : 3) * SparseMemory::kPageBytes;
    S4d4Tsm t = test::pm();
    t.num_active_channels = 2;
    Machine m(kC, {word(t)}, opts);
    seed(m.mutable_state());
    ASSERT_TRUE(poke(m.mutable_state(), 0, 128, 0x3F8000003F800000));      // channel 0's source: 1.0f
    ASSERT_TRUE(poke(m.mutable_state(), part1, 128, 0x4000000040000000));  // channel 1's source: 2.0f
    ASSERT_TRUE(poke(m.mutable_state(), 0x1000, 128, 0));                  // channel 0's destination page
    ASSERT_EQ(m.state().memory.allocated_bytes(), 3 * SparseMemory::kPageBytes);
    if (!room) {
      expect_atomic_fault(m, FaultKind::MemoryLimit, {{0x1000, 128}, {part1 + 0x1000, 128}});
      continue;
    }
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    EXPECT_EQ(r.totals.mem, 64U);  // two rows of 32 elements, counted as staged ones are
    // 1.0 + imm[w] and 2.0 + the channel's imm[w] (seed: 0x3F800000 + 0x100 c + w, a hair above 1.0).
    EXPECT_EQ(test::peek(m.state(), 0x1000, 4), test::f32(1.0F + std::bit_cast<float>(0x3F800000U)));
    EXPECT_EQ(test::peek(m.state(), part1 + 0x1000, 4), test::f32(2.0F + std::bit_cast<float>(0x3F800100U)));
    EXPECT_TRUE(test::written(m.state(), part1 + 0x1000, 128));
  }
}

// Untraced, a TensorStore run into a page beyond the bound faults with nothing written; into an existing page at
// the bound it is written in place.
TEST(MachineAtomic, MemoryLimitTensorStoreUntraced) {
  MachineOptions opts;
  opts.max_memory = SparseMemory::kPageBytes;
  Machine m(kM, {word(store4(0x2000)), word(store4(0x1000))}, opts);
  seed(m.mutable_state());
  ASSERT_TRUE(poke(m.mutable_state(), 0x1000, 4, 0xFEEDFACE));
  expect_atomic_fault(m, FaultKind::MemoryLimit, {{0x1000, 16}, {0x2000, 16}});
  EXPECT_EQ(m.state().memory.allocated_bytes(), SparseMemory::kPageBytes);
  Machine fits(kM, {word(store4(0x1000))}, opts);
  ASSERT_TRUE(poke(fits.mutable_state(), 0x1000, 4, 0xFEEDFACE));
  const StepResult r = fits.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(test::peek(fits.state(), 0x1000 + 4 * k, 4), 0xD0U + k);
  EXPECT_TRUE(test::written(fits.state(), 0x1000, 16));
  EXPECT_EQ(r.totals.mem, 4U);
}

// 32 elements on one channel against a bound of 16.
TEST(MachineAtomic, ResourceLimit) {
  MachineOptions opts = test::recording();
  opts.max_elements_per_instruction = 16;
  S4d4Tsm t = test::pm();
  t.num_active_channels = 1;
  t.events = kBusyEvents;
  Machine m(kM, {word(t)}, opts);
  seed(m.mutable_state());
  for (unsigned k = 0; k < 32; ++k) poke(m.mutable_state(), 4 * k, 4, test::f32(float(k)));
  expect_atomic_fault(m, FaultKind::ResourceLimit, {{0, 128}, {0x1000, 128}});

  MachineOptions enough = test::recording();
  enough.max_elements_per_instruction = 32;
  S4d4Tsm ok = t;
  ok.events = {};
  Machine m2(kM, {word(ok)}, enough);
  EXPECT_EQ(m2.step().status, Status::Retired);
}

// After a retired instruction, a fault in the next one keeps the first one's effects and nothing else.
TEST(MachineAtomic, FaultAfterRetiredInstructionStaysAtItsIndex) {
  Mem2d first = store4(0x1000);
  first.events = Events{0, 0, 0x03, 5, 0};
  Mem2d second = store4(0x37FF4);
  second.events = kBusyEvents;
  Machine m(kC, {word(first), word(second)}, test::recording());
  seed(m.mutable_state());
  ASSERT_EQ(m.step().status, Status::Retired);
  EXPECT_EQ(m.state().sems[5], 17U);
  EXPECT_EQ(test::peek(m.state(), 0x100C, 4), 0xD3U);
  expect_atomic_fault(m, FaultKind::OutOfRange, {{0x1000, 16}, {0x37FF0, 0x18}});
  EXPECT_EQ(m.pc(), 1U);
}

}  // namespace
}  // namespace tpbisa
