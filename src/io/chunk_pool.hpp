// A fixed set of threads that call one function on every chunk of a block of work, the calling thread among them
// (the streaming validator's threads).
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace tpbisa::io {

/// run(n, fn) calls fn(0) .. fn(n - 1), each once, on up to `jobs` threads, and returns when every call has
/// returned. Chunks are claimed in order as threads become free, and a run never waits for a thread that has not
/// claimed one: on a shared core a worker that wakes late finds the chunks taken (the calling thread does them).
/// The workers are started at the first run that has more than one chunk and wait, blocked, between runs. `fn` must
/// not throw. A worker that cannot be started is done without.
class ChunkPool {
 public:
  explicit ChunkPool(unsigned jobs) : jobs_(std::max(jobs, 1U)) {}
  ~ChunkPool() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    start_.notify_all();
    for (std::thread& t : workers_) t.join();
  }
  ChunkPool(const ChunkPool&) = delete;
  ChunkPool& operator=(const ChunkPool&) = delete;

  /// The threads it may use, the calling thread included.
  unsigned jobs() const { return jobs_; }

  void run(size_t n, const std::function<void(size_t)>& fn) {
    if (jobs_ == 1 || n <= 1 || n > kMaxChunks) {
      for (size_t c = 0; c < n; ++c) fn(c);
      return;
    }
    start_workers();
    uint32_t round = 0;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      round = ++round_;
      fn_ = &fn;
      n_ = n;
      completed_.store(0, std::memory_order_relaxed);
      ticket_.store(uint64_t{round} << 32, std::memory_order_release);
    }
    start_.notify_all();
    take_chunks(fn, n, round);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return completed_.load(std::memory_order_acquire) == n; });
  }

 private:
  static constexpr size_t kMaxChunks = 0xFFFFFFFF;  ///< a chunk's number is the low half of the ticket

  void start_workers() {
    if (started_) return;
    started_ = true;
    for (unsigned k = 1; k < jobs_; ++k) {
      try {
        workers_.emplace_back([this] { work(); });
      } catch (const std::system_error&) {
        break;  // no more threads to be had: the ones started (and the caller) do the work
      }
    }
  }

  /// Claims the next chunk of run `round`; false when that run's chunks are all claimed or another run started
  /// (a late worker never takes a chunk of a run it did not read the function of).
  bool claim(uint32_t round, size_t n, size_t& chunk) {
    uint64_t t = ticket_.load(std::memory_order_acquire);
    for (;;) {
      if ((t >> 32) != round || (t & kMaxChunks) >= n) return false;
      if (ticket_.compare_exchange_weak(t, t + 1, std::memory_order_acq_rel)) {
        chunk = static_cast<size_t>(t & kMaxChunks);
        return true;
      }
    }
  }

  void take_chunks(const std::function<void(size_t)>& fn, size_t n, uint32_t round) {
    size_t c = 0;
    while (claim(round, n, c)) {
      fn(c);
      if (completed_.fetch_add(1, std::memory_order_acq_rel) + 1 == n) {
        const std::lock_guard<std::mutex> lock(mutex_);
        done_.notify_one();
      }
    }
  }

  void work() {
    uint32_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      start_.wait(lock, [&] { return stop_ || round_ != seen; });
      if (stop_) return;
      seen = round_;
      const std::function<void(size_t)>* fn = fn_;
      const size_t n = n_;
      lock.unlock();
      take_chunks(*fn, n, seen);
      lock.lock();
    }
  }

  const unsigned jobs_;
  bool started_ = false;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  const std::function<void(size_t)>* fn_ = nullptr;  ///< the current run's (guarded by mutex_)
  size_t n_ = 0;                                     ///< the current run's chunk count (guarded by mutex_)
  uint32_t round_ = 0;                               ///< runs so far (guarded by mutex_)
  bool stop_ = false;                                ///< guarded by mutex_
  std::atomic<uint64_t> ticket_{0};                  ///< the current run (high half) and its next chunk (low half)
  std::atomic<size_t> completed_{0};                 ///< chunks of the current run done
};

}  // namespace tpbisa::io
