// Reduce family validators: is_valid_tensor_reduce (alu-ops.md §3.2, PROJ-CONV-K6), is_valid_transpose_tensor_reduce
// (§3.3, K7), is_valid_tensor_cumulative (§3.4) and is_valid_reciprocal (§3.5, K4), all over S4D4_TR.
#include "families/common.hpp"
#include "families/operand_rules.hpp"
#include "families/reduce/format.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;

using Tr = S4d4Tr;

// ---- Fields read, by name (offsets from the declaration) ----

constexpr FieldRef fReserved[] = {field_ref<Tr>("reserved1")};
constexpr FieldRef fMask[] = {field_ref<Tr>("mask_enable")};
constexpr FieldRef fIn[] = {field_ref<Tr>("in_dtype")};
constexpr FieldRef fOut[] = {field_ref<Tr>("out_dtype")};
constexpr FieldRef fOp[] = {field_ref<Tr>("op")};
constexpr FieldRef fOpDim[] = {field_ref<Tr>("op_dim")};
constexpr FieldRef fChannels[] = {field_ref<Tr>("num_active_channels")};
constexpr FieldRef fNegated[] = {field_ref<Tr>("negated")};
constexpr FieldRef fOpcodeNegated[] = {field_ref<Tr>("header.opcode"), field_ref<Tr>("negated")};
constexpr FieldRef fSrcStart[] = {field_ref<Tr>("src.start_addr"), field_ref<Tr>("num_active_channels")};
constexpr FieldRef fDstStart[] = {field_ref<Tr>("dst.start_addr"), field_ref<Tr>("num_active_channels")};
constexpr FieldRef fSrcTensor[] = {field_ref<Tr>("src.start_addr"), field_ref<Tr>("src.num_elem"),
                                   field_ref<Tr>("in_dtype")};
constexpr FieldRef fDstTensor[] = {field_ref<Tr>("dst.start_addr"), field_ref<Tr>("dst.num_elem"),
                                   field_ref<Tr>("out_dtype")};
constexpr FieldRef fCounts[] = {field_ref<Tr>("src.start_addr"), field_ref<Tr>("src.num_elem"),
                                field_ref<Tr>("dst.start_addr"), field_ref<Tr>("dst.num_elem")};
constexpr FieldRef fReduceCounts[] = {field_ref<Tr>("op_dim"), field_ref<Tr>("src.start_addr"),
                                      field_ref<Tr>("src.num_elem"), field_ref<Tr>("dst.start_addr"),
                                      field_ref<Tr>("dst.num_elem")};
constexpr FieldRef fSrcCount[] = {field_ref<Tr>("src.num_elem")};
constexpr FieldRef fOpcodeOp[] = {field_ref<Tr>("header.opcode"), field_ref<Tr>("op")};
constexpr FieldRef fOpcodeOpTypes[] = {field_ref<Tr>("header.opcode"), field_ref<Tr>("op"), field_ref<Tr>("in_dtype"),
                                       field_ref<Tr>("out_dtype")};
constexpr FieldRef fEngine[] = {field_ref<Tr>("header.opcode"),  field_ref<Tr>("op"),
                                field_ref<Tr>("in_dtype"),       field_ref<Tr>("out_dtype"),
                                field_ref<Tr>("src.start_addr"), field_ref<Tr>("dst.start_addr")};

// ---- Bodies ----

/// The general-arith and arith classes, with SYMMETRIC_CLAMP behind its option (PROJ-CONV-T11).
bool in_class(uint8_t op, AluClass k, const CheckContext& c) {
  return aluop_is(op, k, c.gen) && (op != aluop::kSymmetricClamp || c.options.symmetric_clamp_general_arith);
}

/// The element count of src's dimensions from `first` on (the outputs of a reduction over the leading ones).
uint64_t trailing_count(const Tensor4d& t, unsigned first) {
  uint64_t n = 1;
  for (unsigned d = first; d < 4; ++d) n *= t.num_elem[d];
  return n;
}

/// tensor_reduce_dst_element_count † (PROJ-CONV-K6).
bool reduce_count_ok(const Tr& x, const CheckContext& c) {
  const unsigned r = reduce::leading_dims(x.op_dim);
  return r == 0 || shape_escapes(x.src.start_addr, c.gen) || shape_escapes(x.dst.start_addr, c.gen) ||
         x.dst.elements() == trailing_count(x.src, r);
}

