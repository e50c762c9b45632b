// Predicated family validators on S3S3D3_TT: is_valid_tensor_tensor for TENSOR_TENSOR_BITVEC_OP (alu-ops.md §4.2,
// PROJ-CONV-K24) and is_valid_copy_cast_predicated for COPY_PREDICATED / CAST_PREDICATED (§4.3), in the spec's order.
#include "families/common.hpp"
#include "families/operand_rules.hpp"
#include "families/predicated/format.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;
using Tt = S3s3d3Tt;

constexpr FieldRef fOut[] = {field_ref<Tt>("out_dtype")};
constexpr FieldRef fPair[] = {field_ref<Tt>("in0_in1_dtype")};
constexpr FieldRef fOp[] = {field_ref<Tt>("op")};
constexpr FieldRef fOpTypes[] = {field_ref<Tt>("op"), field_ref<Tt>("in0_in1_dtype"), field_ref<Tt>("out_dtype")};
constexpr FieldRef fPairOut[] = {field_ref<Tt>("header.opcode"), field_ref<Tt>("in0_in1_dtype"),
                                 field_ref<Tt>("out_dtype")};
constexpr FieldRef fSrc0Channels[] = {field_ref<Tt>("src0.start_addr"), field_ref<Tt>("num_active_channels")};
constexpr FieldRef fSrc1Channels[] = {field_ref<Tt>("src1.start_addr"), field_ref<Tt>("num_active_channels")};
constexpr FieldRef fDstChannels[] = {field_ref<Tt>("dst.start_addr"), field_ref<Tt>("num_active_channels")};
constexpr FieldRef fSrc0Tensor[] = {field_ref<Tt>("src0.start_addr"), field_ref<Tt>("src0.num_elem"),
                                    field_ref<Tt>("in0_in1_dtype")};
constexpr FieldRef fSrc1Tensor[] = {field_ref<Tt>("src1.start_addr"), field_ref<Tt>("src1.num_elem"),
                                    field_ref<Tt>("in0_in1_dtype")};
constexpr FieldRef fDstTensor[] = {field_ref<Tt>("dst.start_addr"), field_ref<Tt>("dst.num_elem"),
                                   field_ref<Tt>("out_dtype")};
constexpr FieldRef fSrcCounts[] = {field_ref<Tt>("src0.start_addr"), field_ref<Tt>("src0.num_elem"),
                                   field_ref<Tt>("src1.start_addr"), field_ref<Tt>("src1.num_elem")};
constexpr FieldRef fDstCounts[] = {field_ref<Tt>("src0.start_addr"), field_ref<Tt>("src0.num_elem"),
                                   field_ref<Tt>("dst.start_addr"), field_ref<Tt>("dst.num_elem")};
constexpr FieldRef fChannels[] = {field_ref<Tt>("num_active_channels")};
constexpr FieldRef fPartitions[] = {field_ref<Tt>("src0.start_addr"), field_ref<Tt>("src1.start_addr")};

constexpr uint8_t lo_dtype(const Tt& x) {
  return datapath::pair_lo(x.in0_in1_dtype);
}
constexpr uint8_t hi_dtype(const Tt& x) {
  return datapath::pair_hi(x.in0_in1_dtype);
}
constexpr uint8_t out_dtype(const Tt& x) {
  return x.out_dtype;
}

constexpr bool is_signed_int(uint8_t d) {
  return d == dtype::kInt8 || d == dtype::kInt16 || d == dtype::kInt32 || d == dtype::kInt64;
}
constexpr bool is_unsigned_int(uint8_t d) {
  return d == dtype::kUint8 || d == dtype::kUint16 || d == dtype::kUint32 || d == dtype::kUint64;
}
/// is_valid_int_dtype_datapath (§2.10): the 8-, 16- and 32-bit integers.
constexpr bool is_int_dtype_datapath(uint8_t d) {
  return (is_signed_int(d) || is_unsigned_int(d)) && d != dtype::kInt64 && d != dtype::kUint64;
}

// ---- The conjuncts both validators share (the s3s3d3_tt operand checks) ----

constexpr Predicate kSrc0Start = start_rule<Tt, &Tt::src0, "src0">(
    "src0: a register start, or partition + num_active_channels <= 128", fSrc0Channels);
constexpr Predicate kSrc1Start = start_rule<Tt, &Tt::src1, "src1">(
    "src1: a register start, or partition + num_active_channels <= 128", fSrc1Channels);
constexpr Predicate kDstStart =
    start_rule<Tt, &Tt::dst, "dst">("dst: a register start, or partition + num_active_channels <= 128", fDstChannels);

