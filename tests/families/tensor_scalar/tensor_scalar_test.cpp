// Tensor-scalar family: the spec's synthetic words (alu-ops.md §5) decoded, described, round-tripped and executed
// against hand-computed results, the accumulator across words, and the execution faults of §8.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "../../support/machine_builders.hpp"
#include "../../support/test_util.hpp"
#include "families/family.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/unit_state.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

using test::bits;
using test::dec;
using test::peek;
using test::poke;
using Status = StepResult::Status;

Word hex(std::string_view text) {
  Word w{};
  HexError error;
  EXPECT_TRUE(parse_hex_word(text, w, error)) << text;
  return w;
}

// alu-ops.md §5.2 - §5.7, the synthetic example words.
constexpr std::string_view kTs43 =
    "43100000000000000000000000000000 00000000010000000000040001000100 0a0a020006040000000000400000803f "
    "00010000010000000000040001000100";
constexpr std::string_view kTs53 =
    "53100000000000000000000000000000 00000000010000000000040001000100 090902000a0b00000f00000000010000 "
    "00010000010000000000040001000100";
constexpr std::string_view kTs44 =
    "44100000000000000000000000000000 00000000010000000000040001000100 0a0a0200060400000002000004020000 "
    "00010000010000000000040001000100";
constexpr std::string_view kTs93 =
    "93100000000000000000000000000000 00000000010000000000200001000100 0a0a2000040000000000803f00000000 "
    "00010000010000000000200001000100";
constexpr std::string_view kTs9a =
    "9a100000000000000000000003000000 00000000010000000000040001000100 0a0a0200060400000000004000000000 "
    "00010000010000000000040001000100";
constexpr std::string_view kTse6 =
    "e6100000000000000000000003000000 00000000010000000000040001000100 0a0a0200000400000000000000000000 "
    "00010000010000000000040001000100";
constexpr std::string_view kTs30 =
    "30100000000000000000000003000000 00000000010000000000040001000100 0a0a0200000000000000803f00000000 "
    "00010000010000000000040001000100";
constexpr std::string_view kRd9b =
    "9b100000000000000000000000000000 00000000000000000000000001000000 0a000200000000000000000000030000 "
    "01000100000000000000000000000000";

constexpr Generation kM = Generation::Mariana;

uint64_t sb(Generation g, unsigned p, uint32_t off) {
  return *sbuf_address(g, p, off);
}
void put_f32(MachineState& s, Generation g, unsigned p, uint32_t off, const std::vector<float>& v) {
  for (size_t k = 0; k < v.size(); ++k) poke(s, sb(g, p, off + 4 * static_cast<uint32_t>(k)), 4, bits(v[k]));
}
std::vector<uint32_t> get_u32(const MachineState& s, Generation g, unsigned p, uint32_t off, unsigned n) {
  std::vector<uint32_t> out;
  for (unsigned k = 0; k < n; ++k) out.push_back(static_cast<uint32_t>(peek(s, sb(g, p, off + 4 * k), 4)));
  return out;
}
std::vector<uint32_t> f32_bits(const std::vector<float>& v) {
  std::vector<uint32_t> out;
  for (float f : v) out.push_back(bits(f));
  return out;
}

/// Runs `words` on `g` (recorded: the element path; unrecorded: the block path) after `init`; expects every step ok.
template <class Init>
MachineState run_words(Generation g, const std::vector<Word>& words, Init init, bool record,
                       std::optional<Engine> engine = std::nullopt) {
  MachineOptions o = record ? test::recording() : MachineOptions{};
  if (engine) o.engine = *engine;
  Machine m(g, words, o);
  init(m.mutable_state());
  for (size_t k = 0; k < words.size(); ++k) {
    const StepResult r = m.step();
    EXPECT_EQ(r.status, Status::Retired) << "word " << k << ": " << r.fault.detail;
  }
  return m.state();
}

// ---- Decode, describe, assembly round trip ----

