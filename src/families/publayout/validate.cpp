// Public-layout family validators, each in its header's order: is_valid_copy_predicated_scalar (copypredicatedscalar.md
// §6, §8-§10), is_valid_sb2sb_collective (sb2sb-remote-copy.md §2c), REG_STORE's and MAX_POOL_SELECT's (PROJ-CONV-PU4,
// PU5); the names the sources do not give are ours.
#include "families/common.hpp"
#include "families/operand_rules.hpp"
#include "families/publayout/format.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;

// ============================== COPY_PREDICATED_SCALAR 0xE8 ==============================

using Cps = S3d3CpPredScalar;

constexpr FieldRef fCpsImm[] = {field_ref<Cps>("src0_imm_src"), field_ref<Cps>("src0_imm"), field_ref<Cps>("in_dtype"),
                                field_ref<Cps>("num_active_channels")};
constexpr FieldRef fCpsPredTensor[] = {field_ref<Cps>("pred.start_addr"), field_ref<Cps>("pred.num_elem"),
                                       field_ref<Cps>("pred_dtype")};
constexpr FieldRef fCpsDstTensor[] = {field_ref<Cps>("dst.start_addr"), field_ref<Cps>("dst.num_elem"),
                                      field_ref<Cps>("out_dtype")};
constexpr FieldRef fCpsPredChannels[] = {field_ref<Cps>("pred.start_addr"), field_ref<Cps>("num_active_channels")};
constexpr FieldRef fCpsDstChannels[] = {field_ref<Cps>("dst.start_addr"), field_ref<Cps>("num_active_channels")};
constexpr FieldRef fCpsCount[] = {field_ref<Cps>("pred.start_addr"), field_ref<Cps>("pred.num_elem"),
                                  field_ref<Cps>("dst.start_addr"), field_ref<Cps>("dst.num_elem")};
constexpr FieldRef fCpsPredDtype[] = {field_ref<Cps>("pred_dtype")};
constexpr FieldRef fCpsIn[] = {field_ref<Cps>("in_dtype")};
constexpr FieldRef fCpsOut[] = {field_ref<Cps>("out_dtype")};
constexpr FieldRef fCpsInOut[] = {field_ref<Cps>("in_dtype"), field_ref<Cps>("out_dtype")};
constexpr FieldRef fCpsReversed[] = {field_ref<Cps>("reversed_pred")};
constexpr FieldRef fCpsChannels[] = {field_ref<Cps>("num_active_channels")};
constexpr FieldRef fCpsChannelsTile[] = {field_ref<Cps>("num_active_channels"),
                                         renamed(field_ref<Cps>("header.debug_hint"), "header.inst_flags")};
constexpr auto fCpsReserved = field_refs_with_role<Cps, Role::Reserved>();

constexpr uint8_t cps_pred_dtype(const Cps& x) {
  return x.pred_dtype;
}
constexpr uint8_t cps_in_dtype(const Cps& x) {
  return x.in_dtype;
}
constexpr uint8_t cps_out_dtype(const Cps& x) {
  return x.out_dtype;
}

/// is_valid_int_dtype_datapath (copypredicatedscalar.md §6): INT8/16/32, UINT8/16/32.
constexpr bool int_dtype_datapath(uint8_t d) {
  return d == dtype::kInt8 || d == dtype::kInt16 || d == dtype::kInt32 || d == dtype::kUint8 || d == dtype::kUint16 ||
         d == dtype::kUint32;
}

constexpr Predicate kCpsOpcode = opcode_clause<Cps, publayout::kCopyPredicatedScalar>(
    "has_copy_predicated_scalar_opcode", "", "the opcode is COPY_PREDICATED_SCALAR (0xe8)");

constexpr Predicate kCpsReserved =
    reserved_rule<Cps, fCpsReserved>({.name = "s3d3_cp_pred_scalar_reserved_zero",
                                      .convention = "",
                                      .meaning = "reserved0 (bytes 12..15) and reserved1 (bytes 35..40) are zero",
                                      .gens = kGensAll,
                                      .explain = [](const Instruction& i, const CheckContext&) {
                                        return explain_reserved_bytes(encode(i), fCpsReserved);
                                      }});

