// Activation tables: the worked evaluations of act-index-ops.md §3.8 on the real set, the exactly-known functions of
// §3.7 over special inputs, agreement with libm within §3.8's bounds, and every load-time check of §3.3.6 rejecting.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "../../support/test_util.hpp"
#include "families/act/tables.hpp"
#include "kernels/matmul.hpp"
#include "neff/act_tables.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::test::act_tables {
namespace {

namespace fs = std::filesystem;
using act::EvalStatus;
using act::LoadFault;
using act::SetCatalog;
using act::TableSet;

uint32_t b(float f) {
  return std::bit_cast<uint32_t>(f);
}
float f(uint32_t u) {
  return std::bit_cast<float>(u);
}

/// The real set `exp_and_others` of matmul_small.neff (sg00), read once; nullptr when the file is absent.
const TableSet* real_set() {
  static const std::shared_ptr<const TableSet> kSet = []() -> std::shared_ptr<const TableSet> {
    if (!fs::exists(kNeff)) return nullptr;
    neff::Result<neff::Neff> n = neff::read_file(kNeff.string());
    if (!n.ok()) return nullptr;
    const SetCatalog c = neff::activation_sets(*n, n->subgraphs.front());
    const TableSet::Parsed p = c.by_index(0);
    return p.set;
  }();
  return kSet.get();
}

#define REQUIRE_REAL_SET(t)       \
  const TableSet* t = real_set(); \
  if ((t) == nullptr) GTEST_SKIP() << kNeff << " is absent (shared data not available): skipped"

uint32_t eval(const TableSet& t, std::string_view fn, uint32_t v, uint32_t alpha = 0) {
  const act::Profile* p = t.profile_named(fn);
  EXPECT_NE(p, nullptr) << fn;
  if (p == nullptr) return 0xDEADBEEF;
  const act::EvalResult r = act::evaluate(t, *p, v, alpha);
  EXPECT_EQ(r.status, EvalStatus::Ok) << fn;
  return r.bits;
}

TEST(ActTables, RealSetShape) {
  REQUIRE_REAL_SET(t);
  EXPECT_EQ(t->name(), "exp_and_others");
  EXPECT_EQ(t->profiles().size(), 15U);
  EXPECT_EQ(t->buckets().size(), 941U);
  EXPECT_EQ(t->control().size(), 89U);
  // §3.3.4 record 0 and §3.3.5 control words.
  EXPECT_EQ(t->buckets()[0], (act::Bucket{0x3f7fffd0, 0x3f7fffd0, 0x3effffd0, 0x3e2aaa8b, 0xb63fffff}));
  EXPECT_EQ(t->control()[0], 0x0000b800U);
  EXPECT_EQ(t->control()[26], 0x0000b996U);
  EXPECT_EQ(t->control()[44], 0x0001b1a8U);
  EXPECT_EQ(t->control()[64], 0x0000bb2dU);
  ASSERT_NE(t->profile(7), nullptr);
  EXPECT_EQ(t->profile(7)->func_name, "exp_400p");
  EXPECT_EQ(t->profile(7)->base_name, "exp");
  EXPECT_EQ(t->profile(5), nullptr);  // sigmoid is not in this set
  ASSERT_NE(t->profile(4), nullptr);
  EXPECT_TRUE(t->profile(4)->parametric_relu);
}

// §3.8, every row, bit for bit.
TEST(ActTables, WorkedEvaluations) {
  REQUIRE_REAL_SET(t);
  EXPECT_EQ(eval(*t, "exp", 0x3f000000), 0x3fd308b1U);
  EXPECT_EQ(eval(*t, "exp", 0xbf800000), 0x3ebc5a40U);
  EXPECT_EQ(eval(*t, "exp", 0x41200000), 0x46ac1470U);
  EXPECT_EQ(eval(*t, "exp", 0x42b20000), 0x7f800000U);
  EXPECT_EQ(eval(*t, "exp", 0x35800000), 0x3f800008U);
  EXPECT_EQ(eval(*t, "exp", 0xc2d00000), 0x00000000U);
  EXPECT_EQ(eval(*t, "tanh", 0x3f000000), 0x3eec9a9eU);
  EXPECT_EQ(eval(*t, "tanh", 0xbf000000), 0xbeec9a9eU);
  EXPECT_EQ(eval(*t, "tanh", 0x3727c5ac), 0x3727c5acU);
  EXPECT_EQ(eval(*t, "tanh", b(10.0F)), 0x3f800000U);
  EXPECT_EQ(eval(*t, "identity", 0xc0500000), 0xc0500000U);
  EXPECT_EQ(eval(*t, "relu", 0xbf800000), 0x00000000U);
  EXPECT_EQ(eval(*t, "relu", 0x40200000), 0x40200000U);
  EXPECT_EQ(eval(*t, "square", b(-3.0F)), 0x41100000U);
  EXPECT_EQ(eval(*t, "leaky_relu", b(-100.0F)), 0xbf800000U);
  // §3.6 notes: subnormal inputs.
  EXPECT_EQ(eval(*t, "exp", 0x00000001), 0x3f800000U);
  EXPECT_EQ(eval(*t, "exp", 0x80000001), 0x3f800000U);
  EXPECT_EQ(eval(*t, "tanh", 0x00400000), 0x00400000U);
  EXPECT_EQ(eval(*t, "identity", 0x80000001), 0x80000001U);
  EXPECT_EQ(eval(*t, "square", 0x00000001), 0x00000000U);
  EXPECT_EQ(eval(*t, "relu", 0x807fffff), 0x00000000U);
}

// §3.7: the exactly-known functions over every special class, and their formula over ordinary values.
TEST(ActTables, ExactlyKnownFunctions) {
  REQUIRE_REAL_SET(t);
  constexpr uint32_t kPZ = 0, kNZ = 0x80000000, kPI = 0x7f800000, kNI = 0xff800000, kNaN = 0x7fc00000,
                     kSNaN = 0x7f800001, kNNaN = 0xffc00001, kOne = 0x3f800000, kMOne = 0xbf800000;
  struct Row {
    std::string_view fn;
    uint32_t zero, pinf, ninf, nan;
  };
  const Row kRows[] = {
      {"identity", kPZ, kPI, kNI, kNaN},   {"copy", kPZ, kPI, kNI, kNaN},       {"relu", kPZ, 0x7f7f0000, kPZ, kNaN},
      {"leaky_relu", kPZ, kPI, kNI, kNaN}, {"abs", kPZ, kPI, kPI, kNaN},        {"sign", kPZ, kOne, kMOne, kNaN},
      {"square", kPZ, kPI, kPI, kNaN},     {"memset_zero", kPZ, kPZ, kPZ, kPZ}, {"is_finite", kOne, kPZ, kPZ, kPZ},
  };
  for (const Row& r : kRows) {
    SCOPED_TRACE(r.fn);
    EXPECT_EQ(eval(*t, r.fn, kPZ), r.zero);
    EXPECT_EQ(eval(*t, r.fn, kNZ), r.zero);
    EXPECT_EQ(eval(*t, r.fn, kPI), r.pinf);
    EXPECT_EQ(eval(*t, r.fn, kNI), r.ninf);
    EXPECT_EQ(eval(*t, r.fn, kNaN), r.nan);
    EXPECT_EQ(eval(*t, r.fn, kSNaN), r.nan);
    EXPECT_EQ(eval(*t, r.fn, kNNaN), r.nan);
  }
  // Ordinary values: smallest/largest subnormal and normal, ±1, the largest finite (saturation range), and a spread.
  std::vector<uint32_t> values = {0x00000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0x3f800000, 0x3f000000,
                                  0x4b000001, 0x1f000000, 0x5f800000, 0x3dcccccd, 0x447a0000};
  const size_t positive = values.size();
  for (size_t i = 0; i < positive; ++i) values.push_back(values[i] | 0x80000000U);
  for (const uint32_t v : values) {
    SCOPED_TRACE(v);
    const float x = f(v);
    const bool pos = x > 0.0F;
    EXPECT_EQ(eval(*t, "identity", v), v);
    EXPECT_EQ(eval(*t, "copy", v), v);
    EXPECT_EQ(eval(*t, "relu", v), pos ? v : 0U);
    // d0 = +0 is added after the slope (§3.6 step 6): an underflowing product gives +0, not -0.
    EXPECT_EQ(eval(*t, "leaky_relu", v), pos ? v : b(0.01F * x + 0.0F));
    EXPECT_EQ(eval(*t, "abs", v), v & 0x7fffffffU);
    EXPECT_EQ(eval(*t, "sign", v), pos ? kOne : kMOne);
    EXPECT_EQ(eval(*t, "square", v), b(x * x));  // overflow -> +Inf, underflow -> +0
    EXPECT_EQ(eval(*t, "memset_zero", v), 0U);
    EXPECT_EQ(eval(*t, "is_finite", v), kOne);
    EXPECT_EQ(eval(*t, "derivative_identity", v), kOne);
    EXPECT_EQ(eval(*t, "derivative_relu", v), pos ? kOne : 0U);
    EXPECT_EQ(eval(*t, "derivative_leaky_relu", v), pos ? kOne : b(0.01F));
  }
  EXPECT_EQ(eval(*t, "square", 0x7f7fffff), kPI);
  EXPECT_EQ(eval(*t, "square", 0x5f800000), kPI);  // 2^64 squared overflows
}

// The reference-model functions of the real set (exp, tanh) over every special class (§3.6 step 1, the profiles'
// results), denormals (the small-signal slots) and the saturation ranges (the large-signal slots), against the
// mathematical values: exact where fp32 rounding makes them so, else within §3.8's bounds.
TEST(ActTables, ReferenceModelFunctionsOverSpecialInputs) {
  REQUIRE_REAL_SET(t);
  constexpr uint32_t kPZ = 0, kNZ = 0x80000000, kPI = 0x7f800000, kNI = 0xff800000, kNaN = 0x7fc00000,
                     kSNaN = 0x7f800001, kNNaN = 0xffc00001, kOne = 0x3f800000, kMOne = 0xbf800000;
  for (const uint32_t z : {kPZ, kNZ}) {
    EXPECT_EQ(eval(*t, "exp", z), kOne);
    EXPECT_EQ(eval(*t, "tanh", z), kPZ);  // the profile's fzero_result, for -0 too
  }
  EXPECT_EQ(eval(*t, "exp", kPI), kPI);
  EXPECT_EQ(eval(*t, "exp", kNI), kPZ);
  EXPECT_EQ(eval(*t, "tanh", kPI), kOne);
  EXPECT_EQ(eval(*t, "tanh", kNI), kMOne);
  for (const uint32_t n : {kNaN, kSNaN, kNNaN}) {
    EXPECT_EQ(eval(*t, "exp", n), kNaN);
    EXPECT_EQ(eval(*t, "tanh", n), kNaN);
    EXPECT_EQ(eval(*t, "derivative_relu", n), kNaN);
    EXPECT_EQ(eval(*t, "parametric_relu", n, b(0.5F)), kNaN);
  }
  // Denormals: exp is 1 within the bound, tanh(x) is x within it.
  for (const uint32_t d : {0x00000001U, 0x007fffffU, 0x80000001U, 0x807fffffU}) {
    SCOPED_TRACE(d);
    EXPECT_LE(std::fabs(f(eval(*t, "exp", d)) - 1.0), 1.2e-5);
    EXPECT_LE(std::fabs(static_cast<double>(f(eval(*t, "tanh", d))) - f(d)), 2.7e-7 * std::fabs(f(d)));
  }
  // Saturation: exp overflows to +Inf past ln(FLT_MAX) and underflows to +0 far below; tanh is ±1 in fp32 past 9.
  for (const float x : {89.0F, 100.0F, 1e30F, 3.4e38F}) EXPECT_EQ(eval(*t, "exp", b(x)), kPI) << x;
  for (const float x : {-200.0F, -1e30F, -3.4e38F}) EXPECT_EQ(eval(*t, "exp", b(x)), kPZ) << x;
  for (const float x : {20.0F, 1e10F, 3.4e38F}) {
    EXPECT_EQ(eval(*t, "tanh", b(x)), kOne) << x;
    EXPECT_EQ(eval(*t, "tanh", b(-x)), kMOne) << x;
  }
}

TEST(ActTables, ParametricReluAndNanOption) {
  REQUIRE_REAL_SET(t);
  EXPECT_EQ(eval(*t, "parametric_relu", b(3.0F), b(0.25F)), b(3.0F));
  EXPECT_EQ(eval(*t, "parametric_relu", b(-3.0F), b(0.25F)), b(-0.75F));
  EXPECT_EQ(eval(*t, "parametric_relu", b(-0.1F), b(0.3F)), b(0.3F * -0.1F));
  // PROJ-CONV-A3 switch: the NaN falls through to a saturation slot and propagates (exp: +Inf slot d0 ... NaN).
  const act::Profile* p = t->profile_named("is_finite");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(act::evaluate(*t, *p, 0x7fc00000).bits, 0U);
  const act::EvalResult fall = act::evaluate(*t, *p, 0x7fc00000, 0, {.nan_fallthrough = true});
  EXPECT_EQ(fall.status, EvalStatus::Ok);
  EXPECT_TRUE(std::isnan(f(fall.bits)));
}

// §3.8 accuracy: exp <= 1.2e-5 relative over [-80, 88], tanh <= 2.7e-7 over [-10, 10].
TEST(ActTables, AgreesWithLibm) {
  REQUIRE_REAL_SET(t);
  double worst_exp = 0, worst_tanh = 0;
  for (int i = 0; i <= 168000; ++i) {
    const float x = static_cast<float>(-80.0 + i * 0.001);
    const double y = f(eval(*t, "exp", b(x)));
    worst_exp = std::max(worst_exp, std::fabs(y - std::exp(static_cast<double>(x))) / std::exp(static_cast<double>(x)));
  }
  for (int i = 0; i <= 200000; ++i) {
    const float x = static_cast<float>(-10.0 + i * 0.0001);
    if (x == 0.0F) continue;
    const double ref = std::tanh(static_cast<double>(x));
    const double y = f(eval(*t, "tanh", b(x)));
    worst_tanh = std::max(worst_tanh, std::fabs(y - ref) / std::fabs(ref));
  }
  EXPECT_LE(worst_exp, 1.2e-5);
  EXPECT_GT(worst_exp, 1e-7);  // the tables approximate: not libm itself
  EXPECT_LE(worst_tanh, 2.7e-7);
}

TEST(ActTables, BuiltinExactSetEqualsTablePath) {
  const TableSet& builtin = act::builtin_exact_set();
  EXPECT_EQ(builtin.profiles().size(), 7U);
  for (const int id : {1, 128, 2, 33, 31, 30, 130}) EXPECT_NE(builtin.profile(static_cast<uint8_t>(id)), nullptr) << id;
  EXPECT_EQ(builtin.profile(7), nullptr);
  EXPECT_EQ(eval(builtin, "relu", b(-2.0F)), 0U);
  EXPECT_EQ(eval(builtin, "relu", 0x7f800000), 0x7f7f0000U);
  EXPECT_EQ(eval(builtin, "sign", b(-2.0F)), 0xbf800000U);
  EXPECT_EQ(eval(builtin, "square", b(-3.0F)), b(9.0F));
  const TableSet* real = real_set();
  if (real == nullptr) GTEST_SKIP() << kNeff << " is absent: the comparison with the real set is skipped";
  std::vector<uint32_t> values = {0,          0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                  0x00000001, 0x807fffff, 0x7f7fffff, 0xff7fffff};
  for (uint32_t v = 0x3e000000; v < 0x42000000; v += 0x12345) values.push_back(v), values.push_back(v | 0x80000000);
  for (const act::Profile& p : builtin.profiles())
    for (const uint32_t v : values)
      EXPECT_EQ(eval(builtin, p.base_name, v), eval(*real, p.base_name, v)) << p.func_name;
}

// ---- load-time checks (§3.3.6) on crafted members ----

using Members = std::map<std::string, std::string, std::less<>>;

std::string identity_profile(int id = 1, const std::string& extra = "") {
  return R"({"func_name": "identity_1p", "func_id": )" + std::to_string(id) +
         R"(, "fzero_result": 0, "fpinf_result": 2139095040, "fninf_result": 4286578688, "fnan_result": 2143289344,
    "symmetry_opt_en": 0, "symmetry_opt_use_neg_region": 0, "sym_invert_sign_point": 0, "symmetry_point": 0,
    "exp_offset": -127, "pwl_control_base_pos": 0, "pwl_control_base_neg": 0, "small_pos_signal_exp_threshold": 0,
    "small_neg_signal_exp_threshold": 0, "large_pos_signal_exp_threshold": 0, "large_neg_signal_exp_threshold": 0,
    "large_pos_signal_mantissa_threshold": 0, "large_neg_signal_mantissa_threshold": 0,
    "pos_small_signal_pwl_control": 0, "neg_small_signal_pwl_control": 1, "pos_large_signal_pwl_control": 2,
    "neg_large_signal_pwl_control": 3, "use_multipass": false)" +
         extra + "}";
}