constexpr Predicate kSrc0Tensor = pattern_rule<Tt, &Tt::src0, lo_dtype, false, "src0">(
    "tensor3d_valid", "src0 readable in the low-nibble dtype (TENSOR3D bytes on every generation, PROJ-CONV-K3)",
    fSrc0Tensor, indirect_arm_convention<Tt, &Tt::src0>);
constexpr Predicate kSrc1Tensor = pattern_rule<Tt, &Tt::src1, hi_dtype, false, "src1">(
    "tensor3d_valid", "src1 readable in the high-nibble dtype (TENSOR3D bytes on every generation, PROJ-CONV-K3)",
    fSrc1Tensor, indirect_arm_convention<Tt, &Tt::src1>);
constexpr Predicate kDstTensor = pattern_rule<Tt, &Tt::dst, out_dtype, true, "dst">(
    "tensor3d_valid", "dst writable in out_dtype; PSUM only with 4-byte dtypes (TENSOR3D bytes, PROJ-CONV-K3)",
    fDstTensor, indirect_arm_convention<Tt, &Tt::dst>);

constexpr Predicate kSrcCount = count_rule<Tt, &Tt::src0, &Tt::src1, "src0", "src1", kPartitionWording, false>(
    "s3s3d3_tt_src_element_cnt_check", "",
    "src0 and src1 have the same element count (skipped for a register shape, CAYMAN+)", fSrcCounts);
constexpr Predicate kDstCount = count_rule<Tt, &Tt::src0, &Tt::dst, "src0", "dst", kPartitionWording, false>(
    "s3s3d3_tt_dst_element_cnt_check", "",
    "src0 and dst have the same element count (skipped for a register shape, CAYMAN+)", fDstCounts);

constexpr Predicate kChannels = channels_rule<Tt>("check_active_channels", "num_active_channels is 1..128", fChannels);

/// tt_valid_partitions (common-formats.md §10.9): a register start, one PSUM and one SBUF source, or two SBUF sources
/// in one quadrant-base partition (0, 32, 64 or 96: the literal reading, PROJ-CONV-C17); never two PSUM sources.
bool partitions_ok(const Tt& x, const CheckContext& c) {
  const Addr4Meaning a = describe(x.src0.start_addr, c.gen), b = describe(x.src1.start_addr, c.gen);
  if (a.from_register || b.from_register) return true;
  const Region ra = a.target.region, rb = b.target.region;
  if ((ra == Region::Psum && rb == Region::Sbuf) || (ra == Region::Sbuf && rb == Region::Psum)) return true;
  return ra == Region::Sbuf && rb == Region::Sbuf && a.target.partition == b.target.partition &&
         a.target.partition % 32 == 0;
}
constexpr Predicate kPartitions = rule<Tt, partitions_ok>(
    {.name = "tt_valid_partitions",
     .convention = "",
     .meaning = "src0/src1: a register start, one PSUM and one SBUF operand, or two SBUF operands in the same "
                "quadrant-base partition (PROJ-CONV-C17); never two PSUM operands",
     .gens = kGensAll,
     .fields = fPartitions,
     .explain = explain_on_body<
         Tt,
         [](const Tt& x, const CheckContext& c) {
           return fmt::format(
               "src0 {} and src1 {}: two PSUM operands, an operand outside SBUF/PSUM, or two SBUF operands "
               "not in one quadrant-base partition",
               addr4_label(x.src0.start_addr, c.gen), addr4_label(x.src1.start_addr, c.gen));
         }>,
     .via = nullptr,
     // Two SBUF operands fail by the literal quadrant-base reading.
     .failure_convention = [](const Instruction& i, const CheckContext& c) -> std::string_view {
       const S3s3d3Tt& x = body<S3s3d3Tt>(i);
       const bool sbuf = describe(x.src0.start_addr, c.gen).target.region == Region::Sbuf &&
                         describe(x.src1.start_addr, c.gen).target.region == Region::Sbuf;
       return sbuf ? "PROJ-CONV-C17" : "";
     }});

// ---- TENSOR_TENSOR_BITVEC_OP 0x51 (§4.2, PROJ-CONV-K24) ----

constexpr Predicate kTtOpcode = opcode_clause<Tt, opcode::kTensorTensorArith, predicated::kTensorTensorBitvec>(
    "has_tensor_tensor_opcode", "PROJ-CONV-K24", "the opcode is 0x41 or 0x51 (name ours, PROJ-CONV-K24)");

constexpr Predicate kTtOut =
    dtype_rule<Tt, out_dtype, true, "out_dtype", true>("is_valid_dtype_64(out_dtype, FP32R, UINT64, INT64)", fOut);
constexpr Predicate kTtLo = dtype_rule<Tt, lo_dtype, false, "src0 dtype (low nibble)", true>(
    "is_valid_dtype_64(low nibble of in0_in1_dtype, no FP32R, UINT64, INT64)", fPair);
