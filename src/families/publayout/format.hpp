// Public-layout family formats: COPY_PREDICATED_SCALAR 0xE8 (S3D3_CP_PRED_SCALAR), whose layout the wiki
// compile-verifies and which no other family decodes (copypredicatedscalar.md §4).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_S3D3_CP_PRED_SCALAR_STRUCT (64 B), s3d3_cp_pred_scalar.h: COPY_PREDICATED_SCALAR 0xE8, its sole
/// occupant. The same bytes on every generation; MARIANA+ types the two patterns MEM_PATTERN3D, judged by their
/// TENSOR3D bytes (PROJ-CONV-K3, PROJ-CONV-PU1).
struct S3d3CpPredScalar {
  static constexpr Format kFormat = Format::S3d3CpPredScalar;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S3D3_CP_PRED_SCALAR";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 4> reserved0{};
  Tensor3d pred{};  ///< the integer predicate, one element per dst element
  uint8_t pred_dtype = 0;
  uint8_t reversed_pred = 0;  ///< 0: a zero predicate takes the scalar; 1: a non-zero one does
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 6> reserved1{};
  uint8_t in_dtype = 0;   ///< the scalar's dtype (equal to out_dtype: no conversion)
  uint8_t out_dtype = 0;  ///< dst's dtype
  uint8_t src0_imm_src = 0;
  ImmVal src0_imm{};  ///< the scalar: its bits, a PartitionOffset pointer, or a register holding one
  Tensor3d dst{};     ///< read (kept elements) and written
  bool operator==(const S3d3CpPredScalar&) const = default;
};
template <>
inline constexpr auto fields_of<S3d3CpPredScalar> = std::make_tuple(
    Member<S3d3CpPredScalar, Header>{"header", 0, &S3d3CpPredScalar::header, Role::Plain},
    Member<S3d3CpPredScalar, Events>{"events", 4, &S3d3CpPredScalar::events, Role::Plain},
    Member<S3d3CpPredScalar, std::array<uint8_t, 4>>{"reserved0", 12, &S3d3CpPredScalar::reserved0, Role::Reserved},
    Member<S3d3CpPredScalar, Tensor3d>{"pred", 16, &S3d3CpPredScalar::pred, Role::Plain},
    Member<S3d3CpPredScalar, uint8_t>{"pred_dtype", 32, &S3d3CpPredScalar::pred_dtype, Role::Dtype},
    Member<S3d3CpPredScalar, uint8_t>{"reversed_pred", 33, &S3d3CpPredScalar::reversed_pred, Role::Custom},
    Member<S3d3CpPredScalar, uint8_t>{"num_active_channels", 34, &S3d3CpPredScalar::num_active_channels,
                                      Role::Channels},
    Member<S3d3CpPredScalar, std::array<uint8_t, 6>>{"reserved1", 35, &S3d3CpPredScalar::reserved1, Role::Reserved},
    Member<S3d3CpPredScalar, uint8_t>{"in_dtype", 41, &S3d3CpPredScalar::in_dtype, Role::Dtype},
    Member<S3d3CpPredScalar, uint8_t>{"out_dtype", 42, &S3d3CpPredScalar::out_dtype, Role::Dtype},
    Member<S3d3CpPredScalar, uint8_t>{"src0_imm_src", 43, &S3d3CpPredScalar::src0_imm_src, Role::ImmSrc},
    Member<S3d3CpPredScalar, ImmVal>{"src0_imm", 44, &S3d3CpPredScalar::src0_imm, Role::ImmVal},
    Member<S3d3CpPredScalar, Tensor3d>{"dst", 48, &S3d3CpPredScalar::dst, Role::Plain});

namespace family {

/// The public-layout family (src/families/publayout): opcodes whose layouts the public sources give and that no
/// other family decodes.
struct PublicLayoutFamily {
  static constexpr std::string_view kName = "publayout";
  using Layouts = TypeList<S3d3CpPredScalar>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

namespace publayout {

inline constexpr uint8_t kCopyPredicatedScalar = ::tpbisa::detail::opcode_named("COPY_PREDICATED_SCALAR");

/// How src0_imm is read (IMM_SRC, common-formats.md §7.2); a value outside the enum reads as the value (the
/// validator rejects it).
constexpr ImmReading imm_reading(uint8_t src) {
  return src == imm_src::kPointer      ? ImmReading::Pointer
         : src == imm_src::kRegPointer ? ImmReading::Register
                                       : ImmReading::Value;
}

/// Whether element k of dst takes the scalar: where the predicate is zero by default, where it is not zero with
/// reversed_pred (s3d3_cp_pred_scalar.h's reference loop, copypredicatedscalar.md §7).
constexpr bool takes_scalar(bool pred_set, uint8_t reversed_pred) {
  return pred_set == (reversed_pred != 0);
}

}  // namespace publayout
}  // namespace family

static_assert(tiles_exactly<S3d3CpPredScalar>());
static_assert(offset_of<S3d3CpPredScalar>("reserved0") == 12 && offset_of<S3d3CpPredScalar>("pred") == 16 &&
              offset_of<S3d3CpPredScalar>("pred_dtype") == 32 && offset_of<S3d3CpPredScalar>("reversed_pred") == 33 &&
              offset_of<S3d3CpPredScalar>("num_active_channels") == 34 &&
              offset_of<S3d3CpPredScalar>("reserved1") == 35 && offset_of<S3d3CpPredScalar>("in_dtype") == 41 &&
              offset_of<S3d3CpPredScalar>("out_dtype") == 42 && offset_of<S3d3CpPredScalar>("src0_imm_src") == 43 &&
              offset_of<S3d3CpPredScalar>("src0_imm") == 44 && offset_of<S3d3CpPredScalar>("dst") == 48);

}  // namespace tpbisa
