// Datapath family validators: is_valid_copy / is_valid_cast (real-programs.md §10.2), is_valid_tensor_tensor_arith
// (§11.2) and is_valid_memset (§12.2, PROJ-CONV-F21).
#include <algorithm>

#include "families/common.hpp"

namespace tpbisa::family {
namespace {

// ---- Fields read, by name: offsets and sizes come from the format declarations (field_ref) ----

using Tr = S4d4Tr;
using Tt = S3s3d3Tt;
using Mr = D4Mr;

constexpr FieldRef fTrOpcode[] = {field_ref<Tr>("header.opcode")};
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

constexpr FieldRef fTtOpcode[] = {field_ref<Tt>("header.opcode")};
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

constexpr FieldRef fMrOpcode[] = {field_ref<Mr>("header.opcode")};
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

const Tr& tr(const Instruction& i) {
  return body<Tr>(i);
}
const Tt& tt(const Instruction& i) {
  return body<Tt>(i);
}
const Mr& mr(const Instruction& i) {
  return body<Mr>(i);
}

// ---- Shared bodies ----

template <size_t N>
bool all_zero(const std::array<uint8_t, N>& a) {
  return std::all_of(a.begin(), a.end(), [](uint8_t b) { return b == 0; });
}

/// is_valid_dtype_64(d, allow_fp32r, allow_u64, allow_i64) (common-formats.md §10.4).
bool is_valid_dtype_64(uint8_t d, bool allow_fp32r, bool allow_u64, bool allow_i64, const CheckContext& c) {
  if (d == dtype::kUint64) return allow_u64;
  if (d == dtype::kInt64) return allow_i64;
  return pred::is_valid_dtype(d, allow_fp32r, c);
}

/// addr_in_sbuf_partition(q, x) on a masked immediate.
bool in_sbuf_partition(uint32_t q, uint32_t masked, Generation g) {
  const PartitionAddress p = decode_partition_offset(masked, g);
  return p.region == Region::Sbuf && p.partition == q;
}

/// addresses_in_same_sbuf_quadrant, literal reading: both in the same quadrant-base partition (PROJ-CONV-C17).
bool same_sbuf_quadrant(uint32_t x, uint32_t y, Generation g) {
  for (uint32_t q : {0U, 32U, 64U, 96U})
    if (in_sbuf_partition(q, x, g) && in_sbuf_partition(q, y, g)) return true;
  return false;
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
  if (!pred::counts_nonzero(t.num_elem, t.start_addr, g)) return false;
  return pred::tensor_start_addr_valid(t.start_addr, d, write, true, true, g);
}

/// Element counts are compared only when both operands are plain tensors with immediate shapes: a shape from
/// a register (CAYMAN+; never on SUNDA, PROJ-CONV-C18) or an indirect arm carries no comparable count.
template <class A, class B>
bool same_count(const A& a, const B& b, Generation g) {
  for (const Addr4& s : {a.start_addr, b.start_addr})
    if ((pred::has_shape_escape(g) && s.shape_from_register()) || datapath::indirect_arm(s, g)) return true;
  return a.elements() == b.elements();
}

std::string_view pattern_convention(const Addr4& start, Generation g) {
  return datapath::indirect_arm(start, g) ? "PROJ-CONV-C17" : "";
}

// ---- Explanations ----

std::string explain_dtype(std::string_view which, uint8_t d, bool allow_fp32r, const CheckContext& c) {
  std::string_view via;
  pred::is_valid_dtype(d, allow_fp32r, c, &via);
  if (d == dtype::kUint64 || d == dtype::kInt64) via = "64-bit dtypes are not allowed here";
  return fmt::format("{} {} fails is_valid_dtype ({})", which, dtype_label(d, c.gen), via);
}

std::string explain_channels_range(unsigned n) {
  return fmt::format("num_active_channels is {}, must be 1..128", n);
}

std::string explain_start(std::string_view which, const Addr4& a, unsigned n, const CheckContext& c) {
  return fmt::format("{} start {}: its partition + {} active channels must stay within 128 SBUF or PSUM partitions",
                     which, addr4_label(a, c.gen), n);
}

template <class T>
std::string explain_pattern(std::string_view which, const T& t, uint8_t d, bool write, const CheckContext& c) {
  if (datapath::indirect_arm(t.start_addr, c.gen))
    return fmt::format(
        "{} is an indirect MEM_PATTERN (index {}, data {}): the data must be in PSUM or share the index's SBUF "
        "quadrant-base partition (PROJ-CONV-C17)",
        which, addr4_label(t.start_addr, c.gen), addr4_label(Addr4{indirect_data(t)}, c.gen));
  if (!pred::counts_nonzero(t.num_elem, t.start_addr, c.gen))
    return fmt::format("{} has a zero element count{}", which,
                       pred::has_shape_escape(c.gen) ? " and its shape does not come from a register"
                                                     : " (no shape-from-register escape on sunda, PROJ-CONV-C18)");
  return fmt::format("{} start {} is not a {}-aligned SBUF/PSUM address for {}{}", which,
                     addr4_label(t.start_addr, c.gen), dtype_size(d), dtype_label(d, c.gen),
                     write ? " (a tensor written to PSUM must use a 4-byte dtype)" : "");
}

std::string explain_opcode(const Instruction& i, const CheckContext&) {
  return fmt::format("opcode {:#04x} is not the opcode this validator requires", i.opcode());
}

std::string explain_aluop(uint8_t op, const CheckContext& c) {
  return fmt::format("op {} is not in the ALU_OP enum of {}", aluop_label(op, c.gen), to_string(c.gen));
}

// ---- COPY / CAST (S4D4_TR) ----

constexpr Predicate kCopyOpcode{
    .name = "has_copy_opcode",
    .convention = "",
    .meaning = "the opcode is COPY (0x46)",
    .gens = kGensAll,
    .fields = fTrOpcode,
    .holds = [](const Instruction& i, const CheckContext&) { return i.opcode() == opcode::kCopy; },
    .explain = explain_opcode,
    .accepts =
        on_view<RawWord, [](const RawWord& x, const CheckContext&) { return x.header.opcode == opcode::kCopy; }>};

constexpr Predicate kCastOpcode{
    .name = "has_cast_opcode",
    .convention = "",
    .meaning = "the opcode is CAST (0x47)",
    .gens = kGensAll,
    .fields = fTrOpcode,
    .holds = [](const Instruction& i, const CheckContext&) { return i.opcode() == opcode::kCast; },
    .explain = explain_opcode,
    .accepts =
        on_view<RawWord, [](const RawWord& x, const CheckContext&) { return x.header.opcode == opcode::kCast; }>};

constexpr Predicate kTrReserved{
    .name = "s4d4_tr_reserved_zero",
    .convention = "",
    .meaning = "reserved1 (five bytes) is zero",
    .gens = kGensAll,
    .fields = fTrReserved,
    .holds = [](const Instruction& i, const CheckContext&) { return all_zero(tr(i).reserved1); },
    .explain = [](const Instruction&, const CheckContext&) { return std::string("reserved1 has a non-zero byte"); },
    .accepts = reserved_mask_accepts<Tr, fTrReserved>};

constexpr Predicate kTrMask{
    .name = "mask_enable_zero",
    .convention = "",
    .meaning = "mask_enable is 0",
    .gens = kGensAll,
    .fields = fTrMask,
    .holds = [](const Instruction& i, const CheckContext&) { return tr(i).mask_enable == 0; },
    .explain = [](const Instruction& i,
                  const CheckContext&) { return fmt::format("mask_enable is {}, must be 0", tr(i).mask_enable); },
    .accepts = on_view<Tr, [](const Tr& x, const CheckContext&) { return x.mask_enable == 0; }>};

constexpr Predicate kTrInDtype{
    .name = "is_valid_dtype",
    .convention = "",
    .meaning = "is_valid_dtype(in_dtype, FP32R not allowed)",
    .gens = kGensAll,
    .fields = fTrInDtype,
    .holds = [](const Instruction& i, const CheckContext& c) { return pred::is_valid_dtype(tr(i).in_dtype, false, c); },
    .explain = [](const Instruction& i,
                  const CheckContext& c) { return explain_dtype("in_dtype", tr(i).in_dtype, false, c); },
    .accepts = on_view<Tr, [](const Tr& x, const CheckContext& c) { return dtype_accepts(x.in_dtype, false, c); }>};

constexpr Predicate kTrOutDtype{
    .name = "is_valid_dtype",
    .convention = "",
    .meaning = "is_valid_dtype(out_dtype, FP32R allowed)",
    .gens = kGensAll,
    .fields = fTrOutDtype,
    .holds = [](const Instruction& i, const CheckContext& c) { return pred::is_valid_dtype(tr(i).out_dtype, true, c); },
    .explain = [](const Instruction& i,
                  const CheckContext& c) { return explain_dtype("out_dtype", tr(i).out_dtype, true, c); },
    .accepts = on_view<Tr, [](const Tr& x, const CheckContext& c) { return dtype_accepts(x.out_dtype, true, c); }>};

constexpr Predicate kTrAluEnum{
    .name = "is_valid_enum(AluOp)",
    .convention = "",
    .meaning = "op is a member of the generation's ALU_OP enum",
    .gens = kGensAll,
    .fields = fTrOp,
    .holds = [](const Instruction& i, const CheckContext& c) { return aluop_in(tr(i).op, c.gen); },
    .explain = [](const Instruction& i, const CheckContext& c) { return explain_aluop(tr(i).op, c); },
    .accepts = on_view<Tr, [](const Tr& x, const CheckContext& c) { return aluop_in(x.op, c.gen); }>};

constexpr Predicate kTrSubdim{
    .name = "is_zero_subdim",
    .convention = "",
    .meaning = "op_dim is UNUSED (0) or X (2)",
    .gens = kGensAll,
    .fields = fTrOpDim,
    .holds = [](const Instruction& i, const CheckContext&) { return tr(i).op_dim == 0 || tr(i).op_dim == 2; },
    .explain =
        [](const Instruction& i, const CheckContext&) {
          return fmt::format("op_dim is {:#04x}, must be UNUSED (0x00) or X (0x02)", tr(i).op_dim);
        },
    .accepts = on_view<Tr, [](const Tr& x, const CheckContext&) { return x.op_dim == 0 || x.op_dim == 2; }>};

constexpr Predicate kTrChannels{
    .name = "has_valid_active_channel_range",
    .convention = "",
    .meaning = "num_active_channels is 1..128",
    .gens = kGensAll,
    .fields = fTrChannels,
    .holds = [](const Instruction& i,
                const CheckContext&) { return pred::has_valid_active_channel_range(tr(i).num_active_channels, 128); },
    .explain = [](const Instruction& i,
                  const CheckContext&) { return explain_channels_range(tr(i).num_active_channels); },
    .accepts = on_view<Tr, [](const Tr& x, const CheckContext&) {
      return pred::has_valid_active_channel_range(x.num_active_channels, 128);
    }>};

constexpr Predicate kTrSrcStart{
    .name = "start_addr_active_channels",
    .convention = "PROJ-CONV-C15",
    .meaning = "src: a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128",
    .gens = kGensAll,
    .fields = fTrSrcChannels,
    .holds =
        [](const Instruction& i, const CheckContext& c) {
          return pred::start_addr_active_channels(tr(i).src.start_addr, tr(i).num_active_channels, c.gen);
        },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          return explain_start("src", tr(i).src.start_addr, tr(i).num_active_channels, c);
        },
    .accepts = on_view<Tr, [](const Tr& x, const CheckContext& c) {
      return pred::start_addr_active_channels(x.src.start_addr, x.num_active_channels, c.gen);
    }>};

constexpr Predicate kTrDstStart{
    .name = "start_addr_active_channels",
    .convention = "PROJ-CONV-C15",
    .meaning = "dst: a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128",
    .gens = kGensAll,
    .fields = fTrDstChannels,
    .holds =
        [](const Instruction& i, const CheckContext& c) {
          return pred::start_addr_active_channels(tr(i).dst.start_addr, tr(i).num_active_channels, c.gen);
        },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          return explain_start("dst", tr(i).dst.start_addr, tr(i).num_active_channels, c);
        },
    .accepts = on_view<Tr, [](const Tr& x, const CheckContext& c) {
      return pred::start_addr_active_channels(x.dst.start_addr, x.num_active_channels, c.gen);
    }>};

