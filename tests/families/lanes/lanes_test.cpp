// Lanes family: LOAD_MASK_SELECT, STREAM_SHUFFLE and STREAM_TRANSPOSE run on the simulator (alu-ops.md §3.6, §3.7,
// edge cases #59), expected values worked by hand from the spec's examples and from PROJ-CONV-K7's formula.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "../../support/machine_builders.hpp"
#include "../../support/predicate_cases.hpp"
#include "../../support/test_util.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/unit_state.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::lanes_exec {
namespace {

using test::f32;
using test::hex_word;
using test::peek;
using test::poke;

// alu-ops.md §3.6 and §3.7, the synthetic words as the spec prints them.
constexpr std::string_view kMaskWord =
    "6910000000000000000000000000000000000000000000000000000000000000"
    "0100ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff";
constexpr std::string_view kShuffleWord =
    "6a10000000000000000000000000000001000000000000000200010001000100"
    "0a0a200000000000000000000001000001000000000000000200010001000100";
constexpr std::string_view kTransposeWord =
    "6b10000000000000000000000000000001000000000000002000010001000100"
    "0707200000000000000000000001000001000000000000002000010001000100";

RunSummary run_all(Machine& m) {
  return m.run(100);
}

TEST(Lanes, SpecWordsDecodeAndValidateOnEveryGeneration) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    const Instruction mask = test::dec(hex_word(kMaskWord), g);
    ASSERT_EQ(mask.status, DecodeStatus::Modeled);
    const LaneMap& lm = std::get<LaneMap>(mask.body);
    EXPECT_EQ(lm.mask[0], 1);
    EXPECT_EQ(lm.mask[1], 0);
    EXPECT_EQ(lm.mask[2], 0xFF);
    for (std::string_view w : {kMaskWord, kShuffleWord, kTransposeWord}) {
      const Verdict v = validate(test::dec(hex_word(w), g), g);
      EXPECT_TRUE(v.valid) << w;
      EXPECT_EQ(v.checked, Checked::Full);
    }
    EXPECT_EQ(validate(test::dec(hex_word(kShuffleWord), g), g).validator->name, "is_valid_stream_shuffle");
    EXPECT_EQ(validate(test::dec(hex_word(kTransposeWord), g), g).validator->name, "is_valid_stream_transpose");
    EXPECT_EQ(validate(mask, g).validator->name, "is_valid_load_mask_select");
  }
}

TEST(Lanes, DecodeDescribesTheLaneMapAndTheTransposeMaskFlag) {
  const Instruction mask = test::dec(hex_word(kMaskWord), Generation::Cayman);
  bool seen = false;
  for (const DescribedField& f : describe_fields(mask))
    if (f.name == "mask[0]") {
      EXPECT_NE(f.meaning.find("lane map MASK[0..31]"), std::string::npos) << f.meaning;
      seen = true;
    }
  EXPECT_TRUE(seen);
  const Instruction tr = test::dec(hex_word(kTransposeWord), Generation::Cayman);
  seen = false;
  for (const DescribedField& f : describe_fields(tr))
    if (f.name == "mask_enable") {
      EXPECT_EQ(f.meaning, "0 or 1, no functional effect (PROJ-CONV-K7)");
      seen = true;
    }
  EXPECT_TRUE(seen);
}

/// §3.6's example: partition i holds [2i+1, 2i+2], every destination pair [-9, -9]; after the mask word lane 0 reads
/// lane 1 and lane 1 lane 0, the other lanes are unmodified.
void seed_shuffle(Machine& m, Generation g) {
  for (unsigned p = 0; p < 32; ++p) {
    poke(m.mutable_state(), test::sbuf(g, p, 0x0), 4, f32(static_cast<float>(2 * p + 1)));
    poke(m.mutable_state(), test::sbuf(g, p, 0x4), 4, f32(static_cast<float>(2 * p + 2)));
    poke(m.mutable_state(), test::sbuf(g, p, 0x100), 4, f32(-9.0F));
    poke(m.mutable_state(), test::sbuf(g, p, 0x104), 4, f32(-9.0F));
  }
}

TEST(Lanes, ShuffleFollowsTheLoadedLaneMap) {
  for (bool record : {false, true}) {
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(std::string(to_string(g)) + (record ? " recorded" : ""));
      MachineOptions o;
      o.record_effects = record;
      Machine m(g, {hex_word(kMaskWord), hex_word(kShuffleWord)}, o);
      seed_shuffle(m, g);
      const RunSummary r = run_all(m);
      ASSERT_FALSE(r.faulted) << r.fault.detail;
      EXPECT_EQ(r.retired, 2U);
      EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x100), 4), f32(3.0F));
      EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x104), 4), f32(4.0F));
      EXPECT_EQ(peek(m.state(), test::sbuf(g, 1, 0x100), 4), f32(1.0F));
      EXPECT_EQ(peek(m.state(), test::sbuf(g, 1, 0x104), 4), f32(2.0F));
      for (unsigned p = 2; p < 32; ++p) {
        EXPECT_EQ(peek(m.state(), test::sbuf(g, p, 0x100), 4), f32(-9.0F)) << p;
        EXPECT_EQ(peek(m.state(), test::sbuf(g, p, 0x104), 4), f32(-9.0F)) << p;
      }
      // The register keeps the loaded map (PROJ-CONV-K8).
      EXPECT_EQ(m.state().mask_select[0], 1);
      EXPECT_EQ(m.state().mask_select[1], 0);
      EXPECT_EQ(m.state().mask_select[31], 0xFF);
    }
  }
}

