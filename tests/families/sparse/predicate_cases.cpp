// The sparse matmul family's cases for the generic predicate tests: the MATMUL_SPARSE baseline, a failing-only
// mutation per predicate of is_valid_s4d3_mm and the opcode clause dispatch always satisfies.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::sparse_cases {
namespace {

/// PSUM partition 0 on CAYMAN and MARIANA, SBUF partition 32 on MAVERICK (no PSUM; 1 MiB partitions).
constexpr uint32_t kDst0 = 0x2000000;

/// MATMUL_SPARSE: 4 BF16 fmaps of 64 elements from SBUF 0x0 (fmap k at element 64k), 128 rows, 96 columns (so the
/// destination fits on MAVERICK too), SINGLE, into 64 FP32 elements at kDst0.
Word base() {
  Word w{};
  set_header(w, 0x07);
  store_le<uint32_t>(&w[12], 0x0);
  store_le<int16_t>(&w[16], 1);
  store_le<int16_t>(&w[22], 64);
  const uint16_t num[4] = {64, 1, 1, 4};
  for (unsigned k = 0; k < 4; ++k) store_le<uint16_t>(&w[24 + 2 * k], num[k]);
  w[32] = dtype::kBfloat16;
  w[38] = 128;  // num_active_rows
  w[39] = 96;   // num_active_cols
  w[43] = 3;    // SINGLE
  w[44] = 0x0F;
  w[45] = 0x0F;
  store_le<uint32_t>(&w[48], kDst0);
  store_le<int16_t>(&w[52], 1);
  store_le<uint16_t>(&w[58], 64);
  store_le<uint16_t>(&w[60], 1);
  store_le<uint16_t>(&w[62], 1);
  return w;
}

/// The destination one partition on: PSUM partition 1 (32 KiB stride), MAVERICK's SBUF partition 33.
uint32_t dst_part1(Generation g) {
  return kDst0 + (g == Generation::Maverick ? 0x100000U : 0x8000U);
}

PredicateCases family_cases() {
  constexpr std::string_view v = "is_valid_s4d3_mm";
  std::vector<FailCase> f;
  f.push_back({v, "engine_placement", 0, [](Word&, Generation) {}, {}, {}, false, StreamEngine::Act});
  f.push_back({v, "s4d3_mm_reserved_zero", 0, [](Word& w, Generation) { w[40] = 1; }});
  f.push_back({v, "has_valid_mm_in_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kUint8; }});
  f.push_back({v, "has_valid_mm_out_dtype", 0, [](Word& w, Generation) { w[34] = dtype::kFp16; }});
  f.push_back({v, "s4d3_mm_valid_fp32_mode", 0, [](Word& w, Generation) { w[33] = 2; }});
  f.push_back({v, "s4d3_mm_perf_opt_dtype", 0, [](Word& w, Generation) { w[35] = 1; }});
  f.push_back({v, "s4d3_mm_valid_num_fmaps", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[30], 1); }});
  f.push_back({v, "s4d3_mm_valid_accumulate_flags", 0, [](Word& w, Generation) { w[43] = 4; }});
  f.push_back({v, "s4d3_mm_valid_zero_region", 0, [](Word& w, Generation) { w[47] = 4; }});
  f.push_back({v, "s4d3_mm_valid_num_active_rows", 0, [](Word& w, Generation) { w[38] = 0; }});
  f.push_back({v, "s4d3_mm_valid_num_active_cols", 0, [](Word& w, Generation) { w[39] = 0; }});
  f.push_back({v, "s4d3_mm_valid_row_group", 0, [](Word& w, Generation) { w[44] = 0x05; }});
  f.push_back({v, "s4d3_mm_full_col_group", 0, [](Word& w, Generation) { w[45] = 0x03; }});
  f.push_back({v, "s4d3_mm_valid_active_row_mode", 0, [](Word& w, Generation) { w[46] = 2; }});
  f.push_back({v, "tensor4d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x1); }});
  f.push_back({v, "s4d3_mm_valid_dst", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[48], kDst0 + 2); }});
  f.push_back({v, "s4d3_mm_num_elements", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[58], 32); }});
  f.push_back({v, "valid_mm_sbuf_quadrant", 0, [](Word& w, Generation g) {
                 store_le<uint32_t>(&w[12], partition1(g));
                 w[38] = 127;  // partition 1 + 127 rows end at partition 127
               }});
  f.push_back({v, "valid_mm_psum_quadrant", 0, [](Word& w, Generation g) {
                 store_le<uint32_t>(&w[48], dst_part1(g));
                 w[39] = 95;
               }});
  return {
      .baselines = {{v, base}},
      .fail_cases = std::move(f),
      .exempt = {{v, "has_matmul_sparse_opcode", "dispatch selects it by 0x07"}},
      .vector_covered = {v},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::sparse_cases
