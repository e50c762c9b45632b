// The test-event-semaphore family's cases for the generic predicate tests: the TEST_EVENT_SEM READ_SEM baseline, a
// failing-only mutation per predicate of is_valid_ctrl_test_es and the opcode clause dispatch always satisfies.
#include "words.hpp"

namespace tpbisa::test::testsem_cases {
namespace {

using namespace testsem_words;

PredicateCases family_cases() {
  constexpr std::string_view v = "is_valid_ctrl_test_es";
  std::vector<FailCase> f;
  f.push_back({v, "ctrl_test_es_reserved_zero", 0, [](Word& w, Generation) { w[60] = 1; }});
  f.push_back({v, "has_valid_test_evt_sem_mode", 0, [](Word& w, Generation) { w[12] = 9; }});
  f.push_back({v, "has_valid_test_es_num_evt_sem", 0, [](Word& w, Generation) {
                 w[15] = 0;
                 w[16] = w[17] = w[32] = w[33] = 0;  // no active slot, so none may hold an id or a register
               }});
  f.push_back({v, "has_valid_test_es_update_type", 0, [](Word& w, Generation) { w[13] = 0x05; }});
  f.push_back({v, "test_es_unique_ids", 0, [](Word& w, Generation) { w[17] = 3; }});
  f.push_back({v, "test_es_unused_slots_zero", 0, [](Word& w, Generation) { w[18] = 9; }});
  return {
      .baselines = {{v, base}},
      .fail_cases = std::move(f),
      .exempt = {{v, "has_test_event_sem_opcode", "dispatch selects it by 0xb4"}},
      .vector_covered = {v},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::testsem_cases