constexpr Predicate kTtHi = dtype_rule<Tt, hi_dtype, false, "src1 dtype (high nibble)", true>(
    "is_valid_dtype_64(high nibble of in0_in1_dtype, no FP32R, UINT64, INT64)", fPair);

constexpr Predicate kAluEnum = aluop_rule<Tt>(fOp);

constexpr Predicate kTtValidOp =
    rule<Tt,
         [](const Tt& x, const CheckContext& c) { return aluop_is(x.op, kAluBitvec, c.gen) && x.op != aluop::kCrc32; }>(
        {.name = "s3s3d3_tt_valid_op",
         .convention = "",
         .meaning = "op is is_general_bitvec_op (a bit-vector op other than CRC32)",
         .gens = kGensAll,
         .fields = fOp,
         .explain = explain_on_body<Tt, [](const Tt& x, const CheckContext& c) {
           return fmt::format("op {} is not a general bit-vector op", aluop_label(x.op, c.gen));
         }>});

constexpr Predicate kTtDtype =
    rule<Tt,
         [](const Tt& x, const CheckContext&) { return is_signed_int(x.out_dtype) || is_unsigned_int(x.out_dtype); }>(
        {.name = "s3s3d3_tt_dtype",
         .convention = "",
         .meaning = "out_dtype is an integer (is_valid_int_dtype: 8 to 64 bits, signed or unsigned)",
         .gens = kGensAll,
         .fields = fOut,
         .explain = explain_on_body<Tt, [](const Tt& x, const CheckContext& c) {
           return fmt::format("out_dtype {} is not an integer dtype", dtype_label(x.out_dtype, c.gen));
         }>});

constexpr Predicate kTtSrcDstDtype =
    rule<Tt,
         [](const Tt& x, const CheckContext&) {
           const uint8_t lo = lo_dtype(x), hi = hi_dtype(x);
           return (lo == x.out_dtype && hi == x.out_dtype) ||
                  (predicated::is_shift_op(x.op) && (lo == dtype::kInt64 || lo == dtype::kUint64) &&
                   hi == dtype::kUint32);
         }>({.name = "s3s3d3_tt_src_dst_dtype",
             .convention = "",
             .meaning = "both source dtypes equal out_dtype, or a shift of a 64-bit src0 by a UINT32 src1",
             .gens = kGensAll,
             .fields = fOpTypes,
             .explain = explain_on_body<Tt, [](const Tt& x, const CheckContext& c) {
               return fmt::format(
                   "src0 {}, src1 {}, out {} with op {}: the three must be equal, or a 64-bit src0 shifted "
                   "by a UINT32 src1",
                   dtype_label(lo_dtype(x), c.gen), dtype_label(hi_dtype(x), c.gen), dtype_label(x.out_dtype, c.gen),
                   aluop_label(x.op, c.gen));
             }>});

/// s3s3d3_tt_valid_int_signness: an integer-band op needs src0, src1 and out all signed or all unsigned integers, of
/// a signedness the op allows; vacuous for every other op (so for every op 0x51 accepts).
constexpr Predicate kTtSignness =
    rule<Tt,
         [](const Tt& x, const CheckContext& c) {
           if (!aluop_is(x.op, kAluInt, c.gen)) return true;
           const uint8_t d[] = {lo_dtype(x), hi_dtype(x), x.out_dtype};
           const bool all_signed = is_signed_int(d[0]) && is_signed_int(d[1]) && is_signed_int(d[2]);
           const bool all_unsigned = is_unsigned_int(d[0]) && is_unsigned_int(d[1]) && is_unsigned_int(d[2]);
           return (aluop_is(x.op, kAluSigned, c.gen) && all_signed) ||
                  (aluop_is(x.op, kAluUnsigned, c.gen) && all_unsigned);
         }>({.name = "s3s3d3_tt_valid_int_signness",
             .convention = "",
             .meaning =
                 "an integer ALU op needs src0, src1 and out of one integer signedness the op allows (vacuous for the "
                 "bit-vector ops)",
             .gens = kGensAll,
             .fields = fOpTypes,
             .explain = explain_on_body<Tt, [](const Tt& x, const CheckContext& c) {
               return fmt::format("integer op {} needs src0, src1 and out of one signedness it allows",
                                  aluop_label(x.op, c.gen));
             }>});

