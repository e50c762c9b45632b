// The whole-NEFF run and its report (`tpbisa run PROG.neff`, Python's Neff.run): one implementation of what a run
// observes over the machine's loop, the deadlock and race wording and the JSON document, so the command line and the
// module agree.
#include "tpbisa/io/neff_run_report.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>
#include <unordered_set>

#include <fmt/format.h>

#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/io/element.hpp"
#include "tpbisa/io/npy_file.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/trace.hpp"

namespace tpbisa::io {
namespace {

using ojson = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

/// What a run counts of every retired step: the run's DRAM bookkeeping, words per mnemonic, uninitialised reads, and
/// each engine's backward jumps (the loop a run stopped by its step bound is in).
struct StepCounts {
  std::map<std::string, uint64_t> opcodes;
  std::map<std::pair<unsigned, EngineId>, uint64_t> uninit;
  std::map<std::pair<unsigned, EngineId>, BackwardJump> jumps;
  void note(neff::Run& run, const StepResult& r) {
    run.note_step(r);
    ++opcodes[std::string(r.name)];
    if (const uint64_t u = r.diagnostic_counts[static_cast<size_t>(DiagKind::UninitializedRead)]; u != 0)
      uninit[{r.core, r.engine}] += u;
    const Sequencer& q = run.machine().core(r.core).engine(r.engine);
    if (q.pc() <= r.index && !q.finished()) {
      BackwardJump& j = jumps[{r.core, r.engine}];
      j.index = r.index;
      j.target = q.pc();
      ++j.count;
    }
  }
  void add_to(NeffRunReport& rep) const {
    for (const auto& [k, n] : opcodes) rep.opcodes[k] += n;
    for (const auto& [k, n] : uninit) rep.uninit[k] += n;
    for (const auto& [k, j] : jumps) rep.backward_jumps[k] = j;
  }
};

/// The report's status for a run's summary.
NeffRunReport::Status status_of(const RunSummary& s) {
  using S = NeffRunReport::Status;
  return s.faulted       ? S::Fault
         : s.interrupted ? S::Interrupted
         : s.deadlock    ? S::Deadlock
         : s.step_limit  ? S::StepLimit
                         : S::Ok;
}

}  // namespace

void append_neff_trace_line(std::string& out, const StepResult& step, const neff::Run& run, TraceFormat format) {
  append_trace_line(out, step, run.machine(), TraceStyle{true, format, &run});
}

namespace {

NeffRunReport execute_serial(NeffRun& r, const NeffRunOptions& o, OutputFile* trace) {
  neff::Run& run = *r.run;
  StepCounts counts;
  std::string line;
  RunHooks hooks;
  hooks.on_step = [&](const StepResult& step) {
    if (o.on_step) o.on_step(step);
    if (trace != nullptr && o.trace_filter.pass(step)) {
      line.clear();
      append_neff_trace_line(line, step, run, o.trace_format);
      line += '\n';
      trace->write(line);
    }
    if (step.status != StepResult::Status::Retired) return;
    if (r.races != nullptr) r.races->observe(step);
    counts.note(run, step);
  };
  hooks.on_progress = o.on_progress;
  hooks.progress_words = o.progress_words;
  const RunSummary s = run.machine().run(static_cast<size_t>(std::min<uint64_t>(o.max_steps, SIZE_MAX)), hooks);
  NeffRunReport rep;
  rep.status = status_of(s);
  rep.retired = s.retired;
  rep.fault = s.fault;
  rep.blocked = s.blocked;
  counts.add_to(rep);
  return rep;
}

/// The DRAM bytes one core's DMAs read and wrote in the variables that other cores may also address (half-open
/// byte ranges per variable, merged at the end): a run of the cores at once gives what one order gives when no
/// core wrote bytes another core read or wrote.
class SharedAccesses {
 public:
  using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;
  struct Variable {
    Ranges reads, writes;
  };
  void note(const EffectLog::DramRange& r, const std::unordered_set<const uint8_t*>& shared) {
    if (r.n == 0 || shared.count(r.base) == 0) return;
    Ranges& list = r.write ? vars_[r.base].writes : vars_[r.base].reads;
    if (!list.empty() && list.back().second == r.offset)
      list.back().second += r.n;  // the next chunk of a transfer
    else
      list.emplace_back(r.offset, r.offset + r.n);
  }
  /// Sorts and merges every list.
  void finish() {
    for (auto& [base, v] : vars_) {
      merge(v.reads);
      merge(v.writes);
    }
  }
  /// Some byte one of the two wrote the other read or wrote (both finished).
  bool conflicts(const SharedAccesses& other) const {
    for (const auto& [base, v] : vars_) {
      const auto it = other.vars_.find(base);
      if (it == other.vars_.end()) continue;
      const Variable& w = it->second;
      if (overlap(v.writes, w.writes) || overlap(v.writes, w.reads) || overlap(v.reads, w.writes)) return true;
    }
    return false;
  }

