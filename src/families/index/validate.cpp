// Index family validators (act-index-ops.md §9.2, §10.2, §11.2, §12.2, §13.2): IOTA, AFFINE_SELECT, RANGE_SELECT,
// GET_SEQUENCE_BOUNDS and NONZERO_WITH_COUNT, each conjunct the header's predicate (PROJ-CONV-A18, A20, A21, A29).
#include <cmath>

#include "families/common.hpp"
#include "families/index/format.hpp"
#include "families/operand_rules.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;

namespace ix = index;

// ---- Shared bodies: the operand rules of families/operand_rules.hpp ----

constexpr std::string_view kStartMeaning =
    "the operand's start partition + num_active_channels fits its region (or the start comes from a register)";

/// The generations on which an operand may lie in PSUM: every one, SUNDA only, none.
constexpr uint8_t kPsumAll = 0x0F, kPsumSunda = 0x01, kNoPsum = 0x00;

/// is_valid_fp_dtype_datapath(d, fp32r) (alu-ops.md §2 table).
constexpr bool fp_dtype_datapath(uint8_t d, bool fp32r) {
  return d == dtype::kFp8Exp3 || d == dtype::kFp8Exp4 || d == dtype::kFp8Exp5 || d == dtype::kFp16 ||
         d == dtype::kBfloat16 || d == dtype::kFp32 || (fp32r && d == dtype::kFp32r);
}

// ============================== IOTA 0x7E (§9.2) ==============================

using Iota = D4Iota;
constexpr FieldRef fIotaOpcode[] = {field_ref<Iota>("header.opcode")};
constexpr auto fIotaReserved = field_refs_with_role<Iota, Role::Reserved>();
constexpr FieldRef fIotaOut[] = {field_ref<Iota>("out_dtype")};
constexpr FieldRef fIotaChannels[] = {field_ref<Iota>("num_active_channels")};
constexpr FieldRef fIotaDstStart[] = {field_ref<Iota>("dst.start_addr"), field_ref<Iota>("num_active_channels")};
constexpr FieldRef fIotaDst[] = {field_ref<Iota>("dst.start_addr"), field_ref<Iota>("dst.num_elem"),
                                 field_ref<Iota>("out_dtype")};
constexpr FieldRef fIotaCount[] = {field_ref<Iota>("src.num_elem"), field_ref<Iota>("dst.num_elem"),
                                   field_ref<Iota>("dst.start_addr")};

bool iota_count(const Iota& s, const CheckContext& c) {
  return s.src.elements() == s.dst.elements() || shape_escapes(s.dst.start_addr, c.gen);
}

constexpr Predicate kIotaOpcode = rule<Iota, has_opcode<ix::kIota>>({.name = "has_iota_opcode",
                                                                     .convention = "",
                                                                     .meaning = "the opcode is 0x7E",
                                                                     .gens = kGensAll,
                                                                     .fields = fIotaOpcode,
                                                                     .explain = explain_opcode});
constexpr Predicate kIotaReserved =
    reserved_rule<Iota, fIotaReserved>({.name = "d4_iota_reserved_zero",
                                        .convention = "",
                                        .meaning = "bytes 32, 35 and 40..43 are zero",
                                        .gens = kGensAll,
                                        .explain = [](const Instruction& i, const CheckContext&) {
                                          return explain_reserved_bytes(encode(i), fIotaReserved);
                                        }});
constexpr Predicate kIotaOutDtype =
    dtype_rule<Iota, &Iota::out_dtype, true, "out_dtype">("is_valid_dtype(out_dtype, FP32R allowed)", fIotaOut);
constexpr Predicate kIotaChannels =
    channels_rule<Iota>("has_valid_active_channel_range", "num_active_channels is 1..128", fIotaChannels);
constexpr Predicate kIotaDstStart = start_rule<Iota, &Iota::dst, "dst", kRegionWording>(kStartMeaning, fIotaDstStart);
constexpr Predicate kIotaDst = pattern_rule<Iota, &Iota::dst, &Iota::out_dtype, true, "dst", kRegionWording, kPsumAll>(
    "tensor4d_valid", "dst writable in out_dtype, SBUF or PSUM (PSUM with 4-byte dtypes)", fIotaDst);
constexpr Predicate kIotaCount = rule<Iota, iota_count>(
    {.name = "d4_iota_same_src_dst_count",
     .convention = "PROJ-CONV-A18",
     .meaning = "d4d_element_count(src) == t4d_element_count(dst), or (CAYMAN+) dst's shape "
                "comes from a register",
     .gens = kGensAll,
     .fields = fIotaCount,
     .explain = explain_on_body<Iota, [](const Iota& s, const CheckContext&) {
       return fmt::format("the ramp has {} elements, dst {}", s.src.elements(), s.dst.elements());
     }>});

