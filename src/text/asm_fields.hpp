// The assembly view of a format: operands are the descriptors' leaf fields, and each field's role sets its syntax.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "text/asm_lex.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa::family {
struct CustomField;
}

namespace tpbisa::tasm {

/// One operand: a leaf of the format descriptors (formats.hpp), with its dotted path and word offset.
struct AsmField {
  std::string path;    ///< "dtype", "src_mem_pattern.start_addr", "events.wait_mode"
  std::string alias;   ///< a second accepted name, printed on MAVERICK: header.inst_flags (PROJ-CONV-C2)
  uint8_t offset = 0;  ///< in the 64-byte word
  uint8_t size = 0;
  uint8_t elem_size = 0;
  uint8_t count = 1;
  bool is_signed = false;
  Role role = Role::Plain;
  bool top_level = false;  ///< not inside a nested format (siblings are found among these)
  bool quiet = false;      ///< printed only when not zero (the family's Syntax::quiet_fields)
  bool hex = false;        ///< printed in hexadecimal (the family's Syntax::hex_fields)
  /// The MEM_PATTERN operand (index into text::pattern_operands) the field is a reading of; kNoPattern if none.
  uint8_t pattern = kNoPattern;
  bool indirect_view = false;   ///< a field of the indirect arm (`src.index`, ...), not of the plain tensor
  bool indirect_index = false;  ///< the indirect arm's index ADDR4: written as its 29 address bits
  /// Role::Custom: the owning family's entry for the field (family::Syntax::custom_fields); nullptr if none.
  const family::CustomField* custom = nullptr;
  static constexpr uint8_t kNoPattern = 0xFF;
  /// Written as `{a,b,...}`: arrays of numbers; `data` has a syntax of its own.
  bool is_list() const { return count > 1 && role != Role::MemData; }
};
using FieldList = std::span<const AsmField>;

/// The operands of the instruction's format in word order, built once per format from the descriptors.
FieldList fields_for(const Instruction& inst);

uint64_t load_bits(const Word& w, unsigned offset, unsigned size);
void store_bits(Word& w, unsigned offset, unsigned size, uint64_t value);

/// The first top-level field with this role, or nullptr.
const AsmField* sibling(FieldList fields, Role role);
/// The name a field is printed with on `g`: header.debug_hint is header.inst_flags on MAVERICK (PROJ-CONV-C2).
std::string_view print_name(const AsmField& f, Generation g);
/// The field an operand name denotes (case-insensitive; both spellings of the header's byte 3 are accepted).
const AsmField* find_field(FieldList fields, std::string_view name);
/// "dtype, src_datasrc, ...": every operand name of a format, for messages.
std::string operand_names(FieldList fields, Generation g);

bool is_event_role(Role r);
/// Header fields, reserved bytes and a family's quiet fields are printed only when they differ from their default.
bool printed(const AsmField& f, const Word& w);
/// The value of the word-length field written when the operand is absent: the word in 4-byte units.
inline constexpr uint64_t kDefaultWordLen = kWordBytes / 4;
/// The directive that spells a word as its 64 bytes in hex (printed for a word no form describes, parsed back).
inline constexpr std::string_view kRawDirective = ".raw";

/// Whether the word holds the field's MEM_PATTERN operand as the indirect arm on `g` (false for other fields).
bool pattern_indirect(const Instruction& inst, const AsmField& f, const Word& w, Generation g);
/// Whether the operand of a pattern field can be the indirect arm on `g` at all.
bool pattern_indirect_exists(const Instruction& inst, const AsmField& f, Generation g);
/// The pattern field's operand name ("src"), or empty.
std::string_view pattern_name(const Instruction& inst, const AsmField& f);

/// Appends the canonical text of one field's value.
void print_value(std::string& out, const AsmField& f, const Word& w, FieldList all, Generation g);

/// The value of one `name=value` operand as written: one word, or a `{...}` list of words.
struct ValueText {
  bool list = false;
  Token scalar;                  ///< the word, when not a list
  Token open;                    ///< the `{`, when a list
  std::span<const Token> items;  ///< the list's words
};

/// Operands whose syntax depends on other fields (resolved after every other operand of the line).
bool depends_on_siblings(const AsmField& f);
/// Parses and stores one operand value; false with `error` set (column relative to the line).
bool parse_value(const AsmField& f, const ValueText& v, Word& w, FieldList all, Generation g, LineError& error);

// ---- Forms of the roles with a syntax of their own (asm_forms.cpp) ----

void print_addr4(std::string& out, uint32_t raw, Generation g);
void print_addr8(std::string& out, uint64_t raw, Generation g);
void print_imm(std::string& out, const AsmField& f, const Word& w, FieldList all, Generation g);
void print_data(std::string& out, const AsmField& f, const Word& w, FieldList all, Generation g);
bool parse_addr4(const AsmField& f, const Token& t, Word& w, Generation g, LineError& error);
bool parse_addr8(const AsmField& f, const Token& t, Word& w, Generation g, LineError& error);
bool parse_imm(const AsmField& f, const Token& t, Word& w, FieldList all, Generation g, LineError& error);
bool parse_data(const AsmField& f, const ValueText& v, Word& w, FieldList all, Generation g, LineError& error);

// ---- One element of a dtype, as the data syntax writes it (for a family's Role::Custom hooks) ----

/// FP32 as a float literal (0x bits where none is exact), integers in their signedness, other types in hex of
/// the element's `bytes`.
void print_dtype_element(std::string& out, uint64_t bits, const DtypeInfo& dtype, unsigned bytes);
/// The inverse, for element `k` of `f` (messages name `f.path[k]`); false with `error` set.
bool parse_dtype_element(const AsmField& f, size_t k, const Token& t, const DtypeInfo& dtype, unsigned bytes,
                         uint64_t& bits, LineError& error);

}  // namespace tpbisa::tasm
