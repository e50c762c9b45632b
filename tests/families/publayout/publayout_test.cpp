// Public-layout family: COPY_PREDICATED_SCALAR 0xE8, SB2SB_COLLECTIVE 0xBF, REG_STORE 0x4B and MAX_POOL_SELECT 0x58
// decoded field by field, validated with named failures, written and read back; 0xE8 and 0x58 run against hand
// values (copypredicatedscalar.md §7, avg-max-pool.md §7), 0xBF and 0x4B refused as not public.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
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

namespace tpbisa::publayout_tests {
namespace {

using test::dec;

Word hex_word(std::string_view text) {
  Word w{};
  HexError error;
  EXPECT_TRUE(parse_hex_word(text, w, error)) << text;
  return w;
}

/// pred SB p0+0x000 (4 x UINT32), reversed_pred 0, two channels, in = out = FP32, inline -inf, dst SB p0+0x100.
constexpr std::string_view kCps =
    "e8100000000000000000000000000000 00000000010000000000040001000100 0900020000000000000a0a00000080ff "
    "00010000010000000000040001000100";

std::vector<std::string_view> failing_names(const Verdict& v) {
  std::vector<std::string_view> names;
  for (unsigned k = 0; k < v.n_failed; ++k) names.push_back(v.validator->conjuncts[v.failed_index[k]]->name);
  return names;
}

TEST(CopyPredicatedScalar, DecodesValidatesAndRoundTripsOnEveryGeneration) {
  const Word w = hex_word(kCps);
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    const Instruction i = dec(w, g);
    ASSERT_EQ(i.status, DecodeStatus::Modeled);
    const auto& t = std::get<S3d3CpPredScalar>(i.body);
    EXPECT_EQ(t.pred.start_addr.raw, 0U);
    EXPECT_EQ(t.pred.num_elem[0], 4);
    EXPECT_EQ(t.pred_dtype, dtype::kUint32);
    EXPECT_EQ(t.reversed_pred, 0);
    EXPECT_EQ(t.num_active_channels, 2);
    EXPECT_EQ(t.in_dtype, dtype::kFp32);
    EXPECT_EQ(t.out_dtype, dtype::kFp32);
    EXPECT_EQ(t.src0_imm_src, 0);
    EXPECT_EQ(t.src0_imm.raw, 0xFF800000U);
    EXPECT_EQ(t.dst.start_addr.raw, 0x100U);
    const Verdict v = validate(i, g);
    EXPECT_TRUE(v.valid) << (v.valid ? "" : std::string(failing_names(v).front()));
    ASSERT_NE(v.validator, nullptr);
    EXPECT_EQ(v.validator->name, "is_valid_copy_predicated_scalar");
    const std::string text = disassemble(std::span<const uint8_t, kWordBytes>(w), g);
    EXPECT_TRUE(text.starts_with("CopyPredicatedScalar ")) << text;
    EXPECT_EQ(text.find("reversed_pred"), std::string::npos) << text;  // zero: left out
    const AsmResult r = assemble(text, "t.tasm", g);
    ASSERT_EQ(r.words.size(), 1U) << text;
    EXPECT_EQ(r.words[0], w);
  }
  // The pointer and register forms of the scalar, and the reversed polarity, round-trip too.
  for (const auto& [src, imm, rev] : {std::tuple{1, 0x300U, 1}, std::tuple{2, 5U, 0}}) {
    Word x = w;
    x[43] = static_cast<uint8_t>(src);
    store_le<uint32_t>(&x[44], imm);
    x[33] = static_cast<uint8_t>(rev);
    const std::string text = disassemble(std::span<const uint8_t, kWordBytes>(x), Generation::Cayman);
    const AsmResult r = assemble(text, "t.tasm", Generation::Cayman);
    ASSERT_EQ(r.words.size(), 1U) << text;
    EXPECT_EQ(r.words[0], x) << text;
  }
  bool seen = false;
  for (const DescribedField& f : describe_fields(dec(w, Generation::Cayman)))
    if (f.name == "reversed_pred") {
      seen = true;
      EXPECT_NE(f.meaning.find("a zero predicate element takes src0_imm"), std::string::npos) << f.meaning;
    }
  EXPECT_TRUE(seen);
}

TEST(CopyPredicatedScalar, ValidateNamesTheFailingPredicates) {
  Word w = hex_word(kCps);
  w[32] = dtype::kFp32;      // a float predicate
  w[41] = dtype::kBfloat16;  // a cast
  w[33] = 2;                 // neither polarity
  const Verdict v = validate(dec(w, Generation::Cayman), Generation::Cayman);
  ASSERT_FALSE(v.valid);
  EXPECT_EQ(failing_names(v), (std::vector<std::string_view>{"is_valid_int_dtype_datapath", "has_same_inout_dtype",
                                                             "has_valid_reversed_pred"}));
  Word c = hex_word(kCps);
  c[58] = 3;  // dst has 3 elements, pred 4: the count predicate is named per generation
  EXPECT_EQ(failing_names(validate(dec(c, Generation::Sunda), Generation::Sunda)),
            (std::vector<std::string_view>{"same_element_count_t3d"}));
  EXPECT_EQ(failing_names(validate(dec(c, Generation::Mariana), Generation::Mariana)),
            (std::vector<std::string_view>{"s3d3_cp_pred_scalar_src_dst_elements_same"}));
}

/// Runs `w` on CAYMAN with pred (UINT32) at p0/p1+0x000 and dst (FP32) at p0/p1+0x100 holding 1..4 and 5..8.
std::vector<uint32_t> run_cps(const Word& w, const std::vector<uint32_t>& pred, uint32_t scalar_p1 = 0) {
  Machine m(Generation::Cayman, std::vector<Word>{w});
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t k = 0; k < 4; ++k) {
      const uint32_t base = c * 0x40000;
      EXPECT_TRUE(m.mutable_state().memory.write(base + 4 * k, 4, pred[4 * c + k]));
      EXPECT_TRUE(m.mutable_state().memory.write(base + 0x100 + 4 * k, 4,
                                                 std::bit_cast<uint32_t>(static_cast<float>(4 * c + k + 1))));
    }
  EXPECT_TRUE(m.mutable_state().memory.write(0x300, 4, std::bit_cast<uint32_t>(-2.5F)));
  EXPECT_TRUE(m.mutable_state().memory.write(0x40000 + 0x300, 4, scalar_p1));
  const RunSummary s = m.run(10);
  EXPECT_FALSE(s.faulted) << s.fault.detail;
  std::vector<uint32_t> out;
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t k = 0; k < 4; ++k)
      out.push_back(static_cast<uint32_t>(m.state().memory.read(c * 0x40000 + 0x100 + 4 * k, 4)));
  return out;
}

