// RNG family validators: is_valid_dropout (0x7F), is_valid_rand (0x76), is_valid_rand_get_state (0x77),
// is_valid_rand_set_state (0x78) and is_valid_d3_rand (0xE2), their conjuncts named as the headers name them
// (opcode-research.md §A.2.8); names the public quotes do not give are ours (PROJ-CONV-RN1, RN5).
#include "families/common.hpp"
#include "families/operand_rules.hpp"
#include "families/rng/format.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;
using Dr = S3d3Dropout;

/// The RNG words' wording of the shared operand rules: the compute families', with a zero count worded alike on SUNDA.
constexpr Wording kRngWording{.start_limit = kPartitionWording.start_limit,
                              .pattern_start = kPartitionWording.pattern_start,
                              .written_note = kPartitionWording.written_note,
                              .names_sunda_escape = false,
                              .count_has = kPartitionWording.count_has};
/// The shared rules' bodies and sentences, over layout S.
template <class S>
constexpr auto kNacOk = channels_ok<S, false>;
template <class S>
constexpr auto kNacText = channels_text<S, false>;
/// A pattern read (Write false) or written in the dtype at D: non-zero counts (or a register shape) and a register or
/// aligned SBUF/PSUM start (tensorNd_valid with PSUM and SBUF allowed).
template <class S, auto P, auto D, bool Write>
constexpr auto kPatternOk = pattern_ok<S, P, D, Write, kPsumOnAll>;
template <class S, auto P, auto D, bool Write, Name Which>
constexpr auto kPatternText = pattern_text<S, P, D, Write, Which, kRngWording>;

// ---- Fields read, by name ----

constexpr auto fReserved = field_refs_with_role<Dr, Role::Reserved>();
constexpr FieldRef fInDtype[] = {field_ref<Dr>("in_dtype")};
constexpr FieldRef fOutDtype[] = {field_ref<Dr>("out_dtype")};
constexpr FieldRef fTypes[] = {field_ref<Dr>("in_dtype"), field_ref<Dr>("out_dtype")};
constexpr FieldRef fCount[] = {field_ref<Dr>("src.start_addr"), field_ref<Dr>("src.num_elem"),
                               field_ref<Dr>("dst.start_addr"), field_ref<Dr>("dst.num_elem")};
constexpr FieldRef fThresholdType[] = {field_ref<Dr>("threshold_type")};
constexpr FieldRef fThresholdDtype[] = {field_ref<Dr>("threshold_src"), field_ref<Dr>("threshold_dtype"),
                                        field_ref<Dr>("in_dtype")};
constexpr FieldRef fThreshold[] = {field_ref<Dr>("threshold_src"), field_ref<Dr>("threshold"),
                                   field_ref<Dr>("threshold_dtype"), field_ref<Dr>("num_active_channels")};
constexpr FieldRef fChannels[] = {field_ref<Dr>("num_active_channels")};
constexpr FieldRef fSrcChannels[] = {field_ref<Dr>("src.start_addr"), field_ref<Dr>("num_active_channels")};
constexpr FieldRef fDstChannels[] = {field_ref<Dr>("dst.start_addr"), field_ref<Dr>("num_active_channels")};
constexpr FieldRef fSrcTensor[] = {field_ref<Dr>("src.start_addr"), field_ref<Dr>("src.num_elem"),
                                   field_ref<Dr>("in_dtype")};
constexpr FieldRef fDstTensor[] = {field_ref<Dr>("dst.start_addr"), field_ref<Dr>("dst.num_elem"),
                                   field_ref<Dr>("out_dtype")};

// ---- Predicate bodies ----

constexpr bool int_dtype(uint8_t d) {
  return d == dtype::kInt8 || d == dtype::kInt16 || d == dtype::kInt32 || d == dtype::kUint8 || d == dtype::kUint16 ||
         d == dtype::kUint32;
}
constexpr bool fp_dtype(uint8_t d) {
  return d == dtype::kFp8Exp3 || d == dtype::kFp8Exp4 || d == dtype::kFp8Exp5 || d == dtype::kFp16 ||
         d == dtype::kBfloat16 || d == dtype::kFp32;
}

/// s3d3_dropout_threshold_dtype_check: an inline threshold is FP32; a pointed-to one is FP32 for an integer in_dtype
/// and any float dtype for a float one; 0 (INVALID) reads as FP32 (threshold_dtype_fp32).
bool threshold_dtype_ok(const Dr& x, const CheckContext&) {
  const uint8_t d = rng::threshold_dtype_of(x.threshold_dtype);
  if (rng::threshold_reading(x.threshold_src) == ImmReading::Value || int_dtype(x.in_dtype)) return d == dtype::kFp32;
  return fp_dtype(d);
}

