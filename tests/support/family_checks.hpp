// Checks the tests of a family share: the failing predicates' names, a described field's text, an exact assembly
// round trip, and a run refused because the word's semantics are not public.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "machine_builders.hpp"
#include "test_util.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::test {

/// The names of the predicates `w` fails on `g`, in conjunction order.
inline std::vector<std::string> failing_names(const Word& w, Generation g) {
  std::vector<std::string> out;
  const Verdict v = validate(dec(w, g), g);  // alive while its failure list is walked
  for (const Predicate* p : v.failures()) out.emplace_back(p->name);
  return out;
}

/// "value | meaning" of the field `name` as decode describes it on `g`.
inline std::string field_text(const Word& w, Generation g, std::string_view name) {
  for (const DescribedField& f : describe_fields(dec(w, g)))
    if (f.name == name) return format_value(f) + " | " + f.meaning;
  return "(absent)";
}

/// Every word disassembles on every generation to text that assembles back to the same word.
inline void expect_round_trips(std::initializer_list<Word> words, std::initializer_list<Generation> gens) {
  for (const Word& w : words)
    for (Generation g : gens) {
      const std::string text = disassemble(dec(w, g), g);
      const AsmResult a = assemble(text, "roundtrip", g);
      ASSERT_TRUE(a.ok()) << text;
      ASSERT_EQ(a.words.size(), 1U);
      EXPECT_EQ(a.words[0], w) << text;
    }
}

/// Running `w` alone faults on every generation with an UnsupportedOpcode naming `who` ("TensorDequantize (0x7b)")
/// and saying its semantics are not public; the `bytes` at SBUF partition 0 offset `at` are left as they were.
inline void expect_refused(const Word& w, std::initializer_list<Generation> gens, std::string_view who,
                           uint32_t at = 0) {
  constexpr uint64_t kCanary = 0x0123456789ABCDEFULL;
  for (Generation g : gens) {
    Machine m(g, {w}, recording());
    poke(m.mutable_state(), *sbuf_address(g, 0, at), 8, kCanary);
    const StepResult r = m.step();
    ASSERT_EQ(r.status, StepResult::Status::Faulted) << to_string(g);
    EXPECT_EQ(r.fault.kind, FaultKind::UnsupportedOpcode);
    EXPECT_NE(r.fault.detail.find(who), std::string::npos) << r.fault.detail;
    EXPECT_NE(r.fault.detail.find("semantics are not public"), std::string::npos) << r.fault.detail;
    EXPECT_EQ(peek(m.state(), *sbuf_address(g, 0, at), 8), kCanary);
  }
}

}  // namespace tpbisa::test
