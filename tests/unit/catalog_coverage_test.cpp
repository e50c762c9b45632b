// catalog --coverage's library call: coverage read from the registry agrees with decode, validator dispatch,
// lowering and the machine's refusals.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tpbisa/catalog.hpp"
#include "tpbisa/coverage.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/lower.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

Instruction decode_opcode(uint8_t opcode, Generation g) {
  Word w{};
  w[0] = opcode;
  w[1] = 16;
  return decode(std::span<const uint8_t, kWordBytes>(w), g);
}

/// The valid words of tests/vectors/validate.tsv whose opcode is `opcode` on `g`.
std::vector<Word> valid_vectors(uint8_t opcode, Generation g) {
  std::vector<Word> out;
  std::ifstream in(TPBISA_SOURCE_DIR "/tests/vectors/validate.tsv");
  EXPECT_TRUE(in) << "cannot open validate.tsv";
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, '\t');) cols.push_back(c);
    if (cols.size() < 6 || cols[2] != "valid" || cols[4] != "-" || cols[5].size() != 2 * kWordBytes) continue;
    if (fmt::format(",{},", cols[1]).find(fmt::format(",{},", to_string(g))) == std::string::npos) continue;
    Word w{};
    for (size_t k = 0; k < kWordBytes; ++k)
      w[k] = static_cast<uint8_t>(std::stoul(cols[5].substr(2 * k, 2), nullptr, 16));
    if (w[0] == opcode) out.push_back(w);
  }
  return out;
}

/// Runs one word as a stream of the SP engine (a NEFF-mode stream, or a plain one as `tpbisa run prog.bin` runs).
RunSummary run_word(const Word& w, Generation g, bool neff = true) {
  MachineOptions mo;
  // SP, unless the opcode's placement column excludes it (MATMUL_SPARSE runs on PE only, PROJ-CONV-F1).
  mo.engine = placement_of(w[0]).has(EngineId::Sp) ? EngineId::Sp : EngineId::Pe;
  mo.neff_mode = neff;
  Machine m(g, std::vector<Word>{w}, mo);
  return m.run(4);
}

TEST(CatalogCoverage, AgreesWithDecodeAndValidatorDispatch) {
  for (const OpcodeInfo& op : kOpcodes)
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(std::string(op.enum_name) + " on " + std::string(to_string(g)));
      const OpcodeCoverage c = coverage(op, g);
      EXPECT_EQ(c.present, op.gens.has(g));
      EXPECT_EQ(c.format, c.present && decode_opcode(op.value, g).status == DecodeStatus::Modeled);
      EXPECT_EQ(c.validator, c.present && validator_for(op.value, g).checked == Checked::Full);
      if (c.executor != ExecutorKind::None) {
        EXPECT_TRUE(c.format);  // nothing runs that does not decode
      }
      EXPECT_EQ(c.convention.empty(), c.executor != ExecutorKind::Convention);
      EXPECT_EQ(c.modeled(), c.present && c.format && c.validator && c.executor != ExecutorKind::None &&
                                 c.executor != ExecutorKind::NotPublic);
      // Not public: the layout (no format, the catalog names the source) or the semantics (the family's refusal).
      EXPECT_EQ(c.layout_not_public(), c.present && !op.layout_not_public.empty());
      EXPECT_EQ(c.not_public.empty(), !c.layout_not_public() && c.executor != ExecutorKind::NotPublic);
    }
}