/// The threshold by its IMM_SRC: any fp32 bits inline; a pointer whose partition + channels fit, aligned for the
/// threshold dtype; a register below 64 (PROJ-CONV-RN1).
bool threshold_ok(const Dr& x, const CheckContext& c) {
  return immediates_ok(x.threshold.raw, x.threshold_src, x.num_active_channels,
                       rng::threshold_dtype_of(x.threshold_dtype), c.gen);
}

// ---- Explanations ----

std::string threshold_text(const Dr& x, const CheckContext& c) {
  switch (x.threshold_src) {
    case imm_src::kPointer:
      return fmt::format(
          "threshold pointer {:#010x}: its partition + {} channels must fit and it must be aligned for {}",
          x.threshold.raw, x.num_active_channels, dtype_label(rng::threshold_dtype_of(x.threshold_dtype), c.gen));
    case imm_src::kRegPointer:
      return fmt::format("threshold names register {:#010x}: a register below 64 with zero reserved bytes",
                         x.threshold.raw);
    default: return fmt::format("threshold_src is {}, not an IMM_SRC value", x.threshold_src);
  }
}

template <class S, auto Body, auto Text>
constexpr Predicate rng_rule(std::string_view name, std::string_view convention, std::string_view meaning, GenSet gens,
                             std::span<const FieldRef> fields) {
  return rule<S, Body>({.name = name,
                        .convention = convention,
                        .meaning = meaning,
                        .gens = gens,
                        .fields = fields,
                        .explain = explain_on_body<S, Text>});
}
template <auto Body, auto Text>
constexpr Predicate dropout_rule(std::string_view name, std::string_view convention, std::string_view meaning,
                                 GenSet gens, std::span<const FieldRef> fields) {
  return rng_rule<Dr, Body, Text>(name, convention, meaning, gens, fields);
}

// ---- The conjuncts of is_valid_dropout ----

constexpr Predicate kOpcode =
    opcode_clause<Dr, rng::kDropout>("has_dropout_opcode", "PROJ-CONV-RN1", "the opcode is DROPOUT (0x7F)");

constexpr Predicate kReserved =
    reserved_rule<Dr, fReserved>({.name = "s3d3_dropout_reserved_zero",
                                  .convention = "PROJ-CONV-RN1",
                                  .meaning = "reserved0 (bytes 12..15) and reserved1 (bytes 37..42) are zero",
                                  .gens = kGensAll,
                                  .explain = [](const Instruction& i, const CheckContext&) {
                                    return explain_reserved_bytes(encode(i), fReserved);
                                  }});

constexpr Predicate kInDtype =
    dtype_rule<Dr, &Dr::in_dtype, false, "in_dtype">("is_valid_dtype(in_dtype, FP32R not allowed)", fInDtype);
constexpr Predicate kOutDtype =
    dtype_rule<Dr, &Dr::out_dtype, true, "out_dtype">("is_valid_dtype(out_dtype, FP32R allowed)", fOutDtype);

constexpr Predicate kSameType =
    dropout_rule<[](const Dr& x, const CheckContext&) { return x.in_dtype == x.out_dtype; },
                 [](const Dr& x, const CheckContext& c) {
                   return fmt::format("in_dtype {} and out_dtype {} must be equal", dtype_label(x.in_dtype, c.gen),
                                      dtype_label(x.out_dtype, c.gen));
                 }>("s3d3_dropout_same_src_dst_type", "", "out_dtype == in_dtype", kGensAll, fTypes);

constexpr Predicate kCount = dropout_rule<count_ok<Dr, &Dr::src, &Dr::dst, false, shape_escapes>,
                                          count_text<Dr, &Dr::src, &Dr::dst, "src", "dst", kRngWording>>(
    "s3d3_dropout_src_dst_count_check", "",
    "same_element_count_t3d(src, dst): the same element count (skipped for a register shape, CAYMAN+)", kGensAll,
    fCount);

constexpr Predicate kThresholdType =
    dropout_rule<[](const Dr& x, const CheckContext&) { return x.threshold_type <= rng::kKeepRate; },
                 [](const Dr& x, const CheckContext&) {
                   return fmt::format("threshold_type is {}, not DROP_RATE (0) or KEEP_RATE (1)", x.threshold_type);
                 }>("s3d3_dropout_threshold_type_check", "PROJ-CONV-RN1",
                    "threshold_type is a DROPOUT_THRESHOLD_TYPE value: DROP_RATE (0) or KEEP_RATE (1)", kGensAll,
                    fThresholdType);

