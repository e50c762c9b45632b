// Datapath family validators: is_valid_copy / is_valid_cast (real-programs.md §10.2), is_valid_tensor_tensor_arith
// (§11.2) and is_valid_memset (§12.2, PROJ-CONV-F21).
#include <algorithm>

#include "families/common.hpp"
#include "families/operand_rules.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;

// ---- Fields read, by name: offsets and sizes come from the format declarations (field_ref) ----

using Tr = S4d4Tr;
using Tt = S3s3d3Tt;
using Mr = D4Mr;

constexpr FieldRef fTrReserved[] = {field_ref<Tr>("reserved1")};
constexpr FieldRef fTrMask[] = {field_ref<Tr>("mask_enable")};
constexpr FieldRef fTrInDtype[] = {field_ref<Tr>("in_dtype")};
constexpr FieldRef fTrOutDtype[] = {field_ref<Tr>("out_dtype")};
constexpr FieldRef fTrOp[] = {field_ref<Tr>("op")};
constexpr FieldRef fTrOpDim[] = {field_ref<Tr>("op_dim")};
constexpr FieldRef fTrChannels[] = {field_ref<Tr>("num_active_channels")};
constexpr FieldRef fTrSrcChannels[] = {field_ref<Tr>("src.start_addr"), field_ref<Tr>("num_active_channels")};
constexpr FieldRef fTrDstChannels[] = {field_ref<Tr>("dst.start_addr"), field_ref<Tr>("num_active_channels")};
constexpr FieldRef fTrSrcTensor[] = {field_ref<Tr>("src.start_addr"), field_ref<Tr>("src.num_elem"),
                                     field_ref<Tr>("in_dtype")};
constexpr FieldRef fTrDstTensor[] = {field_ref<Tr>("dst.start_addr"), field_ref<Tr>("dst.num_elem"),
                                     field_ref<Tr>("out_dtype")};
constexpr FieldRef fTrCounts[] = {field_ref<Tr>("src.start_addr"), field_ref<Tr>("src.num_elem"),
                                  field_ref<Tr>("dst.start_addr"), field_ref<Tr>("dst.num_elem")};
constexpr FieldRef fTrTypes[] = {field_ref<Tr>("in_dtype"), field_ref<Tr>("out_dtype")};
constexpr FieldRef fTrNegated[] = {field_ref<Tr>("negated")};

constexpr FieldRef fTtOutDtype[] = {field_ref<Tt>("out_dtype")};
constexpr FieldRef fTtPair[] = {field_ref<Tt>("in0_in1_dtype")};
constexpr FieldRef fTtOp[] = {field_ref<Tt>("op")};
constexpr FieldRef fTtOpTypes[] = {field_ref<Tt>("op"), field_ref<Tt>("in0_in1_dtype"), field_ref<Tt>("out_dtype")};
constexpr FieldRef fTtSrc0Channels[] = {field_ref<Tt>("src0.start_addr"), field_ref<Tt>("num_active_channels")};
constexpr FieldRef fTtSrc1Channels[] = {field_ref<Tt>("src1.start_addr"), field_ref<Tt>("num_active_channels")};
constexpr FieldRef fTtDstChannels[] = {field_ref<Tt>("dst.start_addr"), field_ref<Tt>("num_active_channels")};
constexpr FieldRef fTtSrc0Tensor[] = {field_ref<Tt>("src0.start_addr"), field_ref<Tt>("src0.num_elem"),
                                      field_ref<Tt>("in0_in1_dtype")};
constexpr FieldRef fTtSrc1Tensor[] = {field_ref<Tt>("src1.start_addr"), field_ref<Tt>("src1.num_elem"),
                                      field_ref<Tt>("in0_in1_dtype")};
constexpr FieldRef fTtDstTensor[] = {field_ref<Tt>("dst.start_addr"), field_ref<Tt>("dst.num_elem"),
                                     field_ref<Tt>("out_dtype")};
constexpr FieldRef fTtSrc0Count[] = {field_ref<Tt>("src0.start_addr"), field_ref<Tt>("src0.num_elem"),
                                     field_ref<Tt>("dst.start_addr"), field_ref<Tt>("dst.num_elem")};
constexpr FieldRef fTtSrc1Count[] = {field_ref<Tt>("src1.start_addr"), field_ref<Tt>("src1.num_elem"),
                                     field_ref<Tt>("dst.start_addr"), field_ref<Tt>("dst.num_elem")};
