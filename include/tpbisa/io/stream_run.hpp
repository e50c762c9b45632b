// A single-stream run as `tpbisa run PROGRAM` makes it: a machine over the program's words on one engine, the
// activation-function sets of a NEFF attached, the initial state loaded, and its JSON-Lines trace written per step.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "tpbisa/expected.hpp"
#include "tpbisa/io/output_file.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/trace.hpp"

namespace tpbisa::io {

/// What the machine starts from besides its program.
struct StreamRunSetup {
  MachineOptions machine;  ///< machine.engine runs the program
  std::string act_tables;  ///< a NEFF whose activation-function sets the table loads select from ("" none)
  std::string init;        ///< a state file (registers, semaphores, events, memory; "" none)
};

class StreamRun {
 public:
  /// The machine over `program`, which it views (the bytes must outlive it); the error of a NEFF or state file that
  /// cannot be read.
  static Expected<std::unique_ptr<StreamRun>> make(Generation gen, std::span<const uint8_t> program,
                                                   const StreamRunSetup& setup);

  Machine& machine() { return *machine_; }
  /// Runs at most `max_steps` steps, each written to `trace` (when given) as a record of `format`.
  RunSummary run(uint64_t max_steps, OutputFile* trace, TraceFormat format = TraceFormat::Json);

 private:
  std::unique_ptr<Machine> machine_;
  std::shared_ptr<const void> act_sets_;  ///< the activation-set catalog, alive while the machine runs
};

}  // namespace tpbisa::io
