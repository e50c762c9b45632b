// The vector and pool compute families on long rows (128 channels x 4096 elements, untraced): TensorScalar 0x43 and
// TensorScalarPtr 0x44, ScalarTensorTensor 0x9D, TensorReduce 0x42 MAX, CopyPredicated 0x72 and StreamTranspose,
// each beside memcpy of the element bytes of one source tensor in the same run.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "memcpy_baseline.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::vector_bench {
namespace {

constexpr unsigned kChannels = 128;
constexpr unsigned kElements = 4096;
constexpr uint64_t kPartitionStride = 0x40000;  // a partition's SBUF bytes in the flat address space

/// memcpy of 128 rows of kElements elements of `size` bytes, row by row.
void memcpy_rows(benchmark::State& state, unsigned size) {
  const size_t row = size_t{kElements} * size, bytes = kChannels * row;
  bench::CopyBuffers b(bytes, 1);
  for (auto _ : state) {
    for (size_t off = 0; off < bytes; off += row) std::memcpy(b.dst() + off, b.src() + off, row);
    benchmark::DoNotOptimize(b.dst());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}
void BM_VecMemcpyFp32Rows(benchmark::State& state) {
  memcpy_rows(state, 4);
}
BENCHMARK(BM_VecMemcpyFp32Rows);
void BM_VecMemcpyBf16Rows(benchmark::State& state) {
  memcpy_rows(state, 2);
}
BENCHMARK(BM_VecMemcpyBf16Rows);

/// Runs the one-word program `line` (its {N} the row length) once per iteration on a DVE stream, with every
/// partition's bytes 0x0-0xFFFF written: fp32 1.5 or bf16 1.5 at 0x0 and 0x4000 per `size`, predicates (bytes of 1)
/// at 0xC000, fp32 scalars 2.0 and 0.5 at 0xE000. Bytes processed: one source tensor's elements of `size` bytes.
void run_line(benchmark::State& state, std::string line, unsigned size) {
  for (size_t at = line.find("{N}"); at != std::string::npos; at = line.find("{N}"))
    line.replace(at, 3, std::to_string(kElements));
  const AsmResult a = assemble(line, "bench", Generation::Cayman);
  if (!a.ok() || a.words.size() != 1) {
    state.SkipWithError("the benchmark's word does not assemble");
    return;
  }
  MachineOptions mo;
  mo.engine = EngineId::Dve;
  Machine m(Generation::Cayman, a.words, mo);
  std::vector<uint8_t> part(0x10000, 0);
  for (size_t k = 0; k < 0xC000; k += size) {
    const uint32_t v = size == 4 ? 0x3FC00000U : 0x3FC0U;
    std::memcpy(part.data() + k, &v, size);
  }
  std::memset(part.data() + 0xC000, 1, 0x1000);
  const float scalars[2] = {2.0F, 0.5F};
  std::memcpy(part.data() + 0xE000, scalars, sizeof scalars);
  for (uint64_t c = 0; c < kChannels; ++c)
    m.mutable_state().memory.write_block(c * kPartitionStride, part.size(), part.data());
  for (auto _ : state) {
    m.rewind();
    const RunSummary s = m.run(SIZE_MAX);
    if (s.faulted || s.retired != 1) {
      state.SkipWithError(s.faulted ? s.fault.detail.c_str() : "the word did not retire");
      return;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kChannels * kElements * size));
}

const char* const kTensorScalar =
    "TensorScalarArithOp src.start_addr=sbuf[p0]+0x0 src.step_elem={1,0,0} src.num_elem={{N},1,1} in_dtype={DT} "
    "out_dtype={DT} num_active_channels=128 imm0_src=INSTRUCTION_IMMEDIATE op0=MULT op1=ADD reverse_operands=NONE "
    "imm1_src=INSTRUCTION_IMMEDIATE imm0=2.0 imm1=0.5 dst.start_addr=sbuf[p0]+0x8000 dst.step_elem={1,0,0} "
    "dst.num_elem={{N},1,1}";

std::string with_dtype(std::string line, const char* dt) {
  for (size_t at = line.find("{DT}"); at != std::string::npos; at = line.find("{DT}")) line.replace(at, 4, dt);
  return line;
}

/// 0x43: y = x * 2 + 0.5, immediate scalars.
void BM_VecTensorScalarFp32(benchmark::State& state) {
  run_line(state, with_dtype(kTensorScalar, "fp32"), 4);
}
BENCHMARK(BM_VecTensorScalarFp32);
void BM_VecTensorScalarBf16(benchmark::State& state) {
  run_line(state, with_dtype(kTensorScalar, "bf16"), 2);
}
BENCHMARK(BM_VecTensorScalarBf16);

/// 0x44: the same with per-partition pointer scalars.
void BM_VecTensorScalarPtrFp32(benchmark::State& state) {
  run_line(state,
           "TensorScalarPtrArithOp src.start_addr=sbuf[p0]+0x0 src.step_elem={1,0,0} src.num_elem={{N},1,1} "
           "in_dtype=fp32 out_dtype=fp32 num_active_channels=128 imm0_src=INSTRUCTION_IMMEDIATE op0=MULT op1=ADD "
           "reverse_operands=NONE imm1_src=INSTRUCTION_IMMEDIATE imm0=sbuf[p0]+0xe000 imm1=sbuf[p0]+0xe004 "
           "dst.start_addr=sbuf[p0]+0x8000 dst.step_elem={1,0,0} dst.num_elem={{N},1,1}",
           4);
}
BENCHMARK(BM_VecTensorScalarPtrFp32);

const char* const kStt =
    "ScalarTensorTensorArith src0.start_addr=sbuf[p0]+0x0 src0.step_elem={1,0} src0.num_elem={{N},1} "
    "src1.start_addr=sbuf[p0]+0x4000 src1.step_elem={1,0} src1.num_elem={{N},1} op0=MULT op1=ADD "
    "imm0_src=INSTRUCTION_IMMEDIATE in0_in1_dtype={PAIR} out_dtype={DT} num_active_channels=128 "
    "imm0_dtype=fp32 accumulator_cmd={ACC} dst.start_addr=sbuf[p0]+0x8000 dst.step_elem={1,0} dst.num_elem={{N},1} "
    "imm0=0.75";

std::string stt(const char* dt, const char* acc) {
  std::string line = with_dtype(kStt, dt);
  line.replace(line.find("{PAIR}"), 6, std::string(dt) == "bf16" ? "0x66" : "0xaa");  // the dtype codes, 4 bits each
  line.replace(line.find("{ACC}"), 5, acc);
  return line;
}

/// 0x9D: y = x0 * 0.75 + x1; the accumulating form also sums y into each partition's accumulator.
void BM_VecSttFp32(benchmark::State& state) {
  run_line(state, stt("fp32", "IDLE"), 4);
}
BENCHMARK(BM_VecSttFp32);
void BM_VecSttAccumulateFp32(benchmark::State& state) {
  run_line(state, stt("fp32", "ZERO_ACCUMULATE"), 4);
}
BENCHMARK(BM_VecSttAccumulateFp32);
void BM_VecSttBf16(benchmark::State& state) {
  run_line(state, stt("bf16", "IDLE"), 2);
}
BENCHMARK(BM_VecSttBf16);

/// 0x42: the maximum of each row (the ADD forms are in reduce_bench.cpp).
void BM_VecReduceMaxFp32(benchmark::State& state) {
  run_line(state,
           "TensorReduceArithOp src.start_addr=sbuf[p0]+0x0 src.step_elem={1,1,1,1} src.num_elem={{N},1,1,1} "
           "in_dtype=fp32 out_dtype=fp32 num_active_channels=128 op=MAX op_dim=X dst.start_addr=sbuf[p0]+0x8000 "
           "dst.step_elem={1,1,1,1} dst.num_elem={1,1,1,1}",
           4);
}
BENCHMARK(BM_VecReduceMaxFp32);

/// 0x72: every fp32 element copied under a u8 predicate of 1.
void BM_VecCopyPredicatedFp32(benchmark::State& state) {
  run_line(state,
           "CopyPredicated in0_in1_dtype={u8,fp32} out_dtype=fp32 op=BYPASS num_active_channels=128 "
           "src0.start_addr=sbuf[p0]+0xc000 src0.step_elem={1,0,0} src0.num_elem={{N},1,1} "
           "src1.start_addr=sbuf[p0]+0x0 src1.step_elem={1,0,0} src1.num_elem={{N},1,1} "
           "dst.start_addr=sbuf[p0]+0x8000 dst.step_elem={1,0,0} dst.num_elem={{N},1,1}",
           4);
}
BENCHMARK(BM_VecCopyPredicatedFp32);

}  // namespace
}  // namespace tpbisa::vector_bench
