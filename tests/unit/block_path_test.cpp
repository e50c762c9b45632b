// The executors' block path (whole rows read and staged at once when nothing is recorded) against their element
// path (taken when effects are recorded): the same memory, the same effect counts and diagnostics, the same faults;
// and SparseMemory's block reads and writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "../support/real_words.hpp"
#include "../support/test_util.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/effects.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa {
namespace {

using test::f32;
using test::hex;
using test::kC;
using test::kCast;
using test::kLwT0;
using test::kLwT1;
using test::kLwX0;
using test::kMemset;
using test::kMmBegin;
using test::kMmEnd;
using test::kMmT0;
using test::kPsum;
using test::kPsumStride;
using test::kStride;
using test::kTt;

TEST(SparseMemoryBlock, ReadsAndWritesAcrossPages) {
  SparseMemory m;
  std::vector<uint8_t> in(10000), out(10000, 0xAA);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 37 + 1);
  const uint64_t at = 3 * SparseMemory::kPageBytes - 100;  // three pages touched
  ASSERT_TRUE(m.write_block(at, in.size(), in.data()));
  EXPECT_TRUE(m.read_block(at, out.size(), out.data()));
  EXPECT_EQ(out, in);
  EXPECT_EQ(m.read(at + 4095, 1), in[4095]);
  EXPECT_TRUE(m.initialized(at, in.size()));
  EXPECT_FALSE(m.initialized(at - 1, 1));
  EXPECT_FALSE(m.initialized(at + in.size(), 1));
}

// Pages come from chunks of mapped memory, the later ones with huge pages advised: 12 MiB of pages (every kind of
// chunk, dense and hashed addresses), each page's bytes its own, and copies and moves that keep them.
TEST(SparseMemoryBlock, PagesAcrossEveryChunkKeepTheirBytesThroughCopiesAndMoves) {
  constexpr uint64_t kPages = 3000;
  const auto byte_at = [](uint64_t page, uint64_t i) { return static_cast<uint8_t>(page * 131 + i * 7 + 3); };
  const auto address_of = [](uint64_t page) {  // half below the dense limit, half in the hashed pages above it
    return page % 2 == 0 ? page * SparseMemory::kPageBytes
                         : SparseMemory::kDenseLimit + page * SparseMemory::kPageBytes;
  };
  SparseMemory m(uint64_t{64} << 20);
  std::vector<uint8_t> page(SparseMemory::kPageBytes);
  for (uint64_t p = 0; p < kPages; ++p) {
    for (uint64_t i = 0; i < page.size(); ++i) page[i] = byte_at(p, i);
    ASSERT_TRUE(m.write_block(address_of(p), page.size(), page.data())) << p;
  }
  EXPECT_EQ(m.allocated_bytes(), kPages * SparseMemory::kPageBytes);
  const auto check = [&](const SparseMemory& mem) {
    std::vector<uint8_t> out(SparseMemory::kPageBytes);
    for (uint64_t p = 0; p < kPages; ++p) {
      ASSERT_TRUE(mem.read_block(address_of(p), out.size(), out.data())) << p;
      for (uint64_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], byte_at(p, i)) << p << " " << i;
    }
  };
  check(m);
  SparseMemory copy(m);
  ASSERT_TRUE(copy.write(address_of(5), 1, 0xFF));  // the copy's pages are its own
  EXPECT_EQ(m.read(address_of(5), 1), byte_at(5, 0));
  ASSERT_TRUE(copy.write(address_of(5), 1, byte_at(5, 0)));
  check(copy);
  SparseMemory moved(std::move(copy));
  check(moved);
  SparseMemory assigned;
  assigned = moved;
  check(assigned);
  assigned = std::move(moved);
  check(assigned);
  check(m);
}

