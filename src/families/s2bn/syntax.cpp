// S2_BN family syntax: what the text layer cannot derive from the S2_BN declaration.
#include "families/family.hpp"

namespace tpbisa::family {
namespace {

/// imm0_ptr is read by s2bn::imm0_reading (the one decision, shared with the validator); imm1 is always a value.
ImmReading imm_reading(const Word& w, std::string_view path) {
  if (path != field_ref<S2Bn>("imm0_ptr").name) return ImmReading::Value;
  return s2bn::imm0_reading(w[field_ref<S2Bn>("header.opcode").offset], w[field_ref<S2Bn>("imm0_src").offset]);
}

constexpr Syntax kSyntax{
    "`imm0_ptr` is read as a float, a pointer or a register, by imm0_src and the opcode", {}, imm_reading};

}  // namespace

const Syntax& S2BnFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
