// The assembly language: a canonical text line per instruction word, and the assembler that reads it back exactly.
// Syntax: docs/asm.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tpbisa/formats.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {

struct DisasmOptions {
  /// Append `; INVALID on <gen>: pred1, pred2` to words that fail validation on the generation.
  bool verdicts = false;
  /// Append `; <mnemonic> operands not modeled` (or why the opcode is unknown) to `.raw` lines.
  bool raw_notes = true;
  /// The switches the verdicts are computed with.
  ValidateOptions validate{};
};

/// The canonical text of one instruction on `gen` (re-decoded when it was decoded for another generation):
/// `Mnemonic [events] name=value ...` for modeled opcodes, `.raw <128 hex digits>` for the others. No newline.
/// assemble() reads it back to exactly the same 64 bytes, whatever they are.
std::string disassemble(const Instruction& inst, Generation gen, const DisasmOptions& options = {});
std::string disassemble(std::span<const uint8_t, kWordBytes> word, Generation gen, const DisasmOptions& options = {});

/// Bounds that keep the assembler linear and its memory small on any input. The operands of a line are
/// bounded by its format: each field may be given once, and there is at most one wait and one update.
inline constexpr size_t kAsmMaxLineBytes = 4096;  ///< a longer line is an error
inline constexpr size_t kAsmMaxListValues = 64;   ///< values in one `{...}` list
inline constexpr size_t kAsmMaxErrors = 100;      ///< errors kept; assembly goes on counting the lines

/// One assembly error, located in the source.
struct AsmDiagnostic {
  std::string file;
  size_t line = 0;    ///< from 1
  size_t column = 0;  ///< from 1, in bytes
  size_t length = 1;  ///< bytes of the offending text (the caret line underlines them)
  std::string message;
  std::string source_line;  ///< the line as written (without its newline)
};

/// `file:line:col: error: message`, the source line, and a caret line (`^` under the column, `~` under the rest
/// of the offending text); three lines joined by '\n', no final newline.
std::string format_diagnostic(const AsmDiagnostic& d);

/// A `name:` definition: the index of the word that follows it.
struct AsmLabel {
  std::string name;
  size_t word_index = 0;
  size_t line = 0;
};

struct AsmResult {
  std::vector<Word> words;
  std::vector<size_t> word_lines;  ///< the source line of each word
  std::vector<AsmLabel> labels;
  std::vector<AsmDiagnostic> errors;  ///< in source order; at most kAsmMaxErrors
  size_t error_count = 0;             ///< every error, also those beyond kAsmMaxErrors
  bool ok() const { return error_count == 0; }
};

/// Assembles a source text for `gen`. Never throws; every line with an error is reported (the first error of
/// each line) and produces no word. `filename` only names the source in the diagnostics.
AsmResult assemble(std::string_view source, std::string_view filename, Generation gen);

}  // namespace tpbisa
