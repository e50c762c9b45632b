// Tensor-scalar family validators (alu-ops.md §5): is_valid_tensor_scalar_op (0x43/0x53/0x93),
// is_valid_tensor_scalar_ptr_op (0x44/0x54, PROJ-CONV-K26), the cache reduce/cumulative pair (0x9A/0xE6),
// is_valid_exponential (0x30, PROJ-CONV-K19) and is_valid_dve_read_accumulator (0x9B, PROJ-CONV-K16).
#include "families/common.hpp"
#include "families/operand_rules.hpp"
#include "families/tensor_scalar/format.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;

using Ts = S3d3Ts;
using Rd = D1Rd;
namespace ts = tensor_scalar;

// ---- Fields read, by name ----

constexpr FieldRef fTsOps[] = {field_ref<Ts>("header.opcode"), field_ref<Ts>("op0"),  field_ref<Ts>("op1"),
                               field_ref<Ts>("imm0_src"),      field_ref<Ts>("imm0"), field_ref<Ts>("imm1_src"),
                               field_ref<Ts>("imm1")};
constexpr FieldRef fTsTypes[] = {field_ref<Ts>("header.opcode"), field_ref<Ts>("in_dtype"), field_ref<Ts>("out_dtype")};
constexpr FieldRef fTsImms[] = {
    field_ref<Ts>("header.opcode"), field_ref<Ts>("in_dtype"), field_ref<Ts>("num_active_channels"),
    field_ref<Ts>("imm0_src"),      field_ref<Ts>("imm0"),     field_ref<Ts>("imm1_src"),
    field_ref<Ts>("imm1")};
constexpr FieldRef fTsCacheImms[] = {field_ref<Ts>("accumulator_cmd"), field_ref<Ts>("num_active_channels"),
                                     field_ref<Ts>("imm0_src"),        field_ref<Ts>("imm0"),
                                     field_ref<Ts>("imm1_src"),        field_ref<Ts>("imm1")};
constexpr FieldRef fTsPtrSrc[] = {field_ref<Ts>("imm0_src"), field_ref<Ts>("imm1_src")};
constexpr FieldRef fTsPtrImms[] = {field_ref<Ts>("header.opcode"), field_ref<Ts>("in_dtype"),
                                   field_ref<Ts>("num_active_channels"), field_ref<Ts>("imm0"), field_ref<Ts>("imm1")};
constexpr FieldRef fTsShift[] = {field_ref<Ts>("op0"), field_ref<Ts>("op1"), field_ref<Ts>("in_dtype")};
constexpr FieldRef fTsTensors[] = {field_ref<Ts>("src.start_addr"), field_ref<Ts>("src.num_elem"),
                                   field_ref<Ts>("in_dtype"),       field_ref<Ts>("dst.start_addr"),
                                   field_ref<Ts>("dst.num_elem"),   field_ref<Ts>("out_dtype")};
constexpr FieldRef fTsReverse[] = {field_ref<Ts>("reverse_operands")};
constexpr auto fTsReserved = field_refs_with_role<Ts, Role::Reserved>();
constexpr FieldRef fTsTranspose[] = {field_ref<Ts>("header.opcode"), field_ref<Ts>("src.num_elem"),
                                     field_ref<Ts>("num_active_channels")};
constexpr FieldRef fTsInDtype[] = {field_ref<Ts>("in_dtype")};
constexpr FieldRef fTsOutDtype[] = {field_ref<Ts>("out_dtype")};
constexpr FieldRef fTsOp0[] = {field_ref<Ts>("op0")};
constexpr FieldRef fTsOp1[] = {field_ref<Ts>("op1")};
constexpr FieldRef fTsCmd[] = {field_ref<Ts>("accumulator_cmd")};
constexpr FieldRef fTsChannels[] = {field_ref<Ts>("num_active_channels")};
constexpr FieldRef fTsSrcChannels[] = {field_ref<Ts>("src.start_addr"), field_ref<Ts>("num_active_channels")};
constexpr FieldRef fTsDstChannels[] = {field_ref<Ts>("dst.start_addr"), field_ref<Ts>("num_active_channels")};
constexpr FieldRef fTsSrcTensor[] = {field_ref<Ts>("src.start_addr"), field_ref<Ts>("src.num_elem"),
                                     field_ref<Ts>("in_dtype")};
constexpr FieldRef fTsDstTensor[] = {field_ref<Ts>("dst.start_addr"), field_ref<Ts>("dst.num_elem"),
                                     field_ref<Ts>("out_dtype")};
constexpr FieldRef fTsCacheOps[] = {field_ref<Ts>("op0"), field_ref<Ts>("op1")};
constexpr FieldRef fTsExpCmd[] = {field_ref<Ts>("accumulator_cmd"), field_ref<Ts>("imm1_src"), field_ref<Ts>("imm1")};
constexpr FieldRef fTsExpCount[] = {field_ref<Ts>("accumulator_cmd"), field_ref<Ts>("in_dtype"),
                                    field_ref<Ts>("src.start_addr"),  field_ref<Ts>("src.step_elem"),
                                    field_ref<Ts>("src.num_elem"),    field_ref<Ts>("dst.start_addr")};
constexpr FieldRef fTsExpOps[] = {field_ref<Ts>("op0"), field_ref<Ts>("op1"), field_ref<Ts>("reverse_operands")};

