// Every predicate of every validator has, per generation, a word passing it and one failing only it (or an exemption).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../support/validate_vectors.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/validate.hpp"

#include "../support/seq_words.hpp"

namespace tpbisa {
namespace {

// ---- Baseline words (edge-cases.md §0), built byte by byte at the spec's offsets ----

void set_header(Word& w, uint8_t opcode) {
  w[0] = opcode;
  w[1] = 16;
}

/// TL / TS / PTL / PTS: dtype UINT32, num {4,1}, start 0x1000 (or var_id 1, var_offset 0), step {1,0},
/// data.registers [0, 1, 2, 3, 0...].
Word mem2d_word(uint8_t opcode, bool pseudo) {
  Word w{};
  set_header(w, opcode);
  w[12] = dtype::kUint32;
  w[13] = 0;
  w[14] = 4;
  w[15] = 1;
  if (pseudo) {
    store_le<uint32_t>(&w[16], 1);
    store_le<uint32_t>(&w[20], 0);
  } else {
    store_le<uint64_t>(&w[16], 0x1000);
  }
  store_le<int32_t>(&w[24], 1);
  store_le<int32_t>(&w[28], 0);
  for (uint8_t k = 0; k < 4; ++k) w[32 + k] = k;
  return w;
}

/// IL / MVL / BNPL: FP32, src TENSOR2D start 0, step {1,0}, 128 channels.
Word s2bn_word(uint8_t opcode, uint16_t n0, uint32_t imm1, uint32_t imm0_ptr, uint8_t imm0_src) {
  Word w{};
  set_header(w, opcode);
  store_le<uint32_t>(&w[16], 0);
  store_le<int16_t>(&w[20], 1);
  store_le<int16_t>(&w[22], 0);
  store_le<uint16_t>(&w[24], n0);
  store_le<uint16_t>(&w[26], 1);
  store_le<uint32_t>(&w[28], imm1);
  w[32] = dtype::kFp32;
  w[34] = 128;
  store_le<uint32_t>(&w[44], imm0_ptr);
  w[48] = imm0_src;
  return w;
}

void set_tensor4d(Word& w, unsigned at, uint32_t start, uint16_t w_count) {
  store_le<uint32_t>(&w[at], start);
  const int16_t steps[4] = {1, 8, 8, 8};
  const uint16_t nums[4] = {8, 1, 1, w_count};
  for (unsigned k = 0; k < 4; ++k) {
    store_le<int16_t>(&w[at + 4 + 2 * k], steps[k]);
    store_le<uint16_t>(&w[at + 12 + 2 * k], nums[k]);
  }
}

/// PM: src {8,1,1,4} at 0, dst the same shape at 0x1000, FP32 -> FP32, 128 channels, ADD, XYZ, reverse None.
Word pm_word(uint8_t opcode) {
  Word w{};
  set_header(w, opcode);
  set_tensor4d(w, 12, 0x0, 4);
  w[32] = dtype::kFp32;
  w[33] = dtype::kFp32;
  w[34] = 128;
  w[36] = aluop::kAdd;
  w[37] = 0x04;
  w[38] = 0;
  set_tensor4d(w, 44, 0x1000, 4);
  return w;
}

/// The PMB fields (in = out = UINT32, BITWISE_AND) on a given opcode.
void make_bitvec(Word& w, uint8_t opcode) {
  w[0] = opcode;
  w[32] = dtype::kUint32;
  w[33] = dtype::kUint32;
  w[36] = aluop::kBitwiseAnd;
}

Word engine_nop_word() {
  Word w{};
  set_header(w, 0x9F);  // ENGINE_NOP: operands not modeled, judged by the header-only validator
  return w;
}

/// CTRL_NO: a NOP (0xa4) with a zero body (sequencer.md §3.1).
Word ctrl_no_word() {
  Word w{};
  set_header(w, 0xA4);
  return w;
}

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

/// Sync family baselines: real words of matmul_small.neff (real-programs.md §3.4, §5, §6, §7.4), from their hex.
Word raw_hex_word(std::string_view hex) {
  Word w{};
  for (size_t i = 0; i < kWordBytes && 2 * i + 1 < hex.size(); ++i)
    w[i] = static_cast<uint8_t>(std::stoul(std::string(hex.substr(2 * i, 2)), nullptr, 16));
  return w;
}
Word es_word() {  // sg00/PE#02: wait S[24] >= 16
  return raw_hex_word("a0100000051800001000000000000000");
}
Word som_word() {  // every stream's record #0
  return raw_hex_word("b1100000");
}
Word label_word() {  // every stream's record #1
  return raw_hex_word("cc100000");
}
Word dma_word() {  // sg00/SP#02: identity rows into SBUF, FP16, 128 x 1 chunks of 256 bytes
  return raw_hex_word(
      "d410000000000000000000000008100000000000040000100001000001000000"
      "8000010000010000007b03000000001000000400010000008000010000010707");
}

// ---- Datapath family baselines (real-programs.md §10-§12) ----

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

/// Baseline word per validator name.
const std::map<std::string_view, Word (*)()>& baselines() {
  static const std::map<std::string_view, Word (*)()> m{
      {"header-only", [] { return engine_nop_word(); }},
      {"is_valid_ctrl_no", [] { return ctrl_no_word(); }},
      {"is_valid_tensor_load", [] { return mem2d_word(opcode::kTensorLoad, false); }},
      {"is_valid_tensor_store", [] { return mem2d_word(opcode::kTensorStore, false); }},
      {"is_valid_pseudo_tensor_load", [] { return mem2d_word(opcode::kPseudoTensorLoad, true); }},
      {"is_valid_pseudo_tensor_store", [] { return mem2d_word(opcode::kPseudoTensorStore, true); }},
      {"is_valid_tsm_immediates_load", [] { return s2bn_word(opcode::kImmLdArith, 4, 0, 0, 0); }},
      {"is_valid_batch_norm_param_load",
       [] { return s2bn_word(opcode::kBatchNormParamLoad, 3, 0x3F800000, 0x100, 1); }},
      {"is_valid_match_value_load", [] { return s2bn_word(opcode::kMatchValueLoad, 8, 0, 0, 0); }},
      {"is_valid_tensor_scalar_ptr_multi", [] { return pm_word(opcode::kPtrMultiArith); }},
      // 0x87 exists on SUNDA only, so this validator is reachable on SUNDA only.
      {"is_valid_tensor_scalar_ptr_multi_dual", [] { return pm_word(opcode::kPtrMultiDualArith); }},
      // ---- PE matmul: one validator per layout (SUNDA shares CAYMAN's) ----
      {"is_valid_ldweights", [] { return lw_word(false); }},
      {"is_valid_ldweights_mariana", [] { return lw_word(false); }},
      {"is_valid_ldweights_maverick", [] { return lw_word(true); }},
      {"is_valid_matmul", [] { return mm_word(false); }},
      {"is_valid_matmul_mariana", [] { return mm_word(false); }},
      {"is_valid_matmul_maverick", [] { return mm_word(true); }},
#include "validate_predicates_seq_baselines.inc"
      // Sync family.
      {"is_valid_ctrl_es", es_word},
      {"is_valid_set_ordering_mode", som_word},
      {"is_valid_pseudo_branch_label", label_word},
      {"is_valid_pseudo_dma_direct2d", dma_word},
      {"is_valid_copy", [] { return tr_word(opcode::kCopy); }},
      {"is_valid_cast", [] { return tr_word(opcode::kCast); }},
      {"is_valid_tensor_tensor_arith", [] { return tt_word(); }},
      {"is_valid_memset", [] { return mr_word(); }},
  };
  return m;
}

/// Start of SBUF partition 1 (memory-and-numerics.md §2: 256 KiB stride, 1 MiB on MAVERICK).
uint32_t partition1(Generation g) {
  return g == Generation::Maverick ? 0x100000U : 0x40000U;
}

// ---- Mutations: each makes exactly one predicate fail (or the stated companions too) ----

using Mutate = void (*)(Word&, Generation);

struct FailCase {
  std::string_view validator;  ///< validator name, "*" for every validator
  std::string_view predicate;
  unsigned occurrence;  ///< which of the conjuncts with this name (src/in = 0, dst/out = 1)
  Mutate mutate;
  /// Other predicates that necessarily fail with it, and why (empty: it fails alone).
  std::vector<std::string_view> companions = {};
  std::string_view why_not_alone = {};
  bool strict_window = false;
  /// The stream engine the failing word is validated for (ValidateOptions::engine, PROJ-CONV-F1).
  std::optional<StreamEngine> engine = std::nullopt;
};

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

const std::vector<FailCase>& fail_cases() {
  static const std::vector<FailCase> cases{
      // Every validator starts with the header and events conjuncts.
      {"*", "has_valid_neuron_header", 0, [](Word& w, Generation) { w[1] = 15; }},
      {"*", "has_valid_neuron_events", 0, [](Word& w, Generation) { w[4] = 0x08; }},  // no WAIT_MODE 0x08

      // ---- CTRL_NO (PROJ-CONV-Q3) ----
      {"is_valid_ctrl_no", "ctrl_no_valid_notification", 0, [](Word& w, Generation) { w[39] = 2; }},
      {"is_valid_ctrl_no", "ctrl_no_reserved_zero", 0, [](Word& w, Generation) { w[12] = 1; }},

      // ---- TensorLoad ----
      {"is_valid_tensor_load", "mem2d_shared_constraints", 0, [](Word& w, Generation) { w[12] = dtype::kBfloat16; }},
      {"is_valid_tensor_load", "mem2d_datasrc_zero", 0, [](Word& w, Generation) { w[13] = 1; }},
      {"is_valid_tensor_load",
       "mem2d_32_elem_check",
       0,
       [](Word& w, Generation) { w[14] = 33; },
       {"mem2d_shared_constraints"},
       "mem2d_num_elem_check (inside mem2d_shared_constraints) also bounds the product by 32 (mem2d.md §5.3)"},
      {"is_valid_tensor_load", "mem2d_u64_register_check", 0,
       [](Word& w, Generation) { w[12] = dtype::kUint64; }},  // data holds odd registers 1 and 3
      {"is_valid_tensor_load", "valid_start_addr", 0, [](Word& w, Generation) { w[16] = 0x02; }},  // 0x1002
      {"is_valid_tensor_load",
       "mem2d_single_16mb_window",
       0,
       [](Word& w, Generation) {
         store_le<uint64_t>(&w[16], 0xFFFFFC);
         w[14] = 2;
       },
       {},
       {},
       /*strict_window=*/true},

      // ---- TensorStore ----
      {"is_valid_tensor_store", "mem2d_shared_constraints", 0, [](Word& w, Generation) { w[12] = dtype::kBfloat16; }},
      {"is_valid_tensor_store", "mem2d_datasrc_valid", 0, [](Word& w, Generation) { w[13] = 2; }},
      {"is_valid_tensor_store", "mem2d_store_num_elem_check", 0,
       [](Word& w, Generation) {
         w[13] = 1;  // immediates: UINT32 holds at most 8
         w[14] = 9;
       }},
      {"is_valid_tensor_store", "mem2d_u64_register_check", 0, [](Word& w, Generation) { w[12] = dtype::kUint64; }},
      {"is_valid_tensor_store", "valid_start_addr", 0, [](Word& w, Generation) { w[16] = 0x02; }},
      {"is_valid_tensor_store",
       "mem2d_single_16mb_window",
       0,
       [](Word& w, Generation) {
         store_le<uint64_t>(&w[16], 0xFFFFFC);
         w[14] = 2;
       },
       {},
       {},
       /*strict_window=*/true},

      // ---- PseudoTensorLoad / PseudoTensorStore (flat conjunctions) ----
      {"is_valid_pseudo_tensor_load", "mem2d_num_elem_check", 0, [](Word& w, Generation) { w[14] = 0; }},
      {"is_valid_pseudo_tensor_load", "pseudo_mem2d_dtype_check", 0,
       [](Word& w, Generation) { w[12] = dtype::kUint64; }},
      {"is_valid_pseudo_tensor_load", "mem2d_datasrc_zero", 0, [](Word& w, Generation) { w[13] = 1; }},
      {"is_valid_pseudo_tensor_load",
       "mem2d_32_elem_check",
       0,
       [](Word& w, Generation) { w[14] = 33; },
       {"mem2d_num_elem_check"},
       "mem2d_num_elem_check also bounds the product by 32 (mem2d.md §5.3)"},
      {"is_valid_pseudo_tensor_store", "mem2d_num_elem_check", 0, [](Word& w, Generation) { w[14] = 0; }},
      {"is_valid_pseudo_tensor_store", "pseudo_mem2d_dtype_check", 0,
       [](Word& w, Generation) { w[12] = dtype::kUint64; }},
      {"is_valid_pseudo_tensor_store", "mem2d_datasrc_valid", 0, [](Word& w, Generation) { w[13] = 2; }},
      {"is_valid_pseudo_tensor_store", "mem2d_store_num_elem_check", 0,
       [](Word& w, Generation) {
         w[13] = 1;
         w[14] = 9;
       }},

      // ---- TensorScalarImmLd ----
      {"is_valid_tsm_immediates_load", "has_tsm_immediates_load_src_element_cnt", 0,
       [](Word& w, Generation) { w[24] = 9; }},
      {"is_valid_tsm_immediates_load", "has_s2_bn_zero_immediates", 0,
       [](Word& w, Generation) { store_le<uint32_t>(&w[28], 0x3F800000); }},
      {"is_valid_tsm_immediates_load", "tsm_immld_dtypes", 0,
       [](Word& w, Generation) { w[0] = opcode::kImmLdBitvec; }},  // FP32 is not a Bitvec dtype
      {"is_valid_tsm_immediates_load",
       "is_valid_dtype",
       0,
       [](Word& w, Generation) { w[32] = dtype::kFp32r; },
       {"tsm_immld_dtypes"},
       "every dtype failing is_valid_dtype is outside the stricter tsm_immld_dtypes whitelist (s2bn.md §3.2)"},
      {"is_valid_tsm_immediates_load", "check_active_channels", 0, [](Word& w, Generation) { w[34] = 0; }},
      {"is_valid_tsm_immediates_load", "tensor2d_valid", 0, [](Word& w, Generation) { w[16] = 0x02; }},  // unaligned
      {"is_valid_tsm_immediates_load", "s2_bn_reserved_zero", 0, [](Word& w, Generation) { w[40] = 1; }},

      // ---- BatchNormParamLoad ----
      {"is_valid_batch_norm_param_load", "has_bn_param_load_src_element_cnt", 0,
       [](Word& w, Generation) { w[24] = 4; }},
      {"is_valid_batch_norm_param_load", "has_valid_bn_param_load_imm0", 0,
       [](Word& w, Generation) { w[44] = 0x02; }},  // pointer 0x102 is not 4-aligned
      {"is_valid_batch_norm_param_load", "is_valid_enum(ImmSrc)", 0, [](Word& w, Generation) { w[48] = 3; }},
      {"is_valid_batch_norm_param_load", "s2_bn_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kInt32; }},
      {"is_valid_batch_norm_param_load", "check_active_channels", 0, [](Word& w, Generation) { w[34] = 0; }},
      {"is_valid_batch_norm_param_load", "tensor2d_valid", 0, [](Word& w, Generation) { w[16] = 0x02; }},
      {"is_valid_batch_norm_param_load", "s2_bn_reserved_zero", 0, [](Word& w, Generation) { w[40] = 1; }},

      // ---- MatchValueLoad ----
      {"is_valid_match_value_load", "has_match_value_load_src_element_cnt", 0, [](Word& w, Generation) { w[24] = 7; }},
      {"is_valid_match_value_load", "has_s2_bn_zero_immediates", 0,
       [](Word& w, Generation) { store_le<uint32_t>(&w[28], 0x3F800000); }},
      {"is_valid_match_value_load", "is_valid_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kFp32r; }},
      {"is_valid_match_value_load", "check_active_channels", 0, [](Word& w, Generation) { w[34] = 0; }},
      {"is_valid_match_value_load", "s2_bn_reserved_zero", 0, [](Word& w, Generation) { w[40] = 1; }},
      {"is_valid_match_value_load", "tensor2d_valid", 0, [](Word& w, Generation) { w[16] = 0x02; }},

      // ---- TensorScalarPtrMulti (singular) ----
      {"is_valid_tensor_scalar_ptr_multi", "has_valid_src_slices_tsm_singular", 0,
       [](Word& w, Generation) {
         store_le<uint16_t>(&w[30], 9);  // W = 9, dst follows so the counts still match
         store_le<uint16_t>(&w[62], 9);
       }},
      {"is_valid_tensor_scalar_ptr_multi", "tensor_scalar_ptr_multi_valid_ops", 0,
       [](Word& w, Generation) { w[36] = aluop::kDivide; }},
      {"is_valid_tensor_scalar_ptr_multi", "tensor_scalar_ptr_multi_valid_types", 0,
       [](Word& w, Generation) {
         make_bitvec(w, opcode::kPtrMultiBitvec);
         w[32] = dtype::kUint8;
         w[33] = dtype::kUint16;
       }},
      {"is_valid_tensor_scalar_ptr_multi", "tensor_scalar_ptr_multi_reverse_chk", 0,
       [](Word& w, Generation) { w[38] = 1; }},
      {"is_valid_tensor_scalar_ptr_multi", "s4d4_tsm_reserved_zero", 0, [](Word& w, Generation) { w[35] = 1; }},
      {"is_valid_tensor_scalar_ptr_multi", "is_valid_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kFp32r; }},
      {"is_valid_tensor_scalar_ptr_multi", "is_valid_dtype", 1, [](Word& w, Generation) { w[33] = dtype::kUint64; }},
      {"is_valid_tensor_scalar_ptr_multi",
       "is_valid_aluop",
       0,
       [](Word& w, Generation) { w[36] = 0x1E; },
       {"tensor_scalar_ptr_multi_valid_ops"},
       "tensor_scalar_ptr_multi_valid_ops starts with is_valid_enum(AluOp, op) (s4d4-tsm.md §3.2)"},
      {"is_valid_tensor_scalar_ptr_multi", "is_valid_tsm_subdim", 0, [](Word& w, Generation) { w[37] = 0x05; }},
      {"is_valid_tensor_scalar_ptr_multi", "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }},
      {"is_valid_tensor_scalar_ptr_multi", "has_valid_active_channel_range_with_tile", 0,
       [](Word& w, Generation) { w[34] = 0; }},
      {"is_valid_tensor_scalar_ptr_multi", "start_addr_active_channels", 0,
       [](Word& w, Generation g) { store_le<uint32_t>(&w[12], partition1(g)); }},
      {"is_valid_tensor_scalar_ptr_multi", "start_addr_active_channels", 1,
       [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition1(g)); }},
      {"is_valid_tensor_scalar_ptr_multi", "tensor4d_valid", 0,
       [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x2); }},  // not 4-aligned for FP32
      {"is_valid_tensor_scalar_ptr_multi", "tensor4d_valid", 1,
       [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x1002); }},
      {"is_valid_tensor_scalar_ptr_multi", "same_element_count_t4d", 0,
       [](Word& w, Generation) { store_le<uint16_t>(&w[62], 3); }},

      // ---- TensorScalarPtrMultiDual (SUNDA) ----
      {"is_valid_tensor_scalar_ptr_multi_dual", "has_tensor_scalar_ptr_multi_dual_opcode", 0,
       [](Word& w, Generation) { make_bitvec(w, opcode::kPtrMultiDualBitvec); }},  // 0x88 (PROJ-CONV-T16)
      {"is_valid_tensor_scalar_ptr_multi_dual", "has_valid_src_slices_tsm_dual", 0,
       [](Word& w, Generation) {
         store_le<uint16_t>(&w[30], 5);
         store_le<uint16_t>(&w[62], 5);
       }},
      {"is_valid_tensor_scalar_ptr_multi_dual", "tensor_scalar_ptr_multi_valid_ops", 0,
       [](Word& w, Generation) { w[36] = aluop::kDivide; }},
      {"is_valid_tensor_scalar_ptr_multi_dual",
       "tensor_scalar_ptr_multi_valid_types",
       0,
       [](Word& w, Generation) {
         make_bitvec(w, opcode::kPtrMultiDualBitvec);
         w[33] = dtype::kUint16;
       },
       {"has_tensor_scalar_ptr_multi_dual_opcode"},
       "only a bitvec opcode checks the types and the Dual validator's only bitvec opcode, 0x88, always fails "
       "its opcode predicate (PROJ-CONV-T16)"},
      {"is_valid_tensor_scalar_ptr_multi_dual", "tensor_scalar_ptr_multi_reverse_chk", 0,
       [](Word& w, Generation) { w[38] = 4; }},  // Dual accepts 0..3
      {"is_valid_tensor_scalar_ptr_multi_dual", "s4d4_tsm_reserved_zero", 0, [](Word& w, Generation) { w[43] = 1; }},
      {"is_valid_tensor_scalar_ptr_multi_dual", "is_valid_dtype", 0,
       [](Word& w, Generation) { w[32] = dtype::kFp32r; }},
      {"is_valid_tensor_scalar_ptr_multi_dual", "is_valid_dtype", 1,
       [](Word& w, Generation) { w[33] = dtype::kInt64; }},
      {"is_valid_tensor_scalar_ptr_multi_dual",
       "is_valid_aluop",
       0,
       [](Word& w, Generation) { w[36] = 0x20; },
       {"tensor_scalar_ptr_multi_valid_ops"},
       "tensor_scalar_ptr_multi_valid_ops starts with is_valid_enum(AluOp, op) (s4d4-tsm.md §3.2)"},
      {"is_valid_tensor_scalar_ptr_multi_dual", "is_valid_tsm_subdim", 0, [](Word& w, Generation) { w[37] = 0x00; }},
      {"is_valid_tensor_scalar_ptr_multi_dual", "has_valid_active_channel_range", 0,
       [](Word& w, Generation) { w[34] = 0; }},
      {"is_valid_tensor_scalar_ptr_multi_dual", "start_addr_active_channels", 0,
       [](Word& w, Generation g) { store_le<uint32_t>(&w[12], partition1(g)); }},
      {"is_valid_tensor_scalar_ptr_multi_dual", "start_addr_active_channels", 1,
       [](Word& w, Generation g) { store_le<uint32_t>(&w[44], partition1(g)); }},
      {"is_valid_tensor_scalar_ptr_multi_dual", "tensor4d_valid", 0,
       [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x2); }},
      {"is_valid_tensor_scalar_ptr_multi_dual", "tensor4d_valid", 1,
       [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x1002); }},
      {"is_valid_tensor_scalar_ptr_multi_dual", "same_element_count_t4d", 0,
       [](Word& w, Generation) { store_le<uint16_t>(&w[62], 3); }},

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
#include "validate_predicates_seq_cases.inc"
      // ---- Sync family (mutations of the real words; byte positions from real-programs.md §3.1, §5, §7.1) ----
      {"is_valid_ctrl_es", "ctrl_es_valid_extended_events", 0, [](Word& w, Generation) { w[32] = 0x08; }},
      {"is_valid_ctrl_es", "ctrl_es_reserved_zero", 0, [](Word& w, Generation) { w[44] = 1; }},
      {"is_valid_set_ordering_mode", "set_ordering_mode_reserved_zero", 0, [](Word& w, Generation) { w[13] = 1; }},
      {"is_valid_pseudo_dma_direct2d", "pseudo_dma_update_none", 0, [](Word& w, Generation) { w[6] = 0x13; }},
      {"is_valid_pseudo_dma_direct2d", "pseudo_addr8_mode_known", 0, [](Word& w, Generation) { w[23] = 0x30; }},
      {"is_valid_pseudo_dma_direct2d", "pseudo_addr8_mode_known", 1, [](Word& w, Generation) { w[47] = 0x00; }},
      {"is_valid_pseudo_dma_direct2d", "pseudo_dma_counts_nonzero", 0,
       [](Word& w, Generation) { store_le<uint16_t>(&w[34], 0); }},
      {"is_valid_pseudo_dma_direct2d", "pseudo_dma_counts_nonzero", 1,
       [](Word& w, Generation) { store_le<uint16_t>(&w[56], 0); }},
      {"is_valid_pseudo_dma_direct2d", "is_valid_dtype", 0, [](Word& w, Generation) { w[62] = dtype::kInvalid; }},
      {"is_valid_pseudo_dma_direct2d", "is_valid_dtype", 1, [](Word& w, Generation) { w[63] = dtype::kInvalid; }},
      {"is_valid_pseudo_dma_direct2d", "pseudo_dma_whole_elements", 0,
       [](Word& w, Generation) {
         store_le<uint16_t>(&w[32], 127);  // 127 x 257 bytes: not whole FP16 elements
         store_le<uint16_t>(&w[36], 257);
       }},
      {"is_valid_pseudo_dma_direct2d", "pseudo_dma_whole_elements", 1,
       [](Word& w, Generation) {
         store_le<uint16_t>(&w[56], 127);
         store_le<uint16_t>(&w[60], 257);
       }},
      {"is_valid_pseudo_dma_direct2d", "pseudo_dma_same_element_count", 0,
       [](Word& w, Generation) { store_le<uint16_t>(&w[36], 128); }},
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
       "COPY needs in_dtype == out_dtype, and every out_dtype failing is_valid_dtype also fails it as in_dtype"},
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
      {"is_valid_copy", "s4d4_tr_same_src_dst_count", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[56], 63); }},
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
      {"is_valid_cast", "s4d4_tr_same_src_dst_count", 0, [](Word& w, Generation) { store_le<uint16_t>(&w[56], 63); }},
      {"is_valid_cast", "s4d4_tr_op_bypass", 0, [](Word& w, Generation) { w[36] = aluop::kAdd; }},
      {"is_valid_cast", "has_zero_negated_field", 0, [](Word& w, Generation) { w[35] = 1; }},
      // ---- TENSOR_TENSOR_ARITH_OP (§11.2) ----
      {"is_valid_tensor_tensor_arith", "is_valid_dtype_64", 0, [](Word& w, Generation) { w[13] = dtype::kInt4; }},
      {"is_valid_tensor_tensor_arith", "is_valid_dtype_64", 1, [](Word& w, Generation) { w[12] = 0xAB; }},
      {"is_valid_tensor_tensor_arith", "is_valid_dtype_64", 2, [](Word& w, Generation) { w[12] = 0xBA; }},
      {"is_valid_tensor_tensor_arith",
       "is_valid_enum(AluOp)",
       0,
       [](Word& w, Generation) { w[14] = 0x1E; },
       {"s3s3d3_tt_valid_op"},
       "s3s3d3_tt_valid_op accepts only ALU ops of the generation"},
      {"is_valid_tensor_tensor_arith", "s3s3d3_tt_valid_op", 0, [](Word& w, Generation) { w[14] = aluop::kDivide; }},
      {"is_valid_tensor_tensor_arith", "s3s3d3_tt_valid_int_signness", 0,
       [](Word& w, Generation) { w[14] = aluop::kMod; }},
      {"is_valid_tensor_tensor_arith",
       "start_addr_active_channels",
       0,
       [](Word& w, Generation g) { store_le<uint32_t>(&w[16], partition1(g) + 0x1000); },
       {"tt_valid_partitions"},
       "with 128 channels only partition 0 passes, and src0 away from src1's partition 0 breaks the SBUF pairing"},
      {"is_valid_tensor_tensor_arith",
       "start_addr_active_channels",
       1,
       [](Word& w, Generation g) { store_le<uint32_t>(&w[32], partition1(g) + 0x2000); },
       {"tt_valid_partitions"},
       "with 128 channels only partition 0 passes, and src1 away from src0's partition 0 breaks the SBUF pairing"},
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
      {"is_valid_memset", "d4_mr_dst_element_count", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[28], 63); }},
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
  };
  return cases;
}
#undef LW_CASES
#undef MM_CASES
#undef MM_GROUP_CASES