/// A well-formed one-function set "tiny" (identity, 4 slot records, one control word), its catalog and Activation.json.
Members tiny_members() {
  Members m;
  m["Activation.json"] = R"({"act_info": "act_info.json", "activation_function_sets": ["tiny"]})";
  m["act_info.json"] = R"({"act_func_sets": [{"name": "tiny", "bkt_bin": "tiny_bkt.bin", "ctrl_bin": "tiny_ctrl.bin",
      "profile_json": "tiny.json"}, {"name": "absent_set"}]})";
  m["tiny.json"] = R"({"bkt_bin": "tiny_bkt.bin", "ctl_bin": "tiny_ctrl.bin", "bkt_entry_cnt": 4, "ctl_entry_cnt": 1,
      "profile_meta_data": [)" +
                   identity_profile() + "]}";
  std::string bkt(128, '\0');
  for (int r = 0; r < 4; ++r) {
    const uint32_t one = 0x3f800000;
    std::memcpy(bkt.data() + 32 * r + 4, &one, 4);  // d1 = 1
  }
  m["tiny_bkt.bin"] = bkt;
  m["tiny_ctrl.bin"] = std::string(32, '\0');
  return m;
}

SetCatalog catalog_of(const Members& m) {
  return SetCatalog::read("sgX", [&m](std::string_view name) -> std::optional<std::span<const uint8_t>> {
    const auto it = m.find(name);
    if (it == m.end()) return std::nullopt;
    return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(it->second.data()), it->second.size());
  });
}