constexpr auto fRdReserved = field_refs_with_role<Rd, Role::Reserved>();
constexpr FieldRef fRdDtype[] = {field_ref<Rd>("dtype")};
constexpr FieldRef fRdChannels[] = {field_ref<Rd>("num_active_channels")};
constexpr FieldRef fRdDstChannels[] = {field_ref<Rd>("dst.start_addr"), field_ref<Rd>("num_active_channels")};
constexpr FieldRef fRdDstTensor[] = {field_ref<Rd>("dst.start_addr"), field_ref<Rd>("dst.num_elem"),
                                     field_ref<Rd>("dtype")};
constexpr FieldRef fRdSize[] = {field_ref<Rd>("dst_element_count"), field_ref<Rd>("dst.start_addr"),
                                field_ref<Rd>("dst.num_elem")};
constexpr FieldRef fRdNegated[] = {field_ref<Rd>("negated")};

// ---- Shared bodies (alu-ops.md §2.10, §5.2) ----

/// is_valid_int_dtype_datapath.
constexpr bool int_dtype_datapath(uint8_t d) {
  return d == dtype::kInt8 || d == dtype::kInt16 || d == dtype::kInt32 || d == dtype::kUint8 || d == dtype::kUint16 ||
         d == dtype::kUint32;
}
/// is_valid_fp_dtype_datapath(d, allow_fp32r).
constexpr bool fp_dtype_datapath(uint8_t d, bool allow_fp32r) {
  return d == dtype::kFp8Exp3 || d == dtype::kFp8Exp4 || d == dtype::kFp8Exp5 || d == dtype::kFp16 ||
         d == dtype::kBfloat16 || d == dtype::kFp32 || (allow_fp32r && d == dtype::kFp32r);
}
/// The 4-byte dtypes Exponential treats as unpacked (exp_x_even_or_unpacked, exp_upper_src_dim_even).
constexpr bool unpacked_dtype(uint8_t d) {
  return d == dtype::kFp32 || d == dtype::kUint32 || d == dtype::kInt32;
}

/// is_general_arith_op, with SYMMETRIC_CLAMP's membership behind its option (PROJ-CONV-T11).
constexpr bool general_arith(uint8_t op, const CheckContext& c) {
  if (op == aluop::kSymmetricClamp && !c.options.symmetric_clamp_general_arith) return false;
  return aluop_is(op, kAluGeneralArith, c.gen);
}

/// ts_imm_chk: an arithmetic (or accumulating) opcode's inline immediate is any fp32; a bit-vector opcode's holds no
/// bits above the in_dtype width (PROJ-CONV-K11 a).
constexpr bool ts_imm_chk(const Ts& x, ImmVal imm) {
  if (!ts::bitvec_opcode(x.header.opcode)) return true;
  switch (dtype_size(x.in_dtype)) {
    case 4: return true;
    case 2: return (imm.raw & 0xFFFF0000U) == 0;
    case 1: return (imm.raw & 0xFFFFFF00U) == 0;
    default: return false;
  }
}
/// ts_ptr_imm_chk: the pointer's partition + channels fits its region, aligned for in_dtype (bit-vector) or FP32.
inline bool ts_ptr_imm_chk(const Ts& x, ImmVal ptr, Generation g) {
  const uint8_t d = ts::bitvec_opcode(x.header.opcode) ? x.in_dtype : dtype::kFp32;
  return pred::tpb_addr_active_channels(ptr.raw, x.num_active_channels, g) && pred::addr_aligned_dtype(ptr.raw, d);
}
/// One (imm, src) pair of tensor_scalar_immediates_check.
inline bool imm_ok(const Ts& x, ImmVal imm, uint8_t src, Generation g) {
  switch (src) {
    case ts::kImmInstruction: return ts_imm_chk(x, imm);
    case ts::kImmPointer: return ts_ptr_imm_chk(x, imm, g);
    case ts::kImmRegPointer: return pred::is_valid_imm_reg(imm);
    default: return false;
  }
}

/// An indirect ADDR4 (alu-ops.md §5.6): (byte3 & 0x60) == 0x20.
constexpr bool indirect(const Addr4& a) {
  return (a.marker() & 0x60) == 0x20;
}

// ---- Predicate bodies ----

bool ts_valid_ops(const Ts& x, const CheckContext& c) {
  const uint8_t a = x.op0, b = x.op1;
  if (!aluop_in(a, c.gen) || !aluop_in(b, c.gen)) return false;
  for (uint8_t op : {a, b})
    if (op == aluop::kDivide || op == aluop::kPow || op == aluop::kMod) return false;
  if (ts::bitvec_opcode(x.header.opcode) && !(aluop_is(a, kAluBitvec, c.gen) && aluop_is(b, kAluBitvec, c.gen)))
    return false;
  if (ts::arith_opcode(x.header.opcode)) {
    const bool general = general_arith(a, c) && general_arith(b, c);
    const bool rsqrt = a == aluop::kRsqrt && b == aluop::kBypass && x.imm0.raw == 0 && x.imm0_src == 0 &&
                       x.imm1.raw == 0 && x.imm1_src == 0;
    const bool int_dve =
        c.gen == Generation::Maverick && aluop_is(a, kAluIntDve5, c.gen) && aluop_is(b, kAluIntDve5, c.gen);
    if (!general && !rsqrt && !int_dve) return false;
  }
  return a != aluop::kBypass || b == aluop::kBypass;
}

