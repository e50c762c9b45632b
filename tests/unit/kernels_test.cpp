// The PE product kernels, the row conversions and the PtrMulti rows against their scalar definitions, on every SIMD
// target the host supports: bit for bit over many shapes, strides and special values; the FMA-exactness claim checked.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "kernels/alu_row.hpp"
#include "kernels/convert.hpp"
#include "kernels/index_row.hpp"
#include "kernels/matmul.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/numerics.hpp"

// Counts allocations while armed, so a test can show that a kernel call allocates nothing. The replacements pair
// malloc with free; g++ cannot see that through inlined new-expressions elsewhere in this file.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
#if !defined(TPBISA_ASAN)  // AddressSanitizer owns operator new; the count is taken in the plain builds
namespace {
thread_local bool g_count_allocations = false;
thread_local size_t g_allocations = 0;
}  // namespace

void* operator new(size_t size) {
  if (g_count_allocations) ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t size) {
  return ::operator new(size);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, size_t) noexcept {
  std::free(p);
}
#endif

namespace tpbisa::kernels {
namespace {

float f32(uint32_t bits) {
  return std::bit_cast<float>(bits);
}
uint32_t bits(float v) {
  return std::bit_cast<uint32_t>(v);
}
bool quiet_nan(uint32_t b) {
  return (b & 0x7FC00000U) == 0x7FC00000U;
}
// The kernels' contract: the same bits, except that a NaN result is any quiet NaN (PROJ-CONV-N17).
bool same_result(float got, float want) {
  if (std::isnan(want)) return quiet_nan(bits(got));
  return bits(got) == bits(want);
}

// Every SIMD target this build has and the host supports; each test runs its body once per target.
std::vector<int64_t> targets() {
  std::vector<int64_t> t(16);
  t.resize(simd_targets(t.data(), t.size()));
  return t;
}
class PerTarget {
 public:
  explicit PerTarget(int64_t target) { force_simd_target(target); }
  ~PerTarget() { force_simd_target(0); }
  PerTarget(const PerTarget&) = delete;
  PerTarget& operator=(const PerTarget&) = delete;
};

TEST(KernelsDispatch, EveryTargetIsSelectableAndTheBestIsTheDefault) {
  const auto all = targets();
  ASSERT_FALSE(all.empty());
  const std::string best = simd_target_name();
  std::vector<std::string> names;
  for (const int64_t t : all) {
    const PerTarget scope(t);
    names.emplace_back(simd_target_name());
    for (size_t i = 0; i + 1 < names.size(); ++i) EXPECT_NE(names[i], names.back());
  }
  EXPECT_EQ(names.front(), best);
  EXPECT_EQ(std::string(simd_target_name()), best);  // restored
}

// ---- operands ----

enum class Kind { Fp16, Bf16, Fp32 };

// A random operand value of the kind; `specials` in 1/64 of the draws gives ±0, ±Inf or a NaN (with payload).
float draw(Kind kind, std::mt19937& rng, bool specials) {
  if (specials && rng() % 64 == 0) {
    switch (rng() % 5) {
      case 0: return f32(0x80000000U);
      case 1: return 0.0F;
      case 2: return f32(rng() % 2 == 0 ? 0x7F800000U : 0xFF800000U);
      case 3: return f32(to_fp32_bits(0x7C01U + rng() % 0x3FF, dtype::kFp16));
      default: return f32(to_fp32_bits(0xFF81U + rng() % 0x7F, dtype::kBfloat16));
    }
  }
  const auto r = static_cast<uint32_t>(rng());
  switch (kind) {
    case Kind::Fp16: {
      // Any finite FP16 pattern up to 2^8 in magnitude, subnormals included (larger ones make every sum Inf).
      uint32_t code = r & 0x7FFFU;
      code %= 0x5C00U;  // exponent fields 0 .. 22
      return f32(to_fp32_bits(code | (r & 0x80000000U ? 0x8000U : 0U), dtype::kFp16));
    }
    case Kind::Bf16: {
      // BF16 magnitudes in [2^-40, 2^24): inside fma_exact_operands' range.
      const uint32_t exp = 87 + (r >> 8) % 64;
      const uint32_t code = ((r >> 31) << 15) | (exp << 7) | (r & 0x7FU);
      return f32(to_fp32_bits(code, dtype::kBfloat16));
    }
    case Kind::Fp32: {
      const uint32_t exp = 100 + (r >> 23) % 40;
      return f32((r & 0x807FFFFFU) | (exp << 23));
    }
  }
  return 0.0F;
}

struct Shape {
  size_t K, M, N, ldw, ldx, ldo;
};

// Runs `kernel` and the reference on one shape and returns the number of elements (inside and outside the
// written region) whose bits differ per same_result.
template <class Kernel>
size_t differences(Kernel kernel, const Shape& s, Kind kind, bool specials, bool accumulate, std::mt19937& rng) {
  // Exactly sized buffers, so a sanitizer build sees any read or write past the last row.
  std::vector<float> w((s.K - 1) * s.ldw + s.M), x((s.K - 1) * s.ldx + s.N);
  std::vector<float> out((s.M - 1) * s.ldo + s.N);
  for (float& v : w) v = draw(kind, rng, specials);
  for (float& v : x) v = draw(kind, rng, specials);
  for (float& v : out) v = draw(Kind::Fp32, rng, false);
  std::vector<float> want = out;
  matmul_f32_reference(w.data(), s.ldw, x.data(), s.ldx, want.data(), s.ldo, s.K, s.M, s.N, accumulate);
  kernel(w.data(), s.ldw, x.data(), s.ldx, out.data(), s.ldo, s.K, s.M, s.N, accumulate);
  size_t diff = 0;
  for (size_t i = 0; i < out.size(); ++i) diff += same_result(out[i], want[i]) ? 0 : 1;
  return diff;
}

// Shapes: every corner of the register blocking (1..9 rows, each tail width of columns), the real Matmul
// (128 x 128 x 512), the largest sizes (130 / 130 / 600), and random ones; strides are odd or padded.
// Under the sanitizers the kernels' memory accesses are what is checked: the blocking corners and small random
// shapes reach every tail and edge; the large shapes (most of the multiply-adds) only add time there.
#if defined(TPBISA_ASAN)
constexpr bool kLargeShapes = false;
#else
constexpr bool kLargeShapes = true;
#endif

std::vector<Shape> shapes(std::mt19937& rng) {
  std::vector<Shape> list;
  const size_t ks[] = {1, 2, 3, 17, 130};
  const size_t ms[] = {1, 2, 3, 4, 5, 7, 8, 9, 13, 17, 130};
  const size_t ns[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 47, 48, 49, 63, 65, 97, 600};
  for (const size_t k : ks)
    for (const size_t m : ms)
      for (const size_t n : ns) {
        const bool largest = k == 130 && m == 130 && n == 600;
        if (k * m * n > (kLargeShapes ? 100000U : 20000U) && !(largest && kLargeShapes)) continue;  // keep it quick
        const size_t pad = (k + m + n) % 3 == 0 ? 0 : 1 + (k * 7 + n) % 5;
        list.push_back({k, m, n, m + pad, n + (pad == 0 ? 0 : pad + 2), n + (pad == 0 ? 0 : 2 * pad + 1)});
      }
  if (kLargeShapes) list.push_back({128, 128, 512, 128, 512, 512});
  // Deep contractions, past the packed strip's run of k on every target (170, 512 and 1024 rows: the runs resume
  // the stored sums), and a power-of-two stride as in a 1024-column tile.
  for (const size_t k : {171, 513, 1025}) list.push_back({k, 7, 97, 8, 100, 102});
  list.push_back({300, 13, 64, 1024, 1024, 64});
  const size_t max_k = kLargeShapes ? 130 : 33, max_m = kLargeShapes ? 130 : 33, max_n = kLargeShapes ? 600 : 100;
  for (int i = 0; i < 40; ++i) {
    const size_t k = 1 + rng() % max_k, m = 1 + rng() % max_m, n = 1 + rng() % max_n;
    list.push_back({k, m, n, m + rng() % 4, n + rng() % 9, n + rng() % 9});
  }
  return list;
}

void check_kernel_equals_reference(Kind kind, bool use_generic) {
  for (const int64_t t : targets()) {
    const PerTarget scope(t);
    std::mt19937 rng(1234);
    size_t cases = 0;
    for (const Shape& s : shapes(rng))
      for (const bool accumulate : {false, true})
        for (const bool specials : {false, true}) {
          if (s.K * s.M * s.N > 1000000 && specials != accumulate) continue;  // the largest only twice
          const size_t d = use_generic ? differences(matmul_f32_generic, s, kind, specials, accumulate, rng)
                                       : differences(matmul_f32, s, kind, specials, accumulate, rng);
          ++cases;
          ASSERT_EQ(d, 0U) << simd_target_name() << " K=" << s.K << " M=" << s.M << " N=" << s.N << " ldw=" << s.ldw
                           << " ldx=" << s.ldx << " ldo=" << s.ldo << " accumulate=" << accumulate
                           << " specials=" << specials;
        }
    EXPECT_GT(cases, 500U);
  }
}

TEST(KernelsMatmul, Fp16OperandsEqualTheReference) {
  check_kernel_equals_reference(Kind::Fp16, false);
}

TEST(KernelsMatmul, Bf16OperandsEqualTheReference) {
  check_kernel_equals_reference(Kind::Bf16, false);
}

TEST(KernelsMatmul, GenericEqualsTheReferenceForAnyFp32Operands) {
  check_kernel_equals_reference(Kind::Fp32, true);
}

TEST(KernelsMatmul, OperandsOfTheTestsPassTheFmaCheck) {
  std::mt19937 rng(7);
  std::vector<float> v(4096);
  for (const Kind kind : {Kind::Fp16, Kind::Bf16}) {
    for (float& e : v) e = draw(kind, rng, true);
    EXPECT_TRUE(fma_exact_operands(v.data(), 64, 64, 64));
  }
  for (float& e : v) e = draw(Kind::Fp32, rng, false);
  EXPECT_FALSE(fma_exact_operands(v.data(), 64, 64, 64));
}

// The tile's padding columns are neither read into the result nor written.
TEST(KernelsMatmul, WritesOnlyTheTile) {
  for (const int64_t t : targets()) {
    const PerTarget scope(t);
    const size_t K = 5, M = 11, N = 37, ld = 45;
    std::vector<float> w(K * ld, 1.0F), x(K * ld, 2.0F), out(M * ld, -7.0F);
    for (size_t k = 0; k < K; ++k)
      for (size_t c = M; c < ld; ++c) w[k * ld + c] = std::numeric_limits<float>::quiet_NaN();
    for (size_t k = 0; k < K; ++k)
      for (size_t c = N; c < ld; ++c) x[k * ld + c] = std::numeric_limits<float>::quiet_NaN();
    matmul_f32(w.data(), ld, x.data(), ld, out.data(), ld, K, M, N, true);
    for (size_t m = 0; m < M; ++m)
      for (size_t c = 0; c < ld; ++c) ASSERT_EQ(out[m * ld + c], c < N ? 3.0F : -7.0F) << m << "," << c;
  }
}

// Moving and output rows anywhere (matmul_f32_rows, matmul_f32_generic_rows: reversed, unevenly spaced, from a
// column offset) give the reference's sums (a NaN as some NaN), accumulated and not, on every target; the output
// columns outside [col, col + N) stay.
TEST(KernelsMatmul, RowPointersEqualTheReference) {
  std::mt19937 rng(11);
  const size_t K = 40, M = 13, N = 45, col = 3, width = 53, pitch = width + 7;
  std::vector<float> w(K * M), x(K * N), x_space(K * pitch, 9.0F);
  for (float& e : w) e = draw(Kind::Bf16, rng, true);
  for (float& e : x) e = draw(Kind::Bf16, rng, true);
  std::vector<const float*> x_rows(K);
  for (size_t k = 0; k < K; ++k) {
    float* row = x_space.data() + (K - 1 - k) * pitch + k % 7;  // reversed, unevenly spaced
    for (size_t n = 0; n < N; ++n) row[col + n] = x[k * N + n];
    x_rows[k] = row;
  }
  for (const int64_t t : targets()) {
    const PerTarget scope(t);
    for (const bool generic : {false, true})
      for (const bool accumulate : {false, true}) {
        std::vector<float> space(M * pitch, 5.0F), want(M * N, 5.0F);
        std::vector<float*> rows(M);
        for (size_t m = 0; m < M; ++m) rows[m] = space.data() + (M - 1 - m) * pitch + m % 7;
        matmul_f32_reference(w.data(), M, x.data(), N, want.data(), N, K, M, N, accumulate);
        if (generic)
          matmul_f32_generic_rows(w.data(), M, x_rows.data(), rows.data(), col, K, M, N, accumulate);
        else
          matmul_f32_rows(w.data(), M, x_rows.data(), rows.data(), col, K, M, N, accumulate);
        for (size_t m = 0; m < M; ++m)
          for (size_t c = 0; c < width; ++c) {
            const float expected = c >= col && c < col + N ? want[m * N + c - col] : 5.0F;
            if (std::isnan(expected)) {  // some quiet NaN (PROJ-CONV-N17)
              ASSERT_TRUE(std::isnan(rows[m][c])) << m << "," << c;
              continue;
            }
            ASSERT_EQ(std::bit_cast<uint32_t>(rows[m][c]), std::bit_cast<uint32_t>(expected))
                << m << "," << c << " generic " << generic << " accumulate " << accumulate;
          }
      }
  }
}

// K = 0: every sum is +0.0, so an accumulate turns a -0.0 element into +0.0, as the reference does.
TEST(KernelsMatmul, ZeroDepth) {
  for (const int64_t t : targets()) {
    const PerTarget scope(t);
    const float none = 0.0F;
    for (const bool accumulate : {false, true}) {
      std::vector<float> out(3 * 21, -0.0F), want = out;
      out[5] = want[5] = 2.5F;
      matmul_f32(&none, 3, &none, 21, out.data(), 21, 0, 3, 21, accumulate);
      matmul_f32_reference(&none, 3, &none, 21, want.data(), 21, 0, 3, 21, accumulate);
      for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(bits(out[i]), bits(want[i])) << i;
      EXPECT_EQ(bits(out[0]), 0U);
      EXPECT_EQ(out[5], accumulate ? 2.5F : 0.0F);
    }
  }
}

#if !defined(TPBISA_ASAN)
TEST(KernelsMatmul, AllocatesNothing) {
  std::vector<float> w(128 * 128, 0.5F), x(128 * 600, 0.25F), out(128 * 600);
  std::vector<uint16_t> h(600);
  matmul_f32(w.data(), 128, x.data(), 600, out.data(), 600, 128, 128, 600, false);  // dispatch initialised
  g_allocations = 0;
  g_count_allocations = true;
  matmul_f32(w.data(), 128, x.data(), 600, out.data(), 600, 128, 128, 600, true);
  matmul_f32_generic(w.data(), 128, x.data(), 600, out.data(), 600, 128, 128, 600, true);
  fp32_to_fp16(out.data(), h.data(), h.size());
  fp16_to_fp32(h.data(), out.data(), h.size());
  g_count_allocations = false;
  EXPECT_EQ(g_allocations, 0U);
  EXPECT_EQ(out[0], 48.0F);  // 16, accumulated twice, and back through FP16 unchanged
}
#endif

// ---- MAX8's slots ----

// max8_update against the rule written out here (§15.3, PROJ-CONV-A27) on every target: rows of few distinct values
// (ties), both zeros, infinities and NaNs, rising and falling runs, every length up to three vectors and long rows,
// from the reset slots and from slots already holding values; the slots compared as bits (+0 and -0 kept apart).
TEST(KernelsMax8, EqualsTheRuleOnEveryTarget) {
  const auto model = [](const std::vector<float>& x, std::array<uint32_t, 8> top) {
    for (const float e : x) {
      if (!(e > std::bit_cast<float>(top[7]))) continue;
      unsigned p = 0;
      while (!(e > std::bit_cast<float>(top[p]))) ++p;
      for (unsigned q = 7; q > p; --q) top[q] = top[q - 1];
      top[p] = std::bit_cast<uint32_t>(e);
    }
    return top;
  };
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float pool[] = {0.0F, -0.0F, 1.0F, -1.0F, 2.5F, inf, -inf, nan, 3.0F, 1e-45F, -2.0F, 7.0F};
  for (const int64_t t : targets()) {
    const PerTarget scope(t);
    std::mt19937 rng(99);
    for (int round = 0; round < 3000; ++round) {
      const size_t n = round < 40 ? static_cast<size_t>(round) : 1 + rng() % (round % 10 == 0 ? 3000 : 40);
      std::vector<float> x(n);
      const int kind = round % 4;
      for (size_t i = 0; i < n; ++i)
        x[i] = kind == 0   ? pool[rng() % std::size(pool)]
               : kind == 1 ? static_cast<float>((i * 131 + static_cast<size_t>(round)) % 97) * 0.5F
               : kind == 2 ? static_cast<float>(n - i) - static_cast<float>(rng() % 3)
                           : std::bit_cast<float>(static_cast<uint32_t>(rng()));
      std::array<uint32_t, 8> top;
      top.fill(std::bit_cast<uint32_t>(-inf));
      if (round % 3 == 1) top = model({9.0F, 4.0F, 4.0F, 0.0F, -0.0F, -3.0F}, top);
      const std::array<uint32_t, 8> want = model(x, top);
      max8_update(x.data(), n, top.data());
      ASSERT_EQ(top, want) << simd_target_name() << " round " << round << " n " << n;
    }
  }
}

TEST(KernelsSelections, EqualsTheRuleOnEveryTarget) {
  // The rule of PROJ-CONV-F18, a row at a time: a column is a selection while it holds exactly one 1.0 and every other
  // entry is +0 or -0.
  const auto model = [](const std::vector<uint32_t>& x, int32_t row, std::vector<int32_t> sel) {
    for (size_t i = 0; i < x.size(); ++i) {
      if (x[i] == 0x3F800000U) {
        sel[i] = sel[i] == -1 ? row : -2;
      } else if (x[i] != 0 && x[i] != 0x80000000U) {
        sel[i] = -2;
      }
    }
    return sel;
  };
  const uint32_t pool[] = {0x3F800000U, 0,           0x80000000U, 0xBF800000U,
                           0x3F800001U, 0x7FC00000U, 0x00000001U, 0x40000000U};
  for (const int64_t t : targets()) {
    const PerTarget scope(t);
    std::mt19937 rng(5);
    for (int round = 0; round < 2000; ++round) {
      const size_t n = static_cast<size_t>(round % 70);
      std::vector<uint32_t> x(n);
      std::vector<int32_t> sel(n);
      for (size_t i = 0; i < n; ++i) {
        x[i] = rng() % 3 == 0 ? pool[rng() % std::size(pool)] : (rng() % 2 == 0 ? 0U : 0x3F800000U);
        sel[i] = static_cast<int32_t>(rng() % 4) - 2;  // -2, -1, 0 or 1: any state a column may be in
      }
      const int32_t row = static_cast<int32_t>(rng() % 128);
      const std::vector<int32_t> want = model(x, row, sel);
      note_selection_row(x.data(), row, n, sel.data());
      ASSERT_EQ(sel, want) << simd_target_name() << " round " << round;
    }
  }
}

TEST(KernelsSelections, GatheredRowsEqualTheRuleOnEveryTarget) {
  // Output row i of a group, element n: the selected row's element i, written out here element by element.
  constexpr size_t kLd = 128;
  std::mt19937 rng(23);
  std::vector<uint32_t> w(kLd * kLd);
  for (uint32_t& v : w) v = static_cast<uint32_t>(rng());
  for (const int64_t t : targets()) {
    const PerTarget scope(t);
    for (int round = 0; round < 300; ++round) {
      const size_t n = round % 3 == 0 ? 128 : static_cast<size_t>(round % 70);
      const unsigned g = round % 4 == 3 ? 1 + static_cast<unsigned>(rng() % 7) : 8;
      const size_t first = rng() % (kLd - g + 1);  // the group's first column
      std::vector<int32_t> sel(n);
      for (int32_t& v : sel) v = static_cast<int32_t>(rng() % kLd);
      if (round % 5 == 0)
        for (size_t k = 0; k < n; ++k) sel[k] = static_cast<int32_t>(k);  // the identity, as a PE transpose has
      std::vector<uint32_t> want(g * n), got(g * n, 0xDEADBEEFU);
      for (unsigned i = 0; i < g; ++i)
        for (size_t k = 0; k < n; ++k) want[i * n + k] = w[static_cast<size_t>(sel[k]) * kLd + first + i];
      gather_selection_rows(w.data() + first, kLd, sel.data(), n, g, got.data());
      ASSERT_EQ(got, want) << simd_target_name() << " round " << round << " n " << n << " g " << g;
    }
  }
}

TEST(KernelsWiden, EqualsTheBytesOnEveryTarget) {
  std::mt19937 rng(17);
  std::vector<uint8_t> bytes(4 * 300 + 3);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  for (const int64_t t : targets()) {
    const PerTarget scope(t);
    for (const unsigned size : {1U, 2U, 4U})
      for (const bool reversed : {false, true})
        for (const size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{16}, size_t{128}, size_t{300}})
          for (const size_t at : {size_t{0}, size_t{1}, size_t{3}}) {  // rows need not be aligned
            std::vector<uint32_t> out(n + 1, 0xDEADBEEFU);
            widen_elements(bytes.data() + at, size, n, reversed, out.data());
            for (size_t j = 0; j < n; ++j) {
              const size_t e = reversed ? n - 1 - j : j;
              uint32_t want = 0;
              for (unsigned b = 0; b < size; ++b) want |= uint32_t{bytes[at + e * size + b]} << (8 * b);
              ASSERT_EQ(out[j], want) << simd_target_name() << " size " << size << " n " << n << " j " << j;
            }
            ASSERT_EQ(out[n], 0xDEADBEEFU) << "written past the row";
          }
  }
}

// ---- the FMA claim: for FP16 and in-range BF16 operands, fma(w, x, acc) == acc + w*x for every acc ----

float separate(float w, float x, float acc) {
  const volatile float product = w * x;  // a separate rounding, whatever the compiler's contraction setting
  return acc + product;
}

TEST(KernelsFmaClaim, Fp16ProductsAreExactSoFmaEqualsMultiplyThenAdd) {
  std::mt19937 rng(99);
  size_t checked = 0;
  for (uint32_t wc = 0; wc < 0x10000U; ++wc) {
    const float w = f32(to_fp32_bits(wc, dtype::kFp16));
    if (!std::isfinite(w)) continue;
    for (int i = 0; i < 24; ++i) {
      const float x = f32(to_fp32_bits(rng() & 0xFFFFU, dtype::kFp16));
      const float acc = f32(static_cast<uint32_t>(rng()));
      if (std::isfinite(x)) {
        ASSERT_EQ(static_cast<double>(w * x), static_cast<double>(w) * static_cast<double>(x)) << wc;
      }
      ASSERT_TRUE(same_result(std::fma(w, x, acc), separate(w, x, acc))) << w << " " << x << " " << acc;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000000U);
}

TEST(KernelsFmaClaim, Bf16ProductsInRangeAreExactSoFmaEqualsMultiplyThenAdd) {
  std::mt19937 rng(98);
  size_t checked = 0;
  for (uint32_t wc = 0; wc < 0x10000U; ++wc) {
    const float w = f32(to_fp32_bits(wc, dtype::kBfloat16));
    if (!fma_exact_operands(&w, 1, 1, 1)) continue;
    for (int i = 0; i < 24; ++i) {
      float x = 0.0F;
      do x = f32(to_fp32_bits(rng() & 0xFFFFU, dtype::kBfloat16));
      while (!fma_exact_operands(&x, 1, 1, 1));
      const float acc = f32(static_cast<uint32_t>(rng()));
      if (std::isfinite(w) && std::isfinite(x)) {
        ASSERT_EQ(static_cast<double>(w * x), static_cast<double>(w) * static_cast<double>(x)) << wc;
      }
      ASSERT_TRUE(same_result(std::fma(w, x, acc), separate(w, x, acc))) << w << " " << x << " " << acc;
      ++checked;
    }
  }
  EXPECT_GT(checked, 780000U);  // 24 draws for each of the 32,770 patterns in range (127 binades, ±0, ±Inf, NaNs)
}

TEST(KernelsFmaClaim, EveryFp16ValuePassesTheCheck) {
  for (uint32_t c = 0; c < 0x10000U; ++c) {
    const float v = f32(to_fp32_bits(c, dtype::kFp16));
    ASSERT_TRUE(fma_exact_operands(&v, 1, 1, 1)) << c;
  }
}

// The three ways a product stops being exact, each a Matmul whose fused result is not the reference's. These
// are why matmul_f32 needs fma_exact_operands (or FP16/FP8 operands) and FP32 operands take matmul_f32_generic.
struct Counterexample {
  const char* what;
  float w[2], x[2];  // K = 2, M = N = 1
  float reference, fused;
};
const Counterexample kCounterexamples[] = {
    // FP32: (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 rounds (tie, even) to 1 + 2^-11 before the add.
    {"fp32 product rounds", {-(1.0F + 0x1p-11F), 1.0F + 0x1p-12F}, {1.0F, 1.0F + 0x1p-12F}, 0.0F, 0x1p-24F},
    // BF16 overflow: 2^64 * 2^64 = 2^128 is Inf alone, but fused with -1.5 * 2^127 it is 2^126.
    {"bf16 product overflows",
     {-0x1.8p63F, 0x1p64F},
     {0x1p64F, 0x1p64F},
     std::numeric_limits<float>::infinity(),
     0x1p126F},
};

TEST(KernelsFmaClaim, FailsForGenericFp32AndOutOfRangeBf16) {
  // Two-term sums.
  for (const Counterexample& c : kCounterexamples) {
    EXPECT_FALSE(fma_exact_operands(c.w, 1, 2, 1) && fma_exact_operands(c.x, 1, 2, 1)) << c.what;
    float ref = 0.0F;
    matmul_f32_reference(c.w, 1, c.x, 1, &ref, 1, 2, 1, 1, false);
    EXPECT_EQ(bits(ref), bits(c.reference)) << c.what;
    EXPECT_EQ(bits(std::fma(c.w[1], c.x[1], c.w[0] * c.x[0])), bits(c.fused)) << c.what;
    float gen = 1.0F;
    matmul_f32_generic(c.w, 1, c.x, 1, &gen, 1, 2, 1, 1, false);
    EXPECT_EQ(bits(gen), bits(c.reference)) << c.what;
    float fused = 1.0F;
    matmul_f32(c.w, 1, c.x, 1, &fused, 1, 2, 1, 1, false);
    EXPECT_EQ(bits(fused), bits(matmul_f32_fuses() ? c.fused : c.reference)) << c.what << " " << simd_target_name();
  }
  // BF16 underflow, three terms: 2^-125 + 2^-148 (odd last bit), then 0.75 * 2^-149.
  const float w[3] = {0x1p-63F, 0x1p-74F, 0x1.8p-75F};
  const float x[3] = {0x1p-62F, 0x1p-74F, 0x1p-75F};
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ((bits(w[i]) | bits(x[i])) & 0xFFFFU, 0U);  // all BF16 values
  EXPECT_FALSE(fma_exact_operands(w, 1, 3, 1));
  const float acc = 0x1p-125F + 0x1p-148F;
  EXPECT_EQ(bits(acc), bits(0x1p-63F * 0x1p-62F + 0x1p-74F * 0x1p-74F));
  const float want_separate = 0x1p-125F + 0x1p-147F, want_fused = acc;
  EXPECT_EQ(bits(separate(w[2], x[2], acc)), bits(want_separate));
  EXPECT_EQ(bits(std::fma(w[2], x[2], acc)), bits(want_fused));
  float ref = 0.0F, fused = 0.0F, gen = 0.0F;
  matmul_f32_reference(w, 1, x, 1, &ref, 1, 3, 1, 1, false);
  matmul_f32(w, 1, x, 1, &fused, 1, 3, 1, 1, false);
  matmul_f32_generic(w, 1, x, 1, &gen, 1, 3, 1, 1, false);
  EXPECT_EQ(bits(ref), bits(want_separate));
  EXPECT_EQ(bits(gen), bits(want_separate));
  EXPECT_EQ(bits(fused), bits(matmul_f32_fuses() ? want_fused : want_separate)) << simd_target_name();
}

// On random FP32 operands the fused kernel really differs from the reference (on a fusing target), while the
// generic one never does.
TEST(KernelsFmaClaim, FusedKernelDiffersOnRandomFp32) {
  for (const int64_t t : targets()) {
    const PerTarget scope(t);
    std::mt19937 rng(5);
    const Shape s{64, 16, 48, 16, 48, 48};
    const size_t fused = differences(matmul_f32, s, Kind::Fp32, false, false, rng);
    const size_t generic = differences(matmul_f32_generic, s, Kind::Fp32, false, false, rng);
    if (matmul_f32_fuses())
      EXPECT_GT(fused, 100U) << simd_target_name();
    else
      EXPECT_EQ(fused, 0U) << simd_target_name();
    EXPECT_EQ(generic, 0U) << simd_target_name();
  }
}

// ---- conversions, against to_fp32_bits / from_fp32_bits ----

TEST(KernelsConvert, EverySixteenBitPatternWidens) {
  std::vector<uint16_t> in(0x10000);
  for (uint32_t i = 0; i < 0x10000U; ++i) in[i] = static_cast<uint16_t>(i);
  std::vector<float> out(in.size());
  for (const int64_t t : targets()) {
    const PerTarget scope(t);
    for (const uint8_t dt : {dtype::kFp16, dtype::kBfloat16}) {
      (dt == dtype::kFp16 ? fp16_to_fp32 : bf16_to_fp32)(in.data(), out.data(), in.size());
      for (uint32_t i = 0; i < 0x10000U; ++i)
        ASSERT_EQ(bits(out[i]), to_fp32_bits(i, dt)) << simd_target_name() << " dtype " << int{dt} << " " << i;
    }
  }
}

// FP32 inputs for narrowing: each 16-bit pattern widened, its neighbours one FP32 ulp away, the exact midpoint to
// the next pattern and that midpoint's neighbours (the RNE ties and near-ties), every low half around bit 16, and
// random patterns.
std::vector<float> narrowing_inputs(uint8_t dt) {
  std::vector<float> v;
  for (uint32_t c = 0; c < 0x10000U; ++c) {
    const uint32_t f = to_fp32_bits(c, dt);
    const uint32_t next = to_fp32_bits((c + 1) & 0xFFFFU, dt);
    for (const uint32_t b : {f, f + 1, f - 1}) v.push_back(f32(b));
    const double mid = (static_cast<double>(f32(f)) + static_cast<double>(f32(next))) / 2;
    if (std::isfinite(mid) && (c & 0x7FFFU) != 0x7FFFU) {
      const float m = static_cast<float>(mid);
      for (const uint32_t b : {bits(m), bits(m) + 1, bits(m) - 1}) v.push_back(f32(b));
    }
    for (const uint32_t low : {0x0001U, 0x7FFFU, 0x8000U, 0x8001U, 0xFFFFU}) v.push_back(f32((c << 16) | low));
  }
  std::mt19937 rng(3);
  for (int i = 0; i < 300000; ++i) v.push_back(f32(static_cast<uint32_t>(rng())));
  return v;
}

TEST(KernelsConvert, NarrowingMatchesTheScalarModule) {
  for (const uint8_t dt : {dtype::kFp16, dtype::kBfloat16}) {
    const std::vector<float> in = narrowing_inputs(dt);
    std::vector<uint16_t> out(in.size());
    for (const int64_t t : targets()) {
      const PerTarget scope(t);
      for (const bool sis : {false, true}) {
        (dt == dtype::kFp16 ? fp32_to_fp16 : fp32_to_bf16)(in.data(), out.data(), in.size(), sis);
        ConvertOptions options;
        options.sis = sis;
        for (size_t i = 0; i < in.size(); ++i)
          ASSERT_EQ(out[i], from_fp32_bits(bits(in[i]), dt, options))
              << simd_target_name() << " dtype " << int{dt} << " sis " << sis << " input 0x" << std::hex << bits(in[i]);
      }
    }
  }
}

// Short rows at odd offsets: the vector loop, the single-lane tail and nothing outside [0, n).
TEST(KernelsConvert, ShortRowsAndOffsets) {
  for (const int64_t t : targets()) {
    const PerTarget scope(t);
    for (size_t offset = 0; offset < 3; ++offset)
      for (size_t n = 0; n <= 40; ++n) {
        std::vector<float> f(n + 8, -1.0F), back(n + 8, 99.0F);
        std::vector<uint16_t> h(n + 8, 0xABCDU);
        for (size_t i = 0; i < n; ++i) f[offset + i] = static_cast<float>(i) * 0.5F - 3.0F;
        fp32_to_fp16(f.data() + offset, h.data() + offset, n);
        fp16_to_fp32(h.data() + offset, back.data() + offset, n);
        for (size_t i = 0; i < n + 8; ++i) {
          const bool inside = i >= offset && i < offset + n;
          ASSERT_EQ(h[i], inside ? from_fp32_bits(bits(f[i]), dtype::kFp16) : 0xABCDU) << n << " " << i;
          ASSERT_EQ(back[i], inside ? f[i] : 99.0F) << n << " " << i;
        }
      }
  }
}

// ---- PtrMulti rows, against alu_fp32 bit for bit (a NaN result keeps the element's payload) ----

// Operands at the edges of the format: zeros, subnormals, the normal range's ends, infinities, quiet and signalling
// NaNs of both signs with several payloads, then random patterns.
std::vector<float> alu_row_inputs() {
  std::vector<float> v;
  for (const uint32_t b : {0x00000000U, 0x00000001U, 0x007FFFFFU, 0x00800000U, 0x3F800000U, 0x7F7FFFFFU, 0x7F800000U,
                           0x7F800001U, 0x7FA00000U, 0x7FC00000U, 0x7FC00001U, 0x7FFFFFFFU, 0x3EAAAAABU, 0x4B000000U})
    for (const uint32_t sign : {0U, 0x80000000U}) v.push_back(f32(b | sign));
  std::mt19937 rng(9);
  while (v.size() < 4096) v.push_back(f32(static_cast<uint32_t>(rng())));
  return v;
}

TEST(KernelsAluRow, EveryOpEqualsAluFp32OnEveryTarget) {
  const std::vector<float> in = alu_row_inputs();
  const std::vector<float> scalars = {
      0.0F,     -0.0F,  1.0F, -2.5F, f32(0x00000001U), f32(0x7F7FFFFFU), f32(0x7F800000U), f32(0xFF800000U),
      3.0e-39F, 1.0e30F};
  struct Case {
    ScalarRowOp op;
    uint8_t alu;
    bool reversed;
  };
  const Case cases[] = {{ScalarRowOp::Add, aluop::kAdd, false},
                        {ScalarRowOp::Subtract, aluop::kSubtract, false},
                        {ScalarRowOp::ReverseSubtract, aluop::kSubtract, true},
                        {ScalarRowOp::Mult, aluop::kMult, false}};
  std::vector<uint32_t> out(in.size());
  for (const int64_t t : targets()) {
    const PerTarget scope(t);
    for (const Case& c : cases)
      for (const float s : scalars) {
        fp32_scalar_rows(c.op, in.data(), out.data(), in.size(), 1, &s);
        for (size_t i = 0; i < in.size(); ++i)
          ASSERT_EQ(out[i], bits(c.reversed ? alu_fp32(c.alu, s, in[i]) : alu_fp32(c.alu, in[i], s)))
              << simd_target_name() << " op " << int{c.alu} << (c.reversed ? " reversed" : "") << " x 0x" << std::hex
              << bits(in[i]) << " s 0x" << bits(s);
      }
  }
}

// Slices of any length at odd offsets: each slice with its own scalar, the single-lane tail, nothing outside.
TEST(KernelsAluRow, SlicesTakeTheirOwnScalarAndWriteOnlyTheRow) {
  const float scalars[] = {2.0F, -1.0F, 0.5F, 3.0F, -0.25F, 8.0F, 1.0F, -4.0F};
  for (const int64_t t : targets()) {
    const PerTarget scope(t);
    for (size_t offset = 0; offset < 3; ++offset)
      for (size_t n = 0; n <= 19; ++n)
        for (size_t slices = 1; slices <= 8; ++slices) {
          std::vector<float> x(offset + n * slices + 4);
          for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.75F - 5.0F;
          std::vector<uint32_t> y(x.size(), 0xDEADBEEFU);
          fp32_scalar_rows(ScalarRowOp::Mult, x.data() + offset, y.data() + offset, n, slices, scalars);
          for (size_t i = 0; i < y.size(); ++i) {
            const bool inside = i >= offset && i < offset + n * slices;
            const uint32_t want = inside ? bits(x[i] * scalars[(i - offset) / n]) : 0xDEADBEEFU;
            ASSERT_EQ(y[i], want) << simd_target_name() << " offset " << offset << " n " << n << " slices " << slices
                                  << " element " << i;
          }
        }
  }
}

}  // namespace
}  // namespace tpbisa::kernels
