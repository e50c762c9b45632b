// Pieces the NEFF reader's files share: the hash check, the gzip and tar layers, bounded JSON parsing.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tpbisa/neff.hpp"

namespace tpbisa::neff::detail {

/// The §4 gates (PROJ-CONV-X2) for a file of `file_size` bytes whose first bytes are `head` (the header, or all of a
/// shorter file).
Result<Header> check_header(std::span<const uint8_t> head, uint64_t file_size, std::string_view label);

/// §3 / PROJ-CONV-X1: the digest of the window compared with the stored hash in both byte orders.
HashCheck check_hash(const Header& h, std::span<const uint8_t> window);

/// The SHA-256 digest of `data`: with the CPU's SHA extensions when it has them and `allow_sha_extensions`, else
/// libmd's (the two agree; the switch lets a test compare them).
std::vector<uint8_t> sha256(std::span<const uint8_t> data, bool allow_sha_extensions = true);

/// PROJ-CONV-X3 and X4 in one pass: the members of the tar archive inside the one gzip member at the start of
/// `window` (inflated as the tar reader asks, bounded by max_inflated_bytes), then the CRC-32 and ISIZE trailer
/// checked, and where the member ends recorded in `info`; padding that is not zero is a warning (an error under
/// strict_trailing). The members' bytes are appended to `data` (reserved here for what the window can inflate to)
/// and the members view them there (valid while `data` lives).
std::optional<Error> read_gzip_tar(std::span<const uint8_t> window, std::string_view label, const ReadOptions& options,
                                   std::vector<Member>& out, MemberData& data, PayloadInfo& info,
                                   std::vector<Warning>& warnings);

/// PROJ-CONV-X4: the regular-file members of a tar archive, names normalised and checked, sizes bounded
/// before anything is allocated; their bytes are appended to `data` (reserved here for the archive's size), as
/// read_gzip_tar does, or, with `viewed_tar`, viewed in `tar` itself (set true when a member does: `tar` must then
/// live as long as the members).
std::optional<Error> read_tar(std::span<const uint8_t> tar, std::string_view label, const ReadOptions& options,
                              std::vector<Member>& out, MemberData& data, std::vector<Warning>& warnings,
                              bool* viewed_tar = nullptr);

/// Why `name` (already without a leading "./") cannot be a member name, or nullopt when it can.
std::optional<std::string> member_name_problem(std::string_view name);
/// Strips every leading "./".
std::string_view strip_dot_slash(std::string_view name);

/// A ustar archive of the members (gzip-compressed when `gzip`), deterministic: mode 0644, mtime 0.
Result<std::vector<uint8_t>> write_tar(std::span<const PackMember> members, bool gzip);

/// Parses a JSON member with the size and nesting bounds of `options`; `scratch` holds its text without the
/// whitespace between tokens (reused from member to member).
std::optional<Error> parse_json(const Member& m, std::string_view label, const ReadOptions& options,
                                nlohmann::json& out, std::string& scratch);

}  // namespace tpbisa::neff::detail