TEST(CatalogCoverage, TheLayoutsNotPublicAreTheResearchDigestsAndStayRaw) {
  // opcode-research.md gives no layout for the PE opcodes 0x03-0x06 (§A.1 "—", §A.2.11), nor the public wiki one
  // for 0x26, 0x4D, 0xE3, 0xF3, 0xF4 (the struct names only), the batch-norm training ops 0x63/0x65/0x8E/0x94 and
  // POOL_BUFFER_LOAD 0x67 (named, never quoted), MAVERICK's 0xB9/0xBA (§A.2: presence only) and the runtime pseudo
  // band past 0xC1/0xC6/0xC8, 0xD0 included (§A.2.8, §A.2.10), and the rows whose struct the public wiki names without
  // offsets or not at all (the MX matmul pair 0x09/0x0A, 0x74, 0x79, SUNDA's bf16 ops, the dormant
  // 0x4A/0x4C/0x73/0x81/0x9C, ...): they, and only rows the catalog marks so, are `layout not public`; decode says so
  // by name, disassembly keeps the word exact as .raw.
  std::vector<uint8_t> marked;
  for (const OpcodeInfo& op : kOpcodes)
    if (!op.layout_not_public.empty()) {
      marked.push_back(op.value);
      EXPECT_EQ(op.format, Format::NotModeled) << op.enum_name;  // a layout not public has no format
    }
  EXPECT_EQ(marked, (std::vector<uint8_t>{0x03, 0x04, 0x05, 0x06, 0x09, 0x0A, 0x26, 0x4A, 0x4C, 0x4D, 0x63, 0x65,
                                          0x66, 0x67, 0x73, 0x74, 0x79, 0x7A, 0x81, 0x85, 0x86, 0x8A, 0x8B, 0x8C,
                                          0x8D, 0x8E, 0x8F, 0x94, 0x95, 0x9C, 0x9F, 0xB2, 0xB9, 0xBA, 0xC2, 0xC3,
                                          0xC4, 0xC5, 0xC7, 0xC9, 0xCA, 0xCB, 0xCF, 0xD0, 0xD5, 0xD6, 0xD7, 0xD8,
                                          0xD9, 0xDA, 0xDB, 0xDC, 0xDE, 0xE3, 0xF0, 0xF3, 0xF4}));
  for (uint8_t v : marked)
    for (Generation g : kAllGenerations) {
      const OpcodeInfo& op = *find_opcode(v);
      if (!op.gens.has(g)) continue;
      SCOPED_TRACE(std::string(op.enum_name) + " on " + std::string(to_string(g)));
      const OpcodeCoverage c = coverage(op, g);
      EXPECT_TRUE(c.layout_not_public());
      EXPECT_EQ(c.not_public, op.layout_not_public);
      EXPECT_FALSE(c.modeled());
      Word w{};
      for (size_t k = 0; k < kWordBytes; ++k) w[k] = static_cast<uint8_t>(0x5A ^ (k * 7));
      w[0] = v;
      w[1] = 16;
      const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(w), g);
      EXPECT_EQ(inst.status, DecodeStatus::NotModeled);
      EXPECT_EQ(raw_operands_note(inst.info), "layout not public");
      const std::string text = disassemble(std::span<const uint8_t, kWordBytes>(w), g);
      EXPECT_TRUE(text.starts_with(".raw ")) << text;
      EXPECT_NE(text.find(": layout not public"), std::string::npos) << text;
      const AsmResult back = assemble(text, "np", g);
      ASSERT_TRUE(back.ok() && back.words.size() == 1) << text;
      EXPECT_EQ(back.words[0], w);
      const AsmResult by_name = assemble(std::string(op.mnemonic), "np", g);
      ASSERT_FALSE(by_name.ok());
      EXPECT_NE(format_diagnostic(by_name.errors[0]).find("layout not public"), std::string::npos);
    }
}

TEST(CatalogCoverage, InvalidIsTheMarkerNoWordCarries) {
  // PROJ-CONV-C20: INVALID 0xFF is the header's invalid-opcode marker on every generation: coverage counts it apart
  // (neither a format nor a layout to settle), decode keeps its word raw and names it, validation rejects it (C11).
  for (const OpcodeInfo& op : kOpcodes)
    for (Generation g : kAllGenerations)
      EXPECT_EQ(coverage(op, g).invalid_marker, op.value == 0xFF && op.gens.has(g)) << op.enum_name;
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    const OpcodeCoverage c = coverage(*find_opcode(0xFF), g);
    EXPECT_TRUE(c.present && c.invalid_marker);
    EXPECT_FALSE(c.format || c.validator || c.layout_not_public() || c.modeled());
    EXPECT_EQ(c.executor, ExecutorKind::None);
    Word w{};
    w[0] = 0xFF;
    w[1] = 16;
    w[20] = 0x3C;
    const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(w), g);
    EXPECT_EQ(inst.status, DecodeStatus::NotModeled);
    EXPECT_EQ(raw_operands_note(inst.info), "invalid-opcode marker");
    const std::string text = disassemble(std::span<const uint8_t, kWordBytes>(w), g);
    EXPECT_TRUE(text.starts_with(".raw ")) << text;
    EXPECT_NE(text.find(": invalid-opcode marker"), std::string::npos) << text;
    const AsmResult back = assemble(text, "inv", g);
    ASSERT_TRUE(back.ok() && back.words.size() == 1) << text;
    EXPECT_EQ(back.words[0], w);
    const Verdict v = validate(std::span<const uint8_t, kWordBytes>(w), g);
    EXPECT_FALSE(v.valid);
    EXPECT_TRUE(v.fails("has_valid_neuron_header"));
  }
}

