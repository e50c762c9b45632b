// Where instruction words come from: a file of 64-byte words, a .tasm source, stdin, or --hex arguments.
// Every command that reads words opens its inputs through open_input / open_hex, so they all read the same way.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tpbisa/expected.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::io {

/// Largest .tasm source read (64 MiB), and most statements one may hold; both bound the memory an assembly
/// source can take before a single word is produced.
inline constexpr uint64_t kMaxSourceBytes = uint64_t{64} << 20;
inline constexpr uint64_t kMaxSourceStatements = uint64_t{1} << 20;

/// Reads a .tasm source ("-" is stdin; at most kMaxSourceBytes and kMaxSourceStatements, checked before anything
/// is assembled) and assembles it for `gen`. The error is about reading; assembly errors are in the result.
Expected<AsmResult> assemble_source(const std::string& path, Generation gen);

/// A stream of instruction words with a name for messages; on failure error() says what and where (the input,
/// the instruction index and the byte offset).
class WordSource {
 public:
  enum class Next { Word, End, Failed };

  virtual ~WordSource() = default;
  virtual Next next(Word& out) = 0;

  const std::string& label() const { return label_; }
  /// Index of the word last returned, or of the word that failed.
  uint64_t index() const { return index_; }
  uint64_t offset() const { return index_ * kWordBytes; }
  const Error& error() const { return error_; }
  /// The assembly errors of a .tasm input that did not assemble (empty otherwise); the caller shows them.
  virtual std::span<const AsmDiagnostic> diagnostics() const { return {}; }
  /// Every assembly error, also those beyond the ones kept.
  virtual size_t diagnostic_count() const { return 0; }

 protected:
  explicit WordSource(std::string label) : label_(std::move(label)) {}
  Next fail(ErrorKind kind, std::string message);

  std::string label_;
  uint64_t index_ = 0;
  Error error_;
};

/// What a file holds, from its name and its first bytes. A NEFF container is detected here by its header once
/// its reader exists (it adds a kind and a case in open_input).
enum class InputKind : uint8_t { Words, Tasm };
InputKind input_kind(std::string_view path, std::span<const uint8_t> head);

struct InputOptions {
  Generation gen = kDefaultGeneration;  ///< the generation a .tasm source is assembled for
};

/// The words of `path` ("-" is stdin): a name ending in .tasm is assembled first (at most kMaxSourceBytes and
/// kMaxSourceStatements); any other input is a stream of 64-byte words read in 64 KiB chunks (constant memory).
/// Opening is lazy: errors appear at the first next(), in input order.
std::unique_ptr<WordSource> open_input(const std::string& path, const InputOptions& options = {});

/// The words of --hex arguments: each holds one or more words of 128 hex digits (whitespace, '_', ',' and a 0x
/// prefix before a group of digits are ignored). Instructions are numbered as one stream; errors name
/// "--hex #N" (N counting the arguments from 1) and, past an argument's first word, "word W".
std::unique_ptr<WordSource> open_hex(std::vector<std::string> args);

}  // namespace tpbisa::io
