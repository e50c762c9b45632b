// describe: the descriptor-driven field walk, the field meanings and the EVENTS text syntax.
#include <gtest/gtest.h>

#include <string>

#include "../support/validate_vectors.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa {
namespace {

Events ev(uint8_t wait_mode, uint8_t wait_idx, uint8_t update_mode, uint8_t update_idx, uint32_t value) {
  return Events{wait_mode, wait_idx, update_mode, update_idx, value};
}

const DescribedField& field(const std::vector<DescribedField>& fields, std::string_view name) {
  for (const auto& f : fields)
    if (f.name == name) return f;
  static const DescribedField kMissing{};
  ADD_FAILURE() << "no field " << name;
  return kMissing;
}

Instruction decode_word(const Word& w, Generation g) {
  return decode(std::span<const uint8_t, kWordBytes>(w), g);
}

// ---- EVENTS syntax ----

TEST(DescribeEvents, SemaphoreImmediateWaits) {
  EXPECT_EQ(render_wait(ev(0x04, 11, 0, 0, 0), Generation::Mariana), "$S[11]>0");
  EXPECT_EQ(render_wait(ev(0x05, 4, 0, 0, 2), Generation::Mariana), "$S[4]>=2");
  EXPECT_EQ(render_wait(ev(0x01, 4, 0, 0, 2), Generation::Mariana), "$S[4]==2");
  EXPECT_EQ(render_wait(ev(0x02, 4, 0, 0, 2), Generation::Mariana), "$S[4]<2");
  EXPECT_EQ(render_wait(ev(0x03, 4, 0, 0, 2), Generation::Mariana), "$S[4]<=2");
}

TEST(DescribeEvents, RegisterWaitsUseTheLowByte) {
  // PROJ-CONV-C3: register = semaphore_value & 0xFF.
  EXPECT_EQ(render_wait(ev(0x85, 4, 0, 0, 5), Generation::Cayman), "$S[4]>=r5");
  EXPECT_EQ(render_wait(ev(0x81, 4, 0, 0, 0x1205), Generation::Cayman), "$S[4]==r5");
}

TEST(DescribeEvents, RegisterOffsetWaitsOnMaverickOnly) {
  // PROJ-CONV-C5: reg = low byte, off = upper 24 bits.
  EXPECT_EQ(render_wait(ev(0x95, 4, 0, 0, 0x1005), Generation::Maverick), "$S[4]>=r5+0x10");
  EXPECT_EQ(render_wait(ev(0x91, 4, 0, 0, 5), Generation::Maverick), "$S[4]==r5+0x0");
  EXPECT_EQ(render_wait(ev(0x95, 4, 0, 0, 0x1005), Generation::Mariana), "wait_mode=0x95(invalid)");
}

TEST(DescribeEvents, EventWaitsBeforeMaverick) {
  EXPECT_EQ(render_wait(ev(0x06, 3, 0, 0, 0), Generation::Sunda), "$E[3]?set");
  EXPECT_EQ(render_wait(ev(0x07, 3, 0, 0, 0), Generation::Cayman), "$E[3]?set!clear");
  EXPECT_EQ(render_wait(ev(0x0E, 3, 0, 0, 0), Generation::Mariana), "$E[3]?clear");
  EXPECT_EQ(render_wait(ev(0x0F, 3, 0, 0, 0), Generation::Mariana), "$E[3]?clear!set");
  EXPECT_EQ(render_wait(ev(0x06, 3, 0, 0, 0), Generation::Maverick), "wait_mode=0x06(invalid)");
}

TEST(DescribeEvents, NoneUnorderedAndInvalidWaits) {
  EXPECT_EQ(render_wait(ev(0x00, 0, 0, 0, 0), Generation::Mariana), "");
  EXPECT_EQ(render_wait(ev(0xFE, 0, 0, 0, 0), Generation::Mariana), "unordered");
  EXPECT_EQ(render_wait(ev(0x42, 0, 0, 0, 0), Generation::Mariana), "wait_mode=0x42(invalid)");
}

TEST(DescribeEvents, SemaphoreUpdates) {
  const Generation g = Generation::Mariana;
  EXPECT_EQ(render_update(ev(0, 0, 0x13, 22, 0), g), "$S[22]++@complete");
  EXPECT_EQ(render_update(ev(0, 0, 0x04, 22, 0), g), "$S[22]--@read");
  EXPECT_EQ(render_update(ev(0, 0, 0x05, 22, 5), g), "$S[22]+=5@read");
  EXPECT_EQ(render_update(ev(0, 0, 0x17, 22, 5), g), "$S[22]-=5@complete");
  EXPECT_EQ(render_update(ev(0, 0, 0x09, 22, 5), g), "$S[22]=5@read");
  EXPECT_EQ(render_update(ev(0, 0, 0x85, 22, 5), g), "$S[22]+=r5@read");
  EXPECT_EQ(render_update(ev(0, 0, 0x97, 22, 5), g), "$S[22]-=r5@complete");
  EXPECT_EQ(render_update(ev(0, 0, 0x89, 22, 5), g), "$S[22]=r5@read");
}

TEST(DescribeEvents, EventUpdatesAndInvalidUpdates) {
  EXPECT_EQ(render_update(ev(0, 0, 0x01, 3, 0), Generation::Sunda), "$E[3]=1@read");
  EXPECT_EQ(render_update(ev(0, 0, 0x12, 3, 0), Generation::Sunda), "$E[3]=0@complete");
  EXPECT_EQ(render_update(ev(0, 0, 0x01, 3, 0), Generation::Maverick), "update_mode=0x01(invalid)");
  EXPECT_EQ(render_update(ev(0, 0, 0x42, 3, 0), Generation::Mariana), "update_mode=0x42(invalid)");
  EXPECT_EQ(render_update(ev(0, 0, 0x00, 0, 0), Generation::Mariana), "");
}

TEST(DescribeEvents, WaitAndUpdateJoinedByOneSpace) {
  EXPECT_EQ(render_events(ev(0x04, 11, 0x13, 22, 0), Generation::Cayman), "$S[11]>0 $S[22]++@complete");
  EXPECT_EQ(render_events(ev(0x00, 0, 0x13, 22, 0), Generation::Cayman), "$S[22]++@complete");
  EXPECT_EQ(render_events(ev(0x00, 0, 0x00, 0, 0), Generation::Cayman), "");
}

TEST(DescribeEvents, ExactnessNamesTheBitsTheTextDrops) {
  const Generation g = Generation::Mariana;
  EXPECT_TRUE(events_render_exact(ev(0x04, 11, 0x13, 22, 0), g));
  EXPECT_TRUE(events_render_exact(ev(0x85, 4, 0x05, 22, 5), g));
  EXPECT_FALSE(events_render_exact(ev(0x85, 4, 0, 0, 0x105), g));  // upper bits of a register form
  EXPECT_FALSE(events_render_exact(ev(0, 0, 0x13, 22, 7), g));     // INC ignores the value
  EXPECT_FALSE(events_render_exact(ev(0, 9, 0, 0, 0), g));         // index of no wait
  EXPECT_FALSE(events_render_exact(ev(0x42, 0, 0, 0, 0), g));
}

// ---- The field walk ----

Word tensor_load_word() {
  Mem2d m;
  m.header = {0xAA, 16, 0, 0};
  m.events = {0x04, 11, 0x13, 22, 0};
  m.dtype = 0x09;
  m.num_elem = {2, 2};
  m.start_addr.raw = 0x80100;
  m.step_elem = {1, -2};
  for (uint8_t k = 0; k < 4; ++k) m.data.bytes[k] = static_cast<uint8_t>(k + 1);
  return encode(m);
}

TEST(DescribeFields, LeavesTileTheWordInOrder) {
  Word s2 = encode(S2Bn{});
  s2[0] = 0x70;
  Word tsm = encode(S4d4Tsm{});
  tsm[0] = 0x4F;
  Word raw{};
  raw[0] = 0x9F;
  for (const Word& w : {tensor_load_word(), s2, tsm, raw}) {
    unsigned next = 0;
    for (const auto& f : describe_fields(decode_word(w, Generation::Cayman))) {
      EXPECT_EQ(f.offset, next) << f.name;
      next += f.size;
    }
    EXPECT_EQ(next, kWordBytes);
  }
}

TEST(DescribeFields, Mem2dPathsValuesAndMeanings) {
  const auto fields = describe_fields(decode_word(tensor_load_word(), Generation::Cayman));
  EXPECT_EQ(field(fields, "header.opcode").meaning, "TensorLoad (TENSOR_LOAD)");
  EXPECT_EQ(field(fields, "events.wait_mode").offset, 4);
  EXPECT_EQ(field(fields, "events.wait_mode").meaning, "SEM_GT_IMM");
  EXPECT_EQ(field(fields, "events.wait_idx").meaning, "semaphore 11");
  EXPECT_EQ(field(fields, "dtype").meaning, "UINT32 (u32, 4 bytes)");
  EXPECT_EQ(field(fields, "num_elem[1]").offset, 15);
  const DescribedField& step1 = field(fields, "step_elem[1]");
  EXPECT_EQ(step1.kind, ValueKind::Signed);
  EXPECT_EQ(step1.s, -2);
  EXPECT_EQ(step1.offset, 28);
  EXPECT_EQ(format_value(step1), "-2");
  EXPECT_EQ(format_hex(step1), "0xfffffffe");
  EXPECT_NE(field(fields, "start_addr").meaning.find("sbuf[p2]+0x100"), std::string::npos);
  const DescribedField& data = field(fields, "data");
  EXPECT_EQ(data.kind, ValueKind::Bytes);
  EXPECT_EQ(data.size, 32);
  EXPECT_EQ(data.meaning, "registers r1 r2 r3 r4 (4 of 32 slots used)");
}

TEST(DescribeFields, StoreImmediatesShownInTheDtype) {
  Mem2d m;
  m.header = {0xAB, 16, 0, 0};
  m.dtype = 0x0A;  // FP32
  m.src_datasrc = 1;
  m.num_elem = {2, 1};
  store_le<uint32_t>(&m.data.bytes[0], 0x3FC00000);  // 1.5
  store_le<uint32_t>(&m.data.bytes[4], 0xC0000000);  // -2
  const auto fields = describe_fields(decode_word(encode(m), Generation::Mariana));
  EXPECT_EQ(field(fields, "data").meaning, "immediates fp32: 1.5 -2 (2 of 8 slots used)");
  EXPECT_EQ(field(fields, "src_datasrc").meaning, "IMMEDIATE");
}

TEST(DescribeFields, S2BnNestedPatternAndImmediates) {
  S2Bn s;
  s.header = {0x64, 16, 0, 0};
  s.src_mem_pattern.num_elem = {3, 1};
  s.imm1.raw = 0x3FC00000;
  s.imm0_src = 2;
  s.imm0_ptr.raw = 7;
  s.reserved2[4] = 1;
  const auto fields = describe_fields(decode_word(encode(s), Generation::Mariana));
  const DescribedField& n1 = field(fields, "src_mem_pattern.num_elem[1]");
  EXPECT_EQ(n1.offset, 26);
  EXPECT_EQ(n1.size, 2);
  EXPECT_EQ(n1.meaning, "elements along Y");
  EXPECT_EQ(field(fields, "src_mem_pattern.start_addr").offset, 16);
  EXPECT_EQ(field(fields, "imm1").meaning, "fp32 1.5 | u32 0x3fc00000");
  EXPECT_NE(field(fields, "imm0_ptr").meaning.find("register pointer r7"), std::string::npos);
  EXPECT_EQ(field(fields, "imm0_src").meaning, "REG_PTR_IMMEDIATE");
  EXPECT_EQ(field(fields, "reserved2").meaning, "reserved (must be zero)");
  EXPECT_EQ(field(fields, "reserved0").meaning, "reserved");
}

TEST(DescribeFields, S4d4TsmEnumsAndSignedSteps) {
  S4d4Tsm t;
  t.header = {0x4F, 16, 0, 0};
  t.op = 0x06;
  t.op_dim = 0x04;
  t.reverse_operands = 3;
  t.dst_mem_pattern.step_elem[3] = -1;
  t.in_dtype = 0x10;
  const auto fields = describe_fields(decode_word(encode(t), Generation::Cayman));
  const DescribedField& step = field(fields, "dst_mem_pattern.step_elem[3]");
  EXPECT_EQ(step.offset, 54);
  EXPECT_EQ(step.s, -1);
  EXPECT_EQ(step.meaning, "stride -1 element along W");
  EXPECT_EQ(field(fields, "op").meaning.rfind("MULT (", 0), 0U);
  EXPECT_EQ(field(fields, "op_dim").meaning, "XYZ");
  EXPECT_EQ(field(fields, "reverse_operands").meaning, "BOTH");
  EXPECT_EQ(field(fields, "in_dtype").meaning, "not a dtype of cayman (FP4_EXP2 exists on mariana, maverick)");
}

TEST(DescribeFields, UnknownAndNotModeledKeepRawOperands) {
  Word w{};
  w[0] = 0x87;
  w[1] = 16;
  const auto unknown = describe_fields(decode_word(w, Generation::Cayman));
  EXPECT_EQ(field(unknown, "header.opcode").meaning,
            "not an opcode of cayman (TensorScalarPtrMultiDualArith exists on sunda)");
  EXPECT_EQ(field(unknown, "operands").size, 52);
  w[0] = 0x9F;
  const auto nop = describe_fields(decode_word(w, Generation::Cayman));
  EXPECT_TRUE(field(nop, "operands")
                  .meaning.starts_with("layout not public; settled by the operand struct of "
                                       "ENGINE_NOP"))
      << field(nop, "operands").meaning;
  Word cci{};  // COMPACT_CONTROL_INST, the last public layout to be modeled: its fields, no raw operands
  cci[0] = 0xB6;
  cci[1] = 16;
  EXPECT_EQ(field(describe_fields(decode_word(cci, Generation::Maverick)), "inst0.op").meaning,
            "compact instruction 0: NOP (no operation)");
  EXPECT_EQ(describe_opcode(0x00, Generation::Cayman), "not an opcode of cayman (no generation has it)");
}

TEST(DescribeFields, SemaphoreValueMeaningFollowsTheModes) {
  Word w = tensor_load_word();
  w[4] = 0x85;  // SEM_GE_REG
  w[6] = 0x05;  // SEM_ADD_IMM_READ
  store_le<uint32_t>(&w[8], 5);
  const auto fields = describe_fields(decode_word(w, Generation::Cayman));
  const std::string& m = field(fields, "events.semaphore_value").meaning;
  EXPECT_NE(m.find("wait comparand r5"), std::string::npos);
  EXPECT_NE(m.find("update operand 5"), std::string::npos);
}

// decode describes every field in plain terms (issue 12, "Meaning"): every leaf of every modeled word of the
// vector file, on each generation it lists, has a meaning.
TEST(Describe, EveryFieldOfEveryModeledVectorWordHasAMeaning) {
  const test::TsvFile& file = test::validate_vector_file();
  ASSERT_TRUE(file.readable) << test::kTsvFile;
  size_t words = 0;
  for (const test::TsvVector& v : file.vectors)
    for (Generation g : v.gens) {
      const Instruction inst = decode(v.word, g);
      if (inst.status != DecodeStatus::Modeled) continue;
      ++words;
      for (const DescribedField& f : describe_fields(inst))
        EXPECT_FALSE(f.meaning.empty()) << v.id << " on " << to_string(g) << ": " << inst.format_name() << " field "
                                        << f.name << " has no meaning";
    }
  EXPECT_GT(words, 1000U);
}

}  // namespace
}  // namespace tpbisa