constexpr Predicate kThresholdDtype =
    dropout_rule<threshold_dtype_ok,
                 [](const Dr& x, const CheckContext& c) {
                   return fmt::format(
                       "threshold_dtype {} (threshold_src {}, in_dtype {}): an inline threshold, or any threshold of "
                       "an integer in_dtype, is FP32 (or 0); a pointed-to threshold of a float in_dtype is a float "
                       "dtype",
                       dtype_label(x.threshold_dtype, c.gen), x.threshold_src, dtype_label(x.in_dtype, c.gen));
                 }>(
        "s3d3_dropout_threshold_dtype_check", "",
        "threshold_dtype (0 read as FP32) is FP32 for an inline threshold or an integer in_dtype, else any float dtype "
        "(FP8_EXP3/4/5, FP16, BF16, FP32)",
        kGensAll, fThresholdDtype);

constexpr Predicate kThreshold = dropout_rule<threshold_ok, threshold_text>(
    "s3d3_dropout_threshold_check", "PROJ-CONV-RN1",
    "by threshold_src: inline (any fp32 bits), pointer (partition + channels fit, aligned for the threshold dtype) or "
    "register (is_valid_imm_reg); another threshold_src fails",
    kGensAll, fThreshold);

constexpr Predicate kChannels = dropout_rule<kNacOk<Dr>, kNacText<Dr>>(
    "has_valid_active_channel_range", "", "num_active_channels is 1..128 (POOLING_NUM_CHANNELS)", kGensNotMaverick,
    fChannels);
constexpr Predicate kChannelsTile = dropout_rule<kNacOk<Dr>, kNacText<Dr>>(
    "has_valid_active_channel_range_with_tile", "PROJ-CONV-RN1",
    "(MAVERICK) num_active_channels is 1..128 (DVE_NUM_CHANNELS); the tile flags are not judged (PROJ-CONV-RN1)",
    kGensMaverickOnly, fChannels);

constexpr Predicate kSrcStart = start_rule<Dr, &Dr::src, "src", kRngWording>(
    "src: a register start, or partition + num_active_channels <= 128", fSrcChannels);
constexpr Predicate kDstStart = start_rule<Dr, &Dr::dst, "dst", kRngWording>(
    "dst: a register start, or partition + num_active_channels <= 128", fDstChannels);

constexpr Predicate kSrcTensor = dropout_rule<kPatternOk<Dr, &Dr::src, &Dr::in_dtype, false>,
                                              kPatternText<Dr, &Dr::src, &Dr::in_dtype, false, "src">>(
    "tensor3d_valid", "PROJ-CONV-RN2",
    "src readable in in_dtype: non-zero counts (or a register shape, CAYMAN+) and a register or aligned SBUF/PSUM "
    "start (PROJ-CONV-RN2)",
    kGensAll, fSrcTensor);
constexpr Predicate kDstTensor = dropout_rule<kPatternOk<Dr, &Dr::dst, &Dr::out_dtype, true>,
                                              kPatternText<Dr, &Dr::dst, &Dr::out_dtype, true, "dst">>(
    "tensor3d_valid", "PROJ-CONV-RN2",
    "dst writable in out_dtype: as src; PSUM only with 4-byte dtypes (PROJ-CONV-RN2)", kGensAll, fDstTensor);

constexpr const Predicate* kDropout[] = {&kHasValidNeuronHeader,
                                         &kHasValidNeuronEvents,
                                         &kOpcode,
                                         &kReserved,
                                         &kInDtype,
                                         &kOutDtype,
                                         &kSameType,
                                         &kCount,
                                         &kThresholdType,
                                         &kThresholdDtype,
                                         &kThreshold,
                                         &kChannels,
                                         &kChannelsTile,
                                         &kSrcStart,
                                         &kDstStart,
                                         &kSrcTensor,
                                         &kDstTensor};

/// One arm of rand_{get,set}_state_legal_combinations (the MARIANA headers as the wiki reads them): an engine's
/// (RAND_SRC, RAND_ALGORITHM) pair and the state's u32 word count.
struct StateArm {
  uint8_t generator, algorithm, words;
  GenSet gens;
};
/// PROJ-CONV-RN4: the arms of every engine (the word's engine is not known when it is validated); the ACT arm is
/// MARIANA's alone; XORWOW is not in SUNDA's enum.
constexpr StateArm kStateArms[] = {
    {rng::kSrcPhilox, rng::kAlgoPhilox, 7, kGensAll},          // Pool
    {rng::kSrcXorwow, rng::kAlgoXorwow, 6, GenSet{0xE}},       // Pool
    {rng::kSrcOutputCvtLfsr, rng::kAlgoLfsr, 1, kGensAll},     // Pool
    {rng::kSrcXorwow, rng::kAlgoXorwow, 24, GenSet{0xE}},      // DVE
    {rng::kSrcLfsr, rng::kAlgoLfsr, 4, kGensAll},              // DVE
    {rng::kSrcOutputCvtLfsr, rng::kAlgoLfsr, 4, kGensAll},     // DVE
    {rng::kSrcOutputCvtLfsr, rng::kAlgoLfsr, 2, GenSet{0x4}},  // ACT, MARIANA only
};
bool legal_arm(uint8_t generator, uint8_t algorithm, uint64_t words, Generation g) {
  for (const StateArm& a : kStateArms)
    if (a.generator == generator && a.algorithm == algorithm && a.words == words && a.gens.has(g)) return true;
  return false;
}