constexpr const Predicate* kTensorTensorBitvec[] = {&kHasValidNeuronHeader,
                                                    &kHasValidNeuronEvents,
                                                    &kTtOpcode,
                                                    &kTtOut,
                                                    &kTtLo,
                                                    &kTtHi,
                                                    &kAluEnum,
                                                    &kTtValidOp,
                                                    &kTtDtype,
                                                    &kTtSrcDstDtype,
                                                    &kTtSignness,
                                                    &kSrc0Start,
                                                    &kSrc1Start,
                                                    &kDstStart,
                                                    &kSrc0Tensor,
                                                    &kSrc1Tensor,
                                                    &kDstTensor,
                                                    &kSrcCount,
                                                    &kDstCount,
                                                    &kChannels,
                                                    &kPartitions};

// ---- COPY_PREDICATED 0x72 / CAST_PREDICATED 0x99 (§4.3) ----

constexpr Predicate kCpOpcode = opcode_clause<Tt, predicated::kCopyPredicated, predicated::kCastPredicated>(
    "has_copy_cast_predicated_opcode", "", "the opcode is COPY_PREDICATED (0x72) or CAST_PREDICATED (0x99)");

constexpr Predicate kCpOut =
    dtype_rule<Tt, out_dtype, false, "out_dtype", false>("is_valid_dtype(out_dtype, FP32R not allowed)", fOut);
constexpr Predicate kCpLo = dtype_rule<Tt, lo_dtype, false, "predicate dtype (low nibble)", false>(
    "is_valid_dtype(low nibble of in0_in1_dtype, FP32R not allowed)", fPair);
constexpr Predicate kCpHi = dtype_rule<Tt, hi_dtype, false, "data dtype (high nibble)", false>(
    "is_valid_dtype(high nibble of in0_in1_dtype, FP32R not allowed)", fPair);

constexpr Predicate kCpPredDtype =
    rule<Tt, [](const Tt& x, const CheckContext&) { return is_int_dtype_datapath(lo_dtype(x)); }>(
        {.name = "s3s3d3_copy_pred_src0_dtype",
         .convention = "",
         .meaning = "the predicate (src0, low nibble) is an 8-, 16- or 32-bit integer (is_valid_int_dtype_datapath)",
         .gens = kGensAll,
         .fields = fPair,
         .explain = explain_on_body<Tt, [](const Tt& x, const CheckContext& c) {
           return fmt::format("predicate dtype {} is not an 8-, 16- or 32-bit integer",
                              dtype_label(lo_dtype(x), c.gen));
         }>});

constexpr Predicate kCpDataDtype =
    rule<Tt,
         [](const Tt& x, const CheckContext&) {
           return x.header.opcode == predicated::kCastPredicated || hi_dtype(x) == x.out_dtype;
         }>({.name = "s3s3d3_copy_cast_pred_src1_dst_dtype",
             .convention = "",
             .meaning = "CAST_PREDICATED, or the data dtype (high nibble) equals out_dtype",
             .gens = kGensAll,
             .fields = fPairOut,
             .explain = explain_on_body<Tt, [](const Tt& x, const CheckContext& c) {
               return fmt::format("COPY_PREDICATED moves bits: data dtype {} differs from out_dtype {}",
                                  dtype_label(hi_dtype(x), c.gen), dtype_label(x.out_dtype, c.gen));
             }>});

constexpr Predicate kCpBypass =
    byte_rule<Tt, &Tt::op, [](uint8_t v) { return v == aluop::kBypass; }, "op", "BYPASS (0x00)">(
        "s3s3d3_tt_is_zero_op", "op is BYPASS (0)", fOp);

constexpr const Predicate* kCopyCastPredicated[] = {&kHasValidNeuronHeader,
                                                    &kHasValidNeuronEvents,
                                                    &kCpOpcode,
                                                    &kCpOut,
                                                    &kCpLo,
                                                    &kCpHi,
                                                    &kCpPredDtype,
                                                    &kCpDataDtype,
                                                    &kCpBypass,
                                                    &kChannels,
                                                    &kSrc0Start,
                                                    &kSrc1Start,
                                                    &kDstStart,
                                                    &kSrc0Tensor,
                                                    &kSrc1Tensor,
                                                    &kDstTensor,
                                                    &kSrcCount,
                                                    &kDstCount,
                                                    &kPartitions};

constexpr Validator kTensorTensorBitvecValidator = full_validator<kTensorTensorBitvec>("is_valid_tensor_tensor");
constexpr Validator kCopyCastPredicatedValidator = full_validator<kCopyCastPredicated>("is_valid_copy_cast_predicated");

constexpr ValidatorRow kRows[] = {
    {predicated::kTensorTensorBitvec, &kTensorTensorBitvecValidator},
    {predicated::kCopyPredicated, &kCopyCastPredicatedValidator},
    {predicated::kCastPredicated, &kCopyCastPredicatedValidator},
};
constexpr Validation kValidation = validator_table<PredicatedFamily, kRows>();

}  // namespace

const Validation& PredicatedFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
