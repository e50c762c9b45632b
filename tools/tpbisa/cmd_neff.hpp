// `tpbisa neff`: inspect, list, extract and pack NEFF containers, and show their static semaphore picture.
#pragma once

#include "common.hpp"

namespace tpbisa::cli {

Command register_neff(CLI::App& parent);

}  // namespace tpbisa::cli
