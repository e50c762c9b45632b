// `tpbisa asm`: assemble a .tasm source into a file of 64-byte instruction words.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common.hpp"
#include "io.hpp"

namespace tpbisa::cli {

Command register_asm(CLI::App& parent);

/// A .tasm source read as a stream of words, for the commands that take word files (validate, run): the text
/// is assembled for `gen` on the first next(). On assembly errors the diagnostics are printed on stderr (the
/// first 20, file:line:col with a caret line) and the source fails with "FILE: N errors in the assembly source".
class TasmWords final : public WordSource {
 public:
  TasmWords(std::string path, Generation gen);
  Next next(Word& out) override;

 private:
  bool load();

  std::string path_;
  Generation gen_;
  bool loaded_ = false;
  std::vector<Word> words_;
  size_t next_ = 0;
};

/// The word source for a command-line FILE: a TasmWords when the name ends in .tasm, a FileWords otherwise.
std::unique_ptr<WordSource> open_words(const std::string& path, Generation gen);

}  // namespace tpbisa::cli
