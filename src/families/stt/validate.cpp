// Scalar-tensor-tensor family validators: is_valid_scalar_tensor_tensor (alu-ops.md §6.2, PROJ-CONV-K14),
// is_valid_tensor_tensor_scan (§6.3), is_valid_select_reduce (§6.4) and is_valid_tensor_scalar_select (§6.5, K15).
#include "families/common.hpp"
#include "families/operand_rules.hpp"
#include "families/stt/format.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;

using Stt = S2s2d2Stt;
using Sel = S3d3TsSelect;
using stt::pair_hi;
using stt::pair_lo;

// ---- Fields read, by name ----

constexpr FieldRef fSttPair[] = {field_ref<Stt>("in0_in1_dtype")};
constexpr FieldRef fSttOut[] = {field_ref<Stt>("out_dtype")};
constexpr FieldRef fSttImmDtype[] = {field_ref<Stt>("imm0_dtype")};
constexpr FieldRef fSttTypes[] = {field_ref<Stt>("header.opcode"), field_ref<Stt>("in0_in1_dtype"),
                                  field_ref<Stt>("imm0_dtype"), field_ref<Stt>("out_dtype")};
constexpr FieldRef fSttImm0Dtype[] = {field_ref<Stt>("header.opcode"), field_ref<Stt>("imm0_src"),
                                      field_ref<Stt>("imm0_dtype")};
constexpr FieldRef fSttOp0[] = {field_ref<Stt>("op0")};
constexpr FieldRef fSttOp1[] = {field_ref<Stt>("op1")};
constexpr FieldRef fSttOps[] = {field_ref<Stt>("header.opcode"), field_ref<Stt>("op0"), field_ref<Stt>("op1")};
constexpr FieldRef fSttImm[] = {field_ref<Stt>("imm0_src"), field_ref<Stt>("imm0"), field_ref<Stt>("imm0_dtype"),
                                field_ref<Stt>("num_active_channels")};
constexpr FieldRef fSttSrc0Channels[] = {field_ref<Stt>("src0.start_addr"), field_ref<Stt>("num_active_channels")};
constexpr FieldRef fSttSrc1Channels[] = {field_ref<Stt>("src1.start_addr"), field_ref<Stt>("num_active_channels")};
constexpr FieldRef fSttDstChannels[] = {field_ref<Stt>("dst.start_addr"), field_ref<Stt>("num_active_channels")};
constexpr FieldRef fSttSrc0Tensor[] = {field_ref<Stt>("src0.start_addr"), field_ref<Stt>("src0.num_elem"),
                                       field_ref<Stt>("in0_in1_dtype")};
constexpr FieldRef fSttSrc1Tensor[] = {field_ref<Stt>("src1.start_addr"), field_ref<Stt>("src1.num_elem"),
                                       field_ref<Stt>("in0_in1_dtype")};
constexpr FieldRef fSttDstTensor[] = {field_ref<Stt>("dst.start_addr"), field_ref<Stt>("dst.num_elem"),
                                      field_ref<Stt>("out_dtype")};
constexpr FieldRef fSttChannels[] = {field_ref<Stt>("num_active_channels")};
constexpr FieldRef fSttSrcCount[] = {field_ref<Stt>("src0.start_addr"), field_ref<Stt>("src0.num_elem"),
                                     field_ref<Stt>("src1.start_addr"), field_ref<Stt>("src1.num_elem")};
constexpr FieldRef fSttDstCount[] = {field_ref<Stt>("src0.start_addr"), field_ref<Stt>("src0.num_elem"),
                                     field_ref<Stt>("dst.start_addr"), field_ref<Stt>("dst.num_elem")};
constexpr FieldRef fSttPartitions[] = {field_ref<Stt>("src0.start_addr"), field_ref<Stt>("src1.start_addr")};
constexpr FieldRef fSttAccum[] = {field_ref<Stt>("header.opcode"), field_ref<Stt>("accumulator_cmd")};
constexpr FieldRef fSttRev[] = {field_ref<Stt>("reverse_operands")};
constexpr auto fSttReserved = field_refs_with_role<Stt, Role::Reserved>();
constexpr FieldRef fSttQuadrant[] = {field_ref<Stt>("imm0_src"), field_ref<Stt>("imm0"),
                                     field_ref<Stt>("src0.start_addr")};

constexpr auto fSelReserved = field_refs_with_role<Sel, Role::Reserved>();
constexpr FieldRef fSelDtype[] = {field_ref<Sel>("dtype")};
constexpr FieldRef fSelPredDtype[] = {field_ref<Sel>("pred_imm_dtype")};
constexpr FieldRef fSelWidths[] = {field_ref<Sel>("pred_imm_dtype"), field_ref<Sel>("dtype")};
constexpr FieldRef fSelReversed[] = {field_ref<Sel>("reversed_pred")};
constexpr FieldRef fSelSrc1Src[] = {field_ref<Sel>("src1_imm_src")};
constexpr FieldRef fSelPredSrc[] = {field_ref<Sel>("pred_imm_src")};
constexpr FieldRef fSelSrc1Imm[] = {field_ref<Sel>("src1_imm_src"), field_ref<Sel>("src1_imm"), field_ref<Sel>("dtype"),
                                    field_ref<Sel>("num_active_channels")};
constexpr FieldRef fSelPredImm[] = {field_ref<Sel>("pred_imm_src"), field_ref<Sel>("pred_imm"),
                                    field_ref<Sel>("pred_imm_dtype"), field_ref<Sel>("num_active_channels")};
