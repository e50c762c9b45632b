// The DMA family: its words decoded, judged and assembled back on every generation that has them, and DMAMEMCPY
// (copy, cast, reduce on copy), DMA_INDIRECT (gather, scatter-add) and DMA_TRANSPOSE executed against values worked
// by hand or by a plain index model written here (never by the library); the on-chip bytes each word declares (its
// footprint) worked by hand from the same walks, and every access of a run lying inside them.
#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "../../support/predicate_cases.hpp"
#include "families/family.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/families/dma/format.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::test::dma_family {
namespace {

constexpr Generation kC = Generation::Cayman;
constexpr uint64_t kP = 0x40000;  // SBUF partition stride on CAYMAN (memory-and-numerics.md §2)
constexpr uint8_t kFp32 = 0x0A, kBf16 = 0x06;

uint32_t f32(float v) {
  return std::bit_cast<uint32_t>(v);
}

/// DMAMEMCPY: `n` chunks of `esz` bytes from src (stepping `sstep`) to dst (stepping `dstep`).
DmaDirect2d memcpy_word(uint64_t src, int32_t sstep, uint64_t dst, int32_t dstep, uint16_t n, uint16_t esz,
                        uint8_t in = kFp32, uint8_t out = kFp32) {
  DmaDirect2d d;
  d.header.opcode = 0xB8;
  d.header.inst_word_len = 16;
  d.semaphore = 5;
  d.sem_increment = 3;
  d.src_start_addr.raw = src;
  d.src_step_elem = {sstep, 0};
  d.src_num_elem = {n, 1};
  d.src_elem_size = esz;
  d.dst_start_addr.raw = dst;
  d.dst_step_elem = {dstep, 0};
  d.dst_num_elem = {n, 1};
  d.dst_elem_size = esz;
  d.in_dtype = in;
  d.out_dtype = out;
  return d;
}

struct OneRun {
  Machine m;
  explicit OneRun(const Word& w, Generation g = kC) : m(g, std::vector<Word>{w}, MachineOptions{}) {}
  void put(uint64_t address, unsigned size, const std::vector<uint64_t>& values) {
    for (size_t k = 0; k < values.size(); ++k) m.mutable_state().memory.write(address + size * k, size, values[k]);
  }
  uint64_t at(uint64_t address, unsigned size = 4) const { return m.state().memory.read(address, size); }
};

TEST(DmaFamily, BaselinesDecodeJudgeAndRoundTrip) {
  for (const auto& [hex, gens] : std::vector<std::pair<std::string, GenSet>>{
           {"b8100000000000000000000000050100000100000000000000000400000000000400010010000000000200000000000010000000"
            "000000000400010010000a0a",
            kGensAll},
           {"bb100000000000000000000006018000001000000000000010000000080010000020000000000000100000000800100000300000"
            "000000000a0a000000000000",
            kGensAll},
           {"bd100000000000000000000000000606001000000000000002000000000004000400100000000400002000000000000000000400"
            "200000000400010010040700",
            GenSet{0xE}},
           {"f1100000000000000000000008008000001000000000000002000000000100008000100000300000004000000000000000000000"
            "000004001000800000016601",
            GenSet{0xE}},
           {"c11000000000000000000000715f6772616469656e745f696e", kGensAll},
           {"c8100000040a131600000000040a00000300000004000000200000000000000001", kGensAll}})
    for (Generation g : kAllGenerations) {
      if (!gens.has(g)) continue;
      SCOPED_TRACE(hex.substr(0, 2) + " on " + std::string(to_string(g)));
      const Word w = hex_word(hex);
      const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(w), g);
      EXPECT_EQ(inst.as<RawWord>(), nullptr);  // decoded to its layout
      const Verdict v = validate(inst, g);
      EXPECT_TRUE(v.valid);
      const std::string text = disassemble(inst, g);
      const AsmResult back = assemble(text, "round-trip", g);
      ASSERT_TRUE(back.ok()) << text;
      ASSERT_EQ(back.words.size(), 1U);
      EXPECT_EQ(back.words[0], w) << text;
    }
}

