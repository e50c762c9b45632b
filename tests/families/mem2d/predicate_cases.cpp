// MEM_2D's cases for the generic predicate tests: baselines, failing-only mutations and exemptions.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::mem2d_cases {
namespace {
/// TL / TS / PTL / PTS: dtype UINT32, num {4,1}, start 0x1000 (or var_id 1, var_offset 0), step {1,0},
/// data.registers [0, 1, 2, 3, 0...].
Word mem2d_word(uint8_t opcode, bool pseudo) {
  Word w{};
  set_header(w, opcode);
  w[12] = dtype::kUint32;
  w[13] = 0;
  w[14] = 4;
  w[15] = 1;
  if (pseudo) {
    store_le<uint32_t>(&w[16], 1);
    store_le<uint32_t>(&w[20], 0);
  } else {
    store_le<uint64_t>(&w[16], 0x1000);
  }
  store_le<int32_t>(&w[24], 1);
  store_le<int32_t>(&w[28], 0);
  for (uint8_t k = 0; k < 4; ++k) w[32 + k] = k;
  return w;
}

/// The family's cases for tests/unit/validate_predicates_test.cpp.
PredicateCases family_cases() {
  return {
      .baselines =
          {
              {"is_valid_tensor_load", [] { return mem2d_word(opcode::kTensorLoad, false); }},
              {"is_valid_tensor_store", [] { return mem2d_word(opcode::kTensorStore, false); }},
              {"is_valid_pseudo_tensor_load", [] { return mem2d_word(opcode::kPseudoTensorLoad, true); }},
              {"is_valid_pseudo_tensor_store", [] { return mem2d_word(opcode::kPseudoTensorStore, true); }},
          },
      .fail_cases =
          {
              // ---- TensorLoad ----
              {"is_valid_tensor_load", "mem2d_shared_constraints", 0,
               [](Word& w, Generation) { w[12] = dtype::kBfloat16; }},
              {"is_valid_tensor_load", "mem2d_datasrc_zero", 0, [](Word& w, Generation) { w[13] = 1; }},
              {"is_valid_tensor_load",
               "mem2d_32_elem_check",
               0,
               [](Word& w, Generation) { w[14] = 33; },
               {"mem2d_shared_constraints"},
               "mem2d_num_elem_check (inside mem2d_shared_constraints) also bounds the product by 32 (mem2d.md §5.3)"},
              {"is_valid_tensor_load", "mem2d_u64_register_check", 0,
               [](Word& w, Generation) { w[12] = dtype::kUint64; }},  // data holds odd registers 1 and 3
              {"is_valid_tensor_load", "valid_start_addr", 0, [](Word& w, Generation) { w[16] = 0x02; }},  // 0x1002
              {"is_valid_tensor_load",
               "mem2d_single_16mb_window",
               0,
               [](Word& w, Generation) {
                 store_le<uint64_t>(&w[16], 0xFFFFFC);
                 w[14] = 2;
               },
               {},
               {},
               /*strict_window=*/true},

              // ---- TensorStore ----
              {"is_valid_tensor_store", "mem2d_shared_constraints", 0,
               [](Word& w, Generation) { w[12] = dtype::kBfloat16; }},
              {"is_valid_tensor_store", "mem2d_datasrc_valid", 0, [](Word& w, Generation) { w[13] = 2; }},
              {"is_valid_tensor_store", "mem2d_store_num_elem_check", 0,
               [](Word& w, Generation) {
                 w[13] = 1;  // immediates: UINT32 holds at most 8
                 w[14] = 9;
               }},
              {"is_valid_tensor_store", "mem2d_u64_register_check", 0,
               [](Word& w, Generation) { w[12] = dtype::kUint64; }},
              {"is_valid_tensor_store", "valid_start_addr", 0, [](Word& w, Generation) { w[16] = 0x02; }},
              {"is_valid_tensor_store",
               "mem2d_single_16mb_window",
               0,
               [](Word& w, Generation) {
                 store_le<uint64_t>(&w[16], 0xFFFFFC);
                 w[14] = 2;
               },
               {},
               {},
               /*strict_window=*/true},

              // ---- PseudoTensorLoad / PseudoTensorStore (flat conjunctions) ----
              {"is_valid_pseudo_tensor_load", "mem2d_num_elem_check", 0, [](Word& w, Generation) { w[14] = 0; }},
              {"is_valid_pseudo_tensor_load", "pseudo_mem2d_dtype_check", 0,
               [](Word& w, Generation) { w[12] = dtype::kUint64; }},
              {"is_valid_pseudo_tensor_load", "mem2d_datasrc_zero", 0, [](Word& w, Generation) { w[13] = 1; }},
              {"is_valid_pseudo_tensor_load",
               "mem2d_32_elem_check",
               0,
               [](Word& w, Generation) { w[14] = 33; },
               {"mem2d_num_elem_check"},
               "mem2d_num_elem_check also bounds the product by 32 (mem2d.md §5.3)"},
              {"is_valid_pseudo_tensor_store", "mem2d_num_elem_check", 0, [](Word& w, Generation) { w[14] = 0; }},
              {"is_valid_pseudo_tensor_store", "pseudo_mem2d_dtype_check", 0,
               [](Word& w, Generation) { w[12] = dtype::kUint64; }},
              {"is_valid_pseudo_tensor_store", "mem2d_datasrc_valid", 0, [](Word& w, Generation) { w[13] = 2; }},
              {"is_valid_pseudo_tensor_store", "mem2d_store_num_elem_check", 0,
               [](Word& w, Generation) {
                 w[13] = 1;
                 w[14] = 9;
               }},
          },
      .exempt =
          {
              {"is_valid_tensor_load", "has_tensor_load_opcode", "dispatch selects this validator by opcode 0xaa"},
              {"is_valid_tensor_store", "has_tensor_store_opcode", "dispatch selects this validator by opcode 0xab"},
              {"is_valid_pseudo_tensor_load", "has_pseudo_tensor_load_opcode", "dispatch selects it by opcode 0xce"},
              {"is_valid_pseudo_tensor_store", "has_pseudo_tensor_store_opcode", "dispatch selects it by opcode 0xcd"},
          },
      .exempt_without_option =
          {
              {"mem2d_single_16mb_window", "only evaluated with ValidateOptions::strict_window (PROJ-CONV-M3)"},
          },
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::mem2d_cases
