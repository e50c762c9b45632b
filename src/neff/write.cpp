// The NEFF writer (header, hash, gzip tar) and the two directory operations: collect members, extract safely.
#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <fmt/format.h>

#include "neff/internal.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::neff {
namespace {

namespace fs = std::filesystem;

Error write_error(std::string file, std::string member, std::string message) {
  return Error{ErrorCode::Write, std::move(file), std::move(member), std::move(message)};
}

}  // namespace

Result<std::vector<uint8_t>> pack(std::span<const PackMember> members, const PackOptions& options) {
  Header h = options.header;
  if (h.pkg_version != 1 && h.pkg_version != 2)
    return write_error("<pack>", "", fmt::format("pkg_version {} cannot be written (1 or 2)", h.pkg_version));
  Result<std::vector<uint8_t>> payload = detail::write_tar(members, h.pkg_version == 2);
  if (!payload) return payload.error();
  std::vector<uint8_t> out(kHeaderBytes, 0);
  out.insert(out.end(), payload->begin(), payload->end());
  out.insert(out.end(), options.padding, 0);
  h.header_size = kHeaderBytes;
  h.data_size = payload->size() + options.padding;
  const std::vector<uint8_t> digest =
      payload_digest(h.pkg_version, std::span<const uint8_t>(out).subspan(kPayloadOffset, h.data_size));
  h.hash = stored_hash(digest, options.hash_order);
  const std::array<uint8_t, kHeaderBytes> header = encode_header(h);
  std::copy(header.begin(), header.end(), out.begin());
  return out;
}

Result<std::vector<PackMember>> collect_directory(const std::string& dir, const ReadOptions& limits) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Error{ErrorCode::Io, dir, "", "not a directory"};
  std::vector<PackMember> out;
  uint64_t total = 0;
  fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
  if (ec) return Error{ErrorCode::Io, dir, "", fmt::format("cannot list: {}", ec.message())};
  for (; it != end; it.increment(ec)) {
    if (ec) return Error{ErrorCode::Io, dir, "", fmt::format("cannot list: {}", ec.message())};
    const fs::directory_entry& e = *it;
    const std::string name = fs::relative(e.path(), dir, ec).generic_string();
    if (e.is_symlink(ec))
      return Error{ErrorCode::MemberType, dir, name, "a symbolic link (only regular files are packed)"};
    if (e.is_directory(ec)) continue;
    if (!e.is_regular_file(ec)) return Error{ErrorCode::MemberType, dir, name, "not a regular file"};
    if (auto problem = detail::member_name_problem(name)) return Error{ErrorCode::MemberName, dir, name, *problem};
    const uintmax_t size = e.file_size(ec);
    if (ec) return Error{ErrorCode::Io, dir, name, fmt::format("cannot read: {}", ec.message())};
    if (size > limits.max_member_bytes || total + size > limits.max_inflated_bytes)
      return Error{ErrorCode::Limit, dir, name, fmt::format("{} bytes exceed the member or total size limit", size)};
    total += size;
    if (out.size() >= limits.max_members)
      return Error{ErrorCode::Limit, dir, "",
                   fmt::format("more than {} files, the member-count limit", limits.max_members)};
    PackMember m;
    m.name = name;
    m.bytes.resize(size);
    std::ifstream in(e.path(), std::ios::binary);
    if (!in || (size > 0 && !in.read(reinterpret_cast<char*>(m.bytes.data()), static_cast<std::streamsize>(size))))
      return Error{ErrorCode::Io, dir, name, "cannot read the file"};
    out.push_back(std::move(m));
  }
  std::sort(out.begin(), out.end(), [](const PackMember& a, const PackMember& b) { return a.name < b.name; });
  return out;
}

std::optional<Error> extract(const Neff& neff, const std::string& dir) {
  std::error_code ec;
  const fs::path target(dir);
  const fs::file_status st = fs::symlink_status(target, ec);
  bool replace_empty = false;
  if (fs::exists(st)) {
    if (fs::is_symlink(st)) return write_error(dir, "", "is a symbolic link; give a new folder");
    if (!fs::is_directory(st)) return write_error(dir, "", "exists and is not a folder");
    if (!fs::is_empty(target, ec)) return write_error(dir, "", "exists and is not empty");
    replace_empty = true;
  }
  // Everything is written into a fresh private folder beside the target and renamed at the end: a failure
  // leaves nothing behind, and no path inside it can be a link someone else placed.
  fs::path parent = target.parent_path();
  if (parent.empty()) parent = ".";
  std::string tmpl = (parent / ("." + target.filename().string() + ".partial-XXXXXX")).string();
  if (::mkdtemp(tmpl.data()) == nullptr)
    return write_error(dir, "", fmt::format("cannot create a folder beside it: {}", std::strerror(errno)));
  const fs::path tmp(tmpl);
  const auto abandon = [&](std::string member, std::string message) {
    std::error_code ignored;
    fs::remove_all(tmp, ignored);
    return write_error(dir, std::move(member), std::move(message));
  };
  for (const Member& m : neff.members) {
    if (auto problem = detail::member_name_problem(m.name)) return abandon(m.name, *problem);
    const fs::path path = tmp / fs::path(m.name);
    fs::create_directories(path.parent_path(), ec);
    if (ec) return abandon(m.name, fmt::format("cannot create its folder: {}", ec.message()));
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (out) out.write(reinterpret_cast<const char*>(m.bytes.data()), static_cast<std::streamsize>(m.bytes.size()));
    out.close();
    if (!out) return abandon(m.name, "cannot write the file");
  }
  fs::permissions(tmp,
                  fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                      fs::perms::others_exec,
                  ec);
  if (replace_empty) fs::remove(target, ec);
  fs::rename(tmp, target, ec);
  if (ec) return abandon("", fmt::format("cannot move the extracted tree into place: {}", ec.message()));
  return std::nullopt;
}

}  // namespace tpbisa::neff
