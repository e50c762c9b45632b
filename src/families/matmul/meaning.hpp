// PE matmul family: the one reading of LDWEIGHTS / MATMUL fields that the validators and decode's description share.
#pragma once

#include <bit>
#include <cstdint>
#include <string_view>
#include <variant>

#include "isa/predicates.hpp"
#include "tpbisa/address.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::family::matmul {

// ---- Field references ----

/// The fields a reserved-bytes predicate reads: every field the declaration marks reserved, then `extra`.
template <class S, size_t N>
constexpr auto reserved_refs_and(std::array<FieldRef, N> extra) {
  constexpr auto reserved = field_refs_with_role<S, Role::Reserved>();
  std::array<FieldRef, reserved.size() + N> out{};
  for (size_t k = 0; k < reserved.size(); ++k) out[k] = reserved[k];
  for (size_t k = 0; k < N; ++k) out[reserved.size() + k] = extra[k];
  return out;
}
static_assert(field_ref<S3d3MmCayman>("dst.num_elem").offset == 58 &&
              field_ref<S3d3MmCayman>("dst.num_elem").size == 6);

// ---- The generation-independent view ----

/// An LDWEIGHTS or MATMUL word read through its generation's layout. Every field whose meaning depends on the
/// layout (MAVERICK's column count 0 = 256, the accumulate flags' byte) is decided here.
struct PeView {
  bool matmul = false;
  Tensor3d src{};
  Tensor3d dst{};  ///< MATMUL only
  uint8_t in_dtype = 0;
  uint8_t fp32_mode = 0;
  bool has_transpose = false;  ///< no transpose_mode byte on MAVERICK
  uint8_t transpose_mode = 0;
  uint8_t perf = 0;  ///< perf_opt (perf_mode on MAVERICK)
  unsigned rows = 0;
  unsigned cols = 0;        ///< PE columns (MAVERICK: 0 means 256)
  unsigned max_cols = 128;  ///< 256 on MAVERICK
  bool has_groups = false;  ///< no row/column groups on MAVERICK
  uint8_t row_grp = 0;
  uint8_t col_grp = 0;
  uint8_t out_dtype = 0;
  uint8_t accumulate = 0;      ///< psum_accumulate_flags (MAVERICK: flags)
  uint8_t accumulate_max = 3;  ///< 7 on MAVERICK (BEGIN_ACCUM)
  bool has_zero_region = false;
  uint8_t zero_region = 0;
};

/// Forced inline: the raw-word acceptor calls it once per predicate, and inlined the copies collapse into the few
/// loads the bodies need (out of line, each predicate rebuilt the whole view: a quarter of the samples).
template <class L>
[[gnu::always_inline]] inline PeView view_of(const L& s, Generation g) {
  PeView v;
  v.src = s.src;
  v.in_dtype = s.in_dtype;
  v.fp32_mode = s.fp32_mode;
  v.rows = s.num_active_rows;
  if constexpr (requires { s.transpose_mode; }) {
    v.has_transpose = true;
    v.transpose_mode = s.transpose_mode;
  }
  if constexpr (requires { s.perf_opt; })
    v.perf = s.perf_opt;
  else
    v.perf = s.perf_mode;
  if constexpr (requires { s.row_grp; }) {
    v.has_groups = true;
    v.row_grp = s.row_grp;
    v.col_grp = s.col_grp;
    v.cols = s.num_active_cols;
  } else {
    v.cols = s.num_active_cols == 0 ? 256U : s.num_active_cols;
    v.max_cols = 256;
  }
  if constexpr (requires { s.dst; }) {
    v.matmul = true;
    v.dst = s.dst;
    v.out_dtype = s.out_dtype;
    if constexpr (requires { s.psum_accumulate_flags; }) {
      v.accumulate = s.psum_accumulate_flags;
    } else {
      v.accumulate = s.flags;
      v.accumulate_max = 7;
    }
    if constexpr (requires { s.psum_zero_region; }) {
      v.has_zero_region = true;
      v.zero_region = s.psum_zero_region;
    }
  }
  (void)g;
  return v;
}

