// The scheduler and the step: validate, honour the EVENTS wait (blocking), execute the family, update, commit.
#include "tpbisa/machine.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "families/act/tables.hpp"
#include "families/common.hpp"
#include "isa/exec.hpp"

namespace tpbisa {

std::string_view to_string(FaultKind k) {
  switch (k) {
    case FaultKind::InvalidInstruction: return "InvalidInstruction";
    case FaultKind::PseudoNotLowered: return "PseudoNotLowered";
    case FaultKind::UnsupportedOpcode: return "UnsupportedOpcode";
    case FaultKind::UnsupportedDtype: return "UnsupportedDtype";
    case FaultKind::UnsupportedAddressingMode: return "UnsupportedAddressingMode";
    case FaultKind::UnsupportedShapeRegister: return "UnsupportedShapeRegister";
    case FaultKind::IllegalRegister: return "IllegalRegister";
    case FaultKind::WindowViolation: return "WindowViolation";
    case FaultKind::OutOfRange: return "OutOfRange";
    case FaultKind::MemoryLimit: return "MemoryLimit";
    case FaultKind::ResourceLimit: return "ResourceLimit";
    case FaultKind::IllegalBranchTarget: return "IllegalBranchTarget";
    case FaultKind::WrongEngine: return "WrongEngine";
    case FaultKind::ActivationTableNotLoaded: return "ActivationTableNotLoaded";
    case FaultKind::ActivationFunctionNotInSet: return "ActivationFunctionNotInSet";
    case FaultKind::UnsupportedActivationFunction: return "UnsupportedActivationFunction";
    case FaultKind::ActivationSetIndexOutOfRange: return "ActivationSetIndexOutOfRange";
    case FaultKind::ActivationSetNotInNeff: return "ActivationSetNotInNeff";
    case FaultKind::ActivationTableError: return "ActivationTableError";
  }
  return "?";
}

std::string_view activation_set_name(const act::TableSet* set) {
  return set == nullptr ? std::string_view() : std::string_view(set->name());
}

std::string_view to_string(DveField f) {
  switch (f) {
    case DveField::Imm: return "imm";
    case DveField::MatchKey: return "match_key";
    case DveField::BnN: return "bn.n";
    case DveField::BnMean: return "bn.batch_mean";
    case DveField::BnA: return "bn.a";
    case DveField::BnB: return "bn.b";
    case DveField::BnC: return "bn.c";
    case DveField::Acc: return "acc";
    case DveField::Mask: return "mask_select";
    case DveField::MatchIndex: return "match_index";
  }
  return "?";
}

std::string_view to_string(DiagKind k) {
  switch (k) {
    case DiagKind::UninitializedRead: return "uninitialized-read";
    case DiagKind::UnalignedAccess: return "unaligned-access";
    case DiagKind::UnwrittenScalar: return "unwritten-scalar";
    case DiagKind::ScalarClassMismatch: return "scalar-class-mismatch";
    case DiagKind::FirmwareStub: return "firmware-stub";
  }
  return "?";
}

std::optional<EngineId> parse_engine(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (unsigned i = 0; i < kEnginesPerCore; ++i) {
    const auto e = static_cast<EngineId>(i);
    std::string name(to_string(e));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == name) return e;
  }
  // The NEFF's stream name of ACT (the others are the same words): one vocabulary for every --engine and filter.
  if (lower == "activation") return EngineId::Act;
  return std::nullopt;
}

std::string wait_condition(const BlockedWait& w) {
  const WaitModeInfo* m = wait_mode_info(w.wait_mode);
  if (w.event) return fmt::format("$E[{}]?{}", w.id, m != nullptr && waits_for_set(m->event) ? "set" : "clear");
  const std::string_view op = m != nullptr && m->comparator != Comparator::None ? to_string(m->comparator) : "?";
  if (w.reg < 0) return fmt::format("$S[{}]{}{}", w.id, op, w.comparand);
  if (m != nullptr && m->operand == ModeOperand::RegisterOffset)
    return fmt::format("$S[{}]{}r{}+{:#x}", w.id, op, w.reg, w.reg_offset);
  return fmt::format("$S[{}]{}r{}", w.id, op, w.reg);
}

