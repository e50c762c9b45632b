// Conversion-LUT family: CONV_LUT_LOAD decoded field by field at the wiki's offsets, its two legs validated with named
// failing predicates per generation, round-tripped through assembly, placed and refused when it runs
// (PROJ-CONV-CL3).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../support/family_checks.hpp"
#include "../../support/layout_golden.hpp"
#include "families/family.hpp"
#include "words.hpp"

namespace tpbisa::convlut_test {
namespace {

using test::dec;
using test::failing_names;
using Names = std::vector<std::string>;

constexpr Generation kGens[] = {Generation::Cayman, Generation::Mariana, Generation::Maverick};

/// The CPTC leg: a 4-unit UINT32 block from SBUF 0x0 on 128 rows, lut_dtype CPTC1 (0x19).
Word cptc_word() {
  return test::convlut_words::base();
}

/// The legacy leg: the 16-entry UINT16 table, lut_dtype INVALID.
Word legacy_word() {
  Word w = cptc_word();
  test::convlut_words::to_legacy(w);
  return w;
}

TEST(ConvLutLoad, LayoutGoldenPlacesEveryFieldAtTheWikisOffsets) {
  const Word w = test::distinct_word(0xE4);
  for (Generation g : kGens) {
    const Instruction inst = decode(w, g);
    ASSERT_EQ(inst.status, DecodeStatus::Modeled) << to_string(g);
    const S2Convlut* c = inst.as<S2Convlut>();
    ASSERT_NE(c, nullptr);
    test::expect_common_prefix(c->header, c->events, 0xE4);
    EXPECT_EQ(c->reserved0[0], 0x8C);               // byte 12
    EXPECT_EQ(c->src.start_addr.raw, 0x93929190U);  // byte 16
    EXPECT_EQ(c->src.num_elem[1], 0x9B9A);          // byte 26
    EXPECT_EQ(c->in_dtype, 0xA0);                   // byte 32
    EXPECT_EQ(c->num_active_rows, 0xA6);            // byte 38
    EXPECT_EQ(c->num_active_cols, 0xA7);
    EXPECT_EQ(c->multiplicative_const[0], 0xA9A8);  // byte 40
    EXPECT_EQ(c->multiplicative_const[1], 0xABAA);
    EXPECT_EQ(c->row_grp, 0xAC);
    EXPECT_EQ(c->col_grp, 0xAD);
    EXPECT_EQ(c->block_size, 0xAE);
    EXPECT_EQ(c->lut_dtype, 0xAF);  // byte 47
    EXPECT_EQ(c->reserved4[15], 0xBF);
    EXPECT_EQ(encode(*c), w);
  }
  EXPECT_NE(decode(w, Generation::Sunda).status, DecodeStatus::Modeled);
}

TEST(ConvLutLoad, TheLegacyLegIsMarianasAlone) {
  for (Generation g : kGens) EXPECT_EQ(failing_names(cptc_word(), g), Names{}) << to_string(g);
  EXPECT_EQ(failing_names(legacy_word(), Generation::Mariana), Names{});
  EXPECT_EQ(failing_names(legacy_word(), Generation::Cayman), Names{"s2_convlut_valid_nc"});
  EXPECT_EQ(failing_names(legacy_word(), Generation::Maverick), Names{"s2_convlut_valid_nc"});
  Word w = legacy_word();
  w[46] = 8;   // block_size: CPTC only
  w[39] = 64;  // the legacy table loads the whole array
  EXPECT_EQ(failing_names(w, Generation::Mariana),
            (Names{"s2_convlut_legacy_reserved_zero", "s2_convlut_legacy_full_array"}));
  Word src = cptc_word();
  store_le<uint32_t>(&src[16], 0x40000);  // SBUF partition 1: 128 rows run past 127
  EXPECT_EQ(failing_names(src, Generation::Cayman), Names{"start_addr_active_channels"});
  EXPECT_EQ(failing_names(src, Generation::Mariana), Names{"check_m2d_active_channels"});
  EXPECT_NE(test::field_text(legacy_word(), Generation::Mariana, "lut_dtype").find("legacy"), std::string::npos);
}

TEST(ConvLutLoad, WordsRoundTripThroughAssembly) {
  Word params = cptc_word();
  store_le<uint16_t>(&params[40], 0x3C00);
  params[46] = 32;
  test::expect_round_trips({cptc_word(), legacy_word(), params, test::distinct_word(0xE4)},
                           {Generation::Cayman, Generation::Mariana, Generation::Maverick});
}

TEST(ConvLutLoad, FootprintAndRefusedRun) {
  const family::Footprint f = family::footprint(dec(legacy_word(), Generation::Mariana), Generation::Mariana);
  const auto ops = f.all();
  ASSERT_EQ(ops.size(), 1U);
  EXPECT_EQ(ops[0].operand, "src");
  EXPECT_EQ(ops[0].partitions, 128U);
  EXPECT_EQ(ops[0].last, 16 * 2 - 1);
  test::expect_refused(cptc_word(), {Generation::Cayman, Generation::Mariana, Generation::Maverick},
                       "ConvLutLoad (0xe4)");
}

}  // namespace
}  // namespace tpbisa::convlut_test
