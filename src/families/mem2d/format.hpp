// MEM_2D family formats: MEM_2D (TensorLoad 0xaa, TensorStore 0xab) and PSEUDO_MEM_2D (0xce, 0xcd).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_MEM_2D_STRUCT (64 B): TensorLoad 0xaa, TensorStore 0xab.
struct Mem2d {
  static constexpr Format kFormat = Format::Mem2d;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "MEM_2D";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t dtype = 0;
  uint8_t src_datasrc = 0;
  std::array<uint8_t, 2> num_elem{};
  Addr8 start_addr{};
  std::array<int32_t, 2> step_elem{};
  Mem2dData data{};
  /// Elements the transfer moves: num_elem[0] * num_elem[1].
  constexpr unsigned elements() const { return unsigned{num_elem[0]} * unsigned{num_elem[1]}; }
  bool operator==(const Mem2d&) const = default;
};
template <>
inline constexpr auto fields_of<Mem2d> =
    field_decls(Member<Mem2d, Header>{"header", 0, &Mem2d::header, Role::Plain},
                Member<Mem2d, Events>{"events", 4, &Mem2d::events, Role::Plain},
                Member<Mem2d, uint8_t>{"dtype", 12, &Mem2d::dtype, Role::Dtype},
                Member<Mem2d, uint8_t>{"src_datasrc", 13, &Mem2d::src_datasrc, Role::DataSrc},
                Member<Mem2d, std::array<uint8_t, 2>>{"num_elem", 14, &Mem2d::num_elem, Role::NumElem},
                Member<Mem2d, Addr8>{"start_addr", 16, &Mem2d::start_addr, Role::Addr8},
                Member<Mem2d, std::array<int32_t, 2>>{"step_elem", 24, &Mem2d::step_elem, Role::Step},
                Member<Mem2d, Mem2dData>{"data", 32, &Mem2d::data, Role::MemData});

/// NEURON_ISA_TPB_PSEUDO_MEM_2D_STRUCT (64 B): PseudoTensorStore 0xcd, PseudoTensorLoad 0xce.
struct PseudoMem2d {
  static constexpr Format kFormat = Format::PseudoMem2d;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "PSEUDO_MEM_2D";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t dtype = 0;
  uint8_t src_datasrc = 0;
  std::array<uint8_t, 2> num_elem{};
  uint32_t var_id = 0;
  uint32_t var_offset = 0;
  std::array<int32_t, 2> step_elem{};
  Mem2dData data{};
  /// Elements the transfer moves: num_elem[0] * num_elem[1].
  constexpr unsigned elements() const { return unsigned{num_elem[0]} * unsigned{num_elem[1]}; }
  bool operator==(const PseudoMem2d&) const = default;
};
template <>
inline constexpr auto fields_of<PseudoMem2d> =
    field_decls(Member<PseudoMem2d, Header>{"header", 0, &PseudoMem2d::header, Role::Plain},
                Member<PseudoMem2d, Events>{"events", 4, &PseudoMem2d::events, Role::Plain},
                Member<PseudoMem2d, uint8_t>{"dtype", 12, &PseudoMem2d::dtype, Role::Dtype},
                Member<PseudoMem2d, uint8_t>{"src_datasrc", 13, &PseudoMem2d::src_datasrc, Role::DataSrc},
                Member<PseudoMem2d, std::array<uint8_t, 2>>{"num_elem", 14, &PseudoMem2d::num_elem, Role::NumElem},
                Member<PseudoMem2d, uint32_t>{"var_id", 16, &PseudoMem2d::var_id, Role::VarId},
                Member<PseudoMem2d, uint32_t>{"var_offset", 20, &PseudoMem2d::var_offset, Role::VarOffset},
                Member<PseudoMem2d, std::array<int32_t, 2>>{"step_elem", 24, &PseudoMem2d::step_elem, Role::Step},
                Member<PseudoMem2d, Mem2dData>{"data", 32, &PseudoMem2d::data, Role::MemData});

namespace family::mem2d {
inline constexpr unsigned kDataBytes = std::tuple_size_v<decltype(Mem2dData::bytes)>;
inline constexpr uint8_t kDataSrcRegister = 0, kDataSrcImmediate = 1;  ///< DATA_SRC REGISTER / IMMEDIATE
/// How `data` is read (mem2d.md §3): src_datasrc REGISTER (0) names one register per slot (a register pair for
/// UINT64), IMMEDIATE (1) packs elements of the dtype when the dtype has a size; any other combination is plain
/// bytes. The transfer uses the first num_elem[0] * num_elem[1] slots, at most the slots there are. The validator,
/// the executor, the field descriptions of `decode` and the assembler/disassembler all ask this function.
constexpr DataReading data_reading(uint8_t src_datasrc, uint8_t dtype_code, unsigned elements) {
  DataReading d;
  if (src_datasrc == kDataSrcRegister) {
    d.view = DataView::Registers;
    d.pairs = dtype_code == dtype::kUint64;
  } else if (src_datasrc == kDataSrcImmediate && dtype_size(dtype_code) != 0) {
    d.view = DataView::Immediates;
    d.elem = dtype_size(dtype_code);
  }
  d.cap = kDataBytes / d.elem;
  d.used = elements < d.cap ? elements : d.cap;
  return d;
}
template <class S>
constexpr DataReading data_reading(const S& m) {
  return data_reading(m.src_datasrc, m.dtype, m.elements());
}
}  // namespace family::mem2d

namespace family {
/// The MEM_2D family (src/families/mem2d): its layouts and the parts its folder defines.
struct Mem2dFamily {
  static constexpr std::string_view kName = "mem2d";
  using Layouts = TypeList<Mem2d, PseudoMem2d>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};
}  // namespace family

// ---- Compile-time checks against the spec's compile-verified offsets ----

static_assert(tiles_exactly<Mem2d>() && tiles_exactly<PseudoMem2d>());
static_assert(offset_of<Mem2d>("header") == 0 && offset_of<Mem2d>("events") == 4 && offset_of<Mem2d>("dtype") == 12 &&
              offset_of<Mem2d>("src_datasrc") == 13 && offset_of<Mem2d>("num_elem") == 14 &&
              offset_of<Mem2d>("start_addr") == 16 && offset_of<Mem2d>("step_elem") == 24 &&
              offset_of<Mem2d>("data") == 32);
static_assert(offset_of<PseudoMem2d>("var_id") == 16 && offset_of<PseudoMem2d>("var_offset") == 20);

}  // namespace tpbisa
