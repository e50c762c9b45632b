// Opcode coverage, derived from the registry: layouts per generation, validator dispatch, family executors.
#include "tpbisa/coverage.hpp"

#include <algorithm>

#include "families/family.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {

std::string_view to_string(ExecutorKind k) {
  switch (k) {
    case ExecutorKind::Yes: return "yes";
    case ExecutorKind::Lowered: return "lowered";
    case ExecutorKind::Convention: return "convention";
    case ExecutorKind::NotPublic: return "semantics not public";
    case ExecutorKind::None: break;
  }
  return "none";
}

namespace {

/// What the family's executor does with `op` on `gen`: runs it, or refuses it for the reason the family states.
ExecutorKind executor_kind(const family::Execution& e, const OpcodeInfo& op, Generation gen, OpcodeCoverage& c) {
  if (e.execute == nullptr) return ExecutorKind::None;
  for (const family::Execution::NotPublic& n : e.semantics_not_public)
    if (n.opcode == op.value && n.gens.has(gen)) {
      c.not_public = n.source;
      return ExecutorKind::NotPublic;
    }
  const bool refused =
      std::find(e.not_executed.begin(), e.not_executed.end(), op.format) != e.not_executed.end() ||
      std::find(e.not_executed_opcodes.begin(), e.not_executed_opcodes.end(), op.value) != e.not_executed_opcodes.end();
  if (!refused) return ExecutorKind::Yes;
  switch (e.refusal) {
    case family::Execution::Refusal::Lowered: return ExecutorKind::Lowered;
    case family::Execution::Refusal::Convention: c.convention = e.refusal_convention; return ExecutorKind::Convention;
    case family::Execution::Refusal::Unstated: break;
  }
  return ExecutorKind::None;
}

}  // namespace

OpcodeCoverage coverage(const OpcodeInfo& op, Generation gen) {
  OpcodeCoverage c;
  c.present = op.gens.has(gen);
  if (!c.present) return c;
  c.invalid_marker = is_invalid_marker(&op);
  c.format = layout_index(op.format, gen) != 0;
  if (!c.format) c.not_public = op.layout_not_public;
  c.validator = validator_for(op.value, gen).checked == Checked::Full;
  if (const family::Family* f = c.format ? family::opcode_family(op.value) : nullptr)
    c.executor = executor_kind(f->execution, op, gen, c);
  return c;
}

}  // namespace tpbisa
