// The two renderings of decoded words: a human-readable text block and one JSON document.
#pragma once

#include <memory>
#include <string>

#include "tpbisa/instruction.hpp"
#include "tpbisa/io/words.hpp"

namespace tpbisa::cli {

using io::WordSource;

/// Receives decoded words as they stream in; output is written as it goes, never held back.
class DecodePrinter {
 public:
  virtual ~DecodePrinter() = default;
  virtual void begin_input(const WordSource& src) = 0;
  virtual void instruction(const WordSource& src, const Instruction& inst, const Word& word) = 0;
  /// The input failed after the words already printed; the error itself goes to stderr.
  virtual void failed(const WordSource& src) = 0;
  virtual void finish() = 0;
};

/// Text blocks; with `headings`, each input starts with "== NAME ==".
std::unique_ptr<DecodePrinter> make_text_printer(bool headings);
/// {"generation": ..., "instructions": [...], "error": {...}?}, one instruction per line.
std::unique_ptr<DecodePrinter> make_json_printer(Generation gen);

}  // namespace tpbisa::cli
