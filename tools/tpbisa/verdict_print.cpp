// Verdict renderings built from the library's FailureReport, so every command words a failure the same way.
#include "verdict_print.hpp"

#include <fmt/format.h>

namespace tpbisa::cli {

ojson failure_json(const FailureReport& r) {
  ojson fields = ojson::array();
  for (uint8_t k = 0; k < r.n_fields; ++k) {
    const FieldValue& f = r.fields[k];
    ojson bytes = ojson::array();
    for (uint8_t b = 0; b < f.size; ++b) bytes.push_back(f.bytes[b]);
    fields.push_back({{"name", f.name}, {"bytes", {f.first_byte, f.last_byte}}, {"value", std::move(bytes)}});
  }
  return {{"predicate", r.predicate},
          {"basis", to_string(r.basis)},
          {"convention", r.convention.empty() ? ojson(nullptr) : ojson(r.convention)},
          {"via", r.via.empty() ? ojson(nullptr) : ojson(r.via)},
          {"fields", std::move(fields)},
          {"message", r.message}};
}

ojson verdict_json(const Verdict& v, const Instruction& inst, const ValidateOptions& options) {
  const CheckContext ctx{v.gen, options};
  ojson failed = ojson::array();
  for (const Predicate* p : v.failures()) failed.push_back(failure_json(report(*p, inst, ctx)));
  ojson j{{"valid", v.valid},
          {"checked", to_string(v.checked)},
          {"validator", v.validator != nullptr ? ojson(v.validator->name) : ojson(nullptr)},
          {"failed", std::move(failed)}};
  if (v.truncated) j["truncated"] = true;
  return j;
}

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

std::string dump_json(const ojson& j) {
  return j.dump(-1, ' ', false, ojson::error_handler_t::replace);
}

}  // namespace tpbisa::cli
