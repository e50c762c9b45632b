// Pool family formats: GATHER 0x68 (S4D4_GT), INDIRECT_COPY 0xE7 (S4D4_IC), SORT 0x96 (S1D2_SORT), POOL 0x45
// (S4D4_PL) and CROSS_LANE_REDUCE 0x7C/0x7D (S4D4_CR), opcode-research.md §A.2.6.
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/families/tensor_scalar/format.hpp"  // TENSOR1D, the sub-format SORT's source uses
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_S4D4_GT_STRUCT (64 B): GATHER 0x68, the same bytes on every generation (GATH §3a). Bytes 35 and
/// 38..39 are not named by the public table: kept as written, never judged (PROJ-CONV-G71).
struct S4d4Gt {
  static constexpr Format kFormat = Format::S4d4Gt;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S4D4_GT";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  Tensor4d src{};         ///< the index tensor (in_dtype)
  uint8_t in_dtype = 0;   ///< the index dtype: UINT8, UINT16 or UINT32
  uint8_t out_dtype = 0;  ///< the gathered element dtype
  uint8_t num_active_channels = 0;
  uint8_t pad35 = 0;
  uint8_t index_miss_behavior = 0;  ///< INDEX_MISS_BEHAVIOR (values not public)
  uint8_t free_pool_buffer = 0;     ///< release the Pool buffer after this gather
  uint16_t pad38 = 0;
  uint32_t immediate = 0;  ///< the fill written on a miss (raw bits)
  Tensor4d dst{};
  bool operator==(const S4d4Gt&) const = default;
};
template <>
inline constexpr auto fields_of<S4d4Gt> =
    field_decls(Member<S4d4Gt, Header>{"header", 0, &S4d4Gt::header, Role::Plain},
                Member<S4d4Gt, Events>{"events", 4, &S4d4Gt::events, Role::Plain},
                Member<S4d4Gt, Tensor4d>{"src", 12, &S4d4Gt::src, Role::Plain},
                Member<S4d4Gt, uint8_t>{"in_dtype", 32, &S4d4Gt::in_dtype, Role::Dtype},
                Member<S4d4Gt, uint8_t>{"out_dtype", 33, &S4d4Gt::out_dtype, Role::Dtype},
                Member<S4d4Gt, uint8_t>{"num_active_channels", 34, &S4d4Gt::num_active_channels, Role::Channels},
                Member<S4d4Gt, uint8_t>{"pad35", 35, &S4d4Gt::pad35, Role::Plain},
                Member<S4d4Gt, uint8_t>{"index_miss_behavior", 36, &S4d4Gt::index_miss_behavior, Role::Plain},
                Member<S4d4Gt, uint8_t>{"free_pool_buffer", 37, &S4d4Gt::free_pool_buffer, Role::Plain},
                Member<S4d4Gt, uint16_t>{"pad38", 38, &S4d4Gt::pad38, Role::Plain},
                Member<S4d4Gt, uint32_t>{"immediate", 40, &S4d4Gt::immediate, Role::Custom},
                Member<S4d4Gt, Tensor4d>{"dst", 44, &S4d4Gt::dst, Role::Plain});

/// The indirect arm of S4D4_IC's MEM_PATTERN4D source (GATH §3b): NEURON_ISA_TPB_INDIRECT (12 B) and the 8 bytes
/// of the 20-byte union the public table leaves unnamed (kept as written, PROJ-CONV-G71).
struct IndirectPattern {
  static constexpr std::string_view kName = "INDIRECT20B";
  static constexpr size_t kSize = 20;
  Addr4 index_addr{};     ///< the uint16 index tensor (SBUF)
  Addr4 data_addr{};      ///< the source buffer (SBUF)
  uint16_t num_elem = 0;  ///< elements read per partition
  uint16_t pad10 = 0;     ///< INDIRECT.reserved[2]
  std::array<uint8_t, 8> pad12{};
  bool operator==(const IndirectPattern&) const = default;
};
template <>
inline constexpr auto fields_of<IndirectPattern> =
    field_decls(Member<IndirectPattern, Addr4>{"index_addr", 0, &IndirectPattern::index_addr, Role::Addr4},
                Member<IndirectPattern, Addr4>{"data_addr", 4, &IndirectPattern::data_addr, Role::Addr4},
                Member<IndirectPattern, uint16_t>{"num_elem", 8, &IndirectPattern::num_elem, Role::Plain},
                Member<IndirectPattern, uint16_t>{"pad10", 10, &IndirectPattern::pad10, Role::Plain},
                Member<IndirectPattern, std::array<uint8_t, 8>>{"pad12", 12, &IndirectPattern::pad12, Role::Plain});

