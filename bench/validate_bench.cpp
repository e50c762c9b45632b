// Decode + validate throughput on a mixed in-scope stream, beside memcpy of the same buffer.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "memcpy_baseline.hpp"
#include "tpbisa/validate.hpp"

namespace {

using namespace tpbisa;

constexpr size_t kWords = 1'000'000;

/// Valid baselines of every in-scope format, then random single-byte corruptions of a third of them.
std::vector<uint8_t> make_stream(bool corrupt) {
  Mem2d tl{};
  tl.header = {opcode::kTensorLoad, 16, 0, 0};
  tl.dtype = dtype::kUint32;
  tl.num_elem = {4, 1};
  tl.start_addr.raw = 0x1000;
  tl.step_elem = {1, 0};
  Mem2d ts = tl;
  ts.header.opcode = opcode::kTensorStore;
  S2Bn il{};
  il.header = {opcode::kImmLdArith, 16, 0, 0};
  il.dtype = dtype::kFp32;
  il.src_mem_pattern.num_elem = {4, 1};
  il.src_mem_pattern.step_elem = {1, 0};
  il.num_active_channels = 128;
  S4d4Tsm pm{};
  pm.header = {opcode::kPtrMultiArith, 16, 0, 0};
  pm.src_mem_pattern.num_elem = {8, 1, 1, 4};
  pm.src_mem_pattern.step_elem = {1, 8, 8, 8};
  pm.dst_mem_pattern = pm.src_mem_pattern;
  pm.dst_mem_pattern.start_addr.raw = 0x1000;
  pm.in_dtype = pm.out_dtype = dtype::kFp32;
  pm.num_active_channels = 128;
  pm.op = aluop::kAdd;
  pm.op_dim = 4;
  const Word bases[] = {encode(tl), encode(ts), encode(il), encode(pm)};

  std::vector<uint8_t> buf(kWords * kWordBytes);
  std::mt19937_64 rng(7);
  for (size_t w = 0; w < kWords; ++w) {
    Word word = bases[w % 4];
    if (corrupt && w % 3 == 0) word[12 + rng() % 52] = static_cast<uint8_t>(rng());
    std::memcpy(&buf[w * kWordBytes], word.data(), kWordBytes);
  }
  return buf;
}

const std::vector<uint8_t>& stream() {
  static const std::vector<uint8_t> s = make_stream(true);
  return s;
}

const std::vector<uint8_t>& valid_stream() {
  static const std::vector<uint8_t> s = make_stream(false);
  return s;
}

void BM_MemcpyStream(benchmark::State& state) {
  bench::memcpy_baseline(state, stream(), kWords);
}
BENCHMARK(BM_MemcpyStream)->Unit(benchmark::kMillisecond);

void decode_validate(benchmark::State& state, const std::vector<uint8_t>& src) {
  size_t invalid = 0;
  for (auto _ : state) {
    invalid = 0;
    for (size_t off = 0; off < src.size(); off += kWordBytes) {
      const Instruction inst =
          decode(std::span<const uint8_t, kWordBytes>(src.data() + off, kWordBytes), Generation::Mariana);
      const Verdict v = validate(inst, Generation::Mariana);
      invalid += v.valid ? 0 : 1;
    }
    benchmark::DoNotOptimize(invalid);
  }
  state.counters["invalid_words"] = static_cast<double>(invalid);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kWords));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * src.size()));
}

/// The mixed stream: a third of the words carry one random corrupted operand byte.
void BM_DecodeValidateStream(benchmark::State& state) {
  decode_validate(state, stream());
}
BENCHMARK(BM_DecodeValidateStream)->Unit(benchmark::kMillisecond);

/// The same words without corruption (every word valid), for comparison.
void BM_DecodeValidateValidStream(benchmark::State& state) {
  decode_validate(state, valid_stream());
}
BENCHMARK(BM_DecodeValidateValidStream)->Unit(benchmark::kMillisecond);

/// The batch API over the mixed stream.
void BM_ValidateBatchStream(benchmark::State& state) {
  const auto& src = stream();
  std::vector<Verdict> out(1);
  for (auto _ : state) {
    const BatchSummary s = validate_batch(src, Generation::Mariana, {}, out);
    benchmark::DoNotOptimize(s.invalid);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kWords));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * src.size()));
}
BENCHMARK(BM_ValidateBatchStream)->Unit(benchmark::kMillisecond);

}  // namespace
