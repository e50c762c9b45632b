// Execution vocabulary below the machine: the options, faults and effects of executing one instruction.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tpbisa/numerics.hpp"
#include "tpbisa/state.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {

/// Default for MachineOptions::max_recorded_effects (docs/trace.md, "Bounded records").
inline constexpr size_t kDefaultMaxRecordedEffects = 4096;

/// The order of the scheduler's turns (PROJ-CONV-P2); every order is deterministic.
enum class Schedule : uint8_t {
  RoundRobin,         ///< engines PE, ACT, POOL, DVE, SP, cores in order (the default)
  ReverseRoundRobin,  ///< the reverse: SP .. PE, last core first (a check that a result does not depend on order)
  Random,             ///< each turn a pseudo-random unfinished engine, from MachineOptions::seed (splitmix64)
};

/// Deliberately wrong readings of the spec, one switch each, for the negative controls of real-programs.md
/// §13.2 and §13.3: a test turns one on and shows that the program's result breaks. All off by default.
struct NegativeControls {
  bool lw_read_order_fill = false;        ///< LdWeights fills columns in read order (no LAST_COL_FIRST reversal)
  bool transpose_writes_fp32 = false;     ///< transpose-mode Matmul writes 4-byte FP32 values
  bool matmul_never_accumulates = false;  ///< every Matmul overwrites (MID/END do not accumulate)
  bool es_lane0_only = false;             ///< EventSemaphore honours only the lane-0 wait (not PROJ-CONV-F3)
};

struct MachineOptions {
  /// PROJ-CONV-S8 / T10 `dve_stub_mode = firmware`: ImmLd and PtrMulti retire as the shipped firmware's
  /// log-only stubs (no operand state change). Default: the header contract.
  bool firmware_stubs = false;
  ValidateOptions validate{};
  /// Threads one step's long product may use: a Matmul's moving columns are split across them, each column computed
  /// exactly as on one thread, so every count gives the same bits. A long DMA's chunks are copied on them too when no
  /// two land on the same bytes, and a long ACTIVATE's rows are evaluated on them (kernel_split_elements). A NEFF run
  /// sets it from the threads its cores leave free (io::NeffRunOptions::max_threads over the cores).
  unsigned kernel_threads = 1;
  /// The fewest multiply-adds a Matmul has for its columns to be split across kernel_threads (a smaller product costs
  /// less than handing parts to other threads, which then spin a while waiting for the next).
  uint64_t kernel_split_macs = uint64_t{1} << 21;
  /// The fewest elements (all channels) an ACTIVATE has for its channels' rows to be evaluated across kernel_threads
  /// (each row evaluated as on one thread, so every count gives the same bits).
  uint64_t kernel_split_elements = uint64_t{1} << 16;
  ConvertOptions convert{};
  /// Bound on simulated memory (bytes of allocated pages); exceeding it is a MemoryLimit fault.
  uint64_t max_memory = uint64_t{1} << 30;
  /// Bound on the element accesses of a PtrMulti (all channels), the elements and chunks a PseudoDmaDirect2d moves;
  /// beyond it: ResourceLimit. Others are bounded by the ISA itself (at most 32 elements, or 128 channels x 8).
  uint64_t max_elements_per_instruction = uint64_t{1} << 22;
  /// PROJ-CONV-P1: the engine a single stream runs on, and the engine `Machine::state()` shows.
  EngineId engine = EngineId::Dve;
  Schedule schedule = Schedule::RoundRobin;
  /// Record each step's effects (writes with before-values, reads, diagnostics) for a trace. Off, a step
  /// reports only its status, its fault or blocked wait and the per-kind counts: the fast path.
  bool record_effects = false;
  /// When recording: at most this many entries of each effect list per step; the rest are only counted.
  size_t max_recorded_effects = kDefaultMaxRecordedEffects;
  /// Seed of Schedule::Random.
  uint64_t seed = 0;
  /// A NEFF-level run (real-programs.md §6-§7): PseudoBranchLabel 0xcc is a no-op slot (PROJ-CONV-F7) and
  /// PseudoDmaDirect2d 0xd4 moves its data synchronously (PROJ-CONV-F9); each word is validated once, with its
  /// stream's engine. Off: pseudo words are refused (PROJ-CONV-C12), as for a single stream.
  bool neff_mode = false;
  NegativeControls controls{};
  /// PROJ-CONV-A7 `act_builtin_exact`: with no set loaded, ACTIVATE evaluates the seven exactly-known functions from a
  /// built-in set (identity, copy, relu, abs, sign, square, memset_zero); off: ActivationTableNotLoaded.
  bool act_builtin_exact = false;
  /// PROJ-CONV-A3 `pwp_nan = fallthrough`: a NaN input takes the reference model's path instead of fnan_result.
  bool pwp_nan_fallthrough = false;
};

