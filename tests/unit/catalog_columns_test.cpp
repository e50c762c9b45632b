// The catalog columns every layer reads instead of restating a fact: engine placement (PROJ-CONV-F1), pseudo-ness,
// the EVENTS mode tables (enums.md §9-§10), the NEFF signature dtypes, the opcode constants, the one engine enum, and
// the family hooks that replaced format switches (on-chip footprints, extra waits).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <type_traits>
#include <vector>

#include "../support/catalog_expectations.hpp"
#include "../support/real_words.hpp"
#include "families/common.hpp"
#include "families/family.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/neff_run.hpp"
#include "tpbisa/numerics.hpp"
#include "tpbisa/state.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

// ---------------------------------------------------------------- the one engine enum

TEST(CatalogEngines, OneEnumNumberedAsTheSequencer) {
  static_assert(std::is_same_v<EngineId, Engine> && std::is_same_v<StreamEngine, Engine> &&
                std::is_same_v<neff::Engine, Engine>);
  // sequencer.md §2 / neff.md §7.1: PE 0, ACT 1, POOL 2, DVE 3, SP 4.
  const std::vector<std::pair<Engine, unsigned>> want{
      {Engine::Pe, 0}, {Engine::Act, 1}, {Engine::Pool, 2}, {Engine::Dve, 3}, {Engine::Sp, 4}};
  ASSERT_EQ(kEngines.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(kEngines[i], want[i].first);
    EXPECT_EQ(static_cast<unsigned>(want[i].first), want[i].second);
  }
  EXPECT_EQ(kEnginesPerCore, 5U);
  EXPECT_EQ(to_string(Engine::Act), "ACT");
  EXPECT_EQ(neff::engine_name(Engine::Act), "Activation");
  EXPECT_EQ(neff::parse_engine("activation"), std::optional<Engine>(Engine::Act));
  EXPECT_EQ(parse_engine("pool"), std::optional<Engine>(Engine::Pool));
}

// ---------------------------------------------------------------- placement (PROJ-CONV-F1)

TEST(CatalogPlacement, TheConventionAsStated) {
  // PROJ-CONV-F1 (docs/conventions.md): LDWEIGHTS and MATMUL on PE; COPY, CAST, MEMSET and TENSOR_TENSOR_ARITH_OP on
  // ACT, DVE or POOL; the compute opcodes as PROJ-CONV-K1, A17 and G81 place them; every other opcode on any engine.
  // Each family states its rows' engines in tests/families/<family>/catalog.tsv, unmodeled.tsv the other rows'.
  const test::CatalogExpectations expected = test::catalog_expectations();
  for (const std::string& e : expected.errors) ADD_FAILURE() << e;
  for (unsigned v = 0; v < 256; ++v) {
    const auto op = static_cast<uint8_t>(v);
    const auto it = expected.rows.find(op);
    std::optional<uint8_t> want = engine_placement(Placement::Any).engines;  // a value with no row: any engine
    if (it != expected.rows.end()) {
      want = test::expected_engines(it->second.engines);
      ASSERT_TRUE(want.has_value()) << it->second.file << ": '" << it->second.engines << "' names no engines";
    } else {
      EXPECT_EQ(find_opcode(op), nullptr)
          << std::hex << v << ": a row with no expectation (EveryRowIsAsItsTestsExpect)";
    }
    for (Engine e : kEngines) {
      const bool may = (*want >> static_cast<unsigned>(e) & 1U) != 0;
      EXPECT_EQ(engine_may_issue(op, e), may) << std::hex << v << " on " << to_string(e);
      EXPECT_EQ(placement_of(op).has(e), may) << std::hex << v << " on " << to_string(e);
    }
  }
  EXPECT_EQ(placement_of(0x46).allowed, "ACT, DVE or POOL");
  EXPECT_EQ(placement_of(0x02).allowed, "PE");
  EXPECT_EQ(placement_of(0xA0).allowed, "any engine");
}

