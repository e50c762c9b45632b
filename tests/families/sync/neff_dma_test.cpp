// PseudoDmaDirect2d in NEFF mode (real-programs.md §7.3, PROJ-CONV-F9): 64-bit address arithmetic past 2^32 on
// a mapped (sparse) variable, conversion, completion, and faults that change nothing.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "../../support/real_words.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/io/npy_file.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa {
namespace {

using test::kC;
using test::kStride;  // SBUF partition stride, restated (memory-and-numerics.md §2)

/// A DMA word: `src` → `dst` (PSEUDO_ADDR8 mode 0x10), 2-D walks, completion on semaphore 9 (+16).
PseudoDmaDirect2d dma(uint32_t src_var, uint32_t src_off, std::array<int32_t, 2> src_step,
                      std::array<uint16_t, 2> src_num, uint16_t src_esz, uint32_t dst_var, uint32_t dst_off,
                      std::array<int32_t, 2> dst_step, std::array<uint16_t, 2> dst_num, uint16_t dst_esz,
                      uint8_t src_dtype, uint8_t dst_dtype) {
  PseudoDmaDirect2d d{};
  d.header = {0xd4, 0x10, 0, 0};
  d.semaphore = 9;
  d.sem_increment = 16;
  d.src = {src_off, static_cast<uint16_t>(src_var), 0, 0x10};
  d.src_step = src_step;
  d.src_num = src_num;
  d.src_elem_size = src_esz;
  d.dst = {dst_off, static_cast<uint16_t>(dst_var), 0, 0x10};
  d.dst_step = dst_step;
  d.dst_num = dst_num;
  d.dst_elem_size = dst_esz;
  d.src_dtype = src_dtype;
  d.dst_dtype = dst_dtype;
  return d;
}

struct Rig {
  DramView view;
  std::vector<uint8_t> out;
  std::unique_ptr<Machine> m;

  Rig(std::vector<Word> sp, const uint8_t* input, uint64_t input_size, bool record = false) : out(4096, 0) {
    view.vars.resize(3);
    view.vars[0] = {true, true, nullptr, nullptr, 0, "SB"};
    view.vars[1] = {true, false, input, nullptr, input_size, "big"};
    view.vars[2] = {true, false, out.data(), out.data(), out.size(), "out"};
    CoreProgram p;
    p.stream(EngineId::Sp) = std::move(sp);
    MachineOptions mo;
    mo.neff_mode = true;
    mo.record_effects = record;
    std::vector<CoreProgram> cores;
    cores.push_back(std::move(p));
    m = std::make_unique<Machine>(kC, std::move(cores), mo);
    m->core(0).state().dram = &view;
  }
};

TEST(NeffDma, AddressesPast4GiBOnAMappedSparseVariable) {
  const std::string path = (std::filesystem::temp_directory_path() / "tpbisa_neff_dma_big.bin").string();
  const uint64_t size = (uint64_t{1} << 32) + 8192;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, static_cast<off_t>(size)), 0);  // sparse: no data blocks but the ones written
  const uint8_t marker[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  ASSERT_EQ(::pwrite(fd, marker, 8, static_cast<off_t>((uint64_t{1} << 32) + 64)), 8);
  ::close(fd);
  std::string error;
  auto mapped = io::MappedFile::open(path, error);
  ASSERT_NE(mapped, nullptr) << error;
  // Chunk (j0 = 0, j1 = 4) of 64 bytes at 4 * 2^30 + 64 = 2^32 + 64: a wrap at 32 bits would read byte 64.
  const PseudoDmaDirect2d d =
      dma(1, 64, {0, 0x40000000}, {1, 5}, 8, 2, 0, {8, 0}, {5, 1}, 8, dtype::kUint8, dtype::kUint8);
  Rig rig({encode(d)}, mapped->bytes().data(), mapped->bytes().size());
  const RunSummary s = rig.m->run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(rig.out[32 + i], marker[i]) << i;  // the fifth chunk
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(rig.out[i], 0) << i;              // chunks 0..3: sparse zeros
  EXPECT_EQ(rig.m->core(0).state().sems[9], 16U);
  EXPECT_EQ(rig.view.dma_bytes, 40U);
  mapped.reset();
  std::filesystem::remove(path);
}

