// The compact-control family's cases for the generic predicate tests: the COMPACT_CONTROL_INST baseline, a failing-only
// mutation per predicate of is_valid_ctrl_cci and the opcode clause dispatch always satisfies.
#include "words.hpp"

namespace tpbisa::test::cci_cases {
namespace {

using namespace cci_words;

PredicateCases family_cases() {
  constexpr std::string_view v = "is_valid_ctrl_cci";
  std::vector<FailCase> f;
  f.push_back({v, "has_tile_idx_zero", 0, [](Word& w, Generation) { w[3] = 1; }});
  return {
      .baselines = {{v, base}},
      .fail_cases = std::move(f),
      .exempt = {{v, "has_cci_opcode", "dispatch selects it by 0xb6"}},
      .vector_covered = {v},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::cci_cases
