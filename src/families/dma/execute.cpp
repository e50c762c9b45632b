// DMA family semantics on Neuron addresses: DMAMEMCPY 0xB8 (a strided copy with its reduce-on-copy compute op),
// DMA_INDIRECT 0xBB (gather / scatter by a UINT32 index vector) and DMA_TRANSPOSE 0xBD (PROJ-CONV-DM8's element
// mapping); each raises its completion semaphore, and each declares the on-chip bytes it places (its footprint).
// PSEUDO_DMATRIGGER 0xC1 fires a NEFF's DMA queue block (PROJ-CONV-PS4); the collective trigger is lowered by the
// runtime and refused here.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "families/common.hpp"
#include "families/dma/format.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

using namespace dma;

/// One element moved: `in` bytes read at src, `out` bytes written at dst (bytes 0 .. 7 of a packed record).
struct Move {
  uint64_t src;
  uint64_t dst;
};

/// The element list of one transfer, kept in the effect log's reusable scratch (no allocation once grown).
class Moves {
 public:
  explicit Moves(exec::Txn& txn) : bytes_(txn.scratch().bytes_a) { bytes_.clear(); }
  void add(uint64_t src, uint64_t dst) {
    const size_t at = bytes_.size();
    bytes_.resize(at + sizeof(Move));
    const Move m{src, dst};
    std::memcpy(bytes_.data() + at, &m, sizeof(Move));
  }
  size_t size() const { return bytes_.size() / sizeof(Move); }
  Move operator[](size_t k) const {
    Move m{};
    std::memcpy(&m, bytes_.data() + k * sizeof(Move), sizeof(Move));
    return m;
  }

 private:
  EffectLog::Bytes& bytes_;
};

/// What each element of a transfer does: its dtypes and sizes, and the reduce into the destination.
struct Unit {
  uint8_t in_dtype = 0, out_dtype = 0;
  unsigned in_size = 1, out_size = 1;
  bool elementwise = false;  ///< converted or reduced through fp32 (else the bytes are copied)
  uint8_t op = kComputeNone;
};

/// The fp32 reduce of PROJ-CONV-DM6: B (the destination's current value) op A (the source value).
uint32_t reduce(uint8_t op, uint32_t b, uint32_t a) {
  const float x = std::bit_cast<float>(b), y = std::bit_cast<float>(a);
  float r = y;
  switch (op) {
    case kComputeAdd: r = x + y; break;
    case kComputeMultiply: r = x * y; break;
    case kComputeMax: r = x != x || y != y ? x + y : (x > y ? x : y); break;  // NaN in, NaN out
    case kComputeMin: r = x != x || y != y ? x + y : (x < y ? x : y); break;
    default: break;
  }
  return std::bit_cast<uint32_t>(r);
}

/// The destination values written so far in this transfer (open addressing in the second scratch buffer), so that a
/// reduce onto an element written earlier by the same word sees that value (PROJ-CONV-DM6: duplicates accumulate
/// in walk order).
class Written {
 public:
  Written(exec::Txn& txn, size_t n) : slots_(txn.scratch().bytes_b) {
    size_t cap = 16;
    while (cap < 2 * n) cap <<= 1;
    mask_ = cap - 1;
    slots_.assign(cap * kSlot, 0);
  }
  bool find(uint64_t address, uint64_t& value) const {
    for (size_t i = hash(address);; i = (i + 1) & mask_) {
      uint64_t key = 0;
      std::memcpy(&key, slots_.data() + i * kSlot, 8);
      if (key == 0) return false;
      if (key == address + 1) {
        std::memcpy(&value, slots_.data() + i * kSlot + 8, 8);
        return true;
      }
    }
  }
  void put(uint64_t address, uint64_t value) {
    for (size_t i = hash(address);; i = (i + 1) & mask_) {
      uint64_t key = 0;
      std::memcpy(&key, slots_.data() + i * kSlot, 8);
      if (key == 0 || key == address + 1) {
        const uint64_t k = address + 1;  // 0 marks an empty slot
        std::memcpy(slots_.data() + i * kSlot, &k, 8);
        std::memcpy(slots_.data() + i * kSlot + 8, &value, 8);
        return;
      }
    }
  }

