// `tpbisa validate`: the library's streaming validator (tpbisa/io/validate_stream.hpp) over every input, its words laid
// out by the library (tpbisa/io/validate_text.hpp) as a line each, a matrix over several generations, or one JSON
// document; a progress line on a terminal.
#include "commands.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "tpbisa/io/progress.hpp"
#include "tpbisa/io/validate_stream.hpp"
#include "tpbisa/io/validate_text.hpp"

namespace tpbisa::cli {
namespace {

using io::ValidateSummary;
using io::WordSource;

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

/// The words of the inputs, for the progress line; 0 when one is unknown.
uint64_t total_words(const ValidateCliOptions& o, std::vector<std::unique_ptr<WordSource>>& sources) {
  uint64_t total = 0;
  for (size_t i = 0; i < sources.size(); ++i) {
    const uint64_t n = io::input_word_count(o.inputs.hex.empty() ? o.inputs.files[i] : "-", *sources[i]);
    if (n == 0) return 0;
    total += n;
  }
  return total;
}

/// The printer as the validator sees it, with each input's NEFF warnings on stderr first and the progress line on a
/// terminal (io::ProgressLine: total, percentage, time left).
class CliObserver final : public io::ValidateObserver {
 public:
  CliObserver(io::ValidatePrinter& printer, io::ProgressLine* progress) : printer_(printer), progress_(progress) {}
  void begin_input(const WordSource& src, std::span<const Generation> gens) override {
    report_neff_warnings(src);
    printer_.begin_input(src, gens);
  }
  void word(const WordSource& src, const io::JudgedWord& j) override {
    printer_.word(src, j);
    // The clock is looked at every 256 words.
    if (progress_ != nullptr && ++words_ % 256 == 0) (*progress_)(words_);
  }
  void end_input(const WordSource& src) override { printer_.end_input(src); }
  bool stopped() const override { return printer_.stopped(); }
  uint64_t words() const { return words_; }

 private:
  io::ValidatePrinter& printer_;
  io::ProgressLine* progress_;
  uint64_t words_ = 0;
};

// ---- the run ----

int run_validate(ValidateCliOptions& o) {
  if (const auto problem = check_word_inputs(o.inputs)) return usage_error("validate", *problem);
  std::string why;
  const auto jobs_given =
      o.jobs_given ? number_option("--jobs", o.jobs, 1, io::kMaxValidateJobs, why) : std::optional<uint64_t>(0);
  if (!jobs_given) return usage_error("validate", why);
  buffer_stdout();
  StdoutText text;
  const auto layout = o.json              ? io::ValidateLayout::Json
                      : o.gens.size() > 1 ? io::ValidateLayout::Matrix
                                          : io::ValidateLayout::Text;
  const auto printer = io::make_validate_printer(layout, o.gens, o.inputs.files.size() > 1, text);

  // .tasm files are assembled (for the first requested generation's geometry); others are word streams.
  auto sources = open_word_inputs(o.inputs, o.gens.empty() ? kDefaultGeneration : o.gens.front());
  std::optional<io::ProgressLine> progress;
  if (!o.quiet && ::isatty(STDERR_FILENO) != 0) {
    const uint64_t total = total_words(o, sources);
    progress.emplace([total](uint64_t done, double s) { return io::count_progress_text(done, total, s); }, err_write,
                     false);
  }
  CliObserver observer(*printer, progress ? &*progress : nullptr);

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
    const auto ended = validator.validate(*src, observer);
    if (ended == io::StreamValidator::Ended::Done) continue;
    if (progress) progress->finish(observer.words());
    progress.reset();
    if (ended == io::StreamValidator::Ended::Stopped || stdout_failed()) return kExitInput;
    printer->failed(*src);
    printer->finish(validator.summary());
    report_source_error(*src);
    rc = kExitInput;
    break;
  }
  if (progress) progress->finish(observer.words());
  progress.reset();
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
