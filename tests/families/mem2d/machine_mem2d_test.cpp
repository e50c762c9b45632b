// Simulator semantics of TensorLoad/TensorStore (mem2d.md §6) and the memory model, against hand-computed results.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "../../support/machine_builders.hpp"
#include "../../support/test_util.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/state.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

using test::expect_blocked;
using test::peek;
using test::poke;
using test::valid_on;
using test::word;
using Status = StepResult::Status;

using test::kC;
using test::kM;
using test::kS;
using test::kV;

/// Fills [address, address + n) with the low byte of each address (so every byte is distinguishable).
void fill_address_bytes(MachineState& s, uint64_t address, unsigned n) {
  for (unsigned i = 0; i < n; ++i) poke(s, address + i, 1, (address + i) & 0xFF);
}

/// Asserts a faulted step that reported no effects and left the machine at instruction 0.
void expect_mem2d_fault(const Machine& m, const StepResult& r, FaultKind kind) {
  ASSERT_EQ(r.status, Status::Faulted) << "expected " << to_string(kind);
  EXPECT_EQ(r.fault.kind, kind) << "got " << to_string(r.fault.kind) << ": " << r.fault.detail;
  EXPECT_EQ(r.fault.index, 0U);
  EXPECT_EQ(m.pc(), 0U);
  EXPECT_TRUE(test::no_effects(r));
}

// ================================================================ edge cases #29 .. #34

// #29: a register-pair base that is not dtype-aligned is accepted, performed byte-wise, with a diagnostic.
TEST(MachineMem2d, Edge29UnalignedRegisterBaseIsPerformedWithDiagnostic) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    Mem2d t = test::tl();
    t.start_addr = test::addr8_regs(10, 11);
    ASSERT_TRUE(valid_on(word(t), g));
    Machine m(g, {word(t)}, test::recording());
    m.mutable_state().regs[10] = 0x1002;
    m.mutable_state().regs[11] = 0;
    fill_address_bytes(m.mutable_state(), 0x1000, 0x20);
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    EXPECT_EQ(m.state().regs[0], 0x05040302U);
    EXPECT_EQ(m.state().regs[1], 0x09080706U);
    EXPECT_EQ(m.state().regs[2], 0x0D0C0B0AU);
    EXPECT_EQ(m.state().regs[3], 0x11100F0EU);
    EXPECT_TRUE(test::has_diag(r, DiagKind::UnalignedAccess, 0x1002));
    ASSERT_EQ(r.mem_reads.size(), 4U);
    EXPECT_EQ(r.mem_reads[0].address, 0x1002U);
    EXPECT_EQ(r.mem_reads[3].address, 0x100EU);
  }
}

// An aligned register-pair base gives no alignment diagnostic; reg_hi supplies the upper 32 bits.
TEST(MachineMem2d, RegisterPairBaseIsLowThenHigh) {
  Mem2d t = test::tl();
  t.num_elem = {1, 1};
  t.start_addr = test::addr8_regs(20, 21);
  Machine m(kM, {word(t)}, test::recording());
  m.mutable_state().regs[20] = 0x00001000;
  m.mutable_state().regs[21] = 0x00000001;  // 0x1_0000_1000: flat memory
  poke(m.mutable_state(), 0x100001000, 4, 0x600DF00D);
  poke(m.mutable_state(), 0x1000, 4, 0xBAD);
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(m.state().regs[0], 0x600DF00DU);
  EXPECT_FALSE(test::has_diag(r, DiagKind::UnalignedAccess));
}

// #29a: reg_lo = 64 or reg_hi = 200 passes validation and faults IllegalRegister at run time.
TEST(MachineMem2d, Edge29aIllegalAddressRegister) {
  struct Case {
    uint8_t lo, hi;
    int bad;
  };
  for (Case c : {Case{64, 11, 64}, Case{10, 200, 200}}) {
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " lo=" << int{c.lo} << " hi=" << int{c.hi});
      Mem2d t = test::tl();
      t.start_addr = test::addr8_regs(c.lo, c.hi);
      ASSERT_TRUE(valid_on(word(t), g));
      Machine m(g, {word(t)}, test::recording());
      m.mutable_state().regs[10] = 0x1000;
      const auto before = test::snapshot(m.state(), {{0x1000, 16}});
      const StepResult r = m.step();
      expect_mem2d_fault(m, r, FaultKind::IllegalRegister);
      EXPECT_EQ(r.fault.reg, c.bad);
      EXPECT_EQ(test::snapshot(m.state(), {{0x1000, 16}}), before);
    }
  }
}

// #31: crossing a 16 MiB boundary is accepted by validation and faults WindowViolation on every generation,
// even where the start is also beyond its partition's active bytes (the window rule is checked first).
TEST(MachineMem2d, Edge31WindowViolationOnEveryGeneration) {
  Mem2d t = test::tl();
  t.start_addr = test::addr8_imm(0xFFFFFC);
  t.num_elem = {2, 1};
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    ASSERT_TRUE(valid_on(word(t), g));
    Machine m(g, {word(t)}, test::recording());
    const StepResult r = m.step();
    expect_mem2d_fault(m, r, FaultKind::WindowViolation);
    for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(m.state().regs[k], 0U);
  }
}

