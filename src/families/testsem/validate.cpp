// Test-event-semaphore family validator: is_valid_ctrl_test_es† (0xB4 TEST_EVENT_SEM). The wiki states the header's
// contract in prose (register-sourced updates only, one to sixteen unique slots, unused slots zero, reserved bytes
// zero) without predicate names: every conjunct name is ours (PROJ-CONV-TS2).
#include "families/common.hpp"
#include "families/operand_rules.hpp"
#include "families/testsem/format.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;
using Te = CtrlTestEs;

constexpr auto fReserved = field_refs_with_role<Te, Role::Reserved>();
constexpr FieldRef fMode[] = {field_ref<Te>("mode")};
constexpr FieldRef fNum[] = {field_ref<Te>("num_evt_sem")};
constexpr FieldRef fUpdate[] = {field_ref<Te>("update_type")};
constexpr FieldRef fIds[] = {field_ref<Te>("num_evt_sem"), field_ref<Te>("evt_sem_ids")};
constexpr FieldRef fSlots[] = {field_ref<Te>("num_evt_sem"), field_ref<Te>("evt_sem_ids"),
                               field_ref<Te>("value_registers")};

/// The active slots: num_evt_sem, at most the sixteen the word holds.
constexpr unsigned active(const Te& x) {
  return x.num_evt_sem < testsem::kSlots ? x.num_evt_sem : testsem::kSlots;
}

bool num_ok(const Te& x, const CheckContext&) {
  return x.num_evt_sem >= 1 && x.num_evt_sem <= testsem::kSlots;
}

/// An UPDATE_MODE of the generation whose operand is not an immediate: the word carries no immediate, each slot's
/// value comes from its register.
bool update_ok(const Te& x, const CheckContext& c) {
  const UpdateModeInfo* m = update_mode_info(x.update_type);
  return update_mode_in(x.update_type, c.gen) && m != nullptr && m->operand != ModeOperand::Immediate;
}

/// The first active slot whose id an earlier active slot repeats, or -1.
int repeated_slot(const Te& x) {
  for (unsigned k = 1; k < active(x); ++k)
    for (unsigned j = 0; j < k; ++j)
      if (x.evt_sem_ids[k] == x.evt_sem_ids[j]) return static_cast<int>(k);
  return -1;
}
bool unique_ok(const Te& x, const CheckContext&) {
  return repeated_slot(x) < 0;
}

/// The first unused slot with a non-zero id or register, or -1.
int dirty_slot(const Te& x) {
  for (unsigned k = active(x); k < testsem::kSlots; ++k)
    if (x.evt_sem_ids[k] != 0 || x.value_registers[k] != 0) return static_cast<int>(k);
  return -1;
}
bool unused_ok(const Te& x, const CheckContext&) {
  return dirty_slot(x) < 0;
}

std::string unique_text(const Te& x, const CheckContext&) {
  const auto k = static_cast<unsigned>(repeated_slot(x));
  return fmt::format("evt_sem_ids[{}] repeats id {} of an earlier slot", k, x.evt_sem_ids[k]);
}
std::string unused_text(const Te& x, const CheckContext&) {
  const auto k = static_cast<unsigned>(dirty_slot(x));
  return fmt::format("slot {} is unused (num_evt_sem {}) but holds id {} and register {}", k, x.num_evt_sem,
                     x.evt_sem_ids[k], x.value_registers[k]);
}

constexpr Predicate kOpcode = opcode_clause<Te, testsem::kTestEventSem>("has_test_event_sem_opcode", "PROJ-CONV-TS2",
                                                                        "the opcode is TEST_EVENT_SEM (0xb4)");

constexpr Predicate kReserved = reserved_rule<Te, fReserved>({.name = "ctrl_test_es_reserved_zero",
                                                              .convention = "PROJ-CONV-TS2",
                                                              .meaning = "reserved0 (bytes 53-63) is zero",
                                                              .explain = [](const Instruction& i, const CheckContext&) {
                                                                return explain_reserved_bytes(encode(i), fReserved);
                                                              }});

constexpr Predicate kMode =
    text_rule<Te, [](const Te& x, const CheckContext&) { return x.mode <= testsem::kCondUpdateSem; },
              [](const Te& x, const CheckContext&) {
                return fmt::format("mode is {}, must be a TEST_EVT_SEM_MODE (0..4)", x.mode);
              }>("has_valid_test_evt_sem_mode", "PROJ-CONV-TS2",
                 "mode is READ_SEM 0, READ_EVT 1, UPDATE_SEM 2, UPDATE_EVT 3 or COND_UPDATE_SEM 4", fMode);

constexpr Predicate kNum = text_rule<Te, num_ok, [](const Te& x, const CheckContext&) {
  return fmt::format("num_evt_sem is {}, must be 1..16", x.num_evt_sem);
}>("has_valid_test_es_num_evt_sem", "PROJ-CONV-TS2", "num_evt_sem is 1..16", fNum);

constexpr Predicate kUpdate =
    text_rule<Te, update_ok,
              [](const Te& x, const CheckContext& c) {
                if (!update_mode_in(x.update_type, c.gen))
                  return fmt::format("update_type {:#04x} is not an UPDATE_MODE of {}", x.update_type,
                                     to_string(c.gen));
                return fmt::format("update_type {} takes an immediate; the slots' values come from their registers",
                                   update_mode_info(x.update_type)->name);
              }>(
        "has_valid_test_es_update_type", "PROJ-CONV-TS2",
        "update_type is an UPDATE_MODE of the generation other than the immediate forms (SEM_ADD_IMM_*, SEM_SUB_IMM_*, "
        "SEM_WR_IMM_*)",
        fUpdate);

constexpr Predicate kUnique = text_rule<Te, unique_ok, unique_text>(
    "test_es_unique_ids", "PROJ-CONV-TS2", "the active slots' event or semaphore ids are distinct", fIds);

constexpr Predicate kUnused = text_rule<Te, unused_ok, unused_text>(
    "test_es_unused_slots_zero", "PROJ-CONV-TS2", "the slots past num_evt_sem hold id 0 and register 0", fSlots);

constexpr const Predicate* kConjuncts[] = {
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kOpcode, &kReserved, &kMode, &kNum, &kUpdate, &kUnique, &kUnused};

constexpr Validator kValidator = full_validator<kConjuncts>("is_valid_ctrl_test_es");

constexpr ValidatorRow kTable[] = {{testsem::kTestEventSem, &kValidator}};
constexpr Validation kValidation = validator_table<TestSemFamily, kTable>();

}  // namespace

const Validation& TestSemFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