constexpr Predicate kTrSrcTensor{
    .name = "tensor4d_valid",
    .convention = "",
    .meaning =
        "src readable: non-zero counts (or a register shape, CAYMAN+) and a register (0x80) or in_dtype-aligned "
        "SBUF/PSUM start; MARIANA+ indirect MEM_PATTERN4D: data in PSUM or in the index's SBUF quadrant",
    .gens = kGensAll,
    .fields = fTrSrcTensor,
    .holds = [](const Instruction& i,
                const CheckContext& c) { return pattern_valid(tr(i).src, tr(i).in_dtype, false, c.gen); },
    .explain = [](const Instruction& i,
                  const CheckContext& c) { return explain_pattern("src", tr(i).src, tr(i).in_dtype, false, c); },
    .via = nullptr,
    .failure_convention = [](const Instruction& i,
                             const CheckContext& c) { return pattern_convention(tr(i).src.start_addr, c.gen); },
    .accepts =
        on_view<Tr, [](const Tr& x, const CheckContext& c) { return pattern_valid(x.src, x.in_dtype, false, c.gen); }>};

constexpr Predicate kTrDstTensor{
    .name = "tensor4d_valid",
    .convention = "",
    .meaning =
        "dst writable: as src, with out_dtype; PSUM is written only with 4-byte dtypes; MARIANA+ indirect "
        "MEM_PATTERN4D: data in PSUM or in the index's SBUF quadrant",
    .gens = kGensAll,
    .fields = fTrDstTensor,
    .holds = [](const Instruction& i,
                const CheckContext& c) { return pattern_valid(tr(i).dst, tr(i).out_dtype, true, c.gen); },
    .explain = [](const Instruction& i,
                  const CheckContext& c) { return explain_pattern("dst", tr(i).dst, tr(i).out_dtype, true, c); },
    .via = nullptr,
    .failure_convention = [](const Instruction& i,
                             const CheckContext& c) { return pattern_convention(tr(i).dst.start_addr, c.gen); },
    .accepts =
        on_view<Tr, [](const Tr& x, const CheckContext& c) { return pattern_valid(x.dst, x.out_dtype, true, c.gen); }>};

