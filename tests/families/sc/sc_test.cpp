// Sparsity-compress family: SPARSITY_COMPRESS and SPARSITY_COMPRESS_TAG decoded field by field at the wiki's
// compile-verified offsets, described, validated with named failing predicates, round-tripped through assembly, placed
// and refused when they run (PROJ-CONV-SC3).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../support/family_checks.hpp"
#include "../../support/layout_golden.hpp"
#include "families/family.hpp"
#include "words.hpp"

namespace tpbisa::sc_test {
namespace {

using test::dec;
using test::failing_names;
using Names = std::vector<std::string>;

constexpr Generation kGens[] = {Generation::Mariana, Generation::Maverick};

Word sc_word() {
  return test::sc_words::sc_base();
}
Word sct_word() {
  return test::sc_words::sct_base();
}

TEST(SparsityCompress, LayoutGoldensPlaceEveryFieldAtTheWikisOffsets) {
  const Word a = test::distinct_word(0xE0);
  const Word b = test::distinct_word(0xE1);
  for (Generation g : kGens) {
    const Instruction ia = decode(a, g);
    const S3d3Sc* s = ia.as<S3d3Sc>();
    ASSERT_NE(s, nullptr) << to_string(g);
    test::expect_common_prefix(s->header, s->events, 0xE0);
    EXPECT_EQ(s->in_dtype, 0x8C);  // byte 12
    EXPECT_EQ(s->transpose_src, 0x8D);
    EXPECT_EQ(s->src.start_addr.raw, 0x93929190U);  // byte 16
    EXPECT_EQ(s->out_data_dtype, 0xA0);             // byte 32
    EXPECT_EQ(s->out_struct_dtype, 0xA1);
    EXPECT_EQ(s->num_active_channels, 0xA2);
    EXPECT_EQ(s->op, 0xA4);  // byte 36
    EXPECT_EQ(s->op_dim, 0xA5);
    EXPECT_EQ(s->dst.start_addr.raw, 0xB3B2B1B0U);  // byte 48
    EXPECT_EQ(encode(*s), a);
    const Instruction ib = decode(b, g);
    const S2d2d2Sc* t = ib.as<S2d2d2Sc>();
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->packed_tags, 0x8E);                     // byte 14
    EXPECT_EQ(t->src.start_addr.raw, 0x97969594U);       // byte 20
    EXPECT_EQ(t->out_tag_dtype, 0xA1);                   // byte 33
    EXPECT_EQ(t->data_dst.start_addr.raw, 0xABAAA9A8U);  // byte 40 (the struct, not the header's byte table)
    EXPECT_EQ(t->tag_dst.start_addr.raw, 0xB7B6B5B4U);   // byte 52
    EXPECT_EQ(t->tag_dst.num_elem[1], 0xBFBE);
    EXPECT_EQ(encode(*t), b);
  }
  EXPECT_NE(decode(a, Generation::Cayman).status, DecodeStatus::Modeled);
}

TEST(SparsityCompress, DecodeNamesTheOpAndTheGroup) {
  Word w = sc_word();
  w[36] = 0x20;
  EXPECT_NE(test::field_text(w, Generation::Mariana, "op").find("ABS_MIN"), std::string::npos);
  EXPECT_NE(test::field_text(w, Generation::Mariana, "op_dim").find("X"), std::string::npos);
}

TEST(SparsityCompress, VerdictsNameTheFailingPredicates) {
  for (Generation g : kGens) {
    EXPECT_EQ(failing_names(sc_word(), g), Names{}) << to_string(g);
    EXPECT_EQ(failing_names(sct_word(), g), Names{}) << to_string(g);
  }
  Word w = sc_word();
  w[32] = dtype::kFp8Exp4;  // FP8 data in a UINT32 struct
  store_le<uint16_t>(&w[58], 9);
  EXPECT_EQ(failing_names(w, Generation::Mariana),
            (Names{"is_valid_sparsity_compress_dtypes", "reduce_dst_num_elements"}));
  Word t = sct_word();
  t[14] = 1;  // packed tags: four per UINT16, so 2 tag elements for 8 data
  EXPECT_EQ(failing_names(t, Generation::Maverick), Names{"sparsity_compress_tag_element_count"});
  store_le<uint16_t>(&t[60], 2);
  EXPECT_EQ(failing_names(t, Generation::Maverick), Names{});
}

TEST(SparsityCompress, WordsRoundTripThroughAssembly) {
  Word odd = sc_word();
  odd[36] = 0x33;  // no COMPRESS_OP name: written as a number
  test::expect_round_trips({sc_word(), sct_word(), odd, test::distinct_word(0xE0), test::distinct_word(0xE1)},
                           {Generation::Mariana, Generation::Maverick});
}

TEST(SparsityCompress, FootprintAndRefusedRun) {
  const family::Footprint f = family::footprint(dec(sct_word(), Generation::Mariana), Generation::Mariana);
  const auto ops = f.all();
  ASSERT_EQ(ops.size(), 3U);
  EXPECT_EQ(ops[1].operand, "data_dst");
  EXPECT_EQ(ops[1].last, 0x1000 + 8 * 2 - 1);
  EXPECT_EQ(ops[2].operand, "tag_dst");
  EXPECT_TRUE(ops[2].write);
  test::expect_refused(sc_word(), {Generation::Mariana, Generation::Maverick}, "SparsityCompress (0xe0)", 0x1000);
  test::expect_refused(sct_word(), {Generation::Mariana, Generation::Maverick}, "SparsityCompressTag (0xe1)", 0x1000);
}

}  // namespace
}  // namespace tpbisa::sc_test