 private:
  static constexpr size_t kSlot = 16;
  size_t hash(uint64_t a) const { return static_cast<size_t>((a * 0x9E3779B97F4A7C15ULL) >> 32) & mask_; }
  EffectLog::Bytes& slots_;
  size_t mask_ = 0;
};

/// Runs a transfer: every access checked first (a fault changes nothing), every source element read before any
/// write, then each element converted (and reduced) and staged in walk order.
bool transfer(exec::Txn& txn, const Moves& moves, const Unit& u, std::string_view what) {
  const size_t n = moves.size();
  for (size_t k = 0; k < n; ++k) {
    const Move m = moves[k];
    if (!exec::neuron_access_ok(txn.gen(), m.src, u.in_size))
      return txn.fail_at(FaultKind::OutOfRange, m.src,
                         fmt::format("{} element {} reads {} bytes at {:#x}, outside the addressable memory (an SBUF "
                                     "partition's active bytes, PSUM, or flat memory)",
                                     what, k, u.in_size, m.src));
    if (!exec::neuron_access_ok(txn.gen(), m.dst, u.out_size))
      return txn.fail_at(FaultKind::OutOfRange, m.dst,
                         fmt::format("{} element {} writes {} bytes at {:#x}, outside the addressable memory", what, k,
                                     u.out_size, m.dst));
  }
  // Source values, in walk order, kept in the value half of each record's slot of a second list.
  EffectLog::Bytes& values = txn.scratch().bytes_b;
  values.resize(n * 8);
  for (size_t k = 0; k < n; ++k) {
    const uint64_t v = txn.read_mem(moves[k].src, u.in_size);
    std::memcpy(values.data() + k * 8, &v, 8);
  }
  if (u.op == kComputeNone) {
    for (size_t k = 0; k < n; ++k) {
      uint64_t v = 0;
      std::memcpy(&v, values.data() + k * 8, 8);
      if (u.elementwise) v = from_fp32_bits(to_fp32_bits(v, u.in_dtype), u.out_dtype, txn.options().convert);
      txn.stage_mem(moves[k].dst, u.out_size, v);
    }
    return true;
  }
  // A reduce reads the destination too: the values are moved out of the way of the table of written elements.
  EffectLog::Bytes sources;  // only on the reduce path, which the DMA's compute engine takes
  sources.swap(values);
  Written written(txn, n);
  for (size_t k = 0; k < n; ++k) {
    uint64_t a = 0;
    std::memcpy(&a, sources.data() + k * 8, 8);
    const Move m = moves[k];
    uint64_t b = 0;
    if (!written.find(m.dst, b)) b = txn.read_mem(m.dst, u.out_size);
    const uint32_t r =
        reduce(u.op, to_fp32_bits(b, u.out_dtype), to_fp32_bits(a, u.in_dtype));  // fp32 arithmetic (DM6)
    const uint64_t out = from_fp32_bits(r, u.out_dtype, txn.options().convert);
    txn.stage_mem(m.dst, u.out_size, out);
    written.put(m.dst, out);
  }
  txn.scratch().bytes_b.swap(sources);  // keep the grown buffer for the next word
  return true;
}

/// The base address of an ADDR8 operand: an immediate, or the register pair R[lo] | R[hi] << 32 (as MEM_2D).
bool base_of(exec::Txn& txn, const Addr8& a, std::string_view which, uint64_t& base) {
  if (a.shape_from_register())
    return txn.fail(FaultKind::UnsupportedShapeRegister,
                    fmt::format("{} takes its shape from registers, which the DMA executor does not model", which));
  if (a.is_immediate()) {
    base = a.immediate();
    return true;
  }
  if (!a.is_register_pair())
    return txn.fail(
        FaultKind::UnsupportedAddressingMode,
        fmt::format("{} ADDR8 marker {:#04x} is not modeled (immediate and register pair are)", which, a.marker()));
  if (a.reg_lo() >= kNumRegisters || a.reg_hi() >= kNumRegisters)
    return txn.fail_reg(FaultKind::IllegalRegister, a.reg_lo() >= kNumRegisters ? a.reg_lo() : a.reg_hi(),
                        fmt::format("{} names register pair r{}:r{}", which, a.reg_lo(), a.reg_hi()));
  base = uint64_t{txn.reg(a.reg_lo())} | (uint64_t{txn.reg(a.reg_hi())} << 32);
  return true;
}