constexpr Predicate kTrSameCount{
    .name = "s4d4_tr_same_src_dst_count",
    .convention = "",
    .meaning = "src and dst have the same element count (skipped when a shape comes from a register)",
    .gens = kGensAll,
    .fields = fTrCounts,
    .holds = [](const Instruction& i, const CheckContext& c) { return same_count(tr(i).src, tr(i).dst, c.gen); },
    .explain =
        [](const Instruction& i, const CheckContext&) {
          return fmt::format("src has {} elements, dst has {}", tr(i).src.elements(), tr(i).dst.elements());
        },
    .accepts = on_view<Tr, [](const Tr& x, const CheckContext& c) { return same_count(x.src, x.dst, c.gen); }>};

constexpr Predicate kTrBypass{
    .name = "s4d4_tr_op_bypass",
    .convention = "",
    .meaning = "op is BYPASS (0)",
    .gens = kGensAll,
    .fields = fTrOp,
    .holds = [](const Instruction& i, const CheckContext&) { return tr(i).op == aluop::kBypass; },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          return fmt::format("op is {}, must be BYPASS (0x00)", aluop_label(tr(i).op, c.gen));
        },
    .accepts = on_view<Tr, [](const Tr& x, const CheckContext&) { return x.op == aluop::kBypass; }>};

