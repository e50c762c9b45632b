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

/// "`dtype` 12, `num_elem` 14-15": the fields a predicate reads, with the byte ranges the declarations give.
std::string fields_text(const Predicate& p) {
  std::string out;
  for (const FieldRef& f : p.fields) {
    out += (out.empty() ? "`" : ", `") + std::string(f.name) + "` " + std::to_string(f.offset);
    if (f.size > 1) out += "-" + std::to_string(f.offset + f.size - 1);
  }
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
       "`Reads` is the fields it reads and their bytes in the word, taken from the format declarations.\n"
       "This file is checked against the library by `tests/unit/docs_predicates_test.cpp`.\n";
  for (const Validator* v : all_validators()) {
    o << "\n## " << v->name << (v->checked == Checked::HeaderOnly ? " (opcodes outside the modeled set)" : "")
      << "\n\n| Predicate | Gens | Convention | Requires | Reads |\n|---|---|---|---|---|\n";
    for (const Predicate* p : v->conjuncts)
      o << "| `" << p->name << "` | " << gens_text(p->gens) << " | " << (p->convention.empty() ? "" : p->convention)
        << " | " << p->meaning << " | " << fields_text(*p) << " |\n";
  }
  return o.str();
}

TEST(DocsPredicates, DocumentMatchesTheLibrary) {
  const std::string path = TPBISA_SOURCE_DIR "/docs/predicates.md";
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