TEST(NeffDma, ConvertsFp32ToFp16IntoSbufAndCompletes) {
  std::vector<uint8_t> src(4 * 8);
  const float values[8] = {1.0F, -2.0F, 0.5F, 65504.0F, 1e6F, -0.0F, 3.0F, 1.0F / 3.0F};
  for (unsigned i = 0; i < 8; ++i) {
    const uint32_t b = std::bit_cast<uint32_t>(values[i]);
    for (unsigned k = 0; k < 4; ++k) src[4 * i + k] = static_cast<uint8_t>(b >> (8 * k));
  }
  // 8 FP32 → 8 FP16 in SBUF partitions 2 and 3 (4 elements each), PartitionOffset addressing of var 0.
  const PseudoDmaDirect2d d = dma(1, 0, {16, 0}, {2, 1}, 16, 0, static_cast<uint32_t>(2 * kStride + 0x100),
                                  {static_cast<int32_t>(kStride), 0}, {2, 1}, 8, dtype::kFp32, dtype::kFp16);
  Rig rig({encode(d)}, src.data(), src.size());
  const RunSummary s = rig.m->run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  for (unsigned i = 0; i < 8; ++i) {
    const uint64_t a = (2 + i / 4) * kStride + 0x100 + 2 * (i % 4);
    EXPECT_EQ(rig.m->core(0).state().memory.read(a, 2),
              from_fp32_bits(std::bit_cast<uint32_t>(values[i]), dtype::kFp16))
        << i;
  }
  EXPECT_EQ(rig.m->core(0).state().sems[9], 16U);
}

TEST(NeffDma, ChunkPastTheVariableFaultsAndChangesNothing) {
  std::vector<uint8_t> src(64, 7);
  // Two chunks of 32 bytes into `out` at 4064: the second ends past its 4096 bytes.
  const PseudoDmaDirect2d d =
      dma(1, 0, {32, 0}, {2, 1}, 32, 2, 4064, {32, 0}, {2, 1}, 32, dtype::kUint8, dtype::kUint8);
  Rig rig({encode(d)}, src.data(), src.size());
  const RunSummary s = rig.m->run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::OutOfRange);
  EXPECT_NE(s.fault.detail.find("leaves variable out"), std::string::npos) << s.fault.detail;
  for (uint8_t b : rig.out) ASSERT_EQ(b, 0);  // the first, valid chunk was not written either
  EXPECT_EQ(rig.m->core(0).state().sems[9], 0U);
  EXPECT_EQ(rig.m->core(0).engine(EngineId::Sp).pc(), 0U);
}

TEST(NeffDma, WritingAnInputFaults) {
  std::vector<uint8_t> src(64, 7);
  const PseudoDmaDirect2d d = dma(2, 0, {8, 0}, {1, 1}, 8, 1, 0, {8, 0}, {1, 1}, 8, dtype::kUint8, dtype::kUint8);
  Rig rig({encode(d)}, src.data(), src.size());
  const RunSummary s = rig.m->run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_NE(s.fault.detail.find("read-only"), std::string::npos) << s.fault.detail;
  EXPECT_EQ(src[0], 7);
}

