// Index family formats: IOTA 0x7E (D4_IOTA), TENSOR_SCALAR_AFFINE_SELECT 0x92 (S2D2_TS_AS), RANGE_SELECT 0xBC
// (S2D2_RS), GET_SEQUENCE_BOUNDS 0xBE (S3D3_SEQ_BOUNDS) and NONZERO_WITH_COUNT 0xF2 (S3D3_NONZERO_WITH_COUNT).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// DATA4D (20 B, act-index-ops.md §2.1): a generator, not a memory pattern; element (x,y,z,w) has the value
/// base + x·step[0] + y·step[1] + z·step[2] + w·step[3], dimension 0 fastest.
struct Data4d {
  static constexpr std::string_view kName = "DATA4D";
  static constexpr size_t kSize = 20;
  int32_t base = 0;
  std::array<int16_t, 4> step_elem{};
  std::array<uint16_t, 4> num_elem{};
  /// d4d_element_count.
  constexpr uint64_t elements() const { return uint64_t{num_elem[0]} * num_elem[1] * num_elem[2] * num_elem[3]; }
  bool operator==(const Data4d&) const = default;
};
template <>
inline constexpr auto fields_of<Data4d> =
    field_decls(Member<Data4d, int32_t>{"base", 0, &Data4d::base, Role::Plain},
                Member<Data4d, std::array<int16_t, 4>>{"step_elem", 4, &Data4d::step_elem, Role::Step},
                Member<Data4d, std::array<uint16_t, 4>>{"num_elem", 12, &Data4d::num_elem, Role::NumElem});

/// NEURON_ISA_TPB_D4_IOTA_STRUCT (64 B): IOTA 0x7E, same bytes on every generation (§9.1).
struct D4Iota {
  static constexpr Format kFormat = Format::D4Iota;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "D4_IOTA";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  Data4d src{};
  std::array<uint8_t, 1> reserved0{};
  uint8_t out_dtype = 0;
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 1> reserved1{};
  int32_t channel_multiplier = 0;
  std::array<uint8_t, 4> reserved2{};
  Tensor4d dst{};
  bool operator==(const D4Iota&) const = default;
};
template <>
inline constexpr auto fields_of<D4Iota> =
    field_decls(Member<D4Iota, Header>{"header", 0, &D4Iota::header, Role::Plain},
                Member<D4Iota, Events>{"events", 4, &D4Iota::events, Role::Plain},
                Member<D4Iota, Data4d>{"src", 12, &D4Iota::src, Role::Plain},
                Member<D4Iota, std::array<uint8_t, 1>>{"reserved0", 32, &D4Iota::reserved0, Role::Reserved},
                Member<D4Iota, uint8_t>{"out_dtype", 33, &D4Iota::out_dtype, Role::Dtype},
                Member<D4Iota, uint8_t>{"num_active_channels", 34, &D4Iota::num_active_channels, Role::Channels},
                Member<D4Iota, std::array<uint8_t, 1>>{"reserved1", 35, &D4Iota::reserved1, Role::Reserved},
                Member<D4Iota, int32_t>{"channel_multiplier", 36, &D4Iota::channel_multiplier, Role::Plain},
                Member<D4Iota, std::array<uint8_t, 4>>{"reserved2", 40, &D4Iota::reserved2, Role::Reserved},
                Member<D4Iota, Tensor4d>{"dst", 44, &D4Iota::dst, Role::Plain});

