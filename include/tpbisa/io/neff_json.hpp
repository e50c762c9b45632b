// The JSON documents of `tpbisa neff info --json` and `tpbisa neff sems --json`: one builder for the command line
// and the Python module.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tpbisa/neff.hpp"

namespace tpbisa::io {

/// Opcode counts of a stream by mnemonic (`unknown(0xNN)` for an opcode the generation lacks), most frequent first,
/// ties by name: the histogram of `neff info`.
std::vector<std::pair<std::string, size_t>> opcode_histogram(const neff::Stream& s, Generation gen);

/// The graph input or output called `name`, or null.
const neff::Tensor* graph_tensor(const neff::Neff& n, const std::string& name);

/// Every string of `doc` (keys too) as valid UTF-8: bytes of a container's names that are not UTF-8 escaped as
/// `\xNN` (neff::escape_text), so the document serialises and reaches Python. The builders below apply it.
void escape_strings(nlohmann::ordered_json& doc);

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