/// NEURON_ISA_TPB_S4D4_IC_STRUCT (64 B): INDIRECT_COPY 0xE7, every generation (GATH §3b). Only the gather mode is
/// defined: src is the indirect arm, dst the tensor arm. Bytes 37 and 42..43 are unnamed (PROJ-CONV-G71).
struct S4d4Ic {
  static constexpr Format kFormat = Format::S4d4Ic;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S4D4_IC";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  IndirectPattern src{};
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  uint8_t num_active_channels = 0;
  uint8_t src_num_elem_per_idx = 0;
  uint8_t dst_num_elem_per_idx = 0;
  uint8_t pad37 = 0;
  uint16_t src_buffer_size = 0;
  uint16_t dst_buffer_size = 0;
  uint16_t pad42 = 0;
  Tensor4d dst{};
  bool operator==(const S4d4Ic&) const = default;
};
template <>
inline constexpr auto fields_of<S4d4Ic> =
    field_decls(Member<S4d4Ic, Header>{"header", 0, &S4d4Ic::header, Role::Plain},
                Member<S4d4Ic, Events>{"events", 4, &S4d4Ic::events, Role::Plain},
                Member<S4d4Ic, IndirectPattern>{"src", 12, &S4d4Ic::src, Role::Plain},
                Member<S4d4Ic, uint8_t>{"in_dtype", 32, &S4d4Ic::in_dtype, Role::Dtype},
                Member<S4d4Ic, uint8_t>{"out_dtype", 33, &S4d4Ic::out_dtype, Role::Dtype},
                Member<S4d4Ic, uint8_t>{"num_active_channels", 34, &S4d4Ic::num_active_channels, Role::Channels},
                Member<S4d4Ic, uint8_t>{"src_num_elem_per_idx", 35, &S4d4Ic::src_num_elem_per_idx, Role::Plain},
                Member<S4d4Ic, uint8_t>{"dst_num_elem_per_idx", 36, &S4d4Ic::dst_num_elem_per_idx, Role::Plain},
                Member<S4d4Ic, uint8_t>{"pad37", 37, &S4d4Ic::pad37, Role::Plain},
                Member<S4d4Ic, uint16_t>{"src_buffer_size", 38, &S4d4Ic::src_buffer_size, Role::Plain},
                Member<S4d4Ic, uint16_t>{"dst_buffer_size", 40, &S4d4Ic::dst_buffer_size, Role::Plain},
                Member<S4d4Ic, uint16_t>{"pad42", 42, &S4d4Ic::pad42, Role::Plain},
                Member<S4d4Ic, Tensor4d>{"dst", 44, &S4d4Ic::dst, Role::Plain});