TEST(Lanes, ShuffleWithTheResetMapCopiesEachLaneToItself) {
  const Generation g = Generation::Cayman;
  Machine m(g, {hex_word(kShuffleWord)});
  seed_shuffle(m, g);
  ASSERT_FALSE(run_all(m).faulted);
  for (unsigned p = 0; p < 32; ++p) {
    EXPECT_EQ(peek(m.state(), test::sbuf(g, p, 0x100), 4), f32(static_cast<float>(2 * p + 1))) << p;
    EXPECT_EQ(peek(m.state(), test::sbuf(g, p, 0x104), 4), f32(static_cast<float>(2 * p + 2))) << p;
  }
}

TEST(Lanes, Edge59InPlaceShuffleSwapsPartitionsZeroAndOne) {  // K2: every source read before any write
  const Generation g = Generation::Mariana;
  Word in_place = hex_word(kShuffleWord);
  in_place[44] = 0x00;  // dst start 0x100 -> 0x0
  in_place[45] = 0x00;
  for (bool record : {false, true}) {
    MachineOptions o;
    o.record_effects = record;
    Machine m(g, {hex_word(kMaskWord), in_place}, o);
    seed_shuffle(m, g);
    ASSERT_FALSE(run_all(m).faulted);
    EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x0), 4), f32(3.0F));
    EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x4), 4), f32(4.0F));
    EXPECT_EQ(peek(m.state(), test::sbuf(g, 1, 0x0), 4), f32(1.0F));
    EXPECT_EQ(peek(m.state(), test::sbuf(g, 1, 0x4), 4), f32(2.0F));
    EXPECT_EQ(peek(m.state(), test::sbuf(g, 2, 0x0), 4), f32(5.0F));
  }
}

TEST(Lanes, ShuffleAppliesTheSameMapToEveryGroupOf32) {
  const Generation g = Generation::Cayman;
  Word w = hex_word(kShuffleWord);
  w[34] = 128;
  Machine m(g, {hex_word(kMaskWord), w});
  for (unsigned p = 0; p < 128; ++p) {
    poke(m.mutable_state(), test::sbuf(g, p, 0x0), 8, (uint64_t{p} << 32) | p);
    poke(m.mutable_state(), test::sbuf(g, p, 0x100), 8, 0xEEEEEEEEEEEEEEEEULL);
  }
  ASSERT_FALSE(run_all(m).faulted);
  for (unsigned grp = 0; grp < 4; ++grp) {
    const unsigned base = 32 * grp;
    EXPECT_EQ(peek(m.state(), test::sbuf(g, base, 0x100), 8), (uint64_t{base + 1} << 32) | (base + 1));
    EXPECT_EQ(peek(m.state(), test::sbuf(g, base + 1, 0x100), 8), (uint64_t{base} << 32) | base);
    EXPECT_EQ(peek(m.state(), test::sbuf(g, base + 2, 0x100), 8), 0xEEEEEEEEEEEEEEEEULL);
  }
}

/// §3.7's example: source partition i element j holds (i << 8) | j; destination partition p element k must hold
/// (k << 8) | p.
TEST(Lanes, TransposeMovesA32By32Block) {
  for (bool record : {false, true}) {
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(std::string(to_string(g)) + (record ? " recorded" : ""));
      MachineOptions o;
      o.record_effects = record;
      Machine m(g, {hex_word(kTransposeWord)}, o);
      for (unsigned i = 0; i < 32; ++i)
        for (unsigned j = 0; j < 32; ++j) poke(m.mutable_state(), test::sbuf(g, i, 2 * j), 2, (i << 8) | j);
      const RunSummary r = run_all(m);
      ASSERT_FALSE(r.faulted) << r.fault.detail;
      EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x100), 2), 0x0000U);
      EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x102), 2), 0x0100U);
      EXPECT_EQ(peek(m.state(), test::sbuf(g, 0, 0x104), 2), 0x0200U);
      EXPECT_EQ(peek(m.state(), test::sbuf(g, 5, 0x100), 2), 0x0005U);
      EXPECT_EQ(peek(m.state(), test::sbuf(g, 5, 0x102), 2), 0x0105U);
      for (unsigned p = 0; p < 32; ++p)
        for (unsigned k = 0; k < 32; ++k)
          ASSERT_EQ(peek(m.state(), test::sbuf(g, p, 0x100 + 2 * k), 2), (k << 8) | p) << p << " " << k;
    }
  }
}

