// Batch-norm statistics and search family validators (act-index-ops.md §14.2, §15.2; compositions PROJ-CONV-A29):
// is_valid_batchnorm_stats / _stats2 / _aggregate, is_valid_transpose_batchnorm_stats2 (PROJ-CONV-A31),
// is_valid_max8, is_valid_find_index8, is_valid_match_replace8.
#include "families/bnsearch/format.hpp"
#include "families/common.hpp"
#include "families/operand_rules.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;

using Bn = S4d2Bn;
using Mr = S4d4Mr;
using namespace bnsearch;

// ---- Fields read, by name ----

template <class S>
inline constexpr FieldRef fInDtype[] = {field_ref<S>("in_dtype")};
template <class S>
inline constexpr FieldRef fOutDtype[] = {field_ref<S>("out_dtype")};
template <class S>
inline constexpr FieldRef fTypes[] = {field_ref<S>("in_dtype"), field_ref<S>("out_dtype")};
template <class S>
inline constexpr FieldRef fChannels[] = {field_ref<S>("num_active_channels")};
template <class S>
inline constexpr FieldRef fSrcChannels[] = {field_ref<S>("src.start_addr"), field_ref<S>("num_active_channels")};
template <class S>
inline constexpr FieldRef fDstChannels[] = {field_ref<S>("dst.start_addr"), field_ref<S>("num_active_channels")};
template <class S>
inline constexpr FieldRef fSrcTensor[] = {field_ref<S>("src.start_addr"), field_ref<S>("src.num_elem"),
                                          field_ref<S>("in_dtype")};
template <class S>
inline constexpr FieldRef fDstTensor[] = {field_ref<S>("dst.start_addr"), field_ref<S>("dst.num_elem"),
                                          field_ref<S>("out_dtype")};
template <class S>
inline constexpr FieldRef fSrcCount[] = {field_ref<S>("src.start_addr"), field_ref<S>("src.num_elem")};
template <class S>
inline constexpr FieldRef fDstCount[] = {field_ref<S>("dst.start_addr"), field_ref<S>("dst.num_elem")};
constexpr FieldRef fCounts[] = {field_ref<Mr>("src.start_addr"), field_ref<Mr>("src.num_elem"),
                                field_ref<Mr>("dst.start_addr"), field_ref<Mr>("dst.num_elem")};
constexpr FieldRef fEven[] = {field_ref<Bn>("even_count")};
constexpr FieldRef fOdd[] = {field_ref<Bn>("odd_count")};
constexpr FieldRef fBothCounts[] = {field_ref<Bn>("even_count"), field_ref<Bn>("odd_count")};
constexpr auto fBnReserved = field_refs_with_role<Bn, Role::Reserved>();
constexpr auto fMrReserved = field_refs_with_role<Mr, Role::Reserved>();

// ---- Bodies ----

constexpr std::string_view kStartMeaning =
    "a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128";
constexpr std::string_view kChannelsMeaning = "num_active_channels is 1..POOLING_NUM_CHANNELS (128)";

/// The source's element count is in [Lo, Hi] and, with Multiple, a multiple of it.
template <class S, uint64_t Lo, uint64_t Hi, uint64_t Multiple = 1>
bool src_count_ok(const S& x, const CheckContext& c) {
  if (shape_escapes(x.src.start_addr, c.gen)) return true;
  const uint64_t n = elements_of(x.src);
  return n >= Lo && n <= Hi && n % Multiple == 0;
}
/// The destination's element count is exactly N.
template <class S, uint64_t N>
bool dst_count_ok(const S& x, const CheckContext& c) {
  return shape_escapes(x.dst.start_addr, c.gen) || elements_of(x.dst) == N;
}

/// The dtype at Dtype is one of Allowed.
template <class S, auto Dtype, uint8_t... Allowed>
bool dtype_in_set(const S& x, const CheckContext&) {
  return ((x.*Dtype == Allowed) || ...);
}

