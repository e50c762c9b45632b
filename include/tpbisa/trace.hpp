// The JSON-Lines execution trace: one object per retired or faulting instruction (docs/trace.md).
#pragma once

#include <string>

#include "tpbisa/machine.hpp"

namespace tpbisa {

/// Version of the trace record layout; bumped on any incompatible change.
inline constexpr int kTraceSchemaVersion = 1;

/// One trace record (a single line of JSON, no trailing newline) for a step; `inst` is the stepped instruction
/// and `options` the validation switches the machine ran with (the fault object is tpbisa::io::fault_json).
std::string trace_line(const StepResult& step, const Instruction& inst, const ValidateOptions& options);

}  // namespace tpbisa