/// The element sizes of a transfer between dtypes `in` and `out` with a compute op: whole elements when it converts or
/// reduces, single bytes for a plain copy between equal dtypes (any chunk size then moves).
bool unit_for(exec::Txn& txn, uint8_t in, uint8_t out, uint8_t op, Unit& u) {
  u.in_dtype = in;
  u.out_dtype = out;
  u.op = op;
  u.elementwise = in != out || op != kComputeNone;
  if (op > kComputeMin)
    return txn.fail(FaultKind::UnsupportedOpcode, fmt::format("compute_op {} is not a DGE_COMPUTE_OP", op));
  if (!u.elementwise) return true;
  if (!element_dtype_supported(txn, in, "in_dtype") || !element_dtype_supported(txn, out, "out_dtype")) return false;
  u.in_size = dtype_size(in);
  u.out_size = dtype_size(out);
  return true;
}

bool too_many(exec::Txn& txn, uint64_t n) {
  if (n <= txn.options().max_elements_per_instruction) return false;
  txn.fail(FaultKind::ResourceLimit, fmt::format("the DMA moves {} elements, more than the {} element accesses one "
                                                 "instruction may make",
                                                 n, txn.options().max_elements_per_instruction));
  return true;
}

/// The completion of a DMA: its semaphore rises by `increment` when the data have moved (as PROJ-CONV-F9).
void complete(exec::Txn& txn, uint8_t semaphore, uint8_t increment, uint64_t bytes) {
  txn.add_dma_bytes(bytes);
  txn.stage_sem(semaphore, false, txn.sem(semaphore) + increment, false);
}

// ---- DMAMEMCPY 0xB8 ----

bool exec_memcpy(const DmaDirect2d& d, exec::Txn& txn) {
  uint64_t src = 0, dst = 0;
  if (!base_of(txn, d.src_start_addr, "src_start_addr", src) || !base_of(txn, d.dst_start_addr, "dst_start_addr", dst))
    return false;
  Unit u;
  if (!unit_for(txn, d.in_dtype, d.out_dtype, d.compute_op, u)) return false;
  const uint64_t sc = chunk_bytes(d.src_elem_size), dc = chunk_bytes(d.dst_elem_size);
  const uint64_t sbytes = sc * d.src_num_elem[0] * d.src_num_elem[1],
                 dbytes = dc * d.dst_num_elem[0] * d.dst_num_elem[1];
  if (sc % u.in_size != 0 || dc % u.out_size != 0 || sbytes / u.in_size != dbytes / u.out_size)
    return txn.fail(FaultKind::OutOfRange,
                    fmt::format("the DMA reads {} bytes in {}-byte chunks and writes {} bytes in {}-byte chunks: not "
                                "the same whole elements (PROJ-CONV-DM3)",
                                sbytes, sc, dbytes, dc));
  const uint64_t n = sbytes / u.in_size;
  if (too_many(txn, n)) return false;
  // The k-th element of each side: chunk k / per_chunk of its 2-D walk (dimension 0 fastest), then its place in it.
  Moves moves(txn);
  const uint64_t sper = sc / u.in_size, dper = dc / u.out_size;
  for (uint64_t k = 0; k < n; ++k) {
    const uint64_t ci = k / sper, di = k / dper;
    const int64_t so = static_cast<int64_t>(ci % d.src_num_elem[0]) * d.src_step_elem[0] +
                       static_cast<int64_t>(ci / d.src_num_elem[0]) * d.src_step_elem[1];
    const int64_t dof = static_cast<int64_t>(di % d.dst_num_elem[0]) * d.dst_step_elem[0] +
                        static_cast<int64_t>(di / d.dst_num_elem[0]) * d.dst_step_elem[1];
    moves.add(src + static_cast<uint64_t>(so) + (k % sper) * u.in_size,
              dst + static_cast<uint64_t>(dof) + (k % dper) * u.out_size);
  }
  if (!transfer(txn, moves, u, "DmaMemcpy")) return false;
  complete(txn, d.semaphore, d.sem_increment, dbytes);
  return true;
}

