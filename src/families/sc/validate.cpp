// Sparsity-compress family validators: is_valid_s3d3_sc (0xE0 SPARSITY_COMPRESS) and is_valid_s2d2d2_sc (0xE1
// SPARSITY_COMPRESS_TAG), from the predicates the wiki names (sparsity-compress-tag.md §3, §4b, §4c); the operand
// rules it does not name keep the names the other families give them, and the names marked ours are (PROJ-CONV-SC2).
#include "families/common.hpp"
#include "families/operand_rules.hpp"
#include "families/sc/format.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;
using Sc = S3d3Sc;
using Sct = S2d2d2Sc;

// ---- Readings both validators share ----

/// The elements of one op_dim group: the product of the source's first subdim_dims(op_dim) counts (a 2-D or 3-D
/// source has no more dimensions than it has counts).
template <class T>
uint64_t group_elements(const T& t, uint8_t op_dim) {
  uint64_t n = 1;
  const unsigned dims = sc::subdim_dims(op_dim);
  for (unsigned d = 0; d < dims && d < t.num_elem.size(); ++d) n *= t.num_elem[d];
  return n;
}

/// reduce_dim_size_check(src, op_dim, 4): a group holds at least four elements (waived for a register shape).
template <class S>
bool dim_size_ok(const S& x, const CheckContext& c) {
  return shape_escapes(x.src.start_addr, c.gen) ||
         (sc::subdim_dims(x.op_dim) != 0 && group_elements(x.src, x.op_dim) >= sc::kWinners);
}
template <class S>
std::string dim_size_text(const S& x, const CheckContext&) {
  return fmt::format("an op_dim group of src holds {} elements, fewer than the 4 it keeps",
                     group_elements(x.src, x.op_dim));
}

/// reduce_dst_num_elements(dst, 4): four results per group of src (waived for a register shape).
template <class S, auto Dst>
bool dst_count_ok(const S& x, const CheckContext& c) {
  if (shape_escapes(x.src.start_addr, c.gen) || shape_escapes((x.*Dst).start_addr, c.gen)) return true;
  const uint64_t g = group_elements(x.src, x.op_dim);
  return g != 0 && elements_of(x.*Dst) * g == elements_of(x.src) * sc::kWinners;
}
template <class S, auto Dst>
std::string dst_count_text(const S& x, const CheckContext&) {
  const uint64_t g = group_elements(x.src, x.op_dim);
  return fmt::format("dst has {} elements; src's {} elements in groups of {} keep {}", elements_of(x.*Dst),
                     elements_of(x.src), g, g == 0 ? 0 : elements_of(x.src) / g * sc::kWinners);
}

/// is_valid_*_transpose_src: 0, or 1 with a multiple of 32 channels and 32 elements per partition (a 32 x 32
/// block per 32 channels).
template <class S>
bool transpose_ok(const S& x, const CheckContext&) {
  return x.transpose_src == 0 || (x.transpose_src == 1 && x.num_active_channels % sc::kTransposeBlock == 0 &&
                                  elements_of(x.src) == sc::kTransposeBlock);
}
template <class S>
std::string transpose_text(const S& x, const CheckContext&) {
  if (x.transpose_src > 1) return fmt::format("transpose_src is {}, must be 0 or 1", x.transpose_src);
  return fmt::format("a transposed source needs a multiple of 32 channels ({}) and 32 elements per partition ({})",
                     x.num_active_channels, elements_of(x.src));
}

template <class S>
bool op_ok(const S& x, const CheckContext&) {
  return sc::compress_op_ok(x.op);
}
template <class S>
std::string op_text(const S& x, const CheckContext&) {
  return fmt::format("op is {:#04x}, must be a COMPRESS_OP: MIN 0x08, MAX 0x09, ABS_MIN 0x20, ABS_MAX 0x21", x.op);
}

std::string_view subdim_name(uint8_t op_dim) {
  for (const EnumValue& e : kTensorSubdim)
    if (e.value == op_dim) return e.name;
  return "not a TENSOR_SUBDIM";
}

