// The one location grammar: where a byte of Neuron memory is, as a user types it and as the tool prints it.
//
// Accepted (case-insensitive, numbers decimal or 0x hex):
//   sbuf[pP]+OFF   sbuf[pP]          sbuf:P:OFF       SBUF partition P, byte OFF
//   psum[pP].bankB+OFF  psum[pP]+OFF psum:P:OFF       PSUM partition P, byte B * bank size + OFF
//   dev:ADDR                                          a Neuron address
// Printed: sbuf[p2]+0x100, psum[p0].bank1+0x10, dev:0x10000000 -- by one printer, which decode, disasm, the
// trace and the messages all use. The assembler reads its operands with the same parser (LocationScope::Stride).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tpbisa/address.hpp"
#include "tpbisa/expected.hpp"
#include "tpbisa/generation.hpp"

namespace tpbisa {

struct Location {
  enum class Kind : uint8_t { Dev, Sbuf, Psum };
  Kind kind = Kind::Dev;
  uint64_t address = 0;    ///< Neuron address of the first byte
  uint32_t partition = 0;  ///< sbuf/psum
  uint32_t offset = 0;     ///< sbuf/psum: byte offset inside the partition
};

/// The location forms, for messages: "sbuf[pP]+OFF, psum[pP].bankB+OFF, dev:ADDR (or sbuf:P:OFF, psum:P:OFF)".
extern const std::string_view kLocationForms;

/// Which on-chip bytes a parsed location may name.
enum class LocationScope : uint8_t {
  Backed,  ///< a byte backed by SRAM (sbuf_address / psum_address): state, dumps
  Stride,  ///< any byte of the partition's address stride: an instruction operand, judged later by the validator
};

/// Parses a location on `g`: the partition must exist and the offset lie in `scope`. The error (Syntax or Range)
/// names what is wrong, not the input it came from (the caller adds that).
Expected<Location> parse_location(std::string_view text, Generation g, LocationScope scope = LocationScope::Backed);

/// The printed spelling: sbuf[p2]+0x100, psum[p0].bank1+0x10, dev:0x2000.
std::string to_string(const Location& loc, Generation g);
/// The printed spelling of a Neuron address: dev:0x2000.
std::string device_location(uint64_t address);
/// Appends the printed spelling of a decoded on-chip address; false, appending nothing, outside SBUF and PSUM.
bool append_location(std::string& out, const PartitionAddress& p);

/// Checks that `bytes` bytes from `loc` are addressable on `g`: inside the partition's backed bytes for
/// sbuf/psum; for dev, not past 2^64 and, in the low SBUF/PSUM region (PROJ-CONV-N4), inside one partition's
/// backed bytes.
Expected<void> check_extent(const Location& loc, Generation g, uint64_t bytes);

/// An unsigned number in decimal or 0x hex (no sign, no spaces); nullopt-like failure when it is not one or does
/// not fit 64 bits. `too_big` is set when the text is a number that does not fit.
bool parse_u64_text(std::string_view text, uint64_t& out, bool* too_big = nullptr);

}  // namespace tpbisa
