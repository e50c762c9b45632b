// The functional simulator: cores of five engines stepped by a deterministic scheduler; every turn returns
// one StepResult (retired, blocked on its wait, faulted, or halted).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tpbisa/effects.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/state.hpp"

namespace tpbisa {

namespace exec {
class Txn;
}

/// The wait an engine is stalled on: its instruction, the semaphore or event, its value and the condition.
struct BlockedWait {
  unsigned core = 0;
  EngineId engine = EngineId::Dve;
  size_t index = 0;  ///< instruction index in the engine's stream (byte offset index * 64)
  uint8_t opcode = 0;
  std::string_view name;
  bool event = false;       ///< an event wait (SUNDA..MARIANA) rather than a semaphore wait
  uint16_t id = 0;          ///< the semaphore or event index (events.wait_idx)
  uint32_t value = 0;       ///< the semaphore's current value (events: 1 set, 0 clear)
  uint8_t wait_mode = 0;    ///< events.wait_mode
  uint32_t comparand = 0;   ///< semaphore waits: the value compared with (register forms: resolved)
  int reg = -1;             ///< register forms: the register read for the comparand, else -1
  uint32_t reg_offset = 0;  ///< MAVERICK SEM_*_REG_OFFSET: the offset added to the register
};
/// The condition in assembly spelling: `$S[4]>=2`, `$S[4]>=r5`, `$S[4]>=r5+0x10`, `$E[3]?set`, `$E[3]?clear`.
std::string wait_condition(const BlockedWait& w);

struct StepResult {
  enum class Status : uint8_t {
    Retired,  ///< the instruction executed and its engine advanced
    Faulted,  ///< the instruction changed nothing; its engine stays at it
    Halted,   ///< no engine has an instruction left
    Blocked,  ///< the instruction's EVENTS wait is not satisfied yet: nothing changed, the engine yields
  };
  Status status = Status::Halted;
  unsigned core = 0;
  EngineId engine = EngineId::Dve;
  size_t index = 0;
  uint8_t opcode = 0;
  std::string_view name;
  // Effects, valid until the next step (the buffers belong to the Machine and are reused). Empty unless
  // MachineOptions::record_effects; at most max_recorded_effects entries each (see `totals`).
  std::span<const RegWrite> reg_writes;
  std::span<const MemWrite> mem_writes;
  std::span<const MemRead> mem_reads;
  std::span<const DveWrite> dve_writes;
  std::span<const DveRead> dve_reads;  ///< the ACT accumulators read (recorded steps only)
  /// A table load retired (ACTIVATION_TABLE_LOAD, PSEUDO_LOAD_ACT_FUNC_SET): the engine's activation-function set
  /// before and after it (nullptr: none). Filled whether recording or not.
  bool act_set_loaded = false;
  const act::TableSet* act_set_before = nullptr;
  const act::TableSet* act_set_after = nullptr;
  std::span<const SemWrite> sem_writes;
  std::span<const Diagnostic> diagnostics;
  /// The DRAM ranges the step's DMA read and wrote (always filled; valid until the next step).
  std::span<const EffectLog::DramRange> dram_ranges;
  bool recorded = false;  ///< the effect lists were recorded (MachineOptions::record_effects)
  /// How many effects of each kind the retired instruction made, recorded or not.
  EffectTotals totals{};
  /// Diagnostics per DiagKind (always counted, recorded or not).
  std::array<uint64_t, kDiagKinds> diagnostic_counts{};
  Fault fault{};       ///< when Faulted
  BlockedWait wait{};  ///< when Blocked
};

/// The name of an activation-function set (act-index-ops.md §3.4) as state dumps and traces show it: "" for none.
std::string_view activation_set_name(const act::TableSet* set);

/// Outcome of Machine::run.
struct RunSummary {
  size_t retired = 0;
  bool faulted = false;
  bool step_limit = false;   ///< stopped by max_steps before the program ended
  bool deadlock = false;     ///< every engine that had not finished was blocked
  bool interrupted = false;  ///< RunHooks::on_progress stopped the run
  Fault fault{};
  std::vector<BlockedWait> blocked;  ///< on deadlock: the wait of each blocked engine, in engine order
  std::array<uint64_t, kDiagKinds> diagnostic_counts{};
};

/// Words retired between two calls of RunHooks::on_progress, unless the hooks say otherwise.
inline constexpr uint64_t kProgressWords = 4096;

/// What a run reports while it goes; both optional. Every loop that steps a machine to its end (the single-stream
/// `tpbisa run`, a NEFF run, Python's Machine.run and Neff.run) is Machine::run or Machine::run_core with these.
struct RunHooks {
  /// Every retired or faulting step (blocked turns are not reported), on the thread that runs the loop. Set, it
  /// makes every word a scheduler turn with a step result (the single stream's fast path is not taken).
  std::function<void(const StepResult&)> on_step;
  /// Each time the count of retired words reaches a multiple of `progress_words`, with that count; returning false
  /// stops the run there (RunSummary::interrupted): a progress line, a check for Ctrl-C.
  std::function<bool(uint64_t retired)> on_progress;
  /// At least 1. A run of heavy words (a NEFF's matmuls and DMAs) that must answer Ctrl-C promptly asks for every
  /// word and keeps its hook cheap; the single stream's fast path runs this many plain words between two calls.
  uint64_t progress_words = kProgressWords;
};

/// The streams of one core, by engine (an engine without words has finished from the start).
class CoreProgram {
 public:
  CoreProgram() = default;
  std::vector<Word>& stream(EngineId e) { return streams_[static_cast<size_t>(e)]; }
  const std::vector<Word>& stream(EngineId e) const { return streams_[static_cast<size_t>(e)]; }
  /// Engine e's words held by someone else that outlives the machine (a NEFF's stream, a whole number of words):
  /// viewed rather than copied. Used instead of stream(e) when not empty.
  void view(EngineId e, std::span<const uint8_t> bytes) { views_[static_cast<size_t>(e)] = bytes; }
  std::span<const uint8_t> view(EngineId e) const { return views_[static_cast<size_t>(e)]; }

