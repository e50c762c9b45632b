// Datapath family syntax: fields print and parse from their roles; the must-be-zero flags are quiet operands.
#include <string_view>

#include "families/family.hpp"

namespace tpbisa::family {
namespace {

// negated and mask_enable must be zero in every valid word: the disassembler writes them only when set.
constexpr std::string_view kQuiet[] = {"negated", "mask_enable"};

constexpr Syntax kSyntax{"negated and mask_enable are written only when not zero", kQuiet};

}  // namespace

const Syntax& DatapathFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