TEST(TensorScalar, SyntheticWordsDecodeAndValidateEverywhereExceptExponential) {
  for (std::string_view w : {kTs43, kTs53, kTs44, kTs93, kTs9a, kTse6, kRd9b})
    for (Generation g : kAllGenerations) {
      const Instruction i = dec(hex(w), g);
      ASSERT_EQ(i.status, DecodeStatus::Modeled) << w;
      EXPECT_TRUE(validate(i, g).valid) << w << " on " << to_string(g);
    }
  const Instruction ts = dec(hex(kTs43), kM);
  const S3d3Ts& t = std::get<S3d3Ts>(ts.body);
  EXPECT_EQ(t.op0, aluop::kMult);
  EXPECT_EQ(t.op1, aluop::kAdd);
  EXPECT_EQ(t.imm0.raw, 0x40000000U);
  EXPECT_EQ(t.imm1.raw, 0x3F800000U);
  EXPECT_EQ(t.num_active_channels, 2);
  EXPECT_EQ(t.dst.start_addr.raw, 0x100U);
  const Instruction rd = dec(hex(kRd9b), kM);
  const D1Rd& r = std::get<D1Rd>(rd.body);
  EXPECT_EQ(r.dst_element_count, 1U);
  EXPECT_EQ(r.dst.start_addr.raw, 0x300U);
  EXPECT_EQ(r.dst.num_elem[0], 1);
  // #32: EXPONENTIAL fails only its generation gate on SUNDA and CAYMAN (PROJ-CONV-K19).
  for (Generation g : {Generation::Sunda, Generation::Cayman}) {
    const Verdict v = validate(dec(hex(kTs30), g), g);
    ASSERT_EQ(v.failures().size(), 1U);
    EXPECT_EQ(v.failures()[0]->name, "exponential_gen_check");
  }
  EXPECT_TRUE(validate(dec(hex(kTs30), kM), kM).valid);
}

TEST(TensorScalar, DecodeDescribesTheOpcodeDependentFields) {
  const auto field = [](std::string_view word, std::string_view name) {
    for (const DescribedField& f : describe_fields(dec(hex(word), kM)))
      if (f.name == name) return f.meaning;
    return std::string("(absent)");
  };
  EXPECT_EQ(field(kTs43, "reverse_operands"), "NONE: y = (x op0 s0) op1 s1");
  EXPECT_NE(field(kTs9a, "accumulator_cmd").find("ZERO_ACCUMULATE"), std::string::npos);
  EXPECT_NE(field(kTs9a, "op1").find("ACC[c] = op1(t, ACC[c])"), std::string::npos);
  EXPECT_NE(field(kTs44, "imm0").find("pointer"), std::string::npos);  // the PTR form reads pointers (K26)
  EXPECT_NE(field(kTs30, "imm0").find("max_value"), std::string::npos);
}

TEST(TensorScalar, EveryExampleWordRoundTripsThroughAssembly) {
  for (std::string_view w : {kTs43, kTs53, kTs44, kTs93, kTs9a, kTse6, kTs30, kRd9b}) {
    const Word word = hex(w);
    const std::string text = disassemble(dec(word, kM), kM);
    const AsmResult a = assemble(text, "roundtrip", kM);
    ASSERT_TRUE(a.ok()) << text;
    ASSERT_EQ(a.words.size(), 1U);
    EXPECT_EQ(a.words[0], word) << text;
  }
}

// ---- Execution: the spec's examples, on the element path (recorded) and the block path ----

class TensorScalarRun : public ::testing::TestWithParam<bool> {};
INSTANTIATE_TEST_SUITE_P(Paths, TensorScalarRun, ::testing::Values(true, false));

