// Scalar-tensor-tensor family formats: S2S2D2_STT (0x9D/0x9E, 0xE5, 0xEA) and S3D3_TS_SELECT (0x98).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_S2S2D2_STT_STRUCT (64 B), s2s2d2_stt.h:24: SCALAR_TENSOR_TENSOR_ARITH/_BITVEC 0x9D/0x9E,
/// TENSOR_TENSOR_SCAN_ARITH 0xE5 and SELECT_REDUCE 0xEA. The same bytes on every generation; MARIANA+ patterns are
/// judged by their TENSOR2D bytes (alu-ops.md §6.1, PROJ-CONV-K3).
struct S2s2d2Stt {
  static constexpr Format kFormat = Format::S2s2d2Stt;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S2S2D2_STT";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  Tensor2d src0{};  ///< tensor A (SELECT_REDUCE: the predicate)
  Tensor2d src1{};  ///< tensor B (SELECT_REDUCE: the data)
  uint8_t op0 = 0;
  uint8_t op1 = 0;
  uint8_t reverse_operands = 0;
  uint8_t imm0_src = 0;
  uint8_t in0_in1_dtype = 0;  ///< DTYPE_PAIR: low nibble src0, high nibble src1
  uint8_t out_dtype = 0;
  uint8_t num_active_channels = 0;
  uint8_t imm0_dtype = 0;
  uint8_t accumulator_cmd = 0;
  std::array<uint8_t, 3> reserved{};
  Tensor2d dst{};
  ImmVal imm0{};
  bool operator==(const S2s2d2Stt&) const = default;
};
template <>
inline constexpr auto fields_of<S2s2d2Stt> =
    field_decls(Member<S2s2d2Stt, Header>{"header", 0, &S2s2d2Stt::header, Role::Plain},
                Member<S2s2d2Stt, Events>{"events", 4, &S2s2d2Stt::events, Role::Plain},
                Member<S2s2d2Stt, Tensor2d>{"src0", 12, &S2s2d2Stt::src0, Role::Plain},
                Member<S2s2d2Stt, Tensor2d>{"src1", 24, &S2s2d2Stt::src1, Role::Plain},
                Member<S2s2d2Stt, uint8_t>{"op0", 36, &S2s2d2Stt::op0, Role::AluOp},
                Member<S2s2d2Stt, uint8_t>{"op1", 37, &S2s2d2Stt::op1, Role::AluOp},
                Member<S2s2d2Stt, uint8_t>{"reverse_operands", 38, &S2s2d2Stt::reverse_operands, Role::RevOps},
                Member<S2s2d2Stt, uint8_t>{"imm0_src", 39, &S2s2d2Stt::imm0_src, Role::ImmSrc},
                Member<S2s2d2Stt, uint8_t>{"in0_in1_dtype", 40, &S2s2d2Stt::in0_in1_dtype, Role::Custom},
                Member<S2s2d2Stt, uint8_t>{"out_dtype", 41, &S2s2d2Stt::out_dtype, Role::Dtype},
                Member<S2s2d2Stt, uint8_t>{"num_active_channels", 42, &S2s2d2Stt::num_active_channels, Role::Channels},
                Member<S2s2d2Stt, uint8_t>{"imm0_dtype", 43, &S2s2d2Stt::imm0_dtype, Role::Dtype},
                Member<S2s2d2Stt, uint8_t>{"accumulator_cmd", 44, &S2s2d2Stt::accumulator_cmd, Role::Custom},
                Member<S2s2d2Stt, std::array<uint8_t, 3>>{"reserved", 45, &S2s2d2Stt::reserved, Role::Reserved},
                Member<S2s2d2Stt, Tensor2d>{"dst", 48, &S2s2d2Stt::dst, Role::Plain},
                Member<S2s2d2Stt, ImmVal>{"imm0", 60, &S2s2d2Stt::imm0, Role::ImmVal});