/// NEURON_ISA_TPB_S2D2_TS_AS_STRUCT (64 B): TENSOR_SCALAR_AFFINE_SELECT 0x92, every generation (§10.1).
struct S2d2TsAs {
  static constexpr Format kFormat = Format::S2d2TsAs;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S2D2_TS_AS";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t num_active_channels = 0;
  uint8_t in_out_dtype = 0;  ///< DTYPE_PAIR: low nibble input, high nibble output
  uint8_t fill_mode = 0;     ///< AFFINE_SELECT_CMP: the mask is compared with 0
  uint8_t fill_reg = 0;      ///< the register holding the fp32 fill value
  Data4d mask{};
  Tensor2d src{};
  Tensor2d dst{};
  int32_t channel_multiplier = 0;
  bool operator==(const S2d2TsAs&) const = default;
};
template <>
inline constexpr auto fields_of<S2d2TsAs> =
    field_decls(Member<S2d2TsAs, Header>{"header", 0, &S2d2TsAs::header, Role::Plain},
                Member<S2d2TsAs, Events>{"events", 4, &S2d2TsAs::events, Role::Plain},
                Member<S2d2TsAs, uint8_t>{"num_active_channels", 12, &S2d2TsAs::num_active_channels, Role::Channels},
                Member<S2d2TsAs, uint8_t>{"in_out_dtype", 13, &S2d2TsAs::in_out_dtype, Role::Custom},
                Member<S2d2TsAs, uint8_t>{"fill_mode", 14, &S2d2TsAs::fill_mode, Role::Custom},
                Member<S2d2TsAs, uint8_t>{"fill_reg", 15, &S2d2TsAs::fill_reg, Role::Plain},
                Member<S2d2TsAs, Data4d>{"mask", 16, &S2d2TsAs::mask, Role::Plain},
                Member<S2d2TsAs, Tensor2d>{"src", 36, &S2d2TsAs::src, Role::Plain},
                Member<S2d2TsAs, Tensor2d>{"dst", 48, &S2d2TsAs::dst, Role::Plain},
                Member<S2d2TsAs, int32_t>{"channel_multiplier", 60, &S2d2TsAs::channel_multiplier, Role::Plain});

/// NEURON_ISA_TPB_S2D2_RS_STRUCT (64 B): RANGE_SELECT 0xBC, CAYMAN+ (§11.1).
struct S2d2Rs {
  static constexpr Format kFormat = Format::S2d2Rs;
  static constexpr GenSet kGens = kGensCaymanUp;
  static constexpr std::string_view kName = "S2D2_RS";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t num_active_channels = 0;
  uint8_t in_out_dtype = 0;  ///< DTYPE_PAIR: low nibble input, high nibble output
  uint8_t reduce_cmd = 0;    ///< ACCUM_CMD
  uint8_t reduce_op = 0;
  ImmVal base{};      ///< fp32 index origin (range_start)
  ImmVal fill_val{};  ///< fp32, must be -FLT_MAX
  Tensor2d src{};
  uint8_t comp_op0 = 0;
  uint8_t comp_op1 = 0;
  uint8_t bound0_src = 0;
  uint8_t bound1_src = 0;
  ImmVal bound0{};
  ImmVal bound1{};
  Tensor2d dst{};
  uint32_t reserved1 = 0;  ///< not inspected by the validator (§11.2), so a plain operand, not Role::Reserved
  bool operator==(const S2d2Rs&) const = default;
};
template <>
inline constexpr auto fields_of<S2d2Rs> =
    field_decls(Member<S2d2Rs, Header>{"header", 0, &S2d2Rs::header, Role::Plain},
                Member<S2d2Rs, Events>{"events", 4, &S2d2Rs::events, Role::Plain},
                Member<S2d2Rs, uint8_t>{"num_active_channels", 12, &S2d2Rs::num_active_channels, Role::Channels},
                Member<S2d2Rs, uint8_t>{"in_out_dtype", 13, &S2d2Rs::in_out_dtype, Role::Custom},
                Member<S2d2Rs, uint8_t>{"reduce_cmd", 14, &S2d2Rs::reduce_cmd, Role::Custom},
                Member<S2d2Rs, uint8_t>{"reduce_op", 15, &S2d2Rs::reduce_op, Role::AluOp},
                Member<S2d2Rs, ImmVal>{"base", 16, &S2d2Rs::base, Role::ImmVal},
                Member<S2d2Rs, ImmVal>{"fill_val", 20, &S2d2Rs::fill_val, Role::ImmVal},
                Member<S2d2Rs, Tensor2d>{"src", 24, &S2d2Rs::src, Role::Plain},
                Member<S2d2Rs, uint8_t>{"comp_op0", 36, &S2d2Rs::comp_op0, Role::AluOp},
                Member<S2d2Rs, uint8_t>{"comp_op1", 37, &S2d2Rs::comp_op1, Role::AluOp},
                Member<S2d2Rs, uint8_t>{"bound0_src", 38, &S2d2Rs::bound0_src, Role::ImmSrc},
                Member<S2d2Rs, uint8_t>{"bound1_src", 39, &S2d2Rs::bound1_src, Role::ImmSrc},
                Member<S2d2Rs, ImmVal>{"bound0", 40, &S2d2Rs::bound0, Role::ImmVal},
                Member<S2d2Rs, ImmVal>{"bound1", 44, &S2d2Rs::bound1, Role::ImmVal},
                Member<S2d2Rs, Tensor2d>{"dst", 48, &S2d2Rs::dst, Role::Plain},
                Member<S2d2Rs, uint32_t>{"reserved1", 60, &S2d2Rs::reserved1, Role::Plain});

