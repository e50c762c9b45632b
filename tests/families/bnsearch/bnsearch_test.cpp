// Batch-norm statistics and search family: the worked words X14..X19 of act-index-ops.md §14.4 / §15.4 decoded,
// validated, written and read back, and run against the spec's hand values; the conventions A24..A28.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <sys/wait.h>

#include "../../support/test_util.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/unit_state.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

using test::dec;

constexpr std::string_view kX14 =
    "61100000000000000000000000100000 01000000000000000500010001000100 0a0a0100000000000000404000000040 "
    "00200000010000000600010000000000";
constexpr std::string_view kX15 =
    "62100000000000000000000000200000 01000000000000000600010001000100 0a0a0100000000000000000000000000 "
    "00300000010000000200010000000000";
constexpr std::string_view kX16 =
    "60100000000000000000000000100000 01000000000000000400010001000100 0a0a0100000000000000804000000000 "
    "00200000010000000300010000000000";
constexpr std::string_view kX17 =
    "6c100000000000000000000000100000 01000000000000000a00010001000100 0a0a0100000000000000000000000000 "
    "00200000010000000800010000000000";
constexpr std::string_view kMvl =
    "6d100000000000000000000000000000 1c200000ffff00000800010000000000 0a000100000000000000000000000000 "
    "00000000000000000000000000000000";
constexpr std::string_view kX18 =
    "6e100000000000000000000000100000 01000000000000000a00010001000100 0a090100000000000000000000000000 "
    "00300000010000000800010000000000";
constexpr std::string_view kX19 =
    "6f100000000000000000000000100000 01000000000000000a00010001000100 0a0a010000000000000080ff00400000 "
    "01000000000000000a00010001000100";

constexpr uint32_t kNegInf = 0xFF800000U;

uint32_t bits(float f) {
  return std::bit_cast<uint32_t>(f);
}

void put_fp32(MachineState& s, uint64_t at, const std::vector<float>& v) {
  for (size_t k = 0; k < v.size(); ++k) ASSERT_TRUE(s.memory.write(at + 4 * k, 4, bits(v[k])));
}
std::vector<uint32_t> get_u32(const Machine& m, uint64_t at, size_t n, unsigned size = 4) {
  std::vector<uint32_t> out;
  for (size_t k = 0; k < n; ++k) out.push_back(static_cast<uint32_t>(m.state().memory.read(at + size * k, size)));
  return out;
}
std::vector<uint32_t> fp32_bits(const std::vector<float>& v) {
  std::vector<uint32_t> out;
  for (float f : v) out.push_back(bits(f));
  return out;
}

/// Runs `hexes` as one DVE stream on CAYMAN over the 10-element source of §15.4 at SB 0x1000 (or `src`).
Machine run(std::vector<std::string_view> hexes, const std::vector<float>& src, MachineOptions mo = {},
            Generation g = Generation::Cayman) {
  std::vector<Word> words;
  for (std::string_view h : hexes) words.push_back(test::hex_word_of(h));
  Machine m(g, words, mo);
  put_fp32(m.mutable_state(), 0x1000, src);
  return m;
}

const std::vector<float> kSearchSource = {3, 9, -1, 7, 9, 0.5F, 2, 8, 6, 1};

// ---- Decode, validate, text ----