bool algorithm_in_enum(uint8_t a, Generation g) {
  return a <= rng::kAlgoPhilox || (a == rng::kAlgoXorwow && g != Generation::Sunda);
}

// ---- D4_RAND: is_valid_rand (0x76) and is_valid_rand_get_state (0x77) ----

using D4 = D4Rand;
constexpr auto fD4Reserved = field_refs_with_role<D4, Role::Reserved>();
constexpr FieldRef fD4Algo[] = {field_ref<D4>("rand_algorithm")};
constexpr FieldRef fD4Pair[] = {field_ref<D4>("rand_algorithm"), field_ref<D4>("rand_generator")};
constexpr FieldRef fD4Post[] = {field_ref<D4>("post_process")};
constexpr FieldRef fD4Steps[] = {field_ref<D4>("rand_algorithm"), field_ref<D4>("rand_num_steps")};
constexpr FieldRef fD4RandDtype[] = {field_ref<D4>("post_process"), field_ref<D4>("dtype")};
constexpr FieldRef fD4Unused[] = {field_ref<D4>("rand_num_steps"), field_ref<D4>("post_process"),
                                  field_ref<D4>("params")};
constexpr FieldRef fD4Dtype[] = {field_ref<D4>("dtype")};
constexpr FieldRef fD4Combos[] = {field_ref<D4>("rand_algorithm"), field_ref<D4>("rand_generator"),
                                  field_ref<D4>("dst.num_elem")};
constexpr FieldRef fD4Channels[] = {field_ref<D4>("num_active_channels")};
constexpr FieldRef fD4DstChannels[] = {field_ref<D4>("dst.start_addr"), field_ref<D4>("num_active_channels")};
constexpr FieldRef fD4DstTensor[] = {field_ref<D4>("dst.start_addr"), field_ref<D4>("dst.num_elem"),
                                     field_ref<D4>("dtype")};

constexpr Predicate kRandOpcode =
    opcode_clause<D4, rng::kRand>("has_rand_opcode", "PROJ-CONV-RN1", "the opcode is RAND (0x76)");
constexpr Predicate kGetOpcode = opcode_clause<D4, rng::kRandGetState>("has_rand_get_state_opcode", "PROJ-CONV-RN1",
                                                                       "the opcode is RAND_GET_STATE (0x77)");
constexpr Predicate kD4Reserved =
    reserved_rule<D4, fD4Reserved>({.name = "d4_rand_reserved_zero",
                                    .convention = "PROJ-CONV-RN1",
                                    .meaning = "reserved1 (byte 33) and reserved2 (bytes 35..43) are zero",
                                    .gens = kGensAll,
                                    .explain = [](const Instruction& i, const CheckContext&) {
                                      return explain_reserved_bytes(encode(i), fD4Reserved);
                                    }});

constexpr Predicate kRandAlgo =
    rng_rule<D4, [](const D4& x, const CheckContext& c) { return algorithm_in_enum(x.rand_algorithm, c.gen); },
             [](const D4& x, const CheckContext& c) {
               return fmt::format("rand_algorithm {} is not in the RAND_ALGORITHM enum of {}", x.rand_algorithm,
                                  to_string(c.gen));
             }>("restrict_rand_algorithm", "PROJ-CONV-RN5",
                "rand_algorithm is a RAND_ALGORITHM of the generation (LFSR, PCG32, PHILOX; XORWOW from CAYMAN on)",
                kGensAll, fD4Algo);

