// The PE Matmul kernel's multiply-accumulate rate against OpenBLAS sgemm on one thread, at the same shapes and
// in the same run (the ratio is a counter of one benchmark, so machine noise affects both sides alike).
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <unistd.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/matmul.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/numerics.hpp"

namespace {

// ---- the baseline's kernel: never a generic fallback on a CPU that supports a wider one ----

/// The widest vector extension of an OpenBLAS x86-64 kernel name: 0 SSE (and any name not listed), 1 AVX,
/// 2 AVX2/FMA, 3 AVX-512 (bench/openblas_kernel.py holds the same table for NumPy).
int kernel_width(std::string_view name) {
  for (const std::string_view n : {"SkylakeX", "Cooperlake", "SapphireRapids"})
    if (name == n) return 3;
  if (name == "Haswell" || name == "Zen") return 2;
  for (const std::string_view n : {"Sandybridge", "Bulldozer", "Piledriver", "Steamroller", "Excavator"})
    if (name == n) return 1;
  return 0;
}

/// The widest kernel this CPU's flags (/proc/cpuinfo) support and its width; {"", 0} for SSE only.
std::pair<std::string, int> best_kernel() {
  std::ifstream in("/proc/cpuinfo");
  std::set<std::string> flags;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("flags", 0) == 0) {
      std::istringstream words(line.substr(line.find(':') + 1));
      for (std::string f; words >> f;) flags.insert(f);
      break;
    }
  const auto has = [&](const char* f) { return flags.count(f) != 0; };
  if (has("avx512f") && has("avx512bw") && has("avx512dq") && has("avx512vl"))
    return {has("avx512_bf16") ? "Cooperlake" : "SkylakeX", 3};
  if (has("avx2") && has("fma")) return {"Haswell", 2};
  if (has("avx")) return {"Sandybridge", 1};
  return {"", 0};
}

/// OpenBLAS picks its kernel when it is loaded, before main: when that kernel is narrower than the CPU supports
/// (Debian's 0.3.21 takes some AVX-512 CPUs for a Prescott, eight times slower), the suite runs itself again with
/// OPENBLAS_CORETYPE naming the right one. Once only: a pinned run that still reports a narrow kernel goes on.
[[maybe_unused]] const bool kKernelPinned = [] {
  const char* name = openblas_get_corename();
  const auto [best, width] = best_kernel();
  if (name == nullptr || kernel_width(name) >= width || std::getenv("TPBISA_BENCH_OPENBLAS_PINNED") != nullptr)
    return false;
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  for (std::string a; std::getline(cmdline, a, '\0');) args.push_back(a);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fprintf(stderr, "OpenBLAS picked the %s kernel on a CPU that supports %s: running with OPENBLAS_CORETYPE=%s\n",
               name, best.c_str(), best.c_str());
  setenv("OPENBLAS_CORETYPE", best.c_str(), 1);
  setenv("TPBISA_BENCH_OPENBLAS_PINNED", "1", 1);
  execv("/proc/self/exe", argv.data());
  return false;  // not run again: go on with the kernel there is (its name is in every label)
}();

using tpbisa::kernels::matmul_f32;
using tpbisa::kernels::matmul_f32_generic;

// One Matmul's operands: w is K x M (stationary), x is K x N (moving), out M x N; FP16-representable values.
struct Operands {
  size_t K, M, N;
  std::vector<float> w, x, out;
  Operands(size_t k, size_t m, size_t n) : K(k), M(m), N(n), w(k * m), x(k * n), out(m * n) {
    std::mt19937 rng(42);
    auto fp16 = [&rng] {
      const auto code = static_cast<uint32_t>(rng() % 0x5C00U) | (rng() % 2 == 0 ? 0U : 0x8000U);
      return std::bit_cast<float>(tpbisa::to_fp32_bits(code, tpbisa::dtype::kFp16));
    };
    for (float& v : w) v = fp16();
    for (float& v : x) v = fp16();
  }
  void ours() { matmul_f32(w.data(), M, x.data(), N, out.data(), N, K, M, N, false); }
  void generic() { matmul_f32_generic(w.data(), M, x.data(), N, out.data(), N, K, M, N, false); }
  // out = w^T x: w is row-major K x M, so it is the transposed operand with leading dimension M.
  void openblas() {
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, static_cast<int>(M), static_cast<int>(N), static_cast<int>(K),
                1.0F, w.data(), static_cast<int>(M), x.data(), static_cast<int>(N), 0.0F, out.data(),
                static_cast<int>(N));
  }
  double macs() const { return static_cast<double>(K) * static_cast<double>(M) * static_cast<double>(N); }
};

