// Simulator semantics of the DVE loads (ImmLd, MatchValueLoad, BatchNormParamLoad) and PtrMulti, hand-computed.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "../support/machine_builders.hpp"
#include "../support/test_util.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/state.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

using test::expect_blocked;
using test::f32;
using test::peek;
using test::poke;
using test::valid_on;
using test::word;
using Cls = DveChannel::ImmClass;
using Status = StepResult::Status;

using test::kC;
using test::kM;
using test::kS;
using test::kV;
constexpr std::array<Generation, 3> kCaymanUp{kC, kM, kV};

void expect_fault(const Machine& m, const StepResult& r, FaultKind kind) {
  ASSERT_EQ(r.status, Status::Faulted) << "expected " << to_string(kind);
  EXPECT_EQ(r.fault.kind, kind) << "got " << to_string(r.fault.kind) << ": " << r.fault.detail;
  EXPECT_EQ(m.pc(), 0U);
  EXPECT_TRUE(test::no_effects(r));
}

/// An ImmLd word reading `num` elements of `dt` from ADDR4 `start` on `nac` channels.
S2Bn immld(uint8_t opcode, uint8_t dt, uint32_t start, std::array<uint16_t, 2> num, uint8_t nac) {
  S2Bn s = test::il();
  s.header.opcode = opcode;
  s.dtype = dt;
  s.src_mem_pattern.start_addr = test::addr4_imm(start);
  s.src_mem_pattern.num_elem = num;
  s.num_active_channels = nac;
  return s;
}

// ================================================================ TensorScalarImmLd #86 .. #90

// #86: Arith INT8 [-1, 2] -> fp32 bits 0xBF800000, 0x40000000 in IMM[c][0..1] of every active channel.
TEST(MachineImmLd, Edge86ArithInt8ToFp32) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    const S2Bn s = immld(opcode::kImmLdArith, dtype::kInt8, 0, {2, 1}, 2);
    ASSERT_TRUE(valid_on(word(s), g));
    Machine m(g, {word(s)}, test::recording());
    for (unsigned c = 0; c < 2; ++c) poke(m.mutable_state(), test::sbuf(g, c, 0), 2, 0x02FF);
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    for (unsigned c = 0; c < 2; ++c) {
      EXPECT_EQ(m.state().dve[c].imm[0], 0xBF800000U);
      EXPECT_EQ(m.state().dve[c].imm[1], 0x40000000U);
      EXPECT_EQ(m.state().dve[c].imm_class[0], Cls::Arith);
    }
    EXPECT_EQ(m.state().dve[2].imm[0], 0U);  // channel 2 is not active
    EXPECT_EQ(m.state().dve[2].imm_class[0], Cls::Unwritten);
    ASSERT_EQ(r.dve_writes.size(), 4U);
    EXPECT_EQ(test::key(r.dve_writes[0]), test::key(DveWrite{0, DveField::Imm, 0, 0, 0xBF800000U}));
    EXPECT_EQ(test::key(r.dve_writes[3]), test::key(DveWrite{1, DveField::Imm, 1, 0, 0x40000000U}));
    EXPECT_TRUE(r.reg_writes.empty());
    EXPECT_TRUE(r.mem_writes.empty());
  }
}

// #87: Arith UINT32 0xFFFFFFFF rounds to nearest even: 2^32 = 0x4F800000.
TEST(MachineImmLd, Edge87ArithUint32RoundsToNearestEven) {
  const S2Bn s = immld(opcode::kImmLdArith, dtype::kUint32, 0, {1, 1}, 1);
  Machine m(kM, {word(s)}, test::recording());
  poke(m.mutable_state(), 0, 4, 0xFFFFFFFF);
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(m.state().dve[0].imm[0], 0x4F800000U);
}

// #88: Bitvec keeps raw bits, zero-extended: UINT8 0xFF, UINT16 0xFFFF, INT32 -1.
TEST(MachineImmLd, Edge88BitvecRawZeroExtended) {
  struct Case {
    uint8_t dt;
    uint64_t element;
    uint32_t expected;
  };
  for (Case c : {Case{dtype::kUint8, 0xFF, 0xFFU}, Case{dtype::kUint16, 0xFFFF, 0xFFFFU},
                 Case{dtype::kInt32, 0xFFFFFFFF, 0xFFFFFFFFU}}) {
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " dtype " << int{c.dt});
      const S2Bn s = immld(opcode::kImmLdBitvec, c.dt, 0, {1, 1}, 1);
      ASSERT_TRUE(valid_on(word(s), g));
      Machine m(g, {word(s)}, test::recording());
      poke(m.mutable_state(), 0, 8, 0xABABABABABABABAB);
      poke(m.mutable_state(), 0, test::dsize(c.dt), c.element);
      test::set_imm(m.mutable_state(), 0, 0, 0xDEADBEEF);
      const StepResult r = m.step();
      ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
      EXPECT_EQ(m.state().dve[0].imm[0], c.expected);
      EXPECT_EQ(m.state().dve[0].imm_class[0], Cls::Bitvec);
      ASSERT_EQ(r.dve_writes.size(), 1U);
      EXPECT_EQ(r.dve_writes[0].before, 0xDEADBEEFU);
    }
  }
}

// #89: W = 3 changes IMM[c][0..2] of the active channels only; everything else keeps its value (PROJ-CONV-S6).
TEST(MachineImmLd, Edge89OnlyLoadedSlotsChange) {
  const S2Bn s = immld(opcode::kImmLdArith, dtype::kFp32, 0, {3, 1}, 1);
  Machine m(kC, {word(s)}, test::recording());
  for (unsigned c = 0; c < 2; ++c)
    for (unsigned i = 0; i < 8; ++i) test::set_imm(m.mutable_state(), c, i, 0x100 + i, Cls::Bitvec);
  poke(m.mutable_state(), 0, 4, f32(1.0F));
  poke(m.mutable_state(), 4, 4, f32(2.0F));
  poke(m.mutable_state(), 8, 4, f32(3.0F));
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(m.state().dve[0].imm[0], f32(1.0F));
  EXPECT_EQ(m.state().dve[0].imm[1], f32(2.0F));
  EXPECT_EQ(m.state().dve[0].imm[2], f32(3.0F));
  for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(m.state().dve[0].imm_class[i], Cls::Arith);
  for (unsigned i = 3; i < 8; ++i) {
    EXPECT_EQ(m.state().dve[0].imm[i], 0x100U + i);
    EXPECT_EQ(m.state().dve[0].imm_class[i], Cls::Bitvec);
  }
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(m.state().dve[1].imm[i], 0x100U + i);
  EXPECT_EQ(r.dve_writes.size(), 3U);
}

// #89a: register-form src: base = R5 & 0x1FFFFFFF = 0x100 (partition 0, offset 0x100); regnum 64 faults.
TEST(MachineImmLd, Edge89aRegisterFormStart) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    S2Bn s = immld(opcode::kImmLdBitvec, dtype::kUint32, 0, {1, 1}, 2);
    s.src_mem_pattern.start_addr = test::addr4_reg(5);
    ASSERT_TRUE(valid_on(word(s), g));
    Machine m(g, {word(s)}, test::recording());
    m.mutable_state().regs[5] = 0xE0000100;
    poke(m.mutable_state(), 0x100, 4, 0xCAFEBABE);
    poke(m.mutable_state(), test::sbuf(g, 1, 0x100), 4, 0x5EED);
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    EXPECT_EQ(m.state().dve[0].imm[0], 0xCAFEBABEU);
    EXPECT_EQ(m.state().dve[1].imm[0], 0x5EEDU);
    ASSERT_EQ(r.mem_reads.size(), 2U);
    EXPECT_EQ(r.mem_reads[0].address, 0x100U);
    EXPECT_EQ(r.mem_reads[1].address, test::sbuf(g, 1, 0x100));

    s.src_mem_pattern.start_addr = test::addr4_reg(64);
    ASSERT_TRUE(valid_on(word(s), g));  // masked bits 0x40: the immediate path of tensor_start_addr_valid
    Machine bad(g, {word(s)}, test::recording());
    const StepResult rb = bad.step();
    expect_fault(bad, rb, FaultKind::IllegalRegister);
    EXPECT_EQ(rb.fault.reg, 64);
  }
}