constexpr std::array kIotaList{
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kIotaOpcode, &kIotaReserved, &kIotaOutDtype,
    &kIotaChannels,         &kIotaDstStart,         &kIotaDst,    &kIotaCount};
constexpr Validator kIotaValidator = full_validator<kIotaList>("is_valid_iota");

// ============================== AFFINE_SELECT 0x92 (§10.2) ==============================

using As = S2d2TsAs;
constexpr uint8_t as_in(const As& s) {
  return ix::pair_in(s.in_out_dtype);
}
constexpr uint8_t as_out(const As& s) {
  return ix::pair_out(s.in_out_dtype);
}
constexpr FieldRef fAsOpcode[] = {field_ref<As>("header.opcode")};
constexpr FieldRef fAsChannels[] = {field_ref<As>("num_active_channels")};
constexpr FieldRef fAsSrc[] = {field_ref<As>("src.start_addr"), field_ref<As>("src.num_elem"),
                               field_ref<As>("in_out_dtype")};
constexpr FieldRef fAsDst[] = {field_ref<As>("dst.start_addr"), field_ref<As>("dst.num_elem"),
                               field_ref<As>("in_out_dtype")};
constexpr FieldRef fAsSrcStart[] = {field_ref<As>("src.start_addr"), field_ref<As>("num_active_channels")};
constexpr FieldRef fAsDstStart[] = {field_ref<As>("dst.start_addr"), field_ref<As>("num_active_channels")};
constexpr FieldRef fAsCount[] = {field_ref<As>("src.num_elem"), field_ref<As>("dst.num_elem"),
                                 field_ref<As>("mask.num_elem"), field_ref<As>("src.start_addr"),
                                 field_ref<As>("dst.start_addr")};
constexpr FieldRef fAsDtypes[] = {field_ref<As>("in_out_dtype")};
constexpr FieldRef fAsFillMode[] = {field_ref<As>("fill_mode")};
constexpr FieldRef fAsFillReg[] = {field_ref<As>("fill_reg")};

bool as_count(const As& s, const CheckContext& c) {
  if (shape_escapes(s.src.start_addr, c.gen) || shape_escapes(s.dst.start_addr, c.gen)) return true;
  const uint64_t n = elements_of(s.src);
  return n == elements_of(s.dst) && s.mask.elements() == n;
}
bool as_dtypes(const As& s, const CheckContext& c) {
  return dtype_accepts(as_out(s), true, c) && dtype_accepts(as_in(s), false, c);
}

constexpr Predicate kAsOpcode = rule<As, has_opcode<ix::kAffineSelect>>({.name = "has_s2d2_ts_as_opcode",
                                                                         .convention = "",
                                                                         .meaning = "the opcode is 0x92",
                                                                         .gens = kGensAll,
                                                                         .fields = fAsOpcode,
                                                                         .explain = explain_opcode});
constexpr Predicate kAsChannels =
    channels_rule<As>("has_valid_active_channel_range", "num_active_channels is 1..128", fAsChannels);
constexpr Predicate kAsSrc = pattern_rule<As, &As::src, as_in, false, "src", kRegionWording, kPsumSunda>(
    "tensor2d_valid", "src readable in the input dtype: SBUF, and PSUM on SUNDA only", fAsSrc);
constexpr Predicate kAsDst = pattern_rule<As, &As::dst, as_out, true, "dst", kRegionWording, kPsumSunda>(
    "tensor2d_valid", "dst writable in the output dtype: SBUF, and PSUM (4-byte dtypes) on SUNDA only", fAsDst);
constexpr Predicate kAsSrcStart = start_rule<As, &As::src, "src", kRegionWording>(kStartMeaning, fAsSrcStart);
constexpr Predicate kAsDstStart = start_rule<As, &As::dst, "dst", kRegionWording>(kStartMeaning, fAsDstStart);
constexpr Predicate kAsCount = rule<As, as_count>(
    {.name = "s2d2_ts_as_valid_elem_count",
     .convention = "PROJ-CONV-A18",
     .meaning = "src, dst and the mask generator have the same element count (CAYMAN+: waived when src or dst "
                "takes its shape from a register)",
     .gens = kGensAll,
     .fields = fAsCount,
     .explain = explain_on_body<As, [](const As& s, const CheckContext&) {
       return fmt::format("src has {} elements, dst {}, the mask {}", elements_of(s.src), elements_of(s.dst),
                          s.mask.elements());
     }>});
constexpr Predicate kAsDtypes =
    rule<As, as_dtypes>({.name = "s2d2_ts_as_valid_dtypes",
                         .convention = "",
                         .meaning = "is_valid_dtype(out_dtype, FP32R allowed) and is_valid_dtype(in_dtype, not)",
                         .gens = kGensAll,
                         .fields = fAsDtypes,
                         .explain = explain_on_body<As, [](const As& s, const CheckContext& c) {
                           return fmt::format("in {}; out {}", dtype_failure("", as_in(s), false, c),
                                              dtype_failure("", as_out(s), true, c));
                         }>});
