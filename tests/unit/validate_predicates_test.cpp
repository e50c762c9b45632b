// Every predicate of every validator has, per generation, a word passing it and one failing only it (or an exemption).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../support/predicate_cases.hpp"
#include "../support/validate_vectors.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

// ---- The cases: the header-only validator's here, every family's from its folder (tests/families/<family>/) ----

using test::FailCase;

Word engine_nop_word() {
  Word w{};
  test::set_header(w, 0x9F);  // ENGINE_NOP: layout not public, judged by the header-only validator
  return w;
}

/// Baseline word per validator name.
const std::map<std::string_view, Word (*)()>& baselines() {
  static const std::map<std::string_view, Word (*)()> m = [] {
    std::map<std::string_view, Word (*)()> out{{"header-only", engine_nop_word}};
    for (const test::PredicateCases& c : test::registered_predicate_cases())
      out.insert(c.baselines.begin(), c.baselines.end());
    return out;
  }();
  return m;
}

/// Mutations: each makes exactly one predicate fail (or the stated companions too).
const std::vector<FailCase>& fail_cases() {
  static const std::vector<FailCase> cases = [] {
    std::vector<FailCase> out{
        // Every validator starts with the header and events conjuncts.
        {"*", "has_valid_neuron_header", 0, [](Word& w, Generation) { w[1] = 15; }},
        {"*", "has_valid_neuron_events", 0, [](Word& w, Generation) { w[4] = 0x08; }},  // no WAIT_MODE 0x08
    };
    for (const test::PredicateCases& c : test::registered_predicate_cases())
      out.insert(out.end(), c.fail_cases.begin(), c.fail_cases.end());
    return out;
  }();
  return cases;
}

/// Predicates that can never fail by construction, with the reason.
const std::map<std::pair<std::string_view, std::string_view>, std::string_view>& exempt() {
  static const std::map<std::pair<std::string_view, std::string_view>, std::string_view> m = [] {
    std::map<std::pair<std::string_view, std::string_view>, std::string_view> out;
    for (const test::PredicateCases& c : test::registered_predicate_cases())
      for (const test::Exemption& e : c.exempt) out.emplace(std::pair{e.validator, e.predicate}, e.why);
    return out;
  }();
  return m;
}

/// Predicates that never fail with the default options; their FailCase sets the option (checked below).
const std::map<std::string_view, std::string_view>& exempt_without_option() {
  static const std::map<std::string_view, std::string_view> m = [] {
    std::map<std::string_view, std::string_view> out{
        {"engine_placement", "applies only when the stream engine is known (ValidateOptions::engine, PROJ-CONV-F1)"},
    };
    for (const test::PredicateCases& c : test::registered_predicate_cases())
      for (const test::OptionExemption& e : c.exempt_without_option) out.emplace(e.predicate, e.why);
    return out;
  }();
  return m;
}

/// The validators whose predicates validate.tsv covers word by word (make_validate_vectors.py): for each, every
/// predicate has, on every generation where its validator judges words, a vector it accepts and a vector that
/// fails it (exempt predicates: accepting only). Expected verdicts in the file come from the spec.
bool vector_covered(std::string_view validator) {
  for (const test::PredicateCases& c : test::registered_predicate_cases())
    if (std::find(c.vector_covered.begin(), c.vector_covered.end(), validator) != c.vector_covered.end()) return true;
  return false;
}

/// The generation gate of a validator on `g` (every word rejected by one predicate there), or nullptr.
const test::GenGate* gate_of(std::string_view validator, Generation g) {
  for (const test::PredicateCases& c : test::registered_predicate_cases())
    for (const test::GenGate& gate : c.gen_gates)
      if (gate.validator == validator && gate.gens.has(g)) return &gate;
  return nullptr;
}
bool is_gate(std::string_view validator, std::string_view predicate) {
  for (const test::PredicateCases& c : test::registered_predicate_cases())
    for (const test::GenGate& gate : c.gen_gates)
      if (gate.validator == validator && gate.predicate == predicate) return true;
  return false;
}

