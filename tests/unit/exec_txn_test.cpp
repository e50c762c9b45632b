// The execution transaction's bookkeeping across steps that share one effect log: a fault belongs to the step that
// set it, and diagnostic counts to the step that counted them.
#include <gtest/gtest.h>

#include <string>

#include "core/exec.hpp"
#include "tpbisa/effects.hpp"
#include "tpbisa/state.hpp"

namespace tpbisa {
namespace {

struct Bench {
  CoreState core{Generation::Cayman};
  EngineState engine{};
  EffectLog log;
  MachineOptions options;
};

TEST(ExecTxn, AFaultIsTheFailingTransactionsOwn) {
  Bench b;
  {
    exec::Txn first(b.core, b.engine, b.log, b.options, 3);
    EXPECT_FALSE(first.fail_at(FaultKind::OutOfRange, 0x1234, "first"));
    EXPECT_EQ(first.fault().kind, FaultKind::OutOfRange);
    EXPECT_TRUE(first.fault().has_address);
    EXPECT_EQ(first.fault().address, 0x1234U);
    EXPECT_EQ(first.fault().index, 3U);
    EXPECT_EQ(first.fault().detail, "first");
  }
  b.log.clear();
  exec::Txn second(b.core, b.engine, b.log, b.options, 7);
  // Not failed yet: a default fault, nothing of the first transaction's.
  EXPECT_FALSE(second.fault().has_address);
  EXPECT_EQ(second.fault().detail, "");
  EXPECT_EQ(second.fault().reg, -1);
  EXPECT_FALSE(second.fail_reg(FaultKind::IllegalRegister, 65, "second"));
  EXPECT_EQ(second.fault().kind, FaultKind::IllegalRegister);
  EXPECT_FALSE(second.fault().has_address);  // the first fault's address does not carry over
  EXPECT_EQ(second.fault().address, 0U);
  EXPECT_EQ(second.fault().reg, 65);
  EXPECT_EQ(second.fault().index, 7U);
  EXPECT_EQ(second.fault().detail, "second");
  // A second failure of the same transaction keeps what the first one set (the register) and takes the new kind.
  EXPECT_FALSE(second.fail(FaultKind::OutOfRange, "again"));
  EXPECT_EQ(second.fault().reg, 65);
  EXPECT_EQ(second.fault().kind, FaultKind::OutOfRange);
  EXPECT_EQ(second.fault().detail, "again");
}

TEST(ExecTxn, DiagnosticCountsBelongToTheStepThatCountedThem) {
  Bench b;
  {
    exec::Txn t(b.core, b.engine, b.log, b.options, 0);
    t.diag(DiagKind::UnalignedAccess, 0x10, 4);
    t.count_diags(DiagKind::UnwrittenScalar, 5);
  }
  EXPECT_TRUE(b.log.any_diag);
  EXPECT_EQ(b.log.diag_counts[static_cast<size_t>(DiagKind::UnalignedAccess)], 1U);
  EXPECT_EQ(b.log.diag_counts[static_cast<size_t>(DiagKind::UnwrittenScalar)], 5U);
  b.log.clear();
  EXPECT_FALSE(b.log.any_diag);
  for (uint64_t n : b.log.diag_counts) EXPECT_EQ(n, 0U);
  {
    exec::Txn t(b.core, b.engine, b.log, b.options, 1);  // a step that counts nothing
    EXPECT_TRUE(t.commit());
  }
  EXPECT_FALSE(b.log.any_diag);
  for (uint64_t n : b.log.diag_counts) EXPECT_EQ(n, 0U);
  {
    exec::Txn t(b.core, b.engine, b.log, b.options, 2);
    t.count_diags(DiagKind::ScalarClassMismatch, 2);
  }
  EXPECT_TRUE(b.log.any_diag);
  EXPECT_EQ(b.log.diag_counts[static_cast<size_t>(DiagKind::ScalarClassMismatch)], 2U);
}

TEST(ExecTxn, RegisterWritesUpToTheCapacityCommitInOrder) {
  Bench b;
  exec::Txn t(b.core, b.engine, b.log, b.options, 0);
  // 64 writes (the most one modeled instruction stages), then r5 again: the last write wins.
  for (unsigned k = 0; k < 64; ++k) t.stage_reg(k, 1000 + k);
  t.stage_reg(5, 77);
  EXPECT_EQ(b.log.regs.size(), 65U);
  EXPECT_FALSE(b.log.regs.overflowed);
  ASSERT_TRUE(t.commit());
  EXPECT_EQ(b.engine.regs[0], 1000U);
  EXPECT_EQ(b.engine.regs[63], 1063U);
  EXPECT_EQ(b.engine.regs[5], 77U);
  EXPECT_EQ(b.log.regs[65 - 1].before, 1005U);  // the before-value is the one the earlier write left
}

TEST(ExecTxn, RegisterWritesPastTheCapacityAreRefusedWholly) {
  Bench b;
  b.engine.regs[3] = 9;
  exec::Txn t(b.core, b.engine, b.log, b.options, 4);
  for (size_t k = 0; k < RegWriteList::kCapacity; ++k) t.stage_reg(3, 100);
  EXPECT_FALSE(b.log.regs.overflowed);
  t.stage_reg(3, 200);  // one past the capacity
  EXPECT_TRUE(b.log.regs.overflowed);
  EXPECT_FALSE(t.commit());
  EXPECT_EQ(t.fault().kind, FaultKind::ResourceLimit);
  EXPECT_EQ(b.engine.regs[3], 9U);  // nothing applied
  EXPECT_TRUE(b.log.regs.empty());
  EXPECT_FALSE(b.log.regs.overflowed);  // cleared with the log
}

}  // namespace
}  // namespace tpbisa