/// tensor_reduce_valid_dtype / tensor_cumulative_valid_dtype: a bit-vector opcode keeps one 8/16/32-bit integer dtype,
/// and shifts right logically only on INT32.
bool bitvec_dtype_ok(const Tr& x, const CheckContext&) {
  if (!reduce::is_bitvec(x.header.opcode)) return true;
  const uint8_t d = x.in_dtype;
  const bool width_ok = d == dtype::kUint8 || d == dtype::kUint16 || d == dtype::kUint32 || d == dtype::kInt32;
  return d == x.out_dtype && width_ok && (x.op != aluop::kLogicalShiftRight || d == dtype::kInt32);
}

/// tensor_reduce_valid_alu_op: the enum, then general-arith or a TensorReduce integer op (arith), a bit-vector op
/// (bitvec).
bool reduce_op_ok(const Tr& x, const CheckContext& c) {
  if (!aluop_in(x.op, c.gen)) return false;
  if (reduce::is_bitvec(x.header.opcode)) return aluop_is(x.op, kAluBitvec, c.gen);
  return in_class(x.op, kAluGeneralArith, c) || reduce::is_reduce_int_op(x.op);
}

/// tensor_cumulative_valid_alu_op: the enum, no DIVIDE/POW/MOD, a bit-vector op (0x5E) or an arith op (0x4E).
bool cumulative_op_ok(const Tr& x, const CheckContext& c) {
  if (!aluop_in(x.op, c.gen) || x.op == aluop::kDivide || x.op == aluop::kPow || x.op == aluop::kMod) return false;
  return reduce::is_bitvec(x.header.opcode) ? aluop_is(x.op, kAluBitvec, c.gen) : in_class(x.op, kAluArith, c);
}

/// has_valid_reduce_negated: 0 or 1, and 1 only on an arithmetic opcode (the second part is PROJ-CONV-K6).
bool reduce_negated_ok(const Tr& x, const CheckContext&) {
  return x.negated == 0 || (x.negated == 1 && !reduce::is_bitvec(x.header.opcode));
}

/// A start address in SBUF, or one placed by a register (the POOL arm of the engine conjunct).
bool sbuf_or_register(const Addr4& a, Generation g) {
  const Addr4Meaning m = describe(a, g);
  return m.from_register || m.target.region == Region::Sbuf;
}

/// is_valid_tensor_reduce_arith_engine: applies to the arithmetic opcodes when the stream engine is known. DVE takes
/// the float forms without integer or arg ops; POOL the 32/64-bit integer forms of the integer ops, in SBUF.
bool reduce_engine_ok(const Tr& x, const CheckContext& c) {
  if (!c.engine().has_value() || reduce::is_bitvec(x.header.opcode)) return true;
  if (!aluop_in(x.op, c.gen)) return false;
  switch (*c.engine()) {
    case Engine::Dve:
      return dtype_accepts(x.in_dtype, false, c) && dtype_accepts(x.out_dtype, true, c) &&
             !reduce::is_reduce_int_op(x.op);
    case Engine::Pool: {
      const uint8_t d = x.in_dtype;
      const bool int_in = d == dtype::kInt32 || d == dtype::kUint32 || d == dtype::kInt64 || d == dtype::kUint64;
      return int_in && reduce::is_reduce_int_op(x.op) && sbuf_or_register(x.src.start_addr, c.gen) &&
             sbuf_or_register(x.dst.start_addr, c.gen);
    }
    default: return false;
  }
}

// ---- Failure sentences ----

std::string tensor_text(std::string_view which, const Tensor4d& t, uint8_t d, const CheckContext& c) {
  return fmt::format(
      "{} start {} with counts ({}, {}, {}, {}): a zero count, or not a {}-aligned SBUF/PSUM start "
      "(PSUM is written only in 4-byte dtypes)",
      which, addr4_label(t.start_addr, c.gen), t.num_elem[0], t.num_elem[1], t.num_elem[2], t.num_elem[3],
      dtype_label(d, c.gen));
}

std::string op_text(const Tr& x, const CheckContext& c) {
  return fmt::format("op {} is not an op opcode {:#04x} admits on {}", aluop_label(x.op, c.gen), x.header.opcode,
                     to_string(c.gen));
}

// ---- Predicates every validator of the family shares ----

constexpr Predicate kReserved = reserved_rule<Tr, fReserved>(
    {.name = "s4d4_tr_reserved_zero",
     .convention = "",
     .meaning = "reserved1 (five bytes) is zero",
     .gens = kGensAll,
     .explain = [](const Instruction&, const CheckContext&) { return std::string("reserved1 has a non-zero byte"); }});

