// `tpbisa run`: execute a program of 64-byte words on the functional simulator and show the resulting state.
#pragma once

#include "common.hpp"

namespace tpbisa::cli {

Command register_run(CLI::App& parent);

}  // namespace tpbisa::cli