/// Every way an instruction can fail to execute (docs/trace.md lists them with their meaning). A wait that
/// is not satisfied is not a fault: the step is blocked (StepResult::Status::Blocked).
enum class FaultKind : uint8_t {
  InvalidInstruction,         ///< the word fails validation on the generation (carries the verdict)
  PseudoNotLowered,           ///< raw 0xcd/0xce (PROJ-CONV-M9); lower it first
  UnsupportedOpcode,          ///< a valid opcode whose execution tpbisa does not model
  UnsupportedDtype,           ///< a dtype the executor has no element semantics for (PROJ-CONV-S9, T13)
  UnsupportedAddressingMode,  ///< ADDR8 table or unlisted register marker (PROJ-CONV-M6), indirect ADDR4
  UnsupportedShapeRegister,   ///< shape from a register (PROJ-CONV-S1)
  IllegalRegister,            ///< a register number >= 64 (PROJ-CONV-M4, N16, C3)
  WindowViolation,            ///< MEM_2D bytes cross a 16 MiB window (PROJ-CONV-M3)
  OutOfRange,                 ///< an element beyond its partition's backed bytes or outside SBUF/PSUM (N2)
  MemoryLimit,                ///< the simulated memory bound would be exceeded
  ResourceLimit,              ///< more element accesses than the bound allows, or register writes than a step holds
  IllegalBranchTarget,        ///< a branch target off the 64-byte grid or outside its stream (PROJ-CONV-Q12)
  WrongEngine,  ///< the opcode does not run on the engine whose stream holds it (PROJ-CONV-K1, A17; engine known)
  // The activation engine's tables (act-index-ops.md §2.6 step 4b, §3.9, §8):
  ActivationTableNotLoaded,       ///< an activation with no set loaded (PROJ-CONV-A7)
  ActivationFunctionNotInSet,     ///< the function id is not in the loaded set (PROJ-CONV-A7)
  UnsupportedActivationFunction,  ///< a multipass profile (A5), or parametric ReLU in ACTIVATE_QUANTIZE (A13)
  ActivationSetIndexOutOfRange,   ///< a table load's set index beyond the subgraph's catalog (PROJ-CONV-A6)
  ActivationSetNotInNeff,         ///< a table load's set, or one of its members, is not in the NEFF
  ActivationTableError,           ///< a table member that is present but damaged, or an index outside a table
};
std::string_view to_string(FaultKind k);

struct Fault {
  FaultKind kind = FaultKind::InvalidInstruction;
  size_t index = 0;      ///< instruction index in the engine's stream
  uint64_t address = 0;  ///< the address involved, when there is one
  bool has_address = false;
  int reg = -1;                     ///< the register involved, or -1
  Verdict verdict{};                ///< for InvalidInstruction
  std::string detail;               ///< one sentence
  EngineId engine = EngineId::Dve;  ///< the engine whose instruction faulted
  unsigned core = 0;
};

// ---- Effects of a retired instruction ----

