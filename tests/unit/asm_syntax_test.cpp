// The assembly syntax form by form, each checked on the bytes and on the canonical text.
#include <gtest/gtest.h>

#include <bit>
#include <string>

#include "../support/test_util.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/location.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa {
namespace {

using test::kMariana;

/// The one word a line assembles to (a failure names the diagnostic).
Word word_of(std::string_view text, Generation g = kMariana) {
  const AsmResult r = assemble(text, "t.tasm", g);
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : format_diagnostic(r.errors[0]));
  EXPECT_EQ(r.words.size(), 1U) << text;
  return r.words.empty() ? Word{} : r.words[0];
}

std::string canon(std::string_view text, Generation g = kMariana) {
  const Word w = word_of(text, g);
  return disassemble(std::span<const uint8_t, kWordBytes>(w), g);
}

template <class S>
S typed(std::string_view text, Generation g = kMariana) {
  const Word w = word_of(text, g);
  return read_format<S>(w);
}

// ---- Lines ----

TEST(AsmLines, CommentsBlankLinesLabelsAndCrLf) {
  const AsmResult r = assemble(
      "; a comment\n\n# another\r\nfirst:\nsecond: TensorLoad dtype=u8 ; trailing\r\n"
      "  TensorStore   # hash comment\nend:",
      "t.tasm", kMariana);
  ASSERT_TRUE(r.ok()) << format_diagnostic(r.errors[0]);
  ASSERT_EQ(r.words.size(), 2U);
  EXPECT_EQ(r.word_lines, (std::vector<size_t>{5, 6}));
  ASSERT_EQ(r.labels.size(), 3U);
  EXPECT_EQ(r.labels[0].name, "first");
  EXPECT_EQ(r.labels[0].word_index, 0U);
  EXPECT_EQ(r.labels[0].line, 4U);
  EXPECT_EQ(r.labels[1].word_index, 0U);
  EXPECT_EQ(r.labels[2].name, "end");
  EXPECT_EQ(r.labels[2].word_index, 2U);
}

TEST(AsmLines, AnEmptySourceHasNoWords) {
  const AsmResult r = assemble("", "t.tasm", kMariana);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.words.empty());
}

TEST(AsmLines, LeftOutOperandsAreZeroAndTheWordLengthIs16) {
  Word expected{};
  expected[0] = opcode::kTensorLoad;
  expected[1] = 16;
  EXPECT_EQ(word_of("TensorLoad"), expected);
}

TEST(AsmLines, NamesAreCaseInsensitiveAndPrintCanonically) {
  EXPECT_EQ(canon("tensorLOAD DTYPE=BF16 Src_DataSrc=register"), canon("TensorLoad dtype=bf16 src_datasrc=REGISTER"));
  EXPECT_EQ(typed<Mem2d>("TensorLoad dtype=BFLOAT16").dtype, dtype::kBfloat16);
  EXPECT_EQ(typed<S4d4Tsm>("TensorScalarPtrMultiArith op=mult op_dim=xyz reverse_operands=both").op, aluop::kMult);
}

TEST(AsmLines, SpacesAroundPunctuationAreFree) {
  EXPECT_EQ(word_of("TensorLoad num_elem = { 2 , 3 } dtype= u8"), word_of("TensorLoad num_elem={2,3} dtype=u8"));
}

TEST(AsmLines, AShortListFillsWithZeros) {
  const auto s = typed<S4d4Tsm>("TensorScalarPtrMultiArith src_mem_pattern.num_elem={4} dst_mem_pattern.num_elem={}");
  EXPECT_EQ(s.src_mem_pattern.num_elem, (std::array<uint16_t, 4>{4, 0, 0, 0}));
  EXPECT_EQ(s.dst_mem_pattern.num_elem, (std::array<uint16_t, 4>{0, 0, 0, 0}));
}