void expect_fault(const Members& m, LoadFault fault, std::string_view mentions, size_t index = 0) {
  const TableSet::Parsed p = catalog_of(m).by_index(index);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error.fault, fault) << p.error.message;
  EXPECT_NE(p.error.message.find(mentions), std::string::npos) << p.error.message;
}

TEST(ActTableChecks, WellFormedTinySet) {
  const SetCatalog c = catalog_of(tiny_members());
  const TableSet::Parsed p = c.by_index(0);
  ASSERT_TRUE(p.ok()) << p.error.message;
  EXPECT_EQ(p.set->name(), "tiny");
  EXPECT_EQ(eval(*p.set, "identity", b(-2.5F)), b(-2.5F));
  EXPECT_TRUE(c.by_name("tiny").ok());
  EXPECT_EQ(c.embedded().size(), 1U);
}

TEST(ActTableChecks, EachCheckRejects) {
  // 1: Activation.json or the act_info member absent.
  Members m = tiny_members();
  m.erase("Activation.json");
  expect_fault(m, LoadFault::SetNotInNeff, "sgX/Activation.json");
  m = tiny_members();
  m.erase("act_info.json");
  expect_fault(m, LoadFault::SetNotInNeff, "act_info.json");
  // 2: either does not parse, or lacks its keys.
  m = tiny_members();
  m["Activation.json"] = "{\"act_info\": ";
  expect_fault(m, LoadFault::TableError, "Activation.json");
  m = tiny_members();
  m["act_info.json"] = R"({"act_func_sets": [{"nom": "tiny"}]})";
  expect_fault(m, LoadFault::TableError, "act_info.json");
  m = tiny_members();
  m["act_info.json"] = std::string(100, '[') + std::string(100, ']');
  expect_fault(m, LoadFault::TableError, "nested deeper");
  // 3: an index beyond the catalog.
  expect_fault(tiny_members(), LoadFault::SetIndexOutOfRange, "set index 2", 2);
  // 4: a set of the catalog that Activation.json does not list.
  expect_fault(tiny_members(), LoadFault::SetNotInNeff, "absent_set", 1);
  EXPECT_EQ(catalog_of(tiny_members()).by_name("absent_set").error.fault, LoadFault::SetNotInNeff);
  // 5: the manifest or a blob absent; a manifest without its keys.
  m = tiny_members();
  m.erase("tiny.json");
  expect_fault(m, LoadFault::SetNotInNeff, "sgX/tiny.json");
  m = tiny_members();
  m.erase("tiny_ctrl.bin");
  expect_fault(m, LoadFault::SetNotInNeff, "tiny_ctrl.bin");
  m = tiny_members();
  m["tiny.json"] = R"({"bkt_bin": "tiny_bkt.bin", "bkt_entry_cnt": 4, "ctl_entry_cnt": 1, "profile_meta_data": []})";
  expect_fault(m, LoadFault::TableError, "ctl_bin");
  m = tiny_members();
  m["tiny.json"] = R"({"bkt_bin": "../tiny_bkt.bin", "ctl_bin": "tiny_ctrl.bin", "bkt_entry_cnt": 4,
      "ctl_entry_cnt": 1, "profile_meta_data": []})";
  expect_fault(m, LoadFault::SetNotInNeff, "../tiny_bkt.bin");
  // 6: BUCKET size != 32 x bkt_entry_cnt (the message gives the byte count).
  m = tiny_members();
  m["tiny_bkt.bin"].pop_back();
  expect_fault(m, LoadFault::TableError, "127 bytes");
  // 7: CONTROL count zero, or a size neither 16 nor 32 per record.
  m = tiny_members();
  m["tiny_ctrl.bin"] = std::string(24, '\0');
  expect_fault(m, LoadFault::TableError, "24 bytes");
  m = tiny_members();
  m["tiny.json"] = R"({"bkt_bin": "tiny_bkt.bin", "ctl_bin": "tiny_ctrl.bin", "bkt_entry_cnt": 4,
      "ctl_entry_cnt": 0, "profile_meta_data": []})";
  expect_fault(m, LoadFault::TableError, "ctl_entry_cnt 0");
  m = tiny_members();
  m["tiny_ctrl.bin"] = std::string(16, '\0');  // 16-byte records are accepted
  EXPECT_TRUE(catalog_of(m).by_index(0).ok());
  // 8: a profile key missing, of the wrong kind, or a func_id twice.
  const auto with_profiles = [](const std::string& profiles) {
    Members mm = tiny_members();
    mm["tiny.json"] = R"({"bkt_bin": "tiny_bkt.bin", "ctl_bin": "tiny_ctrl.bin", "bkt_entry_cnt": 4,
        "ctl_entry_cnt": 1, "profile_meta_data": [)" +
                      profiles + "]}";
    return mm;
  };
  std::string missing = identity_profile();
  missing.replace(missing.find("\"exp_offset\": -127,"), 19, "");
  expect_fault(with_profiles(missing), LoadFault::TableError, "exp_offset");
  std::string wrong = identity_profile();
  wrong.replace(wrong.find("\"fzero_result\": 0"), 17, "\"fzero_result\": 0.5");
  expect_fault(with_profiles(wrong), LoadFault::TableError, "fzero_result");
  expect_fault(with_profiles(identity_profile() + "," + identity_profile()), LoadFault::TableError,
               "func_id 1 occurs twice");
  expect_fault(with_profiles(identity_profile(300)), LoadFault::TableError, "func_id");
  // The symmetry flags may be booleans.
  std::string flags = identity_profile();
  flags.replace(flags.find("\"symmetry_opt_en\": 0"), 20, "\"symmetry_opt_en\": false");
  EXPECT_TRUE(catalog_of(with_profiles(flags)).by_index(0).ok());
}

