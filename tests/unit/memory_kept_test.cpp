// Memory kept between runs (detail::map_huge_advised's cache of released chunks and buffers): a plain test, so that
// the optimised tree runs it; under AddressSanitizer pages and buffers are heap allocations and nothing is kept.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tpbisa/effects.hpp"
#include "tpbisa/state.hpp"

namespace tpbisa {
namespace {

// Released chunks and buffers are kept for the process's next memories (detail::map_huge_advised): a memory or a
// buffer made after others were filled with ones and released must still start all zero and all unwritten.
TEST(SparseMemoryKept, MemoryKeptFromEarlierRunsStartsZeroAndUnwritten) {
  constexpr uint64_t kPages = 3000;  // past the small chunks into the huge-advised ones (12 MiB)
  for (int round = 0; round < 3; ++round) {
    {
      SparseMemory filled;
      std::vector<uint8_t> ones(SparseMemory::kPageBytes, 0xFF);
      for (uint64_t p = 0; p < kPages; ++p)
        ASSERT_TRUE(filled.write_block(p * SparseMemory::kPageBytes, ones.size(), ones.data()));
      EffectLog::Bytes b(size_t{5} << 20, 0xFF);
      ASSERT_EQ(b.back(), 0xFF);
    }
    SparseMemory fresh;
    for (uint64_t p = 0; p < kPages; p += 7) ASSERT_TRUE(fresh.write(p * SparseMemory::kPageBytes + 100, 1, 0x5A));
    for (uint64_t p = 0; p < kPages; p += 7) {
      std::vector<uint8_t> out(SparseMemory::kPageBytes, 0xAA);
      EXPECT_FALSE(fresh.read_block(p * SparseMemory::kPageBytes, out.size(), out.data())) << p;
      for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], i == 100 ? 0x5A : 0) << p << " " << i;
      ASSERT_TRUE(fresh.initialized(p * SparseMemory::kPageBytes + 100, 1));
      ASSERT_FALSE(fresh.initialized(p * SparseMemory::kPageBytes + 101, 1));
    }
    EffectLog::Bytes b;
    b.resize(size_t{5} << 20);
    for (size_t i = 0; i < b.size(); i += 509) ASSERT_EQ(b[i], 0) << i;
  }
}

}  // namespace
}  // namespace tpbisa