// The single-element form of #31's start shows which generations also break the active-size rule:
// SUNDA p63 +0x3FFFC (>= 0x30000), CAYMAN p63 +0x3FFFC (>= 0x38000), MAVERICK p15 +0xFFFFC (>= 0x80000);
// MARIANA's active size is the whole 256 KiB stride.
TEST(MachineMem2d, Edge31StartAloneIsBeyondActiveBytesExceptOnMariana) {
  Mem2d t = test::tl();
  t.start_addr = test::addr8_imm(0xFFFFFC);
  t.num_elem = {1, 1};
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    Machine m(g, {word(t)}, test::recording());
    const StepResult r = m.step();
    if (g == kM) {
      EXPECT_EQ(r.status, Status::Retired) << r.fault.detail;
    } else {
      expect_mem2d_fault(m, r, FaultKind::OutOfRange);
    }
  }
}

// #32: signed strides walk backwards.
TEST(MachineMem2d, Edge32NegativeStride) {
  Mem2d t = test::tl();
  t.step_elem = {-1, 0};
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    Machine m(g, {word(t)}, test::recording());
    poke(m.mutable_state(), 0x1000, 4, 0xA0);
    poke(m.mutable_state(), 0x0FFC, 4, 0xA1);
    poke(m.mutable_state(), 0x0FF8, 4, 0xA2);
    poke(m.mutable_state(), 0x0FF4, 4, 0xA3);
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    ASSERT_EQ(r.mem_reads.size(), 4U);
    EXPECT_EQ(r.mem_reads[0].address, 0x1000U);
    EXPECT_EQ(r.mem_reads[1].address, 0x0FFCU);
    EXPECT_EQ(r.mem_reads[2].address, 0x0FF8U);
    EXPECT_EQ(r.mem_reads[3].address, 0x0FF4U);
    EXPECT_EQ(m.state().regs[0], 0xA0U);
    EXPECT_EQ(m.state().regs[1], 0xA1U);
    EXPECT_EQ(m.state().regs[2], 0xA2U);
    EXPECT_EQ(m.state().regs[3], 0xA3U);
  }
}

// #32a: the SoC-map SBUF aperture 0x20_0000_1000 is flat memory; SBUF offset 0x1000 is untouched.
TEST(MachineMem2d, Edge32aSocApertureIsFlatMemory) {
  Mem2d store = test::ts();
  store.src_datasrc = 1;
  store.num_elem = {1, 1};
  store.start_addr = test::addr8_imm(0x2000001000);
  store.data = {};
  store.data.bytes[0] = 0xEF;
  store.data.bytes[1] = 0xBE;
  store.data.bytes[2] = 0xAD;
  store.data.bytes[3] = 0xDE;
  Mem2d load = test::tl();
  load.num_elem = {1, 1};
  load.data = test::regs_data({5});
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    ASSERT_TRUE(valid_on(word(store), g));
    Machine m(g, {word(store), word(load)}, test::recording());
    poke(m.mutable_state(), 0x1000, 4, 0x11111111);
    const StepResult r0 = m.step();
    ASSERT_EQ(r0.status, Status::Retired) << r0.fault.detail;
    ASSERT_EQ(r0.mem_writes.size(), 1U);
    EXPECT_EQ(r0.mem_writes[0].address, 0x2000001000U);
    EXPECT_EQ(peek(m.state(), 0x2000001000, 4), 0xDEADBEEFU);
    EXPECT_EQ(peek(m.state(), 0x1000, 4), 0x11111111U);
    const StepResult r1 = m.step();
    ASSERT_EQ(r1.status, Status::Retired) << r1.fault.detail;
    EXPECT_EQ(m.state().regs[5], 0x11111111U);
  }
}

// PROJ-CONV-N4: the 29-bit ADDR4 mask is not applied to a 64-bit Neuron address (0x2000_1000 is flat memory).
TEST(MachineMem2d, NeuronAddressIsNotMaskedTo29Bits) {
  Mem2d store = test::ts();
  store.num_elem = {1, 1};
  store.start_addr = test::addr8_imm(0x20001000);
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    Machine m(g, {word(store)}, test::recording());
    m.mutable_state().regs[0] = 0x0BADCAFE;
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    EXPECT_EQ(peek(m.state(), 0x20001000, 4), 0x0BADCAFEU);
    EXPECT_FALSE(test::written(m.state(), 0x1000, 1));
  }
}

// #33: a data register >= 64 passes validation and faults IllegalRegister.
TEST(MachineMem2d, Edge33IllegalDataRegister) {
  for (uint8_t bad : {uint8_t{64}, uint8_t{200}}) {
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " r" << int{bad});
      Mem2d t = test::tl();
      t.data.bytes[0] = bad;
      ASSERT_TRUE(valid_on(word(t), g));
      Machine m(g, {word(t)}, test::recording());
      poke(m.mutable_state(), 0x1000, 16, 0x12345678);
      const auto before = test::snapshot(m.state(), {{0x1000, 16}});
      const StepResult r = m.step();
      expect_mem2d_fault(m, r, FaultKind::IllegalRegister);
      EXPECT_EQ(r.fault.reg, int{bad});
      EXPECT_EQ(test::snapshot(m.state(), {{0x1000, 16}}), before);
    }
  }
}

