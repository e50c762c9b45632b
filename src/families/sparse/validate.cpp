// Sparse matmul family validator: is_valid_s4d3_mm (0x07 MATMUL_SPARSE). The header names the validator and its
// conjunct s4d3_mm_perf_opt_dtype; has_valid_mm_in_dtype, has_valid_mm_out_dtype, tensor4d_valid and the
// valid_mm_*_quadrant rules keep the names MATMUL's header gives them; every other conjunct is ours, read from the
// wiki's field notes and MATMUL's rules (PROJ-CONV-SP3).
#include "families/common.hpp"
#include "families/matmul/meaning.hpp"
#include "families/operand_rules.hpp"
#include "families/sparse/format.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;
using Mm = S4d3Mm;

// ---- Fields read, by name ----

constexpr auto fReserved = field_refs_with_role<Mm, Role::Reserved>();
constexpr FieldRef fInDtype[] = {field_ref<Mm>("in_dtype")};
constexpr FieldRef fOutDtype[] = {field_ref<Mm>("out_dtype")};
constexpr FieldRef fFp32[] = {field_ref<Mm>("in_dtype"), field_ref<Mm>("fp32_mode")};
constexpr FieldRef fPerf[] = {field_ref<Mm>("perf_opt"), field_ref<Mm>("in_dtype")};
constexpr FieldRef fFmaps[] = {field_ref<Mm>("src.num_elem")};
constexpr FieldRef fAccumulate[] = {field_ref<Mm>("psum_accumulate_flags")};
constexpr FieldRef fZero[] = {field_ref<Mm>("psum_zero_region")};
constexpr FieldRef fRows[] = {field_ref<Mm>("num_active_rows"), field_ref<Mm>("src.start_addr")};
constexpr FieldRef fCols[] = {field_ref<Mm>("num_active_cols")};
constexpr FieldRef fRowGroup[] = {field_ref<Mm>("row_grp"), field_ref<Mm>("num_active_rows")};
constexpr FieldRef fColGroup[] = {field_ref<Mm>("col_grp")};
constexpr FieldRef fRowMode[] = {field_ref<Mm>("active_row_mode")};
constexpr FieldRef fSrc[] = {field_ref<Mm>("src.start_addr"), field_ref<Mm>("src.num_elem"), field_ref<Mm>("in_dtype")};
constexpr FieldRef fDst[] = {field_ref<Mm>("dst.start_addr"), field_ref<Mm>("dst.step_elem"),
                             field_ref<Mm>("dst.num_elem"), field_ref<Mm>("num_active_cols")};
constexpr FieldRef fCount[] = {field_ref<Mm>("src.num_elem"), field_ref<Mm>("dst.num_elem")};
constexpr FieldRef fSrcQuadrant[] = {field_ref<Mm>("src.start_addr")};
constexpr FieldRef fDstQuadrant[] = {field_ref<Mm>("dst.start_addr")};

// ---- Readings the bodies share ----

/// The elements of one fmap: the product of the source's three inner counts (the fourth counts the fmaps).
constexpr uint64_t fmap_elements(const Mm& x) {
  return uint64_t{x.src.num_elem[0]} * x.src.num_elem[1] * x.src.num_elem[2];
}

/// The destination read as MATMUL's (4-byte FP32 accumulator elements: there is no transpose mode).
matmul::PeView dst_view(const Mm& x) {
  matmul::PeView v;
  v.dst = x.dst;
  v.cols = x.num_active_cols;
  return v;
}

std::string_view region_name(Region r) {
  return r == Region::Sbuf ? "SBUF" : r == Region::Psum ? "PSUM" : "neither SBUF nor PSUM";
}

// ---- Predicate bodies ----

bool perf_ok(const Mm& x, const CheckContext&) {
  return x.perf_opt == 0 || dtype_size(x.in_dtype) == 1;
}

