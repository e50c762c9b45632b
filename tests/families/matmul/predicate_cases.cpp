// PE matmul's cases for the generic predicate tests: baselines per layout, failing-only mutations, exemptions.
#include <array>

#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::matmul_cases {
namespace {
// ---- PE matmul (real-programs.md §8-§9): LDWEIGHTS / MATMUL baselines per layout ----

void set_tensor3d(Word& w, unsigned at, uint32_t start, std::array<int16_t, 3> step, std::array<uint16_t, 3> num) {
  store_le<uint32_t>(&w[at], start);
  for (unsigned k = 0; k < 3; ++k) {
    store_le<int16_t>(&w[at + 4 + 2 * k], step[k]);
    store_le<uint16_t>(&w[at + 10 + 2 * k], num[k]);
  }
}

/// LDWEIGHTS of sg00/PE#08 without its wait: FP16 x^T tile walked backwards from 0x40fe, 128 x 128, groups 0xF.
Word lw_word(bool maverick) {
  Word w{};
  set_header(w, opcode::kLdWeights);
  set_tensor3d(w, 16, 0x40FE, {-1, 0, -32}, {32, 1, 4});
  w[32] = dtype::kFp16;
  if (maverick) {
    w[34] = 128;  // num_active_rows
    w[35] = 128;  // num_active_cols
  } else {
    w[38] = 128;
    w[39] = 128;
    w[44] = 0x0F;
    w[45] = 0x0F;
  }
  return w;
}

/// MATMUL like sg00/PE#09 (MULTI_START, FP16 moving tile of 64 elements from SBUF 0x4000) into PSUM bank 0;
/// MAVERICK (no PSUM) writes SBUF 0x8000.
Word mm_word(bool maverick) {
  Word w{};
  set_header(w, opcode::kMatmul);
  set_tensor3d(w, 16, 0x4000, {1, 0, 0}, {64, 1, 1});
  w[32] = dtype::kFp16;
  if (maverick) {
    w[35] = 128;  // num_active_rows
    w[36] = 128;  // num_active_cols
    w[39] = 1;    // flags: BEGIN
    set_tensor3d(w, 48, 0x8000, {1, 0, 0}, {64, 1, 1});
  } else {
    w[38] = 128;
    w[39] = 128;
    w[43] = 1;  // psum_accumulate_flags: MULTI_START
    w[44] = 0x0F;
    w[45] = 0x0F;
    set_tensor3d(w, 48, 0x2000000, {1, 0, 0}, {64, 1, 1});
  }
  return w;
}

// PE matmul mutations, written once per layout: `mv` selects MAVERICK's re-packed offsets.
#define LW_CASES(V, mv)                                                                                             \
  FailCase{V, "lw_reserved_zero", 0, [](Word& w, Generation) { w[40] = 1; }},                                       \
      FailCase{V, "has_valid_mm_in_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kInt8; }},                   \
      FailCase{V, "s3d3_mm_valid_fp32_mode", 0, [](Word& w, Generation) { w[33] = 1; }},                            \
      FailCase{V, "lw_valid_num_rows", 0,                                                                           \
               [](Word& w, Generation g) { store_le<uint32_t>(&w[16], partition1(g) + 0x40FE); }},                  \
      FailCase{V, "lw_valid_num_active_cols", 0, [](Word& w, Generation) { w[(mv) ? 35 : 39] = 64; }},              \
      FailCase{V, "tensor3d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x40FF); }}, FailCase { \
    V, "engine_placement", 0, [](Word&, Generation) {}, {}, {}, false, StreamEngine::Act                            \
  }
