// Word sources: chunked file reading with exact error positions, bounded .tasm assembly, and --hex parsing.
#include "tpbisa/io/words.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "tpbisa/instruction.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/neff_text.hpp"

namespace tpbisa::io {

WordSource::Next WordSource::fail(ErrorKind kind, std::string message) {
  error_ = {kind, std::move(message)};
  return Next::Failed;
}

WordSource::Next WordSource::next_block(std::span<const uint8_t>& out, size_t) {
  const Next r = next(block_word_);
  out = r == Next::Word ? std::span<const uint8_t>(block_word_) : std::span<const uint8_t>{};
  return r;
}

InputKind input_kind(std::string_view path, std::span<const uint8_t> head) {
  if (path.ends_with(".tasm")) return InputKind::Tasm;
  if (neff::is_neff(head)) return InputKind::Neff;
  return InputKind::Words;
}

namespace {

/// The message of bytes after the last whole word: one wording for files, pipes and buffers.
std::string trailing_message(const std::string& label, uint64_t left, uint64_t offset, uint64_t index) {
  return fmt::format("{}: {} trailing byte{} at offset {} do not form a 64-byte instruction (instruction {})", label,
                     left, left == 1 ? "" : "s", offset, index);
}

/// The message of a mapped or read input that failed at a word.
std::string read_message(const std::string& label, uint64_t offset, uint64_t index, int err) {
  return fmt::format("{}: read error at offset {} (instruction {}): {}", label, offset, index, std::strerror(err));
}

/// A file of words, streamed in constant memory; "-" is stdin. A regular file is mapped a window at a time (no
/// read copies; the window behind the cursor is unmapped, so the resident set does not grow with the file);
/// pipes and other files are read in large chunks. Its first bytes decide what it is: a NEFF header makes it a
/// container, read header first and handed out stream by stream.
class FileWords final : public WordSource {
 public:
  FileWords(const std::string& path, const InputOptions& options)
      : WordSource(input_label(path)), path_(path), options_(options) {}
  ~FileWords() override {
    unmap();
    if (owned_ && file_ != nullptr) std::fclose(file_);
  }
  FileWords(const FileWords&) = delete;
  FileWords& operator=(const FileWords&) = delete;

  Next next(Word& out) override {
    if (!prepare()) return Next::Failed;
    if (neff_ != nullptr) {
      const Next r = neff_->next(out);
      index_ = neff_->index();
      if (r == Next::Failed) error_ = neff_->error();
      return r;
    }
    std::span<const uint8_t> block;
    const Next r = next_words(block, 1);
    if (r == Next::Word) std::memcpy(out.data(), block.data(), kWordBytes);
    return r;
  }

  Next next_block(std::span<const uint8_t>& out, size_t max_words) override {
    out = {};
    if (!prepare()) return Next::Failed;
    if (neff_ != nullptr) {
      const Next r = neff_->next_block(out, max_words);
      index_ = neff_->index();
      if (r == Next::Failed) error_ = neff_->error();
      return r;
    }
    return next_words(out, std::max<size_t>(max_words, 1));
  }

  std::optional<Generation> generation() override {
    if (!prepare() || neff_ == nullptr) return std::nullopt;
    return neff_->generation();
  }
  const neff::Neff* neff() const override { return neff_ != nullptr ? neff_->neff() : nullptr; }
  const StreamInfo* stream() const override { return neff_ != nullptr ? neff_->stream() : nullptr; }
  std::span<const StreamInfo> streams() const override {
    return neff_ != nullptr ? neff_->streams() : std::span<const StreamInfo>{};
  }

 private:
  /// Opens the file and looks at its first bytes once; false (error_ set) when that failed, also on later calls.
  bool prepare() {
    if (prepared_) return !failed_;
    prepared_ = true;
    failed_ = true;
    if (!open()) {
      fail(ErrorKind::Open, fmt::format("{}: cannot open: {}", label_, std::strerror(errno)));
      return false;
    }
    if (map_window(0)) {
      const size_t head = std::min<size_t>(map_len_, kHeadBytes);
      if (input_kind(path_, std::span<const uint8_t>(map_, head)) != InputKind::Neff) {
        if (!options_.subgraphs.empty()) {
          fail(ErrorKind::Invalid,
               fmt::format("{}: --subgraph selects streams of a NEFF container; this input is a stream of words",
                           label_));
          return false;
        }
        failed_ = false;
        return true;
      }
      unmap();  // a container is read through the chunked path below
    }
    buffer_.resize(kChunk);
    if (!fill()) {
      fail(ErrorKind::Read,
           fmt::format("{}: read error at offset 0 (instruction 0): {}", label_, std::strerror(read_errno_)));
      return false;
    }
    if (input_kind(path_, std::span<const uint8_t>(buffer_.data() + begin_, end_ - begin_)) == InputKind::Neff)
      return load_neff();
    if (!options_.subgraphs.empty()) {
      fail(ErrorKind::Invalid,
           fmt::format("{}: --subgraph selects streams of a NEFF container; this input is a stream of words", label_));
      return false;
    }
    failed_ = false;
    return true;
  }