TEST(AsmLines, NumbersInDecimalHexAndNegative) {
  const auto m = typed<Mem2d>("TensorLoad step_elem={-1,0x7fffffff} num_elem={0xff,0}");
  EXPECT_EQ(m.step_elem[0], -1);
  EXPECT_EQ(m.step_elem[1], 0x7fffffff);
  EXPECT_EQ(m.num_elem[0], 0xff);
  // A signed field takes its bits in hex.
  EXPECT_EQ(typed<Mem2d>("TensorLoad step_elem={0xffffffff,0}").step_elem[0], -1);
}

// ---- Header and reserved bytes ----

TEST(AsmHeader, NonDefaultHeaderFieldsArePrinted) {
  const std::string text =
      "TensorLoad header.inst_word_len=15 header.debug_cmd=START_END header.debug_hint=0x2a "
      "dtype=u8 src_datasrc=REGISTER num_elem={1,1} start_addr=sbuf[p0]+0x0 step_elem={1,0} "
      "data={r0}";
  EXPECT_EQ(canon(text), text);
  const Header h = typed<Mem2d>(text).header;
  EXPECT_EQ(h.inst_word_len, 15);
  EXPECT_EQ(h.debug_cmd, 7);
  EXPECT_EQ(h.debug_hint, 0x2a);
}

TEST(AsmHeader, MaverickPrintsByte3AsInstFlagsAndBothNamesAreRead) {
  const Generation g = Generation::Maverick;
  EXPECT_EQ(typed<Mem2d>("TensorLoad header.inst_flags=5", g).header.debug_hint, 5);
  EXPECT_EQ(typed<Mem2d>("TensorLoad header.debug_hint=5", g).header.debug_hint, 5);
  EXPECT_EQ(typed<Mem2d>("TensorLoad header.inst_flags=5", kMariana).header.debug_hint, 5);
  EXPECT_NE(canon("TensorLoad header.debug_hint=5", g).find(" header.inst_flags=0x5 "), std::string::npos);
  EXPECT_NE(canon("TensorLoad header.inst_flags=5", kMariana).find(" header.debug_hint=0x5 "), std::string::npos);
}

TEST(AsmHeader, ReservedBytesArePrintedOnlyWhenNotZero) {
  const std::string zero = canon("TensorScalarPtrMultiArith");
  EXPECT_EQ(zero.find("reserved"), std::string::npos);
  const auto s = typed<S4d4Tsm>("TensorScalarPtrMultiArith reserved0=0x7 reserved1={0,0x80,0,0,1}");
  EXPECT_EQ(s.reserved0[0], 7);
  EXPECT_EQ(s.reserved1, (std::array<uint8_t, 5>{0, 0x80, 0, 0, 1}));
  const std::string text = canon("TensorScalarPtrMultiArith reserved0=0x7 reserved1={0,0x80,0,0,1}");
  EXPECT_NE(text.find(" reserved0=0x7 "), std::string::npos) << text;
  EXPECT_NE(text.find(" reserved1={0x0,0x80,0x0,0x0,0x1} "), std::string::npos) << text;
}

// ---- Enumerations by catalog name, or by number when the generation has no name for the value ----

TEST(AsmNames, ValuesWithoutANameOnTheGenerationPrintAsNumbers) {
  // FP8_EXP2 (0x11) is a MAVERICK dtype; on MARIANA the code prints in hex and reads back.
  EXPECT_NE(canon("TensorLoad dtype=fp8e2").find(" dtype=0x11 "), std::string::npos);
  EXPECT_NE(canon("TensorLoad dtype=fp8e2", Generation::Maverick).find(" dtype=fp8e2 "), std::string::npos);
  EXPECT_NE(canon("TensorScalarPtrMultiArith op=0xee").find(" op=0xee "), std::string::npos);
  EXPECT_NE(canon("TensorScalarPtrMultiArith op_dim=1").find(" op_dim=0x01 "), std::string::npos);
}

// ---- Addresses ----

