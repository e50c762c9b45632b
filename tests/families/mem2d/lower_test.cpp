// Pseudo MEM_2D lowering (mem2d.md §6.6, edge cases #56, #58-#60): result bytes, failures, and equal execution.
#include <gtest/gtest.h>

#include <cstdint>

#include "../../support/machine_builders.hpp"
#include "../../support/test_util.hpp"
#include "tpbisa/lower.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

using test::word;
using Status = StepResult::Status;

using test::kM;

/// A pseudo word whose every byte outside 16..23 is distinctive: debug bytes, events, steps and data.
PseudoMem2d busy_pseudo(uint8_t opc, uint32_t var_id, uint32_t var_offset) {
  PseudoMem2d p = opc == opcode::kPseudoTensorLoad ? test::ptl() : test::pts();
  p.header.debug_cmd = 0x09;
  p.header.debug_hint = 0x5A;
  p.events = Events{0x01, 2, 0x03, 4, 0x12345678};
  p.var_id = var_id;
  p.var_offset = var_offset;
  p.step_elem = {1, -3};
  for (unsigned i = 0; i < 32; ++i) p.data.bytes[i] = static_cast<uint8_t>(0x40 + i);
  return p;
}

/// The expected lowering, built by hand: the input with byte 0 replaced and bytes 16..23 = LE64(address).
Word expected_lowering(const Word& in, uint8_t real_opcode, uint64_t address) {
  Word out = in;
  out[0] = real_opcode;
  for (unsigned i = 0; i < 8; ++i) out[16 + i] = static_cast<uint8_t>(address >> (8 * i));
  return out;
}

// #58 / #59: opcode 0xce -> 0xaa, 0xcd -> 0xab; bytes 16..23 = base + var_offset with marker 0x00.
TEST(LowerPseudo, Edge58And59OpcodeAndAddress) {
  const VarTable vars{{7, Variable{0x2000, 0x100}}};
  struct Case {
    uint8_t pseudo, real;
  };
  for (Case c : {Case{0xCE, 0xAA}, Case{0xCD, 0xAB}}) {
    SCOPED_TRACE(int{c.pseudo});
    const Word in = word(busy_pseudo(c.pseudo, 7, 0x10));
    const LowerResult r = lower_pseudo(in, vars);
    EXPECT_EQ(r.status, LowerStatus::Lowered);
    EXPECT_TRUE(r.ok());
    EXPECT_TRUE(r.message.empty());
    EXPECT_EQ(r.var_id, 7U);
    EXPECT_EQ(r.var_offset, 0x10U);
    EXPECT_EQ(r.word, expected_lowering(in, c.real, 0x2010)) << test::to_hex(r.word);
    EXPECT_EQ(r.word[23], 0x00);  // the IMM marker
  }
}

// #60: var_id is 4 bytes at 16..19 and var_offset 4 bytes at 20..23 (a hand-made word, not the encoder's);
// byte 24 (step_elem[0]) is not part of the offset.
TEST(LowerPseudo, Edge60VarOffsetIsFourBytes) {
  Word in{};
  in[0] = 0xCE;
  in[1] = 16;
  in[12] = dtype::kUint32;
  in[14] = 1;
  in[15] = 1;
  in[16] = 0x03;                                    // var_id = 3
  in[20] = 0x08;                                    // var_offset = 8
  in[24] = 0x01;                                    // step_elem[0] = 1
  for (unsigned i = 28; i < 32; ++i) in[i] = 0xFF;  // step_elem[1] = -1
  const LowerResult r = lower_pseudo(in, VarTable{{3, Variable{0x5000, 0x40}}});
  ASSERT_EQ(r.status, LowerStatus::Lowered) << r.message;
  EXPECT_EQ(r.var_id, 3U);
  EXPECT_EQ(r.var_offset, 8U);
  EXPECT_EQ(r.word, expected_lowering(in, 0xAA, 0x5008));
  const Mem2d m = read_format<Mem2d>(r.word);
  EXPECT_EQ(m.start_addr.raw, 0x5008U);
  EXPECT_EQ(m.step_elem[0], 1);
  EXPECT_EQ(m.step_elem[1], -1);

  const PseudoMem2d p = read_format<PseudoMem2d>(word(busy_pseudo(0xCE, 1, 0xAABBCCDD)));
  EXPECT_EQ(p.var_offset, 0xAABBCCDDU);
  const Word w = word(p);
  EXPECT_EQ(w[20], 0xDD);
  EXPECT_EQ(w[23], 0xAA);
  EXPECT_EQ(w[24], 0x01);
}