bool ts_valid_types(const Ts& x, const CheckContext&) {
  if (!ts::bitvec_opcode(x.header.opcode)) return true;
  return x.in_dtype == x.out_dtype && int_dtype_datapath(x.in_dtype);
}

bool ts_immediates(const Ts& x, const CheckContext& c) {
  return imm_ok(x, x.imm0, x.imm0_src, c.gen) && imm_ok(x, x.imm1, x.imm1_src, c.gen);
}

bool ts_shift(const Ts& x, const CheckContext&) {
  const bool left0 = x.op0 == aluop::kLogicalShiftLeft || x.op0 == aluop::kArithShiftLeft;
  const bool right1 = x.op1 == aluop::kLogicalShiftRight || x.op1 == aluop::kArithShiftRight;
  const bool constrained = (left0 && right1) || x.op0 == aluop::kArithShiftRight || x.op1 == aluop::kArithShiftRight;
  return !constrained || dtype_size(x.in_dtype) == 4;
}

bool ts_tensors(const Ts& x, const CheckContext& c) {
  return tensor_valid(x.src, x.in_dtype, false, c.gen) && tensor_valid(x.dst, x.out_dtype, true, c.gen) &&
         same_count(x.src, x.dst, c.gen);
}

bool ts_transpose(const Ts& x, const CheckContext&) {
  if (x.header.opcode != ts::kTranspose) return true;
  const unsigned n = x.num_active_channels;
  return x.src.elements() % 32 == 0 && (n == 32 || n == 64 || n == 96 || n == 128);
}

bool ts_ptr_src(const Ts& x, const CheckContext&) {
  return x.imm0_src == 0 && x.imm1_src == 0;
}

bool ts_ptr_immediates(const Ts& x, const CheckContext& c) {
  return ts_ptr_imm_chk(x, x.imm0, c.gen) && ts_ptr_imm_chk(x, x.imm1, c.gen);
}

bool cache_valid_ops(const Ts& x, const CheckContext& c) {
  const uint8_t b = x.op1;
  return aluop_in(x.op0, c.gen) && aluop_in(b, c.gen) && general_arith(x.op0, c) &&
         (b == aluop::kAdd || b == aluop::kSubtract || b == aluop::kMult || b == aluop::kMax || b == aluop::kMin);
}

bool cache_valid_types(const Ts& x, const CheckContext&) {
  const uint8_t d = x.in_dtype;
  return fp_dtype_datapath(d, false) || (int_dtype_datapath(d) && d != dtype::kInt32 && d != dtype::kUint32);
}

bool cache_immediates(const Ts& x, const CheckContext& c) {
  const bool imm1_ok = (x.accumulator_cmd == ts::kAccLoadAccumulate && imm_ok(x, x.imm1, x.imm1_src, c.gen)) ||
                       (x.imm1_src == 0 && x.imm1.raw == 0);
  return imm_ok(x, x.imm0, x.imm0_src, c.gen) && imm1_ok;
}

bool exp_accum_cmd(const Ts& x, const CheckContext&) {
  const uint8_t cmd = x.accumulator_cmd;
  const bool plain = cmd == ts::kAccZeroAccumulate || cmd == ts::kAccIdle || cmd == ts::kAccAccumulate;
  return (plain && x.imm1_src == 0 && x.imm1.raw == 0) || cmd == ts::kAccLoadAccumulate;
}

bool exp_num_elements(const Ts& x, const CheckContext&) {
  if (x.accumulator_cmd == ts::kAccIdle || indirect(x.src.start_addr) || indirect(x.dst.start_addr)) return true;
  const bool unpacked = unpacked_dtype(x.in_dtype);
  const bool x_even = unpacked || x.src.step_elem[0] != 1 || x.src.num_elem[0] % 2 == 0;
  const bool upper_even = unpacked || x.src.elements() % 2 == 0;  // PROJ-CONV-K19 (b)
  return x_even && upper_even;
}

bool exp_ops(const Ts& x, const CheckContext&) {
  return x.op0 == aluop::kBypass && x.op1 == aluop::kBypass && x.reverse_operands == 0;
}

// ---- Explanations ----

std::string imm_text(const Ts& x, std::string_view which, ImmVal imm, uint8_t src, const CheckContext& c) {
  if (imm_ok(x, imm, src, c.gen)) return "";
  switch (src) {
    case ts::kImmInstruction:
      return fmt::format("{} {:#010x} has bits above the {}-byte in_dtype {}", which, imm.raw, dtype_size(x.in_dtype),
                         dtype_label(x.in_dtype, c.gen));
    case ts::kImmPointer:
      return fmt::format("{} pointer {:#010x}: its partition + {} channels must fit and it must be aligned for {}",
                         which, imm.raw, x.num_active_channels,
                         ts::bitvec_opcode(x.header.opcode) ? dtype_label(x.in_dtype, c.gen) : "FP32");
    case ts::kImmRegPointer:
      return fmt::format("{} names register {:#010x}: a register below 64 with zero reserved bytes (PROJ-CONV-S4)",
                         which, imm.raw);
    default: return fmt::format("{}_src is {}, not an IMM_SRC value", which, src);
  }
}

