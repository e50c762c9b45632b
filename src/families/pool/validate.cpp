// Pool family validators (opcode-research.md §A.2.6): GATHER, INDIRECT_COPY, SORT, POOL and CROSS_LANE_REDUCE, each
// conjunct the header's predicate as the public sources quote it; names marked † in docs are ours (PROJ-CONV-G7x).
#include "families/common.hpp"
#include "families/operand_rules.hpp"
#include "families/pool/format.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;

namespace pl = pool;

/// What the shared start rule (families/operand_rules.hpp) means here, over all channels or one.
constexpr std::string_view kStartMeaning =
    "the operand's start partition + num_active_channels fits its region (or the start comes from a register)";
constexpr std::string_view kStartOneMeaning =
    "the operand's start partition + 1 fits its region (or the start comes from a register)";

/// The generations on which an operand may lie in PSUM.
constexpr uint8_t kNoPsum = 0x00, kPsumBelowMaverick = 0x07, kPsumAll = 0x0F;

// ============================== GATHER 0x68 (GATH §3a) ==============================

using Gt = S4d4Gt;
constexpr FieldRef fGtOpcode[] = {field_ref<Gt>("header.opcode")};
constexpr FieldRef fGtIndex[] = {field_ref<Gt>("in_dtype")};
constexpr FieldRef fGtOut[] = {field_ref<Gt>("out_dtype")};
constexpr FieldRef fGtChannels[] = {field_ref<Gt>("num_active_channels")};
constexpr FieldRef fGtSrcStart[] = {field_ref<Gt>("src.start_addr"), field_ref<Gt>("num_active_channels")};
constexpr FieldRef fGtDstStart[] = {field_ref<Gt>("dst.start_addr"), field_ref<Gt>("num_active_channels")};
constexpr FieldRef fGtSrc[] = {field_ref<Gt>("src.start_addr"), field_ref<Gt>("src.num_elem"),
                               field_ref<Gt>("in_dtype")};
constexpr FieldRef fGtDst[] = {field_ref<Gt>("dst.start_addr"), field_ref<Gt>("dst.num_elem"),
                               field_ref<Gt>("out_dtype")};
constexpr FieldRef fGtCount[] = {field_ref<Gt>("src.num_elem"), field_ref<Gt>("dst.num_elem"),
                                 field_ref<Gt>("src.start_addr"), field_ref<Gt>("dst.start_addr")};

bool gt_index(const Gt& s, const CheckContext&) {
  return s.in_dtype == dtype::kUint8 || s.in_dtype == dtype::kUint16 || s.in_dtype == dtype::kUint32;
}
bool gt_count(const Gt& s, const CheckContext& c) {
  return elements_of(s.src) == elements_of(s.dst) || shape_escapes(s.src.start_addr, c.gen) ||
         shape_escapes(s.dst.start_addr, c.gen);
}

constexpr Predicate kGtOpcode =
    opcode_rule<Gt, pl::kGather>("has_gather_opcode", "PROJ-CONV-G71", "the opcode is 0x68", fGtOpcode);
constexpr Predicate kGtIndex = text_rule<Gt, gt_index, [](const Gt& s, const CheckContext& c) {
  return fmt::format("index dtype {} is not UINT8, UINT16 or UINT32", dtype_label(s.in_dtype, c.gen));
}>("has_gather_index_dtype", "", "the index dtype (in_dtype) is UINT8, UINT16 or UINT32", fGtIndex);
constexpr Predicate kGtOut =
    dtype_rule<Gt, &Gt::out_dtype, false, "out_dtype">("is_valid_dtype(out_dtype, FP32R not allowed)", fGtOut);
constexpr Predicate kGtChannels =
    channels_rule<Gt>("has_valid_active_channel_range", "num_active_channels is 1..128", fGtChannels);
constexpr Predicate kGtSrcStart = start_rule<Gt, &Gt::src, "src", kRegionWording>(kStartMeaning, fGtSrcStart);
constexpr Predicate kGtDstStart = start_rule<Gt, &Gt::dst, "dst", kRegionWording>(kStartMeaning, fGtDstStart);
constexpr Predicate kGtSrc =
    pattern_rule<Gt, &Gt::src, &Gt::in_dtype, false, "src", kRegionWording, kPsumBelowMaverick>(
        "tensor4d_valid", "the indices readable in in_dtype: SBUF, or PSUM below MAVERICK", fGtSrc);
