// `tpbisa asm`: assemble a .tasm source into a file of 64-byte instruction words.
#pragma once

#include "common.hpp"

namespace tpbisa::cli {

Command register_asm(CLI::App& parent);

}  // namespace tpbisa::cli