// PROJ-CONV-M8: failures return an error and the input unchanged, never a partial word.
TEST(LowerPseudo, UnknownVariable) {
  const Word in = word(busy_pseudo(0xCE, 9, 0));
  const LowerResult r = lower_pseudo(in, VarTable{{1, Variable{0x2000, 0x100}}});
  EXPECT_EQ(r.status, LowerStatus::UnknownVariable);
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.message.empty());
  EXPECT_EQ(r.word, in);
  EXPECT_EQ(lower_pseudo(in, VarTable{}).status, LowerStatus::UnknownVariable);
}

TEST(LowerPseudo, OffsetOutsideTheVariable) {
  const VarTable vars{{1, Variable{0x2000, 0x10}}};
  const Word outside = word(busy_pseudo(0xCD, 1, 0x10));
  const LowerResult r = lower_pseudo(outside, vars);
  EXPECT_EQ(r.status, LowerStatus::OffsetOutside);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.word, outside);
  const LowerResult far = lower_pseudo(word(busy_pseudo(0xCD, 1, 0xFFFFFFFF)), vars);
  EXPECT_EQ(far.status, LowerStatus::OffsetOutside);
  const Word last = word(busy_pseudo(0xCD, 1, 0x0F));
  const LowerResult in = lower_pseudo(last, vars);
  ASSERT_EQ(in.status, LowerStatus::Lowered) << in.message;
  EXPECT_EQ(in.word, expected_lowering(last, 0xAB, 0x200F));
}

// An ADDR8 immediate has 58 address bits (bits 63..58 are the marker, PROJ-CONV-M2).
TEST(LowerPseudo, AddressTooWide) {
  const uint64_t top = uint64_t{1} << 58;
  const Word at_top = word(busy_pseudo(0xCE, 1, 0x10));
  const LowerResult r = lower_pseudo(at_top, VarTable{{1, Variable{top - 0x10, 0x100}}});
  EXPECT_EQ(r.status, LowerStatus::AddressTooWide);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.word, at_top);

  const Word below = word(busy_pseudo(0xCE, 1, 0x0F));
  const LowerResult ok = lower_pseudo(below, VarTable{{1, Variable{top - 0x10, 0x100}}});
  ASSERT_EQ(ok.status, LowerStatus::Lowered) << ok.message;
  EXPECT_EQ(ok.word, expected_lowering(below, 0xAA, top - 1));
  EXPECT_EQ(ok.word[23], 0x03);  // address bits 57..56; marker bits (0xFC) clear

  const LowerResult wraps = lower_pseudo(word(busy_pseudo(0xCE, 1, 8)), VarTable{{1, Variable{~uint64_t{0} - 7, 16}}});
  EXPECT_EQ(wraps.status, LowerStatus::AddressTooWide);
}

// Words that are not pseudo MEM_2D are copied unchanged.
TEST(LowerPseudo, NonPseudoWordsAreCopied) {
  const VarTable vars{{1, Variable{0x2000, 0x100}}};
  Word raw{};
  for (unsigned i = 0; i < kWordBytes; ++i) raw[i] = static_cast<uint8_t>(i * 7 + 1);
  raw[0] = 0xC3;  // another pseudo-band opcode, not MEM_2D
  for (const Word& w : {word(test::tl()), word(test::ts()), word(test::il()), word(test::pm()), raw}) {
    SCOPED_TRACE(int{w[0]});
    const LowerResult r = lower_pseudo(w, vars);
    EXPECT_EQ(r.status, LowerStatus::Copied);
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.word, w);
  }
}

