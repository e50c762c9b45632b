// The lanes family's cases for the generic predicate tests: LOAD_MASK_SELECT, STREAM_SHUFFLE and STREAM_TRANSPOSE
// (alu-ops.md §3.6, §3.7) -- baselines, failing-only mutations and the clauses dispatch always satisfies.
#include <gtest/gtest.h>

#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::lanes_cases {
namespace {

/// A TENSOR4D at `at`: start, step 1 on every dimension, count n along X and 1 elsewhere.
void set_pattern(Word& w, unsigned at, uint32_t start, uint16_t n) {
  store_le<uint32_t>(&w[at], start);
  for (unsigned k = 0; k < 4; ++k) {
    store_le<int16_t>(&w[at + 4 + 2 * k], 1);
    store_le<uint16_t>(&w[at + 12 + 2 * k], k == 0 ? n : 1);
  }
}
/// S4D4_TR: src SB p0+0x0 and dst SB p0+0x100, n elements each, 32 channels.
Word tr_word(uint8_t opcode, uint8_t dtype, uint16_t n, uint8_t mask_enable) {
  Word w{};
  set_header(w, opcode);
  set_pattern(w, 12, 0x0, n);
  w[32] = dtype;
  w[33] = dtype;
  w[34] = 32;
  w[38] = mask_enable;
  set_pattern(w, 44, 0x100, n);
  return w;
}
/// §3.6's shuffle: FP32, 2 elements. §3.7's transpose: FP16, 32 elements, mask_enable 1 as the compiler writes it.
Word shuffle_word() {
  return tr_word(0x6A, dtype::kFp32, 2, 0);
}
Word transpose_word() {
  return tr_word(0x6B, dtype::kFp16, 32, 1);
}
/// §3.6's mask word: lane 0 <- 1, lane 1 <- 0, the rest unmodified.
Word mask_word() {
  Word w{};
  set_header(w, 0x69);
  w[32] = 1;
  for (unsigned i = 34; i < 64; ++i) w[i] = 0xFF;
  return w;
}

constexpr std::string_view kShuffle = "is_valid_stream_shuffle";
constexpr std::string_view kTranspose = "is_valid_stream_transpose";

PredicateCases family_cases() {
  PredicateCases cases{
      .baselines =
          {
              {"is_valid_load_mask_select", mask_word},
              {kShuffle, shuffle_word},
              {kTranspose, transpose_word},
          },
      .fail_cases = {},
      .exempt =
          {
              {"is_valid_load_mask_select", "has_load_mask_select_opcode", "dispatch selects it by opcode 0x69"},
              {kShuffle, "has_stream_shuffle_opcode", "dispatch selects it by opcode 0x6A"},
              {kTranspose, "has_stream_transpose_opcode", "dispatch selects it by opcode 0x6B"},
          },
      .vector_covered = {"is_valid_load_mask_select", kShuffle, kTranspose},
  };
  // The conjuncts both stream validators have, failed the same way on each baseline.
  for (const std::string_view v : {kShuffle, kTranspose}) {
    std::vector<FailCase> shared = {
        {v, "s4d4_tr_reserved_zero", 0, [](Word& w, Generation) { w[39] = 1; }},
        {v, "is_valid_dtype", 0,
         [](Word& w, Generation) {
           w[32] = dtype::kFp32r;
           w[33] = dtype::kFp32r;
         }},
        {v,
         "is_valid_dtype",
         1,
         [](Word& w, Generation) {
           w[32] = dtype::kUint64;
           w[33] = dtype::kUint64;
         },
         {"is_valid_dtype"},
         "in_dtype must equal out_dtype, and every out_dtype failing is_valid_dtype fails it as in_dtype too"},
        {v, "is_zero_subdim", 0, [](Word& w, Generation) { w[37] = 3; }},
        {v,
         "has_valid_active_channel_range",
         0,
         [](Word& w, Generation) { w[34] = 0; },
         {"has_multiple_32_channels"},
         "0 is not a multiple of 32 channels either"},
        {v, "start_addr_active_channels", 1,
         [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition1(g) * 97 + 0x100); },
         v == kShuffle ? std::vector<std::string_view>{"stream_shuffle_start_partition"}
                       : std::vector<std::string_view>{},
         v == kShuffle ? "a start that leaves 32 channels no room is not 32-aligned either" : ""},
        {v, "tensor4d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x1); }},
        {v, "tensor4d_valid", 1, [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x101); }},
        {v, "s4d4_tr_op_bypass", 0, [](Word& w, Generation) { w[36] = aluop::kAdd; }},
        {v, "has_multiple_32_channels", 0, [](Word& w, Generation) { w[34] = 2; }},
        {v, "has_zero_negated_field", 0, [](Word& w, Generation) { w[35] = 1; }},
    };
    cases.fail_cases.insert(cases.fail_cases.end(), shared.begin(), shared.end());
  }
  const std::vector<FailCase> own = {
      // ---- STREAM_SHUFFLE (PROJ-CONV-K4) ----
      {kShuffle, "mask_enable_zero", 0, [](Word& w, Generation) { w[38] = 1; }},
      {kShuffle,
       "is_valid_enum(AluOp)",
       0,
       [](Word& w, Generation) { w[36] = 0x1E; },
       {"s4d4_tr_op_bypass"},
       "an op outside the ALU_OP enum is not BYPASS either"},
      {kShuffle,
       "start_addr_active_channels",
       0,
       [](Word& w, Generation g) { store_le<uint32_t>(&w[12], partition1(g) * 97); },
       {"stream_shuffle_start_partition"},
       "a start that leaves 32 channels no room is not 32-aligned either"},
      {kShuffle, "s4d4_tr_same_src_dst_count", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[56], 3); }},
      {kShuffle, "s4d4_tr_same_src_dst_type", 0, [](Word& w, Generation) { w[33] = dtype::kInt32; }},
      {kShuffle, "stream_shuffle_start_partition", 0,
       [](Word& w, Generation g) { store_le<uint32_t>(&w[12], partition1(g)); }},
      {kShuffle, "stream_shuffle_start_partition", 1,
       [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition1(g) + 0x100); }},
      // ---- STREAM_TRANSPOSE (§3.7) ----
      {kTranspose, "mask_enable_valid", 0, [](Word& w, Generation) { w[38] = 2; }},
      {kTranspose, "s4d4_tr_same_src_dst_type", 0, [](Word& w, Generation) { w[33] = dtype::kBfloat16; }},
      {kTranspose, "start_addr_active_channels", 0,
       [](Word& w, Generation g) { store_le<uint32_t>(&w[12], partition1(g) * 97); }},
      {kTranspose, "s4d4_tr_transpose_src_dst_count", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[56], 33); }},
      {kTranspose, "has_transpose_src_element_count_t4d", 0,
       [](Word& w, Generation) {
         store_le<uint16_t>(&w[24], 16);
         store_le<uint16_t>(&w[56], 16);
       }},
  };
  cases.fail_cases.insert(cases.fail_cases.end(), own.begin(), own.end());
  return cases;
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::lanes_cases