namespace {

enum class WaitCheck : uint8_t { Satisfied, Blocked, Faulted };

/// Checks the wait (PROJ-CONV-Q1: an unsatisfied wait stalls the engine) as the catalog's WAIT_MODE row says. A
/// register comparand naming a register >= 64 is a fault (PROJ-CONV-C3); the comparand of the MAVERICK offset
/// forms adds the upper 24 bits (PROJ-CONV-C5). Event waits that clear or set the event stage that change with the
/// other effects. A mode outside the enums never gets here (the word is judged invalid first).
WaitCheck check_wait(const Events& e, exec::Txn& txn, BlockedWait& w) {
  const CoreState& s = txn.core();
  const WaitModeInfo* m = wait_mode_info(e.wait_mode);
  if (m == nullptr || !m->may_block()) return WaitCheck::Satisfied;
  w.wait_mode = e.wait_mode;
  w.id = e.wait_idx;
  if (m->kind == WaitKind::Semaphore && m->operand == ModeOperand::Immediate) {
    w.value = s.sems[e.wait_idx];
    w.comparand = e.semaphore_value;
    return comparison_holds(m->comparator, w.value, w.comparand) ? WaitCheck::Satisfied : WaitCheck::Blocked;
  }
  if (m->kind == WaitKind::Semaphore) {
    const unsigned r = e.semaphore_value & 0xFF;
    if (r >= kNumRegisters) {
      txn.fail_reg(FaultKind::IllegalRegister, static_cast<int>(r),
                   fmt::format("the EVENTS register form names r{} (PROJ-CONV-C3)", r));
      return WaitCheck::Faulted;
    }
    w.reg = static_cast<int>(r);
    w.reg_offset = m->operand == ModeOperand::RegisterOffset ? e.semaphore_value >> 8 : 0;
    w.value = s.sems[e.wait_idx];
    w.comparand = txn.reg(r) + w.reg_offset;
    return comparison_holds(m->comparator, w.value, w.comparand) ? WaitCheck::Satisfied : WaitCheck::Blocked;
  }
  // event waits (SUNDA..MARIANA): wait for set or clear, then maybe flip the event
  w.event = true;
  const bool set = s.events[e.wait_idx];
  w.value = set ? 1 : 0;
  if (set != waits_for_set(m->event)) return WaitCheck::Blocked;
  if (changes_event(m->event)) txn.stage_sem(e.wait_idx, true, waits_for_set(m->event) ? 0 : 1, true);
  return WaitCheck::Satisfied;
}

/// Stages the semaphore/event update of EVENTS (exec::stage_event_update).
bool stage_update(const Events& e, exec::Txn& txn) {
  return exec::stage_event_update(txn, e.update_mode, e.update_idx, e.semaphore_value);
}

/// Executor dispatch (one place; the family registry replaces it).
bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const family::Executor run = family::executor_for(inst)) return run(inst, txn);
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("execution of {} ({:#04x}) is not modeled", inst.name(), inst.opcode()));
}

template <class List>
auto shown(const List& v, size_t cap) {
  return std::span{v.data(), std::min(v.size(), cap)};
}

}  // namespace

Sequencer::Sequencer(EngineId id, std::vector<Word> words, std::span<const uint8_t> view, Generation gen)
    : id_(id), gen_(gen) {
  if (!view.empty()) {
    bytes_ = view.data();
    size_ = view.size() / kWordBytes;
  } else {
    owned_ = std::move(words);
    bytes_ = owned_.empty() ? nullptr : owned_.front().data();
    size_ = owned_.size();
  }
}

Sequencer& Sequencer::operator=(const Sequencer& other) {
  if (this == &other) return *this;
  id_ = other.id_;
  gen_ = other.gen_;
  owned_ = other.owned_;
  // A copy of a sequencer that owns its words views the copy's own.
  bytes_ = other.owned_.empty() ? other.bytes_ : owned_.front().data();
  size_ = other.size_;
  kinds_ = other.kinds_;
  pc_ = other.pc_;
  halted_ = other.halted_;
  blocked_ = other.blocked_;
  blocked_epoch_ = other.blocked_epoch_;
  retired_ = other.retired_;
  return *this;
}

