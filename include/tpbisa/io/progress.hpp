// A progress line on a terminal for long work (`tpbisa run PROG.neff`, `tpbisa validate`): redrawn in place at most
// twice a second, from the first second on (from the start when it is a log), with a last line at the end.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "tpbisa/machine.hpp"

namespace tpbisa::io {

class ProgressLine {
 public:
  /// The line's text for `done` units after `seconds`.
  using Text = std::function<std::string(uint64_t done, double seconds)>;
  /// Where the line goes (stderr, the terminal).
  using Write = std::function<void(std::string_view)>;

  /// `log` (a log rather than a terminal): lines from the start, and a last one at the end, so that a log always has
  /// one.
  ProgressLine(Text text, Write write, bool log);
  /// Ends the line shown last with a newline.
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// Shows the line when it is due; true (the work goes on).
  bool operator()(uint64_t done) {
    if (std::chrono::steady_clock::now() >= next_) show(done);
    return true;
  }
  /// The work ended after `done` units: its last line (for a log, or when a line is up).
  void finish(uint64_t done);

 private:
  void show(uint64_t done);

  Text text_;
  Write write_;
  bool log_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point next_;
  size_t width_ = 0;
  bool shown_ = false;
};

/// A run's line: "N of T words (P%), M MACs, S s, about L s left" while the run has retired no more words than its
/// streams hold (`total`); past that a loop runs and no end is known: "N words retired (T in the streams: a loop
/// runs), M MACs, S s".
std::string run_progress_text(uint64_t retired, uint64_t total, uint64_t macs, double seconds);

/// A count's line: "N of T words (P%), S s, about L s left"; "N words, S s" when the total is unknown (0) or passed.
std::string count_progress_text(uint64_t done, uint64_t total, double seconds);

}  // namespace tpbisa::io
