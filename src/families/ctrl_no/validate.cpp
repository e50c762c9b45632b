// CTRL_NO family validators: is_valid_ctrl_no for 0x23, 0xa1-0xa4 and 0xa6 (sequencer.md §3.2 PROJ-CONV-Q3;
// real-programs.md §4.2 PROJ-CONV-F4).
#include "families/common.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

constexpr FieldRef fNotification[] = {field_ref<CtrlNo>("notification"), field_ref<CtrlNo>("header.opcode")};
constexpr FieldRef fReserved[] = {field_ref<CtrlNo>("reserved0"), field_ref<CtrlNo>("drain_count"),
                                  field_ref<CtrlNo>("reserved1"), field_ref<CtrlNo>("header.opcode")};

const CtrlNo& c_of(const Instruction& i) {
  return body<CtrlNo>(i);
}

// ---- Predicate bodies (PROJ-CONV-Q3; the header names them, their bodies were not recovered) ----

/// The opcode clause: one of the six CTRL_NO opcodes.
constexpr auto kIsCtrlNo = has_opcode<opcode::kActivationTableLoad, opcode::kHalt, opcode::kDrain,
                                      opcode::kInstructionFlush, opcode::kNop, opcode::kNotify>;

/// Only HALT and NOTIFY carry a notification flag.
constexpr bool may_notify(uint8_t op) {
  return op == opcode::kHalt || op == opcode::kNotify;
}

bool notification_ok(const CtrlNo& c, const CheckContext&) {
  return c.notification <= 1 && (c.notification == 0 || may_notify(c.header.opcode));
}

/// The drain-count term of ctrl_no_reserved_zero (its reserved-bytes term comes from the declaration).
constexpr bool drain_count_ok(const CtrlNo& c, const CheckContext&) {
  return c.drain_count == 0 || c.header.opcode == opcode::kDrain;
}
static_assert(field_refs_with_role<CtrlNo, Role::Reserved>().size() == 2 &&
                  field_refs_with_role<CtrlNo, Role::Reserved>()[0].offset == fReserved[0].offset &&
                  field_refs_with_role<CtrlNo, Role::Reserved>()[1].offset == fReserved[2].offset,
              "reserved0 and reserved1 are the declaration's reserved fields");

/// For ActivationTableLoad and Nop the conjunction reads "bytes 12-63 zero" (PROJ-CONV-F4).
std::string_view zero_body_convention(const Instruction& i, const CheckContext&) {
  const uint8_t op = i.opcode();
  return op == opcode::kActivationTableLoad || op == opcode::kNop ? "PROJ-CONV-F4" : "";
}

// ---- Explanations ----

std::string explain_ctrl_no_opcode(const Instruction& i, const CheckContext&) {
  return fmt::format("opcode {:#04x} is not a CTRL_NO opcode (0x23, 0xa1, 0xa2, 0xa3, 0xa4, 0xa6)", i.opcode());
}

std::string explain_notification(const Instruction& i, const CheckContext&) {
  const CtrlNo& c = c_of(i);
  if (c.notification > 1) return fmt::format("notification is {:#04x}, must be 0 or 1", c.notification);
  return fmt::format("notification is set, but only Halt and Notify carry one ({} is {:#04x})", i.name(),
                     c.header.opcode);
}

std::string explain_reserved(const Instruction& i, const CheckContext& ctx) {
  const CtrlNo& c = c_of(i);
  if (!reserved_fields_zero(c, ctx))
    return explain_reserved_bytes(encode(c), field_refs_with_role<CtrlNo, Role::Reserved>());
  return fmt::format("drain_count is {}, but only Drain carries a count ({} is {:#04x})", c.drain_count, i.name(),
                     c.header.opcode);
}

// ---- Predicates ----

constexpr Predicate kCtrlNoOpcode =
    rule<CtrlNo, kIsCtrlNo>({.name = "has_ctrl_no_opcode",
                             .convention = "PROJ-CONV-Q3",
                             .meaning = "the opcode is a CTRL_NO opcode: 0x23, 0xa1, 0xa2, 0xa3, 0xa4 or 0xa6",
                             .gens = kGensAll,
                             .fields = kOpcodeFieldOf<CtrlNo>,
                             .explain = explain_ctrl_no_opcode});

constexpr Predicate kValidNotification = rule<CtrlNo, notification_ok>(
    {.name = "ctrl_no_valid_notification",
     .convention = "PROJ-CONV-Q3",
     .meaning = "notification is 0 or 1, and only Halt (0xa1) and Notify (0xa6) may set it",
     .gens = kGensAll,
     .fields = fNotification,
     .explain = explain_notification,
     .via = nullptr,
     .failure_convention = zero_body_convention});

constexpr Predicate kReservedZero = reserved_and_rule<CtrlNo, drain_count_ok>(
    {.name = "ctrl_no_reserved_zero",
     .convention = "PROJ-CONV-Q3",
     .meaning = "reserved0 and reserved1 are zero, and drain_count is zero unless the opcode is Drain (0xa2)",
     .gens = kGensAll,
     .fields = fReserved,
     .explain = explain_reserved,
     .via = nullptr,
     .failure_convention = zero_body_convention});

// ---- Validators ----

constexpr const Predicate* kCtrlNo[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kCtrlNoOpcode,
                                        &kValidNotification, &kReservedZero};

constexpr Validator kCtrlNoValidator = full_validator<kCtrlNo>("is_valid_ctrl_no");

constexpr ValidatorRow kRows[] = {
    {opcode::kHalt, &kCtrlNoValidator},
    {opcode::kDrain, &kCtrlNoValidator},
    {opcode::kInstructionFlush, &kCtrlNoValidator},
    {opcode::kNop, &kCtrlNoValidator},
    {opcode::kNotify, &kCtrlNoValidator},
};
constexpr Validation kValidation = validator_table<CtrlNoFamily, kRows>();

}  // namespace

const Validation& CtrlNoFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
