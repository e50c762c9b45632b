// Sequencer control block executors (sequencer.md §3-§9): MOVE, ALU_OP, COMPARE_BRANCH loops, HALT, and the
// NEFF-level reading of branch targets (PROJ-CONV-Q15) and PseudoInst exit (Q14).
#include <gtest/gtest.h>

#include <vector>

#include "../../support/test_util.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"

namespace tpbisa {
namespace {

using test::kC;

Word move_imm(std::initializer_list<std::pair<uint8_t, uint32_t>> moves) {
  CtrlMv m{};
  m.header = {0xa7, 0x10, 0, 0};
  m.dtype = dtype::kUint32;
  m.move_source = 1;  // IMMEDIATE
  unsigned k = 0;
  for (const auto& [reg, value] : moves) {
    m.dst_registers[k] = reg;
    m.immediate[k] = value;
    ++k;
  }
  m.num_mov = static_cast<uint8_t>(k);
  return encode(m);
}

Word move_regs(std::initializer_list<std::pair<uint8_t, uint8_t>> moves) {  // (dst, src)
  CtrlMv m{};
  m.header = {0xa7, 0x10, 0, 0};
  m.dtype = dtype::kUint32;
  m.move_source = 0;  // REGISTER
  unsigned k = 0;
  for (const auto& [dst, src] : moves) {
    m.dst_registers[k] = dst;
    m.src_registers[k] = src;
    ++k;
  }
  m.num_mov = static_cast<uint8_t>(k);
  return encode(m);
}

Word alu_imm(uint8_t op, uint8_t dt, uint8_t dst, uint8_t src, uint64_t imm) {
  CtrlAl a{};
  a.header = {0xa8, 0x10, 0, 0};
  a.op = op;
  a.dtype = dt;
  a.src1_datasrc = 1;  // IMMEDIATE
  a.src0_lo = src;
  a.dst_lo = dst;
  a.immediate = imm;
  return encode(a);
}

/// cmp_op 1..6 = LT, LE, EQ, NE, GE, GT against the immediate; target mode 3 with `target`.
Word branch_imm(uint8_t cmp_op, uint8_t reg, uint32_t imm, uint64_t target, uint8_t debug_hint = 0) {
  CtrlBr b{};
  b.header = {0xa9, 0x10, 0, debug_hint};
  b.cmp_op = cmp_op;
  b.dtype = dtype::kInt32;
  b.target_mode = 3;
  b.cmp_immediate = imm;
  b.cmp_reg0 = reg;
  b.br_immediate = target;
  return encode(b);
}

Word halt() {
  Word w{};
  w[0] = 0xa1;
  w[1] = 0x10;
  return w;
}

MachineOptions on_sp(bool neff = false) {
  MachineOptions mo;
  mo.engine = EngineId::Sp;
  mo.neff_mode = neff;
  return mo;
}

TEST(SeqExec, MoveReadsEverySourceFirstAndTheWordAddress) {
  Machine m(kC, std::vector<Word>{move_imm({{1, 7}, {2, 9}}), move_regs({{3, 1}, {4, 2}, {5, 128}})}, on_sp());
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  EXPECT_EQ(m.state().regs[3], 7U);
  EXPECT_EQ(m.state().regs[4], 9U);
  EXPECT_EQ(m.state().regs[5], 64U);  // PC low half of word 1 (stream base 0, PROJ-CONV-Q2)
}

TEST(SeqExec, MoveDestinationAmongSourcesFaults) {
  Machine m(kC, std::vector<Word>{move_regs({{1, 2}, {2, 1}})}, on_sp());
  const RunSummary s = m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::IllegalRegister);
}

TEST(SeqExec, AluOpWrapsAndExtendsNarrowResults) {
  Machine m(kC,
            std::vector<Word>{move_imm({{1, 0xFFFFFFFFU}, {2, 0x7F}}), alu_imm(aluop::kAdd, dtype::kUint32, 3, 1, 2),
                              alu_imm(aluop::kAdd, dtype::kInt8, 4, 2, 1)},
            on_sp());
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  EXPECT_EQ(m.state().regs[3], 1U);           // 0xFFFFFFFF + 2 wraps
  EXPECT_EQ(m.state().regs[4], 0xFFFFFF80U);  // int8 127 + 1 = -128, sign-extended (PROJ-CONV-Q10)
}

TEST(SeqExec, RelativeBranchLoopRunsTheBodyNTimes) {
  // r1 = 0; loop: r1 += 1; if r1 < 5 goto loop (relative -64 bytes); halt.
  const std::vector<Word> prog{move_imm({{1, 0}}), alu_imm(aluop::kAdd, dtype::kInt32, 1, 1, 1),
                               branch_imm(1, 1, 5, static_cast<uint32_t>(-64)), halt(), move_imm({{2, 99}})};
  Machine m(kC, prog, on_sp());
  const RunSummary s = m.run(100);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  EXPECT_EQ(m.state().regs[1], 5U);
  EXPECT_EQ(m.state().regs[2], 0U);  // after the HALT: never run
  EXPECT_TRUE(m.core(0).engine(EngineId::Sp).halted());
  EXPECT_EQ(s.retired, 1U + 5U + 5U + 1U);
}

TEST(SeqExec, NeffBranchTargetIsAnInstructionIndex) {
  // In a NEFF stream target mode 3 names the taken block's index (PROJ-CONV-Q15) unless debug_hint == 2.
  const std::vector<Word> prog{branch_imm(0, 0, 0, 3), move_imm({{1, 1}}), move_imm({{2, 2}}), move_imm({{3, 3}})};
  Machine neff(kC, std::vector<CoreProgram>{[&] {
                 CoreProgram p;
                 p.stream(EngineId::Sp) = prog;
                 return p;
               }()},
               on_sp(true));
  ASSERT_FALSE(neff.run(10).faulted);
  EXPECT_EQ(neff.core(0).engine_state(EngineId::Sp).regs[1], 0U);
  EXPECT_EQ(neff.core(0).engine_state(EngineId::Sp).regs[3], 3U);
  // A device stream reads the same 3 as a byte offset: off the 64-byte grid.
  Machine device(kC, prog, on_sp());
  const RunSummary s = device.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::IllegalBranchTarget);
}

