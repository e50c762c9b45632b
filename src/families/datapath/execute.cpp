// Datapath family execution: not executable yet (issue 13); `run` reports UnsupportedOpcode for these words.
#include "families/family.hpp"

namespace tpbisa::family {
namespace {

// A null executor is the registry's "not executable" entry; no semantics are pretended here.
constexpr Execution kExecution{nullptr};

}  // namespace

const Execution& DatapathFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