// A lowered word is the direct 0xaa/0xab word and executes with the same effects and final state.
TEST(LowerPseudo, LoweredWordExecutesLikeTheDirectWord) {
  const VarTable vars{{7, Variable{0x2000, 0x100}}};
  for (Generation g : kAllGenerations) {
    for (uint8_t opc : {uint8_t{0xCE}, uint8_t{0xCD}}) {
      SCOPED_TRACE(testing::Message() << to_string(g) << " " << int{opc});
      PseudoMem2d p = busy_pseudo(opc, 7, 0x10);
      p.events = Events{0x05, 2, 0x13, 4, 1};  // wait sem[2] >= 1, sem[4] += 1
      p.step_elem = {1, 0};
      p.data = test::regs_data({0, 1, 2, 3});
      const LowerResult low = lower_pseudo(word(p), vars);
      ASSERT_EQ(low.status, LowerStatus::Lowered) << low.message;

      Mem2d direct = opc == 0xCE ? test::tl() : test::ts();
      direct.header = p.header;
      direct.header.opcode = opc == 0xCE ? opcode::kTensorLoad : opcode::kTensorStore;
      direct.events = p.events;
      direct.start_addr = test::addr8_imm(0x2010);
      direct.step_elem = p.step_elem;
      direct.data = p.data;
      EXPECT_EQ(low.word, word(direct));

      Machine a(g, {low.word}, test::recording());
      Machine b(g, {word(direct)}, test::recording());
      for (Machine* m : {&a, &b}) {
        MachineState& s = m->mutable_state();
        s.sems[2] = 1;
        for (unsigned r = 0; r < 4; ++r) s.regs[r] = 0xC0DE0000 + r;
        test::poke(s, 0x2010, 8, 0x1111111122222222);
      }
      const StepResult ra = a.step();
      const test::Effects ea = test::effects(ra);
      const StepResult rb = b.step();
      const test::Effects eb = test::effects(rb);
      ASSERT_EQ(ra.status, Status::Retired) << ra.fault.detail;
      EXPECT_EQ(ea, eb);
      EXPECT_EQ(ra.opcode, rb.opcode);
      EXPECT_EQ(test::snapshot(a.state(), {{0x2000, 0x40}}), test::snapshot(b.state(), {{0x2000, 0x40}}));
      EXPECT_EQ(a.state().sems[4], 1U);
    }
  }
}

// #56: var_offset 2 (UINT32) is fine as a pseudo; the lowered word fails valid_start_addr (only) and does not run.
TEST(LowerPseudo, Edge56UnalignedAfterLowering) {
  PseudoMem2d p = test::ptl();
  p.var_offset = 2;
  const LowerResult low = lower_pseudo(word(p), VarTable{{1, Variable{0x2000, 0x100}}});
  ASSERT_EQ(low.status, LowerStatus::Lowered) << low.message;
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    EXPECT_TRUE(validate(decode(word(p), g), g).valid);
    const Verdict v = validate(decode(low.word, g), g);
    EXPECT_FALSE(v.valid);
    EXPECT_TRUE(v.fails("valid_start_addr"));
    EXPECT_EQ(v.n_failed, 1U);
    Machine m(g, {low.word});
    const StepResult r = m.step();
    ASSERT_EQ(r.status, Status::Faulted);
    EXPECT_EQ(r.fault.kind, FaultKind::InvalidInstruction);
    EXPECT_TRUE(r.fault.verdict.fails("valid_start_addr"));
  }
  // When the base makes base + 2 aligned, the lowered word is valid.
  const LowerResult aligned = lower_pseudo(word(p), VarTable{{1, Variable{0x2002, 0x100}}});
  ASSERT_EQ(aligned.status, LowerStatus::Lowered);
  EXPECT_TRUE(validate(decode(aligned.word, kM), kM).valid);
}

}  // namespace
}  // namespace tpbisa
