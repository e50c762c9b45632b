// The activation-function sets of a NEFF subgraph: member look-ups inside the subgraph's folder.
#include "neff/act_tables.hpp"

#include <string>

namespace tpbisa::neff {

act::SetCatalog activation_sets(const Neff& n, const Subgraph& sg, act::SetOrder order) {
  const auto lookup = [&n, &sg](std::string_view name) -> std::optional<std::span<const uint8_t>> {
    const std::string full = sg.folder.empty() ? std::string(name) : sg.folder + "/" + std::string(name);
    const Member* m = n.member(full);
    if (m == nullptr) return std::nullopt;
    return m->bytes;
  };
  return act::SetCatalog::read(sg.folder, lookup, order);
}

}  // namespace tpbisa::neff