// The high-water buffers take blocks of 2 MiB or more from mapped memory: they grow, keep their bytes and shrink as
// vectors do (a plain resize leaves the new bytes as they are; one with a value fills them).
TEST(SparseMemoryBlock, HugeAdvisedBuffersBehaveAsVectors) {
  EffectLog::Bytes b;
  for (size_t n : {size_t{1000}, size_t{3} << 20, size_t{9} << 20}) {
    const size_t before = b.size();
    b.resize(n, uint8_t{0x5C});
    for (size_t i = before; i < n; ++i) ASSERT_EQ(b[i], 0x5C) << i;
    for (size_t i = 0; i < n; i += 4099) b[i] = static_cast<uint8_t>(i / 4099 + 1);
    for (size_t i = 0; i < n; i += 4099) ASSERT_EQ(b[i], static_cast<uint8_t>(i / 4099 + 1)) << i;
  }
  EffectLog::Bytes copy = b;
  EXPECT_EQ(copy, b);
  b.clear();
  b.shrink_to_fit();
  EXPECT_EQ(copy.size(), size_t{9} << 20);
}

TEST(SparseMemoryBlock, PartlyWrittenBytesReadAsZeroAndAreReported) {
  SparseMemory m;
  ASSERT_TRUE(m.write(0x1000 + 70, 2, 0xBEEF));
  std::vector<uint8_t> out(200, 0xAA);
  EXPECT_FALSE(m.read_block(0x1000, out.size(), out.data()));
  for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], i == 70 ? 0xEF : i == 71 ? 0xBE : 0) << i;
  EXPECT_TRUE(m.read_block(0x1000 + 70, 2, out.data()));
  std::vector<uint8_t> none(5000, 0xAA);  // a never-touched range (pages absent)
  EXPECT_FALSE(m.read_block(0x100000, none.size(), none.data()));
  EXPECT_EQ(none, std::vector<uint8_t>(5000, 0));
}

// any_written by hand: one byte written at the last bit of a bitmap word, ranges ending just before it, starting just
// after it, over an absent page before it, and across the page boundary behind it.
TEST(SparseMemoryBlock, AnyWrittenFindsTheOneWrittenByte) {
  SparseMemory m;
  const uint64_t page = 0x20000, byte = page + SparseMemory::kPageBytes + 127;  // the second page's bit 63 of word 1
  EXPECT_FALSE(m.any_written(page, 2 * SparseMemory::kPageBytes));              // no page at all
  ASSERT_TRUE(m.write(byte, 1, 0x7));
  EXPECT_TRUE(m.any_written(byte, 1));
  EXPECT_FALSE(m.any_written(page, SparseMemory::kPageBytes + 127));  // ends just before it, over an absent page
  EXPECT_TRUE(m.any_written(page, SparseMemory::kPageBytes + 128));
  EXPECT_FALSE(m.any_written(byte + 1, 3 * SparseMemory::kPageBytes));  // from just after it, into absent pages
  EXPECT_TRUE(m.any_written(byte - 64, 65));
  EXPECT_FALSE(m.any_written(byte - 64, 64));
  EXPECT_FALSE(m.any_written(byte, 0));
}

// The written bits against a byte-per-byte model: random runs written into two pages through every write form, each
// answer of written_span, initialized and read_block checked after each write (the pages' summary of whole bitmap
// words must agree with the bits, for ranges inside one word, spanning words, and whole pages). In the dense region a
// run over both pages is in place (one block); above it, only a run within one page is.
class WrittenBits : public ::testing::TestWithParam<uint64_t> {};
INSTANTIATE_TEST_SUITE_P(SparseMemoryBlock, WrittenBits,
                         ::testing::Values(uint64_t{0x10000}, SparseMemory::kDenseLimit + 0x10000));
