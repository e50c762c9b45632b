// The Python objects for single words: a decoded instruction, its fields, and a verdict.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/io/words.hpp"
#include "tpbisa/neff_debug.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::py {

/// One decoded word and where it came from; `text` is the disassembler's line for it.
struct PyInstruction {
  Word word{};
  Instruction inst;
  uint64_t index = 0;
  uint64_t offset = 0;
  std::string label;   ///< "#12", or "sg00/PE#12" for a word of a NEFF stream
  std::string stream;  ///< "sg00/PE" for a word of a NEFF stream, else empty
  DisasmOptions options;
  std::optional<neff::SourceLine> source;  ///< by the NEFF's debug records (tpbisa/neff_debug.hpp)
};

/// One word judged on one generation. Small: the failure reports are built (by the library's verdict_json) only
/// when asked for.
struct PyVerdict {
  Word word{};
  Verdict verdict;
  ValidateOptions options;
  uint64_t index = 0;
  uint64_t offset = 0;
  std::string label;
  std::string stream;
};

/// The verdict object of `tpbisa validate --json` for a judged word.
nlohmann::ordered_json verdict_document(const PyVerdict& v);

/// The current word of `src` as a PyInstruction (decoded for `gen`).
PyInstruction make_instruction(const io::WordSource& src, const Word& word, Generation gen,
                               const DisasmOptions& options, uint64_t base_offset);
/// "#12", or "sg00/PE#12" for a word of a NEFF stream.
std::string word_label(const io::WordSource& src);

/// Judges every word of `src` on `gens` without the GIL, then builds the Python result: a list of Verdict (one
/// generation) or of dicts generation -> Verdict (several). A failing source raises InputError.
pb::object judge_all(io::WordSource& src, const std::vector<Generation>& gens, const ValidateOptions& options,
                     bool several);

/// Wraps an iterator over a WordSource as a Python iterator of Instruction (full) or of tuples (lite).
pb::object word_iterator(std::unique_ptr<io::WordSource> src, std::shared_ptr<void> keep_alive, Generation gen,
                         DisasmOptions options, uint64_t base_offset, bool lite);

void bind_words(pb::module_& m);

}  // namespace tpbisa::py