// #90: firmware-faithful stubs (CAYMAN+): no state change, a FirmwareStub diagnostic, and only checks 1-2.
TEST(MachineImmLd, Edge90FirmwareStubChangesNothing) {
  MachineOptions opts = test::recording();
  opts.firmware_stubs = true;
  for (Generation g : kCaymanUp) {
    for (uint8_t op : {opcode::kImmLdArith, opcode::kImmLdBitvec}) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " opcode " << int{op});
      const S2Bn s = immld(op, dtype::kUint32, 0, {4, 1}, 4);
      Machine m(g, {word(s)}, opts);
      poke(m.mutable_state(), 0, 16, 0x1111111111111111);
      const auto before = test::snapshot(m.state(), {{0, 16}});
      const StepResult r = m.step();
      ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
      EXPECT_TRUE(r.dve_writes.empty());
      EXPECT_TRUE(r.mem_reads.empty());
      EXPECT_TRUE(test::has_diag(r, DiagKind::FirmwareStub));
      EXPECT_EQ(test::snapshot(m.state(), {{0, 16}}), before);
    }
    // Checks 3.. are not made: a source past partition 127 still retires as a stub.
    const S2Bn past = immld(opcode::kImmLdArith, dtype::kFp32, static_cast<uint32_t>(test::sbuf(g, 120, 0)), {1, 1}, 9);
    Machine m2(g, {word(past)}, opts);
    EXPECT_EQ(m2.step().status, Status::Retired);
    // Check 2 (the EVENTS wait) still applies.
    S2Bn waiting = immld(opcode::kImmLdArith, dtype::kFp32, 0, {1, 1}, 1);
    waiting.events.wait_mode = 0x01;
    waiting.events.semaphore_value = 3;
    Machine m3(g, {word(waiting)}, opts);
    expect_blocked(m3, m3.step());
  }
}

// #75 (CAYMAN+): shape-from-register source with num {0,0} validates, then faults UnsupportedShapeRegister;
// #74 (SUNDA): the same word is invalid.
TEST(MachineImmLd, Edge75ShapeRegisterIsUnsupported) {
  S2Bn s = immld(opcode::kImmLdArith, dtype::kFp32, 0, {0, 0}, 1);
  s.src_mem_pattern.start_addr = Addr4{0x40000000};
  for (Generation g : kCaymanUp) {
    SCOPED_TRACE(to_string(g));
    ASSERT_TRUE(valid_on(word(s), g));
    Machine m(g, {word(s)}, test::recording());
    expect_fault(m, m.step(), FaultKind::UnsupportedShapeRegister);
  }
  Machine m(kS, {word(s)}, test::recording());
  const StepResult r = m.step();
  expect_fault(m, r, FaultKind::InvalidInstruction);
  EXPECT_TRUE(r.fault.verdict.fails("has_tsm_immediates_load_src_element_cnt"));
}

// PROJ-CONV-N15: the shape-register refusal (check 3) comes before the address register (check 4).
TEST(MachineImmLd, ShapeRegisterBeforeIllegalRegister) {
  S2Bn s = immld(opcode::kImmLdArith, dtype::kFp32, 0, {0, 0}, 1);
  s.src_mem_pattern.start_addr = test::addr4_reg(64, addr4_marker::kAddrShapeReg);
  for (Generation g : kCaymanUp) {
    SCOPED_TRACE(to_string(g));
    ASSERT_TRUE(valid_on(word(s), g));
    Machine m(g, {word(s)}, test::recording());
    expect_fault(m, m.step(), FaultKind::UnsupportedShapeRegister);
  }
}

// A channel range running past partition 127 is out of range at execution (S2_BN does not validate it).
TEST(MachineImmLd, ChannelsPastPartition127AreOutOfRange) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    const auto start = static_cast<uint32_t>(test::sbuf(g, 120, 0));
    const S2Bn ok = immld(opcode::kImmLdArith, dtype::kFp32, start, {1, 1}, 8);
    Machine m1(g, {word(ok)}, test::recording());
    EXPECT_EQ(m1.step().status, Status::Retired);
    const S2Bn bad = immld(opcode::kImmLdArith, dtype::kFp32, start, {1, 1}, 9);
    ASSERT_TRUE(valid_on(word(bad), g));
    Machine m2(g, {word(bad)}, test::recording());
    expect_fault(m2, m2.step(), FaultKind::OutOfRange);
  }
}

// Elements beyond the active bytes (CAYMAN 0x38000) or before the partition start are out of range.
TEST(MachineImmLd, SourceElementsOutsideThePartitionAreOutOfRange) {
  const S2Bn over = immld(opcode::kImmLdArith, dtype::kFp32, 0x37FFC, {2, 1}, 1);
  Machine m1(kC, {word(over)}, test::recording());
  expect_fault(m1, m1.step(), FaultKind::OutOfRange);
  S2Bn under = immld(opcode::kImmLdArith, dtype::kFp32, static_cast<uint32_t>(test::sbuf(kC, 1, 0)), {2, 1}, 1);
  under.src_mem_pattern.step_elem = {-1, 0};  // element 1 at offset -4: partition 0's stride padding
  Machine m2(kC, {word(under)}, test::recording());
  expect_fault(m2, m2.step(), FaultKind::OutOfRange);
}

// ImmLd reads PSUM partitions (SUNDA..MARIANA) and MAVERICK's 1 MiB partitions.
TEST(MachineImmLd, PsumAndMaverickChannelAddresses) {
  for (Generation g : {kS, kC, kM}) {
    SCOPED_TRACE(to_string(g));
    const S2Bn s = immld(opcode::kImmLdBitvec, dtype::kUint32, static_cast<uint32_t>(test::psum(0, 0x10)), {1, 1}, 2);
    Machine m(g, {word(s)}, test::recording());
    poke(m.mutable_state(), test::psum(0, 0x10), 4, 0xA0);
    poke(m.mutable_state(), test::psum(1, 0x10), 4, 0xA1);  // 0x2008010
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    EXPECT_EQ(m.state().dve[0].imm[0], 0xA0U);
    EXPECT_EQ(m.state().dve[1].imm[0], 0xA1U);
  }
  const S2Bn v = immld(opcode::kImmLdBitvec, dtype::kUint32, 0x2000000, {1, 1}, 2);  // MAVERICK p32, p33
  Machine m(kV, {word(v)}, test::recording());
  poke(m.mutable_state(), 0x2000000, 4, 0xB0);
  poke(m.mutable_state(), 0x2100000, 4, 0xB1);
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(m.state().dve[0].imm[0], 0xB0U);
  EXPECT_EQ(m.state().dve[1].imm[0], 0xB1U);
}

