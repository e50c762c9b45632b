// The NEFF payload layers through libarchive: one gzip member (PROJ-CONV-X3) and a ustar/GNU/pax archive (X4).
#include <archive.h>
#include <archive_entry.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "neff/internal.hpp"

namespace tpbisa::neff::detail {
namespace {

constexpr size_t kGzipTrailerBytes = 8;  ///< CRC-32 and ISIZE, both little-endian (RFC 1952)
constexpr size_t kGzipMinBytes = 18;     ///< 10-byte header, an empty deflate block, the trailer
constexpr size_t kGzipHeaderBytes = 10;  ///< ID1 ID2 CM FLG MTIME(4) XFL OS
constexpr uint8_t kGzipDeflate = 8;      ///< CM: the only method RFC 1952 defines
constexpr uint8_t kGzipReservedFlags = 0xE0;
/// Deflate inflates at most about 1032-fold (a 258-byte match per bit pair): with a margin for the block and
/// member headers, the bytes a pkg 2 window can inflate to, which bounds the member buffer's reservation below the
/// inflated-size limit for a small window.
constexpr uint64_t kDeflateMaxRatio = 1040;
constexpr uint64_t kReserveSlack = uint64_t{1} << 20;
/// A gzip member's buffer starts at this many times its size (the compiler's members inflate about 5-fold): one
/// allocation in the common case, on the heap, which the allocator reuses from read to read.
constexpr uint64_t kReserveRatio = 8;

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

/// What the gzip layer says went wrong. libarchive says nothing when the member stops before its trailer (or
/// inside its deflate data): that is named here rather than left as an unknown error.
std::string gzip_error(archive* gz) {
  const char* s = archive_error_string(gz);
  return s != nullptr ? std::string(s)
                      : std::string(
                            "the member ends early: its deflate data or its 8-byte trailer (CRC-32, ISIZE) "
                            "is missing");
}

Error error(ErrorCode code, std::string_view label, std::string member, std::string message) {
  return Error{code, std::string(label), std::move(member), std::move(message)};
}

bool all_zero(std::span<const uint8_t> bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; });
}

