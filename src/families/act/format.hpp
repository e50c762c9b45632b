// Activation family formats: ACTIVATE 0x21 (S3D3_AC), ACTIVATE_QUANTIZE 0x22 (S3D3_AQ), ACTIVATE2 0x25 (S2D2_AC) and
// PSEUDO_LOAD_ACT_FUNC_SET 0xC6; ACTIVATION_READ_ACCUMULATOR 0x24 (D1_RD) and ACTIVATION_TABLE_LOAD 0x23 (CTRL_NO)
// reuse the structs their families declare (act-index-ops.md §4-§8).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/families/ctrl_no/format.hpp"
#include "tpbisa/families/tensor_scalar/format.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_S3D3_AC_STRUCT (64 B), s3d3_ac.h: ACTIVATE 0x21, the same bytes on every generation; MARIANA+ types
/// src/dst as MEM_PATTERN3D, judged by their TENSOR3D bytes (PROJ-CONV-A30) (§4.1).
struct S3d3Ac {
  static constexpr Format kFormat = Format::S3d3Ac;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S3D3_AC";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t imm_src = 0;          ///< IMM_SRC of imm
  uint8_t scale_src = 0;        ///< IMM_SRC of scale_value
  uint8_t accumulator_cmd = 0;  ///< ACCUM_CMD
  uint8_t bias_src_n = 0;       ///< IMM_SRC_N of bias: Pointer 0, Instruction 1, RegPtr 2 (inverted polarity)
  Tensor3d src{};
  uint8_t in_bias_dtype = 0;  ///< DTYPE_PAIR: low nibble in_dtype, high nibble bias_dtype
  uint8_t out_dtype = 0;
  uint8_t num_active_channels = 0;
  uint8_t activation_func = 0;  ///< the function id of the loaded set (§3.5); not an enum
  ImmVal scale_value{};
  ImmVal bias{};
  ImmVal imm{};
  Tensor3d dst{};
  bool operator==(const S3d3Ac&) const = default;
};
template <>
inline constexpr auto fields_of<S3d3Ac> =
    field_decls(Member<S3d3Ac, Header>{"header", 0, &S3d3Ac::header, Role::Plain},
                Member<S3d3Ac, Events>{"events", 4, &S3d3Ac::events, Role::Plain},
                Member<S3d3Ac, uint8_t>{"imm_src", 12, &S3d3Ac::imm_src, Role::ImmSrc},
                Member<S3d3Ac, uint8_t>{"scale_src", 13, &S3d3Ac::scale_src, Role::ImmSrc},
                Member<S3d3Ac, uint8_t>{"accumulator_cmd", 14, &S3d3Ac::accumulator_cmd, Role::Custom},
                Member<S3d3Ac, uint8_t>{"bias_src_n", 15, &S3d3Ac::bias_src_n, Role::Custom},
                Member<S3d3Ac, Tensor3d>{"src", 16, &S3d3Ac::src, Role::Plain},
                Member<S3d3Ac, uint8_t>{"in_bias_dtype", 32, &S3d3Ac::in_bias_dtype, Role::Custom},
                Member<S3d3Ac, uint8_t>{"out_dtype", 33, &S3d3Ac::out_dtype, Role::Dtype},
                Member<S3d3Ac, uint8_t>{"num_active_channels", 34, &S3d3Ac::num_active_channels, Role::Channels},
                Member<S3d3Ac, uint8_t>{"activation_func", 35, &S3d3Ac::activation_func, Role::Plain},
                Member<S3d3Ac, ImmVal>{"scale_value", 36, &S3d3Ac::scale_value, Role::ImmVal},
                Member<S3d3Ac, ImmVal>{"bias", 40, &S3d3Ac::bias, Role::ImmVal},
                Member<S3d3Ac, ImmVal>{"imm", 44, &S3d3Ac::imm, Role::ImmVal},
                Member<S3d3Ac, Tensor3d>{"dst", 48, &S3d3Ac::dst, Role::Plain});