 private:
  static void merge(Ranges& list) {
    std::sort(list.begin(), list.end());
    size_t out = 0;
    for (const auto& r : list) {
      if (out != 0 && r.first <= list[out - 1].second)
        list[out - 1].second = std::max(list[out - 1].second, r.second);
      else
        list[out++] = r;
    }
    list.resize(out);
  }
  static bool overlap(const Ranges& a, const Ranges& b) {
    for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
      if (a[i].first < b[j].second && b[j].first < a[i].second) return true;
      if (a[i].second <= b[j].second)
        ++i;
      else
        ++j;
    }
    return false;
  }
  std::map<const uint8_t*, Variable> vars_;
};

/// The writable DRAM variables that more than one core addresses (outputs and tmp-bufs are shared by name).
std::unordered_set<const uint8_t*> shared_writable(const neff::Run& run) {
  std::map<const uint8_t*, size_t> cores;
  for (size_t c = 0; c < run.machine().num_cores(); ++c) {
    std::unordered_set<const uint8_t*> mine;
    for (const DramVar& d : run.dram(c).vars)
      if (d.present && d.writable != nullptr) mine.insert(d.data);
    for (const uint8_t* b : mine) ++cores[b];
  }
  std::unordered_set<const uint8_t*> out;
  for (const auto& [base, n] : cores)
    if (n > 1) out.insert(base);
  return out;
}

/// The cores on at most `max_threads` threads (each core on one thread, the threads taking the next core as they
/// finish one); the calling thread waits, calling on_progress about every 0.1 s, and tells the cores to stop when
/// it says so. The report is merged from the per-core results. With `one_order`, it also says whether one order of
/// steps gives that result (every core ran to its end, within max_steps in all, and no core wrote DRAM bytes another
/// core read or wrote); the per-core step limit is then max_steps in all, not per core.
/// The cores run on threads of their own (std::thread), not as tasks of a bounded pool (oneTBB, as the parallel
/// checks): `--threads` runs every core at once, as the device does, and a core is one long run rather than a chunk,
/// whose end the calling thread must stay free to wait for (reporting progress, telling the cores to stop).
NeffRunReport execute_threads(NeffRun& r, const NeffRunOptions& o, size_t max_threads, bool* one_order) {
  neff::Run& run = *r.run;
  Machine& m = run.machine();
  struct Part {
    RunSummary summary;
    StepCounts counts;
    SharedAccesses shared;
  };
  std::vector<Part> parts(m.num_cores());
  const std::unordered_set<const uint8_t*> shared =
      one_order != nullptr ? shared_writable(run) : std::unordered_set<const uint8_t*>{};
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> retired{0};
  std::atomic<size_t> next_core{0};
  std::mutex mutex;
  std::condition_variable finished;
  size_t done = 0;
  std::vector<std::thread> threads;
  const size_t limit = static_cast<size_t>(std::min<uint64_t>(o.max_steps, SIZE_MAX));
  const size_t n_threads = std::clamp<size_t>(max_threads, 1, parts.size());
  for (size_t t = 0; t < n_threads; ++t)
    threads.emplace_back([&] {
      for (size_t c = next_core++; c < parts.size(); c = next_core++) {
        Part& p = parts[c];
        RunHooks hooks;
        hooks.on_step = [&p, &run, &shared](const StepResult& step) {
          if (step.status != StepResult::Status::Retired) return;
          p.counts.note(run, step);
          if (!shared.empty())
            for (const EffectLog::DramRange& d : step.dram_ranges) p.shared.note(d, shared);
        };
        // Every word: the calling thread's stop is seen at the next word retired.
        hooks.progress_words = 1;
        hooks.on_progress = [&stop, &retired](uint64_t) {
          retired.fetch_add(1, std::memory_order_relaxed);
          return !stop.load(std::memory_order_relaxed);
        };
        p.summary = m.run_core(c, limit, hooks);
        p.shared.finish();
        const std::lock_guard<std::mutex> lock(mutex);
        ++done;
        finished.notify_one();
      }
    });
  {
    std::unique_lock<std::mutex> lock(mutex);
    while (!finished.wait_for(lock, std::chrono::milliseconds(100), [&] { return done == parts.size(); })) {
      if (!o.on_progress) continue;
      lock.unlock();
      if (!o.on_progress(retired.load(std::memory_order_relaxed))) stop = true;
      lock.lock();
    }
  }
  for (std::thread& t : threads) t.join();
  NeffRunReport rep;
  using S = NeffRunReport::Status;
  for (const Part& p : parts) {
    rep.retired += p.summary.retired;
    p.counts.add_to(rep);
    const S s = status_of(p.summary);
    // A fault outranks everything, an interruption the rest; a deadlock or a step limit shows when nothing else does.
    if (s == S::Fault && rep.status != S::Fault) {
      rep.status = S::Fault;
      rep.fault = p.summary.fault;
    } else if ((s == S::Interrupted && rep.status != S::Fault) || (s != S::Ok && rep.status == S::Ok)) {
      rep.status = s;
    }
    rep.blocked.insert(rep.blocked.end(), p.summary.blocked.begin(), p.summary.blocked.end());
  }
  if (rep.status != S::Deadlock) rep.blocked.clear();
  if (one_order != nullptr) {
    *one_order = rep.status == S::Ok && rep.retired <= o.max_steps;
    for (size_t a = 0; a < parts.size() && *one_order; ++a)
      for (size_t b = a + 1; b < parts.size() && *one_order; ++b)
        *one_order = !parts[a].shared.conflicts(parts[b].shared);
  }
  return rep;
}

}  // namespace

