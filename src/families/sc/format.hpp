// Sparsity-compress family formats: SPARSITY_COMPRESS 0xE0 (S3D3_SC) and SPARSITY_COMPRESS_TAG 0xE1 (S2D2D2_SC), as
// the public wiki quotes their compile-verified headers (sparsity-compress-tag.md §3; PROJ-CONV-SC1).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_S3D3_SC_STRUCT (64 B), s3d3_sc.h: each op_dim group of the source reduced to its four extreme
/// elements, written with their indices as {data, tag} pairs into one destination. MARIANA and MAVERICK.
struct S3d3Sc {
  static constexpr Format kFormat = Format::S3d3Sc;
  static constexpr GenSet kGens = kGensMarianaUp;
  static constexpr std::string_view kName = "S3D3_SC";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t in_dtype = 0;
  uint8_t transpose_src = 0;  ///< 1: the source stream is transposed in 32 x 32 groups
  std::array<uint8_t, 2> reserved0{};
  Tensor3d src{};
  uint8_t out_data_dtype = 0;    ///< an FP8, BFLOAT16 or FP16
  uint8_t out_struct_dtype = 0;  ///< UINT16 ({u8 data, u8 tag}) or UINT32 ({u16 data, u16 tag})
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 1> reserved1{};
  uint8_t op = 0;      ///< COMPRESS_OP
  uint8_t op_dim = 0;  ///< TENSOR_SUBDIM: the reduced group
  std::array<uint8_t, 10> reserved2{};
  Tensor3d dst{};
  bool operator==(const S3d3Sc&) const = default;
};
template <>
inline constexpr auto fields_of<S3d3Sc> = cat_fields(
    header_and_events<S3d3Sc>(),
    field_decls(field("in_dtype", 12, &S3d3Sc::in_dtype, Role::Dtype),
                field("transpose_src", 13, &S3d3Sc::transpose_src),
                field("reserved0", 14, &S3d3Sc::reserved0, Role::Reserved), field("src", 16, &S3d3Sc::src),
                field("out_data_dtype", 32, &S3d3Sc::out_data_dtype, Role::Dtype),
                field("out_struct_dtype", 33, &S3d3Sc::out_struct_dtype, Role::Dtype),
                field("num_active_channels", 34, &S3d3Sc::num_active_channels, Role::Channels),
                field("reserved1", 35, &S3d3Sc::reserved1, Role::Reserved), field("op", 36, &S3d3Sc::op, Role::Custom),
                field("op_dim", 37, &S3d3Sc::op_dim, Role::Custom),
                field("reserved2", 38, &S3d3Sc::reserved2, Role::Reserved), field("dst", 48, &S3d3Sc::dst)));

/// NEURON_ISA_TPB_S2D2D2_SC_STRUCT (64 B), s2d2d2_sc.h: the same reduction with the data and the tags in two
/// destinations (the struct, not the header's byte-table comment, places them: 40 and 52). MARIANA and MAVERICK.
struct S2d2d2Sc {
  static constexpr Format kFormat = Format::S2d2d2Sc;
  static constexpr GenSet kGens = kGensMarianaUp;
  static constexpr std::string_view kName = "S2D2D2_SC";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t in_dtype = 0;
  uint8_t transpose_src = 0;
  uint8_t packed_tags = 0;  ///< 1: four 4-bit tags per UINT16
  std::array<uint8_t, 5> reserved0{};
  Tensor2d src{};
  uint8_t out_data_dtype = 0;
  uint8_t out_tag_dtype = 0;
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 1> reserved1{};
  uint8_t op = 0;
  uint8_t op_dim = 0;
  std::array<uint8_t, 2> reserved2{};
  Tensor2d data_dst{};
  Tensor2d tag_dst{};
  bool operator==(const S2d2d2Sc&) const = default;
};
template <>
inline constexpr auto fields_of<S2d2d2Sc> = cat_fields(
    header_and_events<S2d2d2Sc>(),
    field_decls(field("in_dtype", 12, &S2d2d2Sc::in_dtype, Role::Dtype),
                field("transpose_src", 13, &S2d2d2Sc::transpose_src), field("packed_tags", 14, &S2d2d2Sc::packed_tags),
                field("reserved0", 15, &S2d2d2Sc::reserved0, Role::Reserved), field("src", 20, &S2d2d2Sc::src),
                field("out_data_dtype", 32, &S2d2d2Sc::out_data_dtype, Role::Dtype),
                field("out_tag_dtype", 33, &S2d2d2Sc::out_tag_dtype, Role::Dtype),
                field("num_active_channels", 34, &S2d2d2Sc::num_active_channels, Role::Channels),
                field("reserved1", 35, &S2d2d2Sc::reserved1, Role::Reserved),
                field("op", 36, &S2d2d2Sc::op, Role::Custom), field("op_dim", 37, &S2d2d2Sc::op_dim, Role::Custom),
                field("reserved2", 38, &S2d2d2Sc::reserved2, Role::Reserved),
                field("data_dst", 40, &S2d2d2Sc::data_dst), field("tag_dst", 52, &S2d2d2Sc::tag_dst)));