unsigned occurrence_of(const Validator& v, size_t index) {
  unsigned n = 0;
  for (size_t k = 0; k < index; ++k)
    if (v.conjuncts[k]->name == v.conjuncts[index]->name) ++n;
  return n;
}

const FailCase* find_case(std::string_view validator, std::string_view predicate, unsigned occurrence) {
  for (const FailCase& c : fail_cases())
    if ((c.validator == validator || c.validator == "*") && c.predicate == predicate && c.occurrence == occurrence)
      return &c;
  return nullptr;
}

std::string names(const Verdict& v) {
  std::string s;
  for (const Predicate* p : v.failures()) s += (s.empty() ? "" : ", ") + std::string(p->name);
  return s.empty() ? "(none)" : s;
}

Verdict run(const Word& w, Generation g, const ValidateOptions& options = {}) {
  return validate(decode(std::span<const uint8_t, kWordBytes>(w), g), g, options);
}

TEST(ValidatePredicates, EveryValidatorHasABaselineOnSomeGeneration) {
  for (const Validator* v : all_validators()) {
    const auto it = baselines().find(v->name);
    if (it == baselines().end()) {
      ADD_FAILURE() << "validator " << v->name << " has no baseline word in this test";
      continue;
    }
    const Word base = it->second();
    bool reachable = false;
    for (Generation g : kAllGenerations) {
      if (&validator_for(base[0], g) != v) continue;
      reachable = true;
      const Verdict verdict = run(base, g);
      EXPECT_EQ(verdict.validator, v) << v->name << " on " << to_string(g);
      if (const test::GenGate* gate = gate_of(v->name, g)) {  // rejected there by its gate alone
        EXPECT_EQ(names(verdict), gate->predicate) << v->name << " on " << to_string(g) << " (" << gate->why << ")";
        continue;
      }
      EXPECT_TRUE(verdict.valid) << v->name << " baseline on " << to_string(g) << " fails " << names(verdict);
    }
    EXPECT_TRUE(reachable) << "the baseline of " << v->name << " does not reach it on any generation";
  }
}

