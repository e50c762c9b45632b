// PE seed family: PE_MANAGE_SEED decoded field by field at the wiki's offsets, described, validated with named
// failing predicates, round-tripped through assembly, placed by its footprint hook and refused when it runs (its
// semantics are not public, PROJ-CONV-PS3).
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

namespace tpbisa::peseed_test {
namespace {

using test::dec;
using test::peek;
using test::poke;
using Status = StepResult::Status;

constexpr Generation kGens[] = {Generation::Mariana, Generation::Maverick};

/// LOAD_SEED: 128 seeds per partition from SBUF 0x1000, a 16-element BF16 identity at SBUF 0x2000.
Word seed_word() {
  Word w{};
  w[0] = 0x08;
  w[1] = 0x10;
  store_le<uint32_t>(&w[12], 0x1000);
  store_le<int16_t>(&w[16], 1);
  store_le<uint16_t>(&w[20], 128);
  store_le<uint16_t>(&w[22], 1);
  store_le<uint32_t>(&w[24], 0x2000);
  store_le<int16_t>(&w[28], 1);
  store_le<uint16_t>(&w[30], 16);
  w[32] = dtype::kBfloat16;
  w[33] = 1;
  w[34] = 16;
  w[35] = 128;
  return w;
}

std::vector<std::string> failing(const Word& w, Generation g) {
  std::vector<std::string> out;
  const Verdict v = validate(dec(w, g), g);  // alive while its failure list is walked
  for (const Predicate* p : v.failures()) out.emplace_back(p->name);
  return out;
}

TEST(PeManageSeed, LayoutGoldenPlacesEveryFieldAtTheWikisOffsets) {
  const Word w = test::distinct_word(0x08);
  for (Generation g : kGens) {
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
  const auto field = [](const Word& w, std::string_view name) {
    for (const DescribedField& f : describe_fields(dec(w, Generation::Mariana)))
      if (f.name == name) return format_value(f) + " | " + f.meaning;
    return std::string("(absent)");
  };
  Word w = seed_word();
  w[33] = 2;
  EXPECT_NE(field(w, "mode").find("SAVE_SEED"), std::string::npos) << field(w, "mode");
  EXPECT_NE(field(w, "mode").find("save the PSUM"), std::string::npos) << field(w, "mode");
}

TEST(PeManageSeed, VerdictsNameTheFailingPredicates) {
  for (Generation g : kGens) EXPECT_EQ(failing(seed_word(), g), std::vector<std::string>{}) << to_string(g);
  Word w = seed_word();
  w[34] = 32;                      // rows
  store_le<uint16_t>(&w[20], 64);  // 64 seeds per partition
  for (Generation g : kGens)
    EXPECT_EQ(failing(w, g), (std::vector<std::string>{"pe_seed_num_active_rows_16", "pe_seed_valid_src"}));
  Word save = seed_word();
  save[33] = 2;  // SAVE_SEED to SBUF partition 0: MAVERICK's destination region, not MARIANA's (PSUM)
  store_le<uint16_t>(&save[44], 16);
  store_le<uint16_t>(&save[46], 1);
  EXPECT_EQ(failing(save, Generation::Mariana), std::vector<std::string>{"pe_seed_valid_dst"});
  EXPECT_EQ(failing(save, Generation::Maverick), std::vector<std::string>{});
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
  for (const Word& w : {seed_word(), save, odd, test::distinct_word(0x08)})
    for (Generation g : kGens) {
      const std::string text = disassemble(dec(w, g), g);
      const AsmResult a = assemble(text, "roundtrip", g);
      ASSERT_TRUE(a.ok()) << text;
      ASSERT_EQ(a.words.size(), 1U);
      EXPECT_EQ(a.words[0], w) << text;
    }
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
  for (Generation g : kGens) {
    Machine m(g, {seed_word()}, test::recording());
    poke(m.mutable_state(), *sbuf_address(g, 0, 0x1000), 8, 0x1122334455667788ULL);
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Faulted) << to_string(g);
    EXPECT_EQ(r.fault.kind, FaultKind::UnsupportedOpcode);
    EXPECT_NE(r.fault.detail.find("PeManageSeed (0x08)"), std::string::npos) << r.fault.detail;
    EXPECT_NE(r.fault.detail.find("semantics are not public"), std::string::npos) << r.fault.detail;
    EXPECT_EQ(peek(m.state(), *sbuf_address(g, 0, 0x1000), 8), 0x1122334455667788ULL);
  }
}

}  // namespace
}  // namespace tpbisa::peseed_test
