// Geometry per generation and the decode of on-chip and Neuron addresses (memory-and-numerics.md §2-§5).
#include "tpbisa/address.hpp"

#include <array>

#include <fmt/format.h>

#include "tpbisa/location.hpp"

namespace tpbisa {
namespace {

constexpr uint64_t kAddr8RegReservedMask = 0x00FFFFFFFFFF0000ULL;  // addr_reg.reserved0[5], bytes 2..6

}  // namespace

bool addr_in_sbuf(uint32_t x, Generation g) {
  const Geometry& geo = geometry(g);
  return x >= geo.sbuf_offset && x < geo.sbuf_offset + geo.sbuf_size;
}

bool addr_in_psum(uint32_t x, Generation g) {
  const Geometry& geo = geometry(g);
  return geo.psum_size != 0 && x >= geo.psum_offset && x < geo.psum_offset + geo.psum_size;
}

PartitionAddress decode_partition_offset(uint32_t addr, Generation g) {
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

Addr4Meaning describe(const Addr4& a, Generation g) {
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

Addr8Meaning describe(const Addr8& a, Generation g) {
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

std::string to_string(const PartitionAddress& p) {
  std::string text;
  if (!append_location(text, p)) return fmt::format("{:#x} (outside SBUF and PSUM)", p.masked);
  return text + fmt::format(" (quadrant {}{})", p.quadrant, p.backed ? "" : ", beyond active bytes");
}

std::string to_string(const Addr4Meaning& m) {
  switch (m.mode) {
    case Addr4Mode::Register: return fmt::format("r{} (address from register)", m.regnum);
    case Addr4Mode::RegisterShape: return fmt::format("r{} (address from register, shape from register)", m.regnum);
    case Addr4Mode::Indirect:
      // INDIRECT_REG (0xA0) takes its base from a register although addr4_from_register is false for it.
      return fmt::format("indirect (marker {:#04x}){}", m.marker,
                         (m.marker & 0x80) != 0 ? fmt::format(", base r{}", m.regnum) : ", immediate base");
    case Addr4Mode::ShapeRegImmediate: return to_string(m.target) + ", shape from register";
    case Addr4Mode::Immediate:
    case Addr4Mode::Other: break;
  }
  return to_string(m.target);
}

std::string to_string(const Addr8Meaning& m) {
  const std::string shape = m.shape_from_register ? ", shape bit set" : "";
  switch (m.mode) {
    case Addr8Mode::Immediate:
      if (m.region != Region::Outside)
        return fmt::format("{} = {}{}", device_location(m.address), to_string(m.on_chip), shape);
      return fmt::format("{} (flat device memory){}", device_location(m.address), shape);
    case Addr8Mode::RegisterPair: return fmt::format("r{}:r{} (register pair, lo:hi){}", m.reg_lo, m.reg_hi, shape);
    case Addr8Mode::Table:
      return fmt::format("address table (marker {:#04x}{}{}){}", m.marker,
                         m.table_offset_reg ? ", offset from register" : "", m.table_offset_wide ? ", wide offset" : "",
                         shape);
    case Addr8Mode::Other: break;
  }
  return fmt::format("unlisted marker {:#04x}", m.marker);
}

}  // namespace tpbisa