TEST(CatalogPlacement, ThePredicateMeaningNamesEveryPlacementItChecks) {
  // The meaning text (docs/predicates.md) is written by hand: it names each placement the predicate checks by its
  // engines, and points to the catalog column for the opcodes (so a new row of a known placement needs no edit).
  // Only the opcodes whose validators end with that predicate (PROJ-CONV-F1): the compute families' placement
  // (PROJ-CONV-K1, A17) is checked when the word runs, and their validators do not carry the predicate.
  const std::string meaning(family::kEnginePlacement.meaning);
  EXPECT_NE(meaning.find("placement column of its catalog row"), std::string::npos) << meaning;
  const std::map<Placement, std::string> engines{{Placement::Pe, "from PE"},
                                                 {Placement::Datapath, "from ACT, DVE or POOL"}};
  size_t checked = 0;
  for (const OpcodeInfo& r : kOpcodes) {
    if (r.placement == Placement::Any) continue;
    const Validator* v = family::validator_of(r.value, Generation::Cayman);
    if (v == nullptr ||
        std::find(v->conjuncts.begin(), v->conjuncts.end(), &family::kEnginePlacement) == v->conjuncts.end())
      continue;
    ++checked;
    const auto named = engines.find(r.placement);
    ASSERT_NE(named, engines.end()) << r.enum_name << ": a placement the meaning does not describe";
    EXPECT_NE(meaning.find(named->second), std::string::npos) << r.enum_name << ": " << meaning;
  }
  EXPECT_GE(checked, 6U);  // LDWEIGHTS, MATMUL, COPY, CAST, MEMSET, TENSOR_TENSOR_ARITH_OP at least
}

// ---------------------------------------------------------------- EVENTS modes (enums.md §9, §10)

/// What the header's name of a wait mode says it does (enums.md §9): SEM_<CMP>_<IMM|REG|REG_OFFSET>, EVT_<...>.
WaitModeInfo wait_named(const EnumValue& v) {
  WaitModeInfo w{v.value, v.name, v.gens, v.convention, WaitKind::None};
  const std::string n(v.name);
  const std::map<std::string, Comparator> cmps{{"EQ", Comparator::Eq},
                                               {"LT", Comparator::Lt},
                                               {"LE", Comparator::Le},
                                               {"GT", Comparator::Gt},
                                               {"GE", Comparator::Ge}};
  const std::map<std::string, EventWait> events{{"EVT_SET", EventWait::Set},
                                                {"EVT_SET_THEN_CLEAR", EventWait::SetThenClear},
                                                {"EVT_CLEAR", EventWait::Clear},
                                                {"EVT_CLEAR_THEN_SET", EventWait::ClearThenSet}};
  std::smatch m;
  if (n == "UNORDERED") {
    w.kind = WaitKind::Unordered;
  } else if (events.count(n) == 1) {
    w.kind = WaitKind::Event;
    w.event = events.at(n);
  } else if (std::regex_match(n, m, std::regex("SEM_([A-Z]{2})_(IMM|REG|REG_OFFSET)"))) {
    w.kind = WaitKind::Semaphore;
    w.comparator = cmps.at(m[1].str());
    w.operand = m[2] == "IMM"   ? ModeOperand::Immediate
                : m[2] == "REG" ? ModeOperand::Register
                                : ModeOperand::RegisterOffset;
  }
  return w;
}

/// What the name of an update mode says (enums.md §10): SEM_<INC|DEC|ADD_x|SUB_x|WR_x>_<READ|COMPLETE>, EVT_...
UpdateModeInfo update_named(const EnumValue& v) {
  UpdateModeInfo u{v.value, v.name, v.gens, v.convention, UpdateAction::None};
  const std::map<std::string, UpdateAction> actions{
      {"EVT_SET", UpdateAction::EventSet},  {"EVT_CLR", UpdateAction::EventClear}, {"SEM_INC", UpdateAction::Increment},
      {"SEM_DEC", UpdateAction::Decrement}, {"SEM_ADD", UpdateAction::Add},        {"SEM_SUB", UpdateAction::Subtract},
      {"SEM_WR", UpdateAction::Write}};
  const std::string name(v.name);
  std::smatch m;
  if (std::regex_match(name, m, std::regex("((?:EVT|SEM)_[A-Z]+)(?:_(IMM|REG))?_(READ|COMPLETE)"))) {
    u.action = actions.at(m[1].str());
    u.operand = !m[2].matched ? ModeOperand::None : m[2] == "IMM" ? ModeOperand::Immediate : ModeOperand::Register;
    u.at_completion = m[3] == "COMPLETE";
  }
  return u;
}

