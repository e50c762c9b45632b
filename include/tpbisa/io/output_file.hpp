// The output-file policy every command that writes a file follows (docs/robustness.md, "Output files").
//
// * "-" is stdout, written through (or, with spool_stdout, held in an anonymous temporary file and copied at
//   commit, so stdout gets all of it or nothing).
// * A regular file (or a name that does not exist yet) is written atomically: a temporary file beside it, renamed
//   onto it by commit(); an existing file keeps its mode (and, where permitted, its owner). A failed or abandoned
//   write leaves the old file as it was.
// * A symbolic link is followed: its target is what is written (atomically when the target is a regular file).
//   A link whose target does not exist is refused.
// * Anything else that exists (a character or block device, a FIFO) is written through, never replaced.
// * An output that is one of the command's inputs (the same file) is refused, and so is one that is another output
//   of the command (the same file, or the same name in the same folder before either exists).
// * Temporary files are removed when the OutputFile is destroyed without commit(), and by remove_temporaries(),
//   which a program's signal handler calls before the signal ends it (the library installs no handler: signal
//   dispositions belong to the program; the tpbisa command's main installs them for SIGINT, SIGTERM and SIGHUP).
// * A folder (OutputDirectory, `neff extract`) is written the same way: into a fresh private folder beside it,
//   renamed onto it at the end, and removed with everything in it on failure and by remove_temporaries().
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "tpbisa/expected.hpp"

namespace tpbisa::io {

/// Removes every temporary file and staging folder of an OutputFile or OutputDirectory not yet committed or
/// discarded. Async-signal-safe (system calls alone, no allocation, errno kept), for a handler of the signals that
/// end the program: call it, then let the signal take its course. The objects are not told: after it, the program
/// is expected to end. Their creation and their commit run with SIGINT, SIGTERM, SIGHUP and SIGPIPE held on the
/// calling thread, so a handler never sees one half recorded.
void remove_temporaries();

struct OutputOptions {
  std::span<const std::string> inputs;     ///< paths the command reads ("-" is stdin); none may be the output
  bool spool_stdout = false;               ///< "-": all or nothing (held until commit)
  std::span<const std::string> outputs{};  ///< the command's other outputs; none may be this one
};

/// True when `a` and `b` name one file: the same device and inode when both exist, else the same name in the same
/// folder once links are resolved (an output that does not exist yet).
bool same_destination(const std::string& a, const std::string& b);

class OutputFile {
 public:
  /// Opens `path` under the policy above. Errors: "PATH: cannot create ...: OS error", "PATH: is a directory",
  /// "PATH: is also an input (INPUT); refusing to overwrite it", "PATH: is a symbolic link to nothing".
  static Expected<std::unique_ptr<OutputFile>> open(const std::string& path, const OutputOptions& options = {});
  /// What open() would refuse, checked without creating anything (a command checks its outputs before it works):
  /// the same errors, and "PATH: is also another output (OTHER); refusing to write one over the other".
  static Expected<void> check(const std::string& path, const OutputOptions& options = {});

  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// Appends bytes; false once any write failed (later writes are dropped, commit() reports the failure).
  bool write(std::string_view bytes);
  bool write(std::span<const uint8_t> bytes) {
    return write(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }
  bool failed() const { return errno_ != 0; }
  /// "<stdout>" or the path as given.
  const std::string& label() const { return label_; }

  /// Flushes and puts the output in place (rename for atomic files). Error: "LABEL: write error: OS error" or
  /// "LABEL: cannot replace: OS error"; the old file is then intact and the temporary file gone.
  Expected<void> commit();
  /// Abandons the output: the temporary file is removed, the old file stays. A written-through output (stdout, a
  /// device, a FIFO) gets what was written so far, as a stream would.
  void discard();

 private:
  OutputFile() = default;
  bool flush();
  Error write_error() const;

  enum class Mode : uint8_t { Through, Atomic, Spool };
  Mode mode_ = Mode::Through;
  std::string label_;
  std::string target_;  ///< the file renamed onto (atomic)
  std::string temp_;    ///< the temporary file beside it (atomic)
  int fd_ = -1;
  bool own_fd_ = false;
  int slot_ = -1;  ///< the temporary file's slot in remove_temporaries()' table, or -1
  int errno_ = 0;
  bool done_ = false;
  std::string buffer_;
};

/// A folder written whole or not at all. create() makes a fresh private folder `.NAME.partial-XXXXXX` (mode 0700)
/// beside `path`; the caller fills staging(); commit() renames it onto `path` (which may not exist, or be an empty
/// folder: rename(2) replaces that in one step and refuses a folder that is not empty). Without commit() — an
/// error, an early return, or remove_temporaries() in a signal handler — the staging folder is removed with
/// everything in it, so `path` either appears complete or not at all. What `path` may be beforehand is the caller's
/// policy.
class OutputDirectory {
 public:
  /// Error: "PATH: cannot create a folder beside it: OS error".
  static Expected<std::unique_ptr<OutputDirectory>> create(const std::string& path);

  ~OutputDirectory();
  OutputDirectory(const OutputDirectory&) = delete;
  OutputDirectory& operator=(const OutputDirectory&) = delete;

  /// The folder to write into.
  const std::string& staging() const { return temp_; }
  /// Gives the staging folder the mode of a new folder (0777 less the umask) and renames it onto the target.
  /// Error: "PATH: cannot move the folder into place: OS error"; the staging folder is then removed.
  Expected<void> commit();
  /// Removes the staging folder and everything in it.
  void discard();

 private:
  OutputDirectory() = default;

  std::string target_;
  std::string temp_;
  int slot_ = -1;  ///< the staging folder's slot in remove_temporaries()' table, or -1
  bool done_ = false;
};

}  // namespace tpbisa::io