TEST(ActTableChecks, EvaluationIndicesAreBounded) {
  // A profile whose thresholds reach a control word beyond the table: BadIndex, never a read outside it.
  std::string p = identity_profile();
  p.replace(p.find("\"large_pos_signal_exp_threshold\": 0"), 35, "\"large_pos_signal_exp_threshold\": 200");
  p.replace(p.find("\"exp_offset\": -127"), 18, "\"exp_offset\": 0");
  Members m = tiny_members();
  m["tiny.json"] = R"({"bkt_bin": "tiny_bkt.bin", "ctl_bin": "tiny_ctrl.bin", "bkt_entry_cnt": 4,
      "ctl_entry_cnt": 1, "profile_meta_data": [)" +
                   p + "]}";
  const TableSet::Parsed s = catalog_of(m).by_index(0);
  ASSERT_TRUE(s.ok()) << s.error.message;
  const act::EvalResult r = act::evaluate(*s.set, s.set->profiles()[0], b(4.0F));
  EXPECT_EQ(r.status, EvalStatus::BadIndex);
  EXPECT_EQ(r.index, 2);  // 0 + (129 - 127 - 0)
  // A multipass profile is refused (PROJ-CONV-A5).
  std::string mp = identity_profile();
  mp.replace(mp.find("\"use_multipass\": false"), 22, "\"use_multipass\": true");
  m["tiny.json"] = R"({"bkt_bin": "tiny_bkt.bin", "ctl_bin": "tiny_ctrl.bin", "bkt_entry_cnt": 4,
      "ctl_entry_cnt": 1, "profile_meta_data": [)" +
                   mp + "]}";
  const TableSet::Parsed s2 = catalog_of(m).by_index(0);
  ASSERT_TRUE(s2.ok());
  EXPECT_EQ(act::evaluate(*s2.set, s2.set->profiles()[0], b(4.0F)).status, EvalStatus::Multipass);
  // The row path reports the same status and index at the same element (the lookup leaves such octaves to it).
  for (const TableSet::Parsed* set : {&s, &s2}) {
    const uint32_t in[3] = {b(0.5F), b(4.0F), b(1.0F)};
    uint32_t fast[3] = {}, ref[3] = {};
    const act::RowResult f = act::evaluate_row(*set->set, set->set->profiles()[0], in, fast, 3);
    const act::RowResult r2 = act::evaluate_row_reference(*set->set, set->set->profiles()[0], in, ref, 3);
    EXPECT_EQ(f.status, r2.status);
    EXPECT_EQ(f.index, r2.index);
    EXPECT_EQ(f.at, r2.at);
    EXPECT_NE(f.status, EvalStatus::Ok);
    // The BF16 memo refuses a row holding such a pattern (the caller's row path then reports it), and every row of
    // the run after it; a new run accepts rows again.
    if (set == &s2) continue;
    act::Bf16Memo memo;
    const act::RowInput bf16{.bf16 = true};
    // 2^80 takes the large slot; 4.0 reaches the bad index.
    const uint16_t good[2] = {0x6780, 0x6780}, bad[2] = {0x6780, 0x4080};
    uint32_t out[2] = {};
    memo.begin(*set->set, set->set->profiles()[0], bf16, {}, false);
    EXPECT_TRUE(memo.row(good, out, 2));
    EXPECT_EQ(out[0], act::evaluate(*set->set, set->set->profiles()[0], 0x67800000).bits);
    EXPECT_FALSE(memo.row(bad, out, 2));
    EXPECT_FALSE(memo.row(good, out, 2));
    memo.begin(*set->set, set->set->profiles()[0], bf16, {}, false);
    EXPECT_TRUE(memo.row(good, out, 2));
    memo.end();
  }
}