constexpr FieldRef fTtChannels[] = {field_ref<Tt>("num_active_channels")};
constexpr FieldRef fTtPartitions[] = {field_ref<Tt>("src0.start_addr"), field_ref<Tt>("src1.start_addr")};

constexpr FieldRef fMrReserved[] = {field_ref<Mr>("reserved0"), field_ref<Mr>("reserved1"), field_ref<Mr>("reserved2"),
                                    field_ref<Mr>("reserved3")};
constexpr FieldRef fMrDtype[] = {field_ref<Mr>("dtype")};
constexpr FieldRef fMrValue[] = {field_ref<Mr>("dtype"), field_ref<Mr>("set_value")};
constexpr FieldRef fMrSerial[] = {field_ref<Mr>("serialization_mode")};
constexpr FieldRef fMrChannels[] = {field_ref<Mr>("num_active_channels")};
constexpr FieldRef fMrDstChannels[] = {field_ref<Mr>("dst.start_addr"), field_ref<Mr>("num_active_channels")};
constexpr FieldRef fMrDstTensor[] = {field_ref<Mr>("dst.start_addr"), field_ref<Mr>("dst.num_elem"),
                                     field_ref<Mr>("dtype")};
constexpr FieldRef fMrCount[] = {field_ref<Mr>("dst_element_count"), field_ref<Mr>("dst.start_addr"),
                                 field_ref<Mr>("dst.num_elem")};

// ---- Shared bodies ----

/// addresses_in_same_sbuf_quadrant, literal reading: both in the same quadrant-base partition (PROJ-CONV-C17), i.e.
/// addr_in_sbuf_partition(q, x) and addr_in_sbuf_partition(q, y) for one q of 0, 32, 64, 96.
bool same_sbuf_quadrant(uint32_t x, uint32_t y, Generation g) {
  // In one of the partitions 0, 32, 64, 96: one decode of each address, not one per quadrant base.
  const PartitionAddress px = decode_partition_offset(x, g);
  const PartitionAddress py = decode_partition_offset(y, g);
  return px.region == Region::Sbuf && py.region == Region::Sbuf && px.partition == py.partition &&
         px.partition % 32 == 0 && px.partition < 128;
}

/// The MEM_PATTERN indirect arm (MARIANA+): the data address in PSUM, or index and data in the same SBUF
/// quadrant (common-formats.md §6.2). The index ADDR4 is the first word, the data ADDR4 the second.
bool indirect_arm_valid(uint32_t index_raw, uint32_t data_raw, Generation g) {
  const uint32_t data = Addr4{data_raw}.masked();
  return addr_in_psum(data, g) || same_sbuf_quadrant(Addr4{index_raw}.masked(), data, g);
}

/// The data ADDR4 of an indirect arm: bytes 4..7 of the pattern, which the TENSOR view holds as step_elem[0..1].
template <class T>
uint32_t indirect_data(const T& t) {
  return static_cast<uint32_t>(static_cast<uint16_t>(t.step_elem[0])) |
         (static_cast<uint32_t>(static_cast<uint16_t>(t.step_elem[1])) << 16);
}

/// tensorNd_valid, or on MARIANA+ the indirect-arm rule when the operand's MEM_PATTERN arm is `i`.
template <class T>
bool pattern_valid(const T& t, uint8_t d, bool write, Generation g) {
  if (datapath::indirect_arm(t.start_addr, g)) return indirect_arm_valid(t.start_addr.raw, indirect_data(t), g);
  return tensor_valid(t, d, write, g);
}

/// Element counts are compared only when both operands are plain tensors with immediate shapes: a shape from
/// a register (CAYMAN+; never on SUNDA, PROJ-CONV-C18) or an indirect arm carries no comparable count.
bool count_escapes(const Addr4& start, Generation g) {
  return shape_escapes(start, g) || datapath::indirect_arm(start, g);
}

std::string_view pattern_convention(const Addr4& start, Generation g) {
  return datapath::indirect_arm(start, g) ? "PROJ-CONV-C17" : "";
}

// ---- Explanations ----

/// How the datapath family words the failures of the shared operand rules: a 64-bit dtype is named as such.
constexpr Wording kDatapathWording{.start_limit = kPartitionWording.start_limit,
                                   .pattern_start = kPartitionWording.pattern_start,
                                   .written_note = kPartitionWording.written_note,
                                   .names_sunda_escape = true,
                                   .count_has = kPartitionWording.count_has,
                                   .via_64 = "64-bit dtypes are not allowed here"};

