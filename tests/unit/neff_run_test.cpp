// The whole compiled matmul_small.neff on the machine (real-programs.md §13): exact output under every schedule,
// the final semaphores of §13.1, and the negative controls of §13.2 each breaking the result.
#include <gtest/gtest.h>

#include <bit>
#include <filesystem>
#include <random>
#include <thread>

#include "tpbisa/catalog.hpp"
#include "tpbisa/neff_run.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa {
namespace {

const std::string kNeffPath = std::string(TPBISA_SHARED_DATA_DIR) + "/matmul_small.neff";

uint16_t fp16_of(float v) {
  return static_cast<uint16_t>(from_fp32_bits(std::bit_cast<uint32_t>(v), dtype::kFp16));
}

float float_of_fp16(uint16_t b) {
  return std::bit_cast<float>(to_fp32_bits(b, dtype::kFp16));
}

struct RunCase {
  neff::Neff neff;
  std::vector<float> x, y;  ///< x [128, 256], y [256, 128] as values
  std::vector<uint8_t> xb, yb;
};

/// Random integers in [-2, 2] as FP16 bytes, row-major.
std::vector<uint8_t> fp16_bytes(const std::vector<float>& v) {
  std::vector<uint8_t> b(v.size() * 2);
  for (size_t i = 0; i < v.size(); ++i) {
    const uint16_t h = fp16_of(v[i]);
    b[2 * i] = static_cast<uint8_t>(h & 0xFF);
    b[2 * i + 1] = static_cast<uint8_t>(h >> 8);
  }
  return b;
}

class MatmulSmall : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kNeffPath)) GTEST_SKIP() << "the shared data folder is absent";
    auto read = neff::read_file(kNeffPath);
    ASSERT_TRUE(read.ok()) << read.error().to_string();
    c_.neff = std::move(*read);
    std::mt19937 rng(1234);
    std::uniform_int_distribution<int> d(-2, 2);
    c_.x.resize(128 * 256);
    c_.y.resize(256 * 128);
    for (float& v : c_.x) v = static_cast<float>(d(rng));
    for (float& v : c_.y) v = static_cast<float>(d(rng));
    c_.xb = fp16_bytes(c_.x);
    c_.yb = fp16_bytes(c_.y);
  }

  /// (x.astype(f32) @ y.astype(f32)).astype(f16), as FP16 bits.
  std::vector<uint16_t> reference() const {
    std::vector<uint16_t> out(128 * 128);
    for (size_t m = 0; m < 128; ++m)
      for (size_t n = 0; n < 128; ++n) {
        float acc = 0;
        for (size_t k = 0; k < 256; ++k) acc += c_.x[m * 256 + k] * c_.y[k * 128 + n];
        out[m * 128 + n] = fp16_of(acc);
      }
    return out;
  }

  std::unique_ptr<neff::Run> run(MachineOptions mo, RunSummary& summary) {
    const std::vector<neff::RunInput> inputs{{"x", c_.xb}, {"y", c_.yb}};
    std::string error;
    auto r = neff::Run::create(c_.neff, inputs, mo, error);
    EXPECT_NE(r, nullptr) << error;
    if (!r) return r;
    // Machine::run, with every retired step shown to the run's DRAM tracking (Run::note_step).
    Machine& m = r->machine();
    summary = RunSummary{};
    while (!m.finished()) {
      if (m.deadlocked()) {
        summary.deadlock = true;
        summary.blocked = m.blocked_waits();
        break;
      }
      const StepResult step = m.step();
      if (step.status == StepResult::Status::Faulted) {
        summary.faulted = true;
        summary.fault = step.fault;
        break;
      }
      r->note_step(step);
      summary.retired += step.status == StepResult::Status::Retired ? 1 : 0;
    }
    return r;
  }

  /// Elements of output0 that differ from the reference.
  size_t mismatches(const neff::Run& r) const {
    const std::span<const uint8_t> out = r.output("output0");
    EXPECT_EQ(out.size(), 128U * 128U * 2U);
    const std::vector<uint16_t> want = reference();
    size_t n = 0;
    for (size_t i = 0; i < want.size() && 2 * i + 1 < out.size(); ++i) {
      const auto got = static_cast<uint16_t>(out[2 * i] | out[2 * i + 1] << 8);
      n += got != want[i] ? 1 : 0;
    }
    return n;
  }

  RunCase c_;
};

