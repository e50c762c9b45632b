// catalog --coverage's library call: coverage read from the registry agrees with decode, validator dispatch,
// lowering and the machine's refusals.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../support/catalog_expectations.hpp"
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

/// What the tests expect of `op` on `g` (its row in a family's catalog.tsv or in unmodeled.tsv) holds of coverage().
void expect_state(const OpcodeCoverage& c, const std::string& state) {
  if (state == "executed" || state == "lowered") {
    EXPECT_TRUE(c.modeled());
    EXPECT_EQ(c.executor, state == "executed" ? ExecutorKind::Yes : ExecutorKind::Lowered);
  } else if (state.starts_with("convention ")) {
    EXPECT_TRUE(c.modeled());
    EXPECT_EQ(c.executor, ExecutorKind::Convention);
    EXPECT_EQ(c.convention, state.substr(std::string_view("convention ").size()));
  } else if (state == "semantics not public") {
    EXPECT_TRUE(c.format && c.validator);
    EXPECT_EQ(c.executor, ExecutorKind::NotPublic);
    EXPECT_FALSE(c.not_public.empty());
  } else if (state == "layout not public" || state == "not modeled" || state == "invalid marker") {
    EXPECT_FALSE(c.format || c.validator);
    EXPECT_EQ(c.executor, ExecutorKind::None);
    EXPECT_EQ(c.layout_not_public(), state == "layout not public");
    EXPECT_EQ(c.invalid_marker, state == "invalid marker");
  } else {
    ADD_FAILURE() << "'" << state << "' is no coverage state";
  }
}

TEST(CatalogCoverage, EveryRowIsAsItsTestsExpect) {
  // Each family states the rows it models in tests/families/<family>/catalog.tsv and tests/catalog/unmodeled.tsv the
  // rows no family models: every catalog row has exactly one expectation, and no expectation names another opcode.
  const test::CatalogExpectations expected = test::catalog_expectations();
  for (const std::string& e : expected.errors) ADD_FAILURE() << e;
  for (const OpcodeInfo& op : kOpcodes) {
    const auto it = expected.rows.find(op.value);
    if (it == expected.rows.end()) {
      ADD_FAILURE() << fmt::format(
          "{:#04x} {}: no expectation; its family's tests/families/<family>/catalog.tsv, or "
          "tests/catalog/unmodeled.tsv, states it",
          op.value, op.enum_name);
      continue;
    }
    const test::RowExpectation& row = it->second;
    EXPECT_EQ(row.name, op.enum_name) << row.file;
    for (Generation g : kAllGenerations) {
      if (!op.gens.has(g)) continue;
      SCOPED_TRACE(fmt::format("{} on {} ({}: {})", op.enum_name, to_string(g), row.file, row.state));
      expect_state(coverage(op, g), row.state);
    }
  }
  for (const auto& [value, row] : expected.rows)
    EXPECT_NE(find_opcode(value), nullptr) << row.file << " states " << row.name << ", which the catalog lacks";
}

TEST(CatalogCoverage, TheLayoutsNotPublicAreTheResearchDigestsAndStayRaw) {
  // opcode-research.md gives no layout for the PE opcodes 0x03-0x06 (§A.1 "—", §A.2.11), nor the public wiki one
  // for 0x26, 0x4D, 0xE3, 0xF3, 0xF4 (the struct names only), the batch-norm training ops 0x63/0x65/0x8E/0x94 and
  // POOL_BUFFER_LOAD 0x67 (named, never quoted), MAVERICK's 0xB9/0xBA (§A.2: presence only) and the runtime pseudo
  // band past 0xC1/0xC6/0xC8, 0xD0 included (§A.2.8, §A.2.10), and the rows whose struct the public wiki names without
  // offsets or not at all (the MX matmul pair 0x09/0x0A, 0x74, 0x79, SUNDA's bf16 ops, the dormant
  // 0x4A/0x4C/0x73/0x81/0x9C, ...): they, the rows tests/catalog/unmodeled.tsv marks so, and only rows the catalog
  // marks so, are `layout not public`; decode says so by name, disassembly keeps the word exact as .raw.
  std::vector<uint8_t> marked, stated;
  for (const OpcodeInfo& op : kOpcodes)
    if (!op.layout_not_public.empty()) {
      marked.push_back(op.value);
      EXPECT_EQ(op.format, Format::NotModeled) << op.enum_name;  // a layout not public has no format
    }
  const test::CatalogExpectations expected = test::catalog_expectations();
  for (const auto& [value, row] : expected.rows)
    if (row.state == "layout not public") stated.push_back(value);
  EXPECT_EQ(marked, stated);
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
