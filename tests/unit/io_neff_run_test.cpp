// The library's NEFF run (io::prepare_neff_run / execute_neff_run) over matmul_small.neff: serial and threaded runs
// agree (for every thread count, a result one order might not give run again in one order), a trace keeps only what
// its filter passes, and a progress hook that says stop interrupts the run.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tpbisa/io/neff_run_report.hpp"

namespace tpbisa::io {
namespace {

const std::string kNeffPath = std::string(TPBISA_SHARED_DATA_DIR) + "/matmul_small.neff";

class IoNeffRun : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kNeffPath)) GTEST_SKIP() << "the shared data folder is absent";
    auto read = neff::read_file(kNeffPath);
    ASSERT_TRUE(read.ok()) << read.error().to_string();
    nf_ = std::move(*read);
    for (const neff::Tensor& t : nf_.inputs) bytes_.emplace_back(neff::signature_dtype_size(t.dtype) * count(t), 0);
    for (size_t i = 0; i < nf_.inputs.size(); ++i) inputs_.push_back({nf_.inputs[i].name, bytes_[i]});
  }
  static uint64_t count(const neff::Tensor& t) {
    uint64_t n = 1;
    for (uint64_t d : t.shape) n *= d;
    return n;
  }
  NeffRunReport run(const NeffRunOptions& o, OutputFile* trace = nullptr) {
    auto r = prepare_neff_run(nf_, inputs_, o);
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r ? execute_neff_run(*r, o, trace) : NeffRunReport{};
  }
  neff::Neff nf_;
  std::vector<std::vector<uint8_t>> bytes_;
  std::vector<neff::RunInput> inputs_;
};

TEST_F(IoNeffRun, SerialAndThreadedRunsAgree) {
  const NeffRunReport serial = run({});
  NeffRunOptions threaded;
  threaded.threads = true;
  const NeffRunReport parallel = run(threaded);
  EXPECT_EQ(serial.status, NeffRunReport::Status::Ok);
  EXPECT_EQ(parallel.status, NeffRunReport::Status::Ok);
  EXPECT_EQ(serial.retired, 58U);  // 29 words on each of the two cores
  EXPECT_EQ(parallel.retired, serial.retired);
  EXPECT_EQ(parallel.opcodes, serial.opcodes);
}

TEST_F(IoNeffRun, ATraceKeepsWhatItsFilterPasses) {
  const std::string path = ::testing::TempDir() + "/io_neff_run_trace.jsonl";
  NeffRunOptions o;
  o.trace = true;
  ASSERT_EQ(o.trace_filter.add("engine=pe"), std::nullopt);
  ASSERT_EQ(o.trace_filter.add("core=1"), std::nullopt);
  auto file = OutputFile::open(path);
  ASSERT_TRUE(file.ok());
  const NeffRunReport rep = run(o, file->get());
  ASSERT_TRUE((*file)->commit().ok());
  uint64_t pe_words = 0;
  for (const auto& [name, n] : rep.opcodes) pe_words += name == "LdWeights" || name == "Matmul" ? n : 0;
  std::ifstream in(path);
  std::string line;
  size_t lines = 0;
  while (std::getline(in, line)) {
    EXPECT_NE(line.find(R"("core":1,"engine":"PE")"), std::string::npos) << line;
    ++lines;
  }
  EXPECT_GT(pe_words, 0U);  // the program ran PE words, so the filter had some to keep
  EXPECT_GT(lines, 0U);
  EXPECT_LT(lines, rep.retired);
  std::filesystem::remove(path);
}