// Every count of used slots, the bad slot first, in the middle or last, values each side of the limit, the unused
// slots out of range too: untraced (the block path) and traced alike. A UINT64 word names even registers only, in
// every slot (mem2d_u64_register_check), so its values and its unused slots are even: r62 is a pair's base, r64 not.
TEST(MachineMem2d, DataSlotsAtTheRegisterLimitOnEveryCount) {
  for (const uint8_t dt : {dtype::kUint32, dtype::kUint64})
    for (const unsigned count : {1U, 2U, 7U, 8U, 9U, 15U, 16U, 17U, 24U, 31U, 32U}) {
      if (dt == dtype::kUint64 && count > 16) continue;  // 16 pairs fill the 32 data bytes' register view
      for (const unsigned at : {0U, count / 2, count - 1})
        for (const uint8_t v : {uint8_t{0}, uint8_t{62}, uint8_t{63}, uint8_t{64}, uint8_t{127}, uint8_t{128},
                                uint8_t{191}, uint8_t{192}, uint8_t{254}, uint8_t{255}})
          for (const bool traced : {false, true}) {
            const bool pair = dt == dtype::kUint64;
            if (pair && v % 2 != 0) continue;
            SCOPED_TRACE(testing::Message() << "dtype " << int{dt} << " count " << count << " slot " << at << " r"
                                            << int{v} << (traced ? " traced" : ""));
            Mem2d t = test::tl();
            t.dtype = dt;
            t.num_elem = {static_cast<uint8_t>(count), 1};
            t.data.bytes.fill(0);
            for (unsigned k = count; k < t.data.bytes.size(); ++k) t.data.bytes[k] = pair ? 254 : 255;  // unused
            t.data.bytes[at] = v;
            ASSERT_TRUE(valid_on(word(t), kC));
            MachineOptions mo;
            mo.record_effects = traced;
            Machine m(kC, {word(t)}, mo);
            const StepResult r = m.step();
            if (v >= kNumRegisters || (pair && v + 1U >= kNumRegisters)) {
              ASSERT_EQ(r.status, Status::Faulted);
              EXPECT_EQ(r.fault.kind, FaultKind::IllegalRegister);
              EXPECT_EQ(r.fault.reg, int{v});
            } else {
              ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
            }
          }
    }
}

// Only used slots count: data[1] = 64 with num {1,1} retires (PROJ-CONV-M4 "in a used data slot").
TEST(MachineMem2d, UnusedDataSlotIsNotChecked) {
  Mem2d t = test::tl();
  t.num_elem = {1, 1};
  t.data = test::regs_data({0, 64, 200});
  Machine m(kC, {word(t)}, test::recording());
  poke(m.mutable_state(), 0x1000, 4, 7);
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(m.state().regs[0], 7U);
}

// A TensorStore register slot >= 64 faults; an immediate store has no registers, so byte 200 is data.
TEST(MachineMem2d, StoreRegisterSlotsAreCheckedImmediatesAreNot) {
  Mem2d reg = test::ts();
  reg.num_elem = {1, 1};
  reg.data = test::regs_data({64});
  Machine m1(kM, {word(reg)}, test::recording());
  const StepResult r1 = m1.step();
  expect_mem2d_fault(m1, r1, FaultKind::IllegalRegister);
  EXPECT_EQ(r1.fault.reg, 64);

  Mem2d imm = test::ts();
  imm.dtype = dtype::kUint8;
  imm.src_datasrc = 1;
  imm.num_elem = {1, 1};
  imm.data = test::regs_data({200});
  Machine m2(kM, {word(imm)}, test::recording());
  const StepResult r2 = m2.step();
  ASSERT_EQ(r2.status, Status::Retired) << r2.fault.detail;
  EXPECT_EQ(peek(m2.state(), 0x1000, 1), 200U);
}

// #34: R62/R63 are ordinary registers: UINT64 into r62 writes R62 (low) and R63 (high).
TEST(MachineMem2d, Edge34Uint64IntoR62R63) {
  Mem2d t = test::tl();
  t.dtype = dtype::kUint64;
  t.num_elem = {1, 1};
  t.data = test::regs_data({62});
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    ASSERT_TRUE(valid_on(word(t), g));
    Machine m(g, {word(t)}, test::recording());
    poke(m.mutable_state(), 0x1000, 8, 0x1122334455667788);
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    EXPECT_EQ(m.state().regs[62], 0x55667788U);
    EXPECT_EQ(m.state().regs[63], 0x11223344U);
    ASSERT_EQ(r.reg_writes.size(), 2U);
    EXPECT_EQ(r.reg_writes[0].reg, 62);
    EXPECT_EQ(r.reg_writes[1].reg, 63);
  }
}

// ================================================================ loads #40 .. #45

struct LoadCase {
  const char* name;
  uint8_t dtype;
  unsigned size;
  uint64_t element;
  uint32_t expected;
};

// #40 .. #43: sign/zero extension and raw FP32 bits; the bytes after the element must not leak in.
TEST(MachineMem2d, Edge40To43LoadExtension) {
  const LoadCase cases[] = {
      {"#40 INT8", dtype::kInt8, 1, 0x80, 0xFFFFFF80U},       {"#41 UINT8", dtype::kUint8, 1, 0x80, 0x00000080U},
      {"#42 INT16", dtype::kInt16, 2, 0x8000, 0xFFFF8000U},   {"#42 UINT16", dtype::kUint16, 2, 0x8000, 0x00008000U},
      {"#43 FP32", dtype::kFp32, 4, 0x3F800000, 0x3F800000U}, {"INT32", dtype::kInt32, 4, 0x80000001, 0x80000001U},
      {"UINT32", dtype::kUint32, 4, 0xFFFFFFFE, 0xFFFFFFFEU},
  };
  for (const LoadCase& c : cases) {
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(testing::Message() << c.name << " " << to_string(g));
      Mem2d t = test::tl();
      t.dtype = c.dtype;
      t.num_elem = {1, 1};
      t.data = test::regs_data({9});
      Machine m(g, {word(t)}, test::recording());
      poke(m.mutable_state(), 0x1000, 8, 0x5A5A5A5A5A5A5A5A);
      poke(m.mutable_state(), 0x1000, c.size, c.element);
      m.mutable_state().regs[9] = 0xC3C3C3C3;
      const StepResult r = m.step();
      ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
      EXPECT_EQ(m.state().regs[9], c.expected);
      ASSERT_EQ(r.mem_reads.size(), 1U);
      EXPECT_EQ(r.mem_reads[0].size, c.size);
      ASSERT_EQ(r.reg_writes.size(), 1U);
      EXPECT_EQ(r.reg_writes[0].before, 0xC3C3C3C3U);
      EXPECT_EQ(r.reg_writes[0].after, c.expected);
    }
  }
}

