// Activation family validators (act-index-ops.md §4.2, §5.2, §6.2, §7.2, §8.2, §8.4): ACTIVATE, ACTIVATE_QUANTIZE,
// ACTIVATION_READ_ACCUMULATOR, ACTIVATE2, ACTIVATION_TABLE_LOAD and PSEUDO_LOAD_ACT_FUNC_SET, each conjunct named as
// the spec names it (PROJ-CONV-A6, A11, A15, A16, A18, A29).
#include "families/act/format.hpp"
#include "families/common.hpp"
#include "families/operand_rules.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;

using Ac = S3d3Ac;
using Aq = S3d3Aq;
using Rd = D1Rd;
using Ac2 = S2d2Ac;
using Ld = CtrlNo;
using Ps = PseudoLoadActFuncSet;

// ---- Shared bodies: the operand rules of families/operand_rules.hpp, in this family's wording ----

/// How the activation family words the failures of the shared operand rules.
constexpr Wording kActWording{.start_limit = "its region",
                              .pattern_start = "SBUF/PSUM start",
                              .written_note = " (PSUM is written only with 4-byte dtypes)",
                              .names_sunda_escape = false,
                              .count_has = ""};
constexpr std::string_view kStartMeaning =
    "the operand's start partition + num_active_channels fits its region (or the start comes from a register)";
constexpr std::string_view kCountMeaning =
    "src and dst have the same element count (CAYMAN+: waived when either takes its shape from a register)";
constexpr std::string_view kRangeMeaning = "num_active_channels is 1..ACTIVATION_NUM_CHANNELS (128)";

constexpr uint8_t ac_in(const Ac& s) {
  return act::pair_in(s.in_bias_dtype);
}
constexpr uint8_t ac_bias(const Ac& s) {
  return act::pair_bias(s.in_bias_dtype);
}
constexpr uint8_t aq_in(const Aq& s) {
  return act::pair_in(s.in_bias_dtype);
}
constexpr uint8_t aq_bias(const Aq& s) {
  return act::pair_bias(s.in_bias_dtype);
}

// ---- Predicate shapes ----

// ============================== ACTIVATE 0x21 (§4.2) ==============================

constexpr FieldRef fAcIn[] = {field_ref<Ac>("in_bias_dtype")};
constexpr FieldRef fAcOut[] = {field_ref<Ac>("out_dtype")};
constexpr FieldRef fAcCmd[] = {field_ref<Ac>("accumulator_cmd")};
constexpr FieldRef fAcChannels[] = {field_ref<Ac>("num_active_channels")};
constexpr FieldRef fAcSrcStart[] = {field_ref<Ac>("src.start_addr"), field_ref<Ac>("num_active_channels")};
constexpr FieldRef fAcDstStart[] = {field_ref<Ac>("dst.start_addr"), field_ref<Ac>("num_active_channels")};
constexpr FieldRef fAcSrc[] = {field_ref<Ac>("src.start_addr"), field_ref<Ac>("src.num_elem"),
                               field_ref<Ac>("in_bias_dtype")};
constexpr FieldRef fAcDst[] = {field_ref<Ac>("dst.start_addr"), field_ref<Ac>("dst.num_elem"),
                               field_ref<Ac>("out_dtype")};
constexpr FieldRef fAcCount[] = {field_ref<Ac>("src.num_elem"), field_ref<Ac>("dst.num_elem"),
                                 field_ref<Ac>("src.start_addr"), field_ref<Ac>("dst.start_addr")};
constexpr FieldRef fAcScale[] = {field_ref<Ac>("scale_src"), field_ref<Ac>("scale_value"),
                                 field_ref<Ac>("num_active_channels")};
constexpr FieldRef fAcBias[] = {field_ref<Ac>("bias_src_n"), field_ref<Ac>("bias"), field_ref<Ac>("in_bias_dtype"),
                                field_ref<Ac>("num_active_channels")};
constexpr FieldRef fAcImm[] = {field_ref<Ac>("imm_src"), field_ref<Ac>("imm"), field_ref<Ac>("num_active_channels")};

bool ac_scale(const Ac& s, const CheckContext& c) {
  return immediates_ok(s.scale_value.raw, s.scale_src, s.num_active_channels, dtype::kFp32, c.gen);
}
bool ac_bias_ok(const Ac& s, const CheckContext& c) {
  return immediates_ok(s.bias.raw, act::to_imm_src(s.bias_src_n), s.num_active_channels, ac_bias(s), c.gen);
}
bool ac_imm(const Ac& s, const CheckContext& c) {
  return immediates_ok(s.imm.raw, s.imm_src, s.num_active_channels, dtype::kFp32, c.gen);
}