/// NEURON_ISA_TPB_S3D3_SEQ_BOUNDS_STRUCT (64 B): GET_SEQUENCE_BOUNDS 0xBE, CAYMAN+ (§12.1).
struct S3d3SeqBounds {
  static constexpr Format kFormat = Format::S3d3SeqBounds;
  static constexpr GenSet kGens = kGensCaymanUp;
  static constexpr std::string_view kName = "S3D3_SEQ_BOUNDS";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 1> reserved0{};
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  Tensor3d src{};
  Tensor3d dst{};
  std::array<uint8_t, 16> reserved1{};
  bool operator==(const S3d3SeqBounds&) const = default;
};
template <>
inline constexpr auto fields_of<S3d3SeqBounds> = field_decls(
    Member<S3d3SeqBounds, Header>{"header", 0, &S3d3SeqBounds::header, Role::Plain},
    Member<S3d3SeqBounds, Events>{"events", 4, &S3d3SeqBounds::events, Role::Plain},
    Member<S3d3SeqBounds, uint8_t>{"num_active_channels", 12, &S3d3SeqBounds::num_active_channels, Role::Channels},
    Member<S3d3SeqBounds, std::array<uint8_t, 1>>{"reserved0", 13, &S3d3SeqBounds::reserved0, Role::Reserved},
    Member<S3d3SeqBounds, uint8_t>{"in_dtype", 14, &S3d3SeqBounds::in_dtype, Role::Dtype},
    Member<S3d3SeqBounds, uint8_t>{"out_dtype", 15, &S3d3SeqBounds::out_dtype, Role::Dtype},
    Member<S3d3SeqBounds, Tensor3d>{"src", 16, &S3d3SeqBounds::src, Role::Plain},
    Member<S3d3SeqBounds, Tensor3d>{"dst", 32, &S3d3SeqBounds::dst, Role::Plain},
    Member<S3d3SeqBounds, std::array<uint8_t, 16>>{"reserved1", 48, &S3d3SeqBounds::reserved1, Role::Reserved});

