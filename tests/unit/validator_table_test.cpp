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

const Validator* kAnyValidator() {
  return &kHeaderOnlyValidator;
}

std::vector<std::span<const ValidatorRow>> all_tables() {
  std::vector<std::span<const ValidatorRow>> tables;
  for (const Family& f : families()) tables.push_back(f.validation.rows);
  return tables;
}

TEST(ValidatorTable, EveryModeledOpcodeHasOneRowOnEachOfItsGenerations) {
  EXPECT_EQ(check_registry_tables(all_tables()), TableError::None);
  size_t rows = 0;
  for (const Family& f : families()) {
    SCOPED_TRACE(std::string(f.name));
    for (const ValidatorRow& r : f.validation.rows) {
      ++rows;
      const OpcodeInfo* info = find_opcode(r.opcode);
      ASSERT_NE(info, nullptr) << unsigned{r.opcode};
      // The family that lists an opcode is the one that runs and describes it.
      EXPECT_EQ(opcode_family(r.opcode), &f) << info->mnemonic;
      EXPECT_EQ(r.validator->checked, Checked::Full) << info->mnemonic;
      const auto all = all_validators();
      EXPECT_NE(std::find(all.begin(), all.end(), r.validator), all.end()) << r.validator->name;
    }
  }
  for (const OpcodeInfo& op : kOpcodes) {
    if (op.format == Format::NotModeled) continue;
    for (Generation g : kAllGenerations) {
      if (!op.gens.has(g)) continue;
      // Dispatch takes the validator of that row.
      EXPECT_EQ(validator_of(op.value, g), &validator_for(op.value, g)) << op.mnemonic << " on " << to_string(g);
      EXPECT_EQ(validator_for(op.value, g).checked, Checked::Full) << op.mnemonic << " on " << to_string(g);
    }
  }
  EXPECT_GE(rows, 38U);  // the modeled opcodes of today's families
}

TEST(ValidatorTable, TheRegistryCheckFindsAMissingAndATwiceListedOpcode) {
  auto tables = all_tables();
  // Drop Notify from the ctrl_no table: no family judges it any more.
  std::vector<ValidatorRow> ctrl_no;
  for (const Family& f : families())
    if (f.name == "ctrl_no")
      for (const ValidatorRow& r : f.validation.rows)
        if (r.opcode != opcode::kNotify) ctrl_no.push_back(r);
  ASSERT_FALSE(ctrl_no.empty());
  auto missing = tables;
  for (auto& t : missing)
    if (!t.empty() && find_opcode(t.front().opcode)->format == Format::CtrlNo) t = ctrl_no;
  EXPECT_EQ(check_registry_tables(missing), TableError::MissingRow);
  // A second family listing Halt.
  const std::vector<ValidatorRow> halt = {{opcode::kHalt, kAnyValidator()}};
  tables.push_back(halt);
  EXPECT_EQ(check_registry_tables(tables), TableError::TwoRows);
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

  auto partial = ctrl_no_rows();
  partial.pop_back();  // Notify: another family may judge it; the registry's check finds it if none does
  EXPECT_EQ(check_validator_table<CtrlNoFamily>(partial), TableError::None);

  auto foreign = ctrl_no_rows();
  foreign.push_back({opcode::kCopy, kAny});  // S4D4_TR: the datapath family's
  EXPECT_EQ(check_validator_table<CtrlNoFamily>(foreign), TableError::ForeignOpcode);

  auto not_modeled = ctrl_no_rows();
  not_modeled.push_back({0x73, kAny});  // ROI_ALIGN: in the catalog, not modeled
  ASSERT_EQ(find_opcode(0x73)->format, Format::NotModeled);
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
  mm.push_back({opcode::kLdWeights, kAny, kGensMaverickOnly});
  EXPECT_EQ(check_validator_table<MatmulFamily>(mm), TableError::TwoRows);  // LDWEIGHTS twice on MAVERICK
  mm[1].gens = kGensCaymanUp;
  EXPECT_EQ(check_validator_table<MatmulFamily>(mm), TableError::TwoRows);  // LDWEIGHTS on CAYMAN
}

}  // namespace
}  // namespace tpbisa::family
