// The sparsity-compress family's cases for the generic predicate tests: a baseline per validator (a MAX over groups of
// 16 FP32 elements), a failing-only mutation per predicate, and the conjuncts that cannot fail.
#include "words.hpp"

namespace tpbisa::test::sc_cases {
namespace {

using namespace sc_words;

PredicateCases family_cases() {
  constexpr std::string_view s = "is_valid_s3d3_sc", t = "is_valid_s2d2d2_sc";
  constexpr std::string_view kNoDim = "no op_dim leaves no group, so no group size or result count holds";
  std::vector<FailCase> f;
  // is_valid_s3d3_sc
  f.push_back({s, "has_s3d3_sc_reserved_zero", 0, [](Word& w, Generation) { w[40] = 1; }});
  f.push_back({s, "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }});
  f.push_back({s, "is_valid_dtype", 0, [](Word& w, Generation) { w[12] = dtype::kFp32r; }});
  f.push_back({s, "is_valid_sparsity_compress_dtypes", 0, [](Word& w, Generation) { w[33] = dtype::kUint16; }});
  f.push_back({s, "has_valid_compress_op", 0, [](Word& w, Generation) { w[36] = 0x04; }});
  f.push_back({s,
               "is_valid_subdim_3d",
               0,
               [](Word& w, Generation) { w[37] = 0; },
               {"reduce_dim_size_check", "reduce_dst_num_elements"},
               kNoDim});
  f.push_back({s, "is_valid_sparsity_compress_transpose_src", 0, [](Word& w, Generation) { w[13] = 2; }});
  f.push_back({s, "reduce_dim_size_check", 0, [](Word& w, Generation) {
                 store_le<uint16_t>(&w[26], 2);  // groups of 2
                 store_le<uint16_t>(&w[28], 16);
                 store_le<uint16_t>(&w[58], 64);  // 16 groups keep 64
               }});
  f.push_back({s, "reduce_dst_num_elements", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[58], 9); }});
  f.push_back(
      {s, "start_addr_active_channels", 0, [](Word& w, Generation g) { store_le<uint32_t>(&w[16], partition100(g)); }});
  f.push_back({s, "start_addr_active_channels", 1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[48], partition100(g) + 0x1000); }});
  f.push_back({s, "tensor3d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x2); }});
  f.push_back({s, "tensor3d_valid", 1, [](Word& w, Generation) { store_le<uint32_t>(&w[48], 0x1002); }});
  // is_valid_s2d2d2_sc
  f.push_back({t, "has_s2d2d2_sc_reserved_zero", 0, [](Word& w, Generation) { w[39] = 1; }});
  f.push_back({t, "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }});
  f.push_back({t, "is_valid_dtype", 0, [](Word& w, Generation) { w[12] = dtype::kFp32r; }});
  f.push_back({t, "is_valid_sparsity_compress_tag_dtypes", 0, [](Word& w, Generation) { w[33] = dtype::kFp32; }});
  f.push_back({t, "has_valid_compress_op", 0, [](Word& w, Generation) { w[36] = 0x21 + 1; }});
  f.push_back({t,
               "is_valid_subdim_2d",
               0,
               [](Word& w, Generation) { w[37] = 0x04; },
               {"reduce_dst_num_elements"},
               "XYZ on a 2-D source takes both dimensions as one group: 32 elements keep 4, not 8"});
  f.push_back({t, "is_valid_sparsity_compress_tag_transpose_src", 0, [](Word& w, Generation) { w[13] = 2; }});
  f.push_back({t, "reduce_dim_size_check", 0, [](Word& w, Generation) {
                 store_le<uint16_t>(&w[28], 2);
                 store_le<uint16_t>(&w[30], 16);
                 store_le<uint16_t>(&w[48], 64);  // 16 groups keep 64 data and 64 tags
                 store_le<uint16_t>(&w[60], 64);
               }});
  f.push_back({t, "reduce_dst_num_elements", 0, [](Word& w, Generation) {
                 store_le<uint16_t>(&w[48], 12);
                 store_le<uint16_t>(&w[60], 12);
               }});
  f.push_back(
      {t, "sparsity_compress_tag_element_count", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[60], 4); }});
  f.push_back(
      {t, "start_addr_active_channels", 0, [](Word& w, Generation g) { store_le<uint32_t>(&w[20], partition100(g)); }});
  f.push_back({t,
               "start_addr_active_channels",
               1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[40], partition100(g) + 0x1000); },
               {"has_valid_sparsity_compress_tag_dst_quadrants"},
               "data_dst leaves tag_dst's quadrant"});
  f.push_back({t,
               "start_addr_active_channels",
               2,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[52], partition100(g) + 0x2000); },
               {"has_valid_sparsity_compress_tag_dst_quadrants"},
               "tag_dst leaves data_dst's quadrant"});
  f.push_back({t, "tensor2d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[20], 0x2); }});
  f.push_back({t, "tensor2d_valid", 1, [](Word& w, Generation) { store_le<uint32_t>(&w[40], 0x1001); }});
  f.push_back({t, "tensor2d_valid", 2, [](Word& w, Generation) { store_le<uint32_t>(&w[52], 0x2001); }});
  f.push_back({t, "has_valid_sparsity_compress_tag_dst_quadrants", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[52], 32 * partition1(g) + 0x2000); }});
  return {
      .baselines = {{s, sc_base}, {t, sct_base}},
      .fail_cases = std::move(f),
      .exempt = {{s, "has_sparsity_compress_opcode", "dispatch selects it by 0xe0"},
                 {s, "check_core_version", "the opcode exists on MARIANA and MAVERICK only"},
                 {t, "has_sparsity_compress_tag_opcode", "dispatch selects it by 0xe1"},
                 {t, "check_core_version", "the opcode exists on MARIANA and MAVERICK only"}},
      .vector_covered = {s, t},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::sc_cases
