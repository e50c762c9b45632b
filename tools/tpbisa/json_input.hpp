// Reading the JSON inputs of the tool (VARS.json, STATE.json): bounded size, exact error positions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "tpbisa/lower.hpp"

namespace tpbisa::cli {

/// Largest JSON input file read (16 MiB).
inline constexpr uint64_t kMaxJsonBytes = uint64_t{16} << 20;
/// Deepest nesting accepted in a JSON input; the documents the tool reads are at most 4 levels deep.
inline constexpr unsigned kMaxJsonDepth = 32;
/// Most variables a VARS.json may define.
inline constexpr size_t kMaxVariables = 65536;

/// Reads and parses a JSON file of at most kMaxJsonBytes ("-" is stdin); objects are std::map (keys sorted,
/// O(log n) look-up). On failure returns nullopt and sets `error` to "<label>: ..." — for malformed JSON with the
/// parser's line, column and byte; duplicate object keys and nesting deeper than kMaxJsonDepth are errors too.
std::optional<nlohmann::json> read_json_file(const std::string& path, std::string& error);

/// The display name of an input path: "<stdin>" for "-".
std::string input_label(const std::string& path);

/// "object", "array", "string", "number", "boolean" or "null".
std::string json_type_name(const nlohmann::json& j);

/// A JSON value read as an unsigned 64-bit number: a non-negative JSON integer, or a string in decimal or
/// 0x hex. Returns false with `error` saying why ("must be ..."), without the key path.
bool json_u64(const nlohmann::json& j, uint64_t& out, std::string& error);

/// Loads `{"vars": {"<id>": {"base": B, "size": S}}}`: ids decimal strings 0..2^32-1, base and size numbers
/// or strings (decimal or 0x hex), at most kMaxVariables variables. Errors name the file and the key.
bool load_vars(const std::string& path, VarTable& vars, std::string& error);

}  // namespace tpbisa::cli
