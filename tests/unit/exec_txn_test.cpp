// The execution transaction's bookkeeping across steps that share one effect log: a fault belongs to the step that
// set it, and diagnostic counts to the step that counted them.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "isa/exec.hpp"
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

// ---- in-place runs (the untraced block path) ----

TEST(ExecRowsInPlace, DisjointOrTheVeryRowIsAccepted) {
  const uint64_t src[] = {0x0000, 0x1000, 0x2000};
  const uint64_t same[] = {0x0000, 0x1000, 0x2000};
  const uint64_t after[] = {0x0400, 0x1400, 0x2400};  // past each source row, in its partition
  const uint64_t back[] = {0x0C00, 0x1C00, 0x2C00};   // elsewhere in each partition: any element sizes
  EXPECT_TRUE(exec::rows_in_place_ok(src, 0x100, same, 0x100, 3, true));
  EXPECT_TRUE(exec::rows_in_place_ok(src, 0x100, after, 0x100, 3, true));
  EXPECT_TRUE(exec::rows_in_place_ok(src, 0x100, back, 0x100, 3, false));
  EXPECT_TRUE(exec::rows_in_place_ok(src, 0x100, src, 0x100, 0, true));  // no channel
}

TEST(ExecRowsApart, RowsOfOtherChannelsMayNotOverlapInAnyOrder) {
  const uint64_t src[] = {0x0000, 0x1000, 0x2000};
  const uint64_t back[] = {0x0C00, 0x1C00, 0x2C00};
  EXPECT_TRUE(exec::rows_apart_ok(src, 0x100, back, 0x100, 3, false));  // apart
  EXPECT_TRUE(exec::rows_apart_ok(src, 0x100, src, 0x100, 3, true));    // each the very row, one element size
  EXPECT_FALSE(exec::rows_apart_ok(src, 0x100, src, 0x100, 3, false));  // the very rows with another size
  // Dst row c in the partition of src row c - 1: rows_in_place_ok accepts it (read before the write), but on several
  // threads row c - 1 may be read after row c is written.
  const uint64_t src_hi[] = {0x1000, 0x2000, 0x3000};
  EXPECT_TRUE(exec::rows_in_place_ok(src_hi, 0x100, src, 0x100, 3, true));
  EXPECT_FALSE(exec::rows_apart_ok(src_hi, 0x100, src, 0x100, 3, true));
  // Dst row c in the partition of src row c + 1: refused by both.
  EXPECT_FALSE(exec::rows_apart_ok(src, 0x100, src_hi, 0x100, 3, true));
  const uint64_t unordered[] = {0xF000, 0x0000, 0x1000};
  EXPECT_FALSE(exec::rows_apart_ok(src, 0x100, unordered, 0x100, 3, true));
}

TEST(ExecRowsInPlace, ARowReadLaterOrAPartialOverlapIsRefused) {
  const uint64_t src[] = {0x0000, 0x1000, 0x2000};
  // The same rows with elements of another size: element k's write reaches element k + 1's source bytes.
  EXPECT_FALSE(exec::rows_in_place_ok(src, 0x100, src, 0x100, 3, false));
  EXPECT_FALSE(exec::rows_in_place_ok(src, 0x100, src, 0x80, 3, true));
  // Dst row c shifted into its own source row.
  const uint64_t shifted[] = {0x0010, 0x1010, 0x2010};
  EXPECT_FALSE(exec::rows_in_place_ok(src, 0x100, shifted, 0x100, 3, true));
  // Dst row c in the partition of src row c + 1 (read after row c is written).
  const uint64_t next[] = {0x1000, 0x2000, 0x3000};
  EXPECT_FALSE(exec::rows_in_place_ok(src, 0x100, next, 0x100, 3, true));
  // Dst row c in the partition of src row c - 1 (read before row c is written): accepted.
  const uint64_t src_hi[] = {0x1000, 0x2000, 0x3000};
  EXPECT_TRUE(exec::rows_in_place_ok(src_hi, 0x100, src, 0x100, 3, true));
  // Lists that are not ascending and disjoint.
  const uint64_t overlapping[] = {0x0000, 0x0080, 0x2000};
  const uint64_t unordered[] = {0xF000, 0x0000, 0x1000};
  EXPECT_FALSE(exec::rows_in_place_ok(src, 0x100, unordered, 0x100, 3, true));
  EXPECT_FALSE(exec::rows_in_place_ok(overlapping, 0x100, shifted, 0x100, 3, true));
  EXPECT_FALSE(exec::rows_in_place_ok(src, 0x100, overlapping, 0x100, 3, true));
}

