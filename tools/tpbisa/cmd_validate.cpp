// `tpbisa validate`: the library's streaming validator (tpbisa/io/validate_stream.hpp) over every input, its words
// printed as a line each, a matrix over several generations, or one JSON document.
#include "commands.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/io/decode_json.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/validate_stream.hpp"
#include "verdict_print.hpp"

namespace tpbisa::cli {
namespace {

using io::JudgedWord;
using io::Outcome;
using io::ValidateSummary;
using io::WordSource;
using ojson = nlohmann::ordered_json;

struct ValidateCliOptions {
  std::vector<Generation> gens;  ///< --gen; empty: a NEFF's target, else the default
  bool json = false;
  bool quiet = false;
  bool stats = false;
  std::string jobs;         ///< --jobs as given (read by number_option)
  bool jobs_given = false;  ///< else the library's default
  ValidateOptions options;
  WordInputs inputs;
};

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

/// A layout of the validator's results; an input's NEFF warnings and the note on its generation come first.
class ValidatePrinter : public io::ValidateObserver {
 public:
  explicit ValidatePrinter(const ValidateCliOptions& o) : o_(o) {}
  void begin_input(const WordSource& src, std::span<const Generation> gens) override {
    report_neff_warnings(src);
    const std::optional<Generation> given = o_.gens.empty() ? std::nullopt : std::optional(o_.gens.front());
    note(src, generation_note(src, given, gens.front()));
  }
  bool stopped() const override { return stdout_failed(); }
  /// Where the generation of an input came from, when a NEFF named it (or "").
  virtual void note(const WordSource&, const std::string&) {}
  virtual void failed(const WordSource&) {}
  virtual void finish(const ValidateSummary& s) = 0;

 protected:
  const ValidateCliOptions& o_;
};

std::string summary_line(const ValidateSummary& s) {
  return fmt::format("{} checked, {} valid, {} invalid, {} header-only", s.checked, s.all.valid, s.all.invalid,
                     s.all.header_only);
}

/// "== NAME ==" before the first line printed for an input, when there are several files.
class Headings {
 public:
  explicit Headings(bool enabled) : enabled_(enabled) {}
  void before_line(const WordSource& src) {
    if (!enabled_ || &src == current_) return;
    out("{}== {} ==\n", first_ ? "" : "\n", src.label());
    first_ = false;
    current_ = &src;
  }

 private:
  bool enabled_;
  bool first_ = true;
  const WordSource* current_ = nullptr;
};

/// One generation: a line per word (only failing ones with --quiet), failures indented below.
class ValidateTextPrinter final : public ValidatePrinter {
 public:
  ValidateTextPrinter(const ValidateCliOptions& o, bool headings) : ValidatePrinter(o), headings_(headings) {}

  void note(const WordSource& src, const std::string& note) override {
    if (note.empty()) return;
    headings_.before_line(src);
    out("{}\n", note);
  }
  void word(const WordSource& src, const JudgedWord& j) override {
    headings_.before_line(src);
    const Verdict& v = j.verdict[0];
    std::string out = fmt::format("{} {:#x} {:#04x} {}  {}\n", word_label(src, j.index), j.index * kWordBytes, j.opcode,
                                  j.name, judged_word(j, 0));
    if (!v.valid) out += failure_lines(v, j.inst[0], *j.options, "    ");
    out += program_failure_lines(j.program[0], "    ");
    out_write(out.c_str());
  }
  void finish(const ValidateSummary& s) override {
    out("{}\n", summary_line(s));
    out_flush();
  }

 private:
  Headings headings_;
};

/// Holds text to print later without holding it in memory: an anonymous temporary file, or a string when
/// no temporary file can be made.
class Spool {
 public:
  Spool() : file_(std::tmpfile()) {}
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
  /// Copies everything to stdout and starts again empty.
  void drain() {
    if (file_ != nullptr) {
      std::rewind(file_);
      std::array<char, 65536> buf{};
      size_t got = 0;
      while ((got = std::fread(buf.data(), 1, buf.size(), file_)) > 0) out_write(std::string_view(buf.data(), got));
      std::fclose(file_);
      file_ = std::tmpfile();
    }
    out_write(text_.c_str());
    text_.clear();
    empty_ = true;
  }

 private:
  std::FILE* file_;
  std::string text_;
  bool empty_ = true;
};

/// Several generations: a matrix row per word (ok / hdr / FAIL per generation), then per input the failures
/// grouped by generation. The failure text is spooled to temporary files, so memory stays constant.
class MatrixPrinter final : public ValidatePrinter {
 public:
  MatrixPrinter(const ValidateCliOptions& o, bool headings) : ValidatePrinter(o), headings_(headings) {
    for (size_t k = 0; k < o.gens.size(); ++k) spools_.push_back(std::make_unique<Spool>());
  }

