// The window walk of an S4D4_PL word, shared by POOL 0x45 and MAX_POOL_SELECT 0x58 (the public-layout family): the
// element dtypes, the on-chip starts, the windows the pool dimensions make of the source, and the size bound.
#pragma once

#include <cstdint>

#include "families/common.hpp"
#include "families/pool/format.hpp"

namespace tpbisa::family {

/// Where an S4D4_PL word reads and writes, and how its source splits into windows.
struct PoolWindows {
  uint32_t src = 0;       ///< the source's resolved on-chip start
  uint32_t dst = 0;       ///< the destination's
  uint64_t period = 1;    ///< elements per window: the product of the pool dimensions' counts
  uint64_t count = 0;     ///< windows per channel: the destination's elements (PROJ-CONV-G79)
  unsigned channels = 0;  ///< num_active_channels
  unsigned in_size = 0;   ///< bytes per source element
  unsigned out_size = 0;  ///< bytes per destination element
};

/// The walk of `t`; false, with the transaction's fault set, when a dtype has no element semantics, a start does not
/// resolve on chip, the destination does not hold one element per window, or the word exceeds the per-instruction
/// bound.
bool pool_windows(const S4d4Pl& t, exec::Txn& txn, PoolWindows& out);

}  // namespace tpbisa::family
