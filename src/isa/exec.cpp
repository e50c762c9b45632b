// The execution transaction (check, then commit) and the on-chip address checks of the executors.
#include "isa/exec.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "tpbisa/catalog.hpp"

namespace tpbisa::exec {

uint64_t Txn::read_mem(uint64_t address, unsigned size) {
  bool init = false;
  const uint64_t v = core_.memory.read(address, size, &init);
  ++log_.reads_total;
  if (log_.record && log_.reads.size() < log_.cap) {
    log_.reads.push_back({address, static_cast<uint8_t>(size), init});
    log_.rare_effects = true;
  }
  if (!init) diag(DiagKind::UninitializedRead, address, size);
  return v;
}

void Txn::read_block(uint64_t address, uint64_t n, unsigned elem, uint8_t* out) {
  if (n == 0) return;
  if (log_.record) {
    for (uint64_t i = 0; i < n; i += elem) {
      const uint64_t v = read_mem(address + i, elem);
      for (unsigned b = 0; b < elem; ++b) out[i + b] = static_cast<uint8_t>(v >> (8 * b));
    }
    return;
  }
  log_.reads_total += n / elem;
  if (core_.memory.read_block(address, n, out)) return;
  for (uint64_t i = 0; i < n; i += elem)  // the rare partly-written run: one diagnostic per element, as read_mem
    if (!core_.memory.initialized(address + i, elem)) diag(DiagKind::UninitializedRead, address + i, elem);
}

void Txn::stage_block(uint64_t address, const uint8_t* bytes, uint64_t n, unsigned elem) {
  if (n == 0) return;
  if (log_.record) {
    for (uint64_t i = 0; i < n; i += elem) {
      uint64_t v = 0;
      for (unsigned b = 0; b < elem; ++b) v |= uint64_t{bytes[i + b]} << (8 * b);
      stage_mem(address + i, elem, v);
    }
    return;
  }
  std::memcpy(stage_run(address, n, elem), bytes, n);
}

const uint8_t* Txn::read_run(uint64_t address, uint64_t n, unsigned elem, uint8_t* scratch) {
  if (const uint8_t* p = core_.memory.written_span(address, n)) {
    log_.reads_total += n / elem;
    return p;
  }
  read_block(address, n, elem, scratch);
  return scratch;
}

uint8_t* Txn::stage_run(uint64_t address, uint64_t n, unsigned elem) {
  const uint64_t at = log_.block_used;
  if (log_.block_bytes.size() < at + n) {
    // Grown into a fresh buffer with this step's staged bytes copied as one block (a vector's own growth copies
    // them byte by byte through its allocator, which was a tenth of a large row's run).
    EffectLog::Bytes grown;
    grown.reserve(std::max<uint64_t>(at + n, 2 * log_.block_bytes.size()));
    grown.resize(grown.capacity());  // not zeroed: HugeAdvisedAllocator default-initialises
    if (at != 0) std::memcpy(grown.data(), log_.block_bytes.data(), at);
    log_.block_bytes.swap(grown);
  }
  log_.block_used = at + n;
  log_.blocks.push_back({address, at, n});
  log_.block_elems += n / elem;
  return log_.block_bytes.data() + at;
}

Fault& Txn::fault_slot() {
  if (!faulted_) {
    log_.fault = Fault{};
    faulted_ = true;
  }
  return log_.fault;
}

const Fault& Txn::fault() const {
  static const Fault kNone{};
  return faulted_ ? log_.fault : kNone;
}

bool Txn::fail(FaultKind kind, std::string detail) {
  Fault& f = fault_slot();
  f.kind = kind;
  f.index = index_;
  f.detail = std::move(detail);
  return false;
}

bool Txn::fail_at(FaultKind kind, uint64_t address, std::string detail) {
  Fault& f = fault_slot();
  f.address = address;
  f.has_address = true;
  return fail(kind, std::move(detail));
}

bool Txn::fail_reg(FaultKind kind, int reg, std::string detail) {
  fault_slot().reg = reg;
  return fail(kind, std::move(detail));
}

namespace {
/// Adds the page numbers of [address, address + n) to `pages` (runs of writes share a page).
void add_pages(std::vector<uint64_t>& pages, uint64_t address, uint64_t n) {
  for (uint64_t a = address / SparseMemory::kPageBytes;; ++a) {
    if (pages.empty() || pages.back() != a) pages.push_back(a);
    if (a == (address + n - 1) / SparseMemory::kPageBytes) break;
  }
}
}  // namespace

bool Txn::commit() {
  if (log_.regs.overflowed) {  // unreachable for a modeled instruction (RegWriteList); never applied in part
    log_.clear();
    return fail(FaultKind::ResourceLimit,
                fmt::format("the instruction stages more than {} register writes", RegWriteList::kCapacity));
  }
  // The memory bound is checked over every page the staged writes need, before anything is applied. Only the
  // writes that touch a page not allocated yet are collected (usually none: one table look-up per write).
  std::vector<uint64_t>& pages = log_.pages;
  pages.clear();
  const bool rare = log_.rare_effects;  // else mem, dve, sems, imm_class and dram are empty: skipped
  if (rare)
    for (const MemWrite& w : log_.mem)
      if (!core_.memory.pages_present(w.address, w.size)) add_pages(pages, w.address, w.size);
  for (const EffectLog::MemBlock& b : log_.blocks)
    if (b.n != 0 && !core_.memory.pages_present(b.address, b.n)) add_pages(pages, b.address, b.n);
  uint64_t new_bytes = 0;
  if (!pages.empty()) {
    if (!std::is_sorted(pages.begin(), pages.end())) std::sort(pages.begin(), pages.end());  // rows come in order
    pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
    for (uint64_t p : pages) new_bytes += core_.memory.new_bytes_for(p * SparseMemory::kPageBytes, 1);
  }
  if (core_.memory.allocated_bytes() + new_bytes > core_.memory.max_bytes()) {
    log_.clear();
    return fail(FaultKind::MemoryLimit,
                fmt::format("the writes need {} more bytes of simulated memory, beyond the {}-byte limit", new_bytes,
                            core_.memory.max_bytes()));
  }
  // Before-values are read only for the writes a trace shows (the first `cap` when recording).
  const size_t shown = log_.record ? log_.cap : 0;
  for (size_t i = 0; rare && i < log_.mem.size(); ++i) {
    MemWrite& w = log_.mem[i];
    if (i < shown) w.before = core_.memory.read(w.address, w.size);
    core_.memory.write(w.address, w.size, w.after);
  }
  // With no page to allocate (the check above found every block's pages), the blocks are written without looking
  // for pages again.
  for (const EffectLog::MemBlock& b : log_.blocks)
    if (pages.empty())
      core_.memory.write_present(b.address, b.n, log_.block_bytes.data() + b.from);
    else
      core_.memory.write_block(b.address, b.n, log_.block_bytes.data() + b.from);
  for (RegWrite& w : log_.regs) {
    w.before = engine_.regs[w.reg];
    engine_.regs[w.reg] = w.after;
  }
  if (rare) commit_rare();
  if (log_.pe_staged) engine_.pe = log_.pe_pending;
  if (log_.act_set_staged) {
    log_.act_set_before = engine_.act_set;
    engine_.act_set = log_.act_set_pending;
  }
  core_.macs += log_.macs;
  if (core_.dram != nullptr && log_.dma_bytes != 0) {
    core_.dram->dma_bytes += log_.dma_bytes;
    ++core_.dram->dma_transfers;
  }
  return true;
}

void Txn::commit_rare() {
  for (DveWrite& w : log_.dve) {
    if (w.field == DveField::Mask) {
      w.before = engine_.mask_select[w.channel % 32];
      engine_.mask_select[w.channel % 32] = static_cast<uint8_t>(w.after);
      continue;
    }
    DveChannel& ch = engine_.dve[w.channel];
    uint32_t* slot = nullptr;
    switch (w.field) {
      case DveField::Imm: slot = &ch.imm[w.slot]; break;
      case DveField::MatchKey:
        slot = &ch.match_key[w.slot];
        ch.match_key_written[w.slot] = true;
        ch.matched[w.slot] = false;
        break;
      case DveField::BnN: slot = &ch.bn.n; break;
      case DveField::BnMean: slot = &ch.bn.batch_mean; break;
      case DveField::BnA: slot = &ch.bn.a; break;
      case DveField::BnB: slot = &ch.bn.b; break;
      case DveField::BnC: slot = &ch.bn.c; break;
      case DveField::Acc: slot = &ch.acc; break;
      case DveField::MatchIndex: slot = &ch.match_index[w.slot % 8]; break;
      case DveField::Mask: break;  // handled above
    }
    if (w.field >= DveField::BnN && w.field <= DveField::BnC) ch.bn.written = true;
    w.before = *slot;
    *slot = w.after;
  }
  for (const EffectLog::DramWrite& w : log_.dram) std::memcpy(w.to, log_.dram_bytes.data() + w.from, w.n);
  for (const EffectLog::ImmClassWrite& c : log_.imm_class) engine_.dve[c.channel].imm_class[c.slot] = c.cls;
  for (SemWrite& w : log_.sems) {
    if (w.event) {
      w.before = core_.events[w.index] ? 1 : 0;
      core_.events[w.index] = w.after != 0;
    } else {
      w.before = core_.sems[w.index];
      core_.sems[w.index] = w.after;
    }
  }
}

bool stage_event_update(Txn& txn, uint8_t mode, uint8_t idx, uint32_t value) {
  const UpdateModeInfo* m = update_mode_info(mode);
  if (m == nullptr || m->action == UpdateAction::None) return true;  // a mode outside the enum is judged invalid first
  // The action is the same at read and at completion: the functional model stages both with the word's effects.
  const uint32_t sem = txn.sem(idx);
  uint32_t operand = value;
  if (m->operand == ModeOperand::Register) {
    const unsigned r = value & 0xFF;
    if (r >= kNumRegisters)
      return txn.fail_reg(FaultKind::IllegalRegister, static_cast<int>(r),
                          fmt::format("the EVENTS update register form names r{} (PROJ-CONV-C3)", r));
    operand = txn.reg(r);
  }
  switch (m->action) {
    case UpdateAction::EventSet: txn.stage_sem(idx, true, 1, true); break;
    case UpdateAction::EventClear: txn.stage_sem(idx, true, 0, true); break;
    case UpdateAction::Increment: txn.stage_sem(idx, false, sem + 1, false); break;
    case UpdateAction::Decrement: txn.stage_sem(idx, false, sem - 1, false); break;
    case UpdateAction::Add: txn.stage_sem(idx, false, sem + operand, false); break;
    case UpdateAction::Subtract: txn.stage_sem(idx, false, sem - operand, false); break;
    case UpdateAction::Write: txn.stage_sem(idx, false, operand, true); break;
    case UpdateAction::None: break;
  }
  return true;
}

bool neuron_access_ok(Generation g, uint64_t address, unsigned size) {
  const Geometry& geo = geometry(g);
  const uint64_t low_end =
      geo.psum_size != 0 ? uint64_t{geo.psum_offset} + geo.psum_size : uint64_t{geo.sbuf_offset} + geo.sbuf_size;
  const uint64_t last = address + size - 1;
  if (address >= low_end && last >= address) return true;  // flat memory (PROJ-CONV-N4)
  if (last < address) return false;                        // wraps past 2^64
  const PartitionAddress first = decode_partition_offset(static_cast<uint32_t>(address), g);
  const PartitionAddress end = decode_partition_offset(static_cast<uint32_t>(std::min(last, low_end - 1)), g);
  return last < low_end && first.region != Region::Outside && first.backed && end.backed &&
         end.region == first.region && end.partition == first.partition;
}

bool onchip_element(Generation g, uint32_t start, unsigned channel, int64_t elem_byte_offset, unsigned size,
                    uint64_t& address) {
  const PartitionAddress s = decode_partition_offset(start, g);
  if (s.region == Region::Outside) return false;
  const Geometry& geo = geometry(g);
  const uint32_t partition = s.partition + channel;
  const int64_t offset = int64_t{s.offset} + elem_byte_offset;
  const bool sbuf = s.region == Region::Sbuf;
  const uint32_t active = sbuf ? geo.sbuf_partition_active : geo.psum_partition_active;
  const uint32_t parts = sbuf ? geo.sbuf_partitions : geo.psum_partitions;
  if (partition >= parts || offset < 0 || offset + size > active) return false;
  const std::optional<uint64_t> a = sbuf ? sbuf_address(g, partition, static_cast<uint32_t>(offset))
                                         : psum_address(g, partition, static_cast<uint32_t>(offset));
  if (!a) return false;
  address = *a;
  return true;
}

bool onchip_run(Generation g, uint32_t start, unsigned channel, uint64_t count, unsigned size, int walk,
                uint64_t& address) {
  if (count == 0) return false;
  const uint64_t span = (count - 1) * size;
  if (span > uint64_t{INT32_MAX}) return false;
  uint64_t first = 0, last = 0;
  if (!onchip_element(g, start, channel, 0, size, first) ||
      !onchip_element(g, start, channel, walk * static_cast<int64_t>(span), size, last))
    return false;
  address = walk > 0 ? first : last;
  return (walk > 0 ? last - first : first - last) == span;  // one partition: every element between is in it too
}

bool onchip_rows(Generation g, uint32_t start, unsigned channels, uint64_t count, unsigned size, int walk,
                 uint64_t* rows) {
  if (channels == 0) return true;
  if (count == 0) return false;
  const uint64_t span = (count - 1) * size;
  if (span > uint64_t{INT32_MAX}) return false;
  const PartitionAddress s = decode_partition_offset(start, g);
  if (s.region == Region::Outside) return false;
  const Geometry& geo = geometry(g);
  const bool sbuf = s.region == Region::Sbuf;
  if (!sbuf && geo.psum_size == 0) return false;
  const uint32_t active = sbuf ? geo.sbuf_partition_active : geo.psum_partition_active;
  const uint32_t parts = sbuf ? geo.sbuf_partitions : geo.psum_partitions;
  if (uint64_t{s.partition} + channels > parts) return false;
  // The run's lowest and one-past-highest byte offsets in its partition (the same for every channel).
  const int64_t lo = walk > 0 ? int64_t{s.offset} : int64_t{s.offset} - static_cast<int64_t>(span);
  const int64_t hi = lo + static_cast<int64_t>(span) + size;
  if (lo < 0 || hi > int64_t{active}) return false;
  const uint64_t origin = sbuf ? geo.sbuf_offset : geo.psum_offset;
  const uint64_t stride = sbuf ? geo.sbuf_partition_size : geo.psum_partition_size;
  for (unsigned c = 0; c < channels; ++c)
    rows[c] = origin + (uint64_t{s.partition} + c) * stride + static_cast<uint64_t>(lo);
  return true;
}

namespace {

/// rows_in_place_ok and rows_apart_ok: `any_order` refuses the overlaps with the source rows of earlier channels too.
bool rows_ok(const uint64_t* src, uint64_t src_len, const uint64_t* dst, uint64_t dst_len, unsigned channels,
             bool same_size, bool any_order) {
  for (unsigned c = 1; c < channels; ++c)
    if (src[c] - src[c - 1] < src_len || src[c] < src[c - 1] || dst[c] - dst[c - 1] < dst_len || dst[c] < dst[c - 1])
      return false;  // not ascending and disjoint
  // Both lists ascend, so the source rows below destination row c stay below every later one: one pass.
  unsigned first = 0;  // the first source row not wholly below the current destination row
  for (unsigned c = 0; c < channels; ++c) {
    const uint64_t lo = dst[c], hi = dst[c] + dst_len;
    while (first < channels && src[first] + src_len <= lo) ++first;
    for (unsigned k = first; k < channels && src[k] < hi; ++k) {
      if (k < c && !any_order) continue;                                        // read before row c is written
      if (k == c && same_size && src[k] == lo && src_len == dst_len) continue;  // the very row, element by element
      return false;
    }
  }
  return true;
}

}  // namespace

bool rows_in_place_ok(const uint64_t* src, uint64_t src_len, const uint64_t* dst, uint64_t dst_len, unsigned channels,
                      bool same_size) {
  return rows_ok(src, src_len, dst, dst_len, channels, same_size, false);
}

bool rows_apart_ok(const uint64_t* src, uint64_t src_len, const uint64_t* dst, uint64_t dst_len, unsigned channels,
                   bool same_size) {
  return rows_ok(src, src_len, dst, dst_len, channels, same_size, true);
}

bool resolve_addr4(Txn& txn, const Addr4& a, uint32_t& base, std::string_view which) {
  const Addr4Meaning m = describe(a, txn.gen());
  if (!m.from_register) {
    base = m.target.masked;
    return true;
  }
  if (m.regnum >= kNumRegisters)
    return txn.fail_reg(
        FaultKind::IllegalRegister, m.regnum,
        fmt::format("{} start_addr names register r{} (registers are r0..r{})", which, m.regnum, kNumRegisters - 1));
  base = txn.reg(m.regnum) & kPartitionAddrMask;
  return true;
}

bool addr4_mode_supported(Txn& txn, const Addr4& a, std::string_view which) {
  const Addr4Meaning m = describe(a, txn.gen());
  if (m.indirect)
    return txn.fail(FaultKind::UnsupportedAddressingMode,
                    fmt::format("{} start_addr marker {:#04x} is an indirect operand", which, m.marker));
  return true;
}

bool addr4_shape_supported(Txn& txn, const Addr4& a, std::string_view which) {
  const Addr4Meaning m = describe(a, txn.gen());
  if (m.shape_from_register)
    return txn.fail(FaultKind::UnsupportedShapeRegister,
                    fmt::format("{} shape comes from a register (marker {:#04x}); shape-register state is not "
                                "modeled (PROJ-CONV-S1)",
                                which, m.marker));
  return true;
}

uint64_t nominal_element_address(Generation g, uint32_t start, unsigned channel, int64_t elem_byte_offset) {
  const PartitionAddress s = decode_partition_offset(start, g);
  const Geometry& geo = geometry(g);
  const uint64_t stride = s.region == Region::Psum ? geo.psum_partition_size : geo.sbuf_partition_size;
  return uint64_t{start} + uint64_t{channel} * stride + static_cast<uint64_t>(elem_byte_offset);
}

}  // namespace tpbisa::exec
