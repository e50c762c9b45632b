// Predicated family: TENSOR_TENSOR_BITVEC_OP, COPY_PREDICATED and CAST_PREDICATED run on the simulator (alu-ops.md
// §4.2, §4.3, edge cases #47, #57), expected values worked by hand from the spec's examples.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>

#include "../../support/machine_builders.hpp"
#include "../../support/predicate_cases.hpp"
#include "../../support/test_util.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::predicated_exec {
namespace {

using test::f32;
using test::hex_word;
using test::peek;
using test::poke;

// alu-ops.md §4.2 and §4.3, as the spec prints them (the CAST_PREDICATED word shares COPY_PREDICATED's tail).
constexpr std::string_view kBitvecWord =
    "51100000000000000000000099090a0200000000010000000000040001000100"
    "0001000001000000000004000100010000020000010000000000040001000100";
constexpr std::string_view kCopyWord =
    "721000000000000000000000a30a000200000000010000000000040001000100"
    "0001000001000000000004000100010000020000010000000000040001000100";
constexpr std::string_view kCastWord =
    "991000000000000000000000a306000200000000010000000000040001000100"
    "0001000001000000000004000100010000020000010000000000040001000100";

/// Runs `w` after `setup` pokes channel memory; every channel-0 expectation is the caller's.
template <class Setup>
Machine run_word(Generation g, const Word& w, Setup setup, bool record = false) {
  MachineOptions o;
  o.record_effects = record;
  Machine m(g, {w}, o);
  setup(m.mutable_state());
  const RunSummary r = m.run(10);
  EXPECT_FALSE(r.faulted) << r.fault.detail;
  return m;
}

void put(MachineState& s, uint64_t at, unsigned size, std::initializer_list<uint64_t> values) {
  for (uint64_t v : values) {
    poke(s, at, size, v);
    at += size;
  }
}

TEST(Predicated, SpecWordsValidateOnEveryGeneration) {
  for (Generation g : kAllGenerations)
    for (std::string_view w : {kBitvecWord, kCopyWord, kCastWord}) {
      const Verdict v = validate(test::dec(hex_word(w), g), g);
      EXPECT_TRUE(v.valid) << w << " on " << to_string(g);
    }
  const Generation g = Generation::Cayman;
  EXPECT_EQ(validate(test::dec(hex_word(kBitvecWord), g), g).validator->name, "is_valid_tensor_tensor");
  EXPECT_EQ(validate(test::dec(hex_word(kCastWord), g), g).validator->name, "is_valid_copy_cast_predicated");
  // Edge case #18: src1 in partition 1 breaks the quadrant-base pairing.
  Word moved = hex_word(kBitvecWord);
  moved[34] = 0x04;  // src1 0x100 -> 0x40100
  const Verdict v = validate(test::dec(moved, g), g);
  ASSERT_FALSE(v.valid);
  ASSERT_EQ(v.failures().size(), 1U);
  EXPECT_EQ(v.failures()[0]->name, "tt_valid_partitions");
}

TEST(Predicated, DecodeNamesThePredicateAndTheData) {
  const Instruction i = test::dec(hex_word(kCopyWord), Generation::Cayman);
  bool seen = false;
  for (const DescribedField& f : describe_fields(i))
    if (f.name == "in0_in1_dtype") {
      EXPECT_NE(f.meaning.find("predicate UINT8"), std::string::npos) << f.meaning;
      EXPECT_NE(f.meaning.find("data FP32"), std::string::npos) << f.meaning;
      seen = true;
    }
  EXPECT_TRUE(seen);
}

TEST(Predicated, BitwiseAndOfTheSpecExample) {
  for (bool record : {false, true})
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(to_string(g));
      const Machine m = run_word(
          g, hex_word(kBitvecWord),
          [&](MachineState& s) {
            for (unsigned c = 0; c < 2; ++c) {
              put(s, test::sbuf(g, c, 0x0), 4, {0xFF00FF00, 0x12345678, 0xFFFFFFFF, 0});
              put(s, test::sbuf(g, c, 0x100), 4, {0x0FF00FF0, 0xF0F0F0F0, 0x80000001, 0xFFFFFFFF});
            }
          },
          record);
      for (unsigned c = 0; c < 2; ++c) {
        EXPECT_EQ(peek(m.state(), test::sbuf(g, c, 0x200), 4), 0x0F000F00U);
        EXPECT_EQ(peek(m.state(), test::sbuf(g, c, 0x204), 4), 0x10305070U);
        EXPECT_EQ(peek(m.state(), test::sbuf(g, c, 0x208), 4), 0x80000001U);
        EXPECT_EQ(peek(m.state(), test::sbuf(g, c, 0x20C), 4), 0U);
      }
    }
}

