// Verdict text renderings built from the library's FailureReport, so every command words a failure the same way.
#include "tpbisa/io/verdict_text.hpp"

#include <fmt/format.h>

namespace tpbisa::io {

std::string failure_line(const FailureReport& r) {
  std::string line(r.predicate);
  if (!r.via.empty()) line += fmt::format(" via {}", r.via);
  if (!r.convention.empty()) line += fmt::format(" (convention {})", r.convention);
  line += fmt::format(": {}", r.message);
  return line;
}

std::string failure_lines(const Verdict& v, const Instruction& inst, const ValidateOptions& options,
                          std::string_view indent) {
  const CheckContext ctx{v.gen, options};
  std::string out;
  for (const Predicate* p : v.failures()) out += fmt::format("{}{}\n", indent, failure_line(report(*p, inst, ctx)));
  if (v.truncated)
    out += fmt::format("{}... more predicates failed; the first {} are listed (PROJ-CONV-C10)\n", indent, kMaxFailures);
  return out;
}

std::string verdict_word(const Verdict& v) {
  if (v.valid) return v.checked == Checked::HeaderOnly ? "header-only" : "valid";
  const std::string_view name = v.validator != nullptr ? v.validator->name : std::string_view("validator");
  return fmt::format("invalid ({}: {}{} failed)", name, v.n_failed, v.truncated ? "+" : "");
}

}  // namespace tpbisa::io
