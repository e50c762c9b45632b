// PE matmul family validators: LDWEIGHTS 0x01 and MATMUL 0x02, one validator per layout (real-programs.md §8.2, §9.2).
#include <algorithm>
#include <tuple>

#include "families/common.hpp"
#include "families/matmul/meaning.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using matmul::PeView;

// ---- Helpers over a layout ----

/// The first non-zero byte among the fields a predicate read, for its sentence.
std::string first_nonzero(const Instruction& i, std::span<const FieldRef> fields, std::string_view what) {
  const Word w = encode(i);
  for (const FieldRef& f : fields)
    for (unsigned b = f.offset; b < f.offset + f.size; ++b)
      if (w[b] != 0) return fmt::format("{} byte {} ({}) is {:#04x}, must be 0", what, b, f.name, w[b]);
  return fmt::format("a {} byte is not zero", what);
}

std::string_view region_name(Region r) {
  return r == Region::Sbuf ? "SBUF" : r == Region::Psum ? "PSUM" : "neither SBUF nor PSUM";
}

// ---- Predicate bodies shared by both opcodes (forced inline: the raw-word acceptor inlines them whole) ----

[[gnu::always_inline]] inline bool rows_ok(const PeView& v, Generation g) {
  if (v.rows < 1 || v.rows > 128) return false;
  const matmul::Place p = matmul::place_of(v.src.start_addr, g);
  return !p.known || p.at.partition + v.rows <= 128;
}

std::string explain_rows(const PeView& v, Generation g) {
  const matmul::Place p = matmul::place_of(v.src.start_addr, g);
  if (v.rows < 1 || v.rows > 128) return fmt::format("num_active_rows is {}, must be 1..128", v.rows);
  return fmt::format("src starts in partition {}; {} active rows would run past partition 127", p.at.partition, v.rows);
}

[[gnu::always_inline]] inline bool src_partition_ok(const PeView& v, Generation g) {
  const matmul::Place p = matmul::place_of(v.src.start_addr, g);
  const bool in_sbuf = v.src.start_addr.from_register() || (p.known && p.at.region == Region::Sbuf);
  const bool fits = !p.known || p.at.partition + v.rows <= 128;
  const Tensor3d& t = v.src;
  return in_sbuf && fits && matmul::counts3_nonzero(t, g) &&
         pred::tensor_start_addr_valid(t.start_addr, v.in_dtype, false, false, true, g);
}

[[gnu::always_inline]] inline bool dst_ok(const PeView& v, Generation g) {
  const Addr4& a = v.dst.start_addr;
  if (a.from_register()) return true;  // placed at run time
  const matmul::Place p = matmul::place_of(a, g);
  const unsigned w = matmul::dst_elem_bytes(v);
  // w is a dtype size or 4: a power of two (matmul::dst_elem_bytes), so the alignment is a mask test.
  if (!p.known || p.at.region != matmul::dst_region(g) || w == 0 || (a.masked() & (w - 1)) != 0) return false;
  if (g != Generation::Maverick && p.at.partition + v.cols > 128) return false;
  if (matmul::dst_region(g) != Region::Psum) return true;
  const matmul::DstBytes d = matmul::dst_bytes(v, g);
  return !d.known || d.one_bank;
}

std::string explain_dst(const PeView& v, Generation g) {
  const Addr4& a = v.dst.start_addr;
  const matmul::Place p = matmul::place_of(a, g);
  const unsigned w = matmul::dst_elem_bytes(v);
  const std::string at = addr4_label(a, g);
  if (!p.known || p.at.region != matmul::dst_region(g))
    return fmt::format("dst start {} is in {}, must be in {}", at, region_name(p.known ? p.at.region : Region::Outside),
                       region_name(matmul::dst_region(g)));
  if (w == 0 || a.masked() % w != 0)
    return fmt::format("dst start {} is not {}-byte aligned ({} output elements)", at, w,
                       w == 4 ? "FP32 accumulate" : "transpose, input-width");
  if (g != Generation::Maverick && p.at.partition + v.cols > 128)
    return fmt::format("dst starts in partition {}; {} output partitions (num_active_cols) would run past 127",
                       p.at.partition, v.cols);
  const matmul::DstBytes d = matmul::dst_bytes(v, g);
  return fmt::format("dst bytes {:#x}..{:#x} of the partition leave one 2 KiB PSUM bank", d.first, d.last);
}

// ---- Explanations ----

