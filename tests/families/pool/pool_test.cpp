// Pool family: the synthetic baselines of vectors.py decoded, validated, written and read back, and GATHER,
// INDIRECT_COPY, SORT, POOL and CROSS_LANE_REDUCE run against hand values (PROJ-CONV-G71..G81).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "../../support/test_util.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

using test::dec;

// The baselines of tests/families/pool/vectors.py.
constexpr std::string_view kGt =
    "6810000000000000000000000010000001000000000000000800010001000100"
    "090a020000000000000000000020000001000000000000000800010001000100";
constexpr std::string_view kIc =
    "e710000000000000000000000010000000200000080000000000000000000000"
    "0a0a100200004000000000000030000001000000000000000800010001000100";
constexpr std::string_view kSo =
    "9610000000000000000000000100aa1600100000010006000020000001000200"
    "0200060064000000010000000000000000000000000000000000000000000000";
constexpr std::string_view kPl =
    "4510000000000000000000000010000001000400020008000200020002000200"
    "0a0a0200010300000000803f0020000001000200010001000200020001000100";
constexpr std::string_view kCr =
    "7c10000000000000000000000010000001000000000000000400010001000100"
    "0a0a040000000000000000000020000001000000000000000100010001000100";

constexpr Generation kGen = Generation::Cayman;
constexpr uint64_t kPart = 0x40000;  // CAYMAN's SBUF partition stride

uint32_t bits(float f) {
  return std::bit_cast<uint32_t>(f);
}
void put(Machine& m, uint64_t at, unsigned size, const std::vector<uint64_t>& v) {
  for (size_t k = 0; k < v.size(); ++k) ASSERT_TRUE(m.mutable_state().memory.write(at + size * k, size, v[k]));
}
void put_fp32(Machine& m, uint64_t at, const std::vector<float>& v) {
  for (size_t k = 0; k < v.size(); ++k) ASSERT_TRUE(m.mutable_state().memory.write(at + 4 * k, 4, bits(v[k])));
}
std::vector<uint64_t> get(const Machine& m, uint64_t at, size_t n, unsigned size = 4) {
  std::vector<uint64_t> out;
  for (size_t k = 0; k < n; ++k) out.push_back(m.state().memory.read(at + size * k, size));
  return out;
}
std::vector<uint64_t> fp32(const std::vector<float>& v) {
  std::vector<uint64_t> out;
  for (float f : v) out.push_back(bits(f));
  return out;
}

// ---- Decode, validate, text ----

TEST(Pool, BaselinesDecodeToTheirFields) {
  const Instruction so = dec(test::hex_word_of(kSo), kGen);
  ASSERT_EQ(so.status, DecodeStatus::Modeled);
  const auto& s = std::get<S1d2Sort>(so.body);
  EXPECT_EQ(s.num_active_channels, 1);
  EXPECT_EQ(s.in_out_dtype, 0xAA);
  EXPECT_EQ(s.comparison, aluop::kIsLt);
  EXPECT_EQ(s.src.start_addr.raw, 0x1000U);
  EXPECT_EQ(s.src.num_elem[0], 6);
  EXPECT_EQ(s.dst.num_elem, (std::array<uint16_t, 2>{2, 6}));
  EXPECT_EQ(s.index_offset, 100U);
  EXPECT_EQ(s.stable, 1);
  const Instruction p_inst = dec(test::hex_word_of(kPl), kGen);
  const auto& p = std::get<S4d4Pl>(p_inst.body);
  EXPECT_EQ(p.pool_func, 1);
  EXPECT_EQ(p.pool_dim, 3);
  EXPECT_EQ(p.pool_scale.as_fp32(), 1.0F);
  const Instruction c_inst = dec(test::hex_word_of(kCr), kGen);
  const auto& c = std::get<S4d4Cr>(c_inst.body);
  EXPECT_EQ(c.num_active_channels, 4);
  EXPECT_EQ(c.dst.start_addr.raw, 0x2000U);
  const Instruction i_inst = dec(test::hex_word_of(kIc), kGen);
  const auto& i = std::get<S4d4Ic>(i_inst.body);
  EXPECT_EQ(i.src.index_addr.raw, 0x1000U);
  EXPECT_EQ(i.src.data_addr.raw, 0x2000U);
  EXPECT_EQ(i.src.num_elem, 8);
  EXPECT_EQ(i.src_num_elem_per_idx, 2);
  EXPECT_EQ(i.src_buffer_size, 64);
  const Instruction g_inst = dec(test::hex_word_of(kGt), kGen);
  const auto& g = std::get<S4d4Gt>(g_inst.body);
  EXPECT_EQ(g.in_dtype, dtype::kUint32);
  EXPECT_EQ(g.num_active_channels, 2);
  // decode's meanings come from the family.
  bool seen = false;
  for (const DescribedField& f : describe_fields(so))
    if (f.name == "index_offset") {
      seen = true;
      EXPECT_NE(f.meaning.find("u32 100"), std::string::npos) << f.meaning;
    }
  EXPECT_TRUE(seen);
}