TEST_P(WrittenBits, FollowAByteModelThroughEveryWriteForm) {
  const uint64_t kBase = GetParam();  // two pages: kBase and kBase + 4096
  const bool dense = kBase < SparseMemory::kDenseLimit;
  constexpr uint64_t kSpan = 2 * SparseMemory::kPageBytes;
  SparseMemory m;
  std::vector<bool> model(kSpan, false);
  uint64_t rng = 0x9E3779B97F4A7C15ULL;
  auto next = [&rng](uint64_t bound) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng % bound;
  };
  const std::vector<uint8_t> ones(kSpan, 0xA5);
  auto check = [&](uint64_t at, uint64_t n) {
    bool all = true, any = false;
    for (uint64_t i = 0; i < n; ++i) {
      all = all && model[at + i];
      any = any || model[at + i];
    }
    EXPECT_EQ(m.any_written(kBase + at, n), any) << at << "+" << n;
    const bool one_page = at / SparseMemory::kPageBytes == (at + n - 1) / SparseMemory::kPageBytes;
    EXPECT_EQ(m.written_span(kBase + at, n) != nullptr, all && (one_page || dense)) << at << "+" << n;
    if (all && dense) {
      EXPECT_EQ(m.written_span(kBase + at, n), m.written_span(kBase + at, 1));  // the block's bytes, in place
    }
    EXPECT_EQ(m.initialized(kBase + at, n), all) << at << "+" << n;
    std::vector<uint8_t> out(n);
    EXPECT_EQ(m.read_block(kBase + at, n, out.data()), all) << at << "+" << n;
  };
  check(0, kSpan);  // nothing written yet, no page there
  for (int step = 0; step < 400; ++step) {
    // Mostly short runs, some of several words, a few whole pages, so that pages fill up part way through.
    const uint64_t kind = next(10);
    const uint64_t n = kind < 5 ? 1 + next(8) : kind < 9 ? 1 + next(700) : SparseMemory::kPageBytes;
    const uint64_t at = next(kSpan - n + 1);
    switch (step % 3) {
      case 0: ASSERT_TRUE(m.write_block(kBase + at, n, ones.data())); break;
      case 1:
        for (uint64_t i = 0; i < n; i += 8)
          ASSERT_TRUE(m.write(kBase + at + i, static_cast<unsigned>(std::min<uint64_t>(8, n - i)), 0x5A));
        break;
      default:
        if (uint8_t* p = m.claim_span(kBase + at, n)) {
          std::memset(p, 0x3C, n);
        } else {
          ASSERT_TRUE(m.write_block(kBase + at, n, ones.data()));  // a range over two pages, or a page not yet there
        }
        break;
    }
    for (uint64_t i = 0; i < n; ++i) model[at + i] = true;
    for (int q = 0; q < 8; ++q) {
      const uint64_t qn = 1 + next(q < 4 ? 130 : SparseMemory::kPageBytes);
      check(next(kSpan - qn + 1), qn);
    }
    check(0, SparseMemory::kPageBytes);
    check(SparseMemory::kPageBytes, SparseMemory::kPageBytes);
  }
  check(0, kSpan);
}

// A run in the dense region is in place only within one block: across a block's end it is read and written through
// copies, with the same bytes and written bits; claiming it marks nothing.
TEST(SparseMemoryBlock, DenseRunsAcrossABlockEndAreCopied) {
  constexpr uint64_t kEnd = 3 * SparseMemory::kDenseBlockBytes;  // a block boundary
  SparseMemory m;
  std::vector<uint8_t> in(3 * SparseMemory::kPageBytes);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 7 + 1);
  const uint64_t at = kEnd - SparseMemory::kPageBytes - 100;
  ASSERT_TRUE(m.write_block(at, in.size(), in.data()));
  EXPECT_EQ(m.written_span(at, in.size()), nullptr);
  EXPECT_EQ(m.claim_span(at - 1, in.size()), nullptr);
  EXPECT_FALSE(m.initialized(at - 1, 1));             // the refused claim marked nothing
  ASSERT_NE(m.written_span(at, kEnd - at), nullptr);  // the part before the end, in place
  EXPECT_EQ(std::memcmp(m.written_span(at, kEnd - at), in.data(), kEnd - at), 0);
  std::vector<uint8_t> out(in.size());
  EXPECT_TRUE(m.read_block(at, out.size(), out.data()));
  EXPECT_EQ(out, in);
  uint8_t* claimed = m.claim_span(at, kEnd - at);  // within the block: in place, marked written
  ASSERT_NE(claimed, nullptr);
  EXPECT_EQ(claimed, m.written_span(at, kEnd - at));
}