/// Inputs for the row path's differential test: every special class, each octave's first, middle and last
/// mantissa on both signs (the lookup's boundaries, the threshold octaves included), and pseudo-random patterns.
/// The random part of the row-path differentials: the optimised tree (the plain test binary) runs all of it, the
/// sanitized tree a tenth (each input costs tens of times more there; every special pattern above stays).
#ifdef TPBISA_ASAN
constexpr int kRandomInputs = 20000;
#else
constexpr int kRandomInputs = 200000;
#endif

std::vector<uint32_t> differential_inputs() {
  std::vector<uint32_t> in = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
                              0xFF800001, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x7F7FFFFF, 0xFF7FFFFF};
  for (uint32_t sign = 0; sign < 2; ++sign)
    for (uint32_t e = 0; e < 256; ++e)
      for (const uint32_t m : {0U, 1U, 0x400000U, 0x3FFFFFU, 0x7FFFFEU, 0x7FFFFFU, 0x123457U})
        in.push_back(sign << 31 | e << 23 | m);
  uint64_t x = 0x9E3779B97F4A7C15ULL;
  for (int i = 0; i < kRandomInputs; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    in.push_back(static_cast<uint32_t>(x));
  }
  return in;
}

/// The row path (the set's lookup) against evaluate() element by element: the same bits for every input.
void expect_row_path_equals_reference(const TableSet& t) {
  const std::vector<uint32_t> in = differential_inputs();
  std::vector<uint32_t> fast(in.size()), ref(in.size());
  for (const act::Profile& p : t.profiles()) {
    if (p.use_multipass) continue;
    for (const bool nan_fallthrough : {false, true}) {
      const act::EvalOptions o{.nan_fallthrough = nan_fallthrough};
      const act::RowResult f = act::evaluate_row(t, p, in.data(), fast.data(), in.size(), b(0.01F), o);
      const act::RowResult r = act::evaluate_row_reference(t, p, in.data(), ref.data(), in.size(), b(0.01F), o);
      ASSERT_EQ(f.status, r.status) << p.func_name;
      ASSERT_EQ(f.at, r.at) << p.func_name;
      for (size_t i = 0; i < f.at; ++i)
        ASSERT_EQ(fast[i], ref[i]) << p.func_name << " at " << fmt::format("{:#010x}", in[i]);
    }
  }
}

