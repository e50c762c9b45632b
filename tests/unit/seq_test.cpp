// Sequencer control block: the spec's synthetic words, their field values and meanings, and the agreement of
// the validator, `decode` and the disassembler on which operands a word's modes leave unused.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "../support/seq_words.hpp"
#include "../support/test_util.hpp"
#include "families/seq/seq.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

using test::dec;

const DescribedField* find_field(const std::vector<DescribedField>& fs, std::string_view name) {
  for (const auto& f : fs)
    if (f.name == name) return &f;
  return nullptr;
}

std::string failures(const Verdict& v) {
  std::string s;
  for (const Predicate* p : v.failures()) s += std::string(s.empty() ? "" : ", ") + std::string(p->name);
  return s;
}

// sequencer.md §10.2: the loop words pass their predicates on every generation (MOVE §5.2, ALU_OP Q9, Q11).
TEST(SeqSpecWords, LoopWordsAreValidOnEveryGeneration) {
  const std::vector<std::pair<Word, std::string_view>> words{
      {seq_words::spec_move_word(), "is_valid_ctrl_mv"},
      {seq_words::branch_word(), "is_valid_ctrl_br"},
      {seq_words::alu_word(), "is_valid_ctrl_al"},
      {seq_words::back_branch_word(), "is_valid_ctrl_br"},
  };
  for (Generation g : kAllGenerations)
    for (const auto& [w, validator] : words) {
      const Instruction inst = dec(w, g);
      EXPECT_EQ(inst.status, DecodeStatus::Modeled);
      const Verdict v = validate(inst, g);
      ASSERT_NE(v.validator, nullptr);
      EXPECT_EQ(v.validator->name, validator);
      EXPECT_TRUE(v.valid) << to_string(g) << ": " << failures(v);
      EXPECT_EQ(v.checked, Checked::Full);
    }
}

// The spec's hex decodes to exactly the field values its table gives.
TEST(SeqSpecWords, FieldValuesOfTheLoopWords) {
  const Instruction mv = dec(seq_words::spec_move_word(), Generation::Cayman);
  const CtrlMv* m = mv.as<CtrlMv>();
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->num_mov, 1);
  EXPECT_EQ(m->dtype, dtype::kUint32);
  EXPECT_EQ(m->move_source, 1);
  EXPECT_EQ(m->dst_registers[0], 0);
  EXPECT_EQ(m->immediate[0], 0U);

  const Instruction al = dec(seq_words::alu_word(), Generation::Cayman);
  const CtrlAl* a = al.as<CtrlAl>();
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->op, aluop::kAdd);
  EXPECT_EQ(a->dtype, dtype::kInt32);
  EXPECT_EQ(a->src1_datasrc, 1);
  EXPECT_EQ(a->src0_lo, 0);
  EXPECT_EQ(a->dst_lo, 0);
  EXPECT_EQ(a->immediate, 1U);

  const Instruction br = dec(seq_words::back_branch_word(), Generation::Cayman);
  const CtrlBr* b = br.as<CtrlBr>();
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->cmp_op, 9);
  EXPECT_EQ(b->dtype, dtype::kInt32);
  EXPECT_EQ(b->target_mode, 3);
  EXPECT_EQ(b->cmp_reg0, 0);
  EXPECT_EQ(b->cmp_reg1, 1);
  EXPECT_EQ(b->br_immediate, 0xFFFFFF80U);
}

TEST(SeqMeaning, BranchDescribesItsComparisonAndTarget) {
  const auto fs = describe_fields(dec(seq_words::back_branch_word(), Generation::Cayman));
  ASSERT_NE(find_field(fs, "cmp_op"), nullptr);
  EXPECT_EQ(find_field(fs, "cmp_op")->meaning, "9: taken if R[cmp_reg0] LT R[cmp_reg1]");
  EXPECT_EQ(find_field(fs, "cmp_reg0")->meaning, "left operand R0");
  EXPECT_EQ(find_field(fs, "cmp_reg1")->meaning, "right operand R1");
  EXPECT_EQ(find_field(fs, "cmp_immediate")->meaning, "unused (not an immediate comparison)");
  EXPECT_NE(find_field(fs, "br_immediate")->meaning.find("relative target -128 bytes"), std::string::npos);
  EXPECT_NE(find_field(fs, "br_immediate")->meaning.find("PROJ-CONV-Q15"), std::string::npos);

  Word runtime = seq_words::back_branch_word();
  runtime[3] = 2;  // debug_hint 2: the runtime's relative encoding
  const auto rt = describe_fields(dec(runtime, Generation::Cayman));
  EXPECT_EQ(find_field(rt, "br_immediate")->meaning,
            "relative target -128 bytes from this word (runtime-encoded: debug_hint 2)");
}

