// A single-stream run's program: mapped when it is a plain file of words, else read (and lowered) into memory.
#include "tpbisa/io/program_words.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "tpbisa/io/source_text.hpp"
#include "tpbisa/io/vars.hpp"
#include "tpbisa/lower.hpp"

namespace tpbisa::io {
namespace {

/// A plain file of words: not stdin, not --hex words, not a source to assemble.
bool plain_file(const ProgramSpec& p) {
  return p.hex.empty() && p.program != "-" && !p.program.ends_with(".tasm");
}

}  // namespace

InputOptions program_input_options(const ProgramSpec& p) {
  InputOptions input;
  input.gen = p.gen;
  input.neff = p.program == "-";
  input.neff_refusal = "a NEFF runs whole (tpbisa run PROG.neff)";
  return input;
}

std::string program_label(const ProgramSpec& p) {
  return p.hex.empty() ? input_label(p.program) : "--hex";
}

ProgramWords::~ProgramWords() {
  if (map_ != nullptr) ::munmap(map_, length_);
}

/// Maps `path` when it is a regular file of 1..max_words whole words; false (nothing mapped) otherwise, and the words
/// are then read as any input's, with its checks and messages.
bool ProgramWords::map_file(const std::string& path, uint64_t max_words) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return false;
  struct stat st {};
  void* map = MAP_FAILED;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size % kWordBytes == 0 &&
      static_cast<uint64_t>(st.st_size) / kWordBytes <= max_words)
    map = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return false;
  map_ = map;
  length_ = static_cast<size_t>(st.st_size);
  bytes_ = std::span<const uint8_t>(static_cast<const uint8_t*>(map), length_);
  return true;
}

Expected<void> ProgramWords::load(const ProgramSpec& p, std::unique_ptr<WordSource> opened, std::string& diagnostics) {
  if (opened == nullptr && p.vars.empty() && plain_file(p) && map_file(p.program, p.max_words)) return {};
  auto loaded = read(p, std::move(opened), diagnostics);
  bytes_ = std::span<const uint8_t>(owned_.empty() ? nullptr : owned_.front().data(), owned_.size() * kWordBytes);
  return loaded;
}

/// Reads the whole program (at most max_words) into memory, lowering pseudo words when a variable table is given.
Expected<void> ProgramWords::read(const ProgramSpec& p, std::unique_ptr<WordSource> opened, std::string& diagnostics) {
  VarTable vars;
  if (!p.vars.empty()) {
    auto loaded = load_vars(p.vars);
    if (!loaded) return loaded.error();
    vars = std::move(*loaded);
  }
  const auto source = opened          ? std::move(opened)
                      : p.hex.empty() ? open_input(p.program, program_input_options(p))
                                      : open_hex(p.hex);
  WordSource& src = *source;
  // A file of words is read a block at a time into a program reserved for its size (no regrowth copies).
  if (plain_file(p)) {
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(p.program, ec);
    if (!ec) owned_.reserve(static_cast<size_t>(std::min<uint64_t>(size / kWordBytes, p.max_words)));
  }
  std::span<const uint8_t> block;
  for (;;) {
    switch (src.next_block(block, size_t{1} << 16)) {
      case WordSource::Next::End: return {};
      case WordSource::Next::Failed: return source_error(src, diagnostics);
      case WordSource::Next::Word: break;
    }
    for (size_t k = 0; k < block.size() / kWordBytes; ++k) {
      if (owned_.size() >= p.max_words)
        return Error{ErrorKind::TooLarge,
                     fmt::format("{}: more than {} instructions at offset {} (instruction {}); run loads at most that "
                                 "many (--max-words)",
                                 src.label(), p.max_words, src.offset() + k * kWordBytes, src.index() + k)};
      Word word{};
      std::memcpy(word.data(), block.data() + k * kWordBytes, kWordBytes);
      if (!p.vars.empty()) {
        const LowerResult r = lower_pseudo(word, vars);
        if (!r.ok())
          return Error{ErrorKind::Invalid,
                       fmt::format("{}: instruction {} (offset {}): {} (--vars {})", src.label(), src.index() + k,
                                   src.offset() + k * kWordBytes, r.message, input_label(p.vars))};
        word = r.word;
      }
      owned_.push_back(word);
    }
  }
}

}  // namespace tpbisa::io
