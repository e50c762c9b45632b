// VARS.json: the variable table pseudo words are lowered with ({"vars": {"<id>": {"base": B, "size": S}}}).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "tpbisa/expected.hpp"
#include "tpbisa/lower.hpp"

namespace tpbisa::io {

/// Most variables a VARS.json may define.
inline constexpr size_t kMaxVariables = 65536;

/// Parses a VARS.json document: ids are decimal strings 0..2^32-1 (two ids that denote the same number are
/// duplicates, refused), base and size numbers or strings (decimal or 0x hex), at most kMaxVariables. Errors
/// name the input and the key.
Expected<VarTable> parse_vars(std::string_view text, std::string_view label);

/// Reads VARS.json from `path` ("-" is stdin) and parses it as parse_vars does.
Expected<VarTable> load_vars(const std::string& path);

}  // namespace tpbisa::io