constexpr Predicate kAcOpcode =
    opcode_rule<Ac, act::kActivate>("has_activate_opcode", "PROJ-CONV-A29", "the opcode is 0x21", kOpcodeFieldOf<Ac>);
constexpr Predicate kAcInDtype =
    dtype_rule<Ac, ac_in, false, "in_dtype">("is_valid_dtype(in_dtype, FP32R not allowed)", fAcIn);
constexpr Predicate kAcOutDtype =
    dtype_rule<Ac, &Ac::out_dtype, true, "out_dtype">("is_valid_dtype(out_dtype, FP32R allowed)", fAcOut);
constexpr Predicate kAcBiasDtype =
    dtype_rule<Ac, ac_bias, false, "bias_dtype">("is_valid_dtype(bias_dtype, FP32R not allowed)", fAcIn);
constexpr Predicate kAcCmd =
    text_rule<Ac, [](const Ac& s, const CheckContext&) { return s.accumulator_cmd <= 4; },
              [](const Ac& s, const CheckContext&) {
                return fmt::format("accumulator_cmd {} is not an ACCUM_CMD (0..4)", s.accumulator_cmd);
              }>("is_valid_enum(ACCUM_CMD)", "",
                 "accumulator_cmd is IDLE, ZERO, ACCUMULATE, ZERO_ACCUMULATE or "
                 "LOAD_ACCUMULATE (0..4)",
                 fAcCmd);
constexpr Predicate kAcChannels = channels_rule<Ac>("has_valid_active_channel_range", kRangeMeaning, fAcChannels);
constexpr Predicate kAcSrcStart = start_rule<Ac, &Ac::src, "src", kActWording>(kStartMeaning, fAcSrcStart);
constexpr Predicate kAcDstStart = start_rule<Ac, &Ac::dst, "dst", kActWording>(kStartMeaning, fAcDstStart);
constexpr Predicate kAcSrc = pattern_rule<Ac, &Ac::src, ac_in, false, "src", kActWording>(
    "tensor3d_valid", "src readable in in_dtype, SBUF or PSUM (judged on the TENSOR3D bytes, PROJ-CONV-A30)", fAcSrc);
constexpr Predicate kAcDst = pattern_rule<Ac, &Ac::dst, &Ac::out_dtype, true, "dst", kActWording>(
    "tensor3d_valid", "dst writable in out_dtype, SBUF or PSUM (PSUM with 4-byte dtypes)", fAcDst);
constexpr Predicate kAcCount = count_rule<Ac, &Ac::src, &Ac::dst, "src", "dst", kActWording>(
    "same_element_count_t3d", "PROJ-CONV-A18", kCountMeaning, fAcCount);
constexpr Predicate kAcScale = text_rule<Ac, ac_scale, [](const Ac& s, const CheckContext&) {
  return immediate_failure("scale_value", s.scale_value.raw, s.scale_src, s.num_active_channels, dtype::kFp32);
}>("s3d3_ac_scale_checks", "PROJ-CONV-A11", "has_valid_immediates(scale_value, scale_src, nac, FP32)", fAcScale);
constexpr Predicate kAcBias =
    text_rule<Ac, ac_bias_ok,
              [](const Ac& s, const CheckContext&) {
                if (act::to_imm_src(s.bias_src_n) == 0xFF)
                  return fmt::format("bias_src_n {} is not an IMM_SRC_N (0 pointer, 1 instruction, 2 register)",
                                     s.bias_src_n);
                return immediate_failure("bias", s.bias.raw, act::to_imm_src(s.bias_src_n), s.num_active_channels,
                                         ac_bias(s));
              }>(
        "s3d3_ac_bias_checks", "PROJ-CONV-A11",
        "has_valid_immediates(bias, to_imm_src(bias_src_n), nac, bias_dtype), bias_src_n 0 = pointer, 1 = instruction, "
        "2 = register pointer",
        fAcBias);
constexpr Predicate kAcImm = text_rule<Ac, ac_imm, [](const Ac& s, const CheckContext&) {
  return immediate_failure("imm", s.imm.raw, s.imm_src, s.num_active_channels, dtype::kFp32);
}>("s3d3_ac_imm_checks", "PROJ-CONV-A11", "has_valid_immediates(imm, imm_src, nac, FP32)", fAcImm);

constexpr std::array kActivateList{&kHasValidNeuronHeader,
                                   &kHasValidNeuronEvents,
                                   &kAcOpcode,
                                   &kAcInDtype,
                                   &kAcOutDtype,
                                   &kAcBiasDtype,
                                   &kAcCmd,
                                   &kAcChannels,
                                   &kAcSrcStart,
                                   &kAcDstStart,
                                   &kAcSrc,
                                   &kAcDst,
                                   &kAcCount,
                                   &kAcScale,
                                   &kAcBias,
                                   &kAcImm};