TEST(CatalogEventsModes, EveryWaitModeDoesWhatItsNameSays) {
  ASSERT_EQ(kWaitModeTable.size(), 21U);
  for (const EnumValue& v : kWaitModes) {
    SCOPED_TRACE(std::string(v.name));
    const WaitModeInfo want = wait_named(v);
    const WaitModeInfo* got = wait_mode_info(v.value);
    ASSERT_NE(got, nullptr);
    EXPECT_EQ(got->kind, want.kind);
    EXPECT_EQ(got->comparator, want.comparator);
    EXPECT_EQ(got->operand, want.operand);
    EXPECT_EQ(got->event, want.event);
    EXPECT_EQ(wait_mode_for(got->kind, got->comparator, got->operand, got->event), std::optional<uint8_t>(v.value));
    EXPECT_EQ(got->may_block(), v.name != "NONE" && v.name != "UNORDERED");
  }
  for (unsigned v = 0; v < 256; ++v)
    EXPECT_EQ(wait_mode_info(static_cast<uint8_t>(v)) != nullptr,
              find_enum(kWaitModes, static_cast<uint8_t>(v)) != nullptr)
        << v;
}

TEST(CatalogEventsModes, EveryUpdateModeDoesWhatItsNameSays) {
  ASSERT_EQ(kUpdateModeTable.size(), 21U);
  for (const EnumValue& v : kUpdateModes) {
    SCOPED_TRACE(std::string(v.name));
    const UpdateModeInfo want = update_named(v);
    const UpdateModeInfo* got = update_mode_info(v.value);
    ASSERT_NE(got, nullptr);
    EXPECT_EQ(got->action, want.action);
    EXPECT_EQ(got->operand, want.operand);
    EXPECT_EQ(got->at_completion, want.at_completion);
    EXPECT_EQ(update_mode_for(got->action, got->operand, got->at_completion), std::optional<uint8_t>(v.value));
  }
  EXPECT_EQ(update_mode_info(0x06), nullptr);  // enums.md §10: 0x06 and 0x08 unused
  EXPECT_EQ(update_mode_info(0x08), nullptr);
}

TEST(CatalogEventsModes, ComparatorsAndHelpers) {
  EXPECT_TRUE(comparison_holds(Comparator::Ge, 3, 3));
  EXPECT_FALSE(comparison_holds(Comparator::Gt, 3, 3));
  EXPECT_TRUE(comparison_holds(Comparator::Lt, 2, 3));
  EXPECT_TRUE(comparison_holds(Comparator::Le, 3, 3));
  EXPECT_TRUE(comparison_holds(Comparator::Eq, 7, 7));
  EXPECT_FALSE(comparison_holds(Comparator::None, 7, 7));
  EXPECT_EQ(to_string(Comparator::Le), "<=");
  EXPECT_EQ(to_string(Comparator::None), "");
  EXPECT_TRUE(wait_never_blocks(0x00));
  EXPECT_TRUE(wait_never_blocks(0xFE));
  EXPECT_FALSE(wait_never_blocks(0x05));
  EXPECT_FALSE(wait_never_blocks(0x42));  // not a mode: it may not be taken as harmless
  EXPECT_TRUE(waits_on_semaphore(0x93));
  EXPECT_FALSE(waits_on_semaphore(0x06));
  EXPECT_TRUE(update_is_none(0x00));
  EXPECT_FALSE(update_is_none(0x42));
}

// ---------------------------------------------------------------- NEFF signature dtypes

