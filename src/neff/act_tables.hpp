// The activation-function sets of a NEFF subgraph (act-index-ops.md §3.3): its members handed to the table reader.
#pragma once

#include "families/act/tables.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::neff {

/// The set catalog of subgraph `sg` of `n`: Activation.json, act_info.json and the sets they name, read from the
/// subgraph's folder with the checks of §3.3.6 (each set once).
act::SetCatalog activation_sets(const Neff& n, const Subgraph& sg, act::SetOrder order = act::SetOrder::ActInfo);

}  // namespace tpbisa::neff
