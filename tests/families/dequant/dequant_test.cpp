// Tensor-dequantize family: TENSOR_DEQUANTIZE decoded field by field at the wiki's offsets, described, validated with
// named failing predicates (per-generation names, SUNDA's gate), round-tripped through assembly, placed by its
// footprint hook and refused when it runs (its semantics are not public, PROJ-CONV-DQ3).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../support/family_checks.hpp"
#include "../../support/layout_golden.hpp"
#include "families/family.hpp"
#include "words.hpp"

namespace tpbisa::dequant_test {
namespace {

using test::dec;
using test::failing_names;
using Names = std::vector<std::string>;

constexpr Generation kAll[] = {Generation::Sunda, Generation::Cayman, Generation::Mariana, Generation::Maverick};

Word dequant_word() {
  return test::dequant_words::base();
}

// ---- Layout (the wiki's tensor-dequantize page §2): every field at its bytes, little-endian ----

TEST(TensorDequantize, LayoutGoldenPlacesEveryFieldAtTheWikisOffsets) {
  const Word w = test::distinct_word(0x7B);
  for (Generation g : kAll) {
    const Instruction inst = decode(w, g);
    ASSERT_EQ(inst.status, DecodeStatus::Modeled) << to_string(g);
    const S3d3TensDequant* d = inst.as<S3d3TensDequant>();
    ASSERT_NE(d, nullptr);
    test::expect_common_prefix(d->header, d->events, 0x7B);
    EXPECT_EQ(d->src.start_addr.raw, 0x8F8E8D8CU);                 // byte 12
    EXPECT_EQ(d->src.step_elem[0], static_cast<int16_t>(0x9190));  // byte 16
    EXPECT_EQ(d->src.num_elem[2], 0x9B9A);                         // byte 26
    EXPECT_EQ(d->reserved0[0], 0x9C);                              // bytes 28-31
    EXPECT_EQ(d->in_dtype, 0xA0);                                  // byte 32
    EXPECT_EQ(d->out_dtype, 0xA1);
    EXPECT_EQ(d->num_active_channels, 0xA2);
    EXPECT_EQ(d->dequant_fmt, 0xA3);  // byte 35
    EXPECT_EQ(d->group_size, 0xA4);
    EXPECT_EQ(d->reserved1[0], 0xA5);  // bytes 37-43
    EXPECT_EQ(d->reserved1[6], 0xAB);
    EXPECT_EQ(d->dst.start_addr.raw, 0xAFAEADACU);  // byte 44
    EXPECT_EQ(d->dst.num_elem[2], 0xBBBA);          // byte 58
    EXPECT_EQ(d->reserved2[3], 0xBF);               // bytes 60-63
    EXPECT_EQ(encode(*d), w);
  }
}

TEST(TensorDequantize, DecodeNamesTheFormatAndTheGroup) {
  Word w = dequant_word();
  w[35] = 3;
  w[36] = 8;
  const Generation g = Generation::Cayman;
  EXPECT_NE(test::field_text(w, g, "dequant_fmt").find("NF4TO_E4M3"), std::string::npos);
  EXPECT_NE(test::field_text(w, g, "group_size").find("block of 8"), std::string::npos);
  EXPECT_NE(test::field_text(w, g, "in_dtype").find("transport"), std::string::npos);
}

// ---- Validation: the verdict names the failing conjuncts, by their per-generation names ----

TEST(TensorDequantize, ValidFromCaymanOnAndGatedOnSunda) {
  for (Generation g : {Generation::Cayman, Generation::Mariana, Generation::Maverick})
    EXPECT_EQ(failing_names(dequant_word(), g), Names{}) << to_string(g);
  EXPECT_EQ(failing_names(dequant_word(), Generation::Sunda), Names{"has_valid_nc_tens_dequant"});
}

TEST(TensorDequantize, VerdictsNameTheFailingPredicates) {
  Word w = dequant_word();
  w[35] = 4;  // FP6 ...
  w[36] = 8;  // ... micro-scaled: never
  store_le<uint16_t>(&w[22], 40);
  for (Generation g : {Generation::Cayman, Generation::Mariana, Generation::Maverick})
    EXPECT_EQ(failing_names(w, g),
              (Names{"has_valid_dequant_fmt_group_size", "s3d3_tens_dequant_element_count_check_t3d"}));
  Word odd = dequant_word();
  store_le<uint32_t>(&odd[12], 0x2);  // src not aligned for UINT32
  EXPECT_EQ(failing_names(odd, Generation::Cayman), Names{"tensor3d_valid"});
  EXPECT_EQ(failing_names(odd, Generation::Mariana), Names{"mem3d_valid"});
  Word dt = dequant_word();
  dt[33] = dtype::kFp8Exp5;  // the FP8 output named by its dtype: refused, UINT32 transport only
  EXPECT_EQ(failing_names(dt, Generation::Maverick), Names{"has_valid_tens_dequant_out_dtype"});
}

// ---- Assembly: an exact round trip, valid and invalid words alike ----

TEST(TensorDequantize, WordsRoundTripThroughAssembly) {
  Word mx = dequant_word();
  mx[35] = 3;
  mx[36] = 8;
  store_le<uint16_t>(&mx[22], 40);
  Word odd = dequant_word();
  odd[35] = 9;  // no DEQUANT_FMT name: written as a number
  odd[30] = 0x55;
  Word reg = dequant_word();
  store_le<uint32_t>(&reg[12], 0x80000005);
  test::expect_round_trips({dequant_word(), mx, odd, reg, test::distinct_word(0x7B)},
                           {Generation::Sunda, Generation::Cayman, Generation::Mariana, Generation::Maverick});
}

// ---- Footprint: both operands on num_active_channels SBUF partitions of 4-byte words ----

TEST(TensorDequantize, FootprintPlacesBothOperands) {
  const family::Footprint f = family::footprint(dec(dequant_word(), Generation::Cayman), Generation::Cayman);
  const auto ops = f.all();
  ASSERT_EQ(ops.size(), 2U);
  EXPECT_EQ(ops[0].operand, "src");
  EXPECT_EQ(ops[0].region, Region::Sbuf);
  EXPECT_EQ(ops[0].partitions, 64U);
  EXPECT_EQ(ops[0].last, 32 * 4 - 1);
  EXPECT_FALSE(ops[0].write);
  EXPECT_EQ(ops[1].operand, "dst");
  EXPECT_EQ(ops[1].first, 0x1000);
  EXPECT_EQ(ops[1].last, 0x1000 + 64 * 4 - 1);
  EXPECT_TRUE(ops[1].write);
}

// ---- Execution: refused, the semantics are not public (PROJ-CONV-DQ3) ----

TEST(TensorDequantize, RunRefusesItNamingTheOpcodeAndChangesNothing) {
  test::expect_refused(dequant_word(), {Generation::Cayman, Generation::Mariana, Generation::Maverick},
                       "TensorDequantize (0x7b)", 0x1000);
}

}  // namespace
}  // namespace tpbisa::dequant_test
