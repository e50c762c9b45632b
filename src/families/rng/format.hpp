// RNG family formats: DROPOUT 0x7F (S3D3_DROPOUT), RAND 0x76 and RAND_GET_STATE 0x77 (D4_RAND), RAND_SET_STATE 0x78
// (S1_RAND) and RAND2 0xE2 (D3_RAND), as the public wiki quotes their headers (opcode-research.md §A.2.8).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/families/tensor_scalar/format.hpp"  // TENSOR1D, the sub-format S1_RAND's source uses
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_S3D3_DROPOUT_STRUCT (64 B), s3d3_dropout.h: the same bytes on every generation (MAVERICK changes
/// only the name of the channel conjunct).
struct S3d3Dropout {
  static constexpr Format kFormat = Format::S3d3Dropout;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S3D3_DROPOUT";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 4> reserved0{};
  Tensor3d src{};
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  uint8_t num_active_channels = 0;
  uint8_t threshold_src = 0;    ///< IMM_SRC of `threshold`
  uint8_t threshold_dtype = 0;  ///< DTYPE of a pointed-to threshold; 0 reads as FP32
  std::array<uint8_t, 6> reserved1{};
  uint8_t threshold_type = 0;  ///< DROPOUT_THRESHOLD_TYPE: DROP_RATE 0, KEEP_RATE 1
  ImmVal threshold{};
  Tensor3d dst{};
  bool operator==(const S3d3Dropout&) const = default;
};
template <>
inline constexpr auto fields_of<S3d3Dropout> = field_decls(
    Member<S3d3Dropout, Header>{"header", 0, &S3d3Dropout::header, Role::Plain},
    Member<S3d3Dropout, Events>{"events", 4, &S3d3Dropout::events, Role::Plain},
    Member<S3d3Dropout, std::array<uint8_t, 4>>{"reserved0", 12, &S3d3Dropout::reserved0, Role::Reserved},
    Member<S3d3Dropout, Tensor3d>{"src", 16, &S3d3Dropout::src, Role::Plain},
    Member<S3d3Dropout, uint8_t>{"in_dtype", 32, &S3d3Dropout::in_dtype, Role::Dtype},
    Member<S3d3Dropout, uint8_t>{"out_dtype", 33, &S3d3Dropout::out_dtype, Role::Dtype},
    Member<S3d3Dropout, uint8_t>{"num_active_channels", 34, &S3d3Dropout::num_active_channels, Role::Channels},
    Member<S3d3Dropout, uint8_t>{"threshold_src", 35, &S3d3Dropout::threshold_src, Role::ImmSrc},
    Member<S3d3Dropout, uint8_t>{"threshold_dtype", 36, &S3d3Dropout::threshold_dtype, Role::Dtype},
    Member<S3d3Dropout, std::array<uint8_t, 6>>{"reserved1", 37, &S3d3Dropout::reserved1, Role::Reserved},
    Member<S3d3Dropout, uint8_t>{"threshold_type", 43, &S3d3Dropout::threshold_type, Role::Custom},
    Member<S3d3Dropout, ImmVal>{"threshold", 44, &S3d3Dropout::threshold, Role::ImmVal},
    Member<S3d3Dropout, Tensor3d>{"dst", 48, &S3d3Dropout::dst, Role::Plain});

/// NEURON_ISA_TPB_D4_RAND_STRUCT (64 B), d4_rand.h: RAND 0x76 (deprecated) and RAND_GET_STATE 0x77, the same bytes on
/// every generation.
struct D4Rand {
  static constexpr Format kFormat = Format::D4Rand;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "D4_RAND";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t rand_algorithm = 0;  ///< RAND_ALGORITHM
  uint8_t rand_num_steps = 0;
  uint8_t post_process = 0;          ///< RAND_POST_PROC
  uint8_t rand_generator = 0;        ///< RAND_SRC
  std::array<uint32_t, 4> params{};  ///< RAND_PARAM[4]: min_fp32, max_fp32 of UNIFORM_IN_RANGE
  uint8_t dtype = 0;
  std::array<uint8_t, 1> reserved1{};
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 9> reserved2{};
  Tensor4d dst{};
  bool operator==(const D4Rand&) const = default;
};
template <>
inline constexpr auto fields_of<D4Rand> =
    field_decls(Member<D4Rand, Header>{"header", 0, &D4Rand::header, Role::Plain},
                Member<D4Rand, Events>{"events", 4, &D4Rand::events, Role::Plain},
                Member<D4Rand, uint8_t>{"rand_algorithm", 12, &D4Rand::rand_algorithm, Role::Custom},
                Member<D4Rand, uint8_t>{"rand_num_steps", 13, &D4Rand::rand_num_steps, Role::Plain},
                Member<D4Rand, uint8_t>{"post_process", 14, &D4Rand::post_process, Role::Custom},
                Member<D4Rand, uint8_t>{"rand_generator", 15, &D4Rand::rand_generator, Role::Custom},
                Member<D4Rand, std::array<uint32_t, 4>>{"params", 16, &D4Rand::params, Role::Plain},
                Member<D4Rand, uint8_t>{"dtype", 32, &D4Rand::dtype, Role::Dtype},
                Member<D4Rand, std::array<uint8_t, 1>>{"reserved1", 33, &D4Rand::reserved1, Role::Reserved},
                Member<D4Rand, uint8_t>{"num_active_channels", 34, &D4Rand::num_active_channels, Role::Channels},
                Member<D4Rand, std::array<uint8_t, 9>>{"reserved2", 35, &D4Rand::reserved2, Role::Reserved},
                Member<D4Rand, Tensor4d>{"dst", 44, &D4Rand::dst, Role::Plain});

/// NEURON_ISA_TPB_S1_RAND_STRUCT (64 B), s1_rand.h: RAND_SET_STATE 0x78, the same bytes on every generation.
struct S1Rand {
  static constexpr Format kFormat = Format::S1Rand;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S1_RAND";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t rand_algorithm = 0;  ///< RAND_ALGORITHM
  uint8_t num_active_channels = 0;
  uint8_t update_state = 0;  ///< RAND_STATE_UPDATE: SRC_TENSOR 0, IMM_SINGLE 1, IMM_LANE 2
  uint8_t in_dtype = 0;
  Tensor1d src{};
  uint8_t rand_generator = 0;  ///< RAND_SRC
  std::array<uint8_t, 7> reserved{};
  std::array<uint32_t, 8> imm_state{};
  bool operator==(const S1Rand&) const = default;
};
template <>
inline constexpr auto fields_of<S1Rand> =
    field_decls(Member<S1Rand, Header>{"header", 0, &S1Rand::header, Role::Plain},
                Member<S1Rand, Events>{"events", 4, &S1Rand::events, Role::Plain},
                Member<S1Rand, uint8_t>{"rand_algorithm", 12, &S1Rand::rand_algorithm, Role::Custom},
                Member<S1Rand, uint8_t>{"num_active_channels", 13, &S1Rand::num_active_channels, Role::Channels},
                Member<S1Rand, uint8_t>{"update_state", 14, &S1Rand::update_state, Role::Custom},
                Member<S1Rand, uint8_t>{"in_dtype", 15, &S1Rand::in_dtype, Role::Dtype},
                Member<S1Rand, Tensor1d>{"src", 16, &S1Rand::src, Role::Plain},
                Member<S1Rand, uint8_t>{"rand_generator", 24, &S1Rand::rand_generator, Role::Custom},
                Member<S1Rand, std::array<uint8_t, 7>>{"reserved", 25, &S1Rand::reserved, Role::Reserved},
                Member<S1Rand, std::array<uint32_t, 8>>{"imm_state", 32, &S1Rand::imm_state, Role::Plain});

/// NEURON_ISA_TPB_D3_RAND_STRUCT (64 B), d3_rand.h (MARIANA and MAVERICK): RAND2 0xE2.
struct D3Rand {
  static constexpr Format kFormat = Format::D3Rand;
  static constexpr GenSet kGens = kGensMarianaUp;
  static constexpr std::string_view kName = "D3_RAND";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t rand_algorithm = 0;  ///< RAND_ALGORITHM (XORWOW only)
  std::array<uint8_t, 1> reserved0{};
  uint8_t post_process = 0;  ///< RAND_POST_PROC (UNIFORM_IN_RANGE only)
  std::array<uint8_t, 17> reserved1{};
  uint8_t dtype = 0;
  std::array<uint8_t, 1> reserved2{};
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 3> reserved3{};
  uint8_t min_src = 0;  ///< IMM_SRC of `min`
  uint8_t max_src = 0;  ///< IMM_SRC of `max`
  ImmVal min{};
  ImmVal max{};
  Tensor3d dst{};
  bool operator==(const D3Rand&) const = default;
};
template <>
inline constexpr auto fields_of<D3Rand> =
    field_decls(Member<D3Rand, Header>{"header", 0, &D3Rand::header, Role::Plain},
                Member<D3Rand, Events>{"events", 4, &D3Rand::events, Role::Plain},
                Member<D3Rand, uint8_t>{"rand_algorithm", 12, &D3Rand::rand_algorithm, Role::Custom},
                Member<D3Rand, std::array<uint8_t, 1>>{"reserved0", 13, &D3Rand::reserved0, Role::Reserved},
                Member<D3Rand, uint8_t>{"post_process", 14, &D3Rand::post_process, Role::Custom},
                Member<D3Rand, std::array<uint8_t, 17>>{"reserved1", 15, &D3Rand::reserved1, Role::Reserved},
                Member<D3Rand, uint8_t>{"dtype", 32, &D3Rand::dtype, Role::Dtype},
                Member<D3Rand, std::array<uint8_t, 1>>{"reserved2", 33, &D3Rand::reserved2, Role::Reserved},
                Member<D3Rand, uint8_t>{"num_active_channels", 34, &D3Rand::num_active_channels, Role::Channels},
                Member<D3Rand, std::array<uint8_t, 3>>{"reserved3", 35, &D3Rand::reserved3, Role::Reserved},
                Member<D3Rand, uint8_t>{"min_src", 38, &D3Rand::min_src, Role::ImmSrc},
                Member<D3Rand, uint8_t>{"max_src", 39, &D3Rand::max_src, Role::ImmSrc},
                Member<D3Rand, ImmVal>{"min", 40, &D3Rand::min, Role::ImmVal},
                Member<D3Rand, ImmVal>{"max", 44, &D3Rand::max, Role::ImmVal},
                Member<D3Rand, Tensor3d>{"dst", 48, &D3Rand::dst, Role::Plain});

namespace family {

/// The RNG family (src/families/rng): its layouts and the parts its folder defines.
struct RngFamily {
  static constexpr std::string_view kName = "rng";
  using Layouts = TypeList<S3d3Dropout, D4Rand, S1Rand, D3Rand>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

}  // namespace family

/// The RNG family's opcodes and dependent readings: each decided here, once, for the validators, the executor, the
/// descriptions and the assembler.
namespace rng {

inline constexpr uint8_t kDropout = detail::opcode_named("DROPOUT");
inline constexpr uint8_t kRand = detail::opcode_named("RAND");
inline constexpr uint8_t kRandGetState = detail::opcode_named("RAND_GET_STATE");
inline constexpr uint8_t kRandSetState = detail::opcode_named("RAND_SET_STATE");
inline constexpr uint8_t kRand2 = detail::opcode_named("RAND2");

/// RAND_ALGORITHM (common.h; XORWOW is not in SUNDA's enum).
inline constexpr uint8_t kAlgoLfsr = 0, kAlgoPcg32 = 1, kAlgoPhilox = 2, kAlgoXorwow = 3;
inline constexpr std::array<EnumValue, 4> kRandAlgorithm{{{kAlgoLfsr, "LFSR", kGensAll, ""},
                                                          {kAlgoPcg32, "PCG32", kGensAll, ""},
                                                          {kAlgoPhilox, "PHILOX", kGensAll, ""},
                                                          {kAlgoXorwow, "XORWOW", GenSet{0xE}, ""}}};
/// RAND_POST_PROC: NORMAL is "not supported yet".
inline constexpr uint8_t kPostRawU32 = 0, kPostUniform = 1, kPostNormal = 2;
inline constexpr std::array<EnumValue, 3> kRandPostProc{{{kPostRawU32, "RAW_U32", kGensAll, ""},
                                                         {kPostUniform, "UNIFORM_IN_RANGE", kGensAll, ""},
                                                         {kPostNormal, "NORMAL", kGensAll, ""}}};
/// RAND_SRC: the state-storage mode, a namespace of its own (XORWOW is 1 here, 3 as an algorithm).
inline constexpr uint8_t kSrcLfsr = 0, kSrcXorwow = 1, kSrcPhilox = 2, kSrcOutputCvtLfsr = 3;
inline constexpr std::array<EnumValue, 4> kRandSrc{{{kSrcLfsr, "RNG_LFSR", kGensAll, ""},
                                                    {kSrcXorwow, "RNG_XORWOW", kGensAll, ""},
                                                    {kSrcPhilox, "RNG_PHILOX", kGensAll, ""},
                                                    {kSrcOutputCvtLfsr, "OUTPUT_CVT_LFSR", kGensAll, ""}}};
/// RAND_STATE_UPDATE: where RAND_SET_STATE takes the state from.
inline constexpr uint8_t kUpdateSrcTensor = 0, kUpdateImmSingle = 1, kUpdateImmLane = 2;
inline constexpr std::array<EnumValue, 3> kRandStateUpdate{{{kUpdateSrcTensor, "SRC_TENSOR", kGensAll, ""},
                                                            {kUpdateImmSingle, "IMM_SINGLE", kGensAll, ""},
                                                            {kUpdateImmLane, "IMM_LANE", kGensAll, ""}}};

/// DROPOUT_THRESHOLD_TYPE (common.h): DROP_RATE zeroes an element when rand < threshold, KEEP_RATE when
/// rand > threshold.
inline constexpr uint8_t kDropRate = 0, kKeepRate = 1;
inline constexpr std::array<EnumValue, 2> kThresholdType{
    {{kDropRate, "DROP_RATE", kGensAll, ""}, {kKeepRate, "KEEP_RATE", kGensAll, ""}}};

/// How the threshold is read: IMM_SRC 1 a pointer, 2 a register holding the pointer, 0 (and any other value) the
/// fp32 bits themselves.
constexpr ImmReading threshold_reading(uint8_t src) {
  if (src == imm_src::kPointer) return ImmReading::Pointer;
  if (src == imm_src::kRegPointer) return ImmReading::Register;
  return ImmReading::Value;
}

/// The dtype a pointed-to threshold is read in: threshold_dtype, with 0 (INVALID) read as FP32 (the header's
/// backward-compatibility rule).
constexpr uint8_t threshold_dtype_of(uint8_t threshold_dtype) {
  return threshold_dtype == dtype::kInvalid ? dtype::kFp32 : threshold_dtype;
}

}  // namespace rng

// ---- Compile-time checks against the layout table (opcode-research.md §A.2.8) ----

static_assert(tiles_exactly<S3d3Dropout>() && tiles_exactly<D4Rand>() && tiles_exactly<S1Rand>() &&
              tiles_exactly<D3Rand>());
static_assert(offset_of<D4Rand>("rand_algorithm") == 12 && offset_of<D4Rand>("rand_num_steps") == 13 &&
              offset_of<D4Rand>("post_process") == 14 && offset_of<D4Rand>("rand_generator") == 15 &&
              offset_of<D4Rand>("params") == 16 && offset_of<D4Rand>("dtype") == 32 &&
              offset_of<D4Rand>("reserved1") == 33 && offset_of<D4Rand>("num_active_channels") == 34 &&
              offset_of<D4Rand>("reserved2") == 35 && offset_of<D4Rand>("dst") == 44);
static_assert(offset_of<S1Rand>("rand_algorithm") == 12 && offset_of<S1Rand>("num_active_channels") == 13 &&
              offset_of<S1Rand>("update_state") == 14 && offset_of<S1Rand>("in_dtype") == 15 &&
              offset_of<S1Rand>("src") == 16 && offset_of<S1Rand>("rand_generator") == 24 &&
              offset_of<S1Rand>("reserved") == 25 && offset_of<S1Rand>("imm_state") == 32);
static_assert(offset_of<D3Rand>("rand_algorithm") == 12 && offset_of<D3Rand>("reserved0") == 13 &&
              offset_of<D3Rand>("post_process") == 14 && offset_of<D3Rand>("reserved1") == 15 &&
              offset_of<D3Rand>("dtype") == 32 && offset_of<D3Rand>("reserved2") == 33 &&
              offset_of<D3Rand>("num_active_channels") == 34 && offset_of<D3Rand>("reserved3") == 35 &&
              offset_of<D3Rand>("min_src") == 38 && offset_of<D3Rand>("max_src") == 39 &&
              offset_of<D3Rand>("min") == 40 && offset_of<D3Rand>("max") == 44 && offset_of<D3Rand>("dst") == 48);
static_assert(offset_of<S3d3Dropout>("reserved0") == 12 && offset_of<S3d3Dropout>("src") == 16 &&
              offset_of<S3d3Dropout>("in_dtype") == 32 && offset_of<S3d3Dropout>("out_dtype") == 33 &&
              offset_of<S3d3Dropout>("num_active_channels") == 34 && offset_of<S3d3Dropout>("threshold_src") == 35 &&
              offset_of<S3d3Dropout>("threshold_dtype") == 36 && offset_of<S3d3Dropout>("reserved1") == 37 &&
              offset_of<S3d3Dropout>("threshold_type") == 43 && offset_of<S3d3Dropout>("threshold") == 44 &&
              offset_of<S3d3Dropout>("dst") == 48);

}  // namespace tpbisa