/// The RAND_SRC / RAND_ALGORITHM pairings the header's has_valid_* blocks list.
constexpr bool paired(uint8_t generator, uint8_t algorithm) {
  switch (generator) {
    case rng::kSrcLfsr:
    case rng::kSrcOutputCvtLfsr: return algorithm == rng::kAlgoLfsr;
    case rng::kSrcXorwow: return algorithm == rng::kAlgoXorwow;
    case rng::kSrcPhilox: return algorithm == rng::kAlgoPhilox;
    default: return false;
  }
}
constexpr Predicate kRandPair =
    rng_rule<D4, [](const D4& x, const CheckContext&) { return paired(x.rand_generator, x.rand_algorithm); },
             [](const D4& x, const CheckContext&) {
               return fmt::format("rand_generator {} does not pair with rand_algorithm {}", x.rand_generator,
                                  x.rand_algorithm);
             }>("has_valid_rand_generator", "PROJ-CONV-RN5",
                "(RNG_LFSR or OUTPUT_CVT_LFSR, LFSR), (RNG_XORWOW, XORWOW) or (RNG_PHILOX, PHILOX)", kGensAll, fD4Pair);
constexpr Predicate kRandPost =
    rng_rule<D4, [](const D4& x, const CheckContext&) { return x.post_process <= rng::kPostUniform; },
             [](const D4& x, const CheckContext&) {
               return fmt::format("post_process {} is not RAW_U32 (0) or UNIFORM_IN_RANGE (1); NORMAL is not supported",
                                  x.post_process);
             }>("has_valid_rand_post_processing", "PROJ-CONV-RN5", "post_process is RAW_U32 or UNIFORM_IN_RANGE",
                kGensAll, fD4Post);
constexpr Predicate kRandSteps = rng_rule<
    D4, [](const D4& x, const CheckContext&) { return x.rand_algorithm != rng::kAlgoLfsr || x.rand_num_steps >= 1; },
    [](const D4& x, const CheckContext&) {
      return fmt::format("an LFSR draw needs rand_num_steps >= 1, got {}", x.rand_num_steps);
    }>("has_valid_rand_num_steps", "PROJ-CONV-RN5", "LFSR: rand_num_steps >= 1", kGensAll, fD4Steps);
constexpr Predicate kRandDtype =
    rng_rule<D4,
             [](const D4& x, const CheckContext&) {
               return x.post_process == rng::kPostRawU32 ? int_dtype(x.dtype)
                                                         : fp_dtype(x.dtype) || x.dtype == dtype::kFp32r;
             },
             [](const D4& x, const CheckContext& c) {
               return fmt::format(
                   "dtype {} does not suit post_process {} (RAW_U32: an integer dtype; "
                   "UNIFORM_IN_RANGE: a float dtype)",
                   dtype_label(x.dtype, c.gen), x.post_process);
             }>("has_valid_rand_dtype", "PROJ-CONV-RN5",
                "RAW_U32: an integer datapath dtype; UNIFORM_IN_RANGE: a float dtype (FP32R allowed)", kGensAll,
                fD4RandDtype);

constexpr Predicate kGetUnused =
    rng_rule<D4,
             [](const D4& x, const CheckContext&) {
               return x.rand_num_steps == 0 && x.post_process == 0 && x.params == std::array<uint32_t, 4>{};
             },
             [](const D4& x, const CheckContext&) {
               return fmt::format("rand_num_steps {}, post_process {} and params must be 0 on RAND_GET_STATE",
                                  x.rand_num_steps, x.post_process);
             }>("rand_get_state_unused_field_zero", "", "rand_num_steps, post_process and params[0..3] are 0", kGensAll,
                fD4Unused);
constexpr Predicate kGetDtype = rng_rule<D4, [](const D4& x, const CheckContext&) { return x.dtype == dtype::kUint32; },
                                         [](const D4& x, const CheckContext& c) {
                                           return fmt::format("dtype {} must be UINT32", dtype_label(x.dtype, c.gen));
                                         }>("rand_get_state_valid_dtype", "", "dtype is UINT32", kGensAll, fD4Dtype);
constexpr Predicate kGetCombos =
    rng_rule<D4,
             [](const D4& x, const CheckContext& c) {
               return legal_arm(x.rand_generator, x.rand_algorithm, x.dst.elements(), c.gen);
             },
             [](const D4& x, const CheckContext& c) {
               return fmt::format("(rand_generator {}, rand_algorithm {}) with {} dst elements is no legal arm on {}",
                                  x.rand_generator, x.rand_algorithm, x.dst.elements(), to_string(c.gen));
             }>("rand_get_state_legal_combinations", "PROJ-CONV-RN4",
                "an engine's (generator, algorithm) arm with t4d_element_count(dst) its state words: Pool PHILOX 7, "
                "XORWOW 6, OUTPUT_CVT_LFSR 1; DVE XORWOW 24, LFSR 4, OUTPUT_CVT_LFSR 4; ACT (MARIANA) "
                "OUTPUT_CVT_LFSR 2 (any engine's arm, PROJ-CONV-RN4; rand_get_state_elem_cnt inside)",
                kGensAll, fD4Combos);