Sequencer& Sequencer::operator=(Sequencer&& other) noexcept {
  if (this == &other) return *this;
  id_ = other.id_;
  gen_ = other.gen_;
  owned_ = std::move(other.owned_);  // the buffer moves with its address
  bytes_ = std::exchange(other.bytes_, nullptr);
  size_ = std::exchange(other.size_, 0);
  kinds_ = std::move(other.kinds_);
  pc_ = other.pc_;
  halted_ = other.halted_;
  blocked_ = other.blocked_;
  blocked_epoch_ = other.blocked_epoch_;
  retired_ = other.retired_;
  return *this;
}

Core::Core(Generation gen, uint64_t max_memory, EngineId view_engine, CoreProgram program)
    : view_engine_(view_engine), view_(gen, max_memory) {
  for (unsigned i = 0; i < kEnginesPerCore; ++i) {
    const auto e = static_cast<EngineId>(i);
    engines_[i] = Sequencer(e, std::move(program.stream(e)), program.view(e), gen);
  }
}

EngineState& Core::engine_state(EngineId e) {
  return e == view_engine_ ? static_cast<EngineState&>(view_) : others_[static_cast<size_t>(e)];
}

const EngineState& Core::engine_state(EngineId e) const {
  return e == view_engine_ ? static_cast<const EngineState&>(view_) : others_[static_cast<size_t>(e)];
}

namespace {
CoreProgram single_stream(EngineId e, std::vector<Word> words) {
  CoreProgram p;
  p.stream(e) = std::move(words);
  return p;
}
}  // namespace

Machine::Machine(Generation gen, std::vector<Word> program, MachineOptions options)
    : Machine(gen, single_stream(options.engine, std::move(program)), options) {}

Machine::Machine(Generation gen, CoreProgram program, MachineOptions options) : options_(options) {
  cores_.emplace_back(gen, options.max_memory, options.engine, std::move(program));
  log_.record = options.record_effects;
  log_.cap = options.max_recorded_effects;
  rng_ = options.seed;
  judge_words();
}

Machine::Machine(Generation gen, std::vector<CoreProgram> cores, MachineOptions options) : options_(options) {
  cores_.reserve(cores.size());
  for (CoreProgram& p : cores) cores_.emplace_back(gen, options.max_memory, options.engine, std::move(p));
  core_logs_.resize(cores_.size());
  for (EffectLog& l : core_logs_) {
    l.record = options.record_effects;
    l.cap = options.max_recorded_effects;
  }
  log_.record = options.record_effects;
  log_.cap = options.max_recorded_effects;
  rng_ = options.seed;
  judge_words();
}

std::optional<Engine> Machine::stream_engine(EngineId e) const {
  return validate_options(e).engine;
}

ValidateOptions Machine::validate_options(EngineId e) const {
  ValidateOptions vo = options_.validate;
  // A NEFF word is judged with its stream's engine (PROJ-CONV-F1).
  if (options_.neff_mode) vo.engine = static_cast<StreamEngine>(e);
  return vo;
}

uint8_t Machine::judge_word(std::span<const uint8_t, kWordBytes> w, Generation gen, const ValidateOptions& vo) {
  return judge_instruction(decode(w, gen), w, gen, vo);
}

