// Streaming validation (`tpbisa validate`, Python's validate_stream): every word of an input judged on each requested
// generation a block at a time, in place and in constant memory, with a NEFF's program checks joined per word; with
// failing_only, the counting fast path, on several threads. What is handed out, the counts and their order are the
// same for every thread count.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tpbisa/instruction.hpp"
#include "tpbisa/io/words.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::io {

/// How one word fared on one generation; the three outcomes partition the words.
enum class Outcome : uint8_t { Valid, HeaderOnly, Invalid };

struct OutcomeCounts {
  uint64_t valid = 0, invalid = 0, header_only = 0;
  void add(Outcome o);
};

/// The counts of a streamed validation.
struct ValidateSummary {
  uint64_t checked = 0;
  OutcomeCounts
      all;  ///< overall: invalid if invalid on a generation, header-only if valid on all and header-only on one
  std::array<OutcomeCounts, 4> per_gen{};  ///< by generation
  GenSet used;                             ///< the generations words were judged on
};

/// One word judged on every requested generation (decoded once per generation).
struct JudgedWord {
  std::array<Instruction, 4> inst{};
  std::array<Verdict, 4> verdict{};
  /// The program-level failures at this word, per generation (NEFF inputs; nullptr: none).
  std::array<const std::vector<neff::ProgramFailure>*, 4> program{};
  std::array<Outcome, 4> outcome{};
  size_t n = 0;                              ///< generations judged on (verdict[0..n))
  const ValidateOptions* options = nullptr;  ///< the switches and the word's engine
  uint64_t index = 0;                        ///< the word's index in its input (or NEFF stream)
  uint8_t opcode = 0;
  std::string_view name;  ///< the mnemonic when a requested generation has the opcode, else "unknown"
  Outcome overall = Outcome::Valid;
};

/// Receives what a streamed validation hands out, in input order.
class ValidateObserver {
 public:
  virtual ~ValidateObserver() = default;
  /// An input starts, judged on `gens` (the requested generations, or the input's own).
  virtual void begin_input(const WordSource& src, std::span<const Generation> gens) = 0;
  /// A judged word: every word, or with failing_only each word invalid on some generation.
  virtual void word(const WordSource& src, const JudgedWord& j) = 0;
  /// The input ended, at its end or at its error.
  virtual void end_input(const WordSource&) {}
  /// True once the observer takes nothing more (its output failed): the validation stops there.
  virtual bool stopped() const { return false; }
};

/// The most threads a validation uses (more would find no chunk of a block to judge).
inline constexpr unsigned kMaxValidateJobs = 16;
/// The CPUs this process may run on (its affinity mask, so a command pinned with taskset runs on one thread, else
/// the hardware's count), 1..kMaxValidateJobs.
unsigned default_validate_jobs();

struct StreamValidateOptions {
  std::vector<Generation> gens;  ///< empty: each input's own generation (a NEFF's target), else the default
  ValidateOptions validate;      ///< the switches; `engine` is that of plain words (a NEFF word's is its stream's)
  bool failing_only = false;     ///< hand out only the words invalid on some generation (--quiet)
  unsigned jobs = 1;             ///< threads that judge with failing_only, 1..kMaxValidateJobs
};

/// Validates inputs one after another into one summary.
class StreamValidator {
 public:
  explicit StreamValidator(StreamValidateOptions options);
  ~StreamValidator();
  StreamValidator(const StreamValidator&) = delete;
  StreamValidator& operator=(const StreamValidator&) = delete;

  enum class Ended : uint8_t { Done, Failed, Stopped };
  /// Judges `src` to its end (Done), its first error (Failed: src.error(); what came before was handed out and
  /// counted), or the observer's stop (Stopped).
  Ended validate(WordSource& src, ValidateObserver& observer);
  const ValidateSummary& summary() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// One result of `tpbisa validate --json`: input, stream (NEFF words), index, offset, opcode, name and the verdict
/// per generation, with its program checks.
nlohmann::ordered_json judged_word_json(const WordSource& src, const JudgedWord& j);
/// The "summary" of `tpbisa validate --json`: generations, checked, valid, invalid, header_only, per_generation.
nlohmann::ordered_json validate_summary_json(const ValidateSummary& s);

}  // namespace tpbisa::io