/// The fused row pass (widening, affine step, evaluation) against the reference element by element, for fp32 and
/// BF16 rows and affine steps that keep the input, scale it into every octave, overflow it to Inf, shrink it to
/// denormals or zero, or make it NaN.
void expect_affine_row_path_equals_reference(const TableSet& t) {
  std::vector<uint32_t> in = differential_inputs();
  in.resize(std::min<size_t>(in.size(), 60000));
  std::vector<uint16_t> in16(in.size());
  for (size_t i = 0; i < in.size(); ++i) in16[i] = static_cast<uint16_t>(in[i] >> 16);
  std::vector<uint32_t> fast(in.size()), ref(in.size());
  struct Affine {
    float scale, bias;
  };
  const float inf = std::numeric_limits<float>::infinity();
  for (const act::Profile& p : t.profiles()) {
    if (p.use_multipass) continue;
    for (const bool bf16 : {false, true})
      for (const Affine a :
           {Affine{1.0F, 0.0F}, Affine{1.5F, -0.25F}, Affine{0.25F, 0.0F}, Affine{-3.0F, 1e-3F}, Affine{1e30F, 0.0F},
            Affine{1e-39F, -0.0F}, Affine{0.0F, 0.0F}, Affine{inf, 1.0F}, Affine{1.0F, std::nanf("")}}) {
        const act::RowInput row{.data = bf16 ? static_cast<const void*>(in16.data()) : in.data(),
                                .bf16 = bf16,
                                .affine = true,
                                .scale = a.scale,
                                .bias = a.bias};
        const act::RowResult f = act::evaluate_row(t, p, row, fast.data(), in.size(), b(0.01F));
        const act::RowResult r = act::evaluate_row_reference(t, p, row, ref.data(), in.size(), b(0.01F));
        ASSERT_EQ(f.status, r.status) << p.func_name;
        ASSERT_EQ(f.at, r.at) << p.func_name;
        for (size_t i = 0; i < f.at; ++i)
          ASSERT_EQ(fast[i], ref[i]) << p.func_name << (bf16 ? " bf16 " : " fp32 ") << a.scale << "·x + " << a.bias
                                     << " at " << fmt::format("{:#010x}", in[i]);
      }
  }
}

/// The BF16 memo (act::Bf16Memo) against the reference row by row, for every profile the row path takes and affine
/// steps that keep, scale, overflow or shrink the input or make it NaN: a row of pseudo-random patterns, every one of
/// the 65536 patterns (most new, some met), the first row again (all met), a short row, and a run begun again; the
/// fp32 results and their BF16 narrowing (by the conversion module, without and with saturation).
void expect_bf16_memo_equals_reference(const TableSet& t) {
  std::vector<uint16_t> random_row(3000), all(1U << 16), tail = {0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC1};
  uint32_t x = 12345;
  for (uint16_t& r : random_row) {
    x = x * 1103515245U + 12345U;
    r = static_cast<uint16_t>(x >> 16);
  }
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint16_t>(i * 40503U);  // every pattern once
  const std::vector<const std::vector<uint16_t>*> rows = {&random_row, &all, &random_row, &tail};
  std::vector<uint32_t> fast(all.size()), ref(all.size());
  std::vector<uint16_t> fast16(all.size());
  struct Affine {
    float scale, bias;
  };
  const float inf = std::numeric_limits<float>::infinity();
  act::Bf16Memo memo;
  for (const act::Profile& p : t.profiles()) {
    if (!act::row_path_applies(p, {})) continue;
    for (const Affine a : {Affine{1.0F, 0.0F}, Affine{1.5F, -0.25F}, Affine{1e30F, 0.0F}, Affine{1e-39F, -0.0F},
                           Affine{inf, 1.0F}, Affine{1.0F, std::nanf("")}})
      for (int run = 0; run < 2; ++run) {
        const act::RowInput in{.bf16 = true, .affine = true, .scale = a.scale, .bias = a.bias};
        memo.begin(t, p, in, {}, run == 1);
        for (const std::vector<uint16_t>* row : rows) {
          act::RowInput r = in;
          r.data = row->data();
          ASSERT_TRUE(memo.row(row->data(), fast.data(), row->size())) << p.func_name;
          ASSERT_EQ(act::evaluate_row_reference(t, p, r, ref.data(), row->size()).status, EvalStatus::Ok);
          for (size_t i = 0; i < row->size(); ++i)
            ASSERT_EQ(fast[i], ref[i]) << p.func_name << " " << a.scale << "·x + " << a.bias << " pattern "
                                       << fmt::format("{:#06x}", (*row)[i]);
          // Narrowed (run 1 saturating): the conversion of the reference's results, element by element.
          ASSERT_TRUE(memo.row_bf16(row->data(), fast16.data(), row->size())) << p.func_name;
          const ConvertOptions convert{.sis = run == 1};
          for (size_t i = 0; i < row->size(); ++i)
            ASSERT_EQ(fast16[i], from_fp32_bits(ref[i], dtype::kBfloat16, convert))
                << p.func_name << " narrowed, pattern " << fmt::format("{:#06x}", (*row)[i]);
        }
        if (run == 1) memo.end();  // the other run is forgotten by the next begin
      }
  }
}

