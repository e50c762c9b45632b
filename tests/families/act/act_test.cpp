// Activation family: the worked words X1..X8 of act-index-ops.md §4.5-§8.5 decoded, validated, written and read back,
// and run against the spec's hand values with the real NEFF's tables (or the built-in exact set, PROJ-CONV-A7).
#include <gtest/gtest.h>

#include <bit>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "../../support/test_util.hpp"
#include "families/act/tables.hpp"
#include "neff/act_tables.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/io/run_json.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/trace.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::test::act_exec {
namespace {

using test::dec;
namespace fs = std::filesystem;

constexpr std::string_view kX1 =
    "21100000000000000000000000000301 00100000010000000000040001000100 aa0a02070000803f0000000000000000 "
    "00200000010000000000040001000100";
constexpr std::string_view kX2 =
    "21100000000000000000000000000000 00100000010000000000040001000100 aa060202000000400030000000000000 "
    "00200000010000000000040001000100";
constexpr std::string_view kX4 =
    "22100000000000000000000000002041 00100000010000000000040001000100 aa0301010000003f0030000000004040 "
    "00200000010000000000040001000100";
constexpr std::string_view kX5 =
    "24100000000000000000000000000000 00000000000000000000000001000000 0a000200000000000000000000400000 "
    "01000100000000000000000000000000";
constexpr std::string_view kX6 =
    "25100000000000000000000000100000 0100000004000100000003000a060408 0a0a0102000000400000003f00000000 "
    "00200000010000000400010000000000";
constexpr std::string_view kX7a =
    "23100000000000000000000000000000 00000000000000000000000000000000 00000000000000000000000000000000 "
    "00000000000000000000000000000000";
constexpr std::string_view kX7b =
    "23100000000000000000000000000000 00000000000000000000000000000000 00000002000000000000000000000000 "
    "00000000000000000000000000000000";
constexpr std::string_view kX8 =
    "c610000000000000000000006578705f 616e645f6f7468657273000000000000 00000000000000000000000000000000 "
    "00000000000000000000000000000000";

constexpr uint64_t kP1 = 0x40000;  // SBUF partition 1 on CAYMAN/MARIANA (memory-and-numerics.md §2)

uint32_t bits(float f) {
  return std::bit_cast<uint32_t>(f);
}

/// The set catalog of matmul_small.neff's sg00, read once; nullptr when the file is absent.
const act::SetCatalog* real_catalog() {
  static const std::unique_ptr<act::SetCatalog> kCatalog = []() -> std::unique_ptr<act::SetCatalog> {
    if (!fs::exists(test::kNeff)) return nullptr;
    neff::Result<neff::Neff> n = neff::read_file(test::kNeff.string());
    if (!n.ok()) return nullptr;
    return std::make_unique<act::SetCatalog>(neff::activation_sets(*n, n->subgraphs.front()));
  }();
  return kCatalog.get();
}

#define REQUIRE_CATALOG(c)                   \
  const act::SetCatalog* c = real_catalog(); \
  if ((c) == nullptr) GTEST_SKIP() << test::kNeff << " is absent (shared data not available): skipped"

/// A single ACT stream on `g` over the words, with the catalog (device mode with a harness catalog, §8.3).
Machine act_machine(std::vector<std::string_view> hexes, const act::SetCatalog* catalog, MachineOptions mo = {},
                    Generation g = Generation::Cayman) {
  std::vector<Word> words;
  for (std::string_view h : hexes) words.push_back(test::hex_word_of(h));
  mo.engine = EngineId::Act;
  Machine m(g, words, mo);
  m.core(0).state().act_catalog = catalog;
  return m;
}

void put_fp32(Machine& m, uint64_t at, const std::vector<float>& v) {
  for (size_t k = 0; k < v.size(); ++k) ASSERT_TRUE(m.mutable_state().memory.write(at + 4 * k, 4, bits(v[k])));
}
std::vector<uint32_t> get(const Machine& m, uint64_t at, size_t n, unsigned size = 4) {
  std::vector<uint32_t> out;
  for (size_t k = 0; k < n; ++k) out.push_back(static_cast<uint32_t>(m.state().memory.read(at + size * k, size)));
  return out;
}

// ---- Decode, validate, text ----

TEST(ActFamily, WorkedWordsAreValidUnderTheirValidators) {
  const std::pair<std::string_view, std::string_view> cases[] = {{kX1, "is_valid_activate"},
                                                                 {kX2, "is_valid_activate"},
                                                                 {kX4, "is_valid_activateq"},
                                                                 {kX5, "is_valid_activation_read_accumulator"},
                                                                 {kX7a, "is_valid_activation_table_load"},
                                                                 {kX7b, "is_valid_activation_table_load"},
                                                                 {kX8, "is_valid_pseudo_load_act_func_set"}};
  for (Generation g : kAllGenerations)
    for (const auto& [hex, name] : cases) {
      const Verdict v = validate(dec(test::hex_word_of(hex), g), g);
      EXPECT_TRUE(v.valid) << name << " on " << to_string(g);
      ASSERT_NE(v.validator, nullptr);
      EXPECT_EQ(v.validator->name, name);
    }
  for (Generation g : {Generation::Mariana, Generation::Maverick}) {
    const Verdict v = validate(dec(test::hex_word_of(kX6), g), g);
    EXPECT_TRUE(v.valid) << to_string(g);
    EXPECT_EQ(v.validator->name, "is_valid_activate2");
  }
  for (Generation g : {Generation::Sunda, Generation::Cayman})
    EXPECT_FALSE(validate(dec(test::hex_word_of(kX6), g), g).valid) << "0x25 is absent on " << to_string(g);
}

TEST(ActFamily, X1DecodesToTheTabulatedFields) {
  const Instruction x1 = dec(test::hex_word_of(kX1), Generation::Cayman);
  ASSERT_EQ(x1.status, DecodeStatus::Modeled);
  const auto& s = std::get<S3d3Ac>(x1.body);
  EXPECT_EQ(s.imm_src, 0);
  EXPECT_EQ(s.scale_src, 0);
  EXPECT_EQ(s.accumulator_cmd, 3);
  EXPECT_EQ(s.bias_src_n, 1);
  EXPECT_EQ(s.src.start_addr.raw, 0x1000U);
  EXPECT_EQ(s.src.num_elem, (std::array<uint16_t, 3>{4, 1, 1}));
  EXPECT_EQ(s.in_bias_dtype, 0xaa);
  EXPECT_EQ(s.out_dtype, dtype::kFp32);
  EXPECT_EQ(s.num_active_channels, 2);
  EXPECT_EQ(s.activation_func, 7);
  EXPECT_EQ(s.scale_value.raw, 0x3f800000U);
  EXPECT_EQ(s.dst.start_addr.raw, 0x2000U);
  bool seen = false;
  for (const DescribedField& f : describe_fields(x1))
    if (f.name == "activation_func") {
      seen = true;
      EXPECT_NE(f.meaning.find("exp"), std::string::npos) << f.meaning;
    }
  EXPECT_TRUE(seen);
  const Instruction x6 = dec(test::hex_word_of(kX6), Generation::Mariana);
  const auto& b = std::get<S2d2Ac>(x6.body);
  EXPECT_EQ(b.reduce_cmd, 3);
  EXPECT_EQ(b.op0, aluop::kMult);
  EXPECT_EQ(b.op1, aluop::kAdd);
  EXPECT_EQ(b.reduce_op, aluop::kMax);
  EXPECT_EQ(b.imm0.raw, 0x40000000U);
  EXPECT_EQ(b.imm1.raw, 0x3f000000U);
}

TEST(ActFamily, ValidateNamesTheFailingPredicates) {
  Word w = test::hex_word_of(kX1);
  w[14] = 7;  // not an ACCUM_CMD
  w[15] = 4;  // not an IMM_SRC_N
  const Verdict v = validate(dec(w, Generation::Cayman), Generation::Cayman);
  ASSERT_FALSE(v.valid);
  std::vector<std::string_view> names;
  for (unsigned k = 0; k < v.n_failed; ++k) names.push_back(v.validator->conjuncts[v.failed_index[k]]->name);
  EXPECT_EQ(names, (std::vector<std::string_view>{"is_valid_enum(ACCUM_CMD)", "s3d3_ac_bias_checks"}));
}

TEST(ActFamily, DisassemblyAssemblesBackToTheSameWord) {
  for (std::string_view hex : {kX1, kX2, kX4, kX5, kX7a, kX7b, kX8}) {
    const Word w = test::hex_word_of(hex);
    const std::string text = disassemble(std::span<const uint8_t, kWordBytes>(w), Generation::Cayman);
    const AsmResult r = assemble(text, "t.tasm", Generation::Cayman);
    ASSERT_EQ(r.error_count, 0U) << text << ": " << (r.errors.empty() ? "" : r.errors[0].message);
    ASSERT_EQ(r.words.size(), 1U);
    EXPECT_EQ(r.words[0], w) << text;
  }
  const Word w = test::hex_word_of(kX6);
  const std::string text = disassemble(std::span<const uint8_t, kWordBytes>(w), Generation::Mariana);
  const AsmResult r = assemble(text, "t.tasm", Generation::Mariana);
  ASSERT_EQ(r.error_count, 0U) << text;
  EXPECT_EQ(r.words.at(0), w) << text;
  EXPECT_NE(text.find("RESET_REDUCE"), std::string::npos) << text;
}

// ---- Execution (§4.5, §5.4, §6.4, §7.4, §8.5) ----

// X7a then X1, then X5: the spec's table of results, bit for bit, and the accumulators drained.
TEST(ActFamilyExec, X1ExpWithAccumulateOnTheRealSet) {
  REQUIRE_CATALOG(catalog);
  Machine m = act_machine({kX7a, kX1, kX5}, catalog);
  put_fp32(m, 0x1000, {0.0F, 0.5F, 1.0F, -1.0F});
  put_fp32(m, kP1 + 0x1000, {2.0F, -2.0F, 10.0F, 89.0F});
  const RunSummary r = m.run(10);
  ASSERT_FALSE(r.faulted) << r.fault.detail;
  EXPECT_EQ(get(m, 0x2000, 4), (std::vector<uint32_t>{0x3f800000, 0x3fd308b1, 0x402df7d4, 0x3ebc5a40}));
  EXPECT_EQ(get(m, kP1 + 0x2000, 4), (std::vector<uint32_t>{0x40ec7277, 0x3e0a9501, 0x46ac1470, 0x7f800000}));
  EXPECT_EQ(m.state().dve[0].acc, 0x40b783baU);
  EXPECT_EQ(m.state().dve[1].acc, 0x7f800000U);
  EXPECT_EQ(get(m, 0x4000, 1), (std::vector<uint32_t>{0x40b783ba}));
  EXPECT_EQ(get(m, kP1 + 0x4000, 1), (std::vector<uint32_t>{0x7f800000}));
  ASSERT_NE(m.state().act_set, nullptr);
  EXPECT_EQ(m.state().act_set->name(), "exp_and_others");
}

// X2: relu(2x + b) with a per-partition FP32 pointer bias, BF16 out, IDLE (the built-in exact set, A7).
TEST(ActFamilyExec, X2ReluWithPointerBias) {
  MachineOptions mo;
  mo.act_builtin_exact = true;
  Machine m = act_machine({kX2}, nullptr, mo);
  m.mutable_state().dve[0].acc = 0x12345678;
  put_fp32(m, 0x1000, {-1.0F, 0.25F, 3.0F, -0.0F});
  put_fp32(m, kP1 + 0x1000, {1.0F, 2.0F, -3.0F, 0.5F});
  put_fp32(m, 0x3000, {1.0F});
  put_fp32(m, kP1 + 0x3000, {-2.5F});
  const RunSummary r = m.run(10);
  ASSERT_FALSE(r.faulted) << r.fault.detail;
  EXPECT_EQ(get(m, 0x2000, 4, 2), (std::vector<uint32_t>{0x0000, 0x3fc0, 0x40e0, 0x3f80}));
  EXPECT_EQ(get(m, kP1 + 0x2000, 4, 2), (std::vector<uint32_t>{0x0000, 0x3fc0, 0x0000, 0x0000}));
  EXPECT_EQ(m.state().dve[0].acc, 0x12345678U);  // IDLE
}

// X3: X1 with no set loaded (device mode, no catalog): ActivationTableNotLoaded, nothing changed.
TEST(ActFamilyExec, X3NoSetLoadedFaults) {
  Machine m = act_machine({kX1}, nullptr);
  m.mutable_state().dve[0].acc = 0x11111111;
  put_fp32(m, 0x1000, {0.0F, 0.5F, 1.0F, -1.0F});
  const RunSummary r = m.run(10);
  ASSERT_TRUE(r.faulted);
  EXPECT_EQ(r.fault.kind, FaultKind::ActivationTableNotLoaded);
  EXPECT_NE(r.fault.detail.find("7 (exp)"), std::string::npos) << r.fault.detail;
  EXPECT_EQ(get(m, 0x2000, 4), (std::vector<uint32_t>{0, 0, 0, 0}));
  EXPECT_EQ(m.state().dve[0].acc, 0x11111111U);
  // The built-in set has no exp either (A7): the function is not in it.
  MachineOptions mo;
  mo.act_builtin_exact = true;
  Machine b = act_machine({kX1}, nullptr, mo);
  const RunSummary rb = b.run(10);
  ASSERT_TRUE(rb.faulted);
  EXPECT_EQ(rb.fault.kind, FaultKind::ActivationFunctionNotInSet);
  EXPECT_NE(rb.fault.detail.find("builtin_exact"), std::string::npos) << rb.fault.detail;
}

TEST(ActFamilyExec, FunctionNotInTheLoadedSetFaults) {
  REQUIRE_CATALOG(catalog);
  Word x1 = test::hex_word_of(kX1);
  x1[35] = 5;  // sigmoid: not in exp_and_others
  std::string hex;
  for (uint8_t b : x1) hex += fmt::format("{:02x}", b);
  Machine m = act_machine({kX7a, hex}, catalog);
  const RunSummary r = m.run(10);
  ASSERT_TRUE(r.faulted);
  EXPECT_EQ(r.fault.kind, FaultKind::ActivationFunctionNotInSet);
  EXPECT_NE(r.fault.detail.find("5 (sigmoid)"), std::string::npos) << r.fault.detail;
  EXPECT_NE(r.fault.detail.find("exp_and_others"), std::string::npos) << r.fault.detail;
}

// X7b: index 2 names sigmoid_and_others, which the NEFF does not embed; the loaded set stays.
TEST(ActFamilyExec, X7bSetNotInNeffLeavesTheLoadedSet) {
  REQUIRE_CATALOG(catalog);
  Machine m = act_machine({kX7a, kX7b}, catalog);
  const RunSummary r = m.run(10);
  ASSERT_TRUE(r.faulted);
  EXPECT_EQ(r.fault.kind, FaultKind::ActivationSetNotInNeff);
  EXPECT_NE(r.fault.detail.find("sigmoid_and_others"), std::string::npos) << r.fault.detail;
  ASSERT_NE(m.state().act_set, nullptr);
  EXPECT_EQ(m.state().act_set->name(), "exp_and_others");
  // An index beyond the 21 sets of act_info.json.
  Word w = test::hex_word_of(kX7a);
  w[35] = 21;
  std::string hex;
  for (uint8_t b : w) hex += fmt::format("{:02x}", b);
  Machine m2 = act_machine({hex}, catalog);
  const RunSummary r2 = m2.run(10);
  ASSERT_TRUE(r2.faulted);
  EXPECT_EQ(r2.fault.kind, FaultKind::ActivationSetIndexOutOfRange);
}

// X8: the pseudo form by name loads set 0 in a NEFF run; a single-stream run refuses it.
TEST(ActFamilyExec, X8PseudoLoadByName) {
  REQUIRE_CATALOG(catalog);
  Machine device = act_machine({kX8}, catalog);
  const RunSummary r = device.run(10);
  ASSERT_TRUE(r.faulted);
  EXPECT_EQ(r.fault.kind, FaultKind::PseudoNotLowered);
  MachineOptions mo;
  mo.neff_mode = true;
  Machine nm = act_machine({kX8, kX1}, catalog, mo);
  put_fp32(nm, 0x1000, {0.0F, 0.5F, 1.0F, -1.0F});
  const RunSummary rn = nm.run(10);
  ASSERT_FALSE(rn.faulted) << rn.fault.detail;
  EXPECT_EQ(get(nm, 0x2000, 4), (std::vector<uint32_t>{0x3f800000, 0x3fd308b1, 0x402df7d4, 0x3ebc5a40}));
}

// X4: identity, dequant 0.5, bias 1.0, quant 10, zero 3 -> UINT8 [18, 33, 0, 255].
TEST(ActFamilyExec, X4QuantizeToUint8) {
  MachineOptions mo;
  mo.act_builtin_exact = true;
  Machine m = act_machine({kX4}, nullptr, mo);
  put_fp32(m, 0x1000, {1.0F, 4.0F, -20.0F, 60.0F});
  put_fp32(m, 0x3000, {1.0F});
  const RunSummary r = m.run(10);
  ASSERT_FALSE(r.faulted) << r.fault.detail;
  EXPECT_EQ(get(m, 0x2000, 4, 1), (std::vector<uint32_t>{18, 33, 0, 255}));
}

// X6 (MARIANA): relu(2x + 0.5) = [0, 1, 6.5, 0]; RESET_REDUCE with MAX: ACC[0] = 6.5.
TEST(ActFamilyExec, X6Activate2ReluWithMaxReduce) {
  MachineOptions mo;
  mo.act_builtin_exact = true;
  Machine m = act_machine({kX6}, nullptr, mo, Generation::Mariana);
  put_fp32(m, 0x1000, {-1.0F, 0.25F, 3.0F, -0.25F});
  const RunSummary r = m.run(10);
  ASSERT_FALSE(r.faulted) << r.fault.detail;
  EXPECT_EQ(get(m, 0x2000, 4), (std::vector<uint32_t>{0, bits(1.0F), bits(6.5F), 0}));
  EXPECT_EQ(m.state().dve[0].acc, bits(6.5F));
}

// X5 alone after a hand-set accumulator: the spec's two values read out, the accumulators unchanged.
TEST(ActFamilyExec, X5ReadsTheAccumulators) {
  Machine m = act_machine({kX5}, nullptr);
  m.mutable_state().dve[0].acc = 0x40b783ba;
  m.mutable_state().dve[1].acc = 0x7f800000;
  const RunSummary r = m.run(10);
  ASSERT_FALSE(r.faulted) << r.fault.detail;
  EXPECT_EQ(get(m, 0x4000, 1), (std::vector<uint32_t>{0x40b783ba}));
  EXPECT_EQ(get(m, kP1 + 0x4000, 1), (std::vector<uint32_t>{0x7f800000}));
  EXPECT_EQ(m.state().dve[0].acc, 0x40b783baU);
}

// PROJ-CONV-A17: the ACT family on PE is refused; ACTIVATE on DVE runs on MAVERICK only.
TEST(ActFamilyExec, PlacementIsActAndMaverickDve) {
  MachineOptions mo;
  mo.act_builtin_exact = true;
  Word x2 = test::hex_word_of(kX2);
  x2[35] = 1;  // identity
  const std::vector<Word> words{x2};
  for (Generation g : {Generation::Cayman, Generation::Maverick}) {
    MachineOptions o = mo;
    o.engine = EngineId::Dve;
    o.validate.engine = Engine::Dve;
    Machine m(g, words, o);
    const RunSummary r = m.run(10);
    if (g == Generation::Maverick) {
      EXPECT_FALSE(r.faulted) << r.fault.detail;
    } else {
      ASSERT_TRUE(r.faulted);
      EXPECT_EQ(r.fault.kind, FaultKind::WrongEngine);
    }
  }
}

}  // namespace
}  // namespace tpbisa::test::act_exec