  /// Reads the rest of the container (the header, then only the window, bounded before it is held) and its model.
  bool load_neff() {
    if (!options_.neff) {
      fail(ErrorKind::Refused, fmt::format("{}: a NEFF container: {}", label_, options_.neff_refusal));
      return false;
    }
    // The first chunk is read already; the reader takes the header from it and the window from the rest (a
    // regular file: only the window is read; a pipe: read to its end, bounded).
    neff::Result<neff::Neff> r = neff::read_stream(
        file_, std::span<const uint8_t>(buffer_.data() + begin_, end_ - begin_), label_, options_.neff_read);
    buffer_ = {};
    if (!r) {
      fail(ErrorKind::Malformed, neff_read_error(r.error()).message);
      return false;
    }
    neff_ = open_neff(std::make_shared<const neff::Neff>(std::move(*r)), options_);
    failed_ = false;
    return true;
  }

  bool open() {
    if (path_ == "-") {
      file_ = stdin;
      return true;
    }
    file_ = std::fopen(path_.c_str(), "rb");
    owned_ = file_ != nullptr;
    return file_ != nullptr;
  }

  /// Maps the window of a regular, non-empty file that starts at byte `at` (a multiple of kWindow); false when
  /// the input is not one (a pipe, a device, stdin from a terminal) or cannot be mapped: it is then read.
  bool map_window(uint64_t at) {
    if (map_ == nullptr && at == 0) {
      struct stat st {};
      if (::fstat(::fileno(file_), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) return false;
      // A file already read from (stdin redirected after a peek) is read, not mapped.
      if (std::ftell(file_) != 0) return false;
      file_size_ = static_cast<uint64_t>(st.st_size);
    }
    unmap();
    const size_t len = static_cast<size_t>(std::min<uint64_t>(kWindow, file_size_ - at));
    void* p = ::mmap(nullptr, len, PROT_READ, MAP_PRIVATE, ::fileno(file_), static_cast<off_t>(at));
    if (p == MAP_FAILED) return false;
    ::madvise(p, len, MADV_SEQUENTIAL);
    map_ = static_cast<const uint8_t*>(p);
    map_len_ = len;
    map_at_ = at;
    return true;
  }

  void unmap() {
    if (map_ != nullptr) ::munmap(const_cast<uint8_t*>(map_), map_len_);
    map_ = nullptr;
    map_len_ = 0;
  }

  /// The next 1..max_words words of a plain stream of words, in place (prepare() succeeded, no container).
  Next next_words(std::span<const uint8_t>& out, size_t max_words) {
    index_ = words_;
    if (map_ != nullptr) return next_mapped(out, max_words);
    if (!fill()) return fail(ErrorKind::Read, read_message(label_, offset(), index_, read_errno_));
    const size_t left = end_ - begin_;
    if (left == 0) return Next::End;
    if (left < kWordBytes) return fail(ErrorKind::Malformed, trailing_message(label_, left, offset(), index_));
    const size_t n = std::min(max_words, left / kWordBytes);
    out = std::span<const uint8_t>(buffer_.data() + begin_, n * kWordBytes);
    begin_ += n * kWordBytes;
    words_ += n;
    return Next::Word;
  }

  /// The next words of a mapped file, up to the end of the window: windows are multiples of a word, so a word never
  /// straddles two.
  Next next_mapped(std::span<const uint8_t>& out, size_t max_words) {
    const uint64_t at = words_ * kWordBytes;
    if (at >= file_size_) return Next::End;
    const uint64_t left = file_size_ - at;
    if (left < kWordBytes) return fail(ErrorKind::Malformed, trailing_message(label_, left, offset(), index_));
    if (at >= map_at_ + map_len_ && !map_window(at))
      return fail(ErrorKind::Read, read_message(label_, offset(), index_, errno));
    const uint64_t in_window = (map_at_ + map_len_ - at) / kWordBytes;
    const size_t n = static_cast<size_t>(std::min<uint64_t>(max_words, in_window));
    out = std::span<const uint8_t>(map_ + (at - map_at_), n * kWordBytes);
    words_ += n;
    return Next::Word;
  }

  /// Tops the buffer up to at least one word; false on a read error.
  bool fill() {
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

  static constexpr size_t kChunk = size_t{1} << 20;   ///< reads of pipes and other unmappable inputs
  static constexpr size_t kWindow = size_t{8} << 20;  ///< mapped at a time (a multiple of the page and the word)
  static constexpr size_t kHeadBytes = 64 * 1024;     ///< what the NEFF sniff looks at
  const uint8_t* map_ = nullptr;
  size_t map_len_ = 0;
  uint64_t map_at_ = 0;
  uint64_t file_size_ = 0;
  std::string path_;
  InputOptions options_;
  std::FILE* file_ = nullptr;
  bool owned_ = false;
  bool prepared_ = false;
  bool failed_ = false;
  std::unique_ptr<WordSource> neff_;  ///< the container's streams, once the first bytes named one
  bool eof_ = false;
  int read_errno_ = 0;
  std::vector<uint8_t> buffer_;
  size_t begin_ = 0;
  size_t end_ = 0;
  uint64_t words_ = 0;  ///< words returned so far
};

/// Lines that may produce a word: not blank, not only a comment. An upper bound on the words of a source, known
/// before anything is assembled.
uint64_t statement_lines(std::string_view text) {
  uint64_t n = 0;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    size_t k = at;
    while (k < end && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r')) ++k;
    if (k < end && text[k] != ';' && text[k] != '#') ++n;
    at = end + 1;
  }
  return n;
}

}  // namespace

Expected<AsmResult> assemble_bounded(std::string_view text, const std::string& label, Generation gen) {
  if (text.size() > kMaxSourceBytes)
    return Error{ErrorKind::TooLarge, fmt::format("{}: larger than {} bytes (64 MiB), the most an assembly source may "
                                                  "have",
                                                  label, kMaxSourceBytes)};
  if (const uint64_t n = statement_lines(text); n > kMaxSourceStatements)
    return Error{ErrorKind::TooLarge, fmt::format("{}: {} statements; at most {} are accepted in an assembly source",
                                                  label, n, kMaxSourceStatements)};
  return assemble(text, label, gen);
}

Expected<AsmResult> assemble_source(const std::string& path, Generation gen) {
  auto text = read_bounded(path, kMaxSourceBytes, "an assembly source");
  if (!text) return text.error();
  return assemble_bounded(*text, input_label(path), gen);
}

namespace {

/// A .tasm source: read whole (bounded), assembled on the first next(), then handed out word by word.
class TasmWords final : public WordSource {
 public:
  TasmWords(const std::string& path, const InputOptions& options)
      : WordSource(input_label(path)), path_(path), gen_(options.gen), subgraph_filter_(!options.subgraphs.empty()) {}

