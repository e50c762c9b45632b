// Read-indices family semantics: DVE_READ_INDICES 0xE9 writes each active DVE channel's eight matched indices MI
// (left by FIND_INDEX8 / MATCH_REPLACE8, "not found" all-ones) to its partition of dst, in dtype (dve-read-state.md
// §6).
#include <fmt/format.h>

#include "families/common.hpp"
#include "families/readidx/format.hpp"

namespace tpbisa::family {
namespace {

using readidx::kIndices;

/// Index j of channel c: MI[c][j] narrowed to UINT16 (its low half: all-ones stays all-ones) or kept as UINT32.
bool exec_read_indices(const D4Mr& t, exec::Txn& txn) {
  if (!element_dtype_supported(txn, t.dtype, "dtype")) return false;
  uint32_t dst = 0;
  if (!onchip_start(txn, t.dst.start_addr, dst, "dst")) return false;
  const unsigned size = dtype_size(t.dtype);
  uint64_t a = 0;
  for (unsigned c = 0; c < t.num_active_channels; ++c)  // every address checked before anything is staged
    for (uint32_t j = 0; j < kIndices; ++j)
      if (!onchip_at(txn, dst, t.dst, c, j, size, "destination", a)) return false;
  const uint64_t mask = size >= 4 ? 0xFFFFFFFFU : (uint64_t{1} << (8 * size)) - 1U;
  for (unsigned c = 0; c < t.num_active_channels; ++c)
    for (uint32_t j = 0; j < kIndices; ++j) {
      const uint32_t v = txn.engine().dve[c].match_index[j];
      txn.note_dve_read(c, DveField::MatchIndex, j, v);
      onchip_at(txn, dst, t.dst, c, j, size, "destination", a);
      txn.stage_mem(a, size, v & mask);
    }
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (!engine_runs(inst, txn)) return false;  // PROJ-CONV-A17: DVE only
  if (const auto* t = inst.as<D4Mr>(); t != nullptr && inst.opcode() == readidx::kDveReadIndices)
    return exec_read_indices(*t, txn);
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("execution of {} ({:#04x}) is not modeled", inst.name(), inst.opcode()));
}

/// The destination: eight indices of dtype on num_active_channels partitions.
Footprint footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const auto* t = inst.as<D4Mr>())
    add_tensor_footprint(f, "dst", t->dst, dtype_size(t->dtype), t->num_active_channels, true, g);
  return f;
}

constexpr Execution kExecution{.execute = execute, .footprint = footprint};

}  // namespace

const Execution& ReadIndicesFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