/// NEURON_ISA_TPB_S3D3_TS_SELECT_STRUCT (64 B), s3d3_ts_select.h: TENSOR_SCALAR_SELECT 0x98. The same bytes on
/// every generation (alu-ops.md §6.5).
struct S3d3TsSelect {
  static constexpr Format kFormat = Format::S3d3TsSelect;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S3D3_TS_SELECT";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 4> reserved0{};
  Tensor3d src0{};  ///< the tensor arm
  uint8_t reversed_pred = 0;
  uint8_t num_active_channels = 0;
  uint8_t dtype = 0;           ///< dtype of src0, src1_imm and dst (a copy, no cast)
  uint8_t pred_imm_dtype = 0;  ///< an integer of the width of dtype
  std::array<uint8_t, 2> reserved1{};
  uint8_t src1_imm_src = 0;
  uint8_t pred_imm_src = 0;
  ImmVal src1_imm{};  ///< the scalar arm
  ImmVal pred_imm{};  ///< the predicate (0/1 when inline)
  Tensor3d dst{};
  bool operator==(const S3d3TsSelect&) const = default;
};
template <>
inline constexpr auto fields_of<S3d3TsSelect> = field_decls(
    Member<S3d3TsSelect, Header>{"header", 0, &S3d3TsSelect::header, Role::Plain},
    Member<S3d3TsSelect, Events>{"events", 4, &S3d3TsSelect::events, Role::Plain},
    Member<S3d3TsSelect, std::array<uint8_t, 4>>{"reserved0", 12, &S3d3TsSelect::reserved0, Role::Reserved},
    Member<S3d3TsSelect, Tensor3d>{"src0", 16, &S3d3TsSelect::src0, Role::Plain},
    Member<S3d3TsSelect, uint8_t>{"reversed_pred", 32, &S3d3TsSelect::reversed_pred, Role::Custom},
    Member<S3d3TsSelect, uint8_t>{"num_active_channels", 33, &S3d3TsSelect::num_active_channels, Role::Channels},
    Member<S3d3TsSelect, uint8_t>{"dtype", 34, &S3d3TsSelect::dtype, Role::Dtype},
    Member<S3d3TsSelect, uint8_t>{"pred_imm_dtype", 35, &S3d3TsSelect::pred_imm_dtype, Role::Dtype},
    Member<S3d3TsSelect, std::array<uint8_t, 2>>{"reserved1", 36, &S3d3TsSelect::reserved1, Role::Reserved},
    Member<S3d3TsSelect, uint8_t>{"src1_imm_src", 38, &S3d3TsSelect::src1_imm_src, Role::ImmSrc},
    Member<S3d3TsSelect, uint8_t>{"pred_imm_src", 39, &S3d3TsSelect::pred_imm_src, Role::ImmSrc},
    Member<S3d3TsSelect, ImmVal>{"src1_imm", 40, &S3d3TsSelect::src1_imm, Role::ImmVal},
    Member<S3d3TsSelect, ImmVal>{"pred_imm", 44, &S3d3TsSelect::pred_imm, Role::ImmVal},
    Member<S3d3TsSelect, Tensor3d>{"dst", 48, &S3d3TsSelect::dst, Role::Plain});