constexpr bool finite_fp32(uint32_t bits) {
  return (bits & 0x7F800000U) != 0x7F800000U;
}
/// IEEE zero: +0.0 or -0.0.
constexpr bool zero_fp32(uint32_t bits) {
  return (bits & 0x7FFFFFFFU) == 0;
}

// ---- Predicate shapes of this family (the operand rules are families/operand_rules.hpp's) ----

template <class S, uint64_t Lo, uint64_t Hi, uint64_t Multiple = 1>
constexpr Predicate src_count_rule(std::string_view name, std::string_view convention, std::string_view meaning) {
  return rule<S, src_count_ok<S, Lo, Hi, Multiple>>(
      {.name = name,
       .convention = convention,
       .meaning = meaning,
       .gens = kGensAll,
       .fields = fSrcCount<S>,
       .explain = explain_on_body<S, [](const S& x, const CheckContext&) {
         return fmt::format("src has {} elements, must be {}..{}{}", elements_of(x.src), Lo, Hi,
                            Multiple > 1 ? fmt::format(" and a multiple of {}", Multiple) : std::string{});
       }>});
}
template <class S, uint64_t N>
constexpr Predicate dst_count_rule(std::string_view name, std::string_view convention, std::string_view meaning) {
  return rule<S, dst_count_ok<S, N>>({.name = name,
                                      .convention = convention,
                                      .meaning = meaning,
                                      .gens = kGensAll,
                                      .fields = fDstCount<S>,
                                      .explain = explain_on_body<S, [](const S& x, const CheckContext&) {
                                        return fmt::format("dst has {} elements, must be {}", elements_of(x.dst), N);
                                      }>});
}

/// out_dtype (or in_dtype) in {FP32, BF16, FP16}.
template <auto Dtype, Name Which>
constexpr Predicate float_type_rule(std::string_view name, std::string_view convention, std::string_view meaning,
                                    std::span<const FieldRef> fields) {
  return rule<Bn, dtype_in_set<Bn, Dtype, dtype::kFp32, dtype::kBfloat16, dtype::kFp16>>(
      {.name = name,
       .convention = convention,
       .meaning = meaning,
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<Bn, [](const Bn& x, const CheckContext& c) {
         return fmt::format("{} {} is not FP32, BF16 or FP16", std::string_view{Which}, dtype_label(x.*Dtype, c.gen));
       }>});
}

template <auto Count, Name Which>
constexpr Predicate finite_rule(std::string_view name, std::span<const FieldRef> fields) {
  return rule<Bn, [](const Bn& x, const CheckContext&) { return finite_fp32((x.*Count).raw); }>(
      {.name = name,
       .convention = "",
       .meaning = "the fp32 count is finite (not +-Inf, not NaN)",
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<Bn, [](const Bn& x, const CheckContext&) {
         return fmt::format("{} {:#010x} is not a finite fp32", std::string_view{Which}, (x.*Count).raw);
       }>});
}

// ---- common_s4d2_bn (§14.2) ----

constexpr Predicate kBnReserved =
    reserved_rule<Bn, fBnReserved>({.name = "s4d2_bn_reserved_zero",
                                    .convention = "PROJ-CONV-A29",
                                    .meaning = "reserved0 (bytes 35..39) and reserved1 (bytes 60..63) are zero",
                                    .gens = kGensAll,
                                    .explain = [](const Instruction& i, const CheckContext&) {
                                      return explain_reserved_bytes(encode(i), fBnReserved);
                                    }});
constexpr Predicate kBnInDtype =
    dtype_rule<Bn, &Bn::in_dtype, false, "in_dtype">("is_valid_dtype(in_dtype, FP32R not allowed)", fInDtype<Bn>);
constexpr Predicate kBnOutDtype =
    dtype_rule<Bn, &Bn::out_dtype, true, "out_dtype">("is_valid_dtype(out_dtype, FP32R allowed)", fOutDtype<Bn>);
