// Execution support shared by the family executors: a transaction that checks first and commits last.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "tpbisa/effects.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/state.hpp"

namespace tpbisa::exec {

/// Runs part(i) for every i < parts on at most `threads` threads (oneTBB, an arena per thread count), returning when
/// all are done; on the calling thread alone when threads or parts is 1. The parts must be independent.
void run_parts(unsigned threads, size_t parts, void (*part)(void* context, size_t i), void* context);
template <class F>
void for_parts(unsigned threads, size_t parts, F&& part) {
  if (threads <= 1 || parts <= 1) {
    for (size_t i = 0; i < parts; ++i) part(i);
    return;
  }
  using Part = std::remove_reference_t<F>;
  run_parts(
      threads, parts, [](void* context, size_t i) { (*static_cast<Part*>(context))(i); }, &part);
}

/// What an executing instruction sees, named as in MachineState: its core's memory, semaphores and events
/// and its own engine's registers and unit state (the references stay valid while the machine lives).
struct ExecState {
  Generation gen;
  SparseMemory& memory;
  std::array<uint32_t, kNumSemaphores>& sems;
  std::bitset<kNumEvents>& events;
  std::array<uint32_t, kNumRegisters>& regs;
  std::array<DveChannel, kDveChannels>& dve;
};

/// One instruction's execution: reads go to the committed state; writes are staged and applied by
/// commit() only when every check has passed, so a fault changes nothing (memory-and-numerics.md §5.1).
/// Reads and diagnostics are recorded only when the log records (MachineOptions::record_effects).
class Txn {
 public:
  Txn(CoreState& core, EngineState& engine, EffectLog& log, const MachineOptions& options, size_t index)
      : core_(core), engine_(engine), log_(log), options_(options), index_(index) {}

  ExecState state() { return {core_.gen, core_.memory, core_.sems, core_.events, engine_.regs, engine_.dve}; }
  CoreState& core() { return core_; }
  const CoreState& core() const { return core_; }
  EngineState& engine() { return engine_; }
  const EngineState& engine() const { return engine_; }
  Generation gen() const { return core_.gen; }
  const MachineOptions& options() const { return options_; }
  size_t index() const { return index_; }
  /// Words in the executing engine's stream (branch targets are checked against it).
  size_t stream_size() const { return stream_size_; }
  void set_stream_size(size_t n) { stream_size_ = n; }
  /// The engine whose stream holds the word, when the run knows it (a NEFF run, or `--engine`); nullopt for a bare
  /// stream (the placement checks then do not apply, PROJ-CONV-K1).
  std::optional<Engine> stream_engine() const { return stream_engine_; }
  void set_stream_engine(std::optional<Engine> e) { stream_engine_ = e; }

  /// Reads committed memory; records the read and an uninitialised-read diagnostic when needed.
  uint64_t read_mem(uint64_t address, unsigned size);
  /// Reads the `n` bytes at `address` (a run of n / elem elements of `elem` bytes, in one SBUF/PSUM partition or
  /// flat memory, already checked) into `out`. Counts as n / elem element reads; when recording, reads element by
  /// element exactly as read_mem does, so traces do not depend on the path.
  void read_block(uint64_t address, uint64_t n, unsigned elem, uint8_t* out);
  /// Stages the `n` bytes at `bytes` for `address` (n / elem elements of `elem` bytes); copied now, written at
  /// commit. When recording, staged element by element exactly as stage_mem does.
  void stage_block(uint64_t address, const uint8_t* bytes, uint64_t n, unsigned elem);
  /// The untraced block path's read of a run (never call it when recording): counts n / elem element reads
  /// and returns the run's bytes, in place when they are stored in one page and all written, else copied to
  /// `scratch` (n bytes) with an uninitialised-read diagnostic per element that was not written, as read_mem.
  const uint8_t* read_run(uint64_t address, uint64_t n, unsigned elem, uint8_t* scratch);
  /// The untraced block path's staged run (never call it when recording): n bytes (n / elem elements) for
  /// `address`, written at commit; returns where the caller writes them (valid until the next stage).
  uint8_t* stage_run(uint64_t address, uint64_t n, unsigned elem);
  /// Counts `n` diagnostics of one kind without recording them (the untraced block path only).
  void count_diags(DiagKind kind, uint64_t n) {
    log_.diag_counts[static_cast<size_t>(kind)] += n;
    log_.any_diag = true;
  }
  /// True when the log records effects (the executors' block paths are then the element paths).
  bool recording() const { return log_.record; }
  /// The executing engine's register r (r < 64).
  uint32_t reg(unsigned r) const { return engine_.regs[r]; }