// ---- is_valid_s3d3_sc (0xE0) ----

constexpr auto fScReserved = field_refs_with_role<Sc, Role::Reserved>();
constexpr FieldRef fScChannels[] = {field_ref<Sc>("num_active_channels")};
constexpr FieldRef fScIn[] = {field_ref<Sc>("in_dtype")};
constexpr FieldRef fScOut[] = {field_ref<Sc>("out_data_dtype"), field_ref<Sc>("out_struct_dtype")};
constexpr FieldRef fScOp[] = {field_ref<Sc>("op")};
constexpr FieldRef fScDim[] = {field_ref<Sc>("op_dim")};
constexpr FieldRef fScXpose[] = {field_ref<Sc>("transpose_src"), field_ref<Sc>("num_active_channels"),
                                 field_ref<Sc>("src.num_elem")};
constexpr FieldRef fScDimSize[] = {field_ref<Sc>("op_dim"), field_ref<Sc>("src.num_elem")};
constexpr FieldRef fScCount[] = {field_ref<Sc>("op_dim"), field_ref<Sc>("src.num_elem"), field_ref<Sc>("dst.num_elem")};
constexpr FieldRef fScSrcStart[] = {field_ref<Sc>("src.start_addr"), field_ref<Sc>("num_active_channels")};
constexpr FieldRef fScDstStart[] = {field_ref<Sc>("dst.start_addr"), field_ref<Sc>("num_active_channels")};
constexpr FieldRef fScSrc[] = {field_ref<Sc>("src.start_addr"), field_ref<Sc>("src.num_elem"),
                               field_ref<Sc>("in_dtype")};
constexpr FieldRef fScDst[] = {field_ref<Sc>("dst.start_addr"), field_ref<Sc>("dst.num_elem"),
                               field_ref<Sc>("out_struct_dtype")};

/// is_valid_sparsity_compress_dtypes: an FP8 result in a UINT16 {data, tag}, a BFLOAT16 or FP16 one in a UINT32.
bool sc_dtypes_ok(const Sc& x, const CheckContext&) {
  const uint8_t d = x.out_data_dtype;
  if (d == dtype::kFp8Exp3 || d == dtype::kFp8Exp4 || d == dtype::kFp8Exp5) return x.out_struct_dtype == dtype::kUint16;
  if (d == dtype::kBfloat16 || d == dtype::kFp16) return x.out_struct_dtype == dtype::kUint32;
  return false;
}

constexpr Predicate kScOpcode = opcode_clause<Sc, sc::kSparsityCompress>(
    "has_sparsity_compress_opcode", "PROJ-CONV-SC2", "the opcode is SPARSITY_COMPRESS (0xe0)");
/// The header's check_core_version, one rule for both structs: it reads the generation only.
constexpr bool core_v4(const CheckContext& c) {
  return kGensMarianaUp.has(c.gen);
}
constexpr FieldRef fCoreOpcode[] = {field_ref<RawWord>("header.opcode")};
constexpr Predicate kCoreVersion{
    .name = "check_core_version",
    .convention = "",
    .meaning = "the NeuronCore is V4 (MARIANA) or later",
    .gens = kGensAll,
    .fields = fCoreOpcode,
    .holds = [](const Instruction&, const CheckContext& c) { return core_v4(c); },
    .explain = [](const Instruction&,
                  const CheckContext& c) { return fmt::format("{} is before NeuronCore V4", to_string(c.gen)); },
    .accepts = [](const uint8_t*, const CheckContext& c) { return core_v4(c); }};
constexpr Predicate kScReserved =
    reserved_rule<Sc, fScReserved>({.name = "has_s3d3_sc_reserved_zero",
                                    .convention = "PROJ-CONV-SC2",
                                    .meaning = "reserved0 (bytes 14-15), reserved1 (35) and reserved2 (38-47) are zero",
                                    .explain = [](const Instruction& i, const CheckContext&) {
                                      return explain_reserved_bytes(encode(i), fScReserved);
                                    }});
