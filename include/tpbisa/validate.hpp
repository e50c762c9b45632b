// Validation: every validator is a list of named predicates; a verdict names every one that fails.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tpbisa/generation.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa {

/// Project conventions that change a verdict, each behind a named switch (docs/conventions.md).
struct ValidateOptions {
  /// PROJ-CONV-M3: also reject MEM_2D words whose immediate-addressed bytes cross a 16 MiB window.
  bool strict_window = false;
  /// PROJ-CONV-C13 alternative: judge the enum term of is_valid_dtype as the runtime's `d <= 0xF`
  /// instead of membership in the generation's DTYPE enum.
  bool dtype_enum_runtime = false;
  /// PROJ-CONV-T11: SYMMETRIC_CLAMP (0x24) counts as arith and general-arith on MAVERICK.
  bool symmetric_clamp_general_arith = true;
  /// The engine whose stream the word is in, when known (a word read from a NEFF stream, or `--engine`).
  /// Engine-placement predicates (PROJ-CONV-F1) hold trivially while it is unknown, the default.
  std::optional<StreamEngine> engine;
};

enum class Basis : uint8_t { Isa, Convention };
enum class Checked : uint8_t { Full, HeaderOnly };

std::string_view to_string(Basis b);
std::string_view to_string(Checked c);

struct CheckContext {
  Generation gen;
  ValidateOptions options;
  /// The engine of the word's stream; nullopt when unknown.
  std::optional<StreamEngine> engine() const { return options.engine; }
};

/// One conjunct of a validator.
struct Predicate {
  std::string_view name;        ///< the ISA header's name (or the spec's, where the header's was not recovered)
  std::string_view convention;  ///< PROJ-CONV id when the predicate's body rests on a convention, else empty
  std::string_view meaning;     ///< what it requires, in one sentence (for docs and --explain)
  GenSet gens;                  ///< generations whose validator contains this conjunct
  std::span<const FieldRef> fields;
  bool (*holds)(const Instruction&, const CheckContext&);
  /// One plain sentence saying why it failed, with the values read.
  std::string (*explain)(const Instruction&, const CheckContext&);
  /// The nested predicate that made it fail, when it is a composition (may be null).
  std::string_view (*via)(const Instruction&, const CheckContext&) = nullptr;
  /// A convention the failure rests on in this case only (e.g. INVALID opcode, PROJ-CONV-C11); may be null.
  std::string_view (*failure_convention)(const Instruction&, const CheckContext&) = nullptr;
  /// The same predicate on the raw 64 bytes, for the fast acceptor (may be null: the validator then declines).
  /// It must be sound: true only when `holds` is true of the decoded word; false means "not sure".
  bool (*accepts)(const uint8_t* word, const CheckContext&) = nullptr;
};

struct Verdict;

/// A top-level validator: data, a list of predicates evaluated in conjunction order.
struct Validator {
  std::string_view name;
  Checked checked;
  std::span<const Predicate* const> conjuncts;
  /// The same conjunction compiled with every predicate inlined (generated from `conjuncts`).
  void (*evaluate)(const Instruction&, const CheckContext&, Verdict&) = nullptr;
  /// The raw-word fast acceptor generated from `conjuncts` when every conjunct has a raw form (`accepts`), else
  /// null. It leaves has_valid_neuron_header and has_valid_neuron_events to its caller (fast_accepts checks them):
  /// with those, true only for a word the full pass finds valid; false sends the word to the decode and the full pass.
  bool (*accept)(const uint8_t* word, const CheckContext&) = nullptr;
};

/// PROJ-CONV-C10: at most 16 failures are reported (the runtime's debug validator shape).
inline constexpr size_t kMaxFailures = 16;

/// The failing predicates of a verdict, in conjunction order (a view; yields `const Predicate*`).
class FailureList {
 public:
  class iterator {
   public:
    using value_type = const Predicate*;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const Validator* v, const uint8_t* at) : v_(v), at_(at) {}
    const Predicate* operator*() const { return v_->conjuncts[*at_]; }
    iterator& operator++() {
      ++at_;
      return *this;
    }
    iterator operator++(int) {
      iterator t = *this;
      ++at_;
      return t;
    }
    bool operator==(const iterator& o) const { return at_ == o.at_; }