constexpr FieldRef fSelPredValue[] = {field_ref<Sel>("pred_imm_src"), field_ref<Sel>("pred_imm")};
constexpr FieldRef fSelChannels[] = {field_ref<Sel>("num_active_channels")};
constexpr FieldRef fSelChannelsTile[] = {field_ref<Sel>("num_active_channels"),
                                         renamed(field_ref<Sel>("header.debug_hint"), "header.inst_flags")};
constexpr FieldRef fSelSrcChannels[] = {field_ref<Sel>("src0.start_addr"), field_ref<Sel>("num_active_channels")};
constexpr FieldRef fSelDstChannels[] = {field_ref<Sel>("dst.start_addr"), field_ref<Sel>("num_active_channels")};
constexpr FieldRef fSelSrcTensor[] = {field_ref<Sel>("src0.start_addr"), field_ref<Sel>("src0.num_elem"),
                                      field_ref<Sel>("dtype")};
constexpr FieldRef fSelDstTensor[] = {field_ref<Sel>("dst.start_addr"), field_ref<Sel>("dst.num_elem"),
                                      field_ref<Sel>("dtype")};
constexpr FieldRef fSelCount[] = {field_ref<Sel>("src0.start_addr"), field_ref<Sel>("src0.num_elem"),
                                  field_ref<Sel>("dst.start_addr"), field_ref<Sel>("dst.num_elem")};

// ---- Shared bodies (alu-ops.md §2.10, common-formats.md §7.2, §10) ----

/// is_valid_int_dtype_datapath: the 8/16/32-bit integers.
constexpr bool int_dtype_datapath(uint8_t d) {
  return d == dtype::kInt8 || d == dtype::kInt16 || d == dtype::kInt32 || d == dtype::kUint8 || d == dtype::kUint16 ||
         d == dtype::kUint32;
}

/// is_general_arith_op (SYMMETRIC_CLAMP on MAVERICK only under the PROJ-CONV-T11 option).
constexpr bool general_arith(uint8_t op, const CheckContext& c) {
  if (op == aluop::kSymmetricClamp && !c.options.symmetric_clamp_general_arith) return false;
  return aluop_is(op, kAluGeneralArith, c.gen);
}
/// is_general_bitvec_op: is_bitvec_op without CRC32 (enums.md §5.1).
constexpr bool general_bitvec(uint8_t op, const CheckContext& c) {
  return op != aluop::kCrc32 && aluop_is(op, kAluBitvec, c.gen);
}

/// has_valid_immediates(imm, src, nac, dtype) (common-formats.md §7.2, PROJ-CONV-S4); a source outside the enum is
/// true here, is_valid_enum reports it (PROJ-CONV-K15).
constexpr bool valid_immediate(const ImmVal& imm, uint8_t src, unsigned nac, uint8_t d, Generation g) {
  return src > imm_src::kRegPointer || immediates_ok(imm.raw, src, nac, d, g);
}

/// tt_valid_partitions(src0, src1) (common-formats.md §10.9, PROJ-CONV-C17): a register start, one PSUM and one SBUF
/// operand, or two SBUF operands in the same quadrant-base partition; never two PSUM operands.
bool tt_valid_partitions(const Addr4& a0, const Addr4& a1, Generation g) {
  if (a0.from_register() || a1.from_register()) return true;
  const PartitionAddress p0 = decode_partition_offset(a0.masked(), g);
  const PartitionAddress p1 = decode_partition_offset(a1.masked(), g);
  if ((p0.region == Region::Psum && p1.region == Region::Sbuf) ||
      (p0.region == Region::Sbuf && p1.region == Region::Psum))
    return true;
  return p0.region == Region::Sbuf && p1.region == Region::Sbuf && p0.partition == p1.partition &&
         p0.partition % 32 == 0 && p0.partition < 128;
}

// ---- Explanations ----

std::string explain_immediate(std::string_view which, const ImmVal& imm, uint8_t src, unsigned nac, uint8_t d,
                              const CheckContext& c) {
  if (src == stt::kImmRegPointer)
    return fmt::format(
        "{} {:#010x} names register {} with reserved bytes {:#08x}: must be r0..r63 with zero reserved "
        "bytes (PROJ-CONV-S4)",
        which, imm.raw, imm.regnum(), imm.reg_reserved());
  return fmt::format("{} pointer {}: {} active channels from its partition must fit, and it must be aligned for {}",
                     which, to_string(decode_partition_offset(imm.raw & 0x1FFFFFFFU, c.gen)), nac,
                     dtype_label(d, c.gen));
}

// ---- Shared predicate shapes ----

/// is_valid_enum(AluOp) of the op at Op.
template <auto Op>
bool aluop_ok(const Stt& x, const CheckContext& c) {
  return aluop_in(x.*Op, c.gen);
}
template <auto Op, Name Which>
std::string aluop_text(const Stt& x, const CheckContext& c) {
  return fmt::format("{} {} is not in the ALU_OP enum of {}", std::string_view{Which}, aluop_label(x.*Op, c.gen),
                     to_string(c.gen));
}
template <auto Op, Name Which>
constexpr Predicate aluop_rule(std::string_view meaning, std::span<const FieldRef> fields) {
  return rule<Stt, aluop_ok<Op>>({.name = "is_valid_enum(AluOp)",
                                  .convention = "",
                                  .meaning = meaning,
                                  .gens = kGensAll,
                                  .fields = fields,
                                  .explain = explain_on_body<Stt, aluop_text<Op, Which>>});
}