template <class T>
std::string explain_pattern(std::string_view which, const T& t, uint8_t d, bool write, const CheckContext& c) {
  if (datapath::indirect_arm(t.start_addr, c.gen))
    return fmt::format(
        "{} is an indirect MEM_PATTERN (index {}, data {}): the data must be in PSUM or share the index's SBUF "
        "quadrant-base partition (PROJ-CONV-C17)",
        which, addr4_label(t.start_addr, c.gen), addr4_label(Addr4{indirect_data(t)}, c.gen));
  return pattern_failure(kDatapathWording, which, t, d, write, c);
}

// ---- Shared predicate shapes: one rule each, parameterised by the operand it reads ----

/// tensorNd_valid of operand Which read (or, Write, written) in dtype Dtype(x), with the MARIANA+ indirect arm.
template <class S, auto Operand, auto Dtype, bool Write>
bool pattern_ok(const S& x, const CheckContext& c) {
  return pattern_valid(x.*Operand, Dtype(x), Write, c.gen);
}
template <class S, auto Operand, auto Dtype, bool Write, Name Which>
std::string pattern_text(const S& x, const CheckContext& c) {
  return explain_pattern(Which, x.*Operand, Dtype(x), Write, c);
}
template <class S, auto Operand>
std::string_view pattern_failure_convention(const Instruction& i, const CheckContext& c) {
  return pattern_convention((body<S>(i).*Operand).start_addr, c.gen);
}
template <class S, auto Operand, auto Dtype, bool Write, Name Which>
constexpr Predicate pattern_rule(std::string_view name, std::string_view meaning, std::span<const FieldRef> fields) {
  return rule<S, pattern_ok<S, Operand, Dtype, Write>>(
      {.name = name,
       .convention = "",
       .meaning = meaning,
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<S, pattern_text<S, Operand, Dtype, Write, Which>>,
       .via = nullptr,
       .failure_convention = pattern_failure_convention<S, Operand>});
}

// ---- COPY / CAST (S4D4_TR) ----

constexpr uint8_t tr_in_dtype(const Tr& x) {
  return x.in_dtype;
}
constexpr uint8_t tr_out_dtype(const Tr& x) {
  return x.out_dtype;
}

constexpr Predicate kCopyOpcode = opcode_clause<Tr, opcode::kCopy>("has_copy_opcode", "", "the opcode is COPY (0x46)");
constexpr Predicate kCastOpcode = opcode_clause<Tr, opcode::kCast>("has_cast_opcode", "", "the opcode is CAST (0x47)");

constexpr Predicate kTrReserved = reserved_rule<Tr, fTrReserved>(
    {.name = "s4d4_tr_reserved_zero",
     .convention = "",
     .meaning = "reserved1 (five bytes) is zero",
     .gens = kGensAll,
     .explain = [](const Instruction&, const CheckContext&) { return std::string("reserved1 has a non-zero byte"); }});

constexpr Predicate kTrMask = rule<Tr, [](const Tr& x, const CheckContext&) { return x.mask_enable == 0; }>(
    {.name = "mask_enable_zero",
     .convention = "",
     .meaning = "mask_enable is 0",
     .gens = kGensAll,
     .fields = fTrMask,
     .explain = explain_on_body<Tr, [](const Tr& x, const CheckContext&) {
       return fmt::format("mask_enable is {}, must be 0", x.mask_enable);
     }>});

constexpr Predicate kTrInDtype = dtype_rule<Tr, tr_in_dtype, false, "in_dtype", false, kDatapathWording>(
    "is_valid_dtype(in_dtype, FP32R not allowed)", fTrInDtype);
constexpr Predicate kTrOutDtype = dtype_rule<Tr, tr_out_dtype, true, "out_dtype", false, kDatapathWording>(
    "is_valid_dtype(out_dtype, FP32R allowed)", fTrOutDtype);

constexpr Predicate kTrAluEnum = aluop_rule<Tr>(fTrOp);

constexpr Predicate kTrSubdim =
    rule<Tr, [](const Tr& x, const CheckContext&) { return x.op_dim == 0 || x.op_dim == 2; }>(
        {.name = "is_zero_subdim",
         .convention = "",
         .meaning = "op_dim is UNUSED (0) or X (2)",
         .gens = kGensAll,
         .fields = fTrOpDim,
         .explain = explain_on_body<Tr, [](const Tr& x, const CheckContext&) {
           return fmt::format("op_dim is {:#04x}, must be UNUSED (0x00) or X (0x02)", x.op_dim);
         }>});

