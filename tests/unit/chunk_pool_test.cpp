// The streaming validator's chunk pool (validate --quiet --jobs): every chunk once per run, results visible after it.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <set>
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

// Chunks of very different lengths: a thread that is busy with a long one leaves the rest to the others, and a
// worker that wakes after the run ended takes no chunk of the next one.
TEST(ChunkPool, UnevenChunksAndBackToBackRuns) {
  ChunkPool pool(3);
  std::set<std::thread::id> threads;
  std::mutex m;
  for (size_t round = 0; round < 200; ++round) {
    std::vector<std::atomic<int>> hits(8);
    pool.run(hits.size(), [&](size_t c) {
      if (c == round % 8) std::this_thread::sleep_for(std::chrono::microseconds(200));
      hits[c].fetch_add(1, std::memory_order_relaxed);
      const std::lock_guard<std::mutex> lock(m);
      threads.insert(std::this_thread::get_id());
    });
    for (const auto& h : hits) ASSERT_EQ(h.load(), 1);
  }
  EXPECT_GE(threads.size(), 1U);
  EXPECT_LE(threads.size(), 3U);
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