TEST(AsmAddress, Addr4Forms) {
  const auto at = [](std::string_view v, Generation g = kMariana) {
    return typed<S4d4Tsm>("TensorScalarPtrMultiArith src_mem_pattern.start_addr=" + std::string(v), g)
        .src_mem_pattern.start_addr.raw;
  };
  EXPECT_EQ(at("sbuf[p3]+0x40"), 3 * 0x40000U + 0x40);
  EXPECT_EQ(at("sbuf[p3]"), 3 * 0x40000U);
  EXPECT_EQ(at("SBUF[P3]+64"), 3 * 0x40000U + 0x40);
  EXPECT_EQ(at("psum[p0].bank2+0x10"), 0x2000000U + 2 * 2048 + 0x10);
  EXPECT_EQ(at("psum[p5]"), 0x2000000U + 5 * 0x8000);
  EXPECT_EQ(at("psum[p5]+0x900"), 0x2000000U + 5 * 0x8000 + 0x900);
  EXPECT_EQ(at("sbuf[p3]+0x40", Generation::Maverick), 3 * 0x100000U + 0x40);  // 1 MiB partitions
  EXPECT_EQ(at("r5"), 0x80000005U);
  EXPECT_EQ(at("0xc0000005"), 0xc0000005U);
  EXPECT_EQ(at("4096"), 4096U);
}

TEST(AsmAddress, Addr4CanonicalForms) {
  const auto printed = [](std::string_view v, Generation g = kMariana) {
    const std::string text = canon("TensorScalarPtrMultiArith src_mem_pattern.start_addr=" + std::string(v), g);
    const size_t at = text.find("start_addr=") + 11;
    return text.substr(at, text.find(' ', at) - at);
  };
  EXPECT_EQ(printed("sbuf[p3]"), "sbuf[p3]+0x0");
  EXPECT_EQ(printed("psum[p5]+0x900"), "psum[p5].bank1+0x100");
  EXPECT_EQ(printed("0x2000810"), "psum[p0].bank1+0x10");
  EXPECT_EQ(printed("0x2400000"), "0x02400000");   // beyond PSUM: raw
  EXPECT_EQ(printed("0x40000040"), "0x40000040");  // SHAPE_REG marker: raw
  EXPECT_EQ(printed("0x80000105"), "0x80000105");  // register form with a reserved byte set: raw
  EXPECT_EQ(printed("r63"), "r63");
  EXPECT_EQ(printed("0x2000000", Generation::Maverick), "sbuf[p32]+0x0");  // no PSUM on MAVERICK
}

TEST(AsmAddress, Addr8Forms) {
  const auto at = [](std::string_view v) {
    return typed<Mem2d>("TensorLoad start_addr=" + std::string(v)).start_addr.raw;
  };
  EXPECT_EQ(at("dev:0x2000001000"), 0x2000001000ULL);
  EXPECT_EQ(at("sbuf[p2]+0x100"), 0x80100ULL);
  EXPECT_EQ(at("psum[p1]"), 0x2008000ULL);
  EXPECT_EQ(at("r4:r5"), 0x8000000000000504ULL);
  EXPECT_EQ(at("0x4000000000000100"), 0x4000000000000100ULL);
  EXPECT_EQ(at("dev:0x3ffffffffffffff"), 0x3ffffffffffffffULL);
}

// Operands use the library's one location grammar (tpbisa/location.hpp): the colon forms of STATE.json and --dump
// read as the same bytes, any byte of the partition stride is an operand (backed or not), and the printed spelling
// is the library printer's.
TEST(AsmAddress, LocationsUseTheLibraryGrammar) {
  const auto at = [](std::string_view v, Generation g = Generation::Mariana) {
    return typed<Mem2d>("TensorLoad start_addr=" + std::string(v), g).start_addr.raw;
  };
  EXPECT_EQ(at("sbuf:2:0x100"), at("sbuf[p2]+0x100"));
  EXPECT_EQ(at("psum:1:0x810"), at("psum[p1].bank1+0x10"));
  // CAYMAN backs 0x38000 bytes of the 0x40000 stride: a state may not name 0x38000, an operand may.
  EXPECT_FALSE(parse_location("sbuf[p0]+0x38000", Generation::Cayman).ok());
  const Expected<Location> operand = parse_location("sbuf[p0]+0x38000", Generation::Cayman, LocationScope::Stride);
  ASSERT_TRUE(operand.ok());
  EXPECT_EQ(at("sbuf[p0]+0x38000", Generation::Cayman), operand->address);
  EXPECT_EQ(to_string(*operand, Generation::Cayman), "sbuf[p0]+0x38000");
  // PSUM backs banks 0..7; the stride holds 16, and the disassembler prints any of them.
  EXPECT_FALSE(parse_location("psum[p0].bank12", Generation::Mariana).ok());
  EXPECT_EQ(at("psum[p0].bank12+0x4"), 0x2000000ULL + 12 * 2048 + 4);
  EXPECT_NE(canon("TensorLoad start_addr=psum[p0].bank12+0x4").find(" start_addr=psum[p0].bank12+0x4 "),
            std::string::npos);
}