std::string join_texts(std::string a, const std::string& b) {
  if (a.empty()) return b;
  return b.empty() ? a : a + "; " + b;
}

// ---- Predicate shapes ----

template <auto Member>
bool aluop_ok(const Ts& x, const CheckContext& c) {
  return aluop_table().has(c.gen, x.*Member);
}
template <auto Member, Name Which>
std::string aluop_text(const Ts& x, const CheckContext& c) {
  return fmt::format("{} {} is not in the ALU_OP enum of {}", std::string_view{Which}, aluop_label(x.*Member, c.gen),
                     to_string(c.gen));
}
template <auto Member, Name Which>
constexpr Predicate aluop_rule(std::span<const FieldRef> fields) {
  return text_rule<Ts, aluop_ok<Member>, aluop_text<Member, Which>>(
      "is_valid_aluop", "", "the op is a member of the generation's ALU_OP enum", fields);
}

template <bool Src>
bool ts_pattern_ok(const Ts& x, const CheckContext& c) {
  return Src ? tensor_valid(x.src, x.in_dtype, false, c.gen) : tensor_valid(x.dst, x.out_dtype, true, c.gen);
}
template <bool Src>
std::string ts_pattern_text(const Ts& x, const CheckContext& c) {
  return Src ? pattern_failure(kPartitionWording, "src", x.src, x.in_dtype, false, c)
             : pattern_failure(kPartitionWording, "dst", x.dst, x.out_dtype, true, c);
}

// ---- The conjuncts every S3D3_TS validator shares ----

constexpr Predicate kTsTensors =
    text_rule<Ts, ts_tensors,
              [](const Ts& x, const CheckContext& c) {
                if (!tensor_valid(x.src, x.in_dtype, false, c.gen))
                  return pattern_failure(kPartitionWording, "src", x.src, x.in_dtype, false, c);
                if (!tensor_valid(x.dst, x.out_dtype, true, c.gen))
                  return pattern_failure(kPartitionWording, "dst", x.dst, x.out_dtype, true, c);
                return fmt::format("src has {} elements, dst has {}", x.src.elements(), x.dst.elements());
              }>(
        "tensor_scalar_tensor_chk", "PROJ-CONV-K3",
        "tensor3d_valid(src, in_dtype) and tensor3d_valid(dst, out_dtype, written) and the same element count (skipped "
        "for a register shape); MARIANA+'s indirect_dst_size_limit_m3d is not modelled (PROJ-CONV-K3)",
        fTsTensors);

constexpr Predicate kTsReserved =
    reserved_rule<Ts, fTsReserved>({.name = "s3d3_ts_reserved_zero",
                                    .convention = "",
                                    .meaning = "reserved0 (bytes 13..15) is zero",
                                    .gens = kGensAll,
                                    .explain = [](const Instruction& i, const CheckContext&) {
                                      return explain_reserved_bytes(encode(i), fTsReserved);
                                    }});

constexpr Predicate kTsInDtype =
    dtype_rule<Ts, &Ts::in_dtype, false, "in_dtype">("is_valid_dtype(in_dtype, FP32R not allowed)", fTsInDtype);
constexpr Predicate kTsOutDtype =
    dtype_rule<Ts, &Ts::out_dtype, true, "out_dtype">("is_valid_dtype(out_dtype, FP32R allowed)", fTsOutDtype);
constexpr Predicate kTsOp0Enum = aluop_rule<&Ts::op0, "op0">(fTsOp0);
constexpr Predicate kTsOp1Enum = aluop_rule<&Ts::op1, "op1">(fTsOp1);

constexpr Predicate kTsChannels = text_rule<Ts, channels_ok<Ts, false>, channels_text<Ts, false>>(
    "has_valid_active_channel_range", "", "num_active_channels is 1..128", fTsChannels, kGensNotMaverick);
constexpr Predicate kTsChannelsTile = text_rule<Ts, channels_ok<Ts, false>, channels_text<Ts, false>>(
    "has_valid_active_channel_range_with_tile", "PROJ-CONV-K22",
    "(MAVERICK) num_active_channels is 1..128: the S3D3_TS name of the channel conjunct (PROJ-CONV-K22, body "
    "PROJ-CONV-T1)",
    fTsChannels, kGensMaverickOnly);

constexpr Predicate kTsSrcStart =
    start_rule<Ts, &Ts::src, "src">("src: a register start, or partition + num_active_channels <= 128", fTsSrcChannels);
constexpr Predicate kTsDstStart =
    start_rule<Ts, &Ts::dst, "dst">("dst: a register start, or partition + num_active_channels <= 128", fTsDstChannels);

constexpr Predicate kTsSrcTensor = text_rule<Ts, ts_pattern_ok<true>, ts_pattern_text<true>>(
    "tensor3d_valid", "",
    "src readable in in_dtype: non-zero counts (or a register shape, CAYMAN+) and a register or aligned SBUF/PSUM "
    "start, judged on the TENSOR3D bytes on every generation (PROJ-CONV-K3)",
    fTsSrcTensor);
constexpr Predicate kTsDstTensor = text_rule<Ts, ts_pattern_ok<false>, ts_pattern_text<false>>(
    "tensor3d_valid", "PROJ-CONV-K3", "dst writable in out_dtype: as src; PSUM only with 4-byte dtypes (PROJ-CONV-K3)",
    fTsDstTensor);