std::string_view to_string(NeffRunReport::Status s) {
  switch (s) {
    case NeffRunReport::Status::Ok: return "ok";
    case NeffRunReport::Status::Fault: return "fault";
    case NeffRunReport::Status::StepLimit: return "step-limit";
    case NeffRunReport::Status::Deadlock: return "deadlock";
    case NeffRunReport::Status::Interrupted: return "interrupted";
  }
  return "ok";
}

uint64_t total_macs(const Machine& m) {
  uint64_t n = 0;
  for (size_t c = 0; c < m.num_cores(); ++c) n += m.core(c).state().macs;
  return n;
}

Expected<NeffRun> prepare_neff_run(const neff::Neff& nf, std::span<const neff::RunInput> inputs,
                                   const NeffRunOptions& options) {
  MachineOptions mo = options.machine;
  mo.record_effects = options.trace || options.check_races;
  // The threads the cores leave free go to each step's long products (the same bits for any count).
  const unsigned cores = static_cast<unsigned>(std::max<size_t>(nf.subgraphs.size(), 1));
  mo.kernel_threads = std::max(mo.kernel_threads, options.max_threads / cores);
  // The race check needs every access of every step: nothing is capped then.
  if (options.check_races) mo.max_recorded_effects = SIZE_MAX;
  std::string error;
  NeffRun r;
  r.run = neff::Run::create(nf, inputs, mo, error, options.basis);
  if (!r.run) return Error{ErrorKind::Invalid, std::move(error)};
  if (options.check_races) r.races = std::make_unique<neff::RaceChecker>(*r.run);
  r.neff = &nf;
  r.inputs.assign(inputs.begin(), inputs.end());
  return r;
}

