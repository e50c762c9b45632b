// The layouts of the streaming validator's results: text, matrix and JSON.
#include "tpbisa/io/validate_text.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tpbisa/catalog.hpp"
#include "tpbisa/io/decode_json.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/source_text.hpp"
#include "tpbisa/io/verdict_text.hpp"

namespace tpbisa::io {
namespace {

using ojson = nlohmann::ordered_json;

std::string program_failure_lines(const std::vector<neff::ProgramFailure>* fs, std::string_view indent) {
  std::string out;
  if (fs == nullptr) return out;
  for (const neff::ProgramFailure& f : *fs)
    out += fmt::format("{}{} (program check, convention {}): {}: {}\n", indent, f.predicate->name,
                       f.predicate->convention, f.label, f.message);
  return out;
}

/// The mnemonic column of the matrix: wide enough for every mnemonic.
constexpr size_t kNameWidth = [] {
  size_t w = 7;  // "unknown"
  for (const auto& op : kOpcodes) w = std::max(w, op.mnemonic.size());
  return w;
}();

/// The verdict word of generation k, counting the program checks: "invalid (program checks: 2 failed)".
std::string judged_word(const JudgedWord& j, size_t k) {
  const Verdict& v = j.verdict[k];
  const size_t n = j.program[k] != nullptr ? j.program[k]->size() : 0;
  if (n == 0) return verdict_word(v);
  if (v.valid) return fmt::format("invalid (program checks: {} failed)", n);
  return fmt::format("{} + program checks: {} failed", verdict_word(v), n);
}

// ---- printers ----

/// The printers' common part: the generations asked for, and the note on an input's generation.
class LayoutBase : public ValidatePrinter {
 public:
  LayoutBase(std::span<const Generation> gens, TextOut& out) : ValidatePrinter(out), gens_(gens.begin(), gens.end()) {}
  void begin_input(const WordSource& src, std::span<const Generation> gens) override {
    const std::optional<Generation> given = gens_.empty() ? std::nullopt : std::optional(gens_.front());
    note(src, generation_note(src, given, gens.front()));
  }
  /// Where the generation of an input came from, when a NEFF named it (or "").
  virtual void note(const WordSource&, const std::string&) {}

 protected:
  std::vector<Generation> gens_;
};

}  // namespace

std::string validate_summary_line(const ValidateSummary& s) {
  return fmt::format("{} checked, {} valid, {} invalid, {} header-only", s.checked, s.all.valid, s.all.invalid,
                     s.all.header_only);
}

namespace {

/// "== NAME ==" before the first line printed for an input, when there are several files.
class Headings {
 public:
  Headings(bool enabled, TextOut& out) : enabled_(enabled), out_(out) {}
  void before_line(const WordSource& src) {
    if (!enabled_ || &src == current_) return;
    out_.write(fmt::format("{}== {} ==\n", first_ ? "" : "\n", src.label()));
    first_ = false;
    current_ = &src;
  }

 private:
  bool enabled_;
  TextOut& out_;
  bool first_ = true;
  const WordSource* current_ = nullptr;
};

/// One generation: a line per word (only failing ones with --quiet), failures indented below.
class ValidateTextPrinter final : public LayoutBase {
 public:
  ValidateTextPrinter(std::span<const Generation> gens, bool headings, TextOut& out)
      : LayoutBase(gens, out), headings_(headings, out) {}

  void note(const WordSource& src, const std::string& note) override {
    if (note.empty()) return;
    headings_.before_line(src);
    out_.write(note + '\n');
  }
  void word(const WordSource& src, const JudgedWord& j) override {
    headings_.before_line(src);
    const Verdict& v = j.verdict[0];
    std::string out = fmt::format("{} {:#x} {:#04x} {}  {}\n", word_label(src, j.index), j.index * kWordBytes, j.opcode,
                                  j.name, judged_word(j, 0));
    if (!v.valid) out += failure_lines(v, j.inst[0], *j.options, "    ");
    out += program_failure_lines(j.program[0], "    ");
    out_.write(out.c_str());  // as a C string, as it always was
  }
  void finish(const ValidateSummary& s) override {
    out_.write(validate_summary_line(s) + '\n');
    out_.flush();
  }

 private:
  Headings headings_;
};

/// Holds text to print later without holding it in memory: an anonymous temporary file, or a string when
/// no temporary file can be made.
class Spool {
 public:
  explicit Spool(TextOut& out) : out_(out), file_(std::tmpfile()) {}
  ~Spool() {
    if (file_ != nullptr) std::fclose(file_);
  }
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  void write(const std::string& text) {
    empty_ = false;
    if (file_ != nullptr && std::fwrite(text.data(), 1, text.size(), file_) == text.size()) return;
    text_ += text;
  }
  bool empty() const { return empty_; }
  /// Copies everything to the output and starts again empty.
  void drain() {
    if (file_ != nullptr) {
      std::rewind(file_);
      std::array<char, 65536> buf{};
      size_t got = 0;
      while ((got = std::fread(buf.data(), 1, buf.size(), file_)) > 0) out_.write(std::string_view(buf.data(), got));
      std::fclose(file_);
      file_ = std::tmpfile();
    }
    out_.write(text_.c_str());
    text_.clear();
    empty_ = true;
  }

