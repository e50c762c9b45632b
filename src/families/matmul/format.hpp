// PE matmul family formats: LDWEIGHTS 0x01 (S3_LW) and MATMUL 0x02 (S3D3_MM), one layout per generation set.
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

// real-programs.md §8.1 / §9.1 (CAYMAN), §9.6 (MARIANA, MAVERICK). SUNDA's layout is unknown and taken as
// CAYMAN's (PROJ-CONV-F19). MARIANA and MAVERICK type `src`/`dst` as MEM_PATTERN3D, a union whose `t` arm is
// TENSOR3D with the same bytes (common-formats.md §6.2): the declaration is the `t` arm.

namespace family::matmul {
/// The generation sets of the layouts: SUNDA shares CAYMAN's (PROJ-CONV-F19).
inline constexpr GenSet kGensSundaCayman{0x03};
inline constexpr GenSet kGensMarianaOnly{0x04};

// The members the layouts share, declared once: a layout is its shared part plus the bytes only it has. The
// declarations below place each member (fields_of); the offsets are asserted per layout at the end of the file.

/// Every S3_LW and S3D3_MM layout: header, events, the src TENSOR3D, in_dtype and fp32_mode.
struct PeCommon {
  Header header{};
  Events events{};
  Tensor3d src{};
  uint8_t in_dtype = 0;
  uint8_t fp32_mode = 0;
  bool operator==(const PeCommon&) const = default;
};

/// The SUNDA/CAYMAN and MARIANA layouts of both opcodes: bytes 34-39 and the quadrant masks.
struct PeGrouped : PeCommon {
  uint8_t transpose_mode = 0;
  uint8_t perf_opt = 0;
  std::array<uint8_t, 2> reserved1{};
  uint8_t num_active_rows = 0;
  uint8_t num_active_cols = 0;
  uint8_t row_grp = 0;
  uint8_t col_grp = 0;
  bool operator==(const PeGrouped&) const = default;
};

/// The SUNDA/CAYMAN and MARIANA layouts of MATMUL, which differ only in MARIANA's MATMUL_FLAGS byte taking the
/// second of reserved2's two bytes (kReserved2: 2 or 1).
template <size_t kReserved2>
struct MmGrouped : PeGrouped {
  std::array<uint8_t, 4> reserved0{};
  uint8_t out_dtype = 0;
  std::array<uint8_t, kReserved2> reserved2{};
  uint8_t psum_accumulate_flags = 0;
  uint8_t active_row_mode = 0;
  uint8_t psum_zero_region = 0;
  Tensor3d dst{};
  bool operator==(const MmGrouped&) const = default;
};

/// MAVERICK's re-packed layouts of both opcodes: no transpose or groups, columns 0 = 256.
struct PeMaverick : PeCommon {
  std::array<uint8_t, 4> reserved0{};
  uint8_t num_active_rows = 0;
  uint8_t num_active_cols = 0;  ///< 0 = 256
  uint8_t tile_size = 0;
  uint8_t tile_sel = 0;
  uint8_t flags = 0;
  uint8_t perf_mode = 0;
  bool operator==(const PeMaverick&) const = default;
};

/// src TENSOR3D at 16, in_dtype and fp32_mode at 32-33: every layout.
template <class S>
constexpr auto src_fields() {
  return field_decls(field("src", 16, &S::src), field("in_dtype", 32, &S::in_dtype, Role::Dtype),
                     field("fp32_mode", 33, &S::fp32_mode));
}
/// Bytes 34-39 of the SUNDA/CAYMAN and MARIANA layouts of both opcodes.
template <class S>
constexpr auto cayman_body_fields() {
  return field_decls(field("transpose_mode", 34, &S::transpose_mode), field("perf_opt", 35, &S::perf_opt),
                     field("reserved1", 36, &S::reserved1, Role::Reserved),
                     field("num_active_rows", 38, &S::num_active_rows),
                     field("num_active_cols", 39, &S::num_active_cols));
}
/// The quadrant masks at 44-45 (SUNDA/CAYMAN and MARIANA).
template <class S>
constexpr auto group_fields() {
  return field_decls(field("row_grp", 44, &S::row_grp), field("col_grp", 45, &S::col_grp));
}
/// MATMUL bytes 43-63 of the SUNDA/CAYMAN and MARIANA layouts.
template <class S>
constexpr auto matmul_tail_fields() {
  return cat_fields(field_decls(field("psum_accumulate_flags", 43, &S::psum_accumulate_flags)), group_fields<S>(),
                    field_decls(field("active_row_mode", 46, &S::active_row_mode),
                                field("psum_zero_region", 47, &S::psum_zero_region), field("dst", 48, &S::dst)));
}
/// MAVERICK's six control bytes from `at` (34 for LDWEIGHTS; 35 for MATMUL, whose out_dtype takes byte 34).
template <class S>
constexpr auto maverick_fields(uint8_t at) {
  return field_decls(field("num_active_rows", at, &S::num_active_rows),
                     field("num_active_cols", static_cast<uint8_t>(at + 1), &S::num_active_cols),
                     field("tile_size", static_cast<uint8_t>(at + 2), &S::tile_size),
                     field("tile_sel", static_cast<uint8_t>(at + 3), &S::tile_sel),
                     field("flags", static_cast<uint8_t>(at + 4), &S::flags),
                     field("perf_mode", static_cast<uint8_t>(at + 5), &S::perf_mode));
}
}  // namespace family::matmul