TEST_F(MatmulSmall, OutputEqualsNumpyProductUnderEverySchedule) {
  for (const auto& [schedule, seed] : std::vector<std::pair<Schedule, uint64_t>>{
           {Schedule::RoundRobin, 0}, {Schedule::ReverseRoundRobin, 0}, {Schedule::Random, 1}, {Schedule::Random, 7}}) {
    MachineOptions mo;
    mo.schedule = schedule;
    mo.seed = seed;
    RunSummary s;
    const auto r = run(mo, s);
    ASSERT_NE(r, nullptr);
    EXPECT_FALSE(s.faulted) << s.fault.detail;
    EXPECT_FALSE(s.deadlock);
    EXPECT_TRUE(r->machine().finished());
    EXPECT_EQ(s.retired, 58U);
    EXPECT_EQ(mismatches(*r), 0U) << "schedule " << static_cast<int>(schedule) << " seed " << seed;
    // 128 x 128 x 256 multiply-adds over both cores (real matmul) plus the four 128^3 transposes.
    EXPECT_EQ(r->machine().core(0).state().macs + r->machine().core(1).state().macs,
              2 * (2 * 128ULL * 128 * 128 + 2 * 128ULL * 64 * 128));
  }
}

TEST_F(MatmulSmall, FinalSemaphoresAsSection13_1) {
  RunSummary s;
  const auto r = run({}, s);
  ASSERT_NE(r, nullptr);
  for (size_t core = 0; core < 2; ++core) {
    const auto& sems = r->machine().core(core).state().sems;
    for (unsigned i = 0; i < kNumSemaphores; ++i) {
      const uint32_t want = i == 4 ? 2 : i == 5 ? 4 : (i == 8 || (i >= 24 && i <= 27)) ? 16 : 0;
      EXPECT_EQ(sems[i], want) << "core " << core << " S[" << i << "]";
    }
  }
}

TEST_F(MatmulSmall, Fp8SettingsAndReservationFromDefJson) {
  RunSummary s;
  const auto r = run({}, s);
  ASSERT_NE(r, nullptr);
  // def.json: fp8_range_extension true (PROJ-CONV-N11's default is false), ocp_sat true, fp8_sis/sns false.
  EXPECT_TRUE(r->conversion().fp8_range_extension);
  EXPECT_TRUE(r->conversion().ocp_sat);
  EXPECT_FALSE(r->conversion().sis);
  EXPECT_TRUE(r->reservation_violations().empty());
}

TEST_F(MatmulSmall, AKeptBasisServesEveryRunOfItsNeffOnly) {
  const std::vector<neff::RunInput> inputs{{"x", c_.xb}, {"y", c_.yb}};
  const std::shared_ptr<const neff::RunBasis> basis = neff::RunBasis::make(c_.neff);
  ASSERT_EQ(basis->act_catalogs.size(), 2U);
  EXPECT_EQ(basis->neff, &c_.neff);  // its reservations are the NEFF's own, as the reader checked them
  ASSERT_EQ(c_.neff.subgraphs.size(), 2U);
  EXPECT_EQ(basis->fp8.range_extension, std::optional<bool>(true));
  EXPECT_EQ(basis->fp8.ocp_sat, std::optional<bool>(true));
  EXPECT_EQ(basis->fp8.sis, std::optional<bool>(false));
  for (int i = 0; i < 2; ++i) {
    std::string error;
    auto r = neff::Run::create(c_.neff, inputs, {}, error, basis);
    ASSERT_NE(r, nullptr) << error;
    EXPECT_EQ(r->machine().core(0).state().act_catalog, basis->act_catalogs[0].get());
    EXPECT_EQ(r->machine().core(1).state().act_catalog, basis->act_catalogs[1].get());
    EXPECT_TRUE(r->conversion().fp8_range_extension);
    Machine& m = r->machine();
    while (!m.finished() && !m.deadlocked()) ASSERT_NE(m.step().status, StepResult::Status::Faulted);
    EXPECT_EQ(mismatches(*r), 0U);
  }
  // A basis made from another Neff object (here a copy) is not taken: the run parses its own.
  const neff::Neff copy = c_.neff;
  std::string error;
  auto r = neff::Run::create(copy, inputs, {}, error, basis);
  ASSERT_NE(r, nullptr) << error;
  EXPECT_NE(r->machine().core(0).state().act_catalog, basis->act_catalogs[0].get());
  EXPECT_NE(r->machine().core(0).state().act_catalog, nullptr);
}

TEST_F(MatmulSmall, InputSizeIsChecked) {
  std::vector<uint8_t> short_x(100);
  const std::vector<neff::RunInput> inputs{{"x", short_x}, {"y", c_.yb}};
  std::string error;
  EXPECT_EQ(neff::Run::create(c_.neff, inputs, {}, error), nullptr);
  EXPECT_NE(error.find("needs 65536"), std::string::npos) << error;
  const std::vector<neff::RunInput> missing{{"x", c_.xb}};
  EXPECT_EQ(neff::Run::create(c_.neff, missing, {}, error), nullptr);
  EXPECT_NE(error.find("input y"), std::string::npos) << error;
}

