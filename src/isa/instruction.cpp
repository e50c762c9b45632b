// Decode and encode: the typed formats are read and written through their one field declaration.
#include "tpbisa/instruction.hpp"

#include <array>
#include <cctype>
#include <utility>

namespace tpbisa {
namespace {

using Maker = Instruction (*)(Generation gen, DecodeStatus status, const OpcodeInfo* info, const uint8_t* bytes);

/// Builds the instruction with its operand alternative constructed in place (the object is returned by NRVO,
/// so nothing else is initialised and copied): the header and the alternative's fields are written once.
template <size_t I>
Instruction make_instruction(Generation gen, DecodeStatus status, const OpcodeInfo* info, const uint8_t* bytes) {
  using S = std::variant_alternative_t<I, Operands>;
  Instruction inst{gen, status, info, Operands(std::in_place_index<I>)};
  Wire<S>::read(*std::get_if<I>(&inst.body), bytes);
  return inst;
}

/// One maker per variant alternative, indexed like Operands (derived from the registry).
template <size_t... I>
constexpr std::array<Maker, kOperandKinds> make_makers(std::index_sequence<I...>) {
  return {&make_instruction<I>...};
}
constexpr auto kMakers = make_makers(std::make_index_sequence<kOperandKinds>{});

}  // namespace

const Header& Instruction::header() const {
  return std::visit([](const auto& s) -> const Header& { return s.header; }, body);
}

const Events& Instruction::events() const {
  return std::visit([](const auto& s) -> const Events& { return s.events; }, body);
}

std::string_view Instruction::name() const {
  if (status == DecodeStatus::Unknown || info == nullptr) return "unknown";
  return info->mnemonic;
}

std::string_view Instruction::format_name() const {
  switch (status) {
    case DecodeStatus::Unknown: return "unknown";
    case DecodeStatus::NotModeled: return "not-modeled";
    case DecodeStatus::Modeled: break;
  }
  return to_string(info->format);
}

Instruction decode(std::span<const uint8_t, kWordBytes> bytes, Generation gen) {
  const OpcodeInfo* info = find_opcode(bytes[0]);
  const bool in_gen = info != nullptr && info->gens.has(gen);
  const Format format = in_gen ? info->format : Format::NotModeled;
  const DecodeStatus status = !in_gen
                                  ? DecodeStatus::Unknown
                                  : (format == Format::NotModeled ? DecodeStatus::NotModeled : DecodeStatus::Modeled);
  return kMakers[layout_index(format, gen)](gen, status, info, bytes.data());
}

Word encode(const Instruction& inst) {
  return std::visit([](const auto& s) { return encode(s); }, inst.body);
}

std::string_view to_string(Format f) {
  if (f == Format::NotModeled) return "not-modeled";
  for (const auto& row : kLayoutRows)
    if (row.format == f) return row.name;
  return "?";
}

bool parse_hex_word(std::string_view text, Word& out, HexError& error) {
  size_t digits = 0;
  size_t i = 0;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  while (i < text.size()) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c)) || c == '_' || c == ',') {
      ++i;
      continue;
    }
    // A "0x" prefix is tolerated at the start of any group of digits.
    if (c == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X') &&
        (i == 0 || !std::isxdigit(static_cast<unsigned char>(text[i - 1])))) {
      i += 2;
      continue;
    }
    const int v = nibble(c);
    if (v < 0) {
      error = {i, digits, "not a hex digit"};
      return false;
    }
    if (digits >= 2 * kWordBytes) {
      error = {i, digits, "more than 128 hex digits"};
      return false;
    }
    if (digits % 2 == 0)
      out[digits / 2] = static_cast<uint8_t>(v << 4);
    else
      out[digits / 2] = static_cast<uint8_t>(out[digits / 2] | v);
    ++digits;
    ++i;
  }
  if (digits != 2 * kWordBytes) {
    error = {text.size(), digits, "fewer than 128 hex digits"};
    return false;
  }
  return true;
}

}  // namespace tpbisa