TEST(Pool, BaselinesAreValidOnEveryGenerationUnderTheirValidators) {
  const std::pair<std::string_view, std::string_view> cases[] = {{kGt, "is_valid_gather"},
                                                                 {kIc, "is_valid_indirect_copy"},
                                                                 {kSo, "is_valid_s1d2_sort"},
                                                                 {kPl, "is_valid_s4d4_pl"},
                                                                 {kCr, "is_valid_cross_lane_reduce"}};
  for (Generation g : kAllGenerations)
    for (const auto& [hex, name] : cases) {
      const Verdict v = validate(dec(test::hex_word_of(hex), g), g);
      EXPECT_TRUE(v.valid) << name << " on " << to_string(g);
      ASSERT_NE(v.validator, nullptr);
      EXPECT_EQ(v.validator->name, name);
      EXPECT_EQ(v.checked, Checked::Full);
    }
}

std::vector<std::string_view> failing(const Word& w, Generation g) {
  const Verdict v = validate(dec(w, g), g);
  std::vector<std::string_view> names;
  for (unsigned k = 0; k < v.n_failed; ++k) names.push_back(v.validator->conjuncts[v.failed_index[k]]->name);
  return names;
}

TEST(Pool, ValidateNamesTheFailingPredicates) {
  Word s = test::hex_word_of(kSo);
  s[15] = aluop::kAdd;  // not IS_LT / IS_GT
  s[40] = 3;            // stable not 0/1
  EXPECT_EQ(failing(s, kGen), (std::vector<std::string_view>{"sort_valid_aluop", "sort_valid_stable"}));
  Word p = test::hex_word_of(kPl);
  p[36] = 0;  // NONE
  p[37] = 1;  // no TENSOR_SUBDIM 1
  EXPECT_EQ(failing(p, kGen), (std::vector<std::string_view>{"has_valid_pooltype", "is_valid_subdim"}));
  Word c = test::hex_word_of(kCr);
  c[0] = 0x7D;  // BITVEC with ADD
  c[38] = 1;
  EXPECT_EQ(failing(c, kGen), (std::vector<std::string_view>{"s4d4_cr_reserved_zero", "cross_lane_reduce_valid_op"}));
  Word i = test::hex_word_of(kIc);
  i[34] = 24;  // not a multiple of 16
  i[36] = 2;   // scatter
  EXPECT_EQ(failing(i, kGen),
            (std::vector<std::string_view>{"indirect_copy_active_channels", "indirect_copy_gather_only"}));
  Word g = test::hex_word_of(kGt);
  g[32] = dtype::kInt32;  // not an unsigned index dtype
  EXPECT_EQ(failing(g, kGen), (std::vector<std::string_view>{"has_gather_index_dtype"}));
  // MAVERICK removed PSUM for GATHER (GATH §1).
  Word gp = test::hex_word_of(kGt);
  store_le<uint32_t>(&gp[44], 0x02000000U);
  EXPECT_TRUE(failing(gp, Generation::Mariana).empty());
}