namespace tpbisa::test::act_exec {
namespace {

// PROJ-CONV-A17 from the one placement rule (placement_of(opcode, generation)): the program checks
// (engine_may_issue, the validators' engine_placement) accept exactly what the executor runs, per generation.
TEST(ActFamilyPlacement, ProgramChecksAgreeWithTheExecutorPerGeneration) {
  for (Generation g : kAllGenerations)
    for (uint8_t op : {uint8_t{0x21}, uint8_t{0x22}, uint8_t{0x23}, uint8_t{0x24}, uint8_t{0x25}}) {
      if (!opcode_in(op, g)) continue;
      for (Engine e : kEngines) {
        // Hand-stated: ACT everywhere, DVE on MAVERICK only, never PE, POOL or SP.
        const bool want = e == Engine::Act || (e == Engine::Dve && g == Generation::Maverick);
        EXPECT_EQ(engine_may_issue(op, e, g), want) << int{op} << " " << to_string(g) << " " << to_string(e);
        EXPECT_EQ(placement_of(op, g).has(e), want) << int{op} << " " << to_string(g) << " " << to_string(e);
      }
      // The generation-free column stays ACT (what a tool without a generation shows).
      EXPECT_EQ(placement_of(op).allowed, "ACT");
      EXPECT_EQ(placement_of(op, g).allowed, g == Generation::Maverick ? "ACT or DVE" : "ACT");
    }
  // Every other opcode keeps its column on every generation.
  for (unsigned v = 0; v < 256; ++v)
    for (Generation g : kAllGenerations)
      if (v < 0x21 || v > 0x25) {
        EXPECT_EQ(placement_of(static_cast<uint8_t>(v), g).engines, placement_of(static_cast<uint8_t>(v)).engines)
            << std::hex << v;
      }
}

// The executor, on each engine of each generation: ACTIVATE (identity, built-in set) runs where the check accepts it
// and faults WrongEngine where it refuses it.
TEST(ActFamilyPlacement, ExecutorRunsWhereTheCheckAccepts) {
  Word x2 = test::hex_word_of(kX2);
  x2[35] = 1;  // identity
  for (Generation g : {Generation::Cayman, Generation::Mariana, Generation::Maverick})
    for (Engine e : kEngines) {
      MachineOptions o;
      o.act_builtin_exact = true;
      o.engine = e;
      o.validate.engine = e;
      Machine m(g, std::vector<Word>{x2}, o);
      const RunSummary r = m.run(10);
      if (engine_may_issue(0x21, e, g)) {
        EXPECT_FALSE(r.faulted) << to_string(g) << " " << to_string(e) << ": " << r.fault.detail;
      } else {
        ASSERT_TRUE(r.faulted) << to_string(g) << " " << to_string(e);
        EXPECT_EQ(r.fault.kind, FaultKind::WrongEngine);
      }
    }
}

}  // namespace
}  // namespace tpbisa::test::act_exec