TEST(CatalogCoverage, SemanticsNotPublicRefusalsAreTheRunsRefusals) {
  // An opcode whose family lists it as `semantics not public` faults on every valid word, saying so.
  for (const OpcodeInfo& op : kOpcodes)
    for (Generation g : kAllGenerations) {
      const OpcodeCoverage c = coverage(op, g);
      if (c.executor != ExecutorKind::NotPublic) continue;
      SCOPED_TRACE(std::string(op.enum_name) + " on " + std::string(to_string(g)));
      EXPECT_FALSE(c.not_public.empty());
      for (const Word& w : valid_vectors(op.value, g)) {
        const RunSummary s = run_word(w, g);
        ASSERT_TRUE(s.faulted);
        EXPECT_EQ(s.fault.kind, FaultKind::UnsupportedOpcode) << s.fault.detail;
        EXPECT_NE(s.fault.detail.find("not public"), std::string::npos) << s.fault.detail;
      }
    }
}

TEST(CatalogCoverage, ExecutorsAreTheFamilies) {
  for (Generation g : kAllGenerations) {
    EXPECT_EQ(coverage(*find_opcode(0xAA), g).executor, ExecutorKind::Yes);      // TensorLoad: the MEM_2D family
    EXPECT_EQ(coverage(*find_opcode(0xA4), g).executor, ExecutorKind::Yes);      // Nop: CTRL_NO, events only
    EXPECT_EQ(coverage(*find_opcode(0xCE), g).executor, ExecutorKind::Lowered);  // PseudoTensorLoad
    EXPECT_EQ(coverage(*find_opcode(0xCD), g).executor, ExecutorKind::Lowered);  // PseudoTensorStore
    for (uint8_t op : {uint8_t{0xD2}, uint8_t{0xD3}}) {  // PseudoFunctionReturn / Call: refused by PROJ-CONV-Q14
      EXPECT_EQ(coverage(*find_opcode(op), g).executor, ExecutorKind::Convention) << int{op};
      EXPECT_EQ(coverage(*find_opcode(op), g).convention, "PROJ-CONV-Q14") << int{op};
    }
    EXPECT_EQ(coverage(*find_opcode(0xD1), g).executor, ExecutorKind::Yes);   // PseudoFunctionBegin: a no-op (Q14)
    EXPECT_EQ(coverage(*find_opcode(0x03), g).executor, ExecutorKind::None);  // PeRegWrite: not modeled at all
    EXPECT_FALSE(coverage(*find_opcode(0x03), g).modeled());
  }
}

TEST(CatalogCoverage, LoweredOpcodesRunOnlyAfterLowering) {
  // "lowered" is true of an opcode when the run refuses its words (PROJ-CONV-M9) and `lower` turns each valid one
  // into a word of an opcode the executor runs.
  size_t seen = 0;
  for (const OpcodeInfo& op : kOpcodes)
    for (Generation g : kAllGenerations) {
      if (coverage(op, g).executor != ExecutorKind::Lowered) continue;
      SCOPED_TRACE(std::string(op.enum_name) + " on " + std::string(to_string(g)));
      const std::vector<Word> words = valid_vectors(op.value, g);
      ASSERT_FALSE(words.empty()) << "no valid vector of the opcode";
      for (const Word& w : words) {
        const RunSummary plain = run_word(w, g, false);
        EXPECT_TRUE(plain.faulted);
        EXPECT_EQ(plain.fault.kind, FaultKind::PseudoNotLowered) << plain.fault.detail;
        const RunSummary neff = run_word(w, g);
        EXPECT_TRUE(neff.faulted);
        EXPECT_EQ(neff.fault.kind, FaultKind::UnsupportedOpcode) << neff.fault.detail;
        const PseudoMem2d p = read_format<PseudoMem2d>(w);
        const LowerResult r = lower_pseudo(w, VarTable{{p.var_id, Variable{0x1000, uint64_t{p.var_offset} + 0x1000}}});
        ASSERT_EQ(r.status, LowerStatus::Lowered) << r.message;
        const OpcodeInfo* lowered = find_opcode(r.word[0]);
        ASSERT_NE(lowered, nullptr);
        EXPECT_EQ(coverage(*lowered, g).executor, ExecutorKind::Yes) << lowered->enum_name;
        ++seen;
      }
    }
  EXPECT_GT(seen, 0U);
}

