// S2_BN family validators: TensorScalarImmLd 0x70/0x71, BatchNormParamLoad 0x64, MatchValueLoad 0x6d (s2bn.md §3).
#include <algorithm>
#include <cmath>

#include "families/common.hpp"
#include "families/validator_table.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

constexpr FieldRef fOpcode[] = {field_ref<S2Bn>("header.opcode")};
constexpr FieldRef fSrcCount[] = {field_ref<S2Bn>("src_mem_pattern.num_elem"),
                                  field_ref<S2Bn>("src_mem_pattern.start_addr")};
constexpr FieldRef fImmediates[] = {field_ref<S2Bn>("imm1"), field_ref<S2Bn>("imm0_ptr"), field_ref<S2Bn>("imm0_src")};
constexpr FieldRef fDtypeOp[] = {field_ref<S2Bn>("dtype"), field_ref<S2Bn>("header.opcode")};
constexpr FieldRef fDtype[] = {field_ref<S2Bn>("dtype")};
constexpr FieldRef fChannels[] = {field_ref<S2Bn>("num_active_channels")};
constexpr FieldRef fSrc[] = {field_ref<S2Bn>("src_mem_pattern.start_addr"), field_ref<S2Bn>("src_mem_pattern.num_elem"),
                             field_ref<S2Bn>("dtype")};
constexpr auto fReserved = field_refs_with_role<S2Bn, Role::Reserved>();
constexpr FieldRef fImm0[] = {field_ref<S2Bn>("imm0_ptr"), field_ref<S2Bn>("imm0_src"), field_ref<S2Bn>("imm1"),
                              field_ref<S2Bn>("num_active_channels")};
constexpr FieldRef fImmSrcField[] = {field_ref<S2Bn>("imm0_src")};

const S2Bn& s_of(const Instruction& i) {
  return body<S2Bn>(i);
}

unsigned product(const S2Bn& s) {
  return s.src_elements();
}

// ---- Predicate bodies (s2bn.md §3) ----

bool has_s2_bn_zero_immediates(const S2Bn& s, const CheckContext&) {
  // Equal to 0.0 as floats: -0.0 passes, NaN and denormals fail (s2bn.md §3.1 note). Tested on the bits (all but
  // the sign zero), which is that comparison without the float unit or the processor's denormal mode.
  constexpr uint32_t kMagnitude = 0x7FFFFFFF;
  return (s.imm0_ptr.raw & kMagnitude) == 0 && s.imm0_src == 0 && (s.imm1.raw & kMagnitude) == 0;
}

bool shape_escape(const S2Bn& s, Generation g) {
  return pred::has_shape_escape(g) && describe(s.src_mem_pattern.start_addr, g).shape_from_register;
}

bool immld_count(const S2Bn& s, const CheckContext& c) {
  const unsigned p = product(s);
  return (p >= 1 && p <= 8) || shape_escape(s, c.gen);
}

bool bn_param_load_count(const S2Bn& s, const CheckContext& c) {
  const auto& n = s.src_mem_pattern.num_elem;
  return (n[0] == 3 && n[1] == 1) || (n[0] == 1 && n[1] == 3) || shape_escape(s, c.gen);
}

bool mvl_count(const S2Bn& s, const CheckContext&) {
  return product(s) == 8;
}

[[gnu::always_inline]] inline bool tsm_immld_dtypes(const S2Bn& s, const CheckContext&) {
  const uint8_t d = s.dtype;
  if (s.header.opcode == opcode::kImmLdArith) {
    return d == dtype::kFp32 || d == dtype::kFp16 || d == dtype::kBfloat16 || d == dtype::kFp8Exp3 ||
           d == dtype::kFp8Exp4 || d == dtype::kFp8Exp5 || d == dtype::kUint32 || d == dtype::kUint16 ||
           d == dtype::kUint8 || d == dtype::kInt32 || d == dtype::kInt16 || d == dtype::kInt8;
  }
  return s.header.opcode == opcode::kImmLdBitvec &&
         (d == dtype::kUint32 || d == dtype::kUint16 || d == dtype::kUint8 || d == dtype::kInt32);
}