constexpr Predicate kTrSameType{
    .name = "s4d4_tr_same_src_dst_type",
    .convention = "",
    .meaning = "(COPY) in_dtype equals out_dtype",
    .gens = kGensAll,
    .fields = fTrTypes,
    .holds = [](const Instruction& i, const CheckContext&) { return tr(i).in_dtype == tr(i).out_dtype; },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          return fmt::format("COPY moves bits unchanged: in_dtype {} differs from out_dtype {}",
                             dtype_label(tr(i).in_dtype, c.gen), dtype_label(tr(i).out_dtype, c.gen));
        },
    .accepts = on_view<Tr, [](const Tr& x, const CheckContext&) { return x.in_dtype == x.out_dtype; }>};

constexpr Predicate kTrNegated{
    .name = "has_zero_negated_field",
    .convention = "",
    .meaning = "negated is 0",
    .gens = kGensAll,
    .fields = fTrNegated,
    .holds = [](const Instruction& i, const CheckContext&) { return tr(i).negated == 0; },
    .explain = [](const Instruction& i,
                  const CheckContext&) { return fmt::format("negated is {}, must be 0", tr(i).negated); },
    .accepts = on_view<Tr, [](const Tr& x, const CheckContext&) { return x.negated == 0; }>};

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
  const uint8_t ds[3] = {datapath::pair_lo(t.in0_in1_dtype), datapath::pair_hi(t.in0_in1_dtype), t.out_dtype};
  const bool all_signed = std::all_of(std::begin(ds), std::end(ds), signed_int);
  const bool all_unsigned = std::all_of(std::begin(ds), std::end(ds), unsigned_int);
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

std::string explain_dtype64(std::string_view which, uint8_t d, bool allow_fp32r, const CheckContext& c) {
  std::string_view via;
  pred::is_valid_dtype(d, allow_fp32r, c, &via);
  return fmt::format("{} {} fails is_valid_dtype_64 ({})", which, dtype_label(d, c.gen), via);
}

constexpr Predicate kTtOpcode{
    .name = "has_tensor_tensor_arith_opcode",
    .convention = "",
    .meaning = "the opcode is TENSOR_TENSOR_ARITH_OP (0x41)",
    .gens = kGensAll,
    .fields = fTtOpcode,
    .holds = [](const Instruction& i, const CheckContext&) { return i.opcode() == opcode::kTensorTensorArith; },
    .explain = explain_opcode,
    .accepts = on_view<RawWord, [](const RawWord& x, const CheckContext&) {
      return x.header.opcode == opcode::kTensorTensorArith;
    }>};

constexpr Predicate kTtOutDtype{
    .name = "is_valid_dtype_64",
    .convention = "",
    .meaning = "is_valid_dtype_64(out_dtype, FP32R, UINT64 and INT64 allowed)",
    .gens = kGensAll,
    .fields = fTtOutDtype,
    .holds = [](const Instruction& i,
                const CheckContext& c) { return is_valid_dtype_64(tt(i).out_dtype, true, true, true, c); },
    .explain = [](const Instruction& i,
                  const CheckContext& c) { return explain_dtype64("out_dtype", tt(i).out_dtype, true, c); },
    .accepts = on_view<Tt, [](const Tt& x, const CheckContext& c) {
      return is_valid_dtype_64(x.out_dtype, true, true, true, c);
    }>};

constexpr Predicate kTtLoDtype{
    .name = "is_valid_dtype_64",
    .convention = "",
    .meaning = "is_valid_dtype_64(src0 dtype = low nibble of in0_in1_dtype, FP32R not allowed, UINT64/INT64 allowed)",
    .gens = kGensAll,
    .fields = fTtPair,
    .holds =
        [](const Instruction& i, const CheckContext& c) {
          return is_valid_dtype_64(datapath::pair_lo(tt(i).in0_in1_dtype), false, true, true, c);
        },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          return explain_dtype64("src0 dtype (low nibble)", datapath::pair_lo(tt(i).in0_in1_dtype), false, c);
        },
    .accepts = on_view<Tt, [](const Tt& x, const CheckContext& c) {
      return is_valid_dtype_64(datapath::pair_lo(x.in0_in1_dtype), false, true, true, c);
    }>};

constexpr Predicate kTtHiDtype{
    .name = "is_valid_dtype_64",
    .convention = "",
    .meaning = "is_valid_dtype_64(src1 dtype = high nibble of in0_in1_dtype, FP32R not allowed, UINT64/INT64 allowed)",
    .gens = kGensAll,
    .fields = fTtPair,
    .holds =
        [](const Instruction& i, const CheckContext& c) {
          return is_valid_dtype_64(datapath::pair_hi(tt(i).in0_in1_dtype), false, true, true, c);
        },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          return explain_dtype64("src1 dtype (high nibble)", datapath::pair_hi(tt(i).in0_in1_dtype), false, c);
        },
    .accepts = on_view<Tt, [](const Tt& x, const CheckContext& c) {
      return is_valid_dtype_64(datapath::pair_hi(x.in0_in1_dtype), false, true, true, c);
    }>};

constexpr Predicate kTtAluEnum{
    .name = "is_valid_enum(AluOp)",
    .convention = "",
    .meaning = "op is a member of the generation's ALU_OP enum",
    .gens = kGensAll,
    .fields = fTtOp,
    .holds = [](const Instruction& i, const CheckContext& c) { return aluop_in(tt(i).op, c.gen); },
    .explain = [](const Instruction& i, const CheckContext& c) { return explain_aluop(tt(i).op, c); },
    .accepts = on_view<Tt, [](const Tt& x, const CheckContext& c) { return aluop_in(x.op, c.gen); }>};

