// Running a NEFF to its end and its run report: the run over the machine's loop with its trace and race check, the
// deadlock and race wording, and the JSON document of `tpbisa run PROG.neff --json`, shared by the command line and
// the Python module.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tpbisa/expected.hpp"
#include "tpbisa/io/arguments.hpp"
#include "tpbisa/io/compare.hpp"
#include "tpbisa/io/output_file.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/neff_run.hpp"
#include "tpbisa/trace.hpp"

namespace tpbisa::io {

/// The last word of an engine that jumped back (to itself or an earlier word), and how often its engine jumped back:
/// the loop a run stopped by its step bound had not left.
struct BackwardJump {
  size_t index = 0;    ///< the word that jumped
  size_t target = 0;   ///< where it jumped to
  uint64_t count = 0;  ///< backward jumps of the engine in the run
};

/// What a whole-NEFF run did.
struct NeffRunReport {
  enum class Status { Ok, Fault, StepLimit, Deadlock, Interrupted } status = Status::Ok;
  uint64_t retired = 0;
  Fault fault{};
  std::vector<BlockedWait> blocked;                                      ///< the blocked waits of a deadlock
  std::map<std::string, uint64_t> opcodes;                               ///< retired words per mnemonic
  std::map<std::pair<unsigned, EngineId>, uint64_t> uninit;              ///< uninitialised reads per core and engine
  std::map<std::pair<unsigned, EngineId>, BackwardJump> backward_jumps;  ///< per core and engine that jumped back
  double seconds = 0;
};

/// The step bound of a NEFF run when none is given (`--max-steps`, Neff.run's `max_steps`): 1,000 retired words per
/// word of its cores' streams, at least 1,000,000. A program without a backward branch retires each word once, so
/// only a loop runs into it; a loop that never ends is stopped in bounded time (and a trace in bounded size).
inline constexpr uint64_t kNeffStepsPerWord = 1000;
inline constexpr uint64_t kNeffMinSteps = 1000000;
uint64_t default_neff_max_steps(const neff::Neff& nf);
/// The words of the streams of every core of `nf` (a stream that two subgraphs share counts for each).
uint64_t neff_core_words(const neff::Neff& nf);

/// An engine that had not finished when a run stopped at its step bound: where it is, whether it is blocked, and
/// the loop it is in (its last backward jump, when the engine is between its target and the word that jumped).
struct UnfinishedEngine {
  unsigned core = 0;
  EngineId engine = EngineId::Pe;
  size_t pc = 0;
  std::optional<BlockedWait> blocked;
  std::optional<BackwardJump> loop;
};
/// The engines a run left unfinished, in core and engine order.
std::vector<UnfinishedEngine> unfinished_engines(const neff::Run& run, const NeffRunReport& rep);

/// "ok", "fault", "step-limit", "deadlock", "interrupted".
std::string_view to_string(NeffRunReport::Status s);

/// A NEFF run's trace record of `step` (docs/trace.md: `core` and `engine` on every record, `dram` on a DMA's),
/// appended to `out` without a newline: what `tpbisa run --trace` writes and Python's `on_step` receives.
void append_neff_trace_line(std::string& out, const StepResult& step, const neff::Run& run,
                            TraceFormat format = TraceFormat::Json);

/// How to run a NEFF (`tpbisa run PROG.neff`, Python's Neff.run).
struct NeffRunOptions {
  /// Bounds, validation switches, schedule; the effect recording is set from `trace` and `check_races`.
  MachineOptions machine;
  uint64_t max_steps = UINT64_MAX;  ///< the command line and Python use default_neff_max_steps() unless told
  bool check_races = false;         ///< observe every step with a neff::RaceChecker (every effect recorded, uncapped)
  /// Every core on its own thread (Machine::run_core; one core runs on the calling thread); not with a trace or
  /// check_races.
  bool threads = false;
  /// Without `threads`: the most threads the cores run on (1, the default: one order of steps). With more, and no
  /// trace, race check or random schedule, the cores run at once, at most this many at a time, and that result is
  /// kept only when one order of steps gives the same: every core ran to its end within max_steps and no core wrote
  /// DRAM bytes that another core read or wrote. Otherwise the program runs again from its start in one order
  /// (NeffRun::reran), so the report, the outputs and every count are those of max_threads 1.
  unsigned max_threads = 1;
  bool trace = false;        ///< a trace will be written (effects recorded, at most machine.max_recorded_effects)
  TraceFilter trace_filter;  ///< the steps the trace keeps
  TraceFormat trace_format = TraceFormat::Json;  ///< its records (--trace-format; docs/trace.md)
  /// On the calling thread, every `progress_words` retired words (with threads, about every 0.1 s) with the words
  /// retired so far; false stops the run (status Interrupted).
  std::function<bool(uint64_t retired)> on_progress;
  uint64_t progress_words = kProgressWords;
  /// Every step of a serial run, retired or not, after the machine made it (a Timeline's observe); not with threads.
  std::function<void(const StepResult&)> on_step;
  /// The program's members parsed once (neff::RunBasis::make of the NEFF run), or null: parsed for this run.
  std::shared_ptr<const neff::RunBasis> basis;
};

/// A NEFF loaded on the machine, ready to run: the run and, when asked, its race check.
struct NeffRun {
  std::unique_ptr<neff::Run> run;
  std::unique_ptr<neff::RaceChecker> races;
  /// What it was built from (prepare_neff_run; both outlive the run), to build it again for a second run in one order.
  const neff::Neff* neff = nullptr;
  std::vector<neff::RunInput> inputs;
  bool reran = false;  ///< the cores ran at once, and then again in one order (NeffRunOptions::max_threads)
};

/// Builds the machine for `nf` with `inputs` bound by name (neff::Run::create, whose message is the error's).
Expected<NeffRun> prepare_neff_run(const neff::Neff& nf, std::span<const neff::RunInput> inputs,
                                   const NeffRunOptions& options);

/// Runs it in its schedule's order (Machine::run; with options.threads, Machine::run_core per core; with
/// options.max_threads > 1, the cores at once when that gives what one order gives) until every engine finished,
/// one faulted, every engine left is blocked (a deadlock), max_steps words retired, or on_progress said stop.
/// `trace` (may be null) receives one line per retired or faulting step the filter keeps. `r.run` may be replaced
/// (a second run in one order).
NeffRunReport execute_neff_run(NeffRun& r, const NeffRunOptions& options, OutputFile* trace);

/// The multiply-adds every core's Matmuls did.
uint64_t total_macs(const Machine& m);

/// The files of `--out DIR`: DIR/NAME.npy per output of `nf`, in signature order.
std::vector<std::string> neff_output_paths(const neff::Neff& nf, const std::string& dir);
/// Checks, before a run, that every output of `nf` can be written as DIR/NAME.npy: its dtype has a .npy form and the
/// file passes the output-file policy (OutputFile::check: not one of `options.inputs` — the NEFF, the .npy inputs,
/// the references —, not one of `options.outputs`, not a directory or a link to nothing).
Expected<void> check_neff_outputs(const neff::Neff& nf, const std::string& dir, const OutputOptions& options);
/// Writes every output of `nf` as DIR/NAME.npy (its signature's dtype and shape; the folder is made when missing),
/// each file atomically under the output-file policy with `options` (the old file stays whole when a write fails);
/// the paths written, or the first error ("--out DIR: ...", "output NAME: dtype D has no .npy form", the file's,
/// with the system's reason).
Expected<std::vector<std::string>> write_neff_outputs(const neff::Neff& nf, const neff::Run& run,
                                                      const std::string& dir, const OutputOptions& options);

/// The disassembled word `index` of an engine's stream, "(end of stream)" past its end.
std::string neff_instruction_text(const neff::Run& run, unsigned core, EngineId e, size_t index);

/// A word that could still raise the semaphore a blocked wait waits on, and where its engine is.
struct DeadlockRaiser {
  std::string stream;  ///< "sg00/Pool"
  size_t index = 0;
  std::string name;    ///< its mnemonic
  std::string update;  ///< "$S[25]+=16@dma-complete"
  /// "retired", "blocked" (its engine is blocked at it), "next" (its engine is at it, not blocked), "not-reached"
  /// (its engine is before it, `engine_at`), "not-found" (no engine runs its stream).
  std::string state;
  size_t engine_at = 0;  ///< where its engine is
  bool engine_finished = false;
  std::string text;  ///< the line the text report prints: "sg00/Pool#3 PseudoDmaDirect2d ($S[25]+=15@...): retired"
};
/// One wait of a deadlock, in the one schema of both kinds of run (`deadlock_json`).
struct DeadlockWait {
  BlockedWait wait;
  std::string stream;       ///< "sg00/PE", or the program of a single-stream run
  std::string instruction;  ///< the blocked word disassembled
  /// A root wait: no word that could raise its semaphore is still to come on an engine that is itself blocked (every
  /// raiser retired, or none exists), so it is where the hang starts; the others wait behind a root.
  bool root = true;
  std::vector<DeadlockRaiser> could_raise;
};
/// The waits of a NEFF run's deadlock with the words that could raise each one (the static picture), roots first
/// (then in engine order).
std::vector<DeadlockWait> neff_deadlock(const neff::Neff& nf, const neff::Run& run, std::span<const BlockedWait> w);
/// The same for a single-stream run: the raisers are the words of the stream whose EVENTS update the semaphore.
std::vector<DeadlockWait> stream_deadlock(const Machine& m, std::span<const BlockedWait> waits,
                                          const std::string& program);
/// One deadlock wait as JSON: the blocked word (`core`, `engine`, `stream`, `index`, `offset`, `opcode`, `name`,
/// `instruction`), its wait (`semaphore` or `event`, `value`, `condition`, and for a semaphore `comparand` and
/// `register`), `root`, and `could_raise` (`stream`, `index`, `name`, `update`, `state`, `engine_at`, `text`).
nlohmann::ordered_json deadlock_json(std::span<const DeadlockWait> waits);

/// The words that could still raise the semaphore a blocked wait waits on, from the static picture, with their
/// state: "sg00/Pool#12 Nop ($S[24]+=1): not reached: its engine is at #3".
std::vector<std::string> deadlock_raisers(const neff::Run& run, const std::vector<neff::SubgraphSems>& picture,
                                          const BlockedWait& w);

/// One access of a race: "sg00/PE#4 Matmul ... (write)".
std::string race_access_text(const neff::Run& run, const neff::RaceAccess& a);

/// What the JSON report names besides the run itself.
struct NeffRunReportContext {
  std::string program;                        ///< the NEFF's path as given
  std::vector<std::string> written;           ///< output files written
  std::vector<OutputComparison> comparisons;  ///< --expect results
  const neff::RaceChecker* races = nullptr;   ///< the race check, when it ran
  uint64_t max_steps = UINT64_MAX;            ///< the step bound of the run
  bool default_max_steps = false;             ///< it is default_neff_max_steps(), not one given
};

/// The document of `tpbisa run PROG.neff --json` (docs/cli.md): status, program, generation, retired, cores,
/// opcodes, macs, seconds, macs_per_second, outputs, reservation_violations, uninitialized_dram_reads, fp8,
/// fault?, deadlock?, step_limit?, expect, races?. `nf` is the NEFF `run` was made from.
nlohmann::ordered_json neff_run_json(const neff::Neff& nf, const neff::Run& run, const NeffRunReport& rep,
                                     const NeffRunReportContext& ctx);

}  // namespace tpbisa::io
