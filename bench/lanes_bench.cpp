// The lanes family's long-row path: one STREAM_SHUFFLE of 128 channels x 4096 fp32 elements (the identity lane map,
// every channel moved) against memcpy of the same bytes, one partition row at a time, in the same run.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "memcpy_baseline.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/machine.hpp"

namespace tpbisa::lanes_bench {
namespace {

constexpr unsigned kChannels = 128;
constexpr uint16_t kElements = 4096;
constexpr size_t kRowBytes = size_t{kElements} * 4;
constexpr size_t kBytes = kChannels * kRowBytes;

/// STREAM_SHUFFLE fp32, SBUF p0+0x0 -> p0+0x10000, 4096 elements per channel, 128 channels.
Word shuffle_word() {
  S4d4Tr t{};
  t.header = {0x6A, 16, 0, 0};
  t.src.num_elem = {kElements, 1, 1, 1};
  t.src.step_elem = {1, 1, 1, 1};
  t.dst = t.src;
  t.dst.start_addr.raw = 0x10000;
  t.in_dtype = t.out_dtype = dtype::kFp32;
  t.num_active_channels = kChannels;
  return encode(t);
}

void BM_MemcpyShuffleBytes(benchmark::State& state) {
  bench::CopyBuffers b(kBytes, 1);
  for (auto _ : state) {
    for (size_t off = 0; off < kBytes; off += kRowBytes) std::memcpy(b.dst() + off, b.src() + off, kRowBytes);
    benchmark::DoNotOptimize(b.dst());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
}
BENCHMARK(BM_MemcpyShuffleBytes);

/// The shuffle retired once per iteration on a machine built once (Machine::rewind keeps the state).
void BM_RunStreamShuffle(benchmark::State& state) {
  Machine m(Generation::Cayman, {shuffle_word()});
  std::vector<uint8_t> row(kRowBytes, 0x3F);
  for (uint64_t c = 0; c < kChannels; ++c) m.mutable_state().memory.write_block(c * 0x40000, row.size(), row.data());
  for (auto _ : state) {
    m.rewind();
    const RunSummary s = m.run(SIZE_MAX);
    if (s.faulted || s.retired != 1) {
      state.SkipWithError("the shuffle did not retire");
      return;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
}
BENCHMARK(BM_RunStreamShuffle)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace tpbisa::lanes_bench
