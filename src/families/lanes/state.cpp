// The engine's 32-lane shuffle map (alu-ops.md §2.7, PROJ-CONV-K8), declared for the generic dumps
// (tpbisa/unit_state.hpp): `--dump mask:0`, `run --json` and Python's Machine.flops["mask"].
#include "families/common.hpp"
#include "families/lanes/format.hpp"
#include "tpbisa/unit_state.hpp"

namespace tpbisa::family {
namespace {

bool is_identity(const EngineState& s) {
  for (unsigned i = 0; i < lanes::kLanes; ++i)
    if (s.mask_select[i] != i) return false;
  return true;
}

/// {"lanes": [{"lane", "source"}...], "identity"}: `source` is the lane read, or null for an unmodified lane.
StateValue describe_map(const EngineState& s, unsigned) {
  StateValue lane_list = StateValue::array();
  for (unsigned i = 0; i < lanes::kLanes; ++i) {
    const uint8_t m = s.mask_select[i];
    lane_list.add(std::move(StateValue::object()
                                .add("lane", StateValue::uint(i))
                                .add("value", StateValue::uint(m))
                                .add("source", lanes::lane_selects(m) ? StateValue::uint(m) : StateValue::null())));
  }
  return std::move(
      StateValue::object().add("identity", StateValue::boolean(is_identity(s))).add("lanes", std::move(lane_list)));
}

/// "  lanes  1 0 - - ..." (a dash for an unmodified lane), 16 lanes a line.
std::string map_text(const EngineState& s, unsigned) {
  std::string out;
  for (unsigned i = 0; i < lanes::kLanes; ++i) {
    if (i % 16 == 0) out += fmt::format("  lane {:2}..{:2}", i, i + 15);
    const uint8_t m = s.mask_select[i];
    out += lanes::lane_selects(m) ? fmt::format(" {:2}", m) : fmt::format(" {:>2}", "-");
    if (i % 16 == 15) out += '\n';
  }
  return out + (is_identity(s) ? "  (the identity map)\n" : "");
}

constexpr UnitStateArray kArrays[] = {
    {"mask", UnitStateArray::Type::U8, lanes::kLanes,
     [](const EngineState& s, unsigned, unsigned k) { return uint32_t{s.mask_select[k]}; }},
};

constexpr UnitState kMaskState[] = {{"mask", "register", 1, kArrays, describe_map, map_text}};

}  // namespace

std::span<const UnitState> LanesFamily::unit_state() {
  return kMaskState;
}

}  // namespace tpbisa::family