TEST(Pool, DisassemblyAssemblesBackToTheSameWord) {
  Word cr_bitvec = test::hex_word_of(kCr);
  cr_bitvec[0] = 0x7D;
  cr_bitvec[35] = 5;
  Word gt_pads = test::hex_word_of(kGt);
  gt_pads[35] = 7;
  gt_pads[39] = 2;
  std::vector<Word> words{test::hex_word_of(kGt),
                          test::hex_word_of(kIc),
                          test::hex_word_of(kSo),
                          test::hex_word_of(kPl),
                          test::hex_word_of(kCr),
                          cr_bitvec,
                          gt_pads};
  for (const Word& w : words)
    for (Generation g : kAllGenerations) {
      const std::string text = disassemble(std::span<const uint8_t, kWordBytes>(w), g);
      const AsmResult r = assemble(text, "t.tasm", g);
      ASSERT_EQ(r.error_count, 0U) << text << ": " << (r.errors.empty() ? "" : r.errors[0].message);
      ASSERT_EQ(r.words.size(), 1U);
      EXPECT_EQ(r.words[0], w) << text;
    }
  const std::string pl = disassemble(std::span<const uint8_t, kWordBytes>(test::hex_word_of(kPl)), kGen);
  EXPECT_NE(pl.find("pool_func=MAX_POOL"), std::string::npos) << pl;
  EXPECT_NE(pl.find("pool_dim=XY"), std::string::npos) << pl;
  const std::string bv = disassemble(std::span<const uint8_t, kWordBytes>(cr_bitvec), kGen);
  EXPECT_NE(bv.find("reduce_op=BITWISE_XOR"), std::string::npos) << bv;
  const std::string pads = disassemble(std::span<const uint8_t, kWordBytes>(gt_pads), kGen);
  EXPECT_NE(pads.find("pad35=7"), std::string::npos) << pads;
  const std::string gt = disassemble(std::span<const uint8_t, kWordBytes>(test::hex_word_of(kGt)), kGen);
  EXPECT_EQ(gt.find("pad35"), std::string::npos) << gt;  // unnamed bytes written only when set
}

// ---- Execution: hand values ----

Machine machine(std::string_view hex, Word (*edit)(Word) = nullptr) {
  Word w = test::hex_word_of(hex);
  if (edit != nullptr) w = edit(w);
  return Machine(kGen, std::vector<Word>{w});
}

TEST(PoolExec, SortOrdersTheHeadersWorkedExampleWithIndicesPlusOffset) {  // SORT §5.1
  Machine m = machine(kSo);
  put_fp32(m, 0x1000, {9, 3, 5, 1, 0, 0});
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  // dst {2, 6}, X fastest: value, index, value, index, ...
  EXPECT_EQ(get(m, 0x2000, 12), (std::vector<uint64_t>{bits(0), 104, bits(0), 105, bits(1), 103, bits(3), 101, bits(5),
                                                       102, bits(9), 100}));
}

TEST(PoolExec, SortDescendingInt16KeepsTiesInSourceOrderAndWrapsIndicesAt16Bits) {
  Machine m = machine(kSo, [](Word w) {
    w[14] = 0x44;                         // INT16
    w[15] = aluop::kIsGt;                 // descending
    store_le<uint16_t>(&w[22], 4);        // 4 values
    store_le<uint16_t>(&w[34], 4);        // 4 positions
    store_le<uint32_t>(&w[36], 0xFFFEU);  // offset: 0xFFFE + 2 wraps to 0
    return w;
  });
  put(m, 0x1000, 2, {5, 0xFFFE /* -2 */, 7, 7});
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  EXPECT_EQ(get(m, 0x2000, 8, 2), (std::vector<uint64_t>{7, 0x0000, 7, 0x0001, 5, 0xFFFE, 0xFFFE, 0xFFFF}));
}

