// Sequencer control block semantics (sequencer.md §4-§9): WRITE, MOVE, ALU_OP, COMPARE_BRANCH on the engine's
// registers and program counter, and the NEFF-level pseudo control words (PROJ-CONV-Q14).
#include <bit>
#include <cmath>

#include "families/common.hpp"
#include "families/seq/format.hpp"
#include "families/seq/seq.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

bool unsupported(const Instruction& inst, exec::Txn& txn, std::string_view why) {
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("execution of {} ({:#04x}) is not modeled: {}", inst.name(), inst.opcode(), why));
}

bool is_signed_dtype(uint8_t d) {
  const DtypeInfo* row = find_dtype(d);
  return row != nullptr && row->kind == DtypeKind::SInt;
}

/// A register specifier's value: R0..R63, or the current word's address halves (128/129, PROJ-CONV-Q2).
uint32_t read_spec(exec::Txn& txn, uint8_t spec) {
  const uint64_t pc_address = uint64_t{txn.index()} * kWordBytes;
  if (spec == seq::kPcLow) return static_cast<uint32_t>(pc_address);
  if (spec == seq::kPcHigh) return static_cast<uint32_t>(pc_address >> 32);
  return txn.reg(spec);
}

/// WRITE (PROJ-CONV-Q6): the 32-bit value at `address` when it is modelled memory; other addresses are device
/// registers, which the functional model does not keep (the write is accepted and has no effect).
bool exec_write(const CtrlWr& w, exec::Txn& txn) {
  if (exec::neuron_access_ok(txn.gen(), w.address, 4)) txn.stage_mem(w.address, 4, w.value);
  return true;
}

/// MOVE (§5.3): every source read before any destination is written; 128/129 as destinations are ignored.
/// PROJ-CONV-Q7: duplicate destinations, or a destination among the register sources, fault.
bool exec_move(const CtrlMv& m, exec::Txn& txn) {
  const unsigned n = std::min<unsigned>(m.num_mov, CtrlMv::kSlots);
  const bool from_regs = m.move_source == seq::kDataSrcRegister;
  for (unsigned k = 0; k < n; ++k)
    for (unsigned j = 0; j < n; ++j) {
      if (j != k && m.dst_registers[j] == m.dst_registers[k] && seq::is_general_register(m.dst_registers[k]))
        return txn.fail_reg(FaultKind::IllegalRegister, m.dst_registers[k],
                            fmt::format("MOVE writes r{} twice (PROJ-CONV-Q7)", m.dst_registers[k]));
      if (from_regs && m.src_registers[j] == m.dst_registers[k] && seq::is_general_register(m.dst_registers[k]))
        return txn.fail_reg(FaultKind::IllegalRegister, m.dst_registers[k],
                            fmt::format("MOVE destination r{} is also a source (PROJ-CONV-Q7)", m.dst_registers[k]));
    }
  std::array<uint32_t, CtrlMv::kSlots> vals{};
  for (unsigned k = 0; k < n; ++k) vals[k] = from_regs ? read_spec(txn, m.src_registers[k]) : m.immediate[k];
  for (unsigned k = 0; k < n; ++k)
    if (seq::is_general_register(m.dst_registers[k])) txn.stage_reg(m.dst_registers[k], vals[k]);
  return true;
}

/// The low `size` bytes of v, extended to 32 bits by the dtype's signedness.
uint32_t narrow(uint32_t v, uint8_t d) {
  const unsigned size = dtype_size(d);
  if (size >= 4) return v;
  return is_signed_dtype(d) ? exec::sign_extend(v, size) : v & ((1U << (8 * size)) - 1U);
}

