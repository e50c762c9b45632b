// Small header-only helpers shared by the unit tests (hex rendering and reading, byte-set building, first difference).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <gtest/gtest.h>

#include "tpbisa/formats.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa::test {

/// Lower-case hex of a byte span, two digits per byte, no separators.
inline std::string to_hex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 0xF]);
  }
  return s;
}

/// Index of the first differing byte of two words, or kWordBytes when equal.
inline size_t first_diff(const Word& a, const Word& b) {
  for (size_t i = 0; i < kWordBytes; ++i)
    if (a[i] != b[i]) return i;
  return kWordBytes;
}

/// A set of byte values from single values and inclusive ranges: bytes({0x06, 0x07}, {{0xBC, 0xBF}}).
inline std::set<unsigned> bytes(std::initializer_list<unsigned> singles,
                                std::initializer_list<std::pair<unsigned, unsigned>> ranges = {}) {
  std::set<unsigned> s(singles.begin(), singles.end());
  for (const auto& [lo, hi] : ranges)
    for (unsigned v = lo; v <= hi; ++v) s.insert(v);
  return s;
}

/// Short names of the generations (the tests use one of the two spellings).
inline constexpr Generation kS = Generation::Sunda, kC = Generation::Cayman, kM = Generation::Mariana,
                            kV = Generation::Maverick;
inline constexpr Generation kSu = Generation::Sunda, kCa = Generation::Cayman, kMa = Generation::Mariana,
                            kMv = Generation::Maverick, kMariana = Generation::Mariana;

/// The decoded form of a word on g.
inline Instruction dec(const Word& w, Generation g) {
  return decode(std::span<const uint8_t, kWordBytes>(w), g);
}

/// A word from 128 hex digits as `--hex` reads them (spaces, '_' and 0x groups allowed); the test fails when the text
/// is not one word.
inline Word hex_word_of(std::string_view text) {
  Word w{};
  HexError error;
  EXPECT_TRUE(parse_hex_word(text, w, error)) << text;
  return w;
}

/// The bits of an FP32 value and back.
inline uint32_t bits(float x) {
  return std::bit_cast<uint32_t>(x);
}
inline float flt(uint32_t b) {
  return std::bit_cast<float>(b);
}

/// `s` quoted for a POSIX shell command line.
inline std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The shared data's matmul_small.neff.
inline const std::filesystem::path kNeff = std::filesystem::path(TPBISA_SHARED_DATA_DIR) / "matmul_small.neff";

}  // namespace tpbisa::test