constexpr Predicate kD4Channels =
    channels_rule<D4>("has_valid_active_channel_range", "num_active_channels is 1..128", fD4Channels);
constexpr Predicate kD4DstStart = start_rule<D4, &D4::dst, "dst", kRngWording>(
    "dst: a register start, or partition + num_active_channels <= 128", fD4DstChannels);
constexpr Predicate kD4DstTensor = pattern_rule<D4, &D4::dst, &D4::dtype, true, "dst", kRngWording>(
    "tensor4d_valid", "dst writable in dtype: non-zero counts (or a register shape) and an aligned SBUF/PSUM start",
    fD4DstTensor);

constexpr const Predicate* kRandList[] = {&kHasValidNeuronHeader,
                                          &kHasValidNeuronEvents,
                                          &kRandOpcode,
                                          &kD4Reserved,
                                          &kRandAlgo,
                                          &kRandPair,
                                          &kRandPost,
                                          &kRandSteps,
                                          &kRandDtype,
                                          &kD4Channels,
                                          &kD4DstStart,
                                          &kD4DstTensor};
constexpr const Predicate* kGetList[] = {
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kGetOpcode,  &kD4Reserved, &kGetUnused, &kGetDtype, &kGetCombos,
    &kD4Channels,           &kD4DstStart,           &kD4DstTensor};

// ---- S1_RAND: is_valid_rand_set_state (0x78) ----

using S1 = S1Rand;
constexpr auto fS1Reserved = field_refs_with_role<S1, Role::Reserved>();
constexpr FieldRef fS1Combos[] = {field_ref<S1>("rand_algorithm"), field_ref<S1>("rand_generator"),
                                  field_ref<S1>("update_state"), field_ref<S1>("in_dtype"),
                                  field_ref<S1>("src.num_elem")};
constexpr FieldRef fS1ImmZero[] = {field_ref<S1>("update_state"), field_ref<S1>("imm_state")};
constexpr FieldRef fS1Imm[] = {field_ref<S1>("update_state"), field_ref<S1>("rand_algorithm"),
                               field_ref<S1>("imm_state")};
constexpr FieldRef fS1Channels[] = {field_ref<S1>("num_active_channels")};
constexpr FieldRef fS1SrcChannels[] = {field_ref<S1>("src.start_addr"), field_ref<S1>("num_active_channels")};
constexpr FieldRef fS1SrcTensor[] = {field_ref<S1>("update_state"), field_ref<S1>("src.start_addr"),
                                     field_ref<S1>("src.num_elem"), field_ref<S1>("in_dtype")};

constexpr Predicate kSetOpcode = opcode_clause<S1, rng::kRandSetState>("has_rand_set_state_opcode", "PROJ-CONV-RN1",
                                                                       "the opcode is RAND_SET_STATE (0x78)");
constexpr Predicate kS1Reserved =
    reserved_rule<S1, fS1Reserved>({.name = "has_s1_rand_reserved_zero",
                                    .convention = "",
                                    .meaning = "reserved[0..6] (bytes 25..31) are zero",
                                    .gens = kGensAll,
                                    .explain = [](const Instruction& i, const CheckContext&) {
                                      return explain_reserved_bytes(encode(i), fS1Reserved);
                                    }});

bool set_combos_ok(const S1& x, const CheckContext& c) {
  if (x.in_dtype != dtype::kUint32) return false;
  if (x.update_state == rng::kUpdateImmSingle)  // the one inline arm: Pool PHILOX
    return x.rand_generator == rng::kSrcPhilox && x.rand_algorithm == rng::kAlgoPhilox;
  return x.update_state == rng::kUpdateSrcTensor &&
         legal_arm(x.rand_generator, x.rand_algorithm, x.src.num_elem[0], c.gen);
}
constexpr Predicate kSetCombos =
    rng_rule<S1, set_combos_ok,
             [](const S1& x, const CheckContext& c) {
               return fmt::format(
                   "(rand_generator {}, rand_algorithm {}, update_state {}, in_dtype {}) with {} src elements is "
                   "no legal arm on {}",
                   x.rand_generator, x.rand_algorithm, x.update_state, dtype_label(x.in_dtype, c.gen),
                   x.src.num_elem[0], to_string(c.gen));
             }>(
        "rand_set_state_legal_combinations", "PROJ-CONV-RN4",
        "in_dtype UINT32 and an engine's arm: SRC_TENSOR with src.num_elem[0] the arm's state words (as "
        "rand_get_state_legal_combinations), or IMM_SINGLE with (RNG_PHILOX, PHILOX) (rand_set_state_elem_cnt inside)",
        kGensAll, fS1Combos);
