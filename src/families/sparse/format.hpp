// Sparse matmul family format: MATMUL_SPARSE 0x07 (S4D3_MM), as the public wiki's PE matmul page tabulates it
// (opcode-research.md §A.2.11, superseded for the offsets: PROJ-CONV-SP1). LDTAGS 0x06 (S3_LT) stays `layout not
// public` (PROJ-CONV-SP2).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_S4D3_MM_STRUCT (64 B), s4d3_mm.h: one 4-D SBUF source whose fourth dimension holds the 2, 3 or 4
/// fmaps each PE partition sends, one 3-D destination. One byte layout on every generation that has the opcode
/// (PROJ-CONV-SP1).
struct S4d3Mm {
  static constexpr Format kFormat = Format::S4d3Mm;
  static constexpr GenSet kGens = GenSet{0x0E};  // CAYMAN, MARIANA, MAVERICK
  static constexpr std::string_view kName = "S4D3_MM";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  Tensor4d src{};  ///< the moving fmaps; num_elem[3] = fmaps per partition (2, 3 or 4)
  uint8_t in_dtype = 0;
  uint8_t fp32_mode = 0;                    ///< PE_FP32MODE
  uint8_t out_dtype = 0;                    ///< 0 = FP32 accumulate
  uint8_t perf_opt = 0;                     ///< PERF_OPT_MODE
  std::array<uint8_t, 2> reserved_quant{};  ///< formerly quant_offset
  uint8_t num_active_rows = 0;
  uint8_t num_active_cols = 0;
  std::array<uint8_t, 3> reserved{};
  uint8_t psum_accumulate_flags = 0;  ///< MATMUL_PSUM_ACCUMULATE_FLAGS
  uint8_t row_grp = 0;                ///< row quadrant mask
  uint8_t col_grp = 0;                ///< column quadrant mask: 0x0F, the whole array
  uint8_t active_row_mode = 0;        ///< ACTIVE_ROW_MODE: logical or physical top rows (values not public)
  uint8_t psum_zero_region = 0;       ///< MATMUL_ZERO_REGION
  Tensor3d dst{};
  bool operator==(const S4d3Mm&) const = default;
};
template <>
inline constexpr auto fields_of<S4d3Mm> = cat_fields(
    header_and_events<S4d3Mm>(),
    field_decls(
        field("src", 12, &S4d3Mm::src), field("in_dtype", 32, &S4d3Mm::in_dtype, Role::Dtype),
        field("fp32_mode", 33, &S4d3Mm::fp32_mode), field("out_dtype", 34, &S4d3Mm::out_dtype),
        field("perf_opt", 35, &S4d3Mm::perf_opt), field("reserved_quant", 36, &S4d3Mm::reserved_quant, Role::Reserved),
        field("num_active_rows", 38, &S4d3Mm::num_active_rows), field("num_active_cols", 39, &S4d3Mm::num_active_cols),
        field("reserved", 40, &S4d3Mm::reserved, Role::Reserved),
        field("psum_accumulate_flags", 43, &S4d3Mm::psum_accumulate_flags), field("row_grp", 44, &S4d3Mm::row_grp),
        field("col_grp", 45, &S4d3Mm::col_grp), field("active_row_mode", 46, &S4d3Mm::active_row_mode),
        field("psum_zero_region", 47, &S4d3Mm::psum_zero_region, Role::Custom), field("dst", 48, &S4d3Mm::dst)));

namespace family {

/// The sparse matmul family (src/families/sparse): its layout and the parts its folder defines.
struct SparseFamily {
  static constexpr std::string_view kName = "sparse";
  using Layouts = TypeList<S4d3Mm>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

}  // namespace family

/// The sparse matmul family's opcode and enums: each decided here, once, for the validator, the executor, the
/// descriptions and the assembler.
namespace sparse {

inline constexpr uint8_t kMatmulSparse = detail::opcode_named("MATMUL_SPARSE");

/// The fmaps a partition sends (src.num_elem[3]): 4, or 3 or 2 when the group is under-full.
inline constexpr uint16_t kMinFmaps = 2, kMaxFmaps = 4;
/// col_grp: fine-grain sparsity works only across the whole array, all four column groups.
inline constexpr uint8_t kFullColumns = 0x0F;

/// ACTIVE_ROW_MODE: two modes (logical or physical top rows) whose values are not public (PROJ-CONV-SP4).
inline constexpr uint8_t kMaxActiveRowMode = 1;
/// MATMUL_ZERO_REGION (enums.md §11): how many 2048-cell PSUM banks the first write of a group clears (1, 2, 4 or
/// 8); CAYMAN's enum has SIZE2048 alone.
inline constexpr std::array<EnumValue, 4> kZeroRegion{{{0, "SIZE2048", kGensAll, ""},
                                                       {1, "SIZE4096", kGensMarianaUp, ""},
                                                       {2, "SIZE8192", kGensMarianaUp, ""},
                                                       {3, "SIZE16384", kGensMarianaUp, ""}}};

}  // namespace sparse

// ---- Compile-time checks against the wiki's S4D3_MM table (PROJ-CONV-SP1) ----

static_assert(tiles_exactly<S4d3Mm>());
static_assert(offset_of<S4d3Mm>("src") == 12 && offset_of<S4d3Mm>("in_dtype") == 32 &&
              offset_of<S4d3Mm>("fp32_mode") == 33 && offset_of<S4d3Mm>("out_dtype") == 34 &&
              offset_of<S4d3Mm>("perf_opt") == 35 && offset_of<S4d3Mm>("reserved_quant") == 36 &&
              offset_of<S4d3Mm>("num_active_rows") == 38 && offset_of<S4d3Mm>("num_active_cols") == 39 &&
              offset_of<S4d3Mm>("reserved") == 40 && offset_of<S4d3Mm>("psum_accumulate_flags") == 43 &&
              offset_of<S4d3Mm>("row_grp") == 44 && offset_of<S4d3Mm>("col_grp") == 45 &&
              offset_of<S4d3Mm>("active_row_mode") == 46 && offset_of<S4d3Mm>("psum_zero_region") == 47 &&
              offset_of<S4d3Mm>("dst") == 48);

}  // namespace tpbisa
