// The executors' data-parallel parts (exec::run_parts) on oneTBB's threads.
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <memory>
#include <mutex>

#include "isa/exec.hpp"

namespace tpbisa::exec {

namespace {

constexpr unsigned kMostArenaThreads = 64;

/// One arena per thread count, made on first use and kept (an arena's threads are started once).
tbb::task_arena& arena_for(unsigned threads) {
  static std::mutex mutex;
  static std::array<std::unique_ptr<tbb::task_arena>, kMostArenaThreads + 1>* arenas =
      new std::array<std::unique_ptr<tbb::task_arena>, kMostArenaThreads + 1>;  // never destroyed: used at exit
  const std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<tbb::task_arena>& a = (*arenas)[threads];
  if (!a) a = std::make_unique<tbb::task_arena>(static_cast<int>(threads));
  return *a;
}

}  // namespace

void run_parts(unsigned threads, size_t parts, void (*part)(void* context, size_t i), void* context) {
  threads = std::min(threads, kMostArenaThreads);
  arena_for(threads).execute([&] {
    tbb::parallel_for(
        size_t{0}, parts, [&](size_t i) { part(context, i); }, tbb::static_partitioner());
  });
}

}  // namespace tpbisa::exec
