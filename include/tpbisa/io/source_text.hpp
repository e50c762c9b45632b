// What the commands say about an input of words: a word's label, where its generation came from, its NEFF warnings,
// and the assembly diagnostics of a .tasm input that did not assemble, escaped for a terminal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tpbisa/expected.hpp"

#include "tpbisa/io/words.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::io {

/// Assembly diagnostics shown in full; the summary gives the full count.
inline constexpr size_t kShownDiagnostics = 20;

/// The label of word `index` of the source's current stream: "sg00/PE#12" for a word of a NEFF stream, "#12"
/// otherwise.
std::string word_label(const WordSource& src, uint64_t index);

/// The generation an input is read for: `given` when set, else the NEFF's target, else the default (mariana).
Generation input_generation(WordSource& src, const std::optional<Generation>& given);
/// What the output says about a generation that came from a NEFF input (empty when `given` is set or the input is
/// no NEFF): "generation cayman: the target of in.neff (PROJ-CONV-X7; --gen overrides)".
std::string generation_note(const WordSource& src, const std::optional<Generation>& given, Generation gen);
/// The warning lines of a NEFF input (neff_warnings_text), empty for other inputs.
std::string source_warnings_text(const WordSource& src, std::string_view tool);

/// The error of a failed source: its own, or for a .tasm source that did not assemble "LABEL: N errors in the assembly
/// source", the diagnostics themselves (diagnostics_text) in `diagnostics`, to be shown before it.
Error source_error(const WordSource& src, std::string& diagnostics);

/// Why the file `path` cannot be read: "PATH: cannot open: OS error" (a missing or unreadable file, a folder); nullopt
/// when it can. A FIFO is not waited for.
std::optional<std::string> unreadable_file(const std::string& path);

/// The words the input `path` (opened as `src`) holds, for a progress line: a file's size in words, a NEFF's words in
/// the streams it hands out (the container is read); 0 (unknown) for stdin ("-"), a source to assemble, or a file whose
/// size cannot be known.
uint64_t input_word_count(const std::string& path, WordSource& src);

/// The inputs of a command that reads words: `hex` words (--hex) or `files`, exactly one kind, and NEFF stream
/// filters only with files; the usage problem otherwise ("no input: give --hex HEX or FILE ('-' for stdin)").
std::optional<std::string> check_word_inputs(std::span<const std::string> hex, std::span<const std::string> files,
                                             bool subgraphs);

/// A diagnostic as three lines (file:line:col: error: message, the source line, a caret line under the bytes it
/// names), control bytes and bytes that are not UTF-8 shown as \xNN so that none reaches a terminal raw.
std::string escaped_diagnostic(const AsmDiagnostic& d);
/// The first kShownDiagnostics diagnostics, each as escaped_diagnostic.
std::string diagnostics_text(std::span<const AsmDiagnostic> errors);
/// "N errors", with "(the first 20 shown)" when not all were.
std::string diagnostics_summary(size_t count);

}  // namespace tpbisa::io
