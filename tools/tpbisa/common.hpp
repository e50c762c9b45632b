// Pieces every tpbisa subcommand shares: the tool's identity, the --gen option, error reporting.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "tpbisa/generation.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::cli {

inline constexpr std::string_view kToolName = "tpbisa";
inline constexpr std::string_view kToolVersion = "0.1.0";

/// A registered subcommand: its CLI11 app and what to run once it parsed; `run` returns the exit code.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

/// Adds `--gen GEN` (sunda|cayman|mariana|maverick or v2..v5, case-insensitive); an unknown name is a
/// usage error raised while parsing, so it exits 2 like every other option error.
void add_generation_option(CLI::App& app, std::optional<Generation>& gen, const std::string& help);

/// Adds `--gen GEN|all`: one generation as above, or `all` for the four in generation order.
void add_generations_option(CLI::App& app, std::vector<Generation>& gens, const std::string& help);

/// Adds the switches that change a verdict (docs/conventions.md): --strict-window (PROJ-CONV-M3),
/// --dtype-enum header|runtime (PROJ-CONV-C13), --no-symmetric-clamp-arith (PROJ-CONV-T11).
void add_validate_options(CLI::App& app, ValidateOptions& options);

/// Prints "tpbisa: error: <message>" on stderr.
void report_error(std::string_view message);

/// Reports "COMMAND: <message>; run 'tpbisa --help'" and returns the usage exit code (2).
int usage_error(std::string_view command, std::string_view message);

/// Parses an unsigned number written in decimal or as 0x hex (no sign, no spaces); nullopt when it is
/// not one or does not fit 64 bits.
std::optional<uint64_t> parse_u64(std::string_view text);

}  // namespace tpbisa::cli