constexpr Predicate kMask = text_rule<Tr, [](const Tr& x, const CheckContext&) { return x.mask_enable == 0; },
                                      [](const Tr& x, const CheckContext&) {
                                        return fmt::format("mask_enable is {}, must be 0", x.mask_enable);
                                      }>("mask_enable_zero", "", "mask_enable is 0", fMask);

constexpr Predicate kAluEnum = aluop_rule<Tr>(fOp);

constexpr Predicate kChannels =
    channels_rule<Tr>("has_valid_active_channel_range", "num_active_channels is 1..128", fChannels);

constexpr std::string_view kStartMeaning =
    "a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128";
constexpr Predicate kSrcStart = start_rule<Tr, &Tr::src, "src">(kStartMeaning, fSrcStart);
constexpr Predicate kDstStart = start_rule<Tr, &Tr::dst, "dst">(kStartMeaning, fDstStart);

// tensor4d_valid on the TENSOR4D bytes on every generation (PROJ-CONV-K3: the MARIANA+ indirect arm is not judged).
constexpr Predicate kSrcTensor =
    text_rule<Tr, [](const Tr& x, const CheckContext& c) { return tensor_valid(x.src, x.in_dtype, false, c.gen); },
              [](const Tr& x, const CheckContext& c) { return tensor_text("src", x.src, x.in_dtype, c); }>(
        "tensor4d_valid", "PROJ-CONV-K3",
        "src readable in in_dtype: non-zero counts (or a register shape, CAYMAN+) and a register or in_dtype-aligned "
        "SBUF/PSUM start, judged on the TENSOR4D bytes on every generation (PROJ-CONV-K3)",
        fSrcTensor);
constexpr Predicate kDstTensor = text_rule<
    Tr, [](const Tr& x, const CheckContext& c) { return tensor_valid(x.dst, x.out_dtype, true, c.gen); },
    [](const Tr& x, const CheckContext& c) { return tensor_text("dst", x.dst, x.out_dtype, c); }>(
    "tensor4d_valid", "PROJ-CONV-K3",
    "dst writable in out_dtype: as src, and PSUM only with 4-byte dtypes, judged on the TENSOR4D bytes (PROJ-CONV-K3)",
    fDstTensor);

constexpr Predicate kSameCount = count_rule<Tr, &Tr::src, &Tr::dst, "src", "dst">(
    "s4d4_tr_same_src_dst_count", "",
    "src and dst have the same element count (skipped when a shape comes from a register, CAYMAN+)", fCounts);

constexpr Predicate kZeroNegated =
    text_rule<Tr, [](const Tr& x, const CheckContext&) { return x.negated == 0; },
              [](const Tr& x, const CheckContext&) { return fmt::format("negated is {}, must be 0", x.negated); }>(
        "has_zero_negated_field", "", "negated is 0", fNegated);

constexpr uint8_t in_of(const Tr& x) {
  return x.in_dtype;
}
constexpr uint8_t out_of(const Tr& x) {
  return x.out_dtype;
}

template <auto Dtype, bool Fp32r, Name Which>
constexpr Predicate dtype_rule(std::span<const FieldRef> fields) {
  return text_rule<Tr, dtype_ok<Tr, Dtype, Fp32r, false>,
                   [](const Tr& x, const CheckContext& c) {
                     return dtype_fails(Which, Dtype(x), "is_valid_dtype (no 64-bit dtypes)", c);
                   }>(
      "is_valid_dtype", "",
      Fp32r ? "is_valid_dtype(out_dtype, FP32R allowed)" : "is_valid_dtype(in_dtype, FP32R not allowed)", fields);
}
constexpr Predicate kInDtype = dtype_rule<in_of, false, "in_dtype">(fIn);
constexpr Predicate kOutDtype = dtype_rule<out_of, true, "out_dtype">(fOut);

template <auto Dtype, bool Fp32r, Name Which>
constexpr Predicate dtype64_rule(std::span<const FieldRef> fields) {
  return text_rule<Tr, dtype_ok<Tr, Dtype, Fp32r, true>,
                   [](const Tr& x, const CheckContext& c) {
                     return dtype_fails(Which, Dtype(x), "is_valid_dtype_64", c);
                   }>("is_valid_dtype_64", "",
                      Fp32r ? "is_valid_dtype_64(out_dtype, FP32R, UINT64 and INT64 allowed)"
                            : "is_valid_dtype_64(in_dtype, FP32R not allowed, UINT64 and INT64 allowed)",
                      fields);
}
constexpr Predicate kIn64 = dtype64_rule<in_of, false, "in_dtype">(fIn);
constexpr Predicate kOut64 = dtype64_rule<out_of, true, "out_dtype">(fOut);