// s2bn.md §4.2: element i = i1 * num_elem[0] + i0; num {2,2}, step {1,4} reads elements 0, 1, 4, 5.
TEST(MachineImmLd, TwoDimensionalSourceOrder) {
  S2Bn s = immld(opcode::kImmLdBitvec, dtype::kUint32, 0, {2, 2}, 1);
  s.src_mem_pattern.step_elem = {1, 4};
  Machine m(kC, {word(s)}, test::recording());
  for (unsigned k = 0; k < 8; ++k) poke(m.mutable_state(), 4 * k, 4, 0x50 + k);
  ASSERT_EQ(m.step().status, Status::Retired);
  EXPECT_EQ(m.state().dve[0].imm[0], 0x50U);
  EXPECT_EQ(m.state().dve[0].imm[1], 0x51U);
  EXPECT_EQ(m.state().dve[0].imm[2], 0x54U);
  EXPECT_EQ(m.state().dve[0].imm[3], 0x55U);
}

// PROJ-CONV-N2 / N16: a register-held base outside SBUF and PSUM is out of range (MARIANA 0x2400000,
// MAVERICK 0x8000000).
TEST(MachineImmLd, RegisterBaseOutsideBothRegionsIsOutOfRange) {
  struct Case {
    Generation g;
    uint32_t reg;
  };
  for (Case c : {Case{kM, 0x2400000}, Case{kS, 0x3000000}, Case{kV, 0x8000000}}) {
    SCOPED_TRACE(to_string(c.g));
    S2Bn s = immld(opcode::kImmLdBitvec, dtype::kUint32, 0, {1, 1}, 1);
    s.src_mem_pattern.start_addr = test::addr4_reg(9);
    Machine m(c.g, {word(s)}, test::recording());
    m.mutable_state().regs[9] = c.reg;
    expect_fault(m, m.step(), FaultKind::OutOfRange);
  }
}

// ================================================================ MatchValueLoad #99, #97

// #99: keys [10..17] load reversed (mv[0] = 17 ... mv[7] = 10) and every matched flag is cleared.
TEST(MachineMatchValueLoad, Edge99ReversedKeysAndClearedFlags) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    S2Bn s = test::mvl();
    s.num_active_channels = 2;
    ASSERT_TRUE(valid_on(word(s), g));
    Machine m(g, {word(s)}, test::recording());
    for (unsigned c = 0; c < 2; ++c)
      for (unsigned k = 0; k < 8; ++k)
        poke(m.mutable_state(), test::sbuf(g, c, 4 * k), 4, f32(static_cast<float>(10 + k + 100 * c)));
    for (unsigned k = 0; k < 8; ++k) {
      m.mutable_state().dve[0].matched[k] = true;
      m.mutable_state().dve[0].match_key[k] = 0xFFFFFFFF;
    }
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    for (unsigned c = 0; c < 2; ++c)
      for (unsigned j = 0; j < 8; ++j) {
        EXPECT_EQ(m.state().dve[c].match_key[j], f32(static_cast<float>(17 - j + 100 * c))) << c << " mv" << j;
        EXPECT_FALSE(m.state().dve[c].matched[j]);
        EXPECT_TRUE(m.state().dve[c].match_key_written[j]);
      }
    ASSERT_EQ(r.dve_writes.size(), 16U);
    EXPECT_EQ(test::key(r.dve_writes[0]), test::key(DveWrite{0, DveField::MatchKey, 7, 0xFFFFFFFFU, f32(10.0F)}));
  }
}

// #100-style composition: a negated step reads the keys backwards, so the two reversals cancel (mv[0] = 10).
TEST(MachineMatchValueLoad, NegatedStepUndoesTheReversal) {
  S2Bn s = test::mvl();
  s.num_active_channels = 1;
  s.src_mem_pattern.start_addr = test::addr4_imm(28);
  s.src_mem_pattern.step_elem = {-1, 0};
  Machine m(kM, {word(s)}, test::recording());
  for (unsigned k = 0; k < 8; ++k) poke(m.mutable_state(), 4 * k, 4, f32(static_cast<float>(10 + k)));
  ASSERT_EQ(m.step().status, Status::Retired);
  for (unsigned j = 0; j < 8; ++j) EXPECT_EQ(m.state().dve[0].match_key[j], f32(static_cast<float>(10 + j))) << j;
}

// MVL converts every key to fp32 (INT8 10..17 -> 10.0..17.0).
TEST(MachineMatchValueLoad, Int8KeysConvertToFp32) {
  S2Bn s = test::mvl();
  s.dtype = dtype::kInt8;
  s.num_active_channels = 1;
  Machine m(kC, {word(s)}, test::recording());
  poke(m.mutable_state(), 0, 8, 0x11100F0E0D0C0B0A);
  ASSERT_EQ(m.step().status, Status::Retired);
  EXPECT_EQ(m.state().dve[0].match_key[0], f32(17.0F));
  EXPECT_EQ(m.state().dve[0].match_key[7], f32(10.0F));
}

// #97 (MARIANA): FP4_EXP2 keys validate and fault UnsupportedDtype (PROJ-CONV-S9).
TEST(MachineMatchValueLoad, Edge97ExoticDtypeIsUnsupported) {
  S2Bn s = test::mvl();
  s.dtype = dtype::kFp4Exp2;
  s.num_active_channels = 1;
  ASSERT_TRUE(valid_on(word(s), kM));
  Machine m(kM, {word(s)}, test::recording());
  expect_fault(m, m.step(), FaultKind::UnsupportedDtype);
}

// ================================================================ BatchNormParamLoad #114

// #114: BNP[c] = {N = imm1, mean = fp32 at the pointer in channel c's partition, A, B, C (source order)}.
TEST(MachineBatchNormParamLoad, Edge114PointerFromInstruction) {
  for (uint8_t src : {uint8_t{1}, uint8_t{0}}) {  // 0 also means "pointer from the instruction"
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " imm0_src " << int{src});
      S2Bn s = test::bnpl();
      s.num_active_channels = 2;
      s.imm0_src = src;
      ASSERT_TRUE(valid_on(word(s), g));
      Machine m(g, {word(s)}, test::recording());
      for (unsigned c = 0; c < 2; ++c) {
        const float sign = c == 0 ? 1.0F : -1.0F;
        poke(m.mutable_state(), test::sbuf(g, c, 0), 4, f32(2.0F * sign));
        poke(m.mutable_state(), test::sbuf(g, c, 4), 4, f32(3.0F * sign));
        poke(m.mutable_state(), test::sbuf(g, c, 8), 4, f32(4.0F * sign));
        poke(m.mutable_state(), test::sbuf(g, c, 0x100), 4, f32(0.5F * sign));
      }
      const StepResult r = m.step();
      ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
      for (unsigned c = 0; c < 2; ++c) {
        const float sign = c == 0 ? 1.0F : -1.0F;
        const auto& bn = m.state().dve[c].bn;
        EXPECT_EQ(bn.n, 0x3F800000U);
        EXPECT_EQ(bn.batch_mean, f32(0.5F * sign));
        EXPECT_EQ(bn.a, f32(2.0F * sign));
        EXPECT_EQ(bn.b, f32(3.0F * sign));
        EXPECT_EQ(bn.c, f32(4.0F * sign));
        EXPECT_TRUE(bn.written);
      }
      EXPECT_FALSE(m.state().dve[2].bn.written);
    }
  }
}