constexpr Validator kActivateValidator = full_validator<kActivateList>("is_valid_activate");

// ============================== ACTIVATE_QUANTIZE 0x22 (§5.2) ==============================

constexpr FieldRef fAqTypes[] = {field_ref<Aq>("in_bias_dtype"), field_ref<Aq>("out_dtype")};
constexpr FieldRef fAqScales[] = {field_ref<Aq>("quant_scale_value"), field_ref<Aq>("dequant_scale_value")};
constexpr FieldRef fAqChannels[] = {field_ref<Aq>("num_active_channels")};
constexpr FieldRef fAqSrcStart[] = {field_ref<Aq>("src.start_addr"), field_ref<Aq>("num_active_channels")};
constexpr FieldRef fAqDstStart[] = {field_ref<Aq>("dst.start_addr"), field_ref<Aq>("num_active_channels")};
constexpr FieldRef fAqSrc[] = {field_ref<Aq>("src.start_addr"), field_ref<Aq>("src.num_elem"),
                               field_ref<Aq>("in_bias_dtype")};
constexpr FieldRef fAqDst[] = {field_ref<Aq>("dst.start_addr"), field_ref<Aq>("dst.num_elem"),
                               field_ref<Aq>("out_dtype")};
constexpr FieldRef fAqCount[] = {field_ref<Aq>("src.num_elem"), field_ref<Aq>("dst.num_elem"),
                                 field_ref<Aq>("src.start_addr"), field_ref<Aq>("dst.start_addr")};
constexpr FieldRef fAqBias[] = {field_ref<Aq>("bias_addr"), field_ref<Aq>("in_bias_dtype"),
                                field_ref<Aq>("num_active_channels")};

bool aq_types(const Aq& s, const CheckContext&) {
  const uint8_t in = aq_in(s), b = aq_bias(s);
  return (in == dtype::kFp32 || in == dtype::kInt32) && s.out_dtype == dtype::kUint8 &&
         (b == dtype::kFp32 || b == dtype::kBfloat16 || b == dtype::kFp16);
}
bool aq_scales(const Aq& s, const CheckContext&) {
  return std::bit_cast<float>(s.quant_scale_value.raw) != 0.0F &&
         std::bit_cast<float>(s.dequant_scale_value.raw) != 0.0F;
}
bool aq_bias_addr(const Aq& s, const CheckContext& c) {
  return pred::tpb_addr_active_channels(s.bias_addr, s.num_active_channels, c.gen) &&
         pred::addr_aligned_dtype(s.bias_addr, aq_bias(s));
}

constexpr Predicate kAqOpcode = opcode_rule<Aq, act::kActivateQuantize>("has_activate_quantize_opcode", "PROJ-CONV-A29",
                                                                        "the opcode is 0x22", kOpcodeFieldOf<Aq>);
constexpr Predicate kAqTypes = text_rule<Aq, aq_types, [](const Aq& s, const CheckContext& c) {
  return fmt::format(
      "in_dtype {}, out_dtype {}, bias_dtype {}: need FP32 or INT32 in, UINT8 out, FP32, BF16 or FP16 "
      "bias",
      dtype_label(aq_in(s), c.gen), dtype_label(s.out_dtype, c.gen), dtype_label(aq_bias(s), c.gen));
}>("s3d3_aq_type_check", "", "in_dtype is FP32 or INT32, out_dtype UINT8, bias_dtype FP32, BF16 or FP16", fAqTypes);
constexpr Predicate kAqScales =
    text_rule<Aq, aq_scales,
              [](const Aq& s, const CheckContext&) {
                return fmt::format("quant_scale_value {:#010x} and dequant_scale_value {:#010x}: both must be non-zero",
                                   s.quant_scale_value.raw, s.dequant_scale_value.raw);
              }>("s3d3_aq_scale_check", "",
                 "quant_scale_value != 0.0 and dequant_scale_value != 0.0 (IEEE compare: -0.0 fails, NaN passes)",
                 fAqScales);
constexpr Predicate kAqChannels = channels_rule<Aq>("has_valid_active_channel_range", kRangeMeaning, fAqChannels);
constexpr Predicate kAqSrcStart = start_rule<Aq, &Aq::src, "src", kActWording>(kStartMeaning, fAqSrcStart);
constexpr Predicate kAqDstStart = start_rule<Aq, &Aq::dst, "dst", kActWording>(kStartMeaning, fAqDstStart);
constexpr Predicate kAqSrc = pattern_rule<Aq, &Aq::src, aq_in, false, "src", kActWording>(
    "tensor3d_valid", "src readable in in_dtype, SBUF or PSUM", fAqSrc);