constexpr Predicate kTtValidOp{
    .name = "s3s3d3_tt_valid_op",
    .convention = "",
    .meaning = "op is is_general_arith_op, POW or is_valid_int_aluop (SYMMETRIC_CLAMP on MAVERICK: PROJ-CONV-T11)",
    .gens = kGensAll,
    .fields = fTtOp,
    .holds = [](const Instruction& i, const CheckContext& c) { return tt_valid_op(tt(i).op, c); },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          return fmt::format("op {} is not a general-arith op, POW or an integer ALU op", aluop_label(tt(i).op, c.gen));
        },
    .via = nullptr,
    .failure_convention = [](const Instruction& i, const CheckContext& c) -> std::string_view {
      return tt(i).op == aluop::kSymmetricClamp && c.gen == Generation::Maverick ? "PROJ-CONV-T11" : "";
    },
    .accepts = on_view<Tt, [](const Tt& x, const CheckContext& c) { return tt_valid_op(x.op, c); }>};

constexpr Predicate kTtDtype{
    .name = "s3s3d3_tt_dtype",
    .convention = "",
    .meaning = "the bitvec sibling 0x51 needs an integer out_dtype; vacuous for TENSOR_TENSOR_ARITH_OP",
    .gens = kGensAll,
    .fields = fTtOpcode,
    .holds = [](const Instruction& i, const CheckContext&) { return i.opcode() == opcode::kTensorTensorArith; },
    .explain = explain_opcode,
    .accepts = on_view<RawWord, [](const RawWord& x, const CheckContext&) {
      return x.header.opcode == opcode::kTensorTensorArith;
    }>};

constexpr Predicate kTtSrcDstDtype{
    .name = "s3s3d3_tt_src_dst_dtype",
    .convention = "",
    .meaning = "the bitvec sibling 0x51 needs three equal dtypes (shift exception); vacuous for 0x41",
    .gens = kGensAll,
    .fields = fTtOpcode,
    .holds = [](const Instruction& i, const CheckContext&) { return i.opcode() == opcode::kTensorTensorArith; },
    .explain = explain_opcode,
    .accepts = on_view<RawWord, [](const RawWord& x, const CheckContext&) {
      return x.header.opcode == opcode::kTensorTensorArith;
    }>};

constexpr Predicate kTtSignness{
    .name = "s3s3d3_tt_valid_int_signness",
    .convention = "",
    .meaning =
        "an integer ALU op needs src0, src1 and out_dtype all signed or all unsigned integers, of a signedness "
        "the op allows (is_signed_alu_op / is_unsigned_alu_op)",
    .gens = kGensAll,
    .fields = fTtOpTypes,
    .holds = [](const Instruction& i, const CheckContext& c) { return tt_signness(tt(i), c.gen); },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          const Tt& t = tt(i);
          return fmt::format(
              "integer op {} with src0 {}, src1 {}, out {}: the three must be integers of one signedness "
              "the op allows",
              aluop_label(t.op, c.gen), dtype_label(datapath::pair_lo(t.in0_in1_dtype), c.gen),
              dtype_label(datapath::pair_hi(t.in0_in1_dtype), c.gen), dtype_label(t.out_dtype, c.gen));
        },
    .accepts = on_view<Tt, [](const Tt& x, const CheckContext& c) { return tt_signness(x, c.gen); }>};

template <Tensor3d Tt::*Op>
bool tt_start_view(const Tt& t, const CheckContext& c) {
  return pred::start_addr_active_channels((t.*Op).start_addr, t.num_active_channels, c.gen);
}
template <Tensor3d Tt::*Op>
bool tt_start(const Instruction& i, const CheckContext& c) {
  return tt_start_view<Op>(tt(i), c);
}
template <Tensor3d Tt::*Op>
std::string tt_start_explain(const Instruction& i, const CheckContext& c) {
  const std::string_view which = Op == &Tt::src0 ? "src0" : Op == &Tt::src1 ? "src1" : "dst";
  return explain_start(which, (tt(i).*Op).start_addr, tt(i).num_active_channels, c);
}

constexpr Predicate kTtSrc0Start{.name = "start_addr_active_channels",
                                 .convention = "PROJ-CONV-C15",
                                 .meaning = "src0: a register start, or partition + num_active_channels <= 128",
                                 .gens = kGensAll,
                                 .fields = fTtSrc0Channels,
                                 .holds = tt_start<&Tt::src0>,
                                 .explain = tt_start_explain<&Tt::src0>,
                                 .accepts = on_view<Tt, tt_start_view<&Tt::src0>>};
constexpr Predicate kTtSrc1Start{.name = "start_addr_active_channels",
                                 .convention = "PROJ-CONV-C15",
                                 .meaning = "src1: a register start, or partition + num_active_channels <= 128",
                                 .gens = kGensAll,
                                 .fields = fTtSrc1Channels,
                                 .holds = tt_start<&Tt::src1>,
                                 .explain = tt_start_explain<&Tt::src1>,
                                 .accepts = on_view<Tt, tt_start_view<&Tt::src1>>};