TEST(BnSearch, WorkedWordsDecodeToTheTabulatedFields) {
  const Instruction x14 = dec(test::hex_word_of(kX14), Generation::Cayman);
  ASSERT_EQ(x14.status, DecodeStatus::Modeled);
  const auto& s = std::get<S4d2Bn>(x14.body);
  EXPECT_EQ(s.src.start_addr.raw, 0x1000U);
  EXPECT_EQ(s.src.num_elem, (std::array<uint16_t, 4>{5, 1, 1, 1}));
  EXPECT_EQ(s.in_dtype, dtype::kFp32);
  EXPECT_EQ(s.num_active_channels, 1);
  EXPECT_EQ(s.even_count.as_fp32(), 3.0F);
  EXPECT_EQ(s.odd_count.as_fp32(), 2.0F);
  EXPECT_EQ(s.dst.start_addr.raw, 0x2000U);
  EXPECT_EQ(s.dst.num_elem, (std::array<uint16_t, 2>{6, 1}));
  const Instruction x19 = dec(test::hex_word_of(kX19), Generation::Cayman);
  const auto& r = std::get<S4d4Mr>(x19.body);
  EXPECT_EQ(r.immediate.raw, kNegInf);
  EXPECT_EQ(r.dst.start_addr.raw, 0x4000U);
  EXPECT_EQ(r.dst.num_elem, (std::array<uint16_t, 4>{10, 1, 1, 1}));
  // decode's meanings: the counts by opcode (the syntax's meaning hook).
  bool seen = false;
  for (const DescribedField& f : describe_fields(x14))
    if (f.name == "odd_count") {
      seen = true;
      EXPECT_NE(f.meaning.find("slot 3"), std::string::npos) << f.meaning;
    }
  EXPECT_TRUE(seen);
}

TEST(BnSearch, WorkedWordsAreValidOnEveryGenerationUnderTheirValidators) {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {kX14, "is_valid_batchnorm_stats2"}, {kX15, "is_valid_batchnorm_aggregate"},
      {kX16, "is_valid_batchnorm_stats"},  {kX17, "is_valid_max8"},
      {kX18, "is_valid_find_index8"},      {kX19, "is_valid_match_replace8"}};
  for (Generation g : kAllGenerations)
    for (const auto& [hex, name] : cases) {
      const Verdict v = validate(dec(test::hex_word_of(hex), g), g);
      EXPECT_TRUE(v.valid) << name << " on " << to_string(g);
      ASSERT_NE(v.validator, nullptr);
      EXPECT_EQ(v.validator->name, name);
      EXPECT_EQ(v.checked, Checked::Full);
    }
}

TEST(BnSearch, ValidateNamesTheFailingPredicates) {
  Word w = test::hex_word_of(kX17);
  w[24] = 7;     // 7 source elements: fewer than 8
  w[40] = 0x01;  // even_count not 0.0
  const Verdict v = validate(dec(w, Generation::Cayman), Generation::Cayman);
  ASSERT_FALSE(v.valid);
  std::vector<std::string_view> names;
  for (unsigned k = 0; k < v.n_failed; ++k) names.push_back(v.validator->conjuncts[v.failed_index[k]]->name);
  EXPECT_EQ(names, (std::vector<std::string_view>{"has_max8_src_element_cnt", "s4d2_bn_zero_counts"}));
}

TEST(BnSearch, DisassemblyAssemblesBackToTheSameWord) {
  for (std::string_view hex : {kX14, kX15, kX16, kX17, kX18, kX19}) {
    const Word w = test::hex_word_of(hex);
    const std::string text = disassemble(std::span<const uint8_t, kWordBytes>(w), Generation::Cayman);
    const AsmResult r = assemble(text, "t.tasm", Generation::Cayman);
    ASSERT_EQ(r.error_count, 0U) << text << ": " << (r.errors.empty() ? "" : r.errors[0].message);
    ASSERT_EQ(r.words.size(), 1U);
    EXPECT_EQ(r.words[0], w) << text;
  }
  // The counts are operands only where the opcode reads them.
  const std::string max8 =
      disassemble(std::span<const uint8_t, kWordBytes>(test::hex_word_of(kX17)), Generation::Cayman);
  EXPECT_EQ(max8.find("even_count"), std::string::npos) << max8;
  const std::string stats2 =
      disassemble(std::span<const uint8_t, kWordBytes>(test::hex_word_of(kX14)), Generation::Cayman);
  EXPECT_NE(stats2.find("even_count=3.0"), std::string::npos) << stats2;
  EXPECT_NE(stats2.find("odd_count=2.0"), std::string::npos) << stats2;
}

