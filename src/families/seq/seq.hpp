// Sequencer family internals: the one reading of every field whose
// meaning depends on another field (shared by the validators, `decode`'s description and the disassembler).
// Defined here, inline, so the raw-word acceptors inline them: out of line, a reading needed the whole operand struct
// built in memory, and a CompareBranch cost several times a TensorLoad.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "families/seq/format.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::family::seq {

// ---- Registers (sequencer.md §2, §5.1) ----

inline constexpr unsigned kRegisters = 64;  ///< R0..R63 per engine (NUM_REGISTERS, common.h)
inline constexpr uint8_t kPcLow = 128, kPcHigh = 129;

/// is_valid_register_read: a general register or one of the PC pseudo-registers.
constexpr bool is_valid_register_read(uint8_t r) {
  return r < kRegisters || r == kPcLow || r == kPcHigh;
}
/// is_valid_register_write: PROJ-CONV-Q7 accepts 128/129 (the header calls such writes ignored).
constexpr bool is_valid_register_write(uint8_t r) {
  return is_valid_register_read(r);
}
constexpr bool is_general_register(uint8_t r) {
  return r < kRegisters;
}

// ---- MOVE (§5) ----

inline constexpr uint8_t kDataSrcRegister = 0, kDataSrcImmediate = 1;

/// Slot k of a MOVE: used when k < num_mov; its source is a register specifier or immediate.uint32[k].
struct MoveSlot {
  bool used;
  bool from_immediate;  ///< move_source == IMMEDIATE (the source specifier is still checked for read-validity)
};
constexpr MoveSlot move_slot(const CtrlMv& m, unsigned k) {
  return {k < m.num_mov, m.move_source == kDataSrcImmediate};
}
/// ctrl_mv_valid_register(i, k) (§5.2).
constexpr bool ctrl_mv_valid_register(const CtrlMv& m, unsigned k) {
  const MoveSlot s = move_slot(m, k);
  if (!s.used) return m.src_registers[k] == 0;
  return is_valid_register_read(m.src_registers[k]) && is_valid_register_write(m.dst_registers[k]);
}

// ---- ALU_OP (§6) ----

/// Which register slots and which right operand an ALU_OP reads: decided by dtype and src1_datasrc.
struct AluOperands {
  bool wide;            ///< 64-bit dtype: the _hi registers are the high halves
  bool src1_immediate;  ///< src1 is `immediate`, src1_lo/src1_hi are not read
};
constexpr AluOperands alu_operands(const CtrlAl& a) {
  return {dtype_size(a.dtype) == 8, a.src1_datasrc == kDataSrcImmediate};
}
/// The ALU_OP register rule of PROJ-CONV-Q9: every register the word reads or writes is R0..R63.
constexpr bool ctrl_al_registers_valid(const CtrlAl& a) {
  const AluOperands o = alu_operands(a);
  bool ok = is_general_register(a.src0_lo) && is_general_register(a.dst_lo) &&
            (o.src1_immediate || is_general_register(a.src1_lo));
  if (o.wide)
    ok = ok && is_general_register(a.src0_hi) && is_general_register(a.dst_hi) &&
         (o.src1_immediate || is_general_register(a.src1_hi));
  return ok;
}

// ---- COMPARE_BRANCH (§7) ----

enum class BrCompare : uint8_t { Always, Immediate, Register, Invalid };
enum class BrTarget : uint8_t { Register, RelImmediate, RelRegister, Invalid };

/// The reading of a CompareBranch: comparison family and relation, and where the target comes from.
struct BranchReading {
  BrCompare compare;
  std::string_view relation;  ///< "LT", "LE", "EQ", "NE", "GE", "GT"; empty when unconditional or invalid
  BrTarget target;
  bool runtime_relative;  ///< header.debug_hint == 2: the runtime's relative encoding (PROJ-CONV-Q15)
};
inline constexpr uint8_t kRuntimeRelativeHint = 2;
/// BR_CMP_OP's relations in code order: cmp_op 1-6 against the immediate, 9-14 against a register.
inline constexpr std::string_view kBrRelations[] = {"LT", "LE", "EQ", "NE", "GE", "GT"};
constexpr BranchReading branch_reading(const CtrlBr& b) {
  BranchReading r{BrCompare::Invalid, {}, BrTarget::Invalid, b.header.debug_hint == kRuntimeRelativeHint};
  if (b.cmp_op == 0) {
    r.compare = BrCompare::Always;
  } else if (b.cmp_op >= 1 && b.cmp_op <= 6) {
    r.compare = BrCompare::Immediate;
    r.relation = kBrRelations[b.cmp_op - 1];
  } else if (b.cmp_op >= 9 && b.cmp_op <= 14) {
    r.compare = BrCompare::Register;
    r.relation = kBrRelations[b.cmp_op - 9];
  }
  switch (b.target_mode) {
    case 1: r.target = BrTarget::Register; break;
    case 3: r.target = BrTarget::RelImmediate; break;
    case 4: r.target = BrTarget::RelRegister; break;
    default: break;
  }
  return r;
}
/// sign_extend_32(br_immediate & 0xFFFFFFFF): the relative byte offset of mode 3 (§7.3).
constexpr int64_t relative_offset(uint64_t br_immediate) {
  return static_cast<int32_t>(static_cast<uint32_t>(br_immediate));
}

// ---- EVENT_SEMAPHORE_RANGE_CLEAR (§8.1) ----

enum class ClearMode : uint8_t { Range = 1, Mask = 2, Invalid = 0 };
constexpr ClearMode clear_mode(const CtrlEr& e) {
  return e.clear_mode == 1 ? ClearMode::Range : e.clear_mode == 2 ? ClearMode::Mask : ClearMode::Invalid;
}

// ---- POLL_SEM (§8.2), PSEUDO_FUNCTION_CALL and PSEUDO_INST (§8.4) ----

inline constexpr unsigned kPollMaxReads = 16;
inline constexpr uint8_t kPseudoInstExit = 1;

/// The callee name of a PseudoFunctionCall: the bytes before the first NUL (all 36 when there is none).
inline std::string_view callee_name(const PseudoFunctionCall& c) {
  size_t n = 0;
  while (n < c.callee.size() && c.callee[n] != 0) ++n;
  return {reinterpret_cast<const char*>(c.callee.data()), n};
}
/// PROJ-CONV-SQ4: 1..35 printable ASCII characters, NUL-terminated, zero after the terminator.
inline bool callee_name_valid(const PseudoFunctionCall& c) {
  const std::string_view name = callee_name(c);
  if (name.empty() || name.size() >= c.callee.size()) return false;
  for (char ch : name)
    if (ch < 0x20 || ch > 0x7E) return false;
  for (size_t k = name.size(); k < c.callee.size(); ++k)
    if (c.callee[k] != 0) return false;
  return true;
}

// ---- The shared hooks of the family (syntax.cpp) ----

/// Whether a field (dotted path as the text layer names it) is an operand of this word.
bool operand_used(const Instruction& inst, std::string_view path);

}  // namespace tpbisa::family::seq
