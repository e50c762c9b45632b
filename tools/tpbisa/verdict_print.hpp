// The library's verdict texts (tpbisa/io/verdict_text.hpp) under the names the commands use.
#pragma once

#include "tpbisa/io/verdict_text.hpp"

namespace tpbisa::cli {

using io::failure_line;
using io::failure_lines;
using io::verdict_word;

}  // namespace tpbisa::cli