TEST(SparseMemoryBlock, WriteBlockBeyondTheLimitWritesNothing) {
  SparseMemory m(2 * SparseMemory::kPageBytes);
  std::vector<uint8_t> in(2 * SparseMemory::kPageBytes + 1, 7);
  EXPECT_FALSE(m.write_block(0, in.size(), in.data()));  // three pages needed, two allowed
  EXPECT_EQ(m.allocated_bytes(), 0U);
  EXPECT_FALSE(m.initialized(0, 1));
  EXPECT_TRUE(m.write_block(0, in.size() - 1, in.data()));
  EXPECT_EQ(m.allocated_bytes(), 2 * SparseMemory::kPageBytes);
}

/// Preset memory: every partition's SBUF bytes [0x1000, 0x2100) and [0x37b00, 0x38000) hold FP16/FP32 patterns of
/// small integers (so products are exact), except a few holes left unwritten; PSUM partitions hold garbage FP32.
void preset(MachineState& s) {
  for (uint64_t p = 0; p < 128; ++p) {
    for (uint64_t b = 0x1000; b < 0x4800; b += 2) {
      if ((p * 7 + b) % 509 == 0) continue;  // a hole: an uninitialised read
      const float v = static_cast<float>(static_cast<int>((p * 3 + b / 2) % 5) - 2);
      s.memory.write(p * kStride + b, 2,
                     b < 0x4000 && b % 4 == 0 ? f32(v) & 0xFFFF : from_fp32_bits(f32(v), dtype::kFp16));
    }
    for (uint64_t b = 0x37b00; b < 0x38000; b += 2) {
      const float v = static_cast<float>(static_cast<int>((p + b / 2) % 3) - 1);
      s.memory.write(p * kStride + b, 2, from_fp32_bits(f32(v), dtype::kFp16));
    }
    for (uint64_t b = 0; b < 0x1000; b += 4)
      s.memory.write(kPsum + p * kPsumStride + b, 4, f32(1000.0F + static_cast<float>(b)));
  }
  s.sems[4] = 1;
  s.sems[8] = 16;
  s.sems[26] = 16;
}

struct Outcome {
  std::vector<StepResult::Status> status;
  std::vector<EffectTotals> totals;
  std::vector<std::array<uint64_t, kDiagKinds>> diags;
  std::vector<std::string> faults;
  std::vector<uint8_t> bytes;  ///< every preset range afterwards, with a byte per byte telling if it was written
};

Outcome run(const std::vector<std::string>& words, EngineId e, bool record,
            const std::function<void(MachineState&)>& also = {}, unsigned kernel_threads = 1) {
  std::vector<Word> program;
  for (const std::string& w : words) program.push_back(hex(w));
  MachineOptions mo;
  mo.engine = e;
  mo.record_effects = record;
  mo.kernel_threads = kernel_threads;
  mo.kernel_split_macs = 1;  // every product split, however small
  Machine m(kC, program, mo);
  preset(m.mutable_state());
  if (also) also(m.mutable_state());
  Outcome o;
  o.bytes.reserve(2 * 128 * (0x3800 + 0x500 + 0x1000));
  for (int i = 0; i < 10; ++i) {
    const StepResult r = m.step();
    if (r.status == StepResult::Status::Halted) break;
    o.status.push_back(r.status);
    o.totals.push_back(r.totals);
    o.diags.push_back(r.diagnostic_counts);
    o.faults.push_back(r.fault.detail);
    if (r.status == StepResult::Status::Faulted) break;
  }
  // A 64-byte piece whose bytes were all written is read as a block; any other byte by byte (its written bits).
  auto dump = [&](uint64_t from, uint64_t to) {
    std::array<uint8_t, 64> piece{};
    for (uint64_t a = from; a < to; a += piece.size()) {
      const uint64_t n = std::min<uint64_t>(piece.size(), to - a);
      if (m.state().memory.read_block(a, n, piece.data())) {
        for (uint64_t i = 0; i < n; ++i) {
          o.bytes.push_back(piece[i]);
          o.bytes.push_back(1);
        }
        continue;
      }
      for (uint64_t i = 0; i < n; ++i) {
        bool init = false;
        o.bytes.push_back(static_cast<uint8_t>(m.state().memory.read(a + i, 1, &init)));
        o.bytes.push_back(init ? 1 : 0);
      }
    }
  };
  for (uint64_t p = 0; p < 128; ++p) {
    dump(p * kStride + 0x1000, p * kStride + 0x4800);
    dump(p * kStride + 0x37b00, p * kStride + 0x38000);
    dump(kPsum + p * kPsumStride, kPsum + p * kPsumStride + 0x1000);
  }
  return o;
}

