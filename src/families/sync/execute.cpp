// Sync family semantics in a NEFF run (real-programs.md §3.3, §5-§7.3): EventSemaphore's extended update
// (its two waits are the machine's, PROJ-CONV-F3), SetOrderingMode and PseudoBranchLabel as no-ops (F6, F7),
// and PseudoDmaDirect2d as a synchronous strided copy with conversion and its completion increment (F9-F12).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "families/common.hpp"
#include "families/sync/format.hpp"
#include "families/sync/reading.hpp"
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
  /// chunk_at's address of a chunk it has checked, without the checks: `base` is the SBUF's first Neuron address
  /// for a state-buffer side, else 0.
  uint64_t checked_at(uint64_t j0, uint64_t j1, uint64_t base) const {
    return base + offset +
           static_cast<uint64_t>(static_cast<int64_t>(j0) * step[0] + static_cast<int64_t>(j1) * step[1]);
  }
};

/// Side::checked_at's `base` for a side.
uint64_t base_of(exec::Txn& txn, const Side& s) {
  return s.var->state_buffer ? uint64_t{geometry(txn.gen()).sbuf_offset} : 0;
}

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

/// A side's chunks in transfer order (j0 fastest).
struct Walk {
  const Side& side;
  uint64_t j0 = 0, j1 = 0;
  bool done() const { return side.num[0] == 0 || j1 >= side.num[1]; }
  void next() {
    if (++j0 == side.num[0]) {
      j0 = 0;
      ++j1;
    }
  }
};

/// The bytes of a DRAM side's walk, as offsets [lo, hi) in its variable (every chunk checked to lie inside it).
std::pair<uint64_t, uint64_t> byte_hull(const Side& s) {
  int64_t lo = 0, hi = 0;
  for (unsigned i = 0; i < 2; ++i) {
    const int64_t far = static_cast<int64_t>(s.num[i] == 0 ? 0 : s.num[i] - 1) * s.step[i];
    lo += std::min<int64_t>(0, far);
    hi += std::max<int64_t>(0, far);
  }
  return {s.offset - static_cast<uint64_t>(-lo), s.offset + static_cast<uint64_t>(hi) + s.chunk};
}

/// True when the DMA's destination bytes may be among the bytes it reads: then its writes wait for commit, so that
/// every byte is read before any is written (§7.3). Otherwise they go to the variable at once, chunk by chunk.
bool may_overlap(const Side& src, const Side& dst) {
  if (src.var->state_buffer || dst.var->state_buffer) return false;  // a DRAM side never aliases SBUF
  const auto [slo, shi] = byte_hull(src);
  const auto [dlo, dhi] = byte_hull(dst);
  const auto s0 = reinterpret_cast<uintptr_t>(src.var->data) + slo,
             s1 = reinterpret_cast<uintptr_t>(src.var->data) + shi;
  const auto d0 = reinterpret_cast<uintptr_t>(dst.var->writable) + dlo,
             d1 = reinterpret_cast<uintptr_t>(dst.var->writable) + dhi;
  return s0 < d1 && d0 < s1;
}

/// True when no two chunks of the side share a byte: one walk level steps past every byte the level inside it covers
/// (either level may be the inner one).
bool chunks_disjoint(const Side& s) {
  const auto nested = [&](unsigned inner, unsigned outer) {
    const uint64_t in_step = static_cast<uint64_t>(std::abs(s.step[inner]));
    const uint64_t out_step = static_cast<uint64_t>(std::abs(s.step[outer]));
    if (s.num[inner] > 1 && in_step < s.chunk) return false;
    const uint64_t span = (s.num[inner] == 0 ? 0 : s.num[inner] - 1) * in_step + s.chunk;
    return s.num[outer] <= 1 || out_step >= span;
  };
  return nested(0, 1) || nested(1, 0);
}