constexpr Predicate kTrChannels =
    channels_rule<Tr>("has_valid_active_channel_range", "num_active_channels is 1..128", fTrChannels, "");

constexpr Predicate kTrSrcStart = start_rule<Tr, &Tr::src, "src">(
    "src: a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128", fTrSrcChannels,
    "PROJ-CONV-C15");
constexpr Predicate kTrDstStart = start_rule<Tr, &Tr::dst, "dst">(
    "dst: a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128", fTrDstChannels,
    "PROJ-CONV-C15");

constexpr Predicate kTrSrcTensor = pattern_rule<Tr, &Tr::src, tr_in_dtype, false, "src">(
    "tensor4d_valid",
    "src readable: non-zero counts (or a register shape, CAYMAN+) and a register (0x80) or in_dtype-aligned "
    "SBUF/PSUM start; MARIANA+ indirect MEM_PATTERN4D: data in PSUM or in the index's SBUF quadrant",
    fTrSrcTensor);
constexpr Predicate kTrDstTensor = pattern_rule<Tr, &Tr::dst, tr_out_dtype, true, "dst">(
    "tensor4d_valid",
    "dst writable: as src, with out_dtype; PSUM is written only with 4-byte dtypes; MARIANA+ indirect "
    "MEM_PATTERN4D: data in PSUM or in the index's SBUF quadrant",
    fTrDstTensor);

constexpr Predicate kTrSameCount =
    count_rule<Tr, &Tr::src, &Tr::dst, "src", "dst", kPartitionWording, false, count_escapes>(
        "s4d4_tr_same_src_dst_count", "",
        "src and dst have the same element count (skipped when a shape comes from a register)", fTrCounts);

constexpr Predicate kTrBypass = rule<Tr, [](const Tr& x, const CheckContext&) { return x.op == aluop::kBypass; }>(
    {.name = "s4d4_tr_op_bypass",
     .convention = "",
     .meaning = "op is BYPASS (0)",
     .gens = kGensAll,
     .fields = fTrOp,
     .explain = explain_on_body<Tr, [](const Tr& x, const CheckContext& c) {
       return fmt::format("op is {}, must be BYPASS (0x00)", aluop_label(x.op, c.gen));
     }>});

constexpr Predicate kTrSameType = rule<Tr, [](const Tr& x, const CheckContext&) { return x.in_dtype == x.out_dtype; }>(
    {.name = "s4d4_tr_same_src_dst_type",
     .convention = "",
     .meaning = "(COPY) in_dtype equals out_dtype",
     .gens = kGensAll,
     .fields = fTrTypes,
     .explain = explain_on_body<Tr, [](const Tr& x, const CheckContext& c) {
       return fmt::format("COPY moves bits unchanged: in_dtype {} differs from out_dtype {}",
                          dtype_label(x.in_dtype, c.gen), dtype_label(x.out_dtype, c.gen));
     }>});

constexpr Predicate kTrNegated = rule<Tr, [](const Tr& x, const CheckContext&) { return x.negated == 0; }>(
    {.name = "has_zero_negated_field",
     .convention = "",
     .meaning = "negated is 0",
     .gens = kGensAll,
     .fields = fTrNegated,
     .explain = explain_on_body<Tr, [](const Tr& x, const CheckContext&) {
       return fmt::format("negated is {}, must be 0", x.negated);
     }>});

// The conjuncts COPY and CAST share (s4d4_tr.h), in header order.
constexpr std::array<const Predicate*, 13> kTrCommon{
    &kTrReserved, &kTrMask,     &kTrInDtype,   &kTrOutDtype,  &kTrAluEnum,   &kTrSubdim, &kTrChannels,
    &kTrSrcStart, &kTrDstStart, &kTrSrcTensor, &kTrDstTensor, &kTrSameCount, &kTrBypass};

// PROJ-CONV-F1 closes each list: the engine is a property of the stream, not of the word's bytes.
constexpr const Predicate* kPlacement = &kEnginePlacement;

constexpr auto kCopy = concat_predicates(std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kCopyOpcode},
                                         kTrCommon, std::array{&kTrSameType, &kTrNegated, kPlacement});