// ---- TRANSPOSE_BATCH_NORM_STATS2 0x82 (PROJ-CONV-A31) ----

/// X14's operands as 0x82 on 32 channels and 32 source elements.
constexpr std::string_view kXT =
    "82100000000000000000000000100000 01000000000000002000010001000100 0a0a2000000000000000404000000040 "
    "00200000010000000600010000000000";

TEST(BnSearch, TransposeStats2DecodesValidatesAndRoundTripsButIsNotRun) {
  const Word w = test::hex_word_of(kXT);
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    const Instruction i = dec(w, g);
    ASSERT_EQ(i.status, DecodeStatus::Modeled);
    const auto& s = std::get<S4d2Bn>(i.body);
    EXPECT_EQ(s.num_active_channels, 32);
    EXPECT_EQ(s.src.num_elem, (std::array<uint16_t, 4>{32, 1, 1, 1}));
    EXPECT_EQ(s.odd_count.as_fp32(), 2.0F);
    const Verdict v = validate(i, g);
    EXPECT_TRUE(v.valid);
    ASSERT_NE(v.validator, nullptr);
    EXPECT_EQ(v.validator->name, "is_valid_transpose_batchnorm_stats2");
    const std::string text = disassemble(std::span<const uint8_t, kWordBytes>(w), g);
    EXPECT_TRUE(text.starts_with("TransposeBatchNormStats2 ")) << text;
    EXPECT_NE(text.find("odd_count=2.0"), std::string::npos) << text;  // both counts are its operands
    const AsmResult r = assemble(text, "t.tasm", g);
    ASSERT_EQ(r.words.size(), 1U) << text;
    EXPECT_EQ(r.words[0], w);
  }
  // STATS2 on 16 channels and 48 elements is valid; transposed, both counts fail their multiple of 32.
  Word bad = w;
  bad[34] = 16;
  bad[24] = 48;
  const Verdict v = validate(dec(bad, Generation::Cayman), Generation::Cayman);
  std::vector<std::string_view> names;
  for (unsigned k = 0; k < v.n_failed; ++k) names.push_back(v.validator->conjuncts[v.failed_index[k]]->name);
  EXPECT_EQ(names, (std::vector<std::string_view>{"transpose_bnstats2_channels_multiple_of_32",
                                                  "transpose_bnstats2_src_element_cnt_multiple_of_32"}));
  bad[0] = 0x61;
  EXPECT_TRUE(validate(dec(bad, Generation::Cayman), Generation::Cayman).valid);
  // The run refuses it and writes nothing: which element feeds which statistics is not public.
  Machine m(Generation::Cayman, std::vector<Word>{w});
  const RunSummary run = m.run(10);
  ASSERT_TRUE(run.faulted);
  EXPECT_EQ(run.fault.kind, FaultKind::UnsupportedOpcode);
  EXPECT_NE(run.fault.detail.find("not public"), std::string::npos) << run.fault.detail;
  EXPECT_EQ(m.state().memory.read(0x2000, 4), 0U);
}

// ---- Execution: the spec's hand values ----

TEST(BnSearchExec, Stats2WritesCountsMeansAndNvarOfTheEvenAndOddHalves) {  // X14
  Machine m = run({kX14}, {1, 2, 3, 4, 5});
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  EXPECT_EQ(get_u32(m, 0x2000, 6), fp32_bits({3, 3, 8, 2, 3, 2}));
}

TEST(BnSearchExec, AggregateCombinesX14sTuplesIntoMeanAndPopulationVariance) {  // X14 then X15
  Machine m = run({kX14, kX15}, {1, 2, 3, 4, 5});
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  EXPECT_EQ(get_u32(m, 0x3000, 2), fp32_bits({3, 2}));  // mean and variance of 1..5
}

