// The batch-norm statistics and search family's cases for the generic predicate tests: the worked words X14..X19 of
// act-index-ops.md §14.4 / §15.4 as baselines, a failing-only mutation per predicate, and the exemptions.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::bnsearch_cases {
namespace {

constexpr std::string_view kX14 =
    "61100000000000000000000000100000010000000000000005000100010001000a0a0100000000000000404000000040002000000100000006"
    "00010000000000";
/// X14 as TRANSPOSE_BATCH_NORM_STATS2 on 32 channels and 32 source elements (PROJ-CONV-A31).
constexpr std::string_view kXT =
    "82100000000000000000000000100000010000000000000020000100010001000a0a200000000000000040400000004000200000010000"
    "000600010000000000";
constexpr std::string_view kX15 =
    "62100000000000000000000000200000010000000000000006000100010001000a0a0100000000000000000000000000003000000100000002"
    "00010000000000";
constexpr std::string_view kX16 =
    "60100000000000000000000000100000010000000000000004000100010001000a0a0100000000000000804000000000002000000100000003"
    "00010000000000";
constexpr std::string_view kX17 =
    "6c10000000000000000000000010000001000000000000000a000100010001000a0a0100000000000000000000000000002000000100000008"
    "00010000000000";
constexpr std::string_view kX18 =
    "6e10000000000000000000000010000001000000000000000a000100010001000a090100000000000000000000000000003000000100000008"
    "00010000000000";
constexpr std::string_view kX19 =
    "6f10000000000000000000000010000001000000000000000a000100010001000a0a010000000000000080ff0040000001000000000000000a"
    "00010001000100";

void set_u16(Word& w, unsigned at, uint16_t v) {
  store_le<uint16_t>(&w[at], v);
}
void set_u32(Word& w, unsigned at, uint32_t v) {
  store_le<uint32_t>(&w[at], v);
}

/// The conjuncts of common_s4d2_bn (§14.2), for validator `v`; `out_companions` fail with an out_dtype of UINT64,
/// `in_companions` with an in_dtype of FP32R.
void add_common(std::vector<FailCase>& out, std::string_view v, std::vector<std::string_view> out_companions,
                std::vector<std::string_view> in_companions = {}) {
  out.push_back({v, "s4d2_bn_reserved_zero", 0, [](Word& w, Generation) { w[36] = 1; }});
  if (in_companions.empty())
    out.push_back({v, "is_valid_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kFp32r; }});
  else
    out.push_back({v, "is_valid_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kFp32r; }, in_companions,
                   "FP32R is outside the opcode's input type set too"});
  if (out_companions.empty())
    out.push_back({v, "is_valid_dtype", 1, [](Word& w, Generation) { w[33] = dtype::kUint64; }});
  else
    out.push_back({v, "is_valid_dtype", 1, [](Word& w, Generation) { w[33] = dtype::kUint64; }, out_companions,
                   "every dtype that fails is_valid_dtype is outside the opcode's output type set too"});
  out.push_back({v, "check_active_channels", 0, [](Word& w, Generation) { w[34] = 0; }});
  out.push_back({v, "start_addr_active_channels", 0, [](Word& w, Generation g) {
                   w[34] = 128;
                   set_u32(w, 12, partition1(g) + 0x1000);
                 }});
  out.push_back({v, "start_addr_active_channels", 1, [](Word& w, Generation g) {
                   w[34] = 128;
                   set_u32(w, 48, partition1(g) + 0x2000);
                 }});
  out.push_back({v, "tensor4d_valid", 0, [](Word& w, Generation) { set_u32(w, 12, 0x1002); }});
  out.push_back({v, "tensor2d_valid", 0, [](Word& w, Generation) { set_u32(w, 48, 0x2002); }});
}

PredicateCases family_cases() {
  PredicateCases c{
      .baselines =
          {
              {"is_valid_batchnorm_stats2", [] { return hex_word(kX14); }},
              {"is_valid_transpose_batchnorm_stats2", [] { return hex_word(kXT); }},
              {"is_valid_batchnorm_aggregate", [] { return hex_word(kX15); }},
              {"is_valid_batchnorm_stats", [] { return hex_word(kX16); }},
              {"is_valid_max8", [] { return hex_word(kX17); }},
              {"is_valid_find_index8", [] { return hex_word(kX18); }},
              {"is_valid_match_replace8", [] { return hex_word(kX19); }},
          },
      .fail_cases = {},
      .exempt =
          {
              {"is_valid_batchnorm_stats", "has_batchnorm_stats_opcode", "dispatch selects it by opcode 0x60"},
              {"is_valid_batchnorm_stats2", "has_batchnorm_stats2_opcode", "dispatch selects it by opcode 0x61"},
              {"is_valid_transpose_batchnorm_stats2", "has_transpose_batchnorm_stats2_opcode",
               "dispatch selects it by opcode 0x82"},
              {"is_valid_batchnorm_aggregate", "has_batchnorm_aggregate_opcode", "dispatch selects it by opcode 0x62"},
              {"is_valid_max8", "has_max8_opcode", "dispatch selects it by opcode 0x6c"},
              {"is_valid_find_index8", "has_find_index8_opcode", "dispatch selects it by opcode 0x6e"},
              {"is_valid_match_replace8", "has_match_replace8_opcode", "dispatch selects it by opcode 0x6f"},
          },
      .vector_covered = {"is_valid_batchnorm_stats", "is_valid_batchnorm_stats2", "is_valid_transpose_batchnorm_stats2",
                         "is_valid_batchnorm_aggregate", "is_valid_max8", "is_valid_find_index8",
                         "is_valid_match_replace8"},
  };
  std::vector<FailCase>& f = c.fail_cases;

  // ---- STATS2 / STATS ----
  for (std::string_view v :
       {"is_valid_batchnorm_stats2", "is_valid_batchnorm_stats", "is_valid_transpose_batchnorm_stats2"}) {
    add_common(f, v, {"s4d2_bn_stats_out_type"});
    f.push_back({v, "s4d2_bn_stats_out_type", 0, [](Word& w, Generation) { w[33] = dtype::kUint32; }});
    f.push_back({v, "has_bns_finite_even_count", 0, [](Word& w, Generation) { set_u32(w, 40, 0x7F800000); }});
    f.push_back({v, "has_bns_finite_odd_count", 0, [](Word& w, Generation) { set_u32(w, 44, 0x7FC00000); }});
  }
  f.push_back({"is_valid_batchnorm_stats2", "has_bnstats2_src_element_cnt", 0,
               [](Word& w, Generation) { set_u16(w, 24, 513); }});
  f.push_back(
      {"is_valid_batchnorm_stats2", "has_bnstats2_dst_element_cnt", 0, [](Word& w, Generation) { set_u16(w, 56, 7); }});
  // TRANSPOSE_BATCH_NORM_STATS2: 544 elements are a multiple of 32 past 512; 48 elements and 16 channels are not
  // multiples of 32.
  const std::string_view t = "is_valid_transpose_batchnorm_stats2";
  f.push_back({t, "has_bnstats2_src_element_cnt", 0, [](Word& w, Generation) { set_u16(w, 24, 544); }});
  f.push_back({t, "has_bnstats2_dst_element_cnt", 0, [](Word& w, Generation) { set_u16(w, 56, 7); }});
  f.push_back({t, "transpose_bnstats2_channels_multiple_of_32", 0, [](Word& w, Generation) { w[34] = 16; }});
  f.push_back(
      {t, "transpose_bnstats2_src_element_cnt_multiple_of_32", 0, [](Word& w, Generation) { set_u16(w, 24, 48); }});
  f.push_back(
      {"is_valid_batchnorm_stats", "has_bnstats_src_element_cnt", 0, [](Word& w, Generation) { set_u16(w, 24, 257); }});
  f.push_back(
      {"is_valid_batchnorm_stats", "has_bnstats_dst_element_cnt", 0, [](Word& w, Generation) { set_u16(w, 56, 6); }});

  // ---- AGGREGATE ----
  add_common(f, "is_valid_batchnorm_aggregate", {"s4d2_bn_agg_out_type"}, {"s4d2_bn_agg_in_type"});
  f.push_back({"is_valid_batchnorm_aggregate", "has_bnstats_agg_src_element_cnt", 0,
               [](Word& w, Generation) { set_u16(w, 24, 7); }});
  f.push_back({"is_valid_batchnorm_aggregate", "has_bnstats_agg_dst_element_cnt", 0,
               [](Word& w, Generation) { set_u16(w, 56, 3); }});
  f.push_back(
      {"is_valid_batchnorm_aggregate", "s4d2_bn_agg_in_type", 0, [](Word& w, Generation) { w[32] = dtype::kUint32; }});
  f.push_back(
      {"is_valid_batchnorm_aggregate", "s4d2_bn_agg_out_type", 0, [](Word& w, Generation) { w[33] = dtype::kInt32; }});
  f.push_back({"is_valid_batchnorm_aggregate", "s4d2_bn_zero_counts", 0,
               [](Word& w, Generation) { set_u32(w, 40, 0x3F800000); }});

  // ---- MAX8 / FIND_INDEX8 ----
  add_common(f, "is_valid_max8", {});
  f.push_back({"is_valid_max8", "has_max8_src_element_cnt", 0, [](Word& w, Generation) { set_u16(w, 24, 7); }});
  f.push_back({"is_valid_max8", "has_max8_dst_element_cnt", 0, [](Word& w, Generation) { set_u16(w, 56, 9); }});
  f.push_back({"is_valid_max8", "s4d2_bn_zero_counts", 0, [](Word& w, Generation) { set_u32(w, 44, 0x3F800000); }});
  add_common(f, "is_valid_find_index8", {"has_find_index8_dst_type"});
  f.push_back({"is_valid_find_index8", "has_find_index8_src_element_cnt", 0,
               [](Word& w, Generation) { set_u16(w, 24, 16385); }});
  f.push_back(
      {"is_valid_find_index8", "has_find_index8_dst_element_cnt", 0, [](Word& w, Generation) { set_u16(w, 56, 7); }});
  f.push_back(
      {"is_valid_find_index8", "has_find_index8_dst_type", 0, [](Word& w, Generation) { w[33] = dtype::kFp32; }});
  f.push_back(
      {"is_valid_find_index8", "s4d2_bn_zero_counts", 0, [](Word& w, Generation) { set_u32(w, 40, 0x3F800000); }});

  // ---- MATCH_REPLACE8 ----
  const std::string_view mr = "is_valid_match_replace8";
  f.push_back({mr, "s4d4_mr_reserved_zero", 0, [](Word& w, Generation) { w[35] = 1; }});
  f.push_back({mr,
               "is_valid_dtype",
               0,
               [](Word& w, Generation) { w[32] = dtype::kFp32r; },
               {"match_replace_dtypes"},
               "FP32R is outside the MATCH_REPLACE8 type set too"});
  f.push_back({mr,
               "is_valid_dtype",
               1,
               [](Word& w, Generation) { w[33] = dtype::kUint64; },
               {"match_replace_dtypes"},
               "UINT64 is outside the MATCH_REPLACE8 type set too"});
  f.push_back({mr, "match_replace_dtypes", 0, [](Word& w, Generation) { w[32] = dtype::kInt8; }});
  f.push_back({mr, "check_active_channels", 0, [](Word& w, Generation) { w[34] = 0; }});
  f.push_back({mr, "start_addr_active_channels", 0, [](Word& w, Generation g) {
                 w[34] = 128;
                 set_u32(w, 12, partition1(g) + 0x1000);
               }});
  f.push_back({mr, "start_addr_active_channels", 1, [](Word& w, Generation g) {
                 w[34] = 128;
                 set_u32(w, 44, partition1(g) + 0x4000);
               }});
  f.push_back({mr, "tensor4d_valid", 0, [](Word& w, Generation) { set_u32(w, 12, 0x1002); }});
  f.push_back({mr, "tensor4d_valid", 1, [](Word& w, Generation) { set_u32(w, 44, 0x4002); }});
  f.push_back({mr, "has_match_replace8_src_element_cnt", 0, [](Word& w, Generation) {
                 set_u16(w, 24, 16385);
                 set_u16(w, 56, 16385);
               }});
  f.push_back({mr, "same_element_count_t4d", 0, [](Word& w, Generation) { set_u16(w, 56, 9); }});
  return c;
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::bnsearch_cases