// #114 with imm0_src = 2: the pointer is R[regnum] & 0x1FFFFFFF (PROJ-CONV-N16), per channel's partition.
TEST(MachineBatchNormParamLoad, Edge114PointerFromRegister) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    S2Bn s = test::bnpl();
    s.num_active_channels = 2;
    s.imm0_src = 2;
    s.imm0_ptr.raw = 5;  // imm_reg {regnum 5, reserved 0}
    ASSERT_TRUE(valid_on(word(s), g));
    Machine m(g, {word(s)}, test::recording());
    m.mutable_state().regs[5] = 0xE0000200;
    for (unsigned c = 0; c < 2; ++c) {
      poke(m.mutable_state(), test::sbuf(g, c, 0), 12, 0);
      poke(m.mutable_state(), test::sbuf(g, c, 0x100), 4, f32(-1.0F));
      poke(m.mutable_state(), test::sbuf(g, c, 0x200), 4, f32(static_cast<float>(c + 7)));
    }
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    EXPECT_EQ(m.state().dve[0].bn.batch_mean, f32(7.0F));
    EXPECT_EQ(m.state().dve[1].bn.batch_mean, f32(8.0F));
  }
}

// num {1,3}: A, B, C walk the outer dimension (step_elem[1] = 2 elements: offsets 0, 8, 16).
TEST(MachineBatchNormParamLoad, OuterDimensionCoefficients) {
  S2Bn s = test::bnpl();
  s.num_active_channels = 1;
  s.src_mem_pattern.num_elem = {1, 3};
  s.src_mem_pattern.step_elem = {1, 2};
  Machine m(kS, {word(s)}, test::recording());
  for (unsigned k = 0; k < 6; ++k) poke(m.mutable_state(), 4 * k, 4, f32(static_cast<float>(k)));
  poke(m.mutable_state(), 0x100, 4, f32(9.0F));
  ASSERT_EQ(m.step().status, Status::Retired);
  EXPECT_EQ(m.state().dve[0].bn.a, f32(0.0F));
  EXPECT_EQ(m.state().dve[0].bn.b, f32(2.0F));
  EXPECT_EQ(m.state().dve[0].bn.c, f32(4.0F));
  EXPECT_EQ(m.state().dve[0].bn.batch_mean, f32(9.0F));
}

// FP16 / BF16 coefficients are widened to fp32 (1.0 fp16 = 0x3C00; 3.0 bf16 = 0x4040; -2.0 fp16 = 0xC000).
TEST(MachineBatchNormParamLoad, NarrowCoefficientsWiden) {
  S2Bn s = test::bnpl();
  s.num_active_channels = 1;
  s.dtype = dtype::kFp16;
  Machine m(kM, {word(s)}, test::recording());
  poke(m.mutable_state(), 0, 6, 0x4400C0003C00);  // 1.0, -2.0, 4.0
  poke(m.mutable_state(), 0x100, 4, f32(0.25F));
  ASSERT_EQ(m.step().status, Status::Retired);
  EXPECT_EQ(m.state().dve[0].bn.a, f32(1.0F));
  EXPECT_EQ(m.state().dve[0].bn.b, f32(-2.0F));
  EXPECT_EQ(m.state().dve[0].bn.c, f32(4.0F));

  s.dtype = dtype::kBfloat16;
  Machine m2(kM, {word(s)}, test::recording());
  poke(m2.mutable_state(), 0, 6, 0x3F804040BF80);  // -1.0, 3.0, 1.0
  poke(m2.mutable_state(), 0x100, 4, f32(0.25F));
  ASSERT_EQ(m2.step().status, Status::Retired);
  EXPECT_EQ(m2.state().dve[0].bn.a, f32(-1.0F));
  EXPECT_EQ(m2.state().dve[0].bn.b, f32(3.0F));
  EXPECT_EQ(m2.state().dve[0].bn.c, f32(1.0F));
}

// ================================================================ TensorScalarPtrMulti #150 .. #165

/// PtrMulti on one channel: src dense at 0x0, dst dense at 0x1000 (partition 0), both with shape `num`.
S4d4Tsm ptr_multi(uint8_t opc, uint8_t in, uint8_t out, uint8_t op, uint8_t rev, std::array<uint16_t, 4> num) {
  S4d4Tsm t = test::pm();
  t.header.opcode = opc;
  t.in_dtype = in;
  t.out_dtype = out;
  t.op = op;
  t.reverse_operands = rev;
  t.src_mem_pattern = test::dense4d(0x0, num);
  t.dst_mem_pattern = test::dense4d(0x1000, num);
  t.num_active_channels = 1;
  return t;
}

/// Runs `t` on channel 0 with src elements `src` and flops `imm`; returns the dst elements (empty on a fault).
std::vector<uint64_t> run_pm(Generation g, const S4d4Tsm& t, const std::vector<uint64_t>& src,
                             const std::vector<uint32_t>& imm, Cls cls = Cls::Arith) {
  EXPECT_TRUE(valid_on(word(t), g));
  Machine m(g, {word(t)}, test::recording());
  const unsigned in = test::dsize(t.in_dtype), out = test::dsize(t.out_dtype);
  for (size_t k = 0; k < src.size(); ++k) poke(m.mutable_state(), k * in, in, src[k]);
  for (size_t i = 0; i < imm.size(); ++i) test::set_imm(m.mutable_state(), 0, static_cast<unsigned>(i), imm[i], cls);
  const StepResult r = m.step();
  EXPECT_EQ(r.status, Status::Retired) << r.fault.detail;
  if (r.status != Status::Retired) return {};
  std::vector<uint64_t> dst;
  for (size_t k = 0; k < src.size(); ++k) dst.push_back(peek(m.state(), 0x1000 + k * out, out));
  return dst;
}

std::vector<uint64_t> f32s(std::initializer_list<float> xs) {
  std::vector<uint64_t> v;
  for (float x : xs) v.push_back(f32(x));
  return v;
}

constexpr uint8_t kArith = opcode::kPtrMultiArith, kBitvec = opcode::kPtrMultiBitvec;
constexpr uint8_t kNone = 0, kFirst = 1, kSecond = 2, kBoth = 3;

// #150: SUBTRACT, x = 5, s = 2: None -> 3, Both -> -3.
TEST(MachinePtrMulti, Edge150ReverseOperands) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    const auto none = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kSubtract, kNone, {1, 1, 1, 1});
    const auto both = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kSubtract, kBoth, {1, 1, 1, 1});
    EXPECT_EQ(run_pm(g, none, f32s({5}), {f32(2)}), f32s({3}));
    EXPECT_EQ(run_pm(g, both, f32s({5}), {f32(2)}), f32s({-3}));
  }
}

// #151: W = 2, X = 3, IMM = [10, 20], src [1..6], ADD -> [11, 12, 13, 24, 25, 26]; channels are independent.
TEST(MachinePtrMulti, Edge151NewScalarPerSlice) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    S4d4Tsm t = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAdd, kNone, {3, 1, 1, 2});
    t.num_active_channels = 2;
    ASSERT_TRUE(valid_on(word(t), g));
    Machine m(g, {word(t)}, test::recording());
    for (unsigned c = 0; c < 2; ++c) {
      for (unsigned k = 0; k < 6; ++k) poke(m.mutable_state(), test::sbuf(g, c, 4 * k), 4, f32(float(k + 1)));
      test::set_imm(m.mutable_state(), c, 0, f32(c == 0 ? 10.0F : 100.0F));
      test::set_imm(m.mutable_state(), c, 1, f32(c == 0 ? 20.0F : 200.0F));
    }
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    const float want0[] = {11, 12, 13, 24, 25, 26};
    const float want1[] = {101, 102, 103, 204, 205, 206};
    for (unsigned k = 0; k < 6; ++k) {
      EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x1000 + 4 * k), 4), f32(want0[k])) << k;
      EXPECT_EQ(peek(m.state(), test::sbuf(g, 1, 0x1000 + 4 * k), 4), f32(want1[k])) << k;
    }
    EXPECT_EQ(r.mem_writes.size(), 12U);
    EXPECT_TRUE(r.dve_writes.empty());
  }
}