// #44: even register = low half, next odd register = high half.
TEST(MachineMem2d, Edge44Uint64PairOrder) {
  Mem2d t = test::tl();
  t.dtype = dtype::kUint64;
  t.num_elem = {1, 1};
  t.data = test::regs_data({4});
  Machine m(kS, {word(t)}, test::recording());
  poke(m.mutable_state(), 0x1000, 8, 0x1122334455667788);
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(m.state().regs[4], 0x55667788U);
  EXPECT_EQ(m.state().regs[5], 0x11223344U);
}

// #45: num {2,2}, step {1,4}, UINT32 from B: slots read B, B+4, B+16, B+20.
TEST(MachineMem2d, Edge45TwoDimensionalWalk) {
  Mem2d t = test::tl();
  t.num_elem = {2, 2};
  t.step_elem = {1, 4};
  t.start_addr = test::addr8_imm(0x2000);
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    Machine m(g, {word(t)}, test::recording());
    for (uint64_t off = 0; off < 0x20; off += 4) poke(m.mutable_state(), 0x2000 + off, 4, 0x100 + off);
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    EXPECT_EQ(m.state().regs[0], 0x100U);
    EXPECT_EQ(m.state().regs[1], 0x104U);
    EXPECT_EQ(m.state().regs[2], 0x110U);
    EXPECT_EQ(m.state().regs[3], 0x114U);
    ASSERT_EQ(r.mem_reads.size(), 4U);
    EXPECT_EQ(r.mem_reads[2].address, 0x2010U);
  }
}

// ================================================================ stores #46 .. #52

// #46 / #47: a register store truncates to the element width; neighbouring bytes are not touched.
TEST(MachineMem2d, Edge46And47StoreTruncates) {
  struct Case {
    uint8_t dtype;
    unsigned size;
    uint32_t reg;
    uint64_t stored;
  };
  for (Case c : {Case{dtype::kInt8, 1, 0x12345680, 0x80}, Case{dtype::kUint16, 2, 0xABCD1234, 0x1234}}) {
    Mem2d t = test::ts();
    t.dtype = c.dtype;
    t.num_elem = {1, 1};
    t.data = test::regs_data({0});
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " dtype " << int{c.dtype});
      Machine m(g, {word(t)}, test::recording());
      m.mutable_state().regs[0] = c.reg;
      const StepResult r = m.step();
      ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
      ASSERT_EQ(r.mem_writes.size(), 1U);
      EXPECT_EQ(r.mem_writes[0].address, 0x1000U);
      EXPECT_EQ(r.mem_writes[0].size, c.size);
      EXPECT_EQ(r.mem_writes[0].after, c.stored);
      EXPECT_EQ(peek(m.state(), 0x1000, c.size), c.stored);
      EXPECT_FALSE(test::written(m.state(), 0x1000 + c.size, 1));
    }
  }
}

// #48: R6 low, R7 high.
TEST(MachineMem2d, Edge48StoreUint64FromRegisterPair) {
  Mem2d t = test::ts();
  t.dtype = dtype::kUint64;
  t.num_elem = {1, 1};
  t.data = test::regs_data({6});
  Machine m(kV, {word(t)}, test::recording());
  m.mutable_state().regs[6] = 0x55667788;
  m.mutable_state().regs[7] = 0x11223344;
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(peek(m.state(), 0x1000, 8), 0x1122334455667788U);
  ASSERT_EQ(r.mem_writes.size(), 1U);
  EXPECT_EQ(r.mem_writes[0].size, 8);
}

// #49: immediate UINT16 element k = LE16 of bytes 32+2k.
TEST(MachineMem2d, Edge49ImmediateUint16) {
  Mem2d t = test::ts();
  t.dtype = dtype::kUint16;
  t.src_datasrc = 1;
  t.data = test::regs_data({0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08});
  Machine m(kC, {word(t)}, test::recording());
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  ASSERT_EQ(r.mem_writes.size(), 4U);
  EXPECT_EQ(r.mem_writes[0].after, 0x0201U);
  EXPECT_EQ(r.mem_writes[3].address, 0x1006U);
  EXPECT_EQ(r.mem_writes[3].after, 0x0807U);
  EXPECT_EQ(peek(m.state(), 0x1000, 8), 0x0807060504030201U);
}

