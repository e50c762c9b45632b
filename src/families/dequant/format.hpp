// Tensor-dequantize family format: TENSOR_DEQUANTIZE 0x7B (S3D3_TENS_DEQUANT), as the public wiki quotes its header
// (tensor-dequantize.md §2; PROJ-CONV-DQ1).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_S3D3_TENS_DEQUANT_STRUCT (64 B), s3d3_tens_dequant.h: one packed source, one FP8 destination, both
/// carried as UINT32 words; `dequant_fmt` names the sub-byte input and the FP8 output. MARIANA and MAVERICK type the
/// two patterns as MEM_PATTERN3D, whose TENSOR3D arm has these bytes (PROJ-CONV-DQ1). SUNDA's enum has the opcode but
/// no header: its words decode with these bytes and fail has_valid_nc_tens_dequant.
struct S3d3TensDequant {
  static constexpr Format kFormat = Format::S3d3TensDequant;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S3D3_TENS_DEQUANT";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  Tensor3d src{};  ///< the packed sub-byte codes, UINT32 words
  std::array<uint8_t, 4> reserved0{};
  uint8_t in_dtype = 0;   ///< UINT32, the transport word
  uint8_t out_dtype = 0;  ///< UINT32, the transport word
  uint8_t num_active_channels = 0;
  uint8_t dequant_fmt = 0;  ///< DEQUANT_FMT
  uint8_t group_size = 0;   ///< 0 (no scale) or 8 (one in-band scale per block)
  std::array<uint8_t, 7> reserved1{};
  Tensor3d dst{};  ///< the FP8 results, UINT32 words
  std::array<uint8_t, 4> reserved2{};
  bool operator==(const S3d3TensDequant&) const = default;
};
template <>
inline constexpr auto fields_of<S3d3TensDequant> =
    cat_fields(header_and_events<S3d3TensDequant>(),
               field_decls(field("src", 12, &S3d3TensDequant::src),
                           field("reserved0", 28, &S3d3TensDequant::reserved0, Role::Reserved),
                           field("in_dtype", 32, &S3d3TensDequant::in_dtype, Role::Dtype),
                           field("out_dtype", 33, &S3d3TensDequant::out_dtype, Role::Dtype),
                           field("num_active_channels", 34, &S3d3TensDequant::num_active_channels, Role::Channels),
                           field("dequant_fmt", 35, &S3d3TensDequant::dequant_fmt, Role::Custom),
                           field("group_size", 36, &S3d3TensDequant::group_size),
                           field("reserved1", 37, &S3d3TensDequant::reserved1, Role::Reserved),
                           field("dst", 44, &S3d3TensDequant::dst),
                           field("reserved2", 60, &S3d3TensDequant::reserved2, Role::Reserved)));

namespace family {

/// The tensor-dequantize family (src/families/dequant): its layout and the parts its folder defines.
struct DequantFamily {
  static constexpr std::string_view kName = "dequant";
  using Layouts = TypeList<S3d3TensDequant>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

}  // namespace family

/// The tensor-dequantize family's opcode and enums: each decided here, once, for the validator, the executor, the
/// descriptions and the assembler.
namespace dequant {

inline constexpr uint8_t kTensorDequantize = detail::opcode_named("TENSOR_DEQUANTIZE");

/// NEURON_ISA_TPB_DEQUANT_FMT (common.h, the same on CAYMAN, MARIANA and MAVERICK): the sub-byte input and the FP8
/// output.
inline constexpr uint8_t kFmtE2m1ToE5m2 = 1, kFmtInt4ToE5m2 = 2, kFmtNf4ToE4m3 = 3, kFmtE2m3ToE4m3 = 4;
inline constexpr std::array<EnumValue, 5> kDequantFmt{{{0, "INVALID", kGensAll, ""},
                                                       {kFmtE2m1ToE5m2, "E2M1TO_E5M2", kGensAll, ""},
                                                       {kFmtInt4ToE5m2, "INT4TO_E5M2", kGensAll, ""},
                                                       {kFmtNf4ToE4m3, "NF4TO_E4M3", kGensAll, ""},
                                                       {kFmtE2m3ToE4m3, "E2M3TO_E4M3", kGensAll, ""}}};
/// group_size: 0, no scale; 8, one in-band scale per block of eight codes (the 4-bit formats only).
inline constexpr uint8_t kNoGroup = 0, kMxGroup = 8;

/// The 4-bit input formats (FP4 E2M1, INT4, NF4): the ones that may be micro-scaled.
constexpr bool four_bit(uint8_t fmt) {
  return fmt == kFmtE2m1ToE5m2 || fmt == kFmtInt4ToE5m2 || fmt == kFmtNf4ToE4m3;
}

/// The src:dst UINT32 word ratio s3d3_tens_dequant_element_count_check_t3d asks (count(src) * a == count(dst) * b)
/// and the multiple src's count must be: 2:1 and 1 for the 4-bit formats, 4:3 and 3 for FP6, 8:5 and 5 micro-scaled.
/// Zero where the pair is not a valid format and group.
struct Ratio {
  unsigned a = 0, b = 0, src_multiple = 0;
};
constexpr Ratio ratio(uint8_t fmt, uint8_t group) {
  if (four_bit(fmt) && group == kNoGroup) return {2, 1, 1};
  if (fmt == kFmtE2m3ToE4m3 && group == kNoGroup) return {4, 3, 3};
  if (four_bit(fmt) && group == kMxGroup) return {8, 5, 5};
  return {};
}

}  // namespace dequant

// ---- Compile-time checks against the wiki's S3D3_TENS_DEQUANT table (tensor-dequantize.md §2) ----

static_assert(tiles_exactly<S3d3TensDequant>());
static_assert(offset_of<S3d3TensDequant>("src") == 12 && offset_of<S3d3TensDequant>("reserved0") == 28 &&
              offset_of<S3d3TensDequant>("in_dtype") == 32 && offset_of<S3d3TensDequant>("out_dtype") == 33 &&
              offset_of<S3d3TensDequant>("num_active_channels") == 34 &&
              offset_of<S3d3TensDequant>("dequant_fmt") == 35 && offset_of<S3d3TensDequant>("group_size") == 36 &&
              offset_of<S3d3TensDequant>("reserved1") == 37 && offset_of<S3d3TensDequant>("dst") == 44 &&
              offset_of<S3d3TensDequant>("reserved2") == 60);

}  // namespace tpbisa
