// The NEFF writer (header, hash, gzip tar) and the two directory operations: collect members, extract atomically.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "neff/internal.hpp"
#include "tpbisa/io/output_file.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::neff {
namespace {

namespace fs = std::filesystem;

Error write_error(std::string file, std::string member, std::string message) {
  return Error{ErrorCode::Write, std::move(file), std::move(member), std::move(message)};
}

/// Writes `bytes` as the new file `path` (never through a link: the folder is the writer's own); the system's
/// reason when it cannot ("No space left on device", "File too large").
std::optional<std::string> write_new_file(const fs::path& path, std::span<const uint8_t> bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return fmt::format("cannot create the file: {}", std::strerror(errno));
  int err = 0;
  for (size_t at = 0; at < bytes.size() && err == 0;) {
    const ssize_t n = ::write(fd, bytes.data() + at, bytes.size() - at);
    if (n < 0 && errno != EINTR) err = errno;
    if (n > 0) at += static_cast<size_t>(n);
  }
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) return fmt::format("cannot write the file: {}", std::strerror(err));
  return std::nullopt;
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
  if (fs::exists(st)) {
    if (fs::is_symlink(st)) return write_error(dir, "", "is a symbolic link; give a new folder");
    if (!fs::is_directory(st)) return write_error(dir, "", "exists and is not a folder");
    if (!fs::is_empty(target, ec)) return write_error(dir, "", "exists and is not empty");
  }
  // Everything is written into a fresh private folder beside the target and renamed at the end (the library's
  // output-folder policy): a failure or a signal leaves nothing behind, and no path inside it can be a link
  // someone else placed.
  const auto io_error = [&](const tpbisa::Error& e) {
    std::string message = e.message;
    if (const std::string prefix = dir + ": "; message.starts_with(prefix)) message.erase(0, prefix.size());
    return write_error(dir, "", std::move(message));
  };
  auto staging = io::OutputDirectory::create(dir);
  if (!staging) return io_error(staging.error());
  const fs::path tmp((*staging)->staging());
  const auto abandon = [&](std::string member, std::string message) {
    (*staging)->discard();
    return write_error(dir, std::move(member), std::move(message));
  };
  for (const Member& m : neff.members) {
    if (auto problem = detail::member_name_problem(m.name)) return abandon(m.name, *problem);
    const fs::path path = tmp / fs::path(m.name);
    fs::create_directories(path.parent_path(), ec);
    if (ec) return abandon(m.name, fmt::format("cannot create its folder: {}", ec.message()));
    if (auto why = write_new_file(path, m.bytes)) return abandon(m.name, std::move(*why));
  }
  if (auto done = (*staging)->commit(); !done) return io_error(done.error());
  return std::nullopt;
}

}  // namespace tpbisa::neff