/// The block path's outcome of `words`, checked equal to the element path's.
Outcome expect_same(const std::vector<std::string>& words, EngineId e,
                    const std::function<void(MachineState&)>& also = {}) {
  Outcome fast = run(words, e, false, also);
  const Outcome traced = run(words, e, true, also);
  EXPECT_EQ(fast.status, traced.status);
  if (fast.status != traced.status) return fast;
  for (size_t i = 0; i < fast.totals.size(); ++i) {
    EXPECT_EQ(fast.totals[i], traced.totals[i]) << "step " << i;
    EXPECT_EQ(fast.diags[i], traced.diags[i]) << "step " << i;
    EXPECT_EQ(fast.faults[i], traced.faults[i]) << "step " << i;
  }
  EXPECT_TRUE(fast.bytes == traced.bytes);
  return fast;
}

TEST(BlockPath, MemsetCastAndTensorTensorEqualTheElementPath) {
  expect_same({kMemset}, EngineId::Dve);
  expect_same({kCast}, EngineId::Act);
  expect_same({kTt}, EngineId::Dve);
}

// FP32 TensorTensor rows (the vectorised row kernel) against the element path over special values: NaNs of both
// signs and several payloads, quiet and signalling, infinities, subnormals, signed zeros, sums that overflow, for ADD,
// SUBTRACT and MULT (the op byte of kTt: 0x04, 0x05, 0x06).
TEST(BlockPath, Fp32TensorTensorRowsEqualTheElementPathOnSpecialValues) {
  const uint32_t specials[] = {0x7FC00000, 0xFFC00001, 0x7F800001, 0xFF812345, 0x7F800000, 0xFF800000,
                               0x00000001, 0x807FFFFF, 0x00000000, 0x80000000, 0x7F7FFFFF, 0xFF7FFFFF,
                               0x3F800000, 0xC0490FDB, 0x00800000, 0x33FFFFFF};
  constexpr size_t kN = sizeof(specials) / sizeof(specials[0]);
  const auto values = [&](MachineState& s) {
    for (uint64_t p = 0; p < 128; ++p)
      for (uint64_t k = 0; k < 64; ++k) {  // every pair of specials meets in some partition
        s.memory.write(p * kStride + 0x1000 + 4 * k, 4, specials[(p + k) % kN]);
        s.memory.write(p * kStride + 0x2000 + 4 * k, 4, specials[(p / kN + 3 * k) % kN]);
      }
  };
  for (const char* op : {"04", "05", "06"}) {
    std::string word = kTt;
    word.replace(28, 2, op);  // byte 14: the ALU op
    const Outcome fast = expect_same({word}, EngineId::Dve, values);
    ASSERT_EQ(fast.status.size(), 1U);
    EXPECT_EQ(fast.status[0], StepResult::Status::Retired) << op << fast.faults[0];
  }
}

TEST(BlockPath, TensorTensorReadsHolesAsTheElementPathDoes) {
  const Outcome fast = run({kTt}, EngineId::Dve, false);
  ASSERT_EQ(fast.status.size(), 1U);
  EXPECT_GT(fast.diags[0][static_cast<size_t>(DiagKind::UninitializedRead)], 0U);  // the preset's holes are read
  EXPECT_EQ(fast.totals[0].reads, 2U * 128 * 64);
  EXPECT_EQ(fast.totals[0].mem, 128U * 64);
}

TEST(BlockPath, LdWeightsAndMatmulGroupsEqualTheElementPath) {
  expect_same({kLwT0, kMmBegin, kLwT1, kMmEnd}, EngineId::Pe);  // backward LDWEIGHTS walks, BEGIN then END
  expect_same({kLwX0, kMmT0}, EngineId::Pe);                    // transpose
}