bool fmaps_ok(const Mm& x, const CheckContext&) {
  return x.src.num_elem[3] >= sparse::kMinFmaps && x.src.num_elem[3] <= sparse::kMaxFmaps;
}

bool accumulate_ok(const Mm& x, const CheckContext&) {
  return x.psum_accumulate_flags <= 3;
}

/// MATMUL_ZERO_REGION: SIZE2048 alone on CAYMAN, the four sizes from MARIANA on.
bool zero_region_ok(const Mm& x, const CheckContext& c) {
  return x.psum_zero_region <= (c.gen == Generation::Cayman ? 0 : 3);
}

bool cols_ok(const Mm& x, const CheckContext&) {
  return x.num_active_cols >= 1 && x.num_active_cols <= 128;
}

bool row_mode_ok(const Mm& x, const CheckContext&) {
  return x.active_row_mode <= sparse::kMaxActiveRowMode;
}

bool rows_ok(const Mm& x, const CheckContext& c) {
  if (x.num_active_rows < 1 || x.num_active_rows > 128) return false;
  const matmul::Place p = matmul::place_of(x.src.start_addr, c.gen);
  return !p.known || p.at.partition + x.num_active_rows <= 128;
}

/// tensor4d_valid(src, in_dtype, SBUF only, read): non-zero counts (or a register shape) and a register or
/// in_dtype-aligned SBUF start.
bool src_ok(const Mm& x, const CheckContext& c) {
  return pred::counts_nonzero(x.src.num_elem, x.src.start_addr, c.gen) &&
         pred::tensor_start_addr_valid(x.src.start_addr, x.in_dtype, false, false, true, c.gen);
}

/// The destination as MATMUL's (PROJ-CONV-F15 with no transpose): PSUM (MAVERICK, which has none: SBUF), 4-byte
/// aligned, partition + num_active_cols <= 128, and in PSUM the whole pattern inside one 2 KiB bank.
bool dst_ok(const Mm& x, const CheckContext& c) {
  const Addr4& a = x.dst.start_addr;
  if (a.from_register()) return true;  // placed at run time
  const matmul::Place p = matmul::place_of(a, c.gen);
  if (!p.known || p.at.region != matmul::dst_region(c.gen) || (a.masked() & 3U) != 0) return false;
  if (p.at.partition + x.num_active_cols > 128) return false;
  if (p.at.region != Region::Psum) return true;
  const matmul::DstBytes d = matmul::dst_bytes(dst_view(x), c.gen);
  return !d.known || d.one_bank;
}

template <auto Operand>
bool quadrant_ok(const Mm& x, const CheckContext& c) {
  const matmul::Place p = matmul::place_of((x.*Operand).start_addr, c.gen);
  return !p.known || p.at.partition % 32 == 0;
}

// ---- Failure sentences ----

std::string rows_text(const Mm& x, const CheckContext& c) {
  if (x.num_active_rows < 1 || x.num_active_rows > 128)
    return fmt::format("num_active_rows is {}, must be 1..128", x.num_active_rows);
  return fmt::format("src starts in partition {}; {} active rows would run past partition 127",
                     matmul::place_of(x.src.start_addr, c.gen).at.partition, x.num_active_rows);
}

std::string dst_text(const Mm& x, const CheckContext& c) {
  const Addr4& a = x.dst.start_addr;
  const matmul::Place p = matmul::place_of(a, c.gen);
  const std::string at = addr4_label(a, c.gen);
  if (!p.known || p.at.region != matmul::dst_region(c.gen))
    return fmt::format("dst start {} is in {}, must be in {}", at, region_name(p.known ? p.at.region : Region::Outside),
                       region_name(matmul::dst_region(c.gen)));
  if ((a.masked() & 3U) != 0) return fmt::format("dst start {} is not 4-byte aligned (FP32 accumulate)", at);
  if (p.at.partition + x.num_active_cols > 128)
    return fmt::format("dst starts in partition {}; {} output partitions (num_active_cols) would run past 127",
                       p.at.partition, x.num_active_cols);
  const matmul::DstBytes d = matmul::dst_bytes(dst_view(x), c.gen);
  return fmt::format("dst bytes {:#x}..{:#x} of the partition leave one 2 KiB PSUM bank", d.first, d.last);
}

