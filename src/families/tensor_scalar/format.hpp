// Tensor-scalar family formats: S3D3_TS (TensorScalar, TensorScalarPtr, TransposeTensorScalar, the cache
// reduce/cumulative forms, Exponential) and D1_RD (DveReadAccumulator), alu-ops.md §5.
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_TENSOR1D (8 B): one dimension of a tensor pattern (alu-ops.md §2.1).
struct Tensor1d {
  static constexpr std::string_view kName = "TENSOR1D";
  static constexpr size_t kSize = 8;
  Addr4 start_addr{};
  std::array<int16_t, 1> step_elem{};
  std::array<uint16_t, 1> num_elem{};
  constexpr uint64_t elements() const { return num_elem[0]; }
  bool operator==(const Tensor1d&) const = default;
};
template <>
inline constexpr auto fields_of<Tensor1d> =
    field_decls(Member<Tensor1d, Addr4>{"start_addr", 0, &Tensor1d::start_addr, Role::Addr4},
                Member<Tensor1d, std::array<int16_t, 1>>{"step_elem", 4, &Tensor1d::step_elem, Role::Step},
                Member<Tensor1d, std::array<uint16_t, 1>>{"num_elem", 6, &Tensor1d::num_elem, Role::NumElem});

/// NEURON_ISA_TPB_S3D3_TS_STRUCT (64 B), s3d3_ts.h: 0x43/0x53, 0x44/0x54, 0x93, 0x9A, 0xE6, 0x30. The bytes are
/// the same on every generation; MARIANA+ types src/dst as MEM_PATTERN3D, judged by their TENSOR3D bytes
/// (PROJ-CONV-K3, alu-ops.md §5.1).
struct S3d3Ts {
  static constexpr Format kFormat = Format::S3d3Ts;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S3D3_TS";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t accumulator_cmd = 0;  ///< ACCUM_CMD (enums.md §11)
  std::array<uint8_t, 3> reserved0{};
  Tensor3d src{};
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  uint8_t num_active_channels = 0;
  uint8_t imm0_src = 0;
  uint8_t op0 = 0;
  uint8_t op1 = 0;
  uint8_t reverse_operands = 0;
  uint8_t imm1_src = 0;
  ImmVal imm0{};
  ImmVal imm1{};
  Tensor3d dst{};
  bool operator==(const S3d3Ts&) const = default;
};
template <>
inline constexpr auto fields_of<S3d3Ts> =
    field_decls(Member<S3d3Ts, Header>{"header", 0, &S3d3Ts::header, Role::Plain},
                Member<S3d3Ts, Events>{"events", 4, &S3d3Ts::events, Role::Plain},
                Member<S3d3Ts, uint8_t>{"accumulator_cmd", 12, &S3d3Ts::accumulator_cmd, Role::Custom},
                Member<S3d3Ts, std::array<uint8_t, 3>>{"reserved0", 13, &S3d3Ts::reserved0, Role::Reserved},
                Member<S3d3Ts, Tensor3d>{"src", 16, &S3d3Ts::src, Role::Plain},
                Member<S3d3Ts, uint8_t>{"in_dtype", 32, &S3d3Ts::in_dtype, Role::Dtype},
                Member<S3d3Ts, uint8_t>{"out_dtype", 33, &S3d3Ts::out_dtype, Role::Dtype},
                Member<S3d3Ts, uint8_t>{"num_active_channels", 34, &S3d3Ts::num_active_channels, Role::Channels},
                Member<S3d3Ts, uint8_t>{"imm0_src", 35, &S3d3Ts::imm0_src, Role::ImmSrc},
                Member<S3d3Ts, uint8_t>{"op0", 36, &S3d3Ts::op0, Role::AluOp},
                Member<S3d3Ts, uint8_t>{"op1", 37, &S3d3Ts::op1, Role::AluOp},
                Member<S3d3Ts, uint8_t>{"reverse_operands", 38, &S3d3Ts::reverse_operands, Role::RevOps},
                Member<S3d3Ts, uint8_t>{"imm1_src", 39, &S3d3Ts::imm1_src, Role::ImmSrc},
                Member<S3d3Ts, ImmVal>{"imm0", 40, &S3d3Ts::imm0, Role::ImmVal},
                Member<S3d3Ts, ImmVal>{"imm1", 44, &S3d3Ts::imm1, Role::ImmVal},
                Member<S3d3Ts, Tensor3d>{"dst", 48, &S3d3Ts::dst, Role::Plain});