/// The parts of wide_set(): its one profile, BUCKET records and CONTROL words.
struct WideParts {
  act::Profile p;
  std::vector<act::Bucket> buckets;
  std::vector<uint32_t> control;
};
WideParts wide_parts() {
  {
    act::Profile p;
    p.func_name = "wide_1p";
    p.func_id = 7;
    p.fzero_result = b(1.0F);
    p.fpinf_result = b(2.0F);
    p.fninf_result = b(3.0F);
    p.fnan_result = 0x7FC00000;
    p.exp_offset = -127;
    p.pwl_control_base_pos = 0;
    p.pwl_control_base_neg = 256;
    p.small_pos_signal_exp_threshold = p.small_neg_signal_exp_threshold = 1;
    p.large_pos_signal_exp_threshold = p.large_neg_signal_exp_threshold = 254;
    p.large_pos_signal_mantissa_threshold = p.large_neg_signal_mantissa_threshold = 0x400000;
    std::vector<act::Bucket> buckets;
    for (uint32_t r = 0; r < 16; ++r)  // a distinct cubic per record
      buckets.push_back({b(0.5F + static_cast<float>(r)), b(0.25F * static_cast<float>(r + 1)), b(-0.125F),
                         b(1.0F / static_cast<float>(r + 3)), b(0.75F)});
    p.pos_small_signal_pwl_control = 12;
    p.neg_small_signal_pwl_control = 13;
    p.pos_large_signal_pwl_control = 14;
    p.neg_large_signal_pwl_control = 15;
    std::vector<uint32_t> control(512);
    for (uint32_t i = 0; i < 512; ++i) {
      const uint32_t base = i % 6 * 2;  // two segments per octave: extract_size 1, lsb 22
      control[i] = base | 22U << 11 | 1U << 16;
    }
    return {p, std::move(buckets), std::move(control)};
  }
}

/// A set whose one function has a different segment in every octave from 1 to 253 on both signs: its lookup fits no
/// register window, so the row path takes the lookup from memory.
const TableSet& wide_set() {
  static const std::shared_ptr<const TableSet> kSet = [] {
    WideParts w = wide_parts();
    return TableSet::from_parts("wide", {w.p}, std::move(w.buckets), std::move(w.control)).set;
  }();
  return *kSet;
}

TEST(ActTables, RowPathEqualsReferenceOnTheRealSet) {
  REQUIRE_REAL_SET(t);
  expect_row_path_equals_reference(*t);
  expect_affine_row_path_equals_reference(*t);
}

TEST(ActTables, RowPathEqualsReferenceOnTheBuiltinSet) {
  expect_row_path_equals_reference(act::builtin_exact_set());
  expect_affine_row_path_equals_reference(act::builtin_exact_set());
}

TEST(ActTables, Bf16MemoEqualsReference) {
  REQUIRE_REAL_SET(t);
  expect_bf16_memo_equals_reference(*t);
  expect_bf16_memo_equals_reference(act::builtin_exact_set());
  expect_bf16_memo_equals_reference(wide_set());
}

TEST(ActTables, RowPathEqualsReferenceWithoutAWindow) {
  const TableSet& t = wide_set();
  ASSERT_FALSE(t.lut_window(t.profiles()[0]).valid);
  expect_row_path_equals_reference(t);
  expect_affine_row_path_equals_reference(t);
}

/// Whether evaluate() reports BadIndex for some input of `p`: every sign and biased exponent below 255 at the
/// mantissas where a verdict can change (each octave's ends, each threshold and its neighbours). The largest record
/// of an octave's segment is its largest mantissa's, which is among them.
bool some_input_faults(const TableSet& t, const act::Profile& p) {
  for (const uint32_t sign : {0U, 1U})
    for (uint32_t e = 0; e < 255; ++e) {
      const int64_t lm = sign != 0 ? p.large_neg_signal_mantissa_threshold : p.large_pos_signal_mantissa_threshold;
      for (const int64_t m : {int64_t{0}, int64_t{1}, lm - 1, lm, lm + 1, int64_t{0x7FFFFF}}) {
        if (m < 0 || m > 0x7FFFFF || (e == 0 && m == 0)) continue;
        const uint32_t v = sign << 31 | e << 23 | static_cast<uint32_t>(m);
        if (act::evaluate(t, p, v).status == EvalStatus::BadIndex) return true;
      }
    }
  return false;
}