  Next next(Word& out) override {
    if (!loaded_ && subgraph_filter_) {
      loaded_ = failed_ = true;
      return fail(ErrorKind::Invalid,
                  fmt::format("{}: --subgraph selects streams of a NEFF container; this input is a source", label_));
    }
    if (!loaded_ && !load()) return Next::Failed;
    if (failed_) return Next::Failed;  // a failed load stays failed
    index_ = next_;
    if (next_ == result_.words.size()) return Next::End;
    out = result_.words[next_++];
    return Next::Word;
  }
  std::span<const AsmDiagnostic> diagnostics() const override { return result_.errors; }
  size_t diagnostic_count() const override { return result_.error_count; }

 private:
  bool load() {
    loaded_ = true;
    failed_ = true;
    auto assembled = assemble_source(path_, gen_);
    if (!assembled) {
      fail(assembled.error().kind, assembled.error().message);
      return false;
    }
    result_ = std::move(*assembled);
    if (!result_.ok()) {
      fail(ErrorKind::Invalid, fmt::format("{}: {} error{} in the assembly source", label_, result_.error_count,
                                           result_.error_count == 1 ? "" : "s"));
      return false;
    }
    result_.word_lines = {};
    failed_ = false;
    return true;
  }

  std::string path_;
  Generation gen_;
  bool subgraph_filter_;
  bool loaded_ = false;
  bool failed_ = false;
  AsmResult result_;
  size_t next_ = 0;
};

bool hex_separator(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0 || c == '_' || c == ',';
}

/// Where each word of one argument starts and ends: a word ends where its 129th digit would begin.
std::vector<std::pair<size_t, size_t>> split_words(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> parts;
  size_t start = 0, digits = 0, i = 0;
  bool content = false;
  while (i < text.size()) {
    const char c = text[i];
    if (hex_separator(c)) {
      ++i;
      continue;
    }
    if (c == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X') &&
        (i == 0 || std::isxdigit(static_cast<unsigned char>(text[i - 1])) == 0)) {
      if (digits == 2 * kWordBytes) {
        parts.emplace_back(start, i);
        start = i;
        digits = 0;
      }
      content = true;
      i += 2;
      continue;
    }
    if (digits == 2 * kWordBytes) {
      parts.emplace_back(start, i);
      start = i;
      digits = 0;
    }
    content = true;
    if (std::isxdigit(static_cast<unsigned char>(c)) != 0) ++digits;
    ++i;
  }
  if (content || parts.empty()) parts.emplace_back(start, text.size());
  return parts;
}

/// Quotes one character for a message: 'g', or \x01 when not printable.
std::string quote_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (std::isprint(u) != 0) return fmt::format("'{}'", c);
  return fmt::format("\\x{:02x}", u);
}

class HexWords final : public WordSource {
 public:
  explicit HexWords(std::vector<std::string> args) : WordSource("--hex"), args_(std::move(args)) {}

