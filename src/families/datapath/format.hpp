// Datapath family formats: COPY/CAST (S4D4_TR), TENSOR_TENSOR_ARITH_OP (S3S3D3_TT) and MEMSET (D4_MR).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_S4D4_TR_STRUCT (64 B), s4d4_tr.h: COPY 0x46 and CAST 0x47 (the other eleven opcodes that
/// share the struct are not modeled). The bytes are the same on every generation; MARIANA+ types src/dst as
/// MEM_PATTERN4D, whose live arm is decided by `datapath::indirect_arm` (real-programs.md §10.1, §10.6).
struct S4d4Tr {
  static constexpr Format kFormat = Format::S4d4Tr;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S4D4_TR";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  Tensor4d src{};
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  uint8_t num_active_channels = 0;
  uint8_t negated = 0;
  uint8_t op = 0;
  uint8_t op_dim = 0;
  uint8_t mask_enable = 0;
  std::array<uint8_t, 5> reserved1{};
  Tensor4d dst{};
  bool operator==(const S4d4Tr&) const = default;
};
template <>
inline constexpr auto fields_of<S4d4Tr> =
    field_decls(Member<S4d4Tr, Header>{"header", 0, &S4d4Tr::header, Role::Plain},
                Member<S4d4Tr, Events>{"events", 4, &S4d4Tr::events, Role::Plain},
                Member<S4d4Tr, Tensor4d>{"src", 12, &S4d4Tr::src, Role::Plain},
                Member<S4d4Tr, uint8_t>{"in_dtype", 32, &S4d4Tr::in_dtype, Role::Dtype},
                Member<S4d4Tr, uint8_t>{"out_dtype", 33, &S4d4Tr::out_dtype, Role::Dtype},
                Member<S4d4Tr, uint8_t>{"num_active_channels", 34, &S4d4Tr::num_active_channels, Role::Channels},
                Member<S4d4Tr, uint8_t>{"negated", 35, &S4d4Tr::negated, Role::ZeroFlag},
                Member<S4d4Tr, uint8_t>{"op", 36, &S4d4Tr::op, Role::AluOp},
                Member<S4d4Tr, uint8_t>{"op_dim", 37, &S4d4Tr::op_dim, Role::Subdim},
                Member<S4d4Tr, uint8_t>{"mask_enable", 38, &S4d4Tr::mask_enable, Role::ZeroFlag},
                Member<S4d4Tr, std::array<uint8_t, 5>>{"reserved1", 39, &S4d4Tr::reserved1, Role::Reserved},
                Member<S4d4Tr, Tensor4d>{"dst", 44, &S4d4Tr::dst, Role::Plain});

/// NEURON_ISA_TPB_S3S3D3_TT_STRUCT (64 B), s3s3d3_tt.h: TENSOR_TENSOR_ARITH_OP 0x41. Operand order as the
/// header declares it, src0 @16, src1 @32, dst @48 (PROJ-CONV-F20). MARIANA+ types the tensors MEM_PATTERN3D.
struct S3s3d3Tt {
  static constexpr Format kFormat = Format::S3s3d3Tt;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S3S3D3_TT";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t in0_in1_dtype = 0;  ///< DTYPE_PAIR: low nibble src0, high nibble src1
  uint8_t out_dtype = 0;
  uint8_t op = 0;
  uint8_t num_active_channels = 0;
  Tensor3d src0{};
  Tensor3d src1{};
  Tensor3d dst{};
  bool operator==(const S3s3d3Tt&) const = default;
};
template <>
inline constexpr auto fields_of<S3s3d3Tt> =
    field_decls(Member<S3s3d3Tt, Header>{"header", 0, &S3s3d3Tt::header, Role::Plain},
                Member<S3s3d3Tt, Events>{"events", 4, &S3s3d3Tt::events, Role::Plain},
                Member<S3s3d3Tt, uint8_t>{"in0_in1_dtype", 12, &S3s3d3Tt::in0_in1_dtype, Role::Custom},
                Member<S3s3d3Tt, uint8_t>{"out_dtype", 13, &S3s3d3Tt::out_dtype, Role::Dtype},
                Member<S3s3d3Tt, uint8_t>{"op", 14, &S3s3d3Tt::op, Role::AluOp},
                Member<S3s3d3Tt, uint8_t>{"num_active_channels", 15, &S3s3d3Tt::num_active_channels, Role::Channels},
                Member<S3s3d3Tt, Tensor3d>{"src0", 16, &S3s3d3Tt::src0, Role::Plain},
                Member<S3s3d3Tt, Tensor3d>{"src1", 32, &S3s3d3Tt::src1, Role::Plain},
                Member<S3s3d3Tt, Tensor3d>{"dst", 48, &S3s3d3Tt::dst, Role::Plain});