/// valid_mm_sbuf_quadrant / valid_mm_psum_quadrant: an immediate start lies at a quadrant partition (0, 32, 64, 96).
[[gnu::always_inline]] inline bool quadrant_ok(const Addr4& start, Generation g) {
  const matmul::Place p = matmul::place_of(start, g);
  return !p.known || p.at.partition % 32 == 0;
}

std::string explain_quadrant(std::string_view operand, const Addr4& start, Generation g) {
  return fmt::format("{} starts in partition {}, not a multiple of 32", operand,
                     matmul::place_of(start, g).at.partition);
}

std::string explain_in_dtype(const PeView& v, Generation g) {
  return fmt::format("in_dtype {} is not a PE input type (FP8_EXP3, FP8_EXP4, FP8_EXP5, BFLOAT16, FP16, FP32)",
                     dtype_label(v.in_dtype, g));
}

std::string explain_fp32_mode(const PeView& v, Generation g) {
  if (v.in_dtype == dtype::kFp32)
    return fmt::format("in_dtype FP32 needs fp32_mode Low (1), High (2) or Low_High (3); got {}", v.fp32_mode);
  return fmt::format("fp32_mode is {}, must be None (0) for in_dtype {}", v.fp32_mode, dtype_label(v.in_dtype, g));
}

std::string explain_group(uint8_t mask, unsigned n, std::string_view what, std::string_view count) {
  if (!matmul::group_ok(mask, 0))
    return fmt::format("{} {:#04x} is not a quadrant mask of the table 0x1, 0x2, 0x4, 0x8, 0x3, 0xc, 0xf", what, mask);
  return fmt::format("{} {:#04x} covers {} {}, fewer than the {} active ones", what, mask, 32 * std::popcount(mask),
                     count, n);
}

std::string explain_src_tensor(const PeView& v, Generation g) {
  const Tensor3d& t = v.src;
  if (!pred::counts_nonzero(t.num_elem, t.start_addr, g))
    return fmt::format("src num_elem = {{{}, {}, {}}} has a zero count", t.num_elem[0], t.num_elem[1], t.num_elem[2]);
  return fmt::format("src start {} is not a {}-aligned SBUF address for {}", addr4_label(t.start_addr, g),
                     dtype_size(v.in_dtype), dtype_label(v.in_dtype, g));
}

// ---- The predicates of one layout ----

/// A body over the generation-independent view, Body(const PeView&, const CheckContext&) -> bool: `holds` calls it
/// on the decoded operand of layout L, the raw form (`accepts`) on the view of the typed raw word -- one function,
/// so the two cannot disagree; inlined into the acceptor, only the fields the body reads are loaded.
template <class L, auto Body>
bool pe_holds(const Instruction& i, const CheckContext& c) {
  return Body(matmul::view_of(body<L>(i), i.gen), c);
}
template <class L, auto Body>
bool pe_accepts(const uint8_t* w, const CheckContext& c) {
  return Body(matmul::view_of(view<L>(w), c.gen), c);
}
/// The predicate of `p` on layout L's generations, with both forms from the one body over the view.
template <class L, auto Body>
constexpr Predicate pe_rule(PredicateSpec p) {
  p.gens = L::kGens;
  return with_forms(p, &pe_holds<L, Body>, &pe_accepts<L, Body>);
}

/// The reserved-bytes rule of layout L: the declaration's reserved fields are zero and the layout's Extra terms
/// hold (flag bits no flag uses); the raw form tests the reserved fields as the compile-time byte mask.
template <class L, auto Extra>
bool reserved_holds(const Instruction& i, const CheckContext& c) {
  return reserved_fields_zero(body<L>(i), c) && Extra(body<L>(i), c);
}
template <class L, auto Extra>
bool reserved_raw(const uint8_t* w, const CheckContext& c) {
  return reserved_bytes_zero<L>(w) && Extra(view<L>(w), c);
}
template <class L, auto Extra>
constexpr Predicate reserved_and(PredicateSpec p) {
  p.gens = L::kGens;
  return with_forms(p, &reserved_holds<L, Extra>, &reserved_raw<L, Extra>);
}

template <class L>
struct Preds {
  static PeView v(const Instruction& i) { return matmul::view_of(body<L>(i), i.gen); }
  static constexpr bool kMatmul = L::kFormat == Format::S3d3Mm;
  static constexpr std::string_view kPrefix = kMatmul ? "d3_mm" : "lw";
  static constexpr std::string_view kConvention = kMatmul ? "PROJ-CONV-F14" : "PROJ-CONV-F13";

