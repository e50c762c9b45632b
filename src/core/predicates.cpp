// Bodies of the common validity predicates (common-formats.md §10) and their per-generation profiles.
#include "core/predicates.hpp"

namespace tpbisa::pred {

bool has_valid_neuron_header(const Header& h, Generation g) {
  return opcode_in(h.opcode, g) && h.opcode != opcode::kInvalid && h.inst_word_len == kInstWordLen;
}

bool has_valid_neuron_events(const Events& e, Generation g) {
  return wait_mode_in(e.wait_mode, g) && update_mode_in(e.update_mode, g);
}

bool is_valid_dtype(uint8_t d, bool allow_fp32r, const CheckContext& ctx, std::string_view* via) {
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

bool tensor_start_addr_valid(const Addr4& a, uint8_t d, bool write, bool allow_psum, bool allow_sbuf, Generation g) {
  // Only the exact register marker 0x80 with clean reserved bytes bypasses the placement checks; every other
  // marker is judged on its masked bits (common-formats.md §10.6).
  const Addr4Meaning m = describe(a, g);
  if (m.placed_at_run_time()) return true;
  const bool in_psum = m.target.region == Region::Psum;
  const bool in_sbuf = m.target.region == Region::Sbuf;
  return addr_aligned_dtype(a.raw, d) && (in_psum || in_sbuf) && (allow_psum || !in_psum) && (allow_sbuf || !in_sbuf) &&
         (dtype_size(d) == 4 || !in_psum || !write);
}

namespace {
bool channels_fit(const PartitionAddress& p, unsigned n, Generation g) {
  if (p.region == Region::Outside) return false;
  const Geometry& geo = geometry(g);
  return p.partition + n <= (p.region == Region::Psum ? geo.psum_partitions : geo.sbuf_partitions);
}
}  // namespace

bool tpb_addr_active_channels(uint32_t ptr, unsigned n, Generation g) {
  return channels_fit(decode_partition_offset(ptr, g), n, g);
}

bool start_addr_active_channels(const Addr4& a, unsigned n, Generation g) {
  const Addr4Meaning m = describe(a, g);
  return m.from_register || channels_fit(m.target, n, g);
}

bool is_aligned_start_addr8(const Addr8& a, uint8_t d, Generation g) {
  return describe(a, g).mode != Addr8Mode::Immediate || addr_aligned_dtype(a.raw, d);
}

bool tensor2d_valid(const Tensor2d& t, uint8_t d, bool write, bool allow_psum, bool allow_sbuf, Generation g) {
  return counts_nonzero(t.num_elem, t.start_addr, g) &&
         tensor_start_addr_valid(t.start_addr, d, write, allow_psum, allow_sbuf, g);
}

bool tensor4d_valid(const Tensor4d& t, uint8_t d, bool write, bool allow_psum, bool allow_sbuf, Generation g) {
  return counts_nonzero(t.num_elem, t.start_addr, g) &&
         tensor_start_addr_valid(t.start_addr, d, write, allow_psum, allow_sbuf, g);
}

}  // namespace tpbisa::pred