TEST_P(TensorScalarRun, MultThenAdd) {  // §5.2: [1, 2, -3, 0.5] -> [3, 5, -5, 2]
  const MachineState s = run_words(
      kM, {hex(kTs43)},
      [](MachineState& st) {
        put_f32(st, kM, 1, 0, {1, 2, -3, 0.5F});
      },
      GetParam());
  EXPECT_EQ(get_u32(s, kM, 1, 0x100, 4), f32_bits({3, 5, -5, 2}));
  EXPECT_EQ(get_u32(s, kM, 0, 0x100, 4), f32_bits({1, 1, 1, 1}));  // channel 0 read zeros: 0 * 2 + 1
}

TEST_P(TensorScalarRun, ReverseFlagsComposeLiterally) {  // §5.2 on [1, 2, 3, 4], SUBTRACT 10.0 (K23 c)
  auto word = [](uint8_t rev, uint8_t op1, uint32_t imm1) {
    Word w = hex(kTs43);
    w[36] = aluop::kSubtract;
    w[37] = op1;
    w[38] = rev;
    store_le<uint32_t>(&w[40], bits(10.0F));
    store_le<uint32_t>(&w[44], imm1);
    return w;
  };
  const auto init = [](MachineState& st) { put_f32(st, kM, 0, 0, {1, 2, 3, 4}); };
  EXPECT_EQ(get_u32(run_words(kM, {word(1, aluop::kBypass, bits(1.0F))}, init, GetParam()), kM, 0, 0x100, 4),
            f32_bits({9, 8, 7, 6}));
  EXPECT_EQ(get_u32(run_words(kM, {word(2, aluop::kBypass, bits(1.0F))}, init, GetParam()), kM, 0, 0x100, 4),
            f32_bits({1, 1, 1, 1}));
  EXPECT_EQ(get_u32(run_words(kM, {word(3, aluop::kSubtract, bits(100.0F))}, init, GetParam()), kM, 0, 0x100, 4),
            f32_bits({91, 92, 93, 94}));
}

TEST_P(TensorScalarRun, BitvecAndThenOr) {  // §5.2: UINT32 & 0x0F | 0x100
  const MachineState s = run_words(
      kM, {hex(kTs53)},
      [](MachineState& st) {
        const uint32_t v[] = {0x1234, 0xFF, 0, 0xFFFFFFFF};
        for (unsigned k = 0; k < 4; ++k) poke(st, sb(kM, 0, 4 * k), 4, v[k]);
      },
      GetParam());
  EXPECT_EQ(get_u32(s, kM, 0, 0x100, 4), (std::vector<uint32_t>{0x104, 0x10F, 0x100, 0x10F}));
}

TEST_P(TensorScalarRun, PointerScalarsPerPartition) {  // §5.3
  const MachineState s = run_words(
      kM, {hex(kTs44)},
      [](MachineState& st) {
        put_f32(st, kM, 0, 0, {1, 2, 3, 4});
        put_f32(st, kM, 1, 0, {1, 2, 3, 4});
        put_f32(st, kM, 0, 0x200, {2, 1});
        put_f32(st, kM, 1, 0x200, {3, -1});
      },
      GetParam());
  EXPECT_EQ(get_u32(s, kM, 0, 0x100, 4), f32_bits({3, 5, 7, 9}));
  EXPECT_EQ(get_u32(s, kM, 1, 0x100, 4), f32_bits({2, 5, 8, 11}));
}

TEST_P(TensorScalarRun, TransposeThenAdd) {  // §5.4: partition i = [32i + j] -> partition j = [32i + j + 1 ...]
  const MachineState s = run_words(
      kM, {hex(kTs93)},
      [](MachineState& st) {
        for (unsigned i = 0; i < 32; ++i)
          for (unsigned j = 0; j < 32; ++j) poke(st, sb(kM, i, 4 * j), 4, bits(static_cast<float>(32 * i + j)));
      },
      GetParam());
  EXPECT_EQ(get_u32(s, kM, 0, 0x100, 3), f32_bits({1, 33, 65}));
  EXPECT_EQ(get_u32(s, kM, 1, 0x100, 3), f32_bits({2, 34, 66}));
  EXPECT_EQ(get_u32(s, kM, 31, 0x100 + 4 * 31, 1), f32_bits({32 * 31 + 31 + 1}));
}

