// The row paths' destination rows of the index and search families: written in place a memory page at a time when
// the step allows it (Txn::may_write_runs_in_place), else staged whole.
#pragma once

#include <algorithm>
#include <cstdint>

#include "isa/exec.hpp"

namespace tpbisa::family::row_pieces {

/// Whole elements of `size` bytes from `address` to the end of its memory page, at least 1.
inline uint64_t page_room(uint64_t address, unsigned size) {
  return std::max<uint64_t>(1, (SparseMemory::kPageBytes - address % SparseMemory::kPageBytes) / size);
}

/// Walks a destination row of n elements of `zo` bytes at `dst` beside a source row of `zi`-byte elements at `src`
/// (for a row without a source, pass the destination twice), in pieces that each lie in one page of both: for each,
/// in = read(first, len) reads source elements [first, first + len) before anything of the piece is written (so an
/// in-place row's uninitialised reads are counted as the element path counts them), then body(in, out, first, len)
/// with `out` where those elements go. In place (`in_place`: the caller established that nothing after the first
/// write can fault, may_write_runs_in_place held and no source row still to be read is overwritten), each piece is
/// written straight into memory, or staged when it does not lie in one page; otherwise the row is staged whole. A
/// source read piece by piece (Txn::read_run) is read where it lies, not copied.
template <class Read, class Body>
void walk(exec::Txn& txn, uint64_t src, unsigned zi, uint64_t dst, unsigned zo, uint64_t n, bool in_place,
          const Read& read, const Body& body) {
  uint8_t* staged = in_place ? nullptr : txn.stage_run(dst, n * zo, zo);
  for (uint64_t k = 0; k < n;) {
    const uint64_t len = std::min({n - k, page_room(src + k * zi, zi), page_room(dst + k * zo, zo)});
    const uint8_t* in = read(k, len);
    uint8_t* out = staged != nullptr ? staged + k * zo : txn.write_run_in_place(dst + k * zo, len * zo, zo);
    if (out == nullptr) out = txn.stage_run(dst + k * zo, len * zo, zo);
    body(in, out, k, len);
    k += len;
  }
}

}  // namespace tpbisa::family::row_pieces
