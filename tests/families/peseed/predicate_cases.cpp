// The PE seed family's cases for the generic predicate tests: the PE_MANAGE_SEED LOAD_SEED baseline, a failing-only
// mutation per predicate of is_valid_s2s1d2_pe_seed and the opcode clause dispatch always satisfies.
#include "words.hpp"

namespace tpbisa::test::peseed_cases {
namespace {

using namespace peseed_words;

PredicateCases family_cases() {
  constexpr std::string_view v = "is_valid_s2s1d2_pe_seed";
  std::vector<FailCase> f;
  f.push_back({v, "engine_placement", 0, [](Word&, Generation) {}, {}, {}, false, StreamEngine::Act});
  f.push_back({v, "s2s1d2_pe_seed_reserved_zero", 0, [](Word& w, Generation) { w[50] = 1; }});
  f.push_back({v, "has_valid_pe_seed_mode", 0, [](Word& w, Generation) { w[33] = 3; }});
  f.push_back({v, "has_valid_pe_seed_identity_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kUint8; }});
  f.push_back({v, "pe_seed_num_active_rows_16", 0, [](Word& w, Generation) { w[34] = 32; }});
  f.push_back({v, "pe_seed_num_active_cols_128", 0, [](Word& w, Generation) { w[35] = 64; }});
  f.push_back({v, "tensor1d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[24], 0x2001); }});
  f.push_back({v, "pe_seed_valid_src", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[20], 64); }});
  f.push_back({v, "pe_seed_valid_dst", 0, [](Word& w, Generation) {
                 w[33] = 2;                           // SAVE_SEED: dst is read, src is not
                 store_le<uint32_t>(&w[36], 0x1002);  // not 4-byte aligned (and SBUF on MARIANA)
               }});
  return {
      .baselines = {{v, base}},
      .fail_cases = std::move(f),
      .exempt = {{v, "has_pe_manage_seed_opcode", "dispatch selects it by 0x08"}},
      .vector_covered = {v},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::peseed_cases