// ---- S2S2D2_STT (alu-ops.md §6.1-§6.4) ----

constexpr uint8_t stt_lo(const Stt& x) {
  return pair_lo(x.in0_in1_dtype);
}
constexpr uint8_t stt_hi(const Stt& x) {
  return pair_hi(x.in0_in1_dtype);
}
constexpr uint8_t stt_out(const Stt& x) {
  return x.out_dtype;
}
constexpr uint8_t stt_imm(const Stt& x) {
  return x.imm0_dtype;
}
constexpr bool is_bitvec(const Stt& x) {
  return x.header.opcode == stt::kSttBitvec;
}

constexpr Predicate kSttOpcode = opcode_clause<Stt, stt::kSttArith, stt::kSttBitvec>(
    "has_scalar_tensor_tensor_opcode", "",
    "the opcode is SCALAR_TENSOR_TENSOR_ARITH (0x9D) or _BITVEC (0x9E) "
    "(a name of ours: not recovered from the header)");
constexpr Predicate kScanOpcode = opcode_clause<Stt, stt::kScan>("has_tensor_tensor_scan_opcode", "",
                                                                 "the opcode is TENSOR_TENSOR_SCAN_ARITH (0xE5)");
constexpr Predicate kSelectReduceOpcode =
    opcode_clause<Stt, stt::kSelectReduce>("has_select_reduce_opcode", "", "the opcode is SELECT_REDUCE (0xEA)");

constexpr Predicate kSttLoDtype = dtype_rule<Stt, stt_lo, false, "src0 dtype (low nibble)">(
    "is_valid_dtype(src0 dtype = low nibble of in0_in1_dtype, FP32R not allowed)", fSttPair);
constexpr Predicate kSttHiDtype = dtype_rule<Stt, stt_hi, false, "src1 dtype (high nibble)">(
    "is_valid_dtype(src1 dtype = high nibble of in0_in1_dtype, FP32R not allowed)", fSttPair);
constexpr Predicate kSttImmDtype =
    dtype_rule<Stt, stt_imm, false, "imm0_dtype">("is_valid_dtype(imm0_dtype, FP32R not allowed)", fSttImmDtype);
constexpr Predicate kSttOutDtype =
    dtype_rule<Stt, stt_out, true, "out_dtype">("is_valid_dtype(out_dtype, FP32R allowed)", fSttOut);

std::string explain_stt_types(const Stt& x, const CheckContext& c) {
  return fmt::format("src0 {}, src1 {}, imm0_dtype {}, out {}", dtype_label(stt_lo(x), c.gen),
                     dtype_label(stt_hi(x), c.gen), dtype_label(x.imm0_dtype, c.gen), dtype_label(x.out_dtype, c.gen));
}

constexpr Predicate kSttDtypes =
    rule<Stt,
         [](const Stt& x, const CheckContext&) {
           return !is_bitvec(x) || (int_dtype_datapath(stt_lo(x)) && int_dtype_datapath(stt_hi(x)) &&
                                    int_dtype_datapath(x.imm0_dtype) && int_dtype_datapath(x.out_dtype));
         }>({.name = "has_valid_scalar_tensor_tensor_dtypes",
             .convention = "",
             .meaning = "_BITVEC (0x9E): src0, src1, imm0_dtype and out_dtype are 8/16/32-bit integers "
                        "(is_valid_int_dtype_datapath); _ARITH: any",
             .gens = kGensAll,
             .fields = fSttTypes,
             .explain = explain_on_body<Stt, [](const Stt& x, const CheckContext& c) {
               return "bit-vector dtypes must all be 8/16/32-bit integers: " + explain_stt_types(x, c);
             }>});

constexpr Predicate kSttSrcDstDtype =
    rule<Stt,
         [](const Stt& x, const CheckContext&) {
           return !is_bitvec(x) ||
                  (stt_lo(x) == x.out_dtype && stt_hi(x) == x.out_dtype && x.imm0_dtype == x.out_dtype);
         }>({.name = "s2s2d2_stt_src_dst_dtype",
             .convention = "",
             .meaning = "_BITVEC (0x9E): src0, src1 and imm0_dtype equal out_dtype; _ARITH: any",
             .gens = kGensAll,
             .fields = fSttTypes,
             .explain = explain_on_body<Stt, [](const Stt& x, const CheckContext& c) {
               return "bit-vector dtypes must all equal out_dtype: " + explain_stt_types(x, c);
             }>});

constexpr Predicate kSttImm0Dtype = rule<Stt,
                                         [](const Stt& x, const CheckContext&) {
                                           return is_bitvec(x) || x.imm0_src == stt::kImmPointer ||
                                                  x.imm0_src == stt::kImmRegPointer || x.imm0_dtype == dtype::kFp32;
                                         }>(
    {.name = "s2s2d2_stt_imm0_dtype",
     .convention = "",
     .meaning = "an inline arithmetic scalar (imm0_src INSTRUCTION) is FP32: imm0_dtype == FP32 unless the opcode is "
                "the bit-vector 0x9E or the scalar comes from a pointer",
     .gens = kGensAll,
     .fields = fSttImm0Dtype,
     .explain = explain_on_body<Stt, [](const Stt& x, const CheckContext& c) {
       return fmt::format("an inline arithmetic scalar must be FP32, imm0_dtype is {}",
                          dtype_label(x.imm0_dtype, c.gen));
     }>});

