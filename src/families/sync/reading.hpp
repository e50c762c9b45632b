// How the sync family's dependent fields read: the one place the validator, decode's description and the
// disassembler's notes ask (PSEUDO_ADDR8 modes, DMA chunk sizes and byte totals, EVENT_SEMAPHORE's lanes).
#pragma once

#include <cstdint>
#include <string_view>

#include "families/sync/format.hpp"
#include "tpbisa/catalog.hpp"

namespace tpbisa::family::sync {

// ---- PSEUDO_ADDR8 (real-programs.md §2.4) ----

/// What a PSEUDO_ADDR8's `id` names, by the low bits of its mode byte.
enum class OperandKind : uint8_t {
  Variable,      ///< 0x10 VAR_ID: `id` is a def.json var_id, `offset` a byte offset inside it
  DgeImmediate,  ///< 0x20 DGE_IMM: `id` indexes the subgraph's dge-table list
  DgeRegister,   ///< 0x28: DGE-table entry, the offset taken from a register
  Unknown,       ///< any other mode: pseudo_addr8_mode_known fails
};

inline constexpr uint8_t kModeVarId = 0x10, kModeDgeImm = 0x20, kModeDgeReg = 0x28;
/// Flag bits a known base mode may carry: 0x04 register pair, 0x40 move/transpose variant.
inline constexpr uint8_t kModeRegisterPair = 0x04, kModeTranspose = 0x40;

struct OperandReading {
  OperandKind kind = OperandKind::Unknown;
  bool register_pair = false;
  bool transpose = false;
  uint32_t id = 0;      ///< id | id_hi << 16
  uint64_t offset = 0;  ///< zero-extended: DMA arithmetic is 64-bit (real-programs.md §7.3)
};

constexpr OperandReading read_operand(const PseudoAddr8& a) {
  OperandReading r;
  const auto base = static_cast<uint8_t>(a.mode & ~(kModeRegisterPair | kModeTranspose));
  r.kind = base == kModeVarId    ? OperandKind::Variable
           : base == kModeDgeImm ? OperandKind::DgeImmediate
           : base == kModeDgeReg ? OperandKind::DgeRegister
                                 : OperandKind::Unknown;
  r.register_pair = (a.mode & kModeRegisterPair) != 0;
  r.transpose = (a.mode & kModeTranspose) != 0;
  r.id = uint32_t{a.id} | (uint32_t{a.id_hi} << 16);
  r.offset = a.offset;
  return r;
}

/// pseudo_addr8_mode_known: 0x10, 0x20 or 0x28, optionally with 0x04 and/or 0x40 (PROJ-CONV-F8).
constexpr bool pseudo_addr8_mode_known(const PseudoAddr8& a) {
  return read_operand(a).kind != OperandKind::Unknown;
}

/// Variable 0 is the state buffer in compiled programs: its offsets are PartitionOffsets (real-programs.md §2.4).
inline constexpr uint32_t kStateBufferVarId = 0;

// ---- The two sides of a PSEUDO_DMA_DIRECT2D ----

/// One side of the transfer, read from its fields.
struct DmaSide {
  const PseudoAddr8& operand;
  const std::array<int32_t, 2>& step;
  const std::array<uint16_t, 2>& num;
  uint16_t elem_size;
  uint8_t offset_reg;
  uint8_t dtype;
};

[[gnu::always_inline]] constexpr DmaSide src_side(const PseudoDmaDirect2d& d) {
  return {d.src, d.src_step, d.src_num, d.src_elem_size, d.src_offset_reg, d.src_dtype};
}
[[gnu::always_inline]] constexpr DmaSide dst_side(const PseudoDmaDirect2d& d) {
  return {d.dst, d.dst_step, d.dst_num, d.dst_elem_size, d.dst_offset_reg, d.dst_dtype};
}

/// esz(): bytes per contiguous chunk; 0 means 65 536 (real-programs.md §7.1, `M/O`).
[[gnu::always_inline]] constexpr uint32_t chunk_bytes(uint16_t elem_size) {
  return elem_size == 0 ? 65536U : elem_size;
}

/// num[0] * num[1] * esz: at most 2^48, exact in 64 bits.
[[gnu::always_inline]] constexpr uint64_t total_bytes(const DmaSide& s) {
  return uint64_t{s.num[0]} * uint64_t{s.num[1]} * uint64_t{chunk_bytes(s.elem_size)};
}

[[gnu::always_inline]] constexpr bool counts_nonzero(const DmaSide& s) {
  return s.num[0] >= 1 && s.num[1] >= 1;
}

// Every dtype size is 0 or a power of two (the catalog asserts it, src/catalog/catalog.cpp), so "a multiple of the
// size" is a mask test and the element counts compare by cross-multiplication: no 64-bit division per word (the
// acceptor's hot path). The side helpers are forced inline: out of line, whole_elements alone was 5 % of the
// compiled-program stream's samples.

/// src_bytes % type_size(dtype) == 0; a dtype without a size is judged by is_valid_dtype alone (holds here).
[[gnu::always_inline]] constexpr bool whole_elements(const DmaSide& s) {
  const unsigned size = dtype_size(s.dtype);
  return size == 0 || (total_bytes(s) & (size - 1U)) == 0;
}

/// Element count of one side, when it is defined: non-zero counts, a sized dtype, whole elements.
constexpr bool element_count(const DmaSide& s, uint64_t& count) {
  const unsigned size = dtype_size(s.dtype);
  if (!counts_nonzero(s) || size == 0 || total_bytes(s) % size != 0) return false;
  count = total_bytes(s) / size;
  return true;
}

/// Both sides move the same number of elements. Compared only when both counts are defined: a zero count,
/// an unsized dtype or a partial element is reported by its own predicate (docs/conventions.md, sync).
[[gnu::always_inline]] constexpr bool same_element_count(const PseudoDmaDirect2d& d) {
  const DmaSide src = src_side(d), dst = dst_side(d);
  const uint64_t src_size = dtype_size(src.dtype), dst_size = dtype_size(dst.dtype);
  if (!counts_nonzero(src) || !counts_nonzero(dst) || src_size == 0 || dst_size == 0 || !whole_elements(src) ||
      !whole_elements(dst))
    return true;
  // Both quotients are exact, so src_bytes / src_size == dst_bytes / dst_size iff the cross products agree; each
  // is below 2^48 * 8, exact in 64 bits.
  return total_bytes(src) * dst_size == total_bytes(dst) * src_size;
}

/// An offset-register byte: bit 7 set = a register supplies a dynamic offset, bits 0-5 the register, bit 6 a
/// mode whose meaning is UNKNOWN (real-programs.md §7.1).
struct OffsetRegister {
  bool present = false;
  uint8_t reg = 0;
  bool mode_bit = false;
};
constexpr OffsetRegister read_offset_register(uint8_t b) {
  return {(b & 0x80) != 0, static_cast<uint8_t>(b & 0x3F), (b & 0x40) != 0};
}

/// PROJ-CONV-F10: command 0 and 3 are a plain copy/convert; 1 a transpose (unmodelled); others unknown.
constexpr bool command_is_copy(uint8_t command) {
  return command == 0 || command == 3;
}

// ---- EVENT_SEMAPHORE lanes (real-programs.md §3.1, §3.3) ----

/// The extended lane's wait, as an EVENTS block (so the EVENTS notation and meanings apply unchanged).
constexpr Events ext_wait(const EventsExtended& x) {
  return {x.wait_mode, x.wait_idx, 0, 0, x.sem_wait_value};
}
/// The extended lane's update, as an EVENTS block.
constexpr Events ext_update(const EventsExtended& x) {
  return {0, 0, x.update_mode, x.update_idx, x.sem_update_value};
}

/// ctrl_es_valid_extended_events: both extended modes are members of the generation's enums (PROJ-CONV-F2).
constexpr bool ext_wait_mode_valid(const EventsExtended& x, Generation g) {
  return wait_mode_in(x.wait_mode, g);
}
constexpr bool ext_update_mode_valid(const EventsExtended& x, Generation g) {
  return update_mode_in(x.update_mode, g);
}

}  // namespace tpbisa::family::sync