constexpr Predicate kAqDst = pattern_rule<Aq, &Aq::dst, &Aq::out_dtype, true, "dst", kActWording>(
    "tensor3d_valid", "dst writable in out_dtype, SBUF or PSUM (PSUM with 4-byte dtypes)", fAqDst);
constexpr Predicate kAqCount = count_rule<Aq, &Aq::src, &Aq::dst, "src", "dst", kActWording>(
    "same_element_count_t3d", "PROJ-CONV-A18", kCountMeaning, fAqCount);
constexpr Predicate kAqBias =
    text_rule<Aq, aq_bias_addr,
              [](const Aq& s, const CheckContext& c) {
                return fmt::format(
                    "bias_addr {:#010x}: its partition + {} channels must fit and it must be aligned for {}",
                    s.bias_addr, s.num_active_channels, dtype_label(aq_bias(s), c.gen));
              }>("s3d3_aq_bias_addr_check", "PROJ-CONV-A29",
                 "tpb_addr_active_channels(bias_addr, nac) and addr_aligned_dtype(bias_addr, bias_dtype)", fAqBias);

constexpr std::array kQuantizeList{
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kAqOpcode, &kAqTypes, &kAqScales, &kAqChannels,
    &kAqSrcStart,           &kAqDstStart,           &kAqSrc,    &kAqDst,   &kAqCount,  &kAqBias};
constexpr Validator kQuantizeValidator = full_validator<kQuantizeList>("is_valid_activateq");

// ============================== ACTIVATION_READ_ACCUMULATOR 0x24 (§6.2) ==============================

constexpr auto fRdReserved = field_refs_with_role<Rd, Role::Reserved>();
constexpr FieldRef fRdDtype[] = {field_ref<Rd>("dtype")};
constexpr FieldRef fRdNegated[] = {field_ref<Rd>("negated")};
constexpr FieldRef fRdSize[] = {field_ref<Rd>("dst_element_count"), field_ref<Rd>("dst.start_addr"),
                                field_ref<Rd>("dst.num_elem")};
constexpr FieldRef fRdChannels[] = {field_ref<Rd>("num_active_channels")};
constexpr FieldRef fRdDstStart[] = {field_ref<Rd>("dst.start_addr"), field_ref<Rd>("num_active_channels")};
constexpr FieldRef fRdDst[] = {field_ref<Rd>("dst.start_addr"), field_ref<Rd>("dst.num_elem"), field_ref<Rd>("dtype")};

bool rd_type(const Rd& s, const CheckContext& c) {
  const uint8_t d = s.dtype;
  return (d == dtype::kFp16 || d == dtype::kBfloat16 || d == dtype::kFp32 || d == dtype::kFp32r) &&
         dtype_accepts(d, true, c);
}

constexpr Predicate kRdOpcode = opcode_rule<Rd, act::kReadAccumulator>(
    "has_activation_read_accumulator_opcode", "PROJ-CONV-A29", "the opcode is 0x24", kOpcodeFieldOf<Rd>);
constexpr Predicate kRdReserved = reserved_rule<Rd, fRdReserved>(
    {.name = "d1_rd_reserved_zero",
     .convention = "",
     .meaning = "reserved0 (bytes 12..27), reserved1 (35..43) and reserved2 (52..63) are zero",
     .gens = kGensAll,
     .explain = [](const Instruction& i, const CheckContext&) {
       return explain_reserved_bytes(encode(i), fRdReserved);
     }});
constexpr Predicate kRdType = text_rule<Rd, rd_type, [](const Rd& s, const CheckContext& c) {
  return fmt::format("dtype {} is not FP16, BF16, FP32 or FP32R", dtype_label(s.dtype, c.gen));
}>("activation_read_accumulator_type_check", "", "dtype is FP16, BF16, FP32 or FP32R (and a valid dtype)", fRdDtype);
constexpr Predicate kRdNegated = text_rule<Rd, [](const Rd& s, const CheckContext&) { return s.negated == 0; },
                                           [](const Rd& s, const CheckContext&) {
                                             return fmt::format("negated is {}, must be 0 on ACT", s.negated);
                                           }>("d1_rd_has_zero_negated_field", "", "negated is 0", fRdNegated);
