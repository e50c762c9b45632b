// The registry of the generated acceptors: which generation-specialised acceptors stand behind each dispatcher.
#include "families/fast_accept.hpp"

#include "isa/predicates.hpp"

namespace tpbisa::family::detail {

namespace {
/// Every generated acceptor registers once at static initialisation (a few dozen validators); constant-initialised
/// storage, so a registration is safe whatever runs first, and nothing is allocated.
struct Registered {
  RawAccept dispatcher;
  const GenerationAcceptors* by_generation;
};
constinit std::array<Registered, 512> g_registered{};
constinit size_t g_registered_count = 0;
}  // namespace

bool register_acceptors(RawAccept dispatcher, const GenerationAcceptors* by_generation) {
  if (g_registered_count == g_registered.size()) return false;  // then that validator's batch calls take one hop more
  g_registered[g_registered_count++] = {dispatcher, by_generation};
  return true;
}

}  // namespace tpbisa::family::detail

namespace tpbisa::family {

const GenerationAcceptors* generation_acceptors(RawAccept accept) {
  for (size_t k = 0; k < detail::g_registered_count; ++k)
    if (detail::g_registered[k].dispatcher == accept) return detail::g_registered[k].by_generation;
  return nullptr;
}

}  // namespace tpbisa::family