/// NEURON_ISA_TPB_S3D3_AQ_STRUCT (64 B), s3d3_aq.h: ACTIVATE_QUANTIZE 0x22, every generation (§5.1).
struct S3d3Aq {
  static constexpr Format kFormat = Format::S3d3Aq;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S3D3_AQ";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  ImmVal quant_scale_value{};  ///< fp32 output requantisation scale
  Tensor3d src{};
  uint8_t in_bias_dtype = 0;  ///< DTYPE_PAIR: low nibble in_dtype, high nibble bias_dtype
  uint8_t out_dtype = 0;      ///< must be UINT8
  uint8_t num_active_channels = 0;
  uint8_t activation_func = 0;
  ImmVal dequant_scale_value{};  ///< fp32 input scale
  uint32_t bias_addr = 0;        ///< PartitionOffset of the per-partition bias
  ImmVal quant_zero_value{};     ///< fp32 output zero point
  Tensor3d dst{};
  bool operator==(const S3d3Aq&) const = default;
};
template <>
inline constexpr auto fields_of<S3d3Aq> =
    field_decls(Member<S3d3Aq, Header>{"header", 0, &S3d3Aq::header, Role::Plain},
                Member<S3d3Aq, Events>{"events", 4, &S3d3Aq::events, Role::Plain},
                Member<S3d3Aq, ImmVal>{"quant_scale_value", 12, &S3d3Aq::quant_scale_value, Role::ImmVal},
                Member<S3d3Aq, Tensor3d>{"src", 16, &S3d3Aq::src, Role::Plain},
                Member<S3d3Aq, uint8_t>{"in_bias_dtype", 32, &S3d3Aq::in_bias_dtype, Role::Custom},
                Member<S3d3Aq, uint8_t>{"out_dtype", 33, &S3d3Aq::out_dtype, Role::Dtype},
                Member<S3d3Aq, uint8_t>{"num_active_channels", 34, &S3d3Aq::num_active_channels, Role::Channels},
                Member<S3d3Aq, uint8_t>{"activation_func", 35, &S3d3Aq::activation_func, Role::Plain},
                Member<S3d3Aq, ImmVal>{"dequant_scale_value", 36, &S3d3Aq::dequant_scale_value, Role::ImmVal},
                Member<S3d3Aq, uint32_t>{"bias_addr", 40, &S3d3Aq::bias_addr, Role::Plain},
                Member<S3d3Aq, ImmVal>{"quant_zero_value", 44, &S3d3Aq::quant_zero_value, Role::ImmVal},
                Member<S3d3Aq, Tensor3d>{"dst", 48, &S3d3Aq::dst, Role::Plain});

