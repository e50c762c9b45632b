// PE seed family: PE_MANAGE_SEED decoded field by field at the wiki's offsets, described, validated with named
// failing predicates, round-tripped through assembly, placed by its footprint hook and refused when it runs (its
// semantics are not public, PROJ-CONV-PS3).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../support/family_checks.hpp"
#include "../../support/layout_golden.hpp"
#include "families/family.hpp"
#include "words.hpp"

namespace tpbisa::peseed_test {
namespace {

using test::dec;
using test::failing_names;
using Names = std::vector<std::string>;

Word seed_word() {
  return test::peseed_words::base();
}

TEST(PeManageSeed, LayoutGoldenPlacesEveryFieldAtTheWikisOffsets) {
  const Word w = test::distinct_word(0x08);
  for (Generation g : {Generation::Mariana, Generation::Maverick}) {
    const Instruction inst = decode(w, g);
    ASSERT_EQ(inst.status, DecodeStatus::Modeled) << to_string(g);
    const S2s1d2PeSeed* s = inst.as<S2s1d2PeSeed>();
    ASSERT_NE(s, nullptr);
    test::expect_common_prefix(s->header, s->events, 0x08);
    EXPECT_EQ(s->src.start_addr.raw, 0x8F8E8D8CU);       // byte 12
    EXPECT_EQ(s->src.num_elem[1], 0x9796);               // byte 22
    EXPECT_EQ(s->identity.start_addr.raw, 0x9B9A9998U);  // byte 24
    EXPECT_EQ(s->identity.num_elem[0], 0x9F9E);          // byte 30
    EXPECT_EQ(s->identity_dtype, 0xA0);                  // byte 32
    EXPECT_EQ(s->mode, 0xA1);
    EXPECT_EQ(s->num_active_rows, 0xA2);
    EXPECT_EQ(s->num_active_cols, 0xA3);
    EXPECT_EQ(s->dst.start_addr.raw, 0xA7A6A5A4U);  // byte 36
    EXPECT_EQ(s->dst.num_elem[1], 0xAFAE);          // byte 46
    EXPECT_EQ(s->reserved[0], 0xB0);                // bytes 48-63
    EXPECT_EQ(s->reserved[15], 0xBF);
    EXPECT_EQ(encode(*s), w);
  }
  // SUNDA and CAYMAN have no PE_MANAGE_SEED: its words stay unmodeled there.
  EXPECT_NE(decode(w, Generation::Cayman).status, DecodeStatus::Modeled);
}

TEST(PeManageSeed, DecodeNamesTheMode) {
  Word w = seed_word();
  w[33] = 2;
  EXPECT_NE(test::field_text(w, Generation::Mariana, "mode").find("SAVE_SEED"), std::string::npos);
}

TEST(PeManageSeed, VerdictsNameTheFailingPredicates) {
  for (Generation g : {Generation::Mariana, Generation::Maverick})
    EXPECT_EQ(failing_names(seed_word(), g), Names{}) << to_string(g);
  Word w = seed_word();
  w[34] = 32;                      // rows
  store_le<uint16_t>(&w[20], 64);  // 64 seeds per partition
  for (Generation g : {Generation::Mariana, Generation::Maverick})
    EXPECT_EQ(failing_names(w, g), (Names{"pe_seed_num_active_rows_16", "pe_seed_valid_src"}));
  Word save = seed_word();
  save[33] = 2;  // SAVE_SEED to SBUF partition 0: MAVERICK's destination region, not MARIANA's (PSUM)
  store_le<uint16_t>(&save[44], 16);
  store_le<uint16_t>(&save[46], 1);
  EXPECT_EQ(failing_names(save, Generation::Mariana), Names{"pe_seed_valid_dst"});
  EXPECT_EQ(failing_names(save, Generation::Maverick), Names{});
  ValidateOptions on_act;
  on_act.engine = StreamEngine::Act;
  EXPECT_TRUE(validate(dec(seed_word(), Generation::Mariana), Generation::Mariana, on_act).fails("engine_placement"));
}

TEST(PeManageSeed, WordsRoundTripThroughAssembly) {
  Word save = seed_word();
  save[33] = 2;
  Word odd = seed_word();
  odd[33] = 7;  // no PE_SEED_MODE name: written as a number
  odd[55] = 0x21;
  test::expect_round_trips({seed_word(), save, odd, test::distinct_word(0x08)},
                           {Generation::Mariana, Generation::Maverick});
}

TEST(PeManageSeed, FootprintPlacesTheModesOperands) {
  const family::Footprint f = family::footprint(dec(seed_word(), Generation::Mariana), Generation::Mariana);
  const auto ops = f.all();
  ASSERT_EQ(ops.size(), 2U);
  EXPECT_EQ(ops[0].operand, "src");
  EXPECT_EQ(ops[0].partitions, 16U);
  EXPECT_EQ(ops[0].first, 0x1000);
  EXPECT_EQ(ops[0].last, 0x1000 + 128 * 4 - 1);
  EXPECT_EQ(ops[1].operand, "identity");
  EXPECT_EQ(ops[1].last, 0x2000 + 16 * 2 - 1);
}

TEST(PeManageSeed, RunRefusesItNamingTheOpcodeAndChangesNothing) {
  test::expect_refused(seed_word(), {Generation::Mariana, Generation::Maverick}, "PeManageSeed (0x08)", 0x1000);
}

}  // namespace
}  // namespace tpbisa::peseed_test
