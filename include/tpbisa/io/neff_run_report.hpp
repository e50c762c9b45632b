// Running a NEFF to its end and its run report: the run over the machine's loop with its trace and race check, the
// deadlock and race wording, and the JSON document of `tpbisa run PROG.neff --json`, shared by the command line and
// the Python module.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
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

namespace tpbisa::io {

/// What a whole-NEFF run did.
struct NeffRunReport {
  enum class Status { Ok, Fault, StepLimit, Deadlock, Interrupted } status = Status::Ok;
  uint64_t retired = 0;
  Fault fault{};
  std::vector<BlockedWait> blocked;                          ///< the blocked waits of a deadlock
  std::map<std::string, uint64_t> opcodes;                   ///< retired words per mnemonic
  std::map<std::pair<unsigned, EngineId>, uint64_t> uninit;  ///< uninitialised reads per core and engine
  double seconds = 0;
};

/// "ok", "fault", "step-limit", "deadlock", "interrupted".
std::string_view to_string(NeffRunReport::Status s);

/// How to run a NEFF (`tpbisa run PROG.neff`, Python's Neff.run).
struct NeffRunOptions {
  /// Bounds, validation switches, schedule; the effect recording is set from `trace` and `check_races`.
  MachineOptions machine;
  uint64_t max_steps = UINT64_MAX;
  bool check_races = false;  ///< observe every step with a neff::RaceChecker (every effect recorded, uncapped)
  bool threads = false;      ///< every core on its own thread (Machine::run_core); not with a trace or check_races
  bool trace = false;        ///< a trace will be written (effects recorded, at most machine.max_recorded_effects)
  TraceFilter trace_filter;  ///< the steps the trace keeps
  /// On the calling thread, every `progress_words` retired words (with threads, about every 0.1 s) with the words
  /// retired so far; false stops the run (status Interrupted).
  std::function<bool(uint64_t retired)> on_progress;
  uint64_t progress_words = kProgressWords;
};

/// A NEFF loaded on the machine, ready to run: the run and, when asked, its race check.
struct NeffRun {
  std::unique_ptr<neff::Run> run;
  std::unique_ptr<neff::RaceChecker> races;
};

/// Builds the machine for `nf` with `inputs` bound by name (neff::Run::create, whose message is the error's).
Expected<NeffRun> prepare_neff_run(const neff::Neff& nf, std::span<const neff::RunInput> inputs,
                                   const NeffRunOptions& options);

/// Runs it in its schedule's order (Machine::run; with options.threads, Machine::run_core per core) until every
/// engine finished, one faulted, every engine left is blocked (a deadlock), max_steps words retired, or
/// on_progress said stop. `trace` (may be null) receives one line per retired or faulting step the filter keeps.
NeffRunReport execute_neff_run(NeffRun& r, const NeffRunOptions& options, OutputFile* trace);

/// The multiply-adds every core's Matmuls did.
uint64_t total_macs(const Machine& m);

/// Writes every output of `nf` as DIR/NAME.npy (its signature's dtype and shape; the folder is made when missing);
/// the paths written, or the first error ("--out DIR: ...", "output NAME: dtype D has no .npy form", the file's).
Expected<std::vector<std::string>> write_neff_outputs(const neff::Neff& nf, const neff::Run& run,
                                                      const std::string& dir);

/// The disassembled word `index` of an engine's stream, "(end of stream)" past its end.
std::string neff_instruction_text(const neff::Run& run, unsigned core, EngineId e, size_t index);

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
};

/// The document of `tpbisa run PROG.neff --json` (docs/cli.md): status, program, generation, retired, cores,
/// opcodes, macs, seconds, macs_per_second, outputs, reservation_violations, uninitialized_dram_reads, fp8,
/// fault?, deadlock?, expect, races?. `nf` is the NEFF `run` was made from.
nlohmann::ordered_json neff_run_json(const neff::Neff& nf, const neff::Run& run, const NeffRunReport& rep,
                                     const NeffRunReportContext& ctx);

}  // namespace tpbisa::io
