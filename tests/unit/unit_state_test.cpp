// The unit state families declare (the DVE channels of s2bn), read generically: the registry's list, the dump spec
// grammar over it, its JSON and text forms and its arrays, against values written out by hand.
#include <gtest/gtest.h>

#include <bit>
#include <string>

#include "tpbisa/io/dump.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/run_json.hpp"
#include "tpbisa/unit_state.hpp"

namespace tpbisa {
namespace {

using Class = DveChannel::ImmClass;

TEST(UnitState, TheDveChannelsAreDeclaredOnce) {
  // The S2_BN family's flops, keys and parameters ("dve") and the search opcodes' matched indices ("match").
  ASSERT_EQ(unit_states().size(), 2U);
  ASSERT_NE(find_unit_state("match"), nullptr);
  EXPECT_EQ(find_unit_state("match")->instances, 128U);
  const UnitState* dve = find_unit_state("DVE");
  ASSERT_NE(dve, nullptr);
  EXPECT_EQ(dve, find_unit_state("dve"));
  EXPECT_EQ(dve->instance, "channel");
  EXPECT_EQ(dve->instances, 128U);
  EXPECT_EQ(find_unit_state("pe"), nullptr);
  std::string names;
  for (const UnitStateArray& a : dve->arrays) names += std::string(a.name) + " ";
  EXPECT_EQ(names, "imm imm_class match_key match_key_written matched bn bn_written ");
}

TEST(UnitState, DumpSpecsNameAnInstance) {
  const auto d = io::parse_dump_spec("Dve:0x7f", Generation::Mariana);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->kind, io::DumpSpec::Kind::Unit);
  EXPECT_EQ(d->unit, find_unit_state("dve"));
  EXPECT_EQ(d->instance, 127U);
  EXPECT_EQ(io::parse_dump_spec("dve:128", Generation::Mariana).error().message,
            "channel '128' is out of range 0..127");
  EXPECT_EQ(io::parse_dump_spec("dve:x", Generation::Mariana).error().message,
            "channel 'x' is not a decimal or 0x hex number");
  EXPECT_NE(io::dump_forms().find(") or dve:CHANNEL"), std::string::npos);
}

EngineState sample() {
  EngineState s;
  DveChannel& ch = s.dve[5];
  ch.imm[0] = std::bit_cast<uint32_t>(1.5F);
  ch.imm_class[0] = Class::Arith;
  ch.imm[1] = 7;
  ch.imm_class[1] = Class::Bitvec;
  ch.match_key[7] = std::bit_cast<uint32_t>(-2.0F);
  ch.match_key_written[7] = true;
  ch.matched[7] = true;
  ch.bn = {std::bit_cast<uint32_t>(4.0F), 0, 0, 0, 0x7FC00000, true};
  return s;
}

TEST(UnitState, TheJsonFormIsTheDumpsDocumentedShape) {
  const UnitState& dve = *find_unit_state("dve");
  const std::string j = io::dump_json(io::unit_state_json(dve, 5, sample()));
  EXPECT_TRUE(j.starts_with(
      R"({"at":"dve:5","channel":5,"imm":[{"slot":0,"bits":"0x3fc00000","written":true,"class":"arith","value":1.5},)"
      R"({"slot":1,"bits":"0x00000007","written":true,"class":"bitvec","value":7},{"slot":2,)"))
      << j;
  EXPECT_NE(j.find(R"({"slot":2,"bits":"0x00000000","written":false,"class":"unwritten","value":null})"),
            std::string::npos);
  EXPECT_NE(j.find(R"({"slot":7,"bits":"0xc0000000","value":-2.0,"written":true,"matched":true}])"), std::string::npos);
  EXPECT_NE(j.find(R"("bn":{"written":true,"n":{"bits":"0x40800000","value":4.0},"batch_mean":{"bits":"0x00000000")"),
            std::string::npos);
  EXPECT_NE(j.find(R"("c":{"bits":"0x7fc00000","value":"nan"}}})"), std::string::npos);
}

TEST(UnitState, TheTextFormListsEveryFlop) {
  const std::string t = find_unit_state("dve")->text(sample(), 5);
  EXPECT_TRUE(
      t.starts_with("  imm[0]        0x3fc00000  arith  1.5\n"
                    "  imm[1]        0x00000007  bitvec  7\n"
                    "  imm[2]        0x00000000  unwritten\n"))
      << t;
  EXPECT_NE(t.find("  match_key[6]  0x00000000  unwritten\n  match_key[7]  0xc0000000  -2  matched\n"),
            std::string::npos);
  EXPECT_NE(t.find("  bn            n=4 (0x40800000) batch_mean=0 (0x00000000) a=0 (0x00000000) b=0 (0x00000000) "
                   "c=nan (0x7fc00000)\n"),
            std::string::npos);
  EXPECT_NE(find_unit_state("dve")->text(EngineState{}, 0).find("  bn            unwritten\n"), std::string::npos);
}

TEST(UnitState, TheArraysReadTheRawState) {
  const EngineState s = sample();
  const UnitState& dve = *find_unit_state("dve");
  const auto read = [&](std::string_view name, unsigned slot) {
    for (const UnitStateArray& a : dve.arrays)
      if (a.name == name) return a.read(s, 5, slot);
    ADD_FAILURE() << name;
    return 0U;
  };
  EXPECT_EQ(read("imm", 0), 0x3FC00000U);
  EXPECT_EQ(read("imm_class", 1), 2U);
  EXPECT_EQ(read("match_key", 7), 0xC0000000U);
  EXPECT_EQ(read("matched", 7), 1U);
  EXPECT_EQ(read("bn", 0), 0x40800000U);
  EXPECT_EQ(read("bn", 4), 0x7FC00000U);
  EXPECT_EQ(read("bn_written", 0), 1U);
}

}  // namespace
}  // namespace tpbisa