namespace family {

/// The scalar-tensor-tensor family (src/families/stt): its layouts and the parts its folder defines.
struct SttFamily {
  static constexpr std::string_view kName = "stt";
  using Layouts = TypeList<S2s2d2Stt, S3d3TsSelect>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

}  // namespace family

/// The family's opcodes and dependent-field readings: each decided here, once, for the validators, the executor,
/// the describer and the disassembler.
namespace family::stt {

inline constexpr uint8_t kTsSelect = ::tpbisa::detail::opcode_named("TENSOR_SCALAR_SELECT");
inline constexpr uint8_t kSttArith = ::tpbisa::detail::opcode_named("SCALAR_TENSOR_TENSOR_ARITH");
inline constexpr uint8_t kSttBitvec = ::tpbisa::detail::opcode_named("SCALAR_TENSOR_TENSOR_BITVEC");
inline constexpr uint8_t kScan = ::tpbisa::detail::opcode_named("TENSOR_TENSOR_SCAN_ARITH");
inline constexpr uint8_t kSelectReduce = ::tpbisa::detail::opcode_named("SELECT_REDUCE");

/// ACCUM_CMD (enums.md §11, alu-ops.md §2.6).
inline constexpr uint8_t kAccIdle = accum_cmd::kIdle, kAccZero = accum_cmd::kZero,
                         kAccAccumulate = accum_cmd::kAccumulate, kAccZeroAccumulate = accum_cmd::kZeroAccumulate,
                         kAccLoad = accum_cmd::kLoadAccumulate;

/// IMM_SRC (common-formats.md §7.2): the 4 bytes are the value, a PartitionOffset pointer, or a register number
/// whose register holds the pointer. A value outside the enum reads as the value (the validator rejects it).
inline constexpr uint8_t kImmInstruction = imm_src::kInstruction, kImmPointer = imm_src::kPointer,
                         kImmRegPointer = imm_src::kRegPointer;
constexpr ImmReading imm_reading(uint8_t imm_src) {
  if (imm_src == kImmPointer) return ImmReading::Pointer;
  if (imm_src == kImmRegPointer) return ImmReading::Register;
  return ImmReading::Value;
}

/// DTYPE_PAIR (common-formats.md §9): the low nibble is src0's dtype, the high nibble src1's.
constexpr uint8_t pair_lo(uint8_t pair) {
  return static_cast<uint8_t>(pair & 0x0F);
}
constexpr uint8_t pair_hi(uint8_t pair) {
  return static_cast<uint8_t>(pair >> 4);
}

/// TENS_SCALAR_REV_OPS bits: bit 0 swaps op0's operands, bit 1 op1's (alu-ops.md §6.2-§6.3, PROJ-CONV-K20);
/// SELECT_REDUCE reads FIRST (1) as "invert the predicate" (PROJ-CONV-K13).
inline constexpr uint8_t kRevFirst = 1, kRevSecond = 2;

}  // namespace family::stt

// ---- Compile-time checks against the spec's layout tables (alu-ops.md §6.1, §6.5) ----

static_assert(tiles_exactly<S2s2d2Stt>() && tiles_exactly<S3d3TsSelect>());
static_assert(offset_of<S2s2d2Stt>("src0") == 12 && offset_of<S2s2d2Stt>("src1") == 24 &&
              offset_of<S2s2d2Stt>("op0") == 36 && offset_of<S2s2d2Stt>("op1") == 37 &&
              offset_of<S2s2d2Stt>("reverse_operands") == 38 && offset_of<S2s2d2Stt>("imm0_src") == 39 &&
              offset_of<S2s2d2Stt>("in0_in1_dtype") == 40 && offset_of<S2s2d2Stt>("out_dtype") == 41 &&
              offset_of<S2s2d2Stt>("num_active_channels") == 42 && offset_of<S2s2d2Stt>("imm0_dtype") == 43 &&
              offset_of<S2s2d2Stt>("accumulator_cmd") == 44 && offset_of<S2s2d2Stt>("reserved") == 45 &&
              offset_of<S2s2d2Stt>("dst") == 48 && offset_of<S2s2d2Stt>("imm0") == 60);
static_assert(offset_of<S3d3TsSelect>("reserved0") == 12 && offset_of<S3d3TsSelect>("src0") == 16 &&
              offset_of<S3d3TsSelect>("reversed_pred") == 32 && offset_of<S3d3TsSelect>("num_active_channels") == 33 &&
              offset_of<S3d3TsSelect>("dtype") == 34 && offset_of<S3d3TsSelect>("pred_imm_dtype") == 35 &&
              offset_of<S3d3TsSelect>("reserved1") == 36 && offset_of<S3d3TsSelect>("src1_imm_src") == 38 &&
              offset_of<S3d3TsSelect>("pred_imm_src") == 39 && offset_of<S3d3TsSelect>("src1_imm") == 40 &&
              offset_of<S3d3TsSelect>("pred_imm") == 44 && offset_of<S3d3TsSelect>("dst") == 48);

}  // namespace tpbisa