TEST(SeqMeaning, MoveAndAluNameTheirRegisters) {
  const auto mv = describe_fields(dec(seq_words::move_word(), Generation::Mariana));
  EXPECT_EQ(find_field(mv, "src_registers[1]")->meaning, "slot 1 source R2");
  EXPECT_EQ(find_field(mv, "dst_registers[0]")->meaning, "slot 0 destination R3");
  EXPECT_EQ(find_field(mv, "src_registers[2]")->meaning, "unused (slot beyond num_mov)");
  EXPECT_EQ(find_field(mv, "immediate[0]")->meaning, "unused (register source)");

  Word pc = seq_words::move_word();
  pc[16] = 128;
  pc[24] = 129;
  const auto p = describe_fields(dec(pc, Generation::Mariana));
  EXPECT_EQ(find_field(p, "src_registers[0]")->meaning, "slot 0 source PC low half (specifier 128, read-only)");
  EXPECT_EQ(find_field(p, "dst_registers[0]")->meaning,
            "slot 0 destination PC high half (specifier 129, read-only): the write is ignored (PROJ-CONV-Q7)");

  const auto al = describe_fields(dec(seq_words::alu_word(), Generation::Mariana));
  EXPECT_EQ(find_field(al, "src0_lo")->meaning, "left operand (src0) R0");
  EXPECT_EQ(find_field(al, "src1_lo")->meaning, "unused (src1 is the immediate)");
  EXPECT_EQ(find_field(al, "dst_hi")->meaning, "unused (32-bit or narrower dtype)");
  EXPECT_EQ(find_field(al, "immediate")->meaning, "right operand (src1) immediate 0x1: its low 4 bytes are used");
}

TEST(SeqMeaning, PseudoWordsAndClear) {
  const auto call = describe_fields(dec(seq_words::call_word(), Generation::Cayman));
  EXPECT_EQ(find_field(call, "callee[0]")->meaning, "callee name \"main_fn\" (7 bytes at 12..47, NUL-terminated)");
  EXPECT_EQ(find_field(call, "args_var_id")->meaning, "args-table variable id 3 (def.json var_id)");
  const auto ex = describe_fields(dec(seq_words::exit_word(), Generation::Cayman));
  EXPECT_EQ(find_field(ex, "kind")->meaning, "1: exit execution");
  const auto er = describe_fields(dec(seq_words::range_clear_word(), Generation::Cayman));
  EXPECT_EQ(find_field(er, "clear_mode")->meaning, "1: zero semaphores range_first..range_last");
  EXPECT_EQ(find_field(er, "range_last")->meaning, "last semaphore of the range: S[23]");
  EXPECT_EQ(find_field(er, "mask[0]")->meaning, "unused (range clear)");
}

// A failure names the fields it read with their byte ranges from the declaration.
TEST(SeqReports, FailuresCarryTheirFields) {
  Word w = seq_words::branch_word();
  w[14] = 4;
  w[34] = 64;
  const Instruction inst = dec(w, Generation::Cayman);
  const Verdict v = validate(inst, Generation::Cayman);
  ASSERT_EQ(v.n_failed, 1);
  const FailureReport r = report(*v.failures()[0], inst, CheckContext{Generation::Cayman, {}});
  EXPECT_EQ(r.predicate, "ctrl_br_valid_target_registers");
  EXPECT_EQ(r.basis, Basis::Convention);
  EXPECT_EQ(r.convention, "PROJ-CONV-Q11");
  ASSERT_GE(r.n_fields, 2);
  EXPECT_EQ(r.fields[0].name, "target_reg_lo");
  EXPECT_EQ(r.fields[0].first_byte, 34);
  EXPECT_EQ(r.fields[0].bytes[0], 64);
  EXPECT_EQ(r.message, "target_mode 4 reads target_reg_lo 64 and target_reg_hi 0; both must be R0-R63");

  Word mv = seq_words::move_word();
  mv[21] = 5;  // slot 5 is unused, its source byte must be 0
  const Instruction m = dec(mv, Generation::Sunda);
  const Verdict mvv = validate(m, Generation::Sunda);
  ASSERT_EQ(mvv.n_failed, 1);
  const FailureReport mr = report(*mvv.failures()[0], m, CheckContext{Generation::Sunda, {}});
  EXPECT_EQ(mr.fields[0].name, "src_registers[5]");
  EXPECT_EQ(mr.fields[0].first_byte, 21);
  EXPECT_EQ(mr.fields[1].name, "dst_registers[5]");
  EXPECT_EQ(mr.fields[1].first_byte, 29);
}