/// NEURON_ISA_TPB_S2D2_AC_STRUCT (64 B): ACTIVATE2 0x25, MARIANA and MAVERICK; src/dst are MEM_PATTERN2D, judged by
/// their TENSOR2D bytes (§7.1, PROJ-CONV-A30).
struct S2d2Ac {
  static constexpr Format kFormat = Format::S2d2Ac;
  static constexpr GenSet kGens = kGensMarianaUp;
  static constexpr std::string_view kName = "S2D2_AC";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  Tensor2d src{};
  uint8_t relu_param_src = 0;  ///< IMM_SRC of relu_param
  uint8_t imm0_src = 0;        ///< IMM_SRC of imm0
  uint8_t reduce_cmd = 0;      ///< REDUCE_CMD: IDLE 0, RESET 1, REDUCE 2, RESET_REDUCE 3
  uint8_t imm1_src = 0;        ///< IMM_SRC of imm1
  uint8_t imm_dtype = 0;       ///< element type of pointer-sourced immediates
  uint8_t op0 = 0;
  uint8_t op1 = 0;
  uint8_t reduce_op = 0;
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  uint8_t num_active_channels = 0;
  uint8_t activation_func = 0;
  ImmVal imm0{};
  ImmVal imm1{};
  ImmVal relu_param{};
  Tensor2d dst{};
  uint8_t reverse_operands = 0;  ///< bit 0 reverses op0, bit 1 op1
  std::array<uint8_t, 3> reserved0{};
  bool operator==(const S2d2Ac&) const = default;
};
template <>
inline constexpr auto fields_of<S2d2Ac> =
    field_decls(Member<S2d2Ac, Header>{"header", 0, &S2d2Ac::header, Role::Plain},
                Member<S2d2Ac, Events>{"events", 4, &S2d2Ac::events, Role::Plain},
                Member<S2d2Ac, Tensor2d>{"src", 12, &S2d2Ac::src, Role::Plain},
                Member<S2d2Ac, uint8_t>{"relu_param_src", 24, &S2d2Ac::relu_param_src, Role::ImmSrc},
                Member<S2d2Ac, uint8_t>{"imm0_src", 25, &S2d2Ac::imm0_src, Role::ImmSrc},
                Member<S2d2Ac, uint8_t>{"reduce_cmd", 26, &S2d2Ac::reduce_cmd, Role::Custom},
                Member<S2d2Ac, uint8_t>{"imm1_src", 27, &S2d2Ac::imm1_src, Role::ImmSrc},
                Member<S2d2Ac, uint8_t>{"imm_dtype", 28, &S2d2Ac::imm_dtype, Role::Dtype},
                Member<S2d2Ac, uint8_t>{"op0", 29, &S2d2Ac::op0, Role::AluOp},
                Member<S2d2Ac, uint8_t>{"op1", 30, &S2d2Ac::op1, Role::AluOp},
                Member<S2d2Ac, uint8_t>{"reduce_op", 31, &S2d2Ac::reduce_op, Role::AluOp},
                Member<S2d2Ac, uint8_t>{"in_dtype", 32, &S2d2Ac::in_dtype, Role::Dtype},
                Member<S2d2Ac, uint8_t>{"out_dtype", 33, &S2d2Ac::out_dtype, Role::Dtype},
                Member<S2d2Ac, uint8_t>{"num_active_channels", 34, &S2d2Ac::num_active_channels, Role::Channels},
                Member<S2d2Ac, uint8_t>{"activation_func", 35, &S2d2Ac::activation_func, Role::Plain},
                Member<S2d2Ac, ImmVal>{"imm0", 36, &S2d2Ac::imm0, Role::ImmVal},
                Member<S2d2Ac, ImmVal>{"imm1", 40, &S2d2Ac::imm1, Role::ImmVal},
                Member<S2d2Ac, ImmVal>{"relu_param", 44, &S2d2Ac::relu_param, Role::ImmVal},
                Member<S2d2Ac, Tensor2d>{"dst", 48, &S2d2Ac::dst, Role::Plain},
                Member<S2d2Ac, uint8_t>{"reverse_operands", 60, &S2d2Ac::reverse_operands, Role::RevOps},
                Member<S2d2Ac, std::array<uint8_t, 3>>{"reserved0", 61, &S2d2Ac::reserved0, Role::Reserved});

/// PSEUDO_LOAD_ACT_FUNC_SET 0xC6 (64 B): the set's name, which the runtime replaces by a table write (§8.4).
struct PseudoLoadActFuncSet {
  static constexpr Format kFormat = Format::PseudoLoadActFuncSet;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "PSEUDO_LOAD_ACT_FUNC_SET";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 32> act_set_name{};  ///< printable ASCII, NUL-padded
  std::array<uint8_t, 20> reserved0{};
  bool operator==(const PseudoLoadActFuncSet&) const = default;
};
template <>
inline constexpr auto fields_of<PseudoLoadActFuncSet> =
    field_decls(Member<PseudoLoadActFuncSet, Header>{"header", 0, &PseudoLoadActFuncSet::header, Role::Plain},
                Member<PseudoLoadActFuncSet, Events>{"events", 4, &PseudoLoadActFuncSet::events, Role::Plain},
                Member<PseudoLoadActFuncSet, std::array<uint8_t, 32>>{"act_set_name", 12,
                                                                      &PseudoLoadActFuncSet::act_set_name, Role::Plain},
                Member<PseudoLoadActFuncSet, std::array<uint8_t, 20>>{"reserved0", 44, &PseudoLoadActFuncSet::reserved0,
                                                                      Role::Reserved});

struct UnitState;  // tpbisa/unit_state.hpp