 private:
  std::array<std::vector<Word>, kEnginesPerCore> streams_;
  std::array<std::span<const uint8_t>, kEnginesPerCore> views_{};
};

/// One engine's sequencer: its program counter and its stream. Only the words are held, or viewed where someone
/// else holds them (a NEFF's streams), and a byte per word (the verdict and plain executor judged when the machine
/// is built); a word is decoded when it issues, so that a program of 10^7 words costs a byte a word beyond its
/// words. Its registers and unit state are `Core::engine_state(id)`.
class Sequencer {
 public:
  Sequencer() = default;
  /// Its words: `view` when not empty (held elsewhere), else `words` (its own).
  Sequencer(EngineId id, std::vector<Word> words, std::span<const uint8_t> view, Generation gen);
  Sequencer(const Sequencer& other) { *this = other; }
  Sequencer& operator=(const Sequencer& other);
  Sequencer(Sequencer&& other) noexcept { *this = std::move(other); }
  Sequencer& operator=(Sequencer&& other) noexcept;
  ~Sequencer() = default;
  EngineId id() const { return id_; }
  size_t pc() const { return pc_; }
  size_t size() const { return size_; }
  /// Falling off the end of the stream is an implicit HALT (PROJ-CONV-Q1).
  bool finished() const { return halted_ || pc_ >= size_; }
  /// The engine stopped on a HALT (or a PseudoInst exit) before the end of its stream.
  bool halted() const { return halted_; }
  /// Words this engine has retired.
  uint64_t retired() const { return retired_; }
  /// The instruction at index i, decoded from its word.
  Instruction instruction(size_t i) const { return decode(word(i), gen_); }
  /// The word at index i (i < size()).
  std::span<const uint8_t, kWordBytes> word(size_t i) const {
    return std::span<const uint8_t, kWordBytes>(bytes_ + i * kWordBytes, kWordBytes);
  }
  /// The wait of its last turn when that turn was blocked.
  const std::optional<BlockedWait>& blocked() const { return blocked_; }