constexpr Predicate kTtDstStart{.name = "start_addr_active_channels",
                                .convention = "PROJ-CONV-C15",
                                .meaning = "dst: a register start, or partition + num_active_channels <= 128",
                                .gens = kGensAll,
                                .fields = fTtDstChannels,
                                .holds = tt_start<&Tt::dst>,
                                .explain = tt_start_explain<&Tt::dst>,
                                .accepts = on_view<Tt, tt_start_view<&Tt::dst>>};

/// The dtype each TT operand is read or written in: src0 the low nibble, src1 the high nibble, dst out_dtype.
template <Tensor3d Tt::*Op>
uint8_t tt_dtype(const Tt& t) {
  if constexpr (Op == &Tt::src0) return datapath::pair_lo(t.in0_in1_dtype);
  if constexpr (Op == &Tt::src1) return datapath::pair_hi(t.in0_in1_dtype);
  return t.out_dtype;
}
template <Tensor3d Tt::*Op>
bool tt_tensor_view(const Tt& t, const CheckContext& c) {
  return pattern_valid(t.*Op, tt_dtype<Op>(t), Op == &Tt::dst, c.gen);
}
template <Tensor3d Tt::*Op>
bool tt_tensor(const Instruction& i, const CheckContext& c) {
  return tt_tensor_view<Op>(tt(i), c);
}
template <Tensor3d Tt::*Op>
std::string tt_tensor_explain(const Instruction& i, const CheckContext& c) {
  const std::string_view which = Op == &Tt::src0 ? "src0" : Op == &Tt::src1 ? "src1" : "dst";
  return explain_pattern(which, tt(i).*Op, tt_dtype<Op>(tt(i)), Op == &Tt::dst, c);
}
template <Tensor3d Tt::*Op>
std::string_view tt_tensor_convention(const Instruction& i, const CheckContext& c) {
  return pattern_convention((tt(i).*Op).start_addr, c.gen);
}

constexpr Predicate kTtSrc0Tensor{
    .name = "tensor3d_valid",
    .convention = "",
    .meaning = "src0 readable in the low-nibble dtype (indirect MEM_PATTERN3D on MARIANA+: the indirect rule)",
    .gens = kGensAll,
    .fields = fTtSrc0Tensor,
    .holds = tt_tensor<&Tt::src0>,
    .explain = tt_tensor_explain<&Tt::src0>,
    .via = nullptr,
    .failure_convention = tt_tensor_convention<&Tt::src0>,
    .accepts = on_view<Tt, tt_tensor_view<&Tt::src0>>};
constexpr Predicate kTtSrc1Tensor{
    .name = "tensor3d_valid",
    .convention = "",
    .meaning = "src1 readable in the high-nibble dtype (indirect MEM_PATTERN3D on MARIANA+: the indirect rule)",
    .gens = kGensAll,
    .fields = fTtSrc1Tensor,
    .holds = tt_tensor<&Tt::src1>,
    .explain = tt_tensor_explain<&Tt::src1>,
    .via = nullptr,
    .failure_convention = tt_tensor_convention<&Tt::src1>,
    .accepts = on_view<Tt, tt_tensor_view<&Tt::src1>>};
constexpr Predicate kTtDstTensor{
    .name = "tensor3d_valid",
    .convention = "",
    .meaning = "dst writable in out_dtype; PSUM only with 4-byte dtypes (indirect MEM_PATTERN3D: the indirect rule)",
    .gens = kGensAll,
    .fields = fTtDstTensor,
    .holds = tt_tensor<&Tt::dst>,
    .explain = tt_tensor_explain<&Tt::dst>,
    .via = nullptr,
    .failure_convention = tt_tensor_convention<&Tt::dst>,
    .accepts = on_view<Tt, tt_tensor_view<&Tt::dst>>};

constexpr Predicate kTtSrc0Count{
    .name = "s3s3d3_tt_same_src0_dst_count",
    .convention = "",
    .meaning = "src0 and dst have the same element count (s3s3d3_tt.h:116; skipped for a register shape)",
    .gens = kGensAll,
    .fields = fTtSrc0Count,
    .holds = [](const Instruction& i, const CheckContext& c) { return same_count(tt(i).src0, tt(i).dst, c.gen); },
    .explain =
        [](const Instruction& i, const CheckContext&) {
          return fmt::format("src0 has {} elements, dst has {}", tt(i).src0.elements(), tt(i).dst.elements());
        },
    .accepts = on_view<Tt, [](const Tt& x, const CheckContext& c) { return same_count(x.src0, x.dst, c.gen); }>};
constexpr Predicate kTtSrc1Count{
    .name = "s3s3d3_tt_same_src1_dst_count",
    .convention = "",
    .meaning = "src1 and dst have the same element count (s3s3d3_tt.h:123; skipped for a register shape)",
    .gens = kGensAll,
    .fields = fTtSrc1Count,
    .holds = [](const Instruction& i, const CheckContext& c) { return same_count(tt(i).src1, tt(i).dst, c.gen); },
    .explain =
        [](const Instruction& i, const CheckContext&) {
          return fmt::format("src1 has {} elements, dst has {}", tt(i).src1.elements(), tt(i).dst.elements());
        },
    .accepts = on_view<Tt, [](const Tt& x, const CheckContext& c) { return same_count(x.src1, x.dst, c.gen); }>};