namespace {

/// What judging a word needs of its opcode, the same for every word of that opcode on a generation: its executor
/// (family::executor_for, which reads only the opcode and the generation; none for a pseudo opcode, which is never
/// plain) and whether a family adds waits beyond EVENTS to it (an extra_waits hook, the one the registry resolves:
/// the opcode's family's, else the format's).
struct OpcodeRoute {
  family::Executor executor = nullptr;
  bool extra_waits = false;
};

/// The EVENTS byte values of a plain word, by value: a wait mode that never blocks, an update mode with no action
/// (the catalog's mode tables, looked up once instead of per word).
struct QuietEvents {
  std::array<bool, 256> wait{};
  std::array<bool, 256> update{};
};

const QuietEvents& quiet_events() {
  static const QuietEvents kQuiet = [] {
    QuietEvents q;
    for (unsigned v = 0; v < 256; ++v) {
      q.wait[v] = wait_never_blocks(static_cast<uint8_t>(v));
      q.update[v] = update_is_none(static_cast<uint8_t>(v));
    }
    return q;
  }();
  return kQuiet;
}

const OpcodeRoute& opcode_route(uint8_t opcode, Generation gen) {
  using Table = std::array<std::array<OpcodeRoute, 256>, kAllGenerations.size()>;
  static const Table kTable = [] {
    Table t{};
    for (const Generation g : kAllGenerations)
      for (unsigned op = 0; op < 256; ++op) {
        Word w{};
        w[field_ref<RawWord>("header.opcode").offset] = static_cast<uint8_t>(op);
        const Instruction inst = decode(w, g);
        OpcodeRoute& r = t[static_cast<size_t>(g)][op];
        r.executor = is_pseudo(static_cast<uint8_t>(op)) ? nullptr : family::executor_for(inst);
        if (inst.status != DecodeStatus::Modeled || inst.info == nullptr) continue;
        const family::Family* by_opcode = family::opcode_family(inst.opcode());
        const family::Family* by_format = family::family_of(inst.info->format);
        r.extra_waits = (by_opcode != nullptr && by_opcode->execution.extra_waits != nullptr) ||
                        (by_format != nullptr && by_format->execution.extra_waits != nullptr);
      }
    return t;
  }();
  return kTable[static_cast<size_t>(gen)][opcode];
}

}  // namespace

uint8_t Machine::judge_instruction(const Instruction& inst, std::span<const uint8_t, kWordBytes> word, Generation gen,
                                   const ValidateOptions& vo) {
  // The raw-word acceptor accepts only words the full pass finds valid; a word it is not sure of is judged in full.
  if (!fast_accepts(word, gen, vo) && !validate(inst, gen, vo).valid) return Sequencer::kInvalid;
  const uint8_t opcode = inst.opcode();
  const OpcodeRoute& route = opcode_route(opcode, gen);
  if (route.executor == nullptr) return Sequencer::kValid;
  const Events& ev = inst.events();
  const QuietEvents& quiet = quiet_events();
  const bool plain = quiet.wait[ev.wait_mode] && quiet.update[ev.update_mode] &&
                     (!route.extra_waits || family::extra_waits(inst).count == 0);
  if (!plain) return Sequencer::kValid;
  const family::Executor executor = route.executor;
  const auto known = std::find(executors_.begin(), executors_.end(), executor);
  if (known != executors_.end()) return static_cast<uint8_t>(Sequencer::kPlain + (known - executors_.begin()));
  // No room for another executor: the scheduler's path.
  if (executors_.size() + Sequencer::kPlain >= Sequencer::kUnjudged) return Sequencer::kValid;
  executors_.push_back(executor);
  return static_cast<uint8_t>(Sequencer::kPlain + executors_.size() - 1);
}

void Machine::judge_words() {
  // A program does not change while it runs: each word is validated once and a step only reads its kind (an invalid
  // word's verdict is recomputed when it faults, the rare path). A word like the one before it (a stream of Nops, a
  // repeated transfer) has its kind. One core runs on one thread: its words are judged as they first issue, from the
  // decoding the issue needs anyway. Several cores may run on threads of their own, which then must not judge (the
  // executors are shared): their words are judged here, up front.
  const bool lazy = cores_.size() == 1;
  for (Core& c : cores_)
    for (unsigned i = 0; i < kEnginesPerCore; ++i) {
      Sequencer& e = c.engine(static_cast<EngineId>(i));
      const ValidateOptions vo = validate_options(e.id());
      if (lazy) {
        e.kinds_.assign(e.size(), Sequencer::kUnjudged);
        continue;
      }
      e.kinds_.resize(e.size());
      for (size_t k = 0; k < e.size(); ++k)
        e.kinds_[k] = k > 0 && std::memcmp(e.bytes_ + k * kWordBytes, e.bytes_ + (k - 1) * kWordBytes, kWordBytes) == 0
                          ? e.kinds_[k - 1]
                          : judge_word(e.word(k), c.gen(), vo);
    }
}

uint8_t Machine::kind_at(Sequencer& engine, size_t pc, const Instruction& inst, Generation gen,
                         const ValidateOptions& vo) {
  uint8_t& kind = engine.kinds_[pc];
  if (kind != Sequencer::kUnjudged) return kind;
  const bool like_before =
      pc > 0 && engine.kinds_[pc - 1] != Sequencer::kUnjudged &&
      std::memcmp(engine.bytes_ + pc * kWordBytes, engine.bytes_ + (pc - 1) * kWordBytes, kWordBytes) == 0;
  kind = like_before ? engine.kinds_[pc - 1] : judge_instruction(inst, engine.word(pc), gen, vo);
  return kind;
}

