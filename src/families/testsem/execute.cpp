// Test-event-semaphore family semantics: TEST_EVENT_SEM decodes and validates, but is not executed. The header's
// docstring names the three behaviours (read each slot into its register, update each from its register, update
// when the value reaches the threshold and increment the register, repeated), not what an update of an event from a
// register does, whether repeat_count loops the read and update modes too, nor the order of the slots' effects
// (PROJ-CONV-TS3): the run refuses the word saying so. It touches no on-chip memory: no footprint.
#include "families/common.hpp"
#include "families/testsem/format.hpp"

namespace tpbisa::family {
namespace {

constexpr Execution::NotPublic kNotPublic[] = {
    {testsem::kTestEventSem, CtrlTestEs::kGens,
     "an event's update from a register, the reach of repeat_count and the order of the slots' effects (the wiki's "
     "dma-transpose-opcode-cluster page §3f, §8f gives the header's docstring and an inferred loop)"},
};

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const Execution::NotPublic* n = not_public_row(inst, kNotPublic))
    return refuse_not_public(inst, txn, *n, "PROJ-CONV-TS3");
  return refuse_not_modeled(inst, txn);
}

constexpr Execution kExecution{.execute = execute, .semantics_not_public = kNotPublic};

}  // namespace

const Execution& TestSemFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