/// The conjuncts after the validator-specific ones: dtypes, ops, channels and patterns (alu-ops.md §5.2 order).
constexpr std::array<const Predicate*, 4> kDtypesAndOps{&kTsInDtype, &kTsOutDtype, &kTsOp0Enum, &kTsOp1Enum};
constexpr std::array<const Predicate*, 6> kChannelsAndPatterns{&kTsChannels, &kTsChannelsTile, &kTsSrcStart,
                                                               &kTsDstStart, &kTsSrcTensor,    &kTsDstTensor};

// ---- is_valid_tensor_scalar_op (0x43, 0x53, 0x93) and is_valid_tensor_scalar_ptr_op (0x44, 0x54) ----

constexpr Predicate kTsOpcode = opcode_clause<Ts, ts::kArith, ts::kBitvec, ts::kTranspose>(
    "has_tensor_scalar_opcode", "", "the opcode is 0x43, 0x53 or 0x93");
constexpr Predicate kTsPtrOpcode = opcode_clause<Ts, ts::kPtrArith, ts::kPtrBitvec>(
    "has_tensor_scalar_ptr_opcode", "PROJ-CONV-K26", "the opcode is 0x44 or 0x54 (name ours, PROJ-CONV-K26)");

constexpr Predicate kTsValidOps = text_rule<
    Ts, ts_valid_ops,
    [](const Ts& x, const CheckContext& c) {
      return fmt::format(
          "op0 {} / op1 {}: each an ALU op of the generation other than DIVIDE, POW, MOD; bit-vector ops for a BITVEC "
          "opcode; general arithmetic ops (or RSQRT then BYPASS with zero inline immediates; MAVERICK: integer DVE "
          "ops) "
          "for an ARITH opcode; op0 BYPASS only with op1 BYPASS",
          aluop_label(x.op0, c.gen), aluop_label(x.op1, c.gen));
    }>("tensor_scalar_valid_ops", "",
       "op0/op1 are ALU ops, not DIVIDE/POW/MOD; BITVEC: both is_bitvec_op; ARITH: both is_general_arith_op, or RSQRT "
       "then BYPASS with both immediates inline 0, or (MAVERICK) both is_valid_int_aluop_dve; op0 == BYPASS implies "
       "op1 == BYPASS",
       fTsOps);

constexpr Predicate kTsValidTypes =
    text_rule<Ts, ts_valid_types,
              [](const Ts& x, const CheckContext& c) {
                return fmt::format(
                    "a bit-vector TensorScalar needs in_dtype == out_dtype, an integer datapath dtype; got {} -> {}",
                    dtype_label(x.in_dtype, c.gen), dtype_label(x.out_dtype, c.gen));
              }>("tensor_scalar_valid_types", "",
                 "ARITH: any; BITVEC: in_dtype == out_dtype and is_valid_int_dtype_datapath (INT8/16/32, UINT8/16/32)",
                 fTsTypes);

constexpr Predicate kTsImmediates = text_rule<Ts, ts_immediates,
                                              [](const Ts& x, const CheckContext& c) {
                                                return join_texts(imm_text(x, "imm0", x.imm0, x.imm0_src, c),
                                                                  imm_text(x, "imm1", x.imm1, x.imm1_src, c));
                                              }>(
    "tensor_scalar_immediates_check", "PROJ-CONV-K11",
    "per immediate by its *_src: inline (BITVEC: no bits above the in_dtype width), pointer (ts_ptr_imm_chk: "
    "partition + channels fit, aligned for FP32 or the BITVEC in_dtype) or register (is_valid_imm_reg); another "
    "*_src fails",
    fTsImms);

constexpr Predicate kTsShift =
    text_rule<Ts, ts_shift,
              [](const Ts& x, const CheckContext& c) {
                return fmt::format("shift ops {} / {} need a 4-byte in_dtype, got {}", aluop_label(x.op0, c.gen),
                                   aluop_label(x.op1, c.gen), dtype_label(x.in_dtype, c.gen));
              }>(
        "tensor_scalar_shift_chk", "PROJ-CONV-K23",
        "a left shift in op0 paired with a right shift in op1, or ARITH_SHIFT_RIGHT in either, needs a 4-byte in_dtype "
        "(PROJ-CONV-K23 b)",
        fTsShift);

constexpr Predicate kTsReverse =
    text_rule<Ts, [](const Ts& x, const CheckContext&) { return x.reverse_operands <= 3; },
              [](const Ts& x, const CheckContext&) {
                return fmt::format("reverse_operands {} is not a TENS_SCALAR_REV_OPS value", x.reverse_operands);
              }>("tensor_scalar_reverse_chk", "", "reverse_operands is a TENS_SCALAR_REV_OPS value (<= 3)", fTsReverse);

constexpr Predicate kTsTranspose = text_rule<
    Ts, ts_transpose,
    [](const Ts& x, const CheckContext&) {
      return fmt::format(
          "TRANSPOSE_TENSOR_SCALAR needs a src element count that is a multiple of 32 ({}) and 32, 64, 96 "
          "or 128 channels ({})",
          x.src.elements(), x.num_active_channels);
    }>("s3d3_transpose_check", "",
       "true unless the opcode is 0x93; then prod(src.num_elem) % 32 == 0 and num_active_channels is 32, 64, 96 or 128",
       fTsTranspose);