constexpr Predicate kScChannels = channels_rule<Sc>("has_valid_active_channel_range",
                                                    "num_active_channels is 1..DVE_NUM_CHANNELS (128)", fScChannels);
constexpr Predicate kScIn = dtype_rule<Sc, &Sc::in_dtype, false, "in_dtype">(
    "in_dtype is a valid dtype other than FP32R (is_valid_dtype(in_dtype, AllowFP32R::False))", fScIn);
constexpr Predicate kScDtypes =
    text_rule<Sc, sc_dtypes_ok,
              [](const Sc& x, const CheckContext& c) {
                return fmt::format(
                    "out_data_dtype {} with out_struct_dtype {}: an FP8 needs UINT16, BFLOAT16 or FP16 UINT32",
                    dtype_label(x.out_data_dtype, c.gen), dtype_label(x.out_struct_dtype, c.gen));
              }>("is_valid_sparsity_compress_dtypes", "",
                 "out_data_dtype FP8_EXP3/4/5 with out_struct_dtype UINT16, or BFLOAT16/FP16 with UINT32", fScOut);
constexpr Predicate kScOp =
    text_rule<Sc, op_ok<Sc>, op_text<Sc>>("has_valid_compress_op", "PROJ-CONV-SC2",
                                          "op is a COMPRESS_OP: MIN 0x08, MAX 0x09, ABS_MIN 0x20, ABS_MAX 0x21", fScOp);
constexpr Predicate kScDim =
    text_rule<Sc, [](const Sc& x, const CheckContext&) { return sc::subdim_dims(x.op_dim) != 0; },
              [](const Sc& x, const CheckContext&) {
                return fmt::format("op_dim {:#04x} ({}) is not X, XY, XYZ or XYZW", x.op_dim, subdim_name(x.op_dim));
              }>("is_valid_subdim_3d", "", "op_dim is X, XY, XYZ or XYZW", fScDim);
constexpr Predicate kScXpose = text_rule<Sc, transpose_ok<Sc>, transpose_text<Sc>>(
    "is_valid_sparsity_compress_transpose_src", "PROJ-CONV-SC2",
    "transpose_src is 0, or 1 with a multiple of 32 channels and 32 source elements per partition", fScXpose);
constexpr Predicate kScDimSize = text_rule<Sc, dim_size_ok<Sc>, dim_size_text<Sc>>(
    "reduce_dim_size_check", "", "an op_dim group of src holds at least 4 elements, unless src's shape is a register's",
    fScDimSize);
constexpr Predicate kScCount = text_rule<Sc, dst_count_ok<Sc, &Sc::dst>, dst_count_text<Sc, &Sc::dst>>(
    "reduce_dst_num_elements", "", "dst has 4 elements per op_dim group of src, unless a shape is a register's",
    fScCount);
constexpr Predicate kScSrcStart = start_rule<Sc, &Sc::src, "src">(
    "a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128", fScSrcStart);
constexpr Predicate kScDstStart = start_rule<Sc, &Sc::dst, "dst">(
    "a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128", fScDstStart);
constexpr Predicate kScSrc = pattern_rule<Sc, &Sc::src, &Sc::in_dtype, false, "src">(
    "tensor3d_valid", "src readable in in_dtype: non-zero counts (or a register shape), a register or aligned start",
    fScSrc);
constexpr Predicate kScDst = pattern_rule<Sc, &Sc::dst, &Sc::out_struct_dtype, true, "dst">(
    "tensor3d_valid",
    "dst writable in out_struct_dtype: non-zero counts (or a register shape), a register or aligned start", fScDst);

constexpr const Predicate* kSc[] = {&kHasValidNeuronHeader,
                                    &kHasValidNeuronEvents,
                                    &kScOpcode,
                                    &kCoreVersion,
                                    &kScReserved,
                                    &kScChannels,
                                    &kScIn,
                                    &kScDtypes,
                                    &kScOp,
                                    &kScDim,
                                    &kScXpose,
                                    &kScDimSize,
                                    &kScCount,
                                    &kScSrcStart,
                                    &kScDstStart,
                                    &kScSrc,
                                    &kScDst};