/// NEURON_ISA_TPB_S3_LW_STRUCT, SUNDA (PROJ-CONV-F19) and CAYMAN.
struct S3LwCayman : family::matmul::PeGrouped {
  static constexpr Format kFormat = Format::S3Lw;
  static constexpr GenSet kGens = family::matmul::kGensSundaCayman;
  static constexpr std::string_view kName = "S3_LW";
  static constexpr size_t kSize = 64;
  std::array<uint8_t, 4> reserved0{};
  std::array<uint8_t, 4> reserved2{};
  std::array<uint8_t, 18> reserved3{};  ///< byte 46 may be an active_row_mode as in MATMUL (UNKNOWN)
  bool operator==(const S3LwCayman&) const = default;
};
template <>
inline constexpr auto fields_of<S3LwCayman> = cat_fields(
    header_and_events<S3LwCayman>(), field_decls(field("reserved0", 12, &S3LwCayman::reserved0, Role::Reserved)),
    family::matmul::src_fields<S3LwCayman>(), family::matmul::cayman_body_fields<S3LwCayman>(),
    field_decls(field("reserved2", 40, &S3LwCayman::reserved2, Role::Reserved)),
    family::matmul::group_fields<S3LwCayman>(),
    field_decls(field("reserved3", 46, &S3LwCayman::reserved3, Role::Reserved)));

/// NEURON_ISA_TPB_S3_LW_STRUCT, MARIANA: `bg_xpose_mode` at 12 and the LD_WEIGHT_FLAGS byte at 47.
struct S3LwMariana : family::matmul::PeGrouped {
  static constexpr Format kFormat = Format::S3Lw;
  static constexpr GenSet kGens = family::matmul::kGensMarianaOnly;
  static constexpr std::string_view kName = "S3_LW";
  static constexpr size_t kSize = 64;
  uint8_t bg_xpose_mode = 0;
  std::array<uint8_t, 3> reserved0{};
  std::array<uint8_t, 4> reserved2{};
  std::array<uint8_t, 1> reserved3{};
  uint8_t flags = 0;  ///< LD_WEIGHT_FLAGS {xpose:1, scalar:2, seed:2, load_order:1}
  std::array<uint8_t, 16> reserved4{};
  bool operator==(const S3LwMariana&) const = default;
};
template <>
inline constexpr auto fields_of<S3LwMariana> =
    cat_fields(header_and_events<S3LwMariana>(),
               field_decls(field("bg_xpose_mode", 12, &S3LwMariana::bg_xpose_mode),
                           field("reserved0", 13, &S3LwMariana::reserved0, Role::Reserved)),
               family::matmul::src_fields<S3LwMariana>(), family::matmul::cayman_body_fields<S3LwMariana>(),
               field_decls(field("reserved2", 40, &S3LwMariana::reserved2, Role::Reserved)),
               family::matmul::group_fields<S3LwMariana>(),
               field_decls(field("reserved3", 46, &S3LwMariana::reserved3, Role::Reserved),
                           field("flags", 47, &S3LwMariana::flags),
                           field("reserved4", 48, &S3LwMariana::reserved4, Role::Reserved)));

/// NEURON_ISA_TPB_S3_LW_STRUCT, MAVERICK: re-packed, no row/column groups, columns 0 = 256.
struct S3LwMaverick : family::matmul::PeMaverick {
  static constexpr Format kFormat = Format::S3Lw;
  static constexpr GenSet kGens = kGensMaverickOnly;
  static constexpr std::string_view kName = "S3_LW";
  static constexpr size_t kSize = 64;
  std::array<uint8_t, 24> reserved1{};
  bool operator==(const S3LwMaverick&) const = default;
};
template <>
inline constexpr auto fields_of<S3LwMaverick> = cat_fields(
    header_and_events<S3LwMaverick>(), field_decls(field("reserved0", 12, &S3LwMaverick::reserved0, Role::Reserved)),
    family::matmul::src_fields<S3LwMaverick>(), family::matmul::maverick_fields<S3LwMaverick>(34),
    field_decls(field("reserved1", 40, &S3LwMaverick::reserved1, Role::Reserved)));

