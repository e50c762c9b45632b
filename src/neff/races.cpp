// The race check of a NEFF run: vector clocks per engine; a passing semaphore wait acquires the updates that made
// its condition hold (PROJ-CONV-P4); a shadow of every on-chip and DRAM 2-byte cell keeps each engine's accesses
// until every running engine is ordered after them, so the pairs found do not depend on the schedule.
#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "families/family.hpp"
#include "tpbisa/address.hpp"
#include "tpbisa/location.hpp"
#include "tpbisa/neff_run.hpp"

namespace tpbisa::neff {

namespace {

constexpr unsigned kMaxCores = 3;                              // cores the clocks tell apart
constexpr unsigned kMaxEngines = kMaxCores * kEnginesPerCore;  // engine slots: core * 5 + engine
constexpr uint64_t kGranule = 2;                               // bytes per shadow cell: FP16, the narrowest seen
constexpr uint64_t kPageCells = 2048;                          // cells per shadow page
constexpr uint64_t kDramCell = uint64_t{1} << 62;              // marks a DRAM cell among the racing cells
// Bounds (docs/robustness.md): accesses kept per cell, semaphore updates kept in all, racing pairs and their ranges.
constexpr unsigned kMaxCellAccesses = 32;
constexpr size_t kMaxUpdates = 65536;
constexpr size_t kMaxPairs = 65536;
constexpr size_t kMaxRanges = size_t{1} << 20;

using Clock = std::array<uint32_t, kMaxEngines + 1>;  // one spare slot keeps the array 64 bytes

void join(Clock& into, const Clock& c) {
  for (unsigned e = 0; e < kMaxEngines; ++e) into[e] = std::max(into[e], c[e]);
}

bool covers(const Clock& c, const Clock& by) {
  for (unsigned e = 0; e < kMaxEngines; ++e)
    if (c[e] > by[e]) return false;
  return true;
}

/// One semaphore wait of a word: its mode (a catalog row whose kind is a semaphore wait), semaphore and value word
/// (the immediate, or the register form's operand).
struct SemWait {
  const WaitModeInfo* mode = nullptr;
  uint8_t idx = 0;
  uint32_t value = 0;
};

/// The semaphore waits of a word: its EVENTS, then the waits its family adds (EventSemaphore's extended lane,
/// PROJ-CONV-F3) unless the machine honours lane 0 only. A lane that waits on no semaphore is left out.
struct SemWaits {
  std::array<SemWait, 1 + family::ExtraWaits::kMax> lanes{};
  size_t count = 0;
  const SemWait* begin() const { return lanes.data(); }
  const SemWait* end() const { return lanes.data() + count; }
};

SemWaits waits_of(const Instruction& inst, bool lane0_only) {
  SemWaits w;
  auto add = [&w](const Events& e) {
    if (waits_on_semaphore(e.wait_mode))
      w.lanes[w.count++] = {wait_mode_info(e.wait_mode), e.wait_idx, e.semaphore_value};
  };
  add(inst.events());
  if (!lane0_only) {
    const family::ExtraWaits extra = family::extra_waits(inst);
    for (const Events& lane : extra.all()) add(lane);
  }
  return w;
}

/// Whether `sem <comparator> value` holds (the machine's check_wait).
bool holds(Comparator c, uint32_t sem, uint32_t value) {
  switch (c) {
    case Comparator::Eq: return sem == value;
    case Comparator::Lt: return sem < value;
    case Comparator::Le: return sem <= value;
    case Comparator::Gt: return sem > value;
    case Comparator::Ge:
    case Comparator::None: break;
  }
  return sem >= value;
}

// Stable keys of one access: slot (core * 5 + engine), word index, read or write; ordered as streams are listed.
uint64_t access_key(unsigned slot, uint32_t word, bool write) {
  return uint64_t{slot} << 33 | uint64_t{word} << 1 | (write ? 1U : 0U);
}

RaceAccess access_of(uint64_t key) {
  const auto slot = static_cast<unsigned>(key >> 33);
  return {slot / kEnginesPerCore, static_cast<EngineId>(slot % kEnginesPerCore),
          static_cast<size_t>((key >> 1) & 0xFFFFFFFFU), (key & 1U) != 0};
}

/// The on-chip location of byte `address` of `core`, with the bytes up to `end` that stay in its partition.
RaceLocation onchip_location(Generation g, unsigned core, uint64_t address, uint64_t end) {
  const PartitionAddress p = decode_partition_offset(static_cast<uint32_t>(address), g);
  const Geometry& geo = geometry(g);
  RaceLocation at;
  at.core = core;
  if (p.region == Region::Outside) {
    at.memory = RaceLocation::Memory::Dev;
    at.offset = address;
    at.bytes = end - address;
    return at;
  }
  at.memory = p.region == Region::Psum ? RaceLocation::Memory::Psum : RaceLocation::Memory::Sbuf;
  at.partition = p.partition;
  at.offset = p.offset;
  const uint64_t stride = p.region == Region::Psum ? geo.psum_partition_size : geo.sbuf_partition_size;
  at.bytes = std::min(end, address - p.offset + stride) - address;
  return at;
}

/// The location as every report prints it (location.hpp's one printer; PSUM by bank), with the core.
std::string location_text(const RaceLocation& at, Generation g) {
  const Geometry& geo = geometry(g);
  switch (at.memory) {
    case RaceLocation::Memory::Sbuf:
    case RaceLocation::Memory::Psum: {
      PartitionAddress p;
      p.region = at.memory == RaceLocation::Memory::Psum ? Region::Psum : Region::Sbuf;
      p.partition = at.partition;
      p.offset = static_cast<uint32_t>(at.offset);
      p.bank = p.offset >> geo.psum_bank_shift;
      p.in_bank = p.offset & (geo.psum_bank_size - 1);
      std::string text;
      append_location(text, p);
      return fmt::format("{} (core {})", text, at.core);
    }
    case RaceLocation::Memory::Dev: return fmt::format("dev:{:#x} (core {})", at.offset, at.core);
    case RaceLocation::Memory::Dram:
      return at.variable.empty() ? fmt::format("dram:{:#x}", at.offset)
                                 : fmt::format("{}+{:#x}", at.variable, at.offset);
  }
  return {};
}

}  // namespace

// Member types: one from this file's anonymous namespace, in a member of this externally linked class, is what
// g++'s -Wsubobject-linkage reports once the folder compiles as one unity source.
struct RaceChecker::Impl {
  /// One update of a semaphore with the joins a wait picks from (PROJ-CONV-P4): the clocks of the updates since
  /// the last set (the set included) that raised it, that lowered it, and all of them.
  struct Joins {
    Clock up{}, down{}, any{};
  };
  struct Update {
    uint32_t before = 0, after = 0;
    Clock own{};
    Joins joins;
  };
  struct History {
    uint32_t value = 0;
    Joins tail;                  ///< the joins after the newest update
    std::deque<Update> updates;  ///< oldest first; an update every running waiter has acquired is pruned
    bool dropped = false;        ///< updates were dropped at kMaxUpdates (not only pruned)
  };
  /// One access kept in a shadow cell: a singly linked list per cell, in `nodes` (index 0 is "none").
  struct Node {
    uint32_t word = 0;
    uint32_t epoch = 0;
    uint32_t next = 0;
    uint8_t slot = 0;
    bool write = false;
  };
  using Page = std::array<uint32_t, kPageCells>;
  struct Shadow {
    std::unordered_map<uint64_t, std::unique_ptr<Page>> pages;
    uint64_t last_no = UINT64_MAX;  ///< the page looked up last
    Page* last = nullptr;
  };
  using Ranges = std::map<uint64_t, uint64_t>;  ///< racing cells of one pair of accesses: begin -> end

