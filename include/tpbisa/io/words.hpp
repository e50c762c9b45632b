// Where instruction words come from: a file of 64-byte words, a .tasm source, stdin, or --hex arguments.
// Every command that reads words opens its inputs through open_input / open_hex, so they all read the same way.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tpbisa/catalog.hpp"
#include "tpbisa/expected.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::io {

/// Largest .tasm source read (64 MiB), and most statements one may hold; both bound the memory an assembly
/// source can take before a single word is produced.
inline constexpr uint64_t kMaxSourceBytes = uint64_t{64} << 20;
inline constexpr uint64_t kMaxSourceStatements = uint64_t{1} << 20;

/// Assembles a source text under the bounds of a .tasm file (at most kMaxSourceBytes and kMaxSourceStatements,
/// checked before anything is assembled); the error ("LABEL: larger than ...", "LABEL: N statements; ...") is about
/// the bounds, assembly errors are in the result.
Expected<AsmResult> assemble_bounded(std::string_view text, const std::string& label, Generation gen);

/// Reads a .tasm source ("-" is stdin; at most kMaxSourceBytes and kMaxSourceStatements, checked before anything
/// is assembled) and assembles it for `gen`. The error is about reading; assembly errors are in the result.
Expected<AsmResult> assemble_source(const std::string& path, Generation gen);

/// One engine stream of a NEFF input, as a word source hands it out.
struct StreamInfo {
  std::string subgraph;  ///< "sg00"
  StreamEngine engine = StreamEngine::Pe;
  std::string label;   ///< "sg00/PE"; a word is "sg00/PE#12"
  std::string member;  ///< "sg00/PE.bin"
  const neff::Stream* words = nullptr;
};

/// A stream of instruction words with a name for messages; on failure error() says what and where (the input,
/// the instruction index and the byte offset). A NEFF input hands out the words of its engine streams in turn:
/// index() and offset() then count within the current stream (stream()).
class WordSource {
 public:
  enum class Next { Word, End, Failed };

  virtual ~WordSource() = default;
  virtual Next next(Word& out) = 0;
  /// Up to `max_words` (at least 1) consecutive words of one stream at once, in place where the input allows it (a
  /// mapped window of a file, the read buffer of a pipe, the caller's bytes, a NEFF's stream: never two streams at
  /// once): Word with `out` holding a whole number of words, End, or Failed exactly where next() would fail. index()
  /// and offset() then name the block's first word, stream() its stream. The bytes stay valid until the next call. A
  /// source that hands out words one at a time (a .tasm source, --hex) gives blocks of one word. Mixing next() and
  /// next_block() on one source is allowed: both continue where the other stopped.
  virtual Next next_block(std::span<const uint8_t>& out, size_t max_words);

  const std::string& label() const { return label_; }
  /// Index of the word last returned, or of the word that failed.
  uint64_t index() const { return index_; }
  uint64_t offset() const { return index_ * kWordBytes; }
  const Error& error() const { return error_; }
  /// The assembly errors of a .tasm input that did not assemble (empty otherwise); the caller shows them.
  virtual std::span<const AsmDiagnostic> diagnostics() const { return {}; }
  /// Every assembly error, also those beyond the ones kept.
  virtual size_t diagnostic_count() const { return 0; }

  /// The generation the input itself names: a NEFF's kelf target (PROJ-CONV-X7); nullopt for other inputs, a NEFF
  /// whose target names none, or an input that fails to open (its error then comes from next()). Reads the
  /// input's first bytes, and a whole NEFF, when next() has not yet.
  virtual std::optional<Generation> generation() { return std::nullopt; }
  /// The container of a NEFF input once read (after generation() or the first next()); nullptr otherwise.
  virtual const neff::Neff* neff() const { return nullptr; }
  /// The stream of the word last returned (NEFF inputs); nullptr for a plain stream of words.
  virtual const StreamInfo* stream() const { return nullptr; }
  /// The streams a NEFF input hands out, in order, after its filters (empty for other inputs).
  virtual std::span<const StreamInfo> streams() const { return {}; }

 protected:
  explicit WordSource(std::string label) : label_(std::move(label)) {}
  Next fail(ErrorKind kind, std::string message);

  std::string label_;
  uint64_t index_ = 0;
  Error error_;

 private:
  Word block_word_{};  ///< the word of next_block's default, one-word blocks
};

/// What a file holds, from its name and its first bytes: a name ending in .tasm is a source; first bytes that
/// start a NEFF header (neff::is_neff) are a container, never words; anything else is a stream of words.
enum class InputKind : uint8_t { Words, Tasm, Neff };
InputKind input_kind(std::string_view path, std::span<const uint8_t> head);
/// True when the file `path` (not stdin) starts with a NEFF header; false when it does not or cannot be read.
bool is_neff_file(const std::string& path);

struct InputOptions {
  Generation gen = kDefaultGeneration;  ///< the generation a .tasm source is assembled for
  /// Whether a NEFF input hands out its streams' words; when false it fails with `neff_refusal` (a command that
  /// runs or rewrites one stream must not take a container's streams back to back).
  bool neff = false;
  std::string neff_refusal =
      "this command reads one stream of words (decode, validate and disasm read a NEFF's "
      "streams; 'tpbisa neff extract' unpacks them)";
  /// NEFF streams to hand out: only these subgraphs and engines (empty = all). A subgraph filter on an input that
  /// is not a NEFF is an error; the engine filter is then not one (the caller may use it as the words' engine).
  std::vector<std::string> subgraphs;
  std::vector<StreamEngine> engines;
  neff::ReadOptions neff_read;  ///< the container's bounds and checks (docs/neff.md)
};

/// The words of `path` ("-" is stdin): a name ending in .tasm is assembled first (at most kMaxSourceBytes and
/// kMaxSourceStatements); a NEFF container (detected by its header) is read header first, then its window alone
/// (neff::read_stream, within neff_read), and hands out the words of its engine streams in subgraph then engine order;
/// any other input is a stream of 64-byte words, mapped a window at a time when it is a regular file and read in
/// 1 MiB chunks otherwise (constant memory either way).
/// Opening is lazy: errors appear at the first next() (or generation()), in input order. A container that fails
/// to read is an error naming the file, the member and the check: "in.neff: sg00/PE.bin: ... (check: stream-size)".
std::unique_ptr<WordSource> open_input(const std::string& path, const InputOptions& options = {});

/// The streams of a NEFF already read, after `options`' filters; `label` names it in messages. Fails at the first
/// next() when a filter names a subgraph the NEFF does not have or selects no stream.
std::unique_ptr<WordSource> open_neff(std::shared_ptr<const neff::Neff> neff, const InputOptions& options = {});

/// Words held in memory (a buffer of the caller's, not copied; it must outlive the source), read as a file of
/// words is: a trailing partial word fails with the same message. `label` names the bytes in messages.
std::unique_ptr<WordSource> open_bytes(std::span<const uint8_t> bytes, std::string label);

/// The words of --hex arguments: each holds one or more words of 128 hex digits (whitespace, '_', ',' and a 0x
/// prefix before a group of digits are ignored). Instructions are numbered as one stream; errors name
/// "--hex #N" (N counting the arguments from 1) and, past an argument's first word, "word W".
std::unique_ptr<WordSource> open_hex(std::vector<std::string> args);

}  // namespace tpbisa::io