void Machine::rewind() {
  for (Core& c : cores_)
    for (unsigned i = 0; i < kEnginesPerCore; ++i) {
      Sequencer& e = c.engine(static_cast<EngineId>(i));
      e.pc_ = 0;
      e.halted_ = false;
      e.blocked_.reset();
      e.blocked_epoch_ = 0;
      e.retired_ = 0;
    }
  // A NEFF's DMA queues start over with the streams that trigger them (PROJ-CONV-PS4).
  for (Core& c : cores_)
    if (DramView* dram = c.state().dram)
      for (DmaQueue& q : dram->dma_queues) q.fired = 0;
  cursor_ = 0;
  epoch_ = 0;
  rng_ = options_.seed;
}

bool Machine::finished() const {
  return unfinished() == 0;
}

size_t Machine::unfinished() const {
  size_t n = 0;
  for (const Core& c : cores_)
    for (unsigned i = 0; i < kEnginesPerCore; ++i) n += c.engine(static_cast<EngineId>(i)).finished() ? 0 : 1;
  return n;
}

bool Machine::deadlocked() const {
  size_t unfinished = 0;
  for (const Core& c : cores_)
    for (unsigned i = 0; i < kEnginesPerCore; ++i) {
      const Sequencer& e = c.engine(static_cast<EngineId>(i));
      if (e.finished()) continue;
      ++unfinished;
      if (!e.blocked() || e.blocked_epoch_ != epoch_) return false;  // it may still move
    }
  return unfinished != 0;
}

std::vector<BlockedWait> Machine::blocked_waits() const {
  std::vector<BlockedWait> out;
  for (const Core& c : cores_)
    for (unsigned i = 0; i < kEnginesPerCore; ++i) {
      const Sequencer& e = c.engine(static_cast<EngineId>(i));
      if (!e.finished() && e.blocked()) out.push_back(*e.blocked());
    }
  return out;
}

namespace {
uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
}  // namespace

StepResult Machine::step() {
  StepResult r;  // the one result, filled in place (no copy of it on return)
  step_into(r);
  return r;
}

void Machine::step_into(StepResult& r) {
  const size_t slots = cores_.size() * kEnginesPerCore;
  const bool reverse = options_.schedule == Schedule::ReverseRoundRobin;
  if (options_.schedule == Schedule::Random) cursor_ = static_cast<size_t>(splitmix64(rng_) % slots);
  size_t turn = cursor_ % slots;  // position in the schedule's cycle
  for (size_t k = 0; k < slots; ++k, turn = turn + 1 == slots ? 0 : turn + 1) {
    const size_t slot = reverse ? slots - 1 - turn : turn;
    Core& core = cores_[slot / kEnginesPerCore];
    Sequencer& engine = core.engine(static_cast<EngineId>(slot % kEnginesPerCore));
    if (engine.finished()) continue;
    cursor_ = turn + 1 == slots ? 0 : turn + 1;
    attempt(static_cast<unsigned>(slot / kEnginesPerCore), engine, log_, r);
    if (r.status == StepResult::Status::Blocked) engine.blocked_epoch_ = epoch_;
    if (r.status == StepResult::Status::Retired) {
      ++epoch_;
      ++engine.retired_;
    }
    return;
  }
  log_.clear();
  r.status = StepResult::Status::Halted;  // every engine has finished
}

