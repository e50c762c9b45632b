// Test-event-semaphore family: TEST_EVENT_SEM decoded field by field at the wiki's offsets, described, validated with
// named failing predicates, round-tripped through assembly and refused when it runs (PROJ-CONV-TS3).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../../support/layout_golden.hpp"
#include "../../support/machine_builders.hpp"
#include "../../support/test_util.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::testsem_test {
namespace {

using test::dec;
using Status = StepResult::Status;

constexpr Generation kGens[] = {Generation::Mariana, Generation::Maverick};

/// READ_SEM: semaphores 3 and 7 into registers 1 and 2.
Word test_word() {
  Word w{};
  w[0] = 0xB4;
  w[1] = 0x10;
  w[15] = 2;
  w[16] = 3;
  w[17] = 7;
  w[32] = 1;
  w[33] = 2;
  return w;
}

std::vector<std::string> failing(const Word& w, Generation g) {
  std::vector<std::string> out;
  const Verdict v = validate(dec(w, g), g);  // alive while its failure list is walked
  for (const Predicate* p : v.failures()) out.emplace_back(p->name);
  return out;
}

TEST(TestEventSem, LayoutGoldenPlacesEveryFieldAtTheWikisOffsets) {
  const Word w = test::distinct_word(0xB4);
  for (Generation g : kGens) {
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
  const auto field = [&](std::string_view name) {
    for (const DescribedField& f : describe_fields(dec(w, Generation::Mariana)))
      if (f.name == name) return format_value(f) + " | " + f.meaning;
    return std::string("(absent)");
  };
  EXPECT_NE(field("mode").find("COND_UPDATE_SEM"), std::string::npos) << field("mode");
  EXPECT_NE(field("update_type").find("SEM_ADD_REG_READ"), std::string::npos) << field("update_type");
}

TEST(TestEventSem, VerdictsNameTheFailingPredicates) {
  for (Generation g : kGens) EXPECT_EQ(failing(test_word(), g), std::vector<std::string>{}) << to_string(g);
  Word w = test_word();
  w[13] = 0x09;  // SEM_WR_IMM_READ: an immediate form
  w[17] = 3;     // slot 1 repeats slot 0's semaphore
  for (Generation g : kGens)
    EXPECT_EQ(failing(w, g), (std::vector<std::string>{"has_valid_test_es_update_type", "test_es_unique_ids"}));
  Word evt = test_word();
  evt[12] = 3;
  evt[13] = 0x01;  // EVT_SET_READ: an UPDATE_MODE up to MARIANA
  EXPECT_EQ(failing(evt, Generation::Mariana), std::vector<std::string>{});
  EXPECT_EQ(failing(evt, Generation::Maverick), std::vector<std::string>{"has_valid_test_es_update_type"});
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
  for (const Word& w : {test_word(), cond, odd, test::distinct_word(0xB4)})
    for (Generation g : kGens) {
      const std::string text = disassemble(dec(w, g), g);
      const AsmResult a = assemble(text, "roundtrip", g);
      ASSERT_TRUE(a.ok()) << text;
      ASSERT_EQ(a.words.size(), 1U);
      EXPECT_EQ(a.words[0], w) << text;
    }
}

TEST(TestEventSem, RunRefusesItNamingTheOpcode) {
  for (Generation g : kGens) {
    Machine m(g, {test_word()}, test::recording());
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Faulted) << to_string(g);
    EXPECT_EQ(r.fault.kind, FaultKind::UnsupportedOpcode);
    EXPECT_NE(r.fault.detail.find("TestEventSem (0xb4)"), std::string::npos) << r.fault.detail;
    EXPECT_NE(r.fault.detail.find("semantics are not public"), std::string::npos) << r.fault.detail;
  }
}

}  // namespace
}  // namespace tpbisa::testsem_test
