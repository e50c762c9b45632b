// The same-run baseline every suite quotes its figures against: memcpy of the bytes the benchmark reads.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace tpbisa::bench {

/// A source of `n` bytes (filled with `fill`) and a destination of as many, for a baseline copied in pieces: both
/// 64-byte aligned and half a page apart modulo 4 KiB. Where two separate vectors land is chance (glibc maps a
/// 128 KiB block or takes it from the heap, depending on what was freed before), and a destination a few bytes past
/// the source modulo 4 KiB made the copy three times slower (each load waiting on a store whose address has the same
/// low twelve bits), which flattered every ratio quoted against it.
class CopyBuffers {
 public:
  CopyBuffers(size_t n, uint8_t fill) : storage_(2 * pages(n) + 3 * 4096) {
    const auto base = reinterpret_cast<uintptr_t>(storage_.data());
    src_ = storage_.data() + (4096 - base % 4096);  // page-aligned
    dst_ = src_ + pages(n) + 2048;                  // half a page on, modulo 4 KiB
    std::memset(src_, fill, n);
    std::memset(dst_, 0, n);
  }
  const uint8_t* src() const { return src_; }
  /// n rounded up to whole 4 KiB pages.
  static size_t pages(size_t n) { return (n + 4095) / 4096 * 4096; }
  uint8_t* dst() { return dst_; }

 private:
  std::vector<uint8_t> storage_;
  uint8_t* src_ = nullptr;
  uint8_t* dst_ = nullptr;
};

/// Copies `src` once per iteration; items are its `words` 64-byte words.
inline void memcpy_baseline(benchmark::State& state, const std::vector<uint8_t>& src, size_t words) {
  std::vector<uint8_t> dst(src.size());
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * words));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * src.size()));
}

}  // namespace tpbisa::bench
