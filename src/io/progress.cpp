// The progress line of long work on a terminal.
#include "tpbisa/io/progress.hpp"

#include <utility>

#include <fmt/format.h>

namespace tpbisa::io {

using ProgressClock = std::chrono::steady_clock;

ProgressLine::ProgressLine(Text text, Write write, bool log)
    : text_(std::move(text)),
      write_(std::move(write)),
      log_(log),
      next_(log ? start_ : start_ + std::chrono::seconds(1)) {}

ProgressLine::~ProgressLine() {
  if (shown_) write_("\n");
}

void ProgressLine::finish(uint64_t done) {
  if (log_ || shown_) show(done);
}

void ProgressLine::show(uint64_t done) {
  const double s = std::chrono::duration<double>(ProgressClock::now() - start_).count();
  std::string text = "\r" + text_(done, s);
  // Blanks over what a longer line left behind.
  const size_t width = text.size();
  if (width < width_) text.append(width_ - width, ' ');
  width_ = width;
  write_(text);
  shown_ = true;
  next_ = ProgressClock::now() + std::chrono::milliseconds(500);
}

std::string run_progress_text(uint64_t retired, uint64_t total, uint64_t macs, double seconds) {
  if (retired <= total && total != 0 && retired != 0) {
    const double left = seconds * static_cast<double>(total - retired) / static_cast<double>(retired);
    return fmt::format("{} of {} words ({:.0f}%), {} MACs, {:.1f} s, about {:.0f} s left", retired, total,
                       100.0 * static_cast<double>(retired) / static_cast<double>(total), macs, seconds, left);
  }
  return fmt::format("{} words retired ({} in the streams: a loop runs), {} MACs, {:.1f} s", retired, total, macs,
                     seconds);
}

std::string count_progress_text(uint64_t done, uint64_t total, double seconds) {
  if (done <= total && total != 0 && done != 0) {
    const double left = seconds * static_cast<double>(total - done) / static_cast<double>(done);
    return fmt::format("{} of {} words ({:.0f}%), {:.1f} s, about {:.0f} s left", done, total,
                       100.0 * static_cast<double>(done) / static_cast<double>(total), seconds, left);
  }
  return fmt::format("{} words, {:.1f} s", done, seconds);
}

}  // namespace tpbisa::io
