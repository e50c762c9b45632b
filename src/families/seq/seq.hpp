// Sequencer family internals: the one reading of every field whose
// meaning depends on another field (shared by the validators, `decode`'s description and the disassembler).
// Defined here, inline, so the raw-word acceptors inline them: out of line, a reading needed the whole operand struct
// built in memory, and a CompareBranch cost several times a TensorLoad.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <tuple>

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
namespace detail {
inline constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL, kHigh7 = 0x8080808080808080ULL;
/// Bit 7 of each byte of a lane gathered into bits 0..7 (byte i to bit i).
constexpr uint64_t byte_flags(uint64_t flags) {
  return ((flags >> 7) * 0x0102040810204080ULL) >> 56;
}
/// Bit i: byte i of the lane is not NUL.
constexpr uint64_t named_bytes(uint64_t x) {
  return byte_flags((((x & kLow7) + kLow7) | x) & kHigh7);
}
/// Bit i: byte i of the lane is printable ASCII, 0x20..0x7E (no carry crosses a byte: the low 7 bits plus 0x60 stay
/// below 0x100).
constexpr uint64_t printable_bytes(uint64_t x) {
  const uint64_t low = x & kLow7;
  const uint64_t at_least_20 = (low + 0x6060606060606060ULL) & kHigh7;
  const uint64_t is_7f = (low + 0x0101010101010101ULL) & kHigh7;
  return byte_flags(at_least_20 & ~is_7f & ~x & kHigh7);
}
}  // namespace detail

/// PROJ-CONV-SQ4: 1..35 printable ASCII characters, NUL-terminated, zero after the terminator. Read eight bytes at a
/// time without a branch per byte (in cache about 21 ns a word against the byte loop's 25-26): the name is valid when
/// the non-NUL bytes are exactly the printable ones and they are a run of 1..35 from byte 0.
inline bool callee_name_valid(const PseudoFunctionCall& c) {
  static_assert(std::endian::native == std::endian::little, "byte k of the name is bit k of the masks");
  static_assert(std::tuple_size_v<decltype(c.callee)> == 36);
  // The lanes loaded at fixed sizes: a loop with a last lane of 4 bytes kept the lane on the stack, and its load
  // waited on a failed store forward.
  uint64_t lanes[4];
  uint32_t last = 0;
  std::memcpy(lanes, c.callee.data(), sizeof lanes);
  std::memcpy(&last, c.callee.data() + sizeof lanes, sizeof last);
  uint64_t named = detail::named_bytes(last) << 32;
  uint64_t printable = detail::printable_bytes(last) << 32;
  for (unsigned lane = 0; lane < 4; ++lane) {
    named |= detail::named_bytes(lanes[lane]) << (8 * lane);
    printable |= detail::printable_bytes(lanes[lane]) << (8 * lane);
  }
  return named == printable && named != 0 && (named & (named + 1)) == 0 && (named >> 35) == 0;
}

// ---- The shared hooks of the family (syntax.cpp) ----

/// Whether a field (dotted path as the text layer names it) is an operand of this word.
bool operand_used(const Instruction& inst, std::string_view path);

}  // namespace tpbisa::family::seq