  static constexpr uint8_t kOpcodeValue = kMatmul ? opcode::kMatmul : opcode::kLdWeights;
  static constexpr Predicate kOpcode = rule<L, has_opcode<kOpcodeValue>>(
      {.name = kMatmul ? "has_matmul_opcode" : "has_ldweights_opcode",
       .convention = kConvention,
       .meaning = kMatmul ? "the opcode is MATMUL (0x02)" : "the opcode is LDWEIGHTS (0x01)",
       .gens = L::kGens,
       .fields = kOpcodeFieldOf<L>,
       .explain = explain_opcode});

  static constexpr FieldRef kInDtypeFields[] = {field_ref<L>("in_dtype")};
  [[gnu::always_inline]] static bool in_dtype_ok(const PeView& x, const CheckContext&) {
    return matmul::mm_in_dtype_ok(x.in_dtype);
  }
  static constexpr Predicate kInDtype = pe_rule<L, in_dtype_ok>(
      {.name = "has_valid_mm_in_dtype",
       .convention = "",
       .meaning = "in_dtype is FP8_EXP3, FP8_EXP4, FP8_EXP5, BFLOAT16, FP16 or FP32",
       .fields = kInDtypeFields,
       .explain = [](const Instruction& i, const CheckContext& c) { return explain_in_dtype(v(i), c.gen); }});

  static constexpr FieldRef fFp32[] = {field_ref<L>("in_dtype"), field_ref<L>("fp32_mode")};
  [[gnu::always_inline]] static bool fp32_ok(const PeView& x, const CheckContext&) {
    return matmul::fp32_mode_ok(x.in_dtype, x.fp32_mode);
  }
  static constexpr Predicate kFp32Mode = pe_rule<L, fp32_ok>(
      {.name = "s3d3_mm_valid_fp32_mode",
       .convention = "",
       .meaning = "in_dtype FP32 if and only if fp32_mode is Low, High or Low_High; otherwise fp32_mode is None",
       .fields = fFp32,
       .explain = [](const Instruction& i, const CheckContext& c) { return explain_fp32_mode(v(i), c.gen); }});

  static constexpr FieldRef fSrcTensor[] = {field_ref<L>("src.start_addr"), field_ref<L>("src.num_elem"),
                                            field_ref<L>("in_dtype")};
  [[gnu::always_inline]] static bool src_tensor_ok(const PeView& x, const CheckContext& c) {
    return matmul::counts3_nonzero(x.src, c.gen) &&
           pred::tensor_start_addr_valid(x.src.start_addr, x.in_dtype, false, false, true, c.gen);
  }
  static constexpr Predicate kSrcTensor = pe_rule<L, src_tensor_ok>(
      {.name = "tensor3d_valid",
       .convention = "",
       .meaning = "src pattern readable from SBUF: non-zero counts (or a register shape, CAYMAN+) and a register "
                  "(0x80) or in_dtype-aligned SBUF start",
       .fields = fSrcTensor,
       .explain = [](const Instruction& i, const CheckContext& c) { return explain_src_tensor(v(i), c.gen); }});

  static constexpr FieldRef fRows[] = {field_ref<L>("num_active_rows"), field_ref<L>("src.start_addr")};
  static constexpr FieldRef fTranspose[1] = {field_ref<L>("transpose_mode")};
  [[gnu::always_inline]] static bool transpose_ok(const PeView& x, const CheckContext&) {
    return x.transpose_mode <= 1;
  }
  static constexpr Predicate kTranspose =
      pe_rule<L, transpose_ok>({.name = kMatmul ? "d3_mm_valid_transpose_mode" : "lw_valid_transpose_mode",
                                .convention = kConvention,
                                .meaning = "transpose_mode is 0 or 1",
                                .fields = fTranspose,
                                .explain = [](const Instruction& i, const CheckContext&) {
                                  return fmt::format("transpose_mode is {}, must be 0 or 1", v(i).transpose_mode);
                                }});