constexpr Predicate kBnChannels = channels_rule<Bn, true>("check_active_channels", kChannelsMeaning, fChannels<Bn>);
constexpr Predicate kBnSrcStart = start_rule<Bn, &Bn::src, "src">(kStartMeaning, fSrcChannels<Bn>);
constexpr Predicate kBnDstStart = start_rule<Bn, &Bn::dst, "dst">(kStartMeaning, fDstChannels<Bn>);
constexpr Predicate kBnSrcTensor = pattern_rule<Bn, &Bn::src, &Bn::in_dtype, false, "src">(
    "tensor4d_valid",
    "src readable in in_dtype: non-zero counts (or a register shape, CAYMAN+) and a register or in_dtype-aligned "
    "SBUF/PSUM start",
    fSrcTensor<Bn>);
constexpr Predicate kBnDstTensor = pattern_rule<Bn, &Bn::dst, &Bn::out_dtype, true, "dst">(
    "tensor2d_valid",
    "dst writable in out_dtype: non-zero counts (or a register shape, CAYMAN+) and a register or out_dtype-aligned "
    "SBUF/PSUM start; PSUM only with 4-byte dtypes",
    fDstTensor<Bn>);

constexpr std::array<const Predicate*, 8> kBnCommon{&kBnReserved, &kBnInDtype,  &kBnOutDtype,  &kBnChannels,
                                                    &kBnSrcStart, &kBnDstStart, &kBnSrcTensor, &kBnDstTensor};

constexpr Predicate kStatsOpcode =
    opcode_clause<Bn, kBnStats>("has_batchnorm_stats_opcode", "PROJ-CONV-A29", "the opcode is BATCH_NORM_STATS (0x60)");
constexpr Predicate kStats2Opcode = opcode_clause<Bn, kBnStats2>("has_batchnorm_stats2_opcode", "PROJ-CONV-A29",
                                                                 "the opcode is BATCH_NORM_STATS2 (0x61)");
constexpr Predicate kAggOpcode = opcode_clause<Bn, kBnAggregate>("has_batchnorm_aggregate_opcode", "PROJ-CONV-A29",
                                                                 "the opcode is BATCH_NORM_AGGREGATE (0x62)");
constexpr Predicate kMax8Opcode =
    opcode_clause<Bn, kMax8>("has_max8_opcode", "PROJ-CONV-A29", "the opcode is MAX8 (0x6c)");
constexpr Predicate kFindOpcode =
    opcode_clause<Bn, kFindIndex8>("has_find_index8_opcode", "PROJ-CONV-A29", "the opcode is FIND_INDEX8 (0x6e)");

// ---- BATCH_NORM_STATS2 / STATS (§14.2, PROJ-CONV-A26) ----

constexpr Predicate kStats2Src = src_count_rule<Bn, 0, 512>(
    "has_bnstats2_src_element_cnt", "PROJ-CONV-A18", "src has at most 512 elements (a register shape: PROJ-CONV-A18)");
constexpr Predicate kStats2Dst = dst_count_rule<Bn, 6>("has_bnstats2_dst_element_cnt", "PROJ-CONV-A18",
                                                       "dst has exactly 6 elements (a register shape: PROJ-CONV-A18)");
constexpr Predicate kStatsSrc = src_count_rule<Bn, 0, 256>(
    "has_bnstats_src_element_cnt", "PROJ-CONV-A26", "src has at most 256 elements (a register shape: PROJ-CONV-A18)");
constexpr Predicate kStatsDst = dst_count_rule<Bn, 3>("has_bnstats_dst_element_cnt", "PROJ-CONV-A26",
                                                      "dst has exactly 3 elements (a register shape: PROJ-CONV-A18)");
constexpr Predicate kStatsOutType = float_type_rule<&Bn::out_dtype, "out_dtype">(
    "s4d2_bn_stats_out_type", "", "out_dtype is FP32, BF16 or FP16", fOutDtype<Bn>);
constexpr Predicate kFiniteEven = finite_rule<&Bn::even_count, "even_count">("has_bns_finite_even_count", fEven);
constexpr Predicate kFiniteOdd = finite_rule<&Bn::odd_count, "odd_count">("has_bns_finite_odd_count", fOdd);

