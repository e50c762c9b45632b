// Sources of 64-byte words for the commands: streamed files (or stdin) and --hex arguments.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tpbisa/formats.hpp"

namespace tpbisa::cli {

/// A stream of instruction words with a name for messages; on failure `error()` says what and where
/// (the input, the instruction index and the byte offset).
class WordSource {
 public:
  enum class Next { Word, End, Failed };

  virtual ~WordSource() = default;
  virtual Next next(Word& out) = 0;

  const std::string& label() const { return label_; }
  /// Index of the word last returned, or of the word that failed.
  uint64_t index() const { return index_; }
  uint64_t offset() const { return index_ * kWordBytes; }
  const std::string& error() const { return error_; }

 protected:
  explicit WordSource(std::string label) : label_(std::move(label)) {}
  Next fail(std::string message);

  std::string label_;
  uint64_t index_ = 0;
  std::string error_;
};

/// A file read in fixed-size chunks, so inputs of any size decode in constant memory; "-" is stdin.
class FileWords final : public WordSource {
 public:
  explicit FileWords(const std::string& path);
  ~FileWords() override;
  FileWords(const FileWords&) = delete;
  FileWords& operator=(const FileWords&) = delete;

  Next next(Word& out) override;

 private:
  bool open();
  /// Tops the buffer up to at least one word; false on a read error.
  bool fill();

  static constexpr size_t kChunk = 64 * 1024;
  std::string path_;
  std::FILE* file_ = nullptr;
  bool owned_ = false;
  bool opened_ = false;
  bool eof_ = false;
  int read_errno_ = 0;
  std::vector<uint8_t> buffer_;
  size_t begin_ = 0;
  size_t end_ = 0;
  uint64_t words_ = 0;  ///< words returned so far
};

/// The words given as --hex arguments, one word per argument ("--hex #N" counts from 1).
class HexWords final : public WordSource {
 public:
  explicit HexWords(const std::vector<std::string>& args) : WordSource("--hex"), args_(args) {}
  Next next(Word& out) override;

 private:
  const std::vector<std::string>& args_;
  size_t next_ = 0;
};

}  // namespace tpbisa::cli
