// Simulator throughput: TensorLoad/TensorStore instructions and PtrMulti element operations per second, untraced
// and traced, each beside memcpy of comparable bytes in the same run.
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

#include "memcpy_baseline.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/trace.hpp"

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
  constexpr size_t kBytes = kProgramWords * 32;
  bench::CopyBuffers b(kBytes, 1);
  for (auto _ : state) {
    for (size_t off = 0; off < kBytes; off += 32) std::memcpy(b.dst() + off, b.src() + off, 32);
    benchmark::DoNotOptimize(b.dst());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kProgramWords));
}
BENCHMARK(BM_MemcpyMem2dBytes);

/// Retires the whole program of `proto` once per iteration. The machine is built (decoded, validated) once; each
/// iteration rewinds it (Machine::rewind: every engine back at its first word, the state kept) and runs the program
/// again: its stores and loads (and the PtrMulti's rows) are the same work every time. Untraced:
/// Machine::run. Traced: a step loop recording every step's effects and writing its trace line (what
/// `tpbisa run --trace` does).
void run_program(benchmark::State& state, const Machine& proto, bool traced) {
  Machine m = proto;
  std::string trace;
  size_t retired = 0;
  for (auto _ : state) {
    m.rewind();
    trace.clear();
    if (!traced) {  // Machine::run, as `tpbisa run` without a trace
      const RunSummary s = m.run(SIZE_MAX);
      if (s.faulted || s.deadlock) {
        state.SkipWithError("the program did not retire every word");
        return;
      }
      retired += s.retired;
      continue;
    }
    for (;;) {
      const StepResult r = m.step();
      if (r.status == StepResult::Status::Halted) break;
      if (r.status != StepResult::Status::Retired) {
        state.SkipWithError("the program did not retire every word");
        return;
      }
      append_trace_line(trace, r, m);
      ++retired;
    }
    benchmark::DoNotOptimize(trace.data());
  }
  state.counters["trace_bytes"] = static_cast<double>(trace.size());
  state.SetItemsProcessed(static_cast<int64_t>(retired));
}

MachineOptions options_traced(bool traced) {
  MachineOptions mo;
  mo.record_effects = traced;
  return mo;
}

void BM_RunTensorLoadStore(benchmark::State& state) {
  const Machine proto(Generation::Cayman, mem2d_program(), options_traced(false));
  run_program(state, proto, false);
}
BENCHMARK(BM_RunTensorLoadStore)->Unit(benchmark::kMicrosecond);

void BM_RunTensorLoadStoreTraced(benchmark::State& state) {
  const Machine proto(Generation::Cayman, mem2d_program(), options_traced(true));
  run_program(state, proto, true);
}
BENCHMARK(BM_RunTensorLoadStoreTraced)->Unit(benchmark::kMicrosecond);

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
  constexpr size_t kBytes = kPtrMultiOps * 4;
  bench::CopyBuffers b(kBytes, 1);
  for (auto _ : state) {
    for (size_t off = 0; off < kBytes; off += 1024) std::memcpy(b.dst() + off, b.src() + off, 1024);
    benchmark::DoNotOptimize(b.dst());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kPtrMultiOps));
}
BENCHMARK(BM_MemcpyPtrMultiBytes);

/// The PtrMulti's machine: SBUF source rows written (so nothing reads uninitialised) and the scalars set to 2.0f.
Machine ptr_multi_machine(bool traced) {
  Machine m(Generation::Cayman, ptr_multi_program(), options_traced(traced));
  std::vector<uint8_t> row(32 * 8 * 4);
  for (size_t i = 0; i < row.size(); i += 4) {
    const float v = static_cast<float>(i / 4) * 0.25F;
    std::memcpy(&row[i], &v, 4);
  }
  for (uint64_t c = 0; c < 128; ++c) m.mutable_state().memory.write_block(c * 0x40000, row.size(), row.data());
  for (unsigned c = 0; c < 128; ++c)
    for (unsigned s = 0; s < 8; ++s) {
      m.mutable_state().dve[c].imm[s] = 0x40000000;  // 2.0f
      m.mutable_state().dve[c].imm_class[s] = DveChannel::ImmClass::Arith;
    }
  return m;
}

void BM_RunPtrMulti(benchmark::State& state) {
  run_program(state, ptr_multi_machine(false), false);
  state.SetItemsProcessed(state.items_processed() * static_cast<int64_t>(kPtrMultiOps));
}
BENCHMARK(BM_RunPtrMulti)->Unit(benchmark::kMicrosecond);

void BM_RunPtrMultiTraced(benchmark::State& state) {
  run_program(state, ptr_multi_machine(true), true);
  state.SetItemsProcessed(state.items_processed() * static_cast<int64_t>(kPtrMultiOps));
}
BENCHMARK(BM_RunPtrMultiTraced)->Unit(benchmark::kMicrosecond);

}  // namespace
