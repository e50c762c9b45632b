// The DVE accumulator registers the tensor-scalar words write and DVE_READ_ACCUMULATOR reads (alu-ops.md §2.6,
// PROJ-CONV-K12): one fp32 per channel, declared for the generic dumps (tpbisa/unit_state.hpp).
#include <bit>

#include "families/common.hpp"
#include "families/tensor_scalar/format.hpp"
#include "tpbisa/unit_state.hpp"

namespace tpbisa::family {
namespace {

using Type = UnitStateArray::Type;

StateValue describe_channel(const EngineState& s, unsigned c) {
  const uint32_t bits = s.dve[c].acc;
  return std::move(StateValue::object().add("bits", StateValue::bits32(bits)).add("value", StateValue::fp32(bits)));
}

std::string channel_text(const EngineState& s, unsigned c) {
  const uint32_t bits = s.dve[c].acc;
  return fmt::format("  acc  {:#010x}  {}\n", bits, std::bit_cast<float>(bits));
}

constexpr UnitStateArray kArrays[] = {
    {"acc", Type::U32, 0, [](const EngineState& s, unsigned c, unsigned) { return s.dve[c].acc; }},
};

constexpr UnitState kAccState[] = {{"acc", "channel", kDveChannels, kArrays, describe_channel, channel_text}};

}  // namespace

std::span<const UnitState> TensorScalarFamily::unit_state() {
  return kAccState;
}

}  // namespace tpbisa::family