  /// lw_valid_row_group / lw_valid_col_group (MATMUL: d3_mm_valid_row_group / d3_mm_valid_col_group_active_col):
  /// one rule over a quadrant mask and the count it must cover.
  template <bool Cols>
  struct Group {
    static constexpr FieldRef kFields[2] = {field_ref<L>(Cols ? "col_grp" : "row_grp"),
                                            field_ref<L>(Cols ? "num_active_cols" : "num_active_rows")};
    static uint8_t mask(const PeView& x) { return Cols ? x.col_grp : x.row_grp; }
    static unsigned count(const PeView& x) { return Cols ? x.cols : x.rows; }
    [[gnu::always_inline]] static bool ok(const PeView& x, const CheckContext&) {
      return matmul::group_ok(mask(x), count(x));
    }
    static constexpr Predicate kPredicate = pe_rule<L, ok>(
        {.name = Cols ? (kMatmul ? "d3_mm_valid_col_group_active_col" : "lw_valid_col_group")
                      : (kMatmul ? "d3_mm_valid_row_group" : "lw_valid_row_group"),
         .convention = kConvention,
         .meaning = Cols ? "col_grp is a quadrant mask (0x1, 0x2, 0x4, 0x8, 0x3, 0xc, 0xf) covering num_active_cols"
                         : "row_grp is a quadrant mask (0x1, 0x2, 0x4, 0x8, 0x3, 0xc, 0xf) covering num_active_rows",
         .fields = kFields,
         .explain = [](const Instruction& i, const CheckContext&) {
           return explain_group(mask(v(i)), count(v(i)), Cols ? "col_grp" : "row_grp", Cols ? "columns" : "rows");
         }});
  };
  static constexpr const Predicate& kRowGroup = Group<false>::kPredicate;
  static constexpr const Predicate& kColGroup = Group<true>::kPredicate;
};

// ---- LDWEIGHTS ----

template <class L>
struct Lw : Preds<L> {
  using P = Preds<L>;
  using P::v;

  static constexpr auto reserved_refs() {
    if constexpr (std::is_same_v<L, S3LwMariana>)
      return matmul::reserved_refs_and<L>(std::array{field_ref<L>("flags")});
    else
      return matmul::reserved_refs_and<L>(std::array<FieldRef, 0>{});
  }
  static constexpr auto fReserved = reserved_refs();
  /// The reserved terms beyond the declaration's reserved fields.
  [[gnu::always_inline]] static bool reserved_extra_ok(const L& s, const CheckContext&) {
    if constexpr (std::is_same_v<L, S3LwMariana>)
      return (s.flags & 0xC0) == 0;  // LD_WEIGHT_FLAGS uses bits 0..5
    else
      return (void)s, true;
  }
  static constexpr Predicate kReserved = reserved_and<L, reserved_extra_ok>(
      {.name = "lw_reserved_zero",
       .convention = "PROJ-CONV-F13",
       .meaning = std::is_same_v<L, S3LwCayman>    ? "bytes 12-15, 36-37, 40-43 and 46-63 are zero"
                  : std::is_same_v<L, S3LwMariana> ? "(MARIANA) bytes 13-15, 36-37, 40-43, 46 and 48-63 are zero, "
                                                     "and bits 6-7 of LD_WEIGHT_FLAGS (byte 47)"
                                                   : "(MAVERICK) bytes 12-15 and 40-63 are zero",
       .fields = fReserved,
       .explain = [](const Instruction& i, const CheckContext&) {
         if constexpr (std::is_same_v<L, S3LwMariana>)
           if ((body<L>(i).flags & 0xC0) != 0 && reserved_fields_zero(body<L>(i), {}))
             return fmt::format("LD_WEIGHT_FLAGS {:#04x} sets bits 6-7, which no flag uses", body<L>(i).flags);
         return first_nonzero(i, fReserved, "reserved");
       }});

  [[gnu::always_inline]] static bool rows_body(const PeView& x, const CheckContext& c) { return rows_ok(x, c.gen); }
  static constexpr Predicate kRows = pe_rule<L, rows_body>(
      {.name = "lw_valid_num_rows",
       .convention = "PROJ-CONV-F13",
       .meaning = "num_active_rows is 1..128 and the src partition + num_active_rows <= 128",
       .fields = P::fRows,
       .explain = [](const Instruction& i, const CheckContext& c) { return explain_rows(v(i), c.gen); }});

  static constexpr FieldRef fCols[] = {field_ref<L>("num_active_cols"), field_ref<L>("src.num_elem")};
  [[gnu::always_inline]] static bool cols_ok(const PeView& x, const CheckContext&) {
    return x.cols >= 1 && x.cols <= x.max_cols && x.src.elements() == x.cols;
  }
  static constexpr Predicate kCols = pe_rule<L, cols_ok>(
      {.name = "lw_valid_num_active_cols",
       .convention = "PROJ-CONV-F13",
       .meaning = std::is_same_v<L, S3LwMaverick>
                      ? "(MAVERICK) the src pattern has num_active_cols elements (0 = 256)"
                      : "num_active_cols is 1..128 and the src pattern has num_active_cols elements",
       .fields = fCols,
       .explain = [](const Instruction& i, const CheckContext&) {
         const PeView x = v(i);
         if (x.cols < 1 || x.cols > x.max_cols)
           return fmt::format("num_active_cols is {}, must be 1..{}", x.cols, x.max_cols);
         return fmt::format("the src pattern has {} elements, num_active_cols is {}", x.src.elements(), x.cols);
       }});

