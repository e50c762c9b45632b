// Bodies of the common validity predicates (common-formats.md §10), as small pure functions.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "tpbisa/address.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::pred {

// The header and dtype bodies are constexpr: the raw-word acceptor's tables (families/fast_accept.hpp) are built from
// them at compile time, so the hot path reads a constant table with no initialisation guard.

/// is_valid_enum(OPCODE) ∧ inst_word_len == 16; INVALID (0xFF) rejected (PROJ-CONV-C11).
constexpr bool has_valid_neuron_header(const Header& h, Generation g) {
  return opcode_in(h.opcode, g) && h.opcode != opcode::kInvalid && h.inst_word_len == kInstWordLen;
}
/// is_valid_enum(WAIT_MODE) ∧ is_valid_enum(UPDATE_MODE); the consistency term is true (PROJ-CONV-M1).
bool has_valid_neuron_events(const Events& e, Generation g);

/// is_valid_dtype(d, allow_fp32r); `via` names the failing term.
constexpr bool is_valid_dtype(uint8_t d, bool allow_fp32r, const CheckContext& ctx, std::string_view* via = nullptr) {
  auto fail = [&](std::string_view term) {
    if (via != nullptr) *via = term;
    return false;
  };
  if (d == dtype::kInvalid) return fail("d != INVALID");
  if (d == dtype::kFp32r && !allow_fp32r) return fail("d != FP32R");
  if (d == dtype::kUint64 || d == dtype::kInt64) return fail("d != UINT64 && d != INT64");
  if (ctx.gen == Generation::Maverick && (d == dtype::kFp4Exp2 || d == dtype::kInt4))
    return fail("dtype_4bit_illegal_check");
  if (ctx.gen == Generation::Maverick && d >= dtype::kSfp8E8 && d <= dtype::kSfp8E5)
    return fail("dtype_scale_illegal_check");
  const bool member = ctx.options.dtype_enum_runtime ? d <= 0x0F : dtype_in(d, ctx.gen);
  if (!member) return fail("is_valid_enum(DTYPE)");
  return true;
}

/// check_active_channels(n): n != 0 ∧ n <= POOLING_NUM_CHANNELS (the generation's geometry).
inline bool check_active_channels(unsigned n, Generation g) {
  return n != 0 && n <= geometry(g).channels;
}
/// has_valid_active_channel_range(n, max).
constexpr bool has_valid_active_channel_range(unsigned n, unsigned max) {
  return 1 <= n && n <= max;
}

namespace detail {
/// Per dtype code, the address bits that must be zero: size - 1 (sizes are powers of two, checked in the catalog), or
/// for a code without a size the top bit, which the address test below always sets: one load and one test per
/// operand instead of a size test and a mask computed from it.
constexpr std::array<uint64_t, 256> make_align_masks() {
  std::array<uint64_t, 256> m{};
  for (unsigned d = 0; d < 256; ++d) {
    const unsigned size = dtype_size(static_cast<uint8_t>(d));
    m[d] = size != 0 ? uint64_t{size} - 1 : uint64_t{1} << 63;
  }
  return m;
}
inline constexpr std::array<uint64_t, 256> kAlignMasks = make_align_masks();
}  // namespace detail
/// addr_aligned_dtype (PROJ-CONV-C14: sub-byte codes 1-aligned, codes without a size never aligned).
constexpr bool addr_aligned_dtype(uint64_t addr, uint8_t d) {
  // size != 0 && addr % size == 0 (the top bit or-ed in is never in a sized code's mask).
  return ((addr | uint64_t{1} << 63) & detail::kAlignMasks[d]) == 0;
}
static_assert(addr_aligned_dtype(0x1000, dtype::kFp32) && !addr_aligned_dtype(0x1002, dtype::kFp32) &&
                  addr_aligned_dtype(0x1002, dtype::kBfloat16) && !addr_aligned_dtype(0, dtype::kInvalid),
              "aligned to a sized code's size; never for a code without a size");

// The address predicates are inline: the raw-word acceptor (families/fast_accept.hpp) calls them per operand and
// inlines them with the address decode, so only the fields they read are computed.

/// tensor_start_addr_valid(a, d, write, allow_psum, allow_sbuf) (common-formats.md §10.6).
[[gnu::always_inline]] inline bool tensor_start_addr_valid(const Addr4& a, uint8_t d, bool write, bool allow_psum,
                                                           bool allow_sbuf, Generation g) {
  // Only the exact register marker 0x80 with clean reserved bytes bypasses the placement checks; every other
  // marker is judged on its masked bits (common-formats.md §10.6).
  const Addr4Meaning m = describe(a, g);
  if (m.placed_at_run_time()) return true;
  const bool in_psum = m.target.region == Region::Psum;
  const bool in_sbuf = m.target.region == Region::Sbuf;
  return addr_aligned_dtype(a.raw, d) && (in_psum || in_sbuf) && (allow_psum || !in_psum) && (allow_sbuf || !in_sbuf) &&
         (dtype_size(d) == 4 || !in_psum || !write);
}

namespace detail {
/// n partitions from p's fit in its region.
[[gnu::always_inline]] inline bool channels_fit(const PartitionAddress& p, unsigned n, Generation g) {
  if (p.region == Region::Outside) return false;
  const Geometry& geo = geometry(g);
  return p.partition + n <= (p.region == Region::Psum ? geo.psum_partitions : geo.sbuf_partitions);
}
}  // namespace detail