TEST(Lanes, TransposeWritesOnlyTheDestinationCount) {
  const Generation g = Generation::Cayman;
  Word w = hex_word(kTransposeWord);
  w[56] = 16;  // dst.num_elem[0] = 16
  Machine m(g, {w});
  for (unsigned i = 0; i < 32; ++i) {
    for (unsigned j = 0; j < 32; ++j) poke(m.mutable_state(), test::sbuf(g, i, 2 * j), 2, (i << 8) | j);
    for (unsigned k = 0; k < 32; ++k) poke(m.mutable_state(), test::sbuf(g, i, 0x100 + 2 * k), 2, 0xBEEF);
  }
  ASSERT_FALSE(run_all(m).faulted);
  for (unsigned p = 0; p < 32; ++p) {
    EXPECT_EQ(peek(m.state(), test::sbuf(g, p, 0x100 + 2 * 15), 2), (15U << 8) | p);
    EXPECT_EQ(peek(m.state(), test::sbuf(g, p, 0x100 + 2 * 16), 2), 0xBEEFU);
  }
}

/// PROJ-CONV-K7 over two channel groups and two element blocks: T[32g + j][32b + i] = S[32g + i][32b + j], with
/// S[c][k] = c * 256 + k as UINT32 (the formula restated here, not read from the library).
TEST(Lanes, TransposeMapsEveryGroupAndBlockByItsOwnFormula) {
  const Generation g = Generation::Mariana;
  Word w = hex_word(kTransposeWord);
  w[32] = w[33] = dtype::kUint32;
  w[34] = 64;
  w[24] = 64;  // src.num_elem[0]
  w[56] = 64;  // dst.num_elem[0]
  w[44] = 0x00;
  w[45] = 0x10;  // dst at 0x1000
  Machine m(g, {w});
  for (unsigned c = 0; c < 64; ++c)
    for (unsigned k = 0; k < 64; ++k) poke(m.mutable_state(), test::sbuf(g, c, 4 * k), 4, c * 256 + k);
  ASSERT_FALSE(run_all(m).faulted);
  for (unsigned grp = 0; grp < 2; ++grp)
    for (unsigned b = 0; b < 2; ++b)
      for (unsigned i = 0; i < 32; ++i)
        for (unsigned j = 0; j < 32; ++j) {
          const unsigned dc = 32 * grp + j, dk = 32 * b + i, sc = 32 * grp + i, sk = 32 * b + j;
          ASSERT_EQ(peek(m.state(), test::sbuf(g, dc, 0x1000 + 4 * dk), 4), sc * 256U + sk);
        }
}

TEST(Lanes, WrongEngineAndOutOfRangeChangeNothing) {
  const Generation g = Generation::Cayman;
  for (std::string_view w : {kMaskWord, kShuffleWord, kTransposeWord}) {
    MachineOptions o;
    o.validate.engine = StreamEngine::Pool;  // PROJ-CONV-K1: DVE only
    o.engine = EngineId::Pool;
    o.record_effects = true;
    Machine m(g, {hex_word(w)}, o);
    const StepResult r = m.step();
    ASSERT_EQ(r.status, StepResult::Status::Faulted);
    EXPECT_EQ(r.fault.kind, FaultKind::WrongEngine) << r.fault.detail;
    EXPECT_TRUE(test::no_effects(r));
  }
  // Every lane unmodified (map 0xFF), yet element 1 of each destination lies past CAYMAN's 0x38000 active bytes
  // (K2: the addressed elements are checked all the same).
  Word mask = hex_word(kMaskWord);
  mask[32] = mask[33] = 0xFF;
  Word shuffle = hex_word(kShuffleWord);
  shuffle[44] = 0xFC;
  shuffle[45] = 0x7F;
  shuffle[46] = 0x03;  // dst 0x37FFC
  Machine m(g, {mask, shuffle}, test::recording());
  ASSERT_EQ(m.step().status, StepResult::Status::Retired);
  const StepResult r = m.step();
  ASSERT_EQ(r.status, StepResult::Status::Faulted);
  EXPECT_EQ(r.fault.kind, FaultKind::OutOfRange) << r.fault.detail;
  EXPECT_TRUE(test::no_effects(r));
}

TEST(Lanes, TheMaskRegisterIsDeclaredUnitState) {
  const UnitState* u = find_unit_state("mask");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->instances, 1U);
  ASSERT_EQ(u->arrays.size(), 1U);
  EngineState s;
  EXPECT_EQ(u->arrays[0].read(s, 0, 7), 7U);  // reset: the identity map
  s.mask_select[7] = 0x20;
  EXPECT_EQ(u->arrays[0].read(s, 0, 7), 0x20U);
  const std::string text = u->text(s, 0);
  EXPECT_NE(text.find(" 6  -  8"), std::string::npos) << text;
}

}  // namespace
}  // namespace tpbisa::lanes_exec