// ---- DMA_INDIRECT 0xBB (PROJ-CONV-DM9) ----

/// Index k of a vector at an ADDR4 (UINT32, consecutive in one partition).
bool index_at(exec::Txn& txn, const Addr4& a, uint64_t k, std::string_view which, uint64_t& out) {
  uint32_t base = 0;
  if (!onchip_start(txn, a, base, which)) return false;
  const uint64_t at = uint64_t{base} + 4 * k;
  if (!exec::neuron_access_ok(txn.gen(), at, 4))
    return txn.fail_at(FaultKind::OutOfRange, at, fmt::format("{} index {} lies outside its partition", which, k));
  out = txn.read_mem(at, 4);
  return true;
}

bool exec_indirect(const DmaIndirect1d& d, exec::Txn& txn) {
  uint64_t src = 0, dst = 0;
  if (!base_of(txn, d.src_start_addr, "src_start_addr", src) || !base_of(txn, d.dst_start_addr, "dst_start_addr", dst))
    return false;
  if (indirect_mode(d.flags) > kSrcDstIndirection)
    return txn.fail(FaultKind::UnsupportedOpcode,
                    fmt::format("indirect_mode {} is not an INDIRECT_DMA_ADDRESSING_MODE", indirect_mode(d.flags)));
  Unit u;
  if (!unit_for(txn, d.in_dtype, d.out_dtype, d.compute_op, u)) return false;
  const uint64_t sc = chunk_bytes(d.src_elem_size), dc = chunk_bytes(d.dst_elem_size);
  if (d.src_num_elem != d.dst_num_elem || sc % u.in_size != 0 || dc % u.out_size != 0 ||
      sc / u.in_size != dc / u.out_size)
    return txn.fail(FaultKind::OutOfRange,
                    fmt::format("the indirect DMA moves {} chunks of {} bytes into {} chunks of {} bytes: the counts "
                                "and the elements per chunk must agree (PROJ-CONV-DM9)",
                                d.src_num_elem, sc, d.dst_num_elem, dc));
  const uint64_t per = sc / u.in_size;
  if (too_many(txn, per * d.src_num_elem)) return false;
  // Indices are read first (they are SBUF words; a reduce may not change them mid-walk), then the element list.
  Moves moves(txn);
  for (uint64_t k = 0; k < d.src_num_elem; ++k) {
    uint64_t si = k, di = k;
    if (gathers(d.flags) && !index_at(txn, d.src_idx_start_addr, k, "src_idx_start_addr", si)) return false;
    if (scatters(d.flags) && !index_at(txn, d.dst_idx_start_addr, k, "dst_idx_start_addr", di)) return false;
    const uint64_t so = src + static_cast<uint64_t>(static_cast<int64_t>(si) * d.src_step_elem);
    const uint64_t dof = dst + static_cast<uint64_t>(static_cast<int64_t>(di) * d.dst_step_elem);
    for (uint64_t e = 0; e < per; ++e) moves.add(so + e * u.in_size, dof + e * u.out_size);
  }
  if (!transfer(txn, moves, u, "DmaIndirect")) return false;
  complete(txn, d.semaphore, d.sem_increment, dc * d.dst_num_elem);
  return true;
}

// ---- DMA_TRANSPOSE 0xBD (PROJ-CONV-DM8) ----