namespace family {

/// The sparsity-compress family (src/families/sc): its layouts and the parts its folder defines.
struct SparsityCompressFamily {
  static constexpr std::string_view kName = "sc";
  using Layouts = TypeList<S3d3Sc, S2d2d2Sc>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

}  // namespace family

/// The sparsity-compress family's opcodes and enums: each decided here, once, for the validators, the executor, the
/// descriptions and the assembler.
namespace sc {

inline constexpr uint8_t kSparsityCompress = detail::opcode_named("SPARSITY_COMPRESS");
inline constexpr uint8_t kSparsityCompressTag = detail::opcode_named("SPARSITY_COMPRESS_TAG");

/// COMPRESS_OP (common.h): the ALU op the DVE runs is the opposite one (MIN = ALU MAX, ...), so the values are not
/// ALU_OP's: ABS_MIN 0x20, ABS_MAX 0x21 swap ALU_OP's ABS_MAX 0x20, ABS_MIN 0x21.
inline constexpr uint8_t kMin = 0x08, kMax = 0x09, kAbsMin = 0x20, kAbsMax = 0x21;
inline constexpr std::array<EnumValue, 4> kCompressOps{{{kMin, "MIN", kGensAll, ""},
                                                        {kMax, "MAX", kGensAll, ""},
                                                        {kAbsMin, "ABS_MIN", kGensAll, ""},
                                                        {kAbsMax, "ABS_MAX", kGensAll, ""}}};
constexpr bool compress_op_ok(uint8_t op) {
  return op == kMin || op == kMax || op == kAbsMin || op == kAbsMax;
}

/// TENSOR_SUBDIM (the catalog's kTensorSubdim): the reduced group, X (the innermost count), XY, XYZ or XYZW.
inline constexpr uint8_t kX = 0x02, kXyzw = 0x05;
/// The pattern dimensions op_dim reduces: X one, XY two, XYZ three, XYZW four (0: not a subdim).
constexpr unsigned subdim_dims(uint8_t op_dim) {
  return op_dim >= kX && op_dim <= kXyzw ? op_dim - 1U : 0U;
}

/// Each group keeps four {value, index} winners.
inline constexpr uint64_t kWinners = 4;
/// A transposed source is transposed in 32 x 32 groups.
inline constexpr uint32_t kTransposeBlock = 32;

}  // namespace sc

// ---- Compile-time checks against the wiki's compile-verified tables (sparsity-compress-tag.md §3a, §3b) ----

static_assert(tiles_exactly<S3d3Sc>() && tiles_exactly<S2d2d2Sc>());
static_assert(offset_of<S3d3Sc>("in_dtype") == 12 && offset_of<S3d3Sc>("transpose_src") == 13 &&
              offset_of<S3d3Sc>("reserved0") == 14 && offset_of<S3d3Sc>("src") == 16 &&
              offset_of<S3d3Sc>("out_data_dtype") == 32 && offset_of<S3d3Sc>("out_struct_dtype") == 33 &&
              offset_of<S3d3Sc>("num_active_channels") == 34 && offset_of<S3d3Sc>("reserved1") == 35 &&
              offset_of<S3d3Sc>("op") == 36 && offset_of<S3d3Sc>("op_dim") == 37 &&
              offset_of<S3d3Sc>("reserved2") == 38 && offset_of<S3d3Sc>("dst") == 48);
static_assert(offset_of<S2d2d2Sc>("in_dtype") == 12 && offset_of<S2d2d2Sc>("transpose_src") == 13 &&
              offset_of<S2d2d2Sc>("packed_tags") == 14 && offset_of<S2d2d2Sc>("reserved0") == 15 &&
              offset_of<S2d2d2Sc>("src") == 20 && offset_of<S2d2d2Sc>("out_data_dtype") == 32 &&
              offset_of<S2d2d2Sc>("out_tag_dtype") == 33 && offset_of<S2d2d2Sc>("num_active_channels") == 34 &&
              offset_of<S2d2d2Sc>("reserved1") == 35 && offset_of<S2d2d2Sc>("op") == 36 &&
              offset_of<S2d2d2Sc>("op_dim") == 37 && offset_of<S2d2d2Sc>("reserved2") == 38 &&
              offset_of<S2d2d2Sc>("data_dst") == 40 && offset_of<S2d2d2Sc>("tag_dst") == 52);

}  // namespace tpbisa