/// Predicates that can never fail by construction, with the reason ("*" = in every validator).
const std::map<std::pair<std::string_view, std::string_view>, std::string_view>& exempt() {
  static const std::map<std::pair<std::string_view, std::string_view>, std::string_view> m{
      {{"is_valid_tensor_load", "has_tensor_load_opcode"}, "dispatch selects this validator by opcode 0xaa"},
      {{"is_valid_tensor_store", "has_tensor_store_opcode"}, "dispatch selects this validator by opcode 0xab"},
      {{"is_valid_pseudo_tensor_load", "has_pseudo_tensor_load_opcode"}, "dispatch selects it by opcode 0xce"},
      {{"is_valid_pseudo_tensor_store", "has_pseudo_tensor_store_opcode"}, "dispatch selects it by opcode 0xcd"},
      {{"is_valid_tsm_immediates_load", "has_tsm_immediates_load_opcode"}, "dispatch selects it by 0x70/0x71"},
      {{"is_valid_batch_norm_param_load", "has_batch_norm_param_load_opcode"}, "dispatch selects it by 0x64"},
      {{"is_valid_match_value_load", "has_match_value_load_opcode"}, "dispatch selects it by 0x6d"},
      {{"is_valid_tensor_scalar_ptr_multi", "has_tensor_scalar_ptr_multi_opcode"}, "dispatch selects it by 0x4F/0x5F"},
      {{"is_valid_ctrl_no", "has_ctrl_no_opcode"}, "dispatch selects it by 0x23, 0xa1-0xa4, 0xa6"},
      {{"is_valid_tsm_immediates_load", "s2_bn_zgen_restriction"}, "always true under PROJ-CONV-S2"},
      {{"is_valid_copy", "has_copy_opcode"}, "dispatch selects it by opcode 0x46"},
      {{"is_valid_cast", "has_cast_opcode"}, "dispatch selects it by opcode 0x47"},
      {{"is_valid_tensor_tensor_arith", "has_tensor_tensor_arith_opcode"}, "dispatch selects it by opcode 0x41"},
      {{"is_valid_tensor_tensor_arith", "s3s3d3_tt_dtype"}, "its body binds the bitvec sibling 0x51 only"},
      {{"is_valid_tensor_tensor_arith", "s3s3d3_tt_src_dst_dtype"}, "its body binds the bitvec sibling 0x51 only"},
      {{"is_valid_memset", "has_memset_opcode"}, "dispatch selects it by opcode 0x49"},
      {{"is_valid_batch_norm_param_load", "s2_bn_zgen_restriction"}, "always true under PROJ-CONV-S2"},
      {{"is_valid_ldweights", "has_ldweights_opcode"}, "dispatch selects it by opcode 0x01"},
      {{"is_valid_ldweights_mariana", "has_ldweights_opcode"}, "dispatch selects it by opcode 0x01"},
      {{"is_valid_ldweights_maverick", "has_ldweights_opcode"}, "dispatch selects it by opcode 0x01"},
      {{"is_valid_matmul", "has_matmul_opcode"}, "dispatch selects it by opcode 0x02"},
      {{"is_valid_matmul_mariana", "has_matmul_opcode"}, "dispatch selects it by opcode 0x02"},
      {{"is_valid_matmul_maverick", "has_matmul_opcode"}, "dispatch selects it by opcode 0x02"},
      {{"is_valid_matmul", "d3_mm_fp32r_restrictions"}, "always true under PROJ-CONV-F15"},
      {{"is_valid_matmul_mariana", "d3_mm_fp32r_restrictions"}, "always true under PROJ-CONV-F15"},
      {{"is_valid_matmul_maverick", "d3_mm_fp32r_restrictions"}, "always true under PROJ-CONV-F15"},
#include "validate_predicates_seq_exempt.inc"
      {{"is_valid_ctrl_es", "has_event_semaphore_opcode"}, "dispatch selects it by 0xa0"},
      {{"is_valid_set_ordering_mode", "has_set_ordering_mode_opcode"}, "dispatch selects it by 0xb1"},
      {{"is_valid_pseudo_branch_label", "has_pseudo_branch_label_opcode"}, "dispatch selects it by 0xcc"},
      {{"is_valid_pseudo_dma_direct2d", "has_pseudo_dma_direct2d_opcode"}, "dispatch selects it by 0xd4"},
      {{"is_valid_ctrl_es", "engine_placement"},
       "any engine may issue it (PROJ-CONV-F1 table; ValidateContext tests every engine)"},
      {{"is_valid_set_ordering_mode", "engine_placement"},
       "any engine may issue it (PROJ-CONV-F1 table; ValidateContext tests every engine)"},
      {{"is_valid_pseudo_branch_label", "engine_placement"},
       "any engine may issue it (PROJ-CONV-F1 table; ValidateContext tests every engine)"},
      {{"is_valid_pseudo_dma_direct2d", "engine_placement"},
       "any engine may issue it (PROJ-CONV-F1 table; ValidateContext tests every engine)"},
  };
  return m;
}

