// docs/predicates.md lists every validator and predicate a user can see; this test keeps it equal to the library.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

std::string gens_text(GenSet g) {
  if (g == kGensAll) return "all";
  std::string out;
  for (Generation x : kAllGenerations)
    if (g.has(x)) out += (out.empty() ? "" : ", ") + std::string(to_string(x));
  return out;
}

/// The document as the library defines it: one table per validator, predicates in conjunction order.
std::string render() {
  std::ostringstream o;
  o << "# Validators and predicates\n\n"
       "Every name `tpbisa validate` can report, per validator, in conjunction order (the order failures are\n"
       "listed in). `Gens` is the generations whose validator contains the conjunct; `Convention` names the\n"
       "project convention its body or presence rests on (see conventions.md). A failure may also carry a\n"
       "convention of its own case (for example `has_valid_neuron_header` on opcode 0xff, PROJ-CONV-C11).\n"
       "This file is checked against the library by `tests/unit/docs_predicates_test.cpp`.\n";
  for (const Validator* v : all_validators()) {
    o << "\n## " << v->name << (v->checked == Checked::HeaderOnly ? " (opcodes outside the modeled set)" : "")
      << "\n\n| Predicate | Gens | Convention | Requires |\n|---|---|---|---|\n";
    for (const Predicate* p : v->conjuncts)
      o << "| `" << p->name << "` | " << gens_text(p->gens) << " | " << (p->convention.empty() ? "" : p->convention)
        << " | " << p->meaning << " |\n";
  }
  return o.str();
}

TEST(DocsPredicates, DocumentMatchesTheLibrary) {
  const std::string path = std::string(TPBISA_SOURCE_DIR) + "/docs/predicates.md";
  std::ifstream in(path);
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string expected = render();
  if (buf.str() != expected) {
    std::ofstream("predicates.md.expected") << expected;  // written next to the test for review
    FAIL() << "docs/predicates.md is out of date; the expected text is in predicates.md.expected of the "
              "test's working directory";
  }
}

}  // namespace
}  // namespace tpbisa