/// start_addr_active_channels (PROJ-CONV-C15).
[[gnu::always_inline]] inline bool start_addr_active_channels(const Addr4& a, unsigned n, Generation g) {
  const Addr4Meaning m = describe(a, g);
  return m.from_register || detail::channels_fit(m.target, n, g);
}
/// tpb_addr_active_channels (PROJ-CONV-C15): a raw PartitionOffset, masked, no register case.
[[gnu::always_inline]] inline bool tpb_addr_active_channels(uint32_t ptr, unsigned n, Generation g) {
  return detail::channels_fit(decode_partition_offset(ptr, g), n, g);
}
/// is_valid_imm_reg (PROJ-CONV-S4): regnum < kNumRegisters (64) and reserved bytes zero.
constexpr bool is_valid_imm_reg(const ImmVal& v) {
  return v.regnum() < kNumRegisters && v.reg_reserved() == 0;
}

/// The shape_from_register escape exists on CAYMAN and later (PROJ-CONV-C18 for SUNDA).
constexpr bool has_shape_escape(Generation g) {
  return g != Generation::Sunda;
}

// ---- Element counts as one integer ----
// A pattern's 16-bit counts are tested as one integer (four counts in a u64, two in a u32), not in a loop over the
// array: the raw-word acceptor loads that integer straight from the word (fast_accept.hpp, raw_counts), the decoded
// path gets it from the array (packed_counts). Lane order does not matter to any test here (every lane non-zero,
// equal count vectors, the product of the lanes), so the host's byte order does not either.

/// The integer that holds N 16-bit counts (N = 2 or 4).
template <size_t N>
using PackedCounts = std::conditional_t<N == 4, uint64_t, uint32_t>;

/// The counts of a pattern as one integer, in the host's lane order.
template <size_t N>
requires(N == 2 || N == 4)
    [[gnu::always_inline]] constexpr PackedCounts<N> packed_counts(const std::array<uint16_t, N>& num) {
  return std::bit_cast<PackedCounts<N>>(num);
}

/// Every 16-bit lane of v is non-zero (SWAR): a lane's low 15 bits plus 0x7FFF reach its top bit unless they are
/// all zero, and never carry out of the lane; or-ing v in covers a lane whose only set bit is the top one.
template <class U>
[[gnu::always_inline]] constexpr bool lanes_nonzero(U v) {
  constexpr U kLow = static_cast<U>(0x7FFF7FFF7FFF7FFFULL);
  constexpr U kHigh = static_cast<U>(0x8000800080008000ULL);
  return ((((v & kLow) + kLow) | v) & kHigh) == kHigh;
}

/// The product of the 16-bit lanes (t2d/t4d element count); exact: four 16-bit factors fit in 64 bits.
template <class U>
[[gnu::always_inline]] constexpr uint64_t lanes_product(U v) {
  uint64_t n = 1;
  for (unsigned k = 0; k < sizeof(U) / 2; ++k) n *= (v >> (16 * k)) & 0xFFFF;
  return n;
}

/// Two count vectors hold the same number of elements (same_element_count): equal vectors need no product.
template <class U>
[[gnu::always_inline]] constexpr bool same_element_count(U a, U b) {
  return a == b || lanes_product(a) == lanes_product(b);
}

/// Element counts >= 1 in every dimension, or the shape comes from a register (CAYMAN+).
template <class U>
[[gnu::always_inline]] inline bool counts_nonzero_packed(U counts, const Addr4& start, Generation g) {
  return lanes_nonzero(counts) || (has_shape_escape(g) && describe(start, g).shape_from_register);
}
template <size_t N>
[[gnu::always_inline]] inline bool counts_nonzero(const std::array<uint16_t, N>& num, const Addr4& start,
                                                  Generation g) {
  if constexpr (N == 2 || N == 4) {
    return counts_nonzero_packed(packed_counts(num), start, g);
  } else {
    if (has_shape_escape(g) && describe(start, g).shape_from_register) return true;
    // Each count tested at a constant index: a loop over the array kept the raw-word acceptor's view in memory
    // (zero-filled, then stored field by field) instead of in registers.
    return [&]<size_t... I>(std::index_sequence<I...>) {
      return ((num[I] != 0) && ...);
    }
    (std::make_index_sequence<N>{});
  }
}

/// tensor2d_valid / tensor4d_valid on the start address and the packed counts (the raw acceptor's entry).
template <class U>
[[gnu::always_inline]] inline bool tensor_pattern_valid(const Addr4& start, U counts, uint8_t d, bool write,
                                                        bool allow_psum, bool allow_sbuf, Generation g) {
  return counts_nonzero_packed(counts, start, g) && tensor_start_addr_valid(start, d, write, allow_psum, allow_sbuf, g);
}
[[gnu::always_inline]] inline bool tensor2d_valid(const Tensor2d& t, uint8_t d, bool write, bool allow_psum,
                                                  bool allow_sbuf, Generation g) {
  return tensor_pattern_valid(t.start_addr, packed_counts(t.num_elem), d, write, allow_psum, allow_sbuf, g);
}
[[gnu::always_inline]] inline bool tensor4d_valid(const Tensor4d& t, uint8_t d, bool write, bool allow_psum,
                                                  bool allow_sbuf, Generation g) {
  return tensor_pattern_valid(t.start_addr, packed_counts(t.num_elem), d, write, allow_psum, allow_sbuf, g);
}

/// is_aligned_start_addr8(a, d): !addr8_addr_immediate(a) ∨ addr % type_size(d) == 0.
[[gnu::always_inline]] inline bool is_aligned_start_addr8(const Addr8& a, uint8_t d, Generation g) {
  return describe(a, g).mode != Addr8Mode::Immediate || addr_aligned_dtype(a.raw, d);
}

}  // namespace tpbisa::pred
