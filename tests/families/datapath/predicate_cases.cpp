// The datapath family's cases for the generic predicate tests (baselines, failing-only mutations, exemptions), and
// the quadrant-base reading of tt_valid_partitions.
#include <gtest/gtest.h>

#include <string>

#include "../../support/predicate_cases.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::test::datapath_cases {
namespace {
/// A TENSOR3D/4D at `at`: start, step 1 on every dimension, count n along X and 1 elsewhere.
void set_pattern(Word& w, unsigned at, unsigned dims, uint32_t start, uint16_t n) {
  store_le<uint32_t>(&w[at], start);
  for (unsigned k = 0; k < dims; ++k) {
    store_le<int16_t>(&w[at + 4 + 2 * k], 1);
    store_le<uint16_t>(&w[at + 4 + 2 * dims + 2 * k], k == 0 ? n : 1);
  }
}
/// COPY / CAST: FP32 -> FP32, 128 channels, src SB 0x1000 and dst SB 0x4200, 64 elements each.
Word tr_word(uint8_t opcode) {
  Word w{};
  set_header(w, opcode);
  set_pattern(w, 12, 4, 0x1000, 64);
  w[32] = dtype::kFp32;
  w[33] = dtype::kFp32;
  w[34] = 128;
  set_pattern(w, 44, 4, 0x4200, 64);
  return w;
}
/// TENSOR_TENSOR ADD: FP32 pair and out, 128 channels, src0 SB 0x1000, src1 SB 0x2000, dst SB 0x3000, 64 each.
Word tt_word() {
  Word w{};
  set_header(w, opcode::kTensorTensorArith);
  w[12] = 0xAA;
  w[13] = dtype::kFp32;
  w[14] = aluop::kAdd;
  w[15] = 128;
  set_pattern(w, 16, 3, 0x1000, 64);
  set_pattern(w, 32, 3, 0x2000, 64);
  set_pattern(w, 48, 3, 0x3000, 64);
  return w;
}
/// MEMSET (§12.4): 64 FP32 elements set to 1.0 at SB 0x4600 on 128 channels.
Word mr_word() {
  Word w{};
  set_header(w, opcode::kMemset);
  store_le<uint32_t>(&w[28], 64);
  w[32] = dtype::kFp32;
  w[34] = 128;
  store_le<uint32_t>(&w[40], 0x3F800000);
  set_pattern(w, 44, 4, 0x4600, 64);
  return w;
}

/// The family's cases for tests/unit/validate_predicates_test.cpp.
PredicateCases family_cases() {
  return {
      .baselines =
          {
              {"is_valid_copy", [] { return tr_word(opcode::kCopy); }},
              {"is_valid_cast", [] { return tr_word(opcode::kCast); }},
              {"is_valid_tensor_tensor_arith", [] { return tt_word(); }},
              {"is_valid_memset", [] { return mr_word(); }},
          },
      .fail_cases =
          {
              // ---- COPY / CAST (real-programs.md §10.2) ----
              {"is_valid_copy", "s4d4_tr_reserved_zero", 0, [](Word& w, Generation) { w[39] = 1; }},
              {"is_valid_copy", "mask_enable_zero", 0, [](Word& w, Generation) { w[38] = 1; }},
              {"is_valid_copy", "is_valid_dtype", 0,
               [](Word& w, Generation) {
                 w[32] = dtype::kFp32r;
                 w[33] = dtype::kFp32r;
               }},
              {"is_valid_copy",
               "is_valid_dtype",
               1,
               [](Word& w, Generation) {
                 w[32] = dtype::kUint64;
                 w[33] = dtype::kUint64;
               },
               {"is_valid_dtype"},
               "COPY needs in_dtype == out_dtype, and every out_dtype failing is_valid_dtype also fails it as "
               "in_dtype"},
              {"is_valid_copy",
               "is_valid_enum(AluOp)",
               0,
               [](Word& w, Generation) { w[36] = 0x1E; },
               {"s4d4_tr_op_bypass"},
               "an op outside the ALU_OP enum is not BYPASS either"},
              {"is_valid_copy", "is_zero_subdim", 0, [](Word& w, Generation) { w[37] = 0x03; }},
              {"is_valid_copy", "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_copy", "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[12], partition1(g) + 0x1000); }},
              {"is_valid_copy", "start_addr_active_channels", 1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition1(g) + 0x4200); }},
              {"is_valid_copy", "tensor4d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x1002); }},
              {"is_valid_copy", "tensor4d_valid", 1, [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x4202); }},
              {"is_valid_copy", "s4d4_tr_same_src_dst_count", 0,
               [](Word& w, Generation) { store_le<uint16_t>(&w[56], 63); }},
              {"is_valid_copy", "s4d4_tr_op_bypass", 0, [](Word& w, Generation) { w[36] = aluop::kAdd; }},
              {"is_valid_copy", "s4d4_tr_same_src_dst_type", 0, [](Word& w, Generation) { w[33] = dtype::kInt32; }},
              {"is_valid_copy", "has_zero_negated_field", 0, [](Word& w, Generation) { w[35] = 1; }},
              {"is_valid_cast", "s4d4_tr_reserved_zero", 0, [](Word& w, Generation) { w[39] = 1; }},
              {"is_valid_cast", "mask_enable_zero", 0, [](Word& w, Generation) { w[38] = 1; }},
              {"is_valid_cast", "is_valid_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kFp32r; }},
              {"is_valid_cast", "is_valid_dtype", 1, [](Word& w, Generation) { w[33] = dtype::kUint64; }},
              {"is_valid_cast",
               "is_valid_enum(AluOp)",
               0,
               [](Word& w, Generation) { w[36] = 0x1E; },
               {"s4d4_tr_op_bypass"},
               "an op outside the ALU_OP enum is not BYPASS either"},
              {"is_valid_cast", "is_zero_subdim", 0, [](Word& w, Generation) { w[37] = 0x03; }},
              {"is_valid_cast", "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_cast", "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[12], partition1(g) + 0x1000); }},
              {"is_valid_cast", "start_addr_active_channels", 1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition1(g) + 0x4200); }},
              {"is_valid_cast", "tensor4d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x1002); }},
              {"is_valid_cast", "tensor4d_valid", 1, [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x4202); }},
              {"is_valid_cast", "s4d4_tr_same_src_dst_count", 0,
               [](Word& w, Generation) { store_le<uint16_t>(&w[56], 63); }},
              {"is_valid_cast", "s4d4_tr_op_bypass", 0, [](Word& w, Generation) { w[36] = aluop::kAdd; }},
              {"is_valid_cast", "has_zero_negated_field", 0, [](Word& w, Generation) { w[35] = 1; }},
              // ---- TENSOR_TENSOR_ARITH_OP (§11.2) ----
              {"is_valid_tensor_tensor_arith", "is_valid_dtype_64", 0,
               [](Word& w, Generation) { w[13] = dtype::kInt4; }},
              {"is_valid_tensor_tensor_arith", "is_valid_dtype_64", 1, [](Word& w, Generation) { w[12] = 0xAB; }},
              {"is_valid_tensor_tensor_arith", "is_valid_dtype_64", 2, [](Word& w, Generation) { w[12] = 0xBA; }},
              {"is_valid_tensor_tensor_arith",
               "is_valid_enum(AluOp)",
               0,
               [](Word& w, Generation) { w[14] = 0x1E; },
               {"s3s3d3_tt_valid_op"},
               "s3s3d3_tt_valid_op accepts only ALU ops of the generation"},
              {"is_valid_tensor_tensor_arith", "s3s3d3_tt_valid_op", 0,
               [](Word& w, Generation) { w[14] = aluop::kDivide; }},
              {"is_valid_tensor_tensor_arith", "s3s3d3_tt_valid_int_signness", 0,
               [](Word& w, Generation) { w[14] = aluop::kMod; }},
              {"is_valid_tensor_tensor_arith",
               "start_addr_active_channels",
               0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[16], partition1(g) + 0x1000); },
               {"tt_valid_partitions"},
               "with 128 channels only partition 0 passes, and src0 away from src1's partition 0 breaks the SBUF "
               "pairing"},
              {"is_valid_tensor_tensor_arith",
               "start_addr_active_channels",
               1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[32], partition1(g) + 0x2000); },
               {"tt_valid_partitions"},
               "with 128 channels only partition 0 passes, and src1 away from src0's partition 0 breaks the SBUF "
               "pairing"},
              {"is_valid_tensor_tensor_arith", "start_addr_active_channels", 2,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[48], partition1(g) + 0x3000); }},
              {"is_valid_tensor_tensor_arith", "tensor3d_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x1002); }},
              {"is_valid_tensor_tensor_arith", "tensor3d_valid", 1,
               [](Word& w, Generation) { store_le<uint32_t>(&w[32], 0x2002); }},
              {"is_valid_tensor_tensor_arith", "tensor3d_valid", 2,
               [](Word& w, Generation) { store_le<uint32_t>(&w[48], 0x3002); }},
              {"is_valid_tensor_tensor_arith", "s3s3d3_tt_same_src0_dst_count", 0,
               [](Word& w, Generation) { store_le<uint16_t>(&w[26], 63); }},
              {"is_valid_tensor_tensor_arith", "s3s3d3_tt_same_src1_dst_count", 0,
               [](Word& w, Generation) { store_le<uint16_t>(&w[42], 63); }},
              {"is_valid_tensor_tensor_arith", "check_active_channels", 0, [](Word& w, Generation) { w[15] = 0; }},
              {"is_valid_tensor_tensor_arith", "tt_valid_partitions", 0,
               [](Word& w, Generation g) {
                 w[15] = 64;
                 store_le<uint32_t>(&w[32], partition1(g) + 0x2000);
               }},
              // ---- MEMSET (§12.2, PROJ-CONV-F21) ----
              {"is_valid_memset", "d4_mr_reserved_zero", 0, [](Word& w, Generation) { w[12] = 1; }},
              {"is_valid_memset",
               "is_valid_dtype",
               0,
               [](Word& w, Generation) { w[32] = dtype::kUint64; },
               {"memset_set_value_type"},
               "memset_set_value_type accepts only 8/16/32-bit dtypes; UINT64 fails both"},
              {"is_valid_memset", "memset_set_value_type", 0, [](Word& w, Generation) { w[32] = dtype::kFp16; }},
              {"is_valid_memset", "d4_mr_zero_serialization", 0, [](Word& w, Generation) { w[36] = 1; }},
              {"is_valid_memset", "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }},
              {"is_valid_memset", "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition1(g) + 0x4600); }},
              {"is_valid_memset", "tensor4d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x4602); }},
              {"is_valid_memset", "d4_mr_dst_element_count", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[28], 63); }},
              // ---- Engine placement (PROJ-CONV-F1): the same word, issued from the PE stream ----
              {"is_valid_copy", "engine_placement", 0, [](Word&, Generation) {}, {}, {}, false, StreamEngine::Pe},
              {"is_valid_cast", "engine_placement", 0, [](Word&, Generation) {}, {}, {}, false, StreamEngine::Sp},
              {"is_valid_tensor_tensor_arith",
               "engine_placement",
               0,
               [](Word&, Generation) {},
               {},
               {},
               false,
               StreamEngine::Pe},
              {"is_valid_memset", "engine_placement", 0, [](Word&, Generation) {}, {}, {}, false, StreamEngine::Sp},
          },
      .exempt =
          {
              {"is_valid_copy", "has_copy_opcode", "dispatch selects it by opcode 0x46"},
              {"is_valid_cast", "has_cast_opcode", "dispatch selects it by opcode 0x47"},
              {"is_valid_tensor_tensor_arith", "has_tensor_tensor_arith_opcode", "dispatch selects it by opcode 0x41"},
              {"is_valid_tensor_tensor_arith", "s3s3d3_tt_dtype", "its body binds the bitvec sibling 0x51 only"},
              {"is_valid_tensor_tensor_arith", "s3s3d3_tt_src_dst_dtype",
               "its body binds the bitvec sibling 0x51 only"},
              {"is_valid_memset", "has_memset_opcode", "dispatch selects it by opcode 0x49"},
          },
      .vector_covered = {"is_valid_copy", "is_valid_cast", "is_valid_tensor_tensor_arith", "is_valid_memset"},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

std::string failing_names(const Verdict& v) {
  std::string s;
  for (const Predicate* p : v.failures()) s += (s.empty() ? "" : ", ") + std::string(p->name);
  return s.empty() ? "(none)" : s;
}

/// tt_valid_partitions' literal reading of addresses_in_same_sbuf_quadrant (PROJ-CONV-C17): two SBUF operands pass
/// only in one and the same quadrant-base partition (0, 32, 64 or 96). One active channel, so no start check
/// interferes; the full verdict and the raw-word acceptor must agree on every case.
TEST(ValidatePredicates, TtPartitionsAcceptOnlyOneQuadrantBasePartition) {
  struct Case {
    unsigned src0, src1;
    bool valid;
  };
  const Case cases[] = {{0, 0, true},    {32, 32, true},  {64, 64, true}, {96, 96, true},   {33, 33, false},
                        {31, 31, false}, {32, 64, false}, {96, 0, false}, {127, 127, false}};
  for (Generation g : kAllGenerations) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(to_string(g)) + " src0 partition " + std::to_string(c.src0) + ", src1 partition " +
                   std::to_string(c.src1));
      Word w = tt_word();
      w[15] = 1;
      store_le<uint32_t>(&w[16], partition1(g) * c.src0 + 0x1000);
      store_le<uint32_t>(&w[32], partition1(g) * c.src1 + 0x2000);
      const Verdict v = validate(decode(std::span<const uint8_t, kWordBytes>(w), g), g);
      EXPECT_EQ(v.valid, c.valid) << failing_names(v);
      if (!c.valid) {
        EXPECT_EQ(failing_names(v), "tt_valid_partitions");
      }
      EXPECT_EQ(fast_accepts(std::span<const uint8_t, kWordBytes>(w), g), c.valid);
    }
  }
}

}  // namespace
}  // namespace tpbisa::test::datapath_cases