constexpr Predicate kAsFillMode = rule<As, [](const As& s, const CheckContext&) { return s.fill_mode <= ix::kCmpNe; }>(
    {.name = "is_valid_enum(AffineSelectCmp)",
     .convention = "",
     .meaning = "fill_mode is GREATER_THAN, GREATER_THAN_EQ, EQ or NOT_EQ (0..3)",
     .gens = kGensAll,
     .fields = fAsFillMode,
     .explain = explain_on_body<As, [](const As& s, const CheckContext&) {
       return fmt::format("fill_mode {} is not an AFFINE_SELECT_CMP (0..3)", s.fill_mode);
     }>});
constexpr Predicate kAsFillReg = rule<As, [](const As& s, const CheckContext&) { return s.fill_reg < kNumRegisters; }>(
    {.name = "is_valid_register_read",
     .convention = "PROJ-CONV-A20",
     .meaning = "fill_reg names a register (< 64)",
     .gens = kGensAll,
     .fields = fAsFillReg,
     .explain = explain_on_body<As, [](const As& s, const CheckContext&) {
       return fmt::format("fill_reg {} is not a register (< 64, PROJ-CONV-A20)", s.fill_reg);
     }>});

constexpr std::array kAsList{
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kAsOpcode, &kAsChannels, &kAsSrc,      &kAsDst,
    &kAsSrcStart,           &kAsDstStart,           &kAsCount,  &kAsDtypes,   &kAsFillMode, &kAsFillReg};
constexpr Validator kAsValidator = full_validator<kAsList>("is_valid_s2d2_ts_as");

// ============================== RANGE_SELECT 0xBC (§11.2) ==============================

using Rs = S2d2Rs;
constexpr uint8_t rs_in(const Rs& s) {
  return ix::pair_in(s.in_out_dtype);
}
constexpr uint8_t rs_out(const Rs& s) {
  return ix::pair_out(s.in_out_dtype);
}
constexpr uint32_t rs_bound0(const Rs& s) {
  return s.bound0.raw;
}
constexpr uint32_t rs_bound1(const Rs& s) {
  return s.bound1.raw;
}
constexpr FieldRef fRsOpcode[] = {field_ref<Rs>("header.opcode")};
constexpr FieldRef fRsSrcStart[] = {field_ref<Rs>("src.start_addr"), field_ref<Rs>("num_active_channels")};
constexpr FieldRef fRsDstStart[] = {field_ref<Rs>("dst.start_addr"), field_ref<Rs>("num_active_channels")};
constexpr FieldRef fRsSrc[] = {field_ref<Rs>("src.start_addr"), field_ref<Rs>("src.num_elem"),
                               field_ref<Rs>("in_out_dtype")};
constexpr FieldRef fRsDst[] = {field_ref<Rs>("dst.start_addr"), field_ref<Rs>("dst.num_elem"),
                               field_ref<Rs>("in_out_dtype")};
constexpr FieldRef fRsCount[] = {field_ref<Rs>("src.num_elem"), field_ref<Rs>("dst.num_elem"),
                                 field_ref<Rs>("src.start_addr"), field_ref<Rs>("dst.start_addr")};
constexpr FieldRef fRsIndex[] = {field_ref<Rs>("base"), field_ref<Rs>("src.num_elem"), field_ref<Rs>("src.start_addr")};
constexpr FieldRef fRsDtype[] = {field_ref<Rs>("in_out_dtype")};
constexpr FieldRef fRsFill[] = {field_ref<Rs>("fill_val")};
constexpr FieldRef fRsComp0[] = {field_ref<Rs>("comp_op0")};
constexpr FieldRef fRsComp1[] = {field_ref<Rs>("comp_op1")};
constexpr FieldRef fRsImm0[] = {field_ref<Rs>("bound0"), field_ref<Rs>("bound0_src"),
                                field_ref<Rs>("num_active_channels")};
constexpr FieldRef fRsImm1[] = {field_ref<Rs>("bound1"), field_ref<Rs>("bound1_src"),
                                field_ref<Rs>("num_active_channels")};
constexpr FieldRef fRsChannels[] = {field_ref<Rs>("num_active_channels")};
constexpr FieldRef fRsCmd[] = {field_ref<Rs>("reduce_cmd")};
constexpr FieldRef fRsOp[] = {field_ref<Rs>("reduce_op")};

constexpr double kTwo24 = 16777216.0;

