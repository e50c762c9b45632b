// Validation throughput on streams of in-scope and real-program words (the bytes -> verdict entry points, and
// decode + validate of an Instruction), beside memcpy of the same buffer.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

#include "memcpy_baseline.hpp"

#include "tpbisa/neff.hpp"
#include "tpbisa/validate.hpp"

namespace {

using namespace tpbisa;

constexpr size_t kWords = 1'000'000;

/// Valid baselines of every in-scope format, then random single-byte corruptions of every `corrupt_every`-th word
/// (0: none).
std::vector<uint8_t> make_stream(unsigned corrupt_every) {
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
    if (corrupt_every != 0 && w % corrupt_every == 0) word[12 + rng() % 52] = static_cast<uint8_t>(rng());
    std::memcpy(&buf[w * kWordBytes], word.data(), kWordBytes);
  }
  return buf;
}

const std::vector<uint8_t>& stream() {
  static const std::vector<uint8_t> s = make_stream(3);
  return s;
}

const std::vector<uint8_t>& valid_stream() {
  static const std::vector<uint8_t> s = make_stream(0);
  return s;
}

/// Every tenth word corrupted: with mutations that leave some words valid, about 10 % or fewer are invalid (the
/// counter reports the exact figure).
const std::vector<uint8_t>& ten_percent_stream() {
  static const std::vector<uint8_t> s = make_stream(10);
  return s;
}

/// The engine streams of the real compiled program (the shared matmul NEFF), repeated to kWords words; empty
/// when the file is absent.
const std::vector<uint8_t>& real_program_stream() {
  static const std::vector<uint8_t> s = [] {
    std::vector<uint8_t> out;
    const std::filesystem::path path = std::filesystem::path(TPBISA_SHARED_DATA_DIR) / "matmul_small.neff";
    std::ifstream in(path, std::ios::binary);
    if (!in) return out;
    const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto neff = neff::read(file, "matmul_small.neff");
    if (!neff) return out;
    std::vector<uint8_t> words;
    for (const neff::Stream* st : neff->streams()) words.insert(words.end(), st->bytes.begin(), st->bytes.end());
    if (words.empty()) return out;
    out.reserve(kWords * kWordBytes);
    while (out.size() < kWords * kWordBytes)
      out.insert(out.end(), words.begin(),
                 words.begin() + static_cast<ptrdiff_t>(std::min(words.size(), kWords * kWordBytes - out.size())));
    return out;
  }();
  return s;
}

void BM_MemcpyStream(benchmark::State& state) {
  bench::memcpy_baseline(state, stream(), kWords);
}
BENCHMARK(BM_MemcpyStream)->Unit(benchmark::kMillisecond);

void decode_validate(benchmark::State& state, const std::vector<uint8_t>& src, Generation gen = Generation::Mariana) {
  if (src.empty()) {
    state.SkipWithError("no words (the shared NEFF is absent)");
    return;
  }
  size_t invalid = 0;
  for (auto _ : state) {
    invalid = 0;
    for (size_t off = 0; off < src.size(); off += kWordBytes) {
      const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(src.data() + off, kWordBytes), gen);
      const Verdict v = validate(inst, gen);
      invalid += v.valid ? 0 : 1;
    }
    benchmark::DoNotOptimize(invalid);
  }
  state.counters["invalid_words"] = static_cast<double>(invalid);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * (src.size() / kWordBytes)));
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

/// Every tenth word carries a corrupted operand byte (the "10 % invalid" stream).
void BM_DecodeValidateTenPercentInvalid(benchmark::State& state) {
  decode_validate(state, ten_percent_stream());
}
BENCHMARK(BM_DecodeValidateTenPercentInvalid)->Unit(benchmark::kMillisecond);

/// The formats of the real compiled program (its engine streams repeated), on its generation, CAYMAN.
void BM_DecodeValidateRealProgram(benchmark::State& state) {
  decode_validate(state, real_program_stream(), Generation::Cayman);
}
BENCHMARK(BM_DecodeValidateRealProgram)->Unit(benchmark::kMillisecond);

// ---- The bytes -> verdict entry points (what the command line and the Python module call) ----
// The raw-word fast acceptor judges each word on its 64 bytes first: an accepted word is neither decoded nor given
// an Instruction; only a word it does not accept is decoded and judged by the full pass.

/// validate_batch's counting form (no verdict object for an accepted word); `invalid_words` and the words the
/// acceptor accepted (`fast_accepted_words`) show what was judged how.
void batch_count(benchmark::State& state, const std::vector<uint8_t>& src, Generation gen) {
  if (src.empty()) {
    state.SkipWithError("no words (the shared NEFF is absent)");
    return;
  }
  BatchSummary s;
  for (auto _ : state) {
    s = validate_batch(src, gen, {}, nullptr, nullptr);
    benchmark::DoNotOptimize(s.invalid);
  }
  size_t accepted = 0;
  for (size_t off = 0; off < src.size(); off += kWordBytes)
    accepted += fast_accepts(std::span<const uint8_t, kWordBytes>(src.data() + off, kWordBytes), gen) ? 1 : 0;
  state.counters["invalid_words"] = static_cast<double>(s.invalid);
  state.counters["fast_accepted_words"] = static_cast<double>(accepted);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * (src.size() / kWordBytes)));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * src.size()));
}

void BM_ValidateBatchCountValidStream(benchmark::State& state) {
  batch_count(state, valid_stream(), Generation::Mariana);
}
BENCHMARK(BM_ValidateBatchCountValidStream)->Unit(benchmark::kMillisecond);

void BM_ValidateBatchCountTenPercentInvalid(benchmark::State& state) {
  batch_count(state, ten_percent_stream(), Generation::Mariana);
}
BENCHMARK(BM_ValidateBatchCountTenPercentInvalid)->Unit(benchmark::kMillisecond);

void BM_ValidateBatchCountStream(benchmark::State& state) {
  batch_count(state, stream(), Generation::Mariana);
}
BENCHMARK(BM_ValidateBatchCountStream)->Unit(benchmark::kMillisecond);

void BM_ValidateBatchCountRealProgram(benchmark::State& state) {
  batch_count(state, real_program_stream(), Generation::Cayman);
}
BENCHMARK(BM_ValidateBatchCountRealProgram)->Unit(benchmark::kMillisecond);

/// The single-word bytes entry point, validate(bytes, gen), one call and one Verdict per word.
void BM_ValidateBytesValidStream(benchmark::State& state) {
  const auto& src = valid_stream();
  size_t invalid = 0;
  for (auto _ : state) {
    invalid = 0;
    for (size_t off = 0; off < src.size(); off += kWordBytes)
      invalid += validate(std::span<const uint8_t, kWordBytes>(src.data() + off, kWordBytes), Generation::Mariana).valid
                     ? 0
                     : 1;
    benchmark::DoNotOptimize(invalid);
  }
  state.counters["invalid_words"] = static_cast<double>(invalid);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kWords));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * src.size()));
}
BENCHMARK(BM_ValidateBytesValidStream)->Unit(benchmark::kMillisecond);

/// The batch API with a verdict span (here one slot: the rest are judged, counted and dropped) over the mixed stream.
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