constexpr Predicate kTsZeroCmd =
    text_rule<Ts, [](const Ts& x, const CheckContext&) { return x.accumulator_cmd == 0; },
              [](const Ts& x, const CheckContext&) {
                return fmt::format("accumulator_cmd is {}, must be IDLE (0)", x.accumulator_cmd);
              }>("has_zero_accum_cmd_field", "", "accumulator_cmd is IDLE (0)", fTsCmd);

constexpr Predicate kTsPtrSrc = text_rule<Ts, ts_ptr_src, [](const Ts& x, const CheckContext&) {
  return fmt::format("imm0_src {} / imm1_src {}: both must be 0 (the PTR forms always read pointers)", x.imm0_src,
                     x.imm1_src);
}>("tensor_scalar_ptr_imm_src", "PROJ-CONV-K26", "imm0_src and imm1_src are both 0", fTsPtrSrc);

constexpr Predicate kTsPtrImmediates = text_rule<Ts, ts_ptr_immediates,
                                                 [](const Ts& x, const CheckContext& c) {
                                                   return join_texts(imm_text(x, "imm0", x.imm0, ts::kImmPointer, c),
                                                                     imm_text(x, "imm1", x.imm1, ts::kImmPointer, c));
                                                 }>(
    "tensor_scalar_ptr_immediates", "PROJ-CONV-K26",
    "imm0 and imm1 are both pointers passing ts_ptr_imm_chk (partition + channels fit, aligned for FP32 or the BITVEC "
    "in_dtype)",
    fTsPtrImms);

constexpr auto kTensorScalar = concat_predicates(
    std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kTsOpcode, &kTsValidOps, &kTsValidTypes, &kTsImmediates,
               &kTsShift, &kTsTensors, &kTsReverse, &kTsReserved, &kTsTranspose},
    kDtypesAndOps, std::array{&kTsZeroCmd}, kChannelsAndPatterns);

constexpr auto kTensorScalarPtr = concat_predicates(
    std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kTsPtrOpcode, &kTsValidOps, &kTsValidTypes, &kTsPtrSrc,
               &kTsPtrImmediates, &kTsShift, &kTsTensors, &kTsReverse, &kTsReserved},
    kDtypesAndOps, std::array{&kTsZeroCmd}, kChannelsAndPatterns);

// ---- is_valid_tensor_scalar_cache_reduce / _cache_cumulative (0x9A / 0xE6) ----

constexpr Predicate kCacheReduceOpcode = opcode_clause<Ts, ts::kCacheReduce>(
    "has_tensor_cache_reduce_opcode", "", "the opcode is TENSOR_SCALAR_CACHE_REDUCE (0x9A)");
constexpr Predicate kCacheCumulativeOpcode = opcode_clause<Ts, ts::kCacheCumulative>(
    "has_tensor_cache_cumulative_opcode", "", "the opcode is TENSOR_SCALAR_CACHE_CUMULATIVE (0xE6)");

constexpr Predicate kCacheOps =
    text_rule<Ts, cache_valid_ops,
              [](const Ts& x, const CheckContext& c) {
                return fmt::format(
                    "op0 {} must be a general arithmetic op and op1 {} one of ADD, SUBTRACT, MULT, MAX, MIN",
                    aluop_label(x.op0, c.gen), aluop_label(x.op1, c.gen));
              }>("tensor_scalar_cache_reduce_valid_ops", "",
                 "op0/op1 are ALU ops; op0 is_general_arith_op; op1 is ADD, SUBTRACT, MULT, MAX or MIN", fTsCacheOps);

constexpr Predicate kCacheTypes =
    text_rule<Ts, cache_valid_types,
              [](const Ts& x, const CheckContext& c) {
                return fmt::format("in_dtype {} is neither a float datapath dtype nor an 8/16-bit integer",
                                   dtype_label(x.in_dtype, c.gen));
              }>(
        "tensor_scalar_cache_reduce_valid_types", "",
        "in_dtype is is_valid_fp_dtype_datapath (no FP32R) or is_valid_int_dtype_datapath other than INT32/UINT32",
        fTsInDtype);

constexpr Predicate kCacheImmediates =
    text_rule<Ts, cache_immediates,
              [](const Ts& x, const CheckContext& c) {
                const std::string imm0 = imm_text(x, "imm0", x.imm0, x.imm0_src, c);
                if (x.accumulator_cmd == ts::kAccLoadAccumulate)
                  return join_texts(imm0, imm_text(x, "imm1", x.imm1, x.imm1_src, c));
                if (x.imm1_src == 0 && x.imm1.raw == 0) return imm0;
                return join_texts(imm0, "imm1 and imm1_src must be 0 unless accumulator_cmd is LOAD_ACCUMULATE");
              }>(
        "tensor_scalar_cache_reduce_immediates_check", "PROJ-CONV-K11",
        "imm0 as tensor_scalar_immediates_check; imm1 likewise under LOAD_ACCUMULATE, else imm1_src == 0 and imm1 == 0",
        fTsCacheImms);