#define MM_CASES(V)                                                                                      \
  FailCase{V, "d3_mm_reserved_zero", 0, [](Word& w, Generation) { w[41] = 1; }},                         \
      FailCase{V, "has_valid_mm_in_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kInt8; }},        \
      FailCase{V, "has_valid_mm_out_dtype", 0,                                                           \
               [](Word& w, Generation g) { w[g == Generation::Maverick ? 34 : 40] = dtype::kFp16; }},    \
      FailCase{V, "s3d3_mm_valid_fp32_mode", 0, [](Word& w, Generation) { w[33] = 1; }},                 \
      FailCase{V, "d3_mm_valid_accumulate_flags", 0,                                                     \
               [](Word& w, Generation g) {                                                               \
                 if (g == Generation::Maverick)                                                          \
                   w[39] = 8;                                                                            \
                 else                                                                                    \
                   w[43] = 4;                                                                            \
               }},                                                                                       \
      FailCase{V, "d3_mm_valid_num_active_rows", 0,                                                      \
               [](Word& w, Generation g) { w[g == Generation::Maverick ? 35 : 38] = 0; }},               \
      FailCase{V, "d3_mm_valid_src_partition", 0,                                                        \
               [](Word& w, Generation g) {                                                               \
                 store_le<uint32_t>(&w[16], g == Generation::Maverick ? 0x9000000U : 0x2004000U);        \
               }},                                                                                       \
      FailCase{V, "d3_mm_valid_dst", 0,                                                                  \
               [](Word& w, Generation g) {                                                               \
                 store_le<uint32_t>(&w[48], g == Generation::Maverick ? 0x8002U : 0x2000002U);           \
               }},                                                                                       \
      FailCase{V, "d3_mm_num_elements", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[58], 32); }}, \
      FailCase{V, "valid_mm_sbuf_quadrant", 0,                                                           \
               [](Word& w, Generation g) {                                                               \
                 w[g == Generation::Maverick ? 35 : 38] = 64;                                            \
                 store_le<uint32_t>(&w[16], partition1(g) + 0x4000);                                     \
               }},                                                                                       \
      FailCase{V, "valid_mm_psum_quadrant", 0,                                                           \
               [](Word& w, Generation g) {                                                               \
                 if (g == Generation::Maverick) {                                                        \
                   store_le<uint32_t>(&w[48], partition1(g) + 0x8000);                                   \
                 } else {                                                                                \
                   w[39] = 64;                                                                           \
                   store_le<uint32_t>(&w[48], 0x2008000U);                                               \
                 }                                                                                       \
               }},                                                                                       \
      FailCase{V, "d3_mm_perf_opt_dtype", 0,                                                             \
               [](Word& w, Generation g) { w[g == Generation::Maverick ? 40 : 35] = 1; }},               \
      FailCase {                                                                                         \
    V, "engine_placement", 0, [](Word&, Generation) {}, {}, {}, false, StreamEngine::Sp                  \
  }
#define MM_GROUP_CASES(V)                                                                            \
  FailCase{V, "d3_mm_valid_transpose_mode", 0, [](Word& w, Generation) { w[34] = 2; }},              \
      FailCase{V, "d3_mm_valid_num_active_cols", 0, [](Word& w, Generation) { w[39] = 0; }},         \
      FailCase{V, "d3_mm_valid_row_group", 0, [](Word& w, Generation) { w[44] = 0x05; }}, FailCase { \
    V, "d3_mm_valid_col_group_active_col", 0, [](Word& w, Generation) { w[45] = 0x03; }              \
  }

/// The family's cases for tests/unit/validate_predicates_test.cpp.
PredicateCases family_cases() {
  return {
      .baselines =
          {
              // One validator per layout (SUNDA shares CAYMAN's).
              {"is_valid_ldweights", [] { return lw_word(false); }},
              {"is_valid_ldweights_mariana", [] { return lw_word(false); }},
              {"is_valid_ldweights_maverick", [] { return lw_word(true); }},
              {"is_valid_matmul", [] { return mm_word(false); }},
              {"is_valid_matmul_mariana", [] { return mm_word(false); }},
              {"is_valid_matmul_maverick", [] { return mm_word(true); }},
          },
      .fail_cases =
          {
              // ---- PE matmul (real-programs.md §8.2, §9.2): offsets per layout ----
              LW_CASES("is_valid_ldweights", false),
              LW_CASES("is_valid_ldweights_mariana", false),
              LW_CASES("is_valid_ldweights_maverick", true),
              {"is_valid_ldweights", "lw_valid_transpose_mode", 0, [](Word& w, Generation) { w[34] = 2; }},
              {"is_valid_ldweights_mariana", "lw_valid_transpose_mode", 0, [](Word& w, Generation) { w[34] = 2; }},
              {"is_valid_ldweights", "lw_valid_row_group", 0, [](Word& w, Generation) { w[44] = 0x05; }},
              {"is_valid_ldweights_mariana", "lw_valid_row_group", 0, [](Word& w, Generation) { w[44] = 0x05; }},
              {"is_valid_ldweights", "lw_valid_col_group", 0, [](Word& w, Generation) { w[45] = 0x03; }},
              {"is_valid_ldweights_mariana", "lw_valid_col_group", 0, [](Word& w, Generation) { w[45] = 0x03; }},
              MM_CASES("is_valid_matmul"),
              MM_CASES("is_valid_matmul_mariana"),
              MM_CASES("is_valid_matmul_maverick"),
              MM_GROUP_CASES("is_valid_matmul"),
              MM_GROUP_CASES("is_valid_matmul_mariana"),
              {"is_valid_matmul", "d3_mm_valid_zero_region", 0, [](Word& w, Generation) { w[47] = 1; }},
              {"is_valid_matmul_mariana", "d3_mm_valid_zero_region", 0, [](Word& w, Generation) { w[47] = 4; }},
          },
      .exempt =
          {
              {"is_valid_ldweights", "has_ldweights_opcode", "dispatch selects it by opcode 0x01"},
              {"is_valid_ldweights_mariana", "has_ldweights_opcode", "dispatch selects it by opcode 0x01"},
              {"is_valid_ldweights_maverick", "has_ldweights_opcode", "dispatch selects it by opcode 0x01"},
              {"is_valid_matmul", "has_matmul_opcode", "dispatch selects it by opcode 0x02"},
              {"is_valid_matmul_mariana", "has_matmul_opcode", "dispatch selects it by opcode 0x02"},
              {"is_valid_matmul_maverick", "has_matmul_opcode", "dispatch selects it by opcode 0x02"},
              {"is_valid_matmul", "d3_mm_fp32r_restrictions", "always true under PROJ-CONV-F15"},
              {"is_valid_matmul_mariana", "d3_mm_fp32r_restrictions", "always true under PROJ-CONV-F15"},
              {"is_valid_matmul_maverick", "d3_mm_fp32r_restrictions", "always true under PROJ-CONV-F15"},
          },
      .vector_covered = {"is_valid_ldweights", "is_valid_ldweights_mariana", "is_valid_ldweights_maverick",
                         "is_valid_matmul", "is_valid_matmul_mariana", "is_valid_matmul_maverick"},
  };
}
#undef LW_CASES
#undef MM_CASES
#undef MM_GROUP_CASES

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::matmul_cases
