// Each family's cases for the generic predicate tests (tests/unit/validate_predicates_test.cpp): a baseline word per
// validator, a mutation per predicate that makes it fail alone, the predicates that cannot fail. A family's folder
// (tests/families/<family>/predicate_cases.cpp) registers them at static initialisation; the test reads them all.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"
#include "tpbisa/generation.hpp"

namespace tpbisa::test {

using Mutate = void (*)(Word&, Generation);

/// A mutation of a validator's baseline that makes one of its predicates fail (alone, or with the stated companions).
struct FailCase {
  std::string_view validator;  ///< validator name, "*" for every validator
  std::string_view predicate;
  unsigned occurrence;  ///< which of the conjuncts with this name (src/in = 0, dst/out = 1)
  Mutate mutate;
  /// Other predicates that necessarily fail with it, and why (empty: it fails alone).
  std::vector<std::string_view> companions = {};
  std::string_view why_not_alone = {};
  bool strict_window = false;
  /// The stream engine the failing word is validated for (ValidateOptions::engine, PROJ-CONV-F1).
  std::optional<StreamEngine> engine = std::nullopt;
};

/// A predicate of a validator that can never fail by construction, and why.
struct Exemption {
  std::string_view validator;
  std::string_view predicate;
  std::string_view why;
};

/// A predicate by which a validator rejects every word on some generations, by its spec: an opcode present in a
/// generation's enum that has no validator there (EXPONENTIAL on SUNDA and CAYMAN, PROJ-CONV-K19). On those generations
/// the baseline fails it alone and no word is accepted; everywhere else it holds on the baseline.
struct GenGate {
  std::string_view validator;
  std::string_view predicate;
  GenSet gens;
  std::string_view why;
};
/// A predicate that never fails with the default options; its FailCase sets the option.
struct OptionExemption {
  std::string_view predicate;
  std::string_view why;
};

/// What one family contributes.
struct PredicateCases {
  std::vector<std::pair<std::string_view, Word (*)()>> baselines;  ///< a valid word per validator name
  std::vector<FailCase> fail_cases;
  std::vector<Exemption> exempt = {};
  std::vector<OptionExemption> exempt_without_option = {};
  std::vector<GenGate> gen_gates = {};
  /// Validators whose predicates validate.tsv covers word by word: every predicate has, on every generation where
  /// the validator judges words, a vector it accepts and a vector that fails it (exempt predicates: accepting only).
  std::vector<std::string_view> vector_covered = {};
};

/// Every registered family's cases (a function-local static: safe whatever static initialiser registers first).
inline std::vector<PredicateCases>& registered_predicate_cases() {
  static std::vector<PredicateCases> all;
  return all;
}

/// Registers one family's cases; returns true (for a namespace-scope initialiser).
inline bool register_predicate_cases(PredicateCases cases) {
  registered_predicate_cases().push_back(std::move(cases));
  return true;
}

// ---- Word helpers the families' baselines share ----

/// Opcode and inst_word_len 16; every other byte left as it is.
inline void set_header(Word& w, uint8_t opcode) {
  w[0] = opcode;
  w[1] = kInstWordLen;
}

/// Start of SBUF partition 1 (memory-and-numerics.md §2: 256 KiB stride, 1 MiB on MAVERICK).
inline uint32_t partition1(Generation g) {
  return g == Generation::Maverick ? 0x100000U : 0x40000U;
}

/// A word from its hex digits, byte 0 first; the bytes after the digits stay zero.
inline Word hex_word(std::string_view hex) {
  Word w{};
  for (size_t i = 0; i < kWordBytes && 2 * i + 1 < hex.size(); ++i)
    w[i] = static_cast<uint8_t>(std::stoul(std::string(hex.substr(2 * i, 2)), nullptr, 16));
  return w;
}

}  // namespace tpbisa::test
