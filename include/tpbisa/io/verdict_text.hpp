// Text renderings of a validation verdict that validate, lower and run share (the JSON form is verdict_json.hpp).
#pragma once

#include <string>
#include <string_view>

#include "tpbisa/instruction.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::io {

/// "predicate [via x] (convention PROJ-CONV-..): message".
std::string failure_line(const FailureReport& r);

/// The failure lines of a verdict, each on its own line behind `indent`, plus a line when truncated.
std::string failure_lines(const Verdict& v, const Instruction& inst, const ValidateOptions& options,
                          std::string_view indent);

/// "valid", "header-only", or "invalid (VALIDATOR: N failed)".
std::string verdict_word(const Verdict& v);

}  // namespace tpbisa::io
