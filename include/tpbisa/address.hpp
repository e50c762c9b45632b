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

/// addr_in_sbuf / addr_in_psum on a masked address. Forced inline (as the decode and `describe` below): the
/// validator's raw-word acceptor calls them per operand, and out of line the call and the returned struct (stored,
/// then reloaded whole) cost more than the arithmetic; inlined, only the fields the caller reads are computed.
[[gnu::always_inline]] constexpr bool addr_in_sbuf(uint32_t x, Generation g) {
  const Geometry& geo = geometry(g);
  return x >= geo.sbuf_offset && x < geo.sbuf_offset + geo.sbuf_size;
}
[[gnu::always_inline]] constexpr bool addr_in_psum(uint32_t x, Generation g) {
  const Geometry& geo = geometry(g);
  return geo.psum_size != 0 && x >= geo.psum_offset && x < geo.psum_offset + geo.psum_size;
}

[[gnu::always_inline]] constexpr PartitionAddress decode_partition_offset(uint32_t addr, Generation g) {
  const Geometry& geo = geometry(g);
  PartitionAddress p;
  p.masked = addr & kPartitionAddrMask;
  if (addr_in_sbuf(p.masked, g)) {
    const uint32_t rel = p.masked - geo.sbuf_offset;
    p.region = Region::Sbuf;
    p.partition = rel >> geo.sbuf_partition_shift;
    p.offset = rel & (geo.sbuf_partition_size - 1);
    p.quadrant = p.partition / 32;
    p.backed = p.offset < geo.sbuf_partition_active;
  } else if (addr_in_psum(p.masked, g)) {
    const uint32_t rel = p.masked - geo.psum_offset;
    p.region = Region::Psum;
    p.partition = rel >> geo.psum_partition_shift;
    p.offset = rel & (geo.psum_partition_size - 1);
    p.quadrant = p.partition / 32;
    p.bank = p.offset >> geo.psum_bank_shift;
    p.in_bank = p.offset & (geo.psum_bank_size - 1);
    p.backed = p.offset < geo.psum_partition_active;
  }
  return p;
}

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

[[gnu::always_inline]] constexpr Addr4Meaning describe(const Addr4& a, Generation g) {
  Addr4Meaning m;
  m.marker = a.marker();
  m.from_register = a.from_register();
  m.shape_from_register = a.shape_from_register();
  m.indirect = a.is_indirect();
  m.regnum = a.regnum();
  if (m.indirect)
    m.mode = Addr4Mode::Indirect;
  else if (m.from_register)
    m.mode = m.shape_from_register ? Addr4Mode::RegisterShape : Addr4Mode::Register;
  else if (m.shape_from_register)
    m.mode = Addr4Mode::ShapeRegImmediate;
  else
    m.mode = Addr4Mode::Immediate;
  m.register_base = m.from_register || (m.indirect && (m.marker & 0x80) != 0);
  m.register_form = m.marker == addr4_marker::kAddrReg && a.byte(1) == 0 && a.byte(2) == 0;
  m.plain_immediate = (a.raw & ~kPartitionAddrMask) == 0;
  m.target = decode_partition_offset(a.raw, g);
  return m;
}

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

inline constexpr uint64_t kAddr8RegReservedMask = 0x00FFFFFFFFFF0000ULL;  ///< addr_reg.reserved0[5], bytes 2..6

[[gnu::always_inline]] constexpr Addr8Meaning describe(const Addr8& a, Generation g) {
  Addr8Meaning m;
  m.marker = a.marker();
  m.shape_from_register = a.shape_from_register();
  m.reg_lo = a.reg_lo();
  m.reg_hi = a.reg_hi();
  m.plain_immediate = m.marker == addr8_marker::kImm;
  m.register_form = a.byte(7) == addr8_marker::kAddrReg && (a.raw & kAddr8RegReservedMask) == 0;
  if (a.is_immediate()) {
    m.mode = Addr8Mode::Immediate;
    m.address = a.immediate();
    // PROJ-CONV-N4: only the low region aliases SBUF/PSUM; no 29-bit mask on a Neuron address.
    if (m.address <= 0xFFFFFFFFULL) {
      const uint32_t low = static_cast<uint32_t>(m.address);
      if (addr_in_sbuf(low, g) || addr_in_psum(low, g)) {
        m.on_chip = decode_partition_offset(low, g);
        m.region = m.on_chip.region;
      }
    }
  } else if (a.is_register_pair()) {
    m.mode = Addr8Mode::RegisterPair;
  } else if ((m.marker & 0x20) != 0 && (m.marker & 0x80) == 0) {
    m.mode = Addr8Mode::Table;
    m.table_offset_reg = (m.marker & 0x08) != 0;
    m.table_offset_wide = (m.marker & 0x04) != 0;
  } else {
    m.mode = Addr8Mode::Other;
  }
  return m;
}

/// One-line renderings: "sbuf p3 +0x40 (quadrant 0)", "psum p0 bank2 +0x10", "r5", "r4:r5", "dev:0x2000001000".
std::string to_string(const PartitionAddress& p);
std::string to_string(const Addr4Meaning& m);
std::string to_string(const Addr8Meaning& m);

}  // namespace tpbisa
