// Reduce family: the reductions, transposing reductions, scans and RECIPROCAL over S4D4_TR (alu-ops.md §3.2-§3.5).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/families/datapath/format.hpp"

namespace tpbisa {

namespace family {

/// The reduce family (src/families/reduce): TENSOR_REDUCE 0x42/0x52, TRANSPOSE_TENSOR_REDUCE 0x83/0x84,
/// TENSOR_CUMULATIVE 0x4E/0x5E and RECIPROCAL 0x48. It declares no layout: its opcodes read S4D4_TR, which the
/// datapath family declares.
struct ReduceFamily {
  static constexpr std::string_view kName = "reduce";
  using Layouts = TypeList<>;
  using Uses = TypeList<S4d4Tr>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

}  // namespace family

/// The reduce family's readings of S4D4_TR fields whose meaning depends on the opcode: decided here once, for the
/// validators, the executor and `decode`.
namespace reduce {

// The family's opcodes, by their catalog names.
inline constexpr uint8_t kTensorReduceArith = detail::opcode_named("TENSOR_REDUCE_ARITH_OP");
inline constexpr uint8_t kTensorReduceBitvec = detail::opcode_named("TENSOR_REDUCE_BITVEC_OP");
inline constexpr uint8_t kTransposeReduceArith = detail::opcode_named("TRANSPOSE_TENSOR_REDUCE_ARITH_OP");
inline constexpr uint8_t kTransposeReduceBitvec = detail::opcode_named("TRANSPOSE_TENSOR_REDUCE_BITVEC_OP");
inline constexpr uint8_t kCumulativeArith = detail::opcode_named("TENSOR_CUMULATIVE_ARITH_OP");
inline constexpr uint8_t kCumulativeBitvec = detail::opcode_named("TENSOR_CUMULATIVE_BITVEC_OP");
inline constexpr uint8_t kReciprocal = detail::opcode_named("RECIPROCAL");

/// An ALU op's code by its catalog name (enums.md §5).
consteval uint8_t alu_named(std::string_view name) {
  for (const AluOpInfo& r : kAluOps)
    if (r.name == name) return r.code;
  throw "no ALU op of that name";
}
// The integer-band ALU ops the family names.
inline constexpr uint8_t kAddInt = alu_named("ADD_INT"), kMultInt = alu_named("MULT_INT"),
                         kMaxInt = alu_named("MAX_INT"), kMinInt = alu_named("MIN_INT"),
                         kMaxUint = alu_named("MAX_UINT"), kMinUint = alu_named("MIN_UINT"),
                         kAmaxInt = alu_named("AMAX_INT"), kAminInt = alu_named("AMIN_INT"),
                         kAmaxUint = alu_named("AMAX_UINT"), kAminUint = alu_named("AMIN_UINT");

/// The reductions, transposing or not (§3.2, §3.3).
constexpr bool is_reduce(uint8_t opcode) {
  return opcode == kTensorReduceArith || opcode == kTensorReduceBitvec || opcode == kTransposeReduceArith ||
         opcode == kTransposeReduceBitvec;
}
/// The scans (§3.4).
constexpr bool is_cumulative(uint8_t opcode) {
  return opcode == kCumulativeArith || opcode == kCumulativeBitvec;
}
/// The opcodes preceded by the 32 x 32 transpose (§3.3, PROJ-CONV-K7).
constexpr bool is_transpose(uint8_t opcode) {
  return opcode == kTransposeReduceArith || opcode == kTransposeReduceBitvec;
}
/// The bit-vector opcodes: raw element bits, no conversion (§2.3, PROJ-CONV-K10).
constexpr bool is_bitvec(uint8_t opcode) {
  return opcode == kTensorReduceBitvec || opcode == kTransposeReduceBitvec || opcode == kCumulativeBitvec;
}

/// How many leading dimensions op_dim names (SUBDIM X 2, XY 3, XYZ 4, XYZW 5: 1..4); 0 for any other value.
constexpr unsigned leading_dims(uint8_t op_dim) {
  return op_dim >= 2 && op_dim <= 5 ? op_dim - 1U : 0U;
}

/// is_valid_tensor_reduce_int_op (its member set is PROJ-CONV-K6): the integer ops a TensorReduce admits.
constexpr bool is_reduce_int_op(uint8_t op) {
  switch (op) {
    case kAddInt:
    case kMultInt:
    case kMaxInt:
    case kMinInt:
    case kMaxUint:
    case kMinUint:
    case kAmaxInt:
    case kAminInt:
    case kAmaxUint:
    case kAminUint: return true;
    default: return false;
  }
}
/// The arg-max / arg-min ops: their result is an index within the group (PROJ-CONV-K6).
constexpr bool is_arg_op(uint8_t op) {
  return op == kAmaxInt || op == kAminInt || op == kAmaxUint || op == kAminUint;
}
/// The ops an arithmetic opcode evaluates on the integer path (PROJ-CONV-K5 (a)): the integer band and MOD.
constexpr bool on_integer_path(uint8_t op) {
  return (op >= kAddInt && op <= kAminUint) || op == aluop::kMod;
}

}  // namespace reduce

static_assert(reduce::leading_dims(2) == 1 && reduce::leading_dims(5) == 4 && reduce::leading_dims(0) == 0);

}  // namespace tpbisa