constexpr Predicate kGtDst =
    pattern_rule<Gt, &Gt::dst, &Gt::out_dtype, true, "dst", kRegionWording, kPsumBelowMaverick>(
        "tensor4d_valid", "dst writable in out_dtype: SBUF, or PSUM (4-byte dtypes) below MAVERICK", fGtDst);
constexpr Predicate kGtCount =
    text_rule<Gt, gt_count,
              [](const Gt& s, const CheckContext&) {
                return fmt::format("{} indices but {} destination elements", elements_of(s.src), elements_of(s.dst));
              }>(
        "gather_same_src_dst_count", "PROJ-CONV-G71",
        "one destination element per index: t4d_element_count(src) == t4d_element_count(dst) (CAYMAN+: waived when a "
        "shape comes from a register)",
        fGtCount);

constexpr std::array kGtList{
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kGtOpcode, &kGtIndex, &kGtOut,  &kGtChannels,
    &kGtSrcStart,           &kGtDstStart,           &kGtSrc,    &kGtDst,   &kGtCount};
constexpr Validator kGtValidator = full_validator<kGtList>("is_valid_gather");

// ============================== INDIRECT_COPY 0xE7 (GATH §3b) ==============================

using Ic = S4d4Ic;
constexpr FieldRef fIcOpcode[] = {field_ref<Ic>("header.opcode")};
constexpr FieldRef fIcDtypes[] = {field_ref<Ic>("in_dtype"), field_ref<Ic>("out_dtype")};
constexpr FieldRef fIcIn[] = {field_ref<Ic>("in_dtype")};
constexpr FieldRef fIcChannels[] = {field_ref<Ic>("num_active_channels"), field_ref<Ic>("dst.start_addr")};
constexpr FieldRef fIcPerIdx[] = {field_ref<Ic>("src_num_elem_per_idx")};
constexpr FieldRef fIcGatherOnly[] = {field_ref<Ic>("dst_num_elem_per_idx"), field_ref<Ic>("dst_buffer_size")};
constexpr FieldRef fIcBuffer[] = {field_ref<Ic>("src_buffer_size")};
constexpr FieldRef fIcIndexCount[] = {field_ref<Ic>("src.num_elem"), field_ref<Ic>("src_num_elem_per_idx")};
constexpr FieldRef fIcSrc[] = {field_ref<Ic>("src.index_addr"), field_ref<Ic>("src.data_addr"),
                               field_ref<Ic>("in_dtype")};
constexpr FieldRef fIcDst[] = {field_ref<Ic>("dst.start_addr"), field_ref<Ic>("dst.num_elem"),
                               field_ref<Ic>("out_dtype")};
constexpr FieldRef fIcCount[] = {field_ref<Ic>("src.num_elem"), field_ref<Ic>("dst.num_elem"),
                                 field_ref<Ic>("dst.start_addr")};

bool ic_dtypes(const Ic& s, const CheckContext&) {
  return s.in_dtype == s.out_dtype;
}
/// A multiple of 16 channels from partition 0, 32, 64 or 96 of dst (the eight 16-partition GpSimd cores).
bool ic_channels(const Ic& s, const CheckContext& c) {
  if (s.num_active_channels == 0 || s.num_active_channels % 16 != 0) return false;
  const Addr4Meaning a = describe(s.dst.start_addr, c.gen);
  if (!a.plain_immediate) return true;  // placed at run time
  return a.target.partition % 32 == 0 && a.target.partition + s.num_active_channels <= 128;
}
bool ic_per_idx(const Ic& s, const CheckContext&) {
  const unsigned n = s.src_num_elem_per_idx;
  return n != 0 && n <= 32 && (n & (n - 1)) == 0;
}
bool ic_gather_only(const Ic& s, const CheckContext&) {
  return s.dst_num_elem_per_idx == 0 && s.dst_buffer_size == 0;
}
bool ic_buffer(const Ic& s, const CheckContext&) {
  return s.src_buffer_size > 1;
}
bool ic_index_count(const Ic& s, const CheckContext&) {
  return s.src_num_elem_per_idx != 0 && s.src.num_elem / s.src_num_elem_per_idx <= pl::kIndirectMaxIndices;
}
/// Both indirect addresses are immediate SBUF addresses, aligned to their element (indices are uint16).
bool ic_src(const Ic& s, const CheckContext& c) {
  auto sbuf_ok = [&](const Addr4& a, uint8_t d) {
    const Addr4Meaning m = describe(a, c.gen);
    return m.plain_immediate && m.target.region == Region::Sbuf && pred::addr_aligned_dtype(m.target.offset, d);
  };
  return sbuf_ok(s.src.index_addr, dtype::kUint16) && sbuf_ok(s.src.data_addr, s.in_dtype);
}
bool ic_count(const Ic& s, const CheckContext& c) {
  return elements_of(s.dst) == s.src.num_elem || shape_escapes(s.dst.start_addr, c.gen);
}