TEST_P(TensorScalarRun, CacheReduceAccumulatesAndReadAccumulatorReadsIt) {  // §5.5, §5.7, #60
  const auto init = [](MachineState& st) {
    put_f32(st, kM, 0, 0, {1, 2, 3, 4});
    put_f32(st, kM, 1, 0, {0.5F, 0.5F, 0.5F, 0.5F});
  };
  MachineState s = run_words(kM, {hex(kTs9a), hex(kRd9b)}, init, GetParam());
  EXPECT_EQ(get_u32(s, kM, 0, 0x100, 4), f32_bits({2, 4, 6, 8}));
  EXPECT_EQ(get_u32(s, kM, 1, 0x100, 4), f32_bits({1, 1, 1, 1}));
  EXPECT_EQ(s.dve[0].acc, bits(20.0F));
  EXPECT_EQ(s.dve[1].acc, bits(4.0F));
  EXPECT_EQ(get_u32(s, kM, 0, 0x300, 1), f32_bits({20}));
  EXPECT_EQ(get_u32(s, kM, 1, 0x300, 1), f32_bits({4}));
  // ACCUMULATE on [1, 1, 1, 1] both lanes: 20 + 8, 4 + 8; then LOAD_ACCUMULATE 100.0 inline: 100 + 8.
  Word acc = hex(kTs9a), load = hex(kTs9a);
  acc[12] = 2;
  load[12] = 4;
  store_le<uint32_t>(&load[44], bits(100.0F));
  const auto ones = [](MachineState& st) {
    put_f32(st, kM, 0, 0, {1, 2, 3, 4});
    put_f32(st, kM, 1, 0, {0.5F, 0.5F, 0.5F, 0.5F});
  };
  Machine m(kM, {hex(kTs9a), acc, load}, GetParam() ? test::recording() : MachineOptions{});
  ones(m.mutable_state());
  ASSERT_EQ(m.step().status, Status::Retired);
  put_f32(m.mutable_state(), kM, 0, 0, {1, 1, 1, 1});
  put_f32(m.mutable_state(), kM, 1, 0, {1, 1, 1, 1});
  ASSERT_EQ(m.step().status, Status::Retired);
  EXPECT_EQ(m.state().dve[0].acc, bits(28.0F));
  EXPECT_EQ(m.state().dve[1].acc, bits(12.0F));
  ASSERT_EQ(m.step().status, Status::Retired);
  EXPECT_EQ(m.state().dve[0].acc, bits(108.0F));
  EXPECT_EQ(m.state().dve[1].acc, bits(108.0F));
}

TEST_P(TensorScalarRun, CacheCumulativeWritesTheRunningValue) {  // §5.5: reg = op1(t, reg)
  const auto init = [](MachineState& st) { put_f32(st, kM, 0, 0, {1, 2, 3, 4}); };
  MachineState s = run_words(kM, {hex(kTse6)}, init, GetParam());
  EXPECT_EQ(get_u32(s, kM, 0, 0x100, 4), f32_bits({1, 3, 6, 10}));
  EXPECT_EQ(s.dve[0].acc, bits(10.0F));
  Word sub = hex(kTse6);
  sub[37] = aluop::kSubtract;
  s = run_words(kM, {sub}, init, GetParam());
  EXPECT_EQ(get_u32(s, kM, 0, 0x100, 4), f32_bits({1, 1, 2, 2}));
}

