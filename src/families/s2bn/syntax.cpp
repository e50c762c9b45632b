// S2_BN family syntax: what the text layer cannot derive from the S2_BN declaration.
#include "families/family.hpp"

namespace tpbisa::family {
namespace {

constexpr Syntax kSyntax{"`imm0_ptr` is read as a float, a pointer or a register, by imm0_src and the opcode"};

}  // namespace

const Syntax& S2BnFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