constexpr Predicate kIcOpcode =
    opcode_rule<Ic, pl::kIndirectCopy>("has_indirect_copy_opcode", "PROJ-CONV-G71", "the opcode is 0xE7", fIcOpcode);
constexpr Predicate kIcDtypes = text_rule<Ic, ic_dtypes, [](const Ic& s, const CheckContext& c) {
  return fmt::format("in {} differs from out {} (no cast)", dtype_label(s.in_dtype, c.gen),
                     dtype_label(s.out_dtype, c.gen));
}>("indirect_copy_same_dtype", "PROJ-CONV-G71", "in_dtype == out_dtype", fIcDtypes);
constexpr Predicate kIcIn =
    dtype_rule<Ic, &Ic::in_dtype, false, "in_dtype">("is_valid_dtype(in_dtype, FP32R not allowed)", fIcIn);
constexpr Predicate kIcChannels = text_rule<
    Ic, ic_channels,
    [](const Ic& s, const CheckContext& c) {
      return fmt::format("{} channels from dst start {}: must be a multiple of 16 from partition 0, 32, 64 or 96",
                         s.num_active_channels, addr4_label(s.dst.start_addr, c.gen));
    }>("indirect_copy_active_channels", "PROJ-CONV-G71",
       "num_active_channels is a non-zero multiple of 16, dst starts in partition 0, 32, 64 or 96 and the channels fit",
       fIcChannels);
constexpr Predicate kIcPerIdx = text_rule<Ic, ic_per_idx, [](const Ic& s, const CheckContext&) {
  return fmt::format("src_num_elem_per_idx {} is not 1, 2, 4, 8, 16 or 32", s.src_num_elem_per_idx);
}>("indirect_copy_src_elem_per_idx", "PROJ-CONV-G71", "src_num_elem_per_idx is 1, 2, 4, 8, 16 or 32", fIcPerIdx);
constexpr Predicate kIcGatherOnly =
    text_rule<Ic, ic_gather_only,
              [](const Ic& s, const CheckContext&) {
                return fmt::format(
                    "dst_num_elem_per_idx {} and dst_buffer_size {} must both be 0 (scatter is not implemented)",
                    s.dst_num_elem_per_idx, s.dst_buffer_size);
              }>("indirect_copy_gather_only", "PROJ-CONV-G71",
                 "dst_num_elem_per_idx == 0 and dst_buffer_size == 0 (gather mode)", fIcGatherOnly);
constexpr Predicate kIcBuffer = text_rule<Ic, ic_buffer, [](const Ic& s, const CheckContext&) {
  return fmt::format("src_buffer_size {} must be greater than 1", s.src_buffer_size);
}>("indirect_copy_src_buffer_size", "PROJ-CONV-G71", "src_buffer_size > 1", fIcBuffer);
constexpr Predicate kIcIndexCount = text_rule<Ic, ic_index_count, [](const Ic& s, const CheckContext&) {
  return fmt::format("{} elements / {} per index exceed 4096 indices", s.src.num_elem, s.src_num_elem_per_idx);
}>("indirect_copy_index_count", "PROJ-CONV-G71", "src.num_elem / src_num_elem_per_idx <= 4096", fIcIndexCount);
constexpr Predicate kIcSrc =
    text_rule<Ic, ic_src,
              [](const Ic& s, const CheckContext& c) {
                return fmt::format("index {} / data {}: both must be immediate SBUF addresses aligned to their element",
                                   addr4_label(s.src.index_addr, c.gen), addr4_label(s.src.data_addr, c.gen));
              }>("indirect_copy_src_in_sbuf", "PROJ-CONV-G71",
                 "src.index_addr (uint16 indices) and src.data_addr (in_dtype) are aligned immediate SBUF addresses",
                 fIcSrc);
