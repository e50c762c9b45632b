// CTRL_NO family semantics: every opcode is events only in the functional model (sequencer.md §3.3,
// real-programs.md §4.3; PROJ-CONV-Q4 DRAIN, PROJ-CONV-F5 ActivationTableLoad).
#include "families/common.hpp"

namespace tpbisa::family {
namespace {

// The machine has already honoured the wait and stages the update; HALT then stops its engine (its pc stays
// at the HALT, sequencer.md §3.3). NOTIFY's host log is not kept (PROJ-CONV-Q5: no memory effect).
bool execute(const Instruction& inst, exec::Txn& txn) {
  if (inst.as<CtrlNo>() == nullptr) return txn.fail(FaultKind::UnsupportedOpcode, "not a CTRL_NO opcode");
  if (inst.opcode() == opcode::kHalt) txn.stage_halt();
  return true;
}

constexpr Execution kExecution{execute};

}  // namespace

const Execution& CtrlNoFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