/// K10: right shifts follow src0's signedness (ASR sign-fills INT16 only; LSR zero-fills from the element width),
/// counts are taken & 31, and the 64-bit form shifts a UINT64 by a UINT32 count & 63.
TEST(Predicated, ShiftsOnTheBitVectorPath) {
  const Generation g = Generation::Cayman;
  struct Case {
    uint8_t pair, out, op;
    unsigned size;
    uint64_t a, b, want;
  };
  const Case cases[] = {
      {0x44, dtype::kInt16, aluop::kArithShiftRight, 2, 0x8000, 4, 0xF800},
      {0x44, dtype::kInt16, aluop::kLogicalShiftRight, 2, 0x8000, 4, 0x0800},
      {0x55, dtype::kUint16, aluop::kArithShiftRight, 2, 0x8000, 4, 0x0800},
      {0x33, dtype::kUint8, aluop::kLogicalShiftLeft, 1, 0xFF, 4, 0xF0},
      {0x99, dtype::kUint32, aluop::kLogicalShiftLeft, 4, 1, 33, 2},  // 33 & 31 = 1
      {0x99, dtype::kUint32, aluop::kBitwiseNot, 4, 0x0F0F0F0F, 0, 0xF0F0F0F0},
      {0x88, dtype::kInt32, aluop::kBitwiseXor, 4, 0xFFFF0000, 0x0FF00FF0, 0xF00F0FF0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.op) + " on pair " + std::to_string(c.pair));
    Word w = hex_word(kBitvecWord);
    w[12] = c.pair;
    w[13] = c.out;
    w[14] = c.op;
    w[15] = 1;
    ASSERT_TRUE(test::valid_on(w, g));
    const Machine m = run_word(g, w, [&](MachineState& s) {
      for (unsigned k = 0; k < 4; ++k) {
        poke(s, test::sbuf(g, 0, c.size * k), c.size, c.a);
        poke(s, test::sbuf(g, 0, 0x100 + c.size * k), c.size, c.b);
      }
    });
    for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x200 + c.size * k), c.size), c.want);
  }
  // UINT64 << UINT32 (edge case #17's form): counts 1, 65 (& 63 = 1), 63, 0.
  Word w = hex_word(kBitvecWord);
  w[12] = 0x91;
  w[13] = dtype::kUint64;
  w[14] = aluop::kLogicalShiftLeft;
  w[15] = 1;
  ASSERT_TRUE(test::valid_on(w, g));
  const Machine m = run_word(g, w, [&](MachineState& s) {
    put(s, test::sbuf(g, 0, 0x0), 8, {0x8000000000000001ULL, 0x8000000000000001ULL, 1, 0x1234});
    put(s, test::sbuf(g, 0, 0x100), 4, {1, 65, 63, 0});
  });
  EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x200), 8), 2U);
  EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x208), 8), 2U);
  EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x210), 8), 0x8000000000000000ULL);
  EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x218), 8), 0x1234U);
}

TEST(Predicated, CopyPredicatedMergesUnderThePredicate) {
  for (bool record : {false, true})
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(to_string(g));
      const Machine m = run_word(
          g, hex_word(kCopyWord),
          [&](MachineState& s) {
            for (unsigned c = 0; c < 2; ++c) {
              put(s, test::sbuf(g, c, 0x0), 1, {1, 0, 255, 0});
              put(s, test::sbuf(g, c, 0x100), 4, {f32(1.5F), f32(2.5F), f32(3.5F), f32(4.5F)});
              put(s, test::sbuf(g, c, 0x200), 4, {f32(9.0F), f32(9.0F), f32(9.0F), f32(9.0F)});
            }
          },
          record);
      for (unsigned c = 0; c < 2; ++c) {
        EXPECT_EQ(peek(m.state(), test::sbuf(g, c, 0x200), 4), f32(1.5F));
        EXPECT_EQ(peek(m.state(), test::sbuf(g, c, 0x204), 4), f32(9.0F));
        EXPECT_EQ(peek(m.state(), test::sbuf(g, c, 0x208), 4), f32(3.5F));
        EXPECT_EQ(peek(m.state(), test::sbuf(g, c, 0x20C), 4), f32(9.0F));
      }
    }
}

