// Running a loaded NEFF to its end and its run report: the loop, the deadlock and race wording, and the JSON
// document of `tpbisa run PROG.neff --json`, shared by the command line and the Python module.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tpbisa/machine.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/neff_run.hpp"

namespace tpbisa::io {

/// What a whole-NEFF run did.
struct NeffRunReport {
  enum class Status { Ok, Fault, StepLimit, Deadlock } status = Status::Ok;
  uint64_t retired = 0;
  Fault fault{};
  std::vector<BlockedWait> blocked;                          ///< the blocked waits of a deadlock
  std::map<std::string, uint64_t> opcodes;                   ///< retired words per mnemonic
  std::map<std::pair<unsigned, EngineId>, uint64_t> uninit;  ///< uninitialised reads per core and engine
  double seconds = 0;
};

/// "ok", "fault", "step-limit", "deadlock".
std::string_view to_string(NeffRunReport::Status s);

/// Observers of execute_neff_run (both optional).
struct NeffRunHooks {
  /// Every retired or faulted step, before it is counted (the command line's --trace).
  std::function<void(const StepResult&)> on_step;
  /// Every 4096 retired words, with the count so far (the command line's progress line).
  std::function<void(uint64_t retired)> on_progress;
};

/// Steps the machine of `run` in its schedule's order until every engine finished, one faulted, every engine
/// left is blocked (a deadlock), or `max_steps` words retired. `races` (may be null) observes every retired step.
NeffRunReport execute_neff_run(neff::Run& run, uint64_t max_steps, neff::RaceChecker* races,
                               const NeffRunHooks& hooks = {});

/// The same with every core on its own thread (Machine::run_core); cores share only DRAM, so the outputs are those
/// of one thread. The report is merged from the per-core results.
NeffRunReport execute_neff_run_threads(neff::Run& run, uint64_t max_steps);

/// The disassembled word `index` of an engine's stream, "(end of stream)" past its end.
std::string neff_instruction_text(const neff::Run& run, unsigned core, EngineId e, size_t index);

/// The words that could still raise the semaphore a blocked wait waits on, from the static picture, with their
/// state: "sg00/Pool#12 Nop ($S[24]+=1): not reached: its engine is at #3".
std::vector<std::string> deadlock_raisers(const neff::Run& run, const std::vector<neff::SubgraphSems>& picture,
                                          const BlockedWait& w);

/// One access of a race: "sg00/PE#4 Matmul ... (write)".
std::string race_access_text(const neff::Run& run, const neff::RaceAccess& a);

/// An output compared with a reference (`tpbisa run --expect`).
struct OutputComparison {
  std::string name, reference;
  uint64_t elements = 0, differing = 0;
  double max_abs_diff = 0;
  std::vector<std::string> first;  ///< the first differing indices (at most 5)
};

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