// CPU time of this thread (OpenBLAS on one thread computes in the caller): on a shared machine a wall clock
// would also count the time other processes held the core.
double thread_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

template <class F>
double seconds(F&& f) {
  const double t0 = thread_seconds();
  f();
  benchmark::ClobberMemory();
  return thread_seconds() - t0;
}

// Each iteration runs OpenBLAS, the fused kernel (FP16/BF16/FP8 operands) and the unfused one (FP32 operands)
// once on the same operands; the counters are the three MAC rates and the kernels' ratios to OpenBLAS.
// `rank` 0 is the host's best SIMD target; 1 the next one (AVX2 on an AVX-512 host), for a like-for-like
// comparison when OpenBLAS picked a narrower kernel for this CPU (its core name is in the label).
void matmul_vs_openblas(benchmark::State& state, size_t rank) {
  int64_t targets[16] = {};
  const size_t count = tpbisa::kernels::simd_targets(targets, 16);
  if (rank >= count) {
    state.SkipWithError("the host has no such SIMD target");
    return;
  }
  tpbisa::kernels::force_simd_target(rank == 0 ? 0 : targets[rank]);
  openblas_set_num_threads(1);
  Operands op(static_cast<size_t>(state.range(0)), static_cast<size_t>(state.range(1)),
              static_cast<size_t>(state.range(2)));
  op.openblas();  // warm caches and the dispatch
  op.ours();
  double t_blas = 0, t_ours = 0, t_generic = 0;
  for (auto _ : state) {
    t_blas += seconds([&] { op.openblas(); });
    t_ours += seconds([&] { op.ours(); });
    t_generic += seconds([&] { op.generic(); });
  }
  const double n = static_cast<double>(state.iterations()) * op.macs();
  state.counters["openblas_MACps"] = benchmark::Counter(n / t_blas);
  state.counters["tpbisa_MACps"] = benchmark::Counter(n / t_ours);
  state.counters["generic_MACps"] = benchmark::Counter(n / t_generic);
  state.counters["ratio"] = benchmark::Counter(t_blas / t_ours);
  state.counters["generic_ratio"] = benchmark::Counter(t_blas / t_generic);
  state.SetLabel(std::string("tpbisa ") + tpbisa::kernels::simd_target_name() + ", OpenBLAS " +
                 openblas_get_corename());
  tpbisa::kernels::force_simd_target(0);
}
void BM_MatmulVsOpenBlas(benchmark::State& state) {
  matmul_vs_openblas(state, 0);
}
void BM_MatmulVsOpenBlasNextTarget(benchmark::State& state) {
  matmul_vs_openblas(state, 1);
}
// One real Matmul (128 PE rows, 128 columns, 512 moving elements), and a large square product.
BENCHMARK(BM_MatmulVsOpenBlas)->Args({128, 128, 512})->Args({1024, 1024, 1024})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatmulVsOpenBlasNextTarget)
    ->Args({128, 128, 512})
    ->Args({1024, 1024, 1024})
    ->Unit(benchmark::kMillisecond);

// The kernel alone at the real shape, for its bare time.
void BM_MatmulKernel(benchmark::State& state) {
  Operands op(128, 128, 512);
  for (auto _ : state) {
    op.ours();
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(static_cast<double>(state.iterations()) * op.macs()));
}
BENCHMARK(BM_MatmulKernel)->Unit(benchmark::kMicrosecond);

}  // namespace