bool exec_transpose(const DmaDirect2dXpose& d, exec::Txn& txn) {
  uint64_t src = 0, dst = 0;
  if (!base_of(txn, d.src_start_addr, "src_start_addr", src) || !base_of(txn, d.dst_start_addr, "dst_start_addr", dst))
    return false;
  Unit u;
  if (!unit_for(txn, d.in_dtype, d.out_dtype, kComputeNone, u)) return false;
  u.in_size = u.out_size = dtype_size(d.in_dtype);
  if (d.in_dtype != d.out_dtype || (u.in_size != 2 && u.in_size != 4))
    return txn.fail(FaultKind::UnsupportedDtype, "the transpose moves one 2- or 4-byte dtype on both sides");
  const uint64_t cols = d.src_num_elem[0], rows = d.src_num_elem[1], tile = kXposeTileRows;
  if (rows % tile != 0 || d.dst_num_elem[0] != cols || uint64_t{d.dst_num_elem[1]} * tile != rows)
    return txn.fail(FaultKind::OutOfRange,
                    fmt::format("a transpose of {} rows x {} columns writes {} rows of {}-row tiles: dst_num_elem "
                                "must be {{{}, {}}} (PROJ-CONV-DM8), not {{{}, {}}}",
                                rows, cols, cols, tile, cols, rows / tile, d.dst_num_elem[0], d.dst_num_elem[1]));
  if (too_many(txn, rows * cols)) return false;
  // Source element (r, c) lands in destination row c, tile r / 16, place r % 16 of the tile's contiguous run.
  Moves moves(txn);
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t c = 0; c < cols; ++c) {
      const int64_t so = static_cast<int64_t>(c) * d.src_step_elem[0] + static_cast<int64_t>(r) * d.src_step_elem[1];
      const int64_t dof = static_cast<int64_t>(c) * d.dst_step_elem[0] +
                          static_cast<int64_t>(r / tile) * d.dst_step_elem[1] +
                          static_cast<int64_t>((r % tile) * u.out_size);
      moves.add(src + static_cast<uint64_t>(so), dst + static_cast<uint64_t>(dof));
    }
  if (!transfer(txn, moves, u, "DmaTranspose")) return false;
  complete(txn, d.semaphore, 1, rows * cols * u.out_size);  // no sem_increment byte: += 1 (PROJ-CONV-DM8)
  return true;
}

// ---- PSEUDO_DMATRIGGER 0xC1 in a NEFF run (PROJ-CONV-PS4) ----

/// Where one side of a queue descriptor lies: DRAM bytes of its variable, or a Neuron address in SBUF.
struct QueueSide {
  const DramVar* var = nullptr;
  uint64_t at = 0;
};

bool queue_side(exec::Txn& txn, uint32_t var_id, uint64_t offset, uint64_t size, bool write, QueueSide& out) {
  const std::string_view which = write ? "to" : "from";
  out.var = txn.dram()->var(var_id);
  if (out.var == nullptr)
    return txn.fail(FaultKind::OutOfRange,
                    fmt::format("a descriptor's '{}' is variable {}, which the run does not hold", which, var_id));
  if (!out.var->state_buffer) {
    if (offset > out.var->size || size > out.var->size - offset)
      return txn.fail(FaultKind::OutOfRange, fmt::format("a descriptor's '{}' bytes {} + {} leave variable {} of {} "
                                                         "bytes (PROJ-CONV-PS4)",
                                                         which, offset, size, out.var->name, out.var->size));
    if (write && out.var->writable == nullptr)
      return txn.fail(
          FaultKind::OutOfRange,
          fmt::format("a descriptor writes variable {}, which is read-only (an input or a constant)", out.var->name));
    out.at = offset;
    return true;
  }
  // The state buffer: a PartitionOffset, inside one partition's active bytes (as PSEUDO_DMA_DIRECT2D's chunks).
  const Geometry& geo = geometry(txn.gen());
  const uint64_t partition = offset / geo.sbuf_partition_size, byte = offset % geo.sbuf_partition_size;
  if (partition >= geo.sbuf_partitions || size > geo.sbuf_partition_active || byte > geo.sbuf_partition_active - size)
    return txn.fail(FaultKind::OutOfRange,
                    fmt::format("a descriptor's '{}' bytes at SBUF partition {} byte {:#x} + {} leave the partition's "
                                "active bytes (PROJ-CONV-PS4)",
                                which, partition, byte, size));
  out.at = uint64_t{geo.sbuf_offset} + offset;
  return true;
}

/// The bytes of one step of a PSEUDO_DMA_TRIGGER descriptor's copy (a stack buffer: no allocation per descriptor).
constexpr size_t kTriggerChunk = 4096;

