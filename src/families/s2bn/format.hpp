// S2_BN family format: ImmLd 0x70/0x71, BatchNormParamLoad 0x64, MatchValueLoad 0x6d.
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_S2_BN_STRUCT (64 B): ImmLd 0x70/0x71, BatchNormParamLoad 0x64, MatchValueLoad 0x6d.
struct S2Bn {
  static constexpr Format kFormat = Format::S2Bn;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S2_BN";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 4> reserved0{};
  Tensor2d src_mem_pattern{};
  ImmVal imm1{};
  uint8_t dtype = 0;
  std::array<uint8_t, 1> reserved1{};
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 9> reserved2{};
  ImmVal imm0_ptr{};
  uint8_t imm0_src = 0;
  std::array<uint8_t, 15> reserved3{};
  /// Source elements: src num_elem[0] * num_elem[1].
  constexpr unsigned src_elements() const {
    return unsigned{src_mem_pattern.num_elem[0]} * unsigned{src_mem_pattern.num_elem[1]};
  }
  bool operator==(const S2Bn&) const = default;
};
template <>
inline constexpr auto fields_of<S2Bn> =
    field_decls(Member<S2Bn, Header>{"header", 0, &S2Bn::header, Role::Plain},
                Member<S2Bn, Events>{"events", 4, &S2Bn::events, Role::Plain},
                Member<S2Bn, std::array<uint8_t, 4>>{"reserved0", 12, &S2Bn::reserved0, Role::Reserved},
                Member<S2Bn, Tensor2d>{"src_mem_pattern", 16, &S2Bn::src_mem_pattern, Role::Plain},
                Member<S2Bn, ImmVal>{"imm1", 28, &S2Bn::imm1, Role::ImmVal},
                Member<S2Bn, uint8_t>{"dtype", 32, &S2Bn::dtype, Role::Dtype},
                Member<S2Bn, std::array<uint8_t, 1>>{"reserved1", 33, &S2Bn::reserved1, Role::Reserved},
                Member<S2Bn, uint8_t>{"num_active_channels", 34, &S2Bn::num_active_channels, Role::Channels},
                Member<S2Bn, std::array<uint8_t, 9>>{"reserved2", 35, &S2Bn::reserved2, Role::Reserved},
                Member<S2Bn, ImmVal>{"imm0_ptr", 44, &S2Bn::imm0_ptr, Role::ImmVal},
                Member<S2Bn, uint8_t>{"imm0_src", 48, &S2Bn::imm0_src, Role::ImmSrc},
                Member<S2Bn, std::array<uint8_t, 15>>{"reserved3", 49, &S2Bn::reserved3, Role::Reserved});

namespace family::s2bn {
/// How imm0_ptr is read (common-formats.md §7.2, s2bn.md §3.3): IMM_SRC 1 is a pointer, 2 a register holding the
/// pointer, 0 the value itself -- except that BatchNormParamLoad reads 0 as a pointer given in the instruction too
/// (edge case #107). Other values select no reading (PROJ-CONV-S11): the bytes are the value. The validator, the
/// field descriptions and the disassembler all ask this function.
constexpr ImmReading imm0_reading(uint8_t opcode, uint8_t imm0_src) {
  if (imm0_src == 1 || (imm0_src == 0 && opcode == opcode::kBatchNormParamLoad)) return ImmReading::Pointer;
  if (imm0_src == 2) return ImmReading::Register;
  return ImmReading::Value;
}
constexpr ImmReading imm0_reading(const S2Bn& s) {
  return imm0_reading(s.header.opcode, s.imm0_src);
}
}  // namespace family::s2bn

struct UnitState;  // tpbisa/unit_state.hpp

namespace family {
/// The S2_BN family (src/families/s2bn): its layouts and the parts its folder defines.
struct S2BnFamily {
  static constexpr std::string_view kName = "s2bn";
  using Layouts = TypeList<S2Bn>;
  static const Validation& validation();           ///< validate.cpp
  static const Execution& execution();             ///< execute.cpp
  static const Syntax& syntax();                   ///< syntax.cpp
  static std::span<const UnitState> unit_state();  ///< state.cpp: the DVE channels' flops, keys and parameters
};
}  // namespace family

// ---- Compile-time checks against the spec's compile-verified offsets ----

static_assert(tiles_exactly<S2Bn>());
static_assert(offset_of<S2Bn>("src_mem_pattern") == 16 && offset_of<S2Bn>("imm1") == 28 &&
              offset_of<S2Bn>("dtype") == 32 && offset_of<S2Bn>("num_active_channels") == 34 &&
              offset_of<S2Bn>("imm0_ptr") == 44 && offset_of<S2Bn>("imm0_src") == 48);

}  // namespace tpbisa