NeffRunReport execute_neff_run(NeffRun& r, const NeffRunOptions& options, OutputFile* trace) {
  const auto start = Clock::now();
  NeffRunReport rep;
  // The cores at once, kept when one order gives the same: a trace, a step hook (the timeline), a race check and a
  // random schedule follow one order of steps across the cores.
  const bool at_once = !options.threads && options.max_threads > 1 && trace == nullptr && !options.trace &&
                       !options.on_step && r.races == nullptr && options.machine.schedule != Schedule::Random &&
                       r.run->machine().num_cores() > 1 && r.neff != nullptr;
  bool one_order = true;
  // One core has one order of steps: it runs on the calling thread (a thread of its own would only add the start).
  const bool threads = options.threads && r.run->machine().num_cores() > 1;
  if (threads)
    rep = execute_threads(r, options, r.run->machine().num_cores(), nullptr);
  else if (at_once)
    rep = execute_threads(r, options, options.max_threads, &one_order);
  // Again from the start in one order. The first run is kept until the end (a progress hook may still look at its
  // machine); a second build that fails (only memory can run short: the first built) leaves the first's report.
  std::unique_ptr<neff::Run> first;
  if (at_once && !one_order && rep.status != NeffRunReport::Status::Interrupted)
    if (auto again = prepare_neff_run(*r.neff, r.inputs, options)) {
      first = std::exchange(r.run, std::move(again->run));
      r.reran = true;
    }
  if (!threads && (!at_once || r.reran)) rep = execute_serial(r, options, trace);
  rep.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return rep;
}

uint64_t neff_core_words(const neff::Neff& nf) {
  uint64_t words = 0;
  for (const neff::Subgraph& sg : nf.subgraphs)
    for (const neff::EngineDef& e : sg.engines) words += e.stream.word_count();
  return words;
}

uint64_t default_neff_max_steps(const neff::Neff& nf) {
  const uint64_t words = neff_core_words(nf);
  return words > kNeffMinSteps / kNeffStepsPerWord ? words * kNeffStepsPerWord : kNeffMinSteps;
}

std::vector<UnfinishedEngine> unfinished_engines(const neff::Run& run, const NeffRunReport& rep) {
  std::vector<UnfinishedEngine> out;
  const Machine& m = run.machine();
  for (size_t c = 0; c < m.num_cores(); ++c)
    for (unsigned e = 0; e < kEnginesPerCore; ++e) {
      const auto id = static_cast<EngineId>(e);
      const Sequencer& q = m.core(c).engine(id);
      if (q.finished()) continue;
      UnfinishedEngine u{static_cast<unsigned>(c), id, q.pc(), q.blocked(), std::nullopt};
      // A loop the engine has left (it went on past the jumping word, or before its target) is not shown.
      if (const auto j = rep.backward_jumps.find({u.core, id});
          j != rep.backward_jumps.end() && j->second.target <= u.pc && u.pc <= j->second.index)
        u.loop = j->second;
      out.push_back(std::move(u));
    }
  return out;
}

std::vector<std::string> neff_output_paths(const neff::Neff& nf, const std::string& dir) {
  std::vector<std::string> paths;
  for (const neff::Tensor& t : nf.outputs) paths.push_back((std::filesystem::path(dir) / (t.name + ".npy")).string());
  return paths;
}

Expected<void> check_neff_outputs(const neff::Neff& nf, const std::string& dir, const OutputOptions& options) {
  const std::vector<std::string> paths = neff_output_paths(nf, dir);
  for (size_t i = 0; i < nf.outputs.size(); ++i) {
    const neff::Tensor& t = nf.outputs[i];
    if (neff::npy_descrs_for(t.dtype).empty())
      return Error{ErrorKind::Invalid, fmt::format("output {}: dtype {} has no .npy form", t.name, t.dtype)};
    if (auto ok = OutputFile::check(paths[i], options); !ok) return ok.error();
  }
  return {};
}