TEST_P(TensorScalarRun, ExponentialAndItsSum) {  // §5.6 (MARIANA): [1, 2, 0, -inf] - 1.0
  const auto init = [](MachineState& st) { put_f32(st, kM, 0, 0, {1, 2, 0, -std::numeric_limits<float>::infinity()}); };
  const MachineState s = run_words(kM, {hex(kTs30)}, init, GetParam());
  EXPECT_EQ(get_u32(s, kM, 0, 0x100, 4), (std::vector<uint32_t>{0x3F800000, 0x402DF854, 0x3EBC5AB2, 0}));
  EXPECT_EQ(s.dve[0].acc, 0x4082C1D5U);
  // #61: IDLE leaves the accumulator.
  Word idle = hex(kTs30);
  idle[12] = 0;
  Machine m(kM, {idle}, GetParam() ? test::recording() : MachineOptions{});
  m.mutable_state().dve[0].acc = bits(7.0F);
  ASSERT_EQ(m.step().status, Status::Retired);
  EXPECT_EQ(m.state().dve[0].acc, bits(7.0F));
}

TEST_P(TensorScalarRun, ReadAccumulatorNegatedInBf16) {  // §5.7: -20.0 in BF16 is 0xC1A0
  Word w = hex(kRd9b);
  w[32] = dtype::kBfloat16;
  w[33] = 1;
  const MachineState s = run_words(
      kM, {w}, [](MachineState& st) { st.dve[0].acc = bits(20.0F); }, GetParam());
  EXPECT_EQ(peek(s, sb(kM, 0, 0x300), 2), 0xC1A0U);
}

TEST_P(TensorScalarRun, MaverickIntegerPathWraps) {  // #53: INT32 ADD_INT 1 on MAVERICK
  constexpr Generation kV = Generation::Maverick;
  Word w = hex(kTs43);
  w[32] = w[33] = dtype::kInt32;
  w[36] = 0xC4;  // ADD_INT
  w[37] = aluop::kBypass;
  store_le<uint32_t>(&w[40], 1);
  store_le<uint32_t>(&w[44], 0);
  const MachineState s = run_words(
      kV, {w},
      [](MachineState& st) {
        const uint32_t v[] = {16777217, 0xFFFFFFFF, 0x7FFFFFFF, 5};
        for (unsigned k = 0; k < 4; ++k) poke(st, sb(kV, 0, 4 * k), 4, v[k]);
      },
      GetParam());
  EXPECT_EQ(get_u32(s, kV, 0, 0x100, 4), (std::vector<uint32_t>{16777218, 0, 0x80000000, 6}));
}

TEST_P(TensorScalarRun, BitvecShiftsUseCountMod32AndTheDtypeSignedness) {  // #54
  Word w = hex(kTs53);
  w[36] = aluop::kLogicalShiftLeft;
  w[37] = aluop::kArithShiftRight;
  store_le<uint32_t>(&w[40], 33);
  store_le<uint32_t>(&w[44], 4);
  const MachineState s = run_words(
      kM, {w}, [](MachineState& st) { poke(st, sb(kM, 0, 0), 4, 0x40000000); }, GetParam());
  EXPECT_EQ(get_u32(s, kM, 0, 0x100, 1)[0], 0x08000000U);  // (0x40000000 << 1) >> 4, zero-filled (UINT32)
}

TEST_P(TensorScalarRun, LongFp32RowsAgreeWithTheElementFormula) {  // the row kernel against alu_fp32
  Word w = hex(kTs43);
  store_le<uint16_t>(&w[26], 1000);
  store_le<uint16_t>(&w[58], 1000);
  store_le<uint32_t>(&w[48], 0x2000);
  w[38] = 3;  // BOTH: s1 + (s0 * x)
  std::mt19937 rng(7);
  std::vector<float> x(1000);
  for (float& f : x) f = std::uniform_real_distribution<float>(-1e3F, 1e3F)(rng);
  const MachineState s = run_words(
      kM, {w}, [&](MachineState& st) { put_f32(st, kM, 1, 0, x); }, GetParam());
  for (unsigned k = 0; k < 1000; k += 37)
    EXPECT_EQ(get_u32(s, kM, 1, 0x2000 + 4 * k, 1)[0], bits(1.0F + 2.0F * x[k])) << k;
}

