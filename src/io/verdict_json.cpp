// Verdict and fault objects built from the library's FailureReport, so every consumer words a failure the same way.
#include "tpbisa/io/verdict_json.hpp"

#include <fmt/format.h>

namespace tpbisa::io {
namespace {
using ojson = nlohmann::ordered_json;
}  // namespace

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

ojson fault_json(const Fault& f, const Instruction& inst, const ValidateOptions& options) {
  ojson j{{"kind", to_string(f.kind)},
          {"index", f.index},
          {"offset", uint64_t{f.index} * kWordBytes},
          {"opcode", fmt::format("{:#04x}", inst.opcode())},
          {"name", inst.name()},
          {"detail", f.detail},
          {"address", f.has_address ? ojson(fmt::format("{:#x}", f.address)) : ojson(nullptr)},
          {"register", f.reg >= 0 ? ojson(f.reg) : ojson(nullptr)}};
  if (f.kind == FaultKind::InvalidInstruction) j["verdict"] = verdict_json(f.verdict, inst, options);
  return j;
}

}  // namespace tpbisa::io
