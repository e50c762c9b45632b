// CTRL_NO family syntax: the two payload bytes are written only when set, so `Nop $S[27]>=16` is the whole line.
#include "families/family.hpp"

namespace tpbisa::family {
namespace {

constexpr std::string_view kQuiet[] = {"notification", "drain_count"};

/// The payload bytes have no generic role; their meaning depends on the opcode (sequencer.md §3).
std::string_view plain_meaning(const Word& w, std::string_view path) {
  constexpr FieldRef kNotification = field_ref<CtrlNo>("notification");
  constexpr FieldRef kDrainCount = field_ref<CtrlNo>("drain_count");
  const uint8_t op = w[field_ref<CtrlNo>("header.opcode").offset];
  if (path == kNotification.name) {
    const bool value = w[kNotification.offset] != 0;
    if (op == opcode::kHalt || op == opcode::kNotify)
      return value ? "notification flag: set (the host is notified)" : "notification flag: not set";
    return value ? "notification flag (only Halt and Notify may set it, PROJ-CONV-Q3)" : "notification flag (unused)";
  }
  if (path == kDrainCount.name) {
    const bool value = w[kDrainCount.offset] != 0;
    if (op == opcode::kDrain) return "drain count (the compiler emits 1: a full drain)";
    return value ? "drain count (only Drain may set it, PROJ-CONV-Q3)" : "drain count (unused)";
  }
  return {};
}

constexpr Syntax kSyntax{.note = "`notification` and `drain_count` are written only when not zero",
                         .quiet_fields = kQuiet,
                         .plain_meaning = plain_meaning};

}  // namespace

const Syntax& CtrlNoFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
