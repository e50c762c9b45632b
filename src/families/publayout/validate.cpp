// Public-layout family validators: is_valid_copy_predicated_scalar on S3D3_CP_PRED_SCALAR (copypredicatedscalar.md
// §6, §8-§10), its conjuncts in the header's order; the names the wiki does not give are ours (PROJ-CONV-PU1).
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

constexpr ValidatorRow kRows[] = {
    {publayout::kCopyPredicatedScalar, &kCopyPredicatedScalarValidator},
};
constexpr Validation kValidation = validator_table<PublicLayoutFamily, kRows>();

}  // namespace

const Validation& PublicLayoutFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
