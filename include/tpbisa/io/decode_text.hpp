// The layouts of `tpbisa decode`: every word of an input decoded, a block at a time and in place, and printed as it
// goes, as a text block per word (its fields with their meanings) or as one streamed JSON document.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "tpbisa/instruction.hpp"
#include "tpbisa/io/text_out.hpp"
#include "tpbisa/io/words.hpp"

namespace tpbisa::io {

/// Receives decoded words as they stream in; output is written as it goes, never held back.
class DecodePrinter {
 public:
  virtual ~DecodePrinter() = default;
  /// An input starts, read for `gen`; `note` says where the generation came from when a NEFF named it (or "").
  virtual void begin_input(const WordSource& src, Generation gen, const std::string& note) = 0;
  /// Word `index` of the source's current stream (a word of the block next_block handed out last).
  virtual void instruction(const WordSource& src, uint64_t index, const Instruction& inst,
                           std::span<const uint8_t, kWordBytes> word) = 0;
  /// The input failed after the words already printed; the error itself is reported apart.
  virtual void failed(const WordSource& src) = 0;
  virtual void finish() = 0;
};

/// The JSON document ({"generation", "instructions": [...], "error"?}) or the text blocks, "== NAME ==" before each
/// input with `headings`.
std::unique_ptr<DecodePrinter> make_decode_printer(bool json, bool headings, TextOut& out);

/// A word's text block: label, offset, opcode, name and status; its events; a line per field with its meaning.
std::string decoded_text_block(const WordSource& src, uint64_t index, const Instruction& inst);

enum class DecodeEnded : uint8_t { Done, Failed, OutputFailed };

/// Words `decode` takes from a source at a time, in place: large enough that the per-block costs vanish, small enough
/// that the block stays in cache (4096 x 64 bytes).
inline constexpr size_t kDecodeBlockWords = 4096;

/// Decodes one input for `gen` to its end, its first error (printer.failed), or a failed write to `out`.
DecodeEnded decode_source(WordSource& src, Generation gen, const std::string& note, DecodePrinter& printer,
                          const TextOut& out);

}  // namespace tpbisa::io
