// Predicated family format: TENSOR_TENSOR_BITVEC_OP 0x51, COPY_PREDICATED 0x72 and CAST_PREDICATED 0x99, all on the
// S3S3D3_TT struct the datapath family declares (alu-ops.md §4).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/families/datapath/format.hpp"

namespace tpbisa::family {

/// The predicated family (src/families/predicated): it declares no struct and gives S3S3D3_TT three more opcodes.
struct PredicatedFamily {
  static constexpr std::string_view kName = "predicated";
  using Layouts = TypeList<>;
  using Uses = TypeList<S3s3d3Tt>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

namespace predicated {

inline constexpr uint8_t kTensorTensorBitvec = ::tpbisa::detail::opcode_named("TENSOR_TENSOR_BITVEC_OP");
inline constexpr uint8_t kCopyPredicated = ::tpbisa::detail::opcode_named("COPY_PREDICATED");
inline constexpr uint8_t kCastPredicated = ::tpbisa::detail::opcode_named("CAST_PREDICATED");

/// The 64-bit shift form of 0x51 (§4.2, s3s3d3_tt_src_dst_dtype's second arm): ARITH/LOGICAL shift left/right.
constexpr bool is_shift_op(uint8_t op) {
  return op == aluop::kArithShiftLeft || op == aluop::kArithShiftRight || op == aluop::kLogicalShiftLeft ||
         op == aluop::kLogicalShiftRight;
}

}  // namespace predicated
}  // namespace tpbisa::family