constexpr Validator kScValidator = full_validator<kSc>("is_valid_s3d3_sc");

// ---- is_valid_s2d2d2_sc (0xE1) ----

constexpr auto fSctReserved = field_refs_with_role<Sct, Role::Reserved>();
constexpr FieldRef fSctChannels[] = {field_ref<Sct>("num_active_channels")};
constexpr FieldRef fSctIn[] = {field_ref<Sct>("in_dtype")};
constexpr FieldRef fSctOut[] = {field_ref<Sct>("out_data_dtype"), field_ref<Sct>("out_tag_dtype"),
                                field_ref<Sct>("packed_tags")};
constexpr FieldRef fSctOp[] = {field_ref<Sct>("op")};
constexpr FieldRef fSctDim[] = {field_ref<Sct>("op_dim")};
constexpr FieldRef fSctXpose[] = {field_ref<Sct>("transpose_src"), field_ref<Sct>("num_active_channels"),
                                  field_ref<Sct>("src.num_elem")};
constexpr FieldRef fSctDimSize[] = {field_ref<Sct>("op_dim"), field_ref<Sct>("src.num_elem")};
constexpr FieldRef fSctCount[] = {field_ref<Sct>("op_dim"), field_ref<Sct>("src.num_elem"),
                                  field_ref<Sct>("data_dst.num_elem")};
constexpr FieldRef fSctTagCount[] = {field_ref<Sct>("packed_tags"), field_ref<Sct>("data_dst.num_elem"),
                                     field_ref<Sct>("tag_dst.num_elem")};
constexpr FieldRef fSctSrcStart[] = {field_ref<Sct>("src.start_addr"), field_ref<Sct>("num_active_channels")};
constexpr FieldRef fSctDataStart[] = {field_ref<Sct>("data_dst.start_addr"), field_ref<Sct>("num_active_channels")};
constexpr FieldRef fSctTagStart[] = {field_ref<Sct>("tag_dst.start_addr"), field_ref<Sct>("num_active_channels")};
constexpr FieldRef fSctSrc[] = {field_ref<Sct>("src.start_addr"), field_ref<Sct>("src.num_elem"),
                                field_ref<Sct>("in_dtype")};
constexpr FieldRef fSctData[] = {field_ref<Sct>("data_dst.start_addr"), field_ref<Sct>("data_dst.num_elem"),
                                 field_ref<Sct>("out_data_dtype")};
constexpr FieldRef fSctTag[] = {field_ref<Sct>("tag_dst.start_addr"), field_ref<Sct>("tag_dst.num_elem"),
                                field_ref<Sct>("out_tag_dtype")};
constexpr FieldRef fSctQuadrants[] = {field_ref<Sct>("data_dst.start_addr"), field_ref<Sct>("tag_dst.start_addr")};

/// is_valid_sparsity_compress_tag_dtypes: out_data_dtype any valid dtype (FP32R allowed); tags UINT8, UINT16 or UINT32
/// unpacked, UINT16 packed; packed_tags 0 or 1.
bool sct_dtypes_ok(const Sct& x, const CheckContext& c) {
  if (!dtype_accepts(x.out_data_dtype, true, c) || x.packed_tags > 1) return false;
  const uint8_t t = x.out_tag_dtype;
  return x.packed_tags == 1 ? t == dtype::kUint16 : t == dtype::kUint8 || t == dtype::kUint16 || t == dtype::kUint32;
}
/// same_element_count (one tag per datum) or quadruple_element_count (four 4-bit tags per UINT16), waived for a
/// register shape.
bool tag_count_ok(const Sct& x, const CheckContext& c) {
  if (shape_escapes(x.data_dst.start_addr, c.gen) || shape_escapes(x.tag_dst.start_addr, c.gen)) return true;
  const uint64_t tags = elements_of(x.tag_dst) * (x.packed_tags == 1 ? sc::kWinners : 1U);
  return tags == elements_of(x.data_dst);
}
/// has_valid_sparsity_compress_tag_dst_quadrants: both destinations in one quadrant (partitions 32q..32q+31) of one
/// region; a register start is placed at run time.
bool quadrants_ok(const Sct& x, const CheckContext& c) {
  if (x.data_dst.start_addr.from_register() || x.tag_dst.start_addr.from_register()) return true;
  const PartitionAddress a = decode_partition_offset(x.data_dst.start_addr.masked(), c.gen);
  const PartitionAddress b = decode_partition_offset(x.tag_dst.start_addr.masked(), c.gen);
  return a.region == b.region && a.partition / 32 == b.partition / 32;
}