template <auto Operand, Name Which>
std::string quadrant_text(const Mm& x, const CheckContext& c) {
  return fmt::format("{} starts in partition {}, not a multiple of 32", std::string_view{Which},
                     matmul::place_of((x.*Operand).start_addr, c.gen).at.partition);
}

// ---- The conjuncts of is_valid_s4d3_mm ----

constexpr Predicate kOpcode = opcode_clause<Mm, sparse::kMatmulSparse>("has_matmul_sparse_opcode", "PROJ-CONV-SP3",
                                                                       "the opcode is MATMUL_SPARSE (0x07)");

constexpr Predicate kReserved =
    reserved_rule<Mm, fReserved>({.name = "s4d3_mm_reserved_zero",
                                  .convention = "PROJ-CONV-SP3",
                                  .meaning = "reserved_quant (bytes 36-37) and reserved (bytes 40-42) are zero",
                                  .explain = [](const Instruction& i, const CheckContext&) {
                                    return explain_reserved_bytes(encode(i), fReserved);
                                  }});

constexpr Predicate kInDtype =
    text_rule<Mm, [](const Mm& x, const CheckContext&) { return matmul::mm_in_dtype_ok(x.in_dtype); },
              [](const Mm& x, const CheckContext& c) {
                return fmt::format(
                    "in_dtype {} is not a PE input type (FP8_EXP3, FP8_EXP4, FP8_EXP5, BFLOAT16, FP16, FP32)",
                    dtype_label(x.in_dtype, c.gen));
              }>("has_valid_mm_in_dtype", "PROJ-CONV-SP3",
                 "in_dtype is FP8_EXP3, FP8_EXP4, FP8_EXP5, BFLOAT16, FP16 or FP32", fInDtype);

constexpr Predicate kOutDtype =
    text_rule<Mm, [](const Mm& x, const CheckContext& c) { return matmul::mm_out_dtype_ok(x.out_dtype, c.gen); },
              [](const Mm& x, const CheckContext& c) {
                return fmt::format("out_dtype {:#04x} is not allowed on {} ({})", x.out_dtype, to_string(c.gen),
                                   c.gen == Generation::Cayman ? "only 0, FP32 accumulate" : "0, FP32 or BFLOAT16");
              }>("has_valid_mm_out_dtype", "PROJ-CONV-SP3",
                 "out_dtype is 0 (FP32 accumulate) on CAYMAN; 0, FP32 or BFLOAT16 on MARIANA and MAVERICK", fOutDtype);

constexpr Predicate kFp32Mode =
    text_rule<Mm, [](const Mm& x, const CheckContext&) { return matmul::fp32_mode_ok(x.in_dtype, x.fp32_mode); },
              [](const Mm& x, const CheckContext& c) {
                if (x.in_dtype == dtype::kFp32)
                  return fmt::format("in_dtype FP32 needs fp32_mode Low (1), High (2) or Low_High (3); got {}",
                                     x.fp32_mode);
                return fmt::format("fp32_mode is {}, must be None (0) for in_dtype {}", x.fp32_mode,
                                   dtype_label(x.in_dtype, c.gen));
              }>("s4d3_mm_valid_fp32_mode", "PROJ-CONV-SP3",
                 "in_dtype FP32 if and only if fp32_mode is Low, High or Low_High; otherwise fp32_mode is None", fFp32);

constexpr Predicate kPerf = text_rule<Mm, perf_ok, [](const Mm& x, const CheckContext& c) {
  return fmt::format("perf_opt {} needs a 1-byte in_dtype, got {}", x.perf_opt, dtype_label(x.in_dtype, c.gen));
}>("s4d3_mm_perf_opt_dtype", "PROJ-CONV-SP3", "a performance mode (perf_opt != 0) needs a 1-byte in_dtype", fPerf);