  static constexpr auto conjuncts() {
    // The conjuncts every LDWEIGHTS layout starts with; MAVERICK's re-packed word has no transpose or groups.
    constexpr std::array kHead{
        &kHasValidNeuronHeader, &kHasValidNeuronEvents, &P::kOpcode, &kEnginePlacement, &kReserved,
        &P::kInDtype,           &P::kFp32Mode};
    if constexpr (std::is_same_v<L, S3LwMaverick>)
      return concat_predicates(kHead, std::array{&kRows, &kCols, &P::kSrcTensor});
    else
      return concat_predicates(
          kHead, std::array{&P::kTranspose, &kRows, &kCols, &P::kRowGroup, &P::kColGroup, &P::kSrcTensor});
  }
};

// ---- MATMUL ----

template <class L>
struct Mm : Preds<L> {
  using P = Preds<L>;
  using P::v;
  static constexpr bool kMaverick = std::is_same_v<L, S3d3MmMaverick>;
  static constexpr bool kMariana = std::is_same_v<L, S3d3MmMariana>;

  static constexpr auto reserved_refs() {
    if constexpr (kMaverick)
      return matmul::reserved_refs_and<L>(std::array<FieldRef, 0>{});
    else if constexpr (kMariana)
      return matmul::reserved_refs_and<L>(std::array{field_ref<L>("matmul_flags"), field_ref<L>("active_row_mode")});
    else
      return matmul::reserved_refs_and<L>(std::array{field_ref<L>("active_row_mode")});
  }
  static constexpr auto fReserved = reserved_refs();
  /// The reserved terms beyond the declaration's reserved fields.
  [[gnu::always_inline]] static bool reserved_extra_ok(const L& s, const CheckContext&) {
    if constexpr (kMaverick)
      return (void)s, true;
    else if constexpr (kMariana)
      return s.active_row_mode == 0 && (s.matmul_flags & 0xC0) == 0;
    else
      return s.active_row_mode == 0;
  }
  static constexpr Predicate kReserved = reserved_and<L, reserved_extra_ok>(
      {.name = "d3_mm_reserved_zero",
       .convention = "PROJ-CONV-F14",
       .meaning = kMaverick  ? "(MAVERICK) bytes 12-15 and 41-47 are zero"
                  : kMariana ? "(MARIANA) bytes 12-15, 36-37, 41 and 46 (active_row_mode) are zero, and bits 6-7 "
                               "of MATMUL_FLAGS (byte 42)"
                             : "bytes 12-15, 36-37, 41-42 and 46 (active_row_mode) are zero",
       .fields = fReserved,
       .explain = [](const Instruction& i, const CheckContext&) {
         if constexpr (kMariana)
           if ((body<L>(i).matmul_flags & 0xC0) != 0)
             return fmt::format("MATMUL_FLAGS {:#04x} sets bits 6-7, which no flag uses", body<L>(i).matmul_flags);
         return first_nonzero(i, fReserved, "reserved");
       }});

  static constexpr FieldRef fOutDtype[] = {field_ref<L>("out_dtype")};
  [[gnu::always_inline]] static bool out_dtype_ok(const PeView& x, const CheckContext& c) {
    return matmul::mm_out_dtype_ok(x.out_dtype, c.gen);
  }
  static constexpr Predicate kOutDtype = pe_rule<L, out_dtype_ok>(
      {.name = "has_valid_mm_out_dtype",
       .convention = "",
       .meaning = std::is_same_v<L, S3d3MmCayman> ? "out_dtype is 0 (FP32 accumulate)"
                                                  : "out_dtype is 0 (FP32 accumulate), FP32 or BFLOAT16",
       .fields = fOutDtype,
       .explain = [](const Instruction& i, const CheckContext& c) {
         return fmt::format("out_dtype {:#04x} is not allowed on {} ({})", v(i).out_dtype, to_string(c.gen),
                            c.gen == Generation::Sunda || c.gen == Generation::Cayman ? "only 0, FP32 accumulate"
                                                                                      : "0, FP32 or BFLOAT16");
       }});