// ---- Faults (alu-ops.md §2.9, §8 #42-#46) ----

/// One step of `w`; with `engine`, on that engine's stream with the engine known to the run (as a NEFF run knows it).
StepResult one_step(Generation g, const Word& w, std::optional<Engine> engine = std::nullopt) {
  MachineOptions o = test::recording();
  if (engine) o.engine = *engine;
  o.validate.engine = engine;
  Machine m(g, {w}, o);
  return m.step();
}

TEST(TensorScalar, FaultsChangeNothing) {
  constexpr Generation kCay = Generation::Cayman;
  Word w = hex(kTs43);
  store_le<uint32_t>(&w[16], 0x37FFC);  // #43: element 1 at 0x38000, past CAYMAN's 224 KiB
  StepResult r = one_step(kCay, w);
  ASSERT_EQ(r.status, Status::Faulted);
  EXPECT_EQ(r.fault.kind, FaultKind::OutOfRange);
  EXPECT_TRUE(test::no_effects(r));
  store_le<uint32_t>(&w[16], 0x80000040);  // #44: register 64
  EXPECT_EQ(one_step(kCay, w).fault.kind, FaultKind::IllegalRegister);
  store_le<uint32_t>(&w[16], 0x40000000);  // #45
  EXPECT_EQ(one_step(kCay, w).fault.kind, FaultKind::UnsupportedShapeRegister);
  store_le<uint32_t>(&w[16], 0x20000000);
  EXPECT_EQ(one_step(kM, w).fault.kind, FaultKind::UnsupportedAddressingMode);
}

TEST(TensorScalar, PlacementFollowsTheCatalog) {  // #46 (PROJ-CONV-K1)
  EXPECT_EQ(one_step(kM, hex(kTs9a), Engine::Pool).fault.kind, FaultKind::WrongEngine);
  EXPECT_EQ(one_step(kM, hex(kTs43), Engine::Pe).fault.kind, FaultKind::WrongEngine);
  EXPECT_EQ(one_step(kM, hex(kTs43), Engine::Act).status, Status::Retired);
  EXPECT_EQ(one_step(kM, hex(kTs53), Engine::Act).fault.kind, FaultKind::WrongEngine);
  EXPECT_EQ(one_step(kM, hex(kTs53), Engine::Pool).status, Status::Retired);
  EXPECT_EQ(one_step(kM, hex(kRd9b), Engine::Pool).fault.kind, FaultKind::WrongEngine);
}

TEST(TensorScalar, TheAccumulatorIsDeclaredUnitState) {  // --dump acc:N, run --json, Machine.flops["acc"]
  const UnitState* acc = find_unit_state("acc");
  ASSERT_NE(acc, nullptr);
  EXPECT_EQ(acc->instances, 128U);
  ASSERT_EQ(acc->arrays.size(), 1U);
  EXPECT_EQ(acc->arrays[0].name, "acc");
  EngineState s;
  s.dve[5].acc = bits(20.0F);
  EXPECT_EQ(acc->arrays[0].read(s, 5, 0), bits(20.0F));
  EXPECT_EQ(acc->text(s, 5), "  acc  0x41a00000  20\n");
  const StateValue v = acc->describe(s, 5);
  ASSERT_EQ(v.items.size(), 2U);
  EXPECT_EQ(v.items[0].key, "bits");
  EXPECT_EQ(v.items[0].value, 0x41A00000U);
}

TEST(TensorScalar, FootprintListsTheTensorsAndThePointerScalars) {
  const Instruction i = dec(hex(kTs44), kM);
  EXPECT_EQ(family::footprint(i, kM).count, 4U);  // src, dst, imm0, imm1
  EXPECT_EQ(family::footprint(dec(hex(kTs43), kM), kM).count, 2U);
}

}  // namespace
}  // namespace tpbisa