constexpr Predicate kSttOp0Enum =
    aluop_rule<&Stt::op0, "op0">("op0 is a member of the generation's ALU_OP enum", fSttOp0);
constexpr Predicate kSttOp1Enum =
    aluop_rule<&Stt::op1, "op1">("op1 is a member of the generation's ALU_OP enum", fSttOp1);

std::string explain_ops(const Stt& x, const CheckContext& c, std::string_view need) {
  return fmt::format("op0 {}, op1 {}: {}", aluop_label(x.op0, c.gen), aluop_label(x.op1, c.gen), need);
}
std::string_view clamp_convention(const Instruction& i, const CheckContext& c) {
  const Stt& x = body<Stt>(i);
  return c.gen == Generation::Maverick && (x.op0 == aluop::kSymmetricClamp || x.op1 == aluop::kSymmetricClamp)
             ? "PROJ-CONV-T11"
             : "";
}

constexpr Predicate kSttValidOp = rule<Stt,
                                       [](const Stt& x, const CheckContext& c) {
                                         if (is_bitvec(x)) return general_bitvec(x.op0, c) && general_bitvec(x.op1, c);
                                         return general_arith(x.op0, c) && general_arith(x.op1, c);
                                       }>(
    {.name = "has_valid_scalar_tensor_tensor_op",
     .convention = "",
     .meaning = "_ARITH (0x9D): op0 and op1 are is_general_arith_op; _BITVEC (0x9E): both are is_general_bitvec_op "
                "(SYMMETRIC_CLAMP on MAVERICK: PROJ-CONV-T11)",
     .gens = kGensAll,
     .fields = fSttOps,
     .explain = explain_on_body<Stt,
                                [](const Stt& x, const CheckContext& c) {
                                  return explain_ops(x, c,
                                                     is_bitvec(x) ? "both must be general bit-vector ops (no CRC32)"
                                                                  : "both must be general arithmetic ops");
                                }>,
     .via = nullptr,
     .failure_convention = clamp_convention});

constexpr Predicate kScanValidOp =
    rule<Stt, [](const Stt& x, const CheckContext& c) { return general_arith(x.op0, c) && general_arith(x.op1, c); }>(
        {.name = "has_valid_tensor_tensor_scan_op",
         .convention = "",
         .meaning = "op0 and op1 are is_general_arith_op (SYMMETRIC_CLAMP on MAVERICK: PROJ-CONV-T11)",
         .gens = kGensAll,
         .fields = fSttOps,
         .explain = explain_on_body<Stt,
                                    [](const Stt& x, const CheckContext& c) {
                                      return explain_ops(x, c, "both must be general arithmetic ops");
                                    }>,
         .via = nullptr,
         .failure_convention = clamp_convention});

constexpr Predicate kSelectReduceValidOp =
    rule<Stt,
         [](const Stt& x, const CheckContext& c) {
           return general_arith(x.op0, c) && general_arith(x.op1, c) && x.op0 == aluop::kBypass && x.op1 == aluop::kMax;
         }>({.name = "has_valid_select_reduce_op",
             .convention = "",
             .meaning = "op0 is BYPASS and op1 is MAX (both is_general_arith_op)",
             .gens = kGensAll,
             .fields = fSttOps,
             .explain = explain_on_body<Stt, [](const Stt& x, const CheckContext& c) {
               return explain_ops(x, c, "must be BYPASS and MAX");
             }>});

constexpr Predicate kSelectReduceDtypes =
    rule<Stt,
         [](const Stt& x, const CheckContext&) {
           return int_dtype_datapath(stt_lo(x)) && stt_hi(x) != dtype::kInt32 && stt_hi(x) != dtype::kUint32;
         }>({.name = "has_valid_select_reduce_dtypes",
             .convention = "",
             .meaning =
                 "the predicate (src0, low nibble) is an 8/16/32-bit integer and the data (src1, high nibble) is "
                 "not INT32 or UINT32",
             .gens = kGensAll,
             .fields = fSttPair,
             .explain = explain_on_body<Stt, [](const Stt& x, const CheckContext& c) {
               return fmt::format("predicate {} must be an 8/16/32-bit integer, data {} must not be a 32-bit integer",
                                  dtype_label(stt_lo(x), c.gen), dtype_label(stt_hi(x), c.gen));
             }>});

constexpr Predicate kSttImmediate =
    rule<Stt,
         [](const Stt& x, const CheckContext& c) {
           return x.imm0_src <= stt::kImmRegPointer &&
                  valid_immediate(x.imm0, x.imm0_src, x.num_active_channels, x.imm0_dtype, c.gen);
         }>({.name = "has_valid_s2s2d2_stt_immediate",
             .convention = "PROJ-CONV-S4",
             .meaning =
                 "imm0_src INSTRUCTION; or POINTER with num_active_channels partitions from the pointer's and the "
                 "pointer aligned for imm0_dtype; or REG_PTR naming r0..r63 with zero reserved bytes (PROJ-CONV-S4)",
             .gens = kGensAll,
             .fields = fSttImm,
             .explain = explain_on_body<Stt, [](const Stt& x, const CheckContext& c) {
               if (!(x.imm0_src <= stt::kImmRegPointer))
                 return fmt::format("imm0_src {} is not an IMM_SRC value", x.imm0_src);
               return explain_immediate("imm0", x.imm0, x.imm0_src, x.num_active_channels, x.imm0_dtype, c);
             }>});