// #151a: in place, and with dst one element after src: every result uses the original src (PROJ-CONV-T17).
TEST(MachinePtrMulti, Edge151aInPlaceAndOverlap) {
  for (uint32_t dst : {0U, 4U}) {
    SCOPED_TRACE(testing::Message() << "dst " << dst);
    S4d4Tsm t = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAdd, kNone, {3, 1, 1, 2});
    t.dst_mem_pattern = test::dense4d(dst, {3, 1, 1, 2});
    ASSERT_TRUE(valid_on(word(t), kM));
    Machine m(kM, {word(t)}, test::recording());
    for (unsigned k = 0; k < 6; ++k) poke(m.mutable_state(), 4 * k, 4, f32(float(k + 1)));
    test::set_imm(m.mutable_state(), 0, 0, f32(10.0F));
    test::set_imm(m.mutable_state(), 0, 1, f32(20.0F));
    ASSERT_EQ(m.step().status, Status::Retired);
    const std::vector<float> want =
        dst == 0 ? std::vector<float>{11, 12, 13, 24, 25, 26} : std::vector<float>{1, 11, 12, 13, 24, 25, 26};
    for (unsigned k = 0; k < want.size(); ++k) EXPECT_EQ(peek(m.state(), 4 * k, 4), f32(want[k])) << k;
  }
}

// PROJ-CONV-T17 across channels: channel 0 writes partition 1, which is channel 1's source; channel 1 still
// reads the original value (src p0 = 1, p1 = 2; IMM 10 / 20; dst p1 = 11, p2 = 22).
TEST(MachinePtrMulti, Edge151aReadsAllChannelsBeforeWriting) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    S4d4Tsm t = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAdd, kNone, {1, 1, 1, 1});
    t.dst_mem_pattern.start_addr = test::addr4_imm(static_cast<uint32_t>(test::sbuf(g, 1, 0)));
    t.num_active_channels = 2;
    ASSERT_TRUE(valid_on(word(t), g));
    Machine m(g, {word(t)}, test::recording());
    poke(m.mutable_state(), test::sbuf(g, 0, 0), 4, f32(1.0F));
    poke(m.mutable_state(), test::sbuf(g, 1, 0), 4, f32(2.0F));
    test::set_imm(m.mutable_state(), 0, 0, f32(10.0F));
    test::set_imm(m.mutable_state(), 1, 0, f32(20.0F));
    ASSERT_EQ(m.step().status, Status::Retired);
    EXPECT_EQ(peek(m.state(), test::sbuf(g, 1, 0), 4), f32(11.0F));
    EXPECT_EQ(peek(m.state(), test::sbuf(g, 2, 0), 4), f32(22.0F));
  }
}

// #151b: every dst step 0: the single dst element holds 26, written last (six writes in flat order).
TEST(MachinePtrMulti, Edge151bDstStepZeroLastWriteWins) {
  S4d4Tsm t = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAdd, kNone, {3, 1, 1, 2});
  t.dst_mem_pattern.step_elem = {0, 0, 0, 0};
  ASSERT_TRUE(valid_on(word(t), kC));
  Machine m(kC, {word(t)}, test::recording());
  for (unsigned k = 0; k < 6; ++k) poke(m.mutable_state(), 4 * k, 4, f32(float(k + 1)));
  test::set_imm(m.mutable_state(), 0, 0, f32(10.0F));
  test::set_imm(m.mutable_state(), 0, 1, f32(20.0F));
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(peek(m.state(), 0x1000, 4), f32(26.0F));
  ASSERT_EQ(r.mem_writes.size(), 6U);
  const float want[] = {11, 12, 13, 24, 25, 26};
  for (unsigned k = 0; k < 6; ++k) {
    EXPECT_EQ(r.mem_writes[k].address, 0x1000U);
    EXPECT_EQ(r.mem_writes[k].after, f32(want[k]));
  }
  EXPECT_FALSE(test::written(m.state(), 0x1004, 1));
}

uint32_t pm1(uint8_t op, uint8_t rev, uint32_t x, uint32_t s, Generation g = Generation::Mariana) {
  const auto t = ptr_multi(opcode::kPtrMultiArith, dtype::kFp32, dtype::kFp32, op, rev, {1, 1, 1, 1});
  const auto out = run_pm(g, t, {x}, {s});
  return out.empty() ? 0xDEADDEADU : static_cast<uint32_t>(out[0]);
}

// #151c: bits the spec leaves open (PROJ-CONV-N17, T12): either zero; any quiet NaN; MAX with one NaN is exact.
TEST(MachinePtrMulti, Edge151cOpenBitsAcceptAnyAllowedValue) {
  const uint32_t pz = 0x00000000, nz = 0x80000000, inf = 0x7F800000, qnan = 0x7FC00000, snan = 0x7F800001;
  for (uint8_t op : {aluop::kMax, aluop::kMin})
    for (auto [x, s] : {std::pair{pz, nz}, std::pair{nz, pz}}) {
      const uint32_t y = pm1(op, kNone, x, s);
      EXPECT_TRUE(y == pz || y == nz) << std::hex << y;
    }
  EXPECT_TRUE(test::is_quiet_nan(pm1(aluop::kMult, kNone, inf, pz)));
  EXPECT_TRUE(test::is_quiet_nan(pm1(aluop::kMult, kNone, pz, inf)));
  for (uint32_t nan : {qnan, snan, 0xFFC12345U}) {
    EXPECT_TRUE(test::is_quiet_nan(pm1(aluop::kAdd, kNone, nan, f32(1.0F)))) << std::hex << nan;
    EXPECT_EQ(pm1(aluop::kMax, kNone, f32(1.5F), nan), f32(1.5F)) << std::hex << nan;
    EXPECT_EQ(pm1(aluop::kMax, kBoth, f32(1.5F), nan), f32(1.5F)) << std::hex << nan;
    EXPECT_EQ(pm1(aluop::kMin, kNone, f32(1.5F), nan), f32(1.5F)) << std::hex << nan;
  }
}

// #152: BYPASS with reverse Both broadcasts the scalar: [10, 10, 10, 20, 20, 20].
TEST(MachinePtrMulti, Edge152BypassBothBroadcastsScalar) {
  const auto t = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kBypass, kBoth, {3, 1, 1, 2});
  EXPECT_EQ(run_pm(kS, t, f32s({1, 2, 3, 4, 5, 6}), {f32(10), f32(20)}), f32s({10, 10, 10, 20, 20, 20}));
  const auto none = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kBypass, kNone, {3, 1, 1, 2});
  EXPECT_EQ(run_pm(kS, none, f32s({1, 2, 3, 4, 5, 6}), {f32(10), f32(20)}), f32s({1, 2, 3, 4, 5, 6}));
}

// #153: ABSOLUTE_VALUE with reverse Both acts on the scalar: every element is |-4| = 4.
TEST(MachinePtrMulti, Edge153UnaryOnScalar) {
  const auto t = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAbsoluteValue, kBoth, {3, 1, 1, 1});
  EXPECT_EQ(run_pm(kC, t, f32s({1, -2, 3}), {f32(-4)}), f32s({4, 4, 4}));
}

// #154: INT32 16777217 + 0 computes in fp32: 16777216.
TEST(MachinePtrMulti, Edge154Fp32InternalPrecision) {
  const auto t = ptr_multi(kArith, dtype::kInt32, dtype::kInt32, aluop::kAdd, kNone, {1, 1, 1, 1});
  EXPECT_EQ(run_pm(kM, t, {16777217}, {f32(0)}), std::vector<uint64_t>{16777216});
}