constexpr Predicate kSetImmZero =
    rng_rule<S1,
             [](const S1& x, const CheckContext&) {
               return x.update_state != rng::kUpdateSrcTensor || x.imm_state == std::array<uint32_t, 8>{};
             },
             [](const S1&, const CheckContext&) {
               return std::string("a SRC_TENSOR restore needs all eight imm_state words 0");
             }>("rand_set_state_imm_zero", "", "SRC_TENSOR: imm_state[0..7] are 0", kGensAll, fS1ImmZero);
constexpr Predicate kSetImm =
    rng_rule<S1,
             [](const S1& x, const CheckContext&) {
               return x.update_state == rng::kUpdateSrcTensor ||
                      (x.rand_algorithm == rng::kAlgoPhilox && x.imm_state[7] == 0);
             },
             [](const S1& x, const CheckContext&) {
               return fmt::format("an inline state (update_state {}) is PHILOX's with imm_state[7] == 0",
                                  x.update_state);
             }>("has_valid_rand_set_state_imm", "", "not SRC_TENSOR: rand_algorithm is PHILOX and imm_state[7] == 0",
                kGensAll, fS1Imm);
constexpr Predicate kS1Channels =
    channels_rule<S1>("has_valid_active_channel_range", "num_active_channels is 1..128", fS1Channels);
constexpr Predicate kS1SrcStart = start_rule<S1, &S1::src, "src", kRngWording>(
    "src: a register start, or partition + num_active_channels <= 128", fS1SrcChannels);
constexpr Predicate kS1SrcTensor =
    rng_rule<S1,
             [](const S1& x, const CheckContext& c) {
               return x.update_state != rng::kUpdateSrcTensor ||
                      (pred::counts_nonzero(x.src.num_elem, x.src.start_addr, c.gen) &&
                       pred::tensor_start_addr_valid(x.src.start_addr, x.in_dtype, false, false, true, c.gen));
             },
             [](const S1& x, const CheckContext& c) {
               return fmt::format("src {} with {} elements must be a non-empty, aligned SBUF tensor of {}",
                                  addr4_label(x.src.start_addr, c.gen), x.src.num_elem[0],
                                  dtype_label(x.in_dtype, c.gen));
             }>("tensor1d_valid", "PROJ-CONV-RN6",
                "SRC_TENSOR: src readable in in_dtype, SBUF only (an inline state reads no src, PROJ-CONV-RN6)",
                kGensAll, fS1SrcTensor);

constexpr const Predicate* kSetList[] = {
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kSetOpcode,  &kS1Reserved, &kSetCombos, &kSetImmZero, &kSetImm,
    &kS1Channels,           &kS1SrcStart,           &kS1SrcTensor};

// ---- D3_RAND: is_valid_d3_rand (0xE2 RAND2) ----

using D3 = D3Rand;
constexpr auto fD3Reserved = field_refs_with_role<D3, Role::Reserved>();
constexpr FieldRef fD3Algo[] = {field_ref<D3>("rand_algorithm")};
constexpr FieldRef fD3Post[] = {field_ref<D3>("post_process")};
constexpr FieldRef fD3Dtype[] = {field_ref<D3>("dtype")};
constexpr FieldRef fD3Bounds[] = {field_ref<D3>("min_src"), field_ref<D3>("min"), field_ref<D3>("max_src"),
                                  field_ref<D3>("max"), field_ref<D3>("num_active_channels")};
constexpr FieldRef fD3Channels[] = {field_ref<D3>("num_active_channels")};
constexpr FieldRef fD3DstChannels[] = {field_ref<D3>("dst.start_addr"), field_ref<D3>("num_active_channels")};
constexpr FieldRef fD3DstTensor[] = {field_ref<D3>("dst.start_addr"), field_ref<D3>("dst.num_elem"),
                                     field_ref<D3>("dtype")};

constexpr Predicate kRand2Opcode =
    opcode_clause<D3, rng::kRand2>("has_rand2_opcode", "PROJ-CONV-RN1", "the opcode is RAND2 (0xE2)");
constexpr Predicate kD3Reserved = reserved_rule<D3, fD3Reserved>(
    {.name = "d3_rand_reserved_zero",
     .convention = "PROJ-CONV-RN1",
     .meaning = "reserved0 (byte 13), reserved1 (15..31), reserved2 (33) and reserved3 (35..37) are zero",
     .gens = kGensAll,
     .explain = [](const Instruction& i, const CheckContext&) {
       return explain_reserved_bytes(encode(i), fD3Reserved);
     }});