TEST(DmaFamily, TriggerNamesItsQueueAndRoundTripsOddNames) {
  const Word w = hex_word("c11000000000000000000000715f6772616469656e745f696e");
  const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(w), kC);
  const std::string text = disassemble(inst, kC);
  EXPECT_NE(text.find("dma_queue_name=q_gradient_in"), std::string::npos) << text;
  std::string meaning;
  for (const DescribedField& f : describe_fields(inst))
    if (f.name == "dma_queue_name[0]") meaning = f.meaning;
  EXPECT_NE(meaning.find("`q_gradient_in`"), std::string::npos) << meaning;
  // A name with a byte after its NUL is written as its 32 bytes and comes back exact.
  Word odd = w;
  odd[40] = 0x7F;
  const std::string odd_text = disassemble(decode(std::span<const uint8_t, kWordBytes>(odd), kC), kC);
  const AsmResult back = assemble(odd_text, "odd", kC);
  ASSERT_TRUE(back.ok()) << odd_text;
  EXPECT_EQ(back.words[0], odd) << odd_text;
}

TEST(DmaFamily, MemcpyGathersChunksFromFourPartitions) {
  // Partitions 0..3 hold {k, k + 0.5, -k, 100 + k} at +0x100; one 64-byte run at p0 +0x200 receives them in order.
  const DmaDirect2d d = memcpy_word(0x100, static_cast<int32_t>(kP), 0x200, 16, 4, 16);
  OneRun r(encode(d));
  for (uint64_t p = 0; p < 4; ++p) {
    const float k = static_cast<float>(p);
    r.put(p * kP + 0x100, 4, {f32(k), f32(k + 0.5F), f32(-k), f32(100 + k)});
  }
  const RunSummary s = r.m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  const float expect[16] = {0, 0.5F, -0.0F, 100, 1, 1.5F, -1, 101, 2, 2.5F, -2, 102, 3, 3.5F, -3, 103};
  for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(r.at(0x200 + 4 * i), f32(expect[i])) << i;
  EXPECT_EQ(r.m.state().sems[5], 3U);  // completion: += sem_increment
}

TEST(DmaFamily, MemcpyCastsThroughFp32) {
  // 4 FP32 -> 4 BF16 (the high halves of exact values: 1.0 0x3F80, 1.5 0x3FC0, -2.0 0xC000, 3.0 0x4040).
  DmaDirect2d d = memcpy_word(0x100, 16, 0x200, 8, 1, 16, kFp32, kBf16);
  d.dst_elem_size = 8;
  OneRun r(encode(d));
  r.put(0x100, 4, {f32(1.0F), f32(1.5F), f32(-2.0F), f32(3.0F)});
  ASSERT_FALSE(r.m.run(10).faulted);
  EXPECT_EQ(r.at(0x200, 2), 0x3F80U);
  EXPECT_EQ(r.at(0x202, 2), 0x3FC0U);
  EXPECT_EQ(r.at(0x204, 2), 0xC000U);
  EXPECT_EQ(r.at(0x206, 2), 0x4040U);
}

TEST(DmaFamily, MemcpyReducesIntoTheDestination) {
  struct Case {
    uint8_t op;
    float expect[4];
  };
  // dst {10, -1, 2, 0.5} op src {1, 2, 3, 4}.
  for (const Case& c :
       {Case{1, {11, 1, 5, 4.5F}}, Case{2, {10, -2, 6, 2}}, Case{3, {10, 2, 3, 4}}, Case{4, {1, -1, 2, 0.5F}}}) {
    SCOPED_TRACE(static_cast<int>(c.op));
    DmaDirect2d d = memcpy_word(0x100, 16, 0x200, 16, 1, 16);
    d.compute_op = c.op;
    OneRun r(encode(d));
    r.put(0x100, 4, {f32(1), f32(2), f32(3), f32(4)});
    r.put(0x200, 4, {f32(10), f32(-1), f32(2), f32(0.5F)});
    const RunSummary s = r.m.run(10);
    ASSERT_FALSE(s.faulted) << s.fault.detail;
    for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(r.at(0x200 + 4 * i), f32(c.expect[i])) << i;
  }
}