Expected<std::vector<std::string>> write_neff_outputs(const neff::Neff& nf, const neff::Run& run,
                                                      const std::string& dir, const OutputOptions& options) {
  if (auto ok = check_neff_outputs(nf, dir, options); !ok) return ok.error();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{ErrorKind::Open, fmt::format("--out {}: {}", dir, ec.message())};
  const std::vector<std::string> paths = neff_output_paths(nf, dir);
  for (size_t i = 0; i < nf.outputs.size(); ++i) {
    const neff::Tensor& t = nf.outputs[i];
    if (auto done = write_npy(paths[i], neff::npy_descrs_for(t.dtype).front(), t.shape, run.output(t.name), options);
        !done)
      return done.error();
  }
  return paths;
}

namespace {

/// The raisers of `w` from the static picture, each with the state of its engine.
std::vector<DeadlockRaiser> picture_raisers(const neff::Run& run, const std::vector<neff::SubgraphSems>& picture,
                                            const BlockedWait& w) {
  std::vector<DeadlockRaiser> out;
  const std::string& sg = run.subgraph(w.core);
  for (const neff::SubgraphSems& s : picture) {
    if (s.subgraph != sg) continue;
    for (const neff::SemaphoreUses& u : s.semaphores) {
      if (u.index != w.id) continue;
      for (const neff::SemUse& inc : u.increments) {
        DeadlockRaiser r{inc.stream, inc.word, inc.mnemonic, inc.text, "not-found", 0, false, {}};
        std::string state = "not found";
        for (unsigned e = 0; e < kEnginesPerCore; ++e) {
          const auto id = static_cast<EngineId>(e);
          if (run.stream_label(w.core, id) != inc.stream) continue;
          const Sequencer& q = run.machine().core(w.core).engine(id);
          r.engine_at = q.pc();
          r.engine_finished = q.finished();
          if (q.pc() > inc.word) {
            state = r.state = "retired";
          } else if (q.pc() == inc.word) {
            r.state = q.blocked() ? "blocked" : "next";
            state = q.blocked() ? fmt::format("blocked at it, waiting for {}", wait_condition(*q.blocked()))
                                : "next to run";
          } else {
            r.state = "not-reached";
            state = fmt::format("not reached: its engine is at #{}{}", q.pc(), q.finished() ? " (finished)" : "");
          }
        }
        r.text = fmt::format("{}#{} {} ({}): {}", inc.stream, inc.word, inc.mnemonic, inc.text, state);
        out.push_back(std::move(r));
      }
    }
  }
  return out;
}

/// Roots first: a wait none of whose raisers is still to come behind a blocked engine.
std::vector<DeadlockWait> ranked(std::vector<DeadlockWait> waits) {
  for (DeadlockWait& d : waits)
    d.root = std::none_of(d.could_raise.begin(), d.could_raise.end(),
                          [](const DeadlockRaiser& r) { return r.state == "blocked" || r.state == "not-reached"; });
  std::stable_partition(waits.begin(), waits.end(), [](const DeadlockWait& d) { return d.root; });
  return waits;
}

}  // namespace

std::vector<std::string> deadlock_raisers(const neff::Run& run, const std::vector<neff::SubgraphSems>& picture,
                                          const BlockedWait& w) {
  std::vector<std::string> out;
  for (const DeadlockRaiser& r : picture_raisers(run, picture, w)) out.push_back(r.text);
  return out;
}

std::vector<DeadlockWait> neff_deadlock(const neff::Neff& nf, const neff::Run& run, std::span<const BlockedWait> w) {
  const std::vector<neff::SubgraphSems> picture = neff::semaphore_picture(nf);
  std::vector<DeadlockWait> out;
  for (const BlockedWait& b : w)
    out.push_back({b, run.stream_label(b.core, b.engine), neff_instruction_text(run, b.core, b.engine, b.index), true,
                   picture_raisers(run, picture, b)});
  return ranked(std::move(out));
}

