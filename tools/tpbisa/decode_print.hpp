// The two renderings of decoded words: a human-readable text block and one JSON document.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "tpbisa/instruction.hpp"
#include "tpbisa/io/words.hpp"

namespace tpbisa::cli {

using io::WordSource;

/// Receives decoded words as they stream in; output is written as it goes, never held back.
class DecodePrinter {
 public:
  virtual ~DecodePrinter() = default;
  /// An input starts, read for `gen`; `note` says where the generation came from when a NEFF named it (or "").
  virtual void begin_input(const WordSource& src, Generation gen, const std::string& note) = 0;
  /// Word `index` of the source's current stream (a word of the block next_block handed out last).
  virtual void instruction(const WordSource& src, uint64_t index, const Instruction& inst,
                           std::span<const uint8_t, kWordBytes> word) = 0;
  /// The input failed after the words already printed; the error itself goes to stderr.
  virtual void failed(const WordSource& src) = 0;
  virtual void finish() = 0;
};

/// Text blocks; with `headings`, each input starts with "== NAME ==".
std::unique_ptr<DecodePrinter> make_text_printer(bool headings);
/// {"generation": ..., "instructions": [...], "error": {...}?}, one instruction per line; the generation is the
/// first input's (a word of a NEFF stream also carries its own, with its subgraph and engine).
std::unique_ptr<DecodePrinter> make_json_printer();

}  // namespace tpbisa::cli