/// NEURON_ISA_TPB_S1D2_SORT_STRUCT (64 B): SORT 0x96, compile-verified identical on every generation (SORT §3).
struct S1d2Sort {
  static constexpr Format kFormat = Format::S1d2Sort;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S1D2_SORT";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t num_active_channels = 0;
  uint8_t index_offset_src = 0;  ///< IMM_SRC of index_offset
  uint8_t in_out_dtype = 0;      ///< DTYPE_PAIR: low nibble input, high nibble output
  uint8_t comparison = 0;        ///< IS_LT ascending, IS_GT descending
  Tensor1d src{};
  Tensor2d dst{};             ///< X = {value, index}, Y = the sorted positions
  uint32_t index_offset = 0;  ///< u32 added to every index (or a pointer / register per index_offset_src)
  uint8_t stable = 0;
  std::array<uint8_t, 23> reserved1{};
  bool operator==(const S1d2Sort&) const = default;
};
template <>
inline constexpr auto fields_of<S1d2Sort> =
    field_decls(Member<S1d2Sort, Header>{"header", 0, &S1d2Sort::header, Role::Plain},
                Member<S1d2Sort, Events>{"events", 4, &S1d2Sort::events, Role::Plain},
                Member<S1d2Sort, uint8_t>{"num_active_channels", 12, &S1d2Sort::num_active_channels, Role::Channels},
                Member<S1d2Sort, uint8_t>{"index_offset_src", 13, &S1d2Sort::index_offset_src, Role::ImmSrc},
                Member<S1d2Sort, uint8_t>{"in_out_dtype", 14, &S1d2Sort::in_out_dtype, Role::Custom},
                Member<S1d2Sort, uint8_t>{"comparison", 15, &S1d2Sort::comparison, Role::AluOp},
                Member<S1d2Sort, Tensor1d>{"src", 16, &S1d2Sort::src, Role::Plain},
                Member<S1d2Sort, Tensor2d>{"dst", 24, &S1d2Sort::dst, Role::Plain},
                Member<S1d2Sort, uint32_t>{"index_offset", 36, &S1d2Sort::index_offset, Role::Custom},
                Member<S1d2Sort, uint8_t>{"stable", 40, &S1d2Sort::stable, Role::Plain},
                Member<S1d2Sort, std::array<uint8_t, 23>>{"reserved1", 41, &S1d2Sort::reserved1, Role::Reserved});

/// NEURON_ISA_TPB_S4D4_PL_STRUCT (64 B): POOL 0x45, compile-verified identical on every generation (POOL §3).
/// MAX_POOL_SELECT 0x58 shares the struct and is not modeled.
struct S4d4Pl {
  static constexpr Format kFormat = Format::S4d4Pl;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S4D4_PL";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  Tensor4d src{};
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 1> reserved0{};
  uint8_t pool_func = 0;  ///< POOL_TYPE: NONE 0, MAX_POOL 1, AVG_POOL 2
  uint8_t pool_dim = 0;   ///< TENSOR_SUBDIM: the source dimensions of one window
  std::array<uint8_t, 2> reserved1{};
  ImmVal pool_scale{};  ///< fp32: the AVG_POOL multiplier (1.0 for MAX_POOL)
  Tensor4d dst{};
  bool operator==(const S4d4Pl&) const = default;
};
template <>
inline constexpr auto fields_of<S4d4Pl> =
    field_decls(Member<S4d4Pl, Header>{"header", 0, &S4d4Pl::header, Role::Plain},
                Member<S4d4Pl, Events>{"events", 4, &S4d4Pl::events, Role::Plain},
                Member<S4d4Pl, Tensor4d>{"src", 12, &S4d4Pl::src, Role::Plain},
                Member<S4d4Pl, uint8_t>{"in_dtype", 32, &S4d4Pl::in_dtype, Role::Dtype},
                Member<S4d4Pl, uint8_t>{"out_dtype", 33, &S4d4Pl::out_dtype, Role::Dtype},
                Member<S4d4Pl, uint8_t>{"num_active_channels", 34, &S4d4Pl::num_active_channels, Role::Channels},
                Member<S4d4Pl, std::array<uint8_t, 1>>{"reserved0", 35, &S4d4Pl::reserved0, Role::Reserved},
                Member<S4d4Pl, uint8_t>{"pool_func", 36, &S4d4Pl::pool_func, Role::Custom},
                Member<S4d4Pl, uint8_t>{"pool_dim", 37, &S4d4Pl::pool_dim, Role::Subdim},
                Member<S4d4Pl, std::array<uint8_t, 2>>{"reserved1", 38, &S4d4Pl::reserved1, Role::Reserved},
                Member<S4d4Pl, ImmVal>{"pool_scale", 40, &S4d4Pl::pool_scale, Role::ImmVal},
                Member<S4d4Pl, Tensor4d>{"dst", 44, &S4d4Pl::dst, Role::Plain});