  Next next(Word& out) override {
    while (part_ >= parts_.size()) {
      if (arg_ >= args_.size()) {
        index_ = words_;
        return Next::End;
      }
      parts_ = split_words(args_[arg_++]);
      part_ = 0;
    }
    index_ = words_;
    const std::string& text = args_[arg_ - 1];
    const auto [from, to] = parts_[part_];
    const std::string where =
        part_ == 0 ? fmt::format("--hex #{}", arg_) : fmt::format("--hex #{} word {}", arg_, part_ + 1);
    ++part_;
    HexError e;
    if (!parse_hex_word(std::string_view(text).substr(from, to - from), out, e)) {
      const size_t column = from + e.position + 1;
      const std::string problem = from + e.position < to ? fmt::format("{} at column {} is not a hex digit",
                                                                       quote_char(text[from + e.position]), column)
                                                         : fmt::format("expected 128 hex digits, got {}", e.digits);
      return fail(ErrorKind::Malformed,
                  fmt::format("{}: {} (instruction {}, offset {})", where, problem, index_, offset()));
    }
    ++words_;
    return Next::Word;
  }

 private:
  std::vector<std::string> args_;
  size_t arg_ = 0;  ///< arguments split so far
  std::vector<std::pair<size_t, size_t>> parts_;
  size_t part_ = 0;
  uint64_t words_ = 0;
};

/// Words already in memory (not copied): the caller keeps the bytes alive while the source is used.
class MemoryWords final : public WordSource {
 public:
  MemoryWords(std::span<const uint8_t> bytes, std::string label) : WordSource(std::move(label)), bytes_(bytes) {}

  Next next(Word& out) override {
    std::span<const uint8_t> block;
    const Next r = next_block(block, 1);
    if (r == Next::Word) std::memcpy(out.data(), block.data(), kWordBytes);
    return r;
  }

  Next next_block(std::span<const uint8_t>& out, size_t max_words) override {
    out = {};
    index_ = words_;
    const size_t at = static_cast<size_t>(words_) * kWordBytes;
    const size_t left = bytes_.size() - at;
    if (left == 0) return Next::End;
    if (left < kWordBytes) return fail(ErrorKind::Malformed, trailing_message(label_, left, offset(), index_));
    const size_t n = std::min(std::max<size_t>(max_words, 1), left / kWordBytes);
    out = bytes_.subspan(at, n * kWordBytes);
    words_ += n;
    return Next::Word;
  }

 private:
  std::span<const uint8_t> bytes_;
  uint64_t words_ = 0;
};

}  // namespace

std::unique_ptr<WordSource> open_bytes(std::span<const uint8_t> bytes, std::string label) {
  return std::make_unique<MemoryWords>(bytes, std::move(label));
}

std::unique_ptr<WordSource> open_input(const std::string& path, const InputOptions& options) {
  switch (input_kind(path, {})) {
    case InputKind::Tasm: return std::make_unique<TasmWords>(path, options);
    case InputKind::Words:
    case InputKind::Neff: break;
  }
  return std::make_unique<FileWords>(path, options);
}

std::unique_ptr<WordSource> open_hex(std::vector<std::string> args) {
  return std::make_unique<HexWords>(std::move(args));
}

}  // namespace tpbisa::io