TEST(AsmAddress, Addr8CanonicalForms) {
  const auto printed = [](std::string_view v) {
    const std::string text = canon("TensorLoad start_addr=" + std::string(v));
    const size_t at = text.find("start_addr=") + 11;
    return text.substr(at, text.find(' ', at) - at);
  };
  EXPECT_EQ(printed("dev:0x80100"), "sbuf[p2]+0x100");  // the low region reads as SBUF (PROJ-CONV-N4)
  EXPECT_EQ(printed("dev:0x2000001000"), "dev:0x2000001000");
  EXPECT_EQ(printed("dev:0x40080100"), "dev:0x40080100");            // not masked to 29 bits: flat memory, not sbuf[p2]
  EXPECT_EQ(printed("0x100000000000000"), "dev:0x100000000000000");  // bits 57..56 are address bits
  EXPECT_EQ(printed("r4:r5"), "r4:r5");
  EXPECT_EQ(printed("0x8000000000010504"), "0x8000000000010504");  // reserved byte set
  EXPECT_EQ(printed("0x4000000000000100"), "0x4000000000000100");  // SHAPE_REG marker
  EXPECT_EQ(printed("0x8100000000000504"), "0x8100000000000504");  // marker byte with low bits set
}

// ---- IMM_VAL ----

TEST(AsmImmediate, TheViewFollowsTheImmSrcSibling) {
  const auto s = typed<S2Bn>("BatchNormParamLoad imm1=2 imm0_ptr=sbuf[p0]+0x80 imm0_src=POINTER_IMMEDIATE");
  EXPECT_EQ(s.imm1.raw, std::bit_cast<uint32_t>(2.0F));  // a decimal integer in the value view is a number
  EXPECT_EQ(s.imm0_ptr.raw, 0x80U);
  const std::string text = canon("BatchNormParamLoad imm1=2 imm0_ptr=sbuf[p0]+0x80 imm0_src=POINTER_IMMEDIATE");
  EXPECT_NE(text.find(" imm1=2.0 "), std::string::npos) << text;
  EXPECT_NE(text.find(" imm0_ptr=sbuf[p0]+0x80 "), std::string::npos) << text;
  const std::string reg = canon("BatchNormParamLoad imm0_src=REG_PTR_IMMEDIATE imm0_ptr=r9");
  EXPECT_NE(reg.find(" imm0_ptr=r9 "), std::string::npos) << reg;
  EXPECT_EQ(typed<S2Bn>("BatchNormParamLoad imm0_src=REG_PTR_IMMEDIATE imm0_ptr=9").imm0_ptr.raw, 9U);
}

TEST(AsmImmediate, FloatsPrintWhenTheyReadBackExactlyElseBits) {
  const auto imm = [](std::string_view v) {
    const std::string text = canon("BatchNormParamLoad imm1=" + std::string(v));
    const size_t at = text.find("imm1=") + 5;
    return text.substr(at, text.find(' ', at) - at);
  };
  EXPECT_EQ(imm("0.1"), "0.1");
  EXPECT_EQ(imm("-0.0"), "-0.0");
  EXPECT_EQ(imm("1e30"), "1e+30");
  EXPECT_EQ(imm("16777217"), "16777216.0");  // rounded to the nearest fp32
  EXPECT_EQ(imm("1e-45"), "1e-45");          // the smallest subnormal
  EXPECT_EQ(imm("-inf"), "-inf");
  EXPECT_EQ(imm("nan"), "nan");
  EXPECT_EQ(imm("0x7fc00001"), "0x7fc00001");  // a NaN payload has no float spelling
  EXPECT_EQ(imm("0x3f800000"), "1.0");         // hex is the bits
  EXPECT_EQ(imm("-1"), "-1.0");
}