namespace family {

/// The activation family (src/families/act): its layouts, the structs it reuses, and the parts its folder defines.
struct ActFamily {
  static constexpr std::string_view kName = "act";
  using Layouts = TypeList<S3d3Ac, S3d3Aq, S2d2Ac, PseudoLoadActFuncSet>;
  using Uses = TypeList<D1Rd, CtrlNo>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

}  // namespace family

/// The activation family's opcodes and dependent readings, decided once for the validators, the executor, the
/// descriptions and the assembler.
namespace act {

inline constexpr uint8_t kActivate = detail::opcode_named("ACTIVATE");
inline constexpr uint8_t kActivateQuantize = detail::opcode_named("ACTIVATE_QUANTIZE");
inline constexpr uint8_t kTableLoad = detail::opcode_named("ACTIVATION_TABLE_LOAD");
inline constexpr uint8_t kReadAccumulator = detail::opcode_named("ACTIVATION_READ_ACCUMULATOR");
inline constexpr uint8_t kActivate2 = detail::opcode_named("ACTIVATE2");
inline constexpr uint8_t kPseudoLoadSet = detail::opcode_named("PSEUDO_LOAD_ACT_FUNC_SET");

/// The byte of ACTIVATION_TABLE_LOAD that carries the set index act_tbl_sel (§8.1, PROJ-CONV-A6).
inline constexpr size_t kActTblSelByte = 35;

/// REDUCE_CMD of ACTIVATE2 (§7.1).
inline constexpr uint8_t kReduceIdle = 0, kReduceReset = 1, kReduceReduce = 2, kReduceResetReduce = 3;

/// to_imm_src of IMM_SRC_N (§4.2): Pointer 0, Instruction 1, RegPtr 2 -> the IMM_SRC value; 0xFF for any other.
constexpr uint8_t to_imm_src(uint8_t n) {
  switch (n) {
    case 0: return imm_src::kPointer;
    case 1: return imm_src::kInstruction;
    case 2: return imm_src::kRegPointer;
    default: return 0xFF;
  }
}
/// How an IMM_SRC value reads its operand (values outside 0..2 read as the bytes; the validator refuses them).
constexpr ImmReading imm_reading_of(uint8_t src) {
  if (src == imm_src::kPointer) return ImmReading::Pointer;
  if (src == imm_src::kRegPointer) return ImmReading::Register;
  return ImmReading::Value;
}
/// DTYPE_PAIR nibbles.
constexpr uint8_t pair_in(uint8_t pair) {
  return pair & 0x0F;
}
constexpr uint8_t pair_bias(uint8_t pair) {
  return static_cast<uint8_t>(pair >> 4);
}

}  // namespace act

// ---- Compile-time checks against the spec's layout tables (§4.1, §5.1, §7.1, §8.4) ----

static_assert(tiles_exactly<S3d3Ac>() && tiles_exactly<S3d3Aq>() && tiles_exactly<S2d2Ac>() &&
              tiles_exactly<PseudoLoadActFuncSet>());
static_assert(offset_of<S3d3Ac>("accumulator_cmd") == 14 && offset_of<S3d3Ac>("bias_src_n") == 15 &&
              offset_of<S3d3Ac>("src") == 16 && offset_of<S3d3Ac>("in_bias_dtype") == 32 &&
              offset_of<S3d3Ac>("activation_func") == 35 && offset_of<S3d3Ac>("scale_value") == 36 &&
              offset_of<S3d3Ac>("bias") == 40 && offset_of<S3d3Ac>("imm") == 44 && offset_of<S3d3Ac>("dst") == 48);
static_assert(offset_of<S3d3Aq>("src") == 16 && offset_of<S3d3Aq>("dequant_scale_value") == 36 &&
              offset_of<S3d3Aq>("bias_addr") == 40 && offset_of<S3d3Aq>("quant_zero_value") == 44 &&
              offset_of<S3d3Aq>("dst") == 48);
static_assert(offset_of<S2d2Ac>("relu_param_src") == 24 && offset_of<S2d2Ac>("reduce_cmd") == 26 &&
              offset_of<S2d2Ac>("op0") == 29 && offset_of<S2d2Ac>("reduce_op") == 31 &&
              offset_of<S2d2Ac>("activation_func") == 35 && offset_of<S2d2Ac>("imm0") == 36 &&
              offset_of<S2d2Ac>("relu_param") == 44 && offset_of<S2d2Ac>("dst") == 48 &&
              offset_of<S2d2Ac>("reverse_operands") == 60);
static_assert(offset_of<PseudoLoadActFuncSet>("act_set_name") == 12 &&
              offset_of<PseudoLoadActFuncSet>("reserved0") == 44);

}  // namespace tpbisa