 private:
  TextOut& out_;
  std::FILE* file_;
  std::string text_;
  bool empty_ = true;
};

/// Several generations: a matrix row per word (ok / hdr / FAIL per generation), then per input the failures
/// grouped by generation. The failure text is spooled to temporary files, so memory stays constant.
class MatrixPrinter final : public LayoutBase {
 public:
  MatrixPrinter(std::span<const Generation> gens, bool headings, TextOut& out)
      : LayoutBase(gens, out), headings_(headings, out) {
    for (size_t k = 0; k < gens.size(); ++k) spools_.push_back(std::make_unique<Spool>(out));
  }

  void word(const WordSource& src, const JudgedWord& j) override {
    headings_.before_line(src);
    if (!header_printed_) {
      index_width_ = src.neff() != nullptr ? 20 : 8;  // "sg00/Activation#123"
      std::string h =
          fmt::format("{:<{}} {:<10} {:<6} {:<{}}", "index", index_width_, "offset", "opcode", "name", kNameWidth);
      for (Generation g : gens_) h += fmt::format("  {:<8}", to_string(g));
      out_.write(trim(h) + '\n');
      header_printed_ = true;
      printed_ = true;
    }
    std::string row =
        fmt::format("{:<{}} {:<10} {:<6} {:<{}}", word_label(src, j.index), index_width_,
                    fmt::format("{:#x}", j.index * kWordBytes), fmt::format("{:#04x}", j.opcode), j.name, kNameWidth);
    for (size_t k = 0; k < j.n; ++k) {
      const Outcome oc = j.outcome[k];
      row += fmt::format("  {:<8}", oc == Outcome::Valid ? "ok" : oc == Outcome::HeaderOnly ? "hdr" : "FAIL");
      if (oc == Outcome::Invalid)
        spools_[k]->write(fmt::format("  {} {:#x} {:#04x} {}  {}\n", word_label(src, j.index), j.index * kWordBytes,
                                      j.opcode, j.inst[k].name(), judged_word(j, k)) +
                          (j.verdict[k].valid ? "" : failure_lines(j.verdict[k], j.inst[k], *j.options, "    ")) +
                          program_failure_lines(j.program[k], "    "));
    }
    row = trim(row);
    row += '\n';
    out_.write(row.c_str());
  }
  void end_input(const WordSource&) override {
    for (size_t k = 0; k < spools_.size(); ++k) {
      if (spools_[k]->empty()) continue;
      out_.flush();
      out_.write(fmt::format("\nfailures on {}:\n", to_string(gens_[k])));
      out_.flush();
      spools_[k]->drain();
    }
    header_printed_ = false;
  }
  void finish(const ValidateSummary& s) override {
    if (printed_) out_.write("\n");
    out_.write(validate_summary_line(s) + '\n');
    out_.flush();
  }

 private:
  static std::string trim(std::string s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  }
  Headings headings_;
  bool header_printed_ = false;  ///< in the current input
  size_t index_width_ = 8;
  bool printed_ = false;  ///< anything at all
  std::vector<std::unique_ptr<Spool>> spools_;
};

/// {"results": [...], "summary": {...}, "error"?}; one result per line, written as it is judged.
class ValidateJsonPrinter final : public LayoutBase {
 public:
  explicit ValidateJsonPrinter(TextOut& out) : LayoutBase({}, out) { out_.write("{\"results\": ["); }

  void word(const WordSource& src, const JudgedWord& j) override {
    const std::string line = fmt::format("{}\n{}", count_ == 0 ? "" : ",", dump_json(judged_word_json(src, j)));
    out_.write(line.c_str());
    ++count_;
  }
  void failed(const WordSource& src) override { error_ = input_error_json(src, src.error().message); }
  void finish(const ValidateSummary& s) override {
    out_.write(fmt::format("{}],\n\"summary\": {}", count_ == 0 ? "" : "\n", dump_json(validate_summary_json(s))));
    if (!error_.is_null()) out_.write(fmt::format(",\n\"error\": {}", dump_json(error_)));
    out_.write("}\n");
    out_.flush();
  }

 private:
  uint64_t count_ = 0;
  ojson error_;
};

}  // namespace

std::unique_ptr<ValidatePrinter> make_validate_printer(ValidateLayout layout, std::span<const Generation> gens,
                                                       bool headings, TextOut& out) {
  switch (layout) {
    case ValidateLayout::Json: return std::make_unique<ValidateJsonPrinter>(out);
    case ValidateLayout::Matrix: return std::make_unique<MatrixPrinter>(gens, headings, out);
    case ValidateLayout::Text: break;
  }
  return std::make_unique<ValidateTextPrinter>(gens, headings, out);
}

}  // namespace tpbisa::io
