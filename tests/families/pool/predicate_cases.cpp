// Pool family's cases for the generic predicate tests: baselines (the synthetic words of vectors.py), failing-only
// mutations and exemptions.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::pool_cases {
namespace {

// The baselines of tests/families/pool/vectors.py, valid on every generation.
constexpr std::string_view kGt =
    "6810000000000000000000000010000001000000000000000800010001000100"
    "090a020000000000000000000020000001000000000000000800010001000100";
constexpr std::string_view kIc =
    "e710000000000000000000000010000000200000080000000000000000000000"
    "0a0a100200004000000000000030000001000000000000000800010001000100";
constexpr std::string_view kSo =
    "9610000000000000000000000100aa1600100000010006000020000001000200"
    "0200060064000000010000000000000000000000000000000000000000000000";
constexpr std::string_view kPl =
    "4510000000000000000000000010000001000400020008000200020002000200"
    "0a0a0200010300000000803f0020000001000200010001000200020001000100";
constexpr std::string_view kCr =
    "7c10000000000000000000000010000001000000000000000400010001000100"
    "0a0a040000000000000000000020000001000000000000000100010001000100";

/// A start in partition 127 (so two or more channels leave the 128 partitions).
uint32_t partition127(Generation g) {
  return 127 * partition1(g) + 0x1000;
}

PredicateCases family_cases() {
  return {
      .baselines =
          {
              {"is_valid_gather", [] { return hex_word(kGt); }},
              {"is_valid_indirect_copy", [] { return hex_word(kIc); }},
              {"is_valid_s1d2_sort", [] { return hex_word(kSo); }},
              {"is_valid_s4d4_pl", [] { return hex_word(kPl); }},
              {"is_valid_cross_lane_reduce", [] { return hex_word(kCr); }},
          },
      .fail_cases =
          {
              // ---- GATHER (u32 indices, 2 channels, FP32 out, {8,1,1,1} each) ----
              {"is_valid_gather", "has_gather_index_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kFp32; }},
              {"is_valid_gather", "is_valid_dtype", 0, [](Word& w, Generation) { w[33] = dtype::kUint64; }},
              {"is_valid_gather", "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_gather", "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[12], partition127(g)); }},
              {"is_valid_gather", "start_addr_active_channels", 1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition127(g)); }},
              {"is_valid_gather", "tensor4d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x1002); }},
              {"is_valid_gather", "tensor4d_valid", 1, [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x2002); }},
              {"is_valid_gather", "gather_same_src_dst_count", 0, [](Word& w, Generation) { w[56] = 4; }},
              // ---- INDIRECT_COPY (FP32, 16 channels, 8 elements, 2 per index) ----
              {"is_valid_indirect_copy", "indirect_copy_same_dtype", 0,
               [](Word& w, Generation) { w[33] = dtype::kInt32; }},
              {"is_valid_indirect_copy", "is_valid_dtype", 0,
               [](Word& w, Generation) { w[32] = w[33] = dtype::kUint64; }},
              {"is_valid_indirect_copy", "indirect_copy_active_channels", 0, [](Word& w, Generation) { w[34] = 8; }},
              {"is_valid_indirect_copy", "indirect_copy_src_elem_per_idx", 0, [](Word& w, Generation) { w[35] = 3; }},
              {"is_valid_indirect_copy", "indirect_copy_gather_only", 0, [](Word& w, Generation) { w[36] = 1; }},
              {"is_valid_indirect_copy", "indirect_copy_src_buffer_size", 0, [](Word& w, Generation) { w[38] = 1; }},
              {"is_valid_indirect_copy", "indirect_copy_index_count", 0,
               [](Word& w, Generation) {
                 store_le<uint16_t>(&w[20], 8194);  // 4097 indices of 2
                 store_le<uint16_t>(&w[56], 8194);
               }},
              {"is_valid_indirect_copy", "indirect_copy_src_in_sbuf", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x1001); }},
              {"is_valid_indirect_copy", "tensor4d_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x3002); }},
              {"is_valid_indirect_copy", "indirect_copy_dst_count", 0, [](Word& w, Generation) { w[56] = 4; }},
              // ---- SORT (FP32, 1 channel, 6 values) ----
              {"is_valid_s1d2_sort", "s1d2_sort_reserved_zero", 0, [](Word& w, Generation) { w[50] = 1; }},
              {"is_valid_s1d2_sort", "sort_dtypes_ok", 0, [](Word& w, Generation) { w[14] = 0xA6; }},
              {"is_valid_s1d2_sort", "is_valid_enum(ImmSrc)", 0, [](Word& w, Generation) { w[13] = 3; }},
              {"is_valid_s1d2_sort", "sort_valid_aluop", 0, [](Word& w, Generation) { w[15] = aluop::kAdd; }},
              {"is_valid_s1d2_sort", "sort_valid_stable", 0, [](Word& w, Generation) { w[40] = 2; }},
              {"is_valid_s1d2_sort", "sort_tensor_shapes_ok", 0, [](Word& w, Generation) { w[32] = 3; }},
              // ---- POOL (2x2 max windows, FP32, 2 channels) ----
              {"is_valid_s4d4_pl", "s4d4_pl_reserved_zero", 0, [](Word& w, Generation) { w[35] = 1; }},
              {"is_valid_s4d4_pl", "is_valid_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kFp32r; }},
              {"is_valid_s4d4_pl", "is_valid_dtype", 1, [](Word& w, Generation) { w[33] = dtype::kUint64; }},
              {"is_valid_s4d4_pl", "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[12], partition127(g)); }},
              {"is_valid_s4d4_pl", "start_addr_active_channels", 1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition127(g)); }},
              {"is_valid_s4d4_pl", "has_valid_pooltype", 0, [](Word& w, Generation) { w[36] = 0; }},
              {"is_valid_s4d4_pl", "is_valid_subdim", 0, [](Word& w, Generation) { w[37] = 1; }},
              {"is_valid_s4d4_pl", "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_s4d4_pl", "tensor4d_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x1002); }},
              {"is_valid_s4d4_pl", "tensor4d_valid", 1,
               [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x2002); }},
              {"is_valid_s4d4_pl", "s4d4_pool_scale_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[40], 0x40000000U); }},
              // ---- CROSS_LANE_REDUCE (ADD over ALL, 4 channels x 4 FP32) ----
              {"is_valid_cross_lane_reduce", "s4d4_cr_reserved_zero", 0, [](Word& w, Generation) { w[37] = 1; }},
              {"is_valid_cross_lane_reduce", "is_valid_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kFp32r; }},
              {"is_valid_cross_lane_reduce", "is_valid_dtype", 1, [](Word& w, Generation) { w[33] = dtype::kUint64; }},
              {"is_valid_cross_lane_reduce", "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[12], partition127(g)); }},
              {"is_valid_cross_lane_reduce",
               "start_addr_active_channels",
               1,
               [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x10000000U); },
               {"tensor4d_valid"},
               "dst spans one channel: only a start outside SBUF and PSUM leaves no room, and that is no tensor start"},
              {"is_valid_cross_lane_reduce", "check_active_channels", 0, [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_cross_lane_reduce", "tensor4d_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x1002); }},
              {"is_valid_cross_lane_reduce", "tensor4d_valid", 1,
               [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x2002); }},
              {"is_valid_cross_lane_reduce", "valid_reduce_axis_enum", 0, [](Word& w, Generation) { w[36] = 2; }},
              {"is_valid_cross_lane_reduce", "valid_axis_dst_element_cnt", 0, [](Word& w, Generation) { w[56] = 2; }},
              {"is_valid_cross_lane_reduce", "cross_lane_reduce_valid_op", 0, [](Word& w, Generation) { w[35] = 3; }},
          },
      .exempt =
          {
              {"is_valid_gather", "has_gather_opcode", "the dispatcher only routes 0x68 here"},
              {"is_valid_indirect_copy", "has_indirect_copy_opcode", "the dispatcher only routes 0xE7 here"},
              {"is_valid_s1d2_sort", "has_sort_opcode", "the dispatcher only routes 0x96 here"},
              {"is_valid_s4d4_pl", "has_s4d4_pl_opcode", "the dispatcher only routes 0x45 here"},
              {"is_valid_s4d4_pl", "s4d4_pl_dtype_check", "its only term is MAX_POOL_SELECT's, not modeled"},
              {"is_valid_cross_lane_reduce", "has_cross_lane_reduce_opcode", "the dispatcher only routes 0x7C/0x7D"},
          },
      .vector_covered = {"is_valid_gather", "is_valid_indirect_copy", "is_valid_s1d2_sort", "is_valid_s4d4_pl",
                         "is_valid_cross_lane_reduce"},
  };
}

const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::pool_cases
