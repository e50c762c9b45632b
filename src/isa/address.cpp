// One-line renderings of on-chip, ADDR4 and ADDR8 addresses (memory-and-numerics.md §2-§5); the decode is inline in the
// header.
#include "tpbisa/address.hpp"

#include <fmt/format.h>

#include "tpbisa/location.hpp"

namespace tpbisa {

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
