// The row paths of the activation, index and search executors against their element paths: each word run twice on
// the same state, untraced (rows read and staged whole, the table lookup) and traced (element by element, as the
// trace shows), must leave the same memory, accumulators and matched indices.
#include <gtest/gtest.h>

#include <bit>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "../../support/test_util.hpp"
#include "families/act/tables.hpp"
#include "neff/act_tables.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::test::act_row_paths {
namespace {

constexpr unsigned kChannels = 128;
constexpr uint16_t kRow = 300;
constexpr uint32_t kSrc = 0x0, kDst = 0x2000, kAux = 0x4000;

std::shared_ptr<const act::TableSet> real_set() {
  static const std::shared_ptr<const act::TableSet> kSet = []() -> std::shared_ptr<const act::TableSet> {
    if (!std::filesystem::exists(test::kNeff)) return nullptr;
    neff::Result<neff::Neff> n = neff::read_file(test::kNeff.string());
    if (!n.ok()) return nullptr;
    return neff::activation_sets(*n, n->subgraphs.front()).by_index(0).set;
  }();
  return kSet;
}

Word word_of(std::string_view hex) {
  Word w{};
  for (size_t i = 0; i < kWordBytes && 2 * i + 1 < hex.size(); ++i)
    w[i] = static_cast<uint8_t>(std::stoul(std::string(hex.substr(2 * i, 2)), nullptr, 16));
  return w;
}

/// A value pool with repeats, both zeros, NaN, infinities, denormals and ordinary values of both signs.
uint32_t value_at(uint64_t p, uint64_t k) {
  static const uint32_t kPool[] = {0x00000000, 0x80000000, 0x7FC00000, 0x7F800000, 0xFF800000, 0x00000003,
                                   0x3F800000, 0xBF800000, 0x40490FDB, 0xC1200000, 0x42B00000, 0xC2C80000,
                                   0x3DCCCCCD, 0x41700000, 0x3F000000, 0xC0000000};
  const uint64_t h = (p * 2654435761U + k * 40503U + (k >> 3) * 7919U) % 97;
  if (h < 16) return kPool[h];
  return std::bit_cast<uint32_t>(-12.0F + 24.0F * static_cast<float>(h * 31 % 97) / 97.0F);
}

struct Outcome {
  std::vector<uint64_t> memory;
  std::vector<uint32_t> acc, match_index;
  bool faulted = false;
};

/// Runs `w` on engine `e` of MARIANA, traced or not, with rows of `size`-byte elements at kSrc and every channel's
/// keys set to values of its row; the destination region, accumulators and matched indices after it.
/// Where the source rows are written and the destination rows read (each channel's offset).
struct Place {
  uint32_t src = kSrc, dst = kDst;
  bool dst_written = false;  ///< the destination rows hold values before the word runs (their pages exist)
};

Outcome run(const Word& w, EngineId e, unsigned size, bool traced, const act::TableSet* set, Place at,
            unsigned threads = 1) {
  MachineOptions mo;
  mo.engine = e;
  mo.record_effects = traced;
  mo.kernel_threads = threads;
  mo.kernel_split_elements = 1;  // every row path on `threads` threads, however short
  Machine m(Generation::Mariana, std::vector<Word>{w}, mo);
  MachineState& st = m.mutable_state();
  st.act_set = set;
  const uint32_t stride = geometry(Generation::Mariana).sbuf_partition_size;
  for (uint64_t p = 0; p < kChannels; ++p) {
    if (at.dst_written)
      for (uint64_t k = 0; k < kRow; ++k) st.memory.write(p * stride + at.dst + 4 * k, 4, 0xA5A50000U + k);
    for (uint64_t k = 0; k < kRow; ++k) {
      const uint32_t v = value_at(p, k);
      st.memory.write(p * stride + at.src + size * k, size, size == 4 ? v : v >> 16);
    }
    st.dve[p].acc = std::bit_cast<uint32_t>(static_cast<float>(p) - 3.5F);
    for (unsigned s = 0; s < 8; ++s) st.dve[p].match_key[s] = value_at(p, 5 * s + 1);
  }
  const RunSummary r = m.run(10);
  Outcome o;
  o.faulted = r.faulted;
  EXPECT_FALSE(r.faulted) << r.fault.detail;
  for (uint64_t p = 0; p < kChannels; ++p) {
    for (uint64_t a = at.dst; a < at.dst + 4 * kRow; a += 4) o.memory.push_back(st.memory.read(p * stride + a, 4));
    for (uint64_t a = kAux; a < kAux + 32; a += 4) o.memory.push_back(st.memory.read(p * stride + a, 4));
    o.acc.push_back(st.dve[p].acc);
    for (unsigned s = 0; s < 8; ++s) o.match_index.push_back(st.dve[p].match_index[s]);
  }
  return o;
}

void expect_same(const Word& w, EngineId e, unsigned size, const act::TableSet* set = nullptr, Place at = {},
                 unsigned threads = 1) {
  const Outcome fast = run(w, e, size, false, set, at, threads), element = run(w, e, size, true, set, at);
  EXPECT_EQ(fast.faulted, element.faulted);
  EXPECT_EQ(fast.memory, element.memory);
  EXPECT_EQ(fast.acc, element.acc);
  EXPECT_EQ(fast.match_index, element.match_index);
}

/// The ACTIVATE of act-index-ops.md §4.5 X1 over every channel's row of kRow elements at kSrc (to kDst): `in` and
/// `out` dtypes (an FP32 bias), `nac` channels, function `func`, accumulator command `cmd`, scale and bias.
S3d3Ac activate_rows(uint8_t in, uint8_t out, unsigned nac, uint8_t func, uint8_t cmd, float scale, float bias) {
  auto t = *decode(word_of("2110000000000000000000000000030100100000010000000000040001000100"
                           "aa0a02070000803f000000000000000000200000010000000000040001000100"),
                   Generation::Mariana)
                .as<S3d3Ac>();
  t.src.start_addr.raw = kSrc;
  t.src.num_elem = {kRow, 1, 1};
  t.dst.start_addr.raw = kDst;
  t.dst.num_elem = {kRow, 1, 1};
  t.in_bias_dtype = static_cast<uint8_t>(in | dtype::kFp32 << 4);
  t.out_dtype = out;
  t.num_active_channels = static_cast<uint8_t>(nac);
  t.activation_func = func;
  t.accumulator_cmd = cmd;
  t.scale_value.raw = std::bit_cast<uint32_t>(scale);
  t.bias.raw = std::bit_cast<uint32_t>(bias);
  return t;
}

/// The combination sweeps below run one case in kSampleEvery under the sanitizers (each case costs tens of times more
/// there) and every case in the optimised tree; 7 is prime to every loop's length, so each value of each loop is met.
#ifdef TPBISA_ASAN
constexpr unsigned kSampleEvery = 7;
#else
constexpr unsigned kSampleEvery = 1;
#endif

TEST(ActRowPaths, ActivateEveryFunctionFp32AndBf16) {
  const std::shared_ptr<const act::TableSet> set = real_set();
  if (set == nullptr) GTEST_SKIP() << test::kNeff << " is absent (shared data not available): skipped";
  unsigned case_index = 0;
  for (const act::Profile& p : set->profiles())
    for (const uint8_t dt : {dtype::kFp32, dtype::kBfloat16})
      for (const uint8_t cmd : {uint8_t{0}, uint8_t{1}, uint8_t{2}, uint8_t{3}, uint8_t{4}}) {
        if (case_index++ % kSampleEvery != 0) continue;
        const S3d3Ac t = activate_rows(dt, dt, kChannels, p.func_id, cmd, 1.5F, -0.25F);
        SCOPED_TRACE(p.func_name + " dtype " + std::to_string(dt) + " cmd " + std::to_string(cmd));
        expect_same(encode(t), EngineId::Act, dtype_size(dt), set.get());
      }
}

// The fused row pass against the element path where the earlier test does not reach: channel counts that leave a
// partial group of side-by-side sums (and a single channel), mixed input and output dtypes (a dtype the pass widens
// first, a narrowing output), scales that overflow to Inf, reach denormals or are zero, and negative zero bias.
TEST(ActRowPaths, ActivateChannelGroupsDtypesAndScales) {
  const std::shared_ptr<const act::TableSet> set = real_set();
  if (set == nullptr) GTEST_SKIP() << test::kNeff << " is absent (shared data not available): skipped";
  struct Dtypes {
    uint8_t in, out;
  };
  unsigned case_index = 0;
  for (const char* fn : {"exp", "tanh", "identity", "square"}) {
    const act::Profile* p = set->profile_named(fn);
    if (p == nullptr) continue;
    for (const Dtypes d : {Dtypes{dtype::kFp32, dtype::kBfloat16}, Dtypes{dtype::kBfloat16, dtype::kFp32},
                           Dtypes{dtype::kFp16, dtype::kFp32}, Dtypes{dtype::kFp32, dtype::kFp16}})
      for (const unsigned nac : {1U, 7U, 13U, 127U})
        for (const float scale : {1.5F, 1e30F, 1e-39F, 0.0F, -2.0F})
          for (const uint8_t cmd : {uint8_t{0}, uint8_t{2}, uint8_t{3}, uint8_t{4}}) {
            if (case_index++ % kSampleEvery != 0) continue;
            S3d3Ac t = activate_rows(d.in, d.out, nac, p->func_id, cmd, scale, -0.0F);
            t.imm.raw = std::bit_cast<uint32_t>(0.75F);  // the LOAD_ACCUMULATE seed
            t.imm_src = imm_src::kInstruction;
            SCOPED_TRACE(fmt::format("{} in {} out {} channels {} scale {} cmd {}", fn, d.in, d.out, nac, scale, cmd));
            expect_same(encode(t), EngineId::Act, dtype_size(d.in), set.get());
          }
  }
}

// Rows that cross a memory page: the source read a page at a time where it lies, the destination staged whole (an
// fp32 output the evaluation writes itself), with and without the side-by-side sums, fp32 and BF16 (the memo).
TEST(ActRowPaths, ActivateRowsAcrossPages) {
  const std::shared_ptr<const act::TableSet> set = real_set();
  if (set == nullptr) GTEST_SKIP() << test::kNeff << " is absent (shared data not available): skipped";
  const Place at{.src = 0x0F00, .dst = 0x2E80};  // both rows cross a 4 KiB boundary
  for (const char* fn : {"exp", "tanh"})
    for (const uint8_t dt : {dtype::kFp32, dtype::kBfloat16})
      for (const uint8_t cmd : {uint8_t{0}, uint8_t{3}}) {
        S3d3Ac t = activate_rows(dt, dtype::kFp32, kChannels, set->profile_named(fn)->func_id, cmd, 0.75F, 0.125F);
        t.src.start_addr.raw = at.src;
        t.dst.start_addr.raw = at.dst;
        SCOPED_TRACE(fmt::format("{} in {} cmd {}", fn, dt, cmd));
        expect_same(encode(t), EngineId::Act, dtype_size(dt), set.get(), at);
      }
}

// Rows written where they go instead of staged (untraced; the function never faults, the operands are the
// instruction's own, no accumulator reads the results, the destination pages exist) against the element path:
// destinations written before the word, rows that cross a page, and the source rows themselves (in place, one dtype).
TEST(ActRowPaths, ActivateWritesRowsInPlace) {
  const std::shared_ptr<const act::TableSet> set = real_set();
  if (set == nullptr) GTEST_SKIP() << test::kNeff << " is absent (shared data not available): skipped";
  struct Dtypes {
    uint8_t in, out;
  };
  unsigned case_index = 0;
  for (const char* fn : {"exp", "tanh", "identity", "square"})
    for (const uint8_t cmd : {accum_cmd::kIdle, accum_cmd::kZero})
      for (const Dtypes d : {Dtypes{dtype::kFp32, dtype::kFp32}, Dtypes{dtype::kBfloat16, dtype::kBfloat16},
                             Dtypes{dtype::kBfloat16, dtype::kFp32}, Dtypes{dtype::kFp32, dtype::kBfloat16}})
        for (const Place at : {Place{kSrc, kDst, true}, Place{0x0F00, 0x2E80, true}, Place{kSrc, kSrc, true},
                               Place{0x0F00, 0x0F00, true}}) {
          if (at.src == at.dst && d.in != d.out) continue;  // the element path reads each source before its write
          if (case_index++ % kSampleEvery != 0) continue;
          S3d3Ac t = activate_rows(d.in, d.out, kChannels, set->profile_named(fn)->func_id, cmd, 0.75F, 0.125F);
          t.src.start_addr.raw = at.src;
          t.dst.start_addr.raw = at.dst;
          SCOPED_TRACE(fmt::format("{} in {} out {} cmd {} src {:#x} dst {:#x}", fn, d.in, d.out, cmd, at.src, at.dst));
          expect_same(encode(t), EngineId::Act, dtype_size(d.in), set.get(), at);
        }
}

// Rows evaluated on several threads (MachineOptions::kernel_threads; fp32 rows of a function that never faults, the
// scale and bias the instruction's own) against the element path on one: every accumulator command that takes that
// path, outputs written in place or staged and narrowed, rows across a page, a row written over its own source,
// channel counts that split unevenly.
TEST(ActRowPaths, ActivateRowsOnSeveralThreads) {
  constexpr uint32_t kUnwrittenLead = 0x1100;  // the rows then read in one page, partly written
  const std::shared_ptr<const act::TableSet> set = real_set();
  if (set == nullptr) GTEST_SKIP() << test::kNeff << " is absent (shared data not available): skipped";
  unsigned case_index = 0;
  for (const char* fn : {"exp", "square"})
    for (const uint8_t cmd : {accum_cmd::kIdle, accum_cmd::kZero, accum_cmd::kAccumulate, accum_cmd::kZeroAccumulate})
      for (const uint8_t out : {dtype::kFp32, dtype::kBfloat16, dtype::kFp16})
        for (const Place at : {Place{kSrc, kDst, true}, Place{0x0F00, 0x2E80, true}, Place{kSrc, kSrc, true},
                               Place{kSrc, kDst, false}, Place{kUnwrittenLead, kDst, true}})
          for (const unsigned nac : {128U, 13U}) {
            if (at.src == at.dst && out != dtype::kFp32) continue;  // the element path reads each source first
            const unsigned threads = 2 + case_index % 2;            // two threads, and three for uneven parts
            if (case_index++ % kSampleEvery != 0) continue;
            S3d3Ac t = activate_rows(dtype::kFp32, out, nac, set->profile_named(fn)->func_id, cmd, 0.75F, 0.125F);
            // At kUnwrittenLead, each row starts with 16 elements never written (read as +0, copied to scratch).
            t.src.start_addr.raw = at.src == kUnwrittenLead ? at.src - 0x40 : at.src;
            t.dst.start_addr.raw = at.dst;
            SCOPED_TRACE(fmt::format("{} cmd {} out {} src {:#x} dst {:#x} channels {} threads {}", fn, cmd, out,
                                     at.src, at.dst, nac, threads));
            expect_same(encode(t), EngineId::Act, 4, set.get(), at, threads);
          }
}

// The same with operands read per channel (a scale or bias pointer into each channel's own row, the LOAD_ACCUMULATE
// seed) and BF16 input rows, which the threads evaluate when no BF16 memo applies.
TEST(ActRowPaths, ActivateRowsOnSeveralThreadsWithPointerOperands) {
  const std::shared_ptr<const act::TableSet> set = real_set();
  if (set == nullptr) GTEST_SKIP() << test::kNeff << " is absent (shared data not available): skipped";
  enum class Pointers { Bias, Scale, Both };
  unsigned case_index = 0;
  for (const uint8_t cmd :
       {accum_cmd::kIdle, accum_cmd::kAccumulate, accum_cmd::kZeroAccumulate, accum_cmd::kLoadAccumulate})
    for (const uint8_t in : {dtype::kFp32, dtype::kBfloat16})
      for (const Pointers ptr : {Pointers::Bias, Pointers::Scale, Pointers::Both})
        for (const unsigned nac : {128U, 13U}) {
          const unsigned threads = 2 + case_index % 2;
          if (case_index++ % kSampleEvery != 0) continue;
          S3d3Ac t = activate_rows(in, dtype::kFp32, nac, set->profile_named("exp")->func_id, cmd, 0.75F, 0.125F);
          if (ptr != Pointers::Scale) {
            t.bias_src_n = 0;  // a pointer: each channel's element at kSrc + 8 of its partition
            t.bias.raw = kSrc + 8;
          }
          if (ptr != Pointers::Bias) {
            t.scale_src = imm_src::kPointer;
            t.scale_value.raw = kSrc + 12;
          }
          t.imm.raw = std::bit_cast<uint32_t>(0.75F);  // the LOAD_ACCUMULATE seed
          t.imm_src = imm_src::kInstruction;
          SCOPED_TRACE(fmt::format("cmd {} in {} pointers {} channels {} threads {}", cmd, in, static_cast<int>(ptr),
                                   nac, threads));
          expect_same(encode(t), EngineId::Act, dtype_size(in), set.get(), {}, threads);
        }
}

TEST(ActRowPaths, IotaAndSelects) {
  {
    auto t = *decode(word_of("7e10000000000000000000000500000001000a00000000000300020001000100"
                             "0008020064000000000000000010000001000000000000000600010001000100"),
                     Generation::Mariana)
                  .as<D4Iota>();
    t.src.num_elem = {10, 3, 10, 1};
    t.src.step_elem = {3, -7, 100, 0};
    t.dst.start_addr.raw = kDst;
    t.dst.num_elem = {kRow, 1, 1, 1};
    t.dst.step_elem = {1, 0, 0, 0};
    t.num_active_channels = kChannels;
    for (const uint8_t dt : {dtype::kInt32, dtype::kFp32, dtype::kInt16, dtype::kBfloat16}) {
      t.out_dtype = dt;
      expect_same(encode(t), EngineId::Pool, 4);
    }
  }
  {
    auto t = *decode(word_of("92100000000000000000000004aa010500000000ffff00000000000004000100"
                             "0100010000100000010000000400010000200000010000000400010001000000"),
                     Generation::Mariana)
                  .as<S2d2TsAs>();
    t.num_active_channels = kChannels;
    t.mask.num_elem = {30, 10, 1, 1};
    t.src.start_addr.raw = kSrc;
    t.src.num_elem = {kRow, 1};
    t.dst.start_addr.raw = kDst;
    t.dst.num_elem = {kRow, 1};
    expect_same(encode(t), EngineId::Pool, 4);
  }
  {
    auto t = *decode(word_of("bc100000000000000000000001aa030800000000ffff7fff0010000001000000"
                             "0800010014160000000000400000a04000200000010000000800010000000000"),
                     Generation::Mariana)
                  .as<S2d2Rs>();
    t.num_active_channels = kChannels;
    t.src.start_addr.raw = kSrc;
    t.src.num_elem = {kRow, 1};
    t.dst.start_addr.raw = kDst;
    t.dst.num_elem = {kRow, 1};
    t.bound1.raw = std::bit_cast<uint32_t>(200.0F);
    expect_same(encode(t), EngineId::Dve, 4);
  }
}

TEST(ActRowPaths, StatisticsAndSearch) {
  for (const std::string_view hex :
       {"61100000000000000000000000100000010000000000000005000100010001000a0a0100000000000000404000000040002000000100"
        "000006",
        "62100000000000000000000000200000010000000000000006000100010001000a0a0100000000000000000000000000003000000100"
        "000002",
        "6c10000000000000000000000010000001000000000000000a000100010001000a0a0100000000000000000000000000002000000100"
        "000008",
        "6e10000000000000000000000010000001000000000000000a000100010001000a090100000000000000000000000000003000000100"
        "000008"}) {
    auto t = *decode(word_of(hex), Generation::Mariana).as<S4d2Bn>();
    t.num_active_channels = kChannels;
    t.src.start_addr.raw = kSrc;
    t.src.num_elem = {kRow, 1, 1, 1};
    t.dst.start_addr.raw = kAux;
    t.dst.num_elem[1] = 1;  // the worked words' second count (bytes 58-59)
    SCOPED_TRACE(std::string(hex.substr(0, 2)));
    expect_same(encode(t), EngineId::Dve, 4);
  }
  auto t = *decode(word_of("6f10000000000000000000000010000001000000000000000a000100010001000a0a0100000000000000"
                           "80ff0040000001000000000000000a"),
                   Generation::Mariana)
                .as<S4d4Mr>();
  t.num_active_channels = kChannels;
  t.src.start_addr.raw = kSrc;
  t.src.num_elem = {kRow, 1, 1, 1};
  t.dst.start_addr.raw = kDst;
  t.dst.num_elem = {kRow, 1, 1, 1};
  expect_same(encode(t), EngineId::Dve, 4);
}

}  // namespace
}  // namespace tpbisa::test::act_row_paths