/// NEURON_ISA_TPB_S3D3_MM_STRUCT, SUNDA (PROJ-CONV-F19) and CAYMAN.
struct S3d3MmCayman : family::matmul::MmGrouped<2> {
  static constexpr Format kFormat = Format::S3d3Mm;
  static constexpr GenSet kGens = family::matmul::kGensSundaCayman;
  static constexpr std::string_view kName = "S3D3_MM";
  static constexpr size_t kSize = 64;
  bool operator==(const S3d3MmCayman&) const = default;
};
template <>
inline constexpr auto fields_of<S3d3MmCayman> = cat_fields(
    header_and_events<S3d3MmCayman>(), field_decls(field("reserved0", 12, &S3d3MmCayman::reserved0, Role::Reserved)),
    family::matmul::src_fields<S3d3MmCayman>(), family::matmul::cayman_body_fields<S3d3MmCayman>(),
    field_decls(field("out_dtype", 40, &S3d3MmCayman::out_dtype),
                field("reserved2", 41, &S3d3MmCayman::reserved2, Role::Reserved)),
    family::matmul::matmul_tail_fields<S3d3MmCayman>());

/// NEURON_ISA_TPB_S3D3_MM_STRUCT, MARIANA: the MATMUL_FLAGS byte at 42.
struct S3d3MmMariana : family::matmul::MmGrouped<1> {
  static constexpr Format kFormat = Format::S3d3Mm;
  static constexpr GenSet kGens = family::matmul::kGensMarianaOnly;
  static constexpr std::string_view kName = "S3D3_MM";
  static constexpr size_t kSize = 64;
  uint8_t matmul_flags = 0;  ///< MATMUL_FLAGS {scalar:2, seed:2, accumulate:1, xpose:1}
  bool operator==(const S3d3MmMariana&) const = default;
};
template <>
inline constexpr auto fields_of<S3d3MmMariana> = cat_fields(
    header_and_events<S3d3MmMariana>(), field_decls(field("reserved0", 12, &S3d3MmMariana::reserved0, Role::Reserved)),
    family::matmul::src_fields<S3d3MmMariana>(), family::matmul::cayman_body_fields<S3d3MmMariana>(),
    field_decls(field("out_dtype", 40, &S3d3MmMariana::out_dtype),
                field("reserved2", 41, &S3d3MmMariana::reserved2, Role::Reserved),
                field("matmul_flags", 42, &S3d3MmMariana::matmul_flags)),
    family::matmul::matmul_tail_fields<S3d3MmMariana>());

/// NEURON_ISA_TPB_S3D3_MM_STRUCT, MAVERICK: re-packed, no row/column groups, columns 0 = 256; `flags` holds the
/// PSUM accumulate flags, with bit 2 BEGIN_ACCUM (PE convention 3).
struct S3d3MmMaverick : family::matmul::PeMaverick {
  static constexpr Format kFormat = Format::S3d3Mm;
  static constexpr GenSet kGens = kGensMaverickOnly;
  static constexpr std::string_view kName = "S3D3_MM";
  static constexpr size_t kSize = 64;
  uint8_t out_dtype = 0;
  std::array<uint8_t, 7> reserved1{};
  Tensor3d dst{};
  bool operator==(const S3d3MmMaverick&) const = default;
};
template <>
inline constexpr auto fields_of<S3d3MmMaverick> = cat_fields(
    header_and_events<S3d3MmMaverick>(),
    field_decls(field("reserved0", 12, &S3d3MmMaverick::reserved0, Role::Reserved)),
    family::matmul::src_fields<S3d3MmMaverick>(), field_decls(field("out_dtype", 34, &S3d3MmMaverick::out_dtype)),
    family::matmul::maverick_fields<S3d3MmMaverick>(35),
    field_decls(field("reserved1", 41, &S3d3MmMaverick::reserved1, Role::Reserved),
                field("dst", 48, &S3d3MmMaverick::dst)));

