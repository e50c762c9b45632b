// The stt family (alu-ops.md §6): the spec's example words decoded, described, validated, assembled and run, with
// expected values worked out by hand from the spec's examples, and the DVE accumulator read from the engine state.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../../support/predicate_cases.hpp"
#include "../../support/test_util.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::stt_test {
namespace {

using test::bits;
using test::dec;
using test::flt;
using test::hex_word;
using test::kC;

// alu-ops.md §6.2-§6.5, the example words (CAYMAN).
constexpr std::string_view kStt =
    "9d10000000000000000000000000000001000000040001000001000001000000"
    "0400010006040000aa0a020a0000000000020000010000000400010000000040";
constexpr std::string_view kSttBitvec =
    "9e10000000000000000000000000000001000000040001000001000001000000"
    "040001000a0c00009909020900000000000200000100000004000100ff000000";
constexpr std::string_view kScan =
    "e510000000000000000000000000000001000000040001000001000001000000"
    "0400010006040000aa0a020a0000000000020000010000000400010000000000";
constexpr std::string_view kSelectReduce =
    "ea10000000000000000000000000000001000000040001000001000001000000"
    "0400010000080000a30a020a03000000000200000100000004000100000080bf";
constexpr std::string_view kSelect =
    "9810000000000000000000000000000000000000010000000000040001000100"
    "00020a0900000000000000000100000000010000010000000000040001000100";
constexpr std::string_view kSelectPtr =
    "9810000000000000000000000000000000000000010000000000040001000100"
    "00020a0900000001000000000003000000010000010000000000040001000100";

constexpr uint64_t kSttStride = 0x40000;  // CAYMAN SBUF partition stride

Word word_of(std::string_view hex) {
  return hex_word(hex.substr(0, 128));
}

/// A single-stream machine on DVE (or `engine`, then known to the run) running `w` once.
struct OneWord {
  explicit OneWord(const Word& w, std::optional<EngineId> engine = std::nullopt)
      : m(kC, std::vector<Word>{w}, options(engine)) {}
  static MachineOptions options(std::optional<EngineId> engine) {
    MachineOptions o;
    if (engine) {
      o.engine = *engine;
      o.validate.engine = *engine;  // the run knows the stream's engine (PROJ-CONV-K1)
    }
    return o;
  }
  void put(unsigned p, uint32_t off, unsigned size, uint64_t v) {
    m.mutable_state().memory.write(p * kSttStride + off, size, v);
  }
  void put_f32(unsigned p, uint32_t off, std::initializer_list<float> vs) {
    for (float v : vs) {
      put(p, off, 4, bits(v));
      off += 4;
    }
  }
  uint64_t get(unsigned p, uint32_t off, unsigned size) { return m.state().memory.read(p * kSttStride + off, size); }
  float get_f32(unsigned p, uint32_t off) { return flt(static_cast<uint32_t>(get(p, off, 4))); }
  uint32_t acc(unsigned c) { return m.state().dve[c].acc; }
  StepResult step() { return m.step(); }
  Machine m;
};

TEST(Stt, ExampleWordsDecodeToTheSpecFields) {
  const Instruction i = dec(word_of(kStt), kC);
  ASSERT_EQ(i.status, DecodeStatus::Modeled);
  const auto& t = std::get<S2s2d2Stt>(i.body);
  EXPECT_EQ(t.src0.start_addr.raw, 0U);
  EXPECT_EQ(t.src1.start_addr.raw, 0x100U);
  EXPECT_EQ(t.src0.num_elem, (std::array<uint16_t, 2>{4, 1}));
  EXPECT_EQ(t.op0, aluop::kMult);
  EXPECT_EQ(t.op1, aluop::kAdd);
  EXPECT_EQ(t.in0_in1_dtype, 0xAA);
  EXPECT_EQ(t.num_active_channels, 2);
  EXPECT_EQ(t.imm0_dtype, dtype::kFp32);
  EXPECT_EQ(t.dst.start_addr.raw, 0x200U);
  EXPECT_EQ(t.imm0.raw, 0x40000000U);
  const Instruction s = dec(word_of(kSelectPtr), kC);
  const auto& e = std::get<S3d3TsSelect>(s.body);
  EXPECT_EQ(e.num_active_channels, 2);
  EXPECT_EQ(e.dtype, dtype::kFp32);
  EXPECT_EQ(e.pred_imm_dtype, dtype::kUint32);
  EXPECT_EQ(e.pred_imm_src, 1);
  EXPECT_EQ(e.pred_imm.raw, 0x300U);
  EXPECT_EQ(e.dst.start_addr.raw, 0x100U);
  EXPECT_EQ(e.src0.num_elem, (std::array<uint16_t, 3>{4, 1, 1}));
}

std::string meaning_of(const Instruction& i, std::string_view name) {
  for (const DescribedField& f : describe_fields(i))
    if (f.name == name) return f.meaning;
  return "(no such field)";
}

TEST(Stt, DescriptionsReadTheFieldsByTheOpcode) {
  const Instruction sr = dec(word_of(kSelectReduce), kC);
  EXPECT_NE(meaning_of(sr, "in0_in1_dtype").find("the predicate"), std::string::npos);
  EXPECT_NE(meaning_of(sr, "accumulator_cmd").find("-Inf"), std::string::npos);
  EXPECT_NE(meaning_of(sr, "imm0").find("predicate-false"), std::string::npos);
  const Instruction scan = dec(word_of(kScan), kC);
  EXPECT_NE(meaning_of(scan, "imm0").find("initial value"), std::string::npos);
  const Instruction p = dec(word_of(kSelectPtr), kC);
  EXPECT_NE(meaning_of(p, "pred_imm").find("pointer"), std::string::npos);
}

TEST(Stt, EveryOpcodeRunsOnDveOnly) {  // PROJ-CONV-K1
  for (const uint8_t op : std::array<uint8_t, 5>{0x98, 0x9D, 0x9E, 0xE5, 0xEA})
    for (Engine e : kEngines) EXPECT_EQ(placement_of(op).has(e), e == Engine::Dve) << int{op} << " " << to_string(e);
}

TEST(Stt, ExampleWordsValidateOnEveryGeneration) {
  for (std::string_view hex : {kStt, kSttBitvec, kScan, kSelectReduce, kSelect, kSelectPtr})
    for (Generation g : kAllGenerations) {
      const Verdict v = validate(dec(word_of(hex), g), g);
      EXPECT_TRUE(v.valid) << hex << " on " << to_string(g);
    }
}

TEST(Stt, FailingPredicatesAreNamed) {
  Word w = word_of(kSelectReduce);
  w[37] = aluop::kMin;  // edge case #37: op1 MIN
  w[38] = 2;            // reverse SECOND
  const Verdict v = validate(dec(w, kC), kC);
  ASSERT_FALSE(v.valid);
  std::vector<std::string_view> names;
  for (const Predicate* p : v.failures()) names.push_back(p->name);
  EXPECT_EQ(names, (std::vector<std::string_view>{"has_valid_select_reduce_op", "has_valid_select_reduce_rev_ops"}));
}

TEST(Stt, DisassemblyAssemblesToTheSameWord) {
  for (std::string_view hex : {kStt, kSttBitvec, kScan, kSelectReduce, kSelect, kSelectPtr}) {
    const Word w = word_of(hex);
    const std::string text = disassemble(std::span<const uint8_t, kWordBytes>(w), kC);
    const AsmResult r = assemble(text, "stt", kC);
    ASSERT_TRUE(r.ok()) << text << "\n" << (r.errors.empty() ? "" : format_diagnostic(r.errors.front()));
    ASSERT_EQ(r.words.size(), 1U);
    EXPECT_EQ(r.words[0], w) << text;
  }
}

// ---- Execution: expected values from the spec's worked examples (alu-ops.md §6.2-§6.5) ----

TEST(SttExec, ScalarTensorTensorMultAdd) {
  OneWord r(word_of(kStt));
  r.put_f32(0, 0x0, {1, 2, 3, 4});
  r.put_f32(0, 0x100, {10, 20, 30, 40});
  r.put_f32(1, 0x0, {-1, 0.5F, 0, 8});
  r.put_f32(1, 0x100, {0, 0, 0, 1});
  ASSERT_EQ(r.step().status, StepResult::Status::Retired);
  const float want0[] = {12, 24, 36, 48}, want1[] = {-2, 1, 0, 17};  // (src0 * 2) + src1
  for (unsigned k = 0; k < 4; ++k) {
    EXPECT_EQ(r.get_f32(0, 0x200 + 4 * k), want0[k]);
    EXPECT_EQ(r.get_f32(1, 0x200 + 4 * k), want1[k]);
  }
  EXPECT_EQ(r.acc(0), 0U);  // IDLE: the accumulator is left unchanged
}

TEST(SttExec, ScalarTensorTensorReverseBoth) {
  Word w = word_of(kStt);
  w[36] = w[37] = aluop::kSubtract;
  w[38] = 3;
  store_le<uint32_t>(&w[60], bits(10.0F));
  OneWord r(w);
  for (unsigned p = 0; p < 2; ++p) {
    r.put_f32(p, 0x0, {1, 2, 3, 4});
    r.put_f32(p, 0x100, {100, 100, 100, 100});
  }
  ASSERT_EQ(r.step().status, StepResult::Status::Retired);
  for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(r.get_f32(1, 0x200 + 4 * k), 91.0F + static_cast<float>(k));
}

TEST(SttExec, ScalarTensorTensorAccumulatesTheResults) {
  Word w = word_of(kStt);
  w[44] = 3;  // ZERO_ACCUMULATE: ACC = 0, then += each result
  OneWord r(w);
  r.put_f32(0, 0x0, {1, 2, 3, 4});
  r.put_f32(0, 0x100, {10, 20, 30, 40});
  r.put_f32(1, 0x0, {0, 0, 0, 0});
  r.put_f32(1, 0x100, {1, 1, 1, 1});
  r.m.mutable_state().dve[0].acc = bits(1000.0F);
  r.m.mutable_state().dve[2].acc = bits(7.0F);  // channel 2 is not active
  ASSERT_EQ(r.step().status, StepResult::Status::Retired);
  EXPECT_EQ(flt(r.acc(0)), 120.0F);  // 12 + 24 + 36 + 48
  EXPECT_EQ(flt(r.acc(1)), 4.0F);
  EXPECT_EQ(flt(r.acc(2)), 7.0F);
  // ACCUMULATE continues from the current value.
  Word again = word_of(kStt);
  again[44] = 2;
  OneWord r2(again);
  r2.put_f32(0, 0x0, {1, 2, 3, 4});
  r2.put_f32(0, 0x100, {10, 20, 30, 40});
  r2.m.mutable_state().dve[0].acc = bits(120.0F);
  ASSERT_EQ(r2.step().status, StepResult::Status::Retired);
  EXPECT_EQ(flt(r2.acc(0)), 240.0F);
}

TEST(SttExec, ScalarTensorTensorBitvec) {
  OneWord r(word_of(kSttBitvec));
  const uint32_t src0[] = {0x1234, 0xABCD, 0xFF, 0x100};
  for (unsigned k = 0; k < 4; ++k) {
    r.put(0, 4 * k, 4, src0[k]);
    r.put(0, 0x100 + 4 * k, 4, 1);
    r.put(1, 4 * k, 4, 0);
    r.put(1, 0x100 + 4 * k, 4, 0);
  }
  ASSERT_EQ(r.step().status, StepResult::Status::Retired);
  const uint32_t want[] = {0x35, 0xCC, 0xFE, 0x01};  // (src0 & 0xFF) ^ 1
  for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(r.get(0, 0x200 + 4 * k, 4), want[k]);
}

TEST(SttExec, BitvecRightShiftsFollowTheElementWidth) {
  // 0x9E on INT16: ASR by the scalar 4 sign-fills from bit 15; LSR zero-fills (PROJ-CONV-K10).
  Word w = word_of(kSttBitvec);
  w[40] = 0x44;  // INT16 pair
  w[41] = w[43] = dtype::kInt16;
  w[36] = aluop::kArithShiftRight;
  w[37] = aluop::kBitwiseOr;
  store_le<uint32_t>(&w[60], 4);
  store_le<uint32_t>(&w[24], 0x80);  // src1 at 0x80 (INT16 x 4)
  store_le<uint32_t>(&w[48], 0x40);  // dst at 0x40
  OneWord r(w);
  r.put(0, 0, 2, 0x8000);
  r.put(0, 2, 2, 0x7FF0);
  r.put(0, 4, 2, 0xFFFF);
  r.put(0, 6, 2, 0x0010);
  for (unsigned k = 0; k < 4; ++k) r.put(0, 0x80 + 2 * k, 2, 0);
  ASSERT_EQ(r.step().status, StepResult::Status::Retired);
  EXPECT_EQ(r.get(0, 0x40, 2), 0xF800U);
  EXPECT_EQ(r.get(0, 0x42, 2), 0x07FFU);
  EXPECT_EQ(r.get(0, 0x44, 2), 0xFFFFU);
  EXPECT_EQ(r.get(0, 0x46, 2), 0x0001U);
}

TEST(SttExec, ScanIsTheRecurrenceSeededByImm0) {
  OneWord r(word_of(kScan));
  for (unsigned p = 0; p < 2; ++p) {
    r.put_f32(p, 0x0, {2, 2, 2, 2});
    r.put_f32(p, 0x100, {1, 1, 1, 1});
  }
  ASSERT_EQ(r.step().status, StepResult::Status::Retired);
  const float want[] = {1, 3, 7, 15};  // r = 2r + 1 from r = 0
  for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(r.get_f32(1, 0x200 + 4 * k), want[k]);
}

TEST(SttExec, ScanReverseFirstMakesTheStateTheLeftOperand) {
  Word w = word_of(kScan);
  w[36] = aluop::kSubtract;
  w[38] = 1;  // r = (r - src0) + src1
  store_le<uint32_t>(&w[60], bits(100.0F));
  OneWord r(w);
  r.put_f32(0, 0x0, {1, 2, 3, 4});
  r.put_f32(0, 0x100, {0, 0, 0, 10});
  ASSERT_EQ(r.step().status, StepResult::Status::Retired);
  const float want[] = {99, 97, 94, 100};
  for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(r.get_f32(0, 0x200 + 4 * k), want[k]);
}

TEST(SttExec, SelectReduceTakesOnFalseAndKeepsTheMaximum) {
  OneWord r(word_of(kSelectReduce));
  const uint8_t pred[] = {1, 0, 1, 0};
  for (unsigned k = 0; k < 4; ++k) {
    r.put(0, k, 1, pred[k]);
    r.put(1, k, 1, 0);
  }
  r.put_f32(0, 0x100, {5, 100, -3, 7});
  r.put_f32(1, 0x100, {5, 100, -3, 7});
  ASSERT_EQ(r.step().status, StepResult::Status::Retired);
  const float want[] = {5, -1, -3, -1};
  for (unsigned k = 0; k < 4; ++k) {
    EXPECT_EQ(r.get_f32(0, 0x200 + 4 * k), want[k]);
    EXPECT_EQ(r.get_f32(1, 0x200 + 4 * k), -1.0F);
  }
  EXPECT_EQ(flt(r.acc(0)), 5.0F);
  EXPECT_EQ(flt(r.acc(1)), -1.0F);  // every predicate zero: the maximum of on_false
}

TEST(SttExec, SelectReduceFirstInvertsThePredicate) {
  Word w = word_of(kSelectReduce);
  w[38] = 1;
  OneWord r(w);
  const uint8_t pred[] = {1, 0, 1, 0};
  for (unsigned k = 0; k < 4; ++k) r.put(0, k, 1, pred[k]);
  for (unsigned k = 0; k < 4; ++k) r.put(1, k, 1, 1);
  r.put_f32(0, 0x100, {5, 100, -3, 7});
  r.put_f32(1, 0x100, {5, 100, -3, 7});
  ASSERT_EQ(r.step().status, StepResult::Status::Retired);
  const float want[] = {-1, 100, -1, 7};
  for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(r.get_f32(0, 0x200 + 4 * k), want[k]);
  EXPECT_EQ(flt(r.acc(0)), 100.0F);
  EXPECT_EQ(flt(r.acc(1)), -1.0F);
}

TEST(SttExec, TensorScalarSelectInlineAndPointerPredicates) {
  {
    OneWord r(word_of(kSelect));  // inline predicate 1: a plain copy
    r.put_f32(0, 0x0, {1, 2, 3, 4});
    r.put_f32(1, 0x0, {5, 6, 7, 8});
    ASSERT_EQ(r.step().status, StepResult::Status::Retired);
    EXPECT_EQ(r.get_f32(0, 0x10C), 4.0F);
    EXPECT_EQ(r.get_f32(1, 0x100), 5.0F);
  }
  {
    OneWord r(word_of(kSelectPtr));  // predicate from 0x300: partition 0 holds 1, partition 1 holds 0
    r.put_f32(0, 0x0, {1, 2, 3, 4});
    r.put_f32(1, 0x0, {1, 2, 3, 4});
    r.put(0, 0x300, 4, 1);
    r.put(1, 0x300, 4, 0);
    ASSERT_EQ(r.step().status, StepResult::Status::Retired);
    for (unsigned k = 0; k < 4; ++k) {
      EXPECT_EQ(r.get_f32(0, 0x100 + 4 * k), 1.0F + static_cast<float>(k));
      EXPECT_EQ(r.get_f32(1, 0x100 + 4 * k), 0.0F);
    }
  }
  {
    Word w = word_of(kSelect);
    w[32] = 1;  // reversed: the true predicate takes src1_imm = -1.0
    store_le<uint32_t>(&w[40], bits(-1.0F));
    OneWord r(w);
    r.put_f32(0, 0x0, {1, 2, 3, 4});
    r.put_f32(1, 0x0, {1, 2, 3, 4});
    ASSERT_EQ(r.step().status, StepResult::Status::Retired);
    for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(r.get_f32(1, 0x100 + 4 * k), -1.0F);
  }
}

TEST(SttExec, PointerScalarsAreReadPerChannel) {
  Word w = word_of(kStt);
  w[39] = 1;  // imm0 from a pointer: a BF16 element per channel at 0x302
  w[43] = dtype::kBfloat16;
  store_le<uint32_t>(&w[60], 0x302);
  OneWord r(w);
  r.put(0, 0x302, 2, 0x4040);  // 3.0
  r.put(1, 0x302, 2, 0xC000);  // -2.0
  r.put_f32(0, 0x0, {1, 2, 3, 4});
  r.put_f32(0, 0x100, {0, 0, 0, 0});
  r.put_f32(1, 0x0, {1, 2, 3, 4});
  r.put_f32(1, 0x100, {1, 1, 1, 1});
  ASSERT_EQ(r.step().status, StepResult::Status::Retired);
  EXPECT_EQ(r.get_f32(0, 0x20C), 12.0F);
  EXPECT_EQ(r.get_f32(1, 0x20C), -7.0F);
}

TEST(SttExec, WrongEngineAndOutOfRangeChangeNothing) {
  {
    OneWord r(word_of(kStt), EngineId::Act);  // edge case #46: 0x9D on ACT
    const StepResult s = r.step();
    ASSERT_EQ(s.status, StepResult::Status::Faulted);
    EXPECT_EQ(s.fault.kind, FaultKind::WrongEngine);
  }
  {
    OneWord r(word_of(kStt), EngineId::Dve);
    EXPECT_EQ(r.step().status, StepResult::Status::Retired);
  }
  {
    Word w = word_of(kSelectReduce);
    w[44] = 3;
    store_le<uint32_t>(&w[48], 0x37FF8);  // dst element 2 of each channel past the 224 KiB active bytes
    OneWord r(w);
    r.m.mutable_state().dve[0].acc = bits(9.0F);
    const StepResult s = r.step();
    ASSERT_EQ(s.status, StepResult::Status::Faulted);
    EXPECT_EQ(s.fault.kind, FaultKind::OutOfRange);
    EXPECT_EQ(flt(r.acc(0)), 9.0F);  // the accumulator is not touched
  }
}

}  // namespace
}  // namespace tpbisa::stt_test
