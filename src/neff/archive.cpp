// The NEFF payload layers through libarchive: one gzip member (PROJ-CONV-X3) and a ustar/GNU/pax archive (X4).
#include <archive.h>
#include <archive_entry.h>
#include <zlib.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "neff/internal.hpp"

namespace tpbisa::neff::detail {
namespace {

constexpr size_t kChunk = 64 * 1024;
constexpr size_t kGzipTrailerBytes = 8;  ///< CRC-32 and ISIZE, both little-endian (RFC 1952)
constexpr size_t kGzipMinBytes = 18;     ///< 10-byte header, an empty deflate block, the trailer

struct ReadDeleter {
  void operator()(archive* a) const { archive_read_free(a); }
};
struct WriteDeleter {
  void operator()(archive* a) const { archive_write_free(a); }
};
using ReadArchive = std::unique_ptr<archive, ReadDeleter>;
using WriteArchive = std::unique_ptr<archive, WriteDeleter>;

std::string archive_message(archive* a) {
  const char* s = archive_error_string(a);
  return s != nullptr ? std::string(s) : std::string("unknown libarchive error");
}

Error error(ErrorCode code, std::string_view label, std::string member, std::string message) {
  return Error{code, std::string(label), std::move(member), std::move(message)};
}

bool all_zero(std::span<const uint8_t> bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; });
}

la_ssize_t append_to_vector(archive*, void* client, const void* buffer, size_t length) {
  auto* out = static_cast<std::vector<uint8_t>*>(client);
  const auto* p = static_cast<const uint8_t*>(buffer);
  out->insert(out->end(), p, p + length);
  return static_cast<la_ssize_t>(length);
}

std::string_view type_name(mode_t type) {
  switch (type) {
    case AE_IFLNK: return "a symbolic link";
    case AE_IFCHR: return "a character device";
    case AE_IFBLK: return "a block device";
    case AE_IFIFO: return "a FIFO";
    case AE_IFSOCK: return "a socket";
    default: return "not a regular file";
  }
}

}  // namespace

std::string_view strip_dot_slash(std::string_view name) {
  while (name.starts_with("./")) name.remove_prefix(2);
  return name;
}

std::optional<std::string> member_name_problem(std::string_view name) {
  if (name.empty()) return std::string("empty member name");
  for (char c : name)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return std::string("the name holds a control character");
  if (name.front() == '/') return std::string("absolute member name");
  size_t begin = 0;
  for (;;) {
    const size_t end = name.find('/', begin);
    const std::string_view part = name.substr(begin, end == std::string_view::npos ? name.npos : end - begin);
    if (part == "..") return std::string("the name has a '..' component");
    if (part.empty() || part == ".") return std::string("the name is not canonical (an empty or '.' component)");
    if (end == std::string_view::npos) break;
    begin = end + 1;
  }
  return std::nullopt;
}

