// `tpbisa run PROG.neff`: the whole compiled program on the machine, inputs and outputs as .npy files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common.hpp"

namespace tpbisa::cli {

struct NeffRunCliOptions {
  std::string program;
  std::vector<std::string> inputs;   ///< NAME=FILE.npy
  std::string out;                   ///< --out DIR
  std::vector<std::string> expects;  ///< NAME=REF.npy
  std::string schedule = "default";  ///< default | reverse | random:SEED
  bool json = false;
  bool quiet = false;
  bool check_races = false;
  bool threads = false;
  std::string trace;
  std::vector<std::string> trace_filters;  ///< engine=PE, opcode=Matmul (or 0x02), core=0
  uint64_t max_steps = 0;
  uint64_t max_memory = 0;
  uint64_t max_elements = 0;
  size_t trace_max_effects = 0;
  ValidateOptions validate;
};

/// Runs a NEFF; returns the exit code (0 ok, 1 fault, deadlock or step limit, 2 usage, 3 input/output error).
int run_neff(const NeffRunCliOptions& o);

}  // namespace tpbisa::cli