void Machine::attempt(unsigned core_index, Sequencer& engine, EffectLog& log, StepResult& r) {
  Core& core = cores_[core_index];
  log.clear();
  const size_t pc = engine.pc_;
  const Instruction inst = decode(engine.word(pc), engine.gen_);
  r.core = core_index;
  r.engine = engine.id();
  r.index = pc;
  r.opcode = inst.opcode();
  r.name = inst.name();
  r.act_set_loaded = false;
  exec::Txn txn(core.state(), core.engine_state(engine.id()), log, options_, pc);
  txn.set_stream_size(engine.size());
  txn.set_stream_engine(stream_engine(engine.id()));
  const Generation gen = core.gen();
  bool ok = true;
  Verdict verdict{};
  verdict.valid = true;
  if (kind_at(engine, pc, inst, gen, validate_options(engine.id())) == Sequencer::kInvalid)
    verdict = validate(inst, gen, validate_options(engine.id()));  // judged once before
  const bool neff_pseudo = options_.neff_mode && family::executor_for(inst) != nullptr;
  if (!verdict.valid) {
    ok = txn.fail(FaultKind::InvalidInstruction, fmt::format("the word is not valid on {}", to_string(gen)));
  } else if (is_pseudo(inst.opcode()) && !neff_pseudo) {
    ok = txn.fail(FaultKind::PseudoNotLowered,
                  fmt::format("{} is a pseudo instruction; lower it first (tpbisa lower, PROJ-CONV-M9)", inst.name()));
  }
  // A wait that does not hold: nothing happens, the engine records what it waits for (the scheduler's deadlock
  // report reads it).
  const auto block_on = [&](BlockedWait& w) {
    log.clear();
    w.core = core_index;
    w.engine = engine.id();
    w.index = pc;
    w.opcode = r.opcode;
    w.name = r.name;
    engine.blocked_ = w;
    r.status = StepResult::Status::Blocked;
    r.wait = w;
  };
  // The waits a family adds beyond EVENTS (EventSemaphore's extended lane) must hold too, once the EVENTS wait
  // does (PROJ-CONV-F3); --es-lane0-only leaves them out.
  const family::ExtraWaits extra =
      ok && !options_.controls.es_lane0_only ? family::extra_waits(inst) : family::ExtraWaits{};
  for (const Events& ext : extra.all()) {
    const WaitModeInfo* m = wait_mode_info(ext.wait_mode);
    if (m != nullptr && m->kind == WaitKind::None) continue;
    BlockedWait w;
    if (check_wait(inst.events(), txn, w) == WaitCheck::Satisfied) {
      w = BlockedWait{};
      const WaitCheck c = check_wait(ext, txn, w);
      if (c == WaitCheck::Faulted) ok = false;
      if (c == WaitCheck::Blocked) return block_on(w);
    }
  }
  if (ok) {
    BlockedWait w;
    switch (check_wait(inst.events(), txn, w)) {
      case WaitCheck::Satisfied: break;
      case WaitCheck::Faulted: ok = false; break;
      case WaitCheck::Blocked: return block_on(w);
    }
  }
  // The EVENTS update is staged first so that an executor's own updates (EventSemaphore's extended lane, a
  // DMA's completion) compose with it in that order (PROJ-CONV-F3).
  ok = ok && stage_update(inst.events(), txn) && execute(inst, txn) && txn.commit();
  engine.blocked_.reset();
  if (!ok) {
    log.clear();  // a fault changes nothing and reports no effects
    r.status = StepResult::Status::Faulted;
    r.fault = txn.fault();
    r.fault.index = pc;
    r.fault.engine = engine.id();
    r.fault.core = core_index;
    if (r.fault.kind == FaultKind::InvalidInstruction) r.fault.verdict = verdict;
    return;
  }
  r.status = StepResult::Status::Retired;
  r.totals = {log.regs.size() + log.regs_in_place,
              log.mem.size() + log.block_elems,
              log.reads_total,
              log.dve.size(),
              log.sems.size(),
              0};
  for (uint64_t n : log.diag_counts) r.totals.diagnostics += n;
  r.diagnostic_counts = log.diag_counts;
  if (log.record) {
    r.recorded = true;
    r.reg_writes = shown(log.regs, log.cap);
    r.mem_writes = shown(log.mem, log.cap);
    r.mem_reads = log.reads;
    r.dve_writes = shown(log.dve, log.cap);
    r.dve_reads = log.dve_reads;  // one per channel at most: never capped
    r.sem_writes = shown(log.sems, log.cap);
    r.diagnostics = log.diags;
  }
  r.dram_ranges = log.dram_ranges;
  r.act_set_loaded = log.act_set_staged;
  r.act_set_before = log.act_set_before;
  r.act_set_after = log.act_set_pending;
  if (log.halt)
    engine.halted_ = true;  // HALT: the engine stops; its pc stays at the HALT (sequencer.md §3.3)
  else
    engine.pc_ = log.jump ? log.jump_to : engine.pc_ + 1;
}

