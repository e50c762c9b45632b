// S4D4_TSM family syntax: every field is printed and parsed from its role; the family adds nothing.
#include "families/family.hpp"

namespace tpbisa::family {
namespace {

constexpr Syntax kSyntax{"none: every field follows its role"};

}  // namespace

const Syntax& TsmFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