/// has_valid_total_index_range's uint32 view of the fp32 base (PROJ-CONV-A21): truncation; NaN, negative or
/// >= 2^32 has none.
bool base_as_uint(const ImmVal& b, uint64_t& out) {
  const float f = b.as_fp32();
  if (!(f >= 0.0F) || f >= 4294967296.0F) return false;
  out = static_cast<uint64_t>(f);
  return true;
}
bool rs_index_range(const Rs& s, const CheckContext& c) {
  uint64_t base = 0;
  if (!base_as_uint(s.base, base) || static_cast<double>(base) > kTwo24) return false;
  return shape_escapes(s.src.start_addr, c.gen) || static_cast<double>(base + elements_of(s.src)) <= kTwo24;
}
bool rs_count(const Rs& s, const CheckContext& c) {
  return shape_escapes(s.src.start_addr, c.gen) || shape_escapes(s.dst.start_addr, c.gen) ||
         elements_of(s.src) == elements_of(s.dst);
}
template <auto D, bool Fp32r>
bool rs_fp_dtype(const Rs& s, const CheckContext&) {
  return fp_dtype_datapath(D(s), Fp32r);
}
constexpr bool rs_comp_op(uint8_t op) {
  return op == aluop::kIsEq || op == aluop::kIsGt || op == aluop::kIsGe || op == aluop::kIsLe || op == aluop::kIsLt;
}

constexpr Predicate kRsNc = rule<Rs, [](const Rs&, const CheckContext& c) { return c.gen != Generation::Sunda; }>(
    {.name = "has_valid_nc_rs",
     .convention = "",
     .meaning = "the NeuronCore is V3 (CAYMAN) or later",
     .gens = kGensAll,
     .fields = {},
     .explain = [](const Instruction&, const CheckContext& c) {
       return fmt::format("{} is before NeuronCore V3", to_string(c.gen));
     }});
constexpr Predicate kRsOpcode = rule<Rs, has_opcode<ix::kRangeSelect>>({.name = "has_range_select_opcode",
                                                                        .convention = "",
                                                                        .meaning = "the opcode is 0xBC",
                                                                        .gens = kGensAll,
                                                                        .fields = fRsOpcode,
                                                                        .explain = explain_opcode});
constexpr Predicate kRsSrcStart = start_rule<Rs, &Rs::src, "src", kRegionWording>(kStartMeaning, fRsSrcStart);
constexpr Predicate kRsDstStart = start_rule<Rs, &Rs::dst, "dst", kRegionWording>(kStartMeaning, fRsDstStart);
constexpr Predicate kRsSrc = pattern_rule<Rs, &Rs::src, rs_in, false, "src", kRegionWording, kPsumAll>(
    "tensor2d_valid", "src readable in the input dtype, SBUF or PSUM", fRsSrc);
constexpr Predicate kRsDst = pattern_rule<Rs, &Rs::dst, rs_out, true, "dst", kRegionWording, kPsumAll>(
    "tensor2d_valid", "dst writable in the output dtype, SBUF or PSUM (PSUM with 4-byte dtypes)", fRsDst);
constexpr Predicate kRsCount =
    rule<Rs, rs_count>({.name = "has_same_elem_count_rs_src_dst",
                        .convention = "",
                        .meaning = "src and dst hold the same number of elements, unless either shape comes from a "
                                   "register",
                        .gens = kGensAll,
                        .fields = fRsCount,
                        .explain = explain_on_body<Rs, [](const Rs& s, const CheckContext&) {
                          return fmt::format("src has {} elements, dst {}", elements_of(s.src), elements_of(s.dst));
                        }>});
constexpr Predicate kRsIndex = rule<Rs, rs_index_range>(
    {.name = "has_valid_total_index_range",
     .convention = "PROJ-CONV-A21",
     .meaning = "base (fp32, truncated to uint32; NaN, negative, >= 2^32 fail) <= 2^24 and, unless src's shape comes "
                "from a register, base + t2d_element_count(src) <= 2^24",
     .gens = kGensAll,
     .fields = fRsIndex,
     .explain = explain_on_body<Rs, [](const Rs& s, const CheckContext&) {
       return fmt::format("base {} with {} source elements leaves the exact index range [0, 2^24]", s.base.as_fp32(),
                          elements_of(s.src));
     }>});
constexpr Predicate kRsInDtype = rule<Rs, rs_fp_dtype<rs_in, false>>(
    {.name = "is_valid_fp_dtype_datapath",
     .convention = "",
     .meaning = "the input dtype is FP8_EXP3/4/5, FP16, BFLOAT16 or FP32",
     .gens = kGensAll,
     .fields = fRsDtype,
     .explain = explain_on_body<Rs, [](const Rs& s, const CheckContext& c) {
       return fmt::format("input dtype {} is not a datapath float type", dtype_label(rs_in(s), c.gen));
     }>});
