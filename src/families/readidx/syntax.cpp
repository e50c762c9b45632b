// Read-indices family syntax: D4_MR reads and writes as the datapath family declares it; set_value, the MEMSET fill
// DVE_READ_INDICES does not use, is written only when not zero, and decode says what the count and dtype mean here.
#include <string>
#include <string_view>

#include "families/family.hpp"
#include "families/readidx/format.hpp"

namespace tpbisa::family {
namespace {

bool operand_used(const Instruction&, std::string_view path) {
  return path != "set_value";
}

std::string meaning(const Instruction& inst, std::string_view path) {
  if (path == "set_value") return "unused by DVE_READ_INDICES, must be 0";
  if (const auto* t = inst.as<D4Mr>(); t != nullptr && path == "serialization_mode")
    return t->serialization_mode == datapath::kSerial ? "Serial, as DVE_READ_INDICES requires (PROJ-CONV-F22)"
                                                      : "not Serial: DVE_READ_INDICES requires Serial = 0";
  if (path == "dst_element_count") return "the eight matched indices each channel writes (must be 8)";
  if (path == "dtype") return "the index type: UINT16 (the low half of each index) or UINT32";
  return {};
}

constexpr Syntax kSyntax{.note = "the D4_MR operands as the datapath family writes them; set_value only when not zero",
                         .operand_used = operand_used,
                         .meaning = meaning};

}  // namespace

const Syntax& ReadIndicesFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