bool cps_imm_ok(const Cps& x, const CheckContext& c) {
  return immediates_ok(x.src0_imm.raw, x.src0_imm_src, x.num_active_channels, x.in_dtype, c.gen);
}
std::string cps_imm_text(const Cps& x, const CheckContext&) {
  return immediate_failure("src0_imm", x.src0_imm.raw, x.src0_imm_src, x.num_active_channels, x.in_dtype);
}
constexpr Predicate kCpsImm =
    rule<Cps, cps_imm_ok>({.name = "has_valid_immediates",
                           .convention = "PROJ-CONV-A11",
                           .meaning = "src0_imm per src0_imm_src: an instruction value, a pointer aligned for in_dtype "
                                      "whose num_active_channels partitions fit, or a register < 64",
                           .gens = kGensAll,
                           .fields = fCpsImm,
                           .explain = explain_on_body<Cps, cps_imm_text>});

constexpr Predicate kCpsPredTensor = pattern_rule<Cps, &Cps::pred, cps_pred_dtype, false, "pred">(
    "tensor3d_valid", "pred readable in pred_dtype (MARIANA+: judged by its TENSOR3D bytes, PROJ-CONV-K3)",
    fCpsPredTensor);
constexpr Predicate kCpsDstTensor = pattern_rule<Cps, &Cps::dst, cps_out_dtype, true, "dst">(
    "tensor3d_valid", "dst writable in out_dtype; PSUM only with 4-byte dtypes (PROJ-CONV-K3 on MARIANA+)",
    fCpsDstTensor);
constexpr Predicate kCpsPredStart = start_rule<Cps, &Cps::pred, "pred">(
    "pred: a register start, or partition + num_active_channels <= 128", fCpsPredChannels);
constexpr Predicate kCpsDstStart = start_rule<Cps, &Cps::dst, "dst">(
    "dst: a register start, or partition + num_active_channels <= 128", fCpsDstChannels);

/// One predicate element per dst element: same_element_count_t3d on SUNDA/CAYMAN, the MARIANA+ header's
/// s3d3_cp_pred_scalar_src_dst_elements_same on the TENSOR3D bytes (PROJ-CONV-K3).
bool cps_count_ok(const Cps& x, const CheckContext& c) {
  return same_count(x.pred, x.dst, c.gen);
}
std::string cps_count_text(const Cps& x, const CheckContext&) {
  return count_failure(kPartitionWording, "pred", x.pred.elements(), "dst", x.dst.elements());
}
constexpr Predicate kCpsCount =
    rule<Cps, cps_count_ok>({.name = "same_element_count_t3d",
                             .convention = "",
                             .meaning = "(SUNDA, CAYMAN) pred and dst have the same element count (skipped for a "
                                        "register shape, CAYMAN)",
                             .gens = GenSet{0x03},
                             .fields = fCpsCount,
                             .explain = explain_on_body<Cps, cps_count_text>});
constexpr Predicate kCpsCountMariana =
    rule<Cps, cps_count_ok>({.name = "s3d3_cp_pred_scalar_src_dst_elements_same",
                             .convention = "PROJ-CONV-K3",
                             .meaning = "(MARIANA+) pred and dst have the same element count, judged on their TENSOR3D "
                                        "bytes (skipped for a register shape)",
                             .gens = kGensMarianaUp,
                             .fields = fCpsCount,
                             .explain = explain_on_body<Cps, cps_count_text>});

constexpr Predicate kCpsPredDtype =
    rule<Cps, [](const Cps& x, const CheckContext&) { return int_dtype_datapath(x.pred_dtype); }>(
        {.name = "is_valid_int_dtype_datapath",
         .convention = "",
         .meaning = "pred_dtype is an 8-, 16- or 32-bit integer",
         .gens = kGensAll,
         .fields = fCpsPredDtype,
         .explain = explain_on_body<Cps, [](const Cps& x, const CheckContext& c) {
           return fmt::format("pred_dtype {} is not an 8-, 16- or 32-bit integer", dtype_label(x.pred_dtype, c.gen));
         }>});

constexpr Predicate kCpsIn =
    dtype_rule<Cps, cps_in_dtype, false, "in_dtype">("is_valid_dtype(in_dtype, FP32R not allowed)", fCpsIn);
constexpr Predicate kCpsOut =
    dtype_rule<Cps, cps_out_dtype, false, "out_dtype">("is_valid_dtype(out_dtype, FP32R not allowed)", fCpsOut);

