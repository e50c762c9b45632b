// Decode + validate throughput on a stream of the compiled-program formats (issue 12), beside memcpy of its bytes.
#include <benchmark/benchmark.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "../tests/support/seq_words.hpp"
#include "memcpy_baseline.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/validate.hpp"

namespace {

using namespace tpbisa;

constexpr size_t kRealWords = 1'000'000;

// The synthetic words of real-programs.md §10.5 (CAST), §11.4 (TENSOR_TENSOR_ARITH_OP) and §12.4 (MEMSET):
// the datapath formats matmul_small.neff does not use.
constexpr const char* kSyntheticWords[] = {
    "47100000000000000000000000420000010001000100010040000100010001000a078000000000000000000000440000"
    "01000100010001004000010001000100",
    "411000000000000000000000aa0a04800010000001000000000040000100010000200000010000000000400001000100"
    "00000002010000000000400001000100",
    "4910000000000000000000000000000000000000000000000000000040000000"
    "0a008000000000000000803f0046000001000100010001004000010001000100",
};

/// The words of matmul_small.neff's streams (when the shared data are present) and the synthetic datapath words,
/// repeated to kRealWords words: every one a format of real-programs.md / sequencer.md.
std::vector<uint8_t> make_real_stream() {
  std::vector<Word> words;
  const std::filesystem::path neff_file = std::filesystem::path(TPBISA_SHARED_DATA_DIR) / "matmul_small.neff";
  if (std::filesystem::exists(neff_file))
    if (auto n = neff::read_file(neff_file.string()); n.ok())
      for (const neff::Stream* s : n->streams())
        for (size_t i = 0; i < s->word_count(); ++i) {
          Word w{};
          std::memcpy(w.data(), s->word(i).data(), kWordBytes);
          words.push_back(w);
        }
  for (const char* hex : kSyntheticWords) {
    Word w{};
    HexError e{};
    if (parse_hex_word(hex, w, e)) words.push_back(w);
  }
  std::vector<uint8_t> buf(kRealWords * kWordBytes);
  for (size_t k = 0; k < kRealWords && !words.empty(); ++k)
    std::memcpy(&buf[k * kWordBytes], words[k % words.size()].data(), kWordBytes);
  return buf;
}

const std::vector<uint8_t>& real_stream() {
  static const std::vector<uint8_t> s = make_real_stream();
  return s;
}

void BM_MemcpyRealProgramStream(benchmark::State& state) {
  bench::memcpy_baseline(state, real_stream(), kRealWords);
}
BENCHMARK(BM_MemcpyRealProgramStream)->Unit(benchmark::kMillisecond);

/// Every word decoded and validated on CAYMAN; `invalid_words` and `header_only_words` show what was judged.
void BM_DecodeValidateRealProgramStream(benchmark::State& state) {
  const auto& src = real_stream();
  size_t invalid = 0, header_only = 0;
  for (auto _ : state) {
    invalid = header_only = 0;
    for (size_t off = 0; off < src.size(); off += kWordBytes) {
      const Instruction inst =
          decode(std::span<const uint8_t, kWordBytes>(src.data() + off, kWordBytes), Generation::Cayman);
      const Verdict v = validate(inst, Generation::Cayman);
      invalid += v.valid ? 0 : 1;
      header_only += v.checked == Checked::HeaderOnly ? 1 : 0;
    }
    benchmark::DoNotOptimize(invalid);
  }
  state.counters["invalid_words"] = static_cast<double>(invalid);
  state.counters["header_only_words"] = static_cast<double>(header_only);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kRealWords));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * src.size()));
}
BENCHMARK(BM_DecodeValidateRealProgramStream)->Unit(benchmark::kMillisecond);

/// validate_batch's counting form over `src` on CAYMAN: the raw-word acceptor judges a word on its bytes and skips
/// its decode; a word it is not sure of takes the decode and the full pass. The counters show what was judged and how.
void validate_batch_count(benchmark::State& state, const std::vector<uint8_t>& src) {
  BatchSummary s;
  for (auto _ : state) {
    s = validate_batch(src, Generation::Cayman, {}, nullptr, nullptr);
    benchmark::DoNotOptimize(s.invalid);
  }
  size_t accepted = 0;
  for (size_t off = 0; off < src.size(); off += kWordBytes)
    accepted +=
        fast_accepts(std::span<const uint8_t, kWordBytes>(src.data() + off, kWordBytes), Generation::Cayman) ? 1 : 0;
  state.counters["invalid_words"] = static_cast<double>(s.invalid);
  state.counters["header_only_words"] = static_cast<double>(s.header_only);
  state.counters["fast_accepted_words"] = static_cast<double>(accepted);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kRealWords));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * src.size()));
}

/// The compiled-program stream through the counting form.
void BM_ValidateBatchCountRealProgramStream(benchmark::State& state) {
  validate_batch_count(state, real_stream());
}
BENCHMARK(BM_ValidateBatchCountRealProgramStream)->Unit(benchmark::kMillisecond);

/// The sequencer control words of sequencer.md §4-§10 (the baseline words the seq tests are built on), in turn,
/// repeated to kRealWords words: the seq family's acceptors, which the compiled-program stream does not reach.
std::vector<uint8_t> make_seq_stream() {
  const Word words[] = {
      seq_words::write_word(),       seq_words::move_word(),   seq_words::spec_move_word(),
      seq_words::alu_word(),         seq_words::branch_word(), seq_words::back_branch_word(),
      seq_words::range_clear_word(), seq_words::poll_word(),   seq_words::hint_word(opcode::kBranchPrefetchHint),
      seq_words::call_word(),        seq_words::exit_word()};
  std::vector<uint8_t> buf(kRealWords * kWordBytes);
  for (size_t k = 0; k < kRealWords; ++k)
    std::memcpy(&buf[k * kWordBytes], words[k % std::size(words)].data(), kWordBytes);
  return buf;
}

const std::vector<uint8_t>& seq_stream() {
  static const std::vector<uint8_t> s = make_seq_stream();
  return s;
}

void BM_MemcpySeqStream(benchmark::State& state) {
  bench::memcpy_baseline(state, seq_stream(), kRealWords);
}
BENCHMARK(BM_MemcpySeqStream)->Unit(benchmark::kMillisecond);

/// The sequencer words through the counting form.
void BM_ValidateBatchCountSeqStream(benchmark::State& state) {
  validate_batch_count(state, seq_stream());
}
BENCHMARK(BM_ValidateBatchCountSeqStream)->Unit(benchmark::kMillisecond);

}  // namespace
