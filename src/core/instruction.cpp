// Decode and encode: the typed formats are read and written through their one field declaration.
#include "tpbisa/instruction.hpp"

#include <cctype>

namespace tpbisa {
namespace {

template <class S>
void read_into(Operands& body, std::span<const uint8_t, kWordBytes> bytes) {
  Wire<S>::read(body.emplace<S>(), bytes.data());
}

template <class S>
Word write_as(const S& s) {
  Word w{};
  write_format(s, w);
  return w;
}

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
  Instruction inst;
  inst.gen = gen;
  inst.info = find_opcode(bytes[0]);
  const bool in_gen = inst.info != nullptr && inst.info->gens.has(gen);
  const Format format = in_gen ? inst.info->format : Format::NotModeled;
  inst.status = !in_gen ? DecodeStatus::Unknown
                        : (format == Format::NotModeled ? DecodeStatus::NotModeled : DecodeStatus::Modeled);
  switch (format) {
    case Format::Mem2d: read_into<Mem2d>(inst.body, bytes); break;
    case Format::PseudoMem2d: read_into<PseudoMem2d>(inst.body, bytes); break;
    case Format::S2Bn: read_into<S2Bn>(inst.body, bytes); break;
    case Format::S4d4Tsm: read_into<S4d4Tsm>(inst.body, bytes); break;
    case Format::NotModeled: read_into<RawWord>(inst.body, bytes); break;
  }
  return inst;
}

Word encode(const Instruction& inst) {
  return std::visit([](const auto& s) { return write_as(s); }, inst.body);
}

Word encode(const Mem2d& f) {
  return write_as(f);
}
Word encode(const PseudoMem2d& f) {
  return write_as(f);
}
Word encode(const S2Bn& f) {
  return write_as(f);
}
Word encode(const S4d4Tsm& f) {
  return write_as(f);
}
Word encode(const RawWord& f) {
  return write_as(f);
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
