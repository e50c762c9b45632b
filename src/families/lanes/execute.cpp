// Lanes family semantics: LOAD_MASK_SELECT writes the engine's 32-lane map (PROJ-CONV-K8), STREAM_SHUFFLE moves whole
// channels through it (alu-ops.md §3.6), STREAM_TRANSPOSE moves 32 x 32 blocks (§3.7, PROJ-CONV-K7). Raw bits only.
#include <algorithm>
#include <cstring>

#include "families/common.hpp"
#include "families/lanes/format.hpp"

namespace tpbisa::family {
namespace {

using Tr = S4d4Tr;
using Rows = std::array<uint64_t, kMaxChannels>;

/// §3.6: MASK[0..31] = mask, one DVE write per lane (every byte value accepted).
bool exec_load_mask_select(const LaneMap& m, exec::Txn& txn) {
  for (unsigned i = 0; i < lanes::kLanes; ++i) txn.stage_dve(i, DveField::Mask, 0, m.mask[i]);
  return true;
}

/// The two starts, checked in the order of PROJ-CONV-N15 step 3-4 (§2.9): every operand's addressing mode, then
/// every shape register, then the address registers, source before destination.
bool resolve_operands(const Tr& t, exec::Txn& txn, uint32_t& src, uint32_t& dst) {
  return exec::addr4_mode_supported(txn, t.src.start_addr, "src") &&
         exec::addr4_mode_supported(txn, t.dst.start_addr, "dst") &&
         exec::addr4_shape_supported(txn, t.src.start_addr, "src") &&
         exec::addr4_shape_supported(txn, t.dst.start_addr, "dst") &&
         exec::resolve_addr4(txn, t.src.start_addr, src, "src") &&
         exec::resolve_addr4(txn, t.dst.start_addr, dst, "dst");
}

/// Where destination element k of channel c comes from: the source channel and element, or nothing (the lane is left
/// unmodified). Shuffle: lane i of each 32-channel group takes lane MASK[i] of its group, element for element;
/// transpose: the PROJ-CONV-K7 image.
struct Origin {
  bool written;
  unsigned channel;
  uint64_t element;
};
Origin origin(bool transpose, const std::array<uint8_t, 32>& mask, unsigned c, uint64_t k) {
  if (transpose) {
    const TransposeSource s = transpose32_source(c, k);
    return {true, s.channel, s.element};
  }
  const uint8_t m = mask[c % lanes::kLanes];
  return {lanes::lane_selects(m), c - c % lanes::kLanes + m, k};
}

/// Writes the n bytes at `from` to `address` in place, one memory page at a time (may_write_runs_in_place held for the
/// run: every page exists, so no piece is refused).
void write_in_place(exec::Txn& txn, uint64_t address, const uint8_t* from, uint64_t n, unsigned size) {
  for (uint64_t done = 0; done < n;) {
    const uint64_t piece = std::min(n - done, SparseMemory::kPageBytes - (address + done) % SparseMemory::kPageBytes);
    uint8_t* to = txn.write_run_in_place(address + done, piece, size);
    if (to != nullptr)
      std::memcpy(to, from + done, piece);
    else
      txn.stage_block(address + done, from + done, piece, size);
    done += piece;
  }
}

/// STREAM_SHUFFLE and STREAM_TRANSPOSE: every source element of every active channel is read first, every addressed
/// destination element is range-checked (an unmodified lane's too), then the channels are written in order (K2).
bool exec_stream(const Tr& t, exec::Txn& txn) {
  const bool transpose = t.header.opcode == lanes::kStreamTranspose;
  if (!element_dtype_supported(txn, t.in_dtype, "in") || !element_dtype_supported(txn, t.out_dtype, "out"))
    return false;
  uint32_t src = 0, dst = 0;
  if (!resolve_operands(t, txn, src, dst)) return false;
  const unsigned nac = t.num_active_channels, size = dtype_size(t.in_dtype);
  const uint64_t n = t.src.elements(), m = std::min(t.dst.elements(), n);
  if (n * nac > txn.options().max_elements_per_instruction)
    return txn.fail(FaultKind::ResourceLimit,
                    fmt::format("{} elements x {} channels exceed the per-instruction bound of {}", n, nac,
                                txn.options().max_elements_per_instruction));
  Rows sr{}, dr{};
  const bool src_rows = exec::forward_runs(txn, src, t.src, nac, n, size, sr);
  const bool dst_rows = exec::forward_runs(txn, dst, t.dst, nac, m, size, dr);
  uint64_t a = 0;
  for (unsigned c = 0; c < nac && !src_rows; ++c)
    for (uint64_t k = 0; k < n; ++k)
      if (!onchip_at(txn, src, t.src, c, k, size, "source", a)) return false;
  for (unsigned c = 0; c < nac && !dst_rows; ++c)
    for (uint64_t k = 0; k < m; ++k)
      if (!onchip_at(txn, dst, t.dst, c, k, size, "destination", a)) return false;
  // The source image, channel after channel in flat order.
  EffectLog::Bytes& image = txn.scratch().bytes_a;
  image.resize(nac * n * size);
  for (unsigned c = 0; c < nac; ++c) {
    uint8_t* row = image.data() + c * n * size;
    if (src_rows) {
      txn.read_block(sr[c], n * size, size, row);
      continue;
    }
    for (uint64_t k = 0; k < n; ++k) {
      onchip_at(txn, src, t.src, c, k, size, "source", a);
      const uint64_t v = txn.read_mem(a, size);
      std::memcpy(row + k * size, &v, size);  // little-endian host (the project's byte order)
    }
  }
  const std::array<uint8_t, 32>& mask = txn.engine().mask_select;
  EffectLog::Bytes& out = txn.scratch().bytes_b;
  out.resize(m * size);
  // Every check has passed and the sources are all in `image`: where the destination pages exist, the untraced
  // shuffle writes its rows straight into memory (nothing after this can fault, and no source is read again).
  const bool in_place = !transpose && dst_rows && txn.may_write_runs_in_place(dr.data(), nac, m * size);
  for (unsigned c = 0; c < nac; ++c) {
    if (!transpose && dst_rows) {  // a shuffled channel is one source row, element for element
      const Origin o = origin(false, mask, c, 0);
      if (!o.written || o.channel >= nac) continue;
      const uint8_t* from = image.data() + o.channel * n * size;
      if (in_place)
        write_in_place(txn, dr[c], from, m * size, size);
      else
        txn.stage_block(dr[c], from, m * size, size);
      continue;
    }
    bool any = false;
    for (uint64_t k = 0; k < m; ++k) {
      const Origin o = origin(transpose, mask, c, k);
      if (!o.written || o.channel >= nac || o.element >= n) continue;  // a valid word never takes the last two
      any = true;
      const uint8_t* from = image.data() + (o.channel * n + o.element) * size;
      if (dst_rows) {
        std::memcpy(out.data() + k * size, from, size);
        continue;
      }
      uint64_t v = 0;
      std::memcpy(&v, from, size);
      onchip_at(txn, dst, t.dst, c, k, size, "destination", a);
      txn.stage_mem(a, size, v);
    }
    if (dst_rows && any) txn.stage_block(dr[c], out.data(), m * size, size);
  }
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (!engine_runs(inst, txn)) return false;
  if (const auto* m = inst.as<LaneMap>()) return exec_load_mask_select(*m, txn);
  if (const auto* t = inst.as<Tr>();
      t != nullptr && (inst.opcode() == lanes::kStreamShuffle || inst.opcode() == lanes::kStreamTranspose))
    return exec_stream(*t, txn);
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("execution of {} ({:#04x}) is not modeled", inst.name(), inst.opcode()));
}

/// The stream opcodes read src and write dst on num_active_channels partitions; LOAD_MASK_SELECT touches no memory.
Footprint operand_footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const auto* t = inst.as<Tr>()) {
    add_tensor_footprint(f, "src", t->src, dtype_size(t->in_dtype), t->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", t->dst, dtype_size(t->out_dtype), t->num_active_channels, true, g);
  }
  return f;
}

}  // namespace

const Execution& LanesFamily::execution() {
  static const Execution kExecution{.execute = execute, .footprint = operand_footprint, .unit_state = unit_state()};
  return kExecution;
}

}  // namespace tpbisa::family