constexpr Predicate kIcDst = pattern_rule<Ic, &Ic::dst, &Ic::out_dtype, true, "dst", kRegionWording, kNoPsum>(
    "tensor4d_valid", "dst writable in out_dtype, SBUF only", fIcDst);
constexpr Predicate kIcCount = text_rule<Ic, ic_count,
                                         [](const Ic& s, const CheckContext&) {
                                           return fmt::format("src reads {} elements per partition, dst has {}",
                                                              s.src.num_elem, elements_of(s.dst));
                                         }>(
    "indirect_copy_dst_count", "PROJ-CONV-G71",
    "t4d_element_count(dst) == src.num_elem (CAYMAN+: waived when dst's shape comes from a register)", fIcCount);

constexpr std::array kIcList{&kHasValidNeuronHeader,
                             &kHasValidNeuronEvents,
                             &kIcOpcode,
                             &kIcDtypes,
                             &kIcIn,
                             &kIcChannels,
                             &kIcPerIdx,
                             &kIcGatherOnly,
                             &kIcBuffer,
                             &kIcIndexCount,
                             &kIcSrc,
                             &kIcDst,
                             &kIcCount};
constexpr Validator kIcValidator = full_validator<kIcList>("is_valid_indirect_copy");

// ============================== SORT 0x96 (SORT §4) ==============================

using So = S1d2Sort;
constexpr uint8_t so_in(const So& s) {
  return pl::pair_in(s.in_out_dtype);
}
constexpr uint8_t so_out(const So& s) {
  return pl::pair_out(s.in_out_dtype);
}
constexpr FieldRef fSoOpcode[] = {field_ref<So>("header.opcode")};
constexpr auto fSoReserved = field_refs_with_role<So, Role::Reserved>();
constexpr FieldRef fSoDtypes[] = {field_ref<So>("in_out_dtype")};
constexpr FieldRef fSoImmSrc[] = {field_ref<So>("index_offset_src")};
constexpr FieldRef fSoCmp[] = {field_ref<So>("comparison")};
constexpr FieldRef fSoStable[] = {field_ref<So>("stable")};
constexpr FieldRef fSoShapes[] = {field_ref<So>("src.start_addr"), field_ref<So>("src.num_elem"),
                                  field_ref<So>("dst.start_addr"), field_ref<So>("dst.num_elem"),
                                  field_ref<So>("in_out_dtype"),   field_ref<So>("num_active_channels")};

bool so_dtypes(const So& s, const CheckContext&) {
  const uint8_t lo = so_in(s);
  return (pl::sort_dtype_16b(lo) || pl::sort_dtype_32b(lo)) && lo == so_out(s);
}
bool so_shapes(const So& s, const CheckContext& c) {
  const uint8_t lo = so_in(s), hi = so_out(s);
  if (!pred::counts_nonzero(s.src.num_elem, s.src.start_addr, c.gen) ||
      !pred::tensor_start_addr_valid(s.src.start_addr, lo, false, false, true, c.gen) ||
      !pred::counts_nonzero(s.dst.num_elem, s.dst.start_addr, c.gen) ||
      !pred::tensor_start_addr_valid(s.dst.start_addr, hi, true, false, true, c.gen))
    return false;
  if (s.src.num_elem[0] != s.dst.num_elem[1] || s.dst.num_elem[0] != 2) return false;
  const uint32_t total = uint32_t{s.src.num_elem[0]} * s.num_active_channels;
  return (pl::sort_dtype_16b(lo) && total <= pl::kSortMaxSize / 2) ||
         (pl::sort_dtype_32b(lo) && total <= pl::kSortMaxSize / 4);
}

constexpr Predicate kSoOpcode = opcode_rule<So, pl::kSort>("has_sort_opcode", "", "the opcode is 0x96", fSoOpcode);
constexpr Predicate kSoReserved =
    reserved_rule<So, fSoReserved>({.name = "s1d2_sort_reserved_zero",
                                    .convention = "PROJ-CONV-G72",
                                    .meaning = "bytes 41..63 (reserved1) are zero",
                                    .gens = kGensAll,
                                    .explain = [](const Instruction& i, const CheckContext&) {
                                      return explain_reserved_bytes(encode(i), fSoReserved);
                                    }});