constexpr Predicate kSttSrc0Start = start_rule<Stt, &Stt::src0, "src0">(
    "src0: a register start, or partition + num_active_channels <= 128", fSttSrc0Channels);
constexpr Predicate kSttSrc1Start = start_rule<Stt, &Stt::src1, "src1">(
    "src1: a register start, or partition + num_active_channels <= 128", fSttSrc1Channels);
constexpr Predicate kSttDstStart = start_rule<Stt, &Stt::dst, "dst">(
    "dst: a register start, or partition + num_active_channels <= 128", fSttDstChannels);

constexpr Predicate kSttSrc0Tensor = pattern_rule<Stt, &Stt::src0, stt_lo, false, "src0">(
    "tensor2d_valid", "src0 readable in the low-nibble dtype (MARIANA+: judged by its TENSOR2D bytes, PROJ-CONV-K3)",
    fSttSrc0Tensor);
constexpr Predicate kSttSrc1Tensor = pattern_rule<Stt, &Stt::src1, stt_hi, false, "src1">(
    "tensor2d_valid", "src1 readable in the high-nibble dtype (MARIANA+: judged by its TENSOR2D bytes, PROJ-CONV-K3)",
    fSttSrc1Tensor);
constexpr Predicate kSttDstTensor = pattern_rule<Stt, &Stt::dst, stt_out, true, "dst">(
    "tensor2d_valid", "dst writable in out_dtype; PSUM only with 4-byte dtypes (PROJ-CONV-K3 on MARIANA+)",
    fSttDstTensor);

constexpr Predicate kSttChannels =
    rule<Stt,
         [](const Stt& x, const CheckContext& c) { return pred::check_active_channels(x.num_active_channels, c.gen); }>(
        {.name = "check_active_channels",
         .convention = "",
         .meaning = "num_active_channels is 1..128",
         .gens = kGensAll,
         .fields = fSttChannels,
         .explain = explain_on_body<Stt, [](const Stt& x, const CheckContext&) {
           return fmt::format("num_active_channels is {}, must be 1..128", x.num_active_channels);
         }>});

constexpr Predicate kSttSrcCount = count_rule<Stt, &Stt::src0, &Stt::src1, "src0", "src1">(
    "s2s2d2_stt_src_element_cnt_check", "",
    "src0 and src1 have the same element count (skipped when either shape comes from a register, CAYMAN+)",
    fSttSrcCount);
constexpr Predicate kSttDstCount = count_rule<Stt, &Stt::src0, &Stt::dst, "src0", "dst">(
    "s2s2d2_stt_dst_element_cnt_check", "",
    "src0 and dst have the same element count (skipped when either shape comes from a register, CAYMAN+)",
    fSttDstCount);

constexpr Predicate kSttPartitions =
    rule<Stt, [](const Stt& x,
                 const CheckContext& c) { return tt_valid_partitions(x.src0.start_addr, x.src1.start_addr, c.gen); }>(
        {.name = "tt_valid_partitions",
         .convention = "PROJ-CONV-C17",
         .meaning = "src0/src1: a register start, one PSUM and one SBUF operand, or two SBUF operands in the same "
                    "quadrant-base partition (PROJ-CONV-C17); never two PSUM operands",
         .gens = kGensAll,
         .fields = fSttPartitions,
         .explain = explain_on_body<Stt, [](const Stt& x, const CheckContext& c) {
           return fmt::format(
               "src0 {} and src1 {}: two PSUM operands, an operand outside SBUF/PSUM, or two SBUF "
               "operands not in one quadrant-base partition",
               addr4_label(x.src0.start_addr, c.gen), addr4_label(x.src1.start_addr, c.gen));
         }>});

/// ACCUMULATE or ZERO_ACCUMULATE, or IDLE.
constexpr bool accumulating_cmd(uint8_t cmd) {
  return cmd == stt::kAccIdle || cmd == stt::kAccAccumulate || cmd == stt::kAccZeroAccumulate;
}
std::string explain_accum(const Stt& x, std::string_view allowed) {
  return fmt::format("accumulator_cmd is {}, must be {}", x.accumulator_cmd, allowed);
}

constexpr Predicate kSttAccum =
    rule<Stt,
         [](const Stt& x, const CheckContext&) {
           return is_bitvec(x) ? x.accumulator_cmd == stt::kAccIdle : accumulating_cmd(x.accumulator_cmd);
         }>({.name = "has_valid_s2s2d2_stt_accum_cmd",
             .convention = "",
             .meaning = "_BITVEC (0x9E): accumulator_cmd is IDLE; _ARITH (0x9D): IDLE, ACCUMULATE or ZERO_ACCUMULATE",
             .gens = kGensAll,
             .fields = fSttAccum,
             .explain = explain_on_body<Stt, [](const Stt& x, const CheckContext&) {
               return explain_accum(x, is_bitvec(x) ? "IDLE (0)" : "IDLE (0), ACCUMULATE (2) or ZERO_ACCUMULATE (3)");
             }>});

constexpr Predicate kScanAccum =
    rule<Stt, [](const Stt& x, const CheckContext&) { return x.accumulator_cmd == stt::kAccIdle; }>(
        {.name = "has_zero_accum_cmd",
         .convention = "",
         .meaning = "accumulator_cmd is IDLE",
         .gens = kGensAll,
         .fields = fSttAccum,
         .explain =
             explain_on_body<Stt, [](const Stt& x, const CheckContext&) { return explain_accum(x, "IDLE (0)"); }>});

