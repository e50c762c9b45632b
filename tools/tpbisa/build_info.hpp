// What the build tree was configured with (tools/tpbisa/build_info.cpp.in, written by CMake into the build tree).
#pragma once

namespace tpbisa::cli::build_info {

/// The commit the build tree was configured from; "unknown" outside a git checkout.
extern const char* const kGitCommit;
/// The interpreter the Python package is built for, which `tpbisa gen` runs.
extern const char* const kGenPython;

}  // namespace tpbisa::cli::build_info