TEST(DmaFamily, MemcpyFaultsBeyondAPartitionAndChangesNothing) {
  // 16 bytes at the last active bytes of p0 on CAYMAN (0x38000) leave the partition.
  const DmaDirect2d d = memcpy_word(0x100, 16, 0x37FF8, 16, 1, 16);
  OneRun r(encode(d));
  r.put(0x100, 4, {f32(1), f32(2), f32(3), f32(4)});
  const RunSummary s = r.m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::OutOfRange);
  EXPECT_EQ(r.m.state().sems[5], 0U);
}

DmaIndirect1d indirect_word(uint8_t flags, uint16_t n) {
  DmaIndirect1d d;
  d.header.opcode = 0xBB;
  d.header.inst_word_len = 16;
  d.semaphore = 6;
  d.sem_increment = 1;
  d.idx_num_active_channels = 128;
  d.flags = flags;
  d.src_start_addr.raw = 0x1000;
  d.src_step_elem = 8;
  d.src_num_elem = n;
  d.src_elem_size = 8;
  d.dst_start_addr.raw = 0x2000;
  d.dst_step_elem = 8;
  d.dst_num_elem = n;
  d.dst_elem_size = 8;
  d.src_idx_start_addr.raw = 0x3000;
  d.dst_idx_start_addr.raw = 0x3100;
  d.in_dtype = d.out_dtype = kFp32;
  return d;
}

TEST(DmaFamily, IndirectGathersRowsByIndex) {
  // Table rows of two FP32 {10 r, 10 r + 1}, r = 0..7; indices {5, 0, 3, 3} pick rows 5, 0, 3, 3.
  const DmaIndirect1d d = indirect_word(0x00, 4);
  OneRun r(encode(d));
  for (uint64_t row = 0; row < 8; ++row)
    r.put(0x1000 + 8 * row, 4, {f32(10.0F * static_cast<float>(row)), f32(10.0F * static_cast<float>(row) + 1)});
  r.put(0x3000, 4, {5, 0, 3, 3});
  ASSERT_TRUE(validate(decode(std::span<const uint8_t, kWordBytes>(encode(d)), kC), kC).valid);
  const RunSummary s = r.m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  const float expect[8] = {50, 51, 0, 1, 30, 31, 30, 31};
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(r.at(0x2000 + 4 * i), f32(expect[i])) << i;
  EXPECT_EQ(r.m.state().sems[6], 1U);
}

TEST(DmaFamily, IndirectScatterAddAccumulatesDuplicates) {
  // Source rows {1, 2}, {3, 4}, {5, 6}, {7, 8} added at destination rows {2, 0, 2, 2} (non_unique_dst_idx): row 2
  // receives three rows in walk order, row 0 one; rows 1 and 3 keep their values.
  DmaIndirect1d d = indirect_word(0x09, 4);  // DST_INDIRECTION + non_unique_dst_idx
  d.compute_op = 1;
  OneRun r(encode(d));
  r.put(0x1000, 4, {f32(1), f32(2), f32(3), f32(4), f32(5), f32(6), f32(7), f32(8)});
  r.put(0x2000, 4, {f32(100), f32(100), f32(-1), f32(-1), f32(1000), f32(2000), f32(9), f32(9)});
  r.put(0x3100, 4, {2, 0, 2, 2});
  ASSERT_TRUE(validate(decode(std::span<const uint8_t, kWordBytes>(encode(d)), kC), kC).valid);
  const RunSummary s = r.m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  const float expect[8] = {103, 104, -1, -1, 1013, 2016, 9, 9};
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(r.at(0x2000 + 4 * i), f32(expect[i])) << i;
}

/// DMA_TRANSPOSE of `rows` source rows (partitions, +0x1000) of 4 BF16 columns into 4 destination partitions
/// (+0x2000), `tiles` destination tiles 32 bytes apart.
DmaDirect2dXpose transpose_word(uint16_t rows, uint16_t tiles) {
  DmaDirect2dXpose d;
  d.header.opcode = 0xBD;
  d.header.inst_word_len = 16;
  d.in_dtype = d.out_dtype = kBf16;
  d.src_start_addr.raw = 0x1000;
  d.src_step_elem = {2, static_cast<int32_t>(kP)};
  d.src_num_elem = {4, rows};
  d.tile_src_row_step = static_cast<int32_t>(kP);
  d.dst_start_addr.raw = 0x2000;
  d.dst_step_elem = {static_cast<int32_t>(kP), 32};
  d.dst_num_elem = {4, tiles};
  d.tile_src_rows = 16;
  d.tile_src_cols = 4;
  d.semaphore = 7;
  return d;
}