std::optional<Error> inflate_payload(std::span<const uint8_t> window, std::string_view label,
                                     const ReadOptions& options, std::vector<uint8_t>& out, PayloadInfo& info,
                                     std::vector<Warning>& warnings) {
  if (window.size() < 2 || window[0] != 0x1F || window[1] != 0x8B)
    return error(
        ErrorCode::Gzip, label, "",
        window.size() < 2
            ? fmt::format("the {}-byte payload is too short for a gzip member", window.size())
            : fmt::format("the payload does not start with a gzip member (bytes {:02x} {:02x}, expected 1f 8b)",
                          window[0], window[1]));
  ReadArchive a(archive_read_new());
  if (!a) return error(ErrorCode::Gzip, label, "", "cannot start the gzip reader");
  archive_read_support_filter_gzip(a.get());
  archive_read_support_format_raw(a.get());
  if (archive_read_open_memory(a.get(), window.data(), window.size()) != ARCHIVE_OK)
    return error(ErrorCode::Gzip, label, "", fmt::format("gzip: {}", archive_message(a.get())));
  archive_entry* entry = nullptr;
  if (archive_read_next_header(a.get(), &entry) != ARCHIVE_OK)
    return error(ErrorCode::Gzip, label, "", fmt::format("gzip: {}", archive_message(a.get())));

  // Inflated straight into `out`, grown geometrically and never past the limit (plus one byte to detect it).
  out.clear();
  uLong crc = crc32(0L, Z_NULL, 0);
  size_t used = 0;
  const uint64_t cap = options.max_inflated_bytes;
  out.resize(static_cast<size_t>(std::min<uint64_t>(cap + 1, std::max<uint64_t>(kChunk, window.size() * 8))));
  for (;;) {
    if (used == out.size()) {
      if (out.size() > cap) break;
      out.resize(static_cast<size_t>(std::min<uint64_t>(cap + 1, uint64_t{out.size()} * 2)));
    }
    const la_ssize_t n = archive_read_data(a.get(), out.data() + used, out.size() - used);
    if (n == 0) break;
    if (n < 0) return error(ErrorCode::Gzip, label, "", fmt::format("gzip: {}", archive_message(a.get())));
    crc = crc32(crc, out.data() + used, static_cast<uInt>(n));
    used += static_cast<size_t>(n);
  }
  // Bounded before growing: a decompression bomb stops at the limit, not at the end of memory.
  if (used > cap)
    return error(ErrorCode::Limit, label, "",
                 fmt::format("the payload inflates to more than {} bytes, the inflated-size limit", cap));
  out.resize(used);

  // libarchive neither checks the trailer nor says where the member ends: find the trailer that matches the
  // inflated data (CRC-32, ISIZE = size mod 2^32); without one the payload is not one complete member.
  std::array<uint8_t, kGzipTrailerBytes> trailer{};
  store_le<uint32_t>(trailer.data(), static_cast<uint32_t>(crc));
  store_le<uint32_t>(trailer.data() + 4, static_cast<uint32_t>(out.size()));
  // With zero padding the trailer ends within 4 bytes after the last non-zero byte: look there first.
  const auto last_nonzero = std::find_if(window.rbegin(), window.rend(), [](uint8_t b) { return b != 0; });
  const size_t tail = static_cast<size_t>(window.rend() - last_nonzero);
  const size_t first = std::min(window.size(), kGzipMinBytes - kGzipTrailerBytes);
  const size_t near = tail > kGzipTrailerBytes + 4 ? std::max(first, tail - kGzipTrailerBytes - 4) : first;
  auto at = std::search(window.begin() + static_cast<ptrdiff_t>(near), window.end(), trailer.begin(), trailer.end());
  if (at == window.end() && near > first)
    at = std::search(window.begin() + static_cast<ptrdiff_t>(first), window.end(), trailer.begin(), trailer.end());
  if (at == window.end())
    return error(ErrorCode::Gzip, label, "",
                 fmt::format("no gzip trailer matches the {} inflated bytes (CRC-32 {:08x}): the payload is not one "
                             "complete gzip member",
                             out.size(), static_cast<uint32_t>(crc)));
  const auto end = static_cast<size_t>(at - window.begin()) + kGzipTrailerBytes;
  info.compressed_bytes = end;
  info.padding_bytes = window.size() - end;
  info.padding_zero = all_zero(window.subspan(end));
  if (!info.padding_zero) {
    std::string message =
        fmt::format("{} bytes after the gzip member inside the payload window are not all zero", info.padding_bytes);
    if (options.strict_trailing) return error(ErrorCode::Trailing, label, "", std::move(message));
    warnings.push_back({"", message + " (ignored, PROJ-CONV-X3)"});
  }
  return std::nullopt;
}

std::optional<Error> read_tar(std::span<const uint8_t> tar, std::string_view label, const ReadOptions& options,
                              std::vector<Member>& out, std::vector<Warning>& warnings) {
  ReadArchive a(archive_read_new());
  if (!a) return error(ErrorCode::Tar, label, "", "cannot start the tar reader");
  archive_read_support_format_tar(a.get());
  if (archive_read_open_memory(a.get(), tar.data(), tar.size()) != ARCHIVE_OK)
    return error(ErrorCode::Tar, label, "", fmt::format("tar: {}", archive_message(a.get())));
  std::map<std::string, size_t, std::less<>> index;
  uint64_t total = 0;
  uint64_t entries = 0;
  for (;;) {
    archive_entry* e = nullptr;
    const int r = archive_read_next_header(a.get(), &e);
    if (r == ARCHIVE_EOF) break;
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
      return error(ErrorCode::Tar, label, "",
                   fmt::format("tar: {} (after {} members)", archive_message(a.get()), entries));
    if (++entries > options.max_members)
      return error(ErrorCode::Limit, label, "",
                   fmt::format("the archive has more than {} members, the member-count limit", options.max_members));
    const char* raw = archive_entry_pathname(e);
    if (raw == nullptr) return error(ErrorCode::MemberName, label, "", fmt::format("member {} has no name", entries));
    const std::string name(strip_dot_slash(raw));
    if (r == ARCHIVE_WARN) warnings.push_back({name, fmt::format("tar: {}", archive_message(a.get()))});
    const mode_t type = archive_entry_filetype(e);
    if (type == AE_IFDIR) {
      // Directory entries are optional and ignored; their names are still checked.
      std::string_view dir = name;
      while (dir.size() > 1 && dir.back() == '/') dir.remove_suffix(1);
      if (!dir.empty() && dir != ".")
        if (auto problem = member_name_problem(dir))
          return error(ErrorCode::MemberName, label, std::string(raw), *problem);
      continue;
    }
    if (auto problem = member_name_problem(name))
      return error(ErrorCode::MemberName, label, std::string(raw), *problem);
    if (const char* target = archive_entry_hardlink(e))
      return error(ErrorCode::MemberType, label, name,
                   fmt::format("a hard link to '{}' (only regular files are read)", target));
    if (type != AE_IFREG) {
      std::string what(type_name(type));
      if (const char* target = archive_entry_symlink(e); type == AE_IFLNK && target != nullptr)
        what += fmt::format(" to '{}'", target);
      return error(ErrorCode::MemberType, label, name, what + " (only regular files are read)");
    }
    if (archive_entry_sparse_count(e) > 0)
      return error(ErrorCode::MemberType, label, name, "a sparse file (only plain regular files are read)");
    const la_int64_t declared = archive_entry_size(e);
    if (declared < 0) return error(ErrorCode::Tar, label, name, "negative member size");
    const auto size = static_cast<uint64_t>(declared);
    // Every bound is applied to the declared size before the member's bytes are allocated.
    if (size > options.max_member_bytes)
      return error(
          ErrorCode::Limit, label, name,
          fmt::format("declares {} bytes, more than the member-size limit of {}", size, options.max_member_bytes));
    if (size > tar.size())
      return error(ErrorCode::Tar, label, name,
                   fmt::format("declares {} bytes but the archive holds only {}", size, tar.size()));
    if (total + size > options.max_inflated_bytes)
      return error(
          ErrorCode::Limit, label, name,
          fmt::format("the members exceed {} bytes in total, the inflated-size limit", options.max_inflated_bytes));
    total += size;
    if (index.count(name) != 0) return error(ErrorCode::DuplicateMember, label, name, "a second member with this name");
    Member m;
    m.name = name;
    m.bytes.resize(size);
    size_t got = 0;
    while (got < size) {
      const la_ssize_t n = archive_read_data(a.get(), m.bytes.data() + got, size - got);
      if (n < 0) return error(ErrorCode::Tar, label, name, fmt::format("tar: {}", archive_message(a.get())));
      if (n == 0) break;
      got += static_cast<size_t>(n);
    }
    if (got != size)
      return error(ErrorCode::Tar, label, name, fmt::format("truncated: {} of {} bytes present", got, size));
    index.emplace(name, out.size());
    out.push_back(std::move(m));
  }
  // A name that is both a file and a folder ("a" and "a/b") cannot be extracted: refuse it here.
  for (const Member& m : out)
    for (size_t slash = m.name.find('/'); slash != std::string::npos; slash = m.name.find('/', slash + 1))
      if (index.count(std::string_view(m.name).substr(0, slash)) != 0)
        return error(ErrorCode::DuplicateMember, label, m.name.substr(0, slash),
                     fmt::format("is both a file and the folder of '{}'", m.name));
  return std::nullopt;
}