TEST(BnSearchExec, StatsWritesTheCountMeanAndNvarOfAllElements) {  // X16
  Machine m = run({kX16}, {1, 2, 3, 4});
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  EXPECT_EQ(get_u32(m, 0x2000, 3), fp32_bits({4, 2.5F, 5}));
}

TEST(BnSearchExec, AggregateOfNoCountIsNaN) {  // PROJ-CONV-A25: N = 0 gives 0/0
  Machine m = run({kX15}, {});
  put_fp32(m.mutable_state(), 0x2000, {0, 5, 0, 0, 7, 0});
  ASSERT_FALSE(m.run(10).faulted);
  const std::vector<uint32_t> out = get_u32(m, 0x3000, 2);
  EXPECT_TRUE(std::isnan(std::bit_cast<float>(out[0])));
  EXPECT_TRUE(std::isnan(std::bit_cast<float>(out[1])));
}

TEST(BnSearchExec, Max8WritesTheEightLargestLargestFirst) {  // X17
  Machine m = run({kX17}, kSearchSource);
  ASSERT_FALSE(m.run(10).faulted);
  EXPECT_EQ(get_u32(m, 0x2000, 8), fp32_bits({9, 9, 8, 7, 6, 3, 2, 1}));
}

TEST(BnSearchExec, Max8IgnoresNaNAndPadsWithNegativeInfinity) {  // PROJ-CONV-A27
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Machine m = run({kX17}, {nan, 4, -0.0F, nan, 0.0F, nan, 1, nan, nan, 4});
  ASSERT_FALSE(m.run(10).faulted);
  // 4, 4, 1, -0 then +0 (equal: source order), then -Inf padding for the missing three.
  EXPECT_EQ(get_u32(m, 0x2000, 8),
            (std::vector<uint32_t>{bits(4), bits(4), bits(1), 0x80000000U, 0U, kNegInf, kNegInf, kNegInf}));
}

TEST(BnSearchExec, FindIndex8GivesTheFirstPositionOfEachKeyAndRecordsMI) {  // X17, MatchValueLoad, X18
  Machine m = run({kX17, kMvl, kX18}, kSearchSource);
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  const std::vector<uint32_t> expected = {1, 4, 7, 3, 8, 0, 6, 9};
  EXPECT_EQ(get_u32(m, 0x3000, 8), expected);
  for (unsigned k = 0; k < 8; ++k) EXPECT_EQ(m.state().dve[0].match_index[k], expected[k]) << k;
}

TEST(BnSearchExec, FindIndex8MatchFlagsAreResetPerInstruction) {  // PROJ-CONV-A28: keys persist, flags do not
  Machine m = run({kX17, kMvl, kX18, kX18}, kSearchSource);
  ASSERT_FALSE(m.run(10).faulted);
  EXPECT_EQ(get_u32(m, 0x3000, 8), (std::vector<uint32_t>{1, 4, 7, 3, 8, 0, 6, 9}));
}

TEST(BnSearchExec, FindIndex8MissIsAllOnesOfTheOutputType) {
  Word w = test::hex_word_of(kX18);
  w[33] = dtype::kUint16;
  Machine m(Generation::Cayman, std::vector<Word>{test::hex_word_of(kX17), test::hex_word_of(kMvl), w});
  put_fp32(m.mutable_state(), 0x1000, kSearchSource);
  // A key no element equals: MV[7] = 1 (the 8th largest) is replaced by 100 in the source after MAX8 ran.
  ASSERT_FALSE(m.run(2).faulted);
  put_fp32(m.mutable_state(), 0x1000 + 4 * 9, {100});
  ASSERT_FALSE(m.run(10).faulted);
  EXPECT_EQ(get_u32(m, 0x3000, 8, 2), (std::vector<uint32_t>{1, 4, 7, 3, 8, 0, 6, 0xFFFF}));
  EXPECT_EQ(m.state().dve[0].match_index[7], 0xFFFFFFFFU);
}

