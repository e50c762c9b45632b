// Tensor-dequantize family: TENSOR_DEQUANTIZE decoded field by field at the wiki's offsets, described, validated with
// named failing predicates (per-generation names, SUNDA's gate), round-tripped through assembly, placed by its
// footprint hook and refused when it runs (its semantics are not public, PROJ-CONV-DQ3).
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

namespace tpbisa::dequant_test {
namespace {

using test::dec;
using test::peek;
using test::poke;
using Status = StepResult::Status;

constexpr Generation kGens[] = {Generation::Cayman, Generation::Mariana, Generation::Maverick};

/// 32 UINT32 words of FP4 codes from SBUF 0x0 into 64 UINT32 words at SBUF 0x1000, 64 channels, E2M1TO_E5M2.
Word dequant_word() {
  Word w{};
  w[0] = 0x7B;
  w[1] = 0x10;
  store_le<int16_t>(&w[16], 1);
  store_le<uint16_t>(&w[22], 32);
  store_le<uint16_t>(&w[24], 1);
  store_le<uint16_t>(&w[26], 1);
  w[32] = dtype::kUint32;
  w[33] = dtype::kUint32;
  w[34] = 64;
  w[35] = 1;
  store_le<uint32_t>(&w[44], 0x1000);
  store_le<int16_t>(&w[48], 1);
  store_le<uint16_t>(&w[54], 64);
  store_le<uint16_t>(&w[56], 1);
  store_le<uint16_t>(&w[58], 1);
  return w;
}

std::vector<std::string> failing(const Word& w, Generation g) {
  std::vector<std::string> out;
  const Verdict v = validate(dec(w, g), g);  // alive while its failure list is walked
  for (const Predicate* p : v.failures()) out.emplace_back(p->name);
  return out;
}

// ---- Layout (the wiki's tensor-dequantize page §2): every field at its bytes, little-endian ----

TEST(TensorDequantize, LayoutGoldenPlacesEveryFieldAtTheWikisOffsets) {
  const Word w = test::distinct_word(0x7B);
  for (Generation g : {Generation::Sunda, Generation::Cayman, Generation::Mariana, Generation::Maverick}) {
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
  const auto field = [](const Word& w, std::string_view name) {
    for (const DescribedField& f : describe_fields(dec(w, Generation::Cayman)))
      if (f.name == name) return format_value(f) + " | " + f.meaning;
    return std::string("(absent)");
  };
  Word w = dequant_word();
  w[35] = 3;
  w[36] = 8;
  EXPECT_NE(field(w, "dequant_fmt").find("NF4TO_E4M3"), std::string::npos) << field(w, "dequant_fmt");
  EXPECT_NE(field(w, "dequant_fmt").find("FP8 E4M3"), std::string::npos) << field(w, "dequant_fmt");
  EXPECT_NE(field(w, "group_size").find("block of 8"), std::string::npos) << field(w, "group_size");
  EXPECT_NE(field(w, "in_dtype").find("transport"), std::string::npos) << field(w, "in_dtype");
}

// ---- Validation: the verdict names the failing conjuncts, by their per-generation names ----

TEST(TensorDequantize, ValidFromCaymanOnAndGatedOnSunda) {
  for (Generation g : kGens) EXPECT_EQ(failing(dequant_word(), g), std::vector<std::string>{}) << to_string(g);
  EXPECT_EQ(failing(dequant_word(), Generation::Sunda), std::vector<std::string>{"has_valid_nc_tens_dequant"});
}

TEST(TensorDequantize, VerdictsNameTheFailingPredicates) {
  Word w = dequant_word();
  w[35] = 4;  // FP6 ...
  w[36] = 8;  // ... micro-scaled: never
  store_le<uint16_t>(&w[22], 40);
  for (Generation g : kGens)
    EXPECT_EQ(failing(w, g), (std::vector<std::string>{"has_valid_dequant_fmt_group_size",
                                                       "s3d3_tens_dequant_element_count_check_t3d"}));
  Word odd = dequant_word();
  store_le<uint32_t>(&odd[12], 0x2);  // src not aligned for UINT32
  EXPECT_EQ(failing(odd, Generation::Cayman), std::vector<std::string>{"tensor3d_valid"});
  EXPECT_EQ(failing(odd, Generation::Mariana), std::vector<std::string>{"mem3d_valid"});
  Word dt = dequant_word();
  dt[33] = dtype::kFp8Exp5;  // the FP8 output named by its dtype: refused, UINT32 transport only
  EXPECT_EQ(failing(dt, Generation::Maverick), std::vector<std::string>{"has_valid_tens_dequant_out_dtype"});
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
  for (const Word& w : {dequant_word(), mx, odd, reg, test::distinct_word(0x7B)})
    for (Generation g : {Generation::Sunda, Generation::Cayman, Generation::Mariana, Generation::Maverick}) {
      const std::string text = disassemble(dec(w, g), g);
      const AsmResult a = assemble(text, "roundtrip", g);
      ASSERT_TRUE(a.ok()) << text;
      ASSERT_EQ(a.words.size(), 1U);
      EXPECT_EQ(a.words[0], w) << text;
    }
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
  for (Generation g : kGens) {
    Machine m(g, {dequant_word()}, test::recording());
    poke(m.mutable_state(), *sbuf_address(g, 0, 0x1000), 8, 0x0123456789ABCDEFULL);
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Faulted) << to_string(g);
    EXPECT_EQ(r.fault.kind, FaultKind::UnsupportedOpcode);
    EXPECT_NE(r.fault.detail.find("TensorDequantize (0x7b)"), std::string::npos) << r.fault.detail;
    EXPECT_NE(r.fault.detail.find("semantics are not public"), std::string::npos) << r.fault.detail;
    EXPECT_EQ(peek(m.state(), *sbuf_address(g, 0, 0x1000), 8), 0x0123456789ABCDEFULL);
  }
}

}  // namespace
}  // namespace tpbisa::dequant_test