/// NEURON_ISA_TPB_S4D4_CR_STRUCT (64 B): CROSS_LANE_REDUCE_ARITH 0x7C / _BITVEC 0x7D, identical on every generation.
struct S4d4Cr {
  static constexpr Format kFormat = Format::S4d4Cr;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S4D4_CR";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  Tensor4d src{};
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  uint8_t num_active_channels = 0;
  uint8_t reduce_op = 0;    ///< REDUCE_OP: ADD 0, AVERAGE 1, MAX 2, BITWISE_OR 3, BITWISE_AND 4, BITWISE_XOR 5
  uint8_t reduce_axis = 0;  ///< REDUCE_AXIS: ALL 0, PARTITIONS 1
  std::array<uint8_t, 3> reserved0{};
  ImmVal scale{};  ///< fp32: AVERAGE's per-element multiplier
  Tensor4d dst{};
  bool operator==(const S4d4Cr&) const = default;
};
template <>
inline constexpr auto fields_of<S4d4Cr> =
    field_decls(Member<S4d4Cr, Header>{"header", 0, &S4d4Cr::header, Role::Plain},
                Member<S4d4Cr, Events>{"events", 4, &S4d4Cr::events, Role::Plain},
                Member<S4d4Cr, Tensor4d>{"src", 12, &S4d4Cr::src, Role::Plain},
                Member<S4d4Cr, uint8_t>{"in_dtype", 32, &S4d4Cr::in_dtype, Role::Dtype},
                Member<S4d4Cr, uint8_t>{"out_dtype", 33, &S4d4Cr::out_dtype, Role::Dtype},
                Member<S4d4Cr, uint8_t>{"num_active_channels", 34, &S4d4Cr::num_active_channels, Role::Channels},
                Member<S4d4Cr, uint8_t>{"reduce_op", 35, &S4d4Cr::reduce_op, Role::Custom},
                Member<S4d4Cr, uint8_t>{"reduce_axis", 36, &S4d4Cr::reduce_axis, Role::Custom},
                Member<S4d4Cr, std::array<uint8_t, 3>>{"reserved0", 37, &S4d4Cr::reserved0, Role::Reserved},
                Member<S4d4Cr, ImmVal>{"scale", 40, &S4d4Cr::scale, Role::ImmVal},
                Member<S4d4Cr, Tensor4d>{"dst", 44, &S4d4Cr::dst, Role::Plain});