Result<std::vector<uint8_t>> write_tar(std::span<const PackMember> members, bool gzip) {
  const auto fail = [](std::string member, std::string message) -> Result<std::vector<uint8_t>> {
    return Error{ErrorCode::Write, "<pack>", std::move(member), std::move(message)};
  };
  std::set<std::string_view> names;
  for (const PackMember& m : members) {
    if (auto problem = member_name_problem(m.name)) return fail(m.name, *problem);
    if (!names.insert(m.name).second) return fail(m.name, "a second member with this name");
  }
  WriteArchive a(archive_write_new());
  if (!a) return fail("", "cannot start the tar writer");
  std::vector<uint8_t> out;
  // ustar headers; a pax extension only where ustar cannot hold a name or size.
  bool ok = archive_write_set_format_pax_restricted(a.get()) == ARCHIVE_OK;
  // No padding to a 10 KiB record: the archive ends after its two zero blocks, as the compiler writes it.
  ok = ok && archive_write_set_bytes_per_block(a.get(), 512) == ARCHIVE_OK;
  ok = ok && archive_write_set_bytes_in_last_block(a.get(), 1) == ARCHIVE_OK;
  if (gzip) {
    ok = ok && archive_write_add_filter_gzip(a.get()) == ARCHIVE_OK;
    // A zero MTIME keeps the container a function of its members alone.
    ok = ok && archive_write_set_options(a.get(), "gzip:!timestamp") == ARCHIVE_OK;
  }
  ok = ok && archive_write_open(a.get(), &out, nullptr, append_to_vector, nullptr) == ARCHIVE_OK;
  if (!ok) return fail("", fmt::format("tar: {}", archive_message(a.get())));
  for (const PackMember& m : members) {
    std::unique_ptr<archive_entry, void (*)(archive_entry*)> e(archive_entry_new(), archive_entry_free);
    archive_entry_set_pathname(e.get(), m.name.c_str());
    archive_entry_set_size(e.get(), static_cast<la_int64_t>(m.bytes.size()));
    archive_entry_set_filetype(e.get(), AE_IFREG);
    archive_entry_set_perm(e.get(), 0644);
    archive_entry_set_mtime(e.get(), 0, 0);
    if (archive_write_header(a.get(), e.get()) < ARCHIVE_WARN)
      return fail(m.name, fmt::format("tar: {}", archive_message(a.get())));
    size_t done = 0;
    while (done < m.bytes.size()) {
      const la_ssize_t n = archive_write_data(a.get(), m.bytes.data() + done, m.bytes.size() - done);
      if (n <= 0) return fail(m.name, fmt::format("tar: {}", archive_message(a.get())));
      done += static_cast<size_t>(n);
    }
  }
  if (archive_write_close(a.get()) != ARCHIVE_OK) return fail("", fmt::format("tar: {}", archive_message(a.get())));
  return out;
}

}  // namespace tpbisa::neff::detail
