// The tpbisa command's exit codes, shared by every subcommand (documented in docs/cli.md).
#pragma once

namespace tpbisa::cli {

enum ExitCode : int {
  kExitOk = 0,        ///< success
  kExitNegative = 1,  ///< a negative verdict: invalid instruction, simulation fault
  kExitUsage = 2,     ///< usage error: bad option, unknown generation, no input
  kExitInput = 3,     ///< input error: unreadable or missing file, bad hex, length not a multiple of 64
};

}  // namespace tpbisa::cli
