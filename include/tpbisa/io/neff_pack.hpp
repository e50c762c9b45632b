// `tpbisa neff pack`: a NEFF container built from a folder, its header fresh or copied from another NEFF, written
// under the output-file policy.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tpbisa/expected.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::io {

/// What to pack: the folder, the output, and the header fields to set.
struct NeffPackRequest {
  std::string dir;          ///< whose regular files become the members (names relative to it)
  std::string out;          ///< the container to write
  std::string header_from;  ///< copy the header fields from this NEFF ("": a fresh header named after `out`)
  std::optional<std::string> name;
  std::optional<uint64_t> lnc_size, feature_bits, num_tpb, padding;
  uint64_t pkg_version = 2;  ///< 2: gzip tar with MD5; 1: plain tar with SHA-256
  neff::HashOrder hash_order = neff::HashOrder::Natural;
};

/// Packs the folder and writes the container (a temporary file beside OUT, renamed onto it once every byte is
/// written); the line that says so ("packed N members from DIR into OUT (B bytes, pkg_version 2, natural hash)\n").
/// The error names the file and, for a container check, the check ("... (check: NAME)").
Expected<std::string> pack_neff_folder(const NeffPackRequest& r, const neff::ReadOptions& read = {});

}  // namespace tpbisa::io