Sequencer* Machine::sole_engine() {
  if (cores_.size() != 1 || log_.record) return nullptr;
  Sequencer* only = nullptr;
  for (unsigned i = 0; i < kEnginesPerCore; ++i) {
    Sequencer& e = cores_.front().engine(static_cast<EngineId>(i));
    if (e.finished()) continue;
    if (only != nullptr) return nullptr;
    only = &e;
  }
  return only;
}

bool Machine::run_plain(Sequencer& engine, size_t max_steps, RunSummary& s) {
  Core& core = cores_.front();
  EngineState& regs = core.engine_state(engine.id());
  // The turn the schedule gives the sole engine (step_into's cursor after it; Random draws as step_into does).
  const size_t slot = static_cast<size_t>(engine.id());
  const bool reverse = options_.schedule == Schedule::ReverseRoundRobin;
  const bool random = options_.schedule == Schedule::Random;
  const size_t turn = reverse ? kEnginesPerCore - 1 - slot : slot;
  const size_t words = engine.size();
  const std::optional<Engine> known_engine = stream_engine(engine.id());
  const ValidateOptions vo = validate_options(engine.id());
  const Generation gen = core.gen();
  bool moved = false;
  while (engine.pc_ < words && !engine.halted_ && s.retired < max_steps) {
    const size_t pc = engine.pc_;
    // Decoded once, for its judging (the first time it issues) and its execution.
    const Instruction inst = decode(engine.word(pc), engine.gen_);
    const uint8_t kind = kind_at(engine, pc, inst, gen, vo);
    if (kind < Sequencer::kPlain) break;
    const auto run = executors_[kind - Sequencer::kPlain];
    if (random) splitmix64(rng_);
    moved = true;
    log_.clear();
    exec::Txn txn(core.state(), regs, log_, options_, pc);
    txn.set_stream_size(words);
    txn.set_stream_engine(known_engine);
    engine.blocked_.reset();
    if (!run(inst, txn) || !txn.commit()) {
      log_.clear();  // a fault changes nothing and reports no effects
      s.faulted = true;
      s.fault = txn.fault();
      s.fault.index = pc;
      s.fault.engine = engine.id();
      s.fault.core = 0;
      cursor_ = turn + 1 == kEnginesPerCore ? 0 : turn + 1;
      return false;
    }
    ++epoch_;
    ++engine.retired_;
    ++s.retired;
    if (log_.any_diag)
      for (size_t k = 0; k < kDiagKinds; ++k) s.diagnostic_counts[k] += log_.diag_counts[k];
    if (log_.halt)
      engine.halted_ = true;  // HALT: the engine stops; its pc stays at the HALT (sequencer.md §3.3)
    else
      engine.pc_ = log_.jump ? log_.jump_to : pc + 1;
  }
  if (moved) cursor_ = turn + 1 == kEnginesPerCore ? 0 : turn + 1;
  return true;
}

namespace {

/// The first count of retired words at which on_progress is called (never without a hook).
uint64_t first_progress(const RunHooks& hooks) {
  return hooks.on_progress ? std::max<uint64_t>(hooks.progress_words, 1) : UINT64_MAX;
}

/// Calls on_progress once `retired` reached `next_progress`, and moves that on; false when the hook says stop.
bool progress_allows(const RunHooks& hooks, uint64_t retired, uint64_t& next_progress) {
  if (retired < next_progress) return true;
  next_progress += std::max<uint64_t>(hooks.progress_words, 1);
  return hooks.on_progress(retired);
}

}  // namespace

