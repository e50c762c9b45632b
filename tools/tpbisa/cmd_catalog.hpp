// `tpbisa catalog`: print the ISA tables (opcodes, dtypes, ALU ops, the small mode enums).
#pragma once

#include "common.hpp"

namespace tpbisa::cli {

Command register_catalog(CLI::App& parent);

}  // namespace tpbisa::cli