// #50: immediate UINT64 element 1 = LE64 of bytes 40..47 (uint32[2] low, uint32[3] high).
TEST(MachineMem2d, Edge50ImmediateUint64) {
  Mem2d t = test::ts();
  t.dtype = dtype::kUint64;
  t.src_datasrc = 1;
  t.num_elem = {2, 1};
  for (unsigned i = 0; i < 16; ++i) t.data.bytes[i] = static_cast<uint8_t>(0x10 + i);
  Machine m(kM, {word(t)}, test::recording());
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(peek(m.state(), 0x1000, 8), 0x1716151413121110U);
  EXPECT_EQ(peek(m.state(), 0x1008, 8), 0x1F1E1D1C1B1A1918U);
}

// #51: an immediate FP32 store is a raw bit copy (a signalling NaN and -0.0 survive).
TEST(MachineMem2d, Edge51ImmediateFp32IsRaw) {
  Mem2d t = test::ts();
  t.dtype = dtype::kFp32;
  t.src_datasrc = 1;
  t.num_elem = {2, 1};
  t.data = {};
  store_le<uint32_t>(&t.data.bytes[0], 0x7FA12345);
  store_le<uint32_t>(&t.data.bytes[4], 0x80000000);
  Machine m(kS, {word(t)}, test::recording());
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(peek(m.state(), 0x1000, 4), 0x7FA12345U);
  EXPECT_EQ(peek(m.state(), 0x1004, 4), 0x80000000U);
}

// #52: stride 0 writes the same address four times in order; the final value is element 3.
TEST(MachineMem2d, Edge52StrideZeroLastWriteWins) {
  Mem2d t = test::ts();
  t.src_datasrc = 1;
  t.step_elem = {0, 0};
  t.data = {};
  for (unsigned k = 0; k < 4; ++k) store_le<uint32_t>(&t.data.bytes[4 * k], 0xA0 + k);
  Machine m(kC, {word(t)}, test::recording());
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  ASSERT_EQ(r.mem_writes.size(), 4U);
  for (unsigned k = 0; k < 4; ++k) {
    EXPECT_EQ(r.mem_writes[k].address, 0x1000U);
    EXPECT_EQ(r.mem_writes[k].after, 0xA0U + k);
  }
  EXPECT_EQ(peek(m.state(), 0x1000, 4), 0xA3U);
}

// #53 / #54: duplicate destinations are written in slot order; the last write wins (PROJ-CONV-M7).
TEST(MachineMem2d, Edge53DuplicateRegisterLastWins) {
  Mem2d t = test::tl();
  t.num_elem = {2, 1};
  t.data = test::regs_data({5, 5});
  Machine m(kM, {word(t)}, test::recording());
  poke(m.mutable_state(), 0x1000, 4, 0xAAAA);
  poke(m.mutable_state(), 0x1004, 4, 0xBBBB);
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(m.state().regs[5], 0xBBBBU);
}

// Untraced, a block-path load writes its registers in place (Txn::write_reg_in_place): the result, the effect count
// and the last-write-wins order are those of the staged (traced) path, by step and by run.
TEST(MachineMem2d, UntracedLoadInPlaceEqualsTheStagedLoad) {
  Mem2d t = test::tl();
  t.num_elem = {8, 1};
  t.data = test::regs_data({5, 5, 6, 7, 8, 9, 10, 5});
  for (const bool traced : {false, true})
    for (const bool by_run : {false, true}) {
      MachineOptions mo;
      mo.record_effects = traced;
      Machine m(kC, {word(t)}, mo);
      for (unsigned k = 0; k < 8; ++k) poke(m.mutable_state(), 0x1000 + 4 * k, 4, 0x1111U * (k + 1));
      m.mutable_state().regs[11] = 0x77;
      if (by_run) {
        const RunSummary s = m.run(10);
        ASSERT_FALSE(s.faulted) << s.fault.detail;
        EXPECT_EQ(s.retired, 1U);
      } else {
        const StepResult r = m.step();
        ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
        EXPECT_EQ(r.totals.regs, 8U) << "traced " << traced;
        EXPECT_EQ(r.totals.reads, 8U);
      }
      EXPECT_EQ(m.state().regs[5], 0x1111U * 8) << "traced " << traced << " run " << by_run;  // slot 7 last
      for (unsigned k = 2; k < 7; ++k) EXPECT_EQ(m.state().regs[4 + k], 0x1111U * (k + 1));
      EXPECT_EQ(m.state().regs[11], 0x77U);  // untouched
    }
}

TEST(MachineMem2d, Edge54Uint64DuplicatePairLastWins) {
  Mem2d t = test::tl();
  t.dtype = dtype::kUint64;
  t.num_elem = {2, 1};
  t.data = test::regs_data({4, 4});
  Machine m(kV, {word(t)}, test::recording());
  poke(m.mutable_state(), 0x1000, 8, 0x1111111122222222);
  poke(m.mutable_state(), 0x1008, 8, 0x3333333344444444);
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(m.state().regs[4], 0x44444444U);
  EXPECT_EQ(m.state().regs[5], 0x33333333U);
  ASSERT_EQ(r.reg_writes.size(), 4U);  // r4, r5, r4, r5 in slot order
  EXPECT_EQ(r.reg_writes[2].reg, 4);
  EXPECT_EQ(r.reg_writes[2].before, 0x22222222U);
}

// ================================================================ pseudo opcodes #61

// #61: a raw 0xce / 0xcd passes its pseudo validator and is refused at execution.
TEST(MachineMem2d, Edge61RawPseudoIsNotExecuted) {
  for (const PseudoMem2d& p : {test::ptl(), test::pts()}) {
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " opcode " << int{p.header.opcode});
      ASSERT_TRUE(valid_on(word(p), g));
      Machine m(g, {word(p)}, test::recording());
      const StepResult r = m.step();
      expect_mem2d_fault(m, r, FaultKind::PseudoNotLowered);
    }
  }
}