TEST_F(IoNeffRun, AProgressHookThatSaysStopInterruptsTheRun) {
  NeffRunOptions o;
  o.progress_words = 1;
  std::vector<uint64_t> calls;
  o.on_progress = [&calls](uint64_t retired) {
    calls.push_back(retired);
    return calls.size() < 3;
  };
  const NeffRunReport rep = run(o);
  EXPECT_EQ(rep.status, NeffRunReport::Status::Interrupted);
  EXPECT_EQ(to_string(rep.status), "interrupted");
  EXPECT_EQ(calls, (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(rep.retired, 3U);  // stopped after the third word
}

/// What a run leaves that a report or a file shows: the report's counts and status, the outputs' bytes, the final
/// semaphores and each engine's words retired.
struct RunOutcome {
  NeffRunReport rep;
  bool reran = false;
  std::vector<std::vector<uint8_t>> outputs;
  std::vector<uint32_t> sems;
  std::vector<uint64_t> retired;
};

class IoNeffRunThreads : public IoNeffRun {
 protected:
  RunOutcome outcome(const NeffRunOptions& o) {
    RunOutcome out;
    auto r = prepare_neff_run(nf_, inputs_, o);
    EXPECT_TRUE(r.ok()) << r.error().message;
    if (!r) return out;
    out.rep = execute_neff_run(*r, o, nullptr);
    out.reran = r->reran;
    for (const neff::Tensor& t : nf_.outputs) {
      const auto bytes = r->run->output(t.name);
      out.outputs.emplace_back(bytes.begin(), bytes.end());
    }
    const Machine& m = r->run->machine();
    for (size_t c = 0; c < m.num_cores(); ++c) {
      out.sems.insert(out.sems.end(), m.core(c).state().sems.begin(), m.core(c).state().sems.end());
      for (unsigned e = 0; e < kEnginesPerCore; ++e) out.retired.push_back(m.core(c).engine(EngineId(e)).retired());
    }
    return out;
  }
  static void expect_same(const RunOutcome& a, const RunOutcome& b, unsigned threads) {
    EXPECT_EQ(a.rep.status, b.rep.status) << threads;
    EXPECT_EQ(a.rep.retired, b.rep.retired) << threads;
    EXPECT_EQ(a.rep.opcodes, b.rep.opcodes) << threads;
    EXPECT_EQ(a.rep.uninit, b.rep.uninit) << threads;
    EXPECT_EQ(a.rep.fault.index, b.rep.fault.index) << threads;
    EXPECT_EQ(a.outputs, b.outputs) << threads;
    EXPECT_EQ(a.sems, b.sems) << threads;
    EXPECT_EQ(a.retired, b.retired) << threads;
  }
};

TEST_F(IoNeffRunThreads, EveryThreadCountGivesWhatOneOrderGives) {
  // Inputs of small integers, so that the outputs are not all zero.
  for (std::vector<uint8_t>& b : bytes_)
    for (size_t i = 0; i + 1 < b.size(); i += 2)
      b[i + 1] = static_cast<uint8_t>(i % 6 == 0 ? 0x3C : i % 6 == 2 ? 0xBC : 0);
  const RunOutcome one = outcome({});
  EXPECT_EQ(one.rep.status, NeffRunReport::Status::Ok);
  EXPECT_FALSE(one.reran);
  for (const unsigned threads : {2U, 3U, 16U}) {
    NeffRunOptions o;
    o.max_threads = threads;
    expect_same(outcome(o), one, threads);
  }
}

TEST_F(IoNeffRunThreads, AStepLimitRunsAgainInOneOrder) {
  // At once each core would stop at the bound by itself: the report would not be that of one order (10 words in
  // all), so the program runs again.
  NeffRunOptions o;
  o.max_steps = 10;
  const RunOutcome one = outcome(o);
  EXPECT_EQ(one.rep.status, NeffRunReport::Status::StepLimit);
  EXPECT_EQ(one.rep.retired, 10U);
  o.max_threads = 2;
  const RunOutcome two = outcome(o);
  EXPECT_TRUE(two.reran);
  expect_same(two, one, 2);
}

TEST_F(IoNeffRunThreads, ARaceCheckRunsInOneOrder) {
  NeffRunOptions o;
  o.check_races = true;
  o.max_threads = 2;
  auto r = prepare_neff_run(nf_, inputs_, o);
  ASSERT_TRUE(r.ok());
  const NeffRunReport rep = execute_neff_run(*r, o, nullptr);
  EXPECT_EQ(rep.status, NeffRunReport::Status::Ok);
  EXPECT_FALSE(r->reran);
  EXPECT_EQ(r->races->count(), 0U);
}

}  // namespace
}  // namespace tpbisa::io