// A transpose whose moving tile is the identity (PROJ-CONV-F18: its selection columns pass the weights' stored bits),
// with a column that is not a selection (a 2.0 under its 1.0) and the zero columns past the identity: the block path
// stages what the element path does.
TEST(BlockPath, TransposeSelectionColumnsEqualTheElementPath) {
  constexpr uint64_t kIdentity = 0x37b00;  // kMmT0's moving tile: 640 FP16 elements per partition
  const auto identity = [](MachineState& s) {
    for (uint64_t p = 0; p < 128; ++p)
      for (uint64_t n = 0; n < 640; ++n) {
        // 1.0 on the diagonal, +0.0 and -0.0 elsewhere: the weights LdWeights takes from the same bytes then hold
        // -0.0, which a selection passes as stored and the sum of products turns into +0.0.
        uint64_t bits = n == p ? 0x3C00 : (n + p) % 2 == 1 ? 0x8000 : 0;
        if (p == 9 && n == 5) bits = 0x4000;  // 2.0: column 5 is no selection
        s.memory.write(p * kStride + kIdentity + 2 * n, 2, bits);
      }
  };
  const Outcome fast = expect_same({kLwX0, kMmT0}, EngineId::Pe, identity);
  ASSERT_EQ(fast.status.size(), 2U);
  EXPECT_EQ(fast.status[1], StepResult::Status::Retired) << fast.faults[1];
}

// A transpose whose every column selects a row reads no sum of products, so its product is skipped; a column of
// zeros selects none and reads its sum, which against an infinite weight is NaN (Inf times zero), as the element path
// computes it. The weights are preset (every W[k][m] an FP16 value near 1.0, W[3][125] +Inf) and the moving tile is the
// identity with ±0 off the diagonal: column n selects row n, except column 100 when it is all zeros.
TEST(BlockPath, TransposeSkipsTheProductOnlyWhenEveryColumnSelects) {
  constexpr uint64_t kIdentity = 0x37b00;  // kMmT0's moving tile: 640 FP16 elements per partition
  const auto tile = [](bool zero_column) {
    return [zero_column](MachineState& s) {
      for (uint64_t p = 0; p < 128; ++p)
        for (uint64_t n = 0; n < 640; ++n) {
          uint64_t bits = n % 128 == p ? 0x3C00 : (n + p) % 2 == 1 ? 0x8000 : 0;
          if (zero_column && n == 100) bits = 0;
          s.memory.write(p * kStride + kIdentity + 2 * n, 2, bits);
        }
      s.pe.loaded = true;
      s.pe.dtype = dtype::kFp16;
      s.pe.rows = s.pe.cols = 128;
      for (size_t i = 0; i < s.pe.bits.size(); ++i) s.pe.bits[i] = 0x3C00 + static_cast<uint32_t>(i % 7);
      s.pe.bits[3 * PeWeights::kCols + 125] = 0x7C00;  // +Inf
    };
  };
  for (const bool zero_column : {false, true}) {
    const Outcome fast = expect_same({kMmT0}, EngineId::Pe, tile(zero_column));
    ASSERT_EQ(fast.status.size(), 1U);
    EXPECT_EQ(fast.status[0], StepResult::Status::Retired) << fast.faults[0];
    EXPECT_EQ(fast.totals[0].mem, 128U * 128);  // every output element written
  }
}

// Four-byte and one-byte LdWeights rows (FP32 stored bits taken whole, FP8 bytes) on both walks, and FP32
// moving tiles (their rows copied as they are): assembled from the text in each comment's place (tpbisa asm, cayman).
const std::vector<std::string> kWideAndNarrowPe = {
    "01100000000000000000000000000000fc200000ffff0000e0ff200001000400"
    "0a03000000008080000000000f0f000000000000000000000000000000000000",  // LW FP32 SB 0x20fc walking backwards
    "0210000000000000000000000000000000200000010000000000400001000100"
    "0a03000000008080000000010f0f000000000002010000000000400001000100",  // MM FP32 SB 0x2000 num 64, BEGIN, PSUM p0+0
    "0110000000000000000000000000000000100000010000002000200001000400"
    "0a03000000008080000000000f0f000000000000000000000000000000000000",  // LW FP32 SB 0x1000 walking forwards
    "0210000000000000000000000000000000210000010000000000400001000100"
    "0a03000000008080000000020f0f000000000002010000000000400001000100",  // MM FP32 SB 0x2100, END (accumulate)
    "0110000000000000000000000000000000300000010000002000200001000400"
    "0e00000000008080000000000f0f000000000000000000000000000000000000",  // LW FP8_EXP4 SB 0x3000 forwards
    "011000000000000000000000000000007f300000ffff0000e0ff200001000400"
    "0e00000000008080000000000f0f000000000000000000000000000000000000",  // LW FP8_EXP4 SB 0x307f backwards
    "0210000000000000000000000000000000310000010000000000400001000100"
    "0e00000000008080000000030f0f000000080002010000000000400001000100",  // MM FP8_EXP4 SB 0x3100, BEGIN+END, bank 1
};