constexpr auto kStats2 =
    concat_predicates(std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kStats2Opcode}, kBnCommon,
                      std::array{&kStats2Src, &kStats2Dst, &kStatsOutType, &kFiniteEven, &kFiniteOdd});
// ---- TRANSPOSE_BATCH_NORM_STATS2 0x82 (PROJ-CONV-A31) ----
// batchnorm-forward.md §2.3: STATS2's conjunction plus num_active_channels and the source's element count each a
// multiple of 32 (the wiki names the validator, not these two conjuncts: the names are ours).

constexpr Predicate kTStats2Opcode = opcode_clause<Bn, kTransposeBnStats2>(
    "has_transpose_batchnorm_stats2_opcode", "PROJ-CONV-A31", "the opcode is TRANSPOSE_BATCH_NORM_STATS2 (0x82)");
constexpr Predicate kTStats2Channels =
    rule<Bn, [](const Bn& x, const CheckContext&) { return x.num_active_channels % 32 == 0; }>(
        {.name = "transpose_bnstats2_channels_multiple_of_32",
         .convention = "PROJ-CONV-A31",
         .meaning = "num_active_channels is a multiple of 32",
         .gens = kGensAll,
         .fields = fChannels<Bn>,
         .explain = explain_on_body<Bn, [](const Bn& x, const CheckContext&) {
           return fmt::format("num_active_channels {} is not a multiple of 32", x.num_active_channels);
         }>});
constexpr Predicate kTStats2Src =
    src_count_rule<Bn, 0, UINT64_MAX, 32>("transpose_bnstats2_src_element_cnt_multiple_of_32", "PROJ-CONV-A31",
                                          "src's element count is a multiple of 32 (a register shape: PROJ-CONV-A18)");

constexpr auto kTStats2 = concat_predicates(
    std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kTStats2Opcode}, kBnCommon,
    std::array{&kStats2Src, &kStats2Dst, &kStatsOutType, &kFiniteEven, &kFiniteOdd, &kTStats2Channels, &kTStats2Src});

constexpr auto kStats =
    concat_predicates(std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kStatsOpcode}, kBnCommon,
                      std::array{&kStatsSrc, &kStatsDst, &kStatsOutType, &kFiniteEven, &kFiniteOdd});

// ---- BATCH_NORM_AGGREGATE (§14.2, PROJ-CONV-A26) ----

constexpr Predicate kZeroCounts =
    rule<Bn,
         [](const Bn& x, const CheckContext&) { return zero_fp32(x.even_count.raw) && zero_fp32(x.odd_count.raw); }>(
        {.name = "s4d2_bn_zero_counts",
         .convention = "",
         .meaning = "even_count and odd_count are both 0.0 (IEEE: -0.0 passes)",
         .gens = kGensAll,
         .fields = fBothCounts,
         .explain = explain_on_body<Bn, [](const Bn& x, const CheckContext&) {
           return fmt::format("even_count {:#010x} and odd_count {:#010x} must both be 0.0", x.even_count.raw,
                              x.odd_count.raw);
         }>});

constexpr Predicate kAggSrc =
    src_count_rule<Bn, 3, UINT64_MAX, 3>("has_bnstats_agg_src_element_cnt", "PROJ-CONV-A18",
                                         "src holds at least one (count, mean, count x variance) tuple: at least 3 "
                                         "elements and a multiple of 3 (a register shape: PROJ-CONV-A18)");
constexpr Predicate kAggDst = dst_count_rule<Bn, 2>("has_bnstats_agg_dst_element_cnt", "PROJ-CONV-A18",
                                                    "dst has exactly 2 elements (a register shape: PROJ-CONV-A18)");
constexpr Predicate kAggInType = float_type_rule<&Bn::in_dtype, "in_dtype">(
    "s4d2_bn_agg_in_type", "PROJ-CONV-A26", "in_dtype is FP32, BF16 or FP16 (PROJ-CONV-A26)", fInDtype<Bn>);
