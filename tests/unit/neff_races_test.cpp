// The race check of a NEFF run (PROJ-CONV-P4): the same pairs and count under every schedule, for the issue's
// reproducers (matmul_small.neff with a wait removed; unordered writes on Pool and DVE and a read on ACT), a
// semaphore raised by two engines, and none for the unmodified programs.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "tpbisa/neff.hpp"
#include "tpbisa/neff_run.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa {
namespace race_check {

const std::string kMatmulSmall = std::string(TPBISA_SHARED_DATA_DIR) + "/matmul_small.neff";

/// A schedule of the command line's --schedule: default, reverse, random:SEED.
struct Order {
  Schedule schedule;
  uint64_t seed;
  std::string name;
};

std::vector<Order> every_order() {
  std::vector<Order> o{{Schedule::RoundRobin, 0, "default"}, {Schedule::ReverseRoundRobin, 0, "reverse"}};
  for (uint64_t s = 1; s <= 5; ++s) o.push_back({Schedule::Random, s, fmt::format("random:{}", s)});
  return o;
}

/// "sg00/Activation#4 R": one side of a race, as the test compares them.
std::string side(const neff::Run& r, const neff::RaceAccess& a) {
  return fmt::format("{}#{} {}", r.stream_label(a.core, a.engine), a.index, a.write ? "W" : "R");
}

struct Verdict {
  bool finished = false;
  uint64_t count = 0;
  std::set<std::pair<std::string, std::string>> pairs;  ///< (earlier, later) of every reported race
  std::vector<std::string> locations;
  std::string incomplete;
};

/// Runs `n` under `order` with the race check on (every step observed, effects uncapped).
Verdict check(const neff::Neff& n, std::span<const neff::RunInput> inputs, const Order& order) {
  MachineOptions mo;
  mo.record_effects = true;
  mo.max_recorded_effects = SIZE_MAX;
  mo.schedule = order.schedule;
  mo.seed = order.seed;
  std::string error;
  auto run = neff::Run::create(n, inputs, mo, error);
  Verdict v;
  EXPECT_NE(run, nullptr) << error;
  if (!run) return v;
  neff::RaceChecker races(*run);
  Machine& m = run->machine();
  while (!m.finished() && !m.deadlocked()) {
    const StepResult step = m.step();
    EXPECT_NE(step.status, StepResult::Status::Faulted) << order.name << ": " << step.fault.detail;
    if (step.status == StepResult::Status::Faulted) return v;
    races.observe(step);
  }
  v.finished = m.finished();
  v.count = races.count();
  for (const neff::Race& r : races.races()) {
    v.pairs.insert({side(*run, r.earlier), side(*run, r.later)});
    v.locations.push_back(r.location);
  }
  v.incomplete = races.incomplete();
  return v;
}

/// Every order gives `count` and exactly `pairs` (in stream order), and the same locations.
void expect_under_every_order(const neff::Neff& n, std::span<const neff::RunInput> inputs, uint64_t count,
                              const std::set<std::pair<std::string, std::string>>& pairs) {
  std::vector<std::string> first_locations;
  for (const Order& o : every_order()) {
    const Verdict v = check(n, inputs, o);
    EXPECT_TRUE(v.finished) << o.name;
    EXPECT_EQ(v.count, count) << o.name;
    EXPECT_EQ(v.pairs, pairs) << o.name;
    EXPECT_EQ(v.incomplete, "") << o.name;
    if (first_locations.empty()) first_locations = v.locations;
    EXPECT_EQ(v.locations, first_locations) << o.name;
  }
}

// ---- matmul_small.neff ----

class RaceMatmulSmall : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kMatmulSmall)) GTEST_SKIP() << "the shared data folder is absent";
    auto read = neff::read_file(kMatmulSmall);
    ASSERT_TRUE(read.ok()) << read.error().to_string();
    neff_ = std::move(*read);
  }
  neff::StreamBytes& stream(size_t sg, neff::Engine engine) {
    for (neff::EngineDef& e : neff_.subgraphs[sg].engines)
      if (e.engine == engine) return e.stream.bytes;
    ADD_FAILURE() << "no such engine";
    return neff_.subgraphs[sg].engines.front().stream.bytes;
  }
  // Inputs of the signature's sizes (x fp16 [128, 256], y fp16 [256, 128]): the values do not matter here.
  std::vector<uint8_t> x_ = std::vector<uint8_t>(128 * 256 * 2, 0x3C), y_ = std::vector<uint8_t>(256 * 128 * 2, 0x3C);
  std::vector<neff::RunInput> inputs() const { return {{"x", x_}, {"y", y_}}; }
  neff::Neff neff_;
};