constexpr Predicate kSctOpcode = opcode_clause<Sct, sc::kSparsityCompressTag>(
    "has_sparsity_compress_tag_opcode", "PROJ-CONV-SC2", "the opcode is SPARSITY_COMPRESS_TAG (0xe1)");
constexpr Predicate kSctReserved = reserved_rule<Sct, fSctReserved>(
    {.name = "has_s2d2d2_sc_reserved_zero",
     .convention = "PROJ-CONV-SC2",
     .meaning = "reserved0 (bytes 15-19), reserved1 (35) and reserved2 (38-39) are zero",
     .explain = [](const Instruction& i, const CheckContext&) {
       return explain_reserved_bytes(encode(i), fSctReserved);
     }});
constexpr Predicate kSctChannels = channels_rule<Sct>("has_valid_active_channel_range",
                                                      "num_active_channels is 1..DVE_NUM_CHANNELS (128)", fSctChannels);
constexpr Predicate kSctIn = dtype_rule<Sct, &Sct::in_dtype, false, "in_dtype">(
    "in_dtype is a valid dtype other than FP32R (is_valid_dtype(in_dtype, AllowFP32R::False))", fSctIn);
constexpr Predicate kSctDtypes = text_rule<
    Sct, sct_dtypes_ok,
    [](const Sct& x, const CheckContext& c) {
      return fmt::format(
          "out_data_dtype {}, packed_tags {}, out_tag_dtype {}: data any valid dtype, tags UINT8/UINT16/UINT32 "
          "(packed: UINT16)",
          dtype_label(x.out_data_dtype, c.gen), x.packed_tags, dtype_label(x.out_tag_dtype, c.gen));
    }>(
    "is_valid_sparsity_compress_tag_dtypes", "",
    "out_data_dtype a valid dtype (FP32R allowed); packed_tags 0 with out_tag_dtype UINT8, UINT16 or UINT32, or 1 with "
    "UINT16",
    fSctOut);
constexpr Predicate kSctOp = text_rule<Sct, op_ok<Sct>, op_text<Sct>>(
    "has_valid_compress_op", "PROJ-CONV-SC2", "op is a COMPRESS_OP: MIN 0x08, MAX 0x09, ABS_MIN 0x20, ABS_MAX 0x21",
    fSctOp);
constexpr Predicate kSctDim =
    text_rule<Sct, [](const Sct& x, const CheckContext&) { return x.op_dim == sc::kX || x.op_dim == sc::kX + 1; },
              [](const Sct& x, const CheckContext&) {
                return fmt::format("op_dim {:#04x} ({}) is not X or XY", x.op_dim, subdim_name(x.op_dim));
              }>("is_valid_subdim_2d", "", "op_dim is X or XY", fSctDim);
constexpr Predicate kSctXpose = text_rule<Sct, transpose_ok<Sct>, transpose_text<Sct>>(
    "is_valid_sparsity_compress_tag_transpose_src", "PROJ-CONV-SC2",
    "transpose_src is 0, or 1 with a multiple of 32 channels and 32 source elements per partition", fSctXpose);
constexpr Predicate kSctDimSize = text_rule<Sct, dim_size_ok<Sct>, dim_size_text<Sct>>(
    "reduce_dim_size_check", "", "an op_dim group of src holds at least 4 elements, unless src's shape is a register's",
    fSctDimSize);
