// Sequencer family internals: the one reading of every field whose
// meaning depends on another field (shared by the validators, `decode`'s description and the disassembler).
#pragma once

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
AluOperands alu_operands(const CtrlAl& a);
/// The ALU_OP register rule of PROJ-CONV-Q9: every register the word reads or writes is R0..R63.
bool ctrl_al_registers_valid(const CtrlAl& a);

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
BranchReading branch_reading(const CtrlBr& b);
/// sign_extend_32(br_immediate & 0xFFFFFFFF): the relative byte offset of mode 3 (§7.3).
constexpr int64_t relative_offset(uint64_t br_immediate) {
  return static_cast<int32_t>(static_cast<uint32_t>(br_immediate));
}
inline constexpr uint8_t kRuntimeRelativeHint = 2;

// ---- EVENT_SEMAPHORE_RANGE_CLEAR (§8.1) ----

enum class ClearMode : uint8_t { Range = 1, Mask = 2, Invalid = 0 };
constexpr ClearMode clear_mode(const CtrlEr& e) {
  return e.clear_mode == 1 ? ClearMode::Range : e.clear_mode == 2 ? ClearMode::Mask : ClearMode::Invalid;
}

// ---- POLL_SEM (§8.2), PSEUDO_FUNCTION_CALL and PSEUDO_INST (§8.4) ----

inline constexpr unsigned kPollMaxReads = 16;
inline constexpr uint8_t kPseudoInstExit = 1;

/// The callee name of a PseudoFunctionCall: the bytes before the first NUL (all 36 when there is none).
std::string_view callee_name(const PseudoFunctionCall& c);
/// PROJ-CONV-SQ4: 1..35 printable ASCII characters, NUL-terminated, zero after the terminator.
bool callee_name_valid(const PseudoFunctionCall& c);

// ---- The shared hooks of the family (syntax.cpp) ----

/// Whether a field (dotted path as the text layer names it) is an operand of this word.
bool operand_used(const Instruction& inst, std::string_view path);

}  // namespace tpbisa::family::seq
