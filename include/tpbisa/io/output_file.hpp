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
// * An output that is one of the command's inputs (the same file) is refused.
// * Temporary files never outlive the process: they are removed on SIGINT, SIGTERM, SIGHUP and SIGPIPE (then the
//   signal takes its course) as well as when the OutputFile is destroyed without commit().
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "tpbisa/expected.hpp"

namespace tpbisa::io {

struct OutputOptions {
  std::span<const std::string> inputs;  ///< paths the command reads ("-" is stdin); none may be the output
  bool spool_stdout = false;            ///< "-": all or nothing (held until commit)
};

class OutputFile {
 public:
  /// Opens `path` under the policy above. Errors: "PATH: cannot create ...: OS error", "PATH: is a directory",
  /// "PATH: is also an input (INPUT); refusing to overwrite it", "PATH: is a symbolic link to nothing".
  static Expected<std::unique_ptr<OutputFile>> open(const std::string& path, const OutputOptions& options = {});

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
  int slot_ = -1;  ///< the temporary file's slot in the signal-cleanup table, or -1
  int errno_ = 0;
  bool done_ = false;
  std::string buffer_;
};

}  // namespace tpbisa::io