constexpr Predicate kSoDtypes = text_rule<So, so_dtypes, [](const So& s, const CheckContext& c) {
  return fmt::format(
      "in {} / out {}: must be one 16-bit (FP16, BF16, UINT16, INT16) or 32-bit (FP32, UINT32, "
      "INT32) dtype, in == out",
      dtype_label(so_in(s), c.gen), dtype_label(so_out(s), c.gen));
}>("sort_dtypes_ok", "", "the DTYPE_PAIR's input is a 16- or 32-bit sort dtype and equals its output", fSoDtypes);
constexpr Predicate kSoImmSrc =
    text_rule<So, [](const So& s, const CheckContext&) { return s.index_offset_src <= 2; },
              [](const So& s, const CheckContext&) {
                return fmt::format("index_offset_src {} is not an IMM_SRC (0, 1, 2)", s.index_offset_src);
              }>("is_valid_enum(ImmSrc)", "", "index_offset_src is an IMM_SRC (0..2)", fSoImmSrc);
constexpr Predicate kSoCmp = text_rule<
    So, [](const So& s, const CheckContext&) { return s.comparison == aluop::kIsLt || s.comparison == aluop::kIsGt; },
    [](const So& s, const CheckContext&) {
      return fmt::format("comparison {:#04x} is neither IS_LT (0x16) nor IS_GT (0x13)", s.comparison);
    }>("sort_valid_aluop", "", "comparison is IS_LT (ascending) or IS_GT (descending)", fSoCmp);
constexpr Predicate kSoStable =
    text_rule<So, [](const So& s, const CheckContext&) { return s.stable <= 1; },
              [](const So& s, const CheckContext&) { return fmt::format("stable is {}, must be 0 or 1", s.stable); }>(
        "sort_valid_stable", "", "stable is 0 or 1", fSoStable);
constexpr Predicate kSoShapes =
    text_rule<So, so_shapes,
              [](const So& s, const CheckContext& c) {
                return fmt::format(
                    "src {} x{} at {}, dst {{{}, {}}} at {}, {} channels: src and dst must be SBUF tensors in the "
                    "dtype, dst {{2, N}} with N == src's count, N x channels <= {} (16-bit) or {} (32-bit)",
                    s.src.num_elem[0], s.src.step_elem[0], addr4_label(s.src.start_addr, c.gen), s.dst.num_elem[0],
                    s.dst.num_elem[1], addr4_label(s.dst.start_addr, c.gen), s.num_active_channels,
                    pl::kSortMaxSize / 2, pl::kSortMaxSize / 4);
              }>("sort_tensor_shapes_ok", "",
                 "src a readable SBUF TENSOR1D, dst a writable SBUF TENSOR2D, dst.num_elem == {2, src.num_elem[0]}, "
                 "src.num_elem[0] x num_active_channels is at most 4096 (16-bit) or 2048 (32-bit)",
                 fSoShapes);

constexpr std::array kSoList{&kHasValidNeuronHeader,
                             &kHasValidNeuronEvents,
                             &kSoOpcode,
                             &kSoReserved,
                             &kSoDtypes,
                             &kSoImmSrc,
                             &kSoCmp,
                             &kSoStable,
                             &kSoShapes};
constexpr Validator kSoValidator = full_validator<kSoList>("is_valid_s1d2_sort");

// ============================== POOL 0x45 (POOL §3.6) ==============================