constexpr auto kCast = concat_predicates(std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kCastOpcode},
                                         kTrCommon, std::array{&kTrNegated, kPlacement});

// ---- TENSOR_TENSOR_ARITH_OP (S3S3D3_TT) ----

/// s3s3d3_tt_valid_op for the arith opcode: is_general_arith_op(op) OR op == POW OR is_valid_int_aluop(op).
bool tt_valid_op(uint8_t op, const CheckContext& c) {
  const bool general = aluop_is(op, kAluGeneralArith, c.gen) &&
                       (op != aluop::kSymmetricClamp || c.options.symmetric_clamp_general_arith);
  return general || (op == aluop::kPow && aluop_in(op, c.gen)) || aluop_is(op, kAluInt, c.gen);
}

bool signed_int(uint8_t d) {
  return d == dtype::kInt8 || d == dtype::kInt16 || d == dtype::kInt32 || d == dtype::kInt64;
}
bool unsigned_int(uint8_t d) {
  return d == dtype::kUint8 || d == dtype::kUint16 || d == dtype::kUint32 || d == dtype::kUint64;
}

/// s3s3d3_tt_valid_int_signness: an integer ALU op needs src0, src1 and out of one integer signedness, and one
/// the op allows (signed-only ops: signed; unsigned-only: unsigned; ops in both sets: either). Non-integer ops:
/// vacuous (enums.md §5.1; the exact reading is a project decision, docs/conventions.md).
bool tt_signness(const Tt& t, Generation g) {
  if (!aluop_is(t.op, kAluInt, g)) return true;
  const uint8_t lo = datapath::pair_lo(t.in0_in1_dtype), hi = datapath::pair_hi(t.in0_in1_dtype);
  const bool all_signed = signed_int(lo) && signed_int(hi) && signed_int(t.out_dtype);
  const bool all_unsigned = unsigned_int(lo) && unsigned_int(hi) && unsigned_int(t.out_dtype);
  const bool s_ok = aluop_is(t.op, kAluSigned, g);
  const bool u_ok = aluop_is(t.op, kAluUnsigned, g);
  return (s_ok && all_signed) || (u_ok && all_unsigned);
}

/// tt_valid_partitions(src0, src1) (common-formats.md §10.9): never two PSUM operands; two SBUF operands in the
/// same quadrant-base partition (PROJ-CONV-C17).
bool tt_valid_partitions(const Addr4& a0, const Addr4& a1, Generation g) {
  if (a0.from_register() || a1.from_register()) return true;
  const uint32_t x0 = a0.masked(), x1 = a1.masked();
  if (addr_in_psum(x0, g) && addr_in_sbuf(x1, g)) return true;
  if (addr_in_sbuf(x0, g) && addr_in_psum(x1, g)) return true;
  return addr_in_sbuf(x0, g) && addr_in_sbuf(x1, g) && same_sbuf_quadrant(x0, x1, g);
}

/// The dtype each TT operand is read or written in: src0 the low nibble, src1 the high nibble, dst out_dtype.
constexpr uint8_t tt_src0_dtype(const Tt& t) {
  return datapath::pair_lo(t.in0_in1_dtype);
}
constexpr uint8_t tt_src1_dtype(const Tt& t) {
  return datapath::pair_hi(t.in0_in1_dtype);
}
constexpr uint8_t tt_out_dtype(const Tt& t) {
  return t.out_dtype;
}

constexpr Predicate kTtOpcode = opcode_clause<Tt, opcode::kTensorTensorArith>(
    "has_tensor_tensor_arith_opcode", "", "the opcode is TENSOR_TENSOR_ARITH_OP (0x41)");

constexpr Predicate kTtOutDtype = dtype_rule<Tt, tt_out_dtype, true, "out_dtype", true>(
    "is_valid_dtype_64(out_dtype, FP32R, UINT64 and INT64 allowed)", fTtOutDtype);
constexpr Predicate kTtLoDtype = dtype_rule<Tt, tt_src0_dtype, false, "src0 dtype (low nibble)", true>(
    "is_valid_dtype_64(src0 dtype = low nibble of in0_in1_dtype, FP32R not allowed, UINT64/INT64 allowed)", fTtPair);
constexpr Predicate kTtHiDtype = dtype_rule<Tt, tt_src1_dtype, false, "src1 dtype (high nibble)", true>(
    "is_valid_dtype_64(src1 dtype = high nibble of in0_in1_dtype, FP32R not allowed, UINT64/INT64 allowed)", fTtPair);

