// The timeline of a NEFF run: logical time from the scheduler's order of steps, durations from the cost model,
// semaphore waits and their releases, written as Chrome trace events.
#include "tpbisa/io/timeline.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

namespace tpbisa::io {
namespace {

using ojson = nlohmann::ordered_json;

constexpr const char* kEngineNames[kEnginesPerCore] = {"PE", "ACT", "POOL", "DVE", "SP"};
/// DMA queue tracks sort after the engines: tid = kQueueTid + the queue's completion semaphore.
constexpr unsigned kQueueTid = 100;

uint64_t ceil_div(uint64_t a, uint64_t b) {
  return b == 0 ? 0 : (a + b - 1) / b;
}

ojson metadata(const char* what, unsigned pid, std::optional<unsigned> tid, const std::string& name, unsigned sort) {
  ojson m{{"ph", "M"}, {"name", what}, {"pid", pid}};
  if (tid) m["tid"] = *tid;
  m["args"] = {{"name", name}};
  ojson order{{"ph", "M"}, {"name", tid ? "thread_sort_index" : "process_sort_index"}, {"pid", pid}};
  if (tid) order["tid"] = *tid;
  order["args"] = {{"sort_index", sort}};
  return ojson::array({m, order});
}

}  // namespace

Timeline::Timeline(const neff::Neff& nf, const neff::Run& run, TimelineCosts costs) : run_(run), costs_(costs) {
  const size_t cores = run.machine().num_cores();
  clocks_.assign(cores * kEnginesPerCore, 0);
  macs_.assign(cores, 0);
  // The static picture names every wait and raise by stream label and word: key them by core and engine.
  std::map<std::string, std::pair<unsigned, unsigned>> by_label;
  for (unsigned c = 0; c < cores; ++c)
    for (unsigned e = 0; e < kEnginesPerCore; ++e) by_label[run.stream_label(c, static_cast<EngineId>(e))] = {c, e};
  for (const neff::SubgraphSems& sg : neff::semaphore_picture(nf, run.gen()))
    for (const neff::SemaphoreUses& s : sg.semaphores) {
      const auto sem = static_cast<uint16_t>(s.index);
      for (const neff::SemUse& u : s.waits)
        if (const auto it = by_label.find(u.stream); it != by_label.end())
          waits_[{it->second.first, it->second.second, u.word}] = {sem, u.text};
      for (const neff::SemUse& u : s.increments)
        if (const auto it = by_label.find(u.stream); it != by_label.end())
          raises_[{it->second.first, it->second.second, u.word}].push_back(
              {sem, u.kind == neff::SemUse::Kind::DmaCompletion});
    }
  for (unsigned c = 0; c < cores; ++c) {
    for (ojson& m : metadata("process_name", c, std::nullopt, fmt::format("core {} ({})", c, run.subgraph(c)), c))
      events_.push_back(std::move(m));
    for (unsigned e = 0; e < kEnginesPerCore; ++e)
      for (ojson& m : metadata("thread_name", c, e, kEngineNames[e], e)) events_.push_back(std::move(m));
  }
}

void Timeline::add_slice(const Slice& s, std::string name, std::string cat, ojson args) {
  events_.push_back(ojson{{"ph", "X"},
                          {"name", std::move(name)},
                          {"cat", std::move(cat)},
                          {"pid", s.pid},
                          {"tid", s.tid},
                          {"ts", s.ts},
                          {"dur", s.dur},
                          {"args", std::move(args)}});
  end_ = std::max(end_, s.ts + s.dur);
}

void Timeline::observe(const StepResult& step) {
  const unsigned core = step.core;
  const auto engine = static_cast<unsigned>(step.engine);
  if (step.status == StepResult::Status::Blocked) {
    blocked_[{core, engine}] = step.wait;
    return;
  }
  if (step.status != StepResult::Status::Retired) return;
  blocked_.erase({core, engine});
  const std::string label = fmt::format("{}#{}", run_.stream_label(core, step.engine), step.index);
  uint64_t& now = clock(core, engine);
  const Key key{core, engine, step.index};
  // A wait starts the word no earlier than the update that let it through; the time before is a wait slice.
  if (const auto w = waits_.find(key); w != waits_.end()) {
    const auto r = releases_.find({core, w->second.semaphore});
    if (r != releases_.end() && r->second.time > now) {
      const Slice wait{core, engine, now, r->second.time - now};
      add_slice(wait, "wait " + w->second.text, "wait", {{"word", label}, {"semaphore", w->second.semaphore}});
      if (r->second.by) {
        const uint64_t id = ++flows_;
        const Slice& by = *r->second.by;
        events_.push_back(ojson{{"ph", "s"},
                                {"name", "release"},
                                {"cat", "semaphore"},
                                {"id", id},
                                {"pid", by.pid},
                                {"tid", by.tid},
                                {"ts", by.ts}});
        events_.push_back(ojson{{"ph", "f"},
                                {"bp", "e"},
                                {"name", "release"},
                                {"cat", "semaphore"},
                                {"id", id},
                                {"pid", core},
                                {"tid", engine},
                                {"ts", wait.ts + wait.dur - 1}});
      }
      now = r->second.time;
    }
  }
  // The cost model: issue, memory elements over the lanes, MACs over the PE array.
  const uint64_t macs_now = run_.machine().core(core).state().macs;
  const uint64_t macs = macs_now - std::min(macs_now, macs_[core]);
  macs_[core] = macs_now;
  const uint64_t elements = std::max(step.totals.mem, step.totals.reads);
  const uint64_t cost = costs_.issue + ceil_div(elements, costs_.lanes) + ceil_div(macs, costs_.macs_per_cycle);
  const Slice slice{core, engine, now, cost};
  add_slice(slice, std::string(step.name), kEngineNames[engine],
            {{"word", label},
             {"opcode", fmt::format("{:#04x}", step.opcode)},
             {"elements", elements},
             {"macs", macs},
             {"cost", cost}});
  now += cost;
  // Its updates: at its end, or a DMA's at the end of its transfer on the queue of its completion semaphore.
  uint64_t dma_bytes = 0;
  for (const EffectLog::DramRange& d : step.dram_ranges) dma_bytes += d.write ? d.n : 0;
  if (dma_bytes == 0)
    for (const EffectLog::DramRange& d : step.dram_ranges) dma_bytes += d.n;
  const auto raises = raises_.find(key);
  if (raises == raises_.end()) return;
  for (const Raise& r : raises->second) {
    Release rel{now, slice};
    if (r.dma) {
      uint64_t& busy = queues_[{core, r.semaphore}];
      const Slice transfer{core, kQueueTid + r.semaphore, std::max(now, busy),
                           std::max<uint64_t>(1, ceil_div(dma_bytes, costs_.dma_bytes_per_cycle))};
      add_slice(transfer, "DMA " + label, "dma", {{"word", label}, {"bytes", dma_bytes}, {"semaphore", r.semaphore}});
      busy = transfer.ts + transfer.dur;
      rel = {busy, transfer};
    }
    Release& last = releases_[{core, r.semaphore}];
    if (rel.time >= last.time) last = rel;
  }
}

void Timeline::blocked(std::span<const BlockedWait> waits) {
  for (const BlockedWait& w : waits) blocked_[{w.core, static_cast<unsigned>(w.engine)}] = w;
}

ojson Timeline::document() const {
  ojson events = ojson::array();
  for (const ojson& e : events_) events.push_back(e);
  std::set<std::pair<unsigned, uint16_t>> queues;
  for (const auto& [q, busy] : queues_) queues.insert(q);
  for (const auto& [core, sem] : queues)
    for (ojson& m :
         metadata("thread_name", core, kQueueTid + sem, fmt::format("DMA queue $S[{}]", sem), kQueueTid + sem))
      events.push_back(std::move(m));
  // An engine still blocked when the run ended (a deadlock): its wait lasts to the end of the timeline.
  for (const auto& [at, w] : blocked_) {
    const uint64_t from = clocks_[at.first * kEnginesPerCore + at.second];
    events.push_back(ojson{{"ph", "X"},
                           {"name", "blocked " + wait_condition(w)},
                           {"cat", "wait"},
                           {"pid", at.first},
                           {"tid", at.second},
                           {"ts", from},
                           {"dur", std::max<uint64_t>(end_, from + 1) - from},
                           {"args",
                            {{"word", fmt::format("{}#{}", run_.stream_label(at.first, w.engine), w.index)},
                             {"semaphore", w.id},
                             {"value", w.value}}}});
  }
  return ojson{{"traceEvents", std::move(events)},
               {"displayTimeUnit", "ns"},
               {"otherData",
                {{"generator", "tpbisa run --timeline"},
                 {"time", "model cycles (shown as microseconds): a cost model, not silicon timing (docs/trace.md)"},
                 {"cost_model",
                  {{"issue", costs_.issue},
                   {"lanes", costs_.lanes},
                   {"macs_per_cycle", costs_.macs_per_cycle},
                   {"dma_bytes_per_cycle", costs_.dma_bytes_per_cycle}}}}}};
}

}  // namespace tpbisa::io
