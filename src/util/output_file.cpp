// Output files and folders: atomic replacement of regular files and of extracted folders, write-through for devices
// and FIFOs, inputs never overwritten, temporaries removed on error and by remove_temporaries() (a signal handler's).
#include "tpbisa/io/output_file.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace tpbisa::io {
namespace {

// ---- the live temporary files and folders, for remove_temporaries(): fixed storage, async-signal-safe ----

constexpr size_t kSlots = 16;
constexpr size_t kPathMax = 4096;
std::array<char[kPathMax], kSlots> g_paths{};
std::array<std::atomic<bool>, kSlots> g_used{};
std::array<std::atomic<bool>, kSlots> g_folder{};  ///< the slot names a folder tree, not a file
/// The signals held while a temporary is created and recorded: those after which a program removes them.
constexpr std::array<int, 4> kSignals{SIGINT, SIGTERM, SIGHUP, SIGPIPE};

/// Removes the tree at `root` with system calls alone (the handler may not allocate, and opendir does): each pass
/// lists one folder, unlinks what it can, descends into the first subfolder that is not empty, and climbs back
/// once a folder is empty. Bounded, so a tree that cannot be removed cannot hold the process.
void remove_tree(const char* root, std::array<char, kPathMax>& path_buffer, std::array<char, 4096>& listing_buffer) {
  char* const path = path_buffer.data();
  char* const listing = listing_buffer.data();
  size_t root_len = 0;
  while (root[root_len] != '\0' && root_len + 1 < kPathMax) {
    path[root_len] = root[root_len];
    ++root_len;
  }
  path[root_len] = '\0';
  size_t len = root_len;
  for (int pass = 0; pass < 1 << 20; ++pass) {
    const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    bool descended = false;
    while (fd >= 0 && !descended) {
      const ssize_t n = ::getdents64(fd, listing, listing_buffer.size());
      if (n <= 0) break;
      for (ssize_t at = 0; at < n && !descended;) {
        const auto* d = reinterpret_cast<const struct dirent64*>(listing + at);
        at += d->d_reclen;
        const char* name = d->d_name;
        if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
        if (::unlinkat(fd, name, 0) == 0 || ::unlinkat(fd, name, AT_REMOVEDIR) == 0) continue;
        if (errno != ENOTEMPTY && errno != EEXIST) continue;
        size_t name_len = 0;
        while (name[name_len] != '\0') ++name_len;
        if (len + 1 + name_len >= kPathMax) continue;
        path[len] = '/';
        for (size_t i = 0; i <= name_len; ++i) path[len + 1 + i] = name[i];
        len += 1 + name_len;
        descended = true;
      }
    }
    if (fd >= 0) ::close(fd);
    if (descended) continue;
    ::rmdir(path);
    if (len <= root_len) return;
    while (len > root_len && path[len] != '/') --len;
    path[len] = '\0';
  }
}

// remove_temporaries' buffers: static, since a signal handler may not allocate and may run on a small stack.
std::array<char, kPathMax> g_tree_path{};
alignas(8) std::array<char, 4096> g_tree_listing{};

int claim_slot(const std::string& path, bool folder = false) {
  if (path.size() >= kPathMax) return -1;
  for (size_t i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (g_used[i].load() || !g_used[i].compare_exchange_strong(expected, true)) continue;
    // Called with the cleanup signals blocked, so the handler never sees a half-written name.
    std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
    g_folder[i].store(folder);
    return static_cast<int>(i);
  }
  return -1;
}

/// Holds the cleanup signals for its lifetime: a temporary is created and recorded, or renamed and forgotten,
/// as one step the handler never sees half done.
class HeldSignals {
 public:
  HeldSignals() {
    sigset_t held;
    sigemptyset(&held);
    for (int sig : kSignals) sigaddset(&held, sig);
    ::sigprocmask(SIG_BLOCK, &held, &before_);
  }
  ~HeldSignals() { ::sigprocmask(SIG_SETMASK, &before_, nullptr); }
  HeldSignals(const HeldSignals&) = delete;
  HeldSignals& operator=(const HeldSignals&) = delete;

 private:
  sigset_t before_{};
};

void release_slot(int slot) {
  if (slot >= 0) g_used[static_cast<size_t>(slot)].store(false);
}

std::string dir_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

Error error(ErrorKind kind, std::string message) {
  return {kind, std::move(message)};
}

bool write_all(int fd, const char* data, size_t n, int& err) {
  while (n > 0) {
    const ssize_t got = ::write(fd, data, n);
    if (got < 0) {
      if (errno == EINTR) continue;
      err = errno;
      return false;
    }
    data += got;
    n -= static_cast<size_t>(got);
  }
  return true;
}

constexpr size_t kBuffer = 64 * 1024;

}  // namespace

void remove_temporaries() {
  const int saved = errno;
  for (size_t i = 0; i < kSlots; ++i) {
    if (!g_used[i].load()) continue;
    if (g_folder[i].load())
      remove_tree(g_paths[i], g_tree_path, g_tree_listing);
    else
      ::unlink(g_paths[i]);
  }
  errno = saved;
}