constexpr Predicate kCpsSameDtype =
    rule<Cps, [](const Cps& x, const CheckContext&) { return x.in_dtype == x.out_dtype; }>(
        {.name = "has_same_inout_dtype",
         .convention = "",
         .meaning = "in_dtype equals out_dtype (a copy: no conversion)",
         .gens = kGensAll,
         .fields = fCpsInOut,
         .explain = explain_on_body<Cps, [](const Cps& x, const CheckContext& c) {
           return fmt::format("in_dtype {} differs from out_dtype {}", dtype_label(x.in_dtype, c.gen),
                              dtype_label(x.out_dtype, c.gen));
         }>});

constexpr Predicate kCpsReversed = rule<Cps, [](const Cps& x, const CheckContext&) { return x.reversed_pred <= 1; }>(
    {.name = "has_valid_reversed_pred",
     .convention = "",
     .meaning = "reversed_pred is 0 or 1",
     .gens = kGensAll,
     .fields = fCpsReversed,
     .explain = explain_on_body<Cps, [](const Cps& x, const CheckContext&) {
       return fmt::format("reversed_pred is {}, must be 0 or 1", x.reversed_pred);
     }>});

constexpr bool cps_channels(const Cps& x, const CheckContext&) {
  return pred::has_valid_active_channel_range(x.num_active_channels, 128);
}
std::string cps_channels_text(const Cps& x, const CheckContext&) {
  return fmt::format("num_active_channels is {}, must be 1..128", x.num_active_channels);
}
constexpr Predicate kCpsChannels = rule<Cps, cps_channels>({.name = "has_valid_active_channel_range",
                                                            .convention = "",
                                                            .meaning = "num_active_channels is 1..128",
                                                            .gens = kGensNotMaverick,
                                                            .fields = fCpsChannels,
                                                            .explain = explain_on_body<Cps, cps_channels_text>});
constexpr Predicate kCpsChannelsTile =
    rule<Cps, cps_channels>({.name = "has_valid_active_channel_range_with_tile",
                             .convention = "PROJ-CONV-K22",
                             .meaning = "(MAVERICK) num_active_channels is 1..128 (the MAVERICK name, PROJ-CONV-K22; "
                                        "body PROJ-CONV-T1)",
                             .gens = kGensMaverickOnly,
                             .fields = fCpsChannelsTile,
                             .explain = explain_on_body<Cps, cps_channels_text>});

constexpr const Predicate* kCopyPredicatedScalar[] = {
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kCpsOpcode,      &kCpsReserved, &kCpsImm,
    &kCpsPredTensor,        &kCpsDstTensor,         &kCpsPredStart,   &kCpsDstStart, &kCpsCount,
    &kCpsCountMariana,      &kCpsPredDtype,         &kCpsIn,          &kCpsOut,      &kCpsSameDtype,
    &kCpsReversed,          &kCpsChannels,          &kCpsChannelsTile};

constexpr Validator kCopyPredicatedScalarValidator =
    full_validator<kCopyPredicatedScalar>("is_valid_copy_predicated_scalar");

// ============================== SB2SB_COLLECTIVE 0xBF ==============================

using Coll = S3d3Collective;

constexpr FieldRef fCollLnc[] = {field_ref<Coll>("lnc_size_fmt")};
constexpr FieldRef fCollChannels[] = {field_ref<Coll>("num_active_channels")};
constexpr FieldRef fCollSrc[] = {field_ref<Coll>("src.start_addr"), field_ref<Coll>("src.num_elem"),
                                 field_ref<Coll>("in_dtype")};
constexpr FieldRef fCollDst[] = {field_ref<Coll>("dst.start_addr"), field_ref<Coll>("dst.num_elem"),
                                 field_ref<Coll>("out_dtype")};
constexpr FieldRef fCollSize[] = {field_ref<Coll>("src.num_elem")};
constexpr FieldRef fCollInOut[] = {field_ref<Coll>("in_dtype"), field_ref<Coll>("out_dtype")};
constexpr FieldRef fCollGen[] = {field_ref<Coll>("header.opcode")};
constexpr auto fCollReserved = field_refs_with_role<Coll, Role::Reserved>();