TEST(CatalogCoverage, ConventionRefusalsAreTheRunsRefusals) {
  // A convention-refused opcode is one the NEFF-mode run refuses for every valid word, naming the convention.
  size_t seen = 0;
  for (const OpcodeInfo& op : kOpcodes)
    for (Generation g : kAllGenerations) {
      const OpcodeCoverage c = coverage(op, g);
      if (c.executor != ExecutorKind::Convention) continue;
      SCOPED_TRACE(std::string(op.enum_name) + " on " + std::string(to_string(g)));
      ASSERT_TRUE(c.convention.starts_with("PROJ-CONV-"));
      const std::vector<Word> words = valid_vectors(op.value, g);
      ASSERT_FALSE(words.empty()) << "no valid vector of the opcode";
      for (const Word& w : words) {
        const RunSummary s = run_word(w, g);
        ASSERT_TRUE(s.faulted);
        EXPECT_EQ(s.fault.kind, FaultKind::UnsupportedOpcode) << s.fault.detail;
        EXPECT_NE(s.fault.detail.find(c.convention.substr(std::string_view("PROJ-CONV-").size())), std::string::npos)
            << s.fault.detail;
        ++seen;
      }
    }
  EXPECT_GT(seen, 0U);
}

TEST(CatalogCoverage, EveryOpcodeWithAFormatOnCaymanIsModeled) {
  // The "Done when": every opcode the families decode on CAYMAN is modeled (format, validator, executor in
  // one of its senses), read from the registry, or refused as `semantics not public` (PROJ-CONV-G7).
  size_t formats = 0;
  for (const OpcodeInfo& op : kOpcodes) {
    const OpcodeCoverage c = coverage(op, Generation::Cayman);
    if (!c.format) continue;
    ++formats;
    EXPECT_TRUE(c.modeled() || c.executor == ExecutorKind::NotPublic) << op.enum_name;
  }
  EXPECT_GE(formats, 38U);
}

TEST(CatalogCoverage, EveryOpcodeOfTheRealProgramAndSequencerSpecsIsModeledOnCayman) {
  // The opcodes real-programs.md (§1) and sequencer.md (§1 with TENSOR_LOAD, §8) define, by their header names; each is
  // looked up in the catalog and judged by coverage(), so the list only names what the spec files cover.
  constexpr std::array<std::string_view, 29> kSpecNames{"LDWEIGHTS",
                                                        "MATMUL",
                                                        "ACTIVATION_TABLE_LOAD",
                                                        "TENSOR_TENSOR_ARITH_OP",
                                                        "COPY",
                                                        "CAST",
                                                        "MEMSET",
                                                        "EVENT_SEMAPHORE",
                                                        "NOP",
                                                        "SET_ORDERING_MODE",
                                                        "PSEUDO_BRANCH_LABEL",
                                                        "PSEUDO_DMA_DIRECT2D",
                                                        "HALT",
                                                        "DRAIN",
                                                        "INSTRUCTION_FLUSH",
                                                        "NOTIFY",
                                                        "WRITE",
                                                        "MOVE",
                                                        "ALU_OP",
                                                        "COMPARE_BRANCH",
                                                        "TENSOR_LOAD",
                                                        "EVENT_SEMAPHORE_RANGE_CLEAR",
                                                        "POLL_SEM",
                                                        "BRANCH_PREFETCH_HINT",
                                                        "PSEUDO_FUNCTION_BEGIN",
                                                        "PSEUDO_FUNCTION_RETURN",
                                                        "PSEUDO_FUNCTION_CALL",
                                                        "PSEUDO_BRANCH_PREFETCH_HINT",
                                                        "PSEUDO_INST"};
  for (std::string_view name : kSpecNames) {
    const OpcodeInfo* op = nullptr;
    for (const OpcodeInfo& o : kOpcodes)
      if (o.enum_name == name) op = &o;
    ASSERT_NE(op, nullptr) << name << " is not in the catalog";
    EXPECT_TRUE(coverage(*op, Generation::Cayman).modeled()) << name;
  }
}

}  // namespace
}  // namespace tpbisa
