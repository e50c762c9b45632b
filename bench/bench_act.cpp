// The activation opcode over long rows (act-index-ops.md): ACTIVATE exp with the real tables of matmul_small.neff on
// fp32 and bf16 rows, untraced, each beside memcpy of the bytes it reads in the same run (the index opcodes:
// index_bench.cpp).
#include <benchmark/benchmark.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "families/act/tables.hpp"
#include "memcpy_baseline.hpp"
#include "neff/act_tables.hpp"
#include "run_loop.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::act_bench {

constexpr unsigned kChannels = 128;
constexpr uint16_t kRow = 2048;  // elements per channel
constexpr uint32_t kSrc = 0x0, kDst = 0x8000;

/// The real set exp_and_others of matmul_small.neff's first subgraph; nullptr when the shared data are absent.
std::shared_ptr<const act::TableSet> real_set() {
  static const std::shared_ptr<const act::TableSet> kSet = []() -> std::shared_ptr<const act::TableSet> {
    const std::filesystem::path f = std::filesystem::path(TPBISA_SHARED_DATA_DIR) / "matmul_small.neff";
    if (!std::filesystem::exists(f)) return nullptr;
    neff::Result<neff::Neff> n = neff::read_file(f.string());
    if (!n.ok()) return nullptr;
    return neff::activation_sets(*n, n->subgraphs.front()).by_index(0).set;
  }();
  return kSet;
}

Word word_of(std::string_view hex) {
  Word w{};
  for (size_t i = 0; i < kWordBytes && 2 * i + 1 < hex.size(); ++i)
    w[i] = static_cast<uint8_t>(std::stoul(std::string(hex.substr(2 * i, 2)), nullptr, 16));
  return w;
}

/// The row at SB offset `at` of each channel: kRow elements of `size` bytes, values from `value(p, k)`.
template <class F>
void fill_rows(Machine& m, uint32_t at, unsigned size, F value) {
  for (uint64_t p = 0; p < kChannels; ++p)
    for (uint64_t k = 0; k < kRow; ++k)
      m.mutable_state().memory.write(p * geometry(Generation::Mariana).sbuf_partition_size + at + size * k, size,
                                     value(p, k));
}

/// Runs `w` on `engine` of MARIANA once per iteration; `bytes` per run for the throughput.
void run_word(benchmark::State& state, Machine& m, uint64_t bytes) {
  bench::run_rewound(state, m, bytes, uint64_t{kChannels} * kRow);
}

std::unique_ptr<Machine> machine(const Word& w, EngineId e, unsigned threads = 1) {
  MachineOptions mo;
  mo.engine = e;
  mo.kernel_threads = threads;
  return std::make_unique<Machine>(Generation::Mariana, std::vector<Word>{w}, mo);
}

/// The ACTIVATE of act-index-ops.md §4.5 X1 (exp of 0.25·x) over every channel's row of `dt` (in and out), with the
/// accumulator command `cmd` (IDLE, or ZERO_ACCUMULATE: the row sums of a softmax).
void run_activate(benchmark::State& state, uint8_t dt, uint8_t cmd, unsigned threads = 1) {
  const std::shared_ptr<const act::TableSet> set = real_set();
  if (set == nullptr) {
    state.SkipWithError("matmul_small.neff is absent");
    return;
  }
  const act::Profile* exp = set->profile_named("exp");
  Instruction inst = decode(word_of("2110000000000000000000000000030100100000010000000000040001000100"
                                    "aa0a02070000803f000000000000000000200000010000000000040001000100"),
                            Generation::Mariana);
  auto t = *inst.as<S3d3Ac>();
  t.src.start_addr.raw = kSrc;
  t.src.num_elem = {kRow, 1, 1};
  t.dst.start_addr.raw = kDst;
  t.dst.num_elem = {kRow, 1, 1};
  t.in_bias_dtype = static_cast<uint8_t>(dt | dtype::kFp32 << 4);
  t.out_dtype = dt;
  t.num_active_channels = kChannels;
  t.activation_func = exp->func_id;
  t.scale_value.raw = std::bit_cast<uint32_t>(0.25F);
  t.accumulator_cmd = cmd;
  auto m = machine(encode(t), EngineId::Act, threads);
  m->mutable_state().act_set = set.get();
  const unsigned size = dtype_size(dt);
  fill_rows(*m, kSrc, size, [dt](uint64_t p, uint64_t k) -> uint64_t {
    const float x = -8.0F + 16.0F * static_cast<float>((p * 977 + k * 131) % 4096) / 4096.0F;
    const uint32_t b = std::bit_cast<uint32_t>(x);
    return dt == dtype::kFp32 ? b : b >> 16;
  });
  run_word(state, *m, uint64_t{kChannels} * kRow * size);
}

void BM_ActivateExpFp32Rows(benchmark::State& state) {
  run_activate(state, dtype::kFp32, accum_cmd::kIdle);
}
BENCHMARK(BM_ActivateExpFp32Rows);

void BM_ActivateExpBf16Rows(benchmark::State& state) {
  run_activate(state, dtype::kBfloat16, accum_cmd::kIdle);
}
BENCHMARK(BM_ActivateExpBf16Rows);

void BM_ActivateExpAccumulateFp32Rows(benchmark::State& state) {
  run_activate(state, dtype::kFp32, accum_cmd::kZeroAccumulate);
}
BENCHMARK(BM_ActivateExpAccumulateFp32Rows);

// The fp32 rows on two kernel threads (MachineOptions::kernel_threads, as a NEFF run of one core on two CPUs sets
// it): against the one-thread memcpy below and against memcpy on two threads (BM_MemcpyActFp32BytesTwoThreads).
void BM_ActivateExpFp32RowsTwoThreads(benchmark::State& state) {
  run_activate(state, dtype::kFp32, accum_cmd::kIdle, 2);
}
BENCHMARK(BM_ActivateExpFp32RowsTwoThreads)->UseRealTime();

void BM_ActivateExpAccumulateFp32RowsTwoThreads(benchmark::State& state) {
  run_activate(state, dtype::kFp32, accum_cmd::kZeroAccumulate, 2);
}
BENCHMARK(BM_ActivateExpAccumulateFp32RowsTwoThreads)->UseRealTime();

/// memcpy of `rows` rows of `row_bytes`, row by row (the bytes each benchmark above reads or writes).
void memcpy_rows(benchmark::State& state, size_t row_bytes, size_t rows = kChannels) {
  const size_t total = rows * row_bytes;
  bench::CopyBuffers b(total, 1);
  for (auto _ : state) {
    for (size_t off = 0; off < total; off += row_bytes) std::memcpy(b.dst() + off, b.src() + off, row_bytes);
    benchmark::DoNotOptimize(b.dst());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * total));
}

void BM_MemcpyActFp32Bytes(benchmark::State& state) {
  memcpy_rows(state, size_t{kRow} * 4);
}
BENCHMARK(BM_MemcpyActFp32Bytes);

// The fp32 bytes copied on two threads, half of the rows each (the baseline for the rows on two kernel threads).
void BM_MemcpyActFp32BytesTwoThreads(benchmark::State& state) {
  memcpy_rows(state, size_t{kRow} * 4, kChannels / 2);
}
BENCHMARK(BM_MemcpyActFp32BytesTwoThreads)->Threads(2)->UseRealTime();

void BM_MemcpyActBf16Bytes(benchmark::State& state) {
  memcpy_rows(state, size_t{kRow} * 2);
}
BENCHMARK(BM_MemcpyActBf16Bytes);

}  // namespace tpbisa::act_bench