TEST(PoolExec, SortPutsNaNLastInBothDirections) {  // PROJ-CONV-G78
  for (uint8_t cmp : {aluop::kIsLt, aluop::kIsGt}) {
    Word w = test::hex_word_of(kSo);
    w[15] = cmp;
    store_le<uint32_t>(&w[36], 0);
    Machine m(kGen, std::vector<Word>{w});
    const float nan = std::bit_cast<float>(0x7FC00000U);
    put_fp32(m, 0x1000, {2, nan, -1, 4, nan, 0});
    ASSERT_FALSE(m.run(10).faulted);
    const std::vector<uint64_t> got = get(m, 0x2000, 12);
    const std::vector<uint64_t> want =
        cmp == aluop::kIsLt
            ? std::vector<uint64_t>{bits(-1), 2, bits(0), 5, bits(2), 0, bits(4), 3, 0x7FC00000U, 1, 0x7FC00000U, 4}
            : std::vector<uint64_t>{bits(4), 3, bits(2), 0, bits(0), 5, bits(-1), 2, 0x7FC00000U, 1, 0x7FC00000U, 4};
    EXPECT_EQ(got, want) << int{cmp};
  }
}

/// A 4x4 feature map per channel: channel 0 holds 0..15, channel 1 holds -(0..15).
void fill_fmap(Machine& m) {
  std::vector<float> c0, c1;
  for (int k = 0; k < 16; ++k) {
    c0.push_back(static_cast<float>(k));
    c1.push_back(static_cast<float>(-k));
  }
  put_fp32(m, 0x1000, c0);
  put_fp32(m, kPart + 0x1000, c1);
}

TEST(PoolExec, MaxPoolTakesTheMaximumOfEach2x2Window) {
  Machine m = machine(kPl);
  fill_fmap(m);
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  EXPECT_EQ(get(m, 0x2000, 4), fp32({5, 7, 13, 15}));
  EXPECT_EQ(get(m, kPart + 0x2000, 4), fp32({0, -2, -8, -10}));
}

TEST(PoolExec, AvgPoolMultipliesEachWindowSumByPoolScale) {
  Machine m = machine(kPl, [](Word w) {
    w[36] = 2;                                // AVG_POOL
    store_le<uint32_t>(&w[40], 0x3E800000U);  // 0.25
    return w;
  });
  fill_fmap(m);
  ASSERT_FALSE(m.run(10).faulted);
  EXPECT_EQ(get(m, 0x2000, 4), fp32({2.5F, 4.5F, 10.5F, 12.5F}));
  EXPECT_EQ(get(m, kPart + 0x2000, 4), fp32({-2.5F, -4.5F, -10.5F, -12.5F}));
}

TEST(PoolExec, PoolFaultsWhenDstDoesNotHoldOneElementPerWindow) {  // PROJ-CONV-G79
  Machine m = machine(kPl, [](Word w) {
    w[58] = 1;  // dst {2,1,1,1}: 2 elements for 4 windows
    return w;
  });
  const RunSummary s = m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::OutOfRange);
}

/// Four channels of four FP32: channel c holds c*10 + {1, 2, 3, 4}.
void fill_cr(Machine& m) {
  for (unsigned c = 0; c < 4; ++c) {
    std::vector<float> v;
    for (int k = 1; k <= 4; ++k) v.push_back(static_cast<float>(c * 10 + k));
    put_fp32(m, c * kPart + 0x1000, v);
  }
}

TEST(PoolExec, CrossLaneReduceAddOverAllFoldsEveryChannelIntoOneElement) {
  Machine m = machine(kCr);
  fill_cr(m);
  ASSERT_FALSE(m.run(10).faulted);
  EXPECT_EQ(get(m, 0x2000, 2), fp32({10 + 50 + 90 + 130, 0}));  // 4 x (1+2+3+4) + 4 x 10 x (0+1+2+3)
}

TEST(PoolExec, CrossLaneReduceMaxAcrossPartitionsKeepsEachLane) {
  Machine m = machine(kCr, [](Word w) {
    w[35] = 2;                      // MAX
    w[36] = 1;                      // PARTITIONS
    store_le<uint16_t>(&w[56], 4);  // dst {4,1,1,1}
    return w;
  });
  fill_cr(m);
  ASSERT_FALSE(m.run(10).faulted);
  EXPECT_EQ(get(m, 0x2000, 4), fp32({31, 32, 33, 34}));
}