bool s2_bn_dtype(const S2Bn& s, const CheckContext&) {
  const uint8_t d = s.dtype;
  return d == dtype::kFp32 || d == dtype::kFp16 || d == dtype::kBfloat16;
}

/// is_valid_dtype(dtype, FP32R not allowed), by the table built from pred::is_valid_dtype.
bool valid_dtype(const S2Bn& s, const CheckContext& c) {
  return dtype_accepts(s.dtype, false, c);
}

bool channels_ok(const S2Bn& s, const CheckContext& c) {
  return pred::check_active_channels(s.num_active_channels, c.gen);
}

bool imm_src_ok(const S2Bn& s, const CheckContext&) {
  return s.imm0_src <= 2;
}

/// s2_bn_zgen_restriction: the body is unknown and taken as true (PROJ-CONV-S2).
bool zgen_ok(const S2Bn&, const CheckContext&) {
  return true;
}

bool bn_imm0_pointer_part(const S2Bn& s, Generation g) {
  switch (s2bn::imm0_reading(s)) {
    case ImmReading::Pointer:
      return s.imm0_ptr.raw % 4 == 0 && pred::tpb_addr_active_channels(s.imm0_ptr.raw, s.num_active_channels, g);
    case ImmReading::Register: return pred::is_valid_imm_reg(s.imm0_ptr);
    case ImmReading::Value: break;  // PROJ-CONV-S11: no pointer branch applies
  }
  return true;
}

bool has_valid_bn_param_load_imm0(const S2Bn& s, const CheckContext& c) {
  return bn_imm0_pointer_part(s, c.gen) && std::isfinite(s.imm1.as_fp32());
}

bool src_tensor_valid(const S2Bn& s, const CheckContext& c) {
  return pred::tensor2d_valid(s.src_mem_pattern, s.dtype, /*write=*/false, /*psum=*/true, /*sbuf=*/true, c.gen);
}

// ---- Explanations ----

std::string count_text(const S2Bn& s) {
  return fmt::format("src num_elem = {{{}, {}}} (product {})", s.src_mem_pattern.num_elem[0],
                     s.src_mem_pattern.num_elem[1], product(s));
}

std::string explain_immld_count(const Instruction& i, const CheckContext& c) {
  return count_text(s_of(i)) + (pred::has_shape_escape(c.gen)
                                    ? ": must load 1..8 elements unless the shape comes from a register"
                                    : ": must load 1..8 elements (no shape-from-register escape on sunda)");
}

std::string explain_bn_count(const Instruction& i, const CheckContext& c) {
  return count_text(s_of(i)) + (pred::has_shape_escape(c.gen)
                                    ? ": must be {3, 1} or {1, 3} unless the shape comes from a register"
                                    : ": must be {3, 1} or {1, 3} (no shape-from-register escape on sunda)");
}

std::string explain_mvl_count(const Instruction& i, const CheckContext&) {
  return count_text(s_of(i)) + ": MatchValueLoad loads exactly 8 keys";
}

std::string explain_zero_imm(const Instruction& i, const CheckContext&) {
  const S2Bn& s = s_of(i);
  return fmt::format(
      "imm1 = {:#010x}, imm0_ptr = {:#010x}, imm0_src = {}: both immediates must equal 0.0 and "
      "imm0_src must be 0",
      s.imm1.raw, s.imm0_ptr.raw, s.imm0_src);
}

std::string explain_immld_dtype(const Instruction& i, const CheckContext& c) {
  const S2Bn& s = s_of(i);
  return s.header.opcode == opcode::kImmLdBitvec
             ? fmt::format("dtype {} is not a TensorScalarImmLdBitvec dtype (UINT8, UINT16, UINT32, INT32)",
                           dtype_label(s.dtype, c.gen))
             : fmt::format(
                   "dtype {} is not a TensorScalarImmLdArith dtype (FP32, FP16, BFLOAT16, FP8_EXP3/4/5, "
                   "UINT8/16/32, INT8/16/32)",
                   dtype_label(s.dtype, c.gen));
}

std::string explain_valid_dtype(const Instruction& i, const CheckContext& c) {
  std::string_view via;
  pred::is_valid_dtype(s_of(i).dtype, false, c, &via);
  return fmt::format("dtype {} fails is_valid_dtype ({})", dtype_label(s_of(i).dtype, c.gen), via);
}