uint32_t f(float x) {
  return std::bit_cast<uint32_t>(x);
}

TEST(CopyPredicatedScalarExec, DefaultPolarityFillsWhereThePredicateIsZero) {
  // Predicate {0, 7, 0, 1 | 0x100, 0, 0, 0xFFFFFFFF}: by default the zero elements take -inf, the others keep dst.
  const std::vector<uint32_t> pred = {0, 7, 0, 1, 0x100, 0, 0, 0xFFFFFFFFU};
  const uint32_t ninf = 0xFF800000U;
  EXPECT_EQ(run_cps(hex_word(kCps), pred), (std::vector<uint32_t>{ninf, f(2), ninf, f(4), f(5), ninf, ninf, f(8)}));
  Word rev = hex_word(kCps);
  rev[33] = 1;  // reversed: the non-zero elements take it
  EXPECT_EQ(run_cps(rev, pred), (std::vector<uint32_t>{f(1), ninf, f(3), ninf, ninf, f(6), f(7), ninf}));
}

TEST(CopyPredicatedScalarExec, APointerScalarIsReadPerChannel) {
  Word w = hex_word(kCps);
  w[43] = 1;  // POINTER: channel c reads partition c at 0x300
  store_le<uint32_t>(&w[44], 0x300);
  const std::vector<uint32_t> pred = {1, 0, 1, 1, 0, 0, 1, 1};
  EXPECT_EQ(run_cps(w, pred, f(9.0F)), (std::vector<uint32_t>{f(1), f(-2.5F), f(3), f(4), f(9), f(9), f(7), f(8)}));
}

TEST(CopyPredicatedScalarExec, ABf16ScalarIsTheLowHalfWrittenAsItIs) {
  // BF16 dst (0x100, 2-byte elements) and a UINT16 predicate at 0x000: the inline bits 0x1234c0de give 0xc0de.
  Word w = hex_word(kCps);
  w[32] = dtype::kUint16;
  w[41] = w[42] = dtype::kBfloat16;
  store_le<uint32_t>(&w[44], 0x1234C0DEU);
  w[34] = 1;
  Machine m(Generation::Cayman, std::vector<Word>{w});
  ASSERT_TRUE(m.mutable_state().memory.write(0x0, 8, 0x0000000500000000ULL));  // {0, 0, 5, 0}
  ASSERT_TRUE(m.mutable_state().memory.write(0x100, 8, 0x3F803F803F803F80ULL));
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  EXPECT_EQ(m.state().memory.read(0x100, 8), 0xC0DE3F80C0DEC0DEULL);
}

