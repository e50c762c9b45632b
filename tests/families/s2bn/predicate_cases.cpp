// S2_BN's cases for the generic predicate tests: baselines, failing-only mutations and exemptions.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::s2bn_cases {
namespace {
/// IL / MVL / BNPL: FP32, src TENSOR2D start 0, step {1,0}, 128 channels.
Word s2bn_word(uint8_t opcode, uint16_t n0, uint32_t imm1, uint32_t imm0_ptr, uint8_t imm0_src) {
  Word w{};
  set_header(w, opcode);
  store_le<uint32_t>(&w[16], 0);
  store_le<int16_t>(&w[20], 1);
  store_le<int16_t>(&w[22], 0);
  store_le<uint16_t>(&w[24], n0);
  store_le<uint16_t>(&w[26], 1);
  store_le<uint32_t>(&w[28], imm1);
  w[32] = dtype::kFp32;
  w[34] = 128;
  store_le<uint32_t>(&w[44], imm0_ptr);
  w[48] = imm0_src;
  return w;
}

/// The family's cases for tests/unit/validate_predicates_test.cpp.
PredicateCases family_cases() {
  return {
      .baselines =
          {
              {"is_valid_tsm_immediates_load", [] { return s2bn_word(opcode::kImmLdArith, 4, 0, 0, 0); }},
              {"is_valid_batch_norm_param_load",
               [] { return s2bn_word(opcode::kBatchNormParamLoad, 3, 0x3F800000, 0x100, 1); }},
              {"is_valid_match_value_load", [] { return s2bn_word(opcode::kMatchValueLoad, 8, 0, 0, 0); }},
          },
      .fail_cases =
          {
              // ---- TensorScalarImmLd ----
              {"is_valid_tsm_immediates_load", "has_tsm_immediates_load_src_element_cnt", 0,
               [](Word& w, Generation) { w[24] = 9; }},
              {"is_valid_tsm_immediates_load", "has_s2_bn_zero_immediates", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[28], 0x3F800000); }},
              {"is_valid_tsm_immediates_load", "tsm_immld_dtypes", 0,
               [](Word& w, Generation) { w[0] = opcode::kImmLdBitvec; }},  // FP32 is not a Bitvec dtype
              {"is_valid_tsm_immediates_load",
               "is_valid_dtype",
               0,
               [](Word& w, Generation) { w[32] = dtype::kFp32r; },
               {"tsm_immld_dtypes"},
               "every dtype failing is_valid_dtype is outside the stricter tsm_immld_dtypes whitelist (s2bn.md §3.2)"},
              {"is_valid_tsm_immediates_load", "check_active_channels", 0, [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_tsm_immediates_load", "tensor2d_valid", 0,
               [](Word& w, Generation) { w[16] = 0x02; }},  // unaligned
              {"is_valid_tsm_immediates_load", "s2_bn_reserved_zero", 0, [](Word& w, Generation) { w[40] = 1; }},

              // ---- BatchNormParamLoad ----
              {"is_valid_batch_norm_param_load", "has_bn_param_load_src_element_cnt", 0,
               [](Word& w, Generation) { w[24] = 4; }},
              {"is_valid_batch_norm_param_load", "has_valid_bn_param_load_imm0", 0,
               [](Word& w, Generation) { w[44] = 0x02; }},  // pointer 0x102 is not 4-aligned
              {"is_valid_batch_norm_param_load", "is_valid_enum(ImmSrc)", 0, [](Word& w, Generation) { w[48] = 3; }},
              {"is_valid_batch_norm_param_load", "s2_bn_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kInt32; }},
              {"is_valid_batch_norm_param_load", "check_active_channels", 0, [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_batch_norm_param_load", "tensor2d_valid", 0, [](Word& w, Generation) { w[16] = 0x02; }},
              {"is_valid_batch_norm_param_load", "s2_bn_reserved_zero", 0, [](Word& w, Generation) { w[40] = 1; }},

              // ---- MatchValueLoad ----
              {"is_valid_match_value_load", "has_match_value_load_src_element_cnt", 0,
               [](Word& w, Generation) { w[24] = 7; }},
              {"is_valid_match_value_load", "has_s2_bn_zero_immediates", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[28], 0x3F800000); }},
              {"is_valid_match_value_load", "is_valid_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kFp32r; }},
              {"is_valid_match_value_load", "check_active_channels", 0, [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_match_value_load", "s2_bn_reserved_zero", 0, [](Word& w, Generation) { w[40] = 1; }},
              {"is_valid_match_value_load", "tensor2d_valid", 0, [](Word& w, Generation) { w[16] = 0x02; }},
          },
      .exempt =
          {
              {"is_valid_tsm_immediates_load", "has_tsm_immediates_load_opcode", "dispatch selects it by 0x70/0x71"},
              {"is_valid_batch_norm_param_load", "has_batch_norm_param_load_opcode", "dispatch selects it by 0x64"},
              {"is_valid_match_value_load", "has_match_value_load_opcode", "dispatch selects it by 0x6d"},
              {"is_valid_tsm_immediates_load", "s2_bn_zgen_restriction", "always true under PROJ-CONV-S2"},
              {"is_valid_batch_norm_param_load", "s2_bn_zgen_restriction", "always true under PROJ-CONV-S2"},
          },
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::s2bn_cases