constexpr Predicate kSelectReduceAccum =
    rule<Stt, [](const Stt& x, const CheckContext&) { return accumulating_cmd(x.accumulator_cmd); }>(
        {.name = "has_valid_s2s2d2_cpr_accum_cmd",
         .convention = "",
         .meaning = "accumulator_cmd is IDLE, ACCUMULATE or ZERO_ACCUMULATE",
         .gens = kGensAll,
         .fields = fSttAccum,
         .explain = explain_on_body<Stt, [](const Stt& x, const CheckContext&) {
           return explain_accum(x, "IDLE (0), ACCUMULATE (2) or ZERO_ACCUMULATE (3)");
         }>});

constexpr Predicate kSttRevEnum = rule<Stt, [](const Stt& x, const CheckContext&) { return x.reverse_operands <= 3; }>(
    {.name = "is_valid_enum(TensScalarRevOps)",
     .convention = "",
     .meaning = "reverse_operands is a TENS_SCALAR_REV_OPS value (NONE, FIRST, SECOND, BOTH)",
     .gens = kGensAll,
     .fields = fSttRev,
     .explain = explain_on_body<Stt, [](const Stt& x, const CheckContext&) {
       return fmt::format("reverse_operands {} is not a TENS_SCALAR_REV_OPS value (0..3)", x.reverse_operands);
     }>});

constexpr Predicate kSttReserved =
    reserved_rule<Stt, fSttReserved>({.name = "has_s2s2d2_stt_reserved_zero",
                                      .convention = "",
                                      .meaning = "the reserved bytes 45..47 are zero",
                                      .gens = kGensAll,
                                      .explain = [](const Instruction& i, const CheckContext&) {
                                        return explain_reserved_bytes(encode(i), fSttReserved);
                                      }});

/// PROJ-CONV-K14: false only for a pointer scalar in another 32-partition quadrant than an immediate SBUF src0.
bool quadrant_ok(const Stt& x, const CheckContext& c) {
  if (x.imm0_src != stt::kImmPointer || x.src0.start_addr.from_register()) return true;
  const PartitionAddress s = decode_partition_offset(x.src0.start_addr.masked(), c.gen);
  const PartitionAddress p = decode_partition_offset(x.imm0.raw & 0x1FFFFFFFU, c.gen);
  if (s.region != Region::Sbuf || p.region == Region::Outside) return true;
  return s.partition / 32 == p.partition / 32;
}

constexpr Predicate kSttQuadrant = rule<Stt, quadrant_ok>(
    {.name = "s2s2d2_stt_quadrant_check",
     .convention = "PROJ-CONV-K14",
     .meaning =
         "the erratum gate (body not public; PROJ-CONV-K14): a pointer scalar (imm0_src POINTER) lies in the same "
         "32-partition quadrant as an immediate SBUF src0",
     .gens = kGensAll,
     .fields = fSttQuadrant,
     .explain = explain_on_body<Stt, [](const Stt& x, const CheckContext& c) {
       return fmt::format("imm0 pointer {} and src0 {} lie in different 32-partition quadrants (PROJ-CONV-K14)",
                          to_string(decode_partition_offset(x.imm0.raw & 0x1FFFFFFFU, c.gen)),
                          addr4_label(x.src0.start_addr, c.gen));
     }>});

constexpr Predicate kSelectReduceRev =
    rule<Stt, [](const Stt& x, const CheckContext&) { return x.reverse_operands <= stt::kRevFirst; }>(
        {.name = "has_valid_select_reduce_rev_ops",
         .convention = "",
         .meaning = "reverse_operands is NONE or FIRST (invert the predicate, PROJ-CONV-K13)",
         .gens = kGensAll,
         .fields = fSttRev,
         .explain = explain_on_body<Stt, [](const Stt& x, const CheckContext&) {
           return fmt::format("reverse_operands is {}, must be NONE (0) or FIRST (1)", x.reverse_operands);
         }>});

// The conjunct lists: the shared opening and the pattern block, then each validator's own terms (§6.2-§6.4).
constexpr std::array<const Predicate*, 4> kSttDtypesBlock{&kSttLoDtype, &kSttHiDtype, &kSttImmDtype, &kSttOutDtype};
constexpr std::array<const Predicate*, 2> kSttOpsEnum{&kSttOp0Enum, &kSttOp1Enum};
constexpr std::array<const Predicate*, 11> kSttPatterns{&kSttImmediate,  &kSttSrc0Start,  &kSttSrc1Start, &kSttDstStart,
                                                        &kSttSrc0Tensor, &kSttSrc1Tensor, &kSttDstTensor, &kSttChannels,
                                                        &kSttSrcCount,   &kSttDstCount,   &kSttPartitions};

constexpr auto kScalarTensorTensor =
    concat_predicates(std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kSttOpcode}, kSttDtypesBlock,
                      std::array{&kSttDtypes, &kSttSrcDstDtype, &kSttImm0Dtype}, kSttOpsEnum, std::array{&kSttValidOp},
                      kSttPatterns, std::array{&kSttAccum, &kSttRevEnum, &kSttReserved, &kSttQuadrant});
constexpr auto kTensorTensorScan =
    concat_predicates(std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kScanOpcode}, kSttDtypesBlock,
                      std::array{&kSttImm0Dtype}, kSttOpsEnum, std::array{&kScanValidOp}, kSttPatterns,
                      std::array{&kScanAccum, &kSttRevEnum, &kSttReserved});