struct RegWrite {
  uint8_t reg;
  uint32_t before;
  uint32_t after;
};
struct MemWrite {
  uint64_t address;
  uint8_t size;     ///< bytes (1..8)
  uint64_t before;  ///< little-endian value of the bytes before
  uint64_t after;
};
struct MemRead {
  uint64_t address;
  uint8_t size;
  bool initialized;  ///< false when any byte had never been written (it read as 0)
};
/// A unit-state register an instruction writes: the DVE flops (Imm, MatchKey, the BatchNorm parameters), the
/// per-channel accumulator (Acc), the matched indices (MatchIndex: slot 0..7) and the engine's 32-lane shuffle map
/// (Mask: `channel` is the lane).
enum class DveField : uint8_t { Imm, MatchKey, BnN, BnMean, BnA, BnB, BnC, Acc, Mask, MatchIndex };
std::string_view to_string(DveField f);
struct DveWrite {
  uint8_t channel;
  DveField field;
  uint8_t slot;  ///< Imm and MatchKey: 0..7
  uint32_t before;
  uint32_t after;
};
/// A read of unit state the trace shows (the ACT accumulators read by ACTIVATE's ACCUMULATE, ACTIVATE2's REDUCE and
/// ACTIVATION_READ_ACCUMULATOR): the value read, recorded only when recording.
struct DveRead {
  uint8_t channel;
  DveField field;
  uint8_t slot;
  uint32_t value;
};
struct SemWrite {
  uint16_t index;
  bool event;  ///< an event bit (SUNDA..MARIANA) rather than a semaphore
  uint32_t before;
  uint32_t after;
  bool set = false;  ///< the update wrote its value (a WR form, a range clear, an event) rather than adding to it
};
enum class DiagKind : uint8_t {
  UninitializedRead,    ///< memory never written, read as 0
  UnalignedAccess,      ///< register-sourced MEM_2D base not dtype-aligned, done byte-wise (PROJ-CONV-M10)
  UnwrittenScalar,      ///< a DVE flop never written is read (PROJ-CONV-S10, T14)
  ScalarClassMismatch,  ///< Arith PtrMulti reads a Bitvec-loaded flop or vice versa (PROJ-CONV-T14)
  FirmwareStub,         ///< retired as a log-only firmware stub (PROJ-CONV-S8, T10)
};
inline constexpr size_t kDiagKinds = 5;
std::string_view to_string(DiagKind k);
struct Diagnostic {
  DiagKind kind;
  uint64_t address;  ///< memory address, or channel * 8 + slot for DVE diagnostics
  uint8_t size;
};

/// How many effects of each kind a step made; a recorded list shorter than its total was capped.
struct EffectTotals {
  uint64_t regs = 0, mem = 0, reads = 0, dve = 0, sems = 0, diagnostics = 0;
  bool operator==(const EffectTotals&) const = default;
};

/// Register writes staged by one instruction, in a fixed array: a step stages at most 64 (a TensorLoad of 32 UINT64
/// elements, two registers each; CtrlMv stages at most its 8 slots), so staging is a store and a count, never an
/// allocation. The capacity is twice that; a push past it is dropped and marks the list overflowed, which commit
/// refuses (ResourceLimit) rather than apply part of the instruction.
struct RegWriteList {
  static constexpr size_t kCapacity = 128;
  std::array<RegWrite, kCapacity> items{};  // zeroed once (a copied log copies no indeterminate values)
  size_t count = 0;
  bool overflowed = false;

  void push_back(const RegWrite& w) {
    if (count == kCapacity) {
      overflowed = true;
      return;
    }
    items[count++] = w;
  }
  void clear() {
    count = 0;
    overflowed = false;
  }
  size_t size() const { return count; }
  bool empty() const { return count == 0; }
  const RegWrite* data() const { return items.data(); }
  RegWrite* begin() { return items.data(); }
  RegWrite* end() { return items.data() + count; }
  const RegWrite* begin() const { return items.data(); }
  const RegWrite* end() const { return items.data() + count; }
  const RegWrite& operator[](size_t i) const { return items[i]; }
};

/// The effect log the executors fill through exec::Txn. Staged writes are always kept (commit applies
/// them); reads and diagnostics are kept only when recording, at most `cap` of each; every kind is counted.
struct EffectLog {
  /// The byte buffers that keep their high-water size across steps (staged bytes, executor scratch): a large row
  /// fills them from fresh memory once, so large ones take huge pages where the system gives them.
  using Bytes = std::vector<uint8_t, detail::HugeAdvisedAllocator<uint8_t>>;
  RegWriteList regs;
  std::vector<MemWrite> mem;
  std::vector<MemRead> reads;
  std::vector<DveWrite> dve;
  std::vector<DveRead> dve_reads;  ///< only when recording
  std::vector<SemWrite> sems;
  std::vector<Diagnostic> diags;
  uint64_t reads_total = 0;
  /// Registers written in place by the untraced block-path load (Txn::write_reg_in_place), counted with `regs`.
  uint64_t regs_in_place = 0;
  std::array<uint64_t, kDiagKinds> diag_counts{};
  bool any_diag = false;  ///< a diagnostic was counted since the last clear (so clearing and summing skip the counts)
  /// Something was staged in the lists most steps leave empty (mem, reads, dve, sems, diags, imm_class, dram,
  /// dram_ranges): while false they are all empty, so clear() and Txn::commit() skip them (a step of the block
  /// path stages only registers and blocks). Set by the Txn calls that push to them.
  bool rare_effects = false;
  bool record = false;
  size_t cap = kDefaultMaxRecordedEffects;

