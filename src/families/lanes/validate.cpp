// Lanes family validators: is_valid_load_mask_select (alu-ops.md §3.6, PROJ-CONV-K8), is_valid_stream_shuffle (§3.6,
// PROJ-CONV-K4) and is_valid_stream_transpose (§3.7), in the spec's conjunct order.
#include "families/common.hpp"
#include "families/lanes/format.hpp"
#include "families/operand_rules.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;
using Tr = S4d4Tr;

constexpr FieldRef fReserved[] = {field_ref<Tr>("reserved1")};
constexpr FieldRef fMask[] = {field_ref<Tr>("mask_enable")};
constexpr FieldRef fInDtype[] = {field_ref<Tr>("in_dtype")};
constexpr FieldRef fOutDtype[] = {field_ref<Tr>("out_dtype")};
constexpr FieldRef fOp[] = {field_ref<Tr>("op")};
constexpr FieldRef fOpDim[] = {field_ref<Tr>("op_dim")};
constexpr FieldRef fChannels[] = {field_ref<Tr>("num_active_channels")};
constexpr FieldRef fSrcChannels[] = {field_ref<Tr>("src.start_addr"), field_ref<Tr>("num_active_channels")};
constexpr FieldRef fDstChannels[] = {field_ref<Tr>("dst.start_addr"), field_ref<Tr>("num_active_channels")};
constexpr FieldRef fSrcTensor[] = {field_ref<Tr>("src.start_addr"), field_ref<Tr>("src.num_elem"),
                                   field_ref<Tr>("in_dtype")};
constexpr FieldRef fDstTensor[] = {field_ref<Tr>("dst.start_addr"), field_ref<Tr>("dst.num_elem"),
                                   field_ref<Tr>("out_dtype")};
constexpr FieldRef fCounts[] = {field_ref<Tr>("src.start_addr"), field_ref<Tr>("src.num_elem"),
                                field_ref<Tr>("dst.start_addr"), field_ref<Tr>("dst.num_elem")};
constexpr FieldRef fSrcCount[] = {field_ref<Tr>("src.num_elem")};
constexpr FieldRef fTypes[] = {field_ref<Tr>("in_dtype"), field_ref<Tr>("out_dtype")};
constexpr FieldRef fNegated[] = {field_ref<Tr>("negated")};

constexpr uint8_t in_dtype(const Tr& x) {
  return x.in_dtype;
}
constexpr uint8_t out_dtype(const Tr& x) {
  return x.out_dtype;
}

// ---- LOAD_MASK_SELECT (PROJ-CONV-K8): the header, the events and the opcode; every lane byte is accepted ----

constexpr Predicate kLoadMaskOpcode = opcode_clause<LaneMap, lanes::kLoadMaskSelect>(
    "has_load_mask_select_opcode", "PROJ-CONV-K8", "the opcode is LOAD_MASK_SELECT (0x69; name ours, PROJ-CONV-K8)");

constexpr const Predicate* kLoadMaskSelect[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kLoadMaskOpcode};

// ---- The S4D4_TR conjuncts the two stream opcodes share with COPY (real-programs.md §10.2) ----

constexpr Predicate kShuffleOpcode = opcode_clause<Tr, lanes::kStreamShuffle>(
    "has_stream_shuffle_opcode", "PROJ-CONV-K4", "the opcode is STREAM_SHUFFLE (0x6A; name ours, PROJ-CONV-K4)");
constexpr Predicate kTransposeOpcode = opcode_clause<Tr, lanes::kStreamTranspose>(
    "has_stream_transpose_opcode", "", "the opcode is STREAM_TRANSPOSE (0x6B)");

constexpr Predicate kReserved = reserved_rule<Tr, fReserved>(
    {.name = "s4d4_tr_reserved_zero",
     .convention = "",
     .meaning = "reserved1 (five bytes) is zero",
     .gens = kGensAll,
     .explain = [](const Instruction&, const CheckContext&) { return std::string("reserved1 has a non-zero byte"); }});

constexpr Predicate kMaskZero = byte_rule<Tr, &Tr::mask_enable, [](uint8_t v) { return v == 0; }, "mask_enable", "0">(
    "mask_enable_zero", "mask_enable is 0", fMask);