constexpr Predicate kCacheReverse =
    text_rule<Ts, [](const Ts& x, const CheckContext&) { return x.reverse_operands == 0; },
              [](const Ts& x, const CheckContext&) {
                return fmt::format("reverse_operands is {}, must be NONE (0)", x.reverse_operands);
              }>("tensor_scalar_cache_reduce_reverse_chk", "", "reverse_operands is NONE (0)", fTsReverse);

constexpr Predicate kCacheCmd =
    text_rule<Ts,
              [](const Ts& x, const CheckContext&) {
                return x.accumulator_cmd >= ts::kAccAccumulate && x.accumulator_cmd <= ts::kAccLoadAccumulate;
              },
              [](const Ts& x, const CheckContext&) {
                return fmt::format(
                    "accumulator_cmd is {}, must be ACCUMULATE (2), "
                    "ZERO_ACCUMULATE (3) or LOAD_ACCUMULATE (4)",
                    x.accumulator_cmd);
              }>("has_valid_tensor_scalar_cache_reduce_accum_cmd", "",
                 "accumulator_cmd is ACCUMULATE, ZERO_ACCUMULATE or LOAD_ACCUMULATE", fTsCmd);

template <const Predicate* Opcode>
constexpr auto cache_list() {
  return concat_predicates(std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, Opcode, &kCacheOps, &kCacheTypes,
                                      &kCacheImmediates, &kTsTensors, &kCacheReverse, &kTsReserved, &kCacheCmd},
                           kDtypesAndOps, kChannelsAndPatterns);
}
constexpr auto kCacheReduce = cache_list<&kCacheReduceOpcode>();
constexpr auto kCacheCumulative = cache_list<&kCacheCumulativeOpcode>();

// ---- is_valid_exponential (0x30) ----

constexpr Predicate kExpOpcode =
    opcode_clause<Ts, ts::kExponential>("has_exponential_opcode", "", "the opcode is EXPONENTIAL (0x30)");

constexpr Predicate kExpGen = text_rule<
    Ts, [](const Ts&, const CheckContext& c) { return c.gen == Generation::Mariana || c.gen == Generation::Maverick; },
    [](const Ts&, const CheckContext& c) {
      return fmt::format("EXPONENTIAL has no validator on {} (PROJ-CONV-K19)", to_string(c.gen));
    }>("exponential_gen_check", "PROJ-CONV-K19", "the generation is MARIANA or MAVERICK (name ours, PROJ-CONV-K19)",
       kOpcodeFieldOf<Ts>);

constexpr Predicate kExpCmd =
    text_rule<Ts, exp_accum_cmd,
              [](const Ts& x, const CheckContext&) {
                return fmt::format(
                    "accumulator_cmd {} with imm1_src {} and imm1 {:#010x}: IDLE, ACCUMULATE or ZERO_ACCUMULATE "
                    "with a zero inline imm1, or LOAD_ACCUMULATE",
                    x.accumulator_cmd, x.imm1_src, x.imm1.raw);
              }>(
        "has_valid_exponential_accum_cmd", "",
        "accumulator_cmd is ZERO_ACCUMULATE, IDLE or ACCUMULATE with imm1_src == 0 and imm1 == 0, or LOAD_ACCUMULATE",
        fTsExpCmd);

constexpr Predicate kExpCount =
    text_rule<Ts, exp_num_elements,
              [](const Ts& x, const CheckContext& c) {
                return fmt::format(
                    "a packed {} source (step {} , counts {{{}, {}, {}}}) needs an even X count and an even total "
                    "count while accumulating (PROJ-CONV-K19)",
                    dtype_label(x.in_dtype, c.gen), x.src.step_elem[0], x.src.num_elem[0], x.src.num_elem[1],
                    x.src.num_elem[2]);
              }>(
        "has_valid_exponential_num_elements", "PROJ-CONV-K19",
        "IDLE, an indirect src or dst, or exp_x_even_or_unpacked and exp_upper_src_dim_even (a 4-byte in_dtype, or an "
        "even X count unless X is strided, and an even total count, PROJ-CONV-K19 b)",
        fTsExpCount);

constexpr Predicate kExpOps = text_rule<Ts, exp_ops, [](const Ts& x, const CheckContext& c) {
  return fmt::format("op0 {}, op1 {}, reverse_operands {}: must be BYPASS, BYPASS, NONE", aluop_label(x.op0, c.gen),
                     aluop_label(x.op1, c.gen), x.reverse_operands);
}>("has_valid_exponential_ops", "", "op0 and op1 are BYPASS and reverse_operands is NONE", fTsExpOps);

constexpr Predicate kExpUnused =
    reserved_rule<Ts, fTsReserved>({.name = "s3d3_ts_exponential_unused_fields",
                                    .convention = "PROJ-CONV-K19",
                                    .meaning = "bytes 13..15 are zero (PROJ-CONV-K19 c)",
                                    .gens = kGensAll,
                                    .explain = [](const Instruction& i, const CheckContext&) {
                                      return explain_reserved_bytes(encode(i), fTsReserved);
                                    }});

constexpr auto kExponential = concat_predicates(
    std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kExpOpcode, &kExpGen, &kTsInDtype, &kTsOutDtype,
               &kTsImmediates, &kExpCmd, &kExpCount, &kExpOps, &kExpUnused, &kTsTensors},
    kChannelsAndPatterns);

