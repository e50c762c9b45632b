// `tpbisa lower`: rewrite PseudoTensorLoad/Store words into real TensorLoad/Store words from a variable table.
#pragma once

#include "common.hpp"

namespace tpbisa::cli {

Command register_lower(CLI::App& parent);

}  // namespace tpbisa::cli
