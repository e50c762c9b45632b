// Lanes family format: LOAD_MASK_SELECT 0x69 (its lane map), STREAM_SHUFFLE 0x6A and STREAM_TRANSPOSE 0x6B (S4D4_TR).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/families/datapath/format.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// LOAD_MASK_SELECT 0x69 (alu-ops.md §3.6, PROJ-CONV-K8): bytes 12..31 are opaque (the compiler may leave pattern
/// bytes there; encoders write zero, validators do not look), bytes 32..63 the 32-lane map MASK[0..31] of §2.7. No
/// header names the struct: LANE_MAP is the project's name for it. The same bytes on every generation.
struct LaneMap {
  static constexpr Format kFormat = Format::LaneMap;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "LANE_MAP";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 20> body{};
  std::array<uint8_t, 32> mask{};
  bool operator==(const LaneMap&) const = default;
};
template <>
inline constexpr auto fields_of<LaneMap> = cat_fields(header_and_events<LaneMap>(),
                                                      field_decls(field("body", 12, &LaneMap::body),
                                                                  field("mask", 32, &LaneMap::mask)));

struct UnitState;  // tpbisa/unit_state.hpp

namespace family {

/// The lanes family (src/families/lanes): the lane map it declares, the S4D4_TR it shares with the datapath family.
struct LanesFamily {
  static constexpr std::string_view kName = "lanes";
  using Layouts = TypeList<LaneMap>;
  using Uses = TypeList<S4d4Tr>;
  static const Validation& validation();           ///< validate.cpp
  static const Execution& execution();             ///< execute.cpp
  static const Syntax& syntax();                   ///< syntax.cpp
  static std::span<const UnitState> unit_state();  ///< state.cpp: the engine's 32-lane shuffle map
};

/// The family's opcodes and the facts its parts share.
namespace lanes {

inline constexpr uint8_t kLoadMaskSelect = ::tpbisa::detail::opcode_named("LOAD_MASK_SELECT");
inline constexpr uint8_t kStreamShuffle = ::tpbisa::detail::opcode_named("STREAM_SHUFFLE");
inline constexpr uint8_t kStreamTranspose = ::tpbisa::detail::opcode_named("STREAM_TRANSPOSE");

/// Lanes per shuffle group: the map is one 32-byte register, applied to every 32-channel group (PROJ-CONV-K8).
inline constexpr unsigned kLanes = 32;

/// A lane byte selects a source lane when below 32; any other value leaves the destination lane unmodified.
constexpr bool lane_selects(uint8_t m) {
  return m < kLanes;
}

/// stream_shuffle_start_partition's alignment: 32 for up to 32 active channels, 64 up to 64, else 128 (§3.6).
constexpr unsigned shuffle_alignment(unsigned channels) {
  return channels <= 32 ? 32U : channels <= 64 ? 64U : 128U;
}

}  // namespace lanes
}  // namespace family

static_assert(tiles_exactly<LaneMap>());
static_assert(offset_of<LaneMap>("body") == 12 && offset_of<LaneMap>("mask") == 32);

}  // namespace tpbisa
