// The JSON-Lines execution trace: one object per retired or faulting instruction (docs/trace.md).
#pragma once

#include <string>
#include <vector>

#include "tpbisa/machine.hpp"

namespace tpbisa {

/// Version of the trace record layout; bumped on any incompatible change.
inline constexpr int kTraceSchemaVersion = 1;

struct TraceStyle {
  /// Add `core` and `engine` to every record (a run of more than one engine).
  bool engine = false;
};

/// One trace record (a single line of JSON, no trailing newline) for a step; `inst` is the stepped instruction and
/// `options` the validation switches the machine ran with (the fault object is tpbisa::io::fault_json).
std::string trace_line(const StepResult& step, const Instruction& inst, const ValidateOptions& options,
                       const TraceStyle& style = {});
/// The same record appended to `out`, written straight from the step's effect lists (no second copy).
void append_trace_line(std::string& out, const StepResult& step, const Instruction& inst,
                       const ValidateOptions& options, const TraceStyle& style = {});

/// The instruction a retired or faulting step of `m` executed (its core, engine and index).
Instruction stepped_instruction(const Machine& m, const StepResult& step);
/// The record of a retired or faulting step of `m`, its instruction and options taken from the machine.
std::string trace_line(const StepResult& step, const Machine& m, const TraceStyle& style = {});
void append_trace_line(std::string& out, const StepResult& step, const Machine& m, const TraceStyle& style = {});

/// A blocked wait as a one-line JSON object: core, engine, index, offset, opcode, name, semaphore or event,
/// value, condition (and comparand, register for semaphore waits). `tpbisa run --json` lists them on deadlock.
std::string blocked_wait_json(const BlockedWait& wait);

}  // namespace tpbisa
