// The race check of a NEFF run: vector clocks per engine, semaphores as release/acquire points, and a shadow
// of every on-chip and DRAM byte pair touched (last writer, last reader per engine).
#include <array>
#include <set>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

#include "families/family.hpp"
#include "tpbisa/address.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/neff_run.hpp"

namespace tpbisa::neff {

namespace {

constexpr unsigned kMaxEngines = 16;   // cores x 5 engines the shadow cells can tell apart
constexpr uint64_t kGranule = 2;       // bytes per shadow cell: FP16 elements are the narrowest seen
constexpr uint64_t kPageCells = 2048;  // cells per shadow page

using Clock = std::array<uint32_t, kMaxEngines>;

}  // namespace

struct RaceChecker::Impl {
  // A member type: one from this file's anonymous namespace, in a member of this externally linked class, is what
  // g++'s -Wsubobject-linkage reports once the folder compiles as one unity source.
  struct Cell {
    uint32_t w_epoch = 0;  ///< 0: never written
    uint8_t w_engine = 0;
    uint32_t w_index = 0;
    std::array<uint32_t, kMaxEngines> r_epoch{};  ///< per engine: the epoch of its last read, 0 none
    std::array<uint32_t, kMaxEngines> r_index{};
  };
  unsigned engines = 0;
  std::vector<Clock> vc;                               ///< per engine slot (core * 5 + engine)
  std::vector<std::array<Clock, kNumSemaphores>> sem;  ///< per core: the join of every update's clock
  // Shadow pages: space 0..cores-1 on-chip of that core, space `cores` DRAM (keyed by the byte's address).
  std::unordered_map<uint64_t, std::unique_ptr<std::array<Cell, kPageCells>>> onchip, dram;
  std::set<std::tuple<unsigned, size_t, unsigned, size_t>> pairs;
};

RaceChecker::RaceChecker(const Run& run) : run_(run), impl_(std::make_unique<Impl>()) {
  const size_t cores = run.machine().num_cores();
  impl_->engines = static_cast<unsigned>(std::min<size_t>(cores * kEnginesPerCore, kMaxEngines));
  impl_->vc.assign(impl_->engines, Clock{});
  impl_->sem.assign(cores, {});
}

RaceChecker::~RaceChecker() = default;

namespace {

std::string onchip_location(Generation g, unsigned core, uint64_t address) {
  const PartitionAddress p = decode_partition_offset(static_cast<uint32_t>(address), g);
  const std::string_view region = p.region == Region::Psum ? "psum" : p.region == Region::Sbuf ? "sbuf" : "dev";
  if (p.region == Region::Outside) return fmt::format("dev:{:#x} (core {})", address, core);
  return fmt::format("{}[p{}]+{:#x} (core {})", region, p.partition, p.offset, core);
}

std::string dram_location(const Run& run, uint64_t address) {
  for (size_t c = 0; c < run.machine().num_cores(); ++c)
    for (const DramVar& v : run.dram(c).vars) {
      const auto base = reinterpret_cast<uint64_t>(v.data);
      if (v.present && v.data != nullptr && address >= base && address < base + v.size)
        return fmt::format("{}+{:#x}", v.name, address - base);
    }
  return fmt::format("dram:{:#x}", address);
}

}  // namespace

void RaceChecker::observe(const StepResult& step) {
  if (step.status != StepResult::Status::Retired) return;
  Impl& m = *impl_;
  const unsigned slot = step.core * kEnginesPerCore + static_cast<unsigned>(step.engine);
  if (slot >= m.engines) return;  // more cores than the shadow tells apart: not checked
  Clock& vc = m.vc[slot];
  // Acquire: every semaphore the word waited on (EVENTS, then the waits its family adds: EventSemaphore's
  // extended lane).
  const Instruction& inst = run_.machine().core(step.core).engine(step.engine).instruction(step.index);
  auto acquire = [&](const Events& lane) {
    if (!waits_on_semaphore(lane.wait_mode)) return;
    const Clock& s = m.sem[step.core][lane.wait_idx];
    for (unsigned e = 0; e < m.engines; ++e) vc[e] = std::max(vc[e], s[e]);
  };
  acquire(inst.events());
  for (const Events& lane : family::extra_waits(inst).all()) acquire(lane);
  const uint32_t epoch = ++vc[slot];
  const auto index = static_cast<uint32_t>(step.index);

  auto access = [&](std::unordered_map<uint64_t, std::unique_ptr<std::array<Impl::Cell, kPageCells>>>& shadow,
                    uint64_t key_base, uint64_t address, uint64_t n, bool write, auto&& where) {
    for (uint64_t a = address / kGranule * kGranule; a < address + n; a += kGranule) {
      const uint64_t cell_no = (key_base + a) / kGranule;
      auto& page = shadow[cell_no / kPageCells];
      if (!page) page = std::make_unique<std::array<Impl::Cell, kPageCells>>();
      Impl::Cell& c = (*page)[cell_no % kPageCells];
      auto report = [&](unsigned other_slot, uint32_t other_index, bool other_write) {
        ++count_;
        const auto key = std::make_tuple(other_slot, size_t{other_index}, slot, step.index);
        if (!m.pairs.insert(key).second) return;
        if (races_.size() >= max_reported) return;
        Race r;
        r.earlier = {other_slot / kEnginesPerCore, static_cast<EngineId>(other_slot % kEnginesPerCore), other_index,
                     other_write};
        r.later = {step.core, step.engine, step.index, write};
        r.location = where(a);
        races_.push_back(std::move(r));
      };
      if (c.w_epoch != 0 && c.w_engine != slot && vc[c.w_engine] < c.w_epoch) report(c.w_engine, c.w_index, true);
      if (write) {
        for (unsigned e = 0; e < m.engines; ++e)
          if (e != slot && c.r_epoch[e] != 0 && vc[e] < c.r_epoch[e]) report(e, c.r_index[e], false);
        c.w_epoch = epoch;
        c.w_engine = static_cast<uint8_t>(slot);
        c.w_index = index;
        c.r_epoch.fill(0);
      } else {
        c.r_epoch[slot] = epoch;
        c.r_index[slot] = index;
      }
    }
  };
  const Generation g = run_.gen();
  const uint64_t core_key = uint64_t{step.core} << 48;
  const auto onchip_where = [&](uint64_t a) { return onchip_location(g, step.core, a); };
  const auto dram_where = [&](uint64_t a) { return dram_location(run_, a); };
  for (const MemRead& r : step.mem_reads) access(m.onchip, core_key, r.address, r.size, false, onchip_where);
  for (const MemWrite& w : step.mem_writes) access(m.onchip, core_key, w.address, w.size, true, onchip_where);
  for (const EffectLog::DramRange& d : step.dram_ranges)
    access(m.dram, 0, reinterpret_cast<uint64_t>(d.base) + d.offset, d.n, d.write, dram_where);
  // Release: the word's semaphore updates (EVENTS, the extended lane, a DMA's completion) carry its clock.
  for (const SemWrite& s : step.sem_writes) {
    if (s.event || s.index >= kNumSemaphores) continue;
    Clock& c = m.sem[step.core][s.index];
    for (unsigned e = 0; e < m.engines; ++e) c[e] = std::max(c[e], vc[e]);
  }
}

}  // namespace tpbisa::neff