/// NEURON_ISA_TPB_D1_RD_STRUCT (64 B): DVE_READ_ACCUMULATOR 0x9B (ACTIVATION_READ_ACCUMULATOR 0x24 shares the struct
/// and is not modeled here). Same bytes on every generation (alu-ops.md §5.7).
struct D1Rd {
  static constexpr Format kFormat = Format::D1Rd;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "D1_RD";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 16> reserved0{};
  uint32_t dst_element_count = 0;
  uint8_t dtype = 0;
  uint8_t negated = 0;
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 9> reserved1{};
  Tensor1d dst{};
  std::array<uint8_t, 12> reserved2{};
  bool operator==(const D1Rd&) const = default;
};
template <>
inline constexpr auto fields_of<D1Rd> =
    field_decls(Member<D1Rd, Header>{"header", 0, &D1Rd::header, Role::Plain},
                Member<D1Rd, Events>{"events", 4, &D1Rd::events, Role::Plain},
                Member<D1Rd, std::array<uint8_t, 16>>{"reserved0", 12, &D1Rd::reserved0, Role::Reserved},
                Member<D1Rd, uint32_t>{"dst_element_count", 28, &D1Rd::dst_element_count, Role::Plain},
                Member<D1Rd, uint8_t>{"dtype", 32, &D1Rd::dtype, Role::Dtype},
                Member<D1Rd, uint8_t>{"negated", 33, &D1Rd::negated, Role::Plain},
                Member<D1Rd, uint8_t>{"num_active_channels", 34, &D1Rd::num_active_channels, Role::Channels},
                Member<D1Rd, std::array<uint8_t, 9>>{"reserved1", 35, &D1Rd::reserved1, Role::Reserved},
                Member<D1Rd, Tensor1d>{"dst", 44, &D1Rd::dst, Role::Plain},
                Member<D1Rd, std::array<uint8_t, 12>>{"reserved2", 52, &D1Rd::reserved2, Role::Reserved});

struct UnitState;  // tpbisa/unit_state.hpp

namespace family {

/// The tensor-scalar family (src/families/tensor_scalar): its layouts and the parts its folder defines.
struct TensorScalarFamily {
  static constexpr std::string_view kName = "tensor_scalar";
  using Layouts = TypeList<S3d3Ts, D1Rd>;
  static const Validation& validation();           ///< validate.cpp
  static const Execution& execution();             ///< execute.cpp
  static const Syntax& syntax();                   ///< syntax.cpp
  static std::span<const UnitState> unit_state();  ///< state.cpp: the DVE channels' accumulator registers
};

}  // namespace family