/// Fires the next block of the named queue of the issuing engine: each descriptor copies its bytes (every read sees
/// memory as it was before the block: the writes land at commit), then the queue's semaphore rises.
bool exec_trigger(const PseudoDmaTrigger& t, exec::Txn& txn) {
  if (!txn.options().neff_mode || txn.dram() == nullptr)
    return txn.fail(FaultKind::PseudoNotLowered,
                    "PSEUDO_DMA_TRIGGER fires a NEFF's DMA queue: it runs only in a NEFF "
                    "run (PROJ-CONV-PS4, PROJ-CONV-DM10)");
  const std::string_view name = queue_name(t.dma_queue_name);
  const std::optional<Engine> engine = txn.stream_engine();
  DmaQueue* queue = nullptr;
  for (DmaQueue& q : txn.dram()->dma_queues)
    if (q.name == name && (!engine || q.engine == *engine)) queue = &q;
  if (queue == nullptr)
    return txn.fail(FaultKind::OutOfRange, fmt::format("queue '{}' has no DMA block in the {} engine's description "
                                                       "(PROJ-CONV-PS4)",
                                                       name, engine ? to_string(*engine) : "issuing"));
  if (!queue->problem.empty())
    return txn.fail(FaultKind::OutOfRange, fmt::format("queue '{}': {} (PROJ-CONV-PS4)", name, queue->problem));
  if (queue->fired >= queue->blocks.size())
    return txn.fail(FaultKind::OutOfRange,
                    fmt::format("queue '{}' is triggered again after its {} block(s) have all fired "
                                "(PROJ-CONV-PS4)",
                                name, queue->blocks.size()));
  const std::vector<DmaCopy>& block = queue->blocks[queue->fired];
  uint64_t bytes = 0;
  for (const DmaCopy& c : block) {  // every descriptor checked before any byte moves
    QueueSide from, to;
    if (!queue_side(txn, c.from, c.from_off, c.size, false, from) || !queue_side(txn, c.to, c.to_off, c.size, true, to))
      return false;
    bytes += c.size;
  }
  if (too_many(txn, bytes)) return false;
  // A descriptor's bytes stream through a fixed buffer in bounded chunks: the hot path never sizes storage to a
  // descriptor (staging copies each chunk at once, so the buffer is free again for the next one).
  std::array<uint8_t, kTriggerChunk> buf;
  for (const DmaCopy& c : block) {
    QueueSide from, to;
    queue_side(txn, c.from, c.from_off, c.size, false, from);  // checked above: cannot fail
    queue_side(txn, c.to, c.to_off, c.size, true, to);
    for (uint64_t done = 0; done < c.size; done += buf.size()) {
      const uint64_t n = std::min<uint64_t>(buf.size(), c.size - done);
      if (from.var->state_buffer) {
        txn.read_block(from.at + done, n, 1, buf.data());
      } else {
        std::memcpy(buf.data(), from.var->data + from.at + done, n);
      }
      if (to.var->state_buffer) {
        txn.stage_block(to.at + done, buf.data(), n, 1);
      } else {
        txn.stage_dram(to.var->writable + to.at + done, buf.data(), n);
      }
    }
    if (!from.var->state_buffer) txn.note_dram(from.var->data, from.at, c.size, false);
    if (!to.var->state_buffer) txn.note_dram(to.var->data, to.at, c.size, true);
  }
  ++queue->fired;  // past every check: the queue's tail moves on (PROJ-CONV-PS4)
  txn.add_dma_bytes(bytes);
  if (queue->semaphore) txn.stage_sem(*queue->semaphore, false, txn.sem(*queue->semaphore) + queue->increment, false);
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const auto* d = inst.as<DmaDirect2d>()) return exec_memcpy(*d, txn);
  if (const auto* t = inst.as<PseudoDmaTrigger>()) return exec_trigger(*t, txn);
  if (const auto* d = inst.as<DmaIndirect1d>()) return exec_indirect(*d, txn);
  if (const auto* d = inst.as<DmaDirect2dXpose>()) return exec_transpose(*d, txn);
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("{} ({:#04x}) is not executed: PROJ-CONV-DM10 (the gather-transpose mapping is not "
                              "public; the runtime lowers the pseudo words)",
                              inst.name(), inst.opcode()));
}

Completion completion(const Instruction& inst) {
  if (const auto* d = inst.as<DmaDirect2d>()) return {true, d->semaphore, d->sem_increment};
  if (const auto* d = inst.as<DmaIndirect1d>()) return {true, d->semaphore, d->sem_increment};
  if (const auto* d = inst.as<DmaDirect2dXpose>()) return {true, d->semaphore, 1};
  return {};
}