using Pl = S4d4Pl;
constexpr FieldRef fPlOpcode[] = {field_ref<Pl>("header.opcode")};
constexpr auto fPlReserved = field_refs_with_role<Pl, Role::Reserved>();
constexpr FieldRef fPlIn[] = {field_ref<Pl>("in_dtype")};
constexpr FieldRef fPlOut[] = {field_ref<Pl>("out_dtype")};
constexpr FieldRef fPlSrcStart[] = {field_ref<Pl>("src.start_addr"), field_ref<Pl>("num_active_channels")};
constexpr FieldRef fPlDstStart[] = {field_ref<Pl>("dst.start_addr"), field_ref<Pl>("num_active_channels")};
constexpr FieldRef fPlType[] = {field_ref<Pl>("header.opcode"), field_ref<Pl>("pool_func")};
constexpr FieldRef fPlDim[] = {field_ref<Pl>("pool_dim")};
constexpr FieldRef fPlChannels[] = {field_ref<Pl>("num_active_channels")};
constexpr FieldRef fPlDtypeCheck[] = {field_ref<Pl>("header.opcode"), field_ref<Pl>("out_dtype")};
constexpr FieldRef fPlSrc[] = {field_ref<Pl>("src.start_addr"), field_ref<Pl>("src.num_elem"),
                               field_ref<Pl>("in_dtype")};
constexpr FieldRef fPlDst[] = {field_ref<Pl>("dst.start_addr"), field_ref<Pl>("dst.num_elem"),
                               field_ref<Pl>("out_dtype")};
constexpr FieldRef fPlScale[] = {field_ref<Pl>("pool_func"), field_ref<Pl>("pool_scale")};

bool pl_scale(const Pl& s, const CheckContext&) {
  return s.pool_func != pl::kPoolMax || s.pool_scale.raw == 0x3F800000U;
}

constexpr Predicate kPlOpcode = opcode_rule<Pl, pl::kPool>("has_s4d4_pl_opcode", "", "the opcode is 0x45", fPlOpcode);
constexpr Predicate kPlReserved =
    reserved_rule<Pl, fPlReserved>({.name = "s4d4_pl_reserved_zero",
                                    .convention = "",
                                    .meaning = "bytes 35, 38 and 39 are zero",
                                    .gens = kGensAll,
                                    .explain = [](const Instruction& i, const CheckContext&) {
                                      return explain_reserved_bytes(encode(i), fPlReserved);
                                    }});
constexpr Predicate kPlIn =
    dtype_rule<Pl, &Pl::in_dtype, false, "in_dtype">("is_valid_dtype(in_dtype, FP32R not allowed)", fPlIn);
constexpr Predicate kPlOut =
    dtype_rule<Pl, &Pl::out_dtype, true, "out_dtype">("is_valid_dtype(out_dtype, FP32R allowed)", fPlOut);
constexpr Predicate kPlSrcStart = start_rule<Pl, &Pl::src, "src", kRegionWording>(kStartMeaning, fPlSrcStart);
constexpr Predicate kPlDstStart = start_rule<Pl, &Pl::dst, "dst", kRegionWording>(kStartMeaning, fPlDstStart);
constexpr Predicate kPlType = text_rule<
    Pl, [](const Pl& s, const CheckContext&) { return s.pool_func == pl::kPoolMax || s.pool_func == pl::kPoolAvg; },
    [](const Pl& s, const CheckContext&) {
      return fmt::format("pool_func {} is neither MAX_POOL (1) nor AVG_POOL (2)", s.pool_func);
    }>("has_valid_pooltype", "", "POOL's pool_func is MAX_POOL (1) or AVG_POOL (2)", fPlType);
constexpr Predicate kPlDim =
    text_rule<Pl, [](const Pl& s, const CheckContext&) { return pl::window_dims(s.pool_dim) != 0; },
              [](const Pl& s, const CheckContext&) {
                return fmt::format("pool_dim {} is not X (2), XY (3), XYZ (4) or XYZW (5)", s.pool_dim);
              }>("is_valid_subdim", "PROJ-CONV-G73", "pool_dim is X (2), XY (3), XYZ (4) or XYZW (5)", fPlDim);
constexpr Predicate kPlChannels =
    channels_rule<Pl>("has_valid_active_channel_range", "num_active_channels is 1..128", fPlChannels);
constexpr Predicate kPlDtypeCheck = text_rule<Pl, [](const Pl&, const CheckContext&) { return true; },
                                              [](const Pl&, const CheckContext&) { return std::string{}; }>(
    "s4d4_pl_dtype_check", "",
    "MAX_POOL_SELECT's out_dtype is UINT8, UINT16 or UINT32; no term for POOL (always true here)", fPlDtypeCheck);
constexpr Predicate kPlSrc = pattern_rule<Pl, &Pl::src, &Pl::in_dtype, false, "src", kRegionWording, kPsumAll>(
    "tensor4d_valid", "src readable in in_dtype, SBUF or PSUM", fPlSrc);