constexpr uint8_t coll_in_dtype(const Coll& x) {
  return x.in_dtype;
}
constexpr uint8_t coll_out_dtype(const Coll& x) {
  return x.out_dtype;
}

constexpr Predicate kCollOpcode = opcode_clause<Coll, publayout::kSb2sbCollective>(
    "has_sb2sbcollective_opcode", "", "the opcode is SB2SB_COLLECTIVE (0xbf)");

/// nc >= V3: the catalog gives 0xBF to CAYMAN and later only, so the validator never judges a SUNDA word.
constexpr Predicate kCollGen =
    rule<Coll, [](const Coll&, const CheckContext& c) { return c.gen != Generation::Sunda; }>(
        {.name = "has_valid_nc_sb2sb_collective",
         .convention = "",
         .meaning = "the NeuronCore is V3 (CAYMAN) or later",
         .gens = kGensAll,
         .fields = fCollGen,
         .explain = explain_on_body<Coll, [](const Coll&, const CheckContext& c) {
           return fmt::format("SB2SB_COLLECTIVE needs NeuronCore V3 or later, not {}", to_string(c.gen));
         }>});

constexpr Predicate kCollLnc =
    rule<Coll, [](const Coll& x, const CheckContext&) { return publayout::lnc_size_fmt_accepted(x.lnc_size_fmt); }>(
        {.name = "has_valid_LncSizefmt",
         .convention = "",
         .meaning = "lnc_size_fmt is LNC1 (0, self-test) or LNC2 (1, one peer): LNC4, LNC8 and non-members fail",
         .gens = kGensAll,
         .fields = fCollLnc,
         .explain = explain_on_body<Coll, [](const Coll& x, const CheckContext&) {
           return fmt::format("lnc_size_fmt is {}, must be LNC1 (0) or LNC2 (1)", x.lnc_size_fmt);
         }>});

constexpr Predicate kCollChannels =
    channels_rule<Coll>("check_active_ports", "num_active_channels is 1..POOLING_NUM_CHANNELS (128)", fCollChannels);

constexpr Predicate kCollReserved =
    reserved_rule<Coll, fCollReserved>({.name = "s3d3_collective_reserved_zero",
                                        .convention = "",
                                        .meaning = "reserved0 (bytes 14..15) and reserved1 (bytes 34..47) are zero",
                                        .gens = kGensAll,
                                        .explain = [](const Instruction& i, const CheckContext&) {
                                          return explain_reserved_bytes(encode(i), fCollReserved);
                                        }});

constexpr Predicate kCollSrc = pattern_rule<Coll, &Coll::src, coll_in_dtype, false, "src", kPartitionWording, 0x00>(
    "tensor3d_valid", "src readable in in_dtype, in SBUF (never PSUM)", fCollSrc);
constexpr Predicate kCollDst = pattern_rule<Coll, &Coll::dst, coll_out_dtype, true, "dst", kPartitionWording, 0x00>(
    "tensor3d_valid", "dst writable in out_dtype, in SBUF (never PSUM)", fCollDst);

constexpr bool coll_size_ok(const Coll& x, const CheckContext&) {
  return x.src.elements() <= publayout::kSb2sbMaxSrcElements;
}
constexpr Predicate kCollSize =
    rule<Coll, coll_size_ok>({.name = "size_check_src",
                              .convention = "",
                              .meaning = "src has at most 256 elements (t3d_element_count)",
                              .gens = kGensAll,
                              .fields = fCollSize,
                              .explain = explain_on_body<Coll, [](const Coll& x, const CheckContext&) {
                                return fmt::format("src has {} elements, at most 256", x.src.elements());
                              }>});

constexpr Predicate kCollDtype =
    rule<Coll, [](const Coll& x, const CheckContext&) { return x.in_dtype == x.out_dtype; }>(
        {.name = "dtype_equality_check",
         .convention = "",
         .meaning = "in_dtype equals out_dtype (a raw copy)",
         .gens = kGensAll,
         .fields = fCollInOut,
         .explain = explain_on_body<Coll, [](const Coll& x, const CheckContext& c) {
           return fmt::format("in_dtype {} differs from out_dtype {}", dtype_label(x.in_dtype, c.gen),
                              dtype_label(x.out_dtype, c.gen));
         }>});

