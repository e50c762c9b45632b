// The layouts of `tpbisa disasm` beyond one canonical line per word: the objdump-style listing (label, offset, bytes,
// mnemonic and events, a NEFF DMA word's endpoints), a NEFF's source lines before its words (-S), and a NEFF's
// streams written as one .tasm file each.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tpbisa/expected.hpp"
#include "tpbisa/io/output_file.hpp"
#include "tpbisa/io/words.hpp"
#include "tpbisa/neff_debug.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::io {

/// Bytes a --short listing line shows: the header and the EVENTS block, and the first operand bytes.
inline constexpr size_t kShortListingBytes = 16;

/// What a listing line says of a word after its bytes: the disassembly (mnemonic, EVENTS, operands, the verdict
/// comment), or for a word without modeled operands its mnemonic, EVENTS and why; the mnemonic padded so the rest
/// lines up.
std::string listing_text(const Instruction& inst, Generation gen, const DisasmOptions& options);

/// One listing line of the word the source returned last: label, offset, its first `shown_bytes` bytes in 4-byte groups
/// (none when 0), the listing text and, for a NEFF's DMA word, where it copies from and to by variable name.
std::string listing_line(const WordSource& src, const Word& word, Generation gen, size_t shown_bytes,
                         const DisasmOptions& options);

/// The -S line before a word whose source differs from the word before it: the kernel's file:line, the HLO operation
/// and the compiler instruction, each where the debug records give it.
std::string source_line_text(const neff::SourceLine& s);

/// The debug records of a NEFF input's current stream, for -S.
class StreamSources {
 public:
  /// A stream starts; a comment when the NEFF has no debug records for it (else "").
  std::string open(const WordSource& src, const StreamInfo& stream);
  /// The source line before word `index`, when it differs from the one printed last (else "").
  std::string before(uint64_t index);

 private:
  std::optional<std::vector<neff::SourceLine>> words_;
  std::optional<neff::SourceLine> last_;  ///< the source printed last in this stream
};

/// How `disasm` lays out an input's words.
struct DisasmLayout {
  DisasmOptions options;   ///< options.validate.engine: the engine of plain words (a NEFF's streams name theirs)
  bool listing = false;    ///< listing_line per word instead of the canonical line
  size_t shown_bytes = 0;  ///< bytes a listing line shows
  bool source = false;     ///< -S: the source lines of a NEFF's words before them
};

/// Writes one input read for `gen` to its end or its first error: `note` (where the generation came from) as a
/// comment, a comment before each stream of a NEFF (so the text stays assemblable), then each word; false on an
/// input error or a failed write.
bool disassemble_source(WordSource& src, Generation gen, const std::string& note, const DisasmLayout& layout,
                        OutputFile& sink);

/// Writes each stream of the NEFF input `src` as DIR/<subgraph>/<Engine>.tasm (under the output-file policy: never
/// over one of `inputs`), headed by where it comes from and `note`; calls `written` with each file and its words.
/// `src` has returned its first word. The error names the file or folder that could not be written.
Expected<void> disassemble_to_folder(WordSource& src, const std::string& dir, Generation gen, const std::string& note,
                                     DisasmOptions options, std::span<const std::string> inputs,
                                     const std::function<void(const std::string&, size_t)>& written);

}  // namespace tpbisa::io
