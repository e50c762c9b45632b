// The DMA family's cases for the generic predicate tests: baselines, failing-only mutations, exemptions.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::dma_cases {
namespace {
/// DMAMEMCPY: four 16-byte FP32 chunks from SBUF partitions 0..3 (+0x100) into partition 0 (+0x200).
Word md_word() {
  return hex_word(
      "b8100000000000000000000000050100000100000000000000000400000000000400010010000000000200000000000010000000000000"
      "000400010010000a0a");
}
/// DMA_INDIRECT: gather of 8 FP32 rows of 16 bytes by the index vector at SBUF partition 0 +0x3000.
Word in_word() {
  return hex_word(
      "bb100000000000000000000006018000001000000000000010000000080010000020000000000000100000000800100000300000000000"
      "000a0a000000000000");
}
/// DMA_TRANSPOSE: BF16, 16 source partitions of 4 columns into 4 partitions of SBUF +0x2000 (CAYMAN+).
Word xp_word() {
  return hex_word(
      "bd100000000000000000000000000606001000000000000002000000000004000400100000000400002000000000000000000400200000"
      "000400010010040700");
}
/// DMA_GATHER_TRANSPOSE: 16 indexed BF16 rows of 256 bytes (CAYMAN+).
Word gx_word() {
  return hex_word(
      "f1100000000000000000000008008000001000000000000002000000000100008000100000300000004000000000000000000000000004"
      "001000800000016601");
}
/// PSEUDO_DMATRIGGER of the runtime's embedded all-reduce NEFF: queue q_gradient_in.
Word tr_word() {
  return hex_word("c11000000000000000000000715f6772616469656e745f696e");
}
/// PSEUDO_TRIGGER_COLLECTIVE of the same NEFF: fp32 ADD all-reduce of 32 elements, tensors 3 -> 4.
Word cc_word() {
  return hex_word("c8100000040a131600000000040a00000300000004000000200000000000000001");
}

constexpr std::string_view kAnyEngine =
    "any engine may issue it (PROJ-CONV-F1 table; ValidateContext tests every engine)";

/// The family's cases for tests/unit/validate_predicates_test.cpp.
PredicateCases family_cases() {
  return {
      .baselines =
          {
              {"is_valid_dma_memcpy_direct", md_word},
              {"is_valid_dma_indirect", in_word},
              {"is_valid_dma_transpose", xp_word},
              {"is_valid_dma_gather_transpose", gx_word},
              {"is_valid_pseudo_dma_trigger", tr_word},
              {"is_valid_pseudo_trigger_collective", cc_word},
          },
      .fail_cases =
          {
              {"is_valid_dma_memcpy_direct", "is_valid_dma_configs", 0, [](Word& w, Generation) { w[12] = 5; }},
              {"is_valid_dma_memcpy_direct", "has_valid_dge_compute_op", 0, [](Word& w, Generation) { w[15] = 5; }},
              {"is_valid_dma_memcpy_direct",
               "is_valid_dtype",
               0,
               [](Word& w, Generation) { w[62] = dtype::kInvalid; },
               {"dma_memcpy_same_element_count"},
               "an unsized in_dtype holds no whole elements to compare"},
              {"is_valid_dma_memcpy_direct",
               "is_valid_dtype",
               1,
               [](Word& w, Generation) { w[63] = dtype::kInvalid; },
               {"dma_memcpy_same_element_count"},
               "an unsized out_dtype holds no whole elements to compare"},
              {"is_valid_dma_memcpy_direct", "zero_num_elem_shape_reg_mode", 0,
               [](Word& w, Generation) { w[23] = 0x40; }},
              {"is_valid_dma_memcpy_direct", "dma_memcpy_same_element_count", 0,
               [](Word& w, Generation) { store_le<uint16_t>(&w[56], 3); }},
              {"is_valid_dma_memcpy_direct", "is_valid_dma_cce", 0,
               [](Word& w, Generation) {
                 w[15] = 1;
                 store_le<uint64_t>(&w[16], 0x102);
               }},
              {"is_valid_dma_indirect", "check_dma_indirect_indices", 0, [](Word& w, Generation) { w[14] = 64; }},
              {"is_valid_dma_indirect", "has_valid_indirect_dim_by_mode", 0, [](Word& w, Generation) { w[15] = 0x03; }},
              {"is_valid_dma_indirect", "has_dma_indirect_idx_addr_in_sbuf_partition0", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[48], 0x103000); }},
              {"is_valid_dma_indirect", "has_dma_indirect_valid_index_count", 0,
               [](Word& w, Generation) { store_le<uint16_t>(&w[28], 4097); }},
              {"is_valid_dma_indirect", "zero_num_elem_shape_reg_mode", 0, [](Word& w, Generation) { w[23] = 0x40; }},
              {"is_valid_dma_indirect", "is_valid_dma_configs", 0, [](Word& w, Generation) { w[61] = 5; }},
              {"is_valid_dma_indirect", "has_valid_dge_compute_op", 0, [](Word& w, Generation) { w[60] = 7; }},
              {"is_valid_dma_indirect", "is_valid_dtype", 0, [](Word& w, Generation) { w[56] = dtype::kInvalid; }},
              {"is_valid_dma_indirect", "is_valid_dtype", 1, [](Word& w, Generation) { w[57] = dtype::kInvalid; }},
              {"is_valid_dma_indirect", "is_valid_dma_indirect_cce", 0,
               [](Word& w, Generation) {
                 w[60] = 1;
                 store_le<uint16_t>(&w[30], 6);
               }},
              {"is_valid_dma_indirect", "has_dma_indirect_check_reserved_zero", 0,
               [](Word& w, Generation) { w[62] = 1; }},
              {"is_valid_dma_transpose", "has_valid_xpose_tile_rows_temporary", 0,
               [](Word& w, Generation) { w[60] = 8; }},
              {"is_valid_dma_transpose", "has_valid_xpose_tile_cols_temporary", 0,
               [](Word& w, Generation) { w[61] = 0; }},
              {"is_valid_dma_transpose", "has_valid_xpose_dtypes_temporary", 0,
               [](Word& w, Generation) { w[15] = dtype::kFp16; }},
              {"is_valid_dma_transpose",
               "is_valid_dtype",
               0,
               [](Word& w, Generation) { w[14] = w[15] = dtype::kInvalid; },
               {"has_valid_xpose_tile_cols_temporary", "has_valid_xpose_dtypes_temporary"},
               "an invalid dtype has no size: the tile-column bound and the 2- or 4-byte rule fail with it"},
              {"is_valid_dma_transpose", "has_valid_xpose_dst_start_addr", 0,
               [](Word& w, Generation) { store_le<uint64_t>(&w[40], 0x2010); }},
              {"is_valid_dma_transpose", "has_valid_xpose_dst_steps", 0,
               [](Word& w, Generation) { store_le<int32_t>(&w[48], 16); }},
              {"is_valid_dma_transpose", "is_valid_dma_configs", 0, [](Word& w, Generation) { w[63] = 0x08; }},
              {"is_valid_dma_gather_transpose", "check_dma_indirect_indices", 0,
               [](Word& w, Generation) { w[14] = 1; }},
              {"is_valid_dma_gather_transpose", "has_valid_gather_transpose_dtype", 0,
               [](Word& w, Generation) { w[62] = 0x76; }},
              {"is_valid_dma_gather_transpose", "has_valid_gather_transpose_elem_size", 0,
               [](Word& w, Generation) { store_le<uint16_t>(&w[60], 3); }},
              {"is_valid_dma_gather_transpose", "has_valid_gather_transpose_addresses", 0,
               [](Word& w, Generation) { store_le<uint64_t>(&w[16], 0x1001); }},
              {"is_valid_dma_gather_transpose", "has_valid_gather_transpose_flags", 0,
               [](Word& w, Generation) { w[63] = 0; }},
              {"is_valid_dma_gather_transpose", "has_valid_gather_transpose_src_dimensions", 0,
               [](Word& w, Generation) {
                 store_le<uint16_t>(&w[34], 8);
                 store_le<uint16_t>(&w[56], 8);
               }},
              {"is_valid_dma_gather_transpose", "has_valid_gather_transpose_dst_steps", 0,
               [](Word& w, Generation) { store_le<int32_t>(&w[52], 16); }},
              {"is_valid_dma_gather_transpose", "has_valid_gather_transpose_cross_field_consistency", 0,
               [](Word& w, Generation) { store_le<uint16_t>(&w[56], 32); }},
              {"is_valid_dma_gather_transpose", "dma_gather_transpose_reserved_zero", 0,
               [](Word& w, Generation) { w[49] = 1; }},
              {"is_valid_dma_gather_transpose", "is_valid_dma_configs", 0, [](Word& w, Generation) { w[13] = 5; }},
              {"is_valid_pseudo_dma_trigger", "pseudo_dma_trigger_queue_named", 0,
               [](Word& w, Generation) { w[43] = 1; }},
              {"is_valid_pseudo_trigger_collective", "pseudo_collective_update_inc_complete", 0,
               [](Word& w, Generation) { w[6] = 0; }},
              {"is_valid_pseudo_trigger_collective", "pseudo_collective_valid_op", 0,
               [](Word& w, Generation) { w[12] = 0x05; }},
              {"is_valid_pseudo_trigger_collective", "is_valid_dtype", 0,
               [](Word& w, Generation) { w[13] = dtype::kInvalid; }},
              {"is_valid_pseudo_trigger_collective", "pseudo_collective_valid_ctype", 0,
               [](Word& w, Generation) { w[32] = 0; }},
          },
      .exempt =
          {
              {"is_valid_dma_memcpy_direct", "has_dma_memcpy_opcode", "dispatch selects it by 0xb8"},
              {"is_valid_dma_indirect", "has_dma_indirect_opcode", "dispatch selects it by 0xbb"},
              {"is_valid_dma_transpose", "has_dma_transpose_opcode", "dispatch selects it by 0xbd"},
              {"is_valid_dma_gather_transpose", "has_dma_gather_transpose_opcode", "dispatch selects it by 0xf1"},
              {"is_valid_pseudo_dma_trigger", "has_pseudo_dma_trigger_opcode", "dispatch selects it by 0xc1"},
              {"is_valid_pseudo_trigger_collective", "has_pseudo_trigger_collective_opcode",
               "dispatch selects it by 0xc8"},
              {"is_valid_dma_memcpy_direct", "engine_placement", kAnyEngine},
              {"is_valid_dma_indirect", "engine_placement", kAnyEngine},
              {"is_valid_dma_transpose", "engine_placement", kAnyEngine},
              {"is_valid_dma_gather_transpose", "engine_placement", kAnyEngine},
              {"is_valid_pseudo_dma_trigger", "engine_placement", kAnyEngine},
              {"is_valid_pseudo_trigger_collective", "engine_placement", kAnyEngine},
          },
      .vector_covered = {"is_valid_dma_memcpy_direct", "is_valid_dma_indirect", "is_valid_dma_transpose",
                         "is_valid_dma_gather_transpose", "is_valid_pseudo_dma_trigger",
                         "is_valid_pseudo_trigger_collective"},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::dma_cases
