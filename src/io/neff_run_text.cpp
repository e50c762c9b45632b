// The text report of a NEFF run: status, cores, findings.
#include "tpbisa/io/neff_run_text.hpp"

#include <fmt/format.h>

#include "tpbisa/neff_run.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::io {
namespace {

/// The step-limit status: which bound stopped the run, and per engine left unfinished the loop it was in.
std::string step_limit_text(const neff::Run& run, const NeffRunReport& rep, const NeffRunReportContext& ctx,
                            const neff::Neff& nf) {
  const uint64_t words = neff_core_words(nf);
  std::string text =
      ctx.default_max_steps
          ? fmt::format(
                "status: step-limit: stopped after {} words, the default bound of this program ({} per word "
                "of its {} word{}, at least {}; --max-steps changes it)\n",
                rep.retired, kNeffStepsPerWord, words, words == 1 ? "" : "s", kNeffMinSteps)
          : fmt::format("status: step-limit: stopped by --max-steps after {} words\n", rep.retired);
  for (const UnfinishedEngine& u : unfinished_engines(run, rep)) {
    const size_t at = u.loop ? u.loop->index : u.pc;
    text += fmt::format("  {}#{}: {}\n", run.stream_label(u.core, u.engine), at,
                        neff_instruction_text(run, u.core, u.engine, at));
    if (u.loop)
      text += fmt::format("    jumped back to #{} {} time{}: the loop it had not left (it is at #{})\n", u.loop->target,
                          u.loop->count, u.loop->count == 1 ? "" : "s", u.pc);
    else if (u.blocked)
      text += fmt::format("    in no loop; blocked, waiting for {}\n", wait_condition(*u.blocked));
    else
      text += "    in no loop; next to run\n";
  }
  return text;
}

}  // namespace

std::string neff_status_text(const NeffRun& r, const NeffRunReport& rep, const NeffRunReportContext& ctx,
                             const neff::Neff& nf) {
  const neff::Run& run = *r.run;
  switch (rep.status) {
    case NeffRunReport::Status::Ok:
      return fmt::format("status: ok, {} words retired in {:.3f} s\n", rep.retired, rep.seconds);
    case NeffRunReport::Status::StepLimit: return step_limit_text(run, rep, ctx, nf);
    case NeffRunReport::Status::Interrupted: return fmt::format("status: interrupted after {} words\n", rep.retired);
    case NeffRunReport::Status::Fault: {
      const Fault& f = rep.fault;
      return fmt::format("status: fault after {} words retired; the faulting instruction changed nothing\n",
                         rep.retired) +
             fmt::format("fault: {} at {}#{}: {}\n  {}\n", to_string(f.kind), run.stream_label(f.core, f.engine),
                         f.index, f.detail, neff_instruction_text(run, f.core, f.engine, f.index));
    }
    case NeffRunReport::Status::Deadlock: break;
  }
  std::string text = fmt::format(
      "status: deadlock after {} words retired: every engine that has not finished is blocked\n", rep.retired);
  // The root waits first: the hang starts there; the others wait behind them.
  for (const DeadlockWait& d : neff_deadlock(nf, run, rep.blocked)) {
    const BlockedWait& w = d.wait;
    text += fmt::format("  {}#{}{}: {}\n", d.stream, w.index, d.root ? " (root)" : "", d.instruction);
    text += fmt::format("    waits for {}; semaphore {} is {}\n", wait_condition(w), w.id, w.value);
    if (d.could_raise.empty()) text += "    no word of the program raises it\n";
    for (const DeadlockRaiser& by : d.could_raise) text += fmt::format("    could be raised by {}\n", by.text);
  }
  return text;
}

