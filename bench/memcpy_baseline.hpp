// The same-run baseline every suite quotes its figures against: memcpy of the bytes the benchmark reads.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace tpbisa::bench {

/// Copies `src` once per iteration; items are its `words` 64-byte words.
inline void memcpy_baseline(benchmark::State& state, const std::vector<uint8_t>& src, size_t words) {
  std::vector<uint8_t> dst(src.size());
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * words));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * src.size()));
}

}  // namespace tpbisa::bench