TEST_F(RaceMatmulSmall, TheCompiledProgramHasNoRaceUnderAnyOrder) {
  expect_under_every_order(neff_, inputs(), 0, {});
}

TEST_F(RaceMatmulSmall, SecondCopyWithoutItsWaitRacesUnderEveryOrder) {
  // Activation#4 (Copy $S[5]>=4 of PSUM bank 0) no longer waits for the Matmuls that write bank 0 (PE#9, PE#11).
  // PE#8 waits $S[4]>=1: the first Copy's increment makes that hold, so PE is not ordered after the second Copy,
  // and the second Copy's read of bank 0 is unordered with both Matmuls' writes: 128 partitions x 64 FP32 = 16384
  // two-byte locations for each. PE#11 also reads bank 0 (it accumulates): read and read do not conflict.
  neff::StreamBytes& act = stream(0, neff::Engine::Act);
  ASSERT_EQ(act[4 * 64], 0x46);
  ASSERT_EQ(act[4 * 64 + 4], 0x05);
  act[4 * 64 + 4] = 0x00;
  expect_under_every_order(neff_, inputs(), 2 * 16384,
                           {{"sg00/PE#9 W", "sg00/Activation#4 R"}, {"sg00/PE#11 W", "sg00/Activation#4 R"}});
  const Verdict v = check(neff_, inputs(), every_order().front());
  ASSERT_EQ(v.locations.size(), 2U);
  EXPECT_EQ(v.locations[0], "psum[p0].bank0+0x0 (core 0)");
}

// ---- small programs built with the NEFF writer ----

std::vector<uint8_t> bytes_of(std::string_view s) {
  return {s.begin(), s.end()};
}

std::vector<uint8_t> words_of(const std::string& source) {
  const AsmResult a = assemble(source, "race.tasm", Generation::Cayman);
  EXPECT_TRUE(a.ok()) << (a.errors.empty() ? "" : format_diagnostic(a.errors.front()));
  std::vector<uint8_t> out;
  for (const Word& w : a.words) out.insert(out.end(), w.begin(), w.end());
  return out;
}

/// One CAYMAN subgraph with ACT, POOL and DVE streams given as assembly, packed and read back.
neff::Neff program(const std::string& act, const std::string& pool, const std::string& dve) {
  std::vector<neff::PackMember> m;
  m.push_back({"kelf-0.json", bytes_of(R"({"graphs": [{"definition": "sg00/def.json", "name": "sg00"}], )"
                                       R"("target": "cayman"})")});
  m.push_back({"sg00/def.json", bytes_of(R"({"version": "0.6", "act": "Activation.json", )"
                                         R"("act_instr": "Activation.bin", "pool": "Pool.json", )"
                                         R"("pool_instr": "Pool.bin", "dve": "DVE.json", "dve_instr": "DVE.bin", )"
                                         R"("var": {"SB": {"type": "state-buffer", "var_id": 0}}})")});
  for (const auto& [name, source] : {std::pair{"Activation", act}, {"Pool", pool}, {"DVE", dve}}) {
    m.push_back({fmt::format("sg00/{}.json", name), bytes_of("{}")});
    m.push_back({fmt::format("sg00/{}.bin", name), words_of(source)});
  }
  auto packed = neff::pack(m, neff::PackOptions{});
  EXPECT_TRUE(packed.ok()) << packed.error().to_string();
  auto n = neff::read(*packed, "race.neff");
  EXPECT_TRUE(n.ok()) << n.error().to_string();
  return std::move(*n);
}

/// 128 FP32 elements of SBUF partition 0 at 0x1000: 512 bytes, 256 two-byte locations.
std::string memset_words(std::string_view events, uint32_t value) {
  return fmt::format(
      "Memset {} dst_element_count=128 dtype=fp32 num_active_channels=1 serialization_mode=0 "
      "set_value={:#x} dst.start_addr=sbuf[p0]+0x1000 dst.step_elem={{1,1,1,1}} "
      "dst.num_elem={{128,1,1,1}}\n",
      events, value);
}

