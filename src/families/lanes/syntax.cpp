// Lanes family syntax: LOAD_MASK_SELECT's opaque bytes are written only when set, in hex; its lane map is a list of
// 32 numbers. The stream opcodes read and write S4D4_TR as the datapath family declares it.
#include <fmt/format.h>

#include "families/family.hpp"

namespace tpbisa::family {
namespace {

constexpr std::string_view kQuiet[] = {"body"};
constexpr std::string_view kHex[] = {"body"};

std::string_view plain_meaning(const Word&, std::string_view path) {
  if (path.starts_with("body")) return "opaque bytes: encoders write zero, validators do not read them (PROJ-CONV-K8)";
  if (path.starts_with("mask"))
    return "lane map MASK[0..31]: output lane i of each 32-channel group takes source lane MASK[i]; 32 or more leaves "
           "the lane unmodified (PROJ-CONV-K8)";
  return {};
}

/// STREAM_TRANSPOSE accepts mask_enable 1, which changes nothing (PROJ-CONV-K7); op_dim is UNUSED or X for both.
std::string meaning(const Instruction& inst, std::string_view path) {
  if (inst.opcode() == lanes::kStreamTranspose && path == "mask_enable")
    return "0 or 1, no functional effect (PROJ-CONV-K7)";
  return {};
}

constexpr Syntax kSyntax{.note =
                             "LOAD_MASK_SELECT's `body` (opaque) is written only when not zero, in hex; `mask` is "
                             "the 32-lane map as a list",
                         .quiet_fields = kQuiet,
                         .hex_fields = kHex,
                         .meaning = meaning,
                         .plain_meaning = plain_meaning};

}  // namespace

const Syntax& LanesFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