TEST(CatalogSignatureDtypes, TheMappingFromTheSpec) {
  // NumPy / ml_dtypes names whose bits mean what the catalog dtype's bits mean (memory-and-numerics.md §8.1).
  const std::map<std::string, std::string> want{
      {"float16", "FP16"},         {"bfloat16", "BFLOAT16"},     {"float32", "FP32"},  {"int8", "INT8"},
      {"uint8", "UINT8"},          {"int16", "INT16"},           {"uint16", "UINT16"}, {"int32", "INT32"},
      {"uint32", "UINT32"},        {"int64", "INT64"},           {"uint64", "UINT64"}, {"float8_e3m4", "FP8_EXP3"},
      {"float8_e5m2", "FP8_EXP5"}, {"float8_e4m3fn", "FP8_EXP4"}};
  for (const auto& [signature, name] : want) {
    const DtypeInfo* d = signature_dtype(signature);
    ASSERT_NE(d, nullptr) << signature;
    EXPECT_EQ(d->name, name) << signature;
    EXPECT_EQ(neff::signature_dtype_size(signature) * 8, d->bits) << signature;
  }
  size_t rows = 0;
  for (const DtypeInfo& d : kDtypes) rows += d.signature.empty() ? 0 : 1;
  EXPECT_EQ(rows, want.size());
  // No ISA dtype: host-only types, and the IEEE-like E4M3 (infinities at S.1111.000) FP8_EXP4 is not.
  for (const char* none : {"float64", "bool", "float8_e4m3", "FP16", "fp16", ""})
    EXPECT_EQ(signature_dtype(none), nullptr) << none;
}

TEST(CatalogSignatureDtypes, Fp8Exp4IsTheFiniteE4m3) {
  // float8_e4m3fn: no infinities, NaN only at S.1111.111, largest 448 = S.1111.110; exponent 15 holds numbers.
  const auto value = [](uint8_t bits) { return std::bit_cast<float>(to_fp32_bits(bits, dtype::kFp8Exp4)); };
  EXPECT_EQ(value(0x7E), 448.0F);
  EXPECT_EQ(value(0x78), 256.0F);  // the IEEE-like float8_e4m3 reads this as +inf
  EXPECT_EQ(value(0xF8), -256.0F);
  EXPECT_TRUE(std::isnan(value(0x7F)));
  EXPECT_EQ(value(0x38), 1.0F);
}

// ---------------------------------------------------------------- opcode constants and pseudo-ness

TEST(CatalogOpcodeConstants, ValuesOfTheHeader) {
  // Values from enums.md §1.2 (the constants themselves are read from the catalog rows by name).
  EXPECT_EQ(opcode::kLdWeights, 0x01);
  EXPECT_EQ(opcode::kTensorTensorArith, 0x41);
  EXPECT_EQ(opcode::kCopy, 0x46);
  EXPECT_EQ(opcode::kPtrMultiDualBitvec, 0x88);
  EXPECT_EQ(opcode::kEventSemaphore, 0xA0);
  EXPECT_EQ(opcode::kHalt, 0xA1);
  EXPECT_EQ(opcode::kTensorStore, 0xAB);
  EXPECT_EQ(opcode::kPseudoTensorStore, 0xCD);
  EXPECT_EQ(opcode::kPseudoFunctionReturn, 0xD2);
  EXPECT_EQ(opcode::kPseudoInst, 0xDF);
  EXPECT_EQ(opcode::kInvalid, 0xFF);
}

TEST(CatalogOpcodeConstants, PseudoIsAColumn) {
  EXPECT_TRUE(is_pseudo(opcode::kPseudoDmaDirect2d));
  EXPECT_TRUE(find_opcode(0xC1)->pseudo());
  EXPECT_FALSE(is_pseudo(opcode::kTensorLoad));
  EXPECT_FALSE(is_pseudo(0xC0));  // no such opcode: the band starts at 0xC1
  EXPECT_FALSE(is_pseudo(0xE0));
}

// ---------------------------------------------------------------- family hooks

/// The address of an on-chip access as (region, partition, byte).
bool in_footprint(const family::Footprint& f, uint64_t address, unsigned size, bool write, Generation g) {
  const PartitionAddress a = decode_partition_offset(static_cast<uint32_t>(address), g);
  for (const family::OnChipOperand& o : f.all()) {
    if (write && !o.write) continue;
    if (a.region == o.region && a.partition >= o.first_partition && a.partition < o.first_partition + o.partitions &&
        int64_t{a.offset} >= o.first && int64_t{a.offset} + size - 1 <= o.last)
      return true;
  }
  return false;
}