TEST(NeffDma, ATransferBeyondMaxElementsFaultsBeforeWalkingIt) {
  // 4096 x 4096 chunks of 64 bytes, step 0 (issue 36, D06): 1 GiB moved, 16 Mi chunks walked, once 3.35 GB held.
  std::vector<uint8_t> src(64, 7);
  const PseudoDmaDirect2d d =
      dma(1, 0, {0, 0}, {4096, 4096}, 64, 2, 0, {0, 0}, {4096, 4096}, 64, dtype::kUint8, dtype::kUint8);
  Rig rig({encode(d)}, src.data(), src.size());
  const auto start = std::chrono::steady_clock::now();
  const RunSummary s = rig.m->run(10);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::ResourceLimit);
  EXPECT_EQ(s.fault.detail,
            "the DMA moves 1073741824 elements in 16777216 source and 16777216 destination chunks, more than the "
            "4194304 element accesses one instruction may make");
  for (uint8_t b : rig.out) ASSERT_EQ(b, 0);
  EXPECT_EQ(rig.m->core(0).state().sems[9], 0U);
  // The chunks count on their own: 2049 x 2048 one-byte chunks (over 2^22) of 2^20 + 512 FP32 elements.
  const PseudoDmaDirect2d many =
      dma(1, 0, {0, 0}, {2049, 2048}, 1, 2, 0, {0, 0}, {2049, 2048}, 1, dtype::kFp32, dtype::kFp32);
  Rig rig2({encode(many)}, src.data(), src.size());
  const RunSummary s2 = rig2.m->run(10);
  ASSERT_TRUE(s2.faulted);
  EXPECT_EQ(s2.fault.kind, FaultKind::ResourceLimit) << s2.fault.detail;
  EXPECT_NE(s2.fault.detail.find("moves 1049088 elements in 4196352 source"), std::string::npos) << s2.fault.detail;
}

TEST(NeffDma, OverlappingSidesReadEveryByteBeforeAnyIsWritten) {
  // Source and destination in one variable, 4 bytes apart (§7.3: every byte is read, then every byte written).
  std::vector<uint8_t> unused(8);
  for (const bool forward : {true, false}) {
    SCOPED_TRACE(forward);
    const uint32_t from = forward ? 0 : 4, to = forward ? 4 : 0;
    const PseudoDmaDirect2d d = dma(2, from, {8, 0}, {4, 1}, 8, 2, to, {8, 0}, {4, 1}, 8, dtype::kUint8, dtype::kUint8);
    Rig rig({encode(d)}, unused.data(), unused.size());
    for (size_t i = 0; i < rig.out.size(); ++i) rig.out[i] = static_cast<uint8_t>(i);
    const RunSummary s = rig.m->run(10);
    ASSERT_FALSE(s.faulted) << s.fault.detail;
    for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(rig.out[to + i], static_cast<uint8_t>(from + i)) << i;
    EXPECT_EQ(rig.out[40], 40);
  }
}

TEST(NeffDma, ConversionStreamsAcrossChunksThatSplitElements) {
  // Six FP16 values (1, 2, -0.5, 0.25, 65504, -2) to FP32, read in chunks of 6 and of 3 bytes (an element split
  // between two chunks) and written in chunks of 4 bytes on two rows 16 bytes apart.
  const std::vector<uint8_t> src{0x00, 0x3C, 0x00, 0x40, 0x00, 0xB8, 0x00, 0x34, 0xFF, 0x7B, 0x00, 0xC0};
  const uint32_t want[6] = {0x3F800000, 0x40000000, 0xBF000000, 0x3E800000, 0x477FE000, 0xC0000000};
  for (const uint16_t esz : {uint16_t{6}, uint16_t{3}}) {
    SCOPED_TRACE(esz);
    const auto chunks = static_cast<uint16_t>(12 / esz);
    const PseudoDmaDirect2d d =
        dma(1, 0, {esz, 0}, {chunks, 1}, esz, 2, 0, {4, 16}, {3, 2}, 4, dtype::kFp16, dtype::kFp32);
    Rig rig({encode(d)}, src.data(), src.size());
    const RunSummary s = rig.m->run(10);
    ASSERT_FALSE(s.faulted) << s.fault.detail;
    for (unsigned e = 0; e < 6; ++e) {
      const size_t at = (e / 3) * 16 + (e % 3) * 4;
      uint32_t got = 0;
      for (unsigned b = 0; b < 4; ++b) got |= uint32_t{rig.out[at + b]} << (8 * b);
      EXPECT_EQ(got, want[e]) << e;
    }
    EXPECT_EQ(rig.out[12], 0);  // between the rows: untouched
    EXPECT_EQ(rig.view.dma_bytes, 24U);
  }
}