constexpr Predicate kRsOutDtype = rule<Rs, rs_fp_dtype<rs_out, true>>(
    {.name = "is_valid_fp_dtype_datapath",
     .convention = "",
     .meaning = "the output dtype is FP8_EXP3/4/5, FP16, BFLOAT16, FP32 or FP32R",
     .gens = kGensAll,
     .fields = fRsDtype,
     .explain = explain_on_body<Rs, [](const Rs& s, const CheckContext& c) {
       return fmt::format("output dtype {} is not a datapath float type", dtype_label(rs_out(s), c.gen));
     }>});
constexpr Predicate kRsFill =
    rule<Rs, [](const Rs& s, const CheckContext&) { return s.fill_val.raw == ix::kNegFltMax; }>(
        {.name = "is_valid_fill_val",
         .convention = "",
         .meaning = "fill_val is -FLT_MAX (0xff7fffff)",
         .gens = kGensAll,
         .fields = fRsFill,
         .explain = explain_on_body<Rs, [](const Rs& s, const CheckContext&) {
           return fmt::format("fill_val is {:#010x}, must be 0xff7fffff (-FLT_MAX)", s.fill_val.raw);
         }>});
template <auto Op, Name Which>
constexpr Predicate comp_rule(std::span<const FieldRef> fields) {
  return rule<Rs, [](const Rs& s, const CheckContext&) { return rs_comp_op(s.*Op); }>(
      {.name = "is_valid_rs_comp_op",
       .convention = "",
       .meaning = "the compare op is IS_EQ, IS_GT, IS_GE, IS_LE or IS_LT",
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<Rs, [](const Rs& s, const CheckContext& c) {
         return fmt::format("{} {} is not IS_EQ, IS_GT, IS_GE, IS_LE or IS_LT", std::string_view{Which},
                            aluop_label(s.*Op, c.gen));
       }>});
}
constexpr Predicate kRsComp0 = comp_rule<&Rs::comp_op0, "comp_op0">(fRsComp0);
constexpr Predicate kRsComp1 = comp_rule<&Rs::comp_op1, "comp_op1">(fRsComp1);
constexpr Predicate kRsImm0 = immediate_rule<Rs, rs_bound0, &Rs::bound0_src, dtype::kFp32, "bound0">(fRsImm0);
constexpr Predicate kRsImm1 = immediate_rule<Rs, rs_bound1, &Rs::bound1_src, dtype::kFp32, "bound1">(fRsImm1);
constexpr Predicate kRsChannels =
    channels_rule<Rs, true>("check_active_channels", "num_active_channels is 1..128", fRsChannels);
constexpr Predicate kRsCmd =
    rule<Rs,
         [](const Rs& s, const CheckContext&) {
           return s.reduce_cmd == ix::kAccIdle || s.reduce_cmd == ix::kAccAccumulate ||
                  s.reduce_cmd == ix::kAccZeroAccumulate;
         }>({.name = "has_valid_range_select_reduce_cmd",
             .convention = "",
             .meaning = "reduce_cmd is IDLE, ACCUMULATE or ZERO_ACCUMULATE",
             .gens = kGensAll,
             .fields = fRsCmd,
             .explain = explain_on_body<Rs, [](const Rs& s, const CheckContext&) {
               return fmt::format("reduce_cmd {} is not IDLE (0), ACCUMULATE (2) or ZERO_ACCUMULATE (3)", s.reduce_cmd);
             }>});
constexpr Predicate kRsOp = rule<Rs, [](const Rs& s, const CheckContext&) { return s.reduce_op == aluop::kMax; }>(
    {.name = "has_valid_range_select_reduce_op",
     .convention = "",
     .meaning = "reduce_op is MAX",
     .gens = kGensAll,
     .fields = fRsOp,
     .explain = explain_on_body<Rs, [](const Rs& s, const CheckContext& c) {
       return fmt::format("reduce_op {} is not MAX", aluop_label(s.reduce_op, c.gen));
     }>});

constexpr std::array kRsList{&kHasValidNeuronHeader,
                             &kHasValidNeuronEvents,
                             &kRsNc,
                             &kRsOpcode,
                             &kRsSrcStart,
                             &kRsDstStart,
                             &kRsSrc,
                             &kRsDst,
                             &kRsCount,
                             &kRsIndex,
                             &kRsInDtype,
                             &kRsOutDtype,
                             &kRsFill,
                             &kRsComp0,
                             &kRsComp1,
                             &kRsImm0,
                             &kRsImm1,
                             &kRsChannels,
                             &kRsCmd,
                             &kRsOp};
constexpr Validator kRsValidator = full_validator<kRsList>("is_valid_range_select");

// ============================== GET_SEQUENCE_BOUNDS 0xBE (§12.2) ==============================