/// Runs `program` on one engine with every effect recorded; checks the last word's accesses against its footprint.
void accesses_lie_in_the_footprint(const std::vector<Word>& program, Engine engine) {
  MachineOptions mo;
  mo.engine = engine;
  mo.record_effects = true;
  mo.max_recorded_effects = SIZE_MAX;
  Machine m(test::kC, program, mo);
  StepResult r;
  for (size_t i = 0; i < program.size(); ++i) {
    r = m.step();
    ASSERT_EQ(r.status, StepResult::Status::Retired) << "word " << i << ": " << r.fault.detail;
  }
  const Instruction inst = decode(program.back(), test::kC);
  const family::Footprint f = family::footprint(inst, test::kC);
  ASSERT_GT(f.count, 0U) << inst.name() << " declares no on-chip operand";
  ASSERT_FALSE(r.mem_reads.empty() && r.mem_writes.empty()) << inst.name() << " touched nothing to check";
  for (const MemWrite& w : r.mem_writes)
    EXPECT_TRUE(in_footprint(f, w.address, w.size, true, test::kC))
        << inst.name() << " writes " << std::hex << w.address;
  for (const MemRead& rd : r.mem_reads)
    EXPECT_TRUE(in_footprint(f, rd.address, rd.size, false, test::kC))
        << inst.name() << " reads " << std::hex << rd.address;
}

void accesses_lie_in_the_footprint(const std::vector<std::string>& words, Engine engine) {
  std::vector<Word> program;
  for (const std::string& w : words) program.push_back(test::hex(w));
  accesses_lie_in_the_footprint(program, engine);
}

TEST(FamilyHooks, DatapathAndPeAccessesLieInTheirFootprints) {
  accesses_lie_in_the_footprint({test::kMemset}, Engine::Dve);
  accesses_lie_in_the_footprint({test::kCast}, Engine::Act);
  accesses_lie_in_the_footprint({test::kTt}, Engine::Pool);
  // LDWEIGHTS with its wait cleared (bytes 4-11), then MATMUL BEGIN.
  std::string lw = test::kLwT0;
  lw.replace(8, 16, std::string(16, '0'));
  accesses_lie_in_the_footprint({lw}, Engine::Pe);
  accesses_lie_in_the_footprint({lw, test::kMmBegin}, Engine::Pe);
}

TEST(FamilyHooks, PtrMultiFootprintIsItsTwoPatterns) {
  // The demo's multiply: 2 x 1 x 1 x 4 fp32 elements, steps {1,2,2,2}, on partitions 0..1, from sbuf+0x200 to
  // sbuf+0x400: bytes 0x200..0x21f read, 0x400..0x41f written (8 elements of 4 bytes each).
  const AsmResult a = assemble(
      "TensorScalarPtrMultiArith src_mem_pattern.start_addr=sbuf[p0]+0x200 src_mem_pattern.step_elem={1,2,2,2} "
      "src_mem_pattern.num_elem={2,1,1,4} in_dtype=fp32 out_dtype=fp32 num_active_channels=2 op=MULT op_dim=XYZ "
      "reverse_operands=NONE dst_mem_pattern.start_addr=sbuf[p0]+0x400 dst_mem_pattern.step_elem={1,2,2,2} "
      "dst_mem_pattern.num_elem={2,1,1,4}\n",
      "t.tasm", test::kC);
  ASSERT_TRUE(a.ok());
  const family::Footprint f = family::footprint(decode(a.words.at(0), test::kC), test::kC);
  ASSERT_EQ(f.count, 2U);
  EXPECT_EQ(f.operands[0].operand, "src");
  EXPECT_FALSE(f.operands[0].write);
  EXPECT_EQ(f.operands[0].region, Region::Sbuf);
  EXPECT_EQ(f.operands[0].first_partition, 0U);
  EXPECT_EQ(f.operands[0].partitions, 2U);
  EXPECT_EQ(f.operands[0].first, 0x200);
  EXPECT_EQ(f.operands[0].last, 0x21F);
  EXPECT_EQ(f.operands[1].operand, "dst");
  EXPECT_TRUE(f.operands[1].write);
  EXPECT_EQ(f.operands[1].first, 0x400);
  EXPECT_EQ(f.operands[1].last, 0x41F);
}

