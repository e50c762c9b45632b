// The DVE unit state the S2_BN words write (s2bn.md §4.1): per channel the eight ImmLd scalar flops, the
// MatchValueLoad keys and the BatchNormParamLoad parameters, declared for the generic dumps (tpbisa/unit_state.hpp).
#include <bit>

#include "families/common.hpp"
#include "tpbisa/unit_state.hpp"

namespace tpbisa::family {
namespace {

using Class = DveChannel::ImmClass;
using Type = UnitStateArray::Type;

constexpr unsigned kSlots = 8;
/// The BatchNorm parameters in the order the dumps list them.
constexpr std::string_view kBnNames[] = {"n", "batch_mean", "a", "b", "c"};

std::string_view class_name(Class c) {
  switch (c) {
    case Class::Unwritten: return "unwritten";
    case Class::Arith: return "arith";
    case Class::Bitvec: return "bitvec";
  }
  return "unwritten";
}

uint32_t bn_param(const DveChannel::BnParams& bn, unsigned k) {
  const uint32_t params[] = {bn.n, bn.batch_mean, bn.a, bn.b, bn.c};
  return params[k];
}

StateValue fp32_entry(uint32_t bits) {
  return std::move(StateValue::object().add("bits", StateValue::bits32(bits)).add("value", StateValue::fp32(bits)));
}

StateValue describe_channel(const EngineState& s, unsigned c) {
  const DveChannel& ch = s.dve[c];
  StateValue imm = StateValue::array();
  for (unsigned k = 0; k < kSlots; ++k) {
    const Class cls = ch.imm_class[k];
    // An arith flop holds an fp32, a bitvec flop an integer; an unwritten one nothing yet.
    StateValue value = cls == Class::Arith    ? StateValue::fp32(ch.imm[k])
                       : cls == Class::Bitvec ? StateValue::uint(ch.imm[k])
                                              : StateValue::null();
    imm.add(std::move(StateValue::object()
                          .add("slot", StateValue::uint(k))
                          .add("bits", StateValue::bits32(ch.imm[k]))
                          .add("written", StateValue::boolean(cls != Class::Unwritten))
                          .add("class", StateValue::named(class_name(cls)))
                          .add("value", std::move(value))));
  }
  StateValue keys = StateValue::array();
  for (unsigned k = 0; k < kSlots; ++k)
    keys.add(std::move(StateValue::object()
                           .add("slot", StateValue::uint(k))
                           .add("bits", StateValue::bits32(ch.match_key[k]))
                           .add("value", StateValue::fp32(ch.match_key[k]))
                           .add("written", StateValue::boolean(ch.match_key_written[k]))
                           .add("matched", StateValue::boolean(ch.matched[k]))));
  StateValue bn = StateValue::object();
  bn.add("written", StateValue::boolean(ch.bn.written));
  for (unsigned k = 0; k < std::size(kBnNames); ++k) bn.add(kBnNames[k], fp32_entry(bn_param(ch.bn, k)));
  return std::move(
      StateValue::object().add("imm", std::move(imm)).add("match_keys", std::move(keys)).add("bn", std::move(bn)));
}

std::string hex32(uint32_t bits) {
  return fmt::format("{:#010x}", bits);
}

float as_float(uint32_t bits) {
  return std::bit_cast<float>(bits);
}

std::string channel_text(const EngineState& s, unsigned c) {
  const DveChannel& ch = s.dve[c];
  std::string out;
  for (unsigned k = 0; k < kSlots; ++k) {
    const Class cls = ch.imm_class[k];
    std::string value;
    if (cls == Class::Arith) value = fmt::format("  {}", as_float(ch.imm[k]));
    if (cls == Class::Bitvec) value = fmt::format("  {}", ch.imm[k]);
    out += fmt::format("  imm[{}]        {}  {}{}\n", k, hex32(ch.imm[k]), class_name(cls), value);
  }
  for (unsigned k = 0; k < kSlots; ++k)
    out += fmt::format("  match_key[{}]  {}  {}{}\n", k, hex32(ch.match_key[k]),
                       ch.match_key_written[k] ? fmt::format("{}", as_float(ch.match_key[k])) : "unwritten",
                       ch.matched[k] ? "  matched" : "");
  if (!ch.bn.written) return out + "  bn            unwritten\n";
  out += "  bn           ";
  for (unsigned k = 0; k < std::size(kBnNames); ++k) {
    const uint32_t b = bn_param(ch.bn, k);
    out += fmt::format(" {}={} ({})", kBnNames[k], as_float(b), hex32(b));
  }
  return out + '\n';
}

constexpr UnitStateArray kArrays[] = {
    {"imm", Type::U32, kSlots, [](const EngineState& s, unsigned c, unsigned k) { return s.dve[c].imm[k]; }},
    {"imm_class", Type::U8, kSlots,
     [](const EngineState& s, unsigned c, unsigned k) { return static_cast<uint32_t>(s.dve[c].imm_class[k]); }},
    {"match_key", Type::U32, kSlots,
     [](const EngineState& s, unsigned c, unsigned k) { return s.dve[c].match_key[k]; }},
    {"match_key_written", Type::Bool, kSlots,
     [](const EngineState& s, unsigned c, unsigned k) { return uint32_t{s.dve[c].match_key_written[k]}; }},
    {"matched", Type::Bool, kSlots,
     [](const EngineState& s, unsigned c, unsigned k) { return uint32_t{s.dve[c].matched[k]}; }},
    {"bn", Type::U32, std::size(kBnNames),
     [](const EngineState& s, unsigned c, unsigned k) { return bn_param(s.dve[c].bn, k); }},
    {"bn_written", Type::Bool, 0,
     [](const EngineState& s, unsigned c, unsigned) { return uint32_t{s.dve[c].bn.written}; }},
};

constexpr UnitState kDveState[] = {{"dve", "channel", kDveChannels, kArrays, describe_channel, channel_text}};

}  // namespace

std::span<const UnitState> S2BnFamily::unit_state() {
  return kDveState;
}

}  // namespace tpbisa::family
