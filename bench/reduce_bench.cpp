// The reduce family's long rows: a TENSOR_REDUCE fp32 ADD over 128 channels of 2048 fp32 elements (1 MiB), and the
// same reduction of bf16 elements, untraced, each beside memcpy of the bytes it reads in the same run.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "memcpy_baseline.hpp"
#include "tpbisa/machine.hpp"

namespace {

using namespace tpbisa;

constexpr uint16_t kRow = 2048;  // elements per channel
constexpr unsigned kChannels = 128;

/// TENSOR_REDUCE_ARITH_OP ADD over X: each channel's kRow elements of `dt` at SB 0x0 summed into SB 0x10000.
Word reduce_word(uint8_t dt) {
  S4d4Tr t{};
  t.header = {0x42, 16, 0, 0};
  t.src.start_addr.raw = 0;
  t.src.step_elem = {1, 1, 1, 1};
  t.src.num_elem = {kRow, 1, 1, 1};
  t.in_dtype = dt;
  t.out_dtype = dtype::kFp32;
  t.num_active_channels = kChannels;
  t.op = aluop::kAdd;
  t.op_dim = 2;  // X
  t.dst.start_addr.raw = 0x10000;
  t.dst.step_elem = {1, 1, 1, 1};
  t.dst.num_elem = {1, 1, 1, 1};
  return encode(t);
}

void run_reduce(benchmark::State& state, uint8_t dt) {
  MachineOptions mo;
  mo.engine = EngineId::Dve;
  Machine m(Generation::Cayman, std::vector<Word>{reduce_word(dt)}, mo);
  const unsigned size = dtype_size(dt);
  for (uint64_t p = 0; p < kChannels; ++p)
    for (uint64_t k = 0; k < kRow; ++k)
      m.mutable_state().memory.write(p * 0x40000 + size * k, size, dt == dtype::kFp32 ? 0x3F800000 : 0x3F80);
  for (auto _ : state) {
    m.rewind();
    const RunSummary s = m.run(SIZE_MAX);
    if (s.faulted) state.SkipWithError(s.fault.detail.c_str());
  }
  const uint64_t bytes = uint64_t{kChannels} * kRow * size;
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kChannels * kRow));
}

void BM_ReduceAddFp32Rows(benchmark::State& state) {
  run_reduce(state, dtype::kFp32);
}
BENCHMARK(BM_ReduceAddFp32Rows);

void BM_ReduceAddBf16Rows(benchmark::State& state) {
  run_reduce(state, dtype::kBfloat16);
}
BENCHMARK(BM_ReduceAddBf16Rows);

/// memcpy of the bytes the fp32 reduction reads (128 rows of 8 KiB), row by row.
void BM_MemcpyReduceFp32Bytes(benchmark::State& state) {
  constexpr size_t kBytes = size_t{kChannels} * kRow * 4;
  bench::CopyBuffers b(kBytes, 1);
  for (auto _ : state) {
    for (size_t off = 0; off < kBytes; off += kRow * 4) std::memcpy(b.dst() + off, b.src() + off, kRow * 4);
    benchmark::DoNotOptimize(b.dst());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
}
BENCHMARK(BM_MemcpyReduceFp32Bytes);

}  // namespace
