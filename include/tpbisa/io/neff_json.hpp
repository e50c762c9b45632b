// The JSON documents of `tpbisa neff info --json` and `tpbisa neff sems --json`: one builder for the command line
// and the Python module.
#pragma once

#include <nlohmann/json.hpp>

#include "tpbisa/neff.hpp"

namespace tpbisa::io {

/// The container's warnings: [{"member", "message"}].
nlohmann::ordered_json neff_warnings_json(const neff::Neff& n);

/// The document of `tpbisa neff info --json`: file, header, hash check, payload, inputs/outputs, subgraphs (their
/// engines with opcode histograms, variables and queue sets) and warnings.
nlohmann::ordered_json neff_info_json(const neff::Neff& n);

/// The "subgraphs" list of `tpbisa neff sems --json` for a static semaphore picture.
nlohmann::ordered_json neff_sems_subgraphs_json(const std::vector<neff::SubgraphSems>& picture);

/// The document of `tpbisa neff sems --json`: {"file", "generation", "subgraphs", "warnings"}.
nlohmann::ordered_json neff_sems_json(const neff::Neff& n);

}  // namespace tpbisa::io
