// `tpbisa decode`: explain 64-byte instruction words given as files, stdin or --hex.
#pragma once

#include "common.hpp"

namespace tpbisa::cli {

Command register_decode(CLI::App& parent);

}  // namespace tpbisa::cli
