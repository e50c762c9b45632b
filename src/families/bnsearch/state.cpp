// The DVE unit state the search opcodes write (act-index-ops.md §2.3): per channel the matched indices MI[0..7] of
// FIND_INDEX8 / MATCH_REPLACE8, declared for the generic dumps (tpbisa/unit_state.hpp).
#include "families/bnsearch/format.hpp"
#include "families/common.hpp"
#include "tpbisa/unit_state.hpp"

namespace tpbisa::family {
namespace {

using Type = UnitStateArray::Type;

constexpr unsigned kMiSlots = 8;
constexpr uint32_t kNone = ~0U;  ///< reset and never-matched value (all ones)

StateValue describe_channel(const EngineState& s, unsigned c) {
  StateValue mi = StateValue::array();
  for (unsigned k = 0; k < kMiSlots; ++k) {
    const uint32_t v = s.dve[c].match_index[k];
    mi.add(std::move(StateValue::object()
                         .add("slot", StateValue::uint(k))
                         .add("bits", StateValue::bits32(v))
                         .add("matched", StateValue::boolean(v != kNone))
                         .add("index", v != kNone ? StateValue::uint(v) : StateValue::null())));
  }
  return std::move(StateValue::object().add("match_index", std::move(mi)));
}

std::string channel_text(const EngineState& s, unsigned c) {
  std::string out;
  for (unsigned k = 0; k < kMiSlots; ++k) {
    const uint32_t v = s.dve[c].match_index[k];
    out += v == kNone ? fmt::format("  match_index[{}]  {:#010x}  none\n", k, v)
                      : fmt::format("  match_index[{}]  {:#010x}  {}\n", k, v, v);
  }
  return out;
}

constexpr UnitStateArray kArrays[] = {
    {"match_index", Type::U32, kMiSlots,
     [](const EngineState& s, unsigned c, unsigned k) { return s.dve[c].match_index[k]; }},
};

constexpr UnitState kMatchState[] = {{"match", "channel", kDveChannels, kArrays, describe_channel, channel_text}};

}  // namespace

std::span<const UnitState> BnSearchFamily::unit_state() {
  return kMatchState;
}

}  // namespace tpbisa::family
