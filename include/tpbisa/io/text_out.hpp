// Where the streamed text layouts (validate, decode) write: a command's stdout, or a string.
#pragma once

#include <string>
#include <string_view>

namespace tpbisa::io {

class TextOut {
 public:
  virtual ~TextOut() = default;
  virtual void write(std::string_view text) = 0;
  /// Pushes what was written so far out (a command's buffered stdout), before text that must follow it.
  virtual void flush() {}
  /// True once a write failed: the layout stops reading its input.
  virtual bool failed() const { return false; }
};

/// A TextOut that collects the text.
class StringOut final : public TextOut {
 public:
  void write(std::string_view text) override { text_ += text; }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

}  // namespace tpbisa::io
