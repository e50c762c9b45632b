// Validator tables: every family's {opcode, validator} rows agree with the catalog's format column, and the check
// that enforces this when a family compiles (check_validator_table) rejects each kind of wrong table.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "families/validator_table.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::family {
namespace {

TEST(ValidatorTable, EveryModeledOpcodeHasOneRowOfItsFamilyOnEachOfItsGenerations) {
  size_t rows = 0;
  for (const Family& f : families()) {
    SCOPED_TRACE(std::string(f.name));
    for (const ValidatorRow& r : f.validation.rows) {
      ++rows;
      const OpcodeInfo* info = find_opcode(r.opcode);
      ASSERT_NE(info, nullptr) << unsigned{r.opcode};
      EXPECT_EQ(family_of(info->format), &f) << info->mnemonic << " is listed by a family that does not own it";
      EXPECT_EQ(r.validator->checked, Checked::Full) << info->mnemonic;
      const auto all = all_validators();
      EXPECT_NE(std::find(all.begin(), all.end(), r.validator), all.end()) << r.validator->name;
    }
    for (const OpcodeInfo& op : kOpcodes) {
      if (family_of(op.format) != &f) continue;
      for (Generation g : kAllGenerations) {
        if (!op.gens.has(g)) continue;
        const auto n = std::count_if(f.validation.rows.begin(), f.validation.rows.end(),
                                     [&](const ValidatorRow& r) { return r.opcode == op.value && r.gens.has(g); });
        EXPECT_EQ(n, 1) << op.mnemonic << " on " << to_string(g);
        // Dispatch takes the validator of that row.
        EXPECT_EQ(validator_of(op.value, g), &validator_for(op.value, g)) << op.mnemonic << " on " << to_string(g);
        EXPECT_EQ(validator_for(op.value, g).checked, Checked::Full) << op.mnemonic << " on " << to_string(g);
      }
    }
  }
  EXPECT_GE(rows, 38U);  // the modeled opcodes of today's families
}

TEST(ValidatorTable, OpcodesOutsideTheFamiliesHaveNoValidatorOfTheirOwn) {
  for (unsigned v = 0; v < 256; ++v)
    for (Generation g : kAllGenerations) {
      const OpcodeInfo* info = find_opcode(static_cast<uint8_t>(v));
      if (info != nullptr && info->format != Format::NotModeled && info->gens.has(g)) continue;
      EXPECT_EQ(validator_of(static_cast<uint8_t>(v), g), nullptr) << v << " on " << to_string(g);
      EXPECT_EQ(&validator_for(static_cast<uint8_t>(v), g), &kHeaderOnlyValidator) << v << " on " << to_string(g);
    }
}

/// Any validator: the check reads only whether a row has one.
constexpr const Validator* kAny = &kHeaderOnlyValidator;

std::vector<ValidatorRow> ctrl_no_rows() {
  return {{opcode::kActivationTableLoad, kAny}, {opcode::kHalt, kAny}, {opcode::kDrain, kAny},
          {opcode::kInstructionFlush, kAny},    {opcode::kNop, kAny},  {opcode::kNotify, kAny}};
}

uint8_t unassigned_opcode() {
  for (unsigned v = 0; v < 256; ++v)
    if (find_opcode(static_cast<uint8_t>(v)) == nullptr) return static_cast<uint8_t>(v);
  return 0;
}

TEST(ValidatorTable, TheCheckRejectsEachKindOfWrongTable) {
  EXPECT_EQ(check_validator_table<CtrlNoFamily>(ctrl_no_rows()), TableError::None);

  auto missing = ctrl_no_rows();
  missing.pop_back();  // Notify
  EXPECT_EQ(check_validator_table<CtrlNoFamily>(missing), TableError::MissingRow);

  auto foreign = ctrl_no_rows();
  foreign.push_back({opcode::kCopy, kAny});  // S4D4_TR: the datapath family's
  EXPECT_EQ(check_validator_table<CtrlNoFamily>(foreign), TableError::ForeignOpcode);

  auto not_modeled = ctrl_no_rows();
  not_modeled.push_back({0x21, kAny});  // ACTIVATE: in the catalog, not modeled
  ASSERT_EQ(find_opcode(0x21)->format, Format::NotModeled);
  EXPECT_EQ(check_validator_table<CtrlNoFamily>(not_modeled), TableError::ForeignOpcode);

  auto twice = ctrl_no_rows();
  twice.push_back({opcode::kHalt, kAny});
  EXPECT_EQ(check_validator_table<CtrlNoFamily>(twice), TableError::TwoRows);

  auto unknown = ctrl_no_rows();
  ASSERT_EQ(find_opcode(unassigned_opcode()), nullptr);
  unknown.push_back({unassigned_opcode(), kAny});
  EXPECT_EQ(check_validator_table<CtrlNoFamily>(unknown), TableError::UnknownOpcode);

  auto no_validator = ctrl_no_rows();
  no_validator[2].validator = nullptr;
  EXPECT_EQ(check_validator_table<CtrlNoFamily>(no_validator), TableError::NoValidator);
}

TEST(ValidatorTable, RowsCoverTheCatalogsGenerationsOfEachOpcode) {
  // The SUNDA-only Dual pair: a row on every generation is read as the catalog's (SUNDA); a row on none of them
  // is refused.
  std::vector<ValidatorRow> tsm = {{opcode::kPtrMultiArith, kAny},
                                   {opcode::kPtrMultiBitvec, kAny},
                                   {opcode::kPtrMultiDualArith, kAny},
                                   {opcode::kPtrMultiDualBitvec, kAny}};
  EXPECT_EQ(check_validator_table<TsmFamily>(tsm), TableError::None);
  tsm[3].gens = kGensCaymanUp;
  EXPECT_EQ(check_validator_table<TsmFamily>(tsm), TableError::NoGeneration);

  // One validator per layout: rows split by generation must cover every generation of the opcode, once.
  std::vector<ValidatorRow> mm = {{opcode::kLdWeights, kAny, GenSet{0x3}},
                                  {opcode::kLdWeights, kAny, GenSet{0xC}},
                                  {opcode::kMatmul, kAny, GenSet{0x3}},
                                  {opcode::kMatmul, kAny, GenSet{0x4}},
                                  {opcode::kMatmul, kAny, GenSet{0x8}}};
  EXPECT_EQ(check_validator_table<MatmulFamily>(mm), TableError::None);
  mm[1].gens = kGensMaverickOnly;
  EXPECT_EQ(check_validator_table<MatmulFamily>(mm), TableError::MissingRow);  // LDWEIGHTS on MARIANA
  mm[1].gens = kGensCaymanUp;
  EXPECT_EQ(check_validator_table<MatmulFamily>(mm), TableError::TwoRows);  // LDWEIGHTS on CAYMAN
}

}  // namespace
}  // namespace tpbisa::family