// ---- is_valid_dve_read_accumulator (0x9B, PROJ-CONV-K16) ----

constexpr Predicate kRdOpcode = opcode_clause<Rd, ts::kReadAccumulator>("has_dve_read_accumulator_opcode", "",
                                                                        "the opcode is DVE_READ_ACCUMULATOR (0x9B)");

constexpr Predicate kRdReserved = reserved_rule<Rd, fRdReserved>(
    {.name = "d1_rd_reserved_zero",
     .convention = "PROJ-CONV-K16",
     .meaning = "reserved0 (bytes 12..27), reserved1 (35..43) and reserved2 (52..63) are zero",
     .gens = kGensAll,
     .explain = [](const Instruction& i, const CheckContext&) {
       return explain_reserved_bytes(encode(i), fRdReserved);
     }});

constexpr Predicate kRdType =
    text_rule<Rd, [](const Rd& x, const CheckContext&) { return fp_dtype_datapath(x.dtype, true); },
              [](const Rd& x, const CheckContext& c) {
                return fmt::format("dtype {} is not a float datapath dtype", dtype_label(x.dtype, c.gen));
              }>("dve_read_accumulator_type_check", "",
                 "dtype is is_valid_fp_dtype_datapath with FP32R (FP8_EXP3/4/5, FP16, BF16, "
                 "FP32, FP32R)",
                 fRdDtype);

constexpr Predicate kRdChannels = text_rule<Rd, channels_ok<Rd, false>, channels_text<Rd, false>>(
    "has_valid_active_channel_range", "", "num_active_channels is 1..128", fRdChannels);
constexpr Predicate kRdDstStart =
    start_rule<Rd, &Rd::dst, "dst">("dst: a register start, or partition + num_active_channels <= 128", fRdDstChannels);

constexpr Predicate kRdDstTensor =
    text_rule<Rd, [](const Rd& x, const CheckContext& c) { return tensor_valid(x.dst, x.dtype, true, c.gen); },
              [](const Rd& x, const CheckContext& c) {
                return pattern_failure(kPartitionWording, "dst", x.dst, x.dtype, true, c);
              }>("tensor1d_valid", "",
                 "dst writable in dtype: a non-zero count (or a register shape) and a "
                 "register or aligned SBUF/PSUM start; PSUM only with 4-byte dtypes",
                 fRdDstTensor);

constexpr Predicate kRdSize = text_rule<Rd,
                                        [](const Rd& x, const CheckContext& c) {
                                          const bool shape_reg =
                                              pred::has_shape_escape(c.gen) && x.dst.start_addr.shape_from_register();
                                          return x.dst_element_count == 1 && (x.dst.num_elem[0] == 1 || shape_reg);
                                        },
                                        [](const Rd& x, const CheckContext&) {
                                          return fmt::format("dst_element_count is {} and dst count {}: both must be 1",
                                                             x.dst_element_count, x.dst.num_elem[0]);
                                        }>("read_accumulator_dst_size", "PROJ-CONV-K16",
                                           "dst_element_count == 1 and dst.num_elem[0] == 1 (unless the shape comes "
                                           "from a register, PROJ-CONV-K16)",
                                           fRdSize);

constexpr Predicate kRdNegated =
    text_rule<Rd, [](const Rd& x, const CheckContext&) { return x.negated <= 1; },
              [](const Rd& x, const CheckContext&) { return fmt::format("negated is {}, must be 0 or 1", x.negated); }>(
        "d1_rd_has_valid_negated_field", "", "negated is 0 or 1", fRdNegated);

constexpr const Predicate* kReadAccumulator[] = {
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kRdOpcode,    &kRdReserved, &kRdType,
    &kRdChannels,           &kRdDstStart,           &kRdDstTensor, &kRdSize,     &kRdNegated};

// ---- Validators ----

constexpr Validator kTensorScalarValidator = full_validator<kTensorScalar>("is_valid_tensor_scalar_op");
constexpr Validator kTensorScalarPtrValidator = full_validator<kTensorScalarPtr>("is_valid_tensor_scalar_ptr_op");
constexpr Validator kCacheReduceValidator = full_validator<kCacheReduce>("is_valid_tensor_scalar_cache_reduce");
constexpr Validator kCacheCumulativeValidator =
    full_validator<kCacheCumulative>("is_valid_tensor_scalar_cache_cumulative");
constexpr Validator kExponentialValidator = full_validator<kExponential>("is_valid_exponential");
constexpr Validator kReadAccumulatorValidator = full_validator<kReadAccumulator>("is_valid_dve_read_accumulator");

constexpr ValidatorRow kRows[] = {
    {ts::kArith, &kTensorScalarValidator},
    {ts::kBitvec, &kTensorScalarValidator},
    {ts::kTranspose, &kTensorScalarValidator},
    {ts::kPtrArith, &kTensorScalarPtrValidator},
    {ts::kPtrBitvec, &kTensorScalarPtrValidator},
    {ts::kCacheReduce, &kCacheReduceValidator},
    {ts::kCacheCumulative, &kCacheCumulativeValidator},
    {ts::kExponential, &kExponentialValidator},
    {ts::kReadAccumulator, &kReadAccumulatorValidator},
};
constexpr Validation kValidation = validator_table<TensorScalarFamily, kRows>();

}  // namespace

const Validation& TensorScalarFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
