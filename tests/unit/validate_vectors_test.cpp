// Data-driven validation: each validate.tsv vector gives, per generation, its verdict and exact failing set.
#include <gtest/gtest.h>

#include <cctype>
#include <cstddef>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../support/validate_vectors.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

using Vector = test::TsvVector;
using VectorFile = test::TsvFile;
const char* const kVectorFile = test::kTsvFile;
/// How many vectors make_validate_vectors.py writes today; a shorter file means vectors were lost.
constexpr size_t kMinVectors = 600;

const VectorFile& vector_file() {
  return test::validate_vector_file();
}

std::string join(const std::set<std::string>& names) {
  if (names.empty()) return "-";
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

TEST(ValidateVectors, FileIsReadableAndComplete) {
  const VectorFile& f = vector_file();
  ASSERT_TRUE(f.readable) << "cannot read " << kVectorFile;
  for (const std::string& e : f.errors) ADD_FAILURE() << kVectorFile << " " << e;
  EXPECT_GE(f.vectors.size(), kMinVectors) << "the vector file lost vectors; regenerate it with "
                                              "tests/vectors/make_validate_vectors.py";
  std::set<std::string> ids;
  for (const Vector& v : f.vectors) EXPECT_TRUE(ids.insert(v.id).second) << "duplicate vector id " << v.id;
}

/// One parameter per (vector, generation).
struct VectorCase {
  size_t index;
  Generation gen;
};

void PrintTo(const VectorCase& c, std::ostream* os) {
  *os << vector_file().vectors[c.index].id << " on " << to_string(c.gen);
}

std::vector<VectorCase> all_cases() {
  std::vector<VectorCase> cases;
  const VectorFile& f = vector_file();
  for (size_t i = 0; i < f.vectors.size(); ++i)
    for (Generation g : f.vectors[i].gens) cases.push_back({i, g});
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<VectorCase>& info) {
  const Vector& v = vector_file().vectors[info.param.index];
  std::string name = "v" + std::to_string(info.param.index) + "_";
  for (char c : v.id) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name + "_" + std::string(to_string(info.param.gen));
}

/// The nested predicate edge-cases.md names with "[via q]" for a composite conjunct of these vectors: the
/// library reports the outer conjunct and names q as its `via`.
const std::map<std::string, std::map<std::string, std::string>>& expected_via() {
  static const std::map<std::string, std::map<std::string, std::string>> m = [] {
    std::map<std::string, std::map<std::string, std::string>> v;
    const std::string shared = "mem2d_shared_constraints", ops = "tensor_scalar_ptr_multi_valid_ops";
    for (const char* id : {"7", "8", "10a", "10b"}) v[id][shared] = "mem2d_num_elem_check";
    for (char c = 'a'; c <= 'j'; ++c) v[std::string("17") + c][shared] = "mem2d_dtype_check";
    for (const char* id : {"18a", "18b", "19a", "19b"}) v[id][shared] = "mem2d_dtype_check";
    for (const char* id : {"110a", "110b"}) v[id]["has_valid_bn_param_load_imm0"] = "is_valid_imm_reg";
    v["121"]["tensor_scalar_ptr_multi_reverse_chk"] = "is_valid_enum";
    for (const char* id : {"124a", "124b", "124c", "124d", "125a", "125b", "126"}) v[id][ops] = "is_general_arith_op";
    for (const char* id : {"128a", "128b", "128c"}) v[id][ops] = "is_bitvec_op";
    for (const char* id : {"125c", "130a", "130b", "130c", "130d", "132/scm", "133a", "133b", "133c"})
      v[id][ops] = "is_valid_enum";
    return v;
  }();
  return m;
}

class TsvVector : public ::testing::TestWithParam<VectorCase> {};

TEST_P(TsvVector, VerdictAndFailingSetMatch) {
  const Vector& v = vector_file().vectors[GetParam().index];
  const Generation g = GetParam().gen;
  SCOPED_TRACE("vector " + v.id + " (validate.tsv line " + std::to_string(v.line) + ") on " +
               std::string(to_string(g)) + ", options " + v.options_text);

  const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(v.word), g);
  const Verdict verdict = validate(inst, g, v.options);

  std::set<std::string> actual;
  for (const Predicate* p : verdict.failures()) actual.insert(std::string(p->name));

  EXPECT_EQ(verdict.valid, v.valid) << "expected " << (v.valid ? "valid" : "invalid") << ", failing set "
                                    << join(actual);
  EXPECT_EQ(actual, v.failing) << "expected failing {" << join(v.failing) << "}, library reports {" << join(actual)
                               << "}";
  EXPECT_FALSE(verdict.truncated);

  const CheckContext ctx{g, v.options};
  const auto via = expected_via().find(v.id);
  for (const Predicate* p : verdict.failures()) {
    const FailureReport r = report(*p, inst, ctx);
    EXPECT_EQ(r.predicate, p->name);
    EXPECT_FALSE(r.message.empty()) << "report() of " << p->name << " has no message";
    if (via == expected_via().end()) continue;
    if (const auto q = via->second.find(std::string(p->name)); q != via->second.end()) {
      EXPECT_EQ(r.via, q->second) << p->name << " should be reported via " << q->second;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Tsv, TsvVector, ::testing::ValuesIn(all_cases()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TsvVector);

}  // namespace
}  // namespace tpbisa
