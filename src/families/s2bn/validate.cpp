// S2_BN family validators: TensorScalarImmLd 0x70/0x71, BatchNormParamLoad 0x64, MatchValueLoad 0x6d (s2bn.md §3).
#include <algorithm>
#include <cmath>

#include "families/common.hpp"
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

bool has_s2_bn_zero_immediates(const S2Bn& s) {
  // Equal to 0.0 as floats: -0.0 passes, NaN and denormals fail (s2bn.md §3.1 note). Tested on the bits (all but
  // the sign zero), which is that comparison without the float unit or the processor's denormal mode.
  constexpr uint32_t kMagnitude = 0x7FFFFFFF;
  return (s.imm0_ptr.raw & kMagnitude) == 0 && s.imm0_src == 0 && (s.imm1.raw & kMagnitude) == 0;
}

bool s2_bn_reserved_zero(const S2Bn& s) {
  auto zero = [](const auto& bytes) {
    return std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; });
  };
  return zero(s.reserved0) && zero(s.reserved1) && zero(s.reserved2) && zero(s.reserved3);
}

bool shape_escape(const S2Bn& s, Generation g) {
  return pred::has_shape_escape(g) && describe(s.src_mem_pattern.start_addr, g).shape_from_register;
}

bool immld_count(const S2Bn& s, Generation g) {
  const unsigned p = product(s);
  return (p >= 1 && p <= 8) || shape_escape(s, g);
}

bool bn_param_load_count(const S2Bn& s, Generation g) {
  const auto& n = s.src_mem_pattern.num_elem;
  return (n[0] == 3 && n[1] == 1) || (n[0] == 1 && n[1] == 3) || shape_escape(s, g);
}

[[gnu::always_inline]] inline bool tsm_immld_dtypes(const S2Bn& s) {
  const uint8_t d = s.dtype;
  if (s.header.opcode == opcode::kImmLdArith) {
    return d == dtype::kFp32 || d == dtype::kFp16 || d == dtype::kBfloat16 || d == dtype::kFp8Exp3 ||
           d == dtype::kFp8Exp4 || d == dtype::kFp8Exp5 || d == dtype::kUint32 || d == dtype::kUint16 ||
           d == dtype::kUint8 || d == dtype::kInt32 || d == dtype::kInt16 || d == dtype::kInt8;
  }
  return s.header.opcode == opcode::kImmLdBitvec &&
         (d == dtype::kUint32 || d == dtype::kUint16 || d == dtype::kUint8 || d == dtype::kInt32);
}

