// Simulator throughput: TensorLoad/TensorStore instructions and PtrMulti element operations per second,
// each beside memcpy of comparable bytes in the same run.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "tpbisa/machine.hpp"

namespace {

using namespace tpbisa;

constexpr size_t kProgramWords = 4096;

Word tensor_store_word(uint64_t address) {
  Mem2d ts{};
  ts.header = {opcode::kTensorStore, 16, 0, 0};
  ts.dtype = dtype::kUint32;
  ts.src_datasrc = 1;  // immediates
  ts.num_elem = {8, 1};
  ts.start_addr.raw = address;
  ts.step_elem = {1, 0};
  for (unsigned k = 0; k < 32; ++k) ts.data.bytes[k] = static_cast<uint8_t>(k);
  return encode(ts);
}

Word tensor_load_word(uint64_t address) {
  Mem2d tl{};
  tl.header = {opcode::kTensorLoad, 16, 0, 0};
  tl.dtype = dtype::kUint32;
  tl.num_elem = {8, 1};
  tl.start_addr.raw = address;
  tl.step_elem = {1, 0};
  for (unsigned k = 0; k < 8; ++k) tl.data.bytes[k] = static_cast<uint8_t>(k);
  return encode(tl);
}

/// A program alternating TensorStore and TensorLoad of 8 u32 (32 bytes) each over SBUF partitions.
std::vector<Word> mem2d_program() {
  std::vector<Word> p;
  for (size_t i = 0; i < kProgramWords; i += 2) {
    const uint64_t a = (i % 128) * 0x40000 + (i / 128) * 32;
    p.push_back(tensor_store_word(a));
    p.push_back(tensor_load_word(a));
  }
  return p;
}

void BM_MemcpyMem2dBytes(benchmark::State& state) {
  // Each TensorLoad/TensorStore moves 32 bytes: copy the same total in 32-byte pieces.
  std::vector<uint8_t> src(kProgramWords * 32, 1), dst(src.size());
  for (auto _ : state) {
    for (size_t off = 0; off < src.size(); off += 32) std::memcpy(&dst[off], &src[off], 32);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kProgramWords));
}
BENCHMARK(BM_MemcpyMem2dBytes);

void BM_RunTensorLoadStore(benchmark::State& state) {
  const std::vector<Word> program = mem2d_program();
  for (auto _ : state) {
    Machine m(Generation::Cayman, program);
    const RunSummary s = m.run(program.size());
    if (s.faulted) state.SkipWithError("fault");
    benchmark::DoNotOptimize(s.retired);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kProgramWords));
}
BENCHMARK(BM_RunTensorLoadStore)->Unit(benchmark::kMillisecond);

/// One PtrMulti over 128 channels x {32, 1, 1, 8} fp32 elements (32768 element operations).
std::vector<Word> ptr_multi_program() {
  S4d4Tsm pm{};
  pm.header = {opcode::kPtrMultiArith, 16, 0, 0};
  pm.src_mem_pattern.num_elem = {32, 1, 1, 8};
  pm.src_mem_pattern.step_elem = {1, 32, 32, 32};
  pm.dst_mem_pattern = pm.src_mem_pattern;
  pm.dst_mem_pattern.start_addr.raw = 0x2000;
  pm.in_dtype = pm.out_dtype = dtype::kFp32;
  pm.num_active_channels = 128;
  pm.op = aluop::kMult;
  pm.op_dim = 4;
  return {encode(pm)};
}

constexpr size_t kPtrMultiOps = 128 * 32 * 8;

void BM_MemcpyPtrMultiBytes(benchmark::State& state) {
  // The PtrMulti reads and writes 4 bytes per element: copy the same bytes, one partition row at a time.
  std::vector<uint8_t> src(kPtrMultiOps * 4, 1), dst(src.size());
  for (auto _ : state) {
    for (size_t off = 0; off < src.size(); off += 1024) std::memcpy(&dst[off], &src[off], 1024);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kPtrMultiOps));
}
BENCHMARK(BM_MemcpyPtrMultiBytes);

void BM_RunPtrMulti(benchmark::State& state) {
  const std::vector<Word> program = ptr_multi_program();
  Machine m(Generation::Cayman, program);
  for (unsigned c = 0; c < 128; ++c)
    for (unsigned s = 0; s < 8; ++s) m.mutable_state().dve[c].imm[s] = 0x40000000;  // 2.0f
  for (auto _ : state) {
    state.PauseTiming();
    Machine run = m;  // a fresh copy each time: the timed part is the one step
    state.ResumeTiming();
    const StepResult r = run.step();
    if (r.status != StepResult::Status::Retired) state.SkipWithError("fault");
    benchmark::DoNotOptimize(r.mem_writes.size());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kPtrMultiOps));
}
BENCHMARK(BM_RunPtrMulti)->Unit(benchmark::kMillisecond);

}  // namespace
