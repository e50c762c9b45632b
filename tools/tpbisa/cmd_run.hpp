// `tpbisa run`'s options, shared by the word stream's run (cmd_run.cpp) and the NEFF's (cmd_run_neff.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "tpbisa/io/dump.hpp"
#include "tpbisa/machine.hpp"

namespace tpbisa::cli {

constexpr std::string_view kDefaultMaxSteps = "1000000";
constexpr std::string_view kDefaultMaxMemory = "1GiB";
constexpr std::string_view kDefaultMaxElements = "4194304";

struct RunCliOptions {
  std::optional<Generation> gen;
  std::string program;
  std::vector<std::string> hex;
  std::string init;
  std::string vars;
  std::vector<std::string> dumps;
  bool json = false;
  std::string trace;
  std::string trace_format{"json"};  ///< json or compact (checked by the option)
  std::string max_steps{kDefaultMaxSteps};
  std::string max_memory{kDefaultMaxMemory};
  std::string max_elements{kDefaultMaxElements};
  std::string max_words = std::to_string(kDefaultMaxWords);
  std::string max_dump_elements = std::to_string(io::kMaxDumpElements);
  bool firmware_stubs = false;
  std::string act_tables;          ///< a NEFF whose activation-function sets the table loads select from
  bool act_builtin_exact = false;  ///< PROJ-CONV-A7
  std::string engine{"dve"};
  bool engine_given = false;  ///< --engine was given (a NEFF refuses it)
  std::string trace_max_effects{std::to_string(kDefaultMaxRecordedEffects)};
  ValidateOptions options;
  // A NEFF program only:
  std::vector<std::string> inputs;
  std::string out_dir;
  std::vector<std::string> expects;
  std::string rtol{"0"}, atol{"0"};
  std::string schedule{"default"};
  bool quiet = false;
  bool progress = false;  ///< --progress: the progress line also when stderr is not a terminal
  bool check_races = false;
  bool threads = false;
  std::string jobs;         ///< --jobs as given (read by number_option)
  bool jobs_given = false;  ///< else the CPUs this process may run on
  std::vector<std::string> trace_filters;
  std::string timeline;
  bool max_steps_given = false;
};

/// The limits and views of a run, read from their options.
struct RunLimits {
  uint64_t max_steps = 0, max_memory = 0, max_elements = 0, max_words = 0;
  size_t trace_max_effects = 0;
  EngineId engine = EngineId::Dve;
  std::vector<io::DumpSpec> dumps;
};

/// `tpbisa run PROG.neff`: binds the .npy inputs to the signature, runs the whole program, writes and compares the
/// outputs, prints the report; the exit code (0 ok, 1 fault, deadlock, step limit, race or difference, 2 usage, 3
/// input or output error).
/// `from_stdin` is the NEFF read from stdin when PROGRAM is "-" (null: read PROGRAM).
int run_neff(const RunCliOptions& o, const RunLimits& l, const neff::Neff* from_stdin = nullptr);

}  // namespace tpbisa::cli
