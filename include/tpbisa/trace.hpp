// The execution trace: one record per retired or faulting instruction, as JSON Lines or compact lines (docs/trace.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tpbisa/machine.hpp"

namespace tpbisa {

namespace neff {
class Run;
}

/// Version of the trace record layout; bumped on any incompatible change.
inline constexpr int kTraceSchemaVersion = 1;
/// Version of the compact record layout (its `v`); bumped on any incompatible change.
inline constexpr int kCompactTraceVersion = 1;

/// The record layouts (`tpbisa run --trace-format`): `json`, the keyed record; `compact`, one short line per step with
/// short keys and positional entries (docs/trace.md, "Compact records").
enum class TraceFormat { Json, Compact };
std::string_view to_string(TraceFormat f);
/// "json" or "compact"; nullopt for anything else.
std::optional<TraceFormat> parse_trace_format(std::string_view text);

struct TraceStyle {
  /// Add `core` and `engine` to every record (a run of more than one engine).
  bool engine = false;
  TraceFormat format = TraceFormat::Json;
  /// A NEFF run: its steps' DRAM ranges are written (`dram`), each named by the core's variable that holds it.
  const neff::Run* run = nullptr;
};

/// One trace record (a single line, no trailing newline) for a step; `inst` is the stepped instruction and
/// `options` the validation switches the machine ran with (the fault object is tpbisa::io::fault_json).
std::string trace_line(const StepResult& step, const Instruction& inst, const ValidateOptions& options,
                       const TraceStyle& style = {});
/// The same record appended to `out`, written from the step's effect lists.
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
