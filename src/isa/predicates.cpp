// Bodies of the common validity predicates (common-formats.md §10) and their per-generation profiles.
#include "isa/predicates.hpp"

namespace tpbisa::pred {

bool has_valid_neuron_events(const Events& e, Generation g) {
  return wait_mode_in(e.wait_mode, g) && update_mode_in(e.update_mode, g);
}

}  // namespace tpbisa::pred
