// The read-indices family's cases for the generic predicate tests: DVE_READ_INDICES 0xE9 on four channels' eight
// UINT32 indices at SB p0+0x2000 as the baseline, a failing-only mutation per predicate, and the exemption.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::readidx_cases {
namespace {

constexpr std::string_view kBase =
    "e910000000000000000000000000000000000000000000000000000008000000090004000000000000000000002000000100000000000000"
    "0800010001000100";

void set_u16(Word& w, unsigned at, uint16_t v) {
  store_le<uint16_t>(&w[at], v);
}
void set_u32(Word& w, unsigned at, uint32_t v) {
  store_le<uint32_t>(&w[at], v);
}

PredicateCases family_cases() {
  constexpr std::string_view v = "is_valid_dve_read_indices";
  PredicateCases c{
      .baselines = {{v, [] { return hex_word(kBase); }}},
      .fail_cases = {},
      .exempt = {{v, "has_dve_read_indices_opcode", "dispatch selects it by opcode 0xe9"}},
      .vector_covered = {v},
  };
  std::vector<FailCase>& f = c.fail_cases;
  f.push_back({v, "d4_mr_reserved_zero", 0, [](Word& w, Generation) { w[33] = 1; }});
  f.push_back({v, "d4_mr_zero_serialization", 0, [](Word& w, Generation) { w[36] = 1; }});
  f.push_back({v, "is_valid_dtype_dve_read_indices", 0, [](Word& w, Generation) { w[32] = dtype::kFp32; }});
  f.push_back({v, "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }});
  f.push_back({v, "start_addr_active_channels", 0, [](Word& w, Generation g) {
                 w[34] = 128;
                 set_u32(w, 44, partition1(g) + 0x2000);
               }});
  f.push_back({v, "tensor4d_valid", 0, [](Word& w, Generation) { set_u32(w, 44, 0x2002); }});
  f.push_back({v, "dve_read_indices_elem_count_8", 0, [](Word& w, Generation) { set_u32(w, 28, 7); }});
  f.push_back({v, "dve_read_indices_dst_pattern_count", 0, [](Word& w, Generation) { set_u16(w, 56, 9); }});
  f.push_back({v, "d4_mr_zero_set_value", 0, [](Word& w, Generation) { set_u32(w, 40, 1); }});
  return c;
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::readidx_cases
