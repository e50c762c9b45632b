// `tpbisa disasm`: print 64-byte instruction words as canonical assembly text.
#pragma once

#include "common.hpp"

namespace tpbisa::cli {

Command register_disasm(CLI::App& parent);

}  // namespace tpbisa::cli
