// `tpbisa run PROG.neff`: binds the .npy inputs to the signature, runs the NEFF through the library
// (tpbisa/io/neff_run_report.hpp), compares the outputs with --expect references, writes them, and prints the run
// report (tpbisa/io/neff_run_text.hpp).
#include "cmd_run.hpp"

#include <unistd.h>

#include <memory>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "output.hpp"
#include "tpbisa/io/arguments.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/neff_run_files.hpp"
#include "tpbisa/io/neff_run_report.hpp"
#include "tpbisa/io/neff_run_text.hpp"
#include "tpbisa/io/neff_text.hpp"
#include "tpbisa/io/progress.hpp"
#include "tpbisa/io/timeline.hpp"
#include "tpbisa/io/validate_stream.hpp"
#include "tpbisa/neff_run.hpp"

namespace tpbisa::cli {
namespace {

using io::NeffRunReport;

/// Reports an input or output error of the library.
int failed_input(const Error& e) {
  report_error(e);
  return kExitInput;
}

/// Reports an error binding --input or --expect: a usage error (kind Syntax: not NAME=FILE) or an input error.
int files_error(const Error& e) {
  return e.kind == ErrorKind::Syntax ? usage_error("run", e.message) : failed_input(e);
}

/// The outputs compared (--expect), then written (--out), into the report's context; an error reported. Every file
/// goes through the output-file policy of `out`: never over an input, a reference, the NEFF or the trace.
std::optional<int> compare_and_write(const RunCliOptions& o, const neff::Neff& nf, const neff::Run& run,
                                     const std::vector<io::OutputReference>& refs, const io::OutputOptions& out,
                                     io::NeffRunReportContext& ctx) {
  double rtol = 0, atol = 0;
  if (const auto problem = io::parse_tolerances(o.rtol, o.atol, rtol, atol)) return usage_error("run", *problem);
  auto compared = io::compare_references(nf, run, refs, rtol, atol);
  if (!compared) return failed_input(compared.error());
  ctx.comparisons = std::move(*compared);
  if (!o.out_dir.empty()) {
    auto written = io::write_neff_outputs(nf, run, o.out_dir, out);
    if (!written) return failed_input(written.error());
    ctx.written = std::move(*written);
  }
  return std::nullopt;
}

/// The options checked, the NEFF read and its inputs and references opened; a reported error's exit code.
std::optional<int> prepare_neff(const RunCliOptions& o, const RunLimits& l, io::NeffRunOptions& ro,
                                const neff::Neff* from_stdin, std::optional<neff::Neff>& nf) {
  ro.machine.validate = o.options;
  ro.machine.max_memory = l.max_memory;
  ro.machine.max_elements_per_instruction = l.max_elements;
  ro.machine.max_recorded_effects = l.trace_max_effects;
  ro.check_races = o.check_races;
  // The cores run at once where that gives what one order gives (io::NeffRunOptions::max_threads).
  std::string bad_jobs;
  const auto jobs =
      o.jobs_given ? number_option("--jobs", o.jobs, 1, io::kMaxValidateJobs, bad_jobs) : std::optional<uint64_t>(0);
  if (!jobs) return usage_error("run", bad_jobs);
  ro.max_threads = *jobs != 0  ? static_cast<unsigned>(*jobs)
                   : o.threads ? io::kMaxValidateJobs  // every core on its own thread, as --threads always said
                               : io::default_validate_jobs();
  ro.trace = !o.trace.empty();
  ro.trace_format = *parse_trace_format(o.trace_format);
  if (!io::parse_schedule(o.schedule, ro.machine))
    return usage_error("run", fmt::format("--schedule '{}' is not default, reverse or random:SEED", o.schedule));
  for (const std::string& f : o.trace_filters)
    if (const auto why = ro.trace_filter.add(f)) return usage_error("run", fmt::format("--trace-filter {}", *why));
  if (!o.trace_filters.empty() && o.trace.empty()) return usage_error("run", "--trace-filter needs --trace FILE");
  if (o.threads && (!o.trace.empty() || o.check_races || !o.timeline.empty()))
    return usage_error("run",
                       "--threads runs without --trace, --check-races and --timeline (they follow one order of steps)");
  if (o.timeline == "-") return usage_error("run", "--timeline needs a file name ('-' is not accepted)");
  double rtol = 0, atol = 0;
  if (const auto problem = io::parse_tolerances(o.rtol, o.atol, rtol, atol)) return usage_error("run", *problem);
  if (from_stdin == nullptr) {
    auto read = io::read_neff_input(o.program);
    if (!read) return failed_input(read.error());
    nf.emplace(std::move(*read));
  }
  const neff::Neff& program = from_stdin != nullptr ? *from_stdin : *nf;
  // Without --max-steps a NEFF runs under a bound scaled to its words: a loop that never ends is stopped.
  ro.max_steps = o.max_steps_given ? l.max_steps : io::default_neff_max_steps(program);
  return std::nullopt;
}

/// The trace (--trace) and the timeline (--timeline) of a run, each under the output-file policy: never over a file
/// the run reads, an output, or each other.
struct RunFiles {
  std::unique_ptr<Sink> trace, timeline_sink;
  std::optional<io::Timeline> timeline;
};
std::optional<int> open_run_files(const RunCliOptions& o, const neff::Neff& nf, io::NeffRun& r,
                                  const std::vector<std::string>& reads, const std::vector<std::string>& out_paths,
                                  io::NeffRunOptions& ro, RunFiles& f) {
  if (!o.trace.empty()) {
    auto opened = Sink::open(o.trace, io::OutputOptions{reads, false, out_paths});
    if (!opened) return failed_input(opened.error());
    f.trace = std::move(*opened);
  }
  if (!o.timeline.empty()) {
    std::vector<std::string> others = out_paths;
    if (!o.trace.empty()) others.push_back(o.trace);
    auto opened = Sink::open(o.timeline, io::OutputOptions{reads, false, others});
    if (!opened) return failed_input(opened.error());
    f.timeline_sink = std::move(*opened);
    f.timeline.emplace(nf, *r.run);
    ro.on_step = [&f](const StepResult& step) { f.timeline->observe(step); };
  }
  return std::nullopt;
}

/// Commits the trace and the timeline; the output-error exit code when one fails.
std::optional<int> finish_run_files(RunFiles& f, const NeffRunReport& rep) {
  if (f.trace != nullptr && finish_sink(*f.trace) != kExitOk) return kExitInput;
  if (f.timeline_sink != nullptr) {
    f.timeline->blocked(rep.blocked);
    f.timeline_sink->write(f.timeline->document().dump() + '\n');
    if (finish_sink(*f.timeline_sink) != kExitOk) return kExitInput;
  }
  return std::nullopt;
}

/// The progress line on stderr (io::ProgressLine), on a terminal or with --progress, not with --quiet or --threads.
void start_progress(const RunCliOptions& o, const neff::Neff& nf, const Machine& m, io::NeffRunOptions& ro,
                    std::optional<io::ProgressLine>& progress) {
  if (o.quiet || o.threads || !(o.progress || ::isatty(STDERR_FILENO) != 0)) return;
  const uint64_t total = io::neff_core_words(nf);
  progress.emplace(
      [&m, total](uint64_t retired, double s) { return io::run_progress_text(retired, total, io::total_macs(m), s); },
      err_write, o.progress);
  ro.on_progress = [&progress](uint64_t retired) { return (*progress)(retired); };
  // A few heavy words (a large matmul each) take seconds: the clock is looked at every 64 words, not 4096.
  ro.progress_words = 64;
}

}  // namespace

int run_neff(const RunCliOptions& o, const RunLimits& l, const neff::Neff* from_stdin) {
  io::NeffRunOptions ro;
  std::optional<neff::Neff> read;
  if (const auto rc = prepare_neff(o, l, ro, from_stdin, read)) return *rc;
  const neff::Neff& nf = from_stdin != nullptr ? *from_stdin : *read;
  const std::string program = io::input_label(o.program);
  io::BoundInputs bound;  // mapped, checked against the signature
  if (from_stdin == nullptr) bound.paths.push_back(o.program);
  if (const auto ok = io::bind_npy_inputs(nf, program, o.inputs, bound); !ok) return files_error(ok.error());
  std::vector<io::OutputReference> refs;
  if (const auto ok = io::open_references(nf, program, o.expects, refs, bound.paths); !ok)
    return files_error(ok.error());
  // The outputs are checked before the run: none is an input, a reference, the NEFF, or the trace.
  const std::vector<std::string> out_paths =
      o.out_dir.empty() ? std::vector<std::string>{} : io::neff_output_paths(nf, o.out_dir);
  std::vector<std::string> trace_path;
  for (const std::string* p : {&o.trace, &o.timeline})
    if (!p->empty()) trace_path.push_back(*p);
  const io::OutputOptions out_options{bound.paths, false, trace_path};
  if (!o.out_dir.empty())
    if (const auto ok = io::check_neff_outputs(nf, o.out_dir, out_options); !ok) return failed_input(ok.error());
  auto prepared = io::prepare_neff_run(nf, bound.inputs, ro);
  if (!prepared) {
    report_error(fmt::format("{}: {}", program, prepared.error().message));
    return kExitInput;
  }
  io::NeffRun& r = *prepared;
  RunFiles files;
  if (const auto rc = open_run_files(o, nf, r, bound.paths, out_paths, ro, files)) return *rc;
  std::optional<io::ProgressLine> progress;
  start_progress(o, nf, r.run->machine(), ro, progress);
  const NeffRunReport rep = io::execute_neff_run(r, ro, files.trace.get());
  if (progress) progress->finish(rep.retired);
  progress.reset();
  io::NeffRunReportContext ctx;
  ctx.program = program;
  ctx.races = r.races.get();
  ctx.max_steps = ro.max_steps;
  ctx.default_max_steps = !o.max_steps_given;
  if (const auto rc = compare_and_write(o, nf, *r.run, refs, out_options, ctx)) return *rc;
  out_write(o.json ? io::dump_json(io::neff_run_json(nf, *r.run, rep, ctx)) + '\n'
                   : io::neff_run_text(nf, r, rep, ctx));
  if (const auto rc = finish_run_files(files, rep)) return *rc;
  bool all_equal = true;
  for (const io::OutputComparison& c : ctx.comparisons) all_equal = all_equal && c.differing == 0;
  const bool race_free = (!r.races || r.races->count() == 0) && r.run->reservation_violations().empty();
  return rep.status == NeffRunReport::Status::Ok && all_equal && race_free ? kExitOk : kExitNegative;
}

}  // namespace tpbisa::cli
