// The layouts of the streaming validator's results (`tpbisa validate`): a line per word with its failures below, a
// matrix over several generations with the failures grouped after each input, or one JSON document written as the
// words are judged.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>

#include "tpbisa/io/text_out.hpp"
#include "tpbisa/io/validate_stream.hpp"

namespace tpbisa::io {

enum class ValidateLayout : uint8_t {
  Text,    ///< one generation: a line per word, failures indented below
  Matrix,  ///< several generations: a row per word (ok / hdr / FAIL per generation), then the failures
  Json,    ///< {"results": [...], "summary": {...}, "error"?}
};

/// A layout of the validator's results; an input's note on its generation comes first.
class ValidatePrinter : public ValidateObserver {
 public:
  bool stopped() const override { return out_.failed(); }
  /// The input failed after the words already printed (its error itself is reported apart).
  virtual void failed(const WordSource&) {}
  /// The summary, after every input (or the failed one).
  virtual void finish(const ValidateSummary& s) = 0;

 protected:
  explicit ValidatePrinter(TextOut& out) : out_(out) {}
  TextOut& out_;
};

/// The printer of a layout. `gens` are the generations asked for (empty: each input's own, as the validator picks);
/// `headings` puts "== NAME ==" before the lines of each input (several files).
std::unique_ptr<ValidatePrinter> make_validate_printer(ValidateLayout layout, std::span<const Generation> gens,
                                                       bool headings, TextOut& out);

/// "N checked, V valid, I invalid, H header-only".
std::string validate_summary_line(const ValidateSummary& s);

}  // namespace tpbisa::io