  static constexpr auto accumulate_ref() {
    if constexpr (kMaverick)
      return std::array{field_ref<L>("flags")};
    else
      return std::array{field_ref<L>("psum_accumulate_flags")};
  }
  static constexpr auto fAccumulate = accumulate_ref();
  [[gnu::always_inline]] static bool accumulate_ok(const PeView& x, const CheckContext&) {
    return x.accumulate <= x.accumulate_max;
  }
  static constexpr Predicate kAccumulate = pe_rule<L, accumulate_ok>(
      {.name = "d3_mm_valid_accumulate_flags",
       .convention = "PROJ-CONV-F14",
       .meaning = kMaverick ? "(MAVERICK) the accumulate flags (byte 39) use bits 0-2 only"
                            : "psum_accumulate_flags is 0..3 (BEGIN_MATMUL_GROUP, END_MATMUL_GROUP)",
       .fields = fAccumulate,
       .explain = [](const Instruction& i, const CheckContext&) {
         return fmt::format("accumulate flags {:#04x} set a bit above {}", v(i).accumulate, v(i).accumulate_max);
       }});

  static constexpr FieldRef fZero[1] = {field_ref<L>("psum_zero_region")};
  [[gnu::always_inline]] static bool zero_region_ok(const PeView& x, const CheckContext&) {
    return x.zero_region <= (kMariana ? 3U : 0U);
  }
  static constexpr Predicate kZeroRegion = pe_rule<L, zero_region_ok>(
      {.name = "d3_mm_valid_zero_region",
       .convention = "PROJ-CONV-F14",
       .meaning = kMariana ? "(MARIANA) psum_zero_region is SIZE2048..SIZE16384 (0..3)"
                           : "psum_zero_region is SIZE2048 (0), the only MATMUL_ZERO_REGION value",
       .fields = fZero,
       .explain = [](const Instruction& i, const CheckContext& c) {
         return fmt::format("psum_zero_region is {}, must be {} on {}", v(i).zero_region, kMariana ? "0..3" : "0",
                            to_string(c.gen));
       }});

  [[gnu::always_inline]] static bool rows_in_range(const PeView& x, const CheckContext&) {
    return x.rows >= 1 && x.rows <= 128;
  }
  static constexpr Predicate kRows =
      pe_rule<L, rows_in_range>({.name = "d3_mm_valid_num_active_rows",
                                 .convention = "PROJ-CONV-F14",
                                 .meaning = "num_active_rows is 1..128",
                                 .fields = P::fRows,
                                 .explain = [](const Instruction& i, const CheckContext&) {
                                   return fmt::format("num_active_rows is {}, must be 1..128", v(i).rows);
                                 }});

  static constexpr FieldRef fCols[] = {field_ref<L>("num_active_cols")};
  [[gnu::always_inline]] static bool cols_in_range(const PeView& x, const CheckContext&) {
    return x.cols >= 1 && x.cols <= 128;
  }
  static constexpr Predicate kCols =
      pe_rule<L, cols_in_range>({.name = "d3_mm_valid_num_active_cols",
                                 .convention = "PROJ-CONV-F14",
                                 .meaning = "num_active_cols is 1..128",
                                 .fields = fCols,
                                 .explain = [](const Instruction& i, const CheckContext&) {
                                   return fmt::format("num_active_cols is {}, must be 1..128", v(i).cols);
                                 }});

  static constexpr FieldRef fSrc[] = {field_ref<L>("src.start_addr"), field_ref<L>("src.num_elem"),
                                      field_ref<L>("in_dtype"), field_ref<L>("num_active_rows")};
  [[gnu::always_inline]] static bool src_ok(const PeView& x, const CheckContext& c) {
    return src_partition_ok(x, c.gen);
  }
  static constexpr Predicate kSrc =
      pe_rule<L, src_ok>({.name = "d3_mm_valid_src_partition",
                          .convention = "PROJ-CONV-F14",
                          .meaning = "src starts in SBUF (or a register), its partition + num_active_rows <= 128, and "
                                     "tensor3d_valid(src, in_dtype, SBUF only)",
                          .fields = fSrc,
                          .explain = [](const Instruction& i, const CheckContext& c) {
                            const PeView x = v(i);
                            const matmul::Place p = matmul::place_of(x.src.start_addr, c.gen);
                            if (!x.src.start_addr.from_register() && (!p.known || p.at.region != Region::Sbuf))
                              return fmt::format("src start {} is not in SBUF", addr4_label(x.src.start_addr, c.gen));
                            if (p.known && p.at.partition + x.rows > 128) return explain_rows(x, c.gen);
                            return explain_src_tensor(x, c.gen);
                          }});