// ---- Footprint: the on-chip bytes a word places (the NEFF program checks and the race checker) ----

/// The most accesses of one side the footprint walks; a larger side is placed by nothing (not listed).
constexpr uint64_t kMaxFootprintWalk = uint64_t{1} << 16;

/// The hull of one side's accesses when every one lies on chip, in one region and within one partition: the
/// partitions and the byte offsets within them. A side with an access off chip (flat memory) lists nothing.
class OnChipHull {
 public:
  explicit OnChipHull(Generation g) : g_(g) {
    const Geometry& geo = geometry(g);
    onchip_end_ =  // addresses from here up are flat memory (PROJ-CONV-N4)
        geo.psum_size != 0 ? uint64_t{geo.psum_offset} + geo.psum_size : uint64_t{geo.sbuf_offset} + geo.sbuf_size;
  }
  /// One access of `size` bytes at `address`.
  void add(uint64_t address, uint64_t size) {
    const uint64_t last = address + size - 1;
    if (!ok_ || size == 0 || last < address || last >= onchip_end_) {
      ok_ = false;
      return;
    }
    const PartitionAddress a = decode_partition_offset(static_cast<uint32_t>(address), g_);
    const PartitionAddress b = decode_partition_offset(static_cast<uint32_t>(last), g_);
    if (a.region == Region::Outside || b.region != a.region || b.partition != a.partition ||
        (any_ && a.region != region_)) {
      ok_ = false;
      return;
    }
    if (!any_) {
      region_ = a.region;
      first_partition_ = last_partition_ = a.partition;
      first_ = a.offset;
      last_ = b.offset;
      any_ = true;
      return;
    }
    first_partition_ = std::min(first_partition_, a.partition);
    last_partition_ = std::max(last_partition_, a.partition);
    first_ = std::min(first_, int64_t{a.offset});
    last_ = std::max(last_, int64_t{b.offset});
  }
  void list(Footprint& f, std::string_view operand, bool write) const {
    if (ok_ && any_)
      f.add({operand, region_, first_partition_, last_partition_ - first_partition_ + 1, first_, last_, write});
  }

 private:
  Generation g_;
  uint64_t onchip_end_ = 0;
  bool ok_ = true, any_ = false;
  Region region_ = Region::Outside;
  uint32_t first_partition_ = 0, last_partition_ = 0;
  int64_t first_ = 0, last_ = 0;
};

/// The immediate base of an ADDR8 operand; false for a register pair or a register shape (placed at run time).
bool immediate_base(const Addr8& a, uint64_t& base) {
  if (a.shape_from_register() || !a.is_immediate()) return false;
  base = a.immediate();
  return true;
}

/// Lists the chunks of a 2-D walk (dimension 0 fastest, byte steps), `chunk` bytes each, as exec_memcpy walks them.
template <class Steps, class Counts>
void list_walk(Footprint& f, std::string_view operand, bool write, const Addr8& start, const Steps& step,
               const Counts& num, uint64_t chunk, Generation g) {
  uint64_t base = 0;
  const uint64_t n = uint64_t{num[0]} * num[1];
  if (!immediate_base(start, base) || n == 0 || n > kMaxFootprintWalk) return;
  OnChipHull hull(g);
  for (uint64_t k = 0; k < n; ++k)
    hull.add(base + static_cast<uint64_t>(static_cast<int64_t>(k % num[0]) * step[0] +
                                          static_cast<int64_t>(k / num[0]) * step[1]),
             chunk);
  hull.list(f, operand, write);
}

/// Lists the `n` chunks of a 1-D walk with byte step `step`, as exec_indirect walks a side without indirection.
void list_line(Footprint& f, std::string_view operand, bool write, const Addr8& start, int32_t step, uint64_t n,
               uint64_t chunk, Generation g) {
  uint64_t base = 0;
  if (!immediate_base(start, base) || n == 0 || n > kMaxFootprintWalk) return;
  OnChipHull hull(g);
  for (uint64_t k = 0; k < n; ++k) hull.add(base + static_cast<uint64_t>(static_cast<int64_t>(k) * step), chunk);
  hull.list(f, operand, write);
}

