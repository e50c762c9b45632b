// Opcode coverage, derived from the registry: layouts per generation, validator dispatch, family executors.
#include "tpbisa/coverage.hpp"

#include <algorithm>

#include "families/family.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {

OpcodeCoverage coverage(const OpcodeInfo& op, Generation gen) {
  OpcodeCoverage c;
  c.present = op.gens.has(gen);
  if (!c.present) return c;
  c.format = layout_index(op.format, gen) != 0;
  c.validator = validator_for(op.value, gen).checked == Checked::Full;
  if (const family::Family* f = c.format ? family::family_of(op.format) : nullptr) {
    const auto& refused = f->execution.not_executed;
    const auto& refused_ops = f->execution.not_executed_opcodes;
    c.executor = f->execution.execute != nullptr &&
                 std::find(refused.begin(), refused.end(), op.format) == refused.end() &&
                 std::find(refused_ops.begin(), refused_ops.end(), op.value) == refused_ops.end();
  }
  return c;
}

}  // namespace tpbisa
