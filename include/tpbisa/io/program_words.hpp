// The program of a single-stream run (`tpbisa run PROGRAM`): a plain file of words mapped read-only, or the words of
// any input read into memory and lowered with a variable table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tpbisa/expected.hpp"
#include "tpbisa/io/words.hpp"

namespace tpbisa::io {

/// Where a run's program comes from and how much of it may be read.
struct ProgramSpec {
  std::string program;           ///< PROGRAM: a file, '-' (stdin) or a .tasm source; empty with --hex words
  std::vector<std::string> hex;  ///< the program as hex words instead
  std::string vars;              ///< a variable table that lowers pseudo words on load ("" none)
  Generation gen = kDefaultGeneration;
  uint64_t max_words = 0;  ///< at least 1
};

/// How PROGRAM is opened: a .tasm source for the run's generation; a NEFF only from stdin, where the run looks at the
/// bytes to tell (a NEFF file runs whole, through tpbisa/io/neff_run_report.hpp).
InputOptions program_input_options(const ProgramSpec& p);

/// The program's name in messages and output: the file, <stdin>, or --hex.
std::string program_label(const ProgramSpec& p);

/// The program's words: PROGRAM mapped read-only when it is a plain file of whole words within max_words (no copy into
/// memory: the machine views the mapping), else the words read, and lowered, into memory.
class ProgramWords {
 public:
  ProgramWords() = default;
  ~ProgramWords();
  ProgramWords(const ProgramWords&) = delete;
  ProgramWords& operator=(const ProgramWords&) = delete;

  std::span<const uint8_t> bytes() const { return bytes_; }
  size_t size() const { return bytes_.size() / kWordBytes; }
  std::span<const uint8_t, kWordBytes> word(size_t i) const {
    return std::span<const uint8_t, kWordBytes>(bytes_.data() + i * kWordBytes, kWordBytes);
  }

  /// Reads the whole program of `p`. `opened` is PROGRAM already opened (stdin, whose first bytes were read to tell
  /// a NEFF), or null. On failure the error; `diagnostics` then holds the escaped assembly diagnostics of a .tasm
  /// source that did not assemble (shown before the error).
  Expected<void> load(const ProgramSpec& p, std::unique_ptr<WordSource> opened, std::string& diagnostics);

 private:
  bool map_file(const std::string& path, uint64_t max_words);
  Expected<void> read(const ProgramSpec& p, std::unique_ptr<WordSource> opened, std::string& diagnostics);

  std::vector<Word> owned_;  ///< the words read into memory (when not mapped)
  void* map_ = nullptr;
  size_t length_ = 0;
  std::span<const uint8_t> bytes_;
};

}  // namespace tpbisa::io