// ================================================================ the memory model

// PROJ-CONV-N4: a TensorStore to Neuron address A in the low region is read by an ImmLd whose ADDR4 start is A.
TEST(MachineMem2d, TensorStoreIsVisibleToImmLdThroughSbuf) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    const uint64_t a = test::sbuf(g, 3, 0x100);
    Mem2d store = test::ts();
    store.src_datasrc = 1;
    store.num_elem = {2, 1};
    store.start_addr = test::addr8_imm(a);
    store.data = {};
    store_le<uint32_t>(&store.data.bytes[0], 0xCAFEF00D);
    store_le<uint32_t>(&store.data.bytes[4], 0x12345678);
    S2Bn load = test::il();
    load.header.opcode = opcode::kImmLdBitvec;
    load.dtype = dtype::kUint32;
    load.src_mem_pattern.start_addr = test::addr4_imm(static_cast<uint32_t>(a));
    load.src_mem_pattern.num_elem = {2, 1};
    load.num_active_channels = 1;
    ASSERT_TRUE(valid_on(word(load), g));
    Machine m(g, {word(store), word(load)}, test::recording());
    const StepResult r0 = m.step();
    ASSERT_EQ(r0.status, Status::Retired) << r0.fault.detail;
    const StepResult r1 = m.step();
    ASSERT_EQ(r1.status, Status::Retired) << r1.fault.detail;
    EXPECT_EQ(m.state().dve[0].imm[0], 0xCAFEF00DU);
    EXPECT_EQ(m.state().dve[0].imm[1], 0x12345678U);
    ASSERT_EQ(r1.mem_reads.size(), 2U);
    EXPECT_EQ(r1.mem_reads[0].address, a);
    EXPECT_TRUE(r1.mem_reads[0].initialized);
  }
}

// PSUM (SUNDA..MARIANA): 0x2000000 + p * 0x8000 + offset, 16 KiB backed per partition.
TEST(MachineMem2d, PsumAddresses) {
  for (Generation g : {kS, kC, kM}) {
    SCOPED_TRACE(to_string(g));
    Mem2d store = test::ts();
    store.num_elem = {2, 1};
    store.start_addr = test::addr8_imm(test::psum(2, 0x40));  // 0x2010040
    Mem2d load = test::tl();
    load.num_elem = {2, 1};
    load.start_addr = store.start_addr;
    load.data = test::regs_data({7, 8});
    Machine m(g, {word(store), word(load)}, test::recording());
    m.mutable_state().regs[0] = 0xAAAA0001;
    m.mutable_state().regs[1] = 0xAAAA0002;
    const StepResult r0 = m.step();
    ASSERT_EQ(r0.status, Status::Retired) << r0.fault.detail;
    ASSERT_EQ(r0.mem_writes.size(), 2U);
    EXPECT_EQ(r0.mem_writes[0].address, 0x2010040U);
    EXPECT_EQ(r0.mem_writes[1].address, 0x2010044U);
    const StepResult r1 = m.step();
    ASSERT_EQ(r1.status, Status::Retired) << r1.fault.detail;
    EXPECT_EQ(m.state().regs[7], 0xAAAA0001U);
    EXPECT_EQ(m.state().regs[8], 0xAAAA0002U);
    EXPECT_EQ(psum_address(g, 2, 0x40), std::optional<uint64_t>{0x2010040});
    EXPECT_EQ(psum_address(g, 0, 0x4000), std::nullopt);
  }
}

// The last backed PSUM word is usable; one element further (offset 0x4000) is out of range.
TEST(MachineMem2d, PsumActiveSizeIs16KiB) {
  for (Generation g : {kS, kC, kM}) {
    SCOPED_TRACE(to_string(g));
    Mem2d last = test::tl();
    last.num_elem = {1, 1};
    last.start_addr = test::addr8_imm(test::psum(127, 0x3FFC));  // 0x23FBFFC
    Machine ok(g, {word(last)}, test::recording());
    EXPECT_EQ(ok.step().status, Status::Retired);

    Mem2d over = test::tl();
    over.num_elem = {2, 1};
    over.start_addr = test::addr8_imm(test::psum(0, 0x3FFC));  // second element at 0x2004000
    Machine bad(g, {word(over)}, test::recording());
    const StepResult r = bad.step();
    expect_mem2d_fault(bad, r, FaultKind::OutOfRange);
    for (unsigned k = 0; k < 2; ++k) EXPECT_EQ(bad.state().regs[k], 0U);
  }
}

// Past the PSUM region (0x2400000 on SUNDA..MARIANA) the Neuron space is flat memory.
TEST(MachineMem2d, AboveLowRegionIsFlatMemory) {
  for (Generation g : {kS, kC, kM}) {
    SCOPED_TRACE(to_string(g));
    Mem2d store = test::ts();
    store.num_elem = {1, 1};
    store.start_addr = test::addr8_imm(0x2400000);
    Machine m(g, {word(store)}, test::recording());
    m.mutable_state().regs[0] = 0x5EED;
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    EXPECT_EQ(peek(m.state(), 0x2400000, 4), 0x5EEDU);
  }
}