  void word(const WordSource& src, const JudgedWord& j) override {
    headings_.before_line(src);
    if (!header_printed_) {
      index_width_ = src.neff() != nullptr ? 20 : 8;  // "sg00/Activation#123"
      std::string h =
          fmt::format("{:<{}} {:<10} {:<6} {:<{}}", "index", index_width_, "offset", "opcode", "name", kNameWidth);
      for (Generation g : o_.gens) h += fmt::format("  {:<8}", to_string(g));
      out("{}\n", trim(h));
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
    out_write(row.c_str());
  }
  void end_input(const WordSource&) override {
    for (size_t k = 0; k < spools_.size(); ++k) {
      if (spools_[k]->empty()) continue;
      out_flush();
      out("\nfailures on {}:\n", to_string(o_.gens[k]));
      out_flush();
      spools_[k]->drain();
    }
    header_printed_ = false;
  }
  void finish(const ValidateSummary& s) override {
    if (printed_) out("\n");
    out("{}\n", summary_line(s));
    out_flush();
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
class ValidateJsonPrinter final : public ValidatePrinter {
 public:
  explicit ValidateJsonPrinter(const ValidateCliOptions& o) : ValidatePrinter(o) { out("{{\"results\": ["); }

  void word(const WordSource& src, const JudgedWord& j) override {
    const std::string line = fmt::format("{}\n{}", count_ == 0 ? "" : ",", io::dump_json(io::judged_word_json(src, j)));
    out_write(line.c_str());
    ++count_;
  }
  void failed(const WordSource& src) override { error_ = io::input_error_json(src, src.error().message); }
  void finish(const ValidateSummary& s) override {
    out("{}],\n\"summary\": {}", count_ == 0 ? "" : "\n", io::dump_json(io::validate_summary_json(s)));
    if (!error_.is_null()) out(",\n\"error\": {}", io::dump_json(error_));
    out("}}\n");
    out_flush();
  }

 private:
  uint64_t count_ = 0;
  ojson error_;
};

// ---- the run ----

int run_validate(ValidateCliOptions& o) {
  if (const auto problem = check_word_inputs(o.inputs)) return usage_error("validate", *problem);
  std::string why;
  const auto jobs_given =
      o.jobs_given ? number_option("--jobs", o.jobs, 1, io::kMaxValidateJobs, why) : std::optional<uint64_t>(0);
  if (!jobs_given) return usage_error("validate", why);
  const bool headings = o.inputs.files.size() > 1;
  buffer_stdout();
  std::unique_ptr<ValidatePrinter> printer;
  if (o.json)
    printer = std::make_unique<ValidateJsonPrinter>(o);
  else if (o.gens.size() > 1)
    printer = std::make_unique<MatrixPrinter>(o, headings);
  else
    printer = std::make_unique<ValidateTextPrinter>(o, headings);

  // .tasm files are assembled (for the first requested generation's geometry); others are word streams.
  auto sources = open_word_inputs(o.inputs, o.gens.empty() ? kDefaultGeneration : o.gens.front());

  const auto start = std::chrono::steady_clock::now();
  io::StreamValidateOptions vo;
  vo.gens = o.gens;
  vo.validate = o.options;
  // The engine of a plain stream of words is the one --engine names (when it names one).
  if (o.inputs.engines.size() == 1) vo.validate.engine = o.inputs.engines.front();
  // Only --quiet judges on several threads: it prints the few invalid words, while a line per word is bound by its
  // printing.
  vo.failing_only = o.quiet;
  vo.jobs = *jobs_given != 0 ? static_cast<unsigned>(*jobs_given) : io::default_validate_jobs();
  io::StreamValidator validator(vo);
  int rc = kExitOk;
  for (auto& src : sources) {
    const auto ended = validator.validate(*src, *printer);
    if (ended == io::StreamValidator::Ended::Done) continue;
    if (ended == io::StreamValidator::Ended::Stopped || stdout_failed()) return kExitInput;
    printer->failed(*src);
    printer->finish(validator.summary());
    report_source_error(*src);
    rc = kExitInput;
    break;
  }
  const ValidateSummary& s = validator.summary();
  if (rc == kExitOk) {
    printer->finish(s);
    if (s.all.invalid > 0) rc = kExitNegative;
  }
  if (o.stats) {
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    err_write(fmt::format(
        "{}: stats: validate: {} instructions checked on {} generation{} in {:.3f} s ({:.0f} instructions/s)\n",
        kToolName, s.checked, std::max<size_t>(o.gens.size(), 1), o.gens.size() > 1 ? "s" : "", secs,
        secs > 0 ? static_cast<double>(s.checked) / secs : 0.0));
  }
  return rc;
}

}  // namespace

Command register_validate(CLI::App& parent) {
  auto opts = std::make_shared<ValidateCliOptions>();
  CLI::App* app =
      parent.add_subcommand("validate", "Validate 64-byte instruction words and name every failing predicate");
  add_generations_option(
      *app, opts->gens,
      "Generation: sunda|cayman|mariana|maverick, v2..v5, or all (default: mariana, or a NEFF's target)");
  app->add_flag("--json", opts->json, "Print one JSON document instead of text");
  app->add_flag("--quiet", opts->quiet, "Print only failing instructions and the summary");
  app->add_flag("--stats", opts->stats, "Print the instructions checked and instructions per second on stderr");
  app->add_option("-j,--jobs", opts->jobs,
                  fmt::format("Threads that judge the words with --quiet, 1..{} (default: the CPUs this process may "
                              "run on, at most {}); the output is the same for every count",
                              io::kMaxValidateJobs, io::kMaxValidateJobs))
      ->type_name("N")
      ->each([opts](const std::string&) { opts->jobs_given = true; });
  app->add_flag_callback(
      "--no-hash-check", [opts] { opts->inputs.hash_check = false; },
      "NEFF inputs: do not compute the payload hash (SHA-256 or MD5), so no warning names a mismatch; the words are "
      "judged the same, and a large NEFF validates several times faster");
  add_validate_options(*app, opts->options);
  add_word_inputs(*app, opts->inputs);
  add_stream_filters(*app, opts->inputs,
                     "NEFF inputs: only the stream of this engine (pe, act, pool, dve, sp), repeatable; for other "
                     "inputs one --engine names the engine the words run on (engine-placement predicates)");
  app->footer(
      "Exit codes: 0 every instruction valid on every requested generation (header-only counts as valid), "
      "1 an instruction is invalid, 2 usage error, 3 input error.");
  return {app, [opts] { return run_validate(*opts); }};
}

}  // namespace tpbisa::cli