 private:
  friend class Machine;
  /// A word's kind: invalid, valid (not plain), or plain with executor Machine::executors_[kind - kPlain]. A plain
  /// word is valid, has no EVENTS wait or update, is not a pseudo word and not an EventSemaphore: Machine::run
  /// retires it without a scheduler turn or a step result.
  /// kUnjudged: not judged yet (a single-core machine judges a word when it first issues).
  static constexpr uint8_t kInvalid = 0, kValid = 1, kPlain = 2, kUnjudged = UINT8_MAX;
  EngineId id_ = EngineId::Dve;
  Generation gen_ = kDefaultGeneration;
  std::vector<Word> owned_;         ///< its own words (empty when it views someone else's)
  const uint8_t* bytes_ = nullptr;  ///< the words: owned_'s or the viewed ones
  size_t size_ = 0;                 ///< words
  std::vector<uint8_t> kinds_;      ///< per word, judged once: when built, or (one core) when it first issues
  size_t pc_ = 0;
  bool halted_ = false;
  std::optional<BlockedWait> blocked_;
  uint64_t blocked_epoch_ = 0;  ///< the machine's retirement count when the engine last blocked
  uint64_t retired_ = 0;        ///< words retired by this engine
};

/// A NeuronCore: SBUF/PSUM, semaphores and events (CoreState) shared by its five engines.
class Core {
 public:
  Core(Generation gen, uint64_t max_memory, EngineId view_engine, CoreProgram program);
  Generation gen() const { return view_.gen; }
  CoreState& state() { return view_; }
  const CoreState& state() const { return view_; }
  EngineState& engine_state(EngineId e);
  const EngineState& engine_state(EngineId e) const;
  Sequencer& engine(EngineId e) { return engines_[static_cast<size_t>(e)]; }
  const Sequencer& engine(EngineId e) const { return engines_[static_cast<size_t>(e)]; }
  /// The core as its view engine sees it (live): the state STATE.json loads and a single-stream run shows.
  MachineState& view() { return view_; }
  const MachineState& view() const { return view_; }
  EngineId view_engine() const { return view_engine_; }

 private:
  EngineId view_engine_;
  // The core's state and the view engine's state in one object, so that `view()` is the live state; the
  // other engines' states are in `others_` (the view engine's slot there is unused).
  MachineState view_;
  std::array<EngineState, kEnginesPerCore> others_{};
  std::array<Sequencer, kEnginesPerCore> engines_{};
};

class Machine {
 public:
  /// One stream on one core, run by engine `options.engine` (PROJ-CONV-P1).
  Machine(Generation gen, std::vector<Word> program, MachineOptions options = {});
  /// Several streams on one core.
  Machine(Generation gen, CoreProgram program, MachineOptions options = {});
  /// Several cores (a NEFF: one per subgraph), each with its streams.
  Machine(Generation gen, std::vector<CoreProgram> cores, MachineOptions options);

  /// One scheduler turn (PROJ-CONV-P2): the next engine in turn that has not finished tries its current
  /// instruction. A fault changes no state; that engine stays at the faulting index. A blocked turn changes
  /// nothing either.
  StepResult step();
  /// The run loop: steps until every engine has finished, a fault, a deadlock, `max_steps` retired instructions,
  /// or `hooks.on_progress` says stop.
  RunSummary run(size_t max_steps, const RunHooks& hooks = {});
  /// Runs core `c` of a multi-core machine alone (round robin over its engines in the schedule's order) until
  /// each engine has finished, one faults, every unfinished one is blocked (no other core can raise a core's
  /// semaphores), `max_steps` words retired, or `hooks.on_progress` says stop. Cores share only DRAM, so
  /// different cores may run this at once on different threads: each has its own effect log. The hooks are called
  /// on the calling thread. Not to be mixed with step() on the same machine.
  RunSummary run_core(size_t c, size_t max_steps, const RunHooks& hooks);

  /// Every engine back at its first word (not halted, not blocked, no words retired) and the scheduler at its
  /// first turn; the state (memory, registers, semaphores, unit state) is kept, so the program runs again on what
  /// it left (a loop of runs without rebuilding the machine: benchmarks, repeated experiments).
  void rewind();

