// Bodies of the common validity predicates (common-formats.md §10), as small pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "tpbisa/address.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::pred {

/// is_valid_enum(OPCODE) ∧ inst_word_len == 16; INVALID (0xFF) rejected (PROJ-CONV-C11).
bool has_valid_neuron_header(const Header& h, Generation g);
/// is_valid_enum(WAIT_MODE) ∧ is_valid_enum(UPDATE_MODE); the consistency term is true (PROJ-CONV-M1).
bool has_valid_neuron_events(const Events& e, Generation g);

/// is_valid_dtype(d, allow_fp32r); `via` names the failing term.
bool is_valid_dtype(uint8_t d, bool allow_fp32r, const CheckContext& ctx, std::string_view* via = nullptr);

/// check_active_channels(n): n != 0 ∧ n <= POOLING_NUM_CHANNELS (the generation's geometry).
inline bool check_active_channels(unsigned n, Generation g) {
  return n != 0 && n <= geometry(g).channels;
}
/// has_valid_active_channel_range(n, max).
constexpr bool has_valid_active_channel_range(unsigned n, unsigned max) {
  return 1 <= n && n <= max;
}

/// addr_aligned_dtype (PROJ-CONV-C14: sub-byte codes 1-aligned, codes without a size never aligned).
constexpr bool addr_aligned_dtype(uint64_t addr, uint8_t d) {
  const unsigned size = dtype_size(d);
  return size != 0 && (addr & (size - 1)) == 0;  // sizes are powers of two (checked in the catalog)
}

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

/// Element counts >= 1 in every dimension, or the shape comes from a register (CAYMAN+).
template <size_t N>
[[gnu::always_inline]] inline bool counts_nonzero(const std::array<uint16_t, N>& num, const Addr4& start,
                                                  Generation g) {
  if (has_shape_escape(g) && describe(start, g).shape_from_register) return true;
  for (uint16_t n : num)
    if (n < 1) return false;
  return true;
}

[[gnu::always_inline]] inline bool tensor2d_valid(const Tensor2d& t, uint8_t d, bool write, bool allow_psum,
                                                  bool allow_sbuf, Generation g) {
  return counts_nonzero(t.num_elem, t.start_addr, g) &&
         tensor_start_addr_valid(t.start_addr, d, write, allow_psum, allow_sbuf, g);
}
[[gnu::always_inline]] inline bool tensor4d_valid(const Tensor4d& t, uint8_t d, bool write, bool allow_psum,
                                                  bool allow_sbuf, Generation g) {
  return counts_nonzero(t.num_elem, t.start_addr, g) &&
         tensor_start_addr_valid(t.start_addr, d, write, allow_psum, allow_sbuf, g);
}

/// is_aligned_start_addr8(a, d): !addr8_addr_immediate(a) ∨ addr % type_size(d) == 0.
[[gnu::always_inline]] inline bool is_aligned_start_addr8(const Addr8& a, uint8_t d, Generation g) {
  return describe(a, g).mode != Addr8Mode::Immediate || addr_aligned_dtype(a.raw, d);
}

}  // namespace tpbisa::pred
