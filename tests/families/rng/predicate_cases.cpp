// The RNG family's cases for the generic predicate tests: a baseline per validator (DROPOUT, RAND, RAND_GET_STATE,
// RAND_SET_STATE, RAND2), a failing-only mutation per predicate and the opcode clauses dispatch always satisfies.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::rng_cases {
namespace {

void set_tensor3d(Word& w, unsigned at, uint32_t start, uint16_t n) {
  store_le<uint32_t>(&w[at], start);
  const int16_t steps[3] = {1, 0, 0};
  const uint16_t nums[3] = {n, 1, 1};
  for (unsigned k = 0; k < 3; ++k) {
    store_le<int16_t>(&w[at + 4 + 2 * k], steps[k]);
    store_le<uint16_t>(&w[at + 10 + 2 * k], nums[k]);
  }
}

/// DROPOUT: src sbuf p0+0x0 and dst p0+0x1000, 64 FP32 elements, 128 channels, DROP_RATE 0.5 inline.
Word dropout_base() {
  Word w{};
  set_header(w, 0x7F);
  set_tensor3d(w, 16, 0x0, 64);
  w[32] = dtype::kFp32;
  w[33] = dtype::kFp32;
  w[34] = 128;
  store_le<uint32_t>(&w[44], 0x3F000000);
  set_tensor3d(w, 48, 0x1000, 64);
  return w;
}

void set_tensor4d(Word& w, unsigned at, uint32_t start, uint16_t n) {
  store_le<uint32_t>(&w[at], start);
  store_le<int16_t>(&w[at + 4], 1);
  store_le<uint16_t>(&w[at + 12], n);
  for (unsigned k = 1; k < 4; ++k) store_le<uint16_t>(&w[at + 12 + 2 * k], 1);
}

/// RAND: PHILOX, UNIFORM_IN_RANGE [0, 1), 64 FP32 elements into sbuf p0+0x0 on 128 channels.
Word rand_base() {
  Word w{};
  set_header(w, 0x76);
  w[12] = 2;  // PHILOX
  w[14] = 1;  // UNIFORM_IN_RANGE
  w[15] = 2;  // RNG_PHILOX
  store_le<uint32_t>(&w[20], 0x3F800000);
  w[32] = dtype::kFp32;
  w[34] = 128;
  set_tensor4d(w, 44, 0x0, 64);
  return w;
}
/// RAND_GET_STATE: the DVE LFSR-output state, 4 UINT32 words.
Word get_base() {
  Word w{};
  set_header(w, 0x77);
  w[15] = 3;  // OUTPUT_CVT_LFSR, LFSR
  w[32] = dtype::kUint32;
  w[34] = 128;
  set_tensor4d(w, 44, 0x0, 4);
  return w;
}
/// RAND_SET_STATE: the same state restored from sbuf p0+0x0.
Word set_base() {
  Word w{};
  set_header(w, 0x78);
  w[13] = 128;
  w[15] = dtype::kUint32;
  store_le<int16_t>(&w[20], 1);
  store_le<uint16_t>(&w[22], 4);
  w[24] = 3;  // OUTPUT_CVT_LFSR
  return w;
}
/// RAND2: XORWOW, UNIFORM_IN_RANGE [0.0, 1.0), 64 FP32 elements into sbuf p0+0x0 (MARIANA, MAVERICK).
Word rand2_base() {
  Word w{};
  set_header(w, 0xE2);
  w[12] = 3;
  w[14] = 1;
  w[32] = dtype::kFp32;
  w[34] = 128;
  store_le<uint32_t>(&w[44], 0x3F800000);
  set_tensor3d(w, 48, 0x0, 64);
  return w;
}

void add_rand_cases(std::vector<FailCase>& f) {
  constexpr std::string_view r = "is_valid_rand";
  f.push_back({r, "d4_rand_reserved_zero", 0, [](Word& w, Generation) { w[33] = 1; }});
  f.push_back({r,
               "restrict_rand_algorithm",
               0,
               [](Word& w, Generation) { w[12] = 4; },
               {"has_valid_rand_generator"},
               "no RAND_SRC pairs with an algorithm outside the enum"});
  f.push_back({r, "has_valid_rand_generator", 0, [](Word& w, Generation) { w[15] = 0; }});
  f.push_back({r, "has_valid_rand_post_processing", 0, [](Word& w, Generation) { w[14] = 2; }});
  f.push_back({r, "has_valid_rand_num_steps", 0, [](Word& w, Generation) { w[12] = w[15] = 0; }});
  f.push_back({r, "has_valid_rand_dtype", 0, [](Word& w, Generation) { w[14] = 0; }});
  f.push_back({r, "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }});
  f.push_back(
      {r, "start_addr_active_channels", 0, [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition1(g)); }});
  f.push_back({r, "tensor4d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x2); }});

  constexpr std::string_view g = "is_valid_rand_get_state";
  f.push_back({g, "d4_rand_reserved_zero", 0, [](Word& w, Generation) { w[40] = 1; }});
  f.push_back({g, "rand_get_state_unused_field_zero", 0, [](Word& w, Generation) { w[13] = 1; }});
  f.push_back({g, "rand_get_state_valid_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kInt32; }});
  f.push_back({g, "rand_get_state_legal_combinations", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[56], 5); }});
  f.push_back({g, "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }});
  f.push_back({g, "start_addr_active_channels", 0,
               [](Word& w, Generation gen) { store_le<uint32_t>(&w[44], partition1(gen)); }});
  f.push_back({g, "tensor4d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x2); }});

  constexpr std::string_view s = "is_valid_rand_set_state";
  f.push_back({s, "has_s1_rand_reserved_zero", 0, [](Word& w, Generation) { w[25] = 1; }});
  f.push_back({s, "rand_set_state_legal_combinations", 0, [](Word& w, Generation) { w[15] = dtype::kInt32; }});
  f.push_back({s, "rand_set_state_imm_zero", 0, [](Word& w, Generation) { w[32] = 1; }});
  f.push_back({s, "has_valid_rand_set_state_imm", 0, [](Word& w, Generation) {
                 w[12] = 2;  // PHILOX, inline (IMM_SINGLE) from RNG_PHILOX, with imm_state[7] set
                 w[14] = 1;
                 w[24] = 2;
                 w[60] = 8;
               }});
  f.push_back({s, "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[13] = 0; }});
  f.push_back({s, "start_addr_active_channels", 0,
               [](Word& w, Generation gen) { store_le<uint32_t>(&w[16], partition1(gen)); }});
  f.push_back({s, "tensor1d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x2); }});

  constexpr std::string_view d = "is_valid_d3_rand";
  f.push_back({d, "d3_rand_reserved_zero", 0, [](Word& w, Generation) { w[13] = 1; }});
  f.push_back({d, "restrict_rand2_algorithm", 0, [](Word& w, Generation) { w[12] = 0; }});
  f.push_back({d, "has_valid_rand2_post_processing", 0, [](Word& w, Generation) { w[14] = 0; }});
  f.push_back({d, "has_valid_rand2_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kUint32; }});
  f.push_back({d, "rand2_bounds_check", 0, [](Word& w, Generation) { w[38] = 3; }});
  f.push_back({d, "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }});
  f.push_back({d, "has_valid_active_channel_range_with_tile", 0, [](Word& w, Generation) { w[34] = 0; }});
  f.push_back({d, "start_addr_active_channels", 0,
               [](Word& w, Generation gen) { store_le<uint32_t>(&w[48], partition1(gen)); }});
  f.push_back({d, "tensor3d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[48], 0x2); }});
}

PredicateCases family_cases() {
  constexpr std::string_view v = "is_valid_dropout";
  std::vector<FailCase> fails;
  fails.push_back({v, "s3d3_dropout_reserved_zero", 0, [](Word& w, Generation) { w[13] = 1; }});
  fails.push_back({v, "is_valid_dtype", 0, [](Word& w, Generation) { w[32] = w[33] = dtype::kFp32r; }});
  fails.push_back({v,
                   "is_valid_dtype",
                   1,
                   [](Word& w, Generation) { w[33] = dtype::kUint64; },
                   {"s3d3_dropout_same_src_dst_type"},
                   "an out_dtype is_valid_dtype rejects differs from the valid in_dtype"});
  fails.push_back({v, "s3d3_dropout_same_src_dst_type", 0, [](Word& w, Generation) { w[33] = dtype::kBfloat16; }});
  fails.push_back(
      {v, "s3d3_dropout_src_dst_count_check", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[58], 32); }});
  fails.push_back({v, "s3d3_dropout_threshold_type_check", 0, [](Word& w, Generation) { w[43] = 2; }});
  fails.push_back({v, "s3d3_dropout_threshold_dtype_check", 0, [](Word& w, Generation) { w[36] = dtype::kBfloat16; }});
  fails.push_back({v, "s3d3_dropout_threshold_check", 0, [](Word& w, Generation) { w[35] = 3; }});
  fails.push_back({v, "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }});
  fails.push_back({v, "has_valid_active_channel_range_with_tile", 0, [](Word& w, Generation) { w[34] = 0; }});
  fails.push_back(
      {v, "start_addr_active_channels", 0, [](Word& w, Generation g) { store_le<uint32_t>(&w[16], partition1(g)); }});
  fails.push_back({v, "start_addr_active_channels", 1,
                   [](Word& w, Generation g) { store_le<uint32_t>(&w[48], partition1(g) | 0x1000); }});
  fails.push_back({v, "tensor3d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x2); }});
  fails.push_back({v, "tensor3d_valid", 1, [](Word& w, Generation) { store_le<uint32_t>(&w[48], 0x1002); }});
  add_rand_cases(fails);
  return {
      .baselines = {{v, dropout_base},
                    {"is_valid_rand", rand_base},
                    {"is_valid_rand_get_state", get_base},
                    {"is_valid_rand_set_state", set_base},
                    {"is_valid_d3_rand", rand2_base}},
      .fail_cases = std::move(fails),
      .exempt = {{v, "has_dropout_opcode", "dispatch selects it by 0x7F"},
                 {"is_valid_rand", "has_rand_opcode", "dispatch selects it by 0x76"},
                 {"is_valid_rand_get_state", "has_rand_get_state_opcode", "dispatch selects it by 0x77"},
                 {"is_valid_rand_set_state", "has_rand_set_state_opcode", "dispatch selects it by 0x78"},
                 {"is_valid_d3_rand", "has_rand2_opcode", "dispatch selects it by 0xE2"}},
      .vector_covered = {v, "is_valid_rand", "is_valid_rand_get_state", "is_valid_rand_set_state", "is_valid_d3_rand"},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::rng_cases