TEST(DmaFamily, TransposeMatchesTheIndexModel) {
  // 32 source rows (partitions 0..31) of 4 BF16 columns; two tiles of 16 rows into 4 destination partitions, each
  // tile's 16 elements contiguous, the second tile 32 bytes after the first (PROJ-CONV-DM8).
  const DmaDirect2dXpose d = transpose_word(32, 2);
  const Word w = encode(d);
  ASSERT_TRUE(validate(decode(std::span<const uint8_t, kWordBytes>(w), kC), kC).valid);
  OneRun r(w);
  for (uint64_t row = 0; row < 32; ++row)
    for (uint64_t c = 0; c < 4; ++c) r.put(row * kP + 0x1000 + 2 * c, 2, {0x100 * row + c});  // distinct patterns
  const RunSummary s = r.m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  // Model: D row c (partition c), position t*16 + i (t the tile) holds S[16 t + i][c].
  for (uint64_t c = 0; c < 4; ++c)
    for (uint64_t row = 0; row < 32; ++row)
      EXPECT_EQ(r.at(c * kP + 0x2000 + (row / 16) * 32 + (row % 16) * 2, 2), 0x100 * row + c) << c << "," << row;
  EXPECT_EQ(r.m.state().sems[7], 1U);
}

TEST(DmaFamily, TransposeRefusesAShapeItCannotHold) {
  const DmaDirect2dXpose d = transpose_word(16, 2);  // one tile only: {4, 1}
  OneRun r(encode(d));
  const RunSummary s = r.m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::OutOfRange);
  EXPECT_NE(s.fault.detail.find("PROJ-CONV-DM8"), std::string::npos) << s.fault.detail;
}

// ---- The footprint hook: the on-chip bytes each word places, and every access of a run inside them ----

struct Expect {
  std::string_view operand;
  uint32_t first_partition, partitions;
  int64_t first, last;
  bool write;
};

void expect_footprint(const Word& w, std::initializer_list<Expect> want) {
  const family::Footprint f = family::footprint(decode(std::span<const uint8_t, kWordBytes>(w), kC), kC);
  ASSERT_EQ(f.count, want.size());
  size_t k = 0;
  for (const Expect& e : want) {
    SCOPED_TRACE(e.operand);
    const family::OnChipOperand& o = f.operands[k++];
    EXPECT_EQ(o.operand, e.operand);
    EXPECT_EQ(o.region, Region::Sbuf);
    EXPECT_EQ(o.first_partition, e.first_partition);
    EXPECT_EQ(o.partitions, e.partitions);
    EXPECT_EQ(o.first, e.first);
    EXPECT_EQ(o.last, e.last);
    EXPECT_EQ(o.write, e.write);
  }
}

TEST(DmaFootprint, MemcpyListsTheHullOfEachSide) {
  // Four 16-byte chunks, one per partition 0..3 at +0x100, into one 64-byte run at p0 +0x200.
  expect_footprint(encode(memcpy_word(0x100, static_cast<int32_t>(kP), 0x200, 16, 4, 16)),
                   {{"src", 0, 4, 0x100, 0x10F, false}, {"dst", 0, 1, 0x200, 0x23F, true}});
  // A side in flat memory (above SBUF and PSUM) is not on chip: only the other side is listed.
  expect_footprint(encode(memcpy_word(0x4000000000, 16, 0x200, 16, 4, 16)), {{"dst", 0, 1, 0x200, 0x23F, true}});
}