constexpr Predicate kTtAluEnum = aluop_rule<Tt>(fTtOp);

constexpr Predicate kTtValidOp = rule<Tt, [](const Tt& x, const CheckContext& c) { return tt_valid_op(x.op, c); }>(
    {.name = "s3s3d3_tt_valid_op",
     .convention = "",
     .meaning = "op is is_general_arith_op, POW or is_valid_int_aluop (SYMMETRIC_CLAMP on MAVERICK: PROJ-CONV-T11)",
     .gens = kGensAll,
     .fields = fTtOp,
     .explain = explain_on_body<Tt,
                                [](const Tt& x, const CheckContext& c) {
                                  return fmt::format("op {} is not a general-arith op, POW or an integer ALU op",
                                                     aluop_label(x.op, c.gen));
                                }>,
     .via = nullptr,
     .failure_convention = [](const Instruction& i, const CheckContext& c) -> std::string_view {
       return body<Tt>(i).op == aluop::kSymmetricClamp && c.gen == Generation::Maverick ? "PROJ-CONV-T11" : "";
     }});

constexpr Predicate kTtDtype = opcode_clause<Tt, opcode::kTensorTensorArith>(
    "s3s3d3_tt_dtype", "", "the bitvec sibling 0x51 needs an integer out_dtype; vacuous for TENSOR_TENSOR_ARITH_OP");
constexpr Predicate kTtSrcDstDtype = opcode_clause<Tt, opcode::kTensorTensorArith>(
    "s3s3d3_tt_src_dst_dtype", "",
    "the bitvec sibling 0x51 needs three equal dtypes (shift exception); vacuous for 0x41");

constexpr Predicate kTtSignness = rule<Tt, [](const Tt& x, const CheckContext& c) { return tt_signness(x, c.gen); }>(
    {.name = "s3s3d3_tt_valid_int_signness",
     .convention = "",
     .meaning = "an integer ALU op needs src0, src1 and out_dtype all signed or all unsigned integers, of a signedness "
                "the op allows (is_signed_alu_op / is_unsigned_alu_op)",
     .gens = kGensAll,
     .fields = fTtOpTypes,
     .explain = explain_on_body<Tt, [](const Tt& t, const CheckContext& c) {
       return fmt::format(
           "integer op {} with src0 {}, src1 {}, out {}: the three must be integers of one signedness "
           "the op allows",
           aluop_label(t.op, c.gen), dtype_label(datapath::pair_lo(t.in0_in1_dtype), c.gen),
           dtype_label(datapath::pair_hi(t.in0_in1_dtype), c.gen), dtype_label(t.out_dtype, c.gen));
     }>});

constexpr Predicate kTtSrc0Start = start_rule<Tt, &Tt::src0, "src0">(
    "src0: a register start, or partition + num_active_channels <= 128", fTtSrc0Channels, "PROJ-CONV-C15");
constexpr Predicate kTtSrc1Start = start_rule<Tt, &Tt::src1, "src1">(
    "src1: a register start, or partition + num_active_channels <= 128", fTtSrc1Channels, "PROJ-CONV-C15");
constexpr Predicate kTtDstStart = start_rule<Tt, &Tt::dst, "dst">(
    "dst: a register start, or partition + num_active_channels <= 128", fTtDstChannels, "PROJ-CONV-C15");

constexpr Predicate kTtSrc0Tensor = pattern_rule<Tt, &Tt::src0, tt_src0_dtype, false, "src0">(
    "tensor3d_valid", "src0 readable in the low-nibble dtype (indirect MEM_PATTERN3D on MARIANA+: the indirect rule)",
    fTtSrc0Tensor);
constexpr Predicate kTtSrc1Tensor = pattern_rule<Tt, &Tt::src1, tt_src1_dtype, false, "src1">(
    "tensor3d_valid", "src1 readable in the high-nibble dtype (indirect MEM_PATTERN3D on MARIANA+: the indirect rule)",
    fTtSrc1Tensor);
constexpr Predicate kTtDstTensor = pattern_rule<Tt, &Tt::dst, tt_out_dtype, true, "dst">(
    "tensor3d_valid",
    "dst writable in out_dtype; PSUM only with 4-byte dtypes (indirect MEM_PATTERN3D: the indirect rule)",
    fTtDstTensor);