std::vector<DeadlockWait> stream_deadlock(const Machine& m, std::span<const BlockedWait> waits,
                                          const std::string& program) {
  std::vector<DeadlockWait> out;
  for (const BlockedWait& b : waits) {
    const Sequencer& q = m.core(b.core).engine(b.engine);
    DeadlockWait d{
        b, program, b.index < q.size() ? disassemble(q.instruction(b.index), m.gen()) : "(end of stream)", true, {}};
    for (size_t i = 0; i < q.size() && !b.event; ++i) {
      const Instruction inst = q.instruction(i);
      const Events& e = inst.events();
      const UpdateModeInfo* mode = update_mode_info(e.update_mode);
      if (mode == nullptr || mode->action == UpdateAction::None || updates_event(mode->action) || e.update_idx != b.id)
        continue;
      const std::string update = render_update(e, inst.gen);
      const std::string state = i < q.pc()    ? "retired"
                                : i == q.pc() ? (q.blocked() ? "blocked" : "next")
                                              : "not-reached";
      d.could_raise.push_back({program, i, std::string(inst.name()), update, state, q.pc(), q.finished(),
                               fmt::format("#{} {} ({}): {}", i, inst.name(), update, state)});
    }
    out.push_back(std::move(d));
  }
  return ranked(std::move(out));
}

ojson deadlock_json(std::span<const DeadlockWait> waits) {
  ojson list = ojson::array();
  for (const DeadlockWait& d : waits) {
    const ojson w = ojson::parse(blocked_wait_json(d.wait));
    ojson j{{"core", w["core"]},     {"engine", w["engine"]}, {"stream", d.stream}, {"index", w["index"]},
            {"offset", w["offset"]}, {"opcode", w["opcode"]}, {"name", w["name"]},  {"instruction", d.instruction}};
    for (const char* key : {"semaphore", "event", "value", "condition", "comparand", "register"})
      if (w.contains(key)) j[key] = w[key];
    j["root"] = d.root;
    ojson raisers = ojson::array();
    for (const DeadlockRaiser& r : d.could_raise)
      raisers.push_back({{"stream", r.stream},
                         {"index", r.index},
                         {"name", r.name},
                         {"update", r.update},
                         {"state", r.state},
                         {"engine_at", r.engine_at},
                         {"text", r.text}});
    j["could_raise"] = std::move(raisers);
    list.push_back(std::move(j));
  }
  return list;
}

std::string neff_instruction_text(const neff::Run& run, unsigned core, EngineId e, size_t index) {
  const Sequencer& q = run.machine().core(core).engine(e);
  if (index >= q.size()) return "(end of stream)";
  return disassemble(q.instruction(index), run.gen());
}

std::string race_access_text(const neff::Run& run, const neff::RaceAccess& a) {
  return fmt::format("{}#{} {} ({})", run.stream_label(a.core, a.engine), a.index,
                     neff_instruction_text(run, a.core, a.engine, a.index), a.write ? "write" : "read");
}

