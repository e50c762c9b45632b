// Renderings of a validation verdict shared by validate, lower and run: failure lines and JSON objects.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tpbisa/instruction.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::cli {

using ojson = nlohmann::ordered_json;

/// {"predicate", "basis", "convention", "via", "fields": [{"name", "bytes": [first, last], "value": [...]}],
/// "message"}; `convention` and `via` are null when absent.
ojson failure_json(const FailureReport& r);

/// {"valid", "checked", "validator", "failed": [...], "truncated"?}: `truncated` only when more than
/// kMaxFailures predicates failed. `inst` must be decoded for the verdict's generation.
ojson verdict_json(const Verdict& v, const Instruction& inst, const ValidateOptions& options);

/// "predicate [via x] (convention PROJ-CONV-..): message".
std::string failure_line(const FailureReport& r);

/// The failure lines of a verdict, each on its own line behind `indent`, plus a line when truncated.
std::string failure_lines(const Verdict& v, const Instruction& inst, const ValidateOptions& options,
                          std::string_view indent);

/// "valid", "header-only", or "invalid (VALIDATOR: N failed)".
std::string verdict_word(const Verdict& v);

/// Serialises output JSON; invalid UTF-8 (in file names) is replaced instead of throwing.
std::string dump_json(const ojson& j);

}  // namespace tpbisa::cli
