// `tpbisa validate`: judge 64-byte instruction words on one generation or all four, naming every failure.
#pragma once

#include "common.hpp"

namespace tpbisa::cli {

Command register_validate(CLI::App& parent);

}  // namespace tpbisa::cli