constexpr Predicate kSubdim =
    text_rule<Tr, [](const Tr& x, const CheckContext&) { return reduce::leading_dims(x.op_dim) != 0; },
              [](const Tr& x, const CheckContext&) {
                return fmt::format("op_dim is {:#04x}, must be X (0x02), XY, XYZ or XYZW (0x05)", x.op_dim);
              }>("is_valid_subdim", "", "op_dim is X (2), XY (3), XYZ (4) or XYZW (5)", fOpDim);

constexpr Predicate kZeroSubdim =
    text_rule<Tr, [](const Tr& x, const CheckContext&) { return x.op_dim == 0 || x.op_dim == 2; },
              [](const Tr& x, const CheckContext&) {
                return fmt::format("op_dim is {:#04x}, must be UNUSED (0x00) or X (0x02)", x.op_dim);
              }>("is_zero_subdim", "", "op_dim is UNUSED (0) or X (2)", fOpDim);

// ---- TensorReduce and its transposing twin (§3.2, §3.3) ----

constexpr auto opcode_text = [](const Tr& x, const CheckContext&) {
  return fmt::format("opcode {:#04x} is not an opcode this validator judges", x.header.opcode);
};

constexpr Predicate kReduceOpcode =
    text_rule<Tr, has_opcode<reduce::kTensorReduceArith, reduce::kTensorReduceBitvec>, opcode_text>(
        "has_tensor_reduce_opcode", "", "the opcode is TENSOR_REDUCE_ARITH_OP (0x42) or _BITVEC_OP (0x52)",
        kOpcodeFieldOf<Tr>);
constexpr Predicate kTransposeOpcode =
    text_rule<Tr, has_opcode<reduce::kTransposeReduceArith, reduce::kTransposeReduceBitvec>, opcode_text>(
        "has_transpose_tensor_reduce_opcode", "PROJ-CONV-K7",
        "the opcode is TRANSPOSE_TENSOR_REDUCE_ARITH_OP (0x83) or _BITVEC_OP (0x84) (name ours, PROJ-CONV-K7)",
        kOpcodeFieldOf<Tr>);

constexpr Predicate kReduceCount =
    text_rule<Tr, reduce_count_ok,
              [](const Tr& x, const CheckContext&) {
                const unsigned r = reduce::leading_dims(x.op_dim);
                return fmt::format("dst has {} elements; src reduced over its {} leading dimension(s) gives {}",
                                   x.dst.elements(), r, trailing_count(x.src, r));
              }>(
        "tensor_reduce_dst_element_count", "PROJ-CONV-K6",
        "dst holds one element per group: prod(dst.num_elem) == prod(src.num_elem[r..3]) with r = 1..4 for op_dim "
        "X..XYZW (name ours; skipped for a register shape or an invalid op_dim, PROJ-CONV-K6)",
        fReduceCounts);

constexpr Predicate kReduceOp = rule<Tr, reduce_op_ok>(
    {.name = "tensor_reduce_valid_alu_op",
     .convention = "PROJ-CONV-K6",
     .meaning = "op in the enum; arith opcodes: is_general_arith_op or is_valid_tensor_reduce_int_op (ADD_INT, "
                "MULT_INT, MAX/MIN_INT, MAX/MIN_UINT, AMAX/AMIN_INT/UINT: PROJ-CONV-K6); bitvec opcodes: is_bitvec_op",
     .gens = kGensAll,
     .fields = fOpcodeOp,
     .explain = explain_on_body<Tr, op_text>,
     .via = nullptr,
     .failure_convention = [](const Instruction& i, const CheckContext& c) -> std::string_view {
       return body<Tr>(i).op == aluop::kSymmetricClamp && c.gen == Generation::Maverick ? "PROJ-CONV-T11" : "";
     }});

constexpr auto bitvec_dtype_text = [](const Tr& x, const CheckContext& c) {
  return fmt::format(
      "bit-vector op {} on in {} / out {}: one dtype of UINT8, UINT16, UINT32, INT32 (a logical right "
      "shift on INT32 only)",
      aluop_label(x.op, c.gen), dtype_label(x.in_dtype, c.gen), dtype_label(x.out_dtype, c.gen));
};
constexpr Predicate kReduceDtype = text_rule<Tr, bitvec_dtype_ok, bitvec_dtype_text>(
    "tensor_reduce_valid_dtype", "",
    "arith: any; bitvec: in_dtype == out_dtype, one of UINT8/UINT16/UINT32/INT32, LOGICAL_SHIFT_RIGHT only on INT32",
    fOpcodeOpTypes);

