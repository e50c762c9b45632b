// MEM_2D family syntax: what the text layer cannot derive from the MEM_2D and PSEUDO_MEM_2D declarations.
#include "families/family.hpp"

namespace tpbisa::family {
namespace {

constexpr Syntax kSyntax{"`data` is read as registers, immediates of the dtype or bytes, by src_datasrc and dtype"};

}  // namespace

const Syntax& Mem2dFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
