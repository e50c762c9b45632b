// The location grammar (sbuf[p2]+0x100, sbuf:2:0x100, psum[p0].bank1+0x10, dev:ADDR): one parser, one printer.
#include "tpbisa/location.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include <fmt/format.h>

#include "tpbisa/address.hpp"
#include "tpbisa/state.hpp"

namespace tpbisa {

const std::string_view kLocationForms = "sbuf[pP]+OFF, psum[pP].bankB+OFF, dev:ADDR (or sbuf:P:OFF, psum:P:OFF)";

bool parse_u64_text(std::string_view text, uint64_t& out, bool* too_big) {
  if (too_big != nullptr) *too_big = false;
  unsigned base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return false;
  uint64_t v = 0;
  bool overflow = false;
  for (char c : text) {
    unsigned d = 0;
    if (c >= '0' && c <= '9')
      d = static_cast<unsigned>(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = static_cast<unsigned>(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = static_cast<unsigned>(c - 'A' + 10);
    else
      return false;
    // Keep scanning past an overflow, so "99999999999999999999x" is still "not a number".
    if (overflow || v > (UINT64_MAX - d) / base)
      overflow = true;
    else
      v = v * base + d;
  }
  if (overflow) {
    if (too_big != nullptr) *too_big = true;
    return false;
  }
  out = v;
  return true;
}

namespace {

/// Text is quoted in messages; keep them one printable line whatever was typed.
std::string printable(std::string_view text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7F)
      out += fmt::format("\\x{:02x}", u);
    else
      out += c;
  }
  return out;
}

bool starts_with_i(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  return true;
}

Error syntax(std::string message) {
  return {ErrorKind::Syntax, std::move(message)};
}
Error range(std::string message) {
  return {ErrorKind::Range, std::move(message)};
}

Expected<uint32_t> number_u32(std::string_view text, std::string_view what) {
  uint64_t v = 0;
  if (!parse_u64_text(text, v) || v > UINT32_MAX)
    return syntax(fmt::format("{} '{}' is not a decimal or 0x hex number below 2^32", what, printable(text)));
  return static_cast<uint32_t>(v);
}

/// End of the low SBUF/PSUM region (PROJ-CONV-N4): addresses below it are on-chip.
uint64_t low_region_end(Generation g) {
  const Geometry& geo = geometry(g);
  return geo.psum_size != 0 ? uint64_t{geo.psum_offset} + geo.psum_size : uint64_t{geo.sbuf_offset} + geo.sbuf_size;
}

/// Partition P, byte OFF of SBUF or PSUM, checked against g's geometry.
Expected<Location> on_chip(bool sbuf, uint32_t p, uint64_t off, Generation g, LocationScope scope) {
  const Geometry& geo = geometry(g);
  if (!sbuf && geo.psum_size == 0) return range(fmt::format("{} has no PSUM", to_string(g)));
  const uint32_t parts = sbuf ? geo.sbuf_partitions : geo.psum_partitions;
  const uint32_t active = sbuf ? geo.sbuf_partition_active : geo.psum_partition_active;
  if (p >= parts)
    return range(fmt::format("partition {} is outside {} (partitions 0..{})", p, sbuf ? "SBUF" : "PSUM", parts - 1));
  if (scope == LocationScope::Stride) {
    const uint32_t stride = sbuf ? geo.sbuf_partition_size : geo.psum_partition_size;
    if (off >= stride)
      return range(fmt::format("offset {:#x} is beyond {} partition {}'s {:#x}-byte stride on {}", off,
                               sbuf ? "SBUF" : "PSUM", p, stride, to_string(g)));
    Location loc;
    loc.kind = sbuf ? Location::Kind::Sbuf : Location::Kind::Psum;
    loc.partition = p;
    loc.offset = static_cast<uint32_t>(off);
    loc.address = uint64_t{sbuf ? geo.sbuf_offset : geo.psum_offset} + uint64_t{p} * stride + off;
    return loc;
  }
  const auto a = off > UINT32_MAX ? std::nullopt
                 : sbuf           ? sbuf_address(g, p, static_cast<uint32_t>(off))
                                  : psum_address(g, p, static_cast<uint32_t>(off));
  if (!a)
    return range(fmt::format("offset {:#x} is outside {} partition {}'s {:#x} backed bytes on {}", off,
                             sbuf ? "SBUF" : "PSUM", p, active, to_string(g)));
  Location loc;
  loc.kind = sbuf ? Location::Kind::Sbuf : Location::Kind::Psum;
  loc.partition = p;
  loc.offset = static_cast<uint32_t>(off);
  loc.address = *a;
  return loc;
}

/// The bracket form after "sbuf[" or "psum[": pP] then, for psum, an optional .bankB, then an optional +OFF.
Expected<Location> bracket_form(std::string_view whole, std::string_view rest, bool sbuf, Generation g,
                                LocationScope scope) {
  const Error bad = syntax(fmt::format("'{}' is not a location ({})", printable(whole), kLocationForms));
  if (rest.empty() || (rest[0] != 'p' && rest[0] != 'P')) return bad;
  rest.remove_prefix(1);
  const size_t close = rest.find(']');
  if (close == std::string_view::npos) return bad;
  const auto p = number_u32(rest.substr(0, close), "partition");
  if (!p) return p.error();
  rest.remove_prefix(close + 1);
  uint64_t bank = 0, off = 0;
  if (!sbuf && starts_with_i(rest, ".bank")) {
    rest.remove_prefix(5);
    const size_t plus = std::min(rest.find('+'), rest.size());
    if (!parse_u64_text(rest.substr(0, plus), bank)) return bad;
    rest.remove_prefix(plus);
  }
  if (!rest.empty()) {
    if (rest[0] != '+') return bad;
    rest.remove_prefix(1);
    if (!parse_u64_text(rest, off)) return bad;
  }
  // Checked one by one before they are combined, so no product or sum can wrap.
  const Geometry& geo = geometry(g);
  if (bank != 0) {
    // A backed location lies in the SRAM banks; an operand may name any bank of the partition stride.
    const uint64_t banks =
        scope == LocationScope::Backed ? geo.psum_banks : geo.psum_partition_size / geo.psum_bank_size;
    if (bank >= banks && banks != 0)
      return range(fmt::format("bank {} is outside PSUM (banks 0..{})", bank, banks - 1));
    if (off >= geo.psum_bank_size)
      return range(fmt::format("offset {:#x} is beyond the {:#x} bytes of a PSUM bank", off, geo.psum_bank_size));
    off += bank * geo.psum_bank_size;
  }
  return on_chip(sbuf, *p, off, g, scope);
}

}  // namespace

Expected<Location> parse_location(std::string_view text, Generation g, LocationScope scope) {
  if (starts_with_i(text, "sbuf[")) return bracket_form(text, text.substr(5), true, g, scope);
  if (starts_with_i(text, "psum[")) return bracket_form(text, text.substr(5), false, g, scope);
  if (starts_with_i(text, "dev:")) {
    const std::string_view a = text.substr(4);
    uint64_t address = 0;
    if (!parse_u64_text(a, address))
      return syntax(fmt::format("address '{}' is not a decimal or 0x hex number below 2^64", printable(a)));
    Location loc;
    loc.address = address;
    return loc;
  }
  const bool sbuf = starts_with_i(text, "sbuf:");
  if (sbuf || starts_with_i(text, "psum:")) {
    const std::string_view rest = text.substr(5);
    const size_t colon = rest.find(':');
    if (colon == std::string_view::npos)
      return syntax(fmt::format("'{}' is not a location ({})", printable(text), kLocationForms));
    const auto p = number_u32(rest.substr(0, colon), "partition");
    if (!p) return p.error();
    const auto off = number_u32(rest.substr(colon + 1), "offset");
    if (!off) return off.error();
    return on_chip(sbuf, *p, *off, g, scope);
  }
  return syntax(fmt::format("'{}' is not a location ({})", printable(text), kLocationForms));
}

bool append_location(std::string& out, const PartitionAddress& p) {
  switch (p.region) {
    case Region::Sbuf: fmt::format_to(std::back_inserter(out), "sbuf[p{}]+{:#x}", p.partition, p.offset); return true;
    case Region::Psum:
      fmt::format_to(std::back_inserter(out), "psum[p{}].bank{}+{:#x}", p.partition, p.bank, p.in_bank);
      return true;
    case Region::Outside: break;
  }
  return false;
}

std::string to_string(const Location& loc, Generation g) {
  std::string text;
  // An on-chip location is the low-region address of its byte (PROJ-CONV-N4): one printer for both.
  if (loc.kind != Location::Kind::Dev && loc.address <= UINT32_MAX &&
      append_location(text, decode_partition_offset(static_cast<uint32_t>(loc.address), g)))
    return text;
  return device_location(loc.address);
}

std::string device_location(uint64_t address) {
  return fmt::format("dev:{:#x}", address);
}

Expected<void> check_extent(const Location& loc, Generation g, uint64_t bytes) {
  if (bytes == 0) return {};
  if (loc.kind != Location::Kind::Dev) {
    const bool sbuf = loc.kind == Location::Kind::Sbuf;
    const uint64_t last = uint64_t{loc.offset} + bytes - 1;
    const auto a = last > UINT32_MAX ? std::nullopt
                   : sbuf            ? sbuf_address(g, loc.partition, static_cast<uint32_t>(last))
                                     : psum_address(g, loc.partition, static_cast<uint32_t>(last));
    if (!a) {
      const Geometry& geo = geometry(g);
      return range(fmt::format("{} bytes at {} run past {} partition {}'s {:#x} backed bytes on {}", bytes,
                               to_string(loc, g), sbuf ? "SBUF" : "PSUM", loc.partition,
                               sbuf ? geo.sbuf_partition_active : geo.psum_partition_active, to_string(g)));
    }
    return {};
  }
  const uint64_t last = loc.address + (bytes - 1);
  if (last < loc.address)
    return range(fmt::format("{} bytes at {} run past the end of the 64-bit address space", bytes, to_string(loc, g)));
  const uint64_t low_end = low_region_end(g);
  if (loc.address >= low_end) return {};  // flat device memory (PROJ-CONV-N4)
  const PartitionAddress first = decode_partition_offset(static_cast<uint32_t>(loc.address), g);
  const PartitionAddress end = decode_partition_offset(static_cast<uint32_t>(std::min(last, low_end - 1)), g);
  if (last < low_end && first.region != Region::Outside && first.backed && end.backed && first.region == end.region &&
      first.partition == end.partition)
    return {};
  return range(
      fmt::format("{} bytes at {} are in the on-chip SBUF/PSUM region of {} but not inside one partition's "
                  "backed bytes (PROJ-CONV-N2; write sbuf[pP]+OFF or psum[pP]+OFF)",
                  bytes, to_string(loc, g), to_string(g)));
}

}  // namespace tpbisa