constexpr Predicate kReduceNegated =
    text_rule<Tr, reduce_negated_ok,
              [](const Tr& x, const CheckContext&) {
                return fmt::format("negated is {}: 0 or 1, and 1 only on the arithmetic opcodes", x.negated);
              }>("has_valid_reduce_negated", "PROJ-CONV-K6",
                 "negated is 0 or 1, and 1 only on an arithmetic opcode (the second part is PROJ-CONV-K6)",
                 fOpcodeNegated);

constexpr Predicate kReduceEngine =
    text_rule<Tr, reduce_engine_ok,
              [](const Tr& x, const CheckContext& c) {
                return fmt::format(
                    "on {}: op {}, in {}, out {}: DVE takes float forms without integer or arg ops; POOL takes "
                    "INT32/UINT32/INT64/"
                    "UINT64 inputs with a TensorReduce integer op and SBUF operands; no other engine runs it",
                    c.engine() ? to_string(*c.engine()) : std::string_view("an unknown engine"),
                    aluop_label(x.op, c.gen), dtype_label(x.in_dtype, c.gen), dtype_label(x.out_dtype, c.gen));
              }>(
        "is_valid_tensor_reduce_arith_engine", "PROJ-CONV-K6",
        "(only when the stream engine is known, arith opcodes) DVE: float dtypes, no integer or arg ops; POOL: INT32, "
        "UINT32, INT64 or UINT64 input, an is_valid_tensor_reduce_int_op op, both starts in SBUF or from a register",
        fEngine);

constexpr Predicate kMultiple32 =
    text_rule<Tr,
              [](const Tr& x, const CheckContext&) {
                const unsigned n = x.num_active_channels;
                return n == 32 || n == 64 || n == 96 || n == 128;
              },
              [](const Tr& x, const CheckContext&) {
                return fmt::format("num_active_channels is {}, must be 32, 64, 96 or 128", x.num_active_channels);
              }>("has_multiple_32_channels", "PROJ-CONV-K7", "num_active_channels is 32, 64, 96 or 128", fChannels);

constexpr Predicate kTransposeCount =
    text_rule<Tr, [](const Tr& x, const CheckContext&) { return x.src.elements() % 32 == 0; },
              [](const Tr& x, const CheckContext&) {
                return fmt::format("src has {} elements, not a multiple of 32", x.src.elements());
              }>("has_transpose_src_element_count_t4d", "PROJ-CONV-K7", "prod(src.num_elem) is a multiple of 32",
                 fSrcCount);

// ---- TensorCumulative (§3.4) ----

constexpr Predicate kCumulativeOpcode =
    text_rule<Tr, has_opcode<reduce::kCumulativeArith, reduce::kCumulativeBitvec>, opcode_text>(
        "has_tensor_cumulative_opcode", "", "the opcode is TENSOR_CUMULATIVE_ARITH_OP (0x4E) or _BITVEC_OP (0x5E)",
        kOpcodeFieldOf<Tr>);

constexpr Predicate kCumulativeOp = rule<Tr, cumulative_op_ok>(
    {.name = "tensor_cumulative_valid_alu_op",
     .convention = "",
     .meaning = "op in the enum and not DIVIDE, POW or MOD; 0x5E: is_bitvec_op; 0x4E: is_arith_op (SYMMETRIC_CLAMP "
                "on MAVERICK by PROJ-CONV-T11)",
     .gens = kGensAll,
     .fields = fOpcodeOp,
     .explain = explain_on_body<Tr, op_text>,
     .via = nullptr,
     .failure_convention = [](const Instruction& i, const CheckContext& c) -> std::string_view {
       return body<Tr>(i).op == aluop::kSymmetricClamp && c.gen == Generation::Maverick ? "PROJ-CONV-T11" : "";
     }});

constexpr Predicate kCumulativeDtype = text_rule<Tr, bitvec_dtype_ok, bitvec_dtype_text>(
    "tensor_cumulative_valid_dtype", "",
    "0x4E: any; 0x5E: in_dtype == out_dtype, one of UINT8/UINT16/UINT32/INT32, LOGICAL_SHIFT_RIGHT only on INT32",
    fOpcodeOpTypes);