// #155: out INT8: -3.9 -> -3 (truncate), 300.7 -> 127 (saturate); also -300 -> -128 and NaN -> 0 (PROJ-CONV-T5).
TEST(MachinePtrMulti, Edge155TruncateAndSaturateToInt8) {
  const auto t = ptr_multi(kArith, dtype::kFp32, dtype::kInt8, aluop::kAdd, kNone, {4, 1, 1, 1});
  const auto out = run_pm(kV, t, {f32(-3.9F), f32(300.7F), f32(-300.0F), 0x7FC00000}, {f32(0)});
  EXPECT_EQ(out, (std::vector<uint64_t>{0xFD, 0x7F, 0x80, 0x00}));
}

// #156: IS_GT gives 1.0 / 0.0 for FP32 out and 1 / 0 for INT32 out.
TEST(MachinePtrMulti, Edge156CompareResults) {
  const auto fp = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kIsGt, kNone, {2, 1, 1, 1});
  EXPECT_EQ(run_pm(kM, fp, f32s({3, 1}), {f32(2)}), f32s({1, 0}));
  const auto in = ptr_multi(kArith, dtype::kFp32, dtype::kInt32, aluop::kIsGt, kNone, {2, 1, 1, 1});
  EXPECT_EQ(run_pm(kM, in, f32s({3, 1}), {f32(2)}), (std::vector<uint64_t>{1, 0}));
  const auto rev = ptr_multi(kArith, dtype::kFp32, dtype::kInt32, aluop::kIsGt, kBoth, {2, 1, 1, 1});
  EXPECT_EQ(run_pm(kM, rev, f32s({3, 1}), {f32(2)}), (std::vector<uint64_t>{0, 1}));  // s > x
}

// #157: out FP16, result 1.0000001 (0x3F800001) rounds to nearest even: 1.0 = 0x3C00.
TEST(MachinePtrMulti, Edge157Fp16RoundsToNearestEven) {
  const auto t = ptr_multi(kArith, dtype::kFp32, dtype::kFp16, aluop::kAdd, kNone, {1, 1, 1, 1});
  EXPECT_EQ(run_pm(kS, t, {0x3F800001}, {f32(0)}), std::vector<uint64_t>{0x3C00});
}

uint64_t pmb1(uint8_t dt, uint8_t op, uint64_t x, uint32_t s, uint8_t rev = 0) {
  const auto t = ptr_multi(opcode::kPtrMultiBitvec, dt, dt, op, rev, {1, 1, 1, 1});
  const auto out = run_pm(Generation::Mariana, t, {x}, {s}, Cls::Bitvec);
  return out.empty() ? 0xDEADDEADU : out[0];
}

// #158: UINT8 LSL 0x81 by 1 -> 0x02 (32-bit compute, truncated to 8 bits).
TEST(MachinePtrMulti, Edge158Uint8ShiftTruncates) {
  EXPECT_EQ(pmb1(dtype::kUint8, aluop::kLogicalShiftLeft, 0x81, 1), 0x02U);
}

// #159 (PROJ-CONV-T15): UINT32 ARITH_SHIFT_RIGHT follows the dtype's signedness: 0x80000000 >> 1 = 0x40000000.
TEST(MachinePtrMulti, Edge159Uint32ArithShiftRightZeroFillsConvention) {
  EXPECT_EQ(pmb1(dtype::kUint32, aluop::kArithShiftRight, 0x80000000, 1), 0x40000000U);
}

// #159a: INT32 ARITH_SHIFT_RIGHT replicates the sign: 0xC0000000.
TEST(MachinePtrMulti, Edge159aInt32ArithShiftRightSignFills) {
  EXPECT_EQ(pmb1(dtype::kInt32, aluop::kArithShiftRight, 0x80000000, 1), 0xC0000000U);
}

// #160: UINT8 0x80 ARITH_SHIFT_RIGHT 1 -> 0x40 (zero-extended operand).
TEST(MachinePtrMulti, Edge160Uint8ArithShiftRight) {
  EXPECT_EQ(pmb1(dtype::kUint8, aluop::kArithShiftRight, 0x80, 1), 0x40U);
}

// #161: UINT16 BITWISE_NOT 0x00FF -> 0xFF00 (the scalar is ignored).
TEST(MachinePtrMulti, Edge161Uint16BitwiseNot) {
  EXPECT_EQ(pmb1(dtype::kUint16, aluop::kBitwiseNot, 0x00FF, 0x1234), 0xFF00U);
}

// #162 (PROJ-CONV-T7): a shift by 33 behaves as a shift by 1.
TEST(MachinePtrMulti, Edge162ShiftCountUsesLowFiveBits) {
  EXPECT_EQ(pmb1(dtype::kUint32, aluop::kLogicalShiftLeft, 1, 33), 2U);
  EXPECT_EQ(pmb1(dtype::kUint32, aluop::kLogicalShiftRight, 4, 33), 2U);
  EXPECT_EQ(pmb1(dtype::kInt32, aluop::kArithShiftRight, 0xFFFFFFF8, 33), 0xFFFFFFFCU);
  EXPECT_EQ(pmb1(dtype::kUint8, aluop::kLogicalShiftLeft, 0x81, 33), 0x02U);
}

// #163, convention only (PROJ-CONV-T8: reflected 0xEDB88320, scalar = running CRC, no inversion):
// from ~0 over "1234" the register is ~zlib.crc32("1234") = ~0x9BE3E0A3; then "5678" gives ~0x9AE0DAAF.
TEST(MachinePtrMulti, Edge163Crc32ConventionOnly) {
  EXPECT_EQ(pmb1(dtype::kUint32, aluop::kCrc32, 0x34333231, 0xFFFFFFFF), 0x641C1F5CU);
  EXPECT_EQ(pmb1(dtype::kUint32, aluop::kCrc32, 0x38373635, 0x641C1F5C), 0x651F2550U);
}

// Bitvec BITWISE_AND / OR / XOR with reverse Both is symmetric; the PMB baseline op.
TEST(MachinePtrMulti, BitvecLogicOps) {
  EXPECT_EQ(pmb1(dtype::kUint32, aluop::kBitwiseAnd, 0xF0F0FF00, 0x0FF0F0F0), 0x00F0F000U);
  EXPECT_EQ(pmb1(dtype::kUint16, aluop::kBitwiseOr, 0x0F00, 0x00F0, kBoth), 0x0FF0U);
  EXPECT_EQ(pmb1(dtype::kUint8, aluop::kBitwiseXor, 0xFF, 0x0F), 0xF0U);
}

// PROJ-CONV-T3: src and dst shapes may differ (#146); the k-th src element makes the k-th dst element and the
// scalar follows the src W coordinate: src {2,1,1,2}, dst {4,1,1,1}, IMM [10, 20] -> [11, 12, 23, 24].
TEST(MachinePtrMulti, DifferentDstShapeUsesSourceSlices) {
  S4d4Tsm t = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAdd, kNone, {2, 1, 1, 2});
  t.dst_mem_pattern = test::dense4d(0x1000, {4, 1, 1, 1});
  EXPECT_EQ(run_pm(kM, t, f32s({1, 2, 3, 4}), {f32(10), f32(20)}), f32s({11, 12, 23, 24}));
}