TEST(SeqExec, BranchPastTheEndFaultsOnePastHalts) {
  Machine past(kC, std::vector<Word>{branch_imm(0, 0, 0, 128)}, on_sp());
  EXPECT_EQ(past.run(10).fault.kind, FaultKind::IllegalBranchTarget);
  Machine end(kC, std::vector<Word>{branch_imm(0, 0, 0, 64), halt()}, on_sp());
  const RunSummary s = end.run(10);
  EXPECT_FALSE(s.faulted);
  EXPECT_TRUE(end.finished());
}

}  // namespace
}  // namespace tpbisa

namespace tpbisa {
namespace {

Word range_clear(uint8_t mode, uint8_t first, uint8_t last, std::array<uint32_t, 8> mask = {}) {
  CtrlEr e{};
  e.header = {0xb0, 0x10, 0, 0};
  e.clear_mode = mode;
  e.range_first = first;
  e.range_last = last;
  e.mask = mask;
  return encode(e);
}

TEST(SeqExec, RangeClearZeroesTheRangeInclusive) {
  Machine m(kC, std::vector<Word>{range_clear(1, 3, 5)}, on_sp());
  for (unsigned i = 0; i < 8; ++i) m.mutable_state().sems[i] = 10 + i;
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  EXPECT_EQ(m.state().sems[2], 12U);
  EXPECT_EQ(m.state().sems[3], 0U);
  EXPECT_EQ(m.state().sems[5], 0U);
  EXPECT_EQ(m.state().sems[6], 16U);
}

TEST(SeqExec, RangeClearByMaskZeroesTheMarkedSemaphores) {
  std::array<uint32_t, 8> mask{};
  mask[0] = 1U << 1;   // S[1]
  mask[7] = 1U << 31;  // S[255]
  Machine m(kC, std::vector<Word>{range_clear(2, 0, 0, mask)}, on_sp());
  m.mutable_state().sems[0] = 4;
  m.mutable_state().sems[1] = 5;
  m.mutable_state().sems[255] = 6;
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  EXPECT_EQ(m.state().sems[0], 4U);
  EXPECT_EQ(m.state().sems[1], 0U);
  EXPECT_EQ(m.state().sems[255], 0U);
}

TEST(SeqExec, RangeClearUnknownModeFaultsAndChangesNothing) {
  Machine m(kC, std::vector<Word>{range_clear(3, 0, 255)}, on_sp());
  m.mutable_state().sems[7] = 9;
  const RunSummary s = m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::InvalidInstruction);  // the validator refuses the mode before it runs
  EXPECT_EQ(m.state().sems[7], 9U);
}

Word poll_sem(uint8_t n, uint8_t reg, uint8_t op, uint64_t address, uint64_t writeback) {
  PollSem p{};
  p.header = {0xb3, 0x10, 0, 0};
  p.n_read = n;
  p.result_reg = reg;
  p.combine_op = op;
  p.address = address;
  p.writeback_address = writeback;
  return encode(p);
}

TEST(SeqExec, PollSemCombinesTheValuesIntoARegisterAndWritesBack) {
  const uint64_t src = *sbuf_address(kC, 0, 0x100);
  const uint64_t back = *sbuf_address(kC, 1, 0x200);
  Machine m(kC, std::vector<Word>{poll_sem(3, 7, aluop::kMin, src, back)}, on_sp());
  const uint32_t values[] = {9, 4, 6};
  for (unsigned k = 0; k < 3; ++k) ASSERT_TRUE(m.mutable_state().memory.write(src + 4 * k, 4, values[k]));
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  EXPECT_EQ(m.state().regs[7], 4U);  // MIN(9, 4, 6) (PROJ-CONV-Q13)
  EXPECT_EQ(m.state().memory.read(back, 4), 4U);
}

TEST(SeqExec, PollSemRegisterOutOfRangeFaults) {
  Machine m(kC, std::vector<Word>{poll_sem(1, 64, aluop::kMin, *sbuf_address(kC, 0, 0), 0)}, on_sp());
  const RunSummary s = m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::InvalidInstruction);  // the validator refuses r64 before it runs
  EXPECT_EQ(m.state().regs, (std::array<uint32_t, kNumRegisters>{}));
}

TEST(SeqExec, BranchPrefetchHintHasNoEffect) {
  Word hint{};
  hint[0] = 0xb5;
  hint[1] = 0x10;
  hint[48] = 0x40;  // a relative target: a hint only (§8.3)
  Machine m(kC, std::vector<Word>{hint, move_imm({{1, 3}})}, on_sp());
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  EXPECT_EQ(s.retired, 2U);
  EXPECT_EQ(m.state().regs[1], 3U);
}

}  // namespace
}  // namespace tpbisa
