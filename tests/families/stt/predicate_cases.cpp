// The stt family's cases for the generic predicate tests: baselines, failing-only mutations and exemptions.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::stt_cases {
namespace {

// The spec's example words (alu-ops.md §6.2-§6.5): CAYMAN-valid and valid on every generation.
constexpr std::string_view kStt =
    "9d100000000000000000000000000000010000000400010000010000010000000400010006040000aa0a020a0000000000020000010000000"
    "400010000000040";
constexpr std::string_view kScan =
    "e5100000000000000000000000000000010000000400010000010000010000000400010006040000aa0a020a0000000000020000010000000"
    "400010000000000";
constexpr std::string_view kSelectReduce =
    "ea100000000000000000000000000000010000000400010000010000010000000400010000080000a30a020a0300000000020000010000000"
    "4000100000080bf";
constexpr std::string_view kSelect =
    "9810000000000000000000000000000000000000010000000000040001000100"
    "00020a0900000000000000000100000000010000010000000000040001000100";

// S2S2D2_STT bytes (alu-ops.md §6.1).
constexpr unsigned kSrc0 = 12, kSrc1 = 24, kOp0 = 36, kOp1 = 37, kRev = 38, kImmSrc = 39, kPair = 40, kOut = 41,
                   kNac = 42, kImmDtype = 43, kAcc = 44, kDst = 48, kImm = 60;

uint32_t partition(Generation g, unsigned p) {
  return p * partition1(g);
}

/// The mutations every S2S2D2_STT validator shares, for validator `v` whose op-validity predicate is `op_pred`.
std::vector<FailCase> stt_common(std::string_view v, std::string_view op_pred) {
  return {
      {v, "is_valid_dtype", 1, [](Word& w, Generation) { w[kPair] = static_cast<uint8_t>((w[kPair] & 0x0F) | 0x10); }},
      {v, "is_valid_dtype", 2,
       [](Word& w, Generation) {  // a register scalar: imm0_dtype is then free of s2s2d2_stt_imm0_dtype
         w[kImmDtype] = dtype::kFp32r;
         w[kImmSrc] = 2;
         store_le<uint32_t>(&w[kImm], 0);
       }},
      {v, "is_valid_dtype", 3, [](Word& w, Generation) { w[kOut] = dtype::kUint64; }},
      {v, "s2s2d2_stt_imm0_dtype", 0, [](Word& w, Generation) { w[kImmDtype] = dtype::kBfloat16; }},
      {v,
       "is_valid_enum(AluOp)",
       0,
       [](Word& w, Generation) { w[kOp0] = 0x1E; },
       {op_pred},
       "the op predicates start with is_general_arith_op / is_general_bitvec_op, which no op outside the enum is"},
      {v,
       "is_valid_enum(AluOp)",
       1,
       [](Word& w, Generation) { w[kOp1] = 0x1E; },
       {op_pred},
       "the op predicates start with is_general_arith_op / is_general_bitvec_op, which no op outside the enum is"},
      {v, "has_valid_s2s2d2_stt_immediate", 0,
       [](Word& w, Generation) {
         w[kImmSrc] = 2;
         store_le<uint32_t>(&w[kImm], 0x40000000);  // r0 with a reserved byte set
       }},
      {v, "start_addr_active_channels", 0,
       [](Word& w, Generation g) {
         store_le<uint32_t>(&w[kSrc0], partition(g, 127));
         store_le<uint32_t>(&w[kSrc1], 0x80000000);  // a register start: tt_valid_partitions holds
       }},
      {v, "start_addr_active_channels", 1,
       [](Word& w, Generation g) {
         store_le<uint32_t>(&w[kSrc1], partition(g, 127));
         store_le<uint32_t>(&w[kSrc0], 0x80000000);
       }},
      {v, "start_addr_active_channels", 2,
       [](Word& w, Generation g) { store_le<uint32_t>(&w[kDst], partition(g, 127)); }},
      {v, "tensor2d_valid", 1, [](Word& w, Generation) { store_le<uint32_t>(&w[kSrc1], 0x102); }},
      {v, "tensor2d_valid", 2, [](Word& w, Generation) { store_le<uint32_t>(&w[kDst], 0x202); }},
      {v, "check_active_channels", 0, [](Word& w, Generation) { w[kNac] = 0; }},
      {v, "s2s2d2_stt_src_element_cnt_check", 0, [](Word& w, Generation) { w[kSrc1 + 8] = 3; }},
      {v, "s2s2d2_stt_dst_element_cnt_check", 0, [](Word& w, Generation) { w[kDst + 8] = 3; }},
      {v, "tt_valid_partitions", 0,
       [](Word& w, Generation g) { store_le<uint32_t>(&w[kSrc1], partition(g, 1) + 0x100); }},
      {v, "has_s2s2d2_stt_reserved_zero", 0, [](Word& w, Generation) { w[45] = 1; }},
  };
}

/// The cases of the arithmetic-path S2S2D2_STT validators whose src0 is FP32 (0x9D, 0xE5).
std::vector<FailCase> fp_src0(std::string_view v) {
  return {
      {v, "is_valid_dtype", 0, [](Word& w, Generation) { w[kPair] = static_cast<uint8_t>((w[kPair] & 0xF0) | 0x01); }},
      {v, "tensor2d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[kSrc0], 0x2); }},
      {v, "is_valid_enum(TensScalarRevOps)", 0, [](Word& w, Generation) { w[kRev] = 4; }},
  };
}

PredicateCases family_cases() {
  PredicateCases out{
      .baselines =
          {
              {"is_valid_scalar_tensor_tensor", [] { return hex_word(kStt); }},
              {"is_valid_tensor_tensor_scan", [] { return hex_word(kScan); }},
              {"is_valid_select_reduce", [] { return hex_word(kSelectReduce); }},
              {"is_valid_tensor_scalar_select", [] { return hex_word(kSelect); }},
          },
      .fail_cases =
          {
              // ---- ScalarTensorTensor 0x9D / 0x9E ----
              {"is_valid_scalar_tensor_tensor", "has_valid_scalar_tensor_tensor_dtypes", 0,
               [](Word& w, Generation) {  // 0x9E on FP32: every dtype equal, none an integer
                 w[0] = 0x9E;
                 w[kOp0] = aluop::kBitwiseAnd;
                 w[kOp1] = aluop::kBitwiseXor;
               }},
              {"is_valid_scalar_tensor_tensor", "s2s2d2_stt_src_dst_dtype", 0,
               [](Word& w, Generation) {  // 0x9E on integers that differ
                 w[0] = 0x9E;
                 w[kOp0] = aluop::kBitwiseAnd;
                 w[kOp1] = aluop::kBitwiseXor;
                 w[kPair] = 0x99;
                 w[kOut] = dtype::kUint32;
                 w[kImmDtype] = dtype::kInt32;
               }},
              {"is_valid_scalar_tensor_tensor", "has_valid_scalar_tensor_tensor_op", 0,
               [](Word& w, Generation) { w[kOp0] = aluop::kDivide; }},
              {"is_valid_scalar_tensor_tensor", "has_valid_s2s2d2_stt_accum_cmd", 0,
               [](Word& w, Generation) { w[kAcc] = 4; }},
              {"is_valid_scalar_tensor_tensor", "s2s2d2_stt_quadrant_check", 0,
               [](Word& w, Generation g) {  // a pointer scalar in partition 32, src0 in partition 0 (PROJ-CONV-K14)
                 w[kImmSrc] = 1;
                 store_le<uint32_t>(&w[kImm], partition(g, 32));
               }},
              // ---- TensorTensorScan 0xE5 ----
              {"is_valid_tensor_tensor_scan", "has_valid_tensor_tensor_scan_op", 0,
               [](Word& w, Generation) { w[kOp1] = aluop::kDivide; }},
              {"is_valid_tensor_tensor_scan", "has_zero_accum_cmd", 0, [](Word& w, Generation) { w[kAcc] = 2; }},
              // ---- SelectReduce 0xEA (predicate UINT8, data FP32) ----
              {"is_valid_select_reduce",
               "is_valid_dtype",
               0,
               [](Word& w, Generation) { w[kPair] = static_cast<uint8_t>((w[kPair] & 0xF0) | 0x01); },
               {"has_valid_select_reduce_dtypes"},
               "the predicate dtype must be an 8/16/32-bit integer, which no invalid dtype is"},
              {"is_valid_select_reduce", "tensor2d_valid", 0,
               [](Word& w, Generation) {  // a UINT32 predicate (every UINT8 address is aligned), misaligned
                 w[kPair] = static_cast<uint8_t>((w[kPair] & 0xF0) | dtype::kUint32);
                 store_le<uint32_t>(&w[kSrc0], 0x2);
               }},
              {"is_valid_select_reduce", "has_valid_select_reduce_dtypes", 0,
               [](Word& w, Generation) { w[kPair] = static_cast<uint8_t>((dtype::kInt32 << 4) | dtype::kUint8); }},
              {"is_valid_select_reduce", "has_valid_select_reduce_op", 0,
               [](Word& w, Generation) { w[kOp1] = aluop::kMin; }},
              {"is_valid_select_reduce", "has_valid_s2s2d2_cpr_accum_cmd", 0, [](Word& w, Generation) { w[kAcc] = 4; }},
              {"is_valid_select_reduce", "has_valid_select_reduce_rev_ops", 0,
               [](Word& w, Generation) { w[kRev] = 2; }},
              {"is_valid_select_reduce",
               "is_valid_enum(TensScalarRevOps)",
               0,
               [](Word& w, Generation) { w[kRev] = 4; },
               {"has_valid_select_reduce_rev_ops"},
               "SELECT_REDUCE accepts NONE and FIRST only, so a value outside the enum fails both"},
              // ---- TensorScalarSelect 0x98 (S3D3_TS_SELECT) ----
              {"is_valid_tensor_scalar_select", "s3d3_ts_select_reserved_zero", 0,
               [](Word& w, Generation) { w[36] = 1; }},
              {"is_valid_tensor_scalar_select", "is_valid_dtype", 0,
               [](Word& w, Generation) { w[34] = dtype::kFp32r; }},
              {"is_valid_tensor_scalar_select", "is_valid_int_dtype_datapath", 0,
               [](Word& w, Generation) { w[35] = dtype::kFp32; }},
              {"is_valid_tensor_scalar_select", "has_same_imm_dtype_width", 0,
               [](Word& w, Generation) { w[35] = dtype::kUint16; }},
              {"is_valid_tensor_scalar_select", "has_valid_reversed_pred", 0, [](Word& w, Generation) { w[32] = 2; }},
              {"is_valid_tensor_scalar_select", "is_valid_enum(ImmSrc)", 0, [](Word& w, Generation) { w[38] = 3; }},
              {"is_valid_tensor_scalar_select", "is_valid_enum(ImmSrc)", 1, [](Word& w, Generation) { w[39] = 3; }},
              {"is_valid_tensor_scalar_select", "has_valid_immediates", 0,
               [](Word& w, Generation) {
                 w[38] = 2;
                 store_le<uint32_t>(&w[40], 0x100);  // r0 with a reserved byte set
               }},
              {"is_valid_tensor_scalar_select", "has_valid_immediates", 1,
               [](Word& w, Generation) {
                 w[39] = 2;
                 store_le<uint32_t>(&w[44], 0x100);
               }},
              {"is_valid_tensor_scalar_select", "has_valid_pred_inst_imm_value", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[44], 2); }},
              {"is_valid_tensor_scalar_select", "has_valid_active_channel_range", 0,
               [](Word& w, Generation) { w[33] = 0; }},
              {"is_valid_tensor_scalar_select", "has_valid_active_channel_range_with_tile", 0,
               [](Word& w, Generation) { w[33] = 0; }},
              {"is_valid_tensor_scalar_select", "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[16], partition(g, 127)); }},
              {"is_valid_tensor_scalar_select", "start_addr_active_channels", 1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[48], partition(g, 127)); }},
              {"is_valid_tensor_scalar_select", "tensor3d_valid", 0,
               [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x2); }},
              {"is_valid_tensor_scalar_select", "tensor3d_valid", 1,
               [](Word& w, Generation) { store_le<uint32_t>(&w[48], 0x102); }},
              {"is_valid_tensor_scalar_select", "same_element_count_t3d", 0, [](Word& w, Generation) { w[60] = 3; }},
          },
      .exempt =
          {
              {"is_valid_scalar_tensor_tensor", "has_scalar_tensor_tensor_opcode", "dispatch selects it by 0x9D/0x9E"},
              {"is_valid_tensor_tensor_scan", "has_tensor_tensor_scan_opcode", "dispatch selects it by 0xE5"},
              {"is_valid_select_reduce", "has_select_reduce_opcode", "dispatch selects it by 0xEA"},
              {"is_valid_tensor_scalar_select", "has_tensor_scalar_select_opcode", "dispatch selects it by 0x98"},
          },
      .vector_covered = {"is_valid_scalar_tensor_tensor", "is_valid_tensor_tensor_scan", "is_valid_select_reduce",
                         "is_valid_tensor_scalar_select"},
  };
  for (auto [v, op] : {std::pair<std::string_view, std::string_view>{"is_valid_scalar_tensor_tensor",
                                                                     "has_valid_scalar_tensor_tensor_op"},
                       {"is_valid_tensor_tensor_scan", "has_valid_tensor_tensor_scan_op"},
                       {"is_valid_select_reduce", "has_valid_select_reduce_op"}}) {
    const std::vector<FailCase> common = stt_common(v, op);
    out.fail_cases.insert(out.fail_cases.end(), common.begin(), common.end());
  }
  for (std::string_view v : {"is_valid_scalar_tensor_tensor", "is_valid_tensor_tensor_scan"}) {
    const std::vector<FailCase> fp = fp_src0(v);
    out.fail_cases.insert(out.fail_cases.end(), fp.begin(), fp.end());
  }
  return out;
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::stt_cases
