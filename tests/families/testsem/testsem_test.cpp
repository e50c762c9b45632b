// Test-event-semaphore family: TEST_EVENT_SEM decoded field by field at the wiki's offsets, described, validated with
// named failing predicates, round-tripped through assembly and refused when it runs (PROJ-CONV-TS3).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../support/family_checks.hpp"
#include "../../support/layout_golden.hpp"
#include "words.hpp"

namespace tpbisa::testsem_test {
namespace {

using test::failing_names;
using Names = std::vector<std::string>;

Word test_word() {
  return test::testsem_words::base();
}

TEST(TestEventSem, LayoutGoldenPlacesEveryFieldAtTheWikisOffsets) {
  const Word w = test::distinct_word(0xB4);
  for (Generation g : {Generation::Mariana, Generation::Maverick}) {
    const Instruction inst = decode(w, g);
    ASSERT_EQ(inst.status, DecodeStatus::Modeled) << to_string(g);
    const CtrlTestEs* t = inst.as<CtrlTestEs>();
    ASSERT_NE(t, nullptr);
    test::expect_common_prefix(t->header, t->events, 0xB4);
    EXPECT_EQ(t->mode, 0x8C);  // byte 12
    EXPECT_EQ(t->update_type, 0x8D);
    EXPECT_EQ(t->repeat_count, 0x8E);
    EXPECT_EQ(t->num_evt_sem, 0x8F);
    EXPECT_EQ(t->evt_sem_ids[0], 0x90);       // byte 16
    EXPECT_EQ(t->value_registers[15], 0xAF);  // byte 47
    EXPECT_EQ(t->threshold, 0xB3B2B1B0U);     // byte 48
    EXPECT_EQ(t->setter_signature, 0xB4);     // byte 52
    EXPECT_EQ(t->reserved0[10], 0xBF);        // byte 63
    EXPECT_EQ(encode(*t), w);
  }
  EXPECT_NE(decode(w, Generation::Cayman).status, DecodeStatus::Modeled);
}

TEST(TestEventSem, DecodeNamesTheModeAndTheUpdate) {
  Word w = test_word();
  w[12] = 4;
  w[13] = 0x85;
  EXPECT_NE(test::field_text(w, Generation::Mariana, "mode").find("COND_UPDATE_SEM"), std::string::npos);
  EXPECT_NE(test::field_text(w, Generation::Mariana, "update_type").find("SEM_ADD_REG_READ"), std::string::npos);
}

TEST(TestEventSem, VerdictsNameTheFailingPredicates) {
  for (Generation g : {Generation::Mariana, Generation::Maverick})
    EXPECT_EQ(failing_names(test_word(), g), Names{}) << to_string(g);
  Word w = test_word();
  w[13] = 0x09;  // SEM_WR_IMM_READ: an immediate form
  w[17] = 3;     // slot 1 repeats slot 0's semaphore
  for (Generation g : {Generation::Mariana, Generation::Maverick})
    EXPECT_EQ(failing_names(w, g), (Names{"has_valid_test_es_update_type", "test_es_unique_ids"}));
  Word evt = test_word();
  evt[12] = 3;
  evt[13] = 0x01;  // EVT_SET_READ: an UPDATE_MODE up to MARIANA
  EXPECT_EQ(failing_names(evt, Generation::Mariana), Names{});
  EXPECT_EQ(failing_names(evt, Generation::Maverick), Names{"has_valid_test_es_update_type"});
}

TEST(TestEventSem, WordsRoundTripThroughAssembly) {
  Word cond = test_word();
  cond[12] = 4;
  cond[13] = 0x87;
  cond[14] = 3;
  store_le<uint32_t>(&cond[48], 10);
  Word odd = test_word();
  odd[12] = 9;
  odd[13] = 0x06;  // no UPDATE_MODE name: written as a number
  test::expect_round_trips({test_word(), cond, odd, test::distinct_word(0xB4)},
                           {Generation::Mariana, Generation::Maverick});
}

TEST(TestEventSem, RunRefusesItNamingTheOpcode) {
  test::expect_refused(test_word(), {Generation::Mariana, Generation::Maverick}, "TestEventSem (0xb4)");
}

}  // namespace
}  // namespace tpbisa::testsem_test