TEST(AsmImmediate, APointerOutsideSbufAndPsumOrAWideRegisterIsRaw) {
  EXPECT_NE(canon("BatchNormParamLoad imm0_src=POINTER_IMMEDIATE imm0_ptr=0x2400000").find(" imm0_ptr=0x02400000 "),
            std::string::npos);
  EXPECT_NE(canon("BatchNormParamLoad imm0_src=REG_PTR_IMMEDIATE imm0_ptr=0x105").find(" imm0_ptr=0x00000105 "),
            std::string::npos);
}

// ---- MEM2D_DATA ----

std::string data_of(std::string_view text) {
  const std::string c = canon(text);
  return c.substr(c.find(" data=") + 6);
}

TEST(AsmData, RegistersAreTheUsedSlotsAndAnyLaterNonZeroSlot) {
  EXPECT_EQ(data_of("TensorLoad num_elem={2,2} data={r1,r2,r3,r4}"), "{r1,r2,r3,r4}");
  EXPECT_EQ(data_of("TensorLoad num_elem={2,1} data={r1}"), "{r1,r0}");
  EXPECT_EQ(data_of("TensorLoad num_elem={1,1} data={r1,r0,r0,r9}"), "{r1,r0,r0,r9}");
  const auto m = typed<Mem2d>("TensorLoad num_elem={1,1} data={r1,r0,r0,r9}");
  EXPECT_EQ(m.data.bytes[3], 9);
  EXPECT_EQ(m.data.bytes[4], 0);
}

TEST(AsmData, ImmediatesAreTypedByTheDtype) {
  const std::string store = "TensorStore src_datasrc=IMMEDIATE num_elem={3,1} ";
  EXPECT_EQ(data_of(store + "dtype=u8 data={1,255,0x10}"), "{1,255,16}");
  EXPECT_EQ(data_of(store + "dtype=i8 data={-1,127,-128}"), "{-1,127,-128}");
  EXPECT_EQ(data_of(store + "dtype=i16 data={-2,0xffff,3}"), "{-2,-1,3}");
  EXPECT_EQ(data_of(store + "dtype=u32 data={4294967295,0,1}"), "{4294967295,0,1}");
  EXPECT_EQ(data_of(store + "dtype=fp32 data={1,0.5,-2}"), "{1.0,0.5,-2.0}");
  EXPECT_EQ(data_of(store + "dtype=fp32 data={1,0x7f800001,0x3f800000}"), "{1.0,0x7f800001,1.0}");
  EXPECT_EQ(data_of(store + "dtype=u64 data={18446744073709551615,1,2}"), "{18446744073709551615,1,2}");
  EXPECT_EQ(data_of(store + "dtype=bf16 data={0x3f80,0,1}"), "{0x3f80,0x0000,0x0001}");
  const auto m = typed<Mem2d>(store + "dtype=i16 data={-2,0xffff,3}");
  EXPECT_EQ(m.data.u16(0), 0xfffe);
  EXPECT_EQ(m.data.u16(2), 3);
  EXPECT_EQ(typed<Mem2d>(store + "dtype=u64 data={0x1122334455667788}").data.u64(0), 0x1122334455667788ULL);
}

TEST(AsmData, WithoutAnElementLayoutDataIsWrittenAsBytes) {
  const std::string bytes = "0x000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
  EXPECT_EQ(data_of("TensorStore src_datasrc=2 data=" + bytes), bytes);
  EXPECT_EQ(data_of("TensorStore src_datasrc=IMMEDIATE dtype=invalid data=" + bytes), bytes);
  // The byte form is read in every view.
  EXPECT_EQ(typed<Mem2d>("TensorLoad data=" + bytes).data.bytes[31], 0x1f);
}

// ---- EVENTS ----

