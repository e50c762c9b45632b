// The step loop: validate, honour the EVENTS wait, execute the family, apply the update, commit.
#include "tpbisa/machine.hpp"

#include <fmt/format.h>

#include "core/exec.hpp"
#include "families/common.hpp"

namespace tpbisa {

std::string_view to_string(FaultKind k) {
  switch (k) {
    case FaultKind::InvalidInstruction: return "InvalidInstruction";
    case FaultKind::PseudoNotLowered: return "PseudoNotLowered";
    case FaultKind::UnsupportedOpcode: return "UnsupportedOpcode";
    case FaultKind::WouldBlock: return "WouldBlock";
    case FaultKind::UnsupportedDtype: return "UnsupportedDtype";
    case FaultKind::UnsupportedAddressingMode: return "UnsupportedAddressingMode";
    case FaultKind::UnsupportedShapeRegister: return "UnsupportedShapeRegister";
    case FaultKind::IllegalRegister: return "IllegalRegister";
    case FaultKind::WindowViolation: return "WindowViolation";
    case FaultKind::OutOfRange: return "OutOfRange";
    case FaultKind::MemoryLimit: return "MemoryLimit";
    case FaultKind::ResourceLimit: return "ResourceLimit";
  }
  return "?";
}

std::string_view to_string(DveField f) {
  switch (f) {
    case DveField::Imm: return "imm";
    case DveField::MatchKey: return "match_key";
    case DveField::BnN: return "bn.n";
    case DveField::BnMean: return "bn.batch_mean";
    case DveField::BnA: return "bn.a";
    case DveField::BnB: return "bn.b";
    case DveField::BnC: return "bn.c";
  }
  return "?";
}

std::string_view to_string(DiagKind k) {
  switch (k) {
    case DiagKind::UninitializedRead: return "uninitialized-read";
    case DiagKind::UnalignedAccess: return "unaligned-access";
    case DiagKind::UnwrittenScalar: return "unwritten-scalar";
    case DiagKind::ScalarClassMismatch: return "scalar-class-mismatch";
    case DiagKind::FirmwareStub: return "firmware-stub";
  }
  return "?";
}

namespace {

/// The comparand of a register wait: R[value & 0xFF] (PROJ-CONV-C3), plus the upper 24 bits on the
/// MAVERICK register-offset forms (PROJ-CONV-C5).
bool register_comparand(const Events& e, bool with_offset, exec::Txn& txn, uint32_t& out) {
  const unsigned r = e.semaphore_value & 0xFF;
  if (r >= kNumRegisters)
    return txn.fail_reg(FaultKind::IllegalRegister, static_cast<int>(r),
                        fmt::format("the EVENTS register form names r{} (PROJ-CONV-C3)", r));
  out = txn.reg(r) + (with_offset ? e.semaphore_value >> 8 : 0);
  return true;
}

bool compare(unsigned kind, uint32_t sem, uint32_t value) {
  switch (kind) {
    case 1: return sem == value;
    case 2: return sem < value;
    case 3: return sem <= value;
    case 4: return sem > value;
    default: return sem >= value;
  }
}

/// Checks the wait; an unsatisfied wait is a fault, never a hang. Event waits that clear or set the event
/// stage that change with the instruction's other effects.
bool check_wait(const Events& e, exec::Txn& txn) {
  const MachineState& s = txn.state();
  const uint8_t mode = e.wait_mode;
  if (mode == 0x00 || mode == 0xFE) return true;
  const uint8_t low = mode & 0x0F;
  bool ok = false;
  std::string what;
  if (mode >= 0x01 && mode <= 0x05) {
    ok = compare(low, s.sems[e.wait_idx], e.semaphore_value);
    what = fmt::format("semaphore {} is {}, compared with {}", e.wait_idx, s.sems[e.wait_idx], e.semaphore_value);
  } else if ((mode >= 0x81 && mode <= 0x85) || (mode >= 0x91 && mode <= 0x95)) {
    uint32_t v = 0;
    if (!register_comparand(e, mode >= 0x91, txn, v)) return false;
    ok = compare(low, s.sems[e.wait_idx], v);
    what = fmt::format("semaphore {} is {}, compared with {}", e.wait_idx, s.sems[e.wait_idx], v);
  } else {  // event waits (SUNDA..MARIANA): 0x06 set, 0x07 set then clear, 0x0E clear, 0x0F clear then set
    const bool set = s.events[e.wait_idx];
    const bool want_set = mode == 0x06 || mode == 0x07;
    ok = set == want_set;
    what = fmt::format("event {} is {}", e.wait_idx, set ? "set" : "clear");
    if (ok && (mode == 0x07 || mode == 0x0F)) txn.stage_sem(e.wait_idx, true, mode == 0x07 ? 0 : 1);
  }
  if (!ok) return txn.fail(FaultKind::WouldBlock, "the wait is not satisfied and no other engine runs: " + what);
  return true;
}

/// Stages the semaphore/event update; read and complete forms both apply when the instruction retires.
bool stage_update(const Events& e, exec::Txn& txn) {
  const uint8_t mode = e.update_mode;
  if (mode == 0x00) return true;
  const uint8_t base = mode & 0x8F;  // fold the _COMPLETE twins (+0x10) onto the read forms
  const uint32_t sem = txn.state().sems[e.update_idx];
  uint32_t operand = e.semaphore_value;
  if (base & 0x80) {
    const unsigned r = e.semaphore_value & 0xFF;
    if (r >= kNumRegisters)
      return txn.fail_reg(FaultKind::IllegalRegister, static_cast<int>(r),
                          fmt::format("the EVENTS update register form names r{} (PROJ-CONV-C3)", r));
    operand = txn.reg(r);
  }
  switch (base & 0x0F) {
    case 0x01: txn.stage_sem(e.update_idx, true, 1); break;  // event set
    case 0x02: txn.stage_sem(e.update_idx, true, 0); break;  // event clear
    case 0x03: txn.stage_sem(e.update_idx, false, sem + 1); break;
    case 0x04: txn.stage_sem(e.update_idx, false, sem - 1); break;
    case 0x05: txn.stage_sem(e.update_idx, false, sem + operand); break;
    case 0x07: txn.stage_sem(e.update_idx, false, sem - operand); break;
    case 0x09: txn.stage_sem(e.update_idx, false, operand); break;
    default: break;
  }
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const family::Executor run = family::executor_for(inst)) return run(inst, txn);
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("execution of {} ({:#04x}) is not modeled", inst.name(), inst.opcode()));
}