constexpr Predicate kRdSize =
    text_rule<Rd,
              [](const Rd& s, const CheckContext& c) {
                return s.dst_element_count == 1 && (s.dst.num_elem[0] == 1 || shape_escapes(s.dst.start_addr, c.gen));
              },
              [](const Rd& s, const CheckContext&) {
                return fmt::format("dst_element_count is {} and dst count {}: both must be 1", s.dst_element_count,
                                   s.dst.num_elem[0]);
              }>("d1_rd_dst_element_count", "PROJ-CONV-A18",
                 "dst_element_count == 1 and dst.num_elem[0] == 1 (CAYMAN+: the latter "
                 "waived for a register shape)",
                 fRdSize);
constexpr Predicate kRdChannels =
    channels_rule<Rd, true>("check_active_channels", "num_active_channels is 1..128", fRdChannels);
constexpr Predicate kRdDstStart = start_rule<Rd, &Rd::dst, "dst", kActWording>(kStartMeaning, fRdDstStart);
constexpr Predicate kRdDst = pattern_rule<Rd, &Rd::dst, &Rd::dtype, true, "dst", kActWording>(
    "tensor1d_valid", "dst writable in dtype, SBUF or PSUM (PSUM with 4-byte dtypes)", fRdDst);

constexpr std::array kReadList{
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kRdOpcode, &kRdReserved, &kRdType, &kRdNegated, &kRdSize,
    &kRdChannels,           &kRdDstStart,           &kRdDst};
constexpr Validator kReadValidator = full_validator<kReadList>("is_valid_activation_read_accumulator");

// ============================== ACTIVATE2 0x25 (§7.2) ==============================

constexpr auto fAc2Reserved = field_refs_with_role<Ac2, Role::Reserved>();
constexpr FieldRef fAc2In[] = {field_ref<Ac2>("in_dtype")};
constexpr FieldRef fAc2Out[] = {field_ref<Ac2>("out_dtype")};
constexpr FieldRef fAc2ImmDtype[] = {field_ref<Ac2>("imm_dtype")};
constexpr FieldRef fAc2Ops[] = {field_ref<Ac2>("op0"), field_ref<Ac2>("op1"), field_ref<Ac2>("reverse_operands")};
constexpr FieldRef fAc2ReduceOp[] = {field_ref<Ac2>("reduce_op")};
constexpr FieldRef fAc2ReduceCmd[] = {field_ref<Ac2>("reduce_cmd")};
constexpr FieldRef fAc2Channels[] = {field_ref<Ac2>("num_active_channels")};
constexpr FieldRef fAc2SrcStart[] = {field_ref<Ac2>("src.start_addr"), field_ref<Ac2>("num_active_channels")};
constexpr FieldRef fAc2DstStart[] = {field_ref<Ac2>("dst.start_addr"), field_ref<Ac2>("num_active_channels")};
constexpr FieldRef fAc2Src[] = {field_ref<Ac2>("src.start_addr"), field_ref<Ac2>("src.num_elem"),
                                field_ref<Ac2>("in_dtype")};
constexpr FieldRef fAc2Dst[] = {field_ref<Ac2>("dst.start_addr"), field_ref<Ac2>("dst.num_elem"),
                                field_ref<Ac2>("out_dtype")};
constexpr FieldRef fAc2Count[] = {field_ref<Ac2>("src.num_elem"), field_ref<Ac2>("dst.num_elem"),
                                  field_ref<Ac2>("src.start_addr"), field_ref<Ac2>("dst.start_addr")};
constexpr FieldRef fAc2Imms[] = {field_ref<Ac2>("imm0_src"),       field_ref<Ac2>("imm0"),
                                 field_ref<Ac2>("imm1_src"),       field_ref<Ac2>("imm1"),
                                 field_ref<Ac2>("relu_param_src"), field_ref<Ac2>("relu_param"),
                                 field_ref<Ac2>("imm_dtype"),      field_ref<Ac2>("num_active_channels")};
constexpr FieldRef fAc2Errata[] = {field_ref<Ac2>("src.start_addr"), field_ref<Ac2>("imm0_src"),
                                   field_ref<Ac2>("imm0"),           field_ref<Ac2>("imm1_src"),
                                   field_ref<Ac2>("imm1"),           field_ref<Ac2>("relu_param_src"),
                                   field_ref<Ac2>("relu_param")};

bool ac2_ops(const Ac2& s, const CheckContext&) {
  using namespace aluop;
  const uint8_t a = s.op0, b = s.op1;
  const bool pair = (a == kMult && (b == kAdd || b == kSubtract || b == kBypass)) ||
                    ((a == kAdd || a == kSubtract || a == kBypass) && b == kBypass);
  return pair && s.reverse_operands <= 3 && ((s.reverse_operands & 1) == 0 || a != kBypass) &&
         ((s.reverse_operands & 2) == 0 || b != kBypass);
}
bool ac2_reduce_op(const Ac2& s, const CheckContext&) {
  using namespace aluop;
  const uint8_t r = s.reduce_op;
  return r == kAdd || r == kMax || r == kMin || r == kAbsMax || r == kAbsMin;
}
bool ac2_imms(const Ac2& s, const CheckContext& c) {
  const unsigned n = s.num_active_channels;
  return immediates_ok(s.imm0.raw, s.imm0_src, n, s.imm_dtype, c.gen) &&
         immediates_ok(s.imm1.raw, s.imm1_src, n, s.imm_dtype, c.gen) &&
         immediates_ok(s.relu_param.raw, s.relu_param_src, n, s.imm_dtype, c.gen);
}