/// Reads what memset_words writes, copies it to 0x2000.
std::string copy_words(std::string_view events) {
  return fmt::format(
      "Copy {} src.start_addr=sbuf[p0]+0x1000 src.step_elem={{1,1,1,1}} src.num_elem={{128,1,1,1}} "
      "in_dtype=fp32 out_dtype=fp32 num_active_channels=1 op=BYPASS op_dim=UNUSED "
      "dst.start_addr=sbuf[p0]+0x2000 dst.step_elem={{1,1,1,1}} dst.num_elem={{128,1,1,1}}\n",
      events);
}

TEST(RaceThreeEngines, UnorderedWritesOnPoolAndDveAndAReadOnActGiveThreePairsUnderEveryOrder) {
  // Nothing orders the three words: each pair conflicts on the 256 locations.
  const neff::Neff n = program(copy_words(""), memset_words("", 0), memset_words("", 0x3f800000));
  expect_under_every_order(n, {}, 3 * 256,
                           {{"sg00/Activation#0 R", "sg00/Pool#0 W"},
                            {"sg00/Activation#0 R", "sg00/DVE#0 W"},
                            {"sg00/Pool#0 W", "sg00/DVE#0 W"}});
}

TEST(RaceThreeEngines, OrderedWritesRaceOnlyWithTheRead) {
  // DVE waits for Pool's increment: the two writes are ordered; the read on ACT is unordered with both.
  const neff::Neff n =
      program(copy_words(""), memset_words("$S[1]++@complete", 0), memset_words("$S[1]>=1", 0x3f800000));
  expect_under_every_order(n, {}, 2 * 256,
                           {{"sg00/Activation#0 R", "sg00/Pool#0 W"}, {"sg00/Activation#0 R", "sg00/DVE#0 W"}});
}

TEST(RaceThreeEngines, AChainOfWaitsOrdersEverything) {
  // Pool → DVE through $S[1], DVE → ACT through $S[2]: ACT is ordered after Pool's write through DVE's clock.
  const neff::Neff n = program(copy_words("$S[2]>=1"), memset_words("$S[1]++@complete", 0),
                               memset_words("$S[1]>=1 $S[2]++@complete", 0x3f800000));
  expect_under_every_order(n, {}, 0, {});
}

TEST(RaceThreeEngines, AWaitOnTwoEnginesIncrementsIsOrderedAfterBoth) {
  // Pool and DVE each raise $S[3] once; ACT waits $S[3]>=2, which only both increments together make hold, so
  // ACT is ordered after both writes whichever increment came second (PROJ-CONV-P4). The writes stay unordered.
  const neff::Neff n = program(copy_words("$S[3]>=2"), memset_words("$S[3]++@complete", 0),
                               memset_words("$S[3]++@complete", 0x3f800000));
  expect_under_every_order(n, {}, 256, {{"sg00/Pool#0 W", "sg00/DVE#0 W"}});
}

TEST(RaceThreeEngines, AWaitIsOrderedAfterTheUpdateThatMadeItHoldNotAfterLaterOnes) {
  // Pool raises $S[4] twice (first, then after its write); DVE waits $S[4]>=1: ordered after the first increment
  // only, so Pool's write after it races with DVE's write, under every order (the issue's matmul case in small).
  const neff::Neff n =
      program("", "Nop $S[4]++@complete\n" + memset_words("$S[4]++@complete", 0), memset_words("$S[4]>=1", 0x3f800000));
  expect_under_every_order(n, {}, 256, {{"sg00/Pool#1 W", "sg00/DVE#0 W"}});
}

TEST(RaceThreeEngines, ASetStartsANewCount) {
  // Pool writes, then raises $S[5]; DVE sets $S[5] to 5, unordered with Pool. ACT's wait $S[5]>=5 holds only from
  // the set on, whether Pool's increment came before the set (1 -> 5) or after it (5 -> 6): ACT is ordered after
  // the set alone, and its read races with Pool's write under every order. (Counted as a raise, the set would have
  // carried Pool's earlier increment along: no race when Pool came first.)
  const neff::Neff n = program(copy_words("$S[5]>=5"), memset_words("$S[5]++@complete", 0), "Nop $S[5]=5@complete\n");
  expect_under_every_order(n, {}, 256, {{"sg00/Activation#0 R", "sg00/Pool#0 W"}});
}