bool is_pseudo(uint8_t op) {
  return (op & 0xE0) == 0xC0 && op != 0xC0;
}

}  // namespace

Machine::Machine(Generation gen, std::vector<Word> program, MachineOptions options)
    : state_(gen, options.max_memory), program_(std::move(program)), options_(options) {
  decoded_.reserve(program_.size());
  for (const Word& w : program_) decoded_.push_back(decode(w, gen));
}

StepResult Machine::step() {
  StepResult r;
  log_.clear();
  if (pc_ >= decoded_.size()) return r;
  const Instruction& inst = decoded_[pc_];
  r.index = pc_;
  r.opcode = inst.opcode();
  r.name = inst.name();
  exec::Txn txn(state_, log_, options_, pc_);
  bool ok = true;
  const Verdict verdict = validate(inst, state_.gen, options_.validate);
  if (!verdict.valid) {
    ok = txn.fail(FaultKind::InvalidInstruction, fmt::format("the word is not valid on {}", to_string(state_.gen)));
  } else if (is_pseudo(inst.opcode())) {
    ok = txn.fail(FaultKind::PseudoNotLowered,
                  fmt::format("{} is a pseudo instruction; lower it first (tpbisa lower, PROJ-CONV-M9)", inst.name()));
  }
  ok = ok && check_wait(inst.events(), txn) && execute(inst, txn) && stage_update(inst.events(), txn) && txn.commit();
  if (!ok) {
    log_.clear();  // a fault changes nothing and reports no effects
    r.status = StepResult::Status::Faulted;
    r.fault = txn.fault();
    r.fault.index = pc_;
    if (r.fault.kind == FaultKind::InvalidInstruction) r.fault.verdict = verdict;
    return r;
  }
  r.status = StepResult::Status::Retired;
  r.reg_writes = log_.regs;
  r.mem_writes = log_.mem;
  r.mem_reads = log_.reads;
  r.dve_writes = log_.dve;
  r.sem_writes = log_.sems;
  r.diagnostics = log_.diags;
  ++pc_;
  return r;
}

RunSummary Machine::run(size_t max_steps) {
  RunSummary s;
  while (pc_ < decoded_.size()) {
    if (s.retired >= max_steps) {
      s.step_limit = true;
      break;
    }
    const StepResult r = step();
    if (r.status == StepResult::Status::Faulted) {
      s.faulted = true;
      s.fault = r.fault;
      break;
    }
    ++s.retired;
  }
  return s;
}

}  // namespace tpbisa
