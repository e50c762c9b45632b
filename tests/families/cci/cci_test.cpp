// Compact-control family: COMPACT_CONTROL_INST decoded at the wiki's offsets (a header and fifteen 4-byte compact
// instructions, no EVENTS), described, validated with named failing predicates, round-tripped through assembly and
// refused when it runs (PROJ-CONV-CC1..CC3).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../support/family_checks.hpp"
#include "../../support/layout_golden.hpp"
#include "words.hpp"

namespace tpbisa::cci_test {
namespace {

using test::failing_names;
using Names = std::vector<std::string>;

Word test_word() {
  return test::cci_words::base();
}

TEST(CompactControlInst, LayoutGoldenPlacesEveryInstructionAtTheWikisOffsets) {
  const Word w = test::distinct_word(0xB6);
  const Instruction inst = decode(w, Generation::Maverick);
  ASSERT_EQ(inst.status, DecodeStatus::Modeled);
  const CtrlCci* c = inst.as<CtrlCci>();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->header.opcode, 0xB6);
  EXPECT_EQ(c->header.debug_hint, w[3]);
  for (unsigned k = 0; k < CtrlCci::kInsts; ++k) {  // inst k at bytes 4 + 4k: op, then its three operand bytes
    const CcInst& ci = c->*cci::kInsts[k];
    EXPECT_EQ(ci.op, w[4 + 4 * k]) << k;
    EXPECT_EQ(ci.operands[0], w[5 + 4 * k]) << k;
    EXPECT_EQ(ci.operands[2], w[7 + 4 * k]) << k;
  }
  EXPECT_EQ(c->inst14.operands[2], w[63]);
  // Bytes 4-11 are inst0 and inst1: the word has no EVENTS, and waits for nothing.
  EXPECT_FALSE(inst.carries_events());
  EXPECT_EQ(inst.events(), Events{});
  EXPECT_EQ(encode(*c), w);
  EXPECT_EQ(encode(inst), w);
  for (Generation g : {Generation::Sunda, Generation::Cayman, Generation::Mariana})
    EXPECT_EQ(decode(w, g).status, DecodeStatus::Unknown) << to_string(g);
  EXPECT_TRUE(decode(test::distinct_word(0xB4), Generation::Maverick).carries_events());
}

TEST(CompactControlInst, DecodeNamesEachOpAndItsRun) {
  const Word w = test_word();
  const Generation g = Generation::Maverick;
  EXPECT_NE(test::field_text(w, g, "inst0.op").find("MOV_IMM_LO"), std::string::npos);
  EXPECT_NE(test::field_text(w, g, "inst0.op").find("move"), std::string::npos);
  EXPECT_NE(test::field_text(w, g, "inst1.op").find("ADD"), std::string::npos);
  EXPECT_NE(test::field_text(w, g, "inst1.op").find("32-bit integer arithmetic"), std::string::npos);
  EXPECT_NE(test::field_text(w, g, "inst2.op").find("no operation"), std::string::npos);
  Word odd = w;
  odd[12] = 0xF0;  // inst2: no CCOP run
  EXPECT_NE(test::field_text(odd, g, "inst2.op").find("in no CCOP run"), std::string::npos);
  odd[12] = 0xA9;  // LDRQ, tenth of the twelve loads and stores
  EXPECT_NE(test::field_text(odd, g, "inst2.op").find("LDRQ"), std::string::npos);
  EXPECT_EQ(test::field_text(w, g, "events.wait_mode"), "(absent)");
}

TEST(CompactControlInst, VerdictsNameTheFailingPredicates) {
  EXPECT_EQ(failing_names(test_word(), Generation::Maverick), Names{});
  Word tile = test_word();
  tile[3] = 2;  // inst_flags: tile index 2
  EXPECT_EQ(failing_names(tile, Generation::Maverick), Names{"has_tile_idx_zero"});
  Word len = test_word();
  len[1] = 15;
  EXPECT_EQ(failing_names(len, Generation::Maverick), Names{"has_valid_neuron_header"});
  // Bytes 4-11 read as EVENTS would be wait mode 0xEE and update mode 0xEE, members of no enum: they are compact
  // instructions, and the word is valid. Any op byte is: the validator does not judge the compact instructions.
  Word ops = test_word();
  ops[4] = ops[6] = 0xEE;
  ops[60] = 0xFF;
  EXPECT_EQ(failing_names(ops, Generation::Maverick), Names{});
  // The batch path (raw-word acceptor first) and the one-word path from bytes agree.
  EXPECT_EQ(validate_batch(ops, Generation::Maverick, {}, nullptr, nullptr).valid, 1U);
  EXPECT_EQ(validate(std::span<const uint8_t, kWordBytes>(ops), Generation::Maverick).valid, true);
  EXPECT_EQ(validate_batch(test_word(), Generation::Maverick, {}, nullptr, nullptr).valid, 1U);
}

TEST(CompactControlInst, WordsRoundTripThroughAssembly) {
  Word odd = test_word();
  odd[12] = 0x18;  // a saturating op the wiki does not spell: written as a number
  odd[20] = 0xF7;  // no CCOP run
  test::expect_round_trips({test_word(), odd, test::distinct_word(0xB6)}, {Generation::Maverick});
}

TEST(CompactControlInst, TheAssemblerRefusesAnEventToken) {
  const AsmResult r = assemble("CompactControlInst $S[1]++@read inst0.op=NOP\n", "t.tasm", Generation::Maverick);
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_NE(r.errors[0].message.find("takes no wait or update"), std::string::npos) << r.errors[0].message;
  EXPECT_EQ(r.errors[0].column, 20U);
}

TEST(CompactControlInst, RunRefusesItNamingTheOpcode) {
  test::expect_refused(test_word(), {Generation::Maverick}, "CompactControlInst (0xb6)");
}

}  // namespace
}  // namespace tpbisa::cci_test
