// The machine's one run loop with its hooks: every retired or faulting step reported as step() reports it, the
// progress hook called at each multiple of kProgressWords (on the single stream's fast path too), and a run it stops
// reported as interrupted where it stopped.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa {
namespace {

constexpr Generation kGen = Generation::Cayman;

std::vector<Word> nops(size_t n) {
  const AsmResult r = assemble("Nop\n", "<test>", kGen);
  EXPECT_TRUE(r.ok());
  return std::vector<Word>(n, r.words.at(0));
}

/// A word no generation has: it faults (InvalidInstruction) when its turn comes.
Word unknown_word() {
  Word w{};
  w[0] = 0xFF;
  return w;
}

TEST(MachineRunHooks, ProgressComesAtEveryMultipleOnTheFastPath) {
  Machine m(kGen, nops(10000));
  std::vector<uint64_t> calls;
  RunHooks hooks;
  hooks.on_progress = [&calls](uint64_t retired) {
    calls.push_back(retired);
    return true;
  };
  const RunSummary s = m.run(1000000, hooks);
  EXPECT_EQ(s.retired, 10000U);
  EXPECT_FALSE(s.interrupted || s.faulted || s.step_limit || s.deadlock);
  EXPECT_EQ(calls, (std::vector<uint64_t>{4096, 8192}));
}

TEST(MachineRunHooks, AProgressHookThatSaysStopInterruptsTheRunThere) {
  for (const bool observed : {false, true}) {
    Machine m(kGen, nops(10000));
    RunHooks hooks;
    size_t steps = 0;
    if (observed) hooks.on_step = [&steps](const StepResult&) { ++steps; };
    hooks.on_progress = [](uint64_t) { return false; };
    const RunSummary s = m.run(1000000, hooks);
    EXPECT_TRUE(s.interrupted) << observed;
    EXPECT_FALSE(s.faulted || s.step_limit || s.deadlock);
    EXPECT_EQ(s.retired, kProgressWords);
    EXPECT_EQ(m.pc(), kProgressWords);
    EXPECT_EQ(steps, observed ? kProgressWords : 0U);
    // The machine goes on from there.
    EXPECT_EQ(m.run(1000000).retired, 10000 - kProgressWords);
  }
}

TEST(MachineRunHooks, EveryRetiredAndFaultingStepIsReportedAsStepReportsIt) {
  std::vector<Word> program = nops(5);
  program.push_back(unknown_word());
  Machine stepped(kGen, program);
  std::vector<std::pair<StepResult::Status, size_t>> want;
  for (;;) {
    const StepResult r = stepped.step();
    want.emplace_back(r.status, r.index);
    if (r.status != StepResult::Status::Retired) break;
  }
  Machine m(kGen, program);
  std::vector<std::pair<StepResult::Status, size_t>> seen;
  RunHooks hooks;
  hooks.on_step = [&seen](const StepResult& r) { seen.emplace_back(r.status, r.index); };
  const RunSummary s = m.run(100, hooks);
  EXPECT_EQ(seen, want);
  ASSERT_EQ(seen.size(), 6U);
  EXPECT_EQ(seen.back().first, StepResult::Status::Faulted);
  EXPECT_TRUE(s.faulted);
  EXPECT_EQ(s.retired, 5U);
  EXPECT_EQ(s.fault.kind, FaultKind::InvalidInstruction);
}

TEST(MachineRunHooks, RunCoreTakesTheSameHooks) {
  std::vector<CoreProgram> cores(2);
  cores[0].stream(EngineId::Pe) = nops(5000);
  cores[1].stream(EngineId::Act) = nops(3);
  Machine m(kGen, std::move(cores), MachineOptions{});
  size_t steps = 0;
  RunHooks hooks;
  hooks.on_step = [&steps](const StepResult&) { ++steps; };
  hooks.on_progress = [](uint64_t retired) { return retired < kProgressWords; };
  const RunSummary s0 = m.run_core(0, 100000, hooks);
  EXPECT_TRUE(s0.interrupted);
  EXPECT_EQ(s0.retired, kProgressWords);
  EXPECT_EQ(steps, kProgressWords);
  const RunSummary s1 = m.run_core(1, 100000, hooks);
  EXPECT_FALSE(s1.interrupted);
  EXPECT_EQ(s1.retired, 3U);
}

}  // namespace
}  // namespace tpbisa
