// The text layouts of a NEFF container (`tpbisa neff info|ls|sems|act-eval`) and the JSON forms the command line
// prints beside them (ls, act-eval); the other JSON forms are in tpbisa/io/neff_json.hpp.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tpbisa/expected.hpp"
#include "tpbisa/io/act_tables.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::io {

/// Bytes as lower-case hex digits, two per byte (hashes, uuids).
std::string hex_bytes(std::span<const uint8_t> bytes);

/// `neff info`: the header, hash check, payload, target, inputs and outputs, and per subgraph its streams with their
/// opcode counts, variables and queue sets.
std::string neff_info_text(const neff::Neff& n);

/// `neff ls`: a table of the members (bytes, kind, name, what) and the totals.
std::string neff_ls_text(const neff::Neff& n);
/// `neff ls --json`: {"file", "members": [{"name", "bytes", "kind", "role"}], "warnings"}.
nlohmann::ordered_json neff_ls_json(const neff::Neff& n);

/// `neff sems`: per subgraph each semaphore with the words that raise it and those that wait on it.
std::string neff_sems_text(const neff::Neff& n, const std::vector<neff::SubgraphSems>& picture);
/// The semaphore graph for Graphviz: per subgraph a cluster of its streams; an edge from each stream that raises a
/// semaphore to each stream that waits on it, labelled with the semaphore and the words; a semaphore that is waited
/// on and raised by no word gets a red node of its own.
std::string neff_sems_dot(const std::vector<neff::SubgraphSems>& picture);

/// `neff act-eval`: "; set S, function F (id N): exact" and a line "x (bits) -> y (bits)" per value.
std::string act_eval_text(const ActEvalResult& r);
/// `neff act-eval --json`: {"file", "set", "function", "func_id", "result", "values": [{"x", "x_value", ...}]}.
nlohmann::ordered_json act_eval_json(const neff::Neff& n, const ActEvalResult& r);

/// A container error as every command words it: "FILE: what (check: NAME)"; "FILE: cannot open: ..." (no check) when
/// the file cannot be opened or read.
Error neff_read_error(const neff::Error& e);

/// Reads the NEFF `path` ("-": stdin, labelled <stdin>); the error as neff_read_error words it.
Expected<neff::Neff> read_neff_input(const std::string& path, const neff::ReadOptions& options = {});

/// The warning lines of a NEFF read (a hash mismatch, trailing bytes): "TOOL: warning: FILE[: MEMBER]: message\n".
std::string neff_warnings_text(const neff::Neff& n, std::string_view tool);

}  // namespace tpbisa::io