constexpr Predicate kFmaps = text_rule<Mm, fmaps_ok, [](const Mm& x, const CheckContext&) {
  return fmt::format("src.num_elem[3] is {}: a partition sends 2, 3 or 4 fmaps", x.src.num_elem[3]);
}>("s4d3_mm_valid_num_fmaps", "PROJ-CONV-SP3", "src.num_elem[3], the fmaps each partition sends, is 2, 3 or 4", fFmaps);

constexpr Predicate kAccumulate =
    text_rule<Mm, accumulate_ok,
              [](const Mm& x, const CheckContext&) {
                return fmt::format("psum_accumulate_flags {:#04x} sets a bit above END_MATMUL_GROUP (bit 1)",
                                   x.psum_accumulate_flags);
              }>("s4d3_mm_valid_accumulate_flags", "PROJ-CONV-SP3",
                 "psum_accumulate_flags is 0..3 (BEGIN_MATMUL_GROUP, END_MATMUL_GROUP)", fAccumulate);

constexpr Predicate kZeroRegion =
    text_rule<Mm, zero_region_ok,
              [](const Mm& x, const CheckContext& c) {
                return fmt::format("psum_zero_region is {}, must be {} on {}", x.psum_zero_region,
                                   c.gen == Generation::Cayman ? "SIZE2048 (0)" : "SIZE2048..SIZE16384 (0..3)",
                                   to_string(c.gen));
              }>("s4d3_mm_valid_zero_region", "PROJ-CONV-SP3",
                 "psum_zero_region is a MATMUL_ZERO_REGION value: SIZE2048 (0) on CAYMAN, 0..3 on MARIANA and MAVERICK",
                 fZero);

constexpr Predicate kActiveRows = text_rule<Mm, rows_ok, rows_text>(
    "s4d3_mm_valid_num_active_rows", "PROJ-CONV-SP3",
    "num_active_rows is 1..128 and the src partition + num_active_rows <= 128", fRows);

constexpr Predicate kCols = text_rule<Mm, cols_ok, [](const Mm& x, const CheckContext&) {
  return fmt::format("num_active_cols is {}, must be 1..128", x.num_active_cols);
}>("s4d3_mm_valid_num_active_cols", "PROJ-CONV-SP3", "num_active_cols is 1..128", fCols);

constexpr Predicate kRowGroup =
    text_rule<Mm, [](const Mm& x, const CheckContext&) { return matmul::group_ok(x.row_grp, x.num_active_rows); },
              [](const Mm& x, const CheckContext&) {
                if (!matmul::group_ok(x.row_grp, 0))
                  return fmt::format(
                      "row_grp {:#04x} is not a quadrant mask of the table 0x1, 0x2, 0x4, 0x8, 0x3, 0xc, 0xf",
                      x.row_grp);
                return fmt::format("row_grp {:#04x} covers {} rows, fewer than the {} active ones", x.row_grp,
                                   32 * std::popcount(x.row_grp), x.num_active_rows);
              }>("s4d3_mm_valid_row_group", "PROJ-CONV-SP3",
                 "row_grp is a quadrant mask (0x1, 0x2, 0x4, 0x8, 0x3, 0xc, 0xf) covering num_active_rows", fRowGroup);

constexpr Predicate kColGroup =
    text_rule<Mm, [](const Mm& x, const CheckContext&) { return x.col_grp == sparse::kFullColumns; },
              [](const Mm& x, const CheckContext&) {
                return fmt::format(
                    "col_grp is {:#04x}; fine-grain sparsity runs only across all four column groups "
                    "(0x0f)",
                    x.col_grp);
              }>("s4d3_mm_full_col_group", "PROJ-CONV-SP3", "col_grp is 0x0f: all four column groups", fColGroup);