namespace {

/// A race access as JSON: the word as a deadlock report names it, and whether it read or wrote.
ojson race_access_json(const neff::Run& run, const neff::RaceAccess& a) {
  const Sequencer& q = run.machine().core(a.core).engine(a.engine);
  ojson j{{"core", a.core},
          {"engine", tpbisa::to_string(a.engine)},
          {"stream", run.stream_label(a.core, a.engine)},
          {"index", a.index},
          {"offset", a.index * kWordBytes}};
  if (a.index < q.size()) {
    const Instruction inst = q.instruction(a.index);
    j["opcode"] = fmt::format("{:#04x}", inst.opcode());
    j["name"] = std::string(inst.name());
  } else {
    j["opcode"] = nullptr;
    j["name"] = nullptr;
  }
  j["instruction"] = neff_instruction_text(run, a.core, a.engine, a.index);
  j["access"] = a.write ? "write" : "read";
  j["text"] = race_access_text(run, a);
  return j;
}

/// A race location as JSON: the memory, whose, where and how many bytes, and the text the report prints.
ojson race_location_json(const neff::Race& r) {
  using Memory = neff::RaceLocation::Memory;
  const neff::RaceLocation& at = r.where;
  const bool onchip = at.memory != Memory::Dram;
  const bool partitioned = at.memory == Memory::Sbuf || at.memory == Memory::Psum;
  constexpr std::array<std::string_view, 4> kMemory{"sbuf", "psum", "dev", "dram"};
  return {{"memory", kMemory[static_cast<size_t>(at.memory)]},
          {"core", onchip ? ojson(at.core) : ojson(nullptr)},
          {"partition", partitioned ? ojson(at.partition) : ojson(nullptr)},
          {"variable", at.memory == Memory::Dram && !at.variable.empty() ? ojson(at.variable) : ojson(nullptr)},
          {"offset", at.offset},
          {"bytes", at.bytes},
          {"text", r.location}};
}

}  // namespace

namespace {

/// An object with room for `n` entries. An ordered object's entries are pairs with a const key, which its vector
/// copies, whole subtrees and all, each time it grows: a report's large parts are inserted into objects that never
/// grow.
ojson reserved_object(size_t n) {
  ojson o = ojson::object();
  o.get_ref<ojson::object_t&>().reserve(n);
  return o;
}

}  // namespace

