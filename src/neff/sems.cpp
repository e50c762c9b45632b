// The static semaphore picture of a NEFF: per subgraph, the words that wait on each semaphore and those that raise it.
#include <algorithm>
#include <map>
#include <memory>

#include <oneapi/tbb/parallel_for.h>

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

/// Where a use is: built into a SemUse only when the word has one.
struct WordAt {
  const std::string& stream;
  size_t word;
  std::string_view mnemonic;
  SemUse use() const {
    SemUse u;
    u.stream = stream;
    u.word = word;
    u.mnemonic = std::string(mnemonic);
    return u;
  }
};

class Picture {
 public:
  Picture(const Subgraph& sg, Generation gen) : sg_(sg), gen_(gen) {}

  /// Word i of stream s, whose label is `label` (made once per stream: most words use no semaphore, and a program
  /// may hold ten million of them). True when the word uses a semaphore.
  bool word(const Stream& s, const std::string& label, size_t i) {
    const size_t before = uses_;
    const auto w = s.word(i);
    const Instruction inst = decode(w, gen_);
    if (inst.info != nullptr && inst.info->format == Format::CtrlBr) branches_ = true;
    const WordAt base{label, i, inst.name()};
    lane(base, inst.events());
    // The lanes a family declares beyond EVENTS (EVENT_SEMAPHORE's second wait and update, PROJ-CONV-F3), and a
    // transfer's completion.
    const family::ExtraWaits waits = family::extra_waits(inst);
    for (const Events& e : waits.all()) lane(base, e);
    const family::ExtraWaits updates = family::extra_updates(inst);
    for (const Events& e : updates.all()) lane(base, e);
    if (const family::Completion c = family::completion(inst); c.present) dma(base, s.engine, c.semaphore, c.increment);
    return uses_ != before;
  }

  /// Appends the uses `later` found (in words after this one's) semaphore by semaphore: pictures of consecutive
  /// word ranges joined in order are the picture of one pass.
  void absorb(Picture& later) {
    for (auto& [index, uses] : later.sems_) {
      SemaphoreUses& mine = sems_[index];
      for (SemUse& u : uses.waits) mine.waits.push_back(std::move(u));
      for (SemUse& u : uses.increments) mine.increments.push_back(std::move(u));
    }
    later.sems_.clear();
    branches_ = branches_ || later.branches_;
  }

  SubgraphSems finish() {
    SubgraphSems out;
    out.subgraph = sg_.name;
    out.branches = branches_;
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
  void lane(const WordAt& base, const Events& e) {
    if (waits_on_semaphore(e.wait_mode)) {
      SemUse u = base.use();
      u.kind = SemUse::Kind::Wait;
      u.mode = e.wait_mode;
      u.value = e.semaphore_value;
      u.text = render_wait(e, gen_);
      sems_[e.wait_idx].waits.push_back(std::move(u));
      ++uses_;
    }
    if (updates_semaphore(e.update_mode)) {
      SemUse u = base.use();
      u.kind = SemUse::Kind::Update;
      u.mode = e.update_mode;
      u.value = e.semaphore_value;
      u.text = render_update(e, gen_);
      sems_[e.update_idx].increments.push_back(std::move(u));
      ++uses_;
    }
  }

  void dma(const WordAt& base, Engine issuer, uint8_t sem, uint8_t increment) {
    SemUse u = base.use();
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
    ++uses_;
  }

  const Subgraph& sg_;
  Generation gen_;
  std::map<uint32_t, SemaphoreUses> sems_;
  size_t uses_ = 0;        ///< uses found so far
  bool branches_ = false;  ///< a branch word was seen
};

}  // namespace

std::vector<SubgraphSems> semaphore_picture(const Neff& neff, Generation fallback, size_t range_words) {
  const Generation gen = neff.generation.value_or(fallback);
  range_words = std::max<size_t>(range_words, 1);
  // Each range of words gets a picture of its own (for a large program, as tasks of oneTBB's current arena); joined
  // in stream and word order they are the picture of one pass.
  struct Range {
    size_t subgraph;
    const Stream* stream;
    const std::string* label;
    size_t begin, end;
  };
  std::vector<std::string> labels;
  for (const Subgraph& sg : neff.subgraphs)
    for (const EngineDef& e : sg.engines) labels.push_back(e.stream.label());
  std::vector<Range> ranges;
  size_t stream = 0, words = 0;
  for (size_t k = 0; k < neff.subgraphs.size(); ++k)
    for (const EngineDef& e : neff.subgraphs[k].engines) {
      for (size_t i = 0; i < e.stream.word_count(); i += range_words)
        ranges.push_back({k, &e.stream, &labels[stream], i, std::min(e.stream.word_count(), i + range_words)});
      words += e.stream.word_count();
      ++stream;
    }
  std::vector<std::unique_ptr<Picture>> parts;
  parts.reserve(ranges.size());
  for (const Range& r : ranges) parts.push_back(std::make_unique<Picture>(neff.subgraphs[r.subgraph], gen));
  const auto look = [&](size_t k) {
    const Range& r = ranges[k];
    bool used = true;
    for (size_t i = r.begin; i < r.end; ++i) {
      // A word like the one before it, which used no semaphore, uses none (a stream of Nops).
      const auto w = r.stream->word(i);
      if (!used && std::equal(w.begin(), w.end(), r.stream->word(i - 1).begin())) continue;
      used = parts[k]->word(*r.stream, *r.label, i);
    }
  };
  // A small program stays on the calling thread (oneTBB's threads cost more to start than its words take).
  if (ranges.size() > 1 && words >= 2 * kSemaphorePictureRangeWords)
    tbb::parallel_for(size_t{0}, ranges.size(), look);
  else
    for (size_t k = 0; k < ranges.size(); ++k) look(k);
  std::vector<SubgraphSems> out;
  size_t next = 0;
  for (size_t k = 0; k < neff.subgraphs.size(); ++k) {
    Picture whole(neff.subgraphs[k], gen);
    for (; next < ranges.size() && ranges[next].subgraph == k; ++next) whole.absorb(*parts[next]);
    out.push_back(whole.finish());
  }
  return out;
}

}  // namespace tpbisa::neff