TEST(Predicated, CastPredicatedRoundsToBf16AndLeavesFalseLanes) {
  const Generation g = Generation::Mariana;
  const Machine m = run_word(g, hex_word(kCastWord), [&](MachineState& s) {
    put(s, test::sbuf(g, 0, 0x0), 1, {1, 1, 0, 1});
    put(s, test::sbuf(g, 0, 0x100), 4, {f32(1.0F), f32(1.00390625F), f32(7.0F), 0x7F61B1E6});  // the last is 3.0e38
    put(s, test::sbuf(g, 0, 0x200), 2, {0xAAAA, 0xAAAA, 0xAAAA, 0xAAAA});
    put(s, test::sbuf(g, 1, 0x0), 1, {0, 0, 0, 0});
    put(s, test::sbuf(g, 1, 0x200), 2, {0xAAAA, 0xAAAA, 0xAAAA, 0xAAAA});
  });
  EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x200), 2), 0x3F80U);
  EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x202), 2), 0x3F80U);  // 1.00390625 ties to even
  EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x204), 2), 0xAAAAU);
  EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x206), 2), 0x7F62U);
  for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(peek(m.state(), test::sbuf(g, 1, 0x200 + 2 * k), 2), 0xAAAAU);
}

TEST(Predicated, Edge57CastPredicatedSaturatesIntegers) {  // K25, N13: INT32 -> UINT8 exactly, then saturated
  const Generation g = Generation::Cayman;
  Word w = hex_word(kCastWord);
  w[12] = 0x83;  // predicate UINT8, data INT32
  w[13] = dtype::kUint8;
  w[15] = 1;
  ASSERT_TRUE(test::valid_on(w, g));
  const Machine m = run_word(g, w, [&](MachineState& s) {
    put(s, test::sbuf(g, 0, 0x0), 1, {1, 1, 1, 0});
    put(s, test::sbuf(g, 0, 0x100), 4, {300, 0xFFFFFFFBU, 7, 9});
    put(s, test::sbuf(g, 0, 0x200), 1, {0x55, 0x55, 0x55, 0x55});
  });
  EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x200), 1), 255U);
  EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x201), 1), 0U);
  EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x202), 1), 7U);
  EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x203), 1), 0x55U);
}

TEST(Predicated, Edge47AFalsePredicateStillRangeChecksItsDestination) {  // K2
  const Generation g = Generation::Cayman;
  Word w = hex_word(kCopyWord);
  w[15] = 1;
  // dst 0x37FF4: elements 0..2 end at 0x38000, element 3 lies past CAYMAN's 0x38000 active bytes.
  w[48] = 0xF4;
  w[49] = 0x7F;
  w[50] = 0x03;
  ASSERT_TRUE(test::valid_on(w, g));
  Machine m(g, {w}, test::recording());
  put(m.mutable_state(), test::sbuf(g, 0, 0x0), 1, {1, 1, 1, 0});
  const StepResult r = m.step();
  ASSERT_EQ(r.status, StepResult::Status::Faulted);
  EXPECT_EQ(r.fault.kind, FaultKind::OutOfRange) << r.fault.detail;
  EXPECT_TRUE(test::no_effects(r));
}

TEST(Predicated, PlacementFollowsK1) {
  const Generation g = Generation::Cayman;
  const auto fault_on = [&](std::string_view w, EngineId e) {
    MachineOptions o;
    o.validate.engine = static_cast<StreamEngine>(e);
    o.engine = e;
    Machine m(g, {hex_word(w)}, o);
    const StepResult r = m.step();
    return r.status == StepResult::Status::Faulted ? std::optional<FaultKind>(r.fault.kind) : std::nullopt;
  };
  EXPECT_EQ(fault_on(kBitvecWord, EngineId::Pool), std::nullopt);  // 0x51 runs on DVE and POOL
  EXPECT_EQ(fault_on(kBitvecWord, EngineId::Dve), std::nullopt);
  EXPECT_EQ(fault_on(kBitvecWord, EngineId::Act), std::optional(FaultKind::WrongEngine));
  EXPECT_EQ(fault_on(kCopyWord, EngineId::Pool), std::optional(FaultKind::WrongEngine));
  EXPECT_EQ(fault_on(kCastWord, EngineId::Act), std::optional(FaultKind::WrongEngine));
  EXPECT_EQ(fault_on(kCastWord, EngineId::Dve), std::nullopt);
}

}  // namespace
}  // namespace tpbisa::predicated_exec
