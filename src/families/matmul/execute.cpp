// PE matmul family semantics: not executable yet (issue 13); `run` reports UnsupportedOpcode for these words.
#include "families/family.hpp"

namespace tpbisa::family {
namespace {

// No executor: the machine's dispatch finds none and faults with UnsupportedOpcode, as for any unmodeled word.
constexpr Execution kExecution{nullptr};

}  // namespace

const Execution& MatmulFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