/// Predicates that never fail with the default options; their FailCase sets the option (checked below).
const std::map<std::string_view, std::string_view>& exempt_without_option() {
  static const std::map<std::string_view, std::string_view> m{
      {"mem2d_single_16mb_window", "only evaluated with ValidateOptions::strict_window (PROJ-CONV-M3)"},
      {"engine_placement", "applies only when the stream engine is known (ValidateOptions::engine, PROJ-CONV-F1)"},
  };
  return m;
}

unsigned occurrence_of(const Validator& v, size_t index) {
  unsigned n = 0;
  for (size_t k = 0; k < index; ++k)
    if (v.conjuncts[k]->name == v.conjuncts[index]->name) ++n;
  return n;
}

const FailCase* find_case(std::string_view validator, std::string_view predicate, unsigned occurrence) {
  for (const FailCase& c : fail_cases())
    if ((c.validator == validator || c.validator == "*") && c.predicate == predicate && c.occurrence == occurrence)
      return &c;
  return nullptr;
}

std::string names(const Verdict& v) {
  std::string s;
  for (const Predicate* p : v.failures()) s += (s.empty() ? "" : ", ") + std::string(p->name);
  return s.empty() ? "(none)" : s;
}

Verdict run(const Word& w, Generation g, const ValidateOptions& options = {}) {
  return validate(decode(std::span<const uint8_t, kWordBytes>(w), g), g, options);
}