/// The tensor-scalar family's opcodes and dependent readings: each decided here, once, for the validators, the
/// executor, the descriptions and the assembler.
namespace tensor_scalar {

inline constexpr uint8_t kArith = detail::opcode_named("TENSOR_SCALAR_ARITH_OP");
inline constexpr uint8_t kBitvec = detail::opcode_named("TENSOR_SCALAR_BITVEC_OP");
inline constexpr uint8_t kPtrArith = detail::opcode_named("TENSOR_SCALAR_PTR_ARITH_OP");
inline constexpr uint8_t kPtrBitvec = detail::opcode_named("TENSOR_SCALAR_PTR_BITVEC_OP");
inline constexpr uint8_t kTranspose = detail::opcode_named("TRANSPOSE_TENSOR_SCALAR_ARITH_OP");
inline constexpr uint8_t kCacheReduce = detail::opcode_named("TENSOR_SCALAR_CACHE_REDUCE");
inline constexpr uint8_t kCacheCumulative = detail::opcode_named("TENSOR_SCALAR_CACHE_CUMULATIVE");
inline constexpr uint8_t kExponential = detail::opcode_named("EXPONENTIAL");
inline constexpr uint8_t kReadAccumulator = detail::opcode_named("DVE_READ_ACCUMULATOR");

/// ACCUM_CMD (enums.md §11).
inline constexpr uint8_t kAccIdle = accum_cmd::kIdle, kAccZero = accum_cmd::kZero,
                         kAccAccumulate = accum_cmd::kAccumulate, kAccZeroAccumulate = accum_cmd::kZeroAccumulate,
                         kAccLoadAccumulate = accum_cmd::kLoadAccumulate;

/// IMM_SRC (common-formats.md §7.2).
inline constexpr uint8_t kImmInstruction = imm_src::kInstruction, kImmPointer = imm_src::kPointer,
                         kImmRegPointer = imm_src::kRegPointer;

/// tensor_scalar_arith / tensor_scalar_bitvec (PROJ-CONV-K23 a): which opcodes compute on the fp32 path and which on
/// raw bits; the cache forms and Exponential are neither (their immediates are fp32, PROJ-CONV-K11).
constexpr bool arith_opcode(uint8_t op) {
  return op == kArith || op == kTranspose || op == kPtrArith;
}
constexpr bool bitvec_opcode(uint8_t op) {
  return op == kBitvec || op == kPtrBitvec;
}
constexpr bool ptr_opcode(uint8_t op) {
  return op == kPtrArith || op == kPtrBitvec;
}
/// The opcodes that read imm1 only under LOAD_ACCUMULATE (PROJ-CONV-K11 d).
constexpr bool accumulating_opcode(uint8_t op) {
  return op == kCacheReduce || op == kCacheCumulative || op == kExponential;
}

/// How immediate `which` (0: imm0, 1: imm1) is read: the PTR forms read both as pointers whatever `*_src` says
/// (PROJ-CONV-K26); otherwise IMM_SRC 1 is a pointer, 2 a register holding the pointer, 0 (and any other value) the
/// bytes themselves. The validators, the executor, decode and the assembler all ask this function.
constexpr ImmReading imm_reading(uint8_t opcode, uint8_t src) {
  if (ptr_opcode(opcode) || src == kImmPointer) return ImmReading::Pointer;
  if (src == kImmRegPointer) return ImmReading::Register;
  return ImmReading::Value;
}

}  // namespace tensor_scalar

// ---- Compile-time checks against the spec's layout tables (alu-ops.md §2.1, §5.1, §5.7) ----

static_assert(tiles_exactly<Tensor1d>() && tiles_exactly<S3d3Ts>() && tiles_exactly<D1Rd>());
static_assert(offset_of<S3d3Ts>("accumulator_cmd") == 12 && offset_of<S3d3Ts>("reserved0") == 13 &&
              offset_of<S3d3Ts>("src") == 16 && offset_of<S3d3Ts>("in_dtype") == 32 &&
              offset_of<S3d3Ts>("out_dtype") == 33 && offset_of<S3d3Ts>("num_active_channels") == 34 &&
              offset_of<S3d3Ts>("imm0_src") == 35 && offset_of<S3d3Ts>("op0") == 36 && offset_of<S3d3Ts>("op1") == 37 &&
              offset_of<S3d3Ts>("reverse_operands") == 38 && offset_of<S3d3Ts>("imm1_src") == 39 &&
              offset_of<S3d3Ts>("imm0") == 40 && offset_of<S3d3Ts>("imm1") == 44 && offset_of<S3d3Ts>("dst") == 48);
static_assert(offset_of<D1Rd>("reserved0") == 12 && offset_of<D1Rd>("dst_element_count") == 28 &&
              offset_of<D1Rd>("dtype") == 32 && offset_of<D1Rd>("negated") == 33 &&
              offset_of<D1Rd>("num_active_channels") == 34 && offset_of<D1Rd>("reserved1") == 35 &&
              offset_of<D1Rd>("dst") == 44 && offset_of<D1Rd>("reserved2") == 52);

}  // namespace tpbisa
