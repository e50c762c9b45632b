// Sync family semantics in a NEFF run (real-programs.md §3.3, §5-§7.3): EventSemaphore's extended update
// (its two waits are the machine's, PROJ-CONV-F3), SetOrderingMode and PseudoBranchLabel as no-ops (F6, F7),
// and PseudoDmaDirect2d as a synchronous strided copy with conversion and its completion increment (F9-F12).
#include <cstring>

#include "families/common.hpp"
#include "families/sync/format.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

/// EventSemaphore: the lane-0 update is the machine's (EVENTS); the extended lane's update follows it (F3).
bool exec_event_semaphore(const CtrlEs& es, exec::Txn& txn) {
  return exec::stage_event_update(txn, es.ext.update_mode, es.ext.update_idx, es.ext.sem_update_value);
}

/// One resolved DMA side: a DRAM variable, or the core's SBUF (state-buffer variable).
struct Side {
  const DramVar* var = nullptr;
  uint64_t offset = 0;  ///< byte offset in the variable (SBUF: a PartitionOffset)
  uint64_t chunk = 0;   ///< bytes per innermost chunk
  std::array<int64_t, 2> step{};
  std::array<uint64_t, 2> num{};
  uint64_t bytes() const { return chunk * num[0] * num[1]; }
};

uint64_t chunk_bytes(uint16_t esz) {
  return esz == 0 ? 65536 : esz;  // 0 means 65 536 (§7.1)
}

/// resolve() of §7.3: the variable (mode 0x10 var_id, 0x20 dge-table entry) and the 64-bit offset.
bool resolve(exec::Txn& txn, const PseudoAddr8& a, uint8_t offset_reg, std::string_view which, Side& out) {
  DramView* dram = txn.dram();
  const uint32_t id = uint32_t{a.id} | uint32_t{a.id_hi} << 16;
  uint32_t var_id = 0;
  if (a.mode == 0x10) {
    var_id = id;
  } else if (a.mode == 0x20) {
    if (id >= dram->dge_table.size())
      return txn.fail(FaultKind::OutOfRange, fmt::format("{} names dge-table entry {}; the subgraph's table has {} "
                                                         "(PROJ-CONV-F12)",
                                                         which, id, dram->dge_table.size()));
    var_id = dram->dge_table[id];
  } else {
    return txn.fail(FaultKind::UnsupportedAddressingMode,
                    fmt::format("{} PSEUDO_ADDR8 mode {:#04x} is not modeled (0x10 and 0x20 are)", which, a.mode));
  }
  out.var = dram->var(var_id);
  if (out.var == nullptr)
    return txn.fail(FaultKind::OutOfRange,
                    fmt::format("{} names variable {}, which the subgraph does not declare", which, var_id));
  out.offset = a.offset;  // zero-extended to 64 bits before any arithmetic (§7.3 Widths)
  if ((offset_reg & 0x80) != 0) out.offset += txn.reg(offset_reg & 0x3F);
  return true;
}

/// The address of chunk (j0, j1): DRAM byte offset, or the SBUF Neuron address. Fails when the chunk leaves
/// the variable (or an SBUF partition's active bytes).
bool chunk_at(exec::Txn& txn, const Side& s, uint64_t j0, uint64_t j1, std::string_view which, uint64_t& at) {
  const int64_t delta = static_cast<int64_t>(j0) * s.step[0] + static_cast<int64_t>(j1) * s.step[1];
  const uint64_t off = s.offset + static_cast<uint64_t>(delta);
  if (delta < 0 && static_cast<uint64_t>(-delta) > s.offset)
    return txn.fail(FaultKind::OutOfRange,
                    fmt::format("{} chunk ({}, {}) starts before variable {}", which, j0, j1, s.var->name));
  if (!s.var->state_buffer) {
    if (off > s.var->size || s.chunk > s.var->size - off)
      return txn.fail(FaultKind::OutOfRange,
                      fmt::format("{} chunk ({}, {}) at byte {} + {} leaves variable {} of {} bytes", which, j0, j1,
                                  off, s.chunk, s.var->name, s.var->size));
    at = off;
    return true;
  }
  const Geometry& geo = geometry(txn.gen());
  const uint64_t partition = off / geo.sbuf_partition_size, byte = off % geo.sbuf_partition_size;
  if (partition >= geo.sbuf_partitions || byte + s.chunk > geo.sbuf_partition_active)
    return txn.fail_at(FaultKind::OutOfRange, off,
                       fmt::format("{} chunk ({}, {}) at SBUF partition {} byte {:#x} + {} leaves the partition's "
                                   "active bytes",
                                   which, j0, j1, partition, byte, s.chunk));
  at = uint64_t{geo.sbuf_offset} + off;
  return true;
}

