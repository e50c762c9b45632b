// Small header-only helpers shared by the unit tests (hex rendering, byte-set building, first difference).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <span>
#include <string>
#include <utility>

#include "tpbisa/formats.hpp"

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

}  // namespace tpbisa::test