// MAVERICK: 1 MiB partition stride, 512 KiB backed, 128 MiB SBUF, no PSUM (0x2000000 is SBUF partition 32).
TEST(MachineMem2d, MaverickGeometry) {
  struct Case {
    uint64_t address;
    bool ok;
  };
  const Case cases[] = {
      {0x100000 + 0x7FFFC, true},  // p1, last backed word
      {0x180000, false},           // p1 + 0x80000 = the active size
      {0x2000000, true},           // p32 + 0 (no PSUM region)
      {0x2004000, true},           // p32 + 0x4000 (PSUM's inactive offset elsewhere)
      {0x7F7FFFC, true},           // p127 + 0x7FFFC
      {0x7FFFFFC, false},          // p127 + 0xFFFFC
      {0x8000000, true},           // flat memory past the 128 MiB SBUF
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << std::hex << c.address);
    Mem2d store = test::ts();
    store.num_elem = {1, 1};
    store.start_addr = test::addr8_imm(c.address);
    Machine m(kV, {word(store)}, test::recording());
    m.mutable_state().regs[0] = 0x600D;
    const StepResult r = m.step();
    if (c.ok) {
      ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
      EXPECT_EQ(peek(m.state(), c.address, 4), 0x600DU);
    } else {
      expect_mem2d_fault(m, r, FaultKind::OutOfRange);
      EXPECT_FALSE(test::written(m.state(), c.address, 1));
    }
  }
  EXPECT_EQ(sbuf_address(kV, 1, 0), std::optional<uint64_t>{0x100000});
  EXPECT_EQ(sbuf_address(kV, 1, 0x80000), std::nullopt);
  EXPECT_EQ(psum_address(kV, 0, 0), std::nullopt);
}

// PROJ-CONV-N2: an element at or beyond its partition's active size is out of range (CAYMAN: 0x38000).
TEST(MachineMem2d, OutOfRangeBeyondActiveBytes) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    const uint64_t active = test::kSbufActive[test::gi(g)];
    Mem2d last = test::tl();
    last.num_elem = {1, 1};
    last.start_addr = test::addr8_imm(test::sbuf(g, 5, active - 4));
    Machine ok(g, {word(last)}, test::recording());
    EXPECT_EQ(ok.step().status, Status::Retired);
    if (g == kM) continue;  // MARIANA's active size is its stride: the next byte is partition 6
    Mem2d over = test::tl();
    over.num_elem = {1, 1};
    over.start_addr = test::addr8_imm(test::sbuf(g, 5, active));
    Machine bad(g, {word(over)}, test::recording());
    expect_mem2d_fault(bad, bad.step(), FaultKind::OutOfRange);
  }
  Mem2d cay = test::tl();
  cay.start_addr = test::addr8_imm(0x38000);
  Machine m(kC, {word(cay)}, test::recording());
  expect_mem2d_fault(m, m.step(), FaultKind::OutOfRange);
  EXPECT_EQ(sbuf_address(kC, 0, 0x38000), std::nullopt);
  EXPECT_EQ(sbuf_address(kC, 0, 0x37FFF), std::optional<uint64_t>{0x37FFF});
}

// PROJ-CONV-N2: an element that crosses into the next partition is out of range (MARIANA p5 +0x3FFFE, 4 bytes).
TEST(MachineMem2d, ElementCrossingIntoNextPartitionIsOutOfRange) {
  Mem2d t = test::tl();
  t.num_elem = {1, 1};
  t.start_addr = test::addr8_regs(10, 11);
  Machine m(kM, {word(t)}, test::recording());
  m.mutable_state().regs[10] = static_cast<uint32_t>(test::sbuf(kM, 5, 0x3FFFE));
  expect_mem2d_fault(m, m.step(), FaultKind::OutOfRange);
}

// PROJ-CONV-M6: ADDR8 table markers (and other non-immediate, non-register-pair forms) are refused.
TEST(MachineMem2d, AddressTableMarkersAreUnsupported) {
  for (uint8_t marker :
       {uint8_t{0x20}, uint8_t{0x60}, uint8_t{0x28}, uint8_t{0x2C}, uint8_t{0x68}, uint8_t{0xA0}, uint8_t{0xE0}}) {
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " marker " << std::hex << int{marker});
      Mem2d t = test::tl();
      t.start_addr = Addr8{0x1000 | (uint64_t{marker} << 56)};
      ASSERT_TRUE(valid_on(word(t), g));
      Machine m(g, {word(t)}, test::recording());
      expect_mem2d_fault(m, m.step(), FaultKind::UnsupportedAddressingMode);
    }
  }
}

// PROJ-CONV-M2 / M6: shape-from-register markers are ignored on MEM_2D (num_elem is used); bits 57..56 of the
// immediate are address bits.
TEST(MachineMem2d, ShapeRegisterMarkerIsIgnored) {
  Mem2d shape = test::tl();
  shape.num_elem = {2, 1};
  shape.start_addr = Addr8{0x4000000000001000};  // SHAPE_REG, immediate 0x1000
  Machine m1(kC, {word(shape)}, test::recording());
  poke(m1.mutable_state(), 0x1000, 8, 0x0000000200000001);
  const StepResult r1 = m1.step();
  ASSERT_EQ(r1.status, Status::Retired) << r1.fault.detail;
  EXPECT_EQ(m1.state().regs[0], 1U);
  EXPECT_EQ(m1.state().regs[1], 2U);

  Mem2d pair = test::tl();
  pair.num_elem = {1, 1};
  pair.start_addr = test::addr8_regs(30, 31, addr8_marker::kAddrShapeReg);
  Machine m2(kC, {word(pair)}, test::recording());
  m2.mutable_state().regs[30] = 0x3000;
  poke(m2.mutable_state(), 0x3000, 4, 0x77);
  const StepResult r2 = m2.step();
  ASSERT_EQ(r2.status, Status::Retired) << r2.fault.detail;
  EXPECT_EQ(m2.state().regs[0], 0x77U);

  Mem2d high = test::tl();
  high.num_elem = {1, 1};
  high.start_addr = Addr8{0x4100000000001000};  // marker 0x40, address bit 56 set
  Machine m3(kC, {word(high)}, test::recording());
  poke(m3.mutable_state(), 0x0100000000001000, 4, 0x99);
  const StepResult r3 = m3.step();
  ASSERT_EQ(r3.status, Status::Retired) << r3.fault.detail;
  EXPECT_EQ(m3.state().regs[0], 0x99U);
}