std::string_view via_valid_dtype(const Instruction& i, const CheckContext& c) {
  std::string_view via;
  pred::is_valid_dtype(s_of(i).dtype, false, c, &via);
  return via == "dtype_4bit_illegal_check" || via == "dtype_scale_illegal_check" ? via : std::string_view{};
}

std::string explain_channels(const Instruction& i, const CheckContext& c) {
  return fmt::format("num_active_channels is {}, must be 1..{}", s_of(i).num_active_channels, geometry(c.gen).channels);
}

std::string explain_tensor2d(const Instruction& i, const CheckContext& c) {
  const S2Bn& s = s_of(i);
  const Tensor2d& t = s.src_mem_pattern;
  if (!pred::counts_nonzero(t.num_elem, t.start_addr, c.gen))
    return fmt::format("src num_elem = {{{}, {}}} has a zero count{}", t.num_elem[0], t.num_elem[1],
                       pred::has_shape_escape(c.gen) ? " and the shape does not come from a register"
                                                     : " (no shape-from-register escape on sunda, PROJ-CONV-C18)");
  return fmt::format("src start_addr {} is not a readable {}-aligned SBUF/PSUM address for dtype {}",
                     addr4_label(t.start_addr, c.gen), dtype_size(s.dtype), dtype_label(s.dtype, c.gen));
}

std::string_view tensor2d_convention(const Instruction& i, const CheckContext& c) {
  const Tensor2d& t = s_of(i).src_mem_pattern;
  if (c.gen == Generation::Sunda && !pred::counts_nonzero(t.num_elem, t.start_addr, c.gen) &&
      describe(t.start_addr, c.gen).shape_from_register)
    return "PROJ-CONV-C18";
  return "";
}

std::string explain_reserved(const Instruction& i, const CheckContext&) {
  return explain_reserved_bytes(encode(i), fReserved);
}

std::string explain_s2_bn_dtype(const Instruction& i, const CheckContext& c) {
  return fmt::format("dtype {} is not FP32, FP16 or BFLOAT16", dtype_label(s_of(i).dtype, c.gen));
}

std::string explain_bn_imm0(const Instruction& i, const CheckContext& c) {
  const S2Bn& s = s_of(i);
  std::string why;
  if (!bn_imm0_pointer_part(s, c.gen)) {
    why = s2bn::imm0_reading(s) == ImmReading::Register
              ? fmt::format(
                    "imm0_ptr register form r{} with reserved bits {:#x}: needs regnum <= {} and zero "
                    "reserved bytes",
                    s.imm0_ptr.regnum(), s.imm0_ptr.reg_reserved(), kNumRegisters - 1)
              : fmt::format(
                    "batch-mean pointer {:#010x} must be 4-byte aligned and address partitions p..p+{} "
                    "inside SBUF or PSUM",
                    s.imm0_ptr.raw, s.num_active_channels);
  }
  if (!std::isfinite(s.imm1.as_fp32())) {
    if (!why.empty()) why += "; ";
    why += fmt::format("N (imm1 = {:#010x}) must be a finite fp32", s.imm1.raw);
  }
  return why;
}

std::string_view via_bn_imm0(const Instruction& i, const CheckContext& c) {
  const S2Bn& s = s_of(i);
  if (!bn_imm0_pointer_part(s, c.gen))
    return s2bn::imm0_reading(s) == ImmReading::Register ? "is_valid_imm_reg" : "tpb_addr_active_channels";
  return "";
}

std::string_view bn_imm0_convention(const Instruction& i, const CheckContext& c) {
  const S2Bn& s = s_of(i);
  if (!bn_imm0_pointer_part(s, c.gen))
    return s2bn::imm0_reading(s) == ImmReading::Register ? "PROJ-CONV-S4" : "PROJ-CONV-C15";
  return "";
}

std::string explain_imm_src(const Instruction& i, const CheckContext&) {
  return fmt::format("imm0_src is {}, must be INSTRUCTION (0), POINTER (1) or REG_PTR (2)", s_of(i).imm0_src);
}

// ---- Predicates ----

