// The decoded instruction, and decode/encode between it and the 64-byte word.
#pragma once

#include <span>
#include <type_traits>
#include <variant>

#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/generation.hpp"

namespace tpbisa {

/// How much of a word the decoder understood.
enum class DecodeStatus : uint8_t {
  Modeled,     ///< opcode of this generation with a modeled operand format
  NotModeled,  ///< opcode of this generation, operand bytes kept raw
  Unknown,     ///< opcode not in this generation's OPCODE enum
};

struct Instruction {
  Generation gen = kDefaultGeneration;
  DecodeStatus status = DecodeStatus::Unknown;
  /// Catalog row of the opcode, when any generation has it (also for Unknown: e.g. 0x87 on CAYMAN).
  const OpcodeInfo* info = nullptr;
  Operands body{};

  const Header& header() const;
  /// The word's EVENTS; all zero (no wait, no update) for a layout whose bytes 4-11 are not EVENTS.
  const Events& events() const;
  /// Whether bytes 4-11 of the word are its EVENTS (every layout but those that declare kNoEvents).
  bool carries_events() const { return kCarriesEvents[body.index()]; }
  uint8_t opcode() const { return header().opcode; }
  /// Catalog mnemonic for known opcodes, "unknown" otherwise.
  std::string_view name() const;
  /// ISA format name (MEM_2D, S2_BN, ...) or "not-modeled" / "unknown".
  std::string_view format_name() const;

  template <class S>
  const S* as() const {
    return std::get_if<S>(&body);
  }

  bool operator==(const Instruction&) const = default;
};

/// Decodes any 64 bytes; never fails. Header and events are always decoded.
Instruction decode(std::span<const uint8_t, kWordBytes> bytes, Generation gen);
/// Encodes every field back into 64 bytes (reserved bytes included).
Word encode(const Instruction& inst);

/// Typed encoder, for building words from fields: any registered layout, or RawWord.
template <class S>
requires(std::is_same_v<S, RawWord> || Layout<S>) Word encode(const S& f) {
  Word w{};
  write_format(f, w);
  return w;
}

/// Parses hex text into words: exactly 128 hex digits per word; whitespace, '_' and a leading "0x" on each
/// group are tolerated. Returns false and fills `error` with what and where when the text is not that.
struct HexError {
  size_t position = 0;  ///< character offset in the text
  size_t digits = 0;    ///< hex digits seen before the error
  std::string_view what;
};
bool parse_hex_word(std::string_view text, Word& out, HexError& error);

}  // namespace tpbisa