/// Q(x) of the errata rule: the region and 32-partition quadrant of a pointer; the region Outside when it is neither.
struct Quadrant {
  Region region;
  uint32_t quadrant;
  bool operator==(const Quadrant&) const = default;
};
Quadrant quadrant_of(uint32_t ptr, Generation g) {
  const PartitionAddress t = decode_partition_offset(ptr, g);
  return {t.region, t.partition / 32};
}

bool ac2_errata(const Ac2& s, const CheckContext& c) {
  const Addr4Meaning src = describe(s.src.start_addr, c.gen);
  const bool sbuf_src = !src.from_register && src.target.region == Region::Sbuf;
  const Quadrant q_src{Region::Sbuf, src.target.partition / 32};
  std::optional<Quadrant> common;
  for (const auto& [v, src_sel] : {std::pair{s.imm0.raw, s.imm0_src}, std::pair{s.imm1.raw, s.imm1_src},
                                   std::pair{s.relu_param.raw, s.relu_param_src}}) {
    if (src_sel != imm_src::kPointer) continue;
    const Quadrant q = quadrant_of(v, c.gen);
    if (sbuf_src) {
      if (!(q == q_src)) return false;
    } else {
      if (q.region != Region::Sbuf) return false;
      if (common && !(*common == q)) return false;
      common = q;
    }
  }
  return true;
}

constexpr Predicate kAc2Opcode = opcode_rule<Ac2, act::kActivate2>("has_activate2_opcode", "PROJ-CONV-A29",
                                                                   "the opcode is 0x25", kOpcodeFieldOf<Ac2>);
constexpr Predicate kAc2Reserved =
    reserved_rule<Ac2, fAc2Reserved>({.name = "s2d2_ac_reserved_zero",
                                      .convention = "PROJ-CONV-A29",
                                      .meaning = "reserved0 (bytes 61..63) is zero",
                                      .gens = kGensAll,
                                      .explain = [](const Instruction& i, const CheckContext&) {
                                        return explain_reserved_bytes(encode(i), fAc2Reserved);
                                      }});
constexpr Predicate kAc2InDtype =
    dtype_rule<Ac2, &Ac2::in_dtype, false, "in_dtype">("is_valid_dtype(in_dtype, FP32R not allowed)", fAc2In);
constexpr Predicate kAc2OutDtype =
    dtype_rule<Ac2, &Ac2::out_dtype, true, "out_dtype">("is_valid_dtype(out_dtype, FP32R allowed)", fAc2Out);
constexpr Predicate kAc2ImmDtype =
    dtype_rule<Ac2, &Ac2::imm_dtype, false, "imm_dtype">("is_valid_dtype(imm_dtype, FP32R not allowed)", fAc2ImmDtype);
constexpr Predicate kAc2Ops =
    text_rule<Ac2, ac2_ops,
              [](const Ac2& s, const CheckContext& c) {
                return fmt::format(
                    "op0 {}, op1 {}, reverse_operands {}: not one of the six pairs (MULT,ADD), (MULT,SUBTRACT), "
                    "(MULT,BYPASS), (ADD,BYPASS), (SUBTRACT,BYPASS), (BYPASS,BYPASS), or a reversed BYPASS",
                    aluop_label(s.op0, c.gen), aluop_label(s.op1, c.gen), s.reverse_operands);
              }>("has_valid_s2d2_ac_ts_ops", "PROJ-CONV-A15",
                 "(op0, op1) is one of AWS's six pairs; reverse_operands <= 3 and reverses no BYPASS", fAc2Ops);
constexpr Predicate kAc2ReduceOp = text_rule<Ac2, ac2_reduce_op, [](const Ac2& s, const CheckContext& c) {
  return fmt::format("reduce_op {} is not ADD, MAX, MIN, ABS_MAX or ABS_MIN", aluop_label(s.reduce_op, c.gen));
}>("has_valid_reduce_op", "", "reduce_op is ADD, MAX, MIN, ABS_MAX or ABS_MIN", fAc2ReduceOp);
constexpr Predicate kAc2ReduceCmd =
    text_rule<Ac2, [](const Ac2& s, const CheckContext&) { return s.reduce_cmd <= act::kReduceResetReduce; },
              [](const Ac2& s, const CheckContext&) {
                return fmt::format("reduce_cmd {} is not a REDUCE_CMD (0..3)", s.reduce_cmd);
              }>("is_valid_enum(REDUCE_CMD)", "", "reduce_cmd is IDLE, RESET, REDUCE or RESET_REDUCE (0..3)",
                 fAc2ReduceCmd);