using Sb = S3d3SeqBounds;
constexpr FieldRef fSbOpcode[] = {field_ref<Sb>("header.opcode")};
constexpr FieldRef fSbChannels[] = {field_ref<Sb>("num_active_channels")};
constexpr auto fSbReserved = field_refs_with_role<Sb, Role::Reserved>();
constexpr FieldRef fSbIn[] = {field_ref<Sb>("in_dtype")};
constexpr FieldRef fSbOut[] = {field_ref<Sb>("out_dtype")};
constexpr FieldRef fSbTypes[] = {field_ref<Sb>("in_dtype"), field_ref<Sb>("out_dtype")};
constexpr FieldRef fSbSrcStart[] = {field_ref<Sb>("src.start_addr"), field_ref<Sb>("num_active_channels")};
constexpr FieldRef fSbDstStart[] = {field_ref<Sb>("dst.start_addr"), field_ref<Sb>("num_active_channels")};
constexpr FieldRef fSbSrc[] = {field_ref<Sb>("src.start_addr"), field_ref<Sb>("src.num_elem"),
                               field_ref<Sb>("in_dtype")};
constexpr FieldRef fSbDst[] = {field_ref<Sb>("dst.start_addr"), field_ref<Sb>("dst.num_elem"),
                               field_ref<Sb>("out_dtype")};
constexpr FieldRef fSbCount[] = {field_ref<Sb>("src.num_elem"), field_ref<Sb>("dst.num_elem"),
                                 field_ref<Sb>("src.start_addr"), field_ref<Sb>("dst.start_addr")};

constexpr bool fp32_or_int32(uint8_t d) {
  return d == dtype::kFp32 || d == dtype::kInt32;
}
bool sb_count(const Sb& s, const CheckContext& c) {
  if (shape_escapes(s.src.start_addr, c.gen) || shape_escapes(s.dst.start_addr, c.gen)) return true;
  return 2 * s.src.elements() == s.dst.elements() && s.dst.num_elem[2] == 2;
}

constexpr Predicate kSbOpcode = rule<Sb, has_opcode<ix::kGetSequenceBounds>>({.name = "has_get_sequence_bounds_opcode",
                                                                              .convention = "",
                                                                              .meaning = "the opcode is 0xBE",
                                                                              .gens = kGensAll,
                                                                              .fields = fSbOpcode,
                                                                              .explain = explain_opcode});
constexpr Predicate kSbNc = rule<Sb, [](const Sb&, const CheckContext& c) { return c.gen != Generation::Sunda; }>(
    {.name = "has_valid_nc_get_sequence_bounds",
     .convention = "",
     .meaning = "the NeuronCore is V3 (CAYMAN) or later",
     .gens = kGensAll,
     .fields = {},
     .explain = [](const Instruction&, const CheckContext& c) {
       return fmt::format("{} is before NeuronCore V3", to_string(c.gen));
     }});
constexpr Predicate kSbChannels =
    channels_rule<Sb, true>("check_active_channels", "num_active_channels is 1..128", fSbChannels);
constexpr Predicate kSbOneChannel =
    rule<Sb, [](const Sb& s, const CheckContext&) { return s.num_active_channels == 1; }>(
        {.name = "has_valid_s3d3_seq_bounds_channels",
         .convention = "",
         .meaning = "num_active_channels is 1",
         .gens = kGensAll,
         .fields = fSbChannels,
         .explain = explain_on_body<Sb, [](const Sb& s, const CheckContext&) {
           return fmt::format("num_active_channels is {}, must be 1", s.num_active_channels);
         }>});
constexpr Predicate kSbReserved =
    reserved_rule<Sb, fSbReserved>({.name = "s3d3_seq_bounds_reserved_zero",
                                    .convention = "",
                                    .meaning = "byte 13 and bytes 48..63 are zero",
                                    .gens = kGensAll,
                                    .explain = [](const Instruction& i, const CheckContext&) {
                                      return explain_reserved_bytes(encode(i), fSbReserved);
                                    }});
constexpr Predicate kSbIn =
    dtype_rule<Sb, &Sb::in_dtype, false, "in_dtype">("is_valid_dtype(in_dtype, FP32R not allowed)", fSbIn);
constexpr Predicate kSbOut =
    dtype_rule<Sb, &Sb::out_dtype, true, "out_dtype">("is_valid_dtype(out_dtype, FP32R allowed)", fSbOut);
constexpr Predicate kSbTypes =
    rule<Sb, [](const Sb& s, const CheckContext&) { return fp32_or_int32(s.in_dtype) && fp32_or_int32(s.out_dtype); }>(
        {.name = "has_valid_seq_bounds_dtype",
         .convention = "",
         .meaning = "in_dtype and out_dtype are FP32 or INT32",
         .gens = kGensAll,
         .fields = fSbTypes,
         .explain = explain_on_body<Sb, [](const Sb& s, const CheckContext& c) {
           return fmt::format("in {} / out {}: both must be FP32 or INT32", dtype_label(s.in_dtype, c.gen),
                              dtype_label(s.out_dtype, c.gen));
         }>});