namespace family {

/// The pool family (src/families/pool): its layouts and the parts its folder defines.
struct PoolFamily {
  static constexpr std::string_view kName = "pool";
  using Layouts = TypeList<S4d4Gt, S4d4Ic, S1d2Sort, S4d4Pl, S4d4Cr>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

}  // namespace family

/// The pool family's opcodes, enums and dependent-field readings, decided here once for every part.
namespace family::pool {

inline constexpr uint8_t kGather = tpbisa::detail::opcode_named("GATHER");
inline constexpr uint8_t kIndirectCopy = tpbisa::detail::opcode_named("INDIRECT_COPY");
inline constexpr uint8_t kSort = tpbisa::detail::opcode_named("SORT");
inline constexpr uint8_t kPool = tpbisa::detail::opcode_named("POOL");
inline constexpr uint8_t kCrossLaneArith = tpbisa::detail::opcode_named("CROSS_LANE_REDUCE_ARITH");
inline constexpr uint8_t kCrossLaneBitvec = tpbisa::detail::opcode_named("CROSS_LANE_REDUCE_BITVEC");

/// DTYPE_PAIR (common-formats.md §9): the low nibble is the input dtype, the high nibble the output dtype.
constexpr uint8_t pair_in(uint8_t pair) {
  return static_cast<uint8_t>(pair & 0x0F);
}
constexpr uint8_t pair_out(uint8_t pair) {
  return static_cast<uint8_t>(pair >> 4);
}

/// POOL_TYPE (s4d4_pl.h).
inline constexpr uint8_t kPoolNone = 0, kPoolMax = 1, kPoolAvg = 2;
/// REDUCE_OP and REDUCE_AXIS (s4d4_cr.h).
inline constexpr uint8_t kReduceAdd = 0, kReduceAverage = 1, kReduceMax = 2, kReduceOr = 3, kReduceAnd = 4,
                         kReduceXor = 5;
inline constexpr uint8_t kAxisAll = 0, kAxisPartitions = 1;
/// TENSOR_SUBDIM (common.h): X 2, XY 3, XYZ 4, XYZW 5 (no 1).
inline constexpr uint8_t kSubdimX = 2, kSubdimXyzw = 5;
/// SORT_MAX_SIZE (bytes of Pool working RAM) and the INDIRECT_COPY index limit.
inline constexpr uint32_t kSortMaxSize = 8192, kIndirectMaxIndices = 4096;

/// The number of window dimensions pool_dim names (X..XYZW = 1..4), 0 when it names none.
constexpr unsigned window_dims(uint8_t pool_dim) {
  return pool_dim >= kSubdimX && pool_dim <= kSubdimXyzw ? pool_dim - 1U : 0U;
}

/// sort_dtype_is_16b / sort_dtype_is_32b (SORT §4.1).
constexpr bool sort_dtype_16b(uint8_t d) {
  return d == dtype::kFp16 || d == dtype::kBfloat16 || d == dtype::kUint16 || d == dtype::kInt16;
}
constexpr bool sort_dtype_32b(uint8_t d) {
  return d == dtype::kFp32 || d == dtype::kUint32 || d == dtype::kInt32;
}

/// The element count of a tensor pattern (the product of its counts).
template <class T>
constexpr uint64_t count_of(const T& t) {
  uint64_t n = 1;
  for (uint16_t c : t.num_elem) n *= c;
  return n;
}

/// How SORT's index_offset is read, per its IMM_SRC.
constexpr ImmReading imm_reading_of(uint8_t src) {
  return src == imm_src::kPointer      ? ImmReading::Pointer
         : src == imm_src::kRegPointer ? ImmReading::Register
                                       : ImmReading::Value;
}

}  // namespace family::pool

// ---- Compile-time checks against the public offsets (GATH §3a/§3b, SORT §3, POOL §3.1, CR §3.1) ----

static_assert(tiles_exactly<S4d4Gt>() && tiles_exactly<IndirectPattern>() && tiles_exactly<S4d4Ic>() &&
              tiles_exactly<S1d2Sort>() && tiles_exactly<S4d4Pl>() && tiles_exactly<S4d4Cr>());
static_assert(offset_of<S4d4Gt>("src") == 12 && offset_of<S4d4Gt>("in_dtype") == 32 &&
              offset_of<S4d4Gt>("out_dtype") == 33 && offset_of<S4d4Gt>("num_active_channels") == 34 &&
              offset_of<S4d4Gt>("index_miss_behavior") == 36 && offset_of<S4d4Gt>("free_pool_buffer") == 37 &&
              offset_of<S4d4Gt>("immediate") == 40 && offset_of<S4d4Gt>("dst") == 44);
static_assert(offset_of<S4d4Ic>("src") == 12 && offset_of<S4d4Ic>("in_dtype") == 32 &&
              offset_of<S4d4Ic>("num_active_channels") == 34 && offset_of<S4d4Ic>("src_num_elem_per_idx") == 35 &&
              offset_of<S4d4Ic>("dst_num_elem_per_idx") == 36 && offset_of<S4d4Ic>("src_buffer_size") == 38 &&
              offset_of<S4d4Ic>("dst_buffer_size") == 40 && offset_of<S4d4Ic>("dst") == 44);
static_assert(offset_of<S1d2Sort>("index_offset_src") == 13 && offset_of<S1d2Sort>("in_out_dtype") == 14 &&
              offset_of<S1d2Sort>("comparison") == 15 && offset_of<S1d2Sort>("src") == 16 &&
              offset_of<S1d2Sort>("dst") == 24 && offset_of<S1d2Sort>("index_offset") == 36 &&
              offset_of<S1d2Sort>("stable") == 40 && offset_of<S1d2Sort>("reserved1") == 41);
static_assert(offset_of<S4d4Pl>("reserved0") == 35 && offset_of<S4d4Pl>("pool_func") == 36 &&
              offset_of<S4d4Pl>("pool_dim") == 37 && offset_of<S4d4Pl>("reserved1") == 38 &&
              offset_of<S4d4Pl>("pool_scale") == 40 && offset_of<S4d4Pl>("dst") == 44);
static_assert(offset_of<S4d4Cr>("reduce_op") == 35 && offset_of<S4d4Cr>("reduce_axis") == 36 &&
              offset_of<S4d4Cr>("reserved0") == 37 && offset_of<S4d4Cr>("scale") == 40 &&
              offset_of<S4d4Cr>("dst") == 44);

}  // namespace tpbisa