  unsigned cores = 0;            ///< cores checked (at most kMaxCores)
  bool lane0_only = false;       ///< NegativeControls::es_lane0_only
  std::vector<Clock> vc;         ///< per engine slot
  std::vector<History> sems;     ///< per checked core, kNumSemaphores each
  std::vector<uint8_t> waiters;  ///< per checked core and semaphore: the engines with a word waiting on it
  size_t updates = 0;            ///< updates kept over every history
  std::vector<Shadow> onchip;    ///< per checked core
  Shadow dram;                   ///< keyed by the byte's address
  std::vector<Node> nodes{Node{}};
  uint32_t free = 0;  ///< first free node
  using Pairs = std::map<std::pair<uint64_t, uint64_t>, Ranges>;
  Pairs pairs;  ///< racing pairs of accesses (access_key, the lower first) and their cells
  size_t ranges = 0;
  Pairs::iterator last_pair = pairs.end();
  unsigned incomplete = 0;          ///< bit per bound that was reached (Incomplete)
  uint64_t built_for = UINT64_MAX;  ///< the count races_ was built for

  enum Incomplete : unsigned { kCells = 1, kHistory = 2, kPairs = 4, kModel = 8 };

  bool live(unsigned slot, const Machine& m) const {
    return !m.core(slot / kEnginesPerCore).engine(static_cast<EngineId>(slot % kEnginesPerCore)).finished();
  }
  void acquire(Clock& clock, const History& h, Comparator kind, uint32_t comparand);
  void release(unsigned core, uint16_t idx, const SemWrite& s, const Clock& clock, const Machine& m);
  Page& page(Shadow& s, uint64_t no);
  void record(uint64_t cell, uint64_t a, uint64_t b, uint64_t& count);
};

RaceChecker::RaceChecker(const Run& run) : run_(run), impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  const Machine& machine = run.machine();
  m.cores = static_cast<unsigned>(std::min<size_t>(machine.num_cores(), kMaxCores));
  m.lane0_only = machine.options().controls.es_lane0_only;
  m.vc.assign(size_t{m.cores} * kEnginesPerCore, Clock{});
  m.sems.resize(size_t{m.cores} * kNumSemaphores);
  m.waiters.assign(size_t{m.cores} * kNumSemaphores, 0);
  m.onchip.resize(m.cores);
  for (unsigned c = 0; c < m.cores; ++c) {
    for (unsigned i = 0; i < kNumSemaphores; ++i)
      m.sems[size_t{c} * kNumSemaphores + i].value = machine.core(c).state().sems[i];
    for (unsigned e = 0; e < kEnginesPerCore; ++e) {
      const Sequencer& s = machine.core(c).engine(static_cast<EngineId>(e));
      for (size_t i = 0; i < s.size(); ++i)
        for (const SemWait& w : waits_of(s.instruction(i), m.lane0_only))
          m.waiters[size_t{c} * kNumSemaphores + w.idx] |= static_cast<uint8_t>(1U << e);
    }
  }
}

