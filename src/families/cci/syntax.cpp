// Compact-control family syntax: each compact instruction's op written by its CCOP name where the wiki spells one, and
// the meanings decode shows for the fifteen instructions.
#include <string>

#include <fmt/format.h>

#include "families/cci/format.hpp"
#include "families/family.hpp"

namespace tpbisa::family {
namespace {

/// The instruction k a path "instK.op" or "instK.operands" names; -1 for another path.
int inst_of(std::string_view path) {
  if (!path.starts_with("inst")) return -1;
  const size_t dot = path.find('.');
  int k = 0;
  for (char c : path.substr(4, dot == std::string_view::npos ? std::string_view::npos : dot - 4)) {
    if (c < '0' || c > '9') return -1;
    k = k * 10 + (c - '0');
  }
  return k < static_cast<int>(CtrlCci::kInsts) ? k : -1;
}

/// The CCOP name of an op, or empty when the wiki spells none.
std::string_view op_name(uint8_t op) {
  for (const EnumValue& v : cci::kOps)
    if (v.value == op) return v.name;
  return {};
}

std::string meaning(const Instruction& inst, std::string_view path) {
  const auto* c = inst.as<CtrlCci>();
  const int k = inst_of(path);
  if (c == nullptr || k < 0) return {};
  const CcInst& ci = c->*cci::kInsts[static_cast<size_t>(k)];
  if (path.ends_with(".op")) {
    const std::string_view run = cci::op_class(ci.op);
    const std::string_view name = op_name(ci.op);
    if (run.empty())
      return fmt::format("compact instruction {}: op {:#04x} is in no CCOP run the wiki names", k, ci.op);
    return name.empty() ? fmt::format("compact instruction {}: {}", k, run)
                        : fmt::format("compact instruction {}: {} ({})", k, name, run);
  }
  if (path.find(".operands") != std::string_view::npos)
    return "an operand byte of the arm the op selects (PROJ-CONV-CC2)";
  return {};
}

constexpr CustomField kCustom[] = {
    {.path = "inst0.op", .names = cci::kOps, .names_what = "CCOP"},
    {.path = "inst1.op", .names = cci::kOps, .names_what = "CCOP"},
    {.path = "inst2.op", .names = cci::kOps, .names_what = "CCOP"},
    {.path = "inst3.op", .names = cci::kOps, .names_what = "CCOP"},
    {.path = "inst4.op", .names = cci::kOps, .names_what = "CCOP"},
    {.path = "inst5.op", .names = cci::kOps, .names_what = "CCOP"},
    {.path = "inst6.op", .names = cci::kOps, .names_what = "CCOP"},
    {.path = "inst7.op", .names = cci::kOps, .names_what = "CCOP"},
    {.path = "inst8.op", .names = cci::kOps, .names_what = "CCOP"},
    {.path = "inst9.op", .names = cci::kOps, .names_what = "CCOP"},
    {.path = "inst10.op", .names = cci::kOps, .names_what = "CCOP"},
    {.path = "inst11.op", .names = cci::kOps, .names_what = "CCOP"},
    {.path = "inst12.op", .names = cci::kOps, .names_what = "CCOP"},
    {.path = "inst13.op", .names = cci::kOps, .names_what = "CCOP"},
    {.path = "inst14.op", .names = cci::kOps, .names_what = "CCOP"},
};

/// A NOP with zero operand bytes (the word's padding) is left out.
constexpr std::string_view kQuiet[] = {
    "inst0.op",  "inst0.operands",  "inst1.op",  "inst1.operands",  "inst2.op",  "inst2.operands",
    "inst3.op",  "inst3.operands",  "inst4.op",  "inst4.operands",  "inst5.op",  "inst5.operands",
    "inst6.op",  "inst6.operands",  "inst7.op",  "inst7.operands",  "inst8.op",  "inst8.operands",
    "inst9.op",  "inst9.operands",  "inst10.op", "inst10.operands", "inst11.op", "inst11.operands",
    "inst12.op", "inst12.operands", "inst13.op", "inst13.operands", "inst14.op", "inst14.operands",
};

constexpr Syntax kSyntax{
    .note =
        "each compact instruction's `op` is written by its CCOP name where the wiki spells one, otherwise as a "
        "number, and an op or operand list that is zero is left out (NOP); the word takes no event tokens (its "
        "bytes 4-11 are compact instructions)",
    .quiet_fields = kQuiet,
    .meaning = meaning,
    .custom_fields = kCustom,
};

}  // namespace

const Syntax& CompactControlFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