constexpr Predicate kPlDst = pattern_rule<Pl, &Pl::dst, &Pl::out_dtype, true, "dst", kRegionWording, kPsumAll>(
    "tensor4d_valid", "dst writable in out_dtype, SBUF or PSUM (PSUM with 4-byte dtypes)", fPlDst);
constexpr Predicate kPlScale =
    text_rule<Pl, pl_scale,
              [](const Pl& s, const CheckContext&) {
                return fmt::format("MAX_POOL with pool_scale {:#010x}: must be 1.0 (0x3f800000)", s.pool_scale.raw);
              }>("s4d4_pool_scale_valid", "PROJ-CONV-G74",
                 "pool_scale is 1.0 when unused (MAX_POOL); AVG_POOL takes any value", fPlScale);

constexpr std::array kPlList{&kHasValidNeuronHeader,
                             &kHasValidNeuronEvents,
                             &kPlOpcode,
                             &kPlReserved,
                             &kPlIn,
                             &kPlOut,
                             &kPlSrcStart,
                             &kPlDstStart,
                             &kPlType,
                             &kPlDim,
                             &kPlChannels,
                             &kPlDtypeCheck,
                             &kPlSrc,
                             &kPlDst,
                             &kPlScale};
constexpr Validator kPlValidator = full_validator<kPlList>("is_valid_s4d4_pl");

// ============================== CROSS_LANE_REDUCE 0x7C / 0x7D (CR §3.4) ==============================

using Cr = S4d4Cr;
constexpr FieldRef fCrOpcode[] = {field_ref<Cr>("header.opcode")};
constexpr auto fCrReserved = field_refs_with_role<Cr, Role::Reserved>();
constexpr FieldRef fCrIn[] = {field_ref<Cr>("in_dtype")};
constexpr FieldRef fCrOut[] = {field_ref<Cr>("out_dtype")};
constexpr FieldRef fCrSrcStart[] = {field_ref<Cr>("src.start_addr"), field_ref<Cr>("num_active_channels")};
constexpr FieldRef fCrDstStart[] = {field_ref<Cr>("dst.start_addr")};
constexpr FieldRef fCrChannels[] = {field_ref<Cr>("num_active_channels")};
constexpr FieldRef fCrSrc[] = {field_ref<Cr>("src.start_addr"), field_ref<Cr>("src.num_elem"),
                               field_ref<Cr>("in_dtype")};
constexpr FieldRef fCrDst[] = {field_ref<Cr>("dst.start_addr"), field_ref<Cr>("dst.num_elem"),
                               field_ref<Cr>("out_dtype")};
constexpr FieldRef fCrAxis[] = {field_ref<Cr>("reduce_axis")};
constexpr FieldRef fCrAxisCount[] = {field_ref<Cr>("reduce_axis"), field_ref<Cr>("src.num_elem"),
                                     field_ref<Cr>("dst.num_elem"), field_ref<Cr>("dst.start_addr")};
constexpr FieldRef fCrOp[] = {field_ref<Cr>("header.opcode"), field_ref<Cr>("reduce_op")};

bool cr_axis_count(const Cr& s, const CheckContext& c) {
  if (s.reduce_axis == pl::kAxisAll)
    return shape_escapes(s.dst.start_addr, c.gen) ||
           std::all_of(s.dst.num_elem.begin(), s.dst.num_elem.end(), [](uint16_t n) { return n == 1; });
  return s.reduce_axis != pl::kAxisPartitions ||
         elements_of(s.dst) == elements_of(s.src);  // another axis: not judged here
}
bool cr_op(const Cr& s, const CheckContext&) {
  return s.header.opcode == pl::kCrossLaneArith ? s.reduce_op <= pl::kReduceMax
                                                : s.reduce_op >= pl::kReduceOr && s.reduce_op <= pl::kReduceXor;
}

constexpr Predicate kCrOpcode = opcode_rule<Cr, pl::kCrossLaneArith, pl::kCrossLaneBitvec>(
    "has_cross_lane_reduce_opcode", "", "the opcode is 0x7C or 0x7D", fCrOpcode);