  /// ImmLd's flop classes (PROJ-CONV-T14), applied with the DVE writes.
  struct ImmClassWrite {
    uint8_t channel, slot;
    DveChannel::ImmClass cls;
  };
  std::vector<ImmClassWrite> imm_class;
  std::vector<uint64_t> pages;  ///< commit's scratch: the pages the staged writes touch
  /// The fault of the step that failed, filled by the executing transaction only when it fails (so a step that
  /// retires builds no Fault); read through Txn::fault().
  Fault fault;
  /// Staged memory writes as byte blocks (the executors' fast path when nothing is recorded): `n` bytes from
  /// `block_bytes[from]` to `address`, applied at commit after `mem`. `block_elems` counts their elements.
  /// `block_bytes` keeps its high-water size across steps (so staging neither allocates nor zero-fills once
  /// warm); its first `block_used` bytes are this step's.
  struct MemBlock {
    uint64_t address, from, n;
  };
  std::vector<MemBlock> blocks;
  Bytes block_bytes;
  uint64_t block_used = 0;
  uint64_t block_elems = 0;

  /// A staged DRAM write (a NEFF run's DMA): `n` bytes from `dram_bytes[from]` to `to`.
  struct DramWrite {
    uint8_t* to;
    uint64_t from, n;
  };
  std::vector<DramWrite> dram;
  Bytes dram_bytes;
  /// LdWeights' new stationary matrix, applied to the PE's state at commit when `pe_staged`.
  bool pe_staged = false;
  PeWeights pe_pending{};
  /// A table load's new ACTSET, applied to the engine at commit when `act_set_staged`.
  bool act_set_staged = false;
  const act::TableSet* act_set_pending = nullptr;
  const act::TableSet* act_set_before = nullptr;  ///< the engine's set the load replaced (set at commit)
  /// Control flow staged by the sequencer words: a jump to instruction `jump_to` of the engine's stream, or a
  /// halt (HALT, PseudoInst exit); applied by the machine after commit.
  bool jump = false, halt = false;
  size_t jump_to = 0;
  /// A DRAM byte range a DMA of the step read or wrote (always kept: a few per DMA), for the race check.
  struct DramRange {
    const uint8_t* base;  ///< the variable's first byte
    uint64_t offset, n;
    bool write;
  };
  std::vector<DramRange> dram_ranges;
  uint64_t macs = 0;       ///< multiply-adds of the step, added to the core's count at commit
  uint64_t dma_bytes = 0;  ///< DMA bytes of the step, added to the core's DRAM counters at commit
  /// Executor scratch reused across steps (so the hot path allocates only while it grows). A resize leaves the
  /// elements it adds as they were (HugeAdvisedAllocator): every user writes them before reading them.
  using Floats = std::vector<float, detail::HugeAdvisedAllocator<float>>;
  Floats f32a, f32b, f32c;
  Bytes bytes_a, bytes_b;

  void clear() {
    regs.clear();
    if (rare_effects) {
      mem.clear();
      reads.clear();
      dve.clear();
      dve_reads.clear();
      sems.clear();
      diags.clear();
      imm_class.clear();
      dram.clear();
      dram_bytes.clear();
      dram_ranges.clear();
      rare_effects = false;
    }
    blocks.clear();
    block_used = 0;
    block_elems = 0;
    pe_staged = false;
    act_set_staged = false;
    jump = halt = false;
    macs = 0;
    dma_bytes = 0;
    reads_total = 0;
    regs_in_place = 0;
    if (any_diag) diag_counts = {};
    any_diag = false;
  }
};

}  // namespace tpbisa