template <uint8_t... Ops>
constexpr Predicate opcode_predicate(std::string_view name) {
  return rule<S2Bn, has_opcode<Ops...>>({.name = name,
                                         .convention = "",
                                         .meaning = "the opcode is the one this validator judges",
                                         .gens = kGensAll,
                                         .fields = fOpcode,
                                         .explain = explain_opcode});
}

constexpr Predicate kImmLdOpcode =
    opcode_predicate<opcode::kImmLdArith, opcode::kImmLdBitvec>("has_tsm_immediates_load_opcode");
constexpr Predicate kBnOpcode = opcode_predicate<opcode::kBatchNormParamLoad>("has_batch_norm_param_load_opcode");
constexpr Predicate kMvlOpcode = opcode_predicate<opcode::kMatchValueLoad>("has_match_value_load_opcode");

constexpr Predicate kImmLdCount = rule<S2Bn, immld_count>(
    {.name = "has_tsm_immediates_load_src_element_cnt",
     .convention = "",
     .meaning = "num_elem[0] * num_elem[1] is 1..8, or (CAYMAN and later) the shape comes from a register",
     .gens = kGensAll,
     .fields = fSrcCount,
     .explain = explain_immld_count});

constexpr Predicate kBnCount = rule<S2Bn, bn_param_load_count>(
    {.name = "has_bn_param_load_src_element_cnt",
     .convention = "",
     .meaning = "num_elem is {3, 1} or {1, 3}, or (CAYMAN and later) the shape comes from a register",
     .gens = kGensAll,
     .fields = fSrcCount,
     .explain = explain_bn_count});

constexpr Predicate kMvlCount =
    rule<S2Bn, mvl_count>({.name = "has_match_value_load_src_element_cnt",
                           .convention = "",
                           .meaning = "num_elem[0] * num_elem[1] == 8 (no shape-from-register escape, PROJ-CONV-S5)",
                           .gens = kGensAll,
                           .fields = fSrcCount,
                           .explain = explain_mvl_count});

constexpr Predicate kZeroImmediates = rule<S2Bn, has_s2_bn_zero_immediates>(
    {.name = "has_s2_bn_zero_immediates",
     .convention = "",
     .meaning = "imm1 and imm0_ptr compare equal to 0.0 as floats (-0.0 passes, NaN fails) and imm0_src is 0",
     .gens = kGensAll,
     .fields = fImmediates,
     .explain = explain_zero_imm});

constexpr Predicate kImmLdDtypes = rule<S2Bn, tsm_immld_dtypes>(
    {.name = "tsm_immld_dtypes",
     .convention = "",
     .meaning = "0x70: dtype in the 12 Arith dtypes; 0x71: dtype in UINT8, UINT16, UINT32, INT32",
     .gens = kGensAll,
     .fields = fDtypeOp,
     .explain = explain_immld_dtype});

constexpr Predicate kValidDtype = rule<S2Bn, valid_dtype>(
    {.name = "is_valid_dtype",
     .convention = "",
     .meaning = "is_valid_dtype(dtype, FP32R not allowed): not INVALID, FP32R, UINT64, INT64; a member of the "
                "generation's DTYPE enum (PROJ-CONV-C13); on MAVERICK not a 4-bit or scale dtype",
     .gens = kGensAll,
     .fields = fDtype,
     .explain = explain_valid_dtype,
     .via = via_valid_dtype});

constexpr Predicate kChannels =
    rule<S2Bn, channels_ok>({.name = "check_active_channels",
                             .convention = "",
                             .meaning = "num_active_channels is 1..128 (POOLING_NUM_CHANNELS)",
                             .gens = kGensAll,
                             .fields = fChannels,
                             .explain = explain_channels});

constexpr Predicate kTensor2d = rule<S2Bn, src_tensor_valid>(
    {.name = "tensor2d_valid",
     .convention = "",
     .meaning = "the source pattern has non-zero counts (or, CAYMAN and later, a register shape) and a start "
                "address that is a register (marker 0x80) or a dtype-aligned SBUF/PSUM address",
     .gens = kGensAll,
     .fields = fSrc,
     .explain = explain_tensor2d,
     .via = nullptr,
     .failure_convention = tensor2d_convention});