constexpr Predicate kRowMode =
    text_rule<Mm, row_mode_ok,
              [](const Mm& x, const CheckContext&) {
                return fmt::format("active_row_mode is {}, must be 0 or 1 (logical or physical top rows)",
                                   x.active_row_mode);
              }>("s4d3_mm_valid_active_row_mode", "PROJ-CONV-SP4",
                 "active_row_mode is 0 or 1, one of the two ACTIVE_ROW_MODE modes (PROJ-CONV-SP4)", fRowMode);

constexpr Predicate kSrc =
    text_rule<Mm, src_ok,
              [](const Mm& x, const CheckContext& c) {
                if (!pred::counts_nonzero(x.src.num_elem, x.src.start_addr, c.gen))
                  return fmt::format("src num_elem = {{{}, {}, {}, {}}} has a zero count", x.src.num_elem[0],
                                     x.src.num_elem[1], x.src.num_elem[2], x.src.num_elem[3]);
                return fmt::format("src start {} is not a {}-aligned SBUF address for {}",
                                   addr4_label(x.src.start_addr, c.gen), dtype_size(x.in_dtype),
                                   dtype_label(x.in_dtype, c.gen));
              }>("tensor4d_valid", "",
                 "src readable from SBUF: non-zero counts (or a register shape) and a register or in_dtype-"
                 "aligned SBUF start",
                 fSrc);

constexpr Predicate kDst = text_rule<Mm, dst_ok, dst_text>(
    "s4d3_mm_valid_dst", "PROJ-CONV-SP3",
    "dst starts in PSUM (MAVERICK: SBUF) or a register, 4-byte aligned, partition + num_active_cols <= 128, and in "
    "PSUM the whole pattern inside one 2 KiB bank",
    fDst);

constexpr Predicate kCount =
    text_rule<Mm, [](const Mm& x, const CheckContext&) { return x.dst.elements() == fmap_elements(x); },
              [](const Mm& x, const CheckContext&) {
                return fmt::format("dst has {} elements; one fmap of src has {}", x.dst.elements(), fmap_elements(x));
              }>("s4d3_mm_num_elements", "PROJ-CONV-SP3",
                 "dst has as many elements as one fmap of src (src.num_elem[0] * [1] * [2])", fCount);

constexpr Predicate kSbufQuadrant = text_rule<Mm, quadrant_ok<&Mm::src>, quadrant_text<&Mm::src, "src">>(
    "valid_mm_sbuf_quadrant", "PROJ-CONV-SP3", "src starts at a quadrant partition (0, 32, 64 or 96), or in a register",
    fSrcQuadrant);
constexpr Predicate kPsumQuadrant = text_rule<Mm, quadrant_ok<&Mm::dst>, quadrant_text<&Mm::dst, "dst">>(
    "valid_mm_psum_quadrant", "PROJ-CONV-SP3", "dst starts at a quadrant partition (0, 32, 64 or 96), or in a register",
    fDstQuadrant);

constexpr const Predicate* kConjuncts[] = {&kHasValidNeuronHeader,
                                           &kHasValidNeuronEvents,
                                           &kOpcode,
                                           &kReserved,
                                           &kInDtype,
                                           &kOutDtype,
                                           &kFp32Mode,
                                           &kPerf,
                                           &kFmaps,
                                           &kAccumulate,
                                           &kZeroRegion,
                                           &kActiveRows,
                                           &kCols,
                                           &kRowGroup,
                                           &kColGroup,
                                           &kRowMode,
                                           &kSrc,
                                           &kDst,
                                           &kCount,
                                           &kSbufQuadrant,
                                           &kPsumQuadrant,
                                           &kEnginePlacement};

constexpr Validator kValidator = full_validator<kConjuncts>("is_valid_s4d3_mm");

constexpr ValidatorRow kRows[] = {{sparse::kMatmulSparse, &kValidator}};
constexpr Validation kValidation = validator_table<SparseFamily, kRows>();

}  // namespace

const Validation& SparseFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