TEST(ValidatePredicates, EveryValidatorHasABaselineOnSomeGeneration) {
  for (const Validator* v : all_validators()) {
    const auto it = baselines().find(v->name);
    if (it == baselines().end()) {
      ADD_FAILURE() << "validator " << v->name << " has no baseline word in this test";
      continue;
    }
    const Word base = it->second();
    bool reachable = false;
    for (Generation g : kAllGenerations) {
      if (&validator_for(base[0], g) != v) continue;
      reachable = true;
      const Verdict verdict = run(base, g);
      EXPECT_EQ(verdict.validator, v) << v->name << " on " << to_string(g);
      EXPECT_TRUE(verdict.valid) << v->name << " baseline on " << to_string(g) << " fails " << names(verdict);
    }
    EXPECT_TRUE(reachable) << "the baseline of " << v->name << " does not reach it on any generation";
  }
}

TEST(ValidatePredicates, EveryPredicatePassesOnABaselineAndFailsAlone) {
  std::set<const FailCase*> used;
  for (const Validator* v : all_validators()) {
    const auto base_it = baselines().find(v->name);
    if (base_it == baselines().end()) continue;  // reported by the test above
    const Word base = base_it->second();

    for (size_t k = 0; k < v->conjuncts.size(); ++k) {
      const Predicate* p = v->conjuncts[k];
      const unsigned occ = occurrence_of(*v, k);
      const std::string what = std::string(v->name) + " / " + std::string(p->name) + " #" + std::to_string(occ);

      // Generations where this conjunct is part of this validator's verdict (e.g. the MAVERICK-only
      // _with_tile channel check never applies in the SUNDA-only Dual validator).
      std::vector<Generation> gens;
      for (Generation g : kAllGenerations)
        if (p->gens.has(g) && &validator_for(base[0], g) == v) gens.push_back(g);
      if (gens.empty()) continue;

      if (const auto ex = exempt().find({v->name, p->name}); ex != exempt().end()) {
        // Never fails: check it holds on the baseline everywhere it applies.
        for (Generation g : gens) {
          EXPECT_TRUE(p->holds(decode(std::span<const uint8_t, kWordBytes>(base), g), CheckContext{g, {}}))
              << what << " on " << to_string(g) << " (exempt: " << ex->second << ")";
        }
        continue;
      }

      const FailCase* fc = find_case(v->name, p->name, occ);
      if (fc == nullptr) {
        ADD_FAILURE() << what << ": no failing-only vector and no exemption; add one to this test";
        continue;
      }
      used.insert(fc);
      ValidateOptions options;
      options.strict_window = fc->strict_window;
      ValidateOptions failing = options;  // the engine belongs to the failing case; the baseline's is unknown
      failing.engine = fc->engine;

      for (Generation g : gens) {
        SCOPED_TRACE(what + " on " + std::string(to_string(g)));

        // Passing word: the baseline (valid, so every conjunct holds), its engine unknown; an engine-placement
        // case fails it in the case's stream.
        const Verdict pass = run(base, g, options);
        EXPECT_TRUE(pass.valid) << "baseline fails " << names(pass);

        Word w = base;
        fc->mutate(w, g);
        const Verdict fail = run(w, g, failing);
        EXPECT_EQ(fail.validator, v) << "the mutation changed which validator judges the word";
        EXPECT_FALSE(fail.valid);

        bool has_p = false;
        std::multiset<std::string_view> others;
        for (const Predicate* f : fail.failures()) {
          if (f == p)
            has_p = true;
          else
            others.insert(f->name);
        }
        EXPECT_TRUE(has_p) << "the failing word does not fail it; failures: " << names(fail);
        const std::multiset<std::string_view> want(fc->companions.begin(), fc->companions.end());
        EXPECT_EQ(others, want) << "failures: " << names(fail)
                                << (fc->companions.empty() ? " (it should fail alone)" : "");
        if (!fc->companions.empty()) {
          EXPECT_FALSE(fc->why_not_alone.empty()) << "companions need a reason";
        }

        if (const auto ew = exempt_without_option().find(p->name); ew != exempt_without_option().end()) {
          const Verdict dflt = run(w, g);
          EXPECT_FALSE(dflt.fails(p->name)) << p->name << " failed without its option (" << ew->second << ")";
        }
      }
    }
  }

  // Stale entries: every fail case must have been used by some validator's predicate.
  for (const FailCase& c : fail_cases())
    EXPECT_TRUE(used.count(&c)) << "fail case " << c.validator << " / " << c.predicate << " #" << c.occurrence
                                << " matches no predicate of any validator";
}