TEST(ExecRowsInPlace, ARunIsWrittenInPlaceInPagesThatExistOrAreMadeWithinTheBound) {
  Bench b;
  const uint8_t zeros[16] = {};
  ASSERT_TRUE(b.core.memory.write_block(0x2000, 16, zeros));  // page 2 exists, page 3 does not
  exec::Txn txn(b.core, b.engine, b.log, b.options, 0);
  ASSERT_TRUE(txn.may_write_in_place());
  EXPECT_EQ(txn.write_run_in_place(0x3100, 4, 4), nullptr);  // page 3 does not exist
  EXPECT_EQ(txn.write_run_in_place(0x2FFE, 4, 2), nullptr);  // crosses into it
  const uint64_t rows[] = {0x2100};
  EXPECT_TRUE(txn.may_write_runs_in_place(rows, 1, 0x100));
  EXPECT_EQ(b.core.memory.allocated_bytes(), SparseMemory::kPageBytes);
  const uint64_t far[] = {0x3100};
  EXPECT_TRUE(txn.may_write_runs_in_place(far, 1, 0x100));  // page 3 made now, the page commit would make
  EXPECT_EQ(b.core.memory.allocated_bytes(), 2 * SparseMemory::kPageBytes);
  EXPECT_FALSE(b.core.memory.initialized(0x3100, 1));  // made, nothing written
  EXPECT_EQ(b.core.memory.read(0x3100, 8), 0U);
  uint8_t* p = txn.write_run_in_place(0x2100, 8, 4);
  ASSERT_NE(p, nullptr);
  for (uint8_t k = 0; k < 8; ++k) p[k] = static_cast<uint8_t>(0xA0 + k);
  bool written = false;
  EXPECT_EQ(b.core.memory.read(0x2100, 8, &written), 0xA7A6A5A4A3A2A1A0ULL);
  EXPECT_TRUE(written);
  EXPECT_FALSE(b.core.memory.initialized(0x2108, 1));      // only the run is marked
  uint8_t* across = txn.write_run_in_place(0x2FFE, 4, 2);  // both pages exist: one dense block, in place
  ASSERT_NE(across, nullptr);
  std::memset(across, 0x5C, 4);
  EXPECT_EQ(b.core.memory.read(0x2FFE, 4, &written), 0x5C5C5C5CULL);
  EXPECT_TRUE(written);
  EXPECT_EQ(b.log.block_elems, 4U);   // counted as staged elements are
  EXPECT_TRUE(b.log.blocks.empty());  // nothing left for commit
  EXPECT_TRUE(txn.commit());
  b.options.record_effects = true;
  b.log.record = true;
  exec::Txn traced(b.core, b.engine, b.log, b.options, 1);
  EXPECT_FALSE(traced.may_write_in_place());  // a trace shows each element: never in place
}

// Pages beyond the memory bound are not made: all of a step's runs are made, or none, so a step refused here is staged
// and its commit fails as before, with nothing allocated.
TEST(ExecRowsInPlace, RunsWhosePagesPassTheBoundMakeNoPage) {
  Bench b;
  b.core.memory = SparseMemory(2 * SparseMemory::kPageBytes);
  const uint8_t zeros[16] = {};
  ASSERT_TRUE(b.core.memory.write_block(0x2000, 16, zeros));
  exec::Txn txn(b.core, b.engine, b.log, b.options, 0);
  const uint64_t two[] = {0x3100, 0x5100};  // pages 3 and 5: one more than the bound leaves room for
  EXPECT_FALSE(txn.may_write_runs_in_place(two, 2, 0x100));
  EXPECT_EQ(b.core.memory.allocated_bytes(), SparseMemory::kPageBytes);
  const uint64_t wraps[] = {~uint64_t{0} - 0x10};
  EXPECT_FALSE(txn.may_write_runs_in_place(wraps, 1, 0x100));
  const uint64_t one[] = {0x3100};
  EXPECT_TRUE(txn.may_write_runs_in_place(one, 1, 0x100));
  EXPECT_EQ(b.core.memory.allocated_bytes(), 2 * SparseMemory::kPageBytes);
}

}  // namespace
}  // namespace tpbisa
