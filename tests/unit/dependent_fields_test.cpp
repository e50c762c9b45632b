// A field whose reading depends on another is decided once: the validator, the descriptions and the disassembler
// agree with the family's decision on every word of tests/vectors/validate.tsv.
#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tpbisa/address.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

struct VectorWord {
  std::string id;
  std::vector<Generation> gens;
  Word word{};
};

std::vector<VectorWord> vectors() {
  std::ifstream in(TPBISA_SOURCE_DIR "/tests/vectors/validate.tsv");
  std::vector<VectorWord> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::istringstream s(line);
    for (std::string c; std::getline(s, c, '\t');) cols.push_back(c);
    if (cols.size() != 6) continue;
    VectorWord v;
    v.id = cols[0];
    std::istringstream gens(cols[1]);
    for (std::string g; std::getline(gens, g, ',');)
      if (const auto gen = parse_generation(g)) v.gens.push_back(*gen);
    HexError e;
    if (parse_hex_word(cols[5], v.word, e)) out.push_back(v);
  }
  return out;
}

/// The value the disassembler writes for `name=` on the line.
std::string operand(const std::string& line, std::string_view name) {
  const std::string key = " " + std::string(name) + "=";
  const size_t at = line.find(key);
  if (at == std::string::npos) return "";
  const size_t from = at + key.size();
  return line.substr(from, line.find(' ', from) - from);
}

bool is_location(const std::string& v) {
  return v.starts_with("sbuf[") || v.starts_with("psum[");
}
bool is_register(const std::string& v) {
  return v.size() > 1 && v[0] == 'r' && v.find_first_not_of("0123456789", 1) == std::string::npos;
}

TEST(DependentFields, ImmZeroReadingAgreesInValidatorDescriptionAndDisassembly) {
  const std::vector<VectorWord> all = vectors();
  ASSERT_GT(all.size(), 300U) << "validate.tsv was not read";
  std::array<unsigned, 3> seen{};  // per ImmReading
  unsigned validator_checks = 0;
  for (const VectorWord& v : all)
    for (Generation g : v.gens) {
      const Instruction inst = decode(v.word, g);
      const S2Bn* s = inst.as<S2Bn>();
      if (s == nullptr) continue;
      SCOPED_TRACE(v.id + " on " + std::string(to_string(g)));
      const ImmReading reading = family::s2bn::imm0_reading(*s);
      ++seen[static_cast<size_t>(reading)];

      // The description.
      std::string meaning;
      for (const DescribedField& f : describe_fields(inst))
        if (f.name == "imm0_ptr") meaning = f.meaning;
      EXPECT_EQ(meaning.find("; pointer ") != std::string::npos, reading == ImmReading::Pointer) << meaning;
      EXPECT_EQ(meaning.find("; register pointer ") != std::string::npos, reading == ImmReading::Register) << meaning;

      // The disassembly.
      const std::string value = operand(disassemble(inst, g), "imm0_ptr");
      if (is_location(value)) {
        EXPECT_EQ(reading, ImmReading::Pointer) << value;
      }
      if (is_register(value)) {
        EXPECT_EQ(reading, ImmReading::Register) << value;
      }
      if (reading == ImmReading::Pointer && (s->imm0_ptr.raw >> 29) == 0 &&
          decode_partition_offset(s->imm0_ptr.raw, g).region != Region::Outside) {
        EXPECT_TRUE(is_location(value)) << value;
      }
      if (reading == ImmReading::Register && s->imm0_ptr.reg_reserved() == 0) {
        EXPECT_EQ(value, "r" + std::to_string(s->imm0_ptr.regnum()));
      }

      // The validator: a failing ParamLoad pointer check names the branch the reading selects.
      const CheckContext ctx{g, {}};
      const Verdict verdict = validate(inst, g);
      for (const Predicate* p : verdict.failures()) {
        if (p->name != "has_valid_bn_param_load_imm0") continue;
        const std::string_view via = report(*p, inst, ctx).via;
        if (via.empty()) continue;  // only the N-finiteness part failed
        ++validator_checks;
        EXPECT_EQ(via, reading == ImmReading::Register ? "is_valid_imm_reg" : "tpb_addr_active_channels");
        EXPECT_NE(reading, ImmReading::Value);
      }
    }
  // Every reading occurs among the vectors, and the validator's branch was observed.
  for (unsigned n : seen) EXPECT_GT(n, 0U);
  EXPECT_GT(validator_checks, 0U);
}

// Edge case #107: BatchNormParamLoad reads imm0_src 0 as a pointer in the instruction; the other S2_BN opcodes read
// it as the value (and their validators require it to be 0.0).
TEST(DependentFields, ParamLoadReadsImmSrcZeroAsAPointer) {
  using family::s2bn::imm0_reading;
  EXPECT_EQ(imm0_reading(opcode::kBatchNormParamLoad, 0), ImmReading::Pointer);
  EXPECT_EQ(imm0_reading(opcode::kBatchNormParamLoad, 1), ImmReading::Pointer);
  EXPECT_EQ(imm0_reading(opcode::kBatchNormParamLoad, 2), ImmReading::Register);
  EXPECT_EQ(imm0_reading(opcode::kBatchNormParamLoad, 3), ImmReading::Value);  // PROJ-CONV-S11
  EXPECT_EQ(imm0_reading(opcode::kImmLdArith, 0), ImmReading::Value);
  EXPECT_EQ(imm0_reading(opcode::kMatchValueLoad, 1), ImmReading::Pointer);
}

}  // namespace
}  // namespace tpbisa
