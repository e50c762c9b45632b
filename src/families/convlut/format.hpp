// Conversion-LUT family format: CONV_LUT_LOAD 0xE4 (S2_CONVLUT), as the public wiki quotes its header (convlutload.md
// §4; PROJ-CONV-CL1).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_S2_CONVLUT (64 B), s2_convlut.h: one 2-D source, either the 16-entry table of the PE array's 4-bit
/// input converter (the legacy leg, lut_dtype INVALID or FP32) or a compressed block the CPTC decoder expands (the
/// CPTC leg, any other lut_dtype). The same bytes on CAYMAN, MARIANA and MAVERICK.
struct S2Convlut {
  static constexpr Format kFormat = Format::S2Convlut;
  static constexpr GenSet kGens = kGensCaymanUp;
  static constexpr std::string_view kName = "S2_CONVLUT";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 4> reserved0{};
  Tensor2d src{};
  std::array<uint8_t, 4> reserved1{};
  uint8_t in_dtype = 0;  ///< UINT16 (legacy) or UINT32 (CPTC): the SBUF space an element takes
  std::array<uint8_t, 5> reserved2{};
  uint8_t num_active_rows = 0;                     ///< legacy: 128
  uint8_t num_active_cols = 0;                     ///< legacy: 128
  std::array<uint16_t, 2> multiplicative_const{};  ///< CPTC only; legacy: zero
  uint8_t row_grp = 0;                             ///< legacy: 0x0f
  uint8_t col_grp = 0;                             ///< legacy: 0x0f
  uint8_t block_size = 0;                          ///< CPTC only; legacy: zero
  uint8_t lut_dtype = 0;                           ///< INVALID or FP32: legacy; any other: CPTC
  std::array<uint8_t, 16> reserved4{};
  bool operator==(const S2Convlut&) const = default;
};
template <>
inline constexpr auto fields_of<S2Convlut> = cat_fields(
    header_and_events<S2Convlut>(),
    field_decls(field("reserved0", 12, &S2Convlut::reserved0, Role::Reserved), field("src", 16, &S2Convlut::src),
                field("reserved1", 28, &S2Convlut::reserved1, Role::Reserved),
                field("in_dtype", 32, &S2Convlut::in_dtype, Role::Dtype),
                field("reserved2", 33, &S2Convlut::reserved2, Role::Reserved),
                field("num_active_rows", 38, &S2Convlut::num_active_rows),
                field("num_active_cols", 39, &S2Convlut::num_active_cols),
                field("multiplicative_const", 40, &S2Convlut::multiplicative_const),
                field("row_grp", 44, &S2Convlut::row_grp), field("col_grp", 45, &S2Convlut::col_grp),
                field("block_size", 46, &S2Convlut::block_size),
                field("lut_dtype", 47, &S2Convlut::lut_dtype, Role::Dtype),
                field("reserved4", 48, &S2Convlut::reserved4, Role::Reserved)));

namespace family {

/// The conversion-LUT family (src/families/convlut): its layout and the parts its folder defines.
struct ConvLutFamily {
  static constexpr std::string_view kName = "convlut";
  using Layouts = TypeList<S2Convlut>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

}  // namespace family

/// The conversion-LUT family's opcode and readings: each decided here, once, for the validator, the executor, the
/// descriptions and the assembler.
namespace convlut {

inline constexpr uint8_t kConvLutLoad = detail::opcode_named("CONV_LUT_LOAD");

/// s2_convlut_is_cptc: any lut_dtype but INVALID and FP32 (the default a field left unset holds) selects CPTC.
constexpr bool is_cptc(const S2Convlut& x) {
  return x.lut_dtype != dtype::kInvalid && x.lut_dtype != dtype::kFp32;
}
/// The source's element count on each leg: the 16-entry table, or a 4-unit compressed block.
inline constexpr uint16_t kLegacyEntries = 16, kCptcUnits = 4;
/// The legacy leg's fixed array shape and groups.
inline constexpr uint8_t kFullArray = 128, kAllGroups = 0x0F;

}  // namespace convlut

// ---- Compile-time checks against the wiki's S2_CONVLUT table (convlutload.md §4) ----

static_assert(tiles_exactly<S2Convlut>());
static_assert(offset_of<S2Convlut>("reserved0") == 12 && offset_of<S2Convlut>("src") == 16 &&
              offset_of<S2Convlut>("reserved1") == 28 && offset_of<S2Convlut>("in_dtype") == 32 &&
              offset_of<S2Convlut>("reserved2") == 33 && offset_of<S2Convlut>("num_active_rows") == 38 &&
              offset_of<S2Convlut>("num_active_cols") == 39 && offset_of<S2Convlut>("multiplicative_const") == 40 &&
              offset_of<S2Convlut>("row_grp") == 44 && offset_of<S2Convlut>("col_grp") == 45 &&
              offset_of<S2Convlut>("block_size") == 46 && offset_of<S2Convlut>("lut_dtype") == 47 &&
              offset_of<S2Convlut>("reserved4") == 48);

}  // namespace tpbisa
