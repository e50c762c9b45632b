// Role::Custom fields: each family's entries name its own Custom operands, and the text layer obeys them.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <variant>

#include "families/family.hpp"
#include "text/asm_fields.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa {
namespace {

/// A decoded word of every layout (variant alternative), default bytes.
template <size_t... I>
std::vector<Instruction> one_of_each(std::index_sequence<I...>) {
  std::vector<Instruction> out;
  (..., [&] {
    Instruction inst;
    inst.body.template emplace<I>();
    out.push_back(inst);
  }());
  return out;
}

std::vector<Instruction> every_layout() {
  return one_of_each(std::make_index_sequence<kOperandKinds>{});
}

TEST(CustomFields, EveryEntryNamesACustomOperandOfItsFamily) {
  std::set<std::pair<std::string, std::string>> custom_operands;  // (family, path) of every Role::Custom operand
  for (const Instruction& inst : every_layout()) {
    const size_t alt = inst.body.index();
    if (alt == 0) continue;  // RawWord: no family
    const std::string fam(family::families()[kLayoutRows[alt - 1].family].name);
    for (const tasm::AsmField& f : tasm::fields_for(inst)) {
      const family::CustomField* entry = family::custom_field(alt, f.path);
      if (f.role != Role::Custom) {
        EXPECT_EQ(entry, nullptr) << fam << ": " << f.path << " has an entry but is not declared Role::Custom";
        continue;
      }
      custom_operands.insert({fam, f.path});
      EXPECT_EQ(f.custom, entry) << f.path;  // the operand list carries the family's entry
    }
  }
  for (const family::Family& fam : family::families())
    for (const family::CustomField& c : fam.syntax.custom_fields) {
      EXPECT_TRUE(custom_operands.contains({std::string(fam.name), std::string(c.path)}))
          << fam.name << ": entry " << c.path << " names no Role::Custom operand of the family";
      EXPECT_EQ(c.names.empty(), c.names_what.empty()) << c.path << ": names come with what they are";
    }
  EXPECT_FALSE(custom_operands.empty());
}

TEST(CustomFields, TheFamilysEntryGivesTheTextAndDecodeShowsHex) {
  // EVENT_SEMAPHORE's extended wait mode: named by the WAIT_MODE table of the sync family's entry.
  CtrlEs es;
  es.header.opcode = 0xA0;
  es.header.inst_word_len = 16;
  es.ext.wait_mode = 0x01;  // SEM_EQ_IMM: a WAIT_MODE name on every generation
  const Instruction inst = decode(encode(es), Generation::Cayman);
  const std::string text = disassemble(inst, Generation::Cayman);
  const family::CustomField* entry = family::custom_field(inst.body.index(), "ext.wait_mode");
  ASSERT_NE(entry, nullptr);
  const EnumValue* name = nullptr;
  for (const EnumValue& v : entry->names)
    if (v.value == 0x01) name = &v;
  ASSERT_NE(name, nullptr);
  EXPECT_NE(text.find("ext.wait_mode=" + std::string(name->name)), std::string::npos) << text;
  bool described = false;
  for (const DescribedField& f : describe_fields(inst))
    if (f.name == "ext.wait_mode") {
      described = true;
      EXPECT_EQ(f.role, Role::Custom);
      EXPECT_EQ(format_value(f), "0x01");
    }
  EXPECT_TRUE(described) << "decode describes no field ext.wait_mode";
  // The assembler reads the name back.
  const AsmResult back = assemble(text, "t.s", Generation::Cayman);
  ASSERT_TRUE(back.ok()) << (back.errors.empty() ? "" : back.errors[0].message);
  ASSERT_EQ(back.words.size(), 1U);
  EXPECT_EQ(back.words[0], encode(inst));
}

}  // namespace
}  // namespace tpbisa