constexpr Predicate kMaskValid =
    byte_rule<Tr, &Tr::mask_enable, [](uint8_t v) { return v <= 1; }, "mask_enable", "0 or 1">(
        "mask_enable_valid", "mask_enable is 0 or 1 (no functional effect, PROJ-CONV-K7)", fMask);

constexpr Predicate kInDtype =
    dtype_rule<Tr, in_dtype, false, "in_dtype", false>("is_valid_dtype(in_dtype, FP32R not allowed)", fInDtype);
constexpr Predicate kOutDtype =
    dtype_rule<Tr, out_dtype, true, "out_dtype", false>("is_valid_dtype(out_dtype, FP32R allowed)", fOutDtype);

constexpr Predicate kAluEnum = aluop_rule<Tr>(fOp);

constexpr Predicate kZeroSubdim =
    byte_rule<Tr, &Tr::op_dim, [](uint8_t v) { return v == 0 || v == 2; }, "op_dim", "UNUSED (0x00) or X (0x02)">(
        "is_zero_subdim", "op_dim is UNUSED (0) or X (2)", fOpDim);

constexpr Predicate kChannels =
    channels_rule<Tr>("has_valid_active_channel_range", "num_active_channels is 1..128", fChannels);

constexpr Predicate kSrcStart = start_rule<Tr, &Tr::src, "src">(
    "src: a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128", fSrcChannels);
constexpr Predicate kDstStart = start_rule<Tr, &Tr::dst, "dst">(
    "dst: a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128", fDstChannels);

constexpr Predicate kSrcTensor = pattern_rule<Tr, &Tr::src, in_dtype, false, "src">(
    "tensor4d_valid",
    "src readable in in_dtype: non-zero counts (or a register shape, CAYMAN+) and a register or in_dtype-aligned "
    "SBUF/PSUM start, judged by its TENSOR4D bytes on every generation (PROJ-CONV-K3)",
    fSrcTensor, indirect_arm_convention<Tr, &Tr::src>);
constexpr Predicate kDstTensor = pattern_rule<Tr, &Tr::dst, out_dtype, true, "dst">(
    "tensor4d_valid",
    "dst writable in out_dtype: as src; PSUM is written only with 4-byte dtypes (TENSOR4D bytes, PROJ-CONV-K3)",
    fDstTensor, indirect_arm_convention<Tr, &Tr::dst>);

constexpr Predicate kSameCount = count_rule<Tr, &Tr::src, &Tr::dst, "src", "dst", kPartitionWording, false>(
    "s4d4_tr_same_src_dst_count", "",
    "src and dst have the same element count (skipped when a shape comes from a register, CAYMAN+)", fCounts);
constexpr Predicate kTransposeCount = count_rule<Tr, &Tr::src, &Tr::dst, "src", "dst", kPartitionWording, true>(
    "s4d4_tr_transpose_src_dst_count", "",
    "dst has at most as many elements as src (skipped when a shape comes from a register, CAYMAN+)", fCounts);

constexpr Predicate kBypass =
    byte_rule<Tr, &Tr::op, [](uint8_t v) { return v == aluop::kBypass; }, "op", "BYPASS (0x00)">(
        "s4d4_tr_op_bypass", "op is BYPASS (0)", fOp);

constexpr Predicate kSameType = rule<Tr, [](const Tr& x, const CheckContext&) { return x.in_dtype == x.out_dtype; }>(
    {.name = "s4d4_tr_same_src_dst_type",
     .convention = "",
     .meaning = "in_dtype equals out_dtype (the lanes move bits unchanged)",
     .gens = kGensAll,
     .fields = fTypes,
     .explain = explain_on_body<Tr, [](const Tr& x, const CheckContext& c) {
       return fmt::format("in_dtype {} differs from out_dtype {}", dtype_label(x.in_dtype, c.gen),
                          dtype_label(x.out_dtype, c.gen));
     }>});

constexpr Predicate kMultiple32 =
    byte_rule<Tr, &Tr::num_active_channels, [](uint8_t n) { return n == 32 || n == 64 || n == 96 || n == 128; },
              "num_active_channels", "32, 64, 96 or 128">("has_multiple_32_channels",
                                                          "num_active_channels is 32, 64, 96 or 128", fChannels);