/// NEURON_ISA_TPB_D4_MR_STRUCT (64 B), d4_mr.h: MEMSET 0x49 (REG_STORE 0x4b, RNG 0x4d and DVE_READ_INDICES
/// 0xe9 share the struct and are not modeled). Same bytes on every generation (real-programs.md §12.1).
struct D4Mr {
  static constexpr Format kFormat = Format::D4Mr;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "D4_MR";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 16> reserved0{};
  uint32_t dst_element_count = 0;
  uint8_t dtype = 0;
  std::array<uint8_t, 1> reserved1{};
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 1> reserved2{};
  uint8_t serialization_mode = 0;
  std::array<uint8_t, 3> reserved3{};
  uint32_t set_value = 0;
  Tensor4d dst{};
  bool operator==(const D4Mr&) const = default;
};
template <>
inline constexpr auto fields_of<D4Mr> =
    field_decls(Member<D4Mr, Header>{"header", 0, &D4Mr::header, Role::Plain},
                Member<D4Mr, Events>{"events", 4, &D4Mr::events, Role::Plain},
                Member<D4Mr, std::array<uint8_t, 16>>{"reserved0", 12, &D4Mr::reserved0, Role::Reserved},
                Member<D4Mr, uint32_t>{"dst_element_count", 28, &D4Mr::dst_element_count, Role::Plain},
                Member<D4Mr, uint8_t>{"dtype", 32, &D4Mr::dtype, Role::Dtype},
                Member<D4Mr, std::array<uint8_t, 1>>{"reserved1", 33, &D4Mr::reserved1, Role::Reserved},
                Member<D4Mr, uint8_t>{"num_active_channels", 34, &D4Mr::num_active_channels, Role::Channels},
                Member<D4Mr, std::array<uint8_t, 1>>{"reserved2", 35, &D4Mr::reserved2, Role::Reserved},
                Member<D4Mr, uint8_t>{"serialization_mode", 36, &D4Mr::serialization_mode, Role::Custom},
                Member<D4Mr, std::array<uint8_t, 3>>{"reserved3", 37, &D4Mr::reserved3, Role::Reserved},
                Member<D4Mr, uint32_t>{"set_value", 40, &D4Mr::set_value, Role::Custom},
                Member<D4Mr, Tensor4d>{"dst", 44, &D4Mr::dst, Role::Plain});

namespace family {

/// The datapath family (src/families/datapath): its layouts and the parts its folder defines.
struct DatapathFamily {
  static constexpr std::string_view kName = "datapath";
  using Layouts = TypeList<S4d4Tr, S3s3d3Tt, D4Mr>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

}  // namespace family

/// The datapath family's dependent-field readings: each decided here, once, for the validators, the
/// describer and the disassembler.
namespace datapath {

/// DTYPE_PAIR (common-formats.md §9): the low nibble is src0's dtype, the high nibble src1's.
constexpr uint8_t pair_lo(uint8_t pair) {
  return static_cast<uint8_t>(pair & 0x0F);
}
constexpr uint8_t pair_hi(uint8_t pair) {
  return static_cast<uint8_t>(pair >> 4);
}

/// Which MEM_PATTERN arm an S4D4_TR / S3S3D3_TT operand uses: the indirect arm `i` when the generation types
/// the operand as MEM_PATTERN (MARIANA+) and the first word's byte 3 selects it ((byte3 & 0xE0) == 0x20,
/// common-formats.md §6.2); otherwise the plain tensor `t`. SUNDA/CAYMAN read every marker as TENSOR*D.
constexpr bool indirect_arm(const Addr4& start, Generation g) {
  return GenSet{kGensMarianaUp}.has(g) && (start.marker() & 0xE0) == 0x20;
}

/// memset_set_value_type (d4_mr.h:124-140): the bits of `set_value` a dtype may use; 0 when no value is
/// legal for the dtype (FP32R and everything outside the three listed groups).
constexpr uint32_t memset_value_mask(uint8_t d) {
  switch (d) {
    case dtype::kFp32:
    case dtype::kUint32:
    case dtype::kInt32: return 0xFFFFFFFFU;
    case dtype::kUint16:
    case dtype::kInt16:
    case dtype::kBfloat16:
    case dtype::kFp16: return 0x0000FFFFU;
    case dtype::kUint8:
    case dtype::kInt8:
    case dtype::kFp8Exp3:
    case dtype::kFp8Exp4:
    case dtype::kFp8Exp5: return 0x000000FFU;
    default: return 0;
  }
}

/// REG_SERIAL_MODE `Serial` (PROJ-CONV-F22: its value is unknown; the compiler leaves the byte zero).
inline constexpr uint8_t kSerial = 0;

}  // namespace datapath

// ---- Compile-time checks against the spec's layout tables (real-programs.md §10.1, §11.1, §12.1) ----

static_assert(tiles_exactly<S4d4Tr>() && tiles_exactly<S3s3d3Tt>() && tiles_exactly<D4Mr>());
static_assert(offset_of<S4d4Tr>("src") == 12 && offset_of<S4d4Tr>("in_dtype") == 32 &&
              offset_of<S4d4Tr>("out_dtype") == 33 && offset_of<S4d4Tr>("num_active_channels") == 34 &&
              offset_of<S4d4Tr>("negated") == 35 && offset_of<S4d4Tr>("op") == 36 &&
              offset_of<S4d4Tr>("op_dim") == 37 && offset_of<S4d4Tr>("mask_enable") == 38 &&
              offset_of<S4d4Tr>("reserved1") == 39 && offset_of<S4d4Tr>("dst") == 44);
static_assert(offset_of<S3s3d3Tt>("in0_in1_dtype") == 12 && offset_of<S3s3d3Tt>("out_dtype") == 13 &&
              offset_of<S3s3d3Tt>("op") == 14 && offset_of<S3s3d3Tt>("num_active_channels") == 15 &&
              offset_of<S3s3d3Tt>("src0") == 16 && offset_of<S3s3d3Tt>("src1") == 32 &&
              offset_of<S3s3d3Tt>("dst") == 48);
static_assert(offset_of<D4Mr>("reserved0") == 12 && offset_of<D4Mr>("dst_element_count") == 28 &&
              offset_of<D4Mr>("dtype") == 32 && offset_of<D4Mr>("reserved1") == 33 &&
              offset_of<D4Mr>("num_active_channels") == 34 && offset_of<D4Mr>("reserved2") == 35 &&
              offset_of<D4Mr>("serialization_mode") == 36 && offset_of<D4Mr>("reserved3") == 37 &&
              offset_of<D4Mr>("set_value") == 40 && offset_of<D4Mr>("dst") == 44);

}  // namespace tpbisa
