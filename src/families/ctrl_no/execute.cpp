// CTRL_NO family semantics: every opcode is events only in the functional model (sequencer.md §3.3,
// real-programs.md §4.3; PROJ-CONV-Q4 DRAIN, PROJ-CONV-F5 ActivationTableLoad).
#include "families/common.hpp"

namespace tpbisa::family {
namespace {

// The machine has already honoured the wait and applies the update after this returns; the words have no
// other architectural effect here. HALT's stop and NOTIFY's host log belong to the engine-aware machine.
bool execute(const Instruction& inst, exec::Txn& txn) {
  if (inst.as<CtrlNo>() == nullptr) return txn.fail(FaultKind::UnsupportedOpcode, "not a CTRL_NO opcode");
  return true;
}

constexpr Execution kExecution{execute};

}  // namespace

const Execution& CtrlNoFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