// ---- Reciprocal (§3.5, PROJ-CONV-K4) ----

constexpr Predicate kReciprocalOpcode = text_rule<Tr, has_opcode<reduce::kReciprocal>, opcode_text>(
    "has_reciprocal_opcode", "PROJ-CONV-K4", "the opcode is RECIPROCAL (0x48) (name ours, PROJ-CONV-K4)",
    kOpcodeFieldOf<Tr>);

constexpr Predicate kBypass =
    text_rule<Tr, [](const Tr& x, const CheckContext&) { return x.op == aluop::kBypass; },
              [](const Tr& x, const CheckContext& c) {
                return fmt::format("op is {}, must be BYPASS (0x00)", aluop_label(x.op, c.gen));
              }>("s4d4_tr_op_bypass", "", "op is BYPASS (0)", fOp);

// ---- The conjunctions ----

constexpr auto kReduceTail = std::array{&kReduceOp, &kReduceDtype, &kReduceNegated, &kReduceEngine};
constexpr auto kReduceHead = [](const Predicate* opcode) {
  return std::array{&kHasValidNeuronHeader,
                    &kHasValidNeuronEvents,
                    opcode,
                    &kReserved,
                    &kMask,
                    &kIn64,
                    &kOut64,
                    &kAluEnum,
                    &kSubdim,
                    &kChannels,
                    &kSrcStart,
                    &kDstStart,
                    &kSrcTensor,
                    &kDstTensor,
                    &kReduceCount};
};

// §3.2 in the order PROJ-CONV-K6 fixes.
constexpr auto kTensorReduce = concat_predicates(kReduceHead(&kReduceOpcode), kReduceTail);
// §3.2 with the transpose opcode clause, and the two transpose conjuncts after the count (PROJ-CONV-K7).
constexpr auto kTransposeReduce =
    concat_predicates(kReduceHead(&kTransposeOpcode), std::array{&kMultiple32, &kTransposeCount}, kReduceTail);
// §3.4, verbatim order.
constexpr auto kCumulative = std::array{&kHasValidNeuronHeader,
                                        &kHasValidNeuronEvents,
                                        &kCumulativeOpcode,
                                        &kReserved,
                                        &kMask,
                                        &kInDtype,
                                        &kOutDtype,
                                        &kAluEnum,
                                        &kSubdim,
                                        &kChannels,
                                        &kSrcStart,
                                        &kDstStart,
                                        &kSrcTensor,
                                        &kDstTensor,
                                        &kSameCount,
                                        &kCumulativeOp,
                                        &kCumulativeDtype,
                                        &kZeroNegated};
// §3.5: the COPY/CAST shape (PROJ-CONV-K4).
constexpr auto kReciprocalList = std::array{&kHasValidNeuronHeader,
                                            &kHasValidNeuronEvents,
                                            &kReciprocalOpcode,
                                            &kReserved,
                                            &kMask,
                                            &kInDtype,
                                            &kOutDtype,
                                            &kAluEnum,
                                            &kZeroSubdim,
                                            &kChannels,
                                            &kSrcStart,
                                            &kDstStart,
                                            &kSrcTensor,
                                            &kDstTensor,
                                            &kSameCount,
                                            &kBypass,
                                            &kZeroNegated};

constexpr Validator kTensorReduceValidator = full_validator<kTensorReduce>("is_valid_tensor_reduce");
constexpr Validator kTransposeReduceValidator = full_validator<kTransposeReduce>("is_valid_transpose_tensor_reduce");
constexpr Validator kCumulativeValidator = full_validator<kCumulative>("is_valid_tensor_cumulative");
constexpr Validator kReciprocalValidator = full_validator<kReciprocalList>("is_valid_reciprocal");

constexpr ValidatorRow kRows[] = {
    {reduce::kTensorReduceArith, &kTensorReduceValidator},
    {reduce::kTensorReduceBitvec, &kTensorReduceValidator},
    {reduce::kTransposeReduceArith, &kTransposeReduceValidator},
    {reduce::kTransposeReduceBitvec, &kTransposeReduceValidator},
    {reduce::kCumulativeArith, &kCumulativeValidator},
    {reduce::kCumulativeBitvec, &kCumulativeValidator},
    {reduce::kReciprocal, &kReciprocalValidator},
};
constexpr Validation kValidation = validator_table<ReduceFamily, kRows>();

}  // namespace

const Validation& ReduceFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