/// The member buffer for a window: at most what the window can hold (pkg 2: what it can inflate to), never above the
/// inflated-size limit; started for what it usually holds (the window itself, or kReserveRatio times a gzip member).
std::optional<Error> reserve_members(MemberData& data, std::span<const uint8_t> window, bool gzip,
                                     const ReadOptions& options, std::string_view label) {
  uint64_t most = window.size(), expected = window.size();
  if (gzip) {
    most = window.size() > (UINT64_MAX - kReserveSlack) / kDeflateMaxRatio
               ? UINT64_MAX
               : window.size() * kDeflateMaxRatio + kReserveSlack;
    expected = window.size() * kReserveRatio;
  }
  most = std::min(most, options.max_inflated_bytes);
  if (data.reserve(most, expected)) return std::nullopt;
  return error(ErrorCode::Limit, label, "",
               fmt::format("cannot allocate the members' buffer: {}", std::strerror(errno)));
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

namespace {

/// The inflated stream of a pkg 2 payload as the tar reader's input: archive `gz` (gzip filter, raw format) hands
/// out the blocks its inflater fills (no copy into a buffer of ours), each added to the CRC-32 and the size, and
/// never beyond the inflated-size limit.
struct InflatedStream {
  archive* gz = nullptr;
  uint64_t cap = 0;
  const void* block = nullptr;  // valid until the next pull, as the tar reader's callback contract asks
  uLong crc = crc32(0L, Z_NULL, 0);
  uint64_t size = 0;
  bool over_cap = false;
  bool gzip_failed = false;
  std::string gzip_message;

  /// The next block of inflated bytes: its length, 0 at the end, -1 on a gzip error or past the limit.
  la_ssize_t pull() {
    if (over_cap || gzip_failed) return -1;
    size_t n = 0;
    while (n == 0) {
      la_int64_t at = 0;
      const int r = archive_read_data_block(gz, &block, &n, &at);
      if (r == ARCHIVE_EOF) return 0;
      if (r != ARCHIVE_OK) {
        gzip_failed = true;
        gzip_message = gzip_error(gz);
        return -1;
      }
    }
    crc = crc32_z(crc, static_cast<const Bytef*>(block), n);
    size += n;
    // Bounded as it inflates: a decompression bomb stops at the limit, not at the end of memory.
    if (size > cap) {
      over_cap = true;
      return -1;
    }
    return static_cast<la_ssize_t>(n);
  }
};

la_ssize_t pull_inflated(archive* a, void* client, const void** buffer) {
  auto* s = static_cast<InflatedStream*>(client);
  const la_ssize_t n = s->pull();
  if (n < 0) {
    archive_set_error(a, EIO, "%s", s->over_cap ? "inflated-size limit" : "gzip error");
    return -1;
  }
  *buffer = s->block;
  return n;
}

/// The regular-file members of the archive `a` reads (names normalised and checked, sizes bounded before a byte is
/// held). Their bytes are appended to `data`, one reservation for them all, which is resident only as far as the
/// bytes actually present, so a declared size never allocates by itself; once every member is in, each member's view
/// is set into it.
std::optional<Error> read_members(archive* a, std::string_view label, const ReadOptions& options,
                                  std::vector<Member>& out, MemberData& data, std::vector<Warning>& warnings,
                                  std::span<const uint8_t> source = {}, bool* viewed_source = nullptr) {
  std::map<std::string, size_t, std::less<>> index;
  // Where each member is: a view of `source` (view set), or from `start` in `data`.
  struct Placed {
    const uint8_t* view;
    size_t start;
    size_t size;
  };
  std::vector<Placed> placed;
  const auto in_source = [source](const uint8_t* p, size_t n) {
    return !source.empty() && p >= source.data() && n <= source.size() &&
           static_cast<size_t>(p - source.data()) <= source.size() - n;
  };
  uint64_t total = 0;
  uint64_t entries = 0;
  for (;;) {
    archive_entry* e = nullptr;
    const int r = archive_read_next_header(a, &e);
    if (r == ARCHIVE_EOF) break;
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
      return error(ErrorCode::Tar, label, "", fmt::format("tar: {} (after {} members)", archive_message(a), entries));
    if (++entries > options.max_members)
      return error(ErrorCode::Limit, label, "",
                   fmt::format("the archive has more than {} members, the member-count limit", options.max_members));
    const char* raw = archive_entry_pathname(e);
    if (raw == nullptr) return error(ErrorCode::MemberName, label, "", fmt::format("member {} has no name", entries));
    const std::string name(strip_dot_slash(raw));
    if (r == ARCHIVE_WARN) warnings.push_back({name, fmt::format("tar: {}", archive_message(a))});
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
    // Every bound is applied to the declared size before the member's bytes are read.
    if (size > options.max_member_bytes)
      return error(
          ErrorCode::Limit, label, name,
          fmt::format("declares {} bytes, more than the member-size limit of {}", size, options.max_member_bytes));
    if (total + size > options.max_inflated_bytes)
      return error(
          ErrorCode::Limit, label, name,
          fmt::format("the members exceed {} bytes in total, the inflated-size limit", options.max_inflated_bytes));
    total += size;
    if (index.count(name) != 0) return error(ErrorCode::DuplicateMember, label, name, "a second member with this name");
    Member m;
    m.name = name;
    // Viewed in `source` while its blocks lie there one after the other (an uncompressed archive in memory hands out
    // its own bytes), else appended block by block as the archive holds them (no zero-filled buffer, no second copy).
    const size_t start = data.size();
    const uint8_t* view = nullptr;
    size_t viewed = 0;
    const auto append = [&](const uint8_t* bytes, size_t n) -> std::optional<Error> {
      if (data.append(bytes, n)) return std::nullopt;
      return error(ErrorCode::Limit, label, name,
                   fmt::format("the members' buffer cannot grow past {} bytes: {}", data.size(), std::strerror(errno)));
    };
    for (;;) {
      const void* block = nullptr;
      size_t length = 0;
      la_int64_t at = 0;
      const int rb = archive_read_data_block(a, &block, &length, &at);
      if (rb == ARCHIVE_EOF) break;
      if (rb != ARCHIVE_OK && rb != ARCHIVE_WARN)
        return error(ErrorCode::Tar, label, name, fmt::format("tar: {}", archive_message(a)));
      const size_t held = view != nullptr ? viewed : data.size() - start;
      if (static_cast<uint64_t>(at) != held || held + length > size)
        return error(ErrorCode::Tar, label, name, "member data out of order or beyond its declared size");
      const auto* bytes = static_cast<const uint8_t*>(block);
      if (length == 0) continue;
      if (held == 0 && in_source(bytes, length)) {
        view = bytes;
        viewed = length;
        continue;
      }
      if (view != nullptr && bytes == view + viewed && in_source(view, viewed + length)) {
        viewed += length;
        continue;
      }
      if (view != nullptr) {  // a block from elsewhere: the member becomes a copy
        if (auto failed = append(view, viewed)) return failed;
        view = nullptr;
      }
      if (auto failed = append(bytes, length)) return failed;
    }
    const size_t held = view != nullptr ? viewed : data.size() - start;
    if (held != size)
      return error(ErrorCode::Tar, label, name, fmt::format("truncated: {} of {} bytes present", held, size));
    index.emplace(name, out.size());
    placed.push_back({view, start, size});
    out.push_back(std::move(m));
  }
  for (size_t i = 0; i < out.size(); ++i) {
    const Placed& p = placed[i];
    out[i].bytes = std::span<const uint8_t>(p.view != nullptr ? p.view : data.data() + p.start, p.size);
    if (p.view != nullptr && viewed_source != nullptr) *viewed_source = true;
  }
  // A name that is both a file and a folder ("a" and "a/b") cannot be extracted: refuse it here.
  for (const Member& m : out)
    for (size_t slash = m.name.find('/'); slash != std::string::npos; slash = m.name.find('/', slash + 1))
      if (index.count(std::string_view(m.name).substr(0, slash)) != 0)
        return error(ErrorCode::DuplicateMember, label, m.name.substr(0, slash),
                     fmt::format("is both a file and the folder of '{}'", m.name));
  return std::nullopt;
}

}  // namespace

std::optional<Error> read_gzip_tar(std::span<const uint8_t> window, std::string_view label, const ReadOptions& options,
                                   std::vector<Member>& out, MemberData& data, PayloadInfo& info,
                                   std::vector<Warning>& warnings) {
  if (window.size() < 2 || window[0] != 0x1F || window[1] != 0x8B)
    return error(
        ErrorCode::Gzip, label, "",
        window.size() < 2
            ? fmt::format("the {}-byte payload is too short for a gzip member", window.size())
            : fmt::format("the payload does not start with a gzip member (bytes {:02x} {:02x}, expected 1f 8b)",
                          window[0], window[1]));
  // libarchive's gzip reader does not recognise a header it cannot read and hands the bytes on as they are: the
  // tar reader would then blame the archive. The header's own faults are named here.
  if (window.size() < kGzipHeaderBytes)
    return error(ErrorCode::Gzip, label, "",
                 fmt::format("gzip: the {}-byte payload is too short for the {}-byte gzip header", window.size(),
                             kGzipHeaderBytes));
  if (window[2] != kGzipDeflate)
    return error(ErrorCode::Gzip, label, "",
                 fmt::format("gzip: compression method {} is not deflate ({})", window[2], kGzipDeflate));
  if ((window[3] & kGzipReservedFlags) != 0)
    return error(ErrorCode::Gzip, label, "",
                 fmt::format("gzip: reserved flag bits {:#04x} are set (FLG {:#04x})", window[3] & kGzipReservedFlags,
                             window[3]));
  ReadArchive gz(archive_read_new());
  if (!gz) return error(ErrorCode::Gzip, label, "", "cannot start the gzip reader");
  archive_read_support_filter_gzip(gz.get());
  archive_read_support_format_raw(gz.get());
  if (archive_read_open_memory(gz.get(), window.data(), window.size()) != ARCHIVE_OK)
    return error(ErrorCode::Gzip, label, "", fmt::format("gzip: {}", gzip_error(gz.get())));
  archive_entry* entry = nullptr;
  if (archive_read_next_header(gz.get(), &entry) != ARCHIVE_OK)
    return error(ErrorCode::Gzip, label, "", fmt::format("gzip: {}", gzip_error(gz.get())));

  // One pass: the tar reader pulls the inflated bytes as they come; nothing holds the whole tar.
  if (auto e = reserve_members(data, window, true, options, label)) return e;
  InflatedStream stream;
  stream.gz = gz.get();
  stream.cap = options.max_inflated_bytes;
  const auto stream_error = [&]() -> std::optional<Error> {
    if (stream.over_cap)
      return error(ErrorCode::Limit, label, "",
                   fmt::format("the payload inflates to more than {} bytes, the inflated-size limit", stream.cap));
    if (stream.gzip_failed) return error(ErrorCode::Gzip, label, "", fmt::format("gzip: {}", stream.gzip_message));
    return std::nullopt;
  };
  {
    ReadArchive tar(archive_read_new());
    if (!tar) return error(ErrorCode::Tar, label, "", "cannot start the tar reader");
    archive_read_support_format_tar(tar.get());
    if (archive_read_open(tar.get(), &stream, nullptr, pull_inflated, nullptr) != ARCHIVE_OK) {
      if (auto e = stream_error()) return e;
      return error(ErrorCode::Tar, label, "", fmt::format("tar: {}", archive_message(tar.get())));
    }
    auto members = read_members(tar.get(), label, options, out, data, warnings);
    // A failure of the layer below is what the tar reader saw first.
    if (auto e = stream_error()) return e;
    if (members) return members;
  }
  // The tar reader stops at its end-of-archive blocks: the rest of the stream still counts for the trailer.
  while (stream.pull() > 0) {
  }
  if (auto e = stream_error()) return e;
  info.tar_bytes = stream.size;

  // libarchive neither checks the trailer nor says where the member ends: find the trailer that matches the
  // inflated data (CRC-32, ISIZE = size mod 2^32); without one the payload is not one complete member.
  std::array<uint8_t, kGzipTrailerBytes> trailer{};
  store_le<uint32_t>(trailer.data(), static_cast<uint32_t>(stream.crc));
  store_le<uint32_t>(trailer.data() + 4, static_cast<uint32_t>(stream.size));
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
                             stream.size, static_cast<uint32_t>(stream.crc)));
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
                              std::vector<Member>& out, MemberData& data, std::vector<Warning>& warnings,
                              bool* viewed_tar) {
  ReadArchive a(archive_read_new());
  if (!a) return error(ErrorCode::Tar, label, "", "cannot start the tar reader");
  archive_read_support_format_tar(a.get());
  // The members cannot hold more than the archive (address space only: viewed members leave it untouched).
  if (auto e = reserve_members(data, tar, false, options, label)) return e;
  if (archive_read_open_memory(a.get(), tar.data(), tar.size()) != ARCHIVE_OK)
    return error(ErrorCode::Tar, label, "", fmt::format("tar: {}", archive_message(a.get())));
  if (viewed_tar == nullptr) return read_members(a.get(), label, options, out, data, warnings);
  return read_members(a.get(), label, options, out, data, warnings, tar, viewed_tar);
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

namespace tpbisa::neff {

namespace {
size_t page_bytes() {
  static const size_t kPage = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  return kPage;
}
}  // namespace

bool MemberData::reserve(uint64_t capacity, uint64_t expected) {
  release();
  capacity_ = capacity;
  room_ = static_cast<size_t>(std::min({capacity, expected, kMemberHeapBytes}));
  if (room_ == 0) return true;
  // Not zero-filled: every byte is written before it is read.
  data_ = new (std::nothrow) uint8_t[room_];
  if (data_ == nullptr) errno = ENOMEM;
  return data_ != nullptr;
}

void MemberData::release() {
  if (data_ != nullptr) {
    if (mapped_)
      ::munmap(data_, room_);
    else
      delete[] data_;
  }
  data_ = nullptr;
  size_ = room_ = 0;
  mapped_ = false;
  if (window_ != nullptr) ::munmap(window_, window_length_);
  window_ = nullptr;
  window_length_ = 0;
}

void MemberData::keep_window(void* base, size_t length) {
  if (window_ != nullptr) ::munmap(window_, window_length_);
  window_ = base;
  window_length_ = length;
}

MemberData::~MemberData() {
  release();
}

MemberData::MemberData(MemberData&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      room_(std::exchange(other.room_, 0)),
      capacity_(std::exchange(other.capacity_, 0)),
      mapped_(std::exchange(other.mapped_, false)),
      window_(std::exchange(other.window_, nullptr)),
      window_length_(std::exchange(other.window_length_, 0)) {}

MemberData& MemberData::operator=(MemberData&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    room_ = std::exchange(other.room_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    mapped_ = std::exchange(other.mapped_, false);
    window_ = std::exchange(other.window_, nullptr);
    window_length_ = std::exchange(other.window_length_, 0);
  }
  return *this;
}

bool MemberData::append(const uint8_t* bytes, size_t n) {
  if (n > capacity_ - size_) return false;
  if (n > room_ - size_) {
    // Outgrown the heap start: one move into a reservation of the whole capacity, which then never moves.
    const uint64_t page = page_bytes();
    if (mapped_ || capacity_ > SIZE_MAX - page) return false;
    const size_t rounded = static_cast<size_t>((capacity_ + page - 1) / page * page);
    // Address space only: pages become resident as they are written (MAP_NORESERVE: no commit charge up front).
    void* p = ::mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return false;
    if (size_ != 0) std::memcpy(p, data_, size_);
    delete[] data_;
    data_ = static_cast<uint8_t*>(p);
    room_ = rounded;
    mapped_ = true;
  }
  std::memcpy(data_ + size_, bytes, n);
  size_ += n;
  return true;
}

void MemberData::trim() {
  if (!mapped_) return;
  const size_t page = page_bytes();
  const size_t keep = (size_ + page - 1) / page * page;
  if (keep == room_) return;
  ::munmap(data_ + keep, room_ - keep);
  room_ = keep;
}

}  // namespace tpbisa::neff
