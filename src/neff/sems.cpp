// The static semaphore picture of a NEFF: per subgraph, the words that wait on each semaphore and those that raise it.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "families/family.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::neff {
namespace {

/// The update acts on a semaphore (the SEM_* update modes).
bool updates_semaphore(uint8_t mode) {
  const UpdateModeInfo* m = update_mode_info(mode);
  return m != nullptr && m->action != UpdateAction::None && !updates_event(m->action);
}

class Picture {
 public:
  Picture(const Subgraph& sg, Generation gen) : sg_(sg), gen_(gen) {}

  void word(const Stream& s, size_t i) {
    const auto w = s.word(i);
    const Instruction inst = decode(w, gen_);
    SemUse base;
    base.stream = s.label();
    base.word = i;
    base.mnemonic = std::string(inst.name());
    lane(base, inst.events());
    // The lanes a family declares beyond EVENTS (EVENT_SEMAPHORE's second wait and update, PROJ-CONV-F3), and a
    // transfer's completion.
    const family::ExtraWaits waits = family::extra_waits(inst);
    for (const Events& e : waits.all()) lane(base, e);
    const family::ExtraWaits updates = family::extra_updates(inst);
    for (const Events& e : updates.all()) lane(base, e);
    if (const family::Completion c = family::completion(inst); c.present) dma(base, s.engine, c.semaphore, c.increment);
  }

  SubgraphSems finish() {
    SubgraphSems out;
    out.subgraph = sg_.name;
    for (auto& [index, uses] : sems_) {
      uses.index = index;
      for (const QueueSet& q : sg_.queue_sets)
        if (std::find(q.semaphores.begin(), q.semaphores.end(), index) != q.semaphores.end())
          uses.queue_sets.push_back(q.name);
      out.semaphores.push_back(std::move(uses));
    }
    return out;
  }

 private:
  void lane(const SemUse& base, const Events& e) {
    if (waits_on_semaphore(e.wait_mode)) {
      SemUse u = base;
      u.kind = SemUse::Kind::Wait;
      u.mode = e.wait_mode;
      u.value = e.semaphore_value;
      u.text = render_wait(e, gen_);
      sems_[e.wait_idx].waits.push_back(std::move(u));
    }
    if (updates_semaphore(e.update_mode)) {
      SemUse u = base;
      u.kind = SemUse::Kind::Update;
      u.mode = e.update_mode;
      u.value = e.semaphore_value;
      u.text = render_update(e, gen_);
      sems_[e.update_idx].increments.push_back(std::move(u));
    }
  }

  void dma(const SemUse& base, Engine issuer, uint8_t sem, uint8_t increment) {
    SemUse u = base;
    u.kind = SemUse::Kind::DmaCompletion;
    u.value = increment;
    u.text = fmt::format("$S[{}]+={}@dma-complete", sem, increment);
    // The carrying queue set holds the semaphore and is owned by the issuing engine (real-programs.md §7.1).
    const QueueSet* holder = nullptr;
    for (const QueueSet& q : sg_.queue_sets) {
      if (std::find(q.semaphores.begin(), q.semaphores.end(), sem) == q.semaphores.end()) continue;
      if (q.owner_engine == issuer) {
        holder = &q;
        break;
      }
      if (holder == nullptr) holder = &q;
    }
    if (holder == nullptr) {
      u.note = "no queue set holds this semaphore";
    } else {
      u.queue_set = holder->name;
      if (holder->owner_engine != issuer)
        u.note =
            fmt::format("queue set {} is owned by '{}', not by {}", holder->name, holder->owner, engine_name(issuer));
      else if (holder->num_queues != 0 && increment != holder->num_queues)
        u.note = fmt::format("increment {} differs from the queue set's num_queues {}", increment, holder->num_queues);
    }
    sems_[sem].increments.push_back(std::move(u));
  }

  const Subgraph& sg_;
  Generation gen_;
  std::map<uint32_t, SemaphoreUses> sems_;
};

}  // namespace

std::vector<SubgraphSems> semaphore_picture(const Neff& neff, Generation fallback) {
  const Generation gen = neff.generation.value_or(fallback);
  std::vector<SubgraphSems> out;
  for (const Subgraph& sg : neff.subgraphs) {
    Picture p(sg, gen);
    for (const EngineDef& e : sg.engines)
      for (size_t i = 0; i < e.stream.word_count(); ++i) p.word(e.stream, i);
    out.push_back(p.finish());
  }
  return out;
}

}  // namespace tpbisa::neff
