// Addresses: SBUF/PSUM partition decode per generation and the ADDR4 / ADDR8 mode descriptions.
#include <gtest/gtest.h>

#include <string>

#include "../support/test_util.hpp"
#include "tpbisa/address.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/generation.hpp"

namespace tpbisa {
namespace {

using test::kCa;
using test::kMa;
using test::kMv;
using test::kSu;
constexpr Generation kSuToMa[] = {kSu, kCa, kMa};

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

// ---------------------------------------------------------------- geometry

TEST(Geometry, ConstantsPerGeneration) {
  EXPECT_EQ(geometry(kSu).sbuf_partition_size, 0x40000U);
  EXPECT_EQ(geometry(kMv).sbuf_partition_size, 0x100000U);
  EXPECT_EQ(geometry(kSu).sbuf_partition_active, 0x30000U);
  EXPECT_EQ(geometry(kCa).sbuf_partition_active, 0x38000U);
  EXPECT_EQ(geometry(kMa).sbuf_partition_active, 0x40000U);
  EXPECT_EQ(geometry(kMv).sbuf_partition_active, 0x80000U);
  EXPECT_EQ(geometry(kCa).sbuf_size, 0x2000000U);
  EXPECT_EQ(geometry(kMv).sbuf_size, 0x8000000U);
  EXPECT_EQ(geometry(kCa).psum_size, 0x400000U);
  EXPECT_EQ(geometry(kMv).psum_size, 0U);
  for (Generation g : kAllGenerations) {
    EXPECT_EQ(geometry(g).sbuf_partitions, 128U);
    EXPECT_EQ(geometry(g).sbuf_offset, 0U);
    EXPECT_EQ(geometry(g).psum_offset, 0x2000000U);
    EXPECT_EQ(geometry(g).psum_partition_size, 0x8000U);
    EXPECT_EQ(geometry(g).psum_partition_active, 0x4000U);
    EXPECT_EQ(geometry(g).channels, 128U);
  }
}

// ---------------------------------------------------------------- SBUF

TEST(PartitionOffset, SbufPartitionOffsetQuadrant) {
  const PartitionAddress p = decode_partition_offset(0x800000, kCa);
  EXPECT_EQ(p.region, Region::Sbuf);
  EXPECT_EQ(p.partition, 32U);
  EXPECT_EQ(p.offset, 0U);
  EXPECT_EQ(p.quadrant, 1U);
  EXPECT_TRUE(p.backed);

  // The runtime's CAYMAN quadrant bases 0x0, 0x800000, 0x1000000, 0x1800000.
  const uint32_t bases[] = {0x0, 0x800000, 0x1000000, 0x1800000};
  for (uint32_t q = 0; q < 4; ++q) {
    const PartitionAddress b = decode_partition_offset(bases[q], kCa);
    EXPECT_EQ(b.partition, 32 * q);
    EXPECT_EQ(b.quadrant, q);
  }

  const PartitionAddress mid = decode_partition_offset(3 * 0x40000 + 0x40, kSu);
  EXPECT_EQ(mid.region, Region::Sbuf);
  EXPECT_EQ(mid.partition, 3U);
  EXPECT_EQ(mid.offset, 0x40U);
  EXPECT_EQ(mid.quadrant, 0U);

  const PartitionAddress last = decode_partition_offset(0x1FFFFFF, kMa);
  EXPECT_EQ(last.region, Region::Sbuf);
  EXPECT_EQ(last.partition, 127U);
  EXPECT_EQ(last.offset, 0x3FFFFU);
  EXPECT_EQ(last.quadrant, 3U);
}

TEST(PartitionOffset, MaverickSbufStrideIsOneMiBAndBit25IsNotPsum) {
  const PartitionAddress p1 = decode_partition_offset(0x100000, kMv);
  EXPECT_EQ(p1.region, Region::Sbuf);
  EXPECT_EQ(p1.partition, 1U);
  EXPECT_EQ(p1.offset, 0U);
  // On SUNDA-MARIANA the same address is partition 4.
  EXPECT_EQ(decode_partition_offset(0x100000, kCa).partition, 4U);

  // PROJ-CONV-N1: partition bits 26..20, quadrant bits 26..25, offset bits 19..0; no PSUM.
  const PartitionAddress b25 = decode_partition_offset(0x2000000, kMv);
  EXPECT_EQ(b25.region, Region::Sbuf);
  EXPECT_EQ(b25.partition, 32U);
  EXPECT_EQ(b25.quadrant, 1U);
  EXPECT_EQ(b25.offset, 0U);
  EXPECT_FALSE(addr_in_psum(0x2000000, kMv));
  EXPECT_TRUE(addr_in_sbuf(0x2000000, kMv));
  EXPECT_TRUE(addr_in_psum(0x2000000, kCa));
  EXPECT_FALSE(addr_in_sbuf(0x2000000, kCa));

  const PartitionAddress top = decode_partition_offset(0x7FFFFFF, kMv);
  EXPECT_EQ(top.region, Region::Sbuf);
  EXPECT_EQ(top.partition, 127U);
  EXPECT_EQ(top.quadrant, 3U);
  EXPECT_EQ(top.offset, 0xFFFFFU);
  EXPECT_FALSE(top.backed);  // beyond the 512 KiB active size

  const PartitionAddress q2 = decode_partition_offset(0x4000000 + 5 * 0x100000 + 0x7FFFF, kMv);
  EXPECT_EQ(q2.partition, 69U);
  EXPECT_EQ(q2.quadrant, 2U);
  EXPECT_EQ(q2.offset, 0x7FFFFU);
  EXPECT_TRUE(q2.backed);
  EXPECT_FALSE(decode_partition_offset(0x80000, kMv).backed);
}

TEST(PartitionOffset, BackedVersusBeyondActiveSize) {
  // CAYMAN: 224 KiB active per 256 KiB stride.
  EXPECT_TRUE(decode_partition_offset(0x37FFF, kCa).backed);
  const PartitionAddress beyond = decode_partition_offset(0x38000, kCa);
  EXPECT_EQ(beyond.region, Region::Sbuf);
  EXPECT_EQ(beyond.partition, 0U);
  EXPECT_EQ(beyond.offset, 0x38000U);
  EXPECT_FALSE(beyond.backed);
  EXPECT_FALSE(decode_partition_offset(0x40000 * 7 + 0x3C000, kCa).backed);
  // SUNDA: 192 KiB; MARIANA: the whole 256 KiB stride.
  EXPECT_FALSE(decode_partition_offset(0x30000, kSu).backed);
  EXPECT_TRUE(decode_partition_offset(0x2FFFF, kSu).backed);
  EXPECT_TRUE(decode_partition_offset(0x38000, kMa).backed);
  EXPECT_TRUE(decode_partition_offset(0x3FFFF, kMa).backed);
}

// ---------------------------------------------------------------- PSUM

TEST(PartitionOffset, PsumPartitionAndBank) {
  const uint32_t a = 0x2000000 + 3 * 0x8000 + 2 * 2048 + 0x10;
  for (Generation g : kSuToMa) {
    SCOPED_TRACE(to_string(g));
    const PartitionAddress p = decode_partition_offset(a, g);
    EXPECT_EQ(p.region, Region::Psum);
    EXPECT_EQ(p.partition, 3U);
    EXPECT_EQ(p.bank, 2U);
    EXPECT_EQ(p.offset, 2U * 2048 + 0x10);
    EXPECT_EQ(p.quadrant, 0U);
    EXPECT_TRUE(p.backed);
  }
  const PartitionAddress q1 = decode_partition_offset(0x2000000 + 40 * 0x8000 + 7 * 2048, kCa);
  EXPECT_EQ(q1.partition, 40U);
  EXPECT_EQ(q1.quadrant, 1U);
  EXPECT_EQ(q1.bank, 7U);
  EXPECT_TRUE(q1.backed);
  // 16 KiB of the 32 KiB stride are backed.
  const PartitionAddress pad = decode_partition_offset(0x2000000 + 0x4000, kCa);
  EXPECT_EQ(pad.region, Region::Psum);
  EXPECT_EQ(pad.partition, 0U);
  EXPECT_FALSE(pad.backed);
  const PartitionAddress last = decode_partition_offset(0x23FFFFF, kMa);
  EXPECT_EQ(last.region, Region::Psum);
  EXPECT_EQ(last.partition, 127U);
  EXPECT_EQ(last.quadrant, 3U);
  // On MAVERICK the same address is SBUF.
  EXPECT_EQ(decode_partition_offset(a, kMv).region, Region::Sbuf);
  EXPECT_EQ(decode_partition_offset(a, kMv).partition, 32U);
}

TEST(PartitionOffset, OutsideBothRegions) {
  for (Generation g : kSuToMa) {
    EXPECT_EQ(decode_partition_offset(0x2400000, g).region, Region::Outside) << to_string(g);
    EXPECT_EQ(decode_partition_offset(0x1FFFFFFF, g).region, Region::Outside) << to_string(g);
    EXPECT_FALSE(addr_in_sbuf(0x2400000, g));
    EXPECT_FALSE(addr_in_psum(0x2400000, g));
  }
  EXPECT_EQ(decode_partition_offset(0x2400000, kMv).region, Region::Sbuf);
  EXPECT_EQ(decode_partition_offset(0x8000000, kMv).region, Region::Outside);
  EXPECT_FALSE(addr_in_sbuf(0x8000000, kMv));
  const PartitionAddress out = decode_partition_offset(0x8000000, kMv);
  EXPECT_EQ(out.masked, 0x8000000U);
  EXPECT_FALSE(out.backed);
}

TEST(PartitionOffset, OnlyTheLow29BitsAreAddress) {
  const PartitionAddress p = decode_partition_offset(0xE0800040, kCa);
  EXPECT_EQ(p.masked, 0x00800040U);
  EXPECT_EQ(p.region, Region::Sbuf);
  EXPECT_EQ(p.partition, 32U);
  EXPECT_EQ(p.offset, 0x40U);
  EXPECT_EQ(decode_partition_offset(0x22000000, kCa).region, Region::Psum);
}

// ---------------------------------------------------------------- ADDR4

TEST(Addr4Describe, Immediate) {
  const Addr4Meaning m = describe(Addr4{0x00800040}, kCa);
  EXPECT_EQ(m.mode, Addr4Mode::Immediate);
  EXPECT_EQ(m.marker, 0x00);
  EXPECT_FALSE(m.from_register);
  EXPECT_FALSE(m.shape_from_register);
  EXPECT_FALSE(m.indirect);
  EXPECT_EQ(m.target.region, Region::Sbuf);
  EXPECT_EQ(m.target.partition, 32U);
  EXPECT_EQ(m.target.offset, 0x40U);
  // In immediate mode bits 28..24 are ordinary address bits.
  const Addr4Meaning hi = describe(Addr4{0x01000000}, kCa);
  EXPECT_EQ(hi.mode, Addr4Mode::Immediate);
  EXPECT_EQ(hi.target.partition, 64U);
  // PROJ-CONV-C7: byte 3 = 0x01 on MAVERICK is address bit 24, never the MXTENSOR_V2 marker.
  const Addr4Meaning mx = describe(Addr4{0x01000000}, kMv);
  EXPECT_EQ(mx.mode, Addr4Mode::Immediate);
  EXPECT_EQ(mx.target.region, Region::Sbuf);
  EXPECT_EQ(mx.target.partition, 16U);
}

TEST(Addr4Describe, ShapeFromRegisterWithImmediateAddress) {
  const Addr4Meaning m = describe(Addr4{0x40000100}, kCa);
  EXPECT_EQ(m.mode, Addr4Mode::ShapeRegImmediate);
  EXPECT_EQ(m.marker, 0x40);
  EXPECT_TRUE(m.shape_from_register);
  EXPECT_FALSE(m.from_register);
  EXPECT_FALSE(m.indirect);
  EXPECT_EQ(m.target.region, Region::Sbuf);
  EXPECT_EQ(m.target.offset, 0x100U);
  EXPECT_TRUE(contains(to_string(m), "shape from register"));
}

TEST(Addr4Describe, RegisterForms) {
  const Addr4Meaning r = describe(Addr4{0x80000005}, kCa);
  EXPECT_EQ(r.mode, Addr4Mode::Register);
  EXPECT_TRUE(r.from_register);
  EXPECT_FALSE(r.shape_from_register);
  EXPECT_EQ(r.regnum, 5);
  EXPECT_TRUE(contains(to_string(r), "r5"));
  const Addr4Meaning rs = describe(Addr4{0xC000003F}, kMa);
  EXPECT_EQ(rs.mode, Addr4Mode::RegisterShape);
  EXPECT_TRUE(rs.from_register);
  EXPECT_TRUE(rs.shape_from_register);
  EXPECT_EQ(rs.regnum, 63);
  // The register number is the low byte, whatever the reserved bytes hold.
  EXPECT_EQ(describe(Addr4{0x80FFFF07}, kCa).regnum, 7);
}

TEST(Addr4Describe, IndirectForms) {
  const Addr4Meaning imm = describe(Addr4{0x20000080}, kCa);
  EXPECT_EQ(imm.mode, Addr4Mode::Indirect);
  EXPECT_TRUE(imm.indirect);
  EXPECT_FALSE(imm.from_register);
  EXPECT_FALSE(imm.shape_from_register);
  const Addr4Meaning reg = describe(Addr4{0xA0000007}, kCa);
  EXPECT_EQ(reg.mode, Addr4Mode::Indirect);
  EXPECT_TRUE(reg.indirect);
  EXPECT_EQ(reg.marker, 0xA0);
  EXPECT_EQ(reg.regnum, 7);
}

// INDIRECT_REG (0xA0) has bit 31 "address from register" set (common-formats.md §5.2: "base from immediate /
// register as above"), so its description must name the base register, not an immediate base.
TEST(Addr4Describe, IndirectRegisterBaseIsNamed) {
  const std::string text = to_string(describe(Addr4{0xA0000007}, kCa));
  EXPECT_TRUE(contains(text, "r7")) << text;
  EXPECT_FALSE(contains(text, "immediate base")) << text;
  const std::string imm = to_string(describe(Addr4{0x20000007}, kCa));
  EXPECT_TRUE(contains(imm, "immediate base")) << imm;
}

// PROJ-CONV-C19: bit 30 alone; the unlisted patterns 0x60 and 0xE0 count as shape-from-register.
TEST(Addr4Describe, ShapeBitAloneConvC19) {
  for (uint8_t marker : {uint8_t{0x60}, uint8_t{0xE0}, uint8_t{0x7F}, uint8_t{0xFF}}) {
    const Addr4Meaning m = describe(Addr4{static_cast<uint32_t>(marker) << 24}, kCa);
    EXPECT_TRUE(m.shape_from_register) << unsigned{marker};
    EXPECT_FALSE(m.indirect) << unsigned{marker};  // (byte3 & 0x60) != 0x20
  }
  EXPECT_EQ(describe(Addr4{0x60000000}, kCa).mode, Addr4Mode::ShapeRegImmediate);
  for (unsigned b = 0; b < 256; ++b) {
    const Addr4 a{b << 24};
    EXPECT_EQ(a.shape_from_register(), (b & 0x40U) != 0) << b;
    EXPECT_EQ(a.from_register(), (b & 0xA0U) == 0x80) << b;
    EXPECT_EQ(a.is_indirect(), (b & 0x60U) == 0x20) << b;
    EXPECT_EQ(describe(a, kMa).shape_from_register, (b & 0x40U) != 0) << b;
  }
}

// ---------------------------------------------------------------- ADDR8

TEST(Addr8Describe, ImmediateClearsMarkerBitsKeeps57To56) {
  const Addr8Meaning m = describe(Addr8{0x0300000000001000ULL}, kCa);
  EXPECT_EQ(m.mode, Addr8Mode::Immediate);
  EXPECT_EQ(m.marker, 0x00);
  EXPECT_EQ(m.address, 0x0300000000001000ULL);  // bits 57..56 are address bits
  EXPECT_EQ(m.region, Region::Outside);
  // Shape-register marker with an immediate address: bits 63..58 cleared (PROJ-CONV-M2).
  const Addr8Meaning s = describe(Addr8{0x4100000000001000ULL}, kCa);
  EXPECT_EQ(s.mode, Addr8Mode::Immediate);
  EXPECT_EQ(s.marker, 0x40);
  EXPECT_TRUE(s.shape_from_register);
  EXPECT_EQ(s.address, 0x0100000000001000ULL);
  const Addr8Meaning all = describe(Addr8{0x5FFFFFFFFFFFFFFFULL}, kCa);
  EXPECT_EQ(all.mode, Addr8Mode::Immediate);
  EXPECT_EQ(all.address, 0x03FFFFFFFFFFFFFFULL);
  EXPECT_EQ(Addr8{0xFFFFFFFFFFFFFFFFULL}.immediate(), 0x03FFFFFFFFFFFFFFULL);
}

TEST(Addr8Describe, ImmediateLowRegionAliasesSbufAndPsum) {
  const Addr8Meaning sb = describe(Addr8{0x800040}, kCa);
  EXPECT_EQ(sb.mode, Addr8Mode::Immediate);
  EXPECT_EQ(sb.region, Region::Sbuf);
  EXPECT_EQ(sb.on_chip.partition, 32U);
  EXPECT_EQ(sb.on_chip.offset, 0x40U);
  const uint64_t ps = 0x2000000 + 3 * 0x8000 + 2 * 2048 + 0x10;
  const Addr8Meaning p = describe(Addr8{ps}, kMa);
  EXPECT_EQ(p.region, Region::Psum);
  EXPECT_EQ(p.on_chip.partition, 3U);
  EXPECT_EQ(p.on_chip.bank, 2U);
  EXPECT_EQ(describe(Addr8{ps}, kMv).region, Region::Sbuf);
  // Beyond the low region: flat memory (0x2400000 on SUNDA-MARIANA, 0x8000000 on MAVERICK).
  EXPECT_EQ(describe(Addr8{0x2400000}, kSu).region, Region::Outside);
  EXPECT_EQ(describe(Addr8{0x2400000}, kMv).region, Region::Sbuf);
  EXPECT_EQ(describe(Addr8{0x8000000}, kMv).region, Region::Outside);
}

// PROJ-CONV-N4: the SoC aperture 0x20_0000_0000 is not mapped; no 29-bit mask on a Neuron address.
TEST(Addr8Describe, FlatMemoryAboveTheLowRegionConvN4) {
  const Addr8Meaning m = describe(Addr8{0x2000001000ULL}, kCa);
  EXPECT_EQ(m.mode, Addr8Mode::Immediate);
  EXPECT_EQ(m.address, 0x2000001000ULL);
  EXPECT_EQ(m.region, Region::Outside);
  EXPECT_TRUE(contains(to_string(m), "0x2000001000")) << to_string(m);
  // 0x1_0000_1000 would alias 0x1000 if the address were truncated or masked.
  EXPECT_EQ(describe(Addr8{0x100001000ULL}, kCa).region, Region::Outside);
  EXPECT_EQ(describe(Addr8{0x20001000ULL}, kCa).region, Region::Outside);  // would be 0x1000 after a 29-bit mask
  EXPECT_EQ(describe(Addr8{0x1000}, kCa).region, Region::Sbuf);
}

TEST(Addr8Describe, RegisterPair) {
  const Addr8Meaning r = describe(Addr8{0x8000000000000504ULL}, kCa);
  EXPECT_EQ(r.mode, Addr8Mode::RegisterPair);
  EXPECT_EQ(r.marker, 0x80);
  EXPECT_EQ(r.reg_lo, 4);
  EXPECT_EQ(r.reg_hi, 5);
  EXPECT_FALSE(r.shape_from_register);
  EXPECT_TRUE(contains(to_string(r), "r4:r5")) << to_string(r);
  const Addr8Meaning rs = describe(Addr8{0xC000000000000A0BULL}, kMv);
  EXPECT_EQ(rs.mode, Addr8Mode::RegisterPair);
  EXPECT_TRUE(rs.shape_from_register);
  EXPECT_EQ(rs.reg_lo, 0x0B);
  EXPECT_EQ(rs.reg_hi, 0x0A);
  // Bits 1..0 of byte 7 are not marker bits.
  EXPECT_EQ(describe(Addr8{0x8300000000000100ULL}, kCa).mode, Addr8Mode::RegisterPair);
}

TEST(Addr8Describe, TableForms) {
  const Addr8Meaning t20 = describe(Addr8{0x2000000000000000ULL}, kCa);
  EXPECT_EQ(t20.mode, Addr8Mode::Table);
  EXPECT_FALSE(t20.shape_from_register);
  EXPECT_FALSE(t20.table_offset_reg);
  EXPECT_FALSE(t20.table_offset_wide);
  const Addr8Meaning t60 = describe(Addr8{0x6000000000000000ULL}, kCa);
  EXPECT_EQ(t60.mode, Addr8Mode::Table);
  EXPECT_TRUE(t60.shape_from_register);
  const Addr8Meaning t28 = describe(Addr8{0x2800000000000000ULL}, kCa);
  EXPECT_EQ(t28.mode, Addr8Mode::Table);
  EXPECT_TRUE(t28.table_offset_reg);
  EXPECT_FALSE(t28.table_offset_wide);
  const Addr8Meaning t2c = describe(Addr8{0x2C00000000000000ULL}, kCa);
  EXPECT_EQ(t2c.mode, Addr8Mode::Table);
  EXPECT_TRUE(t2c.table_offset_reg);
  EXPECT_TRUE(t2c.table_offset_wide);
  EXPECT_EQ(t2c.marker, 0x2C);
  // Register and table bits together are no listed form.
  EXPECT_EQ(describe(Addr8{0xA000000000000000ULL}, kCa).mode, Addr8Mode::Other);
}

}  // namespace
}  // namespace tpbisa
