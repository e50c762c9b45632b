// The JSON-Lines execution trace: one object per retired or faulting instruction (docs/trace.md).
#pragma once

#include <string>

#include "tpbisa/machine.hpp"

namespace tpbisa {

/// Version of the trace record layout; bumped on any incompatible change.
inline constexpr int kTraceSchemaVersion = 1;

/// One trace record (a single line of JSON, no trailing newline) for a step of `machine`.
std::string trace_line(const StepResult& step, Generation gen);

/// A fault as a one-line JSON object (also used by `tpbisa run --json`).
std::string fault_json(const Fault& fault, Generation gen);

}  // namespace tpbisa