/// The view of a decoded LDWEIGHTS / MATMUL word (the dispatcher has checked its format).
inline PeView view(const Instruction& i) {
  return std::visit(
      [&](const auto& s) -> PeView {
        using S = std::decay_t<decltype(s)>;
        if constexpr (S::kName == "S3_LW" || S::kName == "S3D3_MM")
          return view_of(s, i.gen);
        else
          return PeView{};
      },
      i.body);
}

// ---- Decisions shared by the validators and the description ----

/// has_valid_mm_in_dtype: FP8_EXP3, FP8_EXP4, FP8_EXP5, BFLOAT16, FP16, FP32 (real-programs.md §9.2).
constexpr bool mm_in_dtype_ok(uint8_t d) {
  return d == dtype::kFp8Exp3 || d == dtype::kFp8Exp4 || d == dtype::kFp8Exp5 || d == dtype::kBfloat16 ||
         d == dtype::kFp16 || d == dtype::kFp32;
}

/// has_valid_mm_out_dtype: 0 (FP32 accumulate) only on SUNDA/CAYMAN; 0, FP32 or BF16 on MARIANA/MAVERICK.
constexpr bool mm_out_dtype_ok(uint8_t d, Generation g) {
  if (g == Generation::Sunda || g == Generation::Cayman) return d == 0;
  return d == 0 || d == dtype::kFp32 || d == dtype::kBfloat16;
}

/// s3d3_mm_valid_fp32_mode: in_dtype FP32 ⇔ fp32_mode in {1, 2, 3}; any other in_dtype needs fp32_mode 0.
constexpr bool fp32_mode_ok(uint8_t in_dtype, uint8_t mode) {
  return in_dtype == dtype::kFp32 ? (mode >= 1 && mode <= 3) : mode == 0;
}

/// PE_FP32MODE names.
constexpr std::string_view fp32_mode_name(uint8_t mode) {
  switch (mode) {
    case 0: return "None";
    case 1: return "Low";
    case 2: return "High";
    case 3: return "Low_High";
    default: return "";
  }
}

/// The masks of the compiler's quadrant table {1, 2, 4, 8, 3, 0xC, 0xF}.
constexpr bool group_listed(uint8_t mask) {
  return mask == 0x1 || mask == 0x2 || mask == 0x4 || mask == 0x8 || mask == 0x3 || mask == 0xC || mask == 0xF;
}
namespace detail {
/// The quadrants of each 4-bit mask the table lists (popcount, taken at compile time), 0 for one it does not: one
/// nibble per mask, so the check is a shift of a constant (summing the mask's bits took 15 instructions a group).
constexpr uint64_t make_group_quadrants() {
  uint64_t q = 0;
  for (unsigned m = 0; m < 16; ++m)
    if (group_listed(static_cast<uint8_t>(m))) q |= uint64_t{static_cast<unsigned>(std::popcount(m))} << (4 * m);
  return q;
}
inline constexpr uint64_t kGroupQuadrants = make_group_quadrants();
}  // namespace detail
/// lw_valid_row_group / lw_valid_col_group: a quadrant mask of the compiler's table {1, 2, 4, 8, 3, 0xC, 0xF}
/// covering at least `n` rows (columns): 32 · popcount(mask) >= n.
constexpr bool group_ok(uint8_t mask, unsigned n) {
  const unsigned quadrants = mask < 16 ? static_cast<unsigned>(detail::kGroupQuadrants >> (4 * mask)) & 0xFU : 0U;
  return quadrants != 0 && 32U * quadrants >= n;  // listed, and covering n
}

/// LD_WEIGHT_FLAGS (MARIANA @47, MAVERICK @38; LSB first: xpose 1, scalar 2, seed 2, load_order 1): the bits whose
/// semantics are not public (xpose, scalar, seed; PROJ-CONV-PE2), and load_order FIRST_COL_FIRST (PE_LW_ORDER 1).
inline constexpr uint8_t kLwFlagsNotPublic = 0x1F;
inline constexpr uint8_t kLwFlagsFirstColFirst = 0x20;
/// BEGIN_ACCUM_MATMUL_GROUP, bit 2 of MAVERICK's accumulate flags (real-programs.md §9.6).
inline constexpr uint8_t kBeginAccum = 0x04;

