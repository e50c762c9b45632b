// The engine-aware machine: several engines on one core, the round-robin scheduler, blocked steps, deadlocks.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "../support/machine_builders.hpp"
#include "../support/test_util.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/trace.hpp"

namespace tpbisa {
namespace {

using test::word;
using Status = StepResult::Status;

using test::kC;

/// TensorLoad of one UINT32 from 0x1000 into R0, with the given EVENTS.
Mem2d load_r0(Events e) {
  Mem2d t = test::tl();
  t.num_elem = {1, 1};
  t.data = test::regs_data({0});
  t.events = e;
  return t;
}

/// TensorStore of R0 (one UINT32) to 0x1000, with the given EVENTS.
Mem2d store_r0(Events e) {
  Mem2d t = test::ts();
  t.num_elem = {1, 1};
  t.data = test::regs_data({0});
  t.events = e;
  return t;
}

constexpr Events kWaitS4 = {0x05, 4, 0x00, 0, 1};  // $S[4]>=1
constexpr Events kIncS4 = {0x00, 0, 0x03, 4, 0};   // $S[4]++

/// PE waits for $S[4]>=1, then loads what ACT stored; ACT stores its R0 and increments S[4].
CoreProgram handshake() {
  CoreProgram p;
  p.stream(EngineId::Pe) = {word(load_r0(kWaitS4))};
  p.stream(EngineId::Act) = {word(store_r0(kIncS4))};
  return p;
}

/// (engine, index, status) of every turn until the machine halts or deadlocks.
std::vector<std::tuple<EngineId, size_t, Status>> turns(Machine& m) {
  std::vector<std::tuple<EngineId, size_t, Status>> out;
  while (!m.finished() && !m.deadlocked()) {
    const StepResult r = m.step();
    out.emplace_back(r.engine, r.index, r.status);
  }
  return out;
}

TEST(MachineEngines, SemaphoreHandshakeCompletes) {
  Machine m(kC, handshake(), test::recording());
  m.core(0).engine_state(EngineId::Act).regs[0] = 0x600DF00D;
  const auto seen = turns(m);
  // PROJ-CONV-P2: PE's turn comes first and blocks; ACT retires and signals; PE's next turn retires.
  const std::vector<std::tuple<EngineId, size_t, Status>> want = {
      {EngineId::Pe, 0, Status::Blocked}, {EngineId::Act, 0, Status::Retired}, {EngineId::Pe, 0, Status::Retired}};
  EXPECT_EQ(seen, want);
  EXPECT_TRUE(m.finished());
  EXPECT_FALSE(m.deadlocked());
  EXPECT_EQ(m.step().status, Status::Halted);
  const Core& core = m.core(0);
  EXPECT_EQ(core.state().sems[4], 1U);
  EXPECT_EQ(core.engine_state(EngineId::Pe).regs[0], 0x600DF00DU);  // through the core's shared memory
  EXPECT_EQ(core.engine_state(EngineId::Act).regs[0], 0x600DF00DU);
  EXPECT_EQ(core.engine_state(EngineId::Dve).regs[0], 0U);  // each engine has its own registers
  EXPECT_EQ(m.state().regs[0], 0U);                         // state() is the view engine's (DVE)
  EXPECT_EQ(core.engine(EngineId::Pe).pc(), 1U);
  EXPECT_EQ(core.engine(EngineId::Act).pc(), 1U);
}

TEST(MachineEngines, RunCompletesTheHandshake) {
  Machine m(kC, handshake());
  m.core(0).engine_state(EngineId::Act).regs[0] = 7;
  const RunSummary s = m.run(100);
  EXPECT_FALSE(s.faulted);
  EXPECT_FALSE(s.deadlock);
  EXPECT_FALSE(s.step_limit);
  EXPECT_EQ(s.retired, 2U);
  EXPECT_EQ(m.core(0).engine_state(EngineId::Pe).regs[0], 7U);
}

// The order of streams does not decide the order of turns: engine order does (SP after PE).
TEST(MachineEngines, TurnsFollowEngineOrder) {
  CoreProgram p;
  p.stream(EngineId::Sp) = {word(store_r0({})), word(store_r0({}))};
  p.stream(EngineId::Pe) = {word(load_r0({}))};
  p.stream(EngineId::Pool) = {word(load_r0({}))};
  Machine m(kC, std::move(p));
  const auto seen = turns(m);
  const std::vector<std::tuple<EngineId, size_t, Status>> want = {{EngineId::Pe, 0, Status::Retired},
                                                                  {EngineId::Pool, 0, Status::Retired},
                                                                  {EngineId::Sp, 0, Status::Retired},
                                                                  {EngineId::Sp, 1, Status::Retired}};
  EXPECT_EQ(seen, want);
}

// PROJ-CONV-P2's other order: SP .. PE. ACT now runs first, so PE never blocks; the result is the same.
TEST(MachineEngines, ReverseScheduleSameResult) {
  MachineOptions o;
  o.schedule = Schedule::ReverseRoundRobin;
  Machine m(kC, handshake(), o);
  m.core(0).engine_state(EngineId::Act).regs[0] = 0x600DF00D;
  const auto seen = turns(m);
  const std::vector<std::tuple<EngineId, size_t, Status>> want = {{EngineId::Act, 0, Status::Retired},
                                                                  {EngineId::Pe, 0, Status::Retired}};
  EXPECT_EQ(seen, want);
  EXPECT_EQ(m.core(0).engine_state(EngineId::Pe).regs[0], 0x600DF00DU);
  EXPECT_EQ(m.core(0).state().sems[4], 1U);

  CoreProgram p;
  p.stream(EngineId::Sp) = {word(store_r0({})), word(store_r0({}))};
  p.stream(EngineId::Pe) = {word(load_r0({}))};
  p.stream(EngineId::Pool) = {word(load_r0({}))};
  Machine r(kC, std::move(p), o);
  const std::vector<std::tuple<EngineId, size_t, Status>> reversed = {{EngineId::Sp, 0, Status::Retired},
                                                                      {EngineId::Pool, 0, Status::Retired},
                                                                      {EngineId::Pe, 0, Status::Retired},
                                                                      {EngineId::Sp, 1, Status::Retired}};
  EXPECT_EQ(turns(r), reversed);
}

// Each engine waits for the other's signal: a cycle. The report names both waits, in engine order.
TEST(MachineEngines, DeadlockCycleReportsBothEngines) {
  CoreProgram p;
  p.stream(EngineId::Pe) = {word(load_r0({0x05, 1, 0x03, 2, 1}))};    // $S[1]>=1, then $S[2]++
  p.stream(EngineId::Pool) = {word(load_r0({0x01, 2, 0x03, 1, 3}))};  // $S[2]==3, then $S[1]++
  Machine m(kC, std::move(p), test::recording());
  m.core(0).state().sems[2] = 2;  // PE's increment would make it 3
  const RunSummary s = m.run(100);
  EXPECT_FALSE(s.faulted);
  EXPECT_EQ(s.retired, 0U);
  ASSERT_TRUE(s.deadlock);
  EXPECT_TRUE(m.deadlocked());
  ASSERT_EQ(s.blocked.size(), 2U);
  EXPECT_EQ(s.blocked[0].engine, EngineId::Pe);
  EXPECT_EQ(s.blocked[0].id, 1U);
  EXPECT_EQ(s.blocked[0].value, 0U);
  EXPECT_EQ(wait_condition(s.blocked[0]), "$S[1]>=1");
  EXPECT_EQ(s.blocked[1].engine, EngineId::Pool);
  EXPECT_EQ(s.blocked[1].id, 2U);
  EXPECT_EQ(s.blocked[1].value, 2U);
  EXPECT_EQ(wait_condition(s.blocked[1]), "$S[2]==3");
  EXPECT_EQ(s.blocked[1].index, 0U);
  EXPECT_EQ(s.blocked[1].name, "TensorLoad");
  EXPECT_EQ(blocked_wait_json(s.blocked[1]),
            R"({"core":0,"engine":"POOL","index":0,"offset":0,"opcode":"0xaa","name":"TensorLoad","semaphore":2,)"
            R"("value":2,"condition":"$S[2]==3","comparand":3,"register":null})");
  // Nothing changed: the turns that blocked had no effect.
  EXPECT_EQ(m.core(0).state().sems[1], 0U);
  EXPECT_EQ(m.core(0).state().sems[2], 2U);
}

// Deadlock is detected only once every unfinished engine has been seen blocked since the last retirement.
TEST(MachineEngines, BlockedIsNotDeadlockedWhileAnotherEngineCanRun) {
  CoreProgram p;
  p.stream(EngineId::Pe) = {word(load_r0(kWaitS4))};
  p.stream(EngineId::Act) = {word(store_r0({})), word(store_r0({})), word(store_r0(kIncS4))};
  Machine m(kC, std::move(p));
  EXPECT_EQ(m.step().status, Status::Blocked);
  EXPECT_FALSE(m.deadlocked());
  const RunSummary s = m.run(100);
  EXPECT_FALSE(s.deadlock);
  EXPECT_EQ(s.retired, 4U);
  EXPECT_TRUE(m.finished());
}

// The single-stream constructor is one engine on one core: the engine is MachineOptions::engine.
TEST(MachineEngines, SingleStreamRunsOnTheOptionsEngine) {
  MachineOptions o;
  o.engine = EngineId::Sp;
  Machine m(kC, std::vector<Word>{word(store_r0(kIncS4))}, o);
  m.mutable_state().regs[0] = 9;  // the view is SP's registers
  const StepResult r = m.step();
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(r.engine, EngineId::Sp);
  EXPECT_EQ(m.core(0).engine(EngineId::Sp).pc(), 1U);
  EXPECT_EQ(m.pc(), 1U);
  EXPECT_EQ(test::peek(m.state(), 0x1000, 4), 9U);
  EXPECT_EQ(Machine(kC, std::vector<Word>{word(store_r0({}))}).step().engine, EngineId::Dve);  // PROJ-CONV-P1
}

std::vector<std::string> trace_of(Machine m) {
  std::vector<std::string> lines;
  while (!m.finished() && !m.deadlocked()) {
    const StepResult r = m.step();
    if (r.status != Status::Blocked) lines.push_back(trace_line(r, m, TraceStyle{.engine = true}));
  }
  return lines;
}

TEST(MachineEngines, DeterministicTrace) {
  Machine m(kC, handshake(), test::recording());
  m.core(0).engine_state(EngineId::Act).regs[0] = 0x55;
  const std::vector<std::string> a = trace_of(m);
  const std::vector<std::string> b = trace_of(m);
  ASSERT_EQ(a.size(), 2U);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a[0].rfind(R"({"schema":1,"core":0,"engine":"ACT","index":0,"opcode":"0xab")", 0), 0U) << a[0];
  EXPECT_EQ(a[1].rfind(R"({"schema":1,"core":0,"engine":"PE","index":0,"opcode":"0xaa")", 0), 0U) << a[1];
  EXPECT_NE(a[1].find(R"("regs":[{"reg":0,"before":"0x00000000","after":"0x00000055"}])"), std::string::npos) << a[1];
}

TEST(MachineEngines, ParseEngineNames) {
  for (unsigned i = 0; i < kEnginesPerCore; ++i) {
    const auto e = static_cast<EngineId>(i);
    EXPECT_EQ(parse_engine(to_string(e)), e);
  }
  EXPECT_EQ(parse_engine("pool"), EngineId::Pool);
  EXPECT_EQ(parse_engine("Dve"), EngineId::Dve);
  EXPECT_FALSE(parse_engine("npu").has_value());
  EXPECT_FALSE(parse_engine("").has_value());
}

// The fast path records nothing but still counts; recording gives the lists with before-values.
TEST(MachineEngines, EffectsAreRecordedOnlyWhenAsked) {
  const std::vector<Word> program = {word(store_r0(kIncS4)), word(load_r0({}))};
  Machine fast(kC, program);
  Machine traced(kC, program, test::recording());
  for (Machine* m : {&fast, &traced}) m->mutable_state().regs[0] = 3;
  const StepResult f = fast.step();
  const StepResult t = traced.step();
  ASSERT_EQ(f.status, Status::Retired);
  ASSERT_EQ(t.status, Status::Retired);
  EXPECT_FALSE(f.recorded);
  EXPECT_TRUE(test::no_effects(f));
  EXPECT_TRUE(t.recorded);
  ASSERT_EQ(t.mem_writes.size(), 1U);
  EXPECT_EQ(test::key(t.mem_writes[0]), test::key(MemWrite{0x1000, 4, 0, 3}));
  ASSERT_EQ(t.sem_writes.size(), 1U);
  const EffectTotals want{0, 1, 0, 0, 1, 0};
  EXPECT_EQ(f.totals, want);
  EXPECT_EQ(t.totals, want);
  // Diagnostics are counted on the fast path too: a load of never-written memory.
  Machine uninit(kC, std::vector<Word>{word(load_r0({}))});
  const StepResult u = uninit.step();
  EXPECT_EQ(u.diagnostic_counts[static_cast<size_t>(DiagKind::UninitializedRead)], 1U);
  EXPECT_TRUE(u.diagnostics.empty());
  EXPECT_EQ(u.totals.reads, 1U);
  EXPECT_EQ(u.totals.diagnostics, 1U);
  // Both machines end in the same state.
  EXPECT_EQ(fast.step().status, Status::Retired);
  EXPECT_EQ(traced.step().status, Status::Retired);
  EXPECT_EQ(test::snapshot(fast.state(), {{0x1000, 4}}), test::snapshot(traced.state(), {{0x1000, 4}}));
}

}  // namespace
}  // namespace tpbisa