constexpr Predicate kCrReserved =
    reserved_rule<Cr, fCrReserved>({.name = "s4d4_cr_reserved_zero",
                                    .convention = "",
                                    .meaning = "bytes 37..39 are zero",
                                    .gens = kGensAll,
                                    .explain = [](const Instruction& i, const CheckContext&) {
                                      return explain_reserved_bytes(encode(i), fCrReserved);
                                    }});
constexpr Predicate kCrIn =
    dtype_rule<Cr, &Cr::in_dtype, false, "in_dtype">("is_valid_dtype(in_dtype, FP32R not allowed)", fCrIn);
constexpr Predicate kCrOut =
    dtype_rule<Cr, &Cr::out_dtype, true, "out_dtype">("is_valid_dtype(out_dtype, FP32R allowed)", fCrOut);
constexpr Predicate kCrSrcStart = start_rule<Cr, &Cr::src, "src", kRegionWording>(kStartMeaning, fCrSrcStart);
constexpr Predicate kCrDstStart = start_rule<Cr, &Cr::dst, "dst", kRegionWording, true>(kStartOneMeaning, fCrDstStart);
constexpr Predicate kCrChannels =
    channels_rule<Cr>("check_active_channels", "num_active_channels is 1..128", fCrChannels);
constexpr Predicate kCrSrc = pattern_rule<Cr, &Cr::src, &Cr::in_dtype, false, "src", kRegionWording, kNoPsum>(
    "tensor4d_valid", "src readable in in_dtype, SBUF only", fCrSrc);
constexpr Predicate kCrDst = pattern_rule<Cr, &Cr::dst, &Cr::out_dtype, true, "dst", kRegionWording, kNoPsum>(
    "tensor4d_valid", "dst writable in out_dtype, SBUF only", fCrDst);
constexpr Predicate kCrAxis =
    text_rule<Cr, [](const Cr& s, const CheckContext&) { return s.reduce_axis <= pl::kAxisPartitions; },
              [](const Cr& s, const CheckContext&) {
                return fmt::format("reduce_axis {} is neither ALL (0) nor PARTITIONS (1)", s.reduce_axis);
              }>("valid_reduce_axis_enum", "", "reduce_axis is ALL (0) or PARTITIONS (1)", fCrAxis);
constexpr Predicate kCrAxisCount = text_rule<Cr, cr_axis_count,
                                             [](const Cr& s, const CheckContext&) {
                                               return fmt::format("reduce_axis {}: dst has {} elements, src {}",
                                                                  s.reduce_axis, elements_of(s.dst),
                                                                  elements_of(s.src));
                                             }>(
    "valid_axis_dst_element_cnt", "PROJ-CONV-A18",
    "ALL: dst is one element (or its shape comes from a register, CAYMAN+); PARTITIONS: dst has src's element count",
    fCrAxisCount);
constexpr Predicate kCrOp =
    text_rule<Cr, cr_op,
              [](const Cr& s, const CheckContext&) {
                return fmt::format(
                    "reduce_op {} is not one of this opcode's: ADD/AVERAGE/MAX (0..2) for 0x7C, "
                    "BITWISE_OR/AND/XOR (3..5) for 0x7D",
                    s.reduce_op);
              }>("cross_lane_reduce_valid_op", "PROJ-CONV-G75",
                 "0x7C's reduce_op is ADD, AVERAGE or MAX (0..2); 0x7D's is BITWISE_OR, AND or XOR (3..5)", fCrOp);

constexpr std::array kCrList{
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kCrOpcode, &kCrReserved, &kCrIn,   &kCrOut,       &kCrSrcStart,
    &kCrDstStart,           &kCrChannels,           &kCrSrc,    &kCrDst,      &kCrAxis, &kCrAxisCount, &kCrOp};
constexpr Validator kCrValidator = full_validator<kCrList>("is_valid_cross_lane_reduce");

// ---- The family's validator table ----

constexpr ValidatorRow kRows[] = {
    {pl::kGather, &kGtValidator}, {pl::kIndirectCopy, &kIcValidator},   {pl::kSort, &kSoValidator},
    {pl::kPool, &kPlValidator},   {pl::kCrossLaneArith, &kCrValidator}, {pl::kCrossLaneBitvec, &kCrValidator},
};
constexpr Validation kValidation = validator_table<PoolFamily, kRows>();

}  // namespace

const Validation& PoolFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
