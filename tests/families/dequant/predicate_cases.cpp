// The tensor-dequantize family's cases for the generic predicate tests: the TENSOR_DEQUANTIZE baseline, a failing-only
// mutation per predicate of is_valid_tensor_dequantize, SUNDA's generation gate and the opcode clause dispatch always
// satisfies.
#include "words.hpp"

namespace tpbisa::test::dequant_cases {
namespace {

using namespace dequant_words;

PredicateCases family_cases() {
  constexpr std::string_view v = "is_valid_tensor_dequantize";
  constexpr std::string_view kNoArm = "an invalid format or group matches no arm of the element count check";
  std::vector<FailCase> f;
  f.push_back({v, "check_active_channels", 0, [](Word& w, Generation) { w[34] = 0; }});
  f.push_back({v,
               "has_valid_dequant_fmt",
               0,
               [](Word& w, Generation) { w[35] = 0; },
               {"s3d3_tens_dequant_element_count_check_t3d"},
               kNoArm});
  f.push_back({v,
               "has_valid_group_size",
               0,
               [](Word& w, Generation) { w[36] = 4; },
               {"has_valid_dequant_fmt_group_size", "s3d3_tens_dequant_element_count_check_t3d"},
               "group 4 is neither 0 nor 8: no format takes it and no count arm matches"});
  f.push_back({v,
               "has_valid_dequant_fmt_group_size",
               0,
               [](Word& w, Generation) {
                 w[35] = 4;  // FP6, micro-scaled
                 w[36] = 8;
                 store_le<uint16_t>(&w[22], 40);
               },
               {"s3d3_tens_dequant_element_count_check_t3d"},
               "FP6 micro-scaled matches no arm of the count check"});
  f.push_back({v, "s3d3_tens_dequant_reserved_zero", 0, [](Word& w, Generation) { w[40] = 1; }});
  f.push_back({v, "has_valid_tens_dequant_in_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kFp32; }});
  f.push_back({v, "has_valid_tens_dequant_out_dtype", 0, [](Word& w, Generation) { w[33] = dtype::kFp32; }});
  for (std::string_view start : {"start_addr_active_channels", "check_m3d_active_channels"}) {
    f.push_back({v, start, 0, [](Word& w, Generation g) { store_le<uint32_t>(&w[12], partition100(g)); }});
    f.push_back({v, start, 1, [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition100(g) + 0x1000); }});
  }
  for (std::string_view pattern : {"tensor3d_valid", "mem3d_valid"}) {
    f.push_back({v, pattern, 0, [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x2); }});
    f.push_back({v, pattern, 1, [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x1002); }});
  }
  f.push_back(
      {v, "s3d3_tens_dequant_element_count_check_t3d", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[54], 63); }});
  return {
      .baselines = {{v, base}},
      .fail_cases = std::move(f),
      .exempt = {{v, "has_tensor_dequantize_opcode", "dispatch selects it by 0x7b"}},
      .gen_gates = {{v, "has_valid_nc_tens_dequant", GenSet{0x01},
                     "SUNDA's enum has the opcode, its header tree has no s3d3_tens_dequant.h (nc >= V3)"}},
      .vector_covered = {v},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::dequant_cases