/// The families whose predicates validate.tsv covers word by word (make_validate_vectors.py): for each, every
/// predicate has, on every generation where its validator judges words, a vector it accepts and a vector that
/// fails it (exempt predicates: accepting only). Expected verdicts in the file come from the spec.
constexpr std::string_view kVectorCoveredValidators[] = {
    "is_valid_copy", "is_valid_cast", "is_valid_tensor_tensor_arith", "is_valid_memset", "is_valid_ctrl_no",
    // PE matmul (real-programs.md §8-§9), one validator per layout
    "is_valid_ldweights", "is_valid_ldweights_mariana", "is_valid_ldweights_maverick", "is_valid_matmul",
    "is_valid_matmul_mariana", "is_valid_matmul_maverick",
    // sync (real-programs.md §3, §5-§7)
    "is_valid_ctrl_es", "is_valid_set_ordering_mode", "is_valid_pseudo_branch_label", "is_valid_pseudo_dma_direct2d",
    // sequencer (sequencer.md)
    "is_valid_ctrl_wr", "is_valid_ctrl_mv", "is_valid_ctrl_al", "is_valid_ctrl_br", "is_valid_ctrl_er",
    "is_valid_poll_sem", "is_valid_branch_prefetch_hint", "is_valid_pseudo_branch_prefetch_hint",
    "is_valid_pseudo_function_begin", "is_valid_pseudo_function_return", "is_valid_pseudo_function_call",
    "is_valid_pseudo_inst"};

