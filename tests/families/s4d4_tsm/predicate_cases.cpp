// S4D4_TSM's cases for the generic predicate tests: baselines, failing-only mutations and exemptions.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::s4d4_tsm_cases {
namespace {
void set_tensor4d(Word& w, unsigned at, uint32_t start, uint16_t w_count) {
  store_le<uint32_t>(&w[at], start);
  const int16_t steps[4] = {1, 8, 8, 8};
  const uint16_t nums[4] = {8, 1, 1, w_count};
  for (unsigned k = 0; k < 4; ++k) {
    store_le<int16_t>(&w[at + 4 + 2 * k], steps[k]);
    store_le<uint16_t>(&w[at + 12 + 2 * k], nums[k]);
  }
}

/// PM: src {8,1,1,4} at 0, dst the same shape at 0x1000, FP32 -> FP32, 128 channels, ADD, XYZ, reverse None.
Word pm_word(uint8_t opcode) {
  Word w{};
  set_header(w, opcode);
  set_tensor4d(w, 12, 0x0, 4);
  w[32] = dtype::kFp32;
  w[33] = dtype::kFp32;
  w[34] = 128;
  w[36] = aluop::kAdd;
  w[37] = 0x04;
  w[38] = 0;
  set_tensor4d(w, 44, 0x1000, 4);
  return w;
}

/// The PMB fields (in = out = UINT32, BITWISE_AND) on a given opcode.
void make_bitvec(Word& w, uint8_t opcode) {
  w[0] = opcode;
  w[32] = dtype::kUint32;
  w[33] = dtype::kUint32;
  w[36] = aluop::kBitwiseAnd;
}

/// The family's cases for tests/unit/validate_predicates_test.cpp.
PredicateCases family_cases() {
  return {
      .baselines =
          {
              {"is_valid_tensor_scalar_ptr_multi", [] { return pm_word(opcode::kPtrMultiArith); }},
              // 0x87 exists on SUNDA only, so this validator is reachable on SUNDA only.
              {"is_valid_tensor_scalar_ptr_multi_dual", [] { return pm_word(opcode::kPtrMultiDualArith); }},
          },
      .fail_cases =
          {
              // ---- TensorScalarPtrMulti (singular) ----
              {"is_valid_tensor_scalar_ptr_multi", "has_valid_src_slices_tsm_singular", 0,
               [](Word& w, Generation) {
                 store_le<uint16_t>(&w[30], 9);  // W = 9, dst follows so the counts still match
                 store_le<uint16_t>(&w[62], 9);
               }},
              {"is_valid_tensor_scalar_ptr_multi", "tensor_scalar_ptr_multi_valid_ops", 0,
               [](Word& w, Generation) { w[36] = aluop::kDivide; }},
              {"is_valid_tensor_scalar_ptr_multi", "tensor_scalar_ptr_multi_valid_types", 0,
               [](Word& w, Generation) {
                 make_bitvec(w, opcode::kPtrMultiBitvec);
                 w[32] = dtype::kUint8;
                 w[33] = dtype::kUint16;
               }},
              {"is_valid_tensor_scalar_ptr_multi", "tensor_scalar_ptr_multi_reverse_chk", 0,
               [](Word& w, Generation) { w[38] = 1; }},
              {"is_valid_tensor_scalar_ptr_multi", "s4d4_tsm_reserved_zero", 0, [](Word& w, Generation) { w[35] = 1; }},
              {"is_valid_tensor_scalar_ptr_multi", "is_valid_dtype", 0,
               [](Word& w, Generation) { w[32] = dtype::kFp32r; }},
              {"is_valid_tensor_scalar_ptr_multi", "is_valid_dtype", 1,
               [](Word& w, Generation) { w[33] = dtype::kUint64; }},
              {"is_valid_tensor_scalar_ptr_multi",
               "is_valid_aluop",
               0,
               [](Word& w, Generation) { w[36] = 0x1E; },
               {"tensor_scalar_ptr_multi_valid_ops"},
               "tensor_scalar_ptr_multi_valid_ops starts with is_valid_enum(AluOp, op) (s4d4-tsm.md §3.2)"},
              {"is_valid_tensor_scalar_ptr_multi", "is_valid_tsm_subdim", 0, [](Word& w, Generation) { w[37] = 0x05; }},
              {"is_valid_tensor_scalar_ptr_multi", "has_valid_active_channel_range", 0,
               [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_tensor_scalar_ptr_multi", "has_valid_active_channel_range_with_tile", 0,
               [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_tensor_scalar_ptr_multi", "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[12], partition1(g)); }},
              {"is_valid_tensor_scalar_ptr_multi", "start_addr_active_channels", 1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition1(g)); }},
              {"is_valid_tensor_scalar_ptr_multi", "tensor4d_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x2); }},  // not 4-aligned for FP32
              {"is_valid_tensor_scalar_ptr_multi", "tensor4d_valid", 1,
               [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x1002); }},
              {"is_valid_tensor_scalar_ptr_multi", "same_element_count_t4d", 0,
               [](Word& w, Generation) { store_le<uint16_t>(&w[62], 3); }},

              // ---- TensorScalarPtrMultiDual (SUNDA) ----
              {"is_valid_tensor_scalar_ptr_multi_dual", "has_tensor_scalar_ptr_multi_dual_opcode", 0,
               [](Word& w, Generation) { make_bitvec(w, opcode::kPtrMultiDualBitvec); }},  // 0x88 (PROJ-CONV-T16)
              {"is_valid_tensor_scalar_ptr_multi_dual", "has_valid_src_slices_tsm_dual", 0,
               [](Word& w, Generation) {
                 store_le<uint16_t>(&w[30], 5);
                 store_le<uint16_t>(&w[62], 5);
               }},
              {"is_valid_tensor_scalar_ptr_multi_dual", "tensor_scalar_ptr_multi_valid_ops", 0,
               [](Word& w, Generation) { w[36] = aluop::kDivide; }},
              {"is_valid_tensor_scalar_ptr_multi_dual",
               "tensor_scalar_ptr_multi_valid_types",
               0,
               [](Word& w, Generation) {
                 make_bitvec(w, opcode::kPtrMultiDualBitvec);
                 w[33] = dtype::kUint16;
               },
               {"has_tensor_scalar_ptr_multi_dual_opcode"},
               "only a bitvec opcode checks the types and the Dual validator's only bitvec opcode, 0x88, always fails "
               "its opcode predicate (PROJ-CONV-T16)"},
              {"is_valid_tensor_scalar_ptr_multi_dual", "tensor_scalar_ptr_multi_reverse_chk", 0,
               [](Word& w, Generation) { w[38] = 4; }},  // Dual accepts 0..3
              {"is_valid_tensor_scalar_ptr_multi_dual", "s4d4_tsm_reserved_zero", 0,
               [](Word& w, Generation) { w[43] = 1; }},
              {"is_valid_tensor_scalar_ptr_multi_dual", "is_valid_dtype", 0,
               [](Word& w, Generation) { w[32] = dtype::kFp32r; }},
              {"is_valid_tensor_scalar_ptr_multi_dual", "is_valid_dtype", 1,
               [](Word& w, Generation) { w[33] = dtype::kInt64; }},
              {"is_valid_tensor_scalar_ptr_multi_dual",
               "is_valid_aluop",
               0,
               [](Word& w, Generation) { w[36] = 0x20; },
               {"tensor_scalar_ptr_multi_valid_ops"},
               "tensor_scalar_ptr_multi_valid_ops starts with is_valid_enum(AluOp, op) (s4d4-tsm.md §3.2)"},
              {"is_valid_tensor_scalar_ptr_multi_dual", "is_valid_tsm_subdim", 0,
               [](Word& w, Generation) { w[37] = 0x00; }},
              {"is_valid_tensor_scalar_ptr_multi_dual", "has_valid_active_channel_range", 0,
               [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_tensor_scalar_ptr_multi_dual", "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[12], partition1(g)); }},
              {"is_valid_tensor_scalar_ptr_multi_dual", "start_addr_active_channels", 1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition1(g)); }},
              {"is_valid_tensor_scalar_ptr_multi_dual", "tensor4d_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x2); }},
              {"is_valid_tensor_scalar_ptr_multi_dual", "tensor4d_valid", 1,
               [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x1002); }},
              {"is_valid_tensor_scalar_ptr_multi_dual", "same_element_count_t4d", 0,
               [](Word& w, Generation) { store_le<uint16_t>(&w[62], 3); }},
          },
      .exempt =
          {
              {"is_valid_tensor_scalar_ptr_multi", "has_tensor_scalar_ptr_multi_opcode",
               "dispatch selects it by 0x4F/0x5F"},
          },
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::s4d4_tsm_cases
