// CTRL_NO family syntax: the two payload bytes are written only when set, so `Nop $S[27]>=16` is the whole line.
#include "families/family.hpp"

namespace tpbisa::family {
namespace {

constexpr std::string_view kQuiet[] = {"notification", "drain_count"};
constexpr Syntax kSyntax{"`notification` and `drain_count` are written only when not zero", kQuiet};

}  // namespace

const Syntax& CtrlNoFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