// Transfers of one chunk size and no conversion take the direct path (each chunk read in place where it is stored
// whole, written once); recorded, the same transfers stream element by element. DRAM to SBUF in chunks of 13 bytes
// (eight and a five-byte tail) over two partitions, SBUF to SBUF packed, then SBUF back to DRAM: the bytes land where
// the walks put them, and both paths leave the same memory and counts.
TEST(NeffDma, EqualChunksMoveDirectlyAsTheStreamingPathDoes) {
  std::vector<uint8_t> src(6 * 13);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(7 * i + 3);
  const auto row = static_cast<int32_t>(kStride);
  const uint32_t packed = 4 * static_cast<uint32_t>(kStride) + 0x400;
  const std::vector<Word> sp = {
      encode(dma(1, 0, {13, 39}, {3, 2}, 13, 0, 0x200, {16, row}, {3, 2}, 13, dtype::kUint8, dtype::kUint8)),
      encode(dma(0, 0x200, {16, row}, {3, 2}, 13, 0, packed, {13, row}, {3, 2}, 13, dtype::kUint8, dtype::kUint8)),
      encode(dma(0, packed, {13, row}, {3, 2}, 13, 2, 100, {13, 39}, {3, 2}, 13, dtype::kUint8, dtype::kUint8))};
  std::vector<uint8_t> outs[2];
  uint64_t counts[2][3] = {};
  for (const bool record : {false, true}) {
    Rig rig(sp, src.data(), src.size(), record);
    uint64_t mem = 0, reads = 0;
    for (int i = 0; i < 3; ++i) {
      const StepResult r = rig.m->step();
      ASSERT_EQ(r.status, StepResult::Status::Retired) << i << r.fault.detail;
      mem += r.totals.mem;
      reads += r.totals.reads;
    }
    for (uint64_t p = 0; p < 2; ++p)
      for (uint64_t c = 0; c < 3; ++c)
        for (uint64_t b = 0; b < 13; ++b) {
          bool written = false;
          EXPECT_EQ(rig.m->core(0).state().memory.read(p * kStride + 0x200 + 16 * c + b, 1, &written),
                    src[39 * p + 13 * c + b]);
          EXPECT_TRUE(written);
        }
    for (size_t i = 0; i < src.size(); ++i) EXPECT_EQ(rig.out[100 + i], src[i]) << i;
    EXPECT_EQ(rig.out[99], 0);
    EXPECT_EQ(rig.out[100 + src.size()], 0);
    outs[record ? 1 : 0] = rig.out;
    counts[record ? 1 : 0][0] = mem;
    counts[record ? 1 : 0][1] = reads;
    counts[record ? 1 : 0][2] = rig.view.dma_bytes;
  }
  EXPECT_EQ(outs[0], outs[1]);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(counts[0][k], counts[1][k]) << k;
  EXPECT_EQ(counts[0][0], 2U * 6 * 2);  // SBUF writes: 6 chunks of an 8-byte access and a tail, twice
  EXPECT_EQ(counts[0][1], 2U * 6 * 2);  // SBUF reads: the same, twice
}