constexpr const Predicate* kSb2sbCollective[] = {&kHasValidNeuronHeader,
                                                 &kHasValidNeuronEvents,
                                                 &kCollOpcode,
                                                 &kCollGen,
                                                 &kCollLnc,
                                                 &kCollChannels,
                                                 &kCollReserved,
                                                 &kCollSrc,
                                                 &kCollDst,
                                                 &kCollSize,
                                                 &kCollDtype};
constexpr Validator kSb2sbCollectiveValidator = full_validator<kSb2sbCollective>("is_valid_sb2sb_collective");

// ============================== REG_STORE 0x4B (D4_MR) ==============================
// d4_mr.h binds REG_STORE to D4_MR but states a validator for MEMSET only: the operand checks MEMSET's conjunction
// makes of the struct's shared bytes, under names of ours where the header gives none (PROJ-CONV-PU4). set_value,
// whose reading for REG_STORE no source states, is not judged.

using Mr = D4Mr;

constexpr FieldRef fRsDtype[] = {field_ref<Mr>("dtype")};
constexpr FieldRef fRsSerial[] = {field_ref<Mr>("serialization_mode")};
constexpr FieldRef fRsChannels[] = {field_ref<Mr>("num_active_channels")};
constexpr FieldRef fRsDstChannels[] = {field_ref<Mr>("dst.start_addr"), field_ref<Mr>("num_active_channels")};
constexpr FieldRef fRsDstTensor[] = {field_ref<Mr>("dst.start_addr"), field_ref<Mr>("dst.num_elem"),
                                     field_ref<Mr>("dtype")};
constexpr FieldRef fRsCount[] = {field_ref<Mr>("dst_element_count"), field_ref<Mr>("dst.start_addr"),
                                 field_ref<Mr>("dst.num_elem")};
constexpr auto fRsReserved = field_refs_with_role<Mr, Role::Reserved>();

constexpr uint8_t rs_dtype(const Mr& x) {
  return x.dtype;
}

constexpr Predicate kRsOpcode = opcode_clause<Mr, publayout::kRegStore>(
    "has_reg_store_opcode", "PROJ-CONV-PU4", "the opcode is REG_STORE (0x4b) (a name of ours)");

constexpr Predicate kRsReserved = reserved_rule<Mr, fRsReserved>(
    {.name = "d4_mr_reserved_zero",
     .convention = "",
     .meaning = "reserved0 (16 bytes), reserved1, reserved2 and reserved3 (3 bytes) are zero",
     .gens = kGensAll,
     .explain = [](const Instruction& i, const CheckContext&) {
       return explain_reserved_bytes(encode(i), fRsReserved);
     }});

constexpr Predicate kRsDtype =
    dtype_rule<Mr, rs_dtype, true, "dtype">("is_valid_dtype(dtype, FP32R allowed) (PROJ-CONV-PU4)", fRsDtype);

constexpr Predicate kRsSerial =
    rule<Mr, [](const Mr& x, const CheckContext&) { return x.serialization_mode == datapath::kSerial; }>(
        {.name = "d4_mr_zero_serialization",
         .convention = "PROJ-CONV-F22",
         .meaning = "serialization_mode is Serial (0, PROJ-CONV-F22)",
         .gens = kGensAll,
         .fields = fRsSerial,
         .explain = explain_on_body<Mr, [](const Mr& x, const CheckContext&) {
           return fmt::format("serialization_mode is {:#04x}, must be Serial (0x00)", x.serialization_mode);
         }>});

constexpr Predicate kRsChannels =
    channels_rule<Mr>("has_valid_active_channel_range", "num_active_channels is 1..128 (PROJ-CONV-PU4)", fRsChannels);
constexpr Predicate kRsDstStart = start_rule<Mr, &Mr::dst, "dst">(
    "dst: a register start, or partition + num_active_channels <= 128 (PROJ-CONV-PU4)", fRsDstChannels);
constexpr Predicate kRsDstTensor = pattern_rule<Mr, &Mr::dst, rs_dtype, true, "dst">(
    "tensor4d_valid", "dst writable in dtype; PSUM only with 4-byte dtypes (PROJ-CONV-PU4)", fRsDstTensor);

