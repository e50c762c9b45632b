// Word sources: chunked file reading with exact error positions, and --hex parsing through the library.
#include "io.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "tpbisa/instruction.hpp"

namespace tpbisa::cli {

WordSource::Next WordSource::fail(std::string message) {
  error_ = std::move(message);
  return Next::Failed;
}

FileWords::FileWords(const std::string& path) : WordSource(path == "-" ? "<stdin>" : path), path_(path) {}

FileWords::~FileWords() {
  if (owned_ && file_ != nullptr) std::fclose(file_);
}

bool FileWords::open() {
  opened_ = true;
  if (path_ == "-") {
    file_ = stdin;
    return true;
  }
  file_ = std::fopen(path_.c_str(), "rb");
  owned_ = file_ != nullptr;
  return file_ != nullptr;
}

bool FileWords::fill() {
  if (end_ - begin_ >= kWordBytes || eof_) return true;
  // Keep the partial word at the front, then read whole chunks behind it.
  std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
  end_ -= begin_;
  begin_ = 0;
  while (end_ < kWordBytes && !eof_) {
    const size_t got = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
    end_ += got;
    if (got == 0 && std::ferror(file_) != 0) {
      read_errno_ = errno;
      return false;
    }
    if (got == 0) eof_ = true;
  }
  return true;
}

WordSource::Next FileWords::next(Word& out) {
  if (!opened_) {
    if (!open()) return fail(fmt::format("{}: cannot open: {}", label_, std::strerror(errno)));
    buffer_.resize(kChunk);
  }
  index_ = words_;
  if (!fill())
    return fail(fmt::format("{}: read error at offset {} (instruction {}): {}", label_, offset(), index_,
                            std::strerror(read_errno_)));
  const size_t left = end_ - begin_;
  if (left == 0) return Next::End;
  if (left < kWordBytes)
    return fail(fmt::format("{}: {} trailing byte{} at offset {} do not form a 64-byte instruction (instruction {})",
                            label_, left, left == 1 ? "" : "s", offset(), index_));
  std::memcpy(out.data(), buffer_.data() + begin_, kWordBytes);
  begin_ += kWordBytes;
  ++words_;
  return Next::Word;
}

namespace {

/// Quotes one character for a message: 'g', or \x01 when not printable.
std::string quote_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (std::isprint(u) != 0) return fmt::format("'{}'", c);
  return fmt::format("\\x{:02x}", u);
}

// Classified from the error's position and digit count, not from the library's wording.
std::string hex_problem(std::string_view text, const HexError& e) {
  const bool at_char = e.position < text.size();
  const bool extra_digit = at_char && std::isxdigit(static_cast<unsigned char>(text[e.position])) != 0;
  if (extra_digit) return fmt::format("more than 128 hex digits, the 129th at column {}", e.position + 1);
  if (at_char) return fmt::format("{} at column {} is not a hex digit", quote_char(text[e.position]), e.position + 1);
  return fmt::format("expected 128 hex digits, got {}", e.digits);
}

}  // namespace

WordSource::Next HexWords::next(Word& out) {
  if (next_ >= args_.size()) return Next::End;
  index_ = next_;
  const std::string& text = args_[next_++];
  HexError e;
  if (!parse_hex_word(text, out, e))
    return fail(
        fmt::format("--hex #{}: {} (instruction {}, offset {})", index_ + 1, hex_problem(text, e), index_, offset()));
  return Next::Word;
}

}  // namespace tpbisa::cli
