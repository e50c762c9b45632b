// `tpbisa run PROG.neff`: binds the .npy inputs to the signature, runs the NEFF through the library
// (tpbisa/io/neff_run_report.hpp), compares the outputs with --expect references, writes them, and prints the run
// report (with the deadlock or the loop that stopped it).
#include "cmd_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "output.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/neff_run_report.hpp"
#include "tpbisa/io/npy_file.hpp"
#include "tpbisa/io/timeline.hpp"
#include "tpbisa/io/validate_stream.hpp"
#include "tpbisa/neff_run.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::cli {
namespace {

using Clock = std::chrono::steady_clock;
using io::NeffRunReport;

/// The mapped --input files, bound to the signature; a usage or input error reported. `paths` collects every file
/// the run reads (the NEFF, the inputs, the references): no output may be one of them.
struct BoundInputs {
  std::vector<io::NpyInput> mapped;
  std::vector<neff::RunInput> inputs;
  std::vector<std::string> paths;
};
std::optional<int> bind_inputs(const neff::Neff& nf, const std::string& program, const std::vector<std::string>& given,
                               BoundInputs& b) {
  b.mapped.reserve(given.size());
  for (const std::string& text : given) {
    std::string name, path;
    if (!io::split_pair(text, name, path))
      return usage_error("run", fmt::format("--input '{}' is not NAME=FILE.npy", text));
    const auto t =
        std::find_if(nf.inputs.begin(), nf.inputs.end(), [&](const neff::Tensor& x) { return x.name == name; });
    if (t == nf.inputs.end()) {
      // The program's signature decides, as for an input not given: an input error naming the program.
      std::string names;
      for (const neff::Tensor& x : nf.inputs) names += fmt::format("{}{}", names.empty() ? "" : ", ", x.name);
      report_error(
          fmt::format("{}: --input {}: the program has no input of that name (its inputs: {})", program, name, names));
      return kExitInput;
    }
    io::NpyInput in;
    std::string error;
    if (!io::open_npy(path, in, error)) {
      report_error(error);
      return kExitInput;
    }
    if (const auto bad = neff::check_npy(*t, in.array)) {
      report_error(fmt::format("{}: {}", path, *bad));
      return kExitInput;
    }
    b.mapped.push_back(std::move(in));
    b.inputs.push_back({name, b.mapped.back().data()});
    b.paths.push_back(path);
  }
  return std::nullopt;
}

/// The mapped --expect references by output name; a usage or input error reported.
std::optional<int> open_references(const neff::Neff& nf, const std::string& program,
                                   const std::vector<std::string>& given,
                                   std::vector<std::pair<std::string, io::NpyInput>>& refs,
                                   std::vector<std::string>& paths) {
  for (const std::string& text : given) {
    std::string name, path;
    if (!io::split_pair(text, name, path))
      return usage_error("run", fmt::format("--expect '{}' is not NAME=REF.npy", text));
    if (std::none_of(nf.outputs.begin(), nf.outputs.end(), [&](const neff::Tensor& x) { return x.name == name; })) {
      std::string names;
      for (const neff::Tensor& x : nf.outputs) names += fmt::format("{}{}", names.empty() ? "" : ", ", x.name);
      report_error(fmt::format("{}: --expect {}: the program has no output of that name (its outputs: {})", program,
                               name, names));
      return kExitInput;
    }
    io::NpyInput in;
    std::string error;
    if (!io::open_npy(path, in, error)) {
      report_error(error);
      return kExitInput;
    }
    refs.emplace_back(name, std::move(in));
    paths.push_back(path);
  }
  return std::nullopt;
}

/// The progress line on stderr: words retired of the program's, the percentage and the time left at the rate so
/// far (while the run has retired no more words than its streams hold: past that a loop runs and no end is known),
/// MACs and time, at most twice a second from the first second on. `log` (--progress): from the start, and a last
/// line at the end, so that a log always has one.
class ProgressLine {
 public:
  ProgressLine(const Machine& m, uint64_t total, bool log)
      : m_(m), total_(total), log_(log), next_(log ? start_ : start_ + std::chrono::seconds(1)) {}
  ~ProgressLine() {
    if (shown_) err_write("\n");
  }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  bool operator()(uint64_t retired) {
    if (Clock::now() >= next_) show(retired);
    return true;
  }
  /// The run ended after `retired` words: its last line (with --progress, or when a line is up).
  void finish(uint64_t retired) {
    if (log_ || shown_) show(retired);
  }

