// Sync family semantics: not executable yet (the NEFF-level semantics of real-programs.md §3.3, §5-§7.3 are a
// later step), so `run` reports these opcodes as unsupported instead of pretending to execute them.
#include "families/family.hpp"

namespace tpbisa::family {
namespace {

constexpr Execution kExecution{nullptr};

}  // namespace

const Execution& SyncFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