TEST(BlockPath, Fp32AndFp8WeightsAndMovingRowsEqualTheElementPath) {
  const Outcome fast =
      expect_same({kWideAndNarrowPe[0], kWideAndNarrowPe[1], kWideAndNarrowPe[2], kWideAndNarrowPe[3]}, EngineId::Pe);
  ASSERT_EQ(fast.status.size(), 4U);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(fast.status[i], StepResult::Status::Retired) << i << fast.faults[i];
  EXPECT_EQ(fast.totals[1].mem, 128U * 64);  // every output element of the FP32 product written
  // The FP8 weights forwards, then backwards, each multiplied.
  expect_same({kWideAndNarrowPe[4], kWideAndNarrowPe[6], kWideAndNarrowPe[5], kWideAndNarrowPe[6]}, EngineId::Pe);
}

// Products are split across the kernel threads (their moving columns; here every product): every count
// leaves the bytes, counts and diagnostics of one thread, for FP16 and FP32 (fused and generic kernels), BEGIN then
// END, and transposes.
TEST(BlockPath, MatmulsSplitAcrossKernelThreadsEqualOneThread) {
  const std::vector<std::vector<std::string>> programs = {
      {kLwT0, kMmBegin, kLwT1, kMmEnd},
      {kLwX0, kMmT0},
      {kWideAndNarrowPe[0], kWideAndNarrowPe[1], kWideAndNarrowPe[2], kWideAndNarrowPe[3]}};
  for (const auto& words : programs) {
    const Outcome one = run(words, EngineId::Pe, false);
    for (const unsigned threads : {2U, 3U, 8U}) {
      const Outcome split = run(words, EngineId::Pe, false, {}, threads);
      EXPECT_EQ(split.status, one.status) << threads;
      EXPECT_EQ(split.totals, one.totals) << threads;
      EXPECT_EQ(split.diags, one.diags) << threads;
      EXPECT_TRUE(split.bytes == one.bytes) << threads;
    }
  }
}

TEST(BlockPath, FaultsAreTheElementPathsAndChangeNothing) {
  // MEMSET started 0x80 bytes before the end of partition 0's active bytes: its 64 FP32 elements leave them at
  // element 32, on either path, and nothing is written.
  const uint32_t start = geometry(kC).sbuf_partition_active - 0x80;
  std::vector<std::string> details;
  for (const bool record : {false, true}) {
    MachineOptions mo;
    mo.engine = EngineId::Dve;
    mo.record_effects = record;
    Word bad = hex(kMemset);
    for (unsigned b = 0; b < 4; ++b) bad[44 + b] = static_cast<uint8_t>(start >> (8 * b));  // dst.start_addr
    Machine m(kC, std::vector<Word>{bad}, mo);
    const StepResult r = m.step();
    ASSERT_EQ(r.status, StepResult::Status::Faulted) << record;
    EXPECT_EQ(r.fault.kind, FaultKind::OutOfRange);
    EXPECT_NE(r.fault.detail.find("element 32 "), std::string::npos) << r.fault.detail;
    EXPECT_FALSE(m.state().memory.initialized(start, 4));
    details.push_back(r.fault.detail);
  }
  EXPECT_EQ(details[0], details[1]);
}

}  // namespace
}  // namespace tpbisa