constexpr Predicate kAggOutType = float_type_rule<&Bn::out_dtype, "out_dtype">(
    "s4d2_bn_agg_out_type", "PROJ-CONV-A26", "out_dtype is FP32, BF16 or FP16 (PROJ-CONV-A26)", fOutDtype<Bn>);

constexpr auto kAggregate =
    concat_predicates(std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kAggOpcode}, kBnCommon,
                      std::array{&kAggSrc, &kAggDst, &kAggInType, &kAggOutType, &kZeroCounts});

// ---- MAX8 / FIND_INDEX8 (§15.2, PROJ-CONV-A29) ----

constexpr Predicate kMax8Src = src_count_rule<Bn, 8, 16384>(
    "has_max8_src_element_cnt", "PROJ-CONV-A29", "src has 8..16384 elements (a register shape: PROJ-CONV-A18)");
constexpr Predicate kMax8Dst = dst_count_rule<Bn, 8>("has_max8_dst_element_cnt", "PROJ-CONV-A29",
                                                     "dst has exactly 8 elements (a register shape: PROJ-CONV-A18)");
constexpr Predicate kFindSrc = src_count_rule<Bn, 8, 16384>(
    "has_find_index8_src_element_cnt", "PROJ-CONV-A29", "src has 8..16384 elements (a register shape: PROJ-CONV-A18)");
constexpr Predicate kFindDst = dst_count_rule<Bn, 8>("has_find_index8_dst_element_cnt", "PROJ-CONV-A29",
                                                     "dst has exactly 8 elements (a register shape: PROJ-CONV-A18)");
constexpr Predicate kFindType = rule<Bn, dtype_in_set<Bn, &Bn::out_dtype, dtype::kUint16, dtype::kUint32>>(
    {.name = "has_find_index8_dst_type",
     .convention = "",
     .meaning = "out_dtype is UINT16 or UINT32",
     .gens = kGensAll,
     .fields = fOutDtype<Bn>,
     .explain = explain_on_body<Bn, [](const Bn& x, const CheckContext& c) {
       return fmt::format("out_dtype {} is not UINT16 or UINT32", dtype_label(x.out_dtype, c.gen));
     }>});

constexpr auto kMax8List = concat_predicates(std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kMax8Opcode},
                                             kBnCommon, std::array{&kMax8Src, &kMax8Dst, &kZeroCounts});
constexpr auto kFindList = concat_predicates(std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kFindOpcode},
                                             kBnCommon, std::array{&kFindSrc, &kFindDst, &kFindType, &kZeroCounts});

// ---- MATCH_REPLACE8 (S4D4_MR, §15.2) ----

constexpr Predicate kMrOpcode = opcode_clause<Mr, kMatchReplace8>("has_match_replace8_opcode", "PROJ-CONV-A29",
                                                                  "the opcode is MATCH_REPLACE8 (0x6f)");
constexpr Predicate kMrReserved =
    reserved_rule<Mr, fMrReserved>({.name = "s4d4_mr_reserved_zero",
                                    .convention = "PROJ-CONV-A29",
                                    .meaning = "reserved0 (bytes 35..39) is zero",
                                    .gens = kGensAll,
                                    .explain = [](const Instruction& i, const CheckContext&) {
                                      return explain_reserved_bytes(encode(i), fMrReserved);
                                    }});
constexpr Predicate kMrInDtype =
    dtype_rule<Mr, &Mr::in_dtype, false, "in_dtype">("is_valid_dtype(in_dtype, FP32R not allowed)", fInDtype<Mr>);
constexpr Predicate kMrOutDtype =
    dtype_rule<Mr, &Mr::out_dtype, true, "out_dtype">("is_valid_dtype(out_dtype, FP32R allowed)", fOutDtype<Mr>);

