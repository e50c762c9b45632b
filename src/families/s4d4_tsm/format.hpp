// S4D4_TSM family format: TensorScalarPtrMulti 0x4F/0x5F and the SUNDA-only Dual pair 0x87/0x88.
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_S4D4_TSM_STRUCT (64 B): PtrMulti 0x4F/0x5F, SUNDA Dual 0x87/0x88.
struct S4d4Tsm {
  static constexpr Format kFormat = Format::S4d4Tsm;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S4D4_TSM";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  Tensor4d src_mem_pattern{};
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 1> reserved0{};
  uint8_t op = 0;
  uint8_t op_dim = 0;
  uint8_t reverse_operands = 0;
  std::array<uint8_t, 5> reserved1{};  ///< five bytes 39..43 (the header comment's "6" is a typo)
  Tensor4d dst_mem_pattern{};
  bool operator==(const S4d4Tsm&) const = default;
};
template <>
inline constexpr auto fields_of<S4d4Tsm> =
    field_decls(Member<S4d4Tsm, Header>{"header", 0, &S4d4Tsm::header, Role::Plain},
                Member<S4d4Tsm, Events>{"events", 4, &S4d4Tsm::events, Role::Plain},
                Member<S4d4Tsm, Tensor4d>{"src_mem_pattern", 12, &S4d4Tsm::src_mem_pattern, Role::Plain},
                Member<S4d4Tsm, uint8_t>{"in_dtype", 32, &S4d4Tsm::in_dtype, Role::Dtype},
                Member<S4d4Tsm, uint8_t>{"out_dtype", 33, &S4d4Tsm::out_dtype, Role::Dtype},
                Member<S4d4Tsm, uint8_t>{"num_active_channels", 34, &S4d4Tsm::num_active_channels, Role::Channels},
                Member<S4d4Tsm, std::array<uint8_t, 1>>{"reserved0", 35, &S4d4Tsm::reserved0, Role::Reserved},
                Member<S4d4Tsm, uint8_t>{"op", 36, &S4d4Tsm::op, Role::AluOp},
                Member<S4d4Tsm, uint8_t>{"op_dim", 37, &S4d4Tsm::op_dim, Role::Subdim},
                Member<S4d4Tsm, uint8_t>{"reverse_operands", 38, &S4d4Tsm::reverse_operands, Role::RevOps},
                Member<S4d4Tsm, std::array<uint8_t, 5>>{"reserved1", 39, &S4d4Tsm::reserved1, Role::Reserved},
                Member<S4d4Tsm, Tensor4d>{"dst_mem_pattern", 44, &S4d4Tsm::dst_mem_pattern, Role::Plain});

namespace family::tsm {
/// The Dual opcodes 0x87/0x88 (SUNDA only).
constexpr bool is_dual(uint8_t op) {
  return op == opcode::kPtrMultiDualArith || op == opcode::kPtrMultiDualBitvec;
}
/// tensor_scalar_ptr_multi_arith / _bitvec (SUNDA also counts the Dual opcodes).
constexpr bool arith_opcode(uint8_t op) {
  return op == opcode::kPtrMultiArith || op == opcode::kPtrMultiDualArith;
}
constexpr bool bitvec_opcode(uint8_t op) {
  return op == opcode::kPtrMultiBitvec || op == opcode::kPtrMultiDualBitvec;
}
}  // namespace family::tsm

namespace family {
/// The S4D4_TSM family (src/families/s4d4_tsm): its layouts and the parts its folder defines.
struct TsmFamily {
  static constexpr std::string_view kName = "s4d4_tsm";
  using Layouts = TypeList<S4d4Tsm>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};
}  // namespace family

// ---- Compile-time checks against the spec's compile-verified offsets ----

static_assert(tiles_exactly<S4d4Tsm>());
static_assert(offset_of<S4d4Tsm>("src_mem_pattern") == 12 && offset_of<S4d4Tsm>("in_dtype") == 32 &&
              offset_of<S4d4Tsm>("out_dtype") == 33 && offset_of<S4d4Tsm>("num_active_channels") == 34 &&
              offset_of<S4d4Tsm>("reserved0") == 35 && offset_of<S4d4Tsm>("op") == 36 &&
              offset_of<S4d4Tsm>("op_dim") == 37 && offset_of<S4d4Tsm>("reverse_operands") == 38 &&
              offset_of<S4d4Tsm>("reserved1") == 39 && offset_of<S4d4Tsm>("dst_mem_pattern") == 44);
static_assert(FormatDescOf<S4d4Tsm>::kFields[10].size == 5, "reserved1 is five bytes (39..43)");

}  // namespace tpbisa