constexpr Predicate kReserved =
    reserved_rule<S2Bn, fReserved>({.name = "s2_bn_reserved_zero",
                                    .convention = "",
                                    .meaning = "reserved0, reserved1, reserved2 and reserved3 are zero",
                                    .gens = kGensAll,
                                    .explain = explain_reserved});

constexpr Predicate kZgen = rule<S2Bn, zgen_ok>(
    {.name = "s2_bn_zgen_restriction",
     .convention = "PROJ-CONV-S2",
     .meaning = "(CAYMAN and later) the ZGEN backward-compatibility restriction; body unknown, taken as true",
     .gens = kGensCaymanUp,
     .fields = {},
     .explain = [](const Instruction&, const CheckContext&) { return std::string("never fails (PROJ-CONV-S2)"); }});

constexpr Predicate kS2BnDtype = rule<S2Bn, s2_bn_dtype>({.name = "s2_bn_dtype",
                                                          .convention = "",
                                                          .meaning = "dtype is FP32, FP16 or BFLOAT16",
                                                          .gens = kGensAll,
                                                          .fields = fDtype,
                                                          .explain = explain_s2_bn_dtype});

constexpr Predicate kBnImm0 = rule<S2Bn, has_valid_bn_param_load_imm0>(
    {.name = "has_valid_bn_param_load_imm0",
     .convention = "",
     .meaning = "imm0_src 0/1: the batch-mean pointer is 4-aligned and its partition + num_active_channels <= 128 "
                "(PROJ-CONV-C15); imm0_src 2: a valid register (PROJ-CONV-S4); and N (imm1) is finite",
     .gens = kGensAll,
     .fields = fImm0,
     .explain = explain_bn_imm0,
     .via = via_bn_imm0,
     .failure_convention = bn_imm0_convention});

constexpr Predicate kImmSrcEnum = rule<S2Bn, imm_src_ok>({.name = "is_valid_enum(ImmSrc)",
                                                          .convention = "",
                                                          .meaning = "imm0_src is a member of IMM_SRC (0, 1, 2)",
                                                          .gens = kGensAll,
                                                          .fields = fImmSrcField,
                                                          .explain = explain_imm_src});

// ---- Validators (s2bn.md §3.2-§3.4) ----

constexpr const Predicate* kImmLd[] = {&kHasValidNeuronHeader,
                                       &kHasValidNeuronEvents,
                                       &kImmLdOpcode,
                                       &kImmLdCount,
                                       &kZeroImmediates,
                                       &kImmLdDtypes,
                                       &kValidDtype,
                                       &kChannels,
                                       &kTensor2d,
                                       &kReserved,
                                       &kZgen};
constexpr const Predicate* kBn[] = {&kHasValidNeuronHeader,
                                    &kHasValidNeuronEvents,
                                    &kBnOpcode,
                                    &kBnCount,
                                    &kBnImm0,
                                    &kImmSrcEnum,
                                    &kS2BnDtype,
                                    &kChannels,
                                    &kTensor2d,
                                    &kReserved,
                                    &kZgen};
constexpr const Predicate* kMvl[] = {&kHasValidNeuronHeader,
                                     &kHasValidNeuronEvents,
                                     &kMvlOpcode,
                                     &kMvlCount,
                                     &kZeroImmediates,
                                     &kValidDtype,
                                     &kChannels,
                                     &kReserved,
                                     &kTensor2d};

constexpr Validator kImmLdValidator = full_validator<kImmLd>("is_valid_tsm_immediates_load");
constexpr Validator kBnValidator = full_validator<kBn>("is_valid_batch_norm_param_load");
constexpr Validator kMvlValidator = full_validator<kMvl>("is_valid_match_value_load");

constexpr ValidatorRow kRows[] = {
    {opcode::kImmLdArith, &kImmLdValidator},
    {opcode::kImmLdBitvec, &kImmLdValidator},
    {opcode::kBatchNormParamLoad, &kBnValidator},
    {opcode::kMatchValueLoad, &kMvlValidator},
};
constexpr Validation kValidation = validator_table<S2BnFamily, kRows>();

}  // namespace

const Validation& S2BnFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
