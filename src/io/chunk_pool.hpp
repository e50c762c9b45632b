// The streaming validator's chunk runner: one function called on every chunk of a block of work, on at most `jobs`
// threads of oneTBB, the calling thread among them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

namespace tpbisa::io {

/// run(n, fn) calls fn(0) .. fn(n - 1), each once, and returns when every call has returned; the calls' writes are
/// visible to the caller then. The chunks run in an arena of `jobs` slots (the caller's included; at most the CPUs the
/// process may run on), so a run never uses more threads than the --jobs limit; the arena's threads are oneTBB's,
/// started at the first run of more than one chunk and kept between runs. `fn` must not throw.
class ChunkPool {
 public:
  explicit ChunkPool(unsigned jobs)
      : jobs_(std::max(jobs, 1U)),
        // No more slots than the CPUs the process may run on: oneTBB has no more threads to give (and says so on
        // stderr when asked); more threads than CPUs would only take turns.
        arena_(std::min(static_cast<int>(jobs_), std::max(tbb::info::default_concurrency(), 1))) {}
  ChunkPool(const ChunkPool&) = delete;
  ChunkPool& operator=(const ChunkPool&) = delete;

  /// The threads it may use, the calling thread included.
  unsigned jobs() const { return jobs_; }

  void run(size_t n, const std::function<void(size_t)>& fn) {
    if (jobs_ == 1 || n <= 1) {
      for (size_t c = 0; c < n; ++c) fn(c);
      return;
    }
    // A chunk per task (they are few and large): a thread that is free takes the next, as the chunks' lengths vary.
    arena_.execute([&] {
      tbb::parallel_for(
          tbb::blocked_range<size_t>(0, n, 1),
          [&fn](const tbb::blocked_range<size_t>& r) {
            for (size_t c = r.begin(); c != r.end(); ++c) fn(c);
          },
          tbb::simple_partitioner());
    });
  }

 private:
  const unsigned jobs_;
  tbb::task_arena arena_;
};

}  // namespace tpbisa::io