RaceChecker::~RaceChecker() = default;

// PROJ-CONV-P4: the wait acquires the newest update before which its condition did not hold, with the updates
// since the last set that moved the semaphore its way (up for > and >=, down for < and <=, any for ==).
void RaceChecker::Impl::acquire(Clock& clock, const History& h, Comparator kind, uint32_t comparand) {
  if (!holds(kind, h.value, comparand)) {  // the model disagrees with the machine: take everything
    join(clock, h.tail.any);
    incomplete |= kModel;
    return;
  }
  for (size_t j = h.updates.size(); j-- > 0;) {
    const Update& u = h.updates[j];
    if (holds(kind, u.before, comparand)) continue;
    join(clock, u.own);
    join(clock, kind == Comparator::Gt || kind == Comparator::Ge   ? u.joins.up
                : kind == Comparator::Lt || kind == Comparator::Le ? u.joins.down
                                                                   : u.joins.any);
    return;
  }
  // It held before every update kept: the one that made it hold was pruned (every waiter has it) or never was.
  if (h.dropped) incomplete |= kHistory;
}

void RaceChecker::Impl::release(unsigned core, uint16_t idx, const SemWrite& s, const Clock& clock, const Machine& m) {
  History& h = sems[size_t{core} * kNumSemaphores + idx];
  const uint32_t delta = s.after - s.before;  // modular (PROJ-CONV-C6): below 2^31 it raised the semaphore
  if (s.set) {
    h.tail.up = h.tail.down = h.tail.any = clock;
  } else {
    join(h.tail.any, clock);
    if (delta != 0) join(delta < 0x80000000U ? h.tail.up : h.tail.down, clock);
  }
  h.value = s.after;
  h.updates.push_back({s.before, s.after, clock, h.tail});
  ++updates;
  // Prune what every engine that can still wait on this semaphore already has.
  const uint8_t mask = waiters[size_t{core} * kNumSemaphores + idx];
  const auto acquired_by_all = [&](const Update& u) {
    for (unsigned e = 0; e < kEnginesPerCore; ++e) {
      const unsigned slot = core * kEnginesPerCore + e;
      if ((mask >> e & 1U) != 0 && live(slot, m) && !covers(u.joins.any, vc[slot])) return false;
    }
    return true;
  };
  while (!h.updates.empty() && acquired_by_all(h.updates.front())) {
    h.updates.pop_front();
    --updates;
  }
  while (updates > kMaxUpdates && h.updates.size() > 1) {  // the bound: the oldest go, the newest stays
    h.updates.pop_front();
    --updates;
    h.dropped = true;
  }
}

