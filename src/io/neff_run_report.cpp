// The whole-NEFF run loop and its report (`tpbisa run PROG.neff`, Python's Neff.run): one implementation of the
// stepping, the deadlock and race wording and the JSON document, so the command line and the module agree.
#include "tpbisa/io/neff_run_report.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "tpbisa/text.hpp"

namespace tpbisa::io {
namespace {

using ojson = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

uint64_t total_macs(const Machine& m) {
  uint64_t n = 0;
  for (size_t c = 0; c < m.num_cores(); ++c) n += m.core(c).state().macs;
  return n;
}

}  // namespace

std::string_view to_string(NeffRunReport::Status s) {
  switch (s) {
    case NeffRunReport::Status::Ok: return "ok";
    case NeffRunReport::Status::Fault: return "fault";
    case NeffRunReport::Status::StepLimit: return "step-limit";
    case NeffRunReport::Status::Deadlock: return "deadlock";
  }
  return "ok";
}

NeffRunReport execute_neff_run(neff::Run& run, uint64_t max_steps, neff::RaceChecker* races,
                               const NeffRunHooks& hooks) {
  Machine& m = run.machine();
  NeffRunReport rep;
  const auto start = Clock::now();
  while (!m.finished()) {
    if (m.deadlocked()) {
      rep.status = NeffRunReport::Status::Deadlock;
      rep.blocked = m.blocked_waits();
      break;
    }
    if (rep.retired >= max_steps) {
      rep.status = NeffRunReport::Status::StepLimit;
      break;
    }
    const StepResult r = m.step();
    if (r.status == StepResult::Status::Blocked) continue;
    if (hooks.on_step && r.status != StepResult::Status::Halted) hooks.on_step(r);
    if (r.status == StepResult::Status::Faulted) {
      rep.status = NeffRunReport::Status::Fault;
      rep.fault = r.fault;
      break;
    }
    if (r.status == StepResult::Status::Halted) break;
    if (races != nullptr) races->observe(r);
    run.note_step(r);
    ++rep.retired;
    ++rep.opcodes[std::string(r.name)];
    if (const uint64_t u = r.diagnostic_counts[static_cast<size_t>(DiagKind::UninitializedRead)]; u != 0)
      rep.uninit[{r.core, r.engine}] += u;
    if (hooks.on_progress && (rep.retired & 0xFFF) == 0) hooks.on_progress(rep.retired);
  }
  rep.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return rep;
}

NeffRunReport execute_neff_run_threads(neff::Run& run, uint64_t max_steps) {
  Machine& m = run.machine();
  const auto start = Clock::now();
  struct Part {
    RunSummary summary;
    std::map<std::string, uint64_t> opcodes;
    std::map<std::pair<unsigned, EngineId>, uint64_t> uninit;
  };
  std::vector<Part> parts(m.num_cores());
  std::vector<std::thread> threads;
  for (size_t c = 0; c < m.num_cores(); ++c)
    threads.emplace_back([&m, &run, &parts, max_steps, c] {
      Part& p = parts[c];
      p.summary = m.run_core(c, max_steps, [&p, &run](const StepResult& r) {
        if (r.status != StepResult::Status::Retired) return;
        run.note_step(r);
        ++p.opcodes[std::string(r.name)];
        if (const uint64_t u = r.diagnostic_counts[static_cast<size_t>(DiagKind::UninitializedRead)]; u != 0)
          p.uninit[{r.core, r.engine}] += u;
      });
    });
  for (std::thread& t : threads) t.join();
  NeffRunReport rep;
  for (const Part& p : parts) {
    rep.retired += p.summary.retired;
    for (const auto& [k, n] : p.opcodes) rep.opcodes[k] += n;
    for (const auto& [k, n] : p.uninit) rep.uninit[k] += n;
    if (p.summary.faulted && rep.status != NeffRunReport::Status::Fault) {
      rep.status = NeffRunReport::Status::Fault;
      rep.fault = p.summary.fault;
    } else if (p.summary.deadlock && rep.status == NeffRunReport::Status::Ok) {
      rep.status = NeffRunReport::Status::Deadlock;
    } else if (p.summary.step_limit && rep.status == NeffRunReport::Status::Ok) {
      rep.status = NeffRunReport::Status::StepLimit;
    }
    rep.blocked.insert(rep.blocked.end(), p.summary.blocked.begin(), p.summary.blocked.end());
  }
  if (rep.status != NeffRunReport::Status::Deadlock) rep.blocked.clear();
  rep.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return rep;
}

std::vector<std::string> deadlock_raisers(const neff::Run& run, const std::vector<neff::SubgraphSems>& picture,
                                          const BlockedWait& w) {
  std::vector<std::string> out;
  const std::string& sg = run.subgraph(w.core);
  for (const neff::SubgraphSems& s : picture) {
    if (s.subgraph != sg) continue;
    for (const neff::SemaphoreUses& u : s.semaphores) {
      if (u.index != w.id) continue;
      for (const neff::SemUse& inc : u.increments) {
        std::string state = "not found";
        for (unsigned e = 0; e < kEnginesPerCore; ++e) {
          const auto id = static_cast<EngineId>(e);
          if (run.stream_label(w.core, id) != inc.stream) continue;
          const Sequencer& q = run.machine().core(w.core).engine(id);
          if (q.pc() > inc.word)
            state = "retired";
          else if (q.pc() == inc.word)
            state = q.blocked() ? fmt::format("blocked at it, waiting for {}", wait_condition(*q.blocked()))
                                : "next to run";
          else
            state = fmt::format("not reached: its engine is at #{}{}", q.pc(), q.finished() ? " (finished)" : "");
        }
        out.push_back(fmt::format("{}#{} {} ({}): {}", inc.stream, inc.word, inc.mnemonic, inc.text, state));
      }
    }
  }
  return out;
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

ojson neff_run_json(const neff::Neff& nf, const neff::Run& run, const NeffRunReport& rep,
                    const NeffRunReportContext& ctx) {
  const Machine& m = run.machine();
  const uint64_t macs = total_macs(m);
  const double rate = rep.seconds > 0 ? static_cast<double>(macs) / rep.seconds : 0.0;
  ojson cores = ojson::array();
  for (size_t c = 0; c < m.num_cores(); ++c) {
    ojson engines = ojson::object();
    for (unsigned e = 0; e < kEnginesPerCore; ++e) {
      const auto id = static_cast<EngineId>(e);
      const Sequencer& q = m.core(c).engine(id);
      const auto u = rep.uninit.find({static_cast<unsigned>(c), id});
      engines[std::string(tpbisa::to_string(id))] = {{"stream", run.stream_label(c, id)},
                                                     {"words", q.size()},
                                                     {"retired", q.retired()},
                                                     {"pc", q.pc()},
                                                     {"uninitialized_reads", u == rep.uninit.end() ? 0 : u->second}};
    }
    ojson sems = ojson::object();
    for (unsigned i = 0; i < kNumSemaphores; ++i)
      if (m.core(c).state().sems[i] != 0) sems[std::to_string(i)] = m.core(c).state().sems[i];
    cores.push_back({{"core", c},
                     {"subgraph", run.subgraph(c)},
                     {"engines", std::move(engines)},
                     {"macs", m.core(c).state().macs},
                     {"dma_bytes", run.dram(c).dma_bytes},
                     {"dma_transfers", run.dram(c).dma_transfers},
                     {"semaphores", std::move(sems)}});
  }
  ojson opcodes = ojson::object();
  for (const auto& [name, n] : rep.opcodes) opcodes[name] = n;
  ojson doc{{"status", to_string(rep.status)},
            {"program", ctx.program},
            {"generation", tpbisa::to_string(run.gen())},
            {"retired", rep.retired},
            {"cores", std::move(cores)},
            {"opcodes", std::move(opcodes)},
            {"macs", macs},
            {"seconds", rep.seconds},
            {"macs_per_second", rate},
            {"outputs", ctx.written},
            {"reservation_violations", run.reservation_violations()},
            {"uninitialized_dram_reads",
             [&] {
               ojson list = ojson::array();
               for (const auto& [key, n] : run.uninitialized_dram_reads())
                 list.push_back({{"stream", key.first}, {"variable", key.second}, {"bytes", n}});
               return list;
             }()},
            {"fp8",
             {{"ocp_sat", run.conversion().ocp_sat},
              {"sis", run.conversion().sis},
              {"sns", run.conversion().sns},
              {"range_extension", run.conversion().fp8_range_extension}}}};
  if (rep.status == NeffRunReport::Status::Fault)
    doc["fault"] = {{"kind", tpbisa::to_string(rep.fault.kind)},
                    {"core", rep.fault.core},
                    {"stream", run.stream_label(rep.fault.core, rep.fault.engine)},
                    {"index", rep.fault.index},
                    {"instruction", neff_instruction_text(run, rep.fault.core, rep.fault.engine, rep.fault.index)},
                    {"detail", rep.fault.detail}};
  if (rep.status == NeffRunReport::Status::Deadlock) {
    const std::vector<neff::SubgraphSems> picture = neff::semaphore_picture(nf);
    ojson blocked = ojson::array();
    for (const BlockedWait& w : rep.blocked)
      blocked.push_back({{"core", w.core},
                         {"stream", run.stream_label(w.core, w.engine)},
                         {"index", w.index},
                         {"instruction", neff_instruction_text(run, w.core, w.engine, w.index)},
                         {"condition", wait_condition(w)},
                         {"value", w.value},
                         {"could_raise", deadlock_raisers(run, picture, w)}});
    doc["deadlock"] = std::move(blocked);
  }
  ojson cmp = ojson::array();
  for (const OutputComparison& c : ctx.comparisons)
    cmp.push_back({{"output", c.name},
                   {"elements", c.elements},
                   {"differing", c.differing},
                   {"max_abs_diff", c.max_abs_diff},
                   {"first_differing", c.first}});
  doc["expect"] = std::move(cmp);
  if (ctx.races != nullptr) {
    ojson list = ojson::array();
    for (const neff::Race& r : ctx.races->races())
      list.push_back({{"earlier", race_access_text(run, r.earlier)},
                      {"later", race_access_text(run, r.later)},
                      {"location", r.location}});
    doc["races"] = {{"count", ctx.races->count()}, {"reported", std::move(list)}};
    if (const std::string why = ctx.races->incomplete(); !why.empty()) doc["races"]["incomplete"] = why;
  }
  return doc;
}

}  // namespace tpbisa::io