/// NEURON_ISA_TPB_S3D3_NONZERO_WITH_COUNT_STRUCT (64 B): NONZERO_WITH_COUNT 0xF2, CAYMAN+ (§13.1). The two
/// int32 IMM_VAL operands are Role::Custom: a signed integer, or a pointer / register per their IMM_SRC.
struct S3d3NonzeroWithCount {
  static constexpr Format kFormat = Format::S3d3NonzeroWithCount;
  static constexpr GenSet kGens = kGensCaymanUp;
  static constexpr std::string_view kName = "S3D3_NONZERO_WITH_COUNT";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t num_active_channels = 0;
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  uint8_t index_offset_src = 0;
  Tensor3d src{};
  int32_t index_offset = 0;
  uint8_t padding_val_src = 0;
  std::array<uint8_t, 3> reserved0{};
  int32_t padding_val = 0;
  Tensor3d dst{};
  std::array<uint8_t, 4> reserved1{};
  bool operator==(const S3d3NonzeroWithCount&) const = default;
};
template <>
inline constexpr auto fields_of<S3d3NonzeroWithCount> = field_decls(
    Member<S3d3NonzeroWithCount, Header>{"header", 0, &S3d3NonzeroWithCount::header, Role::Plain},
    Member<S3d3NonzeroWithCount, Events>{"events", 4, &S3d3NonzeroWithCount::events, Role::Plain},
    Member<S3d3NonzeroWithCount, uint8_t>{"num_active_channels", 12, &S3d3NonzeroWithCount::num_active_channels,
                                          Role::Channels},
    Member<S3d3NonzeroWithCount, uint8_t>{"in_dtype", 13, &S3d3NonzeroWithCount::in_dtype, Role::Dtype},
    Member<S3d3NonzeroWithCount, uint8_t>{"out_dtype", 14, &S3d3NonzeroWithCount::out_dtype, Role::Dtype},
    Member<S3d3NonzeroWithCount, uint8_t>{"index_offset_src", 15, &S3d3NonzeroWithCount::index_offset_src,
                                          Role::ImmSrc},
    Member<S3d3NonzeroWithCount, Tensor3d>{"src", 16, &S3d3NonzeroWithCount::src, Role::Plain},
    Member<S3d3NonzeroWithCount, int32_t>{"index_offset", 32, &S3d3NonzeroWithCount::index_offset, Role::Custom},
    Member<S3d3NonzeroWithCount, uint8_t>{"padding_val_src", 36, &S3d3NonzeroWithCount::padding_val_src, Role::ImmSrc},
    Member<S3d3NonzeroWithCount, std::array<uint8_t, 3>>{"reserved0", 37, &S3d3NonzeroWithCount::reserved0,
                                                         Role::Reserved},
    Member<S3d3NonzeroWithCount, int32_t>{"padding_val", 40, &S3d3NonzeroWithCount::padding_val, Role::Custom},
    Member<S3d3NonzeroWithCount, Tensor3d>{"dst", 44, &S3d3NonzeroWithCount::dst, Role::Plain},
    Member<S3d3NonzeroWithCount, std::array<uint8_t, 4>>{"reserved1", 60, &S3d3NonzeroWithCount::reserved1,
                                                         Role::Reserved});

