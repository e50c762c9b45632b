// The JSON forms of validation verdicts and simulation faults: one shape each, for the CLI, the trace and Python.
#pragma once

#include <nlohmann/json.hpp>

#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::io {

/// {"predicate", "basis", "convention", "via", "fields": [{"name", "bytes": [first, last], "value": [...]}],
/// "message"}; `convention` and `via` are null when absent.
nlohmann::ordered_json failure_json(const FailureReport& r);

/// {"valid", "checked", "validator", "failed": [failure objects], "truncated"?}: `truncated` only when more than
/// kMaxFailures predicates failed. `inst` is the judged instruction (decoded for the verdict's generation).
nlohmann::ordered_json verdict_json(const Verdict& v, const Instruction& inst, const ValidateOptions& options);

/// {"kind", "index", "offset", "opcode", "name", "detail", "address", "register", "verdict"?}: `address` a 0x
/// string or null, `register` a number or null, `verdict` (as verdict_json) only for InvalidInstruction. `inst` is
/// the faulting instruction; `options` the validation switches the machine ran with.
nlohmann::ordered_json fault_json(const Fault& f, const Instruction& inst, const ValidateOptions& options);

}  // namespace tpbisa::io
