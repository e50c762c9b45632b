// Decode throughput beside memcpy of the same bytes.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "tpbisa/instruction.hpp"

namespace {

std::vector<uint8_t> random_stream(size_t words) {
  std::vector<uint8_t> buf(words * tpbisa::kWordBytes);
  std::mt19937_64 rng(42);
  const uint8_t ops[] = {0xAA, 0xAB, 0x70, 0x71, 0x4F, 0x5F, 0x64, 0x6D, 0xCE, 0x02};
  for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<uint8_t>(rng());
  for (size_t w = 0; w < words; ++w) {
    buf[w * 64] = ops[w % std::size(ops)];
    buf[w * 64 + 1] = 16;
  }
  return buf;
}

void BM_Memcpy(benchmark::State& state) {
  const auto src = random_stream(static_cast<size_t>(state.range(0)));
  std::vector<uint8_t> dst(src.size());
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(src.size()));
}
BENCHMARK(BM_Memcpy)->Arg(1 << 20);

void BM_Decode(benchmark::State& state) {
  const auto src = random_stream(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    unsigned acc = 0;
    for (size_t off = 0; off < src.size(); off += tpbisa::kWordBytes) {
      const auto inst = tpbisa::decode(std::span<const uint8_t, 64>(src.data() + off, 64), tpbisa::Generation::Mariana);
      acc += static_cast<unsigned>(inst.status);
    }
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(src.size()));
}
BENCHMARK(BM_Decode)->Arg(1 << 20);

}  // namespace