  void stage_mem(uint64_t address, unsigned size, uint64_t value) {
    log_.mem.push_back({address, static_cast<uint8_t>(size), 0, value});
    log_.rare_effects = true;
  }
  void stage_reg(unsigned r, uint32_t value) { log_.regs.push_back({static_cast<uint8_t>(r), 0, value}); }
  /// Writes register r now instead of at commit: only for an untraced step past its last check whose commit
  /// cannot fail, i.e. one that has staged no memory write (commit's only refusals are the memory bound and an
  /// overfull register list). The MEM_2D block-path load is such a step: it reads memory and writes registers.
  /// The write is counted with the staged ones (StepResult::totals) but has no before-value (nothing is traced).
  void write_reg_in_place(unsigned r, uint32_t value) {
    engine_.regs[r] = value;
    ++log_.regs_in_place;
  }
  /// True when write_reg_in_place is allowed now: untraced, no memory write or block staged yet, and the memory
  /// within its bound (commit refuses any step while it is not).
  bool may_write_in_place() const {
    return !log_.record && log_.mem.empty() && log_.blocks.empty() &&
           core_.memory.allocated_bytes() <= core_.memory.max_bytes();
  }
  /// True when the untraced block path may write the `channels` runs of `n` bytes at rows[0..channels) straight
  /// into memory (write_run_in_place), decided before the step's first write: may_write_in_place() holds and every
  /// page the runs touch exists, or is made now within the memory bound, so that the step's commit, which then
  /// allocates nothing, cannot fail. A page made here holds nothing written (it reads as before); it is the page the
  /// commit would have made. Writing a run in place is not undone: the executor calls this past its last check and
  /// must know that nothing it does afterwards can fault.
  bool may_write_runs_in_place(const uint64_t* rows, unsigned channels, uint64_t n) {
    return may_write_runs_in_place_each([&](const auto& run) {
      for (unsigned c = 0; c < channels; ++c) run(rows[c], n);
    });
  }
  /// may_write_runs_in_place for the runs `each(run)` names, calling run(address, n) for every run (as often as
  /// this asks, the same runs each time).
  template <class EachRun>
  bool may_write_runs_in_place_each(const EachRun& each) {
    if (!may_write_in_place()) return false;
    // Every page the runs need is counted first (a page two runs share, twice): all are made, or none.
    uint64_t need = 0;
    bool wraps = false;
    each([&](uint64_t address, uint64_t n) {
      if (n != 0 && address + (n - 1) < address)
        wraps = true;  // the staged path decides
      else if (!core_.memory.pages_present(address, n))
        need += core_.memory.new_bytes_for(address, n);
    });
    if (wraps) return false;
    if (need == 0) return true;
    if (core_.memory.allocated_bytes() + need > core_.memory.max_bytes()) return false;
    each([&](uint64_t address, uint64_t n) { core_.memory.make_pages(address, n); });  // within the bound
    return true;
  }
  /// True when the n bytes at `address` are all written and lie in one stored span (read_run then reads them where
  /// they are): a run an executor may update in place.
  bool run_written(uint64_t address, uint64_t n) const { return core_.memory.written_span(address, n) != nullptr; }
  /// The run of n bytes (n / elem elements) at `address`, written in place: where the caller writes them, marked
  /// written and counted as staged elements are, or nullptr when the run does not lie in one page (the caller then
  /// stages it). Only after may_write_in_place() or may_write_runs_in_place() held for the step.
  uint8_t* write_run_in_place(uint64_t address, uint64_t n, unsigned elem) {
    uint8_t* p = core_.memory.claim_span(address, n);
    if (p != nullptr) log_.block_elems += n / elem;
    return p;
  }
  /// Records a read of unit state for the trace (nothing when not recording).
  void note_dve_read(unsigned channel, DveField field, unsigned slot, uint32_t value) {
    if (!log_.record) return;
    log_.dve_reads.push_back({static_cast<uint8_t>(channel), field, static_cast<uint8_t>(slot), value});
    log_.rare_effects = true;
  }
  void stage_dve(unsigned channel, DveField field, unsigned slot, uint32_t value) {
    log_.dve.push_back({static_cast<uint8_t>(channel), field, static_cast<uint8_t>(slot), 0, value});
    log_.rare_effects = true;
  }
  /// `set`: the update writes `value` (WR forms, a range clear, events) rather than adding to the semaphore.
  void stage_sem(unsigned index, bool event, uint32_t value, bool set) {
    log_.sems.push_back({static_cast<uint16_t>(index), event, 0, value, set});
    log_.rare_effects = true;
  }
  /// Semaphore `index` as this instruction sees it: its last staged value, else the committed one (so that
  /// several updates of one instruction compose: EventSemaphore's two lanes, a DMA's completion).
  uint32_t sem(unsigned index) const {
    for (auto it = log_.sems.rbegin(); it != log_.sems.rend(); ++it)
      if (!it->event && it->index == index) return it->after;
    return core_.sems[index];
  }
  /// A NEFF run's DRAM view of this core (nullptr outside a NEFF run).
  DramView* dram() { return core_.dram; }
  /// Stages `n` bytes for DRAM at `to` (copied now; written at commit).
  void stage_dram(uint8_t* to, const uint8_t* from, uint64_t n) {
    const uint64_t at = log_.dram_bytes.size();
    log_.dram_bytes.insert(log_.dram_bytes.end(), from, from + n);
    log_.dram.push_back({to, at, n});
    log_.rare_effects = true;
  }
  /// The engine's PE weights themselves, for a load past its last check while may_write_in_place() holds: nothing
  /// can undo it then, and the commit has no 64 KiB array to copy.
  PeWeights& pe_in_place() { return engine_.pe; }
  /// The PE's next stationary matrix, applied at commit (LdWeights).
  PeWeights& stage_pe() {
    log_.pe_staged = true;
    return log_.pe_pending;
  }
  /// The engine's next loaded activation set (ACTSET), applied at commit (the table loads).
  void stage_act_set(const act::TableSet* set) {
    log_.act_set_staged = true;
    log_.act_set_pending = set;
  }
  void add_macs(uint64_t n) { log_.macs += n; }
  /// Control flow (sequencer words): the next instruction is `index` of this stream / the engine stops.
  void stage_jump(size_t index) {
    log_.jump = true;
    log_.jump_to = index;
  }
  void stage_halt() { log_.halt = true; }
  /// A DRAM range a DMA reads or writes (for the race check). A range that continues the last one (the same
  /// variable and kind, the next byte) extends it, so a contiguous walk is one range however many chunks it has.
  void note_dram(const uint8_t* base, uint64_t offset, uint64_t n, bool write) {
    if (!log_.dram_ranges.empty()) {
      EffectLog::DramRange& last = log_.dram_ranges.back();
      if (last.base == base && last.write == write && last.offset + last.n == offset) {
        last.n += n;
        return;
      }
    }
    log_.dram_ranges.push_back({base, offset, n, write});
    log_.rare_effects = true;
  }
  void add_dma_bytes(uint64_t n) { log_.dma_bytes += n; }
  /// Reusable scratch of the effect log (cleared by nobody: executors size them as they need).
  EffectLog& scratch() { return log_; }
  void diag(DiagKind kind, uint64_t address, unsigned size) {
    ++log_.diag_counts[static_cast<size_t>(kind)];
    log_.any_diag = true;
    if (log_.record && log_.diags.size() < log_.cap) {
      log_.diags.push_back({kind, address, static_cast<uint8_t>(size)});
      log_.rare_effects = true;
    }
  }
  /// ImmLd records which class loaded each flop (PROJ-CONV-T14); applied with the DVE writes.
  void stage_imm_class(unsigned channel, unsigned slot, DveChannel::ImmClass c) {
    log_.imm_class.push_back({static_cast<uint8_t>(channel), static_cast<uint8_t>(slot), c});
    log_.rare_effects = true;
  }