constexpr Predicate kSbSrcStart = start_rule<Sb, &Sb::src, "src", kRegionWording>(kStartMeaning, fSbSrcStart);
constexpr Predicate kSbDstStart = start_rule<Sb, &Sb::dst, "dst", kRegionWording>(kStartMeaning, fSbDstStart);
constexpr Predicate kSbSrc = pattern_rule<Sb, &Sb::src, &Sb::in_dtype, false, "src", kRegionWording, kNoPsum>(
    "tensor3d_valid", "src readable in in_dtype, SBUF only", fSbSrc);
constexpr Predicate kSbDst = pattern_rule<Sb, &Sb::dst, &Sb::out_dtype, true, "dst", kRegionWording, kNoPsum>(
    "tensor3d_valid", "dst writable in out_dtype, SBUF only", fSbDst);
constexpr Predicate kSbCount = rule<Sb, sb_count>(
    {.name = "s3d3_seq_bounds_element_count_check_t3d",
     .convention = "PROJ-CONV-A18",
     .meaning = "dst holds twice src's elements with num_elem[2] == 2 (waived when a shape comes from a register)",
     .gens = kGensAll,
     .fields = fSbCount,
     .explain = explain_on_body<Sb, [](const Sb& s, const CheckContext&) {
       return fmt::format("src has {} elements, dst {} with num_elem[2] = {}; dst must be 2 x src with num_elem[2] 2",
                          s.src.elements(), s.dst.elements(), s.dst.num_elem[2]);
     }>});

constexpr std::array kSbList{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kSbOpcode, &kSbNc,  &kSbChannels,
                             &kSbOneChannel,         &kSbReserved,           &kSbIn,     &kSbOut, &kSbTypes,
                             &kSbSrcStart,           &kSbDstStart,           &kSbSrc,    &kSbDst, &kSbCount};
constexpr Validator kSbValidator = full_validator<kSbList>("is_valid_get_sequence_bounds");

// ============================== NONZERO_WITH_COUNT 0xF2 (§13.2) ==============================

using Nz = S3d3NonzeroWithCount;
constexpr FieldRef fNzOpcode[] = {field_ref<Nz>("header.opcode")};
constexpr FieldRef fNzChannels[] = {field_ref<Nz>("num_active_channels")};
constexpr auto fNzReserved = field_refs_with_role<Nz, Role::Reserved>();
constexpr FieldRef fNzImm0[] = {field_ref<Nz>("index_offset"), field_ref<Nz>("index_offset_src"),
                                field_ref<Nz>("num_active_channels")};
constexpr FieldRef fNzImm1[] = {field_ref<Nz>("padding_val"), field_ref<Nz>("padding_val_src"),
                                field_ref<Nz>("num_active_channels")};
constexpr FieldRef fNzIn[] = {field_ref<Nz>("in_dtype")};
constexpr FieldRef fNzOut[] = {field_ref<Nz>("out_dtype")};
constexpr FieldRef fNzTypes[] = {field_ref<Nz>("in_dtype"), field_ref<Nz>("out_dtype")};
constexpr FieldRef fNzSrcStart[] = {field_ref<Nz>("src.start_addr"), field_ref<Nz>("num_active_channels")};
constexpr FieldRef fNzDstStart[] = {field_ref<Nz>("dst.start_addr"), field_ref<Nz>("num_active_channels")};
constexpr FieldRef fNzSrc[] = {field_ref<Nz>("src.start_addr"), field_ref<Nz>("src.num_elem"),
                               field_ref<Nz>("in_dtype")};
constexpr FieldRef fNzDst[] = {field_ref<Nz>("dst.start_addr"), field_ref<Nz>("dst.num_elem"),
                               field_ref<Nz>("out_dtype")};
constexpr FieldRef fNzCount[] = {field_ref<Nz>("src.num_elem"), field_ref<Nz>("dst.num_elem"),
                                 field_ref<Nz>("src.start_addr"), field_ref<Nz>("dst.start_addr")};

bool nz_count(const Nz& s, const CheckContext& c) {
  if (shape_escapes(s.src.start_addr, c.gen) || shape_escapes(s.dst.start_addr, c.gen)) return true;
  return s.src.elements() + 1 == s.dst.elements();
}

constexpr Predicate kNzOpcode = rule<Nz, has_opcode<ix::kNonzeroWithCount>>({.name = "has_nonzero_with_count_opcode",
                                                                             .convention = "",
                                                                             .meaning = "the opcode is 0xF2",
                                                                             .gens = kGensAll,
                                                                             .fields = fNzOpcode,
                                                                             .explain = explain_opcode});
