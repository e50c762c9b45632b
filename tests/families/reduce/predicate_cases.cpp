// The reduce family's cases for the generic predicate tests: a baseline word per validator, a failing-only mutation
// per predicate, the predicates that cannot fail (alu-ops.md §3.2-§3.5).
#include <gtest/gtest.h>

#include "../../support/predicate_cases.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::test::reduce_cases {
namespace {

/// A TENSOR4D at `at`: start, step 1 on every dimension, count n along X and 1 elsewhere.
void set_pattern(Word& w, unsigned at, uint32_t start, uint16_t n) {
  store_le<uint32_t>(&w[at], start);
  for (unsigned k = 0; k < 4; ++k) {
    store_le<int16_t>(&w[at + 4 + 2 * k], 1);
    store_le<uint16_t>(&w[at + 12 + 2 * k], k == 0 ? n : 1);
  }
}

/// S4D4_TR, FP32 -> FP32 on 128 channels: src SB 0x1000 with `src_n` elements, dst SB 0x4200 with `dst_n`.
Word tr_word(uint8_t opcode, uint8_t op, uint8_t op_dim, uint16_t src_n, uint16_t dst_n) {
  Word w{};
  set_header(w, opcode);
  set_pattern(w, 12, 0x1000, src_n);
  w[32] = dtype::kFp32;
  w[33] = dtype::kFp32;
  w[34] = 128;
  w[36] = op;
  w[37] = op_dim;
  set_pattern(w, 44, 0x4200, dst_n);
  return w;
}

constexpr uint8_t kX = 2;

Word reduce_word() {
  return tr_word(0x42, aluop::kAdd, kX, 64, 1);
}
Word transpose_word() {
  return tr_word(0x83, aluop::kAdd, kX, 32, 1);
}
Word cumulative_word() {
  return tr_word(0x4E, aluop::kAdd, kX, 64, 64);
}
Word reciprocal_word() {
  return tr_word(0x48, aluop::kBypass, 0, 64, 64);
}

/// The conjuncts every validator of the family shares, with one mutation each.
void add_shared(std::vector<FailCase>& out, std::string_view v, std::string_view dtype_name, uint8_t bad_out,
                bool transpose = false) {
  out.push_back({v, "s4d4_tr_reserved_zero", 0, [](Word& w, Generation) { w[39] = 1; }});
  out.push_back({v, "mask_enable_zero", 0, [](Word& w, Generation) { w[38] = 1; }});
  out.push_back({v, dtype_name, 0, [](Word& w, Generation) { w[32] = dtype::kFp32r; }});
  if (bad_out == dtype::kInt4)
    out.push_back({v, dtype_name, 1, [](Word& w, Generation) { w[33] = dtype::kInt4; }});
  else
    out.push_back({v, dtype_name, 1, [](Word& w, Generation) { w[33] = dtype::kUint64; }});
  if (transpose)
    out.push_back({v,
                   "has_valid_active_channel_range",
                   0,
                   [](Word& w, Generation) { w[34] = 0; },
                   {"has_multiple_32_channels"},
                   "0 channels is no multiple of 32 either"});
  else
    out.push_back({v, "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }});
  out.push_back({v, "start_addr_active_channels", 0,
                 [](Word& w, Generation g) { store_le<uint32_t>(&w[12], partition1(g) + 0x1000); }});
  out.push_back({v, "start_addr_active_channels", 1,
                 [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition1(g) + 0x4200); }});
  out.push_back({v, "tensor4d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x1002); }});
  out.push_back({v, "tensor4d_valid", 1, [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x4202); }});
}

/// The TensorReduce conjuncts (§3.2) of the validator `v`, whose bit-vector twin is `bitvec`.
template <uint8_t Bitvec>
void add_reduce(std::vector<FailCase>& out, std::string_view v) {
  add_shared(out, v, "is_valid_dtype_64", dtype::kInt4, Bitvec == 0x84);
  out.push_back({v,
                 "is_valid_enum(AluOp)",
                 0,
                 [](Word& w, Generation) { w[36] = 0x1E; },
                 {"tensor_reduce_valid_alu_op"},
                 "tensor_reduce_valid_alu_op accepts only ALU ops of the generation"});
  out.push_back({v, "is_valid_subdim", 0, [](Word& w, Generation) { w[37] = 0; }});
  out.push_back({v, "tensor_reduce_dst_element_count", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[56], 2); }});
  out.push_back({v, "tensor_reduce_valid_alu_op", 0, [](Word& w, Generation) { w[36] = aluop::kDivide; }});
  out.push_back({v, "tensor_reduce_valid_dtype", 0, [](Word& w, Generation) {
                   w[0] = Bitvec;
                   w[36] = aluop::kBitwiseOr;
                   w[32] = dtype::kInt16;
                   w[33] = dtype::kInt16;
                 }});
  out.push_back({v, "has_valid_reduce_negated", 0, [](Word& w, Generation) { w[35] = 2; }});
  // The FP32 ADD baseline is a DVE form: issued from POOL it fails the engine conjunct (edge case 5).
  out.push_back(
      {v, "is_valid_tensor_reduce_arith_engine", 0, [](Word&, Generation) {}, {}, {}, false, StreamEngine::Pool});
}

PredicateCases family_cases() {
  PredicateCases cases{
      .baselines =
          {
              {"is_valid_tensor_reduce", reduce_word},
              {"is_valid_transpose_tensor_reduce", transpose_word},
              {"is_valid_tensor_cumulative", cumulative_word},
              {"is_valid_reciprocal", reciprocal_word},
          },
      .fail_cases = {},
      .exempt =
          {
              {"is_valid_tensor_reduce", "has_tensor_reduce_opcode", "dispatch selects it by opcode 0x42 or 0x52"},
              {"is_valid_transpose_tensor_reduce", "has_transpose_tensor_reduce_opcode",
               "dispatch selects it by opcode 0x83 or 0x84"},
              {"is_valid_tensor_cumulative", "has_tensor_cumulative_opcode",
               "dispatch selects it by opcode 0x4E or 0x5E"},
              {"is_valid_reciprocal", "has_reciprocal_opcode", "dispatch selects it by opcode 0x48"},
          },
      .exempt_without_option =
          {
              {"is_valid_tensor_reduce_arith_engine",
               "applies only when the stream engine is known (ValidateOptions::engine, alu-ops.md §3.2)"},
          },
      .vector_covered = {"is_valid_tensor_reduce", "is_valid_transpose_tensor_reduce", "is_valid_tensor_cumulative",
                         "is_valid_reciprocal"},
  };
  std::vector<FailCase>& f = cases.fail_cases;
  add_reduce<0x52>(f, "is_valid_tensor_reduce");
  add_reduce<0x84>(f, "is_valid_transpose_tensor_reduce");
  f.push_back(
      {"is_valid_transpose_tensor_reduce", "has_multiple_32_channels", 0, [](Word& w, Generation) { w[34] = 2; }});
  f.push_back({"is_valid_transpose_tensor_reduce", "has_transpose_src_element_count_t4d", 0,
               [](Word& w, Generation) { store_le<uint16_t>(&w[24], 16); }});

  const std::string_view cum = "is_valid_tensor_cumulative";
  add_shared(f, cum, "is_valid_dtype", dtype::kUint64);
  f.push_back({cum,
               "is_valid_enum(AluOp)",
               0,
               [](Word& w, Generation) { w[36] = 0x1E; },
               {"tensor_cumulative_valid_alu_op"},
               "tensor_cumulative_valid_alu_op accepts only ALU ops of the generation"});
  f.push_back({cum, "is_valid_subdim", 0, [](Word& w, Generation) { w[37] = 0; }});
  f.push_back({cum, "s4d4_tr_same_src_dst_count", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[56], 63); }});
  f.push_back({cum, "tensor_cumulative_valid_alu_op", 0, [](Word& w, Generation) { w[36] = aluop::kDivide; }});
  f.push_back({cum, "tensor_cumulative_valid_dtype", 0, [](Word& w, Generation) {
                 w[0] = 0x5E;
                 w[36] = aluop::kBitwiseXor;
                 w[32] = dtype::kInt16;
                 w[33] = dtype::kInt16;
               }});
  f.push_back({cum, "has_zero_negated_field", 0, [](Word& w, Generation) { w[35] = 1; }});

  const std::string_view rec = "is_valid_reciprocal";
  add_shared(f, rec, "is_valid_dtype", dtype::kUint64);
  f.push_back({rec,
               "is_valid_enum(AluOp)",
               0,
               [](Word& w, Generation) { w[36] = 0x1E; },
               {"s4d4_tr_op_bypass"},
               "an op outside the ALU_OP enum is not BYPASS either"});
  f.push_back({rec, "is_zero_subdim", 0, [](Word& w, Generation) { w[37] = 3; }});
  f.push_back({rec, "s4d4_tr_same_src_dst_count", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[56], 63); }});
  f.push_back({rec, "s4d4_tr_op_bypass", 0, [](Word& w, Generation) { w[36] = aluop::kAdd; }});
  f.push_back({rec, "has_zero_negated_field", 0, [](Word& w, Generation) { w[35] = 1; }});
  return cases;
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::reduce_cases