TEST(CopyPredicatedScalarExec, RunsOnDveOnlyAndAnOutOfRangeDestinationCommitsNothing) {
  MachineOptions mo;
  mo.engine = EngineId::Pool;  // the row's placement is DVE (copypredicatedscalar.md §5)
  mo.neff_mode = true;
  Machine pool(Generation::Cayman, std::vector<Word>{hex_word(kCps)}, mo);
  const RunSummary s = pool.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::WrongEngine);
  // dst four FP32 from 8 bytes before partition 0's end: the third leaves it; nothing is written.
  Word w = hex_word(kCps);
  w[34] = 1;
  store_le<uint32_t>(&w[48], 0x3FFF8);
  Machine m(Generation::Cayman, std::vector<Word>{w});
  const RunSummary r = m.run(10);
  ASSERT_TRUE(r.faulted);
  EXPECT_EQ(r.fault.kind, FaultKind::OutOfRange);
  EXPECT_EQ(m.state().memory.read(0x3FFF8, 4), 0U);
}

// ---- SB2SB_COLLECTIVE, REG_STORE, MAX_POOL_SELECT ----

/// 64 FP32 from SB p0+0x0 to SB p0+0x1000, LNC1, four channels.
constexpr std::string_view kColl =
    "bf1000000000000000000000 0a0a0000 00000000010000000000400001000100 00040000000000000000000000000000 "
    "00100000010000000000400001000100";
/// Eight UINT32 on four channels to SB p0+0x2000.
constexpr std::string_view kRs =
    "4b100000000000000000000000000000 00000000000000000000000008000000 09000400000000000000000000200000 "
    "01000000000000000800010001000100";
/// Three windows of four FP32 (pool_dim X) on two channels, UINT32 positions to SB p0+0x100.
constexpr std::string_view kMps =
    "58100000000000000000000000000000 01000400000000000400030001000100 0a090200000200000000803f00010000 "
    "01000000000000000300010001000100";

/// Decodes `w` as `Body` on every generation that has its opcode, checks it valid under `validator`, and its
/// disassembly starting with `mnemonic` reads back to the same word.
template <class Body>
void expect_modeled_and_round_trips(const Word& w, std::string_view validator, std::string_view mnemonic) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    const Instruction i = dec(w, g);
    if (!find_opcode(w[0])->gens.has(g)) {
      EXPECT_EQ(i.status, DecodeStatus::Unknown);
      continue;
    }
    ASSERT_EQ(i.status, DecodeStatus::Modeled);
    EXPECT_NE(std::get_if<Body>(&i.body), nullptr);
    const Verdict v = validate(i, g);
    EXPECT_TRUE(v.valid) << (v.valid ? "" : std::string(failing_names(v).front()));
    ASSERT_NE(v.validator, nullptr);
    EXPECT_EQ(v.validator->name, validator);
    const std::string text = disassemble(std::span<const uint8_t, kWordBytes>(w), g);
    EXPECT_TRUE(text.starts_with(mnemonic) && text.size() > mnemonic.size() && text[mnemonic.size()] == ' ') << text;
    const AsmResult r = assemble(text, "t.tasm", g);
    ASSERT_EQ(r.words.size(), 1U) << text;
    EXPECT_EQ(r.words[0], w) << text;
  }
}

TEST(Sb2sbCollective, DecodesValidatesAndRoundTripsOnCaymanAndLater) {
  const Word w = hex_word(kColl);
  expect_modeled_and_round_trips<S3d3Collective>(w, "is_valid_sb2sb_collective", "Sb2sbCollective");
  const Instruction decoded = dec(w, Generation::Cayman);  // the body is read from it: it must outlive `t`
  const auto& t = std::get<S3d3Collective>(decoded.body);
  EXPECT_EQ(t.in_dtype, dtype::kFp32);
  EXPECT_EQ(t.src.num_elem[0], 64);
  EXPECT_EQ(t.lnc_size_fmt, 0);
  EXPECT_EQ(t.num_active_channels, 4);
  EXPECT_EQ(t.dst.start_addr.raw, 0x1000U);
  EXPECT_NE(disassemble(std::span<const uint8_t, kWordBytes>(w), Generation::Cayman).find("lnc_size_fmt=LNC1"),
            std::string::npos);
  Word bad = w;
  bad[32] = 3;                 // LNC8
  bad[13] = dtype::kBfloat16;  // not a raw copy
  bad[28] = 5;                 // 320 source elements
  EXPECT_EQ(failing_names(validate(dec(bad, Generation::Mariana), Generation::Mariana)),
            (std::vector<std::string_view>{"has_valid_LncSizefmt", "size_check_src", "dtype_equality_check"}));
}

