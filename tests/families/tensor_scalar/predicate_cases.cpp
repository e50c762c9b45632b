// The tensor-scalar family's cases for the generic predicate tests: baselines, failing-only mutations, exemptions and
// the EXPONENTIAL generation gate (PROJ-CONV-K19).
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::tensor_scalar_cases {
namespace {

constexpr uint32_t kTwo = 0x40000000, kOne = 0x3F800000;

void set_tensor3d(Word& w, unsigned at, uint32_t start, uint16_t n) {
  store_le<uint32_t>(&w[at], start);
  const int16_t steps[3] = {1, 0, 0};
  const uint16_t nums[3] = {n, 1, 1};
  for (unsigned k = 0; k < 3; ++k) {
    store_le<int16_t>(&w[at + 4 + 2 * k], steps[k]);
    store_le<uint16_t>(&w[at + 10 + 2 * k], nums[k]);
  }
}

/// S3D3_TS: src sbuf p0+0x0 and dst p0+0x1000, 64 FP32 elements, 128 channels, MULT 2.0 then ADD 1.0, inline.
Word ts_word(uint8_t opcode, uint8_t cmd = 0) {
  Word w{};
  set_header(w, opcode);
  w[12] = cmd;
  set_tensor3d(w, 16, 0x0, 64);
  w[32] = dtype::kFp32;
  w[33] = dtype::kFp32;
  w[34] = 128;
  w[36] = aluop::kMult;
  w[37] = aluop::kAdd;
  store_le<uint32_t>(&w[40], kTwo);
  store_le<uint32_t>(&w[44], kOne);
  set_tensor3d(w, 48, 0x1000, 64);
  return w;
}

Word ts_base() {
  return ts_word(0x43);
}
/// The PTR form: both immediates pointers to sbuf p0+0x2000 and +0x2004.
Word ptr_base() {
  Word w = ts_word(0x44);
  store_le<uint32_t>(&w[40], 0x2000);
  store_le<uint32_t>(&w[44], 0x2004);
  return w;
}
Word reduce_base() {
  Word w = ts_word(0x9A, 3);
  store_le<uint32_t>(&w[44], 0);
  return w;
}
Word cumulative_base() {
  Word w = reduce_base();
  w[0] = 0xE6;
  return w;
}
/// EXPONENTIAL (valid on MARIANA and MAVERICK): ZERO_ACCUMULATE, BYPASS/BYPASS, max_value 1.0.
Word exp_base() {
  Word w = ts_word(0x30, 3);
  w[36] = aluop::kBypass;
  w[37] = aluop::kBypass;
  store_le<uint32_t>(&w[40], kOne);
  store_le<uint32_t>(&w[44], 0);
  return w;
}
/// DVE_READ_ACCUMULATOR: one FP32 element per channel at sbuf p0+0x3000, 128 channels.
Word rd_base() {
  Word w{};
  set_header(w, 0x9B);
  store_le<uint32_t>(&w[28], 1);
  w[32] = dtype::kFp32;
  w[34] = 128;
  store_le<uint32_t>(&w[44], 0x3000);
  store_le<int16_t>(&w[48], 1);
  store_le<uint16_t>(&w[50], 1);
  return w;
}

/// A bit-vector form of the word (opcode 0x53 / 0x54): UINT32, BITWISE_AND 0x0F then BITWISE_OR 0x100 (pointers kept).
void make_bitvec(Word& w) {
  w[0] = w[0] == 0x44 ? 0x54 : 0x53;
  w[32] = dtype::kUint32;
  w[33] = dtype::kUint32;
  w[36] = aluop::kBitwiseAnd;
  w[37] = aluop::kBitwiseOr;
  if (w[0] == 0x53) {
    store_le<uint32_t>(&w[40], 0x0F);
    store_le<uint32_t>(&w[44], 0x100);
  }
}

constexpr std::string_view kTensorChkWhy = "tensor_scalar_tensor_chk contains tensor3d_valid of src and dst";

/// The conjuncts every S3D3_TS validator shares: channels, starts, patterns, the tensor check, reserved bytes,
/// out_dtype.
void add_shared(std::vector<FailCase>& out, std::string_view v) {
  out.push_back({v, "tensor_scalar_tensor_chk", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[58], 32); }});
  out.push_back({v, "is_valid_dtype", 1, [](Word& w, Generation) { w[33] = dtype::kUint64; }});
  out.push_back({v, "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }});
  out.push_back({v, "has_valid_active_channel_range_with_tile", 0, [](Word& w, Generation) { w[34] = 0; }});
  out.push_back(
      {v, "start_addr_active_channels", 0, [](Word& w, Generation g) { store_le<uint32_t>(&w[16], partition1(g)); }});
  out.push_back({v, "start_addr_active_channels", 1,
                 [](Word& w, Generation g) { store_le<uint32_t>(&w[48], partition1(g) | 0x1000); }});
  out.push_back({v,
                 "tensor3d_valid",
                 0,
                 [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x2); },
                 {"tensor_scalar_tensor_chk"},
                 kTensorChkWhy});
  out.push_back({v,
                 "tensor3d_valid",
                 1,
                 [](Word& w, Generation) { store_le<uint32_t>(&w[48], 0x1002); },
                 {"tensor_scalar_tensor_chk"},
                 kTensorChkWhy});
}

/// The conjuncts of is_valid_tensor_scalar_op and is_valid_tensor_scalar_ptr_op.
void add_tensor_scalar(std::vector<FailCase>& out, std::string_view v) {
  add_shared(out, v);
  out.push_back({v, "tensor_scalar_valid_ops", 0, [](Word& w, Generation) { w[36] = aluop::kDivide; }});
  out.push_back({v, "tensor_scalar_valid_types", 0, [](Word& w, Generation) {
                   make_bitvec(w);
                   w[33] = dtype::kUint16;
                 }});
  out.push_back({v, "tensor_scalar_shift_chk", 0, [](Word& w, Generation) {
                   make_bitvec(w);
                   w[32] = w[33] = dtype::kUint16;
                   w[36] = aluop::kLogicalShiftLeft;
                   w[37] = aluop::kLogicalShiftRight;
                   if (w[0] == 0x53) store_le<uint32_t>(&w[44], 1);
                 }});
  out.push_back({v, "tensor_scalar_reverse_chk", 0, [](Word& w, Generation) { w[38] = 4; }});
  out.push_back({v, "s3d3_ts_reserved_zero", 0, [](Word& w, Generation) { w[13] = 1; }});
  out.push_back({v, "is_valid_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kFp32r; }});
  out.push_back({v,
                 "is_valid_aluop",
                 0,
                 [](Word& w, Generation) { w[36] = 0x1E; },
                 {"tensor_scalar_valid_ops"},
                 "tensor_scalar_valid_ops starts with is_valid_enum of op0 and op1 (alu-ops.md §5.2)"});
  out.push_back({v,
                 "is_valid_aluop",
                 1,
                 [](Word& w, Generation) { w[37] = 0x1E; },
                 {"tensor_scalar_valid_ops"},
                 "tensor_scalar_valid_ops starts with is_valid_enum of op0 and op1 (alu-ops.md §5.2)"});
  out.push_back({v, "has_zero_accum_cmd_field", 0, [](Word& w, Generation) { w[12] = 3; }});
}

/// The conjuncts of the two cache validators.
void add_cache(std::vector<FailCase>& out, std::string_view v) {
  add_shared(out, v);
  constexpr std::string_view kOpsWhy = "tensor_scalar_cache_reduce_valid_ops starts with is_valid_enum of op0 and op1";
  constexpr std::string_view kTypesWhy = "every in_dtype the cache types accept passes is_valid_dtype";
  out.push_back({v, "tensor_scalar_cache_reduce_valid_ops", 0, [](Word& w, Generation) { w[37] = aluop::kBypass; }});
  out.push_back({v, "tensor_scalar_cache_reduce_valid_types", 0, [](Word& w, Generation) { w[32] = dtype::kInt32; }});
  out.push_back({v, "tensor_scalar_cache_reduce_immediates_check", 0,
                 [](Word& w, Generation) { store_le<uint32_t>(&w[44], kOne); }});
  out.push_back({v, "tensor_scalar_cache_reduce_reverse_chk", 0, [](Word& w, Generation) { w[38] = 1; }});
  out.push_back({v, "s3d3_ts_reserved_zero", 0, [](Word& w, Generation) { w[15] = 1; }});
  out.push_back({v, "has_valid_tensor_scalar_cache_reduce_accum_cmd", 0, [](Word& w, Generation) { w[12] = 0; }});
  out.push_back({v,
                 "is_valid_dtype",
                 0,
                 [](Word& w, Generation) { w[32] = dtype::kFp32r; },
                 {"tensor_scalar_cache_reduce_valid_types"},
                 kTypesWhy});
  out.push_back({v,
                 "is_valid_aluop",
                 0,
                 [](Word& w, Generation) { w[36] = 0x1E; },
                 {"tensor_scalar_cache_reduce_valid_ops"},
                 kOpsWhy});
  out.push_back({v,
                 "is_valid_aluop",
                 1,
                 [](Word& w, Generation) { w[37] = 0x1E; },
                 {"tensor_scalar_cache_reduce_valid_ops"},
                 kOpsWhy});
}

PredicateCases family_cases() {
  std::vector<FailCase> fails;
  add_tensor_scalar(fails, "is_valid_tensor_scalar_op");
  fails.push_back(
      {"is_valid_tensor_scalar_op", "tensor_scalar_immediates_check", 0, [](Word& w, Generation) { w[35] = 3; }});
  fails.push_back({"is_valid_tensor_scalar_op", "s3d3_transpose_check", 0, [](Word& w, Generation) {
                     w[0] = 0x93;
                     w[34] = 2;
                   }});
  add_tensor_scalar(fails, "is_valid_tensor_scalar_ptr_op");
  fails.push_back(
      {"is_valid_tensor_scalar_ptr_op", "tensor_scalar_ptr_imm_src", 0, [](Word& w, Generation) { w[35] = 1; }});
  fails.push_back({"is_valid_tensor_scalar_ptr_op", "tensor_scalar_ptr_immediates", 0,
                   [](Word& w, Generation) { store_le<uint32_t>(&w[40], 0x2002); }});
  add_cache(fails, "is_valid_tensor_scalar_cache_reduce");
  add_cache(fails, "is_valid_tensor_scalar_cache_cumulative");

  constexpr std::string_view e = "is_valid_exponential";
  add_shared(fails, e);
  fails.push_back({e, "is_valid_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kFp32r; }});
  fails.push_back({e, "tensor_scalar_immediates_check", 0, [](Word& w, Generation) { w[35] = 3; }});
  fails.push_back({e, "has_valid_exponential_accum_cmd", 0, [](Word& w, Generation) { w[12] = 1; }});
  fails.push_back({e, "has_valid_exponential_num_elements", 0, [](Word& w, Generation) {
                     w[32] = dtype::kFp16;
                     store_le<uint16_t>(&w[26], 3);
                     store_le<uint16_t>(&w[58], 3);
                   }});
  fails.push_back({e, "has_valid_exponential_ops", 0, [](Word& w, Generation) { w[36] = aluop::kAdd; }});
  fails.push_back({e, "s3d3_ts_exponential_unused_fields", 0, [](Word& w, Generation) { w[14] = 1; }});

  constexpr std::string_view r = "is_valid_dve_read_accumulator";
  fails.push_back({r, "d1_rd_reserved_zero", 0, [](Word& w, Generation) { w[13] = 1; }});
  fails.push_back({r, "dve_read_accumulator_type_check", 0, [](Word& w, Generation) { w[32] = dtype::kInt32; }});
  fails.push_back({r, "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }});
  fails.push_back(
      {r, "start_addr_active_channels", 0, [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition1(g)); }});
  fails.push_back({r, "tensor1d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x3002); }});
  fails.push_back({r, "read_accumulator_dst_size", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[28], 2); }});
  fails.push_back({r, "d1_rd_has_valid_negated_field", 0, [](Word& w, Generation) { w[33] = 2; }});

  return {
      .baselines =
          {
              {"is_valid_tensor_scalar_op", ts_base},
              {"is_valid_tensor_scalar_ptr_op", ptr_base},
              {"is_valid_tensor_scalar_cache_reduce", reduce_base},
              {"is_valid_tensor_scalar_cache_cumulative", cumulative_base},
              {"is_valid_exponential", exp_base},
              {"is_valid_dve_read_accumulator", rd_base},
          },
      .fail_cases = std::move(fails),
      .exempt =
          {
              {"is_valid_tensor_scalar_op", "has_tensor_scalar_opcode", "dispatch selects it by 0x43/0x53/0x93"},
              {"is_valid_tensor_scalar_ptr_op", "has_tensor_scalar_ptr_opcode", "dispatch selects it by 0x44/0x54"},
              {"is_valid_tensor_scalar_cache_reduce", "has_tensor_cache_reduce_opcode", "dispatch selects it by 0x9A"},
              {"is_valid_tensor_scalar_cache_cumulative", "has_tensor_cache_cumulative_opcode",
               "dispatch selects it by 0xE6"},
              {"is_valid_exponential", "has_exponential_opcode", "dispatch selects it by 0x30"},
              {"is_valid_dve_read_accumulator", "has_dve_read_accumulator_opcode", "dispatch selects it by 0x9B"},
          },
      .gen_gates = {{"is_valid_exponential", "exponential_gen_check", GenSet{0x03},
                     "EXPONENTIAL has no validator on sunda and cayman (PROJ-CONV-K19)"}},
      .vector_covered = {"is_valid_tensor_scalar_op", "is_valid_tensor_scalar_ptr_op",
                         "is_valid_tensor_scalar_cache_reduce", "is_valid_tensor_scalar_cache_cumulative",
                         "is_valid_exponential", "is_valid_dve_read_accumulator"},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::tensor_scalar_cases