/// ALU_OP (§6.3, PROJ-CONV-Q10) with the shared evaluator; 64-bit dtypes are not modeled.
bool exec_alu(const Instruction& inst, const CtrlAl& a, exec::Txn& txn) {
  const unsigned size = dtype_size(a.dtype);
  if (size == 0 || size > 4 || !convertible(a.dtype))
    return txn.fail(FaultKind::UnsupportedDtype,
                    fmt::format("{} with dtype {} is not modeled (8-, 16- and 32-bit types are)", inst.name(),
                                dtype_label(a.dtype, txn.gen())));
  const seq::AluOperands o = seq::alu_operands(a);
  const uint32_t x = narrow(txn.reg(a.src0_lo), a.dtype);
  const uint32_t y = narrow(o.src1_immediate ? static_cast<uint32_t>(a.immediate) : txn.reg(a.src1_lo), a.dtype);
  uint32_t r = 0;
  if (a.dtype == dtype::kFp32)
    r = std::bit_cast<uint32_t>(alu_fp32(a.op, std::bit_cast<float>(x), std::bit_cast<float>(y)));
  else
    r = narrow(alu_int32(a.op, x, y, is_signed_dtype(a.dtype)), a.dtype);
  txn.stage_reg(a.dst_lo, r);
  return true;
}

bool relation_holds(std::string_view rel, int c) {
  if (rel == "LT") return c < 0;
  if (rel == "LE") return c <= 0;
  if (rel == "EQ") return c == 0;
  if (rel == "NE") return c != 0;
  if (rel == "GE") return c >= 0;
  return c > 0;  // GT
}

/// COMPARE_BRANCH (§7.3; in a NEFF stream §9, PROJ-CONV-Q15).
bool exec_branch(const Instruction& inst, const CtrlBr& b, exec::Txn& txn) {
  const seq::BranchReading rd = seq::branch_reading(b);
  if (rd.compare == seq::BrCompare::Invalid || rd.target == seq::BrTarget::Invalid)
    return unsupported(inst, txn, "its comparison or target mode has no meaning");
  bool taken = true;
  if (rd.compare != seq::BrCompare::Always) {
    const uint32_t ra = txn.reg(b.cmp_reg0 & 0x3F);
    const uint32_t rb = rd.compare == seq::BrCompare::Register ? txn.reg(b.cmp_reg1 & 0x3F) : b.cmp_immediate;
    if (b.dtype == dtype::kFp32) {
      const float fa = std::bit_cast<float>(ra), fb = std::bit_cast<float>(rb);
      taken = std::isnan(fa) || std::isnan(fb) ? rd.relation == "NE"
                                               : relation_holds(rd.relation, fa < fb   ? -1
                                                                             : fa > fb ? 1
                                                                                       : 0);
    } else if (is_signed_dtype(b.dtype)) {
      const auto sa = static_cast<int32_t>(narrow(ra, b.dtype)), sb = static_cast<int32_t>(narrow(rb, b.dtype));
      taken = relation_holds(rd.relation, sa < sb ? -1 : sa > sb ? 1 : 0);
    } else {
      const uint32_t ua = narrow(ra, b.dtype), ub = narrow(rb, b.dtype);
      taken = relation_holds(rd.relation, ua < ub ? -1 : ua > ub ? 1 : 0);
    }
  }
  if (!taken) return true;
  const int64_t here = static_cast<int64_t>(txn.index()) * int64_t{kWordBytes};
  int64_t target = 0;  // byte offset in the stream
  switch (rd.target) {
    case seq::BrTarget::RelImmediate:
      // A NEFF stream names the taken block by instruction index unless the runtime re-encoded it (Q15).
      target = txn.options().neff_mode && !rd.runtime_relative
                   ? static_cast<int64_t>(b.br_immediate & 0xFFFFFFFFU) * int64_t{kWordBytes}
                   : here + seq::relative_offset(b.br_immediate);
      break;
    case seq::BrTarget::RelRegister:
      target = here +
               static_cast<int64_t>(uint64_t{txn.reg(b.target_reg_hi & 0x3F)} << 32 | txn.reg(b.target_reg_lo & 0x3F));
      break;
    default:
      target = static_cast<int64_t>(uint64_t{txn.reg(b.target_reg_hi & 0x3F)} << 32 | txn.reg(b.target_reg_lo & 0x3F));
      break;
  }
  // PROJ-CONV-Q12: on the grid, inside the stream; one past the last word ends the stream.
  if (target < 0 || target % int64_t{kWordBytes} != 0 ||
      static_cast<uint64_t>(target / int64_t{kWordBytes}) > txn.stream_size())
    return txn.fail(FaultKind::IllegalBranchTarget,
                    fmt::format("branch target byte {} is off the 64-byte grid or outside the stream of {} words "
                                "(PROJ-CONV-Q12)",
                                target, txn.stream_size()));
  txn.stage_jump(static_cast<size_t>(target / int64_t{kWordBytes}));
  return true;
}