namespace family {

/// The PE matmul family (src/families/matmul): its layouts and the parts its folder defines.
struct MatmulFamily {
  static constexpr std::string_view kName = "matmul";
  using Layouts = TypeList<S3LwCayman, S3LwMariana, S3LwMaverick, S3d3MmCayman, S3d3MmMariana, S3d3MmMaverick>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

}  // namespace family

// ---- Compile-time checks against the spec's layout tables (real-programs.md §8.1, §9.1, §9.6) ----

static_assert(tiles_exactly<S3LwCayman>() && tiles_exactly<S3LwMariana>() && tiles_exactly<S3LwMaverick>() &&
              tiles_exactly<S3d3MmCayman>() && tiles_exactly<S3d3MmMariana>() && tiles_exactly<S3d3MmMaverick>());
// s3_lw.h, CAYMAN tree: transpose_mode@34, perf_opt@35, num_active_rows@38, num_active_cols@39, row_grp@44,
// col_grp@45; src TENSOR3D@16, in_dtype@32, fp32_mode@33.
static_assert(offset_of<S3LwCayman>("src") == 16 && offset_of<S3LwCayman>("in_dtype") == 32 &&
              offset_of<S3LwCayman>("fp32_mode") == 33 && offset_of<S3LwCayman>("transpose_mode") == 34 &&
              offset_of<S3LwCayman>("perf_opt") == 35 && offset_of<S3LwCayman>("num_active_rows") == 38 &&
              offset_of<S3LwCayman>("num_active_cols") == 39 && offset_of<S3LwCayman>("row_grp") == 44 &&
              offset_of<S3LwCayman>("col_grp") == 45 && offset_of<S3LwCayman>("reserved3") == 46);
// MARIANA: bg_xpose_mode@12, LD_WEIGHT_FLAGS@47.
static_assert(offset_of<S3LwMariana>("bg_xpose_mode") == 12 && offset_of<S3LwMariana>("src") == 16 &&
              offset_of<S3LwMariana>("transpose_mode") == 34 && offset_of<S3LwMariana>("num_active_rows") == 38 &&
              offset_of<S3LwMariana>("num_active_cols") == 39 && offset_of<S3LwMariana>("row_grp") == 44 &&
              offset_of<S3LwMariana>("col_grp") == 45 && offset_of<S3LwMariana>("flags") == 47);
// MAVERICK: in@32 fp32m@33 rows@34 cols@35 tile_size@36 tile_sel@37 flags@38 perf_mode@39 reserved@40-63.
static_assert(offset_of<S3LwMaverick>("in_dtype") == 32 && offset_of<S3LwMaverick>("fp32_mode") == 33 &&
              offset_of<S3LwMaverick>("num_active_rows") == 34 && offset_of<S3LwMaverick>("num_active_cols") == 35 &&
              offset_of<S3LwMaverick>("tile_size") == 36 && offset_of<S3LwMaverick>("tile_sel") == 37 &&
              offset_of<S3LwMaverick>("flags") == 38 && offset_of<S3LwMaverick>("perf_mode") == 39 &&
              offset_of<S3LwMaverick>("reserved1") == 40);
// s3d3_mm.h, CAYMAN: out_dtype@40, psum_accumulate_flags@43, groups@44/45, active_row_mode@46,
// psum_zero_region@47, dst TENSOR3D@48.
static_assert(offset_of<S3d3MmCayman>("src") == 16 && offset_of<S3d3MmCayman>("in_dtype") == 32 &&
              offset_of<S3d3MmCayman>("fp32_mode") == 33 && offset_of<S3d3MmCayman>("transpose_mode") == 34 &&
              offset_of<S3d3MmCayman>("perf_opt") == 35 && offset_of<S3d3MmCayman>("num_active_rows") == 38 &&
              offset_of<S3d3MmCayman>("num_active_cols") == 39 && offset_of<S3d3MmCayman>("out_dtype") == 40 &&
              offset_of<S3d3MmCayman>("psum_accumulate_flags") == 43 && offset_of<S3d3MmCayman>("row_grp") == 44 &&
              offset_of<S3d3MmCayman>("col_grp") == 45 && offset_of<S3d3MmCayman>("active_row_mode") == 46 &&
              offset_of<S3d3MmCayman>("psum_zero_region") == 47 && offset_of<S3d3MmCayman>("dst") == 48);
// MARIANA: out_dtype@40, MATMUL_FLAGS@42, accumulate flags@43.
static_assert(offset_of<S3d3MmMariana>("out_dtype") == 40 && offset_of<S3d3MmMariana>("matmul_flags") == 42 &&
              offset_of<S3d3MmMariana>("psum_accumulate_flags") == 43 && offset_of<S3d3MmMariana>("dst") == 48);
// MAVERICK: in@32 fp32m@33 out@34 rows@35 cols@36 tile_size@37 tile_sel@38 flags@39 perf_mode@40 dst@48.
static_assert(offset_of<S3d3MmMaverick>("in_dtype") == 32 && offset_of<S3d3MmMaverick>("fp32_mode") == 33 &&
              offset_of<S3d3MmMaverick>("out_dtype") == 34 && offset_of<S3d3MmMaverick>("num_active_rows") == 35 &&
              offset_of<S3d3MmMaverick>("num_active_cols") == 36 && offset_of<S3d3MmMaverick>("tile_size") == 37 &&
              offset_of<S3d3MmMaverick>("tile_sel") == 38 && offset_of<S3d3MmMaverick>("flags") == 39 &&
              offset_of<S3d3MmMaverick>("perf_mode") == 40 && offset_of<S3d3MmMaverick>("dst") == 48);

}  // namespace tpbisa