bool exec_dma(const PseudoDmaDirect2d& d, exec::Txn& txn) {
  if (!txn.options().neff_mode || txn.dram() == nullptr)
    return txn.fail(FaultKind::PseudoNotLowered,
                    "PseudoDmaDirect2d runs only in a NEFF run (PROJ-CONV-F9); lower it first (PROJ-CONV-C12)");
  if (d.command != 0 && d.command != 3)
    return txn.fail(FaultKind::UnsupportedOpcode,
                    fmt::format("DMA command {} is not modeled (0 and 3 copy, PROJ-CONV-F10)", d.command));
  Side src, dst;
  if (!resolve(txn, d.src, d.src_offset_reg, "src", src) || !resolve(txn, d.dst, d.dst_offset_reg, "dst", dst))
    return false;
  src.chunk = chunk_bytes(d.src_elem_size);
  dst.chunk = chunk_bytes(d.dst_elem_size);
  for (unsigned i = 0; i < 2; ++i) {
    src.step[i] = d.src_step[i];
    dst.step[i] = d.dst_step[i];
    src.num[i] = d.src_num[i];
    dst.num[i] = d.dst_num[i];
  }
  const bool convert = d.src_dtype != d.dst_dtype;
  const unsigned zs = dtype_size(d.src_dtype), zd = dtype_size(d.dst_dtype);
  if (convert &&
      (!element_dtype_supported(txn, d.src_dtype, "src") || !element_dtype_supported(txn, d.dst_dtype, "dst")))
    return false;
  const uint64_t sbytes = src.bytes(), dbytes = dst.bytes();
  const bool counts_match =
      convert ? zs != 0 && zd != 0 && sbytes % zs == 0 && dbytes % zd == 0 && sbytes / zs == dbytes / zd
              : sbytes == dbytes;
  if (!counts_match)
    return txn.fail(FaultKind::OutOfRange, fmt::format("the DMA reads {} bytes of {} and writes {} bytes of {}: "
                                                       "not the same element count (PROJ-CONV-F8)",
                                                       sbytes, dtype_label(d.src_dtype, txn.gen()), dbytes,
                                                       dtype_label(d.dst_dtype, txn.gen())));
  if (dst.var->writable == nullptr && !dst.var->state_buffer)
    return txn.fail(FaultKind::OutOfRange, fmt::format("the DMA writes variable {}, which is read-only (an input "
                                                       "or a constant)",
                                                       dst.var->name));
  // Check every chunk of both sides, then gather, convert and scatter (a fault changes nothing).
  uint64_t at = 0;
  for (uint64_t j1 = 0; j1 < src.num[1]; ++j1)
    for (uint64_t j0 = 0; j0 < src.num[0]; ++j0)
      if (!chunk_at(txn, src, j0, j1, "source", at)) return false;
  for (uint64_t j1 = 0; j1 < dst.num[1]; ++j1)
    for (uint64_t j0 = 0; j0 < dst.num[0]; ++j0)
      if (!chunk_at(txn, dst, j0, j1, "destination", at)) return false;
  EffectLog& s = txn.scratch();
  std::vector<uint8_t>& bytes = s.bytes_a;
  bytes.resize(sbytes);
  uint64_t k = 0;
  for (uint64_t j1 = 0; j1 < src.num[1]; ++j1)
    for (uint64_t j0 = 0; j0 < src.num[0]; ++j0, k += src.chunk) {
      chunk_at(txn, src, j0, j1, "source", at);
      if (!src.var->state_buffer) {
        std::memcpy(bytes.data() + k, src.var->data + at, src.chunk);
        txn.note_dram(src.var->data, at, src.chunk, false);
        continue;
      }
      // SBUF in accesses of 8 bytes, the last one shorter (as blocks: the whole ones, then the tail).
      const uint64_t whole = src.chunk / 8 * 8;
      txn.read_block(at, whole, 8, bytes.data() + k);
      if (whole != src.chunk)
        txn.read_block(at + whole, src.chunk - whole, static_cast<unsigned>(src.chunk - whole),
                       bytes.data() + k + whole);
    }
  const std::vector<uint8_t>* moved = &bytes;
  if (convert) {
    std::vector<uint8_t>& conv = s.bytes_b;
    const uint64_t count = sbytes / zs;
    conv.resize(count * zd);
    for (uint64_t e = 0; e < count; ++e) {
      uint64_t raw = 0;
      for (unsigned i = 0; i < zs; ++i) raw |= uint64_t{bytes[e * zs + i]} << (8 * i);
      const uint64_t v = from_fp32_bits(to_fp32_bits(raw, d.src_dtype), d.dst_dtype, txn.options().convert);
      for (unsigned i = 0; i < zd; ++i) conv[e * zd + i] = static_cast<uint8_t>(v >> (8 * i));
    }
    moved = &conv;
  }
  k = 0;
  for (uint64_t j1 = 0; j1 < dst.num[1]; ++j1)
    for (uint64_t j0 = 0; j0 < dst.num[0]; ++j0, k += dst.chunk) {
      chunk_at(txn, dst, j0, j1, "destination", at);
      if (!dst.var->state_buffer) {
        txn.stage_dram(dst.var->writable + at, moved->data() + k, dst.chunk);
        txn.note_dram(dst.var->data, at, dst.chunk, true);
        continue;
      }
      const uint64_t whole = dst.chunk / 8 * 8;
      txn.stage_block(at, moved->data() + k, whole, 8);
      if (whole != dst.chunk)
        txn.stage_block(at + whole, moved->data() + k + whole, dst.chunk - whole,
                        static_cast<unsigned>(dst.chunk - whole));
    }
  txn.add_dma_bytes(dbytes);
  // Completion: the semaphore rises by sem_increment after the data have moved (PROJ-CONV-F9).
  txn.stage_sem(d.semaphore, false, txn.sem(d.semaphore) + d.sem_increment, false);
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const auto* es = inst.as<CtrlEs>()) return exec_event_semaphore(*es, txn);
  if (inst.as<SetOrderingMode>() != nullptr) return true;  // PROJ-CONV-F6: no-op for every value
  if (inst.as<PseudoBranchLabel>() != nullptr) {
    if (txn.options().neff_mode) return true;  // PROJ-CONV-F7: a no-op slot in a NEFF run
    return txn.fail(FaultKind::PseudoNotLowered,
                    "PseudoBranchLabel is a pseudo word; it runs only in a NEFF run "
                    "(PROJ-CONV-F7, PROJ-CONV-C12)");
  }
  if (const auto* d = inst.as<PseudoDmaDirect2d>()) return exec_dma(*d, txn);
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("execution of {} ({:#04x}) is not modeled", inst.name(), inst.opcode()));
}

constexpr Execution kExecution{execute};

}  // namespace

const Execution& SyncFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
