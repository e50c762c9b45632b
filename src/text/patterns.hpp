// MEM_PATTERN operands of the text layer: which operands of a layout may hold the indirect arm, and whether a word
// does (asked of the owning family's Syntax, which asks the same function as its validators).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "tpbisa/formats.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa::text {

/// One MEM_PATTERN operand of a layout: a top-level nested field and its bytes in the word.
struct PatternOperand {
  std::string_view name;  ///< "src", "src0", "dst"
  uint8_t offset = 0;
  uint8_t size = 0;  ///< 20 (MEM_PATTERN4D) or 16 (MEM_PATTERN3D)
  bool (*indirect_arm)(uint32_t start, Generation gen) = nullptr;
};

/// The indirect arm's payload inside the operand (common-formats.md §6.2): index ADDR4 (marker 0x20), data
/// ADDR4, u16 number of indices; the rest of the slot is unused (PROJ-CONV-C9).
inline constexpr uint8_t kIndirectIndexAt = 0;
inline constexpr uint8_t kIndirectDataAt = 4;
inline constexpr uint8_t kIndirectCountAt = 8;
inline constexpr uint8_t kIndirectUnusedAt = 10;
/// Byte 3 of the index ADDR4 in the indirect arm: bits 31..29 = 001 (INDIRECT_IMM).
inline constexpr uint8_t kIndirectMarker = 0x20;
inline constexpr uint32_t kAddressBits = 0x1FFFFFFFU;

/// The MEM_PATTERN operands of the layout at variant index `alternative` (empty for most layouts).
std::span<const PatternOperand> pattern_operands(size_t alternative);
inline std::span<const PatternOperand> pattern_operands(const Instruction& inst) {
  return pattern_operands(inst.body.index());
}

/// Whether `w` holds operand `p` as the indirect arm on `gen`.
inline bool reads_indirect(const PatternOperand& p, const Word& w, Generation gen) {
  const uint32_t start = uint32_t{w[p.offset]} | uint32_t{w[p.offset + 1]} << 8 | uint32_t{w[p.offset + 2]} << 16 |
                         uint32_t{w[p.offset + 3]} << 24;
  return p.indirect_arm != nullptr && p.indirect_arm(start, gen);
}

/// Whether any word could hold `p` as the indirect arm on `gen` (the generation types it MEM_PATTERN).
inline bool indirect_exists(const PatternOperand& p, Generation gen) {
  return p.indirect_arm != nullptr && p.indirect_arm(uint32_t{kIndirectMarker} << 24, gen);
}

}  // namespace tpbisa::text