constexpr bool match_replace_dtype(uint8_t d) {
  return d == dtype::kFp16 || d == dtype::kBfloat16 || d == dtype::kUint8 || d == dtype::kUint16 ||
         d == dtype::kUint32 || d == dtype::kFp32 || d == dtype::kInt32;
}
constexpr Predicate kMrTypes =
    rule<Mr, [](const Mr& x,
                const CheckContext&) { return match_replace_dtype(x.in_dtype) && match_replace_dtype(x.out_dtype); }>(
        {.name = "match_replace_dtypes",
         .convention = "",
         .meaning = "in_dtype and out_dtype are each FP16, BF16, UINT8, UINT16, UINT32, FP32 or INT32",
         .gens = kGensAll,
         .fields = fTypes<Mr>,
         .explain = explain_on_body<Mr, [](const Mr& x, const CheckContext& c) {
           return fmt::format(
               "in_dtype {} / out_dtype {}: each must be FP16, BF16, UINT8, UINT16, UINT32, FP32 or INT32",
               dtype_label(x.in_dtype, c.gen), dtype_label(x.out_dtype, c.gen));
         }>});
constexpr Predicate kMrChannels = channels_rule<Mr, true>("check_active_channels", kChannelsMeaning, fChannels<Mr>);
constexpr Predicate kMrSrcStart = start_rule<Mr, &Mr::src, "src">(kStartMeaning, fSrcChannels<Mr>);
constexpr Predicate kMrDstStart = start_rule<Mr, &Mr::dst, "dst">(kStartMeaning, fDstChannels<Mr>);
constexpr Predicate kMrSrcTensor = pattern_rule<Mr, &Mr::src, &Mr::in_dtype, false, "src">(
    "tensor4d_valid",
    "src readable in in_dtype: non-zero counts (or a register shape, CAYMAN+) and a register or in_dtype-aligned "
    "SBUF/PSUM start",
    fSrcTensor<Mr>);
constexpr Predicate kMrDstTensor = pattern_rule<Mr, &Mr::dst, &Mr::out_dtype, true, "dst">(
    "tensor4d_valid", "dst writable in out_dtype: as src; PSUM only with 4-byte dtypes", fDstTensor<Mr>);
constexpr Predicate kMrSrc = src_count_rule<Mr, 0, 16384>("has_match_replace8_src_element_cnt", "PROJ-CONV-A29",
                                                          "src has at most 16384 elements (a register shape: "
                                                          "PROJ-CONV-A18)");
constexpr Predicate kMrSame = count_rule<Mr, &Mr::src, &Mr::dst, "src", "dst">(
    "same_element_count_t4d", "", "src and dst have the same element count (a register shape: PROJ-CONV-A18)", fCounts);

constexpr const Predicate* kMatchReplace[] = {
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kMrOpcode,   &kMrReserved,  &kMrInDtype,   &kMrOutDtype, &kMrTypes,
    &kMrChannels,           &kMrSrcStart,           &kMrDstStart, &kMrSrcTensor, &kMrDstTensor, &kMrSrc,      &kMrSame};

// ---- Validators ----

constexpr Validator kStatsValidator = full_validator<kStats>("is_valid_batchnorm_stats");
constexpr Validator kStats2Validator = full_validator<kStats2>("is_valid_batchnorm_stats2");
constexpr Validator kTStats2Validator = full_validator<kTStats2>("is_valid_transpose_batchnorm_stats2");
constexpr Validator kAggregateValidator = full_validator<kAggregate>("is_valid_batchnorm_aggregate");
constexpr Validator kMax8Validator = full_validator<kMax8List>("is_valid_max8");
constexpr Validator kFindValidator = full_validator<kFindList>("is_valid_find_index8");
constexpr Validator kMatchReplaceValidator = full_validator<kMatchReplace>("is_valid_match_replace8");

constexpr ValidatorRow kRows[] = {
    {kBnStats, &kStatsValidator},
    {kBnStats2, &kStats2Validator},
    {kBnAggregate, &kAggregateValidator},
    {kMax8, &kMax8Validator},
    {kFindIndex8, &kFindValidator},
    {kMatchReplace8, &kMatchReplaceValidator},
    {kTransposeBnStats2, &kTStats2Validator},
};
constexpr Validation kValidation = validator_table<BnSearchFamily, kRows>();

}  // namespace

const Validation& BnSearchFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