TEST(ValidatePredicates, EveryPredicatePassesOnABaselineAndFailsAlone) {
  std::set<const FailCase*> used;
  for (const Validator* v : all_validators()) {
    const auto base_it = baselines().find(v->name);
    if (base_it == baselines().end()) continue;  // reported by the test above
    const Word base = base_it->second();

    for (size_t k = 0; k < v->conjuncts.size(); ++k) {
      const Predicate* p = v->conjuncts[k];
      const unsigned occ = occurrence_of(*v, k);
      const std::string what = std::string(v->name) + " / " + std::string(p->name) + " #" + std::to_string(occ);

      // Generations where this conjunct is part of this validator's verdict (e.g. the MAVERICK-only
      // _with_tile channel check never applies in the SUNDA-only Dual validator).
      std::vector<Generation> gens;
      for (Generation g : kAllGenerations)
        if (p->gens.has(g) && &validator_for(base[0], g) == v && gate_of(v->name, g) == nullptr) gens.push_back(g);

      if (is_gate(v->name, p->name)) {
        // A generation gate: it holds on the baseline where the validator accepts words (checked by the baseline
        // test above, which also checks that it fails alone where it gates).
        for (Generation g : gens)
          EXPECT_TRUE(p->holds(decode(std::span<const uint8_t, kWordBytes>(base), g), CheckContext{g, {}}))
              << what << " on " << to_string(g);
        continue;
      }
      if (gens.empty()) continue;

      if (const auto ex = exempt().find({v->name, p->name}); ex != exempt().end()) {
        // Never fails: check it holds on the baseline everywhere it applies.
        for (Generation g : gens) {
          EXPECT_TRUE(p->holds(decode(std::span<const uint8_t, kWordBytes>(base), g), CheckContext{g, {}}))
              << what << " on " << to_string(g) << " (exempt: " << ex->second << ")";
        }
        continue;
      }

      const FailCase* fc = find_case(v->name, p->name, occ);
      if (fc == nullptr) {
        ADD_FAILURE() << what << ": no failing-only vector and no exemption; add one to this test";
        continue;
      }
      used.insert(fc);
      ValidateOptions options;
      options.strict_window = fc->strict_window;
      ValidateOptions failing = options;  // the engine belongs to the failing case; the baseline's is unknown
      failing.engine = fc->engine;

      for (Generation g : gens) {
        SCOPED_TRACE(what + " on " + std::string(to_string(g)));

        // Passing word: the baseline (valid, so every conjunct holds), its engine unknown; an engine-placement
        // case fails it in the case's stream.
        const Verdict pass = run(base, g, options);
        EXPECT_TRUE(pass.valid) << "baseline fails " << names(pass);

        Word w = base;
        fc->mutate(w, g);
        const Verdict fail = run(w, g, failing);
        EXPECT_EQ(fail.validator, v) << "the mutation changed which validator judges the word";
        EXPECT_FALSE(fail.valid);

        bool has_p = false;
        std::multiset<std::string_view> others;
        for (const Predicate* f : fail.failures()) {
          if (f == p)
            has_p = true;
          else
            others.insert(f->name);
        }
        EXPECT_TRUE(has_p) << "the failing word does not fail it; failures: " << names(fail);
        const std::multiset<std::string_view> want(fc->companions.begin(), fc->companions.end());
        EXPECT_EQ(others, want) << "failures: " << names(fail)
                                << (fc->companions.empty() ? " (it should fail alone)" : "");
        if (!fc->companions.empty()) {
          EXPECT_FALSE(fc->why_not_alone.empty()) << "companions need a reason";
        }

        if (const auto ew = exempt_without_option().find(p->name); ew != exempt_without_option().end()) {
          const Verdict dflt = run(w, g);
          EXPECT_FALSE(dflt.fails(p->name)) << p->name << " failed without its option (" << ew->second << ")";
        }
      }
    }
  }

  // Stale entries: every fail case must have been used by some validator's predicate.
  for (const FailCase& c : fail_cases())
    EXPECT_TRUE(used.count(&c)) << "fail case " << c.validator << " / " << c.predicate << " #" << c.occurrence
                                << " matches no predicate of any validator";
}

TEST(ValidatePredicates, VectorFileHasAnAcceptingAndARejectingWordPerPredicatePerGeneration) {
  const test::TsvFile& file = test::validate_vector_file();
  ASSERT_TRUE(file.readable) << test::kTsvFile;
  for (const Validator* v : all_validators()) {
    if (!vector_covered(v->name)) continue;
    const auto base_it = baselines().find(v->name);
    ASSERT_NE(base_it, baselines().end()) << v->name;
    const Word base = base_it->second();
    std::set<std::string_view> seen;
    for (const Predicate* p : v->conjuncts) {
      if (!seen.insert(p->name).second) continue;  // src/dst twins share one name in the file
      const bool exempt_p = exempt().count({v->name, p->name}) != 0;
      for (Generation g : kAllGenerations) {
        if (!p->gens.has(g) || &validator_for(base[0], g) != v) continue;
        bool accepted = false, rejected = false;
        for (const test::TsvVector& t : file.vectors) {
          if (std::find(t.gens.begin(), t.gens.end(), g) == t.gens.end()) continue;
          if (&validator_for(t.word[0], g) != v) continue;
          (t.failing.count(std::string(p->name)) != 0 ? rejected : accepted) = true;
        }
        const test::GenGate* gate = gate_of(v->name, g);
        EXPECT_TRUE(accepted || (gate != nullptr && gate->predicate == p->name))
            << v->name << " / " << p->name << ": no vector of validate.tsv accepts it on " << to_string(g);
        if (!exempt_p && (gate != nullptr || !is_gate(v->name, p->name))) {  // a gate fails only where it gates
          EXPECT_TRUE(rejected) << v->name << " / " << p->name << ": no vector of validate.tsv fails it on "
                                << to_string(g) << "; add one to the family's tests/families/<family>/vectors.py";
        }
      }
    }
  }
}

}  // namespace
}  // namespace tpbisa