// §13.2 negative controls: each wrong reading breaks the product (a mismatch count near the table's).
TEST_F(MatmulSmall, NegativeControlLdWeightsReadOrderFill) {
  MachineOptions mo;
  mo.controls.lw_read_order_fill = true;
  RunSummary s;
  const auto r = run(mo, s);
  ASSERT_NE(r, nullptr);
  EXPECT_GT(mismatches(*r), 15000U);
}

TEST_F(MatmulSmall, NegativeControlTransposeWritesFp32) {
  MachineOptions mo;
  mo.controls.transpose_writes_fp32 = true;
  RunSummary s;
  const auto r = run(mo, s);
  ASSERT_NE(r, nullptr);
  EXPECT_GT(mismatches(*r), 15000U);
}

TEST_F(MatmulSmall, NegativeControlMatmulNeverAccumulates) {
  MachineOptions mo;
  mo.controls.matmul_never_accumulates = true;
  RunSummary s;
  const auto r = run(mo, s);
  ASSERT_NE(r, nullptr);
  EXPECT_GT(mismatches(*r), 15000U);
}

/// The engine def of `engine` in subgraph `sg` (its stream's bytes can be edited before a run).
neff::Stream& engine_stream_of(neff::Neff& n, size_t sg, neff::Engine engine) {
  for (neff::EngineDef& e : n.subgraphs[sg].engines)
    if (e.engine == engine) return e.stream;
  ADD_FAILURE() << "no such engine";
  return n.subgraphs[sg].engines.front().stream;
}

RunSummary run_checked(neff::Run& r, neff::RaceChecker& races) {
  RunSummary s;
  while (!r.machine().finished() && !r.machine().deadlocked()) {
    const StepResult step = r.machine().step();
    if (step.status == StepResult::Status::Faulted) {
      s.faulted = true;
      s.fault = step.fault;
      break;
    }
    races.observe(step);
    s.retired += step.status == StepResult::Status::Retired ? 1 : 0;
  }
  s.deadlock = r.machine().deadlocked();
  return s;
}

MachineOptions recording() {
  MachineOptions mo;
  mo.record_effects = true;
  mo.max_recorded_effects = SIZE_MAX;
  return mo;
}

TEST_F(MatmulSmall, NoRacesUnderEverySchedule) {
  for (const Schedule schedule : {Schedule::RoundRobin, Schedule::ReverseRoundRobin, Schedule::Random}) {
    MachineOptions mo = recording();
    mo.schedule = schedule;
    mo.seed = 5;
    const std::vector<neff::RunInput> inputs{{"x", c_.xb}, {"y", c_.yb}};
    std::string error;
    auto r = neff::Run::create(c_.neff, inputs, mo, error);
    ASSERT_NE(r, nullptr) << error;
    neff::RaceChecker races(*r);
    const RunSummary s = run_checked(*r, races);
    EXPECT_FALSE(s.faulted) << s.fault.detail;
    EXPECT_EQ(s.retired, 58U);
    EXPECT_EQ(races.count(), 0U) << (races.races().empty() ? "" : races.races().front().location);
    EXPECT_EQ(mismatches(*r), 0U);
  }
}

TEST_F(MatmulSmall, RemovedWaitIsARace) {
  // Activation#03 waits S[5] >= 2 (both transposes done) before copying PSUM bank 1: without the wait its read
  // is unordered with PE's writes.
  neff::Stream& act = engine_stream_of(c_.neff, 0, neff::Engine::Act);
  ASSERT_EQ(act.bytes[3 * 64], 0x46);
  ASSERT_EQ(act.bytes[3 * 64 + 4], 0x05);
  act.bytes[3 * 64 + 4] = 0x00;  // wait_mode NONE
  const std::vector<neff::RunInput> inputs{{"x", c_.xb}, {"y", c_.yb}};
  std::string error;
  auto r = neff::Run::create(c_.neff, inputs, recording(), error);
  ASSERT_NE(r, nullptr) << error;
  neff::RaceChecker races(*r);
  run_checked(*r, races);
  ASSERT_GT(races.count(), 0U);
  const neff::Race& first = races.races().front();
  EXPECT_NE(first.location.find("psum"), std::string::npos) << first.location;
  const bool pe_act = (first.earlier.engine == EngineId::Pe && first.later.engine == EngineId::Act) ||
                      (first.earlier.engine == EngineId::Act && first.later.engine == EngineId::Pe);
  EXPECT_TRUE(pe_act);
}