/// EVENT_SEMAPHORE_RANGE_CLEAR (§8.1): mode 1 zeroes semaphores range_first..range_last inclusive, mode 2 every
/// semaphore whose bit is set in the 256-bit mask.
bool exec_range_clear(const Instruction& inst, const CtrlEr& e, exec::Txn& txn) {
  if (e.clear_mode == 1) {
    for (unsigned id = e.range_first; id <= e.range_last; ++id) txn.stage_sem(id, false, 0, true);
    return true;
  }
  if (e.clear_mode == 2) {
    for (unsigned id = 0; id < kNumSemaphores; ++id)
      if (((e.mask[id >> 5] >> (id & 31U)) & 1U) != 0) txn.stage_sem(id, false, 0, true);
    return true;
  }
  return unsupported(inst, txn, fmt::format("clear mode {} has no meaning (1: range, 2: mask)", e.clear_mode));
}

/// POLL_SEM (§8.2, PROJ-CONV-Q13): n_read consecutive u32 values combined left to right with the ALU op, the result
/// to R[result_reg] and, when the write-back address is not zero, to that address; no stall.
bool exec_poll_sem(const Instruction& inst, const PollSem& p, exec::Txn& txn) {
  if (p.n_read == 0 || p.n_read > 16)
    return unsupported(inst, txn, fmt::format("n_read is {} (a poll reads 1 to 16 values)", p.n_read));
  if (p.result_reg >= kNumRegisters)
    return txn.fail_reg(FaultKind::IllegalRegister, p.result_reg,
                        fmt::format("POLL_SEM writes r{} (registers are r0..r{})", p.result_reg, kNumRegisters - 1));
  uint32_t acc = 0;
  for (unsigned k = 0; k < p.n_read; ++k) {
    const uint64_t a = p.address + uint64_t{k} * 4;
    if (a < p.address) return txn.fail_at(FaultKind::OutOfRange, p.address, "POLL_SEM reads past 2^64");
    const auto v = static_cast<uint32_t>(txn.read_mem(a, 4));
    acc = k == 0 ? v : alu_int32(p.combine_op, acc, v, false);
  }
  txn.stage_reg(p.result_reg, acc);
  if (p.writeback_address != 0) txn.stage_mem(p.writeback_address, 4, acc);
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const auto* e = inst.as<CtrlEr>()) return exec_range_clear(inst, *e, txn);
  if (const auto* p = inst.as<PollSem>()) return exec_poll_sem(inst, *p, txn);
  if (inst.as<BranchPrefetchHint>() != nullptr) return true;  // §8.3: no architectural effect (NOP)
  if (const auto* w = inst.as<CtrlWr>()) return exec_write(*w, txn);
  if (const auto* m = inst.as<CtrlMv>()) return exec_move(*m, txn);
  if (const auto* a = inst.as<CtrlAl>()) return exec_alu(inst, *a, txn);
  if (const auto* b = inst.as<CtrlBr>()) return exec_branch(inst, *b, txn);
  if (txn.options().neff_mode) {
    // PROJ-CONV-Q14: PseudoFunctionBegin is a no-op slot, PseudoInst exit halts; calls and returns are refused.
    if (inst.opcode() == opcode::kPseudoFunctionBegin) return true;
    if (const auto* p = inst.as<PseudoInst>(); p != nullptr && p->kind == seq::kPseudoInstExit) {
      txn.stage_halt();
      return true;
    }
  }
  return unsupported(inst, txn, "no functional semantics (PROJ-CONV-Q13, Q14)");
}

// What execute() refuses (sequencer.md §8.4, PROJ-CONV-Q14: function calls and returns are out of scope);
// `catalog --coverage` reads these lists.
constexpr Format kNotExecuted[] = {Format::PseudoFunctionCall};
constexpr uint8_t kNotExecutedOpcodes[] = {opcode::kPseudoFunctionReturn};  // PseudoFunctionBegin is a no-op
constexpr Execution kExecution{execute, kNotExecuted, kNotExecutedOpcodes, Execution::Refusal::Convention,
                               "PROJ-CONV-Q14"};

}  // namespace

const Execution& SeqFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
