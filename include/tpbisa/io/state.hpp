// STATE.json: the initial registers, semaphores, events and memory of a run (format: docs/cli.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tpbisa/expected.hpp"
#include "tpbisa/numerics.hpp"
#include "tpbisa/state.hpp"

namespace tpbisa::io {

/// Most memory elements one STATE.json may write, in all its entries.
inline constexpr uint64_t kMaxStateElements = uint64_t{1} << 22;

/// Applies a STATE.json document (text, at most io::kMaxJsonBytes) to `state`. Errors name the input, the key or
/// index and what is wrong; the state may be partly written when it fails (the caller then stops).
Expected<void> parse_state(std::string_view text, std::string_view label, MachineState& state,
                           const ConvertOptions& convert);

/// Reads STATE.json from `path` ("-" is stdin) and applies it as parse_state does.
Expected<void> load_state(const std::string& path, MachineState& state, const ConvertOptions& convert);

}  // namespace tpbisa::io
