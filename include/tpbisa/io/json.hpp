// Reading JSON inputs (bounded size and depth, no duplicate keys, nothing after the document) and writing JSON.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tpbisa/expected.hpp"

namespace tpbisa::io {

/// Largest JSON input read (16 MiB).
inline constexpr uint64_t kMaxJsonBytes = uint64_t{16} << 20;
/// Deepest nesting accepted; the documents tpbisa reads are at most 4 levels deep.
inline constexpr unsigned kMaxJsonDepth = 32;

/// The display name of an input path: "<stdin>" for "-".
std::string input_label(std::string_view path);

/// Reads at most `max_bytes` from `path` ("-" is stdin), never more: an over-long input is refused after
/// max_bytes + 1 bytes. Errors: "<label>: cannot open: ...", "<label>: read error: ...", "<label>: larger than".
Expected<std::string> read_bounded(const std::string& path, uint64_t max_bytes, std::string_view what);

/// Parses a JSON document. Objects are std::map (keys sorted). Malformed JSON is reported with the parser's line,
/// column and byte; duplicate object keys, nesting deeper than kMaxJsonDepth and anything after the document but
/// whitespace (a NUL byte included) are malformed too. Messages start with "<label>: malformed JSON: ".
Expected<nlohmann::json> parse_json_text(std::string_view text, std::string_view label);

/// read_bounded (kMaxJsonBytes) then parse_json_text.
Expected<nlohmann::json> read_json_file(const std::string& path);

/// "object", "array", "string", "number", "boolean" or "null".
std::string json_type_name(const nlohmann::json& j);

/// A non-negative JSON integer, or a string in decimal or 0x hex, as 64 bits; the error ("... is negative",
/// "must be a number or a string, not ...") has no key path.
Expected<uint64_t> json_u64(const nlohmann::json& j);

/// Serialises output JSON on one line; never throws (invalid UTF-8, e.g. in file names, is replaced).
std::string dump_json(const nlohmann::ordered_json& j);

/// Text made safe to quote in a one-line message: control and non-ASCII bytes as \xNN.
std::string printable(std::string_view text);

}  // namespace tpbisa::io