std::string neff_cores_text(const neff::Run& run, const NeffRunReport& rep) {
  const Machine& m = run.machine();
  std::string text;
  for (size_t c = 0; c < m.num_cores(); ++c) {
    text += fmt::format("core {} ({}): {} MACs, {} DMA bytes in {} transfers\n", c, run.subgraph(c),
                        m.core(c).state().macs, run.dram(c).dma_bytes, run.dram(c).dma_transfers);
    for (unsigned e = 0; e < kEnginesPerCore; ++e) {
      const auto id = static_cast<EngineId>(e);
      const Sequencer& q = m.core(c).engine(id);
      text += fmt::format("  {:<5} {} of {} words retired\n", to_string(id), q.retired(), q.size());
    }
    std::string sems;
    for (unsigned i = 0; i < kNumSemaphores; ++i)
      if (m.core(c).state().sems[i] != 0) sems += fmt::format(" $S[{}]={}", i, m.core(c).state().sems[i]);
    text += fmt::format("  semaphores:{}\n", sems.empty() ? " (all zero)" : sems);
  }
  std::string ops;
  for (const auto& [name, n] : rep.opcodes) ops += fmt::format("{}{} {}", ops.empty() ? "" : ", ", name, n);
  text += fmt::format("opcodes: {}\n", ops.empty() ? "(none)" : ops);
  const uint64_t macs = total_macs(m);
  const double rate = rep.seconds > 0 ? static_cast<double>(macs) / rep.seconds : 0.0;
  text += fmt::format("MACs: {} in {:.3f} s ({:.3g} MAC/s)\n", macs, rep.seconds, rate);
  return text;
}

std::string neff_findings_text(const NeffRun& r, const NeffRunReport& rep, const NeffRunReportContext& ctx) {
  const neff::Run& run = *r.run;
  std::string text;
  const auto dram_uninit = run.uninitialized_dram_reads();
  if (rep.uninit.empty() && dram_uninit.empty()) {
    text += "uninitialized reads: none\n";
  } else {
    text += "uninitialized reads (read as 0):\n";
    for (const auto& [key, n] : rep.uninit)
      text += fmt::format("  {}: {} on-chip read{}\n", run.stream_label(key.first, key.second), n, n == 1 ? "" : "s");
    for (const auto& [key, n] : dram_uninit)
      text += fmt::format("  {}: {} byte{} of {}\n", key.first, n, n == 1 ? "" : "s", key.second);
  }
  for (const std::string& v : run.reservation_violations())
    text += fmt::format("runtime SBUF reservation violated: {}\n", v);
  for (const std::string& p : ctx.written) text += fmt::format("wrote {}\n", p);
  for (const OutputComparison& c : ctx.comparisons) {
    text += fmt::format("expect {} ({}{}): {} of {} elements differ", c.name, c.reference,
                        c.rtol != 0 || c.atol != 0 ? fmt::format(", rtol {}, atol {}", c.rtol, c.atol) : "",
                        c.differing, c.elements);
    if (c.differing != 0)
      text += fmt::format(", max abs diff {}, first at {}", c.max_abs_diff, fmt::join(c.first, " "));
    text += "\n";
  }
  if (r.races) {
    text += fmt::format("races: {} unordered conflicting access{} (2-byte locations) in {} pair{} of words\n",
                        r.races->count(), r.races->count() == 1 ? "" : "es", r.races->word_pairs(),
                        r.races->word_pairs() == 1 ? "" : "s");
    if (const std::string gap = r.races->incomplete(); !gap.empty())
      text += fmt::format("races: incomplete: {}\n", gap);
    for (const neff::Race& race : r.races->races())
      text += fmt::format("  {}\n    and {}\n    at {}: no happens-before order between them\n",
                          race_access_text(run, race.earlier), race_access_text(run, race.later), race.location);
  }
  return text;
}

std::string neff_run_text(const neff::Neff& nf, const NeffRun& r, const NeffRunReport& rep,
                          const NeffRunReportContext& ctx) {
  const Machine& m = r.run->machine();
  return fmt::format("program: {} ({} core{}, target {}, generation {})\n", ctx.program, m.num_cores(),
                     m.num_cores() == 1 ? "" : "s", nf.target, to_string(r.run->gen())) +
         neff_status_text(r, rep, ctx, nf) + neff_cores_text(*r.run, rep) + neff_findings_text(r, rep, ctx);
}

}  // namespace tpbisa::io