  static constexpr auto dst_refs() {
    if constexpr (kMaverick)
      return std::array{field_ref<L>("dst.start_addr"), field_ref<L>("dst.step_elem"), field_ref<L>("dst.num_elem"),
                        field_ref<L>("in_dtype")};
    else
      return std::array{field_ref<L>("dst.start_addr"), field_ref<L>("dst.step_elem"), field_ref<L>("dst.num_elem"),
                        field_ref<L>("transpose_mode"), field_ref<L>("in_dtype"),      field_ref<L>("num_active_cols")};
  }
  static constexpr auto fDst = dst_refs();
  [[gnu::always_inline]] static bool dst_body(const PeView& x, const CheckContext& c) { return dst_ok(x, c.gen); }
  static constexpr Predicate kDst = pe_rule<L, dst_body>(
      {.name = "d3_mm_valid_dst",
       .convention = "PROJ-CONV-F15",
       .meaning = kMaverick ? "(MAVERICK, no PSUM) dst starts in SBUF (or a register), 4-byte aligned"
                            : "dst starts in PSUM (or a register), partition + num_active_cols <= 128, aligned to the "
                              "element width (in_dtype in transpose mode, else 4) and the whole pattern inside one "
                              "2 KiB bank",
       .fields = fDst,
       .explain = [](const Instruction& i, const CheckContext& c) { return explain_dst(v(i), c.gen); }});

  static constexpr FieldRef fCounts[] = {field_ref<L>("src.num_elem"), field_ref<L>("dst.num_elem")};
  [[gnu::always_inline]] static bool same_elements(const PeView& x, const CheckContext&) {
    return x.src.elements() == x.dst.elements();
  }
  static constexpr Predicate kNumElements = pe_rule<L, same_elements>(
      {.name = "d3_mm_num_elements",
       .convention = "PROJ-CONV-F14",
       .meaning = "src and dst patterns have the same number of elements",
       .fields = fCounts,
       .explain = [](const Instruction& i, const CheckContext&) {
         return fmt::format("src has {} elements, dst has {}", v(i).src.elements(), v(i).dst.elements());
       }});

  /// valid_mm_sbuf_quadrant (src) / valid_mm_psum_quadrant (dst): one rule over either operand's start.
  template <bool Dst>
  struct Quadrant {
    static constexpr FieldRef kFields[] = {field_ref<L>(Dst ? "dst.start_addr" : "src.start_addr")};
    static const Addr4& start(const PeView& x) { return Dst ? x.dst.start_addr : x.src.start_addr; }
    [[gnu::always_inline]] static bool ok(const PeView& x, const CheckContext& c) {
      return quadrant_ok(start(x), c.gen);
    }
    static constexpr Predicate kPredicate =
        pe_rule<L, ok>({.name = Dst ? "valid_mm_psum_quadrant" : "valid_mm_sbuf_quadrant",
                        .convention = "PROJ-CONV-F14",
                        .meaning = Dst ? "dst starts at a quadrant partition (0, 32, 64 or 96), or in a register"
                                       : "src starts at a quadrant partition (0, 32, 64 or 96), or in a register",
                        .fields = kFields,
                        .explain = [](const Instruction& i, const CheckContext& c) {
                          return explain_quadrant(Dst ? "dst" : "src", start(v(i)), c.gen);
                        }});
  };
  static constexpr const Predicate& kSbufQuadrant = Quadrant<false>::kPredicate;
  static constexpr const Predicate& kPsumQuadrant = Quadrant<true>::kPredicate;

  static constexpr auto perf_ref() {
    if constexpr (kMaverick)
      return std::array{field_ref<L>("perf_mode"), field_ref<L>("in_dtype")};
    else
      return std::array{field_ref<L>("perf_opt"), field_ref<L>("in_dtype")};
  }
  static constexpr auto fPerf = perf_ref();
  [[gnu::always_inline]] static bool perf_ok(const PeView& x, const CheckContext&) {
    return x.perf == 0 || dtype_size(x.in_dtype) == 1;
  }
  static constexpr Predicate kPerf =
      pe_rule<L, perf_ok>({.name = "d3_mm_perf_opt_dtype",
                           .convention = "PROJ-CONV-F14",
                           .meaning = "a performance mode (perf_opt != 0) needs a 1-byte in_dtype",
                           .fields = fPerf,
                           .explain = [](const Instruction& i, const CheckContext& c) {
                             return fmt::format("perf mode {} needs a 1-byte in_dtype, got {}", v(i).perf,
                                                dtype_label(v(i).in_dtype, c.gen));
                           }});