RaceChecker::Impl::Page& RaceChecker::Impl::page(Shadow& s, uint64_t no) {
  if (no != s.last_no) {
    auto& p = s.pages[no];
    if (!p) p = std::make_unique<Page>();
    s.last_no = no;
    s.last = p.get();
  }
  return *s.last;
}

void RaceChecker::Impl::record(uint64_t cell, uint64_t a, uint64_t b, uint64_t& count) {
  const std::pair<uint64_t, uint64_t> key = a < b ? std::make_pair(a, b) : std::make_pair(b, a);
  if (last_pair == pairs.end() || last_pair->first != key) {
    last_pair = pairs.find(key);
    if (last_pair == pairs.end()) {
      if (pairs.size() >= kMaxPairs) {
        incomplete |= kPairs;
        return;
      }
      last_pair = pairs.emplace(key, Ranges{}).first;
    }
  }
  Ranges& r = last_pair->second;
  auto next = r.upper_bound(cell);
  if (next != r.begin()) {
    const auto prev = std::prev(next);
    if (cell < prev->second) return;  // counted already
    if (cell == prev->second) {
      prev->second = cell + 1;
      if (next != r.end() && next->first == prev->second) {
        prev->second = next->second;
        r.erase(next);
        --ranges;
      }
      ++count;
      return;
    }
  }
  if (next != r.end() && next->first == cell + 1) {
    const uint64_t end = next->second;
    r.erase(next);
    r.emplace(cell, end);
    ++count;
    return;
  }
  if (ranges >= kMaxRanges) {
    incomplete |= kPairs;
    return;
  }
  r.emplace(cell, cell + 1);
  ++ranges;
  ++count;
}