constexpr Predicate kTtSrc0Count =
    count_rule<Tt, &Tt::src0, &Tt::dst, "src0", "dst", kPartitionWording, false, count_escapes>(
        "s3s3d3_tt_same_src0_dst_count", "",
        "src0 and dst have the same element count (s3s3d3_tt.h:116; skipped for a register shape)", fTtSrc0Count);
constexpr Predicate kTtSrc1Count =
    count_rule<Tt, &Tt::src1, &Tt::dst, "src1", "dst", kPartitionWording, false, count_escapes>(
        "s3s3d3_tt_same_src1_dst_count", "",
        "src1 and dst have the same element count (s3s3d3_tt.h:123; skipped for a register shape)", fTtSrc1Count);

constexpr Predicate kTtChannels =
    channels_rule<Tt, true>("check_active_channels", "num_active_channels is 1..128", fTtChannels, "");

constexpr Predicate kTtPartitions =
    rule<Tt, [](const Tt& x,
                const CheckContext& c) { return tt_valid_partitions(x.src0.start_addr, x.src1.start_addr, c.gen); }>(
        {.name = "tt_valid_partitions",
         .convention = "",
         .meaning = "src0/src1: a register start, one PSUM and one SBUF operand, or two SBUF operands in the same "
                    "quadrant-base partition (PROJ-CONV-C17); never two PSUM operands",
         .gens = kGensAll,
         .fields = fTtPartitions,
         .explain =
             explain_on_body<Tt,
                             [](const Tt& x, const CheckContext& c) {
                               return fmt::format(
                                   "src0 {} and src1 {}: two PSUM operands, an operand outside SBUF/PSUM, or two SBUF "
                                   "operands not in one quadrant-base partition",
                                   addr4_label(x.src0.start_addr, c.gen), addr4_label(x.src1.start_addr, c.gen));
                             }>,
         .via = nullptr,
         .failure_convention = [](const Instruction& i, const CheckContext& c) -> std::string_view {
           const uint32_t x0 = body<Tt>(i).src0.start_addr.masked(), x1 = body<Tt>(i).src1.start_addr.masked();
           return addr_in_sbuf(x0, c.gen) && addr_in_sbuf(x1, c.gen) ? "PROJ-CONV-C17" : "";
         }});

constexpr const Predicate* kTensorTensor[] = {&kHasValidNeuronHeader,
                                              &kHasValidNeuronEvents,
                                              &kTtOpcode,
                                              &kTtOutDtype,
                                              &kTtLoDtype,
                                              &kTtHiDtype,
                                              &kTtAluEnum,
                                              &kTtValidOp,
                                              &kTtDtype,
                                              &kTtSrcDstDtype,
                                              &kTtSignness,
                                              &kTtSrc0Start,
                                              &kTtSrc1Start,
                                              &kTtDstStart,
                                              &kTtSrc0Tensor,
                                              &kTtSrc1Tensor,
                                              &kTtDstTensor,
                                              &kTtSrc0Count,
                                              &kTtSrc1Count,
                                              &kTtChannels,
                                              &kTtPartitions,
                                              kPlacement};

// ---- MEMSET (D4_MR) ----

constexpr uint8_t mr_dtype(const Mr& x) {
  return x.dtype;
}

constexpr Predicate kMrOpcode =
    opcode_clause<Mr, opcode::kMemset>("has_memset_opcode", "", "the opcode is MEMSET (0x49)");

constexpr Predicate kMrReserved = reserved_rule<Mr, fMrReserved>(
    {.name = "d4_mr_reserved_zero",
     .convention = "",
     .meaning = "reserved0 (16 bytes), reserved1, reserved2 and reserved3 (3 bytes) are zero",
     .gens = kGensAll,
     .explain = [](const Instruction&, const CheckContext&) {
       return std::string("a reserved byte (reserved0..reserved3) is not zero");
     }});

constexpr Predicate kMrDtype =
    dtype_rule<Mr, mr_dtype, true, "dtype", false, kDatapathWording>("is_valid_dtype(dtype, FP32R allowed)", fMrDtype);