  /// Sets the fault and returns false (so executors can `return txn.fail(...)`).
  bool fail(FaultKind kind, std::string detail);
  bool fail_at(FaultKind kind, uint64_t address, std::string detail);
  bool fail_reg(FaultKind kind, int reg, std::string detail);
  /// The fault set by fail(); a default Fault while none was.
  const Fault& fault() const;

  /// Applies every staged write in order (last write wins); when recording, fills the before values of
  /// the recorded ones. Fails with MemoryLimit, applying nothing, when the new pages would exceed the bound.
  bool commit();

 private:
  /// commit()'s part for the lists most steps leave empty (EffectLog::rare_effects): DVE, DRAM, flop classes and
  /// semaphores.
  void commit_rare();
  CoreState& core_;
  EngineState& engine_;
  EffectLog& log_;
  const MachineOptions& options_;
  size_t index_;
  size_t stream_size_ = SIZE_MAX;
  std::optional<Engine> stream_engine_;
  bool faulted_ = false;
  /// The log's fault, reset to a default Fault on this transaction's first failure.
  Fault& fault_slot();
};

/// Stages one semaphore/event update (UPDATE_MODE `mode` on index `idx` with operand or register `value`);
/// the read and complete forms both apply at retirement. Relative updates start from the value this
/// instruction has already staged (Txn::sem). Fails with IllegalRegister for a register form naming r >= 64.
bool stage_event_update(Txn& txn, uint8_t mode, uint8_t idx, uint32_t value);

/// The on-chip region check of one element access (PROJ-CONV-N2): the `size` bytes at `address` lie in
/// one SBUF or PSUM partition, below its active size. Neuron addresses outside the low region are flat
/// memory and always accessible (PROJ-CONV-N4).
bool neuron_access_ok(Generation g, uint64_t address, unsigned size);

/// Address of element `elem_byte_offset` of channel `channel` for a pattern starting at on-chip address
/// `start` (masked PartitionOffset): partition = start partition + channel, offset = start offset + delta.
/// Returns false when the element leaves SBUF/PSUM or its partition's backed bytes.
bool onchip_element(Generation g, uint32_t start, unsigned channel, int64_t elem_byte_offset, unsigned size,
                    uint64_t& address);

/// Resolves an ADDR4 start to its masked on-chip base: an immediate, or R[regnum] & 0x1FFFFFFF
/// (PROJ-CONV-N16). Fails with IllegalRegister for regnum >= 64.
bool resolve_addr4(Txn& txn, const Addr4& a, uint32_t& base, std::string_view which);

/// Refuses indirect ADDR4 operands (UnsupportedAddressingMode, step 3 of PROJ-CONV-N15).
bool addr4_mode_supported(Txn& txn, const Addr4& a, std::string_view which);
/// Refuses shape-from-register ADDR4 operands (UnsupportedShapeRegister, after every addressing-mode check).
bool addr4_shape_supported(Txn& txn, const Addr4& a, std::string_view which);

/// The element step of a TENSOR3D/TENSOR4D pattern that walks its elements consecutively, forwards (+1) or
/// backwards (-1): every dimension that counts more than one element steps by that sign times the product of the
/// faster counts, so element k is at element offset step * k and a channel's elements are one run of bytes. 0 when
/// the pattern is not such a walk.
template <class T>
int pattern_walk(const T& t) {
  for (const int sign : {1, -1}) {
    int64_t span = 1;
    bool ok = true;
    for (size_t d = 0; d < t.num_elem.size() && ok; ++d) {
      const int64_t n = t.num_elem[d] == 0 ? 1 : int64_t{t.num_elem[d]};
      ok = n <= 1 || int64_t{t.step_elem[d]} == sign * span;
      span *= n;
    }
    if (ok) return sign;
  }
  return 0;
}

/// The run of `count` elements of `size` bytes of channel `channel` walked with element step `walk` (+1 or -1)
/// from on-chip address `start`: true with the address of the run's lowest byte when every element is accessible
/// (one check for the run, the verdict onchip_element gives each element); false otherwise (the caller then finds
/// the failing element).
bool onchip_run(Generation g, uint32_t start, unsigned channel, uint64_t count, unsigned size, int walk,
                uint64_t& address);

/// onchip_run for channels 0 .. channels - 1 at once (the start is decoded once): true with rows[c] the lowest
/// byte of channel c's run when every run is accessible (true for no channels), the verdict each channel's
/// onchip_run gives; false otherwise.
bool onchip_rows(Generation g, uint32_t start, unsigned channels, uint64_t count, unsigned size, int walk,
                 uint64_t* rows);

/// A run of each of `channels` channels (the block path): rows[c] is the lowest byte of channel c's `count`
/// elements of `size` bytes; `walk` is the pattern's element step (+1: element k at rows[c] + k * size; -1: at
/// rows[c] + (count - 1 - k) * size). False when recording (traces show element accesses), when the pattern is
/// not a walk, or when a run fails its check: the executor then takes its element path, which finds the failing
/// element for the fault.
template <class T, size_t N>
bool row_runs(Txn& txn, uint32_t base, const T& pattern, unsigned channels, uint64_t count, unsigned size,
              std::array<uint64_t, N>& rows, int& walk) {
  walk = pattern_walk(pattern);
  if (txn.recording() || channels > N || walk == 0) return false;
  return onchip_rows(txn.gen(), base, channels, count, size, walk, rows.data());
}

/// row_runs for a forward walk only (the destinations and sources whose rows are used as they lie).
template <class T, size_t N>
bool forward_runs(Txn& txn, uint32_t base, const T& pattern, unsigned channels, uint64_t count, unsigned size,
                  std::array<uint64_t, N>& rows) {
  int walk = 0;
  return row_runs(txn, base, pattern, channels, count, size, rows, walk) && walk == 1;
}

/// Whether an elementwise executor that reads source row c and then writes destination row c, channel after
/// channel, may write the destination rows in place: writing row c must change no source row still to be read —
/// those of later channels — nor its own source row unless it is that very row with elements of the same size
/// (`same_size`; element k is then read before it is written). Each list's rows (`src_len` and `dst_len` bytes)
/// must be ascending and disjoint, as runs of consecutive partitions are; lists that are not are refused.
bool rows_in_place_ok(const uint64_t* src, uint64_t src_len, const uint64_t* dst, uint64_t dst_len, unsigned channels,
                      bool same_size);

/// rows_in_place_ok for channels processed in any order (on several threads): no destination row may overlap a source
/// row of another channel, and its own only as that very row with elements of the same size.
bool rows_apart_ok(const uint64_t* src, uint64_t src_len, const uint64_t* dst, uint64_t dst_len, unsigned channels,
                   bool same_size);

/// The elements of `size` bytes from `address` on (at most `left`, at least one) that lie in one stored span of
/// memory: a page, or below SparseMemory::kDenseLimit a dense block, which is read and written in place whole.
inline uint64_t span_piece(uint64_t address, unsigned size, uint64_t left) {
  const uint64_t span = address < SparseMemory::kDenseLimit ? SparseMemory::kDenseBlockBytes : SparseMemory::kPageBytes;
  const uint64_t room = (span - address % span) / size;
  return std::min(left, std::max<uint64_t>(room, 1));
}

/// The address an element would have, for fault reports: start + channel partitions + byte offset.
uint64_t nominal_element_address(Generation g, uint32_t start, unsigned channel, int64_t elem_byte_offset);

/// Sign/zero extension helpers.
constexpr uint32_t sign_extend(uint64_t v, unsigned bytes) {
  const unsigned bits = bytes * 8;
  if (bits >= 32) return static_cast<uint32_t>(v);
  const uint32_t x = static_cast<uint32_t>(v) & ((1U << bits) - 1U);
  const uint32_t sign = 1U << (bits - 1);
  return (x ^ sign) - sign;
}

}  // namespace tpbisa::exec