TEST(PoolExec, CrossLaneReduceAverageScalesEachElementBeforeAdding) {
  Machine m = machine(kCr, [](Word w) {
    w[35] = 1;                                // AVERAGE
    w[36] = 1;                                // PARTITIONS
    store_le<uint32_t>(&w[40], 0x3E800000U);  // 0.25
    store_le<uint16_t>(&w[56], 4);
    return w;
  });
  fill_cr(m);
  ASSERT_FALSE(m.run(10).faulted);
  EXPECT_EQ(get(m, 0x2000, 4), fp32({16, 17, 18, 19}));  // (k + 0 + 10 + 20 + 30) / 4
}

TEST(PoolExec, CrossLaneReduceBitvecXorsRawBits) {
  Machine m = machine(kCr, [](Word w) {
    w[0] = 0x7D;
    w[32] = w[33] = dtype::kUint32;
    w[35] = 5;  // BITWISE_XOR
    return w;
  });
  for (unsigned c = 0; c < 4; ++c) put(m, c * kPart + 0x1000, 4, {1U << c, 0xF0, 0x100, 0});
  ASSERT_FALSE(m.run(10).faulted);
  // 1^2^4^8 = 0xF; 0xF0 four times cancels; 0x100 four times cancels.
  EXPECT_EQ(get(m, 0x2000, 1), (std::vector<uint64_t>{0xF}));
}

TEST(PoolExec, IndirectCopyGathersRunsAtTheCoresIndicesPartitionFirst) {  // AWS local_gather, PROJ-CONV-G77
  Machine m = machine(kIc);
  // 16 channels (one core), 8 elements = 4 indices of 2: index i at partition i % 16, column i / 16.
  const std::vector<uint64_t> idx{5, 0, 10, 3};
  for (unsigned i = 0; i < 4; ++i) put(m, i * kPart + 0x1000, 2, {idx[i]});
  for (unsigned c = 0; c < 16; ++c) {
    std::vector<float> row;
    for (int k = 0; k < 64; ++k) row.push_back(static_cast<float>(100 * c + k));
    put_fp32(m, c * kPart + 0x2000, row);
  }
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  for (unsigned c = 0; c < 16; ++c) {
    std::vector<float> want;
    for (uint64_t i : idx)
      for (uint64_t e = 0; e < 2; ++e) want.push_back(static_cast<float>(100 * c + i + e));
    EXPECT_EQ(get(m, c * kPart + 0x3000, 8), fp32(want)) << "channel " << c;
  }
}

TEST(PoolExec, IndirectCopyFaultsOnAnIndexPastTheSourceBuffer) {  // PROJ-CONV-G77
  Machine m = machine(kIc);
  put(m, 0x1000, 2, {63});  // 63 + 1 = 64 = src_buffer_size
  const RunSummary s = m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::OutOfRange);
}

TEST(PoolExec, GatherIsRefusedBecauseThePoolBufferLayoutIsNotPublic) {  // PROJ-CONV-G76
  Machine m = machine(kGt);
  const RunSummary s = m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::UnsupportedOpcode);
  EXPECT_NE(s.fault.detail.find("not public"), std::string::npos) << s.fault.detail;
}

}  // namespace
}  // namespace tpbisa

namespace tpbisa {
namespace {

TEST(Pool, TheFiveOpcodesArePlacedOnPoolOnly) {  // PROJ-CONV-G81
  for (const int v : {0x45, 0x68, 0x96, 0xE7, 0x7C, 0x7D}) {
    const auto op = static_cast<uint8_t>(v);
    EXPECT_EQ(placement_of(op).allowed, "POOL") << int{op};
    for (Engine e : kEngines) EXPECT_EQ(placement_of(op).has(e), e == Engine::Pool) << int{op};
  }
}

TEST(PoolExec, ADveStreamIsRefusedWithWrongEngineAndAPoolStreamRuns) {  // PROJ-CONV-G81
  for (EngineId e : {EngineId::Dve, EngineId::Pool}) {
    MachineOptions mo;
    mo.engine = e;
    mo.neff_mode = true;
    Machine m(kGen, std::vector<Word>{test::hex_word_of(kCr)}, mo);
    const RunSummary s = m.run(10);
    EXPECT_EQ(s.faulted, e == EngineId::Dve);
    if (s.faulted) {
      EXPECT_EQ(s.fault.kind, FaultKind::WrongEngine);
    }
  }
}

}  // namespace
}  // namespace tpbisa