namespace family {

/// The index family (src/families/index): its layouts and the parts its folder defines.
struct IndexFamily {
  static constexpr std::string_view kName = "index";
  using Layouts = TypeList<D4Iota, S2d2TsAs, S2d2Rs, S3d3SeqBounds, S3d3NonzeroWithCount>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

}  // namespace family

/// The index family's opcodes and dependent-field readings, decided here once for every part.
namespace family::index {

inline constexpr uint8_t kIota = tpbisa::detail::opcode_named("IOTA");
inline constexpr uint8_t kAffineSelect = tpbisa::detail::opcode_named("TENSOR_SCALAR_AFFINE_SELECT");
inline constexpr uint8_t kRangeSelect = tpbisa::detail::opcode_named("RANGE_SELECT");
inline constexpr uint8_t kGetSequenceBounds = tpbisa::detail::opcode_named("GET_SEQUENCE_BOUNDS");
inline constexpr uint8_t kNonzeroWithCount = tpbisa::detail::opcode_named("NONZERO_WITH_COUNT");

/// DTYPE_PAIR (common-formats.md §9): the low nibble is the input dtype, the high nibble the output dtype.
constexpr uint8_t pair_in(uint8_t pair) {
  return static_cast<uint8_t>(pair & 0x0F);
}
constexpr uint8_t pair_out(uint8_t pair) {
  return static_cast<uint8_t>(pair >> 4);
}

/// ACCUM_CMD values (enums.md §5 table, common.h:870).
inline constexpr uint8_t kAccIdle = accum_cmd::kIdle, kAccZero = accum_cmd::kZero,
                         kAccAccumulate = accum_cmd::kAccumulate, kAccZeroAccumulate = accum_cmd::kZeroAccumulate,
                         kAccLoadAccumulate = accum_cmd::kLoadAccumulate;
/// AFFINE_SELECT_CMP values (§10.1): the mask compared with 0.
inline constexpr uint8_t kCmpGt = 0, kCmpGe = 1, kCmpEq = 2, kCmpNe = 3;
/// IMM_SRC values (§2.2).
inline constexpr uint8_t kImmInstruction = imm_src::kInstruction, kImmPointer = imm_src::kPointer,
                         kImmRegPtr = imm_src::kRegPointer;
/// RANGE_SELECT's required fill value, -FLT_MAX (§11.2 is_valid_fill_val).
inline constexpr uint32_t kNegFltMax = 0xFF7FFFFFU;

/// How an IMM_VAL operand selected by an IMM_SRC byte is read.
constexpr ImmReading imm_reading_of(uint8_t src) {
  return src == kImmPointer ? ImmReading::Pointer : src == kImmRegPtr ? ImmReading::Register : ImmReading::Value;
}

}  // namespace family::index

// ---- Compile-time checks against the spec's compile-verified offsets (§9.1, §10.1, §11.1, §12.1, §13.1) ----

static_assert(tiles_exactly<Data4d>() && tiles_exactly<D4Iota>() && tiles_exactly<S2d2TsAs>() &&
              tiles_exactly<S2d2Rs>() && tiles_exactly<S3d3SeqBounds>() && tiles_exactly<S3d3NonzeroWithCount>());
static_assert(offset_of<D4Iota>("src") == 12 && offset_of<D4Iota>("out_dtype") == 33 &&
              offset_of<D4Iota>("num_active_channels") == 34 && offset_of<D4Iota>("channel_multiplier") == 36 &&
              offset_of<D4Iota>("reserved2") == 40 && offset_of<D4Iota>("dst") == 44);
static_assert(offset_of<S2d2TsAs>("fill_mode") == 14 && offset_of<S2d2TsAs>("fill_reg") == 15 &&
              offset_of<S2d2TsAs>("mask") == 16 && offset_of<S2d2TsAs>("src") == 36 &&
              offset_of<S2d2TsAs>("dst") == 48 && offset_of<S2d2TsAs>("channel_multiplier") == 60);
static_assert(offset_of<S2d2Rs>("base") == 16 && offset_of<S2d2Rs>("fill_val") == 20 &&
              offset_of<S2d2Rs>("src") == 24 && offset_of<S2d2Rs>("comp_op0") == 36 &&
              offset_of<S2d2Rs>("bound0_src") == 38 && offset_of<S2d2Rs>("bound0") == 40 &&
              offset_of<S2d2Rs>("bound1") == 44 && offset_of<S2d2Rs>("dst") == 48);
static_assert(offset_of<S3d3SeqBounds>("in_dtype") == 14 && offset_of<S3d3SeqBounds>("src") == 16 &&
              offset_of<S3d3SeqBounds>("dst") == 32 && offset_of<S3d3SeqBounds>("reserved1") == 48);
static_assert(offset_of<S3d3NonzeroWithCount>("index_offset_src") == 15 &&
              offset_of<S3d3NonzeroWithCount>("src") == 16 && offset_of<S3d3NonzeroWithCount>("index_offset") == 32 &&
              offset_of<S3d3NonzeroWithCount>("padding_val_src") == 36 &&
              offset_of<S3d3NonzeroWithCount>("padding_val") == 40 && offset_of<S3d3NonzeroWithCount>("dst") == 44);

}  // namespace tpbisa