void RaceChecker::observe(const StepResult& step) {
  if (step.status != StepResult::Status::Retired) return;
  Impl& m = *impl_;
  if (step.core >= m.cores) return;  // more cores than the clocks tell apart: not checked
  const Machine& machine = run_.machine();
  const unsigned slot = step.core * kEnginesPerCore + static_cast<unsigned>(step.engine);
  Clock& vc = m.vc[slot];
  // Acquire: every semaphore wait of the word, against the semaphores before this step's own updates.
  const Instruction& inst = machine.core(step.core).engine(step.engine).instruction(step.index);
  for (const SemWait& w : waits_of(inst, m.lane0_only)) {
    uint32_t comparand = w.value;
    if (w.mode->operand == ModeOperand::Register ||
        w.mode->operand ==
            ModeOperand::RegisterOffset) {  // register forms (PROJ-CONV-C3, C5): the register as the wait read it
      const unsigned r = w.value & 0xFF;
      comparand = r < kNumRegisters ? machine.core(step.core).engine_state(step.engine).regs[r] : 0;
      for (auto it = step.reg_writes.rbegin(); it != step.reg_writes.rend(); ++it)
        if (it->reg == r) comparand = it->before;
      if (w.mode->operand == ModeOperand::RegisterOffset) comparand += w.value >> 8;
    }
    m.acquire(vc, m.sems[size_t{step.core} * kNumSemaphores + w.idx], w.mode->comparator, comparand);
  }
  const uint32_t epoch = ++vc[slot];
  const auto word = static_cast<uint32_t>(step.index);

  // What every engine still running is ordered after: an access older than that can race with nothing to come.
  // On-chip cells are this core's engines' only; DRAM is every core's. This engine counts as running until its
  // step's accesses are all in (its last word has finished it already).
  std::array<uint32_t, kMaxEngines> floor_core{}, floor_dram{};
  if (!step.mem_reads.empty() || !step.mem_writes.empty() || !step.dram_ranges.empty()) {
    floor_core.fill(UINT32_MAX);
    floor_dram.fill(UINT32_MAX);
    for (unsigned f = 0; f < m.vc.size(); ++f) {
      if (f != slot && !m.live(f, machine)) continue;
      for (unsigned e = 0; e < m.vc.size(); ++e) {
        if (e == f) continue;
        floor_dram[e] = std::min(floor_dram[e], m.vc[f][e]);
        if (f / kEnginesPerCore == step.core) floor_core[e] = std::min(floor_core[e], m.vc[f][e]);
      }
    }
  }
  const uint64_t me_read = access_key(slot, word, false), me_write = access_key(slot, word, true);
  auto access = [&](Impl::Shadow& shadow, uint64_t key_base, uint64_t cell_tag, uint64_t address, uint64_t n,
                    bool write, const std::array<uint32_t, kMaxEngines>& floor) {
    const uint64_t me = write ? me_write : me_read;
    for (uint64_t a = address / kGranule * kGranule; a < address + n; a += kGranule) {
      const uint64_t cell_no = (key_base + a) / kGranule;
      uint32_t* link = &m.page(shadow, cell_no / kPageCells)[cell_no % kPageCells];
      uint32_t* const head = link;
      uint32_t* last_link = nullptr;
      unsigned kept = 0;
      bool found = false;
      while (*link != 0) {
        const uint32_t i = *link;
        Impl::Node& x = m.nodes[i];
        if (x.slot != slot && (x.write || write) && vc[x.slot] < x.epoch)
          m.record(cell_tag | cell_no, access_key(x.slot, x.word, x.write), me, count_);
        if (x.slot == slot && x.word == word && x.write == write) {
          x.epoch = epoch;
          found = true;
        } else if (floor[x.slot] >= x.epoch) {  // every engine still running is ordered after it
          *link = x.next;
          x.next = m.free;
          m.free = i;
          continue;
        }
        ++kept;
        last_link = link;
        link = &x.next;
      }
      if (found) continue;
      if (kept >= kMaxCellAccesses) {  // drop the access kept longest
        const uint32_t i = *last_link;
        *last_link = 0;
        m.nodes[i].next = m.free;
        m.free = i;
        m.incomplete |= Impl::kCells;
      }
      uint32_t i = m.free;
      if (i != 0) {
        m.free = m.nodes[i].next;
      } else {
        i = static_cast<uint32_t>(m.nodes.size());
        m.nodes.emplace_back();
      }
      m.nodes[i] = {word, epoch, *head, static_cast<uint8_t>(slot), write};
      *head = i;
    }
  };
  const uint64_t core_key = uint64_t{step.core} << 48;
  Impl::Shadow& onchip = m.onchip[step.core];
  for (const MemRead& r : step.mem_reads) access(onchip, core_key, 0, r.address, r.size, false, floor_core);
  for (const MemWrite& w : step.mem_writes) access(onchip, core_key, 0, w.address, w.size, true, floor_core);
  for (const EffectLog::DramRange& d : step.dram_ranges)
    access(m.dram, 0, kDramCell, reinterpret_cast<uint64_t>(d.base) + d.offset, d.n, d.write, floor_dram);
  // Release: the word's semaphore updates (EVENTS, the extended lane, a DMA's completion) carry its clock.
  for (const SemWrite& s : step.sem_writes)
    if (!s.event && s.index < kNumSemaphores) m.release(step.core, s.index, s, vc, machine);
}

