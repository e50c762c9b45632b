// Sparse matmul family: MATMUL_SPARSE decoded field by field at the wiki's offsets, described, validated with named
// failing predicates, round-tripped through assembly, placed by its footprint hook and refused when it runs (its
// semantics are not public, PROJ-CONV-SP5); LDTAGS and PSEUDO_SET_RNG_SEED stay `layout not public`.
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

namespace tpbisa::sparse_test {
namespace {

using test::dec;
using test::peek;
using test::poke;
using Status = StepResult::Status;

constexpr Generation kSparseGens[] = {Generation::Cayman, Generation::Mariana, Generation::Maverick};

/// 4 BF16 fmaps of 64 elements from SBUF 0x0, 128 rows, 96 columns, SINGLE, into 64 FP32 elements at 0x2000000
/// (PSUM partition 0; MAVERICK: SBUF partition 32).
Word sparse_word() {
  Word w{};
  w[0] = 0x07;
  w[1] = 0x10;
  store_le<int16_t>(&w[16], 1);
  store_le<int16_t>(&w[22], 64);
  const uint16_t num[4] = {64, 1, 1, 4};
  for (unsigned k = 0; k < 4; ++k) store_le<uint16_t>(&w[24 + 2 * k], num[k]);
  w[32] = dtype::kBfloat16;
  w[38] = 128;
  w[39] = 96;
  w[43] = 3;
  w[44] = 0x0F;
  w[45] = 0x0F;
  store_le<uint32_t>(&w[48], 0x2000000);
  store_le<int16_t>(&w[52], 1);
  store_le<uint16_t>(&w[58], 64);
  store_le<uint16_t>(&w[60], 1);
  store_le<uint16_t>(&w[62], 1);
  return w;
}

std::vector<std::string> failing(const Word& w, Generation g) {
  std::vector<std::string> out;
  const Verdict v = validate(dec(w, g), g);  // alive while its failure list is walked
  for (const Predicate* p : v.failures()) out.emplace_back(p->name);
  return out;
}

// ---- Layout (the wiki's pe-matmul page §9): every field at its bytes, little-endian ----

TEST(MatmulSparse, LayoutGoldenPlacesEveryFieldAtTheWikisOffsets) {
  const Word w = test::distinct_word(0x07);
  for (Generation g : kSparseGens) {
    const Instruction inst = decode(w, g);
    ASSERT_EQ(inst.status, DecodeStatus::Modeled) << to_string(g);
    const S4d3Mm* m = inst.as<S4d3Mm>();
    ASSERT_NE(m, nullptr);
    test::expect_common_prefix(m->header, m->events, 0x07);
    EXPECT_EQ(m->src.start_addr.raw, 0x8F8E8D8CU);                 // byte 12
    EXPECT_EQ(m->src.step_elem[0], static_cast<int16_t>(0x9190));  // byte 16
    EXPECT_EQ(m->src.num_elem[0], 0x9998);                         // byte 24
    EXPECT_EQ(m->src.num_elem[3], 0x9F9E);                         // byte 30: the fmaps per partition
    EXPECT_EQ(m->in_dtype, 0xA0);                                  // byte 32
    EXPECT_EQ(m->fp32_mode, 0xA1);
    EXPECT_EQ(m->out_dtype, 0xA2);
    EXPECT_EQ(m->perf_opt, 0xA3);
    EXPECT_EQ(m->reserved_quant[0], 0xA4);  // bytes 36-37
    EXPECT_EQ(m->reserved_quant[1], 0xA5);
    EXPECT_EQ(m->num_active_rows, 0xA6);  // byte 38
    EXPECT_EQ(m->num_active_cols, 0xA7);
    EXPECT_EQ(m->reserved[2], 0xAA);  // bytes 40-42
    EXPECT_EQ(m->psum_accumulate_flags, 0xAB);
    EXPECT_EQ(m->row_grp, 0xAC);
    EXPECT_EQ(m->col_grp, 0xAD);
    EXPECT_EQ(m->active_row_mode, 0xAE);
    EXPECT_EQ(m->psum_zero_region, 0xAF);
    EXPECT_EQ(m->dst.start_addr.raw, 0xB3B2B1B0U);  // byte 48
    EXPECT_EQ(m->dst.num_elem[2], 0xBFBE);          // byte 62
    EXPECT_EQ(encode(*m), w);
  }
  // SUNDA has no MATMUL_SPARSE: its words stay unmodeled there.
  EXPECT_NE(decode(w, Generation::Sunda).status, DecodeStatus::Modeled);
}

TEST(MatmulSparse, DecodeNamesTheFmapsAndTheZeroRegion) {
  const auto field = [](const Word& w, std::string_view name) {
    for (const DescribedField& f : describe_fields(dec(w, Generation::Mariana)))
      if (f.name == name) return format_value(f) + " | " + f.meaning;
    return std::string("(absent)");
  };
  Word w = sparse_word();
  w[47] = 2;
  EXPECT_NE(field(w, "psum_zero_region").find("SIZE8192"), std::string::npos) << field(w, "psum_zero_region");
  EXPECT_NE(field(w, "src.num_elem[3]").find("4 fmaps"), std::string::npos) << field(w, "src.num_elem[3]");
  EXPECT_NE(field(w, "col_grp").find("four column groups"), std::string::npos) << field(w, "col_grp");
}

// ---- Validation: the verdict names the failing conjuncts ----

TEST(MatmulSparse, ValidOnEveryGenerationThatHasIt) {
  for (Generation g : kSparseGens) EXPECT_EQ(failing(sparse_word(), g), std::vector<std::string>{}) << to_string(g);
}

TEST(MatmulSparse, VerdictsNameTheFailingPredicates) {
  Word w = sparse_word();
  store_le<uint16_t>(&w[30], 5);  // five fmaps
  w[45] = 0x03;                   // two column groups
  for (Generation g : kSparseGens)
    EXPECT_EQ(failing(w, g), (std::vector<std::string>{"s4d3_mm_valid_num_fmaps", "s4d3_mm_full_col_group"}));
  Word out = sparse_word();
  out[34] = dtype::kFp32;  // FP32 output: MARIANA on
  EXPECT_EQ(failing(out, Generation::Cayman), std::vector<std::string>{"has_valid_mm_out_dtype"});
  EXPECT_EQ(failing(out, Generation::Mariana), std::vector<std::string>{});
  Word perf = sparse_word();
  perf[35] = 1;  // a performance mode with 2-byte BF16 input
  EXPECT_EQ(failing(perf, Generation::Maverick), std::vector<std::string>{"s4d3_mm_perf_opt_dtype"});
  ValidateOptions on_act;
  on_act.engine = StreamEngine::Act;
  EXPECT_TRUE(validate(dec(sparse_word(), Generation::Cayman), Generation::Cayman, on_act).fails("engine_placement"));
}

// ---- Assembly: an exact round trip, valid and invalid words alike ----

TEST(MatmulSparse, WordsRoundTripThroughAssembly) {
  Word zero = sparse_word();
  zero[47] = 3;  // SIZE16384
  zero[33] = 1;  // an fp32_mode that fails validation still round-trips
  Word odd = sparse_word();
  odd[47] = 9;  // no MATMUL_ZERO_REGION name: written as a number
  odd[36] = 0x55;
  Word reg = sparse_word();
  store_le<uint32_t>(&reg[12], 0x80000005);
  for (const Word& w : {sparse_word(), zero, odd, reg, test::distinct_word(0x07)})
    for (Generation g : kSparseGens) {
      const std::string text = disassemble(dec(w, g), g);
      const AsmResult a = assemble(text, "roundtrip", g);
      ASSERT_TRUE(a.ok()) << text;
      ASSERT_EQ(a.words.size(), 1U);
      EXPECT_EQ(a.words[0], w) << text;
    }
}

// ---- Footprint: src on num_active_rows partitions of all fmaps, dst on num_active_cols of FP32 ----

TEST(MatmulSparse, FootprintPlacesBothOperands) {
  const family::Footprint f = family::footprint(dec(sparse_word(), Generation::Cayman), Generation::Cayman);
  const auto ops = f.all();
  ASSERT_EQ(ops.size(), 2U);
  EXPECT_EQ(ops[0].operand, "src");
  EXPECT_EQ(ops[0].region, Region::Sbuf);
  EXPECT_EQ(ops[0].partitions, 128U);
  EXPECT_EQ(ops[0].first, 0);
  EXPECT_EQ(ops[0].last, (63 + 3 * 64) * 2 + 1);  // the last byte of the fourth fmap's last BF16 element
  EXPECT_FALSE(ops[0].write);
  EXPECT_EQ(ops[1].operand, "dst");
  EXPECT_EQ(ops[1].region, Region::Psum);
  EXPECT_EQ(ops[1].partitions, 96U);
  EXPECT_EQ(ops[1].last, 64 * 4 - 1);
  EXPECT_TRUE(ops[1].write);
}

// ---- Execution: refused, the semantics are not public (PROJ-CONV-SP5) ----

TEST(MatmulSparse, RunRefusesItNamingTheOpcodeAndChangesNothing) {
  for (Generation g : kSparseGens) {
    Machine m(g, {sparse_word()}, test::recording());
    poke(m.mutable_state(), *sbuf_address(g, 0, 0), 8, 0x3F803F803F803F80ULL);
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Faulted) << to_string(g);
    EXPECT_EQ(r.fault.kind, FaultKind::UnsupportedOpcode);
    EXPECT_NE(r.fault.detail.find("MatmulSparse (0x07)"), std::string::npos) << r.fault.detail;
    EXPECT_NE(r.fault.detail.find("semantics are not public"), std::string::npos) << r.fault.detail;
    EXPECT_EQ(peek(m.state(), *sbuf_address(g, 0, 0), 8), 0x3F803F803F803F80ULL);
  }
}

// ---- What stays unmodeled: LDTAGS (S3_LT) and PSEUDO_SET_RNG_SEED name the source that would settle them ----

TEST(MatmulSparse, LdtagsAndSetRngSeedStayLayoutNotPublic) {
  for (uint8_t op : {uint8_t{0x06}, uint8_t{0xD0}}) {
    const OpcodeInfo* info = find_opcode(op);
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info->format, Format::NotModeled);
    EXPECT_NE(info->layout_not_public.find("opcode-research.md"), std::string_view::npos) << info->enum_name;
  }
  EXPECT_EQ(find_opcode(0x07)->format, Format::S4d3Mm);
  EXPECT_TRUE(find_opcode(0x07)->layout_not_public.empty());
}

}  // namespace
}  // namespace tpbisa::sparse_test