bool rs_count_ok(const Mr& x, const CheckContext& c) {
  return shape_escapes(x.dst.start_addr, c.gen) || uint64_t{x.dst_element_count} == x.dst.elements();
}
constexpr Predicate kRsCount = rule<Mr, rs_count_ok>(
    {.name = "d4_mr_dst_element_count",
     .convention = "PROJ-CONV-PU4",
     .meaning = "dst_element_count equals dst's element count, unless the shape comes from a register (PROJ-CONV-PU4)",
     .gens = kGensAll,
     .fields = fRsCount,
     .explain = explain_on_body<Mr, [](const Mr& x, const CheckContext&) {
       return fmt::format("dst_element_count is {}, dst has {} elements", x.dst_element_count, x.dst.elements());
     }>});

constexpr const Predicate* kRegStore[] = {
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kRsOpcode,    &kRsReserved, &kRsDtype, &kRsSerial,
    &kRsChannels,           &kRsDstStart,           &kRsDstTensor, &kRsCount};
constexpr Validator kRegStoreValidator = full_validator<kRegStore>("is_valid_reg_store");

// ============================== MAX_POOL_SELECT 0x58 (S4D4_PL) ==============================
// is_valid_s4d4_pl as the header writes it for its second opcode (avg-max-pool.md §3.3, §3.6, §7): pool_func NONE, an
// unsigned index out_dtype, pool_scale 1.0 (unused). Named apart from POOL's validator (PROJ-CONV-PU5).

using Pl = S4d4Pl;

constexpr FieldRef fMpsOpcode[] = {field_ref<Pl>("header.opcode")};
constexpr auto fMpsReserved = field_refs_with_role<Pl, Role::Reserved>();
constexpr FieldRef fMpsIn[] = {field_ref<Pl>("in_dtype")};
constexpr FieldRef fMpsOut[] = {field_ref<Pl>("out_dtype")};
constexpr FieldRef fMpsSrcStart[] = {field_ref<Pl>("src.start_addr"), field_ref<Pl>("num_active_channels")};
constexpr FieldRef fMpsDstStart[] = {field_ref<Pl>("dst.start_addr"), field_ref<Pl>("num_active_channels")};
constexpr FieldRef fMpsType[] = {field_ref<Pl>("header.opcode"), field_ref<Pl>("pool_func")};
constexpr FieldRef fMpsDim[] = {field_ref<Pl>("pool_dim")};
constexpr FieldRef fMpsChannels[] = {field_ref<Pl>("num_active_channels")};
constexpr FieldRef fMpsDtypeCheck[] = {field_ref<Pl>("header.opcode"), field_ref<Pl>("out_dtype")};
constexpr FieldRef fMpsSrc[] = {field_ref<Pl>("src.start_addr"), field_ref<Pl>("src.num_elem"),
                                field_ref<Pl>("in_dtype")};
constexpr FieldRef fMpsDst[] = {field_ref<Pl>("dst.start_addr"), field_ref<Pl>("dst.num_elem"),
                                field_ref<Pl>("out_dtype")};
constexpr FieldRef fMpsScale[] = {field_ref<Pl>("pool_func"), field_ref<Pl>("pool_scale")};

constexpr Predicate kMpsOpcode = opcode_rule<Pl, publayout::kMaxPoolSelect>(
    "has_s4d4_pl_opcode", "", "the opcode is 0x58 (the header's clause admits 0x45 or 0x58)", fMpsOpcode);
constexpr Predicate kMpsReserved =
    reserved_rule<Pl, fMpsReserved>({.name = "s4d4_pl_reserved_zero",
                                     .convention = "",
                                     .meaning = "bytes 35, 38 and 39 are zero",
                                     .gens = kGensAll,
                                     .explain = [](const Instruction& i, const CheckContext&) {
                                       return explain_reserved_bytes(encode(i), fMpsReserved);
                                     }});
constexpr Predicate kMpsIn =
    dtype_rule<Pl, &Pl::in_dtype, false, "in_dtype">("is_valid_dtype(in_dtype, FP32R not allowed)", fMpsIn);
constexpr Predicate kMpsOut =
    dtype_rule<Pl, &Pl::out_dtype, true, "out_dtype">("is_valid_dtype(out_dtype, FP32R allowed)", fMpsOut);
constexpr Predicate kMpsSrcStart =
    start_rule<Pl, &Pl::src, "src">("src: a register start, or partition + num_active_channels <= 128", fMpsSrcStart);
