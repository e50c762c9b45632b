// Conversion-LUT family: CONV_LUT_LOAD decoded field by field at the wiki's offsets, its two legs validated with named
// failing predicates per generation, round-tripped through assembly, placed and refused when it runs
// (PROJ-CONV-CL3).
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

namespace tpbisa::convlut_test {
namespace {

using test::dec;
using Status = StepResult::Status;

constexpr Generation kGens[] = {Generation::Cayman, Generation::Mariana, Generation::Maverick};

/// The CPTC leg: a 4-unit UINT32 block from SBUF 0x0 on 128 rows, lut_dtype CPTC1 (0x19).
Word cptc_word() {
  Word w{};
  w[0] = 0xE4;
  w[1] = 0x10;
  store_le<int16_t>(&w[20], 1);
  store_le<uint16_t>(&w[24], 4);
  store_le<uint16_t>(&w[26], 1);
  w[32] = dtype::kUint32;
  w[38] = 128;
  w[39] = 128;
  w[44] = 0x0F;
  w[45] = 0x0F;
  w[47] = 0x19;
  return w;
}

/// The legacy leg: the 16-entry UINT16 table, lut_dtype INVALID.
Word legacy_word() {
  Word w = cptc_word();
  w[47] = 0;
  w[32] = dtype::kUint16;
  store_le<uint16_t>(&w[24], 16);
  return w;
}

std::vector<std::string> failing(const Word& w, Generation g) {
  std::vector<std::string> out;
  const Verdict v = validate(dec(w, g), g);  // alive while its failure list is walked
  for (const Predicate* p : v.failures()) out.emplace_back(p->name);
  return out;
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
  for (Generation g : kGens) EXPECT_EQ(failing(cptc_word(), g), std::vector<std::string>{}) << to_string(g);
  EXPECT_EQ(failing(legacy_word(), Generation::Mariana), std::vector<std::string>{});
  EXPECT_EQ(failing(legacy_word(), Generation::Cayman), std::vector<std::string>{"s2_convlut_valid_nc"});
  EXPECT_EQ(failing(legacy_word(), Generation::Maverick), std::vector<std::string>{"s2_convlut_valid_nc"});
  Word w = legacy_word();
  w[46] = 8;   // block_size: CPTC only
  w[39] = 64;  // the legacy table loads the whole array
  EXPECT_EQ(failing(w, Generation::Mariana),
            (std::vector<std::string>{"s2_convlut_legacy_reserved_zero", "s2_convlut_legacy_full_array"}));
  Word src = cptc_word();
  store_le<uint32_t>(&src[16], 0x40000);  // SBUF partition 1: 128 rows run past 127
  EXPECT_EQ(failing(src, Generation::Cayman), std::vector<std::string>{"start_addr_active_channels"});
  EXPECT_EQ(failing(src, Generation::Mariana), std::vector<std::string>{"check_m2d_active_channels"});
}

TEST(ConvLutLoad, WordsRoundTripThroughAssembly) {
  Word params = cptc_word();
  store_le<uint16_t>(&params[40], 0x3C00);
  params[46] = 32;
  for (const Word& w : {cptc_word(), legacy_word(), params, test::distinct_word(0xE4)})
    for (Generation g : kGens) {
      const std::string text = disassemble(dec(w, g), g);
      const AsmResult a = assemble(text, "roundtrip", g);
      ASSERT_TRUE(a.ok()) << text;
      ASSERT_EQ(a.words.size(), 1U);
      EXPECT_EQ(a.words[0], w) << text;
    }
}

TEST(ConvLutLoad, FootprintAndRefusedRun) {
  const family::Footprint f = family::footprint(dec(legacy_word(), Generation::Mariana), Generation::Mariana);
  const auto ops = f.all();
  ASSERT_EQ(ops.size(), 1U);
  EXPECT_EQ(ops[0].operand, "src");
  EXPECT_EQ(ops[0].partitions, 128U);
  EXPECT_EQ(ops[0].last, 16 * 2 - 1);
  for (Generation g : kGens) {
    Machine m(g, {cptc_word()}, test::recording());
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Faulted) << to_string(g);
    EXPECT_EQ(r.fault.kind, FaultKind::UnsupportedOpcode);
    EXPECT_NE(r.fault.detail.find("ConvLutLoad (0xe4)"), std::string::npos) << r.fault.detail;
    EXPECT_NE(r.fault.detail.find("semantics are not public"), std::string::npos) << r.fault.detail;
  }
}

}  // namespace
}  // namespace tpbisa::convlut_test