/// The MATMUL_PSUM_ACCUMULATE_MODE of the flags' low two bits (enums.md §11).
constexpr std::string_view accumulate_mode_name(uint8_t flags) {
  switch (flags & 3U) {
    case 0: return "MULTI_MID";
    case 1: return "MULTI_START";
    case 2: return "MULTI_END";
    default: return "SINGLE";
  }
}

// dst_ok tests a start's alignment to an element width with a mask: every dtype size is 0 or a power of two (the
// catalog asserts it, src/catalog/catalog.cpp).

/// Bytes per destination element: the input element width in transpose mode, else FP32 (PROJ-CONV-F15).
[[gnu::always_inline]] inline unsigned dst_elem_bytes(const PeView& v) {
  return v.has_transpose && v.transpose_mode != 0 ? dtype_size(v.in_dtype) : 4U;
}

/// The byte span a TENSOR3D walk touches in each partition, relative to its start: [lo, hi] inclusive.
struct Span {
  int64_t lo = 0;
  int64_t hi = -1;  ///< < lo: the pattern has no element
  bool empty() const { return hi < lo; }
};
[[gnu::always_inline]] inline Span pattern_span(const Tensor3d& t, unsigned elem_bytes) {
  Span s;
  // The three dimensions at constant indices (a loop kept the pattern in memory in the acceptor).
  const int64_t r0 = int64_t{t.step_elem[0]} * (int64_t{t.num_elem[0]} - 1);
  const int64_t r1 = int64_t{t.step_elem[1]} * (int64_t{t.num_elem[1]} - 1);
  const int64_t r2 = int64_t{t.step_elem[2]} * (int64_t{t.num_elem[2]} - 1);
  if (t.num_elem[0] == 0 || t.num_elem[1] == 0 || t.num_elem[2] == 0) return s;
  const int64_t lo = (r0 < 0 ? r0 : 0) + (r1 < 0 ? r1 : 0) + (r2 < 0 ? r2 : 0);
  const int64_t hi = (r0 < 0 ? 0 : r0) + (r1 < 0 ? 0 : r1) + (r2 < 0 ? 0 : r2);
  s.lo = lo * elem_bytes;
  s.hi = hi * elem_bytes + elem_bytes - 1;
  return s;
}

/// The three 16-bit counts of a TENSOR3D as one integer with a fourth lane of 1: every lane is non-zero exactly
/// when the three counts are, so pred::counts_nonzero_packed (the slice's SWAR test) judges them without a loop.
[[gnu::always_inline]] inline uint64_t packed_counts3(const std::array<uint16_t, 3>& num) {
  return pred::packed_counts(std::array<uint16_t, 4>{num[0], num[1], num[2], 1});
}

/// counts_nonzero of a TENSOR3D (pred::counts_nonzero's meaning: every count non-zero, or a shape from a register
/// where the generation has that escape), on the packed counts.
[[gnu::always_inline]] inline bool counts3_nonzero(const Tensor3d& t, Generation g) {
  return pred::counts_nonzero_packed(packed_counts3(t.num_elem), t.start_addr, g);
}

