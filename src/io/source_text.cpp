// Labels, generation notes, warnings and escaped assembly diagnostics of word inputs.
#include "tpbisa/io/source_text.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "tpbisa/io/neff_text.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::io {
namespace {

/// Length of the valid UTF-8 sequence at text[i] (1..4), or 0 when the byte does not start one.
size_t utf8_length(std::string_view text, size_t i) {
  const auto u = static_cast<unsigned char>(text[i]);
  const size_t n = u < 0x80 ? 1 : (u >> 5) == 0x6 ? 2 : (u >> 4) == 0xE ? 3 : (u >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return 0;
  return n;
}

/// The pieces a text is shown as, one per byte: the byte itself, or \xNN for control bytes and bytes that are
/// not UTF-8 (a NUL in a source line must not reach the terminal raw). `keep_tabs` leaves tabs as they are.
std::vector<std::string> shown_bytes(std::string_view text, bool keep_tabs) {
  std::vector<std::string> out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto u = static_cast<unsigned char>(text[i]);
    const size_t n = utf8_length(text, i);
    if ((u < 0x20 && !(keep_tabs && u == '\t')) || u == 0x7F || n == 0) {
      out.push_back(fmt::format("\\x{:02x}", u));
      ++i;
      continue;
    }
    out.emplace_back(text.substr(i, 1));
    for (size_t k = 1; k < n; ++k) out.emplace_back(text.substr(i + k, 1));
    i += n;
  }
  return out;
}

std::string escaped_bytes_text(std::string_view text) {
  std::string out;
  for (const std::string& s : shown_bytes(text, false)) out += s;
  return out;
}

}  // namespace

std::string word_label(const WordSource& src, uint64_t index) {
  if (const StreamInfo* s = src.stream()) return fmt::format("{}#{}", s->label, index);
  return fmt::format("#{}", index);
}

Generation input_generation(WordSource& src, const std::optional<Generation>& given) {
  if (given) return *given;
  return src.generation().value_or(kDefaultGeneration);
}

std::string generation_note(const WordSource& src, const std::optional<Generation>& given, Generation gen) {
  const neff::Neff* n = src.neff();
  if (given || n == nullptr) return {};
  if (n->generation)
    return fmt::format("generation {}: the target of {} (PROJ-CONV-X7; --gen overrides)", to_string(gen), n->file);
  return fmt::format("generation {} (the default): the target '{}' of {} names no generation; --gen overrides",
                     to_string(gen), n->target, n->file);
}

std::string source_warnings_text(const WordSource& src, std::string_view tool) {
  return src.neff() != nullptr ? neff_warnings_text(*src.neff(), tool) : std::string();
}

Error source_error(const WordSource& src, std::string& diagnostics) {
  if (src.diagnostic_count() == 0) return src.error();
  diagnostics = diagnostics_text(src.diagnostics());
  return Error{src.error().kind,
               fmt::format("{}: {} in the assembly source", src.label(), diagnostics_summary(src.diagnostic_count()))};
}

std::optional<std::string> unreadable_file(const std::string& path) {
  // Non-blocking: a FIFO is not waited for (it is readable, as a word stream).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  int err = fd < 0 ? errno : 0;
  struct stat st {};
  if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) err = EISDIR;
  if (fd >= 0) ::close(fd);
  if (err == 0) return std::nullopt;
  return fmt::format("{}: cannot open: {}", path, std::strerror(err));
}

uint64_t input_word_count(const std::string& path, WordSource& src) {
  std::error_code ec;
  const uint64_t size = path == "-" || path.ends_with(".tasm") ? 0 : std::filesystem::file_size(path, ec);
  if (size == 0 || ec) return 0;
  if (!is_neff_file(path)) return size / kWordBytes;
  src.generation();  // reads the container, as reading its words does first
  uint64_t words = 0;
  for (const StreamInfo& st : src.streams()) words += st.words->word_count();
  return words;
}

std::optional<std::string> check_word_inputs(std::span<const std::string> hex, std::span<const std::string> files,
                                             bool subgraphs) {
  if (hex.empty() && files.empty()) return "no input: give --hex HEX or FILE ('-' for stdin)";
  if (!hex.empty() && !files.empty()) return "give either --hex words or FILE arguments, not both";
  if (!hex.empty() && subgraphs) return "--subgraph selects streams of a NEFF input, not --hex words";
  // --hex takes every argument up to the next option, so `--hex WORD prog.bin` would read the file name as hex.
  for (const std::string& arg : hex) {
    struct stat st {};
    const bool hexlike = arg.find_first_not_of("0123456789abcdefABCDEFxX_, \t\n") == std::string::npos;
    if (!hexlike && ::stat(arg.c_str(), &st) == 0)
      return fmt::format("'{}' after --hex is a file; give either --hex words or FILE arguments, not both", arg);
  }
  return std::nullopt;
}

std::string escaped_diagnostic(const AsmDiagnostic& d) {
  const std::vector<std::string> shown = shown_bytes(d.source_line, true);
  std::string line, carets;
  for (const std::string& s : shown) line += s;
  // The caret line repeats the line's tabs so that the caret sits under the right byte however tabs are shown.
  for (size_t i = 0; i + 1 < d.column && i < shown.size(); ++i)
    carets += shown[i] == "\t" ? std::string("\t") : std::string(shown[i].size(), ' ');
  size_t width = 0;
  for (size_t i = d.column == 0 ? 0 : d.column - 1, k = 0; k < std::max<size_t>(d.length, 1); ++i, ++k)
    width += i < shown.size() ? shown[i].size() : 1;
  carets += '^';
  carets.append(width - 1, '~');
  return fmt::format("{}:{}:{}: error: {}\n{}\n{}\n", escaped_bytes_text(d.file), d.line, d.column,
                     escaped_bytes_text(d.message), line, carets);
}

std::string diagnostics_text(std::span<const AsmDiagnostic> errors) {
  std::string text;
  for (size_t i = 0; i < errors.size() && i < kShownDiagnostics; ++i) text += escaped_diagnostic(errors[i]);
  return text;
}

std::string diagnostics_summary(size_t count) {
  const std::string shown =
      count > kShownDiagnostics ? fmt::format(" (the first {} shown)", kShownDiagnostics) : std::string();
  return fmt::format("{} error{}{}", count, count == 1 ? "" : "s", shown);
}

}  // namespace tpbisa::io
