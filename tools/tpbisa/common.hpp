// Pieces every tpbisa subcommand shares: the tool's identity, the --gen option, error reporting.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "tpbisa/generation.hpp"

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

/// Prints "tpbisa: error: <message>" on stderr.
void report_error(std::string_view message);

}  // namespace tpbisa::cli