constexpr auto kSelectReduce =
    concat_predicates(std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kSelectReduceOpcode}, kSttDtypesBlock,
                      std::array{&kSelectReduceDtypes, &kSttImm0Dtype}, kSttOpsEnum, std::array{&kSelectReduceValidOp},
                      kSttPatterns, std::array{&kSelectReduceAccum, &kSttRevEnum, &kSttReserved, &kSelectReduceRev});

// ---- S3D3_TS_SELECT (alu-ops.md §6.5, PROJ-CONV-K15) ----

constexpr uint8_t sel_dtype(const Sel& x) {
  return x.dtype;
}

constexpr Predicate kSelOpcode = opcode_clause<Sel, stt::kTsSelect>(
    "has_tensor_scalar_select_opcode", "",
    "the opcode is TENSOR_SCALAR_SELECT (0x98) (a name of ours: not recovered from the header)");

constexpr Predicate kSelReserved =
    reserved_rule<Sel, fSelReserved>({.name = "s3d3_ts_select_reserved_zero",
                                      .convention = "",
                                      .meaning = "the reserved bytes 12..15 and 36..37 are zero (a name of ours)",
                                      .gens = kGensAll,
                                      .explain = [](const Instruction& i, const CheckContext&) {
                                        return explain_reserved_bytes(encode(i), fSelReserved);
                                      }});

constexpr Predicate kSelDtype =
    dtype_rule<Sel, sel_dtype, false, "dtype">("is_valid_dtype(dtype, FP32R not allowed)", fSelDtype);

constexpr Predicate kSelPredDtype =
    rule<Sel, [](const Sel& x, const CheckContext&) { return int_dtype_datapath(x.pred_imm_dtype); }>(
        {.name = "is_valid_int_dtype_datapath",
         .convention = "",
         .meaning = "pred_imm_dtype is an 8/16/32-bit integer",
         .gens = kGensAll,
         .fields = fSelPredDtype,
         .explain = explain_on_body<Sel, [](const Sel& x, const CheckContext& c) {
           return fmt::format("pred_imm_dtype {} is not an 8/16/32-bit integer", dtype_label(x.pred_imm_dtype, c.gen));
         }>});

constexpr Predicate kSelWidth =
    rule<Sel, [](const Sel& x, const CheckContext&) { return dtype_size(x.pred_imm_dtype) == dtype_size(x.dtype); }>(
        {.name = "has_same_imm_dtype_width",
         .convention = "",
         .meaning = "pred_imm_dtype has the element width of dtype",
         .gens = kGensAll,
         .fields = fSelWidths,
         .explain = explain_on_body<Sel, [](const Sel& x, const CheckContext& c) {
           return fmt::format("pred_imm_dtype {} and dtype {} differ in width", dtype_label(x.pred_imm_dtype, c.gen),
                              dtype_label(x.dtype, c.gen));
         }>});

constexpr Predicate kSelReversed = rule<Sel, [](const Sel& x, const CheckContext&) { return x.reversed_pred <= 1; }>(
    {.name = "has_valid_reversed_pred",
     .convention = "",
     .meaning = "reversed_pred is 0 or 1",
     .gens = kGensAll,
     .fields = fSelReversed,
     .explain = explain_on_body<Sel, [](const Sel& x, const CheckContext&) {
       return fmt::format("reversed_pred is {}, must be 0 or 1", x.reversed_pred);
     }>});

/// is_valid_enum(ImmSrc) of the source at Src.
template <auto Src, Name Which>
constexpr Predicate imm_src_rule(std::span<const FieldRef> fields) {
  return rule<Sel, [](const Sel& x, const CheckContext&) { return x.*Src <= stt::kImmRegPointer; }>(
      {.name = "is_valid_enum(ImmSrc)",
       .convention = "",
       .meaning = "the immediate source is an IMM_SRC value (INSTRUCTION, POINTER, REG_PTR)",
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<Sel, [](const Sel& x, const CheckContext&) {
         return fmt::format("{} {} is not an IMM_SRC value (0..2)", std::string_view{Which}, x.*Src);
       }>});
}
constexpr Predicate kSelSrc1SrcEnum = imm_src_rule<&Sel::src1_imm_src, "src1_imm_src">(fSelSrc1Src);
constexpr Predicate kSelPredSrcEnum = imm_src_rule<&Sel::pred_imm_src, "pred_imm_src">(fSelPredSrc);

/// has_valid_immediates of the immediate at Imm, its source at Src, in the dtype at Dtype.
template <auto Imm, auto Src, auto Dtype, Name Which>
constexpr Predicate immediates_rule(std::span<const FieldRef> fields) {
  return rule<Sel,
              [](const Sel& x, const CheckContext& c) {
                return valid_immediate(x.*Imm, x.*Src, x.num_active_channels, x.*Dtype, c.gen);
              }>(
      {.name = "has_valid_immediates",
       .convention = "PROJ-CONV-K15",
       .meaning = "INSTRUCTION: any; POINTER: num_active_channels partitions from the pointer's fit and the pointer is "
                  "aligned for the operand's dtype; REG_PTR: r0..r63 with zero reserved bytes (PROJ-CONV-S4); a "
                  "source outside the enum holds here (PROJ-CONV-K15)",
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<Sel, [](const Sel& x, const CheckContext& c) {
         return explain_immediate(Which, x.*Imm, x.*Src, x.num_active_channels, x.*Dtype, c);
       }>});
}
constexpr Predicate kSelSrc1Imm =
    immediates_rule<&Sel::src1_imm, &Sel::src1_imm_src, &Sel::dtype, "src1_imm">(fSelSrc1Imm);