constexpr Predicate kMrValue = rule<Mr,
                                    [](const Mr& x, const CheckContext&) {
                                      const uint32_t mask = datapath::memset_value_mask(x.dtype);
                                      return mask != 0 && (x.set_value & ~mask) == 0;
                                    }>(
    {.name = "memset_set_value_type",
     .convention = "",
     .meaning =
         "32-bit dtypes (FP32, UINT32, INT32) take any set_value; 16-bit ones only the low 16 bits; 8-bit ones only "
         "the low 8 bits; any other dtype (FP32R included) fails",
     .gens = kGensAll,
     .fields = fMrValue,
     .explain = explain_on_body<Mr, [](const Mr& x, const CheckContext& c) {
       const uint32_t mask = datapath::memset_value_mask(x.dtype);
       if (mask == 0) return fmt::format("dtype {} cannot be a MEMSET fill type", dtype_label(x.dtype, c.gen));
       return fmt::format("set_value {:#010x} has bits outside the {} bits of {}", x.set_value, mask == 0xFF ? 8 : 16,
                          dtype_label(x.dtype, c.gen));
     }>});

constexpr Predicate kMrSerial =
    rule<Mr, [](const Mr& x, const CheckContext&) { return x.serialization_mode == datapath::kSerial; }>(
        {.name = "d4_mr_zero_serialization",
         .convention = "PROJ-CONV-F22",
         .meaning = "serialization_mode is Serial (0, PROJ-CONV-F22)",
         .gens = kGensAll,
         .fields = fMrSerial,
         .explain = explain_on_body<Mr, [](const Mr& x, const CheckContext&) {
           return fmt::format("serialization_mode is {:#04x}, must be Serial (0x00)", x.serialization_mode);
         }>});

constexpr Predicate kMrChannels = channels_rule<Mr>(
    "has_valid_active_channel_range", "num_active_channels is 1..128 (PROJ-CONV-F21)", fMrChannels, "PROJ-CONV-F21");

constexpr Predicate kMrDstStart = start_rule<Mr, &Mr::dst, "dst">(
    "dst: a register start, or partition + num_active_channels <= 128 (PROJ-CONV-F21, PROJ-CONV-C15)", fMrDstChannels,
    "PROJ-CONV-F21");

constexpr Predicate kMrDstTensor =
    rule<Mr, [](const Mr& x, const CheckContext& c) { return tensor_valid(x.dst, x.dtype, true, c.gen); }>(
        {.name = "tensor4d_valid",
         .convention = "PROJ-CONV-F21",
         .meaning = "dst writable in dtype; PSUM only with 4-byte dtypes (PROJ-CONV-F21)",
         .gens = kGensAll,
         .fields = fMrDstTensor,
         .explain = explain_on_body<Mr, [](const Mr& x, const CheckContext& c) {
           return explain_pattern("dst", x.dst, x.dtype, true, c);
         }>});

constexpr Predicate kMrCount = rule<Mr,
                                    [](const Mr& x, const CheckContext& c) {
                                      if (pred::has_shape_escape(c.gen) && x.dst.start_addr.shape_from_register())
                                        return true;
                                      return uint64_t{x.dst_element_count} == x.dst.elements();
                                    }>(
    {.name = "d4_mr_dst_element_count",
     .convention = "PROJ-CONV-F21",
     .meaning = "dst_element_count equals dst's element count, unless the shape comes from a register (PROJ-CONV-F21)",
     .gens = kGensAll,
     .fields = fMrCount,
     .explain = explain_on_body<Mr, [](const Mr& x, const CheckContext&) {
       return fmt::format("dst_element_count is {}, dst has {} elements", x.dst_element_count, x.dst.elements());
     }>});

constexpr const Predicate* kMemset[] = {
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kMrOpcode,    &kMrReserved, &kMrDtype, &kMrValue, &kMrSerial,
    &kMrChannels,           &kMrDstStart,           &kMrDstTensor, &kMrCount,    kPlacement};

// ---- Validators ----

constexpr Validator kCopyValidator = full_validator<kCopy>("is_valid_copy");
constexpr Validator kCastValidator = full_validator<kCast>("is_valid_cast");
constexpr Validator kTensorTensorValidator = full_validator<kTensorTensor>("is_valid_tensor_tensor_arith");
constexpr Validator kMemsetValidator = full_validator<kMemset>("is_valid_memset");

constexpr ValidatorRow kRows[] = {
    {opcode::kCopy, &kCopyValidator},
    {opcode::kCast, &kCastValidator},
    {opcode::kTensorTensorArith, &kTensorTensorValidator},
    {opcode::kMemset, &kMemsetValidator},
};
constexpr Validation kValidation = validator_table<DatapathFamily, kRows>();

}  // namespace

const Validation& DatapathFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
