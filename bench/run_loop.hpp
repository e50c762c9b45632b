// The run-and-measure loop of the row benchmarks: a machine rewound and run to its end once per iteration.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>

#include "tpbisa/machine.hpp"

namespace tpbisa::bench {

/// Runs `m` from its first word to its end once per iteration (a fault ends the benchmark with its detail); `bytes`
/// and `items` per run for the throughputs.
inline void run_rewound(benchmark::State& state, Machine& m, uint64_t bytes, uint64_t items) {
  for (auto _ : state) {
    m.rewind();
    const RunSummary s = m.run(SIZE_MAX);
    if (s.faulted) {
      state.SkipWithError(s.fault.detail.c_str());
      break;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * items));
}

}  // namespace tpbisa::bench
