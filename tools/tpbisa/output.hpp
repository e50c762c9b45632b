// Output files of the commands, all under the library's one policy (tpbisa/io/output_file.hpp).
#pragma once

#include <memory>
#include <span>
#include <string>

#include "common.hpp"
#include "exit_codes.hpp"
#include "tpbisa/io/output_file.hpp"

namespace tpbisa::cli {

using Sink = io::OutputFile;

/// Opens OUT ("-" is stdout) for a command reading `inputs`; `spool` makes stdout all-or-nothing.
inline Expected<std::unique_ptr<Sink>> open_sink(const std::string& path, std::span<const std::string> inputs,
                                                 bool spool = false) {
  return Sink::open(path, io::OutputOptions{inputs, spool});
}

/// Commits the output; on failure reports it and returns the output-error exit code (3).
inline int finish_sink(Sink& sink) {
  const auto done = sink.commit();
  if (done) return kExitOk;
  report_error(done.error());
  return kExitInput;
}

}  // namespace tpbisa::cli