/// The copies of a transfer's chunks, made on the step's kernel threads when it has several: the pieces are noted in
/// transfer order (their claims and reads, which count, stay on the calling thread) and copied a batch at a time,
/// each batch split across the threads. Only for pieces that go straight to memory, none overlapping another, so the
/// order of the copies cannot change a byte. With one thread each piece is copied as it comes.
class ChunkCopies {
 public:
  explicit ChunkCopies(unsigned threads) : threads_(threads) {}
  ChunkCopies(const ChunkCopies&) = delete;
  ChunkCopies& operator=(const ChunkCopies&) = delete;
  void add(uint8_t* to, const uint8_t* from, uint64_t n) {
    if (threads_ <= 1) {
      std::memcpy(to, from, n);
      return;
    }
    pieces_[count_++] = {to, from, n};
    if (count_ == kBatch) flush();
  }
  void flush() {
    const size_t count = count_, parts = std::min<size_t>(threads_, count);
    exec::for_parts(threads_, parts, [&](size_t i) {
      for (size_t k = count * i / parts; k < count * (i + 1) / parts; ++k)
        std::memcpy(pieces_[k].to, pieces_[k].from, pieces_[k].n);
    });
    count_ = 0;
  }

 private:
  struct Piece {
    uint8_t* to;
    const uint8_t* from;
    uint64_t n;
  };
  static constexpr size_t kBatch = 64;
  unsigned threads_;
  size_t count_ = 0;
  std::array<Piece, kBatch> pieces_{};
};

/// A transfer moves its chunks on several threads from this many bytes, in chunks of at least kThreadedChunk bytes:
/// smaller copies cost less than handing them to other threads.
constexpr uint64_t kThreadedBytes = uint64_t{1} << 20;
constexpr uint64_t kThreadedChunk = 4096;