constexpr Predicate kTtChannels{
    .name = "check_active_channels",
    .convention = "",
    .meaning = "num_active_channels is 1..128",
    .gens = kGensAll,
    .fields = fTtChannels,
    .holds = [](const Instruction& i,
                const CheckContext& c) { return pred::check_active_channels(tt(i).num_active_channels, c.gen); },
    .explain = [](const Instruction& i,
                  const CheckContext&) { return explain_channels_range(tt(i).num_active_channels); },
    .accepts = on_view<Tt, [](const Tt& x, const CheckContext& c) {
      return pred::check_active_channels(x.num_active_channels, c.gen);
    }>};

constexpr Predicate kTtPartitions{
    .name = "tt_valid_partitions",
    .convention = "",
    .meaning =
        "src0/src1: a register start, one PSUM and one SBUF operand, or two SBUF operands in the same "
        "quadrant-base partition (PROJ-CONV-C17); never two PSUM operands",
    .gens = kGensAll,
    .fields = fTtPartitions,
    .holds =
        [](const Instruction& i, const CheckContext& c) {
          return tt_valid_partitions(tt(i).src0.start_addr, tt(i).src1.start_addr, c.gen);
        },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          return fmt::format(
              "src0 {} and src1 {}: two PSUM operands, an operand outside SBUF/PSUM, or two SBUF "
              "operands not in one quadrant-base partition",
              addr4_label(tt(i).src0.start_addr, c.gen), addr4_label(tt(i).src1.start_addr, c.gen));
        },
    .via = nullptr,
    .failure_convention = [](const Instruction& i, const CheckContext& c) -> std::string_view {
      const uint32_t x0 = tt(i).src0.start_addr.masked(), x1 = tt(i).src1.start_addr.masked();
      return addr_in_sbuf(x0, c.gen) && addr_in_sbuf(x1, c.gen) ? "PROJ-CONV-C17" : "";
    },
    .accepts = on_view<Tt, [](const Tt& x, const CheckContext& c) {
      return tt_valid_partitions(x.src0.start_addr, x.src1.start_addr, c.gen);
    }>};

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

constexpr Predicate kMrOpcode{
    .name = "has_memset_opcode",
    .convention = "",
    .meaning = "the opcode is MEMSET (0x49)",
    .gens = kGensAll,
    .fields = fMrOpcode,
    .holds = [](const Instruction& i, const CheckContext&) { return i.opcode() == opcode::kMemset; },
    .explain = explain_opcode,
    .accepts =
        on_view<RawWord, [](const RawWord& x, const CheckContext&) { return x.header.opcode == opcode::kMemset; }>};

constexpr Predicate kMrReserved{
    .name = "d4_mr_reserved_zero",
    .convention = "",
    .meaning = "reserved0 (16 bytes), reserved1, reserved2 and reserved3 (3 bytes) are zero",
    .gens = kGensAll,
    .fields = fMrReserved,
    .holds =
        [](const Instruction& i, const CheckContext&) {
          const Mr& m = mr(i);
          return all_zero(m.reserved0) && all_zero(m.reserved1) && all_zero(m.reserved2) && all_zero(m.reserved3);
        },
    .explain = [](const Instruction&,
                  const CheckContext&) { return std::string("a reserved byte (reserved0..reserved3) is not zero"); },
    .accepts = reserved_mask_accepts<Mr, fMrReserved>};

constexpr Predicate kMrDtype{
    .name = "is_valid_dtype",
    .convention = "",
    .meaning = "is_valid_dtype(dtype, FP32R allowed)",
    .gens = kGensAll,
    .fields = fMrDtype,
    .holds = [](const Instruction& i, const CheckContext& c) { return pred::is_valid_dtype(mr(i).dtype, true, c); },
    .explain = [](const Instruction& i, const CheckContext& c) { return explain_dtype("dtype", mr(i).dtype, true, c); },
    .accepts = on_view<Mr, [](const Mr& x, const CheckContext& c) { return dtype_accepts(x.dtype, true, c); }>};

constexpr Predicate kMrValue{
    .name = "memset_set_value_type",
    .convention = "",
    .meaning =
        "32-bit dtypes (FP32, UINT32, INT32) take any set_value; 16-bit ones only the low 16 bits; 8-bit ones only "
        "the low 8 bits; any other dtype (FP32R included) fails",
    .gens = kGensAll,
    .fields = fMrValue,
    .holds =
        [](const Instruction& i, const CheckContext&) {
          const uint32_t mask = datapath::memset_value_mask(mr(i).dtype);
          return mask != 0 && (mr(i).set_value & ~mask) == 0;
        },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          const uint32_t mask = datapath::memset_value_mask(mr(i).dtype);
          if (mask == 0) return fmt::format("dtype {} cannot be a MEMSET fill type", dtype_label(mr(i).dtype, c.gen));
          return fmt::format("set_value {:#010x} has bits outside the {} bits of {}", mr(i).set_value,
                             mask == 0xFF ? 8 : 16, dtype_label(mr(i).dtype, c.gen));
        },
    .accepts = on_view<Mr, [](const Mr& x, const CheckContext&) {
      const uint32_t mask = datapath::memset_value_mask(x.dtype);
      return mask != 0 && (x.set_value & ~mask) == 0;
    }>};