/// Lists an index vector of `n` UINT32 at an immediate on-chip ADDR4 (one partition, consecutive).
void list_indices(Footprint& f, std::string_view operand, const Addr4& start, uint64_t n, Generation g) {
  const Addr4Meaning a = describe(start, g);
  if (!a.plain_immediate || a.target.region == Region::Outside || n == 0) return;
  f.add({operand, a.target.region, a.target.partition, 1, int64_t{a.target.offset},
         int64_t{a.target.offset} + static_cast<int64_t>(4 * n) - 1, false});
}

Footprint footprint_of(const DmaDirect2d& d, Generation g) {
  Footprint f;
  list_walk(f, "src", false, d.src_start_addr, d.src_step_elem, d.src_num_elem, chunk_bytes(d.src_elem_size), g);
  list_walk(f, "dst", true, d.dst_start_addr, d.dst_step_elem, d.dst_num_elem, chunk_bytes(d.dst_elem_size), g);
  return f;
}

Footprint footprint_of(const DmaIndirect1d& d, Generation g) {
  // A side read or written through its index vector is placed at run time: its indices are listed instead.
  Footprint f;
  if (gathers(d.flags))
    list_indices(f, "src_idx", d.src_idx_start_addr, d.src_num_elem, g);
  else
    list_line(f, "src", false, d.src_start_addr, d.src_step_elem, d.src_num_elem, chunk_bytes(d.src_elem_size), g);
  if (scatters(d.flags))
    list_indices(f, "dst_idx", d.dst_idx_start_addr, d.src_num_elem, g);
  else
    list_line(f, "dst", true, d.dst_start_addr, d.dst_step_elem, d.dst_num_elem, chunk_bytes(d.dst_elem_size), g);
  return f;
}

Footprint footprint_of(const DmaDirect2dXpose& d, Generation g) {
  // Source element (r, c) and its destination, as exec_transpose moves them.
  Footprint f;
  const uint64_t cols = d.src_num_elem[0], rows = d.src_num_elem[1], size = dtype_size(d.in_dtype);
  uint64_t src = 0, dst = 0;
  if (rows * cols == 0 || rows * cols > kMaxFootprintWalk || size == 0) return f;
  if (immediate_base(d.src_start_addr, src)) {
    OnChipHull hull(g);
    for (uint64_t r = 0; r < rows; ++r)
      for (uint64_t c = 0; c < cols; ++c)
        hull.add(src + static_cast<uint64_t>(static_cast<int64_t>(c) * d.src_step_elem[0] +
                                             static_cast<int64_t>(r) * d.src_step_elem[1]),
                 size);
    hull.list(f, "src", false);
  }
  if (immediate_base(d.dst_start_addr, dst)) {
    OnChipHull hull(g);
    for (uint64_t r = 0; r < rows; ++r)
      for (uint64_t c = 0; c < cols; ++c)
        hull.add(dst + static_cast<uint64_t>(static_cast<int64_t>(c) * d.dst_step_elem[0] +
                                             static_cast<int64_t>(r / kXposeTileRows) * d.dst_step_elem[1] +
                                             static_cast<int64_t>((r % kXposeTileRows) * size)),
                 size);
    hull.list(f, "dst", true);
  }
  return f;
}

Footprint footprint(const Instruction& inst, Generation g) {
  if (const auto* d = inst.as<DmaDirect2d>()) return footprint_of(*d, g);
  if (const auto* d = inst.as<DmaIndirect1d>()) return footprint_of(*d, g);
  if (const auto* d = inst.as<DmaDirect2dXpose>()) return footprint_of(*d, g);
  return {};
}

// DMA_GATHER_TRANSPOSE's gather-then-crossbar mapping is not public (PROJ-CONV-DM10); the collective trigger is the
// runtime's to lower (PROJ-CONV-PS3). PSEUDO_DMATRIGGER runs in a NEFF run only (PROJ-CONV-PS4).
constexpr Format kNotExecuted[] = {Format::DmaGatherXpose, Format::PseudoTriggerCollective};
constexpr Execution kExecution{.execute = execute,
                               .not_executed = kNotExecuted,
                               .refusal = Execution::Refusal::Convention,
                               .refusal_convention = "PROJ-CONV-DM10",
                               .footprint = footprint,
                               .completion = completion};

}  // namespace

const Execution& DmaFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