TEST(ValidatePredicates, VectorFileHasAnAcceptingAndARejectingWordPerPredicatePerGeneration) {
  const test::TsvFile& file = test::validate_vector_file();
  ASSERT_TRUE(file.readable) << test::kTsvFile;
  for (const Validator* v : all_validators()) {
    if (std::find(std::begin(kVectorCoveredValidators), std::end(kVectorCoveredValidators), v->name) ==
        std::end(kVectorCoveredValidators))
      continue;
    const auto base_it = baselines().find(v->name);
    ASSERT_NE(base_it, baselines().end()) << v->name;
    const Word base = base_it->second();
    std::set<std::string_view> seen;
    for (const Predicate* p : v->conjuncts) {
      if (!seen.insert(p->name).second) continue;  // src/dst twins share one name in the file
      const bool exempt_p = exempt().count({v->name, p->name}) != 0;
      for (Generation g : kAllGenerations) {
        if (!p->gens.has(g) || &validator_for(base[0], g) != v) continue;
        bool accepted = false, rejected = false;
        for (const test::TsvVector& t : file.vectors) {
          if (std::find(t.gens.begin(), t.gens.end(), g) == t.gens.end()) continue;
          if (&validator_for(t.word[0], g) != v) continue;
          (t.failing.count(std::string(p->name)) != 0 ? rejected : accepted) = true;
        }
        EXPECT_TRUE(accepted) << v->name << " / " << p->name << ": no vector of validate.tsv accepts it on "
                              << to_string(g);
        if (!exempt_p) {
          EXPECT_TRUE(rejected) << v->name << " / " << p->name << ": no vector of validate.tsv fails it on "
                                << to_string(g) << "; add one to make_validate_vectors.py";
        }
      }
    }
  }
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
      const Verdict v = run(w, g);
      EXPECT_EQ(v.valid, c.valid) << names(v);
      if (!c.valid) {
        EXPECT_EQ(names(v), "tt_valid_partitions");
      }
      EXPECT_EQ(fast_accepts(std::span<const uint8_t, kWordBytes>(w), g), c.valid);
    }
  }
}

}  // namespace
}  // namespace tpbisa