// #164 (CAYMAN+): firmware stubs leave dst untouched and only log.
TEST(MachinePtrMulti, Edge164FirmwareStubLeavesDstUntouched) {
  MachineOptions opts = test::recording();
  opts.firmware_stubs = true;
  for (Generation g : kCaymanUp) {
    SCOPED_TRACE(to_string(g));
    const auto t = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAdd, kNone, {2, 1, 1, 1});
    Machine m(g, {word(t)}, opts);
    poke(m.mutable_state(), 0, 8, 0x4000000040000000);
    poke(m.mutable_state(), 0x1000, 8, 0x1111111111111111);
    test::set_imm(m.mutable_state(), 0, 0, f32(1.0F));
    const auto before = test::snapshot(m.state(), {{0, 8}, {0x1000, 8}});
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    EXPECT_TRUE(r.mem_writes.empty());
    EXPECT_TRUE(r.mem_reads.empty());
    EXPECT_TRUE(test::has_diag(r, DiagKind::FirmwareStub));
    EXPECT_EQ(test::snapshot(m.state(), {{0, 8}, {0x1000, 8}}), before);

    // Only checks 1-2 are made (memory-and-numerics.md §5.1): channels past partition 127 still retire.
    S4d4Tsm past = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAdd, kNone, {1, 1, 1, 1});
    past.src_mem_pattern.start_addr = test::addr4_reg(1);
    past.dst_mem_pattern.start_addr = test::addr4_reg(2);
    past.num_active_channels = 9;
    Machine m2(g, {word(past)}, opts);
    m2.mutable_state().regs[1] = static_cast<uint32_t>(test::sbuf(g, 120, 0));
    m2.mutable_state().regs[2] = static_cast<uint32_t>(test::sbuf(g, 120, 0x1000));
    const StepResult r2 = m2.step();
    EXPECT_EQ(r2.status, Status::Retired) << r2.fault.detail;
    EXPECT_TRUE(r2.mem_writes.empty());
  }
}

// #165: Arith consumer of a Bitvec-loaded flop reinterprets the raw bits as fp32, with a diagnostic
// (end to end: ImmLdBitvec loads 0x40000000 = 2.0f, then PtrMultiArith adds it to 1.0).
TEST(MachinePtrMulti, Edge165ClassMismatchDiagnostic) {
  const S2Bn load = immld(opcode::kImmLdBitvec, dtype::kUint32, 0x800, {1, 1}, 1);
  const auto add = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAdd, kNone, {1, 1, 1, 1});
  Machine m(kM, {word(load), word(add)}, test::recording());
  poke(m.mutable_state(), 0x800, 4, 0x40000000);
  poke(m.mutable_state(), 0, 4, f32(1.0F));
  ASSERT_EQ(m.step().status, Status::Retired);
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(peek(m.state(), 0x1000, 4), f32(3.0F));
  EXPECT_TRUE(test::has_diag(r, DiagKind::ScalarClassMismatch, 0));  // channel 0 * 8 + slot 0
}

// PROJ-CONV-T14 / S10: Bitvec consumer of an Arith flop, and a never-written flop, are flagged too.
TEST(MachinePtrMulti, UnwrittenAndMismatchedScalarDiagnostics) {
  const auto t = ptr_multi(kBitvec, dtype::kUint32, dtype::kUint32, aluop::kBitwiseOr, kNone, {1, 1, 1, 2});
  Machine m(kC, {word(t)}, test::recording());
  poke(m.mutable_state(), 0, 8, 0x0000000100000001);
  test::set_imm(m.mutable_state(), 0, 0, 0x10, Cls::Arith);  // slot 1 never written (reads 0)
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(peek(m.state(), 0x1000, 4), 0x11U);
  EXPECT_EQ(peek(m.state(), 0x1004, 4), 0x1U);
  EXPECT_TRUE(test::has_diag(r, DiagKind::ScalarClassMismatch, 0));
  EXPECT_TRUE(test::has_diag(r, DiagKind::UnwrittenScalar, 1));
}

// End to end: ImmLdArith (INT8 10, 20 -> fp32) preloads the scalars of a #151 PtrMultiArith.
TEST(MachinePtrMulti, ImmLdThenPtrMultiEndToEnd) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    const S2Bn load = immld(opcode::kImmLdArith, dtype::kInt8, 0x800, {2, 1}, 1);
    const auto add = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAdd, kNone, {3, 1, 1, 2});
    Machine m(g, {word(load), word(add)}, test::recording());
    poke(m.mutable_state(), 0x800, 2, 0x140A);
    for (unsigned k = 0; k < 6; ++k) poke(m.mutable_state(), 4 * k, 4, f32(float(k + 1)));
    const RunSummary s = m.run(10);
    EXPECT_FALSE(s.faulted) << s.fault.detail;
    EXPECT_EQ(s.retired, 2U);
    const float want[] = {11, 12, 13, 24, 25, 26};
    for (unsigned k = 0; k < 6; ++k) EXPECT_EQ(peek(m.state(), 0x1000 + 4 * k, 4), f32(want[k])) << k;
  }
}

// PtrMulti writes PSUM (fp32 out) at 0x2000000 + p * 0x8000 + offset on SUNDA..MARIANA.
TEST(MachinePtrMulti, PsumDestination) {
  for (Generation g : {kS, kC, kM}) {
    SCOPED_TRACE(to_string(g));
    S4d4Tsm t = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kMult, kNone, {1, 1, 1, 1});
    t.dst_mem_pattern.start_addr = test::addr4_imm(static_cast<uint32_t>(test::psum(0, 0x100)));
    t.num_active_channels = 2;
    ASSERT_TRUE(valid_on(word(t), g));
    Machine m(g, {word(t)}, test::recording());
    for (unsigned c = 0; c < 2; ++c) {
      poke(m.mutable_state(), test::sbuf(g, c, 0), 4, f32(float(c + 3)));
      test::set_imm(m.mutable_state(), c, 0, f32(2.0F));
    }
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    ASSERT_EQ(r.mem_writes.size(), 2U);
    EXPECT_EQ(r.mem_writes[0].address, 0x2000100U);
    EXPECT_EQ(r.mem_writes[1].address, 0x2008100U);
    EXPECT_EQ(peek(m.state(), 0x2008100, 4), f32(8.0F));
  }
}

// MAVERICK: channel c of a pattern at partition p addresses partition p + c with a 1 MiB stride.
TEST(MachinePtrMulti, MaverickChannelStride) {
  S4d4Tsm t = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAdd, kNone, {1, 1, 1, 1});
  t.num_active_channels = 3;
  Machine m(kV, {word(t)}, test::recording());
  for (unsigned c = 0; c < 3; ++c) {
    poke(m.mutable_state(), 0x100000 * c, 4, f32(float(c)));
    test::set_imm(m.mutable_state(), c, 0, f32(0.5F));
  }
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(peek(m.state(), 0x201000, 4), f32(2.5F));
  EXPECT_EQ(r.mem_writes[1].address, 0x101000U);
}

// Register-form src/dst (which validation waives) running past partition 127 fault OutOfRange.
TEST(MachinePtrMulti, ChannelsPastPartition127AreOutOfRange) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    for (uint8_t nac : {uint8_t{8}, uint8_t{9}}) {
      S4d4Tsm t = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAdd, kNone, {1, 1, 1, 1});
      t.src_mem_pattern.start_addr = test::addr4_reg(1);
      t.dst_mem_pattern.start_addr = test::addr4_reg(2);
      t.num_active_channels = nac;
      ASSERT_TRUE(valid_on(word(t), g));
      Machine m(g, {word(t)}, test::recording());
      m.mutable_state().regs[1] = static_cast<uint32_t>(test::sbuf(g, 120, 0));
      m.mutable_state().regs[2] = static_cast<uint32_t>(test::sbuf(g, 120, 0x1000)) | 0xE0000000U;  // masked off
      const StepResult r = m.step();
      if (nac == 8) {
        ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
        EXPECT_EQ(r.mem_writes[7].address, test::sbuf(g, 127, 0x1000));
      } else {
        expect_fault(m, r, FaultKind::OutOfRange);
      }
    }
  }
}

