// The four NeuronCore generations and the sets of them the catalog records presence with.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tpbisa {

enum class Generation : uint8_t { Sunda = 0, Cayman = 1, Mariana = 2, Maverick = 3 };

inline constexpr std::array<Generation, 4> kAllGenerations{Generation::Sunda, Generation::Cayman, Generation::Mariana,
                                                           Generation::Maverick};

/// The default generation of every command (stated in each --help).
inline constexpr Generation kDefaultGeneration = Generation::Mariana;

/// A set of generations as a 4-bit mask (bit i = Generation i).
struct GenSet {
  uint8_t bits = 0;
  constexpr bool has(Generation g) const { return (bits >> static_cast<unsigned>(g)) & 1U; }
  constexpr bool operator==(const GenSet&) const = default;
};

inline constexpr GenSet kGensAll{0x0F};
inline constexpr GenSet kGensSundaOnly{0x01};
inline constexpr GenSet kGensCaymanUp{0x0E};
inline constexpr GenSet kGensMarianaUp{0x0C};
inline constexpr GenSet kGensMaverickOnly{0x08};
inline constexpr GenSet kGensNotMaverick{0x07};

/// Lower-case name: "sunda", "cayman", "mariana", "maverick".
constexpr std::string_view to_string(Generation g) {
  constexpr std::array<std::string_view, 4> names{"sunda", "cayman", "mariana", "maverick"};
  return names[static_cast<size_t>(g)];
}

/// NeuronCore version label: "v2".."v5".
constexpr std::string_view version_label(Generation g) {
  constexpr std::array<std::string_view, 4> names{"v2", "v3", "v4", "v5"};
  return names[static_cast<size_t>(g)];
}

/// Parses "sunda|cayman|mariana|maverick" or "v2..v5" (case-insensitive).
std::optional<Generation> parse_generation(std::string_view text);

}  // namespace tpbisa
