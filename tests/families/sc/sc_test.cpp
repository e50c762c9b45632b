// Sparsity-compress family: SPARSITY_COMPRESS and SPARSITY_COMPRESS_TAG decoded field by field at the wiki's
// compile-verified offsets, described, validated with named failing predicates, round-tripped through assembly, placed
// and refused when they run (PROJ-CONV-SC3).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../../support/layout_golden.hpp"
#include "../../support/machine_builders.hpp"
#include "../../support/test_util.hpp"
#include "families/family.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::sc_test {
namespace {

using test::dec;
using Status = StepResult::Status;

constexpr Generation kGens[] = {Generation::Mariana, Generation::Maverick};

/// SPARSITY_COMPRESS: 2 groups of 16 FP32 elements (X), MAX, 8 UINT32 {BF16 data, tag} at SBUF 0x1000, 64 channels.
Word sc_word() {
  Word w{};
  w[0] = 0xE0;
  w[1] = 0x10;
  w[12] = dtype::kFp32;
  store_le<int16_t>(&w[20], 1);
  store_le<int16_t>(&w[22], 16);
  store_le<uint16_t>(&w[26], 16);
  store_le<uint16_t>(&w[28], 2);
  store_le<uint16_t>(&w[30], 1);
  w[32] = dtype::kBfloat16;
  w[33] = dtype::kUint32;
  w[34] = 64;
  w[36] = 0x09;
  w[37] = 0x02;
  store_le<uint32_t>(&w[48], 0x1000);
  store_le<int16_t>(&w[52], 1);
  store_le<uint16_t>(&w[58], 8);
  store_le<uint16_t>(&w[60], 1);
  store_le<uint16_t>(&w[62], 1);
  return w;
}

/// SPARSITY_COMPRESS_TAG: the same reduction, 8 BF16 data at SBUF 0x1000, 8 UINT16 tags at SBUF 0x2000.
Word sct_word() {
  Word w{};
  w[0] = 0xE1;
  w[1] = 0x10;
  w[12] = dtype::kFp32;
  store_le<int16_t>(&w[24], 1);
  store_le<int16_t>(&w[26], 16);
  store_le<uint16_t>(&w[28], 16);
  store_le<uint16_t>(&w[30], 2);
  w[32] = dtype::kBfloat16;
  w[33] = dtype::kUint16;
  w[34] = 64;
  w[36] = 0x09;
  w[37] = 0x02;
  store_le<uint32_t>(&w[40], 0x1000);
  store_le<int16_t>(&w[44], 1);
  store_le<uint16_t>(&w[48], 8);
  store_le<uint16_t>(&w[50], 1);
  store_le<uint32_t>(&w[52], 0x2000);
  store_le<int16_t>(&w[56], 1);
  store_le<uint16_t>(&w[60], 8);
  store_le<uint16_t>(&w[62], 1);
  return w;
}

std::vector<std::string> failing(const Word& w, Generation g) {
  std::vector<std::string> out;
  const Verdict v = validate(dec(w, g), g);  // alive while its failure list is walked
  for (const Predicate* p : v.failures()) out.emplace_back(p->name);
  return out;
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
  const auto field = [&](std::string_view name) {
    for (const DescribedField& f : describe_fields(dec(w, Generation::Mariana)))
      if (f.name == name) return format_value(f) + " | " + f.meaning;
    return std::string("(absent)");
  };
  EXPECT_NE(field("op").find("ABS_MIN"), std::string::npos) << field("op");
  EXPECT_NE(field("op_dim").find("X"), std::string::npos) << field("op_dim");
}

TEST(SparsityCompress, VerdictsNameTheFailingPredicates) {
  for (Generation g : kGens) {
    EXPECT_EQ(failing(sc_word(), g), std::vector<std::string>{}) << to_string(g);
    EXPECT_EQ(failing(sct_word(), g), std::vector<std::string>{}) << to_string(g);
  }
  Word w = sc_word();
  w[32] = dtype::kFp8Exp4;  // FP8 data in a UINT32 struct
  store_le<uint16_t>(&w[58], 9);
  EXPECT_EQ(failing(w, Generation::Mariana),
            (std::vector<std::string>{"is_valid_sparsity_compress_dtypes", "reduce_dst_num_elements"}));
  Word t = sct_word();
  t[14] = 1;  // packed tags: four per UINT16, so 2 tag elements for 8 data
  EXPECT_EQ(failing(t, Generation::Maverick), std::vector<std::string>{"sparsity_compress_tag_element_count"});
  store_le<uint16_t>(&t[60], 2);
  EXPECT_EQ(failing(t, Generation::Maverick), std::vector<std::string>{});
}

TEST(SparsityCompress, WordsRoundTripThroughAssembly) {
  Word odd = sc_word();
  odd[36] = 0x33;  // no COMPRESS_OP name: written as a number
  for (const Word& w : {sc_word(), sct_word(), odd, test::distinct_word(0xE0), test::distinct_word(0xE1)})
    for (Generation g : kGens) {
      const std::string text = disassemble(dec(w, g), g);
      const AsmResult a = assemble(text, "roundtrip", g);
      ASSERT_TRUE(a.ok()) << text;
      ASSERT_EQ(a.words.size(), 1U);
      EXPECT_EQ(a.words[0], w) << text;
    }
}

TEST(SparsityCompress, FootprintAndRefusedRun) {
  const auto ops = family::footprint(dec(sct_word(), Generation::Mariana), Generation::Mariana).all();
  ASSERT_EQ(ops.size(), 3U);
  EXPECT_EQ(ops[1].operand, "data_dst");
  EXPECT_EQ(ops[1].last, 0x1000 + 8 * 2 - 1);
  EXPECT_EQ(ops[2].operand, "tag_dst");
  EXPECT_TRUE(ops[2].write);
  for (const Word& w : {sc_word(), sct_word()})
    for (Generation g : kGens) {
      Machine m(g, {w}, test::recording());
      const StepResult r = m.step();
      ASSERT_EQ(r.status, Status::Faulted) << to_string(g);
      EXPECT_EQ(r.fault.kind, FaultKind::UnsupportedOpcode);
      EXPECT_NE(r.fault.detail.find("semantics are not public"), std::string::npos) << r.fault.detail;
    }
}

}  // namespace
}  // namespace tpbisa::sc_test