  /// The hook's body (PROJ-CONV-F15): holds on every word until the restrictions are known.
  static bool fp32r_ok(const PeView&, const CheckContext&) { return true; }
  static constexpr Predicate kFp32r = pe_rule<L, fp32r_ok>(
      {.name = "d3_mm_fp32r_restrictions",
       .convention = "PROJ-CONV-F15",
       .meaning = "body UNKNOWN: true behind a hook (PROJ-CONV-F15)",
       .fields = P::kInDtypeFields,
       .explain = [](const Instruction&, const CheckContext&) { return std::string("never fails (PROJ-CONV-F15)"); }});

  static constexpr auto conjuncts() {
    if constexpr (kMaverick)
      return std::array<const Predicate*, 17>{&kHasValidNeuronHeader,
                                              &kHasValidNeuronEvents,
                                              &P::kOpcode,
                                              &kEnginePlacement,
                                              &kReserved,
                                              &P::kInDtype,
                                              &kOutDtype,
                                              &P::kFp32Mode,
                                              &kAccumulate,
                                              &kRows,
                                              &kSrc,
                                              &kDst,
                                              &kNumElements,
                                              &kSbufQuadrant,
                                              &kPsumQuadrant,
                                              &kPerf,
                                              &kFp32r};
    else
      return std::array<const Predicate*, 22>{&kHasValidNeuronHeader,
                                              &kHasValidNeuronEvents,
                                              &P::kOpcode,
                                              &kEnginePlacement,
                                              &kReserved,
                                              &P::kInDtype,
                                              &kOutDtype,
                                              &P::kFp32Mode,
                                              &P::kTranspose,
                                              &kAccumulate,
                                              &kZeroRegion,
                                              &kRows,
                                              &kCols,
                                              &P::kRowGroup,
                                              &P::kColGroup,
                                              &kSrc,
                                              &kDst,
                                              &kNumElements,
                                              &kSbufQuadrant,
                                              &kPsumQuadrant,
                                              &kPerf,
                                              &kFp32r};
  }
};

// ---- Validators: one per layout; SUNDA shares CAYMAN's (PROJ-CONV-F19) ----

template <class L>
constexpr auto kLwConjuncts = Lw<L>::conjuncts();
template <class L>
constexpr auto kMmConjuncts = Mm<L>::conjuncts();

template <const auto& Conjuncts>
constexpr Validator make_validator(std::string_view name) {
  static_assert(fast_acceptor<Conjuncts>() != nullptr, "every matmul predicate has a raw form");
  return full_validator<Conjuncts>(name);
}

// One validator per layout: the generations of each row are its layout's (SUNDA and CAYMAN share one).
constexpr Validator kLwCayman = make_validator<kLwConjuncts<S3LwCayman>>("is_valid_ldweights");
constexpr Validator kLwMariana = make_validator<kLwConjuncts<S3LwMariana>>("is_valid_ldweights_mariana");
constexpr Validator kLwMaverick = make_validator<kLwConjuncts<S3LwMaverick>>("is_valid_ldweights_maverick");
constexpr Validator kMmCayman = make_validator<kMmConjuncts<S3d3MmCayman>>("is_valid_matmul");
constexpr Validator kMmMariana = make_validator<kMmConjuncts<S3d3MmMariana>>("is_valid_matmul_mariana");
constexpr Validator kMmMaverick = make_validator<kMmConjuncts<S3d3MmMaverick>>("is_valid_matmul_maverick");

constexpr ValidatorRow kRows[] = {
    {opcode::kLdWeights, &kLwCayman, S3LwCayman::kGens},     {opcode::kLdWeights, &kLwMariana, S3LwMariana::kGens},
    {opcode::kLdWeights, &kLwMaverick, S3LwMaverick::kGens}, {opcode::kMatmul, &kMmCayman, S3d3MmCayman::kGens},
    {opcode::kMatmul, &kMmMariana, S3d3MmMariana::kGens},    {opcode::kMatmul, &kMmMaverick, S3d3MmMaverick::kGens},
};
constexpr Validation kValidation = validator_table<MatmulFamily, kRows>();

}  // namespace

const Validation& MatmulFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