RunSummary Machine::run(size_t max_steps, const RunHooks& hooks) {
  RunSummary s;
  // Without an observer one result is reused by every turn: run then reads only a turn's status, fault and
  // diagnostic counts, which each turn sets (so no result is constructed per instruction). An observer gets a fresh
  // result per turn, as step() returns it (a reused one may hold an earlier turn's effect lists).
  StepResult r;
  const bool observed = static_cast<bool>(hooks.on_step);
  uint64_t next_progress = first_progress(hooks);
  bool retired_last = false;  // after a retirement no engine can be stuck (deadlocked() needs a blocked turn since)
  while (!finished()) {
    // One engine left (a single stream): its plain words need no scheduler turn and no step result. It stops at
    // the next progress call, so that the hook is called on time.
    if (Sequencer* only = observed ? nullptr : sole_engine()) {
      const size_t before = s.retired;
      if (!run_plain(*only, static_cast<size_t>(std::min<uint64_t>(max_steps, next_progress)), s)) break;
      if (s.retired != before) retired_last = true;
      if (s.retired >= next_progress) {  // the plain words stopped for the progress call: then they go on
        if (!progress_allows(hooks, s.retired, next_progress)) {
          s.interrupted = true;
          break;
        }
        continue;
      }
      if (only->finished()) continue;
    }
    if (!retired_last && deadlocked()) {
      s.deadlock = true;
      s.blocked = blocked_waits();
      break;
    }
    if (s.retired >= max_steps) {
      s.step_limit = true;
      break;
    }
    if (observed) r = StepResult{};
    step_into(r);
    retired_last = r.status == StepResult::Status::Retired;
    if (observed && r.status != StepResult::Status::Blocked) hooks.on_step(r);
    if (r.status == StepResult::Status::Faulted) {
      s.faulted = true;
      s.fault = r.fault;
      break;
    }
    if (!retired_last) continue;
    ++s.retired;
    for (size_t k = 0; k < kDiagKinds; ++k) s.diagnostic_counts[k] += r.diagnostic_counts[k];
    if (!progress_allows(hooks, s.retired, next_progress)) {
      s.interrupted = true;
      break;
    }
  }
  return s;
}

RunSummary Machine::run_core(size_t c, size_t max_steps, const RunHooks& hooks) {
  RunSummary s;
  uint64_t next_progress = first_progress(hooks);
  Core& core = cores_[c];
  if (core_logs_.size() < cores_.size()) return s;  // a single-core machine: use run()
  EffectLog& log = core_logs_[c];
  const bool reverse = options_.schedule == Schedule::ReverseRoundRobin;
  uint64_t rng = options_.seed + c;
  uint64_t epoch = 0;
  size_t cursor = 0;
  for (;;) {
    size_t unfinished = 0;
    bool stuck = true;
    for (unsigned i = 0; i < kEnginesPerCore; ++i) {
      const Sequencer& e = core.engine(static_cast<EngineId>(i));
      if (e.finished()) continue;
      ++unfinished;
      stuck = stuck && e.blocked() && e.blocked_epoch_ == epoch;
    }
    if (unfinished == 0) break;
    if (stuck) {
      s.deadlock = true;
      for (unsigned i = 0; i < kEnginesPerCore; ++i) {
        const Sequencer& e = core.engine(static_cast<EngineId>(i));
        if (!e.finished() && e.blocked()) s.blocked.push_back(*e.blocked());
      }
      break;
    }
    if (s.retired >= max_steps) {
      s.step_limit = true;
      break;
    }
    if (options_.schedule == Schedule::Random) cursor = static_cast<size_t>(splitmix64(rng) % kEnginesPerCore);
    for (size_t k = 0; k < kEnginesPerCore; ++k) {
      const size_t turn = (cursor + k) % kEnginesPerCore;
      Sequencer& e = core.engine(static_cast<EngineId>(reverse ? kEnginesPerCore - 1 - turn : turn));
      if (e.finished()) continue;
      cursor = (turn + 1) % kEnginesPerCore;
      StepResult r;
      attempt(static_cast<unsigned>(c), e, log, r);
      if (r.status == StepResult::Status::Blocked) {
        e.blocked_epoch_ = epoch;
        break;
      }
      if (hooks.on_step) hooks.on_step(r);
      if (r.status == StepResult::Status::Faulted) {
        s.faulted = true;
        s.fault = r.fault;
        return s;
      }
      ++epoch;
      ++e.retired_;
      ++s.retired;
      for (size_t d = 0; d < kDiagKinds; ++d) s.diagnostic_counts[d] += r.diagnostic_counts[d];
      break;
    }
    if (!progress_allows(hooks, s.retired, next_progress)) {
      s.interrupted = true;
      break;
    }
  }
  return s;
}

}  // namespace tpbisa
