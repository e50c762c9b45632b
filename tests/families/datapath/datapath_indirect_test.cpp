// The MARIANA+ indirect MEM_PATTERN arm: the validator, the describer and the disassembler read the same arm of
// every operand of every datapath vector, the one datapath::indirect_arm decides.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "../../support/validate_vectors.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

struct PatternOperand {
  std::string_view name;
  unsigned offset;
};

/// The MEM_PATTERN operands at the spec's offsets (real-programs.md §10.1, §11.1); MEMSET's dst (§12.1) is a
/// plain TENSOR4D on every generation, so it never reads as the indirect arm.
std::vector<PatternOperand> operands_of(uint8_t opcode, bool& memset) {
  memset = opcode == opcode::kMemset;
  if (opcode == opcode::kCopy || opcode == opcode::kCast) return {{"src", 12}, {"dst", 44}};
  if (opcode == opcode::kTensorTensorArith) return {{"src0", 16}, {"src1", 32}, {"dst", 48}};
  if (memset) return {{"dst", 44}};
  return {};
}

bool described_as_indirect(const Instruction& inst, std::string_view op) {
  const std::vector<DescribedField> fields = describe_fields(inst);
  const std::string index = std::string(op) + ".index";
  const bool has_index = std::any_of(fields.begin(), fields.end(), [&](const auto& f) { return f.name == index; });
  const bool has_start = std::any_of(fields.begin(), fields.end(),
                                     [&](const auto& f) { return f.name == std::string(op) + ".start_addr"; });
  EXPECT_NE(has_index, has_start) << op << ": exactly one reading is described";
  return has_index;
}

bool disassembled_as_indirect(const Instruction& inst, Generation g, std::string_view op) {
  const std::string line = disassemble(inst, g, DisasmOptions{});
  const bool index = line.find(" " + std::string(op) + ".index=") != std::string::npos;
  const bool start = line.find(" " + std::string(op) + ".start_addr=") != std::string::npos;
  EXPECT_NE(index, start) << op << ": exactly one reading is printed in " << line;
  return index;
}

/// The validator's reading: the operand's tensor predicate explains it as the indirect rule or the plain one.
bool validated_as_indirect(const Instruction& inst, Generation g, std::string_view op, size_t k) {
  const Validator& v = validator_for(inst.opcode(), g);
  size_t seen = 0;
  for (const Predicate* p : v.conjuncts) {
    if (p->name != "tensor4d_valid" && p->name != "tensor3d_valid") continue;
    if (seen++ != k) continue;
    const FailureReport r = report(*p, inst, CheckContext{g, {}});
    return r.message.starts_with(std::string(op) + " is an indirect MEM_PATTERN");
  }
  ADD_FAILURE() << v.name << " has no tensor predicate for operand " << op;
  return false;
}

TEST(DatapathIndirect, ValidatorDescriberAndDisassemblerAgreeOnEveryDatapathVector) {
  const test::TsvFile& file = test::validate_vector_file();
  ASSERT_TRUE(file.readable);
  size_t operands = 0, indirect = 0;
  for (const test::TsvVector& t : file.vectors) {
    bool memset = false;
    const std::vector<PatternOperand> ops = operands_of(t.word[0], memset);
    if (ops.empty()) continue;
    for (Generation g : t.gens) {
      SCOPED_TRACE(t.id + " on " + std::string(to_string(g)));
      const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(t.word), g);
      for (size_t k = 0; k < ops.size(); ++k) {
        const Addr4 start{load_le<uint32_t>(&t.word[ops[k].offset])};
        const bool expected = !memset && datapath::indirect_arm(start, g);
        EXPECT_EQ(described_as_indirect(inst, ops[k].name), expected) << ops[k].name;
        EXPECT_EQ(disassembled_as_indirect(inst, g, ops[k].name), expected) << ops[k].name;
        if (!memset) {
          EXPECT_EQ(validated_as_indirect(inst, g, ops[k].name, k), expected) << ops[k].name;
        }
        ++operands;
        indirect += expected ? 1 : 0;
      }
    }
  }
  EXPECT_GT(operands, 0U);
  EXPECT_GT(indirect, 0U) << "no datapath vector holds an indirect operand";
}

// The indirect reading assembles back to the same bytes, and is refused where the operand is a plain tensor.
TEST(DatapathIndirect, IndirectFieldsAssembleExactlyOnMarianaOnly) {
  const std::string line =
      "Copy src.index=sbuf[p0]+0x1000 src.data=psum[p0].bank0+0x0 src.num_indices=64 in_dtype=fp32 out_dtype=fp32 "
      "num_active_channels=128 op=BYPASS op_dim=UNUSED dst.start_addr=sbuf[p0]+0x4200 dst.step_elem={1,1,1,1} "
      "dst.num_elem={64,1,1,1}";
  const AsmResult r = assemble(line, "t.tasm", Generation::Mariana);
  ASSERT_EQ(r.error_count, 0U) << (r.errors.empty() ? "" : r.errors[0].message);
  ASSERT_EQ(r.words.size(), 1U);
  const Word& w = r.words[0];
  EXPECT_EQ(load_le<uint32_t>(&w[12]), 0x20001000U);  // index ADDR4 with the 0x20 marker
  EXPECT_EQ(load_le<uint32_t>(&w[16]), 0x02000000U);  // data ADDR4
  EXPECT_EQ(load_le<uint16_t>(&w[20]), 64U);
  EXPECT_EQ(disassemble(std::span<const uint8_t, kWordBytes>(w), Generation::Mariana, DisasmOptions{}), line);
  EXPECT_TRUE(validate(decode(std::span<const uint8_t, kWordBytes>(w), Generation::Mariana)).valid);

  const AsmResult on_cayman = assemble(line, "t.tasm", Generation::Cayman);
  ASSERT_GE(on_cayman.errors.size(), 1U);
  EXPECT_EQ(on_cayman.errors[0].column, 6U);
  EXPECT_NE(on_cayman.errors[0].message.find("no indirect MEM_PATTERN arm on cayman"), std::string::npos);

  const AsmResult mixed = assemble("Copy src.data=0x100 src.start_addr=0x1000", "t.tasm", Generation::Mariana);
  ASSERT_EQ(mixed.errors.size(), 1U);
  EXPECT_NE(mixed.errors[0].message.find("same bytes"), std::string::npos);

  const AsmResult marker = assemble("Copy src.index=0x20001000", "t.tasm", Generation::Mariana);
  ASSERT_EQ(marker.errors.size(), 1U);
  EXPECT_NE(marker.errors[0].message.find("29 address bits"), std::string::npos);

  // Indirect fields without the index still select the arm: the marker comes with any of them.
  const AsmResult no_index = assemble("Copy src.num_indices=3", "t.tasm", Generation::Mariana);
  ASSERT_EQ(no_index.error_count, 0U);
  EXPECT_EQ(no_index.words[0][15], 0x20);
}

}  // namespace
}  // namespace tpbisa