/// The one word `text` assembles to on CAYMAN.
Word assembled(const std::string& text) {
  const AsmResult a = assemble(text + "\n", "t.tasm", test::kC);
  EXPECT_TRUE(a.ok()) << text;
  return a.ok() ? a.words.at(0) : Word{};
}

TEST(FamilyHooks, TensorLoadAndStoreFootprintsAreTheirWalksHull) {
  // 4 x 2 u32 elements, steps {2, 16}: element offsets 0, 8, 16, 24 and 64, 72, 80, 88 bytes from sbuf[p3]+0x100,
  // so bytes 0x100..0x15b (the last element's 4 bytes end at 0x100 + 88 + 3).
  const std::string walk = "num_elem={4,2} start_addr=sbuf[p3]+0x100 step_elem={2,16}";
  const Word load = assembled("TensorLoad dtype=u32 src_datasrc=REGISTER " + walk + " data={r0,r1,r2,r3,r4,r5,r6,r7}");
  family::Footprint f = family::footprint(decode(load, test::kC), test::kC);
  ASSERT_EQ(f.count, 1U);
  EXPECT_EQ(f.operands[0].operand, "start_addr");
  EXPECT_EQ(f.operands[0].region, Region::Sbuf);
  EXPECT_EQ(f.operands[0].first_partition, 3U);
  EXPECT_EQ(f.operands[0].partitions, 1U);
  EXPECT_EQ(f.operands[0].first, 0x100);
  EXPECT_EQ(f.operands[0].last, 0x15B);
  EXPECT_FALSE(f.operands[0].write);  // a load reads memory into registers
  const Word store = assembled("TensorStore dtype=u32 " + walk + " data={r0,r1,r2,r3,r4,r5,r6,r7}");
  f = family::footprint(decode(store, test::kC), test::kC);
  ASSERT_EQ(f.count, 1U);
  EXPECT_TRUE(f.operands[0].write);
  EXPECT_EQ(f.operands[0].last, 0x15B);
  // A register-pair start and a DRAM address are placed at run time or off chip: nothing listed.
  EXPECT_EQ(family::footprint(decode(assembled("TensorLoad dtype=u32 src_datasrc=REGISTER num_elem={1,1} "
                                               "start_addr=r2:r3 step_elem={1,0} data={r0}"),
                                     test::kC),
                              test::kC)
                .count,
            0U);
  EXPECT_EQ(family::footprint(decode(assembled("TensorLoad dtype=u32 src_datasrc=REGISTER num_elem={1,1} "
                                               "start_addr=0x4000000000 step_elem={1,0} data={r0}"),
                                     test::kC),
                              test::kC)
                .count,
            0U);
}

TEST(FamilyHooks, S2BnFootprintsAreTheElementsRead) {
  // MatchValueLoad reads 8 fp32 elements, step 1: bytes 0x40..0x5f of partitions 0..3, whatever the pattern's size.
  Word w = assembled(
      "MatchValueLoad src_mem_pattern.start_addr=sbuf[p0]+0x40 src_mem_pattern.step_elem={1,0} "
      "src_mem_pattern.num_elem={8,1} dtype=fp32 num_active_channels=4");
  family::Footprint f = family::footprint(decode(w, test::kC), test::kC);
  ASSERT_EQ(f.count, 1U);
  EXPECT_EQ(f.operands[0].operand, "src");
  EXPECT_EQ(f.operands[0].partitions, 4U);
  EXPECT_EQ(f.operands[0].first, 0x40);
  EXPECT_EQ(f.operands[0].last, 0x5F);
  EXPECT_FALSE(f.operands[0].write);
  // BatchNormParamLoad: 3 bf16 coefficients, step 2 (bytes 0x80..0x89) and the fp32 mean at 0x200 (0x200..0x203).
  w = assembled(
      "BatchNormParamLoad src_mem_pattern.start_addr=sbuf[p0]+0x80 src_mem_pattern.step_elem={2,0} "
      "src_mem_pattern.num_elem={3,1} dtype=bf16 num_active_channels=2 imm0_ptr=0x200 "
      "imm0_src=POINTER_IMMEDIATE imm1=0x4");
  f = family::footprint(decode(w, test::kC), test::kC);
  ASSERT_EQ(f.count, 2U);
  EXPECT_EQ(f.operands[0].first, 0x80);
  EXPECT_EQ(f.operands[0].last, 0x89);
  EXPECT_EQ(f.operands[1].operand, "imm0_ptr");
  EXPECT_EQ(f.operands[1].partitions, 2U);
  EXPECT_EQ(f.operands[1].first, 0x200);
  EXPECT_EQ(f.operands[1].last, 0x203);
}