// ================================================================ check order (PROJ-CONV-N15)

TEST(MachineMem2dCheckOrder, AddressRegisterBeforeDataRegister) {
  Mem2d t = test::tl();
  t.start_addr = test::addr8_regs(70, 1);
  t.data = test::regs_data({65, 1, 2, 3});
  Machine m(kM, {word(t)}, test::recording());
  const StepResult r = m.step();
  expect_mem2d_fault(m, r, FaultKind::IllegalRegister);
  EXPECT_EQ(r.fault.reg, 70);
}

TEST(MachineMem2dCheckOrder, RegLoBeforeRegHi) {
  Mem2d t = test::tl();
  t.start_addr = test::addr8_regs(90, 80);
  Machine m(kM, {word(t)}, test::recording());
  const StepResult r = m.step();
  expect_mem2d_fault(m, r, FaultKind::IllegalRegister);
  EXPECT_EQ(r.fault.reg, 90);
}

TEST(MachineMem2dCheckOrder, WindowBeforeDataRegister) {
  Mem2d t = test::tl();
  t.start_addr = test::addr8_imm(0xFFFFFC);
  t.num_elem = {2, 1};
  t.data = test::regs_data({64, 64});
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    Machine m(g, {word(t)}, test::recording());
    expect_mem2d_fault(m, m.step(), FaultKind::WindowViolation);
  }
}

TEST(MachineMem2dCheckOrder, OutOfRangeBeforeDataRegister) {
  Mem2d t = test::tl();
  t.start_addr = test::addr8_imm(0x38000);
  t.num_elem = {1, 1};
  t.data = test::regs_data({64});
  Machine m(kC, {word(t)}, test::recording());
  expect_mem2d_fault(m, m.step(), FaultKind::OutOfRange);
}

TEST(MachineMem2dCheckOrder, AddressingModeBeforeRegisters) {
  Mem2d t = test::tl();
  t.start_addr = Addr8{uint64_t{0x20} << 56};
  t.data = test::regs_data({64});
  Machine m(kS, {word(t)}, test::recording());
  expect_mem2d_fault(m, m.step(), FaultKind::UnsupportedAddressingMode);
}

// The first out-of-range element in walk order is the one reported (SUNDA: p1 +0x30004, then p1 +0x30000).
TEST(MachineMem2dCheckOrder, ElementsAreCheckedInWalkOrder) {
  Mem2d t = test::tl();
  t.start_addr = test::addr8_imm(test::sbuf(kS, 1, 0x30004));
  t.num_elem = {2, 1};
  t.step_elem = {-1, 0};
  Machine m(kS, {word(t)}, test::recording());
  const StepResult r = m.step();
  expect_mem2d_fault(m, r, FaultKind::OutOfRange);
  EXPECT_TRUE(r.fault.has_address);
  EXPECT_EQ(r.fault.address, 0x70004U);
}

TEST(MachineMem2dCheckOrder, InvalidWordBeforeWait) {
  Mem2d t = test::tl();
  t.header.inst_word_len = 15;
  t.events.wait_mode = 0x01;  // SEM_EQ_IMM: sem[0] == 5 never holds (sems reset to 0)
  t.events.semaphore_value = 5;
  Machine m(kM, {word(t)}, test::recording());
  const StepResult r = m.step();
  expect_mem2d_fault(m, r, FaultKind::InvalidInstruction);
  EXPECT_FALSE(r.fault.verdict.valid);
  EXPECT_TRUE(r.fault.verdict.fails("has_valid_neuron_header"));
}

TEST(MachineMem2dCheckOrder, PseudoBeforeWait) {
  PseudoMem2d p = test::ptl();
  p.events.wait_mode = 0x01;
  p.events.semaphore_value = 5;
  Machine m(kC, {word(p)}, test::recording());
  expect_mem2d_fault(m, m.step(), FaultKind::PseudoNotLowered);
}

TEST(MachineMem2dCheckOrder, WaitBeforeAddressingModeAndRegisters) {
  Mem2d t = test::tl();
  t.start_addr = Addr8{uint64_t{0x20} << 56};
  t.data = test::regs_data({64});
  t.events.wait_mode = 0x01;
  t.events.semaphore_value = 5;
  Machine m(kC, {word(t)}, test::recording());
  expect_blocked(m, m.step());

  Mem2d u = test::tl();
  u.start_addr = test::addr8_regs(64, 64);
  u.events.wait_mode = 0x01;
  u.events.semaphore_value = 5;
  Machine m2(kC, {word(u)}, test::recording());
  expect_blocked(m2, m2.step());
}

}  // namespace
}  // namespace tpbisa
