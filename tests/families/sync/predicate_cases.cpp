// The sync family's cases for the generic predicate tests: baselines, failing-only mutations, exemptions.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::sync_cases {
namespace {
/// Sync family baselines: real words of matmul_small.neff (real-programs.md §3.4, §5, §6, §7.4), from their hex.
Word es_word() {  // sg00/PE#02: wait S[24] >= 16
  return hex_word("a0100000051800001000000000000000");
}
Word som_word() {  // every stream's record #0
  return hex_word("b1100000");
}
Word label_word() {  // every stream's record #1
  return hex_word("cc100000");
}
Word dma_word() {  // sg00/SP#02: identity rows into SBUF, FP16, 128 x 1 chunks of 256 bytes
  return hex_word(
      "d410000000000000000000000008100000000000040000100001000001000000"
      "8000010000010000007b03000000001000000400010000008000010000010707");
}

/// The family's cases for tests/unit/validate_predicates_test.cpp.
PredicateCases family_cases() {
  return {
      .baselines =
          {
              {"is_valid_ctrl_es", es_word},
              {"is_valid_set_ordering_mode", som_word},
              {"is_valid_pseudo_branch_label", label_word},
              {"is_valid_pseudo_dma_direct2d", dma_word},
          },
      .fail_cases =
          {
              {"is_valid_ctrl_es", "ctrl_es_valid_extended_events", 0, [](Word& w, Generation) { w[32] = 0x08; }},
              {"is_valid_ctrl_es", "ctrl_es_reserved_zero", 0, [](Word& w, Generation) { w[44] = 1; }},
              {"is_valid_set_ordering_mode", "set_ordering_mode_reserved_zero", 0,
               [](Word& w, Generation) { w[13] = 1; }},
              {"is_valid_pseudo_dma_direct2d", "pseudo_dma_update_none", 0, [](Word& w, Generation) { w[6] = 0x13; }},
              {"is_valid_pseudo_dma_direct2d", "pseudo_addr8_mode_known", 0, [](Word& w, Generation) { w[23] = 0x30; }},
              {"is_valid_pseudo_dma_direct2d", "pseudo_addr8_mode_known", 1, [](Word& w, Generation) { w[47] = 0x00; }},
              {"is_valid_pseudo_dma_direct2d", "pseudo_dma_counts_nonzero", 0,
               [](Word& w, Generation) { store_le<uint16_t>(&w[34], 0); }},
              {"is_valid_pseudo_dma_direct2d", "pseudo_dma_counts_nonzero", 1,
               [](Word& w, Generation) { store_le<uint16_t>(&w[56], 0); }},
              {"is_valid_pseudo_dma_direct2d", "is_valid_dtype", 0,
               [](Word& w, Generation) { w[62] = dtype::kInvalid; }},
              {"is_valid_pseudo_dma_direct2d", "is_valid_dtype", 1,
               [](Word& w, Generation) { w[63] = dtype::kInvalid; }},
              {"is_valid_pseudo_dma_direct2d", "pseudo_dma_whole_elements", 0,
               [](Word& w, Generation) {
                 store_le<uint16_t>(&w[32], 127);  // 127 x 257 bytes: not whole FP16 elements
                 store_le<uint16_t>(&w[36], 257);
               }},
              {"is_valid_pseudo_dma_direct2d", "pseudo_dma_whole_elements", 1,
               [](Word& w, Generation) {
                 store_le<uint16_t>(&w[56], 127);
                 store_le<uint16_t>(&w[60], 257);
               }},
              {"is_valid_pseudo_dma_direct2d", "pseudo_dma_same_element_count", 0,
               [](Word& w, Generation) { store_le<uint16_t>(&w[36], 128); }},
          },
      .exempt =
          {
              {"is_valid_ctrl_es", "has_event_semaphore_opcode", "dispatch selects it by 0xa0"},
              {"is_valid_set_ordering_mode", "has_set_ordering_mode_opcode", "dispatch selects it by 0xb1"},
              {"is_valid_pseudo_branch_label", "has_pseudo_branch_label_opcode", "dispatch selects it by 0xcc"},
              {"is_valid_pseudo_dma_direct2d", "has_pseudo_dma_direct2d_opcode", "dispatch selects it by 0xd4"},
              {"is_valid_ctrl_es", "engine_placement",
               "any engine may issue it (PROJ-CONV-F1 table; ValidateContext tests every engine)"},
              {"is_valid_set_ordering_mode", "engine_placement",
               "any engine may issue it (PROJ-CONV-F1 table; ValidateContext tests every engine)"},
              {"is_valid_pseudo_branch_label", "engine_placement",
               "any engine may issue it (PROJ-CONV-F1 table; ValidateContext tests every engine)"},
              {"is_valid_pseudo_dma_direct2d", "engine_placement",
               "any engine may issue it (PROJ-CONV-F1 table; ValidateContext tests every engine)"},
          },
      .vector_covered = {"is_valid_ctrl_es", "is_valid_set_ordering_mode", "is_valid_pseudo_branch_label",
                         "is_valid_pseudo_dma_direct2d"},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::sync_cases