namespace tpbisa::test::act_exec {
namespace {

// The ACT state in traces and state dumps (act-index-ops.md §2.3): a table load's record names the set before and
// after it; an ACTIVATE with ACCUMULATE and ACTIVATION_READ_ACCUMULATOR list the accumulators they read; the run's
// JSON names the loaded set.
TEST(ActFamilyState, TracesAndDumpsShowTheActState) {
  REQUIRE_CATALOG(catalog);
  MachineOptions mo;
  mo.record_effects = true;
  mo.engine = EngineId::Act;
  Word x1 = test::hex_word_of(kX1);
  x1[14] = accum_cmd::kAccumulate;  // adds to the accumulators it reads
  Machine m(Generation::Cayman,
            std::vector<Word>{test::hex_word_of(kX7a), x1, test::hex_word_of(kX5), test::hex_word_of(kX7a)}, mo);
  m.core(0).state().act_catalog = catalog;
  put_fp32(m, 0x1000, {0.0F, 0.5F, 1.0F, -1.0F});
  put_fp32(m, kP1 + 0x1000, {2.0F, -2.0F, 10.0F, 1.0F});
  m.mutable_state().dve[0].acc = 0x3f800000;  // 1.0
  m.mutable_state().dve[1].acc = 0xc0000000;  // -2.0
  std::vector<std::string> lines;
  RunHooks hooks;
  hooks.on_step = [&](const StepResult& r) { lines.push_back(trace_line(r, stepped_instruction(m, r), {}, {})); };
  const RunSummary s = m.run(10, hooks);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  ASSERT_EQ(lines.size(), 4U);
  EXPECT_NE(lines[0].find(R"("act_set":{"before":null,"after":"exp_and_others"})"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[0].find("dve_reads"), std::string::npos);
  EXPECT_NE(lines[1].find(R"("dve_reads":[{"channel":0,"field":"acc","slot":0,"value":"0x3f800000"},)"
                          R"({"channel":1,"field":"acc","slot":0,"value":"0xc0000000"}])"),
            std::string::npos)
      << lines[1];
  EXPECT_NE(lines[1].find(R"("dve":[{"channel":0,"field":"acc","slot":0,"before":"0x3f800000","after":)"),
            std::string::npos)
      << lines[1];
  EXPECT_EQ(lines[1].find("act_set"), std::string::npos);
  const std::string acc0 = fmt::format("{:#010x}", m.state().dve[0].acc);
  EXPECT_NE(acc0, "0x3f800000");
  EXPECT_NE(lines[2].find(R"("dve_reads":[{"channel":0,"field":"acc","slot":0,"value":")" + acc0 + "\""),
            std::string::npos)
      << lines[2];
  EXPECT_NE(lines[3].find(R"("act_set":{"before":"exp_and_others","after":"exp_and_others"})"), std::string::npos);
  // The run's JSON and text name the loaded set.
  std::string json;
  io::write_run_json(m, s, {Generation::Cayman, "act", 4, {}}, [&](std::string_view piece) {
    json += piece;
    return true;
  });
  EXPECT_NE(json.find(R"("act_set":"exp_and_others")"), std::string::npos) << json;
  EXPECT_EQ(activation_set_name(m.state().act_set), "exp_and_others");
  EXPECT_EQ(activation_set_name(nullptr), "");
}

// A run that loads no set has no act_set key (the document of every other run is unchanged).
TEST(ActFamilyState, NoSetNoKey) {
  Machine m = act_machine({kX5}, nullptr);
  const RunSummary s = m.run(10);
  std::string json;
  io::write_run_json(m, s, {Generation::Cayman, "act", 1, {}}, [&](std::string_view piece) {
    json += piece;
    return true;
  });
  EXPECT_EQ(json.find("act_set"), std::string::npos) << json;
}

}  // namespace
}  // namespace tpbisa::test::act_exec
