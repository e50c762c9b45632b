// Compact-control family semantics: COMPACT_CONTROL_INST decodes and validates, but is not executed. The wiki gives
// the CCOP enum and the arms' fields, not the sequencer's interpreter of the fifteen instructions (its MAVERICK decode
// arm is not disassembled): the run refuses the word saying so (PROJ-CONV-CC3). It touches no on-chip memory the word
// itself places: no footprint.
#include "families/cci/format.hpp"
#include "families/common.hpp"

namespace tpbisa::family {
namespace {

constexpr Execution::NotPublic kNotPublic[] = {
    {cci::kCompactControlInst, CtrlCci::kGens,
     "the sequencer's interpreter of the fifteen compact instructions: their operand arms, register file, branch "
     "targets and memory and semaphore effects (the wiki's dma-transpose-opcode-cluster page §3g marks the execution "
     "interior inferred)"},
};

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const Execution::NotPublic* n = not_public_row(inst, kNotPublic))
    return refuse_not_public(inst, txn, *n, "PROJ-CONV-CC3");
  return refuse_not_modeled(inst, txn);
}

constexpr Execution kExecution{.execute = execute, .semantics_not_public = kNotPublic};

}  // namespace

const Execution& CompactControlFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