ojson neff_run_json(const neff::Neff& nf, const neff::Run& run, const NeffRunReport& rep,
                    const NeffRunReportContext& ctx) {
  const Machine& m = run.machine();
  const uint64_t macs = total_macs(m);
  const double rate = rep.seconds > 0 ? static_cast<double>(macs) / rep.seconds : 0.0;
  ojson cores = ojson::array();
  for (size_t c = 0; c < m.num_cores(); ++c) {
    ojson engines = reserved_object(kEnginesPerCore);
    for (unsigned e = 0; e < kEnginesPerCore; ++e) {
      const auto id = static_cast<EngineId>(e);
      const Sequencer& q = m.core(c).engine(id);
      const auto u = rep.uninit.find({static_cast<unsigned>(c), id});
      ojson& j = engines[std::string(tpbisa::to_string(id))];
      j = {{"stream", run.stream_label(c, id)},
           {"words", q.size()},
           {"retired", q.retired()},
           {"pc", q.pc()},
           {"uninitialized_reads", u == rep.uninit.end() ? 0 : u->second}};
      // The engine's ACT state when it has any (act-index-ops.md §2.3): its loaded activation-function set and its
      // non-zero accumulators by channel.
      const EngineState& st = m.core(c).engine_state(id);
      if (st.act_set != nullptr) j["act_set"] = activation_set_name(st.act_set);
      ojson acc = reserved_object(kDveChannels);
      for (unsigned ch = 0; ch < kDveChannels; ++ch)
        if (st.dve[ch].acc != 0) {  // each channel once, in order: appended without a search for the key
          ojson one = reserved_object(2);
          one["bits"] = bits_hex(st.dve[ch].acc, 4);
          one["value"] = float_json(std::bit_cast<float>(st.dve[ch].acc));
          acc.get_ref<ojson::object_t&>().emplace_back(std::to_string(ch), std::move(one));
        }
      if (!acc.empty()) j["accumulators"] = std::move(acc);
    }
    ojson sems = ojson::object();
    for (unsigned i = 0; i < kNumSemaphores; ++i)
      if (m.core(c).state().sems[i] != 0) sems[std::to_string(i)] = m.core(c).state().sems[i];
    ojson core = reserved_object(7);
    core["core"] = c;
    core["subgraph"] = run.subgraph(c);
    core["engines"] = std::move(engines);
    core["macs"] = m.core(c).state().macs;
    core["dma_bytes"] = run.dram(c).dma_bytes;
    core["dma_transfers"] = run.dram(c).dma_transfers;
    core["semaphores"] = std::move(sems);
    cores.push_back(std::move(core));
  }
  ojson opcodes = ojson::object();
  for (const auto& [name, n] : rep.opcodes) opcodes[name] = n;
  ojson doc = reserved_object(20);
  doc["status"] = to_string(rep.status);
  doc["program"] = ctx.program;
  doc["generation"] = tpbisa::to_string(run.gen());
  doc["retired"] = rep.retired;
  doc["cores"] = std::move(cores);
  doc["opcodes"] = std::move(opcodes);
  doc["macs"] = macs;
  doc["seconds"] = rep.seconds;
  doc["macs_per_second"] = rate;
  doc["outputs"] = ctx.written;
  doc["reservation_violations"] = run.reservation_violations();
  ojson unwritten = ojson::array();
  for (const auto& [key, n] : run.uninitialized_dram_reads())
    unwritten.push_back({{"stream", key.first}, {"variable", key.second}, {"bytes", n}});
  doc["uninitialized_dram_reads"] = std::move(unwritten);
  doc["fp8"] = {{"ocp_sat", run.conversion().ocp_sat},
                {"sis", run.conversion().sis},
                {"sns", run.conversion().sns},
                {"range_extension", run.conversion().fp8_range_extension}};
  if (rep.status == NeffRunReport::Status::Fault)
    doc["fault"] = {{"kind", tpbisa::to_string(rep.fault.kind)},
                    {"core", rep.fault.core},
                    {"stream", run.stream_label(rep.fault.core, rep.fault.engine)},
                    {"index", rep.fault.index},
                    {"instruction", neff_instruction_text(run, rep.fault.core, rep.fault.engine, rep.fault.index)},
                    {"detail", rep.fault.detail}};
  if (rep.status == NeffRunReport::Status::Deadlock)
    doc["deadlock"] = deadlock_json(neff_deadlock(nf, run, rep.blocked));
  if (rep.status == NeffRunReport::Status::StepLimit) {
    ojson engines = ojson::array();
    for (const UnfinishedEngine& u : unfinished_engines(run, rep)) {
      ojson e{{"core", u.core},
              {"stream", run.stream_label(u.core, u.engine)},
              {"index", u.pc},
              {"instruction", neff_instruction_text(run, u.core, u.engine, u.pc)},
              {"blocked", u.blocked ? ojson(wait_condition(*u.blocked)) : ojson(nullptr)},
              {"loop", nullptr}};
      if (u.loop)
        e["loop"] = {{"index", u.loop->index},
                     {"instruction", neff_instruction_text(run, u.core, u.engine, u.loop->index)},
                     {"target", u.loop->target},
                     {"jumps", u.loop->count}};
      engines.push_back(std::move(e));
    }
    doc["step_limit"] = {{"max_steps", ctx.max_steps}, {"default", ctx.default_max_steps}, {"engines", engines}};
  }
  ojson cmp = ojson::array();
  for (const OutputComparison& c : ctx.comparisons)
    cmp.push_back({{"output", c.name},
                   {"reference", c.reference},
                   {"rtol", c.rtol},
                   {"atol", c.atol},
                   {"elements", c.elements},
                   {"differing", c.differing},
                   {"max_abs_diff", c.max_abs_diff},
                   {"first_differing", c.first}});
  doc["expect"] = std::move(cmp);
  if (ctx.races != nullptr) {
    ojson list = ojson::array();
    for (const neff::Race& r : ctx.races->races())
      list.push_back({{"earlier", race_access_json(run, r.earlier)},
                      {"later", race_access_json(run, r.later)},
                      {"location", race_location_json(r)}});
    doc["races"] = {{"count", ctx.races->count()},
                    {"cells", ctx.races->count()},
                    {"pairs", ctx.races->word_pairs()},
                    {"reported", std::move(list)}};
    if (const std::string why = ctx.races->incomplete(); !why.empty()) doc["races"]["incomplete"] = why;
  }
  return doc;
}

}  // namespace tpbisa::io
