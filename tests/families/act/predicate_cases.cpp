// Activation family's cases for the generic predicate tests: baselines (the spec's words X1, X4, X5, X6, X7a, X8),
// failing-only mutations and exemptions.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::act_cases {
namespace {

// act-index-ops.md §4.5-§8.5.
constexpr std::string_view kX1 =
    "2110000000000000000000000000030100100000010000000000040001000100"
    "aa0a02070000803f000000000000000000200000010000000000040001000100";
constexpr std::string_view kX4 =
    "2210000000000000000000000000204100100000010000000000040001000100"
    "aa0301010000003f003000000000404000200000010000000000040001000100";
constexpr std::string_view kX5 =
    "2410000000000000000000000000000000000000000000000000000001000000"
    "0a00020000000000000000000040000001000100000000000000000000000000";
constexpr std::string_view kX6 =
    "251000000000000000000000001000000100000004000100000003000a060408"
    "0a0a0102000000400000003f0000000000200000010000000400010000000000";
constexpr std::string_view kX7a = "23100000";
constexpr std::string_view kX8 =
    "c610000000000000000000006578705f616e645f6f7468657273000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000";

uint32_t partition127(Generation g) {
  return 127 * partition1(g) + 0x1000;
}

PredicateCases family_cases() {
  return {
      .baselines =
          {
              {"is_valid_activate", [] { return hex_word(kX1); }},
              {"is_valid_activateq", [] { return hex_word(kX4); }},
              {"is_valid_activation_read_accumulator", [] { return hex_word(kX5); }},
              {"is_valid_activate2", [] { return hex_word(kX6); }},
              {"is_valid_activation_table_load", [] { return hex_word(kX7a); }},
              {"is_valid_pseudo_load_act_func_set", [] { return hex_word(kX8); }},
          },
      .fail_cases =
          {
              // ---- ACTIVATE (X1: 2 channels, FP32 in/bias/out, src SB 0x1000 {4,1,1}, dst SB 0x2000) ----
              {"is_valid_activate", "is_valid_dtype", 0, [](Word& w, Generation) { w[32] = 0xa1; }},
              {"is_valid_activate", "is_valid_dtype", 1, [](Word& w, Generation) { w[33] = dtype::kUint64; }},
              {"is_valid_activate", "is_valid_dtype", 2, [](Word& w, Generation) { w[32] = 0x1a; }},
              {"is_valid_activate", "is_valid_enum(ACCUM_CMD)", 0, [](Word& w, Generation) { w[14] = 5; }},
              {"is_valid_activate", "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_activate", "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[16], partition127(g)); }},
              {"is_valid_activate", "start_addr_active_channels", 1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[48], partition127(g)); }},
              {"is_valid_activate", "tensor3d_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x1002); }},
              {"is_valid_activate", "tensor3d_valid", 1,
               [](Word& w, Generation) { store_le<uint32_t>(&w[48], 0x2002); }},
              {"is_valid_activate", "same_element_count_t3d", 0, [](Word& w, Generation) { w[26] = 5; }},
              {"is_valid_activate", "s3d3_ac_scale_checks", 0, [](Word& w, Generation) { w[13] = 3; }},
              {"is_valid_activate", "s3d3_ac_bias_checks", 0, [](Word& w, Generation) { w[15] = 3; }},
              {"is_valid_activate", "s3d3_ac_imm_checks", 0, [](Word& w, Generation) { w[12] = 3; }},
              // ---- ACTIVATE_QUANTIZE (X4: 1 channel, FP32 -> UINT8, bias FP32 at 0x3000) ----
              {"is_valid_activateq", "s3d3_aq_type_check", 0, [](Word& w, Generation) { w[33] = dtype::kFp32; }},
              {"is_valid_activateq", "s3d3_aq_scale_check", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0); }},
              {"is_valid_activateq", "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_activateq", "start_addr_active_channels", 0,
               [](Word& w, Generation g) {
                 w[34] = 2;
                 store_le<uint32_t>(&w[16], partition127(g));
               }},
              {"is_valid_activateq", "start_addr_active_channels", 1,
               [](Word& w, Generation g) {
                 w[34] = 2;
                 store_le<uint32_t>(&w[48], partition127(g));
               }},
              {"is_valid_activateq", "tensor3d_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x1002); }},
              {"is_valid_activateq",
               "tensor3d_valid",
               1,
               [](Word& w, Generation) {
                 store_le<uint16_t>(&w[26], 0);
                 store_le<uint16_t>(&w[58], 0);
               },
               {"tensor3d_valid"},
               "a UINT8 dst fails only by a zero count (no PSUM on MAVERICK); the src count is zeroed with it so the "
               "counts stay equal"},
              {"is_valid_activateq", "same_element_count_t3d", 0, [](Word& w, Generation) { w[26] = 5; }},
              {"is_valid_activateq", "s3d3_aq_bias_addr_check", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[40], 0x3002); }},
              // ---- ACTIVATION_READ_ACCUMULATOR (X5: 2 channels, FP32, dst SB 0x4000 {1}) ----
              {"is_valid_activation_read_accumulator", "d1_rd_reserved_zero", 0,
               [](Word& w, Generation) { w[12] = 1; }},
              {"is_valid_activation_read_accumulator", "activation_read_accumulator_type_check", 0,
               [](Word& w, Generation) { w[32] = dtype::kInt32; }},
              {"is_valid_activation_read_accumulator", "d1_rd_has_zero_negated_field", 0,
               [](Word& w, Generation) { w[33] = 1; }},
              {"is_valid_activation_read_accumulator", "d1_rd_dst_element_count", 0,
               [](Word& w, Generation) { w[28] = 2; }},
              {"is_valid_activation_read_accumulator", "check_active_channels", 0,
               [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_activation_read_accumulator", "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition127(g)); }},
              {"is_valid_activation_read_accumulator", "tensor1d_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x4002); }},
              // ---- ACTIVATE2 (X6: 1 channel, relu(2x + 0.5), RESET_REDUCE MAX) ----
              {"is_valid_activate2", "s2d2_ac_reserved_zero", 0, [](Word& w, Generation) { w[63] = 1; }},
              {"is_valid_activate2", "is_valid_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kFp32r; }},
              {"is_valid_activate2", "is_valid_dtype", 1, [](Word& w, Generation) { w[33] = dtype::kUint64; }},
              {"is_valid_activate2", "is_valid_dtype", 2, [](Word& w, Generation) { w[28] = dtype::kFp32r; }},
              {"is_valid_activate2", "has_valid_s2d2_ac_ts_ops", 0, [](Word& w, Generation) { w[30] = aluop::kMax; }},
              {"is_valid_activate2", "has_valid_reduce_op", 0, [](Word& w, Generation) { w[31] = aluop::kSubtract; }},
              {"is_valid_activate2", "is_valid_enum(REDUCE_CMD)", 0, [](Word& w, Generation) { w[26] = 4; }},
              {"is_valid_activate2", "check_active_channels", 0, [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_activate2", "start_addr_active_channels", 0,
               [](Word& w, Generation g) {
                 w[34] = 2;
                 store_le<uint32_t>(&w[12], partition127(g));
               }},
              {"is_valid_activate2", "start_addr_active_channels", 1,
               [](Word& w, Generation g) {
                 w[34] = 2;
                 store_le<uint32_t>(&w[48], partition127(g));
               }},
              {"is_valid_activate2", "tensor2d_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x1002); }},
              {"is_valid_activate2", "tensor2d_valid", 1,
               [](Word& w, Generation) { store_le<uint32_t>(&w[48], 0x2002); }},
              {"is_valid_activate2", "same_element_count_t2d", 0, [](Word& w, Generation) { w[20] = 5; }},
              {"is_valid_activate2", "s2d2_ac_imm_checks", 0, [](Word& w, Generation) { w[25] = 3; }},
              {"is_valid_activate2", "act2_quadrant_restrictions_errata_3071", 0,
               [](Word& w, Generation g) {
                 w[25] = 1;  // imm0 a pointer into SBUF partition 32 (quadrant 1); the source is in quadrant 0
                 store_le<uint32_t>(&w[36], 32 * partition1(g) + 0x100);
               }},
              // ---- ACTIVATION_TABLE_LOAD (X7a) and PSEUDO_LOAD_ACT_FUNC_SET (X8) ----
              {"is_valid_activation_table_load", "ctrl_no_reserved_zero", 0, [](Word& w, Generation) { w[12] = 1; }},
              {"is_valid_pseudo_load_act_func_set", "pseudo_load_act_func_set_name", 0,
               [](Word& w, Generation) { w[12] = 0; }},
              {"is_valid_pseudo_load_act_func_set", "pseudo_load_act_func_set_reserved_zero", 0,
               [](Word& w, Generation) { w[50] = 1; }},
          },
      .exempt =
          {
              {"is_valid_activate", "has_activate_opcode", "dispatch selects it by 0x21"},
              {"is_valid_activateq", "has_activate_quantize_opcode", "dispatch selects it by 0x22"},
              {"is_valid_activation_read_accumulator", "has_activation_read_accumulator_opcode",
               "dispatch selects it by 0x24"},
              {"is_valid_activate2", "has_activate2_opcode", "dispatch selects it by 0x25"},
              {"is_valid_activation_table_load", "has_activation_table_load_opcode", "dispatch selects it by 0x23"},
              {"is_valid_activation_table_load", "valid_act_tbl_sel",
               "every act_tbl_sel holds at the word level (PROJ-CONV-A6)"},
              {"is_valid_pseudo_load_act_func_set", "has_pseudo_load_act_func_set_opcode",
               "dispatch selects it by 0xC6"},
          },
      .vector_covered = {"is_valid_activate", "is_valid_activateq", "is_valid_activation_read_accumulator",
                         "is_valid_activate2", "is_valid_activation_table_load", "is_valid_pseudo_load_act_func_set"},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::act_cases