constexpr Predicate kNzNc = rule<Nz, [](const Nz&, const CheckContext& c) { return c.gen != Generation::Sunda; }>(
    {.name = "has_valid_nc_nonzero_with_count",
     .convention = "",
     .meaning = "the NeuronCore is V3 (CAYMAN) or later",
     .gens = kGensAll,
     .fields = {},
     .explain = [](const Instruction&, const CheckContext& c) {
       return fmt::format("{} is before NeuronCore V3", to_string(c.gen));
     }});
constexpr Predicate kNzChannels =
    channels_rule<Nz, true>("check_active_channels", "num_active_channels is 1..128", fNzChannels);
constexpr Predicate kNzReserved =
    reserved_rule<Nz, fNzReserved>({.name = "s3d3_nonzero_with_count_reserved_zero",
                                    .convention = "",
                                    .meaning = "bytes 37..39 and 60..63 are zero",
                                    .gens = kGensAll,
                                    .explain = [](const Instruction& i, const CheckContext&) {
                                      return explain_reserved_bytes(encode(i), fNzReserved);
                                    }});
constexpr Predicate kNzImm0 =
    immediate_rule<Nz, &Nz::index_offset, &Nz::index_offset_src, dtype::kInt32, "index_offset">(fNzImm0);
constexpr Predicate kNzImm1 =
    immediate_rule<Nz, &Nz::padding_val, &Nz::padding_val_src, dtype::kInt32, "padding_val">(fNzImm1);
constexpr Predicate kNzIn =
    dtype_rule<Nz, &Nz::in_dtype, false, "in_dtype">("is_valid_dtype(in_dtype, FP32R not allowed)", fNzIn);
constexpr Predicate kNzOut =
    dtype_rule<Nz, &Nz::out_dtype, true, "out_dtype">("is_valid_dtype(out_dtype, FP32R allowed)", fNzOut);
constexpr Predicate kNzTypes =
    rule<Nz,
         [](const Nz& s, const CheckContext&) { return fp32_or_int32(s.in_dtype) && s.out_dtype == dtype::kInt32; }>(
        {.name = "has_valid_nonzero_with_count_dtype",
         .convention = "",
         .meaning = "in_dtype is FP32 or INT32 and out_dtype is INT32",
         .gens = kGensAll,
         .fields = fNzTypes,
         .explain = explain_on_body<Nz, [](const Nz& s, const CheckContext& c) {
           return fmt::format("in {} must be FP32 or INT32, out {} must be INT32", dtype_label(s.in_dtype, c.gen),
                              dtype_label(s.out_dtype, c.gen));
         }>});
constexpr Predicate kNzSrcStart = start_rule<Nz, &Nz::src, "src", kRegionWording>(kStartMeaning, fNzSrcStart);
constexpr Predicate kNzDstStart = start_rule<Nz, &Nz::dst, "dst", kRegionWording>(kStartMeaning, fNzDstStart);
constexpr Predicate kNzSrc = pattern_rule<Nz, &Nz::src, &Nz::in_dtype, false, "src", kRegionWording, kNoPsum>(
    "tensor3d_valid", "src readable in in_dtype, SBUF only", fNzSrc);
constexpr Predicate kNzDst = pattern_rule<Nz, &Nz::dst, &Nz::out_dtype, true, "dst", kRegionWording, kNoPsum>(
    "tensor3d_valid", "dst writable in out_dtype, SBUF only", fNzDst);
constexpr Predicate kNzCount = rule<Nz, nz_count>(
    {.name = "s3d3_nonzero_with_count_element_count_check_t3d",
     .convention = "PROJ-CONV-A18",
     .meaning = "dst holds one element more than src (waived when a shape comes from a register)",
     .gens = kGensAll,
     .fields = fNzCount,
     .explain = explain_on_body<Nz, [](const Nz& s, const CheckContext&) {
       return fmt::format("src has {} elements, dst {}; dst must have src + 1", s.src.elements(), s.dst.elements());
     }>});

constexpr std::array kNzList{&kHasValidNeuronHeader,
                             &kHasValidNeuronEvents,
                             &kNzOpcode,
                             &kNzNc,
                             &kNzChannels,
                             &kNzReserved,
                             &kNzImm0,
                             &kNzImm1,
                             &kNzIn,
                             &kNzOut,
                             &kNzTypes,
                             &kNzSrcStart,
                             &kNzDstStart,
                             &kNzSrc,
                             &kNzDst,
                             &kNzCount};
constexpr Validator kNzValidator = full_validator<kNzList>("is_valid_nonzero_with_count");

constexpr ValidatorRow kRows[] = {
    {ix::kIota, &kIotaValidator},           {ix::kAffineSelect, &kAsValidator},
    {ix::kRangeSelect, &kRsValidator},      {ix::kGetSequenceBounds, &kSbValidator},
    {ix::kNonzeroWithCount, &kNzValidator},
};
constexpr Validation kValidation = validator_table<IndexFamily, kRows>();

}  // namespace

const Validation& IndexFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