const std::vector<Race>& RaceChecker::races() const {
  Impl& m = *impl_;
  if (m.built_for == count_) return races_;
  m.built_for = count_;
  races_.clear();
  // One race per pair of words, in stream order; of its read/write variants the one at the lowest location.
  std::map<std::pair<uint64_t, uint64_t>, std::vector<const Impl::Pairs::value_type*>> words;
  for (const auto& p : m.pairs) words[{p.first.first >> 1, p.first.second >> 1}].push_back(&p);
  word_pairs_ = words.size();
  const Generation g = run_.gen();
  using Where = std::tuple<int, uint64_t, std::string, uint64_t>;  // region, core, variable, byte
  for (const auto& [key, variants] : words) {
    if (races_.size() == max_reported) break;
    std::optional<std::tuple<Where, uint64_t, uint64_t, RaceLocation>> best;
    for (const auto* p : variants)
      for (const auto& [begin, end] : p->second) {
        std::vector<std::pair<Where, RaceLocation>> at;
        if ((begin & kDramCell) == 0) {
          const uint64_t key_byte = begin * kGranule;
          const auto core = static_cast<unsigned>(key_byte >> 48);
          const uint64_t address = key_byte & ((uint64_t{1} << 48) - 1);
          at.emplace_back(Where{0, core, "", address},
                          onchip_location(g, core, address, address + (end - begin) * kGranule));
        } else {
          const uint64_t lo = (begin & ~kDramCell) * kGranule, hi = (end & ~kDramCell) * kGranule;
          for (size_t c = 0; c < run_.machine().num_cores(); ++c)
            for (const DramVar& v : run_.dram(c).vars) {
              const auto base = reinterpret_cast<uint64_t>(v.data);
              if (!v.present || v.data == nullptr || hi <= base || lo >= base + v.size) continue;
              const uint64_t off = std::max(lo, base) - base;
              at.emplace_back(Where{1, 0, v.name, off}, RaceLocation{RaceLocation::Memory::Dram, 0, 0, v.name, off,
                                                                     std::min(hi, base + v.size) - std::max(lo, base)});
            }
          if (at.empty())
            at.emplace_back(Where{2, 0, "", lo}, RaceLocation{RaceLocation::Memory::Dram, 0, 0, "", lo, hi - lo});
        }
        for (auto& [where, loc] : at) {
          auto candidate = std::make_tuple(std::move(where), p->first.first, p->first.second, std::move(loc));
          if (!best || std::tie(std::get<0>(candidate), std::get<1>(candidate), std::get<2>(candidate)) <
                           std::tie(std::get<0>(*best), std::get<1>(*best), std::get<2>(*best)))
            best = std::move(candidate);
        }
      }
    if (best) {
      const RaceLocation& loc = std::get<3>(*best);
      races_.push_back({access_of(std::get<1>(*best)), access_of(std::get<2>(*best)), location_text(loc, g), loc});
    }
  }
  return races_;
}

uint64_t RaceChecker::word_pairs() const {
  races();
  return word_pairs_;
}

RaceChecker::Kept RaceChecker::kept() const {
  const Impl& m = *impl_;
  uint64_t free_nodes = 0;
  for (uint32_t i = m.free; i != 0; i = m.nodes[i].next) ++free_nodes;
  return {m.nodes.size() - 1 - free_nodes, m.updates, m.pairs.size()};
}

std::string RaceChecker::incomplete() const {
  const unsigned bits = impl_->incomplete;
  std::vector<std::string> why;
  if ((bits & Impl::kCells) != 0)
    why.push_back(
        fmt::format("a 2-byte location had more than {} accesses unordered with a running engine", kMaxCellAccesses));
  if ((bits & Impl::kHistory) != 0)
    why.push_back(fmt::format("a wait needed a semaphore update older than the {} kept", kMaxUpdates));
  if ((bits & Impl::kPairs) != 0)
    why.push_back(fmt::format("more than {} racing pairs or {} ranges of locations", kMaxPairs, kMaxRanges));
  if ((bits & Impl::kModel) != 0) why.push_back("a wait held on a value the check did not follow");
  std::string text;
  for (const std::string& w : why) text += (text.empty() ? "" : "; ") + w;
  return text;
}

}  // namespace tpbisa::neff