/// A transfer of the common shape (no conversion, chunks of one size on both sides, nothing recorded): each source
/// chunk goes straight to its destination chunk, an SBUF chunk read in place where it is stored whole, so a chunk is
/// copied once (and once more at commit for a staged SBUF chunk), not through the streaming buffers. The same reads,
/// writes and counts as the streaming path: SBUF in accesses of 8 bytes, the last one shorter. Every chunk was checked.
void move_equal_chunks(exec::Txn& txn, const Side& src, const Side& dst, bool stage_dram) {
  const uint64_t n = src.chunk, whole = n / 8 * 8, tail = n - whole;
  EffectLog::Bytes& scratch = txn.scratch().bytes_a;
  scratch.resize(n);
  uint64_t from = 0, to = 0;
  // A load from DRAM writes its SBUF chunks where they lie, not staged and copied again at commit, when each chunk
  // is one stored span and their pages can all be made now (Txn::may_write_runs_in_place_each): past the checks
  // nothing can fault, and a DRAM source is no SBUF byte the writes could change before it is read.
  bool in_place = false;
  const uint64_t src_base = base_of(txn, src), dst_base = base_of(txn, dst);
  if (dst.var->state_buffer && !src.var->state_buffer) {
    const auto each = [&](const auto& run) {
      for (Walk dw{dst}; !dw.done(); dw.next()) run(dst.checked_at(dw.j0, dw.j1, dst_base), n);
    };
    bool spans = true;
    each([&](uint64_t at, uint64_t len) { spans = spans && exec::span_piece(at, 1, len) == len; });
    in_place = spans && txn.may_write_runs_in_place_each(each);
  }
  // A long transfer whose chunks go straight to memory (an SBUF destination written in place, a DRAM one that the
  // source cannot overlap), no two to the same bytes, is copied on the step's kernel threads.
  const bool direct = dst.var->state_buffer ? in_place : !stage_dram;
  const bool threaded = direct && n >= kThreadedChunk && src.bytes() >= kThreadedBytes && chunks_disjoint(dst);
  ChunkCopies copies(threaded ? txn.options().kernel_threads : 1);
  for (Walk sw{src}, dw{dst}; !sw.done(); sw.next(), dw.next()) {
    from = src.checked_at(sw.j0, sw.j1, src_base);  // every chunk was checked
    to = dst.checked_at(dw.j0, dw.j1, dst_base);
    const uint8_t* bytes = nullptr;
    if (!src.var->state_buffer) {
      bytes = src.var->data + from;
    } else {
      const uint8_t* head = whole != 0 ? txn.read_run(from, whole, 8, scratch.data()) : nullptr;
      const uint8_t* rest =
          tail != 0 ? txn.read_run(from + whole, tail, static_cast<unsigned>(tail), scratch.data() + whole) : nullptr;
      if (head == nullptr || rest == nullptr || rest == head + whole) {
        bytes = head != nullptr ? head : rest;
      } else {  // the two parts were found apart: gathered in the scratch
        if (head != scratch.data()) std::memcpy(scratch.data(), head, whole);
        if (rest != scratch.data() + whole) std::memcpy(scratch.data() + whole, rest, tail);
        bytes = scratch.data();
      }
    }
    if (bytes == scratch.data()) copies.flush();  // the scratch is filled again for the next chunk: copied now
    const auto copy = [&](uint8_t* at, const uint8_t* p, uint64_t len) {
      if (bytes == scratch.data())
        std::memcpy(at, p, len);
      else
        copies.add(at, p, len);
    };
    if (!dst.var->state_buffer) {
      if (stage_dram)
        txn.stage_dram(dst.var->writable + to, bytes, n);
      else
        copy(dst.var->writable + to, bytes, n);
      continue;
    }
    const auto run_to = [&](uint64_t at, uint64_t len, unsigned elem) {
      return in_place ? txn.write_run_in_place(at, len, elem) : txn.stage_run(at, len, elem);
    };
    if (whole != 0) copy(run_to(to, whole, 8), bytes, whole);
    if (tail != 0) copy(run_to(to + whole, tail, static_cast<unsigned>(tail)), bytes + whole, tail);
  }
  copies.flush();
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
  // The element accesses are bounded before any chunk is walked: its elements and the chunks of either side (a
  // chunk may be smaller than an element). 2^16 x 2^16 chunks of 2^16 bytes stay below 2^64.
  const uint64_t elements = zs != 0 ? sbytes / zs : sbytes;
  const uint64_t src_chunks = src.num[0] * src.num[1], dst_chunks = dst.num[0] * dst.num[1];
  const uint64_t most = txn.options().max_elements_per_instruction;
  if (elements > most || src_chunks > most || dst_chunks > most)
    return txn.fail(FaultKind::ResourceLimit,
                    fmt::format("the DMA moves {} elements in {} source and {} destination chunks, more than the {} "
                                "element accesses one instruction may make",
                                elements, src_chunks, dst_chunks, most));
  // Check every chunk of both sides (a fault changes nothing), then note the DRAM ranges read, then written.
  uint64_t at = 0;
  for (Walk w{src}; !w.done(); w.next())
    if (!chunk_at(txn, src, w.j0, w.j1, "source", at)) return false;
  for (Walk w{dst}; !w.done(); w.next())
    if (!chunk_at(txn, dst, w.j0, w.j1, "destination", at)) return false;
  for (const Side* side : {&src, &dst})
    if (!side->var->state_buffer)
      for (Walk w{*side}; !w.done(); w.next())  // checked above
        txn.note_dram(side->var->data, side->checked_at(w.j0, w.j1, 0), side->chunk, side == &dst);
  // Then the bytes stream through: a source chunk is read, converted, and every whole destination chunk it
  // completes is written. Nothing holds the transfer: between chunks the buffers keep less than an element and less
  // than a destination chunk, and grow to a few chunks at most (writes that wait for commit are staged, as every
  // write of a step is: SBUF, or DRAM the source may overlap).
  const bool stage_dram = !dst.var->state_buffer && may_overlap(src, dst);
  EffectLog& s = txn.scratch();
  EffectLog::Bytes& in = s.bytes_a;   // source bytes not converted yet (less than an element between chunks)
  EffectLog::Bytes& out = s.bytes_b;  // bytes for the destination from `pending` on
  in.clear();
  out.clear();
  if (!convert && src.chunk == dst.chunk && !txn.recording()) {
    move_equal_chunks(txn, src, dst, stage_dram);
    txn.add_dma_bytes(dbytes);
    txn.stage_sem(d.semaphore, false, txn.sem(d.semaphore) + d.sem_increment, false);  // PROJ-CONV-F9, as below
    return true;
  }
  size_t pending = 0;
  Walk dw{dst};
  const auto write_whole_chunks = [&] {
    for (; out.size() - pending >= dst.chunk && !dw.done(); dw.next(), pending += dst.chunk) {
      chunk_at(txn, dst, dw.j0, dw.j1, "destination", at);  // checked above: cannot fail
      const uint8_t* bytes = out.data() + pending;
      if (!dst.var->state_buffer) {
        if (stage_dram)
          txn.stage_dram(dst.var->writable + at, bytes, dst.chunk);
        else
          std::memcpy(dst.var->writable + at, bytes, dst.chunk);
        continue;
      }
      // SBUF in accesses of 8 bytes, the last one shorter (as blocks: the whole ones, then the tail).
      const uint64_t whole = dst.chunk / 8 * 8;
      txn.stage_block(at, bytes, whole, 8);
      if (whole != dst.chunk)
        txn.stage_block(at + whole, bytes + whole, dst.chunk - whole, static_cast<unsigned>(dst.chunk - whole));
    }
    if (pending >= out.size() / 2) {  // amortised: what is left is moved to the front only now and then
      out.erase(out.begin(), out.begin() + static_cast<ptrdiff_t>(pending));
      pending = 0;
    }
  };
  for (Walk w{src}; !w.done(); w.next()) {
    chunk_at(txn, src, w.j0, w.j1, "source", at);  // checked above: cannot fail
    EffectLog::Bytes& to = convert ? in : out;
    const size_t k = to.size();
    to.resize(k + src.chunk);
    if (!src.var->state_buffer) {
      std::memcpy(to.data() + k, src.var->data + at, src.chunk);
    } else {
      const uint64_t whole = src.chunk / 8 * 8;
      txn.read_block(at, whole, 8, to.data() + k);
      if (whole != src.chunk)
        txn.read_block(at + whole, src.chunk - whole, static_cast<unsigned>(src.chunk - whole), to.data() + k + whole);
    }
    if (convert) {
      const size_t count = in.size() / zs;
      const size_t base = out.size();
      out.resize(base + count * zd);
      for (size_t e = 0; e < count; ++e) {
        uint64_t raw = 0;
        for (unsigned i = 0; i < zs; ++i) raw |= uint64_t{in[e * zs + i]} << (8 * i);
        const uint64_t v = from_fp32_bits(to_fp32_bits(raw, d.src_dtype), d.dst_dtype, txn.options().convert);
        for (unsigned i = 0; i < zd; ++i) out[base + e * zd + i] = static_cast<uint8_t>(v >> (8 * i));
      }
      in.erase(in.begin(), in.begin() + static_cast<ptrdiff_t>(count * zs));
    }
    write_whole_chunks();
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

/// EventSemaphore's extended lane is a second wait that must hold too (PROJ-CONV-F3), whatever its mode.
ExtraWaits extra_waits(const Instruction& inst) {
  ExtraWaits w;
  if (const auto* es = inst.as<CtrlEs>()) w.lanes[w.count++] = sync::ext_wait(es->ext);
  return w;
}

/// The extended lane's update, applied with the EVENTS update when the word retires.
ExtraWaits extra_updates(const Instruction& inst) {
  ExtraWaits u;
  if (const auto* es = inst.as<CtrlEs>()) u.lanes[u.count++] = sync::ext_update(es->ext);
  return u;
}

/// A DMA raises its semaphore by sem_increment when the data have moved (PROJ-CONV-F9).
Completion completion(const Instruction& inst) {
  if (const auto* d = inst.as<PseudoDmaDirect2d>()) return {true, d->semaphore, d->sem_increment};
  return {};
}

constexpr Execution kExecution{
    .execute = execute, .extra_waits = extra_waits, .extra_updates = extra_updates, .completion = completion};

}  // namespace

const Execution& SyncFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