constexpr Predicate kAc2Channels =
    channels_rule<Ac2, true>("check_active_channels", "num_active_channels is 1..128", fAc2Channels);
constexpr Predicate kAc2SrcStart = start_rule<Ac2, &Ac2::src, "src", kActWording>(kStartMeaning, fAc2SrcStart);
constexpr Predicate kAc2DstStart = start_rule<Ac2, &Ac2::dst, "dst", kActWording>(kStartMeaning, fAc2DstStart);
constexpr Predicate kAc2Src = pattern_rule<Ac2, &Ac2::src, &Ac2::in_dtype, false, "src", kActWording>(
    "tensor2d_valid", "src readable in in_dtype, SBUF or PSUM (judged on the TENSOR2D bytes, PROJ-CONV-A30)", fAc2Src);
constexpr Predicate kAc2Dst = pattern_rule<Ac2, &Ac2::dst, &Ac2::out_dtype, true, "dst", kActWording>(
    "tensor2d_valid", "dst writable in out_dtype, SBUF or PSUM (PSUM with 4-byte dtypes)", fAc2Dst);
constexpr Predicate kAc2Count = count_rule<Ac2, &Ac2::src, &Ac2::dst, "src", "dst", kActWording>(
    "same_element_count_t2d", "PROJ-CONV-A18", kCountMeaning, fAc2Count);
constexpr Predicate kAc2Imms =
    text_rule<Ac2, ac2_imms,
              [](const Ac2& s, const CheckContext& c) {
                const unsigned n = s.num_active_channels;
                if (!immediates_ok(s.imm0.raw, s.imm0_src, n, s.imm_dtype, c.gen))
                  return immediate_failure("imm0", s.imm0.raw, s.imm0_src, n, s.imm_dtype);
                if (!immediates_ok(s.imm1.raw, s.imm1_src, n, s.imm_dtype, c.gen))
                  return immediate_failure("imm1", s.imm1.raw, s.imm1_src, n, s.imm_dtype);
                return immediate_failure("relu_param", s.relu_param.raw, s.relu_param_src, n, s.imm_dtype);
              }>("s2d2_ac_imm_checks", "PROJ-CONV-A29",
                 "has_valid_immediates(v, v_src, nac, imm_dtype) for imm0, imm1 and relu_param", fAc2Imms);
constexpr Predicate kAc2Errata = text_rule<
    Ac2, ac2_errata,
    [](const Ac2&, const CheckContext&) {
      return std::string(
          "pointer immediates must lie in the source's SBUF quadrant (SBUF source), or all in one SBUF "
          "quadrant (PSUM or register source)");
    }>("act2_quadrant_restrictions_errata_3071", "PROJ-CONV-A15",
       "SBUF source: every pointer immediate in the source's SBUF quadrant; otherwise the pointer immediates share one "
       "SBUF quadrant; register pointers are not judged",
       fAc2Errata);

constexpr std::array kActivate2List{&kHasValidNeuronHeader,
                                    &kHasValidNeuronEvents,
                                    &kAc2Opcode,
                                    &kAc2Reserved,
                                    &kAc2InDtype,
                                    &kAc2OutDtype,
                                    &kAc2ImmDtype,
                                    &kAc2Ops,
                                    &kAc2ReduceOp,
                                    &kAc2ReduceCmd,
                                    &kAc2Channels,
                                    &kAc2SrcStart,
                                    &kAc2DstStart,
                                    &kAc2Src,
                                    &kAc2Dst,
                                    &kAc2Count,
                                    &kAc2Imms,
                                    &kAc2Errata};
constexpr Validator kActivate2Validator = full_validator<kActivate2List>("is_valid_activate2");

// ============================== ACTIVATION_TABLE_LOAD 0x23 (§8.2) ==============================

constexpr FieldRef fLdReserved[] = {field_ref<Ld>("reserved0"), field_ref<Ld>("notification"),
                                    field_ref<Ld>("drain_count"), field_ref<Ld>("reserved1")};
constexpr FieldRef fLdSel[] = {field_ref<Ld>("reserved0")};

