// CTRL_NO family validators: is_valid_ctrl_no for 0x23, 0xa1-0xa4 and 0xa6 (sequencer.md §3.2 PROJ-CONV-Q3;
// real-programs.md §4.2 PROJ-CONV-F4).
#include <algorithm>

#include "families/common.hpp"

namespace tpbisa::family {
namespace {

constexpr FieldRef fOpcode[] = {field_ref<CtrlNo>("header.opcode")};
constexpr FieldRef fNotification[] = {field_ref<CtrlNo>("notification"), field_ref<CtrlNo>("header.opcode")};
constexpr FieldRef fReserved[] = {field_ref<CtrlNo>("reserved0"), field_ref<CtrlNo>("drain_count"),
                                  field_ref<CtrlNo>("reserved1"), field_ref<CtrlNo>("header.opcode")};

const CtrlNo& c_of(const Instruction& i) {
  return body<CtrlNo>(i);
}

// ---- Predicate bodies (PROJ-CONV-Q3; the header names them, their bodies were not recovered) ----

constexpr bool ctrl_no_opcode(uint8_t op) {
  return op == opcode::kActivationTableLoad || op == opcode::kHalt || op == opcode::kDrain ||
         op == opcode::kInstructionFlush || op == opcode::kNop || op == opcode::kNotify;
}

/// Only HALT and NOTIFY carry a notification flag.
constexpr bool may_notify(uint8_t op) {
  return op == opcode::kHalt || op == opcode::kNotify;
}

bool ctrl_no_valid_notification(const CtrlNo& c) {
  return c.notification <= 1 && (c.notification == 0 || may_notify(c.header.opcode));
}

bool all_zero(std::span<const uint8_t> bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; });
}

/// The drain-count term of ctrl_no_reserved_zero.
constexpr bool drain_count_ok(const CtrlNo& c) {
  return c.drain_count == 0 || c.header.opcode == opcode::kDrain;
}
static_assert(field_refs_with_role<CtrlNo, Role::Reserved>().size() == 2 &&
                  field_refs_with_role<CtrlNo, Role::Reserved>()[0].offset == fReserved[0].offset &&
                  field_refs_with_role<CtrlNo, Role::Reserved>()[1].offset == fReserved[2].offset,
              "reserved0 and reserved1 are the declaration's reserved fields");
/// Raw form: reserved0 and reserved1 (the declaration's reserved fields) as the compile-time byte mask, 64 bits at
/// a time instead of a byte loop over the copied arrays, then the drain-count term.
bool reserved_accepts(const uint8_t* w, const CheckContext& c) {
  return reserved_bytes_zero<CtrlNo>(w) &&
         on_view<CtrlNo, [](const CtrlNo& x, const CheckContext&) { return drain_count_ok(x); }>(w, c);
}

/// Reserved bytes zero, and the drain count zero unless the word is a DRAIN.
bool ctrl_no_reserved_zero(const CtrlNo& c) {
  return all_zero(c.reserved0) && all_zero(c.reserved1) && drain_count_ok(c);
}

/// For ActivationTableLoad and Nop the conjunction reads "bytes 12-63 zero" (PROJ-CONV-F4).
std::string_view zero_body_convention(const Instruction& i, const CheckContext&) {
  const uint8_t op = i.opcode();
  return op == opcode::kActivationTableLoad || op == opcode::kNop ? "PROJ-CONV-F4" : "";
}

// ---- Explanations ----

std::string explain_opcode(const Instruction& i, const CheckContext&) {
  return fmt::format("opcode {:#04x} is not a CTRL_NO opcode (0x23, 0xa1, 0xa2, 0xa3, 0xa4, 0xa6)", i.opcode());
}

std::string explain_notification(const Instruction& i, const CheckContext&) {
  const CtrlNo& c = c_of(i);
  if (c.notification > 1) return fmt::format("notification is {:#04x}, must be 0 or 1", c.notification);
  return fmt::format("notification is set, but only Halt and Notify carry one ({} is {:#04x})", i.name(),
                     c.header.opcode);
}

std::string explain_reserved(const Instruction& i, const CheckContext&) {
  const CtrlNo& c = c_of(i);
  if (!all_zero(c.reserved0) || !all_zero(c.reserved1))
    return explain_reserved_bytes(encode(c), field_refs_with_role<CtrlNo, Role::Reserved>());
  return fmt::format("drain_count is {}, but only Drain carries a count ({} is {:#04x})", c.drain_count, i.name(),
                     c.header.opcode);
}

// ---- Predicates ----

constexpr Predicate kCtrlNoOpcode{
    .name = "has_ctrl_no_opcode",
    .convention = "PROJ-CONV-Q3",
    .meaning = "the opcode is a CTRL_NO opcode: 0x23, 0xa1, 0xa2, 0xa3, 0xa4 or 0xa6",
    .gens = kGensAll,
    .fields = fOpcode,
    .holds = [](const Instruction& i, const CheckContext&) { return ctrl_no_opcode(i.opcode()); },
    .explain = explain_opcode,
    .accepts = on_view<RawWord, [](const RawWord& x, const CheckContext&) { return ctrl_no_opcode(x.header.opcode); }>};

constexpr Predicate kValidNotification{
    .name = "ctrl_no_valid_notification",
    .convention = "PROJ-CONV-Q3",
    .meaning = "notification is 0 or 1, and only Halt (0xa1) and Notify (0xa6) may set it",
    .gens = kGensAll,
    .fields = fNotification,
    .holds = [](const Instruction& i, const CheckContext&) { return ctrl_no_valid_notification(c_of(i)); },
    .explain = explain_notification,
    .via = nullptr,
    .failure_convention = zero_body_convention,
    .accepts = on_view<CtrlNo, [](const CtrlNo& x, const CheckContext&) { return ctrl_no_valid_notification(x); }>};

constexpr Predicate kReservedZero{
    .name = "ctrl_no_reserved_zero",
    .convention = "PROJ-CONV-Q3",
    .meaning = "reserved0 and reserved1 are zero, and drain_count is zero unless the opcode is Drain (0xa2)",
    .gens = kGensAll,
    .fields = fReserved,
    .holds = [](const Instruction& i, const CheckContext&) { return ctrl_no_reserved_zero(c_of(i)); },
    .explain = explain_reserved,
    .via = nullptr,
    .failure_convention = zero_body_convention,
    .accepts = reserved_accepts};

// ---- Validators ----

constexpr const Predicate* kCtrlNo[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kCtrlNoOpcode,
                                        &kValidNotification, &kReservedZero};

constexpr Validator kValidators[] = {
    {"is_valid_ctrl_no", Checked::Full, kCtrlNo, &evaluate_conjuncts<kCtrlNo>, fast_acceptor<kCtrlNo>()},
};
constexpr const Validator* kValidatorList[] = {&kValidators[0]};

const Validator* select(uint8_t op, Generation) {
  return ctrl_no_opcode(op) ? &kValidators[0] : nullptr;
}

constexpr Validation kValidation{select, kValidatorList};

}  // namespace

const Validation& CtrlNoFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
