// CTRL_NO's cases for the generic predicate tests: its baseline, failing-only mutations and exemptions.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::ctrl_no_cases {
namespace {
/// CTRL_NO: a NOP (0xa4) with a zero body (sequencer.md §3.1).
Word ctrl_no_word() {
  Word w{};
  set_header(w, 0xA4);
  return w;
}

/// The family's cases for tests/unit/validate_predicates_test.cpp.
PredicateCases family_cases() {
  return {
      .baselines =
          {
              {"is_valid_ctrl_no", ctrl_no_word},
          },
      .fail_cases =
          {
              {"is_valid_ctrl_no", "ctrl_no_valid_notification", 0, [](Word& w, Generation) { w[39] = 2; }},
              {"is_valid_ctrl_no", "ctrl_no_reserved_zero", 0, [](Word& w, Generation) { w[12] = 1; }},
          },
      .exempt =
          {
              {"is_valid_ctrl_no", "has_ctrl_no_opcode", "dispatch selects it by 0x23, 0xa1-0xa4, 0xa6"},
          },
      .vector_covered = {"is_valid_ctrl_no"},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::ctrl_no_cases