TEST(Sb2sbCollective, TheRunRefusesItAsNotPublic) {
  Machine m(Generation::Cayman, std::vector<Word>{hex_word(kColl)});
  const RunSummary s = m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::UnsupportedOpcode);
  EXPECT_NE(s.fault.detail.find("semantics are not public"), std::string::npos) << s.fault.detail;
}

TEST(RegStore, DecodesOnD4MrValidatesRoundTripsAndIsRefusedWhenRun) {
  const Word w = hex_word(kRs);
  expect_modeled_and_round_trips<D4Mr>(w, "is_valid_reg_store", "RegStore");
  Word bad = w;
  bad[36] = 1;                      // not Serial
  store_le<uint32_t>(&bad[28], 9);  // nine elements, dst has eight
  EXPECT_EQ(failing_names(validate(dec(bad, Generation::Sunda), Generation::Sunda)),
            (std::vector<std::string_view>{"d4_mr_zero_serialization", "d4_mr_dst_element_count"}));
  Machine m(Generation::Cayman, std::vector<Word>{w});
  const RunSummary s = m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::UnsupportedOpcode);
  EXPECT_NE(s.fault.detail.find("semantics are not public"), std::string::npos) << s.fault.detail;
}

TEST(MaxPoolSelect, DecodesOnS4d4PlValidatesAndRoundTrips) {
  const Word w = hex_word(kMps);
  expect_modeled_and_round_trips<S4d4Pl>(w, "is_valid_max_pool_select", "MaxPoolSelect");
  Word bad = w;
  bad[36] = 1;                                // MAX_POOL is POOL's
  bad[33] = dtype::kFp32;                     // a value, not a position
  store_le<uint32_t>(&bad[40], 0x3E800000U);  // 0.25
  EXPECT_EQ(failing_names(validate(dec(bad, Generation::Cayman), Generation::Cayman)),
            (std::vector<std::string_view>{"has_valid_pooltype", "s4d4_pl_dtype_check", "s4d4_pool_scale_valid"}));
}

TEST(MaxPoolSelectExec, WritesEachWindowsPositionOfItsMaximum) {
  // Channel 0: {1, 5, 2, 5 | -3, -1, -2, -8 | nan, 0, 7, 6}: positions 1 (the first of two 5s), 1, 2 (NaN never
  // chosen). Channel 1: {9, 9, 9, 9 | 0, 0, 0, 1 | nan, nan, nan, nan}: 0, 3, 0.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<std::vector<float>> src = {{1, 5, 2, 5, -3, -1, -2, -8, nan, 0, 7, 6},
                                               {9, 9, 9, 9, 0, 0, 0, 1, nan, nan, nan, nan}};
  Machine m(Generation::Cayman, std::vector<Word>{hex_word(kMps)});
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t k = 0; k < 12; ++k)
      ASSERT_TRUE(m.mutable_state().memory.write(c * 0x40000 + 4 * k, 4, std::bit_cast<uint32_t>(src[c][k])));
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  const std::vector<std::vector<uint64_t>> want = {{1, 1, 2}, {0, 3, 0}};
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t w = 0; w < 3; ++w) EXPECT_EQ(m.state().memory.read(c * 0x40000 + 0x100 + 4 * w, 4), want[c][w]);
  // On DVE the row's placement (POOL) refuses it.
  MachineOptions mo;
  mo.engine = EngineId::Dve;
  mo.neff_mode = true;
  Machine dve(Generation::Cayman, std::vector<Word>{hex_word(kMps)}, mo);
  const RunSummary r = dve.run(10);
  ASSERT_TRUE(r.faulted);
  EXPECT_EQ(r.fault.kind, FaultKind::WrongEngine);
}

}  // namespace
}  // namespace tpbisa::publayout_tests