namespace {

/// Where an output goes under the policy: what `path` is, the file written (a link's target) and whether it exists.
struct Destination {
  std::string target;
  struct stat st {};
  bool exists = false;
};

/// The lexically normal absolute form of `path` with its folder's links resolved (as far as the folder exists).
std::string resolved_name(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::absolute(path, ec).lexically_normal();
  if (ec) return path;
  const std::filesystem::path folder = std::filesystem::weakly_canonical(p.parent_path(), ec);
  return ec ? p.string() : (folder / p.filename()).string();
}

/// The checks of the policy, shared by open() and check(): nothing is created.
Expected<Destination> destination(const std::string& path, const OutputOptions& options) {
  Destination d;
  d.target = path;
  d.exists = ::lstat(path.c_str(), &d.st) == 0;
  if (!d.exists && errno != ENOENT)
    return error(ErrorKind::Open, fmt::format("{}: cannot create: {}", path, std::strerror(errno)));
  if (d.exists && S_ISLNK(d.st.st_mode)) {
    // Followed: the link stays, its target is written.
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved) == nullptr || ::stat(resolved, &d.st) != 0)
      return error(ErrorKind::Refused,
                   fmt::format("{}: is a symbolic link to nothing; refusing to create its target", path));
    d.target = resolved;
  }
  if (d.exists && S_ISDIR(d.st.st_mode)) return error(ErrorKind::Open, fmt::format("{}: is a directory", path));
  if (d.exists && S_ISREG(d.st.st_mode)) {
    for (const std::string& in : options.inputs) {
      struct stat is {};
      const int got = in == "-" ? ::fstat(STDIN_FILENO, &is) : ::stat(in.c_str(), &is);
      if (got == 0 && is.st_dev == d.st.st_dev && is.st_ino == d.st.st_ino)
        return error(ErrorKind::Refused, fmt::format("{}: is also an input ({}); refusing to overwrite it", path,
                                                     in == "-" ? "<stdin>" : in));
    }
  }
  for (const std::string& other : options.outputs)
    if (other != "-" && same_destination(path, other))
      return error(ErrorKind::Refused,
                   fmt::format("{}: is also another output ({}); refusing to write one over the other", path, other));
  return d;
}

}  // namespace

bool same_destination(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  // One does not exist yet: the same name in the same folder, links resolved as far as they lead.
  const auto name = [](const std::string& p) {
    char full[PATH_MAX];
    return ::realpath(p.c_str(), full) != nullptr ? std::string(full) : resolved_name(p);
  };
  return name(a) == name(b);
}

Expected<void> OutputFile::check(const std::string& path, const OutputOptions& options) {
  if (path == "-") return {};
  auto d = destination(path, options);
  if (!d) return d.error();
  return {};
}