  /// Every engine has finished its stream.
  bool finished() const;
  /// Every engine that has not finished was blocked on its last turn, with no instruction retired since:
  /// no turn can change anything any more.
  bool deadlocked() const;
  /// The blocked waits of the engines that have not finished, in engine order (meaningful when deadlocked()).
  std::vector<BlockedWait> blocked_waits() const;

  Generation gen() const { return cores_.front().gen(); }
  size_t num_cores() const { return cores_.size(); }
  Core& core(size_t i) { return cores_[i]; }
  const Core& core(size_t i) const { return cores_[i]; }
  const MachineOptions& options() const { return options_; }

  // The view engine (options().engine) of core 0: the single-stream API.
  size_t pc() const { return view_engine().pc(); }
  size_t size() const { return view_engine().size(); }
  /// The decoded instruction at index i of the view engine's stream (i < size()).
  Instruction instruction(size_t i) const { return view_engine().instruction(i); }
  const MachineState& state() const { return cores_.front().view(); }
  /// Direct state access for loading initial state (registers, semaphores, memory) before running.
  MachineState& mutable_state() { return cores_.front().view(); }

 private:
  const Sequencer& view_engine() const { return cores_.front().engine(options_.engine); }
  /// step() into `r`: every field a turn's status makes meaningful is set (the status always).
  void step_into(StepResult& r);
  /// One turn of `engine`, into `r`: the status and the fields it makes meaningful are set; `run` reuses one `r` for
  /// every turn and reads only those, so other fields may hold an earlier turn's values.
  void attempt(unsigned core, Sequencer& engine, EffectLog& log, StepResult& r);
  /// The validation options a word of engine `e`'s stream is judged with.
  ValidateOptions validate_options(EngineId e) const;
  /// The engine a word of engine e's stream is known to run on (NEFF mode, or the validate options' engine).
  std::optional<Engine> stream_engine(EngineId e) const;
  /// Validates every word of every stream once (the kinds the steps read); a single core's words are left for
  /// kind_at to judge as they first issue (a word is decoded once for both, and a word never reached costs nothing).
  void judge_words();
  /// The kind of one word (Sequencer::kinds_); a plain word's executor is added to executors_.
  uint8_t judge_word(std::span<const uint8_t, kWordBytes> w, Generation gen, const ValidateOptions& vo);
  /// The kind of `inst`, decoded from `word` on `gen` (the raw-word acceptor judges most words from the bytes).
  uint8_t judge_instruction(const Instruction& inst, std::span<const uint8_t, kWordBytes> word, Generation gen,
                            const ValidateOptions& vo);
  /// The kind of word pc of `engine`, `inst` its decoded form, judged now if it was not yet (the same kind as when
  /// judged up front).
  uint8_t kind_at(Sequencer& engine, size_t pc, const Instruction& inst, Generation gen, const ValidateOptions& vo);
  size_t unfinished() const;
  /// The only engine of a single-core machine that has not finished, when nothing is recorded (run's fast path:
  /// the schedule can pick no other engine); else nullptr.
  Sequencer* sole_engine();
  /// Retires the sole engine's plain words (Sequencer::plain_) one after another until a word that is not plain,
  /// the end of its stream, a fault (into `s`) or `max_steps`: each as its scheduler turn would, the step result
  /// not filled. Returns false when the run ends (a fault).
  bool run_plain(Sequencer& engine, size_t max_steps, RunSummary& s);

  /// Kept blocks (a core's engine states are half a megabyte): a process's next machine reuses them.
  std::vector<Core, detail::HugeAdvisedAllocator<Core>> cores_;
  /// The executors of the plain words (Sequencer::kinds_ names one by its index): at most 256 - kPlain; a word whose
  /// executor finds no room is judged not plain (correct, only slower).
  std::vector<bool (*)(const Instruction&, exec::Txn&)> executors_;
  MachineOptions options_;
  EffectLog log_;
  std::vector<EffectLog> core_logs_;  ///< run_core: one log per core (multi-core machines)
  size_t cursor_ = 0;                 ///< the next turn's position in the schedule's cycle of core x engine slots
  uint64_t epoch_ = 0;  ///< instructions retired so far: a blocked engine is stuck while the epoch has not moved
  uint64_t rng_ = 0;    ///< Schedule::Random state (splitmix64)
};

}  // namespace tpbisa