constexpr Predicate kMpsDstStart =
    start_rule<Pl, &Pl::dst, "dst">("dst: a register start, or partition + num_active_channels <= 128", fMpsDstStart);
constexpr Predicate kMpsType =
    text_rule<Pl, [](const Pl& s, const CheckContext&) { return s.pool_func == pool::kPoolNone; },
              [](const Pl& s, const CheckContext&) {
                return fmt::format("pool_func {} is not NONE (0)", s.pool_func);
              }>("has_valid_pooltype", "", "MAX_POOL_SELECT's pool_func is NONE (0): the opcode names the operation",
                 fMpsType);
constexpr Predicate kMpsDim =
    text_rule<Pl, [](const Pl& s, const CheckContext&) { return pool::window_dims(s.pool_dim) != 0; },
              [](const Pl& s, const CheckContext&) {
                return fmt::format("pool_dim {} is not X (2), XY (3), XYZ (4) or XYZW (5)", s.pool_dim);
              }>("is_valid_subdim", "PROJ-CONV-G73", "pool_dim is X (2), XY (3), XYZ (4) or XYZW (5)", fMpsDim);
constexpr Predicate kMpsChannels =
    channels_rule<Pl>("has_valid_active_channel_range", "num_active_channels is 1..128", fMpsChannels);
constexpr bool mps_index_dtype(uint8_t d) {
  return d == dtype::kUint8 || d == dtype::kUint16 || d == dtype::kUint32;
}
constexpr Predicate kMpsDtypeCheck =
    text_rule<Pl, [](const Pl& s, const CheckContext&) { return mps_index_dtype(s.out_dtype); },
              [](const Pl& s, const CheckContext& c) {
                return fmt::format("out_dtype {} is not UINT8, UINT16 or UINT32 (a window position)",
                                   dtype_label(s.out_dtype, c.gen));
              }>("s4d4_pl_dtype_check", "", "MAX_POOL_SELECT's out_dtype is UINT8, UINT16 or UINT32", fMpsDtypeCheck);
constexpr Predicate kMpsSrc = pattern_rule<Pl, &Pl::src, &Pl::in_dtype, false, "src">(
    "tensor4d_valid", "src readable in in_dtype, SBUF or PSUM", fMpsSrc);
constexpr Predicate kMpsDst = pattern_rule<Pl, &Pl::dst, &Pl::out_dtype, true, "dst">(
    "tensor4d_valid", "dst writable in out_dtype, SBUF or PSUM (PSUM with 4-byte dtypes)", fMpsDst);
constexpr Predicate kMpsScale =
    text_rule<Pl, [](const Pl& s, const CheckContext&) { return s.pool_scale.raw == 0x3F800000U; },
              [](const Pl& s, const CheckContext&) {
                return fmt::format(
                    "pool_scale {:#010x}: MAX_POOL_SELECT does not use it, so it must be 1.0 "
                    "(0x3f800000)",
                    s.pool_scale.raw);
              }>("s4d4_pool_scale_valid", "PROJ-CONV-G74", "pool_scale is 1.0 (MAX_POOL_SELECT does not use it)",
                 fMpsScale);

constexpr const Predicate* kMaxPoolSelect[] = {&kHasValidNeuronHeader,
                                               &kHasValidNeuronEvents,
                                               &kMpsOpcode,
                                               &kMpsReserved,
                                               &kMpsIn,
                                               &kMpsOut,
                                               &kMpsSrcStart,
                                               &kMpsDstStart,
                                               &kMpsType,
                                               &kMpsDim,
                                               &kMpsChannels,
                                               &kMpsDtypeCheck,
                                               &kMpsSrc,
                                               &kMpsDst,
                                               &kMpsScale};
constexpr Validator kMaxPoolSelectValidator = full_validator<kMaxPoolSelect>("is_valid_max_pool_select");

constexpr ValidatorRow kRows[] = {
    {publayout::kCopyPredicatedScalar, &kCopyPredicatedScalarValidator},
    {publayout::kSb2sbCollective, &kSb2sbCollectiveValidator},
    {publayout::kRegStore, &kRegStoreValidator},
    {publayout::kMaxPoolSelect, &kMaxPoolSelectValidator},
};
constexpr Validation kValidation = validator_table<PublicLayoutFamily, kRows>();

}  // namespace

const Validation& PublicLayoutFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
