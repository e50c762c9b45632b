// Test-event-semaphore family syntax: mode and update_type written by their TEST_EVT_SEM_MODE and UPDATE_MODE names,
// and the meanings decode shows for the slots.
#include <string>

#include <fmt/format.h>

#include "families/family.hpp"
#include "families/testsem/format.hpp"

namespace tpbisa::family {
namespace {

std::string meaning(const Instruction& inst, std::string_view path) {
  const auto* t = inst.as<CtrlTestEs>();
  if (t == nullptr) return {};
  if (path == "num_evt_sem") return fmt::format("{} active slots (1..16)", t->num_evt_sem);
  if (path == "repeat_count") return "the conditional update's loop count";
  if (path == "threshold") return "the conditional update's threshold";
  if (path == "setter_signature") return "the setter's id";
  if (path.starts_with("evt_sem_ids")) return "an event or semaphore id (unique among the active slots)";
  if (path.starts_with("value_registers")) return "the register paired with the slot";
  return {};
}

constexpr CustomField kCustom[] = {
    {.path = "mode", .names = testsem::kModes, .names_what = "TEST_EVT_SEM_MODE"},
    {.path = "update_type", .names = kUpdateModes, .names_what = "UPDATE_MODE"},
};

constexpr std::string_view kQuiet[] = {"repeat_count", "threshold", "setter_signature"};

constexpr Syntax kSyntax{
    .note =
        "`mode` and `update_type` are written by their TEST_EVT_SEM_MODE and UPDATE_MODE names; `repeat_count`, "
        "`threshold` and `setter_signature` only when not zero",
    .quiet_fields = kQuiet,
    .meaning = meaning,
    .custom_fields = kCustom,
};

}  // namespace

const Syntax& TestSemFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