// The validator, decode's description and the disassembler read a mode-dependent operand the same way: for
// every such field of random ALU_OP / COMPARE_BRANCH / RANGE_CLEAR words, "unused" in the description <=> the
// disassembler leaves the zero field out <=> making it an illegal register changes no verdict.
TEST(SeqReadings, ValidatorDescriberAndDisassemblerAgree) {
  struct Probe {
    Word base;
    std::vector<std::pair<std::string_view, unsigned>> fields;  // name, byte
  };
  const std::vector<Probe> probes{
      {seq_words::alu_word(), {{"src1_lo", 18}, {"src1_hi", 19}, {"src0_hi", 17}, {"dst_hi", 21}}},
      {seq_words::branch_word(), {{"cmp_reg1", 33}, {"target_reg_lo", 34}, {"target_reg_hi", 35}}},
  };
  std::mt19937 rng(12);
  const uint8_t alu_dtypes[] = {dtype::kInt32, dtype::kUint64, dtype::kInt64, dtype::kUint8, dtype::kFp32};
  const uint8_t cmp_ops[] = {0, 1, 5, 9, 14};
  const uint8_t modes[] = {1, 3, 4};
  unsigned checked = 0;
  for (const Probe& p : probes) {
    for (int n = 0; n < 200; ++n) {
      Word w = p.base;
      if (w[0] == opcode::kAluOp) {
        w[12] = aluop::kBitwiseAnd;  // legal on every integer dtype, 64-bit included
        w[13] = alu_dtypes[rng() % 5];
        if (w[13] == dtype::kFp32) w[12] = aluop::kAdd;
        w[14] = static_cast<uint8_t>(rng() % 2);
      } else {
        w[12] = cmp_ops[rng() % 5];
        w[14] = modes[rng() % 3];
      }
      const Generation g = kAllGenerations[rng() % 4];
      const Instruction inst = dec(w, g);
      ASSERT_TRUE(validate(inst, g).valid) << failures(validate(inst, g));
      const auto fs = describe_fields(inst);
      for (const auto& [name, byte] : p.fields) {
        const bool unused = find_field(fs, name)->meaning.starts_with("unused");
        Word zero = w;  // a zero operand is left out exactly when the word's modes leave it unused
        zero[byte] = 0;
        const std::string text = disassemble(dec(zero, g), g);
        const bool printed = text.find(fmt::format(" {}=", name)) != std::string::npos;
        Word bad = w;
        bad[byte] = 200;
        const bool still_valid = validate(dec(bad, g), g).valid;
        EXPECT_EQ(unused, !printed) << name << " in " << text;
        EXPECT_EQ(unused, still_valid) << name << " in " << text;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 200U * 4 + 200U * 3);
}

// Disassembly is exact: the canonical text assembles back to the same word (the spec words and the baselines).
TEST(SeqSyntax, CanonicalTextAssemblesBack) {
  const std::vector<Word> words{seq_words::write_word(),       seq_words::move_word(),   seq_words::spec_move_word(),
                                seq_words::alu_word(),         seq_words::branch_word(), seq_words::back_branch_word(),
                                seq_words::range_clear_word(), seq_words::poll_word(),   seq_words::hint_word(0xB5),
                                seq_words::hint_word(0xDD),    seq_words::call_word(),   seq_words::exit_word()};
  for (Generation g : kAllGenerations)
    for (const Word& w : words) {
      const std::string text = disassemble(dec(w, g), g);
      const AsmResult r = assemble(text, "seq", g);
      ASSERT_TRUE(r.ok()) << text << ": " << format_diagnostic(r.errors[0]);
      ASSERT_EQ(r.words.size(), 1U);
      EXPECT_EQ(r.words[0], w) << text;
    }
}

// PROJ-CONV-SQ4 by its definition, a byte at a time: the eight-byte reading of callee_name_valid must equal it.
bool callee_valid_bytewise(const PseudoFunctionCall& c) {
  const std::string_view name = family::seq::callee_name(c);
  if (name.empty() || name.size() >= c.callee.size()) return false;
  for (char ch : name)
    if (ch < 0x20 || ch > 0x7E) return false;
  for (size_t k = name.size(); k < c.callee.size(); ++k)
    if (c.callee[k] != 0) return false;
  return true;
}

TEST(SeqCallee, LaneReadingEqualsTheBytewiseDefinition) {
  size_t accepted = 0, rejected = 0;
  auto check = [&](const PseudoFunctionCall& c) {
    const bool want = callee_valid_bytewise(c);
    ASSERT_EQ(family::seq::callee_name_valid(c), want)
        << std::string(reinterpret_cast<const char*>(c.callee.data()), c.callee.size());
    (want ? accepted : rejected) += 1;
  };
  // Every byte value at every position of a name of every length 0..36.
  for (size_t n = 0; n <= PseudoFunctionCall::kNameBytes; ++n)
    for (size_t pos = 0; pos < PseudoFunctionCall::kNameBytes; ++pos)
      for (unsigned v = 0; v < 256; ++v) {
        PseudoFunctionCall c{};
        for (size_t k = 0; k < n; ++k) c.callee[k] = 'a';
        c.callee[pos] = static_cast<uint8_t>(v);
        check(c);
      }
  // Random printable names with a few random bytes written over them.
  std::mt19937_64 rng(14);
  for (int t = 0; t < 200000; ++t) {
    PseudoFunctionCall c{};
    const size_t n = rng() % (PseudoFunctionCall::kNameBytes + 1);
    for (size_t k = 0; k < n; ++k) c.callee[k] = static_cast<uint8_t>(0x20 + rng() % 0x5F);
    for (uint64_t j = rng() % 3; j > 0; --j) c.callee[rng() % c.callee.size()] = static_cast<uint8_t>(rng());
    check(c);
  }
  EXPECT_GT(accepted, 100000U);
  EXPECT_GT(rejected, 100000U);
}

}  // namespace
}  // namespace tpbisa