Expected<std::unique_ptr<OutputFile>> OutputFile::open(const std::string& path, const OutputOptions& options) {
  std::unique_ptr<OutputFile> f(new OutputFile());
  f->buffer_.reserve(kBuffer);
  if (path == "-") {
    f->label_ = "<stdout>";
    std::fflush(stdout);  // whatever stdio holds goes first
    if (!options.spool_stdout) {
      f->fd_ = STDOUT_FILENO;
      return f;
    }
    f->mode_ = Mode::Spool;
    std::FILE* spool = std::tmpfile();  // anonymous: nothing to remove
    if (spool == nullptr)
      return error(ErrorKind::Open, fmt::format("<stdout>: cannot create a temporary file: {}", std::strerror(errno)));
    f->fd_ = ::dup(::fileno(spool));
    std::fclose(spool);
    f->own_fd_ = true;
    return f;
  }
  f->label_ = path;
  auto dest = destination(path, options);
  if (!dest) return dest.error();
  const std::string& target = dest->target;
  const struct stat& st = dest->st;
  const bool exists = dest->exists;
  if (exists && !S_ISREG(st.st_mode)) {
    // A device or a FIFO: written through, never replaced by a regular file.
    f->fd_ = ::open(target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (f->fd_ < 0)
      return error(ErrorKind::Open, fmt::format("{}: cannot open for writing: {}", path, std::strerror(errno)));
    f->own_fd_ = true;
    return f;
  }
  // A regular file, or a new one: a temporary file beside the target, renamed onto it by commit().
  std::string tmpl = fmt::format("{}/.{}.tpbisa-XXXXXX", dir_of(target), base_of(target));
  // The signals are held while the file is created and its name recorded, so none can leave it behind.
  int fd = -1;
  {
    const HeldSignals held;
    fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
    if (fd >= 0) f->slot_ = claim_slot(tmpl);
  }
  if (fd < 0)
    return error(ErrorKind::Open, fmt::format("{}: cannot create a temporary file in {}: {}", path, dir_of(target),
                                              std::strerror(errno)));
  f->fd_ = fd;
  f->own_fd_ = true;
  f->mode_ = Mode::Atomic;
  f->target_ = target;
  f->temp_ = tmpl;
  if (exists) {
    (void)::fchmod(fd, st.st_mode & 07777);
    (void)::fchown(fd, st.st_uid, st.st_gid);  // allowed for root only; otherwise the file is the writer's
  } else {
    // mkstemp creates 0600; give the new file the permissions a newly created file would have.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    (void)::fchmod(fd, 0666 & ~mask);
  }
  return f;
}

OutputFile::~OutputFile() {
  if (!done_) discard();
}

bool OutputFile::write(std::string_view bytes) {
  if (errno_ != 0 || done_) return false;
  if (buffer_.size() + bytes.size() > kBuffer && !flush()) return false;
  if (bytes.size() >= kBuffer) return write_all(fd_, bytes.data(), bytes.size(), errno_);
  buffer_.append(bytes);
  return true;
}

bool OutputFile::flush() {
  if (errno_ != 0) return false;
  const bool ok = write_all(fd_, buffer_.data(), buffer_.size(), errno_);
  buffer_.clear();
  return ok;
}

Error OutputFile::write_error() const {
  return {ErrorKind::Write, fmt::format("{}: write error: {}", label_, std::strerror(errno_ != 0 ? errno_ : EIO))};
}

Expected<void> OutputFile::commit() {
  if (done_) return {};
  const bool written = flush();
  if (!written) {
    const Error e = write_error();
    discard();
    return e;
  }
  if (mode_ == Mode::Spool) {
    // Copy the spool to stdout: all of it was produced, so all of it is delivered.
    done_ = true;
    std::array<char, 65536> chunk{};
    off_t at = 0;
    for (;;) {
      const ssize_t got = ::pread(fd_, chunk.data(), chunk.size(), at);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;
      at += got;
      if (!write_all(STDOUT_FILENO, chunk.data(), static_cast<size_t>(got), errno_)) break;
    }
    ::close(fd_);
    fd_ = -1;
    if (errno_ != 0) return write_error();
    return {};
  }
  if (own_fd_ && ::close(fd_) != 0 && errno_ == 0) errno_ = errno;
  fd_ = -1;
  if (errno_ != 0) {
    const Error e = write_error();
    discard();
    return e;
  }
  done_ = true;
  if (mode_ == Mode::Atomic) {
    if (std::rename(temp_.c_str(), target_.c_str()) != 0) {
      const int err = errno;
      ::unlink(temp_.c_str());
      release_slot(slot_);
      return Error{ErrorKind::Write, fmt::format("{}: cannot replace: {}", label_, std::strerror(err))};
    }
    release_slot(slot_);
  }
  return {};
}

void OutputFile::discard() {
  if (done_) return;
  if (mode_ == Mode::Through) flush();  // a stream keeps what was produced before the failure, as stdout does
  done_ = true;
  if (own_fd_ && fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (mode_ == Mode::Atomic) {
    ::unlink(temp_.c_str());
    release_slot(slot_);
  }
}

// ---- OutputDirectory ----

Expected<std::unique_ptr<OutputDirectory>> OutputDirectory::create(const std::string& path) {
  std::unique_ptr<OutputDirectory> d(new OutputDirectory());
  d->target_ = path;
  while (d->target_.size() > 1 && d->target_.back() == '/') d->target_.pop_back();
  std::string tmpl = fmt::format("{}/.{}.partial-XXXXXX", dir_of(d->target_), base_of(d->target_));
  bool made = false;
  {
    const HeldSignals held;
    made = ::mkdtemp(tmpl.data()) != nullptr;
    if (made) d->slot_ = claim_slot(tmpl, true);
  }
  if (!made)
    return error(ErrorKind::Open, fmt::format("{}: cannot create a folder beside it: {}", path, std::strerror(errno)));
  d->temp_ = tmpl;
  return d;
}

OutputDirectory::~OutputDirectory() {
  if (!done_) discard();
}

Expected<void> OutputDirectory::commit() {
  if (done_) return {};
  // mkdtemp made the folder 0700; it is put in place with the mode a new folder has under the umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  (void)::chmod(temp_.c_str(), 0777 & ~mask);
  int err = 0;
  {
    const HeldSignals held;
    // rename(2) replaces an empty folder in one step and refuses one that is not empty.
    if (::rename(temp_.c_str(), target_.c_str()) != 0) err = errno;
    if (err == 0) {
      done_ = true;
      release_slot(slot_);
    }
  }
  if (err != 0) {
    discard();
    return Error{ErrorKind::Write,
                 fmt::format("{}: cannot move the folder into place: {}", target_, std::strerror(err))};
  }
  return {};
}

void OutputDirectory::discard() {
  if (done_) return;
  done_ = true;
  // Held: a signal arriving meanwhile runs its own removal once this one is finished.
  const HeldSignals held;
  std::array<char, kPathMax> path{};
  alignas(8) std::array<char, 4096> listing{};
  remove_tree(temp_.c_str(), path, listing);
  release_slot(slot_);
}

}  // namespace tpbisa::io
