// Memory kept between runs (detail::map_huge_advised's cache of released chunks, blocks and buffers): a plain test, so
// that the optimised tree runs it (under AddressSanitizer the pages are heap allocations of their own, not kept).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "tpbisa/neff_run.hpp"
#include "tpbisa/state.hpp"

namespace tpbisa {
namespace {

// Released chunks and blocks are kept for the process's next memories (detail::map_huge_advised): a memory made after
// others were filled with ones and released must still start all unwritten, its unwritten bytes reading as zero, in
// the dense region (its blocks) and above it (the page chunks, small and huge-advised).
TEST(SparseMemoryKept, MemoryKeptFromEarlierRunsStartsZeroAndUnwritten) {
  constexpr uint64_t kPages = 3000;  // past the small chunks into the huge-advised ones (12 MiB)
  for (const uint64_t base : {uint64_t{0}, SparseMemory::kDenseLimit}) {
    for (int round = 0; round < 3; ++round) {
      {
        SparseMemory filled;
        std::vector<uint8_t> ones(SparseMemory::kPageBytes, 0xFF);
        for (uint64_t p = 0; p < kPages; ++p)
          ASSERT_TRUE(filled.write_block(base + p * SparseMemory::kPageBytes, ones.size(), ones.data()));
      }
      SparseMemory fresh;
      for (uint64_t p = 0; p < kPages; p += 7)
        ASSERT_TRUE(fresh.write(base + p * SparseMemory::kPageBytes + 100, 1, 0x5A));
      for (uint64_t p = 0; p < kPages; p += 7) {
        const uint64_t page = base + p * SparseMemory::kPageBytes;
        std::vector<uint8_t> out(SparseMemory::kPageBytes, 0xAA);
        EXPECT_FALSE(fresh.read_block(page, out.size(), out.data())) << p;
        for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], i == 100 ? 0x5A : 0) << p << " " << i;
        ASSERT_TRUE(fresh.initialized(page + 100, 1));
        ASSERT_FALSE(fresh.initialized(page + 101, 1));
        ASSERT_EQ(fresh.read(page + 99, 3), 0x5A00U) << p;
      }
    }
  }
}

// A NEFF run's variables of up to 16 MiB take kept memory (neff::ZeroPages): one mapped after another of the same size
// was filled with ones and released must still read all zero.
TEST(SparseMemoryKept, KeptVariablesStartZero) {
  for (const uint64_t n : {uint64_t{100}, uint64_t{1} << 20, (uint64_t{3} << 20) + 5}) {
    for (int round = 0; round < 3; ++round) {
      {
        neff::ZeroPages filled;
        ASSERT_TRUE(filled.map(n));
        std::memset(filled.data(), 0xFF, n);
      }
      neff::ZeroPages fresh;
      ASSERT_TRUE(fresh.map(n));
      ASSERT_EQ(fresh.size(), n);
      for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(fresh.data()[i], 0) << n << " " << i;
    }
  }
}

// The executors' scratch and staged bytes keep their blocks from 64 KiB on (detail::HugeAdvisedAllocator): under 2 MiB
// a power of two, from 2 MiB a multiple of 2 MiB, each released block taken again by the next of its size.
TEST(SparseMemoryKept, ScratchBlocksFrom64KiBAreKeptBySize) {
  using Alloc = detail::HugeAdvisedAllocator<float>;
  EXPECT_EQ(Alloc::mapped_bytes(16384), size_t{64} << 10);
  EXPECT_EQ(Alloc::mapped_bytes(16385), size_t{128} << 10);
  EXPECT_EQ(Alloc::mapped_bytes((size_t{1} << 19) - 1), size_t{2} << 20);
  EXPECT_EQ(Alloc::mapped_bytes((size_t{3} << 18) + 1), size_t{4} << 20);
  for (const size_t n : {size_t{16384}, size_t{100000}, size_t{1} << 20}) {
    Alloc a;
    float* p = a.allocate(n);
    p[0] = 1.0F;
    p[n - 1] = 2.0F;
    a.deallocate(p, n);
    float* q = a.allocate(n);
    EXPECT_EQ(q, p) << n;  // the block just released, already resident
    a.deallocate(q, n);
  }
}

}  // namespace
}  // namespace tpbisa
