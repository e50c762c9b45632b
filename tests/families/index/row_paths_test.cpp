// The SIMD row paths of IOTA, the selects, the BatchNorm statistics and the MAX8 search against their element paths:
// each word run twice on the same state, untraced (rows read where they lie, written in place or staged whole, the
// lanes kernels) and traced (element by element, as the trace shows), must leave the same memory, accumulators,
// matched indices and diagnostic counts, over NaNs, infinities, both zeros, subnormals, ties, rows that cross memory
// pages, rows updated in place and source elements never written.
#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"

namespace tpbisa::test::index_row_paths {
namespace {

constexpr uint64_t kRegion = 0x6000;  // every operand below lies in the first bytes of each partition

/// A worked word of act-index-ops.md in hex, its missing trailing bytes zero.
Word word_of(std::string_view hex) {
  std::string digits(hex);
  digits.resize(2 * kWordBytes, '0');
  Word w{};
  HexError error;
  EXPECT_TRUE(parse_hex_word(digits, w, error)) << error.what;
  return w;
}

/// Special values: both zeros, quiet NaNs of two payloads and signs, both infinities, subnormals of both signs, the
/// largest finite values, and ordinary values (each repeated along a row: ties).
constexpr uint32_t kSpecial[] = {0x00000000, 0x80000000, 0x7FC00000, 0xFFC00001, 0x7F800000, 0xFF800000,
                                 0x00000003, 0x80000001, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000,
                                 0x40490FDB, 0xC1200000, 0x42B00000, 0x3DCCCCCD};

/// What a source row holds.
enum class Values { Mixed, Zeros, Ascending, Tuples };

uint32_t value_at(Values v, uint64_t p, uint64_t k) {
  const uint64_t h = (p * 2654435761U + k * 40503U + (k >> 3) * 7919U) % 97;
  switch (v) {
    case Values::Zeros: return h % 2 == 0 ? 0x00000000U : 0x80000000U;
    case Values::Ascending: return std::bit_cast<uint32_t>(static_cast<float>(k));
    case Values::Tuples:  // counts (some zero), means and M2s with specials among them
      if (k % 3 == 0) return std::bit_cast<uint32_t>(static_cast<float>(h % 5));
      return h < 6 ? kSpecial[h] : std::bit_cast<uint32_t>(-3.0F + static_cast<float>(h) / 7.0F);
    case Values::Mixed: break;
  }
  if (h < 16) return kSpecial[h];
  return std::bit_cast<uint32_t>(-12.0F + 24.0F * static_cast<float>(h * 31 % 97) / 97.0F);
}

/// The machine's state: source rows of `count` fp32 elements at `src` on `channels` partitions (the last `unwritten`
/// of each row never written), accumulators, each channel's keys taken from its row (so that some match), and with
/// `prefill` every other byte of the region written first (destination pages that exist: rows written in place).
struct Setup {
  uint32_t src = 0;
  uint64_t count = 0;
  uint64_t unwritten = 0;
  Values values = Values::Mixed;
  unsigned channels = 40;
  bool prefill = false;
};

struct Outcome {
  std::vector<uint64_t> memory;
  std::vector<uint32_t> acc, match_index;
  std::array<uint64_t, kDiagKinds> diags{};
  bool faulted = false;
};

Outcome run(const Word& w, EngineId e, const Setup& s, bool traced) {
  MachineOptions mo;
  mo.engine = e;
  mo.record_effects = traced;
  Machine m(Generation::Mariana, std::vector<Word>{w}, mo);
  MachineState& st = m.mutable_state();
  const uint64_t stride = geometry(Generation::Mariana).sbuf_partition_size;
  for (uint64_t p = 0; p < 128; ++p) {
    for (uint64_t a = 0; s.prefill && a < kRegion; a += 4) st.memory.write(p * stride + a, 4, 0xA5A5A5A5U ^ a);
    for (uint64_t k = 0; p < s.channels && k + s.unwritten < s.count; ++k)
      st.memory.write(p * stride + s.src + 4 * k, 4, value_at(s.values, p, k));
    st.dve[p].acc = std::bit_cast<uint32_t>(static_cast<float>(p) - 3.5F);
    for (unsigned j = 0; j < 8; ++j) st.dve[p].match_key[j] = value_at(s.values, p, 37 * j + 1);
  }
  const RunSummary r = m.run(10);
  Outcome o;
  o.faulted = r.faulted;
  o.diags = r.diagnostic_counts;
  EXPECT_FALSE(r.faulted) << r.fault.detail;
  for (uint64_t p = 0; p < 128; ++p) {
    for (uint64_t a = 0; a < kRegion; a += 4) o.memory.push_back(st.memory.read(p * stride + a, 4));
    o.acc.push_back(st.dve[p].acc);
    for (unsigned j = 0; j < 8; ++j) o.match_index.push_back(st.dve[p].match_index[j]);
  }
  return o;
}

/// Under the sanitizers one case in four runs, on one kind of destination page (each case costs tens of times
/// more there); the optimised tree runs every case on both.
#if defined(TPBISA_ASAN)
constexpr bool kSampled = true;
#else
constexpr bool kSampled = false;
#endif

/// The word on fresh destination pages (rows staged) and on written ones (rows in place where allowed).
void expect_same(const Word& w, EngineId e, Setup s) {
  static unsigned cases = 0;
  const unsigned n = cases++;
  if (kSampled && n % 4 != 0) return;
  for (const bool prefill : {false, true}) {
    if (kSampled && prefill != (n % 8 == 0)) continue;
    s.prefill = prefill;
    SCOPED_TRACE(prefill ? "destination pages written" : "destination pages fresh");
    const Outcome fast = run(w, e, s, false), element = run(w, e, s, true);
    EXPECT_EQ(fast.faulted, element.faulted);
    EXPECT_TRUE(fast.memory == element.memory);
    EXPECT_EQ(fast.acc, element.acc);
    EXPECT_EQ(fast.match_index, element.match_index);
    EXPECT_EQ(fast.diags, element.diags);
  }
}

/// Destination places: page-aligned apart from the source, mid-page (rows crossing a page), and the source itself.
constexpr uint32_t kSrc = 0x0F00;
constexpr uint32_t kDsts[] = {0x3000, 0x3F10, kSrc};

TEST(IndexRowPaths, Iota) {
  auto t = *decode(word_of("7e10000000000000000000000500000001000a00000000000300020001000100"
                           "0008020064000000000000000010000001000000000000000600010001000100"),
                   Generation::Mariana)
                .as<D4Iota>();
  t.num_active_channels = 40;
  // A ramp whose inner runs are long (the lanes) and short (element by element), values across the int32 range
  // (fp32 rounding, wrap-around at 2^32).
  for (const std::array<uint16_t, 4> counts : {std::array<uint16_t, 4>{40, 3, 11, 1}, {1320, 1, 1, 1}, {5, 9, 7, 3}})
    for (const int32_t base : {0, 0x7FFFFE00})
      for (const uint8_t dt : {dtype::kInt32, dtype::kFp32, dtype::kInt16, dtype::kBfloat16})
        for (const uint32_t dst : {dt == dtype::kInt32 ? 0x3000U : 0x3F10U}) {
          t.src.num_elem = counts;
          t.src.step_elem = {3, -7, 1000, 5};
          t.src.base = base;
          t.channel_multiplier = 100003;
          const uint16_t n = static_cast<uint16_t>(counts[0] * counts[1] * counts[2] * counts[3]);
          t.dst.start_addr.raw = dst;
          t.dst.num_elem = {n, 1, 1, 1};
          t.dst.step_elem = {1, 0, 0, 0};
          t.out_dtype = dt;
          SCOPED_TRACE("iota " + std::to_string(counts[0]) + " base " + std::to_string(base) + " dtype " +
                       std::to_string(dt) + " dst " + std::to_string(dst));
          expect_same(encode(t), EngineId::Pool, {});
        }
}

TEST(IndexRowPaths, AffineSelect) {
  auto t = *decode(word_of("92100000000000000000000004aa010500000000ffff00000000000004000100"
                           "0100010000100000010000000400010000200000010000000400010001000000"),
                   Generation::Mariana)
                .as<S2d2TsAs>();
  constexpr uint16_t kN = 1300;
  for (const unsigned channels : {40U, 13U})
    for (const uint8_t mode : {uint8_t{0}, uint8_t{1}, uint8_t{2}, uint8_t{3}})
      for (const uint32_t dst : kDsts)
        for (const uint8_t pair : {uint8_t{0xAA}, uint8_t{0x6A}}) {  // fp32 -> fp32, fp32 -> bf16
          if (pair != 0xAA && dst == kSrc) continue;                 // in place only with equal sizes
          t.num_active_channels = static_cast<uint8_t>(channels);
          t.fill_mode = mode;
          t.in_out_dtype = pair;
          t.mask.num_elem = {100, 13, 1, 1};
          t.mask.step_elem = {-1, 7, 0, 0};
          t.mask.base = 40;
          t.channel_multiplier = 1;
          t.src.start_addr.raw = kSrc;
          t.src.num_elem = {kN, 1};
          t.dst.start_addr.raw = dst;
          t.dst.num_elem = {kN, 1};
          SCOPED_TRACE("affine mode " + std::to_string(mode) + " dst " + std::to_string(dst) + " pair " +
                       std::to_string(pair) + " channels " + std::to_string(channels));
          expect_same(encode(t), EngineId::Pool, {.src = kSrc, .count = kN, .unwritten = 3, .channels = channels});
        }
}

TEST(IndexRowPaths, RangeSelect) {
  auto t = *decode(word_of("bc100000000000000000000001aa030800000000ffff7fff0010000001000000"
                           "0800010014160000000000400000a04000200000010000000800010000000000"),
                   Generation::Mariana)
                .as<S2d2Rs>();
  constexpr uint16_t kN = 1300;
  struct Ops {
    uint8_t op0, op1;
    float b0, b1;
  };
  for (const Ops ops : {Ops{aluop::kIsGe, aluop::kIsLt, 100.0F, 1200.0F}, Ops{aluop::kIsGt, aluop::kIsLe, -5.0F, 9.0F},
                        Ops{aluop::kIsEq, aluop::kIsGe, 700.0F, 0.0F}, Ops{aluop::kIsGe, aluop::kIsLt, 5000.0F, 1.0F}})
    for (const uint8_t cmd : {accum_cmd::kIdle, accum_cmd::kAccumulate, accum_cmd::kZeroAccumulate})
      for (const Values v : {Values::Mixed, Values::Zeros})
        for (const uint32_t dst : {0x3F10U, kSrc}) {
          t.num_active_channels = 40;
          t.comp_op0 = ops.op0;
          t.comp_op1 = ops.op1;
          t.bound0.raw = std::bit_cast<uint32_t>(ops.b0);
          t.bound1.raw = std::bit_cast<uint32_t>(ops.b1);
          t.bound0_src = imm_src::kInstruction;
          t.bound1_src = imm_src::kInstruction;
          t.reduce_cmd = cmd;
          t.src.start_addr.raw = kSrc;
          t.src.num_elem = {kN, 1};
          t.dst.start_addr.raw = dst;
          t.dst.num_elem = {kN, 1};
          SCOPED_TRACE("range ops " + std::to_string(ops.op0) + "/" + std::to_string(ops.op1) + " cmd " +
                       std::to_string(cmd) + " values " + std::to_string(static_cast<int>(v)) + " dst " +
                       std::to_string(dst));
          expect_same(encode(t), EngineId::Dve, {.src = kSrc, .count = kN, .unwritten = 2, .values = v});
        }
}

/// One S4D2_BN word over `n` source elements at kSrc of `channels` channels, its results at `dst`.
void expect_bn(std::string_view hex, uint16_t n, unsigned channels, Values v, uint64_t unwritten,
               uint32_t dst = 0x5000) {
  auto t = *decode(word_of(hex), Generation::Mariana).as<S4d2Bn>();
  t.num_active_channels = static_cast<uint8_t>(channels);
  t.src.start_addr.raw = kSrc;
  t.src.num_elem = {n, 1, 1, 1};
  t.dst.start_addr.raw = dst;
  t.dst.num_elem[1] = 1;  // the worked words' second count (bytes 58-59)
  SCOPED_TRACE(std::string(hex.substr(0, 2)) + " n " + std::to_string(n) + " channels " + std::to_string(channels) +
               " values " + std::to_string(static_cast<int>(v)) + " dst " + std::to_string(dst));
  expect_same(encode(t), EngineId::Dve,
              {.src = kSrc, .count = n, .unwritten = unwritten, .values = v, .channels = channels});
}

constexpr std::string_view kStats2 =
    "61100000000000000000000000100000010000000000000005000100010001000a0a01000000000000004040000000400020000001000000"
    "06";
constexpr std::string_view kAggregate =
    "62100000000000000000000000200000010000000000000006000100010001000a0a01000000000000000000000000000030000001000000"
    "0200010000000000";
constexpr std::string_view kMax8 =
    "6c10000000000000000000000010000001000000000000000a000100010001000a0a01000000000000000000000000000020000001000000"
    "08";
constexpr std::string_view kFindIndex8 =
    "6e10000000000000000000000010000001000000000000000a000100010001000a0901000000000000000000000000000030000001000000"
    "08";

TEST(IndexRowPaths, Statistics) {
  for (const unsigned channels : {128U, 13U, 1U})
    for (const Values v : {Values::Mixed, Values::Zeros, Values::Ascending}) {
      for (const uint16_t n : {uint16_t{1}, uint16_t{2}, uint16_t{301}, uint16_t{512}})
        expect_bn(kStats2, n, channels, v, 0);
      expect_bn(kStats2, 300, channels, v, 4);
    }
  for (const unsigned channels : {128U, 13U})
    for (const uint16_t n : {uint16_t{3}, uint16_t{300}, uint16_t{2046}}) {
      expect_bn(kAggregate, n, channels, Values::Tuples, 0);
      expect_bn(kAggregate, n, channels, Values::Ascending, 0);
    }
  // Rows read in pieces across pages, some of whose last elements were never written (those pieces copied); the
  // results over the channel's own source row (then staged, not written in place) or a later channel's.
  for (const unsigned channels : {128U, 13U}) {
    expect_bn(kAggregate, 2046, channels, Values::Tuples, 5);
    expect_bn(kAggregate, 2046, channels, Values::Tuples, 0, 0x1000);
    expect_bn(kStats2, 512, channels, Values::Mixed, 0, 0x1000);
    expect_bn(kMax8, 1500, channels, Values::Mixed, 0, 0x1000);
  }
}

TEST(IndexRowPaths, Max8AndFindIndex8) {
  for (const std::string_view hex : {kMax8, kFindIndex8})
    for (const unsigned channels : {40U, 13U})
      for (const Values v : {Values::Mixed, Values::Zeros, Values::Ascending})
        for (const uint16_t n : {uint16_t{8}, uint16_t{300}, uint16_t{2000}}) expect_bn(hex, n, channels, v, 0);
  expect_bn(kMax8, 1500, 128, Values::Mixed, 7);
  expect_bn(kFindIndex8, 1500, 128, Values::Mixed, 7);
}

TEST(IndexRowPaths, MatchReplace8) {
  auto t = *decode(word_of("6f10000000000000000000000010000001000000000000000a000100010001000a0a0100000000000000"
                           "80ff0040000001000000000000000a"),
                   Generation::Mariana)
                .as<S4d4Mr>();
  constexpr uint16_t kN = 1500;
  for (const Values v : {Values::Mixed, Values::Zeros, Values::Ascending})
    for (const uint32_t dst : kDsts)
      for (const uint8_t out : {dtype::kFp32, dtype::kBfloat16}) {
        if (out != dtype::kFp32 && dst == kSrc) continue;  // in place only with equal sizes
        t.num_active_channels = 40;
        t.out_dtype = out;
        t.src.start_addr.raw = kSrc;
        t.src.num_elem = {kN, 1, 1, 1};
        t.dst.start_addr.raw = dst;
        t.dst.num_elem = {kN, 1, 1, 1};
        SCOPED_TRACE("match values " + std::to_string(static_cast<int>(v)) + " dst " + std::to_string(dst) + " out " +
                     std::to_string(out));
        expect_same(encode(t), EngineId::Dve, {.src = kSrc, .count = kN, .unwritten = 2, .values = v});
      }
}

}  // namespace
}  // namespace tpbisa::test::index_row_paths