TEST_F(MatmulSmall, MissingIncrementDeadlocks) {
  // Pool#03's DMA raises S[25] by 16; raising it by 15 leaves PE#07 (wait S[25] >= 16) blocked forever.
  neff::Stream& pool = engine_stream_of(c_.neff, 0, neff::Engine::Pool);
  ASSERT_EQ(pool.bytes[3 * 64], 0xd4);
  ASSERT_EQ(pool.bytes[3 * 64 + 14], 16);
  pool.bytes[3 * 64 + 14] = 15;
  RunSummary s;
  const auto r = run({}, s);
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(s.deadlock);
  ASSERT_FALSE(s.blocked.empty());
  bool pe_on_25 = false;
  for (const BlockedWait& w : s.blocked)
    pe_on_25 = pe_on_25 || (w.core == 0 && w.engine == EngineId::Pe && w.id == 25 && w.value == 15);
  EXPECT_TRUE(pe_on_25);
  EXPECT_EQ(r->machine().core(1).state().sems[25], 16U);  // core 1 is unaffected
}

TEST_F(MatmulSmall, CoresOnThreadsGiveTheSameOutputs) {
  RunSummary one;
  const auto serial = run({}, one);
  ASSERT_NE(serial, nullptr);
  const std::vector<neff::RunInput> inputs{{"x", c_.xb}, {"y", c_.yb}};
  std::string error;
  auto threaded = neff::Run::create(c_.neff, inputs, {}, error);
  ASSERT_NE(threaded, nullptr) << error;
  std::vector<RunSummary> parts(2);
  std::vector<std::thread> threads;
  for (size_t c = 0; c < 2; ++c) threads.emplace_back([&, c] { parts[c] = threaded->machine().run_core(c, 1000, {}); });
  for (std::thread& t : threads) t.join();
  for (const RunSummary& p : parts) {
    EXPECT_FALSE(p.faulted) << p.fault.detail;
    EXPECT_FALSE(p.deadlock);
    EXPECT_EQ(p.retired, 29U);
  }
  const std::span<const uint8_t> a = serial->output("output0"), b = threaded->output("output0");
  ASSERT_EQ(a.size(), b.size());
  EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin()));
  EXPECT_EQ(mismatches(*threaded), 0U);
}

TEST_F(MatmulSmall, RunCoreReportsItsOwnDeadlock) {
  neff::Stream& pool = engine_stream_of(c_.neff, 1, neff::Engine::Pool);
  pool.bytes[3 * 64 + 14] = 15;  // core 1's y-tile DMA raises S[25] to 15 only
  const std::vector<neff::RunInput> inputs{{"x", c_.xb}, {"y", c_.yb}};
  std::string error;
  auto r = neff::Run::create(c_.neff, inputs, {}, error);
  ASSERT_NE(r, nullptr) << error;
  EXPECT_FALSE(r->machine().run_core(0, 1000, {}).deadlock);
  const RunSummary s = r->machine().run_core(1, 1000, {});
  EXPECT_TRUE(s.deadlock);
  ASSERT_FALSE(s.blocked.empty());
  EXPECT_EQ(s.blocked.front().core, 1U);
}

TEST_F(MatmulSmall, UnwrittenDramBytesReadAreCounted) {
  RunSummary clean;
  const auto ok = run({}, clean);
  ASSERT_NE(ok, nullptr);
  EXPECT_TRUE(ok->uninitialized_dram_reads().empty());
  // SP#02 loads the identity from variable 4; pointing it at variable 3 (output0, not written yet) reads 32 KiB
  // of never-written DRAM.
  neff::Stream& sp = engine_stream_of(c_.neff, 0, neff::Engine::Sp);
  ASSERT_EQ(sp.bytes[2 * 64], 0xd4);
  ASSERT_EQ(sp.bytes[2 * 64 + 20], 4);
  sp.bytes[2 * 64 + 20] = 3;
  RunSummary s;
  const auto r = run({}, s);
  ASSERT_NE(r, nullptr);
  for (auto& [k, n] : r->uninitialized_dram_reads()) {
    EXPECT_EQ(k.first, "sg00/SP");
    EXPECT_EQ(k.second, "output0");
    EXPECT_EQ(n, 32768U);
  }
  EXPECT_EQ(r->uninitialized_dram_reads().size(), 1U);
}

TEST(FloatCheck, Fp16RoundTrip) {
  EXPECT_EQ(float_of_fp16(fp16_of(-2.0F)), -2.0F);
}

}  // namespace
}  // namespace tpbisa