TEST(DmaFootprint, IndirectListsItsIndicesForTheIndirectSide) {
  // Gather (SRC_INDIRECTION): the table rows are chosen at run time, so the 4 indices (16 bytes at 0x3000) stand for
  // the source; the destination is 4 rows of 8 bytes from 0x2000.
  expect_footprint(encode(indirect_word(0x00, 4)),
                   {{"src_idx", 0, 1, 0x3000, 0x300F, false}, {"dst", 0, 1, 0x2000, 0x201F, true}});
  // Scatter (DST_INDIRECTION): the source rows and the destination indices at 0x3100.
  expect_footprint(encode(indirect_word(0x01, 4)),
                   {{"src", 0, 1, 0x1000, 0x101F, false}, {"dst_idx", 0, 1, 0x3100, 0x310F, false}});
}

TEST(DmaFootprint, TransposeListsSourceRowsAndDestinationTiles) {
  // Source: partitions 0..31, 4 BF16 at +0x1000 (bytes 0x1000..0x1007). Destination: partitions 0..3, two tiles of 16
  // BF16 32 bytes apart from +0x2000 (bytes 0x2000..0x203F).
  expect_footprint(encode(transpose_word(32, 2)),
                   {{"src", 0, 32, 0x1000, 0x1007, false}, {"dst", 0, 4, 0x2000, 0x203F, true}});
}

bool in_footprint(const family::Footprint& f, uint64_t address, unsigned size, bool write) {
  const PartitionAddress a = decode_partition_offset(static_cast<uint32_t>(address), kC);
  for (const family::OnChipOperand& o : f.all()) {
    if (write && !o.write) continue;
    if (a.region == o.region && a.partition >= o.first_partition && a.partition < o.first_partition + o.partitions &&
        int64_t{a.offset} >= o.first && int64_t{a.offset} + size - 1 <= o.last)
      return true;
  }
  return false;
}

/// Runs one word with every effect recorded; every access outside `[skip_lo, skip_hi)` (a side the word places at
/// run time, through its indices) lies in its footprint.
void accesses_lie_in_the_footprint(const Word& w, uint64_t skip_lo = 0, uint64_t skip_hi = 0) {
  MachineOptions mo;
  mo.record_effects = true;
  mo.max_recorded_effects = SIZE_MAX;
  Machine m(kC, std::vector<Word>{w}, mo);
  for (uint64_t k = 0; k < 4; ++k) m.mutable_state().memory.write(0x3000 + 4 * k, 4, k);  // indices 0..3
  const StepResult r = m.step();
  ASSERT_EQ(r.status, StepResult::Status::Retired) << r.fault.detail;
  const family::Footprint f = family::footprint(decode(std::span<const uint8_t, kWordBytes>(w), kC), kC);
  ASSERT_GT(f.count, 0U);
  ASSERT_FALSE(r.mem_reads.empty() || r.mem_writes.empty());
  const auto placed = [&](uint64_t address) { return address < skip_lo || address >= skip_hi; };
  for (const MemWrite& x : r.mem_writes) {
    if (placed(x.address)) {
      EXPECT_TRUE(in_footprint(f, x.address, x.size, true)) << std::hex << x.address;
    }
  }
  for (const MemRead& x : r.mem_reads) {
    if (placed(x.address)) {
      EXPECT_TRUE(in_footprint(f, x.address, x.size, false)) << std::hex << x.address;
    }
  }
}

TEST(DmaFootprint, AccessesOfARunLieInTheFootprint) {
  accesses_lie_in_the_footprint(encode(memcpy_word(0x100, static_cast<int32_t>(kP), 0x200, 16, 4, 16)));
  DmaDirect2d reduce = memcpy_word(0x100, 16, 0x200, 16, 2, 16);  // ADD into the destination: it is read too
  reduce.compute_op = 1;
  accesses_lie_in_the_footprint(encode(reduce));
  accesses_lie_in_the_footprint(encode(transpose_word(32, 2)));
  accesses_lie_in_the_footprint(encode(indirect_word(0x00, 4)), 0x1000, 0x1040);  // the gathered table rows
  accesses_lie_in_the_footprint(encode(indirect_word(0x01, 4)), 0x2000, 0x2040);  // the scattered rows
}

}  // namespace
}  // namespace tpbisa::test::dma_family