struct EventCase {
  const char* text;
  Generation gen;
  Events events;
};

TEST(AsmEvents, EveryTokenOfTheSyntaxTables) {
  const EventCase cases[] = {
      {"$S[4]==2", kMariana, {0x01, 4, 0, 0, 2}},
      {"$S[4]<2", kMariana, {0x02, 4, 0, 0, 2}},
      {"$S[4]<=2", kMariana, {0x03, 4, 0, 0, 2}},
      {"$S[11]>0", kMariana, {0x04, 11, 0, 0, 0}},
      {"$S[4]>=2", kMariana, {0x05, 4, 0, 0, 2}},
      {"$S[4]>=r5", kMariana, {0x85, 4, 0, 0, 5}},
      {"$S[4]==r5", kMariana, {0x81, 4, 0, 0, 5}},
      {"$S[4]>=r5+0x10", Generation::Maverick, {0x95, 4, 0, 0, 0x1005}},
      {"$S[4]<r5+0x0", Generation::Maverick, {0x92, 4, 0, 0, 5}},
      {"$E[3]?set", kMariana, {0x06, 3, 0, 0, 0}},
      {"$E[3]?set!clear", kMariana, {0x07, 3, 0, 0, 0}},
      {"$E[3]?clear", kMariana, {0x0E, 3, 0, 0, 0}},
      {"$E[3]?clear!set", kMariana, {0x0F, 3, 0, 0, 0}},
      {"unordered", kMariana, {0xFE, 0, 0, 0, 0}},
      {"$S[22]++@read", kMariana, {0, 0, 0x03, 22, 0}},
      {"$S[22]++@complete", kMariana, {0, 0, 0x13, 22, 0}},
      {"$S[22]--@read", kMariana, {0, 0, 0x04, 22, 0}},
      {"$S[22]--@complete", kMariana, {0, 0, 0x14, 22, 0}},
      {"$S[22]+=5@read", kMariana, {0, 0, 0x05, 22, 5}},
      {"$S[22]-=5@complete", kMariana, {0, 0, 0x17, 22, 5}},
      {"$S[22]=5@read", kMariana, {0, 0, 0x09, 22, 5}},
      {"$S[22]+=r5@read", kMariana, {0, 0, 0x85, 22, 5}},
      {"$S[22]-=r5@complete", kMariana, {0, 0, 0x97, 22, 5}},
      {"$S[22]=r5@complete", kMariana, {0, 0, 0x99, 22, 5}},
      {"$E[3]=1@read", kMariana, {0, 0, 0x01, 3, 0}},
      {"$E[3]=0@complete", kMariana, {0, 0, 0x12, 3, 0}},
      {"$S[4]>=2 $S[22]=r2@read", kMariana, {0x05, 4, 0x89, 22, 2}},
      {"$S[4]>=r5 $S[22]=r5@complete", kMariana, {0x85, 4, 0x99, 22, 5}},
      {"unordered $E[3]=1@read", kMariana, {0xFE, 0, 0x01, 3, 0}},
      {"$S[0x10]>=0x20", kMariana, {0x05, 16, 0, 0, 32}},
  };
  for (const auto& c : cases) {
    const Mem2d m = typed<Mem2d>(std::string("TensorLoad ") + c.text, c.gen);
    EXPECT_EQ(m.events, c.events) << c.text;
    EXPECT_TRUE(events_render_exact(m.events, c.gen)) << c.text;
    const std::string_view rendered = std::string_view(c.text).starts_with("$S[0x") ? "$S[16]>=32" : c.text;
    EXPECT_EQ(render_events(m.events, c.gen), rendered);
  }
}

TEST(AsmEvents, EventsTheTextCannotSpellUseTheExplicitFields) {
  // A register wait with upper value bits set: the text would lose them.
  const std::string text = "TensorLoad events.wait_mode=SEM_GE_REG events.wait_idx=4 events.semaphore_value=261";
  const Mem2d m = typed<Mem2d>(text);
  EXPECT_EQ(m.events, (Events{0x85, 4, 0, 0, 261}));
  const std::string c = canon(text);
  EXPECT_TRUE(c.starts_with(
      "TensorLoad events.wait_mode=SEM_GE_REG events.wait_idx=4 events.semaphore_value=261 dtype=invalid"))
      << c;
  // Modes the generation does not have print in hex.
  EXPECT_TRUE(canon("TensorLoad events.wait_mode=EVT_SET events.wait_idx=3", Generation::Maverick)
                  .starts_with("TensorLoad events.wait_mode=0x06 events.wait_idx=3 "));
}

