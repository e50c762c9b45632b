// The Family record: what each family folder contributes, and the registry's look-ups over all of them.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "tpbisa/address.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/unit_state.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::exec {
class Txn;
}
namespace tpbisa::tasm {
struct AsmField;
struct ValueText;
struct LineError;
}  // namespace tpbisa::tasm

namespace tpbisa::family {

/// One row of a family's validator table: the validator that judges `opcode` on the generations `gens` (those of
/// them the catalog gives the opcode). Built with validator_table (src/families/validator_table.hpp), which checks
/// the rows against the catalog's format column.
struct ValidatorRow {
  uint8_t opcode;
  const Validator* validator;
  GenSet gens = kGensAll;
};

/// validate.cpp: the validators of the family's opcodes, as data.
struct Validation {
  /// Every {opcode, validator} row of the family. The order of first appearance of each validator is the
  /// documentation order (docs/predicates.md).
  std::span<const ValidatorRow> rows;
};

/// One on-chip operand a word touches: partitions [first_partition, +partitions), bytes [first, last] of each (the
/// hull of its walk), in SBUF or PSUM, read or written.
struct OnChipOperand {
  std::string_view operand;  ///< "src", "dst"
  Region region = Region::Outside;
  uint32_t first_partition = 0;
  uint32_t partitions = 0;
  int64_t first = 0;
  int64_t last = 0;
  bool write = false;
};

/// The on-chip operands of one word that the word itself places (immediate start addresses, at least one element);
/// operands placed at run time (register and indirect forms) are not listed. Fixed capacity: no allocation.
struct Footprint {
  static constexpr size_t kMax = 4;
  std::array<OnChipOperand, kMax> operands{};
  size_t count = 0;
  void add(const OnChipOperand& o) {
    if (count < kMax) operands[count++] = o;
  }
  std::span<const OnChipOperand> all() const& { return {operands.data(), count}; }
  /// Not on a temporary: a range-for over `footprint(...).all()` would read the record after its end.
  std::span<const OnChipOperand> all() const&& = delete;
};

/// The wait lanes a word carries beyond its EVENTS block, each as an EVENTS block (its wait_mode, wait_idx and
/// semaphore_value; no update), in the order they are checked after EVENTS.
struct ExtraWaits {
  static constexpr size_t kMax = 1;
  std::array<Events, kMax> lanes{};
  size_t count = 0;
  std::span<const Events> all() const& { return {lanes.data(), count}; }
  /// Not on a temporary: a range-for over `extra_waits(...).all()` would read the record after its end.
  std::span<const Events> all() const&& = delete;
};

/// The semaphore a word raises when its transfer completes (a DMA's completion, PROJ-CONV-F9), by `increment`.
struct Completion {
  bool present = false;
  uint8_t semaphore = 0;
  uint8_t increment = 0;
};

/// execute.cpp: the semantics. Checks everything and stages the effects through the transaction; the machine
/// applies the EVENTS wait and update and commits.
using Executor = bool (*)(const Instruction& inst, exec::Txn& txn);
struct Execution {
  Executor execute;  ///< nullptr: the family's words are not executed (e.g. pseudo words, lowered first)
  /// Formats of the family the executor refuses (pseudo forms lowered before they run); `catalog --coverage`.
  std::span<const Format> not_executed = {};
  /// Opcodes refused although their format executes (one format, several opcodes; e.g. a function return).
  std::span<const uint8_t> not_executed_opcodes = {};
  /// Why the two lists above do not run, as `catalog --coverage` reports it.
  enum class Refusal : uint8_t {
    Unstated,    ///< not executed, nothing more said
    Lowered,     ///< they run after `tpbisa lower` rewrites them into words this executor runs
    Convention,  ///< the run refuses them by the project convention `refusal_convention` (not an ISA fact)
  };
  Refusal refusal = Refusal::Unstated;
  std::string_view refusal_convention = {};  ///< "PROJ-CONV-Q14" with Refusal::Convention
  /// Opcodes (on `gens`) whose words decode and validate but whose semantics no public source states: the executor
  /// refuses them, and `catalog --coverage` reports `semantics not public` with `source`, what would settle it.
  struct NotPublic {
    uint8_t opcode;
    GenSet gens;
    std::string_view source;
  };
  std::span<const NotPublic> semantics_not_public = {};
  /// The SBUF/PSUM ranges a word reads and writes, as far as the word places them (the NEFF program checks:
  /// reservation, PSUM banks). nullptr: the family declares no on-chip operands.
  Footprint (*footprint)(const Instruction& inst, Generation gen) = nullptr;
  /// Waits beyond EVENTS that must hold too before the word runs (EVENT_SEMAPHORE's extended lane, PROJ-CONV-F3):
  /// the machine checks them after the EVENTS wait, the race checker acquires on them. nullptr: EVENTS only.
  ExtraWaits (*extra_waits)(const Instruction& inst) = nullptr;
  /// Updates beyond EVENTS the word applies when it retires (EVENT_SEMAPHORE's extended lane), each as an EVENTS block
  /// with only its update_mode, update_idx and semaphore_value set; for the static pictures (`neff sems`). nullptr:
  /// EVENTS only.
  ExtraWaits (*extra_updates)(const Instruction& inst) = nullptr;
  /// The semaphore the word raises when its transfer completes (`neff sems`). nullptr: none.
  Completion (*completion)(const Instruction& inst) = nullptr;
  /// The unit state the family's words keep in an engine (the DVE flops), declared for the generic dumps
  /// (tpbisa/unit_state.hpp).
  std::span<const UnitState> unit_state = {};
};

/// A field declared `Role::Custom`: how its family writes and reads it (syntax.cpp). Its meaning in `decode` is the
/// family's `Syntax::meaning`; without a `print` / `parse` hook the field is a number, or one of `names`. The hooks
/// work in the text layer's terms (src/text/asm_fields.hpp: the operand, its value as written, the line's error),
/// so a family's field reads and fails like every other operand.
struct CustomField {
  std::string_view path;                  ///< the field's dotted path in its format: "set_value", "ext.wait_mode"
  std::span<const EnumValue> names = {};  ///< a catalog table naming its values (printed, accepted, described)
  std::string_view names_what = {};       ///< what the names are, for messages and decode: "WAIT_MODE"
  /// Appends the canonical text of the value; `all` is the format's operand list (its siblings).
  void (*print)(std::string& out, const tasm::AsmField& f, const Word& w, std::span<const tasm::AsmField> all,
                Generation g) = nullptr;
  /// Stores the value written as `v`; false with `error` set (column relative to the line).
  bool (*parse)(const tasm::AsmField& f, const tasm::ValueText& v, Word& w, std::span<const tasm::AsmField> all,
                Generation g, tasm::LineError& error) = nullptr;
  bool after_siblings = false;  ///< parsed after every other operand of the line (its reading depends on them)
};

/// syntax.cpp: what the generic text layer cannot derive from the field declarations.
struct Syntax {
  std::string_view note;  ///< one line on what the family's syntax adds (docs and tests)
  /// Operands the disassembler writes only when not zero (an operand left out assembles as zero), by path.
  std::span<const std::string_view> quiet_fields = {};
  /// How the IMM_VAL field at `path` of word `w` is read; nullptr: every IMM_VAL field of the family is a value.
  ImmReading (*imm_reading)(const Word& w, std::string_view path) = nullptr;
  /// Operands the disassembler prints in hexadecimal (addresses, masks), by path.
  std::span<const std::string_view> hex_fields = {};
  /// Fields whose reading depends on other fields, decided by one function of the family (nullptr: none). The
  /// path is the text layer's: "immediate" for a list operand, "immediate[3]" for one element of a description.
  /// Whether the field is an operand of this word; the disassembler leaves out an unused field that is zero.
  bool (*operand_used)(const Instruction& inst, std::string_view path) = nullptr;
  /// The plain meaning of the field in this word (`decode`); empty: the generic meaning of its role.
  std::string (*meaning)(const Instruction& inst, std::string_view path) = nullptr;
  /// Waits and updates the word carries beyond EVENTS (EVENT_SEMAPHORE's extended lane), in the EVENTS
  /// notation; empty when none. Null: the family's words carry EVENTS only.
  std::string (*more_events)(const Instruction& inst) = nullptr;
  /// The operands of a format that are MEM_PATTERN unions on some generation (top-level nested fields, by name):
  /// each may hold the indirect arm instead of the plain tensor. nullptr: the family has none.
  std::span<const std::string_view> (*pattern_operands)(Format f) = nullptr;
  /// Whether an operand whose first ADDR4 is `start` holds the indirect arm on `gen`: the one decision the
  /// validators, the describer and the disassembler share (for the datapath family, datapath::indirect_arm).
  bool (*indirect_arm)(uint32_t start, Generation gen) = nullptr;
  /// How the MEM2D_DATA field of word `w` is read; nullptr: the family has no such field.
  DataReading (*data_reading)(const Word& w) = nullptr;
  /// The fields of the family declared `Role::Custom`, by path (a Custom field without an entry is a number).
  std::span<const CustomField> custom_fields = {};
  /// The meaning `decode` shows for a field with no special role (Role::Plain) at `path`; nullptr, or an empty
  /// result: no meaning beyond the value.
  std::string_view (*plain_meaning)(const Word& w, std::string_view path) = nullptr;
};

/// One family: its name (the folder) and its parts.
struct Family {
  std::string_view name;
  const Validation& validation;
  const Execution& execution;
  const Syntax& syntax;
};

/// Every registered family, in registry order (src/families/registry.hpp).
std::span<const Family> families();
/// The family that owns a catalog format (declares its struct and the format-wide syntax); nullptr for NotModeled.
const Family* family_of(Format f);
/// The family that owns an opcode: the one whose validator table lists it (it judges, runs and describes the
/// opcode's words), else the owner of its catalog format; nullptr when neither. A struct several families share is
/// declared by one (`Layouts`) and listed by the others (`Uses`).
const Family* opcode_family(uint8_t opcode);
/// The Syntax hooks that depend on the word (its opcode's family's hook when it has one, else its format's family's);
/// nullptr when neither family has one.
bool (*operand_used_hook(const Instruction& inst))(const Instruction&, std::string_view);
std::string (*meaning_hook(const Instruction& inst))(const Instruction&, std::string_view);
std::string (*more_events_hook(const Instruction& inst))(const Instruction&);
/// The Execution of the family that owns a decoded word's opcode; nullptr for a word whose operands are not modeled.
const Execution* execution_of(const Instruction& inst);
/// How the IMM_VAL field at `path` of a modeled word is read, as its family decides (Value when it does not).
ImmReading imm_reading(const Word& w, std::string_view path);
/// How the MEM2D_DATA field of a modeled word is read, as its family decides (Bytes when it has none).
DataReading data_reading(const Word& w);
/// The family's entry for the `Role::Custom` field at `path` of a layout (nullptr: none; alternative 0 is RawWord).
const CustomField* custom_field(size_t alternative, std::string_view path);
/// What a roleless field at `path` of a modeled word means, as its family says (empty when it says nothing).
std::string_view plain_meaning(const Word& w, std::string_view path);
/// The validator of `opcode` on `gen` from the validator table of the family its catalog format names; nullptr when
/// the opcode is not modeled there (the word is judged header-only).
const Validator* validator_of(uint8_t opcode, Generation gen);
/// The executor of a decoded word (its opcode's family's); nullptr when its format is not modeled or that family does
/// not execute.
Executor executor_for(const Instruction& inst);
/// The on-chip operands of a decoded word, as its opcode's family (else its format's) declares them (none when
/// neither does).
Footprint footprint(const Instruction& inst, Generation gen);
/// The waits of a decoded word beyond EVENTS, as its family declares them (none when it declares none).
ExtraWaits extra_waits(const Instruction& inst);
/// The updates of a decoded word beyond EVENTS, as EVENTS blocks (none when its family declares none).
ExtraWaits extra_updates(const Instruction& inst);
/// The semaphore a decoded word raises when its transfer completes (not present when its family declares none).
Completion completion(const Instruction& inst);

}  // namespace tpbisa::family