constexpr Predicate kSelPredImm =
    immediates_rule<&Sel::pred_imm, &Sel::pred_imm_src, &Sel::pred_imm_dtype, "pred_imm">(fSelPredImm);

constexpr Predicate kSelPredValue =
    rule<Sel, [](const Sel& x,
                 const CheckContext&) { return x.pred_imm_src != stt::kImmInstruction || x.pred_imm.raw <= 1; }>(
        {.name = "has_valid_pred_inst_imm_value",
         .convention = "",
         .meaning = "an inline predicate (pred_imm_src INSTRUCTION) is 0 or 1",
         .gens = kGensAll,
         .fields = fSelPredValue,
         .explain = explain_on_body<Sel, [](const Sel& x, const CheckContext&) {
           return fmt::format("inline pred_imm is {:#x}, must be 0 or 1", x.pred_imm.raw);
         }>});

constexpr bool sel_channels(const Sel& x, const CheckContext&) {
  return pred::has_valid_active_channel_range(x.num_active_channels, 128);
}
std::string sel_channels_text(const Sel& x, const CheckContext&) {
  return fmt::format("num_active_channels is {}, must be 1..128", x.num_active_channels);
}
constexpr Predicate kSelChannels = rule<Sel, sel_channels>({.name = "has_valid_active_channel_range",
                                                            .convention = "",
                                                            .meaning = "num_active_channels is 1..128",
                                                            .gens = kGensNotMaverick,
                                                            .fields = fSelChannels,
                                                            .explain = explain_on_body<Sel, sel_channels_text>});
constexpr Predicate kSelChannelsTile =
    rule<Sel, sel_channels>({.name = "has_valid_active_channel_range_with_tile",
                             .convention = "PROJ-CONV-K22",
                             .meaning = "(MAVERICK) num_active_channels is 1..128 (the MAVERICK name, PROJ-CONV-K22; "
                                        "body PROJ-CONV-T1)",
                             .gens = kGensMaverickOnly,
                             .fields = fSelChannelsTile,
                             .explain = explain_on_body<Sel, sel_channels_text>});

constexpr Predicate kSelSrcStart = start_rule<Sel, &Sel::src0, "src0">(
    "src0: a register start, or partition + num_active_channels <= 128", fSelSrcChannels);
constexpr Predicate kSelDstStart = start_rule<Sel, &Sel::dst, "dst">(
    "dst: a register start, or partition + num_active_channels <= 128", fSelDstChannels);
constexpr Predicate kSelSrcTensor = pattern_rule<Sel, &Sel::src0, sel_dtype, false, "src0">(
    "tensor3d_valid", "src0 readable in dtype (MARIANA+: judged by its TENSOR3D bytes, PROJ-CONV-K3)", fSelSrcTensor);
constexpr Predicate kSelDstTensor = pattern_rule<Sel, &Sel::dst, sel_dtype, true, "dst">(
    "tensor3d_valid", "dst writable in dtype; PSUM only with 4-byte dtypes (PROJ-CONV-K3 on MARIANA+)", fSelDstTensor);
constexpr Predicate kSelCount = count_rule<Sel, &Sel::src0, &Sel::dst, "src0", "dst">(
    "same_element_count_t3d", "",
    "src0 and dst have the same element count (skipped when either shape comes from a register, CAYMAN+)", fSelCount);

constexpr const Predicate* kTensorScalarSelect[] = {&kHasValidNeuronHeader,
                                                    &kHasValidNeuronEvents,
                                                    &kSelOpcode,
                                                    &kSelReserved,
                                                    &kSelDtype,
                                                    &kSelPredDtype,
                                                    &kSelWidth,
                                                    &kSelReversed,
                                                    &kSelSrc1SrcEnum,
                                                    &kSelPredSrcEnum,
                                                    &kSelSrc1Imm,
                                                    &kSelPredImm,
                                                    &kSelPredValue,
                                                    &kSelChannels,
                                                    &kSelChannelsTile,
                                                    &kSelSrcStart,
                                                    &kSelDstStart,
                                                    &kSelSrcTensor,
                                                    &kSelDstTensor,
                                                    &kSelCount};

// ---- Validators ----

constexpr Validator kScalarTensorTensorValidator = full_validator<kScalarTensorTensor>("is_valid_scalar_tensor_tensor");
constexpr Validator kTensorTensorScanValidator = full_validator<kTensorTensorScan>("is_valid_tensor_tensor_scan");
constexpr Validator kSelectReduceValidator = full_validator<kSelectReduce>("is_valid_select_reduce");
constexpr Validator kTensorScalarSelectValidator = full_validator<kTensorScalarSelect>("is_valid_tensor_scalar_select");

constexpr ValidatorRow kRows[] = {
    {stt::kSttArith, &kScalarTensorTensorValidator}, {stt::kSttBitvec, &kScalarTensorTensorValidator},
    {stt::kScan, &kTensorTensorScanValidator},       {stt::kSelectReduce, &kSelectReduceValidator},
    {stt::kTsSelect, &kTensorScalarSelectValidator},
};
constexpr Validation kValidation = validator_table<SttFamily, kRows>();

}  // namespace

const Validation& SttFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