TEST(RaceThreeEngines, AMillionStepsKeepWhatTheyNeedOnly) {
  // A producer on ACT and a consumer on Pool hand one buffer back and forth kIterations times through $S[1]
  // (filled) and $S[2] (drained), with register waits on the iteration count: 6 words per iteration. The program
  // is race-free; what the check keeps must not grow with the run: the shadow holds the buffers' locations only
  // (8 FP32 locations x 3 buffers, a read and a write each at most) and the histories a few updates.
#if defined(TPBISA_ASAN)
  constexpr uint32_t kIterations = 30'000;  // 180,000 steps: each costs several times more under the sanitizers
#else
  constexpr uint32_t kIterations = 170'000;  // 1,020,000 steps
#endif
  const std::string move =
      "Move num_mov=2 dtype=u32 move_source=IMMEDIATE src_registers={{0,0,0,0,0,0,0,0}} "
      "dst_registers={{0,1,0,0,0,0,0,0}} immediate={{{},{},0,0,0,0,0,0}}\n";
  const std::string loop =
      "AluOp op=ADD dtype=i32 src1_datasrc=IMMEDIATE src0_lo=0 dst_lo=0 immediate=1\n"
      // back to word 1 (a NEFF stream's branch target is a word index)
      "CompareBranch cmp_op=9 dtype=i32 target_mode=3 cmp_reg0=0 cmp_reg1=1 br_immediate=0x1\n";
  const auto copy = [](std::string_view events, uint32_t from, uint32_t to) {
    return fmt::format(
        "Copy {} src.start_addr=sbuf[p0]+{:#x} src.step_elem={{1,1,1,1}} src.num_elem={{4,1,1,1}} "
        "in_dtype=fp32 out_dtype=fp32 num_active_channels=1 op=BYPASS op_dim=UNUSED "
        "dst.start_addr=sbuf[p0]+{:#x} dst.step_elem={{1,1,1,1}} dst.num_elem={{4,1,1,1}}\n",
        events, from, to);
  };
  // ACT: i = 0..n-1: wait until Pool drained i times, fill the buffer. Pool: j = 1..n: wait until ACT filled j
  // times, drain it.
  const std::string act =
      fmt::format(fmt::runtime(move), 0, kIterations) + copy("$S[2]>=r0 $S[1]++@complete", 0x1000, 0x2000) + loop;
  const std::string pool =
      fmt::format(fmt::runtime(move), 1, kIterations + 1) + copy("$S[1]>=r0 $S[2]++@complete", 0x2000, 0x3000) + loop;
  const neff::Neff n = program(act, pool, "");
  MachineOptions mo;
  mo.record_effects = true;
  mo.max_recorded_effects = SIZE_MAX;
  std::string error;
  auto run = neff::Run::create(n, {}, mo, error);
  ASSERT_NE(run, nullptr) << error;
  neff::RaceChecker races(*run);
  Machine& m = run->machine();
  uint64_t retired = 0;
  neff::RaceChecker::Kept most;
  while (!m.finished() && !m.deadlocked()) {
    const StepResult step = m.step();
    ASSERT_NE(step.status, StepResult::Status::Faulted) << step.fault.detail;
    races.observe(step);
    retired += step.status == StepResult::Status::Retired ? 1 : 0;
    if (retired % 1024 == 0) {
      const neff::RaceChecker::Kept k = races.kept();
      most = {std::max(most.accesses, k.accesses), std::max(most.updates, k.updates), std::max(most.pairs, k.pairs)};
    }
  }
  EXPECT_TRUE(m.finished());
  EXPECT_EQ(retired, 2 + 6 * uint64_t{kIterations});  // a Move on each engine, then 3 words per iteration each
  EXPECT_EQ(races.count(), 0U) << (races.races().empty() ? "" : races.races().front().location);
  EXPECT_EQ(races.incomplete(), "");
  EXPECT_LE(most.accesses, 3U * 8U * 2U);
  EXPECT_LE(most.updates, 4U);
  EXPECT_EQ(most.pairs, 0U);
}

}  // namespace race_check
}  // namespace tpbisa
