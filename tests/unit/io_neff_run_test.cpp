// The library's NEFF run (io::prepare_neff_run / execute_neff_run) over matmul_small.neff: serial and threaded runs
// agree, a trace keeps only what its filter passes, and a progress hook that says stop interrupts the run.
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

}  // namespace
}  // namespace tpbisa::io