constexpr Predicate kMrSerial{
    .name = "d4_mr_zero_serialization",
    .convention = "PROJ-CONV-F22",
    .meaning = "serialization_mode is Serial (0, PROJ-CONV-F22)",
    .gens = kGensAll,
    .fields = fMrSerial,
    .holds = [](const Instruction& i, const CheckContext&) { return mr(i).serialization_mode == datapath::kSerial; },
    .explain =
        [](const Instruction& i, const CheckContext&) {
          return fmt::format("serialization_mode is {:#04x}, must be Serial (0x00)", mr(i).serialization_mode);
        },
    .accepts = on_view<Mr, [](const Mr& x, const CheckContext&) { return x.serialization_mode == datapath::kSerial; }>};

constexpr Predicate kMrChannels{
    .name = "has_valid_active_channel_range",
    .convention = "PROJ-CONV-F21",
    .meaning = "num_active_channels is 1..128 (PROJ-CONV-F21)",
    .gens = kGensAll,
    .fields = fMrChannels,
    .holds = [](const Instruction& i,
                const CheckContext&) { return pred::has_valid_active_channel_range(mr(i).num_active_channels, 128); },
    .explain = [](const Instruction& i,
                  const CheckContext&) { return explain_channels_range(mr(i).num_active_channels); },
    .accepts = on_view<Mr, [](const Mr& x, const CheckContext&) {
      return pred::has_valid_active_channel_range(x.num_active_channels, 128);
    }>};

constexpr Predicate kMrDstStart{
    .name = "start_addr_active_channels",
    .convention = "PROJ-CONV-F21",
    .meaning = "dst: a register start, or partition + num_active_channels <= 128 (PROJ-CONV-F21, PROJ-CONV-C15)",
    .gens = kGensAll,
    .fields = fMrDstChannels,
    .holds =
        [](const Instruction& i, const CheckContext& c) {
          return pred::start_addr_active_channels(mr(i).dst.start_addr, mr(i).num_active_channels, c.gen);
        },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          return explain_start("dst", mr(i).dst.start_addr, mr(i).num_active_channels, c);
        },
    .accepts = on_view<Mr, [](const Mr& x, const CheckContext& c) {
      return pred::start_addr_active_channels(x.dst.start_addr, x.num_active_channels, c.gen);
    }>};

constexpr Predicate kMrDstTensor{
    .name = "tensor4d_valid",
    .convention = "PROJ-CONV-F21",
    .meaning = "dst writable in dtype; PSUM only with 4-byte dtypes (PROJ-CONV-F21)",
    .gens = kGensAll,
    .fields = fMrDstTensor,
    .holds =
        [](const Instruction& i, const CheckContext& c) {
          return pred::tensor4d_valid(mr(i).dst, mr(i).dtype, true, true, true, c.gen);
        },
    .explain = [](const Instruction& i,
                  const CheckContext& c) { return explain_pattern("dst", mr(i).dst, mr(i).dtype, true, c); },
    .accepts = on_view<Mr, [](const Mr& x, const CheckContext& c) {
      return pred::tensor4d_valid(x.dst, x.dtype, true, true, true, c.gen);
    }>};

constexpr Predicate kMrCount{
    .name = "d4_mr_dst_element_count",
    .convention = "PROJ-CONV-F21",
    .meaning = "dst_element_count equals dst's element count, unless the shape comes from a register (PROJ-CONV-F21)",
    .gens = kGensAll,
    .fields = fMrCount,
    .holds =
        [](const Instruction& i, const CheckContext& c) {
          const Mr& m = mr(i);
          if (pred::has_shape_escape(c.gen) && m.dst.start_addr.shape_from_register()) return true;
          return uint64_t{m.dst_element_count} == m.dst.elements();
        },
    .explain =
        [](const Instruction& i, const CheckContext&) {
          return fmt::format("dst_element_count is {}, dst has {} elements", mr(i).dst_element_count,
                             mr(i).dst.elements());
        },
    .accepts = on_view<Mr, [](const Mr& x, const CheckContext& c) {
      const Mr& m = x;
      if (pred::has_shape_escape(c.gen) && m.dst.start_addr.shape_from_register()) return true;
      return uint64_t{m.dst_element_count} == m.dst.elements();
    }>};

constexpr const Predicate* kMemset[] = {
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kMrOpcode,    &kMrReserved, &kMrDtype, &kMrValue, &kMrSerial,
    &kMrChannels,           &kMrDstStart,           &kMrDstTensor, &kMrCount,    kPlacement};

// ---- Validators ----

constexpr Validator kValidators[] = {
    {"is_valid_copy", Checked::Full, kCopy, &evaluate_conjuncts<kCopy>, fast_acceptor<kCopy>()},
    {"is_valid_cast", Checked::Full, kCast, &evaluate_conjuncts<kCast>, fast_acceptor<kCast>()},
    {"is_valid_tensor_tensor_arith", Checked::Full, kTensorTensor, &evaluate_conjuncts<kTensorTensor>,
     fast_acceptor<kTensorTensor>()},
    {"is_valid_memset", Checked::Full, kMemset, &evaluate_conjuncts<kMemset>, fast_acceptor<kMemset>()},
};
constexpr const Validator* kValidatorList[] = {&kValidators[0], &kValidators[1], &kValidators[2], &kValidators[3]};

const Validator* select(uint8_t op, Generation) {
  switch (op) {
    case opcode::kCopy: return &kValidators[0];
    case opcode::kCast: return &kValidators[1];
    case opcode::kTensorTensorArith: return &kValidators[2];
    case opcode::kMemset: return &kValidators[3];
    default: return nullptr;
  }
}

constexpr Validation kValidation{select, kValidatorList};

}  // namespace

const Validation& DatapathFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
