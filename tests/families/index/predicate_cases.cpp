// Index family's cases for the generic predicate tests: baselines (the spec's words X9-X13), failing-only
// mutations and exemptions.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::index_cases {
namespace {

// act-index-ops.md §9.4-§13.4, valid on every generation the opcode has.
constexpr std::string_view kX9 =
    "7e10000000000000000000000500000001000a00000000000300020001000100"
    "0008020064000000000000000010000001000000000000000600010001000100";
constexpr std::string_view kX10 =
    "92100000000000000000000004aa010500000000ffff00000000000004000100"
    "0100010000100000010000000400010000200000010000000400010001000000";
constexpr std::string_view kX11 =
    "bc100000000000000000000001aa030800000000ffff7fff0010000001000000"
    "0800010014160000000000400000a04000200000010000000800010000000000";
constexpr std::string_view kX12 =
    "be10000000000000000000000100080800100000010000000000090001000100"
    "0020000001000000090009000100020000000000000000000000000000000000";
constexpr std::string_view kX13 =
    "f21000000000000000000000110a080000100000010000000000080001000100"
    "1000000000000000ffffffff0020000001000000000009000100010000000000";

/// A start in partition 127 (so two or more channels leave the 128 partitions).
uint32_t partition127(Generation g) {
  return 127 * partition1(g) + 0x1000;
}

PredicateCases family_cases() {
  return {
      .baselines =
          {
              {"is_valid_iota", [] { return hex_word(kX9); }},
              {"is_valid_s2d2_ts_as", [] { return hex_word(kX10); }},
              {"is_valid_range_select", [] { return hex_word(kX11); }},
              {"is_valid_get_sequence_bounds", [] { return hex_word(kX12); }},
              {"is_valid_nonzero_with_count", [] { return hex_word(kX13); }},
          },
      .fail_cases =
          {
              // ---- IOTA (X9: 2 channels, INT32, dst SB 0x1000 num {6,1,1,1}) ----
              {"is_valid_iota", "d4_iota_reserved_zero", 0, [](Word& w, Generation) { w[40] = 1; }},
              {"is_valid_iota", "is_valid_dtype", 0, [](Word& w, Generation) { w[33] = dtype::kUint64; }},
              {"is_valid_iota", "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_iota", "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition127(g)); }},
              {"is_valid_iota", "tensor4d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x1002); }},
              {"is_valid_iota", "d4_iota_same_src_dst_count", 0, [](Word& w, Generation) { w[56] = 5; }},
              // ---- AFFINE_SELECT (X10: 4 channels, FP32 -> FP32, src SB 0x1000, dst SB 0x2000) ----
              {"is_valid_s2d2_ts_as", "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[12] = 0; }},
              {"is_valid_s2d2_ts_as", "tensor2d_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[36], 0x1002); }},
              {"is_valid_s2d2_ts_as", "tensor2d_valid", 1,
               [](Word& w, Generation) { store_le<uint32_t>(&w[48], 0x2002); }},
              {"is_valid_s2d2_ts_as", "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[36], partition127(g)); }},
              {"is_valid_s2d2_ts_as", "start_addr_active_channels", 1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[48], partition127(g)); }},
              {"is_valid_s2d2_ts_as", "s2d2_ts_as_valid_elem_count", 0, [](Word& w, Generation) { w[28] = 3; }},
              {"is_valid_s2d2_ts_as", "s2d2_ts_as_valid_dtypes", 0, [](Word& w, Generation) { w[13] = 0xab; }},
              {"is_valid_s2d2_ts_as", "is_valid_enum(AffineSelectCmp)", 0, [](Word& w, Generation) { w[14] = 4; }},
              {"is_valid_s2d2_ts_as", "is_valid_register_read", 0, [](Word& w, Generation) { w[15] = 64; }},
              // ---- RANGE_SELECT (X11: 1 channel, FP32/FP32, src SB 0x1000 {8,1}, dst SB 0x2000) ----
              {"is_valid_range_select", "start_addr_active_channels", 0,
               [](Word& w, Generation g) {
                 w[12] = 2;
                 store_le<uint32_t>(&w[24], partition127(g));
               }},
              {"is_valid_range_select", "start_addr_active_channels", 1,
               [](Word& w, Generation g) {
                 w[12] = 2;
                 store_le<uint32_t>(&w[48], partition127(g));
               }},
              {"is_valid_range_select", "tensor2d_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[24], 0x1002); }},
              {"is_valid_range_select", "tensor2d_valid", 1,
               [](Word& w, Generation) { store_le<uint32_t>(&w[48], 0x2002); }},
              {"is_valid_range_select", "has_same_elem_count_rs_src_dst", 0, [](Word& w, Generation) { w[56] = 7; }},
              {"is_valid_range_select", "has_valid_total_index_range", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x4B800000U); }},  // 2^24: 2^24 + 8 > 2^24
              {"is_valid_range_select", "is_valid_fp_dtype_datapath", 0, [](Word& w, Generation) { w[13] = 0xa8; }},
              {"is_valid_range_select", "is_valid_fp_dtype_datapath", 1, [](Word& w, Generation) { w[13] = 0x8a; }},
              {"is_valid_range_select", "is_valid_fill_val", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[20], 0xFF800000U); }},  // -Inf, not -FLT_MAX
              {"is_valid_range_select", "is_valid_rs_comp_op", 0, [](Word& w, Generation) { w[36] = aluop::kAdd; }},
              {"is_valid_range_select", "is_valid_rs_comp_op", 1, [](Word& w, Generation) { w[37] = aluop::kIsNe; }},
              {"is_valid_range_select", "has_valid_immediates", 0, [](Word& w, Generation) { w[38] = 3; }},
              {"is_valid_range_select", "has_valid_immediates", 1,
               [](Word& w, Generation) {
                 w[39] = 2;   // REG_PTR
                 w[44] = 64;  // r64
                 w[45] = w[46] = w[47] = 0;
               }},
              {"is_valid_range_select", "check_active_channels", 0, [](Word& w, Generation) { w[12] = 0; }},
              {"is_valid_range_select", "has_valid_range_select_reduce_cmd", 0, [](Word& w, Generation) { w[14] = 1; }},
              {"is_valid_range_select", "has_valid_range_select_reduce_op", 0,
               [](Word& w, Generation) { w[15] = aluop::kMin; }},
              // ---- GET_SEQUENCE_BOUNDS (X12: 1 channel, INT32 -> INT32, src {9,1,1}, dst {9,1,2}) ----
              {"is_valid_get_sequence_bounds",
               "check_active_channels",
               0,
               [](Word& w, Generation) { w[12] = 0; },
               {"has_valid_s3d3_seq_bounds_channels"},
               "0 channels is also not the one channel the opcode requires"},
              {"is_valid_get_sequence_bounds", "has_valid_s3d3_seq_bounds_channels", 0,
               [](Word& w, Generation) { w[12] = 2; }},
              {"is_valid_get_sequence_bounds", "s3d3_seq_bounds_reserved_zero", 0,
               [](Word& w, Generation) { w[63] = 1; }},
              {"is_valid_get_sequence_bounds",
               "is_valid_dtype",
               0,
               [](Word& w, Generation) { w[14] = dtype::kFp32r; },
               {"has_valid_seq_bounds_dtype"},
               "every dtype is_valid_dtype rejects is also neither FP32 nor INT32"},
              {"is_valid_get_sequence_bounds",
               "is_valid_dtype",
               1,
               [](Word& w, Generation) { w[15] = dtype::kUint64; },
               {"has_valid_seq_bounds_dtype"},
               "every dtype is_valid_dtype rejects is also neither FP32 nor INT32"},
              {"is_valid_get_sequence_bounds", "has_valid_seq_bounds_dtype", 0,
               [](Word& w, Generation) { w[14] = dtype::kUint32; }},
              {"is_valid_get_sequence_bounds",
               "start_addr_active_channels",
               0,
               [](Word& w, Generation g) {
                 w[12] = 2;
                 store_le<uint32_t>(&w[16], partition127(g));
               },
               {"has_valid_s3d3_seq_bounds_channels"},
               "with its single channel any SBUF start fits; two channels are needed to overflow"},
              {"is_valid_get_sequence_bounds",
               "start_addr_active_channels",
               1,
               [](Word& w, Generation g) {
                 w[12] = 2;
                 store_le<uint32_t>(&w[32], partition127(g));
               },
               {"has_valid_s3d3_seq_bounds_channels"},
               "with its single channel any SBUF start fits; two channels are needed to overflow"},
              {"is_valid_get_sequence_bounds", "tensor3d_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x1002); }},
              {"is_valid_get_sequence_bounds", "tensor3d_valid", 1,
               [](Word& w, Generation) { store_le<uint32_t>(&w[32], 0x2002); }},
              {"is_valid_get_sequence_bounds", "s3d3_seq_bounds_element_count_check_t3d", 0,
               [](Word& w, Generation) {
                 store_le<uint16_t>(&w[42], 18);  // 18 = 2 x 9 elements, but num_elem[2] is 1
                 store_le<uint16_t>(&w[46], 1);
               }},
              // ---- NONZERO_WITH_COUNT (X13: 17 channels, FP32 -> INT32, src {8,1,1}, dst {9,1,1}) ----
              {"is_valid_nonzero_with_count", "check_active_channels", 0, [](Word& w, Generation) { w[12] = 0; }},
              {"is_valid_nonzero_with_count", "s3d3_nonzero_with_count_reserved_zero", 0,
               [](Word& w, Generation) { w[38] = 1; }},
              {"is_valid_nonzero_with_count", "has_valid_immediates", 0, [](Word& w, Generation) { w[15] = 3; }},
              {"is_valid_nonzero_with_count", "has_valid_immediates", 1,
               [](Word& w, Generation) {
                 w[36] = 1;  // POINTER, not 4-aligned
                 store_le<uint32_t>(&w[40], 0x3002);
               }},
              {"is_valid_nonzero_with_count",
               "is_valid_dtype",
               0,
               [](Word& w, Generation) { w[13] = dtype::kFp32r; },
               {"has_valid_nonzero_with_count_dtype"},
               "every dtype is_valid_dtype rejects is also not FP32 or INT32"},
              {"is_valid_nonzero_with_count",
               "is_valid_dtype",
               1,
               [](Word& w, Generation) { w[14] = dtype::kUint64; },
               {"has_valid_nonzero_with_count_dtype"},
               "every dtype is_valid_dtype rejects is also not INT32"},
              {"is_valid_nonzero_with_count", "has_valid_nonzero_with_count_dtype", 0,
               [](Word& w, Generation) { w[14] = dtype::kFp32; }},
              {"is_valid_nonzero_with_count", "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[16], partition127(g)); }},
              {"is_valid_nonzero_with_count", "start_addr_active_channels", 1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition127(g)); }},
              {"is_valid_nonzero_with_count", "tensor3d_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x1002); }},
              {"is_valid_nonzero_with_count", "tensor3d_valid", 1,
               [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x2002); }},
              {"is_valid_nonzero_with_count", "s3d3_nonzero_with_count_element_count_check_t3d", 0,
               [](Word& w, Generation) { w[54] = 8; }},
          },
      .exempt =
          {
              {"is_valid_iota", "has_iota_opcode", "dispatch selects it by 0x7E"},
              {"is_valid_s2d2_ts_as", "has_s2d2_ts_as_opcode", "dispatch selects it by 0x92"},
              {"is_valid_range_select", "has_range_select_opcode", "dispatch selects it by 0xBC"},
              {"is_valid_range_select", "has_valid_nc_rs", "0xBC exists on CAYMAN+ only, where the term holds"},
              {"is_valid_get_sequence_bounds", "has_get_sequence_bounds_opcode", "dispatch selects it by 0xBE"},
              {"is_valid_get_sequence_bounds", "has_valid_nc_get_sequence_bounds",
               "0xBE exists on CAYMAN+ only, where the term holds"},
              {"is_valid_nonzero_with_count", "has_nonzero_with_count_opcode", "dispatch selects it by 0xF2"},
              {"is_valid_nonzero_with_count", "has_valid_nc_nonzero_with_count",
               "0xF2 exists on CAYMAN+ only, where the term holds"},
          },
      .vector_covered = {"is_valid_iota", "is_valid_s2d2_ts_as", "is_valid_range_select",
                         "is_valid_get_sequence_bounds", "is_valid_nonzero_with_count"},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::index_cases