/// Bytes 12..34 and 36..63 zero: CTRL_NO's payload with byte 35 (act_tbl_sel, inside reserved0) exempted.
bool ld_reserved(const Ld& s, const CheckContext&) {
  constexpr size_t kSel = act::kActTblSelByte - 12;
  for (size_t i = 0; i < s.reserved0.size(); ++i)
    if (i != kSel && s.reserved0[i] != 0) return false;
  for (uint8_t b : s.reserved1)
    if (b != 0) return false;
  return s.notification == 0 && s.drain_count == 0;
}

constexpr Predicate kLdOpcode = opcode_rule<Ld, act::kTableLoad>("has_activation_table_load_opcode", "PROJ-CONV-A29",
                                                                 "the opcode is 0x23", kOpcodeFieldOf<Ld>);
constexpr Predicate kLdReserved = text_rule<Ld, ld_reserved, [](const Ld& s, const CheckContext&) {
  const Word w = encode(s);
  for (unsigned b = 12; b < 64; ++b)
    if (b != act::kActTblSelByte && w[b] != 0) return fmt::format("reserved byte {} is {:#04x}, must be 0", b, w[b]);
  return std::string("a reserved byte is not zero");
}>("ctrl_no_reserved_zero", "PROJ-CONV-A6", "bytes 12..34 and 36..63 are zero (byte 35 is act_tbl_sel)", fLdReserved);
constexpr Predicate kLdSel = text_rule<Ld, [](const Ld&, const CheckContext&) { return true; },
                                       [](const Ld&, const CheckContext&) { return std::string(); }>(
    "valid_act_tbl_sel", "PROJ-CONV-A6",
    "act_tbl_sel (byte 35): every value holds at the word level; the index is checked against the NEFF's set "
    "catalog when the word runs",
    fLdSel);

constexpr std::array kTableLoadList{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kLdOpcode, &kLdReserved, &kLdSel};
constexpr Validator kTableLoadValidator = full_validator<kTableLoadList>("is_valid_activation_table_load");

// ============================== PSEUDO_LOAD_ACT_FUNC_SET 0xC6 (§8.4) ==============================

constexpr auto fPsReserved = field_refs_with_role<Ps, Role::Reserved>();
constexpr FieldRef fPsName[] = {field_ref<Ps>("act_set_name")};

/// 1..32 bytes of printable ASCII 0x21..0x7E, then only NUL bytes.
bool ps_name(const Ps& s, const CheckContext&) {
  size_t n = 0;
  while (n < s.act_set_name.size() && s.act_set_name[n] >= 0x21 && s.act_set_name[n] <= 0x7E) ++n;
  if (n == 0) return false;
  for (size_t i = n; i < s.act_set_name.size(); ++i)
    if (s.act_set_name[i] != 0) return false;
  return true;
}

constexpr Predicate kPsOpcode = opcode_rule<Ps, act::kPseudoLoadSet>(
    "has_pseudo_load_act_func_set_opcode", "PROJ-CONV-A29", "the opcode is 0xC6", kOpcodeFieldOf<Ps>);
constexpr Predicate kPsName =
    text_rule<Ps, ps_name,
              [](const Ps&, const CheckContext&) {
                return std::string(
                    "act_set_name must be 1..32 printable ASCII bytes (0x21..0x7E) followed only by NUL bytes");
              }>("pseudo_load_act_func_set_name", "PROJ-CONV-A16",
                 "act_set_name is 1..32 bytes of printable ASCII 0x21..0x7E, then only NUL bytes", fPsName);
constexpr Predicate kPsReserved =
    reserved_rule<Ps, fPsReserved>({.name = "pseudo_load_act_func_set_reserved_zero",
                                    .convention = "PROJ-CONV-A16",
                                    .meaning = "reserved0 (bytes 44..63) is zero",
                                    .gens = kGensAll,
                                    .explain = [](const Instruction& i, const CheckContext&) {
                                      return explain_reserved_bytes(encode(i), fPsReserved);
                                    }});

constexpr std::array kPseudoList{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kPsOpcode, &kPsName, &kPsReserved};
constexpr Validator kPseudoValidator = full_validator<kPseudoList>("is_valid_pseudo_load_act_func_set");

// ---- The table ----

constexpr ValidatorRow kRows[] = {
    {act::kActivate, &kActivateValidator},
    {act::kActivateQuantize, &kQuantizeValidator},
    {act::kTableLoad, &kTableLoadValidator},
    {act::kReadAccumulator, &kReadValidator},
    {act::kActivate2, &kActivate2Validator, kGensMarianaUp},
    {act::kPseudoLoadSet, &kPseudoValidator},
};
constexpr Validation kValidation = validator_table<ActFamily, kRows>();

}  // namespace

const Validation& ActFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