// ================================================================ SUNDA Dual #172 .. #174

// Dual: dst = (x op0 p0) * p1 with pair[i] = (IMM[i], IMM[4+i]) (PROJ-CONV-T9); reverse per the two-op formula.
TEST(MachinePtrMultiDual, Edge172To174) {
  struct Case {
    uint8_t op, rev;
    float w0, w1;
  };
  // x = 3 in both slices; slice 0 pair (1, 5), slice 1 pair (2, 7).
  const Case cases[] = {
      {aluop::kAdd, kNone, 20, 35},         // #172 (3 + 1) * 5, (3 + 2) * 7
      {aluop::kSubtract, kNone, 10, 7},     // (3 - 1) * 5, (3 - 2) * 7
      {aluop::kSubtract, kFirst, -10, -7},  // (p0 - x) * p1
      {aluop::kSubtract, kSecond, 10, 7},   // #173 p1 * (x - p0)
      {aluop::kSubtract, kBoth, -10, -7},   // p1 * (p0 - x)
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "op " << int{c.op} << " rev " << int{c.rev});
    const auto t = ptr_multi(opcode::kPtrMultiDualArith, dtype::kFp32, dtype::kFp32, c.op, c.rev, {1, 1, 1, 2});
    const std::vector<uint32_t> imm{f32(1), f32(2), f32(99), f32(99), f32(5), f32(7), f32(99), f32(99)};
    EXPECT_EQ(run_pm(kS, t, f32s({3, 3}), imm), f32s({c.w0, c.w1}));
  }
}

// ================================================================ #180, #181 and check order

// #180 (MAVERICK FP8_EXP2) / #181 (MARIANA FP4_EXP2): accepted by validation, UnsupportedDtype at execution.
TEST(MachinePtrMulti, Edge180And181UnsupportedDtype) {
  struct Case {
    Generation g;
    uint8_t in, out;
  };
  for (Case c : {Case{kV, dtype::kFp8Exp2, dtype::kFp32}, Case{kM, dtype::kFp4Exp2, dtype::kFp32},
                 Case{kM, dtype::kFp32, dtype::kFp4Exp2}}) {
    SCOPED_TRACE(testing::Message() << to_string(c.g) << " in " << int{c.in} << " out " << int{c.out});
    const auto t = ptr_multi(kArith, c.in, c.out, aluop::kAdd, kNone, {8, 1, 1, 4});
    ASSERT_TRUE(valid_on(word(t), c.g));
    Machine m(c.g, {word(t)}, test::recording());
    expect_fault(m, m.step(), FaultKind::UnsupportedDtype);
  }
}

TEST(MachinePtrMultiCheckOrder, DtypeBeforeShapeRegisterAndRegisters) {
  S4d4Tsm t = ptr_multi(kArith, dtype::kFp4Exp2, dtype::kFp32, aluop::kAdd, kNone, {1, 1, 1, 1});
  t.src_mem_pattern.start_addr = test::addr4_reg(64, addr4_marker::kAddrShapeReg);
  t.dst_mem_pattern.start_addr = test::addr4_reg(68);  // regnum >= 64: validated as a 4-aligned immediate 0x44
  ASSERT_TRUE(valid_on(word(t), kM));
  Machine m(kM, {word(t)}, test::recording());
  expect_fault(m, m.step(), FaultKind::UnsupportedDtype);
}

TEST(MachinePtrMultiCheckOrder, ShapeRegisterBeforeIllegalRegister) {
  S4d4Tsm t = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAdd, kNone, {1, 1, 1, 1});
  t.src_mem_pattern.start_addr = test::addr4_reg(64);
  t.dst_mem_pattern.start_addr = Addr4{0x40001000};  // SHAPE_REG, immediate 0x1000
  ASSERT_TRUE(valid_on(word(t), kC));
  Machine m(kC, {word(t)}, test::recording());
  expect_fault(m, m.step(), FaultKind::UnsupportedShapeRegister);
}

TEST(MachinePtrMultiCheckOrder, SourceRegisterBeforeDestinationRegister) {
  S4d4Tsm t = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAdd, kNone, {1, 1, 1, 1});
  t.src_mem_pattern.start_addr = test::addr4_reg(72);  // validated as immediates 0x48 / 0x44 (4-aligned)
  t.dst_mem_pattern.start_addr = test::addr4_reg(68);
  ASSERT_TRUE(valid_on(word(t), kS));
  Machine m(kS, {word(t)}, test::recording());
  const StepResult r = m.step();
  expect_fault(m, r, FaultKind::IllegalRegister);
  EXPECT_EQ(r.fault.reg, 72);
}

TEST(MachinePtrMultiCheckOrder, IllegalRegisterBeforeOutOfRange) {
  S4d4Tsm t = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAdd, kNone, {1, 1, 1, 1});
  t.src_mem_pattern.start_addr = test::addr4_imm(0x38000);  // CAYMAN: beyond the active bytes
  t.dst_mem_pattern.start_addr = test::addr4_reg(64);
  ASSERT_TRUE(valid_on(word(t), kC));
  Machine m(kC, {word(t)}, test::recording());
  const StepResult r = m.step();
  expect_fault(m, r, FaultKind::IllegalRegister);
  EXPECT_EQ(r.fault.reg, 64);
}

// Step 6 in execution order: each source element, then the destination element it produces.
TEST(MachinePtrMultiCheckOrder, SourceElementThenItsDestinationElement) {
  // src element 0 (0x37FFC) is fine, element 1 (0x38000) is not; dst element 0 (0x38000) is not:
  // dst element 0 is reached first.
  S4d4Tsm t = ptr_multi(kArith, dtype::kFp32, dtype::kFp32, aluop::kAdd, kNone, {2, 1, 1, 1});
  t.src_mem_pattern.start_addr = test::addr4_imm(0x37FFC);
  t.dst_mem_pattern.start_addr = test::addr4_imm(0x38000);
  ASSERT_TRUE(valid_on(word(t), kC));
  Machine m(kC, {word(t)}, test::recording());
  const StepResult r = m.step();
  expect_fault(m, r, FaultKind::OutOfRange);
  EXPECT_TRUE(r.fault.has_address);
  EXPECT_EQ(r.fault.address, 0x38000U);
  // Both element-0 accesses out of range: the source one is reported.
  t.src_mem_pattern.start_addr = test::addr4_imm(test::sbuf(kC, 2, 0x38000));
  Machine m2(kC, {word(t)}, test::recording());
  const StepResult r2 = m2.step();
  expect_fault(m2, r2, FaultKind::OutOfRange);
  EXPECT_EQ(r2.fault.address, test::sbuf(kC, 2, 0x38000));
}

TEST(MachinePtrMultiCheckOrder, WaitBeforeUnsupportedDtype) {
  S4d4Tsm t = ptr_multi(kArith, dtype::kFp8Exp2, dtype::kFp32, aluop::kAdd, kNone, {1, 1, 1, 1});
  t.events.wait_mode = 0x05;  // SEM_GE_IMM: sem[0] >= 1 does not hold
  t.events.semaphore_value = 1;
  Machine m(kV, {word(t)}, test::recording());
  expect_blocked(m, m.step());
}

}  // namespace
}  // namespace tpbisa