 private:
  void show(uint64_t retired) {
    const double s = std::chrono::duration<double>(Clock::now() - start_).count();
    std::string text;
    if (retired <= total_ && total_ != 0 && retired != 0) {
      const double left = s * static_cast<double>(total_ - retired) / static_cast<double>(retired);
      text =
          fmt::format("\r{} of {} words ({:.0f}%), {} MACs, {:.1f} s, about {:.0f} s left", retired, total_,
                      100.0 * static_cast<double>(retired) / static_cast<double>(total_), io::total_macs(m_), s, left);
    } else {
      text = fmt::format("\r{} words retired ({} in the streams: a loop runs), {} MACs, {:.1f} s", retired, total_,
                         io::total_macs(m_), s);
    }
    // Blanks over what a longer line left behind.
    const size_t width = text.size();
    if (width < width_) text.append(width_ - width, ' ');
    width_ = width;
    err_write(text);
    shown_ = true;
    next_ = Clock::now() + std::chrono::milliseconds(500);
  }

  const Machine& m_;
  uint64_t total_;
  bool log_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point next_;
  size_t width_ = 0;
  bool shown_ = false;
};

/// The step-limit status: which bound stopped the run, and per engine left unfinished the loop it was in.
std::string step_limit_text(const neff::Run& run, const NeffRunReport& rep, const io::NeffRunReportContext& ctx,
                            const neff::Neff& nf) {
  const uint64_t words = io::neff_core_words(nf);
  std::string text =
      ctx.default_max_steps
          ? fmt::format(
                "status: step-limit: stopped after {} words, the default bound of this program ({} per word "
                "of its {} word{}, at least {}; --max-steps changes it)\n",
                rep.retired, io::kNeffStepsPerWord, words, words == 1 ? "" : "s", io::kNeffMinSteps)
          : fmt::format("status: step-limit: stopped by --max-steps after {} words\n", rep.retired);
  for (const io::UnfinishedEngine& u : io::unfinished_engines(run, rep)) {
    const size_t at = u.loop ? u.loop->index : u.pc;
    text += fmt::format("  {}#{}: {}\n", run.stream_label(u.core, u.engine), at,
                        io::neff_instruction_text(run, u.core, u.engine, at));
    if (u.loop)
      text += fmt::format("    jumped back to #{} {} time{}: the loop it had not left (it is at #{})\n", u.loop->target,
                          u.loop->count, u.loop->count == 1 ? "" : "s", u.pc);
    else if (u.blocked)
      text += fmt::format("    in no loop; blocked, waiting for {}\n", wait_condition(*u.blocked));
    else
      text += "    in no loop; next to run\n";
  }
  return text;
}

std::string neff_status_text(const io::NeffRun& r, const NeffRunReport& rep, const io::NeffRunReportContext& ctx,
                             const neff::Neff& nf) {
  const neff::Run& run = *r.run;
  switch (rep.status) {
    case NeffRunReport::Status::Ok:
      return fmt::format("status: ok, {} words retired in {:.3f} s\n", rep.retired, rep.seconds);
    case NeffRunReport::Status::StepLimit: return step_limit_text(run, rep, ctx, nf);
    case NeffRunReport::Status::Interrupted: return fmt::format("status: interrupted after {} words\n", rep.retired);
    case NeffRunReport::Status::Fault: {
      const Fault& f = rep.fault;
      return fmt::format("status: fault after {} words retired; the faulting instruction changed nothing\n",
                         rep.retired) +
             fmt::format("fault: {} at {}#{}: {}\n  {}\n", to_string(f.kind), run.stream_label(f.core, f.engine),
                         f.index, f.detail, io::neff_instruction_text(run, f.core, f.engine, f.index));
    }
    case NeffRunReport::Status::Deadlock: break;
  }
  std::string text = fmt::format(
      "status: deadlock after {} words retired: every engine that has not finished is blocked\n", rep.retired);
  // The root waits first: the hang starts there; the others wait behind them.
  for (const io::DeadlockWait& d : io::neff_deadlock(nf, run, rep.blocked)) {
    const BlockedWait& w = d.wait;
    text += fmt::format("  {}#{}{}: {}\n", d.stream, w.index, d.root ? " (root)" : "", d.instruction);
    text += fmt::format("    waits for {}; semaphore {} is {}\n", wait_condition(w), w.id, w.value);
    if (d.could_raise.empty()) text += "    no word of the program raises it\n";
    for (const io::DeadlockRaiser& by : d.could_raise) text += fmt::format("    could be raised by {}\n", by.text);
  }
  return text;
}

std::string cores_text(const neff::Run& run, const NeffRunReport& rep) {
  const Machine& m = run.machine();
  std::string text;
  for (size_t c = 0; c < m.num_cores(); ++c) {
    text += fmt::format("core {} ({}): {} MACs, {} DMA bytes in {} transfers\n", c, run.subgraph(c),
                        m.core(c).state().macs, run.dram(c).dma_bytes, run.dram(c).dma_transfers);
    for (unsigned e = 0; e < kEnginesPerCore; ++e) {
      const auto id = static_cast<EngineId>(e);
      const Sequencer& q = m.core(c).engine(id);
      text += fmt::format("  {:<5} {} of {} words retired\n", to_string(id), q.retired(), q.size());
    }
    std::string sems;
    for (unsigned i = 0; i < kNumSemaphores; ++i)
      if (m.core(c).state().sems[i] != 0) sems += fmt::format(" $S[{}]={}", i, m.core(c).state().sems[i]);
    text += fmt::format("  semaphores:{}\n", sems.empty() ? " (all zero)" : sems);
  }
  std::string ops;
  for (const auto& [name, n] : rep.opcodes) ops += fmt::format("{}{} {}", ops.empty() ? "" : ", ", name, n);
  text += fmt::format("opcodes: {}\n", ops.empty() ? "(none)" : ops);
  const uint64_t macs = io::total_macs(m);
  const double rate = rep.seconds > 0 ? static_cast<double>(macs) / rep.seconds : 0.0;
  text += fmt::format("MACs: {} in {:.3f} s ({:.3g} MAC/s)\n", macs, rep.seconds, rate);
  return text;
}

std::string findings_text(const io::NeffRun& r, const NeffRunReport& rep, const io::NeffRunReportContext& ctx) {
  const neff::Run& run = *r.run;
  std::string text;
  const auto dram_uninit = run.uninitialized_dram_reads();
  if (rep.uninit.empty() && dram_uninit.empty()) {
    text += "uninitialized reads: none\n";
  } else {
    text += "uninitialized reads (read as 0):\n";
    for (const auto& [key, n] : rep.uninit)
      text += fmt::format("  {}: {} on-chip read{}\n", run.stream_label(key.first, key.second), n, n == 1 ? "" : "s");
    for (const auto& [key, n] : dram_uninit)
      text += fmt::format("  {}: {} byte{} of {}\n", key.first, n, n == 1 ? "" : "s", key.second);
  }
  for (const std::string& v : run.reservation_violations())
    text += fmt::format("runtime SBUF reservation violated: {}\n", v);
  for (const std::string& p : ctx.written) text += fmt::format("wrote {}\n", p);
  for (const io::OutputComparison& c : ctx.comparisons) {
    text += fmt::format("expect {} ({}{}): {} of {} elements differ", c.name, c.reference,
                        c.rtol != 0 || c.atol != 0 ? fmt::format(", rtol {}, atol {}", c.rtol, c.atol) : "",
                        c.differing, c.elements);
    if (c.differing != 0)
      text += fmt::format(", max abs diff {}, first at {}", c.max_abs_diff, fmt::join(c.first, " "));
    text += "\n";
  }
  if (r.races) {
    text += fmt::format("races: {} unordered conflicting access{} (2-byte locations) in {} pair{} of words\n",
                        r.races->count(), r.races->count() == 1 ? "" : "es", r.races->word_pairs(),
                        r.races->word_pairs() == 1 ? "" : "s");
    if (const std::string gap = r.races->incomplete(); !gap.empty())
      text += fmt::format("races: incomplete: {}\n", gap);
    for (const neff::Race& race : r.races->races())
      text +=
          fmt::format("  {}\n    and {}\n    at {}: no happens-before order between them\n",
                      io::race_access_text(run, race.earlier), io::race_access_text(run, race.later), race.location);
  }
  return text;
}

/// The outputs compared (--expect), then written (--out), into the report's context; an error reported. Every file
/// --rtol and --atol as numbers (0 or more, finite); the usage problem otherwise.
std::optional<std::string> parse_tolerance(const RunCliOptions& o, std::pair<double, double>& tolerance) {
  for (auto [text, value, flag] :
       {std::tuple{&o.rtol, &tolerance.first, "--rtol"}, std::tuple{&o.atol, &tolerance.second, "--atol"}}) {
    char* end = nullptr;
    *value = std::strtod(text->c_str(), &end);
    if (text->empty() || end != text->c_str() + text->size() || !std::isfinite(*value) || *value < 0)
      return fmt::format("{} '{}' is not a number 0 or more", flag, *text);
  }
  return std::nullopt;
}

/// goes through the output-file policy of `out`: never over an input, a reference, the NEFF or the trace.
std::optional<int> compare_and_write(const RunCliOptions& o, const neff::Neff& nf, const neff::Run& run,
                                     const std::vector<std::pair<std::string, io::NpyInput>>& refs,
                                     const io::OutputOptions& out, io::NeffRunReportContext& ctx) {
  // Each reference by the output it checks, as --expect named it (the label of its result line).
  std::map<std::string, std::string> paths;
  for (const std::string& text : o.expects) {
    std::string name, path;
    if (io::split_pair(text, name, path)) paths.emplace(name, path);
  }
  std::pair<double, double> tolerance{0, 0};
  if (const auto problem = parse_tolerance(o, tolerance)) return usage_error("run", *problem);
  for (const auto& [name, ref] : refs) {
    const std::string& wanted = name;  // clang 14 cannot capture a structured binding
    const auto t =
        std::find_if(nf.outputs.begin(), nf.outputs.end(), [&](const neff::Tensor& x) { return x.name == wanted; });
    auto c = io::compare_output(*t, run.output(name), ref.array, ref.data(), tolerance.first, tolerance.second);
    if (!c) {
      report_error(fmt::format("{}: {}", paths.at(name), c.error().message));  // the reference names the file
      return kExitInput;
    }
    c->reference = paths.at(name);
    ctx.comparisons.push_back(std::move(*c));
  }
  if (!o.out_dir.empty()) {
    auto written = io::write_neff_outputs(nf, run, o.out_dir, out);
    if (!written) {
      report_error(written.error());
      return kExitInput;
    }
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
  std::pair<double, double> tolerance;
  if (const auto problem = parse_tolerance(o, tolerance)) return usage_error("run", *problem);
  if (from_stdin == nullptr) {
    auto read = neff::read_file(o.program);
    if (!read) {
      // Worded as every command that reads a NEFF words it: "FILE: what (check: NAME)".
      report_error(fmt::format("{} (check: {})", read.error().to_string(), neff::to_string(read.error().code)));
      return kExitInput;
    }
    nf.emplace(std::move(*read));
  }
  const neff::Neff& program = from_stdin != nullptr ? *from_stdin : *nf;
  // Without --max-steps a NEFF runs under a bound scaled to its words: a loop that never ends is stopped.
  ro.max_steps = o.max_steps_given ? l.max_steps : io::default_neff_max_steps(program);
  return std::nullopt;
}

}  // namespace

int run_neff(const RunCliOptions& o, const RunLimits& l, const neff::Neff* from_stdin) {
  io::NeffRunOptions ro;
  std::optional<neff::Neff> read;
  if (const auto rc = prepare_neff(o, l, ro, from_stdin, read)) return *rc;
  const neff::Neff& nf = from_stdin != nullptr ? *from_stdin : *read;
  BoundInputs bound;  // mapped, checked against the signature
  if (from_stdin == nullptr) bound.paths.push_back(o.program);
  if (const auto rc = bind_inputs(nf, io::input_label(o.program), o.inputs, bound)) return *rc;
  std::vector<std::pair<std::string, io::NpyInput>> refs;
  if (const auto rc = open_references(nf, io::input_label(o.program), o.expects, refs, bound.paths)) return *rc;
  // The outputs are checked before the run: none is an input, a reference, the NEFF, or the trace.
  const std::vector<std::string> out_paths =
      o.out_dir.empty() ? std::vector<std::string>{} : io::neff_output_paths(nf, o.out_dir);
  std::vector<std::string> trace_path;
  for (const std::string* p : {&o.trace, &o.timeline})
    if (!p->empty()) trace_path.push_back(*p);
  const io::OutputOptions out_options{bound.paths, false, trace_path};
  if (!o.out_dir.empty()) {
    if (const auto ok = io::check_neff_outputs(nf, o.out_dir, out_options); !ok) {
      report_error(ok.error());
      return kExitInput;
    }
  }
  auto prepared = io::prepare_neff_run(nf, bound.inputs, ro);
  if (!prepared) {
    report_error(fmt::format("{}: {}", io::input_label(o.program), prepared.error().message));
    return kExitInput;
  }
  io::NeffRun& r = *prepared;
  std::unique_ptr<Sink> trace;
  if (!o.trace.empty()) {
    auto opened = Sink::open(o.trace, io::OutputOptions{bound.paths, false, out_paths});
    if (!opened) {
      report_error(opened.error());
      return kExitInput;
    }
    trace = std::move(*opened);
  }
  std::unique_ptr<Sink> timeline_sink;
  std::optional<io::Timeline> timeline;
  if (!o.timeline.empty()) {
    std::vector<std::string> others = out_paths;
    if (!o.trace.empty()) others.push_back(o.trace);
    auto opened = Sink::open(o.timeline, io::OutputOptions{bound.paths, false, others});
    if (!opened) {
      report_error(opened.error());
      return kExitInput;
    }
    timeline_sink = std::move(*opened);
    timeline.emplace(nf, *r.run);
    ro.on_step = [&timeline](const StepResult& step) { timeline->observe(step); };
  }
  std::optional<ProgressLine> progress;
  if (!o.quiet && !o.threads && (o.progress || ::isatty(STDERR_FILENO) != 0)) {
    progress.emplace(r.run->machine(), io::neff_core_words(nf), o.progress);
    ro.on_progress = [&progress](uint64_t retired) { return (*progress)(retired); };
    // A few heavy words (a large matmul each) take seconds: the clock is looked at every 64 words, not 4096.
    ro.progress_words = 64;
  }
  const NeffRunReport rep = io::execute_neff_run(r, ro, trace.get());
  if (progress) progress->finish(rep.retired);
  progress.reset();
  io::NeffRunReportContext ctx;
  ctx.program = io::input_label(o.program);
  ctx.races = r.races.get();
  ctx.max_steps = ro.max_steps;
  ctx.default_max_steps = !o.max_steps_given;
  if (const auto rc = compare_and_write(o, nf, *r.run, refs, out_options, ctx)) return *rc;
  if (o.json) {
    out("{}\n", io::dump_json(io::neff_run_json(nf, *r.run, rep, ctx)));
  } else {
    const Machine& m = r.run->machine();
    out_write(fmt::format("program: {} ({} core{}, target {}, generation {})\n", io::input_label(o.program),
                          m.num_cores(), m.num_cores() == 1 ? "" : "s", nf.target, to_string(r.run->gen())) +
              neff_status_text(r, rep, ctx, nf) + cores_text(*r.run, rep) + findings_text(r, rep, ctx));
  }
  if (trace != nullptr && finish_sink(*trace) != kExitOk) return kExitInput;
  if (timeline_sink != nullptr) {
    timeline->blocked(rep.blocked);
    timeline_sink->write(timeline->document().dump() + '\n');
    if (finish_sink(*timeline_sink) != kExitOk) return kExitInput;
  }
  bool all_equal = true;
  for (const io::OutputComparison& c : ctx.comparisons) all_equal = all_equal && c.differing == 0;
  const bool race_free = (!r.races || r.races->count() == 0) && r.run->reservation_violations().empty();
  return rep.status == NeffRunReport::Status::Ok && all_equal && race_free ? kExitOk : kExitNegative;
}

}  // namespace tpbisa::cli