TEST(BnSearchExec, MatchReplace8ReplacesEveryMatchedElement) {  // X17, MatchValueLoad, X19
  Machine m = run({kX17, kMvl, kX19}, kSearchSource);
  ASSERT_FALSE(m.run(10).faulted);
  EXPECT_EQ(get_u32(m, 0x4000, 10), (std::vector<uint32_t>{kNegInf, kNegInf, bits(-1), kNegInf, kNegInf, bits(0.5F),
                                                           kNegInf, kNegInf, kNegInf, kNegInf}));
  const std::vector<uint32_t> mi = {1, 4, 7, 3, 8, 0, 6, 9};
  for (unsigned k = 0; k < 8; ++k) EXPECT_EQ(m.state().dve[0].match_index[k], mi[k]) << k;
}

TEST(BnSearchExec, MatchIndexIsDeclaredUnitState) {
  const UnitState* u = find_unit_state("match");
  ASSERT_NE(u, nullptr);
  ASSERT_EQ(u->arrays.size(), 1U);
  EXPECT_EQ(u->arrays[0].name, "match_index");
  Machine m = run({kX17, kMvl, kX18}, kSearchSource);
  EXPECT_EQ(u->arrays[0].read(m.state(), 0, 0), 0xFFFFFFFFU);  // reset: all ones
  ASSERT_FALSE(m.run(10).faulted);
  EXPECT_EQ(u->arrays[0].read(m.state(), 0, 2), 7U);
  EXPECT_NE(u->text(m.state(), 0).find("match_index[2]  0x00000007  7"), std::string::npos) << u->text(m.state(), 0);
}

TEST(BnSearchExec, PeStreamIsRefusedWithWrongEngine) {  // PROJ-CONV-A17
  MachineOptions mo;
  mo.engine = EngineId::Pe;
  mo.neff_mode = true;
  Machine m = run({kX17}, kSearchSource, mo);
  const RunSummary s = m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::WrongEngine);
  EXPECT_EQ(m.state().memory.read(0x2000, 4), 0U);
}

TEST(BnSearchExec, AnOutOfRangeDestinationCommitsNothing) {
  Word w = test::hex_word_of(kX19);
  store_le<uint32_t>(&w[44], 0x3FFF0);  // 10 fp32 elements from 16 bytes before partition 0's end
  Machine m(Generation::Cayman, std::vector<Word>{test::hex_word_of(kX17), test::hex_word_of(kMvl), w});
  put_fp32(m.mutable_state(), 0x1000, kSearchSource);
  ASSERT_FALSE(m.run(2).faulted);
  const RunSummary s = m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::OutOfRange);
  EXPECT_EQ(m.state().dve[0].match_index[0], 0xFFFFFFFFU);  // MI unchanged
  EXPECT_EQ(m.state().memory.read(0x3FFF0, 4), 0U);
}

// ---- End to end: `tpbisa run` against an independent NumPy model ----

TEST(BnSearchEndToEnd, TpbisaRunEqualsTheNumPyModelBitForBit) {
  // The command line next to this test binary (build/tests/tpbisa_tests -> build/tpbisa) and a Python with NumPy.
  namespace fs = std::filesystem;
  const fs::path cli = fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "tpbisa";
  if (!fs::exists(cli)) GTEST_SKIP() << cli << " is not built";
  const std::string script = TPBISA_SOURCE_DIR "/tests/families/bnsearch/e2e_run.py";
  for (const char* python : {"/usr/bin/python3", "python3"}) {
    const int rc = std::system(fmt::format("{} {} {} > /dev/null", python, script, cli.string()).c_str());
    if (WIFEXITED(rc) && WEXITSTATUS(rc) == 77) continue;  // no NumPy in this Python
    ASSERT_TRUE(WIFEXITED(rc));
    EXPECT_EQ(WEXITSTATUS(rc), 0) << "run " << python << " " << script << " " << cli << " to see the differences";
    return;
  }
  GTEST_SKIP() << "no Python with NumPy";
}

}  // namespace
}  // namespace tpbisa
