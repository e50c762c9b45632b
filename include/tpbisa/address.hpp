// Per-generation memory geometry and what an ADDR4 / ADDR8 / PartitionOffset value addresses.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "tpbisa/formats.hpp"
#include "tpbisa/generation.hpp"

namespace tpbisa {

/// Geometry constants of one generation (memory-and-numerics.md §2).
struct Geometry {
  uint32_t sbuf_partitions;
  uint32_t sbuf_partition_size;    ///< address stride per partition
  uint32_t sbuf_partition_active;  ///< bytes backed by SRAM
  uint32_t sbuf_offset;
  uint32_t sbuf_size;
  uint32_t psum_partitions;
  uint32_t psum_partition_size;
  uint32_t psum_partition_active;
  uint32_t psum_offset;
  uint32_t psum_size;  ///< 0 on MAVERICK: no PSUM region
  uint32_t psum_bank_size;
  uint32_t psum_banks;
  uint32_t channels;  ///< POOLING_NUM_CHANNELS / DVE_NUM_CHANNELS
  // The strides are powers of two; their log2 lets the decoder shift instead of divide.
  uint8_t sbuf_partition_shift;
  uint8_t psum_partition_shift;
  uint8_t psum_bank_shift;
};

/// The geometry table, one row per generation in Generation order (memory-and-numerics.md §2). SUNDA's header
/// describes PSUM as 16 x 1 KiB banks; the matmul-visible bank is still 2 KiB (§4.1), which is what it holds.
// clang-format off
inline constexpr std::array<Geometry, 4> kGeometry{{
    // sbuf: parts, stride,   active,  offset, size,      psum: parts, stride, active, offset,    size,     bank,  banks, channels
    {128, 0x40000,  0x30000, 0, 0x2000000, 128, 0x8000, 0x4000, 0x2000000, 0x400000, 2048, 8, 128, 18, 15, 11},  // SUNDA
    {128, 0x40000,  0x38000, 0, 0x2000000, 128, 0x8000, 0x4000, 0x2000000, 0x400000, 2048, 8, 128, 18, 15, 11},  // CAYMAN
    {128, 0x40000,  0x40000, 0, 0x2000000, 128, 0x8000, 0x4000, 0x2000000, 0x400000, 2048, 8, 128, 18, 15, 11},  // MARIANA
    {128, 0x100000, 0x80000, 0, 0x8000000, 128, 0x8000, 0x4000, 0x2000000, 0,        2048, 8, 128, 20, 15, 11},  // MAVERICK
}};

constexpr bool geometry_shifts_match_strides() {
  for (const Geometry& g : kGeometry) {
    if ((1U << g.sbuf_partition_shift) != g.sbuf_partition_size) return false;
    if ((1U << g.psum_partition_shift) != g.psum_partition_size) return false;
    if ((1U << g.psum_bank_shift) != g.psum_bank_size) return false;
  }
  return true;
}
static_assert(geometry_shifts_match_strides());
// clang-format on

static_assert(kGeometry.size() == kAllGenerations.size(), "one geometry row per generation");

constexpr const Geometry& geometry(Generation g) {
  return kGeometry[static_cast<size_t>(g)];
}

/// The most channels (partitions an instruction spans) of any generation: the size of per-channel state.
inline constexpr unsigned kMaxChannels = [] {
  unsigned n = 0;
  for (const Geometry& g : kGeometry) n = g.channels > n ? g.channels : n;
  return n;
}();

inline constexpr uint32_t kPartitionAddrMask = 0x1FFFFFFF;  ///< TPB_PARTITION_ADDR_MASK
inline constexpr unsigned kNumRegisters = 64;
inline constexpr unsigned kNumSemaphores = 256;

enum class Region : uint8_t { Sbuf, Psum, Outside };

/// Decode of a TPB on-chip address (PartitionOffset, after masking to 29 bits).
struct PartitionAddress {
  Region region = Region::Outside;
  uint32_t masked = 0;
  uint32_t partition = 0;
  uint32_t offset = 0;    ///< byte offset inside the partition stride
  uint32_t quadrant = 0;  ///< SBUF and PSUM: partition / 32
  uint32_t bank = 0;      ///< PSUM only: offset / the bank size (2 KiB)
  uint32_t in_bank = 0;   ///< PSUM only: the byte offset inside the bank
  bool backed = false;    ///< offset < the partition's active size
};

PartitionAddress decode_partition_offset(uint32_t addr, Generation g);

/// addr_in_sbuf / addr_in_psum on a masked address.
bool addr_in_sbuf(uint32_t masked, Generation g);
bool addr_in_psum(uint32_t masked, Generation g);

enum class Addr4Mode : uint8_t { Immediate, ShapeRegImmediate, Register, RegisterShape, Indirect, Other };

/// What an ADDR4 operand addresses: the one reading of its marker byte (common-formats.md §5.2). The validator's
/// predicates, the executor, the field descriptions of `decode` and the assembler/disassembler all ask `describe`;
/// none tests marker bits of its own (docs/conventions.md, "One reading of ADDR4 / ADDR8").
struct Addr4Meaning {
  Addr4Mode mode = Addr4Mode::Immediate;
  uint8_t marker = 0;
  bool from_register = false;        ///< addr4_from_register: the base is R[regnum] (ADDR_REG, ADDR_SHAPE_REG)
  bool shape_from_register = false;  ///< bit 30 alone (PROJ-CONV-C19)
  bool indirect = false;             ///< addr4_is_indirect
  /// The base comes from a register: the register forms, and INDIRECT_REG (bit 31 with bit 29).
  bool register_base = false;
  /// Exactly ADDR_REG {regnum, 0, 0, 0x80}: the form the `rN` spelling writes, and (with regnum < 64) the only
  /// form tensor_start_addr_valid leaves to run time (common-formats.md §10.6).
  bool register_form = false;
  /// Bits 31..29 clear (marker IMM): every bit is address, the form a location spelling writes.
  bool plain_immediate = false;
  uint8_t regnum = 0;       ///< register forms: byte 0
  PartitionAddress target;  ///< the masked bits decoded (every marker: the validator judges them unless bypassed)
  /// tensor_start_addr_valid's register bypass: the exact register form naming one of the 64 registers.
  constexpr bool placed_at_run_time() const { return register_form && regnum < kNumRegisters; }
};

Addr4Meaning describe(const Addr4& a, Generation g);

enum class Addr8Mode : uint8_t { Immediate, RegisterPair, Table, Other };

/// What an ADDR8 operand addresses: the one reading of its marker (common-formats.md §5.3, mem2d.md §6.2), asked by
/// the validator, the executor, the field descriptions and the assembler/disassembler.
struct Addr8Meaning {
  Addr8Mode mode = Addr8Mode::Immediate;  ///< Immediate: addr8_addr_immediate (PROJ-CONV-M2)
  uint8_t marker = 0;                     ///< byte 7 & 0xFC
  /// Byte 7 is 0x80 and bytes 2..6 are zero: the form the `rLO:rHI` spelling writes.
  bool register_form = false;
  /// Bits 63..58 clear (marker IMM): the value is the address, the form `dev:` and location spellings write.
  bool plain_immediate = false;
  bool shape_from_register = false;
  uint64_t address = 0;             ///< immediate form: bits 63..58 cleared (PROJ-CONV-M2)
  Region region = Region::Outside;  ///< immediate form: the low SBUF/PSUM region or flat memory (PROJ-CONV-N4)
  PartitionAddress on_chip;         ///< immediate form inside SBUF/PSUM
  uint8_t reg_lo = 0, reg_hi = 0;
  bool table_offset_reg = false, table_offset_wide = false;
};

Addr8Meaning describe(const Addr8& a, Generation g);

/// One-line renderings: "sbuf p3 +0x40 (quadrant 0)", "psum p0 bank2 +0x10", "r5", "r4:r5", "dev:0x2000001000".
std::string to_string(const PartitionAddress& p);
std::string to_string(const Addr4Meaning& m);
std::string to_string(const Addr8Meaning& m);

}  // namespace tpbisa