constexpr Predicate kSctCount = text_rule<Sct, dst_count_ok<Sct, &Sct::data_dst>, dst_count_text<Sct, &Sct::data_dst>>(
    "reduce_dst_num_elements", "", "data_dst has 4 elements per op_dim group of src, unless a shape is a register's",
    fSctCount);
constexpr Predicate kSctTagCount = text_rule<Sct, tag_count_ok,
                                             [](const Sct& x, const CheckContext&) {
                                               return fmt::format(
                                                   "tag_dst has {} elements for data_dst's {} ({} tags per element)",
                                                   elements_of(x.tag_dst), elements_of(x.data_dst),
                                                   x.packed_tags == 1 ? 4 : 1);
                                             }>(
    "sparsity_compress_tag_element_count", "PROJ-CONV-SC2",
    "tag_dst has data_dst's element count (same_element_count), a quarter of it when packed (quadruple_element_count)",
    fSctTagCount);
constexpr std::string_view kSctStartMeaning =
    "a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128";
constexpr Predicate kSctSrcStart = start_rule<Sct, &Sct::src, "src">(kSctStartMeaning, fSctSrcStart);
constexpr Predicate kSctDataStart = start_rule<Sct, &Sct::data_dst, "data_dst">(kSctStartMeaning, fSctDataStart);
constexpr Predicate kSctTagStart = start_rule<Sct, &Sct::tag_dst, "tag_dst">(kSctStartMeaning, fSctTagStart);
constexpr Predicate kSctSrc = pattern_rule<Sct, &Sct::src, &Sct::in_dtype, false, "src">(
    "tensor2d_valid", "src readable in in_dtype: non-zero counts (or a register shape), a register or aligned start",
    fSctSrc);
constexpr Predicate kSctData = pattern_rule<Sct, &Sct::data_dst, &Sct::out_data_dtype, true, "data_dst">(
    "tensor2d_valid", "data_dst writable in out_data_dtype: non-zero counts, a register or aligned start", fSctData);
constexpr Predicate kSctTag =
    pattern_rule<Sct, &Sct::tag_dst, &Sct::out_tag_dtype, true, "tag_dst", kPartitionWording, 0>(
        "tensor2d_valid",
        "tag_dst writable in out_tag_dtype in SBUF only: non-zero counts, a register or aligned start", fSctTag);
constexpr Predicate kSctQuadrants =
    text_rule<Sct, quadrants_ok,
              [](const Sct& x, const CheckContext& c) {
                return fmt::format("data_dst {} and tag_dst {} are not in one quadrant of one region",
                                   addr4_label(x.data_dst.start_addr, c.gen), addr4_label(x.tag_dst.start_addr, c.gen));
              }>("has_valid_sparsity_compress_tag_dst_quadrants", "",
                 "data_dst and tag_dst start in the same quadrant (partitions 32q..32q+31) of the same region",
                 fSctQuadrants);

constexpr const Predicate* kSct[] = {&kHasValidNeuronHeader,
                                     &kHasValidNeuronEvents,
                                     &kSctOpcode,
                                     &kCoreVersion,
                                     &kSctReserved,
                                     &kSctChannels,
                                     &kSctIn,
                                     &kSctDtypes,
                                     &kSctOp,
                                     &kSctDim,
                                     &kSctXpose,
                                     &kSctDimSize,
                                     &kSctCount,
                                     &kSctTagCount,
                                     &kSctSrcStart,
                                     &kSctDataStart,
                                     &kSctTagStart,
                                     &kSctSrc,
                                     &kSctData,
                                     &kSctTag,
                                     &kSctQuadrants};
constexpr Validator kSctValidator = full_validator<kSct>("is_valid_s2d2d2_sc");

constexpr ValidatorRow kTable[] = {{sc::kSparsityCompress, &kScValidator}, {sc::kSparsityCompressTag, &kSctValidator}};
constexpr Validation kValidation = validator_table<SparsityCompressFamily, kTable>();

}  // namespace

const Validation& SparsityCompressFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