/// stream_shuffle_start_partition(a) † (PROJ-CONV-K4): a register start, an address in neither SBUF nor PSUM, or a
/// partition aligned to 32 (up to 32 channels), 64 (up to 64) or 128 (more): the NKI rule of §3.6.
template <auto Operand>
bool shuffle_start_ok(const Tr& x, const CheckContext& c) {
  const Addr4Meaning m = describe((x.*Operand).start_addr, c.gen);
  if (m.from_register || m.target.region == Region::Outside) return true;
  return m.target.partition % lanes::shuffle_alignment(x.num_active_channels) == 0;
}
template <auto Operand, Name Which>
std::string shuffle_start_text(const Tr& x, const CheckContext& c) {
  return fmt::format("{} starts at partition {} ({}); with {} active channels a shuffle starts at a multiple of {}",
                     std::string_view{Which}, describe((x.*Operand).start_addr, c.gen).target.partition,
                     addr4_label((x.*Operand).start_addr, c.gen), x.num_active_channels,
                     lanes::shuffle_alignment(x.num_active_channels));
}
template <auto Operand, Name Which>
constexpr Predicate shuffle_start_rule(std::span<const FieldRef> fields) {
  return rule<Tr, shuffle_start_ok<Operand>>(
      {.name = "stream_shuffle_start_partition",
       .convention = "PROJ-CONV-K4",
       .meaning = "a register start, an address outside SBUF/PSUM, or a partition that is a multiple of 32 (up to 32 "
                  "channels), 64 (up to 64) or 128 (name ours, PROJ-CONV-K4)",
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<Tr, shuffle_start_text<Operand, Which>>});
}
constexpr Predicate kSrcShuffleStart = shuffle_start_rule<&Tr::src, "src">(fSrcChannels);
constexpr Predicate kDstShuffleStart = shuffle_start_rule<&Tr::dst, "dst">(fDstChannels);

constexpr Predicate kTransposeSrcCount =
    rule<Tr, [](const Tr& x, const CheckContext&) { return x.src.elements() % lanes::kLanes == 0; }>(
        {.name = "has_transpose_src_element_count_t4d",
         .convention = "",
         .meaning = "src's element count is a multiple of 32",
         .gens = kGensAll,
         .fields = fSrcCount,
         .explain = explain_on_body<Tr, [](const Tr& x, const CheckContext&) {
           return fmt::format("src has {} elements, not a multiple of 32", x.src.elements());
         }>});

constexpr Predicate kNegated = byte_rule<Tr, &Tr::negated, [](uint8_t v) { return v == 0; }, "negated", "0">(
    "has_zero_negated_field", "negated is 0", fNegated);

constexpr const Predicate* kStreamShuffle[] = {&kHasValidNeuronHeader,
                                               &kHasValidNeuronEvents,
                                               &kShuffleOpcode,
                                               &kReserved,
                                               &kMaskZero,
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
                                               &kSameType,
                                               &kMultiple32,
                                               &kSrcShuffleStart,
                                               &kDstShuffleStart,
                                               &kNegated};

constexpr const Predicate* kStreamTranspose[] = {&kHasValidNeuronHeader,
                                                 &kHasValidNeuronEvents,
                                                 &kTransposeOpcode,
                                                 &kReserved,
                                                 &kMaskValid,
                                                 &kInDtype,
                                                 &kOutDtype,
                                                 &kSameType,
                                                 &kZeroSubdim,
                                                 &kChannels,
                                                 &kSrcStart,
                                                 &kDstStart,
                                                 &kSrcTensor,
                                                 &kDstTensor,
                                                 &kTransposeCount,
                                                 &kBypass,
                                                 &kMultiple32,
                                                 &kTransposeSrcCount,
                                                 &kNegated};

constexpr Validator kLoadMaskSelectValidator = full_validator<kLoadMaskSelect>("is_valid_load_mask_select");
constexpr Validator kStreamShuffleValidator = full_validator<kStreamShuffle>("is_valid_stream_shuffle");
constexpr Validator kStreamTransposeValidator = full_validator<kStreamTranspose>("is_valid_stream_transpose");

constexpr ValidatorRow kRows[] = {
    {lanes::kLoadMaskSelect, &kLoadMaskSelectValidator},
    {lanes::kStreamShuffle, &kStreamShuffleValidator},
    {lanes::kStreamTranspose, &kStreamTransposeValidator},
};
constexpr Validation kValidation = validator_table<LanesFamily, kRows>();

}  // namespace

const Validation& LanesFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