bool s2_bn_dtype(uint8_t d) {
  return d == dtype::kFp32 || d == dtype::kFp16 || d == dtype::kBfloat16;
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

bool has_valid_bn_param_load_imm0(const S2Bn& s, Generation g) {
  return bn_imm0_pointer_part(s, g) && std::isfinite(s.imm1.as_fp32());
}

bool src_tensor_valid(const S2Bn& s, Generation g) {
  return pred::tensor2d_valid(s.src_mem_pattern, s.dtype, /*write=*/false, /*psum=*/true, /*sbuf=*/true, g);
}

// ---- Explanations ----

std::string explain_opcode(const Instruction& i, const CheckContext&) {
  return fmt::format("opcode {:#04x} does not belong to this validator", i.opcode());
}

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

template <uint8_t Lo, uint8_t Hi>
constexpr Predicate opcode_predicate(std::string_view name) {
  return {.name = name,
          .convention = "",
          .meaning = "the opcode is the one this validator judges",
          .gens = kGensAll,
          .fields = fOpcode,
          .holds = [](const Instruction& i, const CheckContext&) { return i.opcode() == Lo || i.opcode() == Hi; },
          .explain = explain_opcode,
          .accepts = on_view<RawWord, [](const RawWord& x, const CheckContext&) {
            return x.header.opcode == Lo || x.header.opcode == Hi;
          }>};
}

constexpr Predicate kImmLdOpcode =
    opcode_predicate<opcode::kImmLdArith, opcode::kImmLdBitvec>("has_tsm_immediates_load_opcode");
constexpr Predicate kBnOpcode =
    opcode_predicate<opcode::kBatchNormParamLoad, opcode::kBatchNormParamLoad>("has_batch_norm_param_load_opcode");
constexpr Predicate kMvlOpcode =
    opcode_predicate<opcode::kMatchValueLoad, opcode::kMatchValueLoad>("has_match_value_load_opcode");

constexpr Predicate kImmLdCount{
    .name = "has_tsm_immediates_load_src_element_cnt",
    .convention = "",
    .meaning = "num_elem[0] * num_elem[1] is 1..8, or (CAYMAN and later) the shape comes from a register",
    .gens = kGensAll,
    .fields = fSrcCount,
    .holds = [](const Instruction& i, const CheckContext& c) { return immld_count(s_of(i), c.gen); },
    .explain = explain_immld_count,
    .accepts = on_view<S2Bn, [](const S2Bn& x, const CheckContext& c) { return immld_count(x, c.gen); }>};

constexpr Predicate kBnCount{
    .name = "has_bn_param_load_src_element_cnt",
    .convention = "",
    .meaning = "num_elem is {3, 1} or {1, 3}, or (CAYMAN and later) the shape comes from a register",
    .gens = kGensAll,
    .fields = fSrcCount,
    .holds = [](const Instruction& i, const CheckContext& c) { return bn_param_load_count(s_of(i), c.gen); },
    .explain = explain_bn_count,
    .accepts = on_view<S2Bn, [](const S2Bn& x, const CheckContext& c) { return bn_param_load_count(x, c.gen); }>};

constexpr Predicate kMvlCount{
    .name = "has_match_value_load_src_element_cnt",
    .convention = "",
    .meaning = "num_elem[0] * num_elem[1] == 8 (no shape-from-register escape, PROJ-CONV-S5)",
    .gens = kGensAll,
    .fields = fSrcCount,
    .holds = [](const Instruction& i, const CheckContext&) { return product(s_of(i)) == 8; },
    .explain = explain_mvl_count,
    .accepts = on_view<S2Bn, [](const S2Bn& x, const CheckContext&) { return product(x) == 8; }>};

constexpr Predicate kZeroImmediates{
    .name = "has_s2_bn_zero_immediates",
    .convention = "",
    .meaning = "imm1 and imm0_ptr compare equal to 0.0 as floats (-0.0 passes, NaN fails) and imm0_src is 0",
    .gens = kGensAll,
    .fields = fImmediates,
    .holds = [](const Instruction& i, const CheckContext&) { return has_s2_bn_zero_immediates(s_of(i)); },
    .explain = explain_zero_imm,
    .accepts = on_view<S2Bn, [](const S2Bn& x, const CheckContext&) { return has_s2_bn_zero_immediates(x); }>};

constexpr Predicate kImmLdDtypes{
    .name = "tsm_immld_dtypes",
    .convention = "",
    .meaning = "0x70: dtype in the 12 Arith dtypes; 0x71: dtype in UINT8, UINT16, UINT32, INT32",
    .gens = kGensAll,
    .fields = fDtypeOp,
    .holds = [](const Instruction& i, const CheckContext&) { return tsm_immld_dtypes(s_of(i)); },
    .explain = explain_immld_dtype,
    .accepts = on_view<S2Bn, [](const S2Bn& x, const CheckContext&) { return tsm_immld_dtypes(x); }>};

constexpr Predicate kValidDtype{
    .name = "is_valid_dtype",
    .convention = "",
    .meaning =
        "is_valid_dtype(dtype, FP32R not allowed): not INVALID, FP32R, UINT64, INT64; a member of the "
        "generation's DTYPE enum (PROJ-CONV-C13); on MAVERICK not a 4-bit or scale dtype",
    .gens = kGensAll,
    .fields = fDtype,
    .holds = [](const Instruction& i, const CheckContext& c) { return pred::is_valid_dtype(s_of(i).dtype, false, c); },
    .explain = explain_valid_dtype,
    .via = via_valid_dtype,
    .accepts = on_view<S2Bn, [](const S2Bn& x, const CheckContext& c) { return dtype_accepts(x.dtype, false, c); }>};

constexpr Predicate kChannels{
    .name = "check_active_channels",
    .convention = "",
    .meaning = "num_active_channels is 1..128 (POOLING_NUM_CHANNELS)",
    .gens = kGensAll,
    .fields = fChannels,
    .holds = [](const Instruction& i,
                const CheckContext& c) { return pred::check_active_channels(s_of(i).num_active_channels, c.gen); },
    .explain = explain_channels,
    .accepts = on_view<S2Bn, [](const S2Bn& x, const CheckContext& c) {
      return pred::check_active_channels(x.num_active_channels, c.gen);
    }>};

constexpr Predicate kTensor2d{
    .name = "tensor2d_valid",
    .convention = "",
    .meaning =
        "the source pattern has non-zero counts (or, CAYMAN and later, a register shape) and a start "
        "address that is a register (marker 0x80) or a dtype-aligned SBUF/PSUM address",
    .gens = kGensAll,
    .fields = fSrc,
    .holds = [](const Instruction& i, const CheckContext& c) { return src_tensor_valid(s_of(i), c.gen); },
    .explain = explain_tensor2d,
    .via = nullptr,
    .failure_convention = tensor2d_convention,
    .accepts = on_view<S2Bn, [](const S2Bn& x, const CheckContext& c) { return src_tensor_valid(x, c.gen); }>};

constexpr Predicate kReserved{
    .name = "s2_bn_reserved_zero",
    .convention = "",
    .meaning = "reserved0, reserved1, reserved2 and reserved3 are zero",
    .gens = kGensAll,
    .fields = fReserved,
    .holds = [](const Instruction& i, const CheckContext&) { return s2_bn_reserved_zero(s_of(i)); },
    .explain = explain_reserved,
    // The body checks exactly the Role::Reserved fields: one must-be-zero mask over the word, 64 bits at a time.
    .accepts = [](const uint8_t* w, const CheckContext&) { return reserved_bytes_zero<S2Bn>(w); }};

constexpr Predicate kZgen{
    .name = "s2_bn_zgen_restriction",
    .convention = "PROJ-CONV-S2",
    .meaning = "(CAYMAN and later) the ZGEN backward-compatibility restriction; body unknown, taken as true",
    .gens = kGensCaymanUp,
    .fields = {},
    .holds = [](const Instruction&, const CheckContext&) { return true; },
    .explain = [](const Instruction&, const CheckContext&) { return std::string("never fails (PROJ-CONV-S2)"); },
    .accepts = on_view<RawWord, [](const RawWord&, const CheckContext&) { return true; }>};

constexpr Predicate kS2BnDtype{
    .name = "s2_bn_dtype",
    .convention = "",
    .meaning = "dtype is FP32, FP16 or BFLOAT16",
    .gens = kGensAll,
    .fields = fDtype,
    .holds = [](const Instruction& i, const CheckContext&) { return s2_bn_dtype(s_of(i).dtype); },
    .explain = explain_s2_bn_dtype,
    .accepts = on_view<S2Bn, [](const S2Bn& x, const CheckContext&) { return s2_bn_dtype(x.dtype); }>};

constexpr Predicate kBnImm0{
    .name = "has_valid_bn_param_load_imm0",
    .convention = "",
    .meaning =
        "imm0_src 0/1: the batch-mean pointer is 4-aligned and its partition + num_active_channels <= 128 "
        "(PROJ-CONV-C15); imm0_src 2: a valid register (PROJ-CONV-S4); and N (imm1) is finite",
    .gens = kGensAll,
    .fields = fImm0,
    .holds = [](const Instruction& i, const CheckContext& c) { return has_valid_bn_param_load_imm0(s_of(i), c.gen); },
    .explain = explain_bn_imm0,
    .via = via_bn_imm0,
    .failure_convention = bn_imm0_convention,
    .accepts =
        on_view<S2Bn, [](const S2Bn& x, const CheckContext& c) { return has_valid_bn_param_load_imm0(x, c.gen); }>};

constexpr Predicate kImmSrcEnum{
    .name = "is_valid_enum(ImmSrc)",
    .convention = "",
    .meaning = "imm0_src is a member of IMM_SRC (0, 1, 2)",
    .gens = kGensAll,
    .fields = fImmSrcField,
    .holds = [](const Instruction& i, const CheckContext&) { return s_of(i).imm0_src <= 2; },
    .explain = explain_imm_src,
    .accepts = on_view<S2Bn, [](const S2Bn& x, const CheckContext&) { return x.imm0_src <= 2; }>};

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

constexpr Validator kValidators[] = {
    {"is_valid_tsm_immediates_load", Checked::Full, kImmLd, &evaluate_conjuncts<kImmLd>, fast_acceptor<kImmLd>()},
    {"is_valid_batch_norm_param_load", Checked::Full, kBn, &evaluate_conjuncts<kBn>, fast_acceptor<kBn>()},
    {"is_valid_match_value_load", Checked::Full, kMvl, &evaluate_conjuncts<kMvl>, fast_acceptor<kMvl>()},
};
constexpr const Validator* kValidatorList[] = {&kValidators[0], &kValidators[1], &kValidators[2]};

const Validator* select(uint8_t op, Generation) {
  switch (op) {
    case opcode::kImmLdArith:
    case opcode::kImmLdBitvec: return &kValidators[0];
    case opcode::kBatchNormParamLoad: return &kValidators[1];
    case opcode::kMatchValueLoad: return &kValidators[2];
    default: return nullptr;
  }
}

constexpr Validation kValidation{select, kValidatorList};

}  // namespace

const Validation& S2BnFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