// Profile::never_faults (the executors' license to write results in place) against the reference procedure: true
// for the real set's functions and the built-in set's, and false exactly where some input reaches an index outside
// the tables, for each way a profile can: a saturation slot, a CONTROL index, a CONTROL word's high byte, a segment
// whose last record lies past the table.
TEST(ActTables, NeverFaultsWhereNoInputLeavesTheTables) {
  const auto expect_agrees = [](const TableSet& t) {
    for (const act::Profile& p : t.profiles())
      EXPECT_EQ(p.never_faults, !some_input_faults(t, p)) << t.name() << " " << p.func_name;
  };
  expect_agrees(act::builtin_exact_set());
  for (const act::Profile& p : act::builtin_exact_set().profiles()) EXPECT_TRUE(p.never_faults) << p.func_name;
  expect_agrees(wide_set());
  EXPECT_TRUE(wide_set().profiles()[0].never_faults);
  if (const TableSet* t = real_set(); t != nullptr) {
    expect_agrees(*t);
    EXPECT_TRUE(t->profile_named("exp")->never_faults);
    EXPECT_TRUE(t->profile_named("tanh")->never_faults);
  }
  struct Mutation {
    const char* what;
    void (*apply)(WideParts&);
  };
  const Mutation mutations[] = {
      {"large positive slot past the records", [](WideParts& w) { w.p.pos_large_signal_pwl_control = 16; }},
      {"small negative slot below zero", [](WideParts& w) { w.p.neg_small_signal_pwl_control = -1; }},
      {"CONTROL index past the words", [](WideParts& w) { w.p.pwl_control_base_pos = 400; }},
      {"a CONTROL word's high byte set", [](WideParts& w) { w.control[200] |= 1U << 24; }},
      {"a segment whose last record is past the table",
       [](WideParts& w) { w.control[300] = 15U | 22U << 11; }},  // records 15 and 16 of 16
      {"the large slot reached by the top octave's last mantissa alone",
       [](WideParts& w) {
         w.p.large_pos_signal_mantissa_threshold = 0x7FFFFF;  // the threshold octave is 254, the last finite one
         w.p.pos_large_signal_pwl_control = 99;
       }},
  };
  for (const Mutation& m : mutations) {
    WideParts w = wide_parts();
    m.apply(w);
    const TableSet::Parsed set = TableSet::from_parts("wide", {w.p}, std::move(w.buckets), std::move(w.control));
    ASSERT_TRUE(set.ok()) << m.what << ": " << set.error.message;
    const act::Profile& p = set.set->profiles()[0];
    EXPECT_FALSE(p.never_faults) << m.what;
    EXPECT_TRUE(some_input_faults(*set.set, p)) << m.what;
  }
}

// The row path against the reference over a sweep of the fp32 patterns, for exp and tanh (a folded function) of the
// real set: every 257th pattern (every 65537th under the sanitizers), or all 2^32 with TPBISA_EXHAUSTIVE_SWEEP set
// (about a minute per function).
TEST(ActTables, RowPathSweepsFp32Patterns) {
  REQUIRE_REAL_SET(t);
#ifdef TPBISA_ASAN
  constexpr uint64_t kSample = 65537;  // the sanitized tree samples; the optimised tree sweeps
#else
  constexpr uint64_t kSample = 257;
#endif
  const uint64_t step = std::getenv("TPBISA_EXHAUSTIVE_SWEEP") != nullptr ? 1 : kSample;
  constexpr uint64_t kEnd = uint64_t{1} << 32;
  std::vector<uint32_t> in(size_t{1} << 16), fast(in.size()), ref(in.size());
  for (const char* fn : {"exp", "tanh"}) {
    const act::Profile* p = t->profile_named(fn);
    ASSERT_NE(p, nullptr) << fn;
    for (uint64_t x = 0; x < kEnd;) {
      size_t n = 0;
      for (; n < in.size() && x < kEnd; ++n, x += step) in[n] = static_cast<uint32_t>(x);
      ASSERT_EQ(act::evaluate_row(*t, *p, in.data(), fast.data(), n).status, EvalStatus::Ok);
      ASSERT_EQ(act::evaluate_row_reference(*t, *p, in.data(), ref.data(), n).status, EvalStatus::Ok);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(fast[i], ref[i]) << fn << " at " << fmt::format("{:#010x}", in[i]);
    }
  }
}

// Every SIMD target this build has and the host supports gives the reference's bits: the AVX-512 targets' permuted
// lookup and record loads, and the other targets' gathers.
TEST(ActTables, RowPathEqualsReferenceOnEveryTarget) {
  std::vector<int64_t> targets(16);
  targets.resize(kernels::simd_targets(targets.data(), targets.size()));
  ASSERT_FALSE(targets.empty());
  for (const int64_t target : targets) {
    kernels::force_simd_target(target);
    SCOPED_TRACE(kernels::simd_target_name());
    if (const TableSet* t = real_set()) expect_affine_row_path_equals_reference(*t);
    expect_row_path_equals_reference(wide_set());
    expect_affine_row_path_equals_reference(wide_set());
  }
  kernels::force_simd_target(0);
}

// The register window stands for the whole lookup: exp's octaves fit one on the real set, and every window built
// gives each sign and biased exponent the lookup's entry.
TEST(ActTables, LookupWindowEqualsTheLookup) {
  REQUIRE_REAL_SET(t);
  EXPECT_TRUE(t->lut_window(*t->profile_named("exp")).valid);
  for (const TableSet* set : {t, &act::builtin_exact_set()})
    for (const act::Profile& p : set->profiles()) {
      const TableSet::LutWindow& w = set->lut_window(p);
      if (!w.valid) continue;
      const TableSet::Lut& lut = set->lut(p);
      for (unsigned sign = 0; sign < 2; ++sign)
        for (int e = 0; e < 255; ++e) {
          const int k = std::clamp(e - w.base[sign], 0, 31);
          ASSERT_EQ(w.entries[32 * sign + static_cast<unsigned>(k)], lut[256 * sign + static_cast<unsigned>(e)])
              << p.func_name << " sign " << sign << " exponent " << e;
        }
    }
}

// The lookup is used: on the real set, exp's octaves between its thresholds are fast entries, and the threshold
// octaves and exponent 255 are the reference's.
TEST(ActTables, LookupSendsOnlyBoundariesToTheReference) {
  REQUIRE_REAL_SET(t);
  const act::Profile* p = t->profile_named("exp");
  ASSERT_NE(p, nullptr);
  const TableSet::Lut& lut = t->lut(*p);
  size_t fast = 0;
  for (const uint32_t e : lut) fast += (e & TableSet::kLutReference) != 0 ? 0 : 1;
  EXPECT_GT(fast, 400U);  // of 512: all but the special and threshold octaves (and any bad control words)
  EXPECT_TRUE((lut[255] & TableSet::kLutReference) != 0);
  EXPECT_TRUE((lut[511] & TableSet::kLutReference) != 0);
  EXPECT_TRUE((lut[static_cast<size_t>(p->large_pos_signal_exp_threshold)] & TableSet::kLutReference) != 0);
}

}  // namespace
}  // namespace tpbisa::test::act_tables
