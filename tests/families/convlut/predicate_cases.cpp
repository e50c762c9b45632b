// The conversion-LUT family's cases for the generic predicate tests: the CONV_LUT_LOAD CPTC baseline (the leg every
// generation admits), a failing-only mutation per predicate of is_valid_s2_convlut and the opcode clause dispatch
// always satisfies.
#include "words.hpp"

namespace tpbisa::test::convlut_cases {
namespace {

using namespace convlut_words;

PredicateCases family_cases() {
  constexpr std::string_view v = "is_valid_s2_convlut";
  std::vector<FailCase> f;
  f.push_back({v, "s2_convlut_valid_nc", 0, [](Word& w, Generation) { to_legacy(w); }});
  f.push_back({v, "s2_convlut_reserved_zero", 0, [](Word& w, Generation) { w[50] = 1; }});
  // Occurrence 0 is judged on MARIANA, which admits the legacy leg; occurrence 1 on CAYMAN and MAVERICK, which fail it.
  f.push_back({v, "s2_convlut_legacy_reserved_zero", 0, [](Word& w, Generation) {
                 to_legacy(w);
                 w[46] = 8;
               }});
  f.push_back({v,
               "s2_convlut_legacy_reserved_zero",
               1,
               [](Word& w, Generation) {
                 to_legacy(w);
                 w[46] = 8;
               },
               {"s2_convlut_valid_nc"},
               "CAYMAN and MAVERICK do not admit the legacy leg"});
  f.push_back({v, "s2_convlut_check_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kUint16; }});
  f.push_back({v, "has_conv_lut_load_src_element_cnt", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[24], 8); }});
  f.push_back({v, "s2_convlut_legacy_full_array", 0, [](Word& w, Generation) {
                 to_legacy(w);
                 w[38] = 64;
               }});
  f.push_back({v,
               "s2_convlut_legacy_full_array",
               1,
               [](Word& w, Generation) {
                 to_legacy(w);
                 w[38] = 64;
               },
               {"s2_convlut_valid_nc"},
               "CAYMAN and MAVERICK do not admit the legacy leg"});
  for (std::string_view start : {"start_addr_active_channels", "check_m2d_active_channels"})
    f.push_back({v, start, 0, [](Word& w, Generation g) { store_le<uint32_t>(&w[16], partition1(g)); }});
  f.push_back({v, "tensor2d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x2); }});
  return {
      .baselines = {{v, base}},
      .fail_cases = std::move(f),
      .exempt = {{v, "has_conv_lut_load_opcode", "dispatch selects it by 0xe4"}},
      .vector_covered = {v},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::convlut_cases