constexpr Predicate kRand2Algo =
    rng_rule<D3, [](const D3& x, const CheckContext&) { return x.rand_algorithm == rng::kAlgoXorwow; },
             [](const D3& x, const CheckContext&) {
               return fmt::format("rand_algorithm is {}, must be XORWOW (3)", x.rand_algorithm);
             }>("restrict_rand2_algorithm", "", "rand_algorithm == XORWOW", kGensAll, fD3Algo);
constexpr Predicate kRand2Post =
    rng_rule<D3, [](const D3& x, const CheckContext&) { return x.post_process == rng::kPostUniform; },
             [](const D3& x, const CheckContext&) {
               return fmt::format("post_process is {}, must be UNIFORM_IN_RANGE (1)", x.post_process);
             }>("has_valid_rand2_post_processing", "", "post_process == UNIFORM_IN_RANGE", kGensAll, fD3Post);
constexpr Predicate kRand2Dtype =
    rng_rule<D3, [](const D3& x, const CheckContext&) { return fp_dtype(x.dtype) || x.dtype == dtype::kFp32r; },
             [](const D3& x, const CheckContext& c) {
               return fmt::format("dtype {} is not a float dtype", dtype_label(x.dtype, c.gen));
             }>("has_valid_rand2_dtype", "PROJ-CONV-RN7", "dtype is a float dtype, FP32R allowed (PROJ-CONV-RN7)",
                kGensAll, fD3Dtype);
constexpr Predicate kRand2Bounds =
    rng_rule<D3,
             [](const D3& x, const CheckContext& c) {
               return immediates_ok(x.min.raw, x.min_src, x.num_active_channels, dtype::kFp32, c.gen) &&
                      immediates_ok(x.max.raw, x.max_src, x.num_active_channels, dtype::kFp32, c.gen);
             },
             [](const D3& x, const CheckContext&) {
               return fmt::format(
                   "min (src {}, {:#010x}) / max (src {}, {:#010x}): inline, a fitting 4-byte-aligned "
                   "pointer, or a register below 64",
                   x.min_src, x.min.raw, x.max_src, x.max.raw);
             }>("rand2_bounds_check", "PROJ-CONV-RN1",
                "min and max by their IMM_SRC: inline fp32, pointer (partition + channels fit, FP32-aligned) or "
                "register (is_valid_imm_reg)",
                kGensAll, fD3Bounds);
constexpr Predicate kD3Channels = rng_rule<D3, kNacOk<D3>, kNacText<D3>>(
    "has_valid_active_channel_range", "", "num_active_channels is 1..128", kGensNotMaverick, fD3Channels);
constexpr Predicate kD3ChannelsTile = rng_rule<D3, kNacOk<D3>, kNacText<D3>>(
    "has_valid_active_channel_range_with_tile", "PROJ-CONV-RN1",
    "(MAVERICK) num_active_channels is 1..128; the tile flags are not judged", kGensMaverickOnly, fD3Channels);
constexpr Predicate kD3DstStart = start_rule<D3, &D3::dst, "dst", kRngWording>(
    "dst: a register start, or partition + num_active_channels <= 128", fD3DstChannels);
constexpr Predicate kD3DstTensor = pattern_rule<D3, &D3::dst, &D3::dtype, true, "dst", kRngWording>(
    "tensor3d_valid", "dst writable in dtype: non-zero counts (or a register shape) and an aligned SBUF/PSUM start",
    fD3DstTensor);

constexpr const Predicate* kRand2List[] = {
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kRand2Opcode, &kD3Reserved,     &kRand2Algo,  &kRand2Post,
    &kRand2Dtype,           &kRand2Bounds,          &kD3Channels,  &kD3ChannelsTile, &kD3DstStart, &kD3DstTensor};

constexpr Validator kDropoutValidator = full_validator<kDropout>("is_valid_dropout");
constexpr Validator kRandValidator = full_validator<kRandList>("is_valid_rand");
constexpr Validator kGetValidator = full_validator<kGetList>("is_valid_rand_get_state");
constexpr Validator kSetValidator = full_validator<kSetList>("is_valid_rand_set_state");
constexpr Validator kRand2Validator = full_validator<kRand2List>("is_valid_d3_rand");

constexpr ValidatorRow kRows[] = {
    {rng::kDropout, &kDropoutValidator},  {rng::kRand, &kRandValidator},   {rng::kRandGetState, &kGetValidator},
    {rng::kRandSetState, &kSetValidator}, {rng::kRand2, &kRand2Validator},
};
constexpr Validation kValidation = validator_table<RngFamily, kRows>();

}  // namespace

const Validation& RngFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