/// The immediate placement of an operand start address (register forms have none).
struct Place {
  bool known = false;  ///< an immediate start inside SBUF or PSUM
  /// The parts of the decoded address the rules read (only these, so the acceptor keeps them in registers).
  struct At {
    Region region = Region::Outside;
    uint32_t partition = 0;
    uint32_t offset = 0;  ///< byte offset inside the partition
  } at{};
};
/// decode_partition_offset's region, partition and offset of an immediate start, computed with the same geometry
/// and the same address.hpp range tests, but with nothing else: the whole PartitionAddress (quadrant, bank, backed)
/// was zero-filled on the stack for each placement check, which kept the acceptor from sharing one decode of the
/// operand between its rules. tests/unit/fast_path_test.cpp compares it with decode_partition_offset.
[[gnu::always_inline]] inline Place place_of(const Addr4& a, Generation g) {
  if (a.from_register()) return Place{};
  const Geometry& geo = geometry(g);
  const uint32_t m = a.masked();
  if (addr_in_sbuf(m, g)) {
    const uint32_t rel = m - geo.sbuf_offset;
    return Place{true, {Region::Sbuf, rel >> geo.sbuf_partition_shift, rel & (geo.sbuf_partition_size - 1)}};
  }
  if (addr_in_psum(m, g)) {
    const uint32_t rel = m - geo.psum_offset;
    return Place{true, {Region::Psum, rel >> geo.psum_partition_shift, rel & (geo.psum_partition_size - 1)}};
  }
  return Place{};
}

/// The bytes an LDWEIGHTS / MATMUL operand touches (PROJ-CONV-G5): partitions [first_partition, +partitions), bytes
/// [first, last] of each, in `region`. Decode's description and the NEFF program checks both read it, so they state
/// one range. Not known for a start placed at run time (bits 31..29 not clear: a register, indirect or
/// shape-from-register form), outside SBUF and PSUM, or a pattern with no element.
struct Footprint {
  bool known = false;
  Region region = Region::Outside;
  uint32_t first_partition = 0;
  unsigned partitions = 0;
  int64_t first = 0, last = 0;
};
inline Footprint operand_footprint(const Tensor3d& t, unsigned partitions, unsigned elem_bytes, Generation g) {
  if ((t.start_addr.raw & ~kPartitionAddrMask) != 0 || elem_bytes == 0) return Footprint{};
  const Place p = place_of(t.start_addr, g);
  const Span s = pattern_span(t, elem_bytes);
  if (!p.known || s.empty()) return Footprint{};
  return Footprint{
      true, p.at.region, p.at.partition, partitions, int64_t{p.at.offset} + s.lo, int64_t{p.at.offset} + s.hi};
}
/// `src`: num_active_rows partitions of in_dtype elements.
inline Footprint src_footprint(const PeView& v, Generation g) {
  return operand_footprint(v.src, v.rows, dtype_size(v.in_dtype), g);
}
/// MATMUL's `dst`: num_active_cols output partitions (MAVERICK: 0 = 256) of dst_elem_bytes elements.
inline Footprint dst_footprint(const PeView& v, Generation g) {
  return operand_footprint(v.dst, v.cols, dst_elem_bytes(v), g);
}

/// MAVERICK has no PSUM region (PROJ-CONV-N1): a MATMUL there writes SBUF (PE convention 4).
constexpr Region dst_region(Generation g) {
  return g == Generation::Maverick ? Region::Sbuf : Region::Psum;
}

/// The destination's first and last byte inside its partition, and whether they share one 2 KiB bank.
struct DstBytes {
  bool known = false;
  int64_t first = 0, last = 0;
  bool one_bank = false;
};
[[gnu::always_inline]] inline DstBytes dst_bytes(const PeView& v, Generation g) {
  const Place p = place_of(v.dst.start_addr, g);
  const Span s = pattern_span(v.dst, dst_elem_bytes(v));
  if (!p.known || s.empty()) return DstBytes{};
  const int64_t first = int64_t{p.at.offset} + s.lo;
  const int64_t last = int64_t{p.at.offset} + s.hi;
  // first >= 0 is tested before the bank numbers are taken, and last >= first: the shift is the division by the
  // (power-of-two) bank size, without a 64-bit divide per word.
  const int64_t bank = geometry(g).psum_bank_size;
  const unsigned shift = geometry(g).psum_bank_shift;
  const bool one_bank =
      first >= 0 && bank != 0 && first >> shift == last >> shift && first >> shift < int64_t{geometry(g).psum_banks};
  // Built whole (assigning into a default DstBytes kept it on the stack: a store-forwarding stall per MATMUL).
  return DstBytes{true, first, last, one_bank};
}

}  // namespace tpbisa::family::matmul