// Transfers of a megabyte in chunks of 8 KiB, the shape of a kernel's row tiles, are copied on the step's kernel
// threads where their chunks go straight to memory and none overlaps another: DRAM to SBUF (128 partitions), SBUF back
// to DRAM, a broadcast of one chunk to every partition. One whose chunks all land on the same bytes keeps the transfer
// order (the last chunk wins). Two threads leave the bytes and counts of one, and the bytes are where the walks put
// them.
TEST(NeffDma, LongTransfersOnSeveralThreadsEqualOneThread) {
  constexpr uint16_t kChunk = 8192;
  constexpr uint32_t kBytes = 128U * kChunk;
  std::vector<uint8_t> in(kBytes);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>((i * 131) ^ (i >> 13));
  const auto row = static_cast<int32_t>(kStride);
  const std::vector<Word> sp = {
      encode(dma(1, 0, {kChunk, 0}, {128, 1}, kChunk, 0, 0, {row, 0}, {128, 1}, kChunk, dtype::kUint8, dtype::kUint8)),
      encode(dma(0, 0, {row, 0}, {128, 1}, kChunk, 2, 0, {kChunk, 0}, {128, 1}, kChunk, dtype::kUint8, dtype::kUint8)),
      encode(dma(1, 0, {0, 0}, {128, 1}, kChunk, 0, 0x4000, {row, 0}, {128, 1}, kChunk, dtype::kUint8, dtype::kUint8)),
      encode(dma(1, 0, {kChunk, 0}, {128, 1}, kChunk, 3, 0, {0, 0}, {128, 1}, kChunk, dtype::kUint8, dtype::kUint8))};
  struct Result {
    std::vector<uint8_t> out, last, sbuf;
    uint64_t mem = 0, reads = 0, dma_bytes = 0;
  };
  Result results[2];
  for (const unsigned threads : {1U, 2U}) {
    Result& r = results[threads - 1];
    r.out.assign(kBytes, 0);
    r.last.assign(kChunk, 0);
    DramView view;
    view.vars.resize(4);
    view.vars[0] = {true, true, nullptr, nullptr, 0, "SB"};
    view.vars[1] = {true, false, in.data(), nullptr, in.size(), "in"};
    view.vars[2] = {true, false, r.out.data(), r.out.data(), r.out.size(), "out"};
    view.vars[3] = {true, false, r.last.data(), r.last.data(), r.last.size(), "last"};
    CoreProgram p;
    p.stream(EngineId::Sp) = sp;
    MachineOptions mo;
    mo.neff_mode = true;
    mo.kernel_threads = threads;
    std::vector<CoreProgram> cores;
    cores.push_back(std::move(p));
    Machine m(kC, std::move(cores), mo);
    m.core(0).state().dram = &view;
    for (size_t i = 0; i < sp.size(); ++i) {
      const StepResult step = m.step();
      ASSERT_EQ(step.status, StepResult::Status::Retired) << i << step.fault.detail;
      r.mem += step.totals.mem;
      r.reads += step.totals.reads;
    }
    r.dma_bytes = view.dma_bytes;
    for (uint64_t q = 0; q < 128; ++q)
      for (uint64_t b = 0; b < 2 * 0x4000; b += 509) {  // both tiles of every partition, sampled
        bool written = false;
        r.sbuf.push_back(static_cast<uint8_t>(m.core(0).state().memory.read(q * kStride + b, 1, &written)));
        EXPECT_TRUE(written || b >= 0x4000 + kChunk || (b >= kChunk && b < 0x4000)) << q << " " << b;
      }
  }
  for (const Result& r : results) {
    EXPECT_EQ(r.out, in);  // DRAM -> SBUF -> DRAM: the bytes come back
    EXPECT_TRUE(std::equal(r.last.begin(), r.last.end(), in.end() - kChunk));  // the last chunk wins
  }
  const Result& one = results[0];
  for (uint64_t q = 0, k = 0; q < 128; ++q)
    for (uint64_t b = 0; b < 2 * 0x4000; b += 509, ++k) {
      const uint8_t want = b < kChunk ? in[q * kChunk + b] : b >= 0x4000 && b < 0x4000 + kChunk ? in[b - 0x4000] : 0;
      ASSERT_EQ(one.sbuf[k], want) << q << " " << b;
    }
  EXPECT_EQ(results[1].sbuf, one.sbuf);
  EXPECT_EQ(results[1].mem, one.mem);
  EXPECT_EQ(results[1].reads, one.reads);
  EXPECT_EQ(results[1].dma_bytes, one.dma_bytes);
  EXPECT_EQ(one.dma_bytes, 4U * kBytes);
}

TEST(NeffDma, RefusedOutsideANeffRun) {
  std::vector<uint8_t> src(64, 7);
  const PseudoDmaDirect2d d = dma(1, 0, {8, 0}, {1, 1}, 8, 2, 0, {8, 0}, {1, 1}, 8, dtype::kUint8, dtype::kUint8);
  Machine m(kC, std::vector<Word>{encode(d)}, MachineOptions{});
  const RunSummary s = m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::PseudoNotLowered);
}

}  // namespace
}  // namespace tpbisa
