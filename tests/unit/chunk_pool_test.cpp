// The streaming validator's chunk runner on oneTBB (validate --quiet --jobs): every chunk once per run, results
// visible after it, never more chunks at once than jobs.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "io/chunk_pool.hpp"
#include "tpbisa/io/validate_stream.hpp"

namespace tpbisa::io {
namespace {

TEST(ChunkPool, EveryChunkOnceInEveryRun) {
  for (const unsigned jobs : {1U, 2U, 3U, 8U}) {
    ChunkPool pool(jobs);
    EXPECT_EQ(pool.jobs(), jobs);
    for (size_t round = 0; round < 1500; ++round) {
      const size_t n = round % 37;
      std::vector<std::atomic<int>> hits(n);
      pool.run(n, [&hits](size_t c) { hits[c].fetch_add(1, std::memory_order_relaxed); });
      for (size_t c = 0; c < n; ++c) ASSERT_EQ(hits[c].load(), 1) << "jobs " << jobs << " round " << round;
    }
  }
}

// The chunks write plain memory; the caller reads it after run() returns (the pool orders the two).
TEST(ChunkPool, ResultsAreVisibleAfterTheRun) {
  ChunkPool pool(4);
  std::vector<uint64_t> out(64);
  for (uint64_t round = 1; round <= 300; ++round) {
    pool.run(out.size(), [&](size_t c) { out[c] = round * 1000 + c; });
    for (size_t c = 0; c < out.size(); ++c) ASSERT_EQ(out[c], round * 1000 + c);
  }
}

// Chunks of very different lengths: a thread that is busy with a long one leaves the rest to the others, runs follow
// each other back to back, and no more than `jobs` chunks ever run at once (the --jobs limit).
TEST(ChunkPool, UnevenChunksAndBackToBackRuns) {
  ChunkPool pool(3);
  std::atomic<int> running{0}, most{0};
  for (size_t round = 0; round < 200; ++round) {
    std::vector<std::atomic<int>> hits(8);
    pool.run(hits.size(), [&](size_t c) {
      const int now = running.fetch_add(1) + 1;
      for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
      }
      if (c == round % 8) std::this_thread::sleep_for(std::chrono::microseconds(200));
      hits[c].fetch_add(1, std::memory_order_relaxed);
      running.fetch_sub(1);
    });
    for (const auto& h : hits) ASSERT_EQ(h.load(), 1);
  }
  EXPECT_GE(most.load(), 1);
  EXPECT_LE(most.load(), 3);
}

// The limit holds when the machine has more CPUs than jobs: two jobs never run three chunks at once.
TEST(ChunkPool, NeverMoreChunksAtOnceThanJobs) {
  ChunkPool pool(2);
  std::atomic<int> running{0}, most{0};
  for (size_t round = 0; round < 50; ++round)
    pool.run(16, [&](size_t) {
      const int now = running.fetch_add(1) + 1;
      for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
      }
      std::this_thread::sleep_for(std::chrono::microseconds(50));
      running.fetch_sub(1);
    });
  EXPECT_LE(most.load(), 2);
}

TEST(ChunkPool, OneJobRunsOnTheCallingThread) {
  ChunkPool pool(1);
  std::vector<std::thread::id> ids;
  pool.run(5, [&ids](size_t) { ids.push_back(std::this_thread::get_id()); });
  ASSERT_EQ(ids.size(), 5U);
  for (const auto& id : ids) EXPECT_EQ(id, std::this_thread::get_id());
}

TEST(ChunkPool, DestroyedWithoutARunAndAfterOne) {
  { ChunkPool idle(4); }
  {
    ChunkPool used(4);
    std::atomic<size_t> sum{0};
    used.run(10, [&sum](size_t c) { sum += c; });
    EXPECT_EQ(sum.load(), 45U);
  }
}

TEST(ChunkPool, DefaultJobsWithinItsCap) {
  const unsigned n = default_validate_jobs();
  EXPECT_GE(n, 1U);
  EXPECT_LE(n, kMaxValidateJobs);
  EXPECT_LE(n, std::max(1U, std::thread::hardware_concurrency()));
}

}  // namespace
}  // namespace tpbisa::io