TEST(FamilyHooks, MemoryAndS2BnAccessesLieInTheirFootprints) {
  accesses_lie_in_the_footprint(
      std::vector<Word>{assembled("TensorStore dtype=u32 num_elem={4,2} start_addr=sbuf[p3]+0x100 "
                                  "step_elem={2,16} data={r0,r1,r2,r3,r4,r5,r6,r7}")},
      Engine::Pool);
  accesses_lie_in_the_footprint(
      std::vector<Word>{assembled("TensorLoad dtype=u32 src_datasrc=REGISTER num_elem={4,2} "
                                  "start_addr=sbuf[p3]+0x100 step_elem={2,16} data={r0,r1,r2,r3,r4,r5,r6,r7}")},
      Engine::Pool);
  accesses_lie_in_the_footprint(
      std::vector<Word>{assembled("MatchValueLoad src_mem_pattern.start_addr=sbuf[p0]+0x40 "
                                  "src_mem_pattern.step_elem={1,0} src_mem_pattern.num_elem={8,1} dtype=fp32 "
                                  "num_active_channels=4")},
      Engine::Dve);
}

TEST(FamilyHooks, FootprintsNameOperandsAndDirections) {
  const family::Footprint f = family::footprint(decode(test::hex(test::kTt), test::kC), test::kC);
  ASSERT_EQ(f.count, 3U);
  EXPECT_EQ(f.operands[0].operand, "src0");
  EXPECT_FALSE(f.operands[0].write);
  EXPECT_EQ(f.operands[2].operand, "dst");
  EXPECT_TRUE(f.operands[2].write);
  EXPECT_EQ(f.operands[2].region, Region::Psum);
  EXPECT_EQ(f.operands[2].partitions, 128U);
  // A word of a family without on-chip operands, and an undecoded word, declare none.
  Word nop{};
  nop[0] = opcode::kNop;
  nop[1] = 16;
  EXPECT_EQ(family::footprint(decode(nop, test::kC), test::kC).count, 0U);
  Word unknown{};
  unknown[0] = 0x30;
  unknown[1] = 16;
  EXPECT_EQ(family::footprint(decode(unknown, test::kC), test::kC).count, 0U);
}

TEST(FamilyHooks, EventSemaphoreHasItsExtendedLaneAsAnExtraWait) {
  Word es{};
  es[0] = opcode::kEventSemaphore;
  es[1] = 16;
  es[32] = 0x05;  // ext.wait_mode SEM_GE_IMM
  es[33] = 25;    // ext.wait_idx
  es[36] = 16;    // ext.sem_wait_value
  const family::ExtraWaits w = family::extra_waits(decode(es, test::kC));
  ASSERT_EQ(w.count, 1U);
  EXPECT_EQ(w.lanes[0].wait_mode, 0x05);
  EXPECT_EQ(w.lanes[0].wait_idx, 25);
  EXPECT_EQ(w.lanes[0].semaphore_value, 16U);
  EXPECT_EQ(w.lanes[0].update_mode, 0x00);
  es[32] = 0;  // NONE: the lane is still there (the machine skips a NONE lane)
  EXPECT_EQ(family::extra_waits(decode(es, test::kC)).count, 1U);
  Word nop{};
  nop[0] = opcode::kNop;
  nop[1] = 16;
  EXPECT_EQ(family::extra_waits(decode(nop, test::kC)).count, 0U);
}

}  // namespace
}  // namespace tpbisa