// ---- .raw and the disassembler's comments ----

TEST(AsmRaw, AnyWordAndAnyHexSpacing) {
  const std::string hex =
      "aa100000040b13160000000009000202000108000000000001000000020000000102030400000000000000"
      "000000000000000000000000000000000000000000";
  const Word w = word_of(".raw " + hex);
  EXPECT_EQ(test::to_hex(w), hex);
  EXPECT_EQ(word_of(".RAW 0x" + hex.substr(0, 64) + " _ " + hex.substr(64)), w);
  // A modeled word given raw prints with its mnemonic.
  EXPECT_TRUE(canon(".raw " + hex, Generation::Cayman).starts_with("TensorLoad $S[11]>0 $S[22]++@complete "));
}

TEST(AsmRaw, NotesForWordsWrittenRaw) {
  Word nop{};
  nop[0] = 0x9f;
  nop[1] = 16;
  EXPECT_EQ(disassemble(std::span<const uint8_t, kWordBytes>(nop), kMariana),
            ".raw 9f10" + std::string(124, '0') + "  ; EngineNop: layout not public");
  // The comment keeps what decode shows of a raw word: its mnemonic and its EVENTS.
  Word waits = nop;
  waits[4] = 0x05;  // SEM_GE_IMM on semaphore 4, comparand 2
  waits[5] = 4;
  waits[8] = 2;
  EXPECT_TRUE(disassemble(std::span<const uint8_t, kWordBytes>(waits), kMariana)
                  .ends_with("  ; EngineNop $S[4]>=2: layout not public"));
  Word dual = nop;
  dual[0] = opcode::kPtrMultiDualArith;
  DisasmOptions quiet;
  quiet.raw_notes = false;
  EXPECT_EQ(disassemble(std::span<const uint8_t, kWordBytes>(dual), Generation::Cayman, quiet),
            ".raw 8710" + std::string(124, '0'));
  DisasmOptions verdicts;
  verdicts.verdicts = true;
  EXPECT_EQ(disassemble(std::span<const uint8_t, kWordBytes>(dual), Generation::Cayman, verdicts),
            ".raw 8710" + std::string(124, '0') +
                "  ; opcode 0x87: not an opcode of cayman (TensorScalarPtrMultiDualArith exists on sunda); INVALID on "
                "cayman: has_valid_neuron_header");
}

TEST(AsmVerdicts, InvalidWordsNameTheirFailingPredicatesOnce) {
  DisasmOptions verdicts;
  verdicts.verdicts = true;
  const Word bad = word_of("TensorLoad dtype=u32 num_elem={0,1}");
  const std::string text = disassemble(std::span<const uint8_t, kWordBytes>(bad), kMariana, verdicts);
  EXPECT_TRUE(text.ends_with("data={}  ; INVALID on mariana: mem2d_shared_constraints")) << text;
  // src and dst patterns fail the same predicate: it is named once.
  const Word tsm = word_of("TensorScalarPtrMultiArith");
  const std::string both = disassemble(std::span<const uint8_t, kWordBytes>(tsm), kMariana, verdicts);
  const size_t first = both.find("tensor4d_valid");
  ASSERT_NE(first, std::string::npos) << both;
  EXPECT_EQ(both.find("tensor4d_valid", first + 1), std::string::npos) << both;
  const Word good = word_of("TensorLoad dtype=u32 num_elem={1,1} step_elem={1,0} data={r1}");
  EXPECT_EQ(disassemble(std::span<const uint8_t, kWordBytes>(good), kMariana, verdicts).find(';'), std::string::npos);
}

}  // namespace
}  // namespace tpbisa