   private:
    const Validator* v_ = nullptr;
    const uint8_t* at_ = nullptr;
  };
  FailureList(const Validator* v, const uint8_t* first, size_t n) : v_(v), first_(first), n_(n) {}
  iterator begin() const { return {v_, first_}; }
  iterator end() const { return {v_, first_ + n_}; }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const Predicate* operator[](size_t k) const { return v_->conjuncts[first_[k]]; }

 private:
  const Validator* v_;
  const uint8_t* first_;
  size_t n_;
};

/// The outcome of one validation. Small and allocation-free: failures are indices into the validator's list.
struct Verdict {
  bool valid = true;
  Checked checked = Checked::Full;
  Generation gen = kDefaultGeneration;
  uint8_t n_failed = 0;
  bool truncated = false;  ///< more predicates failed than kMaxFailures
  const Validator* validator = nullptr;
  std::array<uint8_t, kMaxFailures> failed_index{};  ///< positions in validator->conjuncts

  FailureList failures() const { return {validator, failed_index.data(), n_failed}; }
  bool fails(std::string_view predicate) const;
};

/// Validates on `gen` (re-decoding when the instruction was decoded for another generation).
/// Never throws; does not allocate.
Verdict validate(const Instruction& inst, Generation gen, const ValidateOptions& options = {});
/// Validates on the generation the instruction was decoded for.
Verdict validate(const Instruction& inst, const ValidateOptions& options = {});
/// The reference path: every conjunct of the validator's list called through its `holds`, no fast path and no
/// compiled evaluation. validate() returns the same verdict for every word (the differential test checks it).
Verdict validate_full(const Instruction& inst, Generation gen, const ValidateOptions& options = {});

/// PROJ-CONV-F1: whether `opcode` may be issued from the stream of engine `e` (the catalog's placement column).
bool engine_may_issue(uint8_t opcode, StreamEngine e);
/// The same on generation `g` (placement_of(opcode, g)): on MAVERICK the activation family also from DVE
/// (PROJ-CONV-A17), as the executor runs it.
bool engine_may_issue(uint8_t opcode, StreamEngine e, Generation g);

/// The validator that judges an opcode on a generation (header-only for opcodes outside the modeled set).
const Validator& validator_for(uint8_t opcode, Generation gen);

/// Batch form over a stream of 64-byte words; `out` receives one verdict per word (as many as fit).
struct BatchSummary {
  size_t words = 0;
  size_t valid = 0;
  size_t invalid = 0;
  size_t header_only = 0;
};
BatchSummary validate_batch(std::span<const uint8_t> words, Generation gen, const ValidateOptions& options,
                            std::span<Verdict> out);
/// Counting form: judges every word and calls `on_invalid(context, index, verdict)` for each invalid one only
/// (`on_invalid` may be null). Words the raw-word fast acceptor accepts are neither decoded nor given a verdict
/// object. Never throws; does not allocate.
using InvalidWordSink = void (*)(void* context, size_t index, const Verdict& verdict);
BatchSummary validate_batch(std::span<const uint8_t> words, Generation gen, const ValidateOptions& options,
                            InvalidWordSink on_invalid, void* context);

/// Validates one word from its bytes: the raw-word fast acceptor first, the decode and the full pass for a word
/// it does not accept. The same verdict as validate(decode(bytes, gen), gen, options).
Verdict validate(std::span<const uint8_t, kWordBytes> bytes, Generation gen, const ValidateOptions& options = {});
/// Whether the raw-word fast acceptor of the word's validator accepts it (false: not sure, or no acceptor).
/// An accepted word is valid under the full path; exposed for the differential tests and the benchmarks.
bool fast_accepts(std::span<const uint8_t, kWordBytes> bytes, Generation gen, const ValidateOptions& options = {});
/// Whether the validator that judges `opcode` on `gen` has a raw-word fast acceptor at all.
bool has_fast_acceptor(uint8_t opcode, Generation gen);

/// Reporting (allocates; not for hot paths): a failure with the fields it read and one sentence.
struct FieldValue {
  std::string_view name;
  uint8_t first_byte;
  uint8_t last_byte;
  std::array<uint8_t, 32> bytes{};  ///< the field's bytes as they are in the word (first `size` used)
  uint8_t size = 0;
};
struct FailureReport {
  std::string_view predicate;
  Basis basis;
  std::string_view convention;
  std::string_view via;
  std::array<FieldValue, 6> fields{};
  uint8_t n_fields = 0;
  std::string message;
};
FailureReport report(const Predicate& p, const Instruction& inst, const CheckContext& ctx);

/// Every predicate any validator can report, for documentation and tests (deduplicated by name and gens).
std::span<const Validator* const> all_validators();

}  // namespace tpbisa
