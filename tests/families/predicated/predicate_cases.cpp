// The predicated family's cases for the generic predicate tests: TENSOR_TENSOR_BITVEC_OP, COPY_PREDICATED and
// CAST_PREDICATED on S3S3D3_TT (alu-ops.md §4) -- baselines, failing-only mutations, dispatch-only clauses.
#include <gtest/gtest.h>

#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::predicated_cases {
namespace {

/// A TENSOR3D at `at`: start, step (1,0,0), count (4,1,1).
void set_pattern(Word& w, unsigned at, uint32_t start) {
  store_le<uint32_t>(&w[at], start);
  store_le<int16_t>(&w[at + 4], 1);
  for (unsigned k = 0; k < 3; ++k) store_le<uint16_t>(&w[at + 10 + 2 * k], k == 0 ? 4 : 1);
}
/// S3S3D3_TT on 2 channels: src0 SB p0+0x0, src1 SB p0+0x100, dst SB p0+0x200.
Word tt_word(uint8_t opcode, uint8_t pair, uint8_t out, uint8_t op) {
  Word w{};
  set_header(w, opcode);
  w[12] = pair;
  w[13] = out;
  w[14] = op;
  w[15] = 2;
  set_pattern(w, 16, 0x0);
  set_pattern(w, 32, 0x100);
  set_pattern(w, 48, 0x200);
  return w;
}
/// §4.2's example: UINT32 BITWISE_AND. §4.3's: COPY_PREDICATED, predicate UINT8, data and out FP32.
Word bitvec_word() {
  return tt_word(0x51, 0x99, dtype::kUint32, aluop::kBitwiseAnd);
}
Word predicated_word() {
  return tt_word(0x72, 0xA3, dtype::kFp32, aluop::kBypass);
}

constexpr std::string_view kTt = "is_valid_tensor_tensor";
constexpr std::string_view kCp = "is_valid_copy_cast_predicated";

PredicateCases family_cases() {
  PredicateCases cases{
      .baselines = {{kTt, bitvec_word}, {kCp, predicated_word}},
      .fail_cases =
          {
              // ---- TENSOR_TENSOR_BITVEC_OP (§4.2, PROJ-CONV-K24) ----
              {kTt,
               "is_valid_dtype_64",
               0,
               [](Word& w, Generation) { w[13] = dtype::kInt4; },
               {"s3s3d3_tt_dtype", "s3s3d3_tt_src_dst_dtype"},
               "a dtype is_valid_dtype_64 refuses is no integer out_dtype and differs from the sources"},
              {kTt,
               "is_valid_dtype_64",
               1,
               [](Word& w, Generation) { w[12] = 0x9B; },
               {"s3s3d3_tt_src_dst_dtype"},
               "src0's dtype must equal out_dtype, which is_valid_dtype_64 accepts"},
              {kTt,
               "is_valid_dtype_64",
               2,
               [](Word& w, Generation) { w[12] = 0xB9; },
               {"s3s3d3_tt_src_dst_dtype"},
               "src1's dtype must equal out_dtype, which is_valid_dtype_64 accepts"},
              {kTt,
               "is_valid_enum(AluOp)",
               0,
               [](Word& w, Generation) { w[14] = 0x1E; },
               {"s3s3d3_tt_valid_op"},
               "an op outside the ALU_OP enum is no bit-vector op either"},
              {kTt, "s3s3d3_tt_valid_op", 0, [](Word& w, Generation) { w[14] = aluop::kAdd; }},
              {kTt, "s3s3d3_tt_dtype", 0,
               [](Word& w, Generation) {
                 w[12] = 0xAA;
                 w[13] = dtype::kFp32;
               }},
              {kTt, "s3s3d3_tt_src_dst_dtype", 0, [](Word& w, Generation) { w[13] = dtype::kInt32; }},
              {kTt,
               "s3s3d3_tt_valid_int_signness",
               0,
               [](Word& w, Generation) {
                 w[12] = 0xAA;
                 w[13] = dtype::kFp32;
                 w[14] = aluop::kMod;
               },
               {"s3s3d3_tt_valid_op", "s3s3d3_tt_dtype"},
               "only an integer-band op can fail it, and none is a bit-vector op; with integer dtypes of one "
               "signedness MOD passes it, so the dtypes are floats"},
              {kTt,
               "start_addr_active_channels",
               0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[16], partition1(g) * 127); },
               {"tt_valid_partitions"},
               "src0 in partition 127 leaves src1's quadrant-base partition 0"},
              {kTt,
               "start_addr_active_channels",
               1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[32], partition1(g) * 127 + 0x100); },
               {"tt_valid_partitions"},
               "src1 in partition 127 leaves src0's quadrant-base partition 0"},
              {kTt, "start_addr_active_channels", 2,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[48], partition1(g) * 127 + 0x200); }},
              {kTt, "tensor3d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x2); }},
              {kTt, "tensor3d_valid", 1, [](Word& w, Generation) { store_le<uint32_t>(&w[32], 0x102); }},
              {kTt, "tensor3d_valid", 2, [](Word& w, Generation) { store_le<uint32_t>(&w[48], 0x202); }},
              {kTt, "s3s3d3_tt_src_element_cnt_check", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[42], 3); }},
              {kTt, "s3s3d3_tt_dst_element_cnt_check", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[58], 3); }},
              {kTt, "check_active_channels", 0, [](Word& w, Generation) { w[15] = 0; }},
              {kTt, "tt_valid_partitions", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[32], partition1(g) + 0x100); }},
              // ---- COPY_PREDICATED / CAST_PREDICATED (§4.3) ----
              {kCp,
               "is_valid_dtype",
               0,
               [](Word& w, Generation) { w[13] = dtype::kFp32r; },
               {"s3s3d3_copy_cast_pred_src1_dst_dtype"},
               "COPY_PREDICATED's data dtype equals out_dtype, and the data dtype cannot be FP32R either"},
              {kCp,
               "is_valid_dtype",
               1,
               [](Word& w, Generation) { w[12] = 0xAB; },
               {"s3s3d3_copy_pred_src0_dtype"},
               "a predicate dtype is_valid_dtype refuses is no 8/16/32-bit integer either"},
              {kCp,
               "is_valid_dtype",
               2,
               [](Word& w, Generation) { w[12] = 0xB3; },
               {"s3s3d3_copy_cast_pred_src1_dst_dtype"},
               "COPY_PREDICATED's data dtype must equal out_dtype, which is_valid_dtype accepts"},
              {kCp, "s3s3d3_copy_pred_src0_dtype", 0, [](Word& w, Generation) { w[12] = 0xAA; }},
              {kCp, "s3s3d3_copy_cast_pred_src1_dst_dtype", 0, [](Word& w, Generation) { w[13] = dtype::kBfloat16; }},
              {kCp, "s3s3d3_tt_is_zero_op", 0, [](Word& w, Generation) { w[14] = aluop::kAdd; }},
              {kCp, "check_active_channels", 0, [](Word& w, Generation) { w[15] = 0; }},
              {kCp,
               "start_addr_active_channels",
               0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[16], partition1(g) * 127); },
               {"tt_valid_partitions"},
               "src0 in partition 127 leaves src1's quadrant-base partition 0"},
              {kCp,
               "start_addr_active_channels",
               1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[32], partition1(g) * 127 + 0x100); },
               {"tt_valid_partitions"},
               "src1 in partition 127 leaves src0's quadrant-base partition 0"},
              {kCp, "start_addr_active_channels", 2,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[48], partition1(g) * 127 + 0x200); }},
              {kCp, "tensor3d_valid", 0,
               [](Word& w, Generation) {
                 w[12] = 0xA5;  // a UINT16 predicate, misaligned
                 store_le<uint32_t>(&w[16], 0x1);
               }},
              {kCp, "tensor3d_valid", 1, [](Word& w, Generation) { store_le<uint32_t>(&w[32], 0x102); }},
              {kCp, "tensor3d_valid", 2, [](Word& w, Generation) { store_le<uint32_t>(&w[48], 0x202); }},
              {kCp, "s3s3d3_tt_src_element_cnt_check", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[42], 3); }},
              {kCp, "s3s3d3_tt_dst_element_cnt_check", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[58], 3); }},
              {kCp, "tt_valid_partitions", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[32], partition1(g) + 0x100); }},
          },
      .exempt =
          {
              {kTt, "has_tensor_tensor_opcode", "dispatch selects it by opcode 0x51"},
              {kCp, "has_copy_cast_predicated_opcode", "dispatch selects it by opcode 0x72 or 0x99"},
          },
      .vector_covered = {kTt, kCp},
  };
  return cases;
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::predicated_cases
