// The reduce family: the spec's example words decoded, judged, assembled back and executed against values worked by
// hand in alu-ops.md §3.2-§3.5 and §8 (never computed by the library), and the faults of its executor.
#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "../../support/predicate_cases.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::test::reduce_family {
namespace {

constexpr Generation kC = Generation::Cayman;
constexpr uint64_t kP = 0x40000;  // SBUF partition stride on CAYMAN

// The example words of alu-ops.md §3.2-§3.5.
constexpr std::string_view kReduce =
    "42100000000000000000000000000000010004000000000004000200010001000a0a020004020000000000000001000001000000000000"
    "000200010001000100";
constexpr std::string_view kReduceBv =
    "5210000000000000000000000000000001000400000000000400020001000100090902000b020000000000000001000001000000000000"
    "000200010001000100";
constexpr std::string_view kTranspose =
    "83100000000000000000000000000000010000000000000020000100010001000a0a200004020000000000000001000001000000000000"
    "000100010001000100";
constexpr std::string_view kTransposeBv =
    "8410000000000000000000000000000001000000000000002000010001000100090920000b020000000000000001000001000000000000"
    "000100010001000100";
constexpr std::string_view kCumulative =
    "4e100000000000000000000000000000010004000000000004000200010001000a0a020004020000000000000001000001000000000000"
    "000800010001000100";
constexpr std::string_view kCumulativeBv =
    "5e10000000000000000000000000000001000400000000000400020001000100090902000c020000000000000001000001000000000000"
    "000800010001000100";
constexpr std::string_view kReciprocal =
    "48100000000000000000000000000000010000000000000004000100010001000a0a020000000000000000000001000001000000000000"
    "000400010001000100";

Word word(std::string_view hex) {
  std::string digits;
  for (char ch : hex)
    if (ch != ' ') digits += ch;
  return hex_word(digits);
}

uint32_t f32(float v) {
  return std::bit_cast<uint32_t>(v);
}

/// One word on one engine's stream; `known` makes the run know that engine (PROJ-CONV-K1 and the engine conjunct).
struct OneWord {
  Machine m;
  OneWord(const Word& w, EngineId e = EngineId::Dve, bool known = false)
      : m(kC, std::vector<Word>{w}, options(e, known)) {}
  static MachineOptions options(EngineId e, bool known) {
    MachineOptions mo;
    mo.engine = e;
    if (known) mo.validate.engine = static_cast<StreamEngine>(e);
    return mo;
  }
  void put(uint64_t partition, uint64_t off, unsigned size, const std::vector<uint64_t>& values) {
    for (size_t k = 0; k < values.size(); ++k)
      m.mutable_state().memory.write(partition * kP + off + size * k, size, values[k]);
  }
  uint64_t at(uint64_t partition, uint64_t off, unsigned size = 4) const {
    return m.state().memory.read(partition * kP + off, size);
  }
};

std::vector<uint64_t> floats(std::initializer_list<float> v) {
  std::vector<uint64_t> out;
  for (float x : v) out.push_back(f32(x));
  return out;
}

TEST(ReduceFamily, SpecWordsDecodeJudgeAndRoundTripOnEveryGeneration) {
  for (std::string_view hex : {kReduce, kReduceBv, kTranspose, kTransposeBv, kCumulative, kCumulativeBv, kReciprocal})
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(std::string(hex.substr(0, 2)) + " on " + std::string(to_string(g)));
      const Word w = word(hex);
      const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(w), g);
      ASSERT_NE(inst.as<S4d4Tr>(), nullptr);
      EXPECT_TRUE(validate(inst, g).valid);
      const std::string text = disassemble(inst, g);
      const AsmResult back = assemble(text, "round-trip", g);
      ASSERT_TRUE(back.ok()) << text;
      ASSERT_EQ(back.words.size(), 1U);
      EXPECT_EQ(back.words[0], w) << text;
    }
}

TEST(ReduceFamily, DecodeSaysWhatOpDimOpAndNegatedMean) {
  const Word w = word(kReduce);
  const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(w), kC);
  std::string op_dim, op;
  for (const DescribedField& f : describe_fields(inst)) {
    if (f.name == "op_dim") op_dim = f.meaning;
    if (f.name == "op") op = f.meaning;
  }
  EXPECT_EQ(op_dim, "reduces src's X: one dst element per group of 4 elements");
  EXPECT_EQ(op, "ADD, in fp32");
  const Word s = word(kCumulative);
  for (const DescribedField& f : describe_fields(decode(std::span<const uint8_t, kWordBytes>(s), kC))) {
    if (f.name == "op_dim") {
      EXPECT_EQ(f.meaning, "an inclusive scan over src's X (groups of 4 elements)");
    }
  }
}

std::string failing(const Word& w, Generation g, std::optional<StreamEngine> e = std::nullopt) {
  ValidateOptions o;
  o.engine = e;
  std::string s;
  // The verdict is named: its failure list is a view into it.
  const Verdict v = validate(decode(std::span<const uint8_t, kWordBytes>(w), g), g, o);
  for (const Predicate* p : v.failures()) s += (s.empty() ? "" : ", ") + std::string(p->name);
  return s;
}

TEST(ReduceFamily, EdgeCasesNameTheirFailingPredicates) {  // alu-ops.md §8 #1-#12
  Word w = word(kReduce);
  w[37] = 0;
  EXPECT_EQ(failing(w, kC), "is_valid_subdim");
  w[37] = 3;
  EXPECT_EQ(failing(w, kC), "tensor_reduce_dst_element_count");
  w = word(kReduceBv);
  w[35] = 1;
  EXPECT_EQ(failing(w, kC), "has_valid_reduce_negated");
  w = word(kReduce);
  w[36] = 0xC4;  // ADD_INT
  EXPECT_EQ(failing(w, kC, StreamEngine::Dve), "is_valid_tensor_reduce_arith_engine");
  EXPECT_EQ(failing(w, kC), "");
  w[32] = w[33] = dtype::kInt32;
  EXPECT_EQ(failing(w, kC, StreamEngine::Pool), "");
  EXPECT_EQ(failing(word(kReduce), kC, StreamEngine::Pool), "is_valid_tensor_reduce_arith_engine");
  w = word(kReduce);
  w[36] = 0xCF;  // MAX_INT
  EXPECT_EQ(failing(w, Generation::Sunda), "is_valid_enum(AluOp), tensor_reduce_valid_alu_op");
  w = word(kReduceBv);
  w[32] = w[33] = dtype::kInt16;
  EXPECT_EQ(failing(w, kC), "tensor_reduce_valid_dtype");
  w = word(kReduce);
  w[32] = w[33] = dtype::kUint64;
  EXPECT_EQ(failing(w, kC), "");
  w[32] = dtype::kFp32r;
  EXPECT_EQ(failing(w, kC), "is_valid_dtype_64");
  w = word(kTranspose);
  w[34] = 2;
  EXPECT_EQ(failing(w, kC), "has_multiple_32_channels");
  w = word(kCumulative);
  w[36] = aluop::kDivide;
  EXPECT_EQ(failing(w, kC), "tensor_cumulative_valid_alu_op");
  w[36] = aluop::kRsqrt;
  EXPECT_EQ(failing(w, kC), "");
  w[36] = aluop::kAbsMax;
  EXPECT_EQ(failing(w, kC), "is_valid_enum(AluOp), tensor_cumulative_valid_alu_op");
  EXPECT_EQ(failing(w, Generation::Mariana), "");
  w = word(kCumulativeBv);
  w[36] = aluop::kLogicalShiftRight;
  EXPECT_EQ(failing(w, kC), "tensor_cumulative_valid_dtype");
  w[32] = w[33] = dtype::kInt32;
  EXPECT_EQ(failing(w, kC), "");
  w = word(kReciprocal);
  w[36] = aluop::kAdd;
  EXPECT_EQ(failing(w, kC), "s4d4_tr_op_bypass");
}

// §3.2: partition 0 [1,2,3,4 | 10,20,30,40] -> [10, 100]; partition 1 [0.5,0.25,-1,8 | 1e30,1,-1e30,1] -> [7.75, 1]:
// the sequential fp32 order of PROJ-CONV-K6 (order-sensitive: the second group would be 2 in exact arithmetic).
TEST(ReduceFamily, TensorReduceFoldsEachGroupInFlatOrder) {
  OneWord r(word(kReduce));
  r.put(0, 0, 4, floats({1, 2, 3, 4, 10, 20, 30, 40}));
  r.put(1, 0, 4, floats({0.5F, 0.25F, -1, 8, 1e30F, 1, -1e30F, 1}));
  ASSERT_FALSE(r.m.run(10).faulted);
  EXPECT_EQ(r.at(0, 0x100), f32(10));
  EXPECT_EQ(r.at(0, 0x104), f32(100));
  EXPECT_EQ(r.at(1, 0x100), f32(7.75F));
  EXPECT_EQ(r.at(1, 0x104), f32(1));
}

TEST(ReduceFamily, TensorReduceBitvecOrsRawBits) {
  OneWord r(word(kReduceBv));
  r.put(0, 0, 4, {1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80});
  r.put(1, 0, 4, {0xFFFF0000, 0, 0, 1, 5, 3, 0, 0});
  ASSERT_FALSE(r.m.run(10).faulted);
  EXPECT_EQ(r.at(0, 0x100), 0xFU);
  EXPECT_EQ(r.at(0, 0x104), 0xF0U);
  EXPECT_EQ(r.at(1, 0x100), 0xFFFF0001U);
  EXPECT_EQ(r.at(1, 0x104), 0x7U);
}

TEST(ReduceFamily, NegatedMaxMultipliesByMinusOne) {  // §8 #50
  Word w = word(kReduce);
  w[36] = aluop::kMax;
  w[35] = 1;
  OneWord r(w);
  r.put(0, 0, 4, floats({1, 2, 3, 4, 10, 20, 30, 40}));
  r.put(1, 0, 4, floats({1, 2, 3, 4, 10, 20, 30, 40}));
  ASSERT_FALSE(r.m.run(10).faulted);
  EXPECT_EQ(r.at(0, 0x100), f32(-4));
  EXPECT_EQ(r.at(0, 0x104), f32(-40));
}

/// The §3.2 geometry as an INT32 integer reduction with `op`, on POOL (known engine).
Word int_reduce(uint8_t op, uint8_t out = dtype::kInt32) {
  Word w = word(kReduce);
  w[32] = dtype::kInt32;
  w[33] = out;
  w[36] = op;
  return w;
}

TEST(ReduceFamily, IntegerAddWrapsOnPoolAndIsRefusedOnDve) {  // §8 #48
  OneWord pool(int_reduce(0xC4), EngineId::Pool, true);
  pool.put(0, 0, 4, {0x7FFFFFFF, 1, 0, 0, 0xFFFFFFFF, 0xFFFFFFFF, 2, 0});
  pool.put(1, 0, 4, {0, 0, 0, 0, 0, 0, 0, 0});
  ASSERT_FALSE(pool.m.run(10).faulted);
  EXPECT_EQ(pool.at(0, 0x100), 0x80000000U);
  EXPECT_EQ(pool.at(0, 0x104), 0U);  // -1 + -1 + 2 + 0
  OneWord dve(int_reduce(0xC4), EngineId::Dve, true);
  const RunSummary s = dve.m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::InvalidInstruction);
}

TEST(ReduceFamily, ArgMaxIsTheFirstIndexOfTheMaximum) {  // §8 #49
  OneWord r(int_reduce(0xDE, dtype::kUint32), EngineId::Pool, true);
  r.put(0, 0, 4, {3, 9, 0xFFFFFFFF, 9, 5, 5, 0x80000000, 5});  // [3, 9, -1, 9] and [5, 5, INT_MIN, 5]
  r.put(1, 0, 4, {0xFFFFFFFE, 0xFFFFFFFF, 0, 0, 0, 0, 0, 0});  // signed: the max is 0 at index 2
  ASSERT_FALSE(r.m.run(10).faulted);
  EXPECT_EQ(r.at(0, 0x100), 1U);
  EXPECT_EQ(r.at(0, 0x104), 0U);
  EXPECT_EQ(r.at(1, 0x100), 2U);
}

TEST(ReduceFamily, IntegerResultSaturatesToANarrowerOutput) {  // PROJ-CONV-K5 (d)
  OneWord r(int_reduce(0xC4, dtype::kInt16), EngineId::Pool, true);
  r.put(0, 0, 4, {30000, 30000, 0, 0, 0xFFFF0000, 0, 0, 0});  // 60000 -> 32767; -65536 -> -32768
  ASSERT_FALSE(r.m.run(10).faulted);
  EXPECT_EQ(r.at(0, 0x100, 2), 0x7FFFU);
  EXPECT_EQ(r.at(0, 0x102, 2), 0x8000U);
}

// §3.3: partition i holds [32i + j]; T[p][k] = 32k + p, so partition p receives 15872 + 32p.
TEST(ReduceFamily, TransposeReduceSumsTheTransposedRows) {
  OneWord r(word(kTranspose));
  for (uint64_t i = 0; i < 32; ++i) {
    std::vector<float> row;
    for (uint64_t j = 0; j < 32; ++j) row.push_back(static_cast<float>(32 * i + j));
    for (uint64_t j = 0; j < 32; ++j) r.put(i, 4 * j, 4, {f32(row[j])});
  }
  ASSERT_FALSE(r.m.run(10).faulted);
  EXPECT_EQ(r.at(0, 0x100), f32(15872));
  EXPECT_EQ(r.at(1, 0x100), f32(15904));
  EXPECT_EQ(r.at(31, 0x100), f32(16864));
}

TEST(ReduceFamily, TransposeReduceBitvecGivesEachPartitionItsBit) {
  OneWord r(word(kTransposeBv), EngineId::Pool, true);
  for (uint64_t i = 0; i < 32; ++i)
    for (uint64_t j = 0; j < 32; ++j) r.put(i, 4 * j, 4, {uint64_t{1} << j});
  ASSERT_FALSE(r.m.run(10).faulted);
  for (uint64_t p = 0; p < 32; ++p) EXPECT_EQ(r.at(p, 0x100), uint64_t{1} << p) << p;
}

// §3.4: two scans of 4 per partition.
TEST(ReduceFamily, CumulativeScansInclusivelyPerGroup) {
  OneWord r(word(kCumulative));
  r.put(0, 0, 4, floats({1, 2, 3, 4, 10, 20, 30, 40}));
  r.put(1, 0, 4, floats({1, -1, 1, -1, .5F, .5F, .5F, .5F}));
  ASSERT_FALSE(r.m.run(10).faulted);
  const float p0[] = {1, 3, 6, 10, 10, 30, 60, 100};
  const float p1[] = {1, 0, 1, 0, .5F, 1, 1.5F, 2};
  for (uint64_t k = 0; k < 8; ++k) {
    EXPECT_EQ(r.at(0, 0x100 + 4 * k), f32(p0[k])) << k;
    EXPECT_EQ(r.at(1, 0x100 + 4 * k), f32(p1[k])) << k;
  }
}

TEST(ReduceFamily, CumulativeBitvecXorScan) {
  OneWord r(word(kCumulativeBv));
  r.put(0, 0, 4, {1, 2, 4, 8, 1, 1, 1, 1});
  r.put(1, 0, 4, {0, 0, 0, 0, 0, 0, 0, 0});
  ASSERT_FALSE(r.m.run(10).faulted);
  const uint64_t want[] = {1, 3, 7, 15, 1, 0, 1, 0};
  for (uint64_t k = 0; k < 8; ++k) EXPECT_EQ(r.at(0, 0x100 + 4 * k), want[k]) << k;
}

TEST(ReduceFamily, CumulativeIntegerAddWrapsAndRunsInPlace) {  // §8 #51, #58
  Word w = word(kCumulative);
  w[32] = w[33] = dtype::kInt32;
  w[36] = 0xC4;                   // ADD_INT
  store_le<uint32_t>(&w[44], 0);  // dst = src: the same result as out of place (PROJ-CONV-K2)
  store_le<int16_t>(&w[48], 1);
  OneWord r(w);
  r.put(0, 0, 4, {0x7FFFFFFF, 1, 2, 3, 0, 0, 0, 0});
  r.put(1, 0, 4, {0, 0, 0, 0, 0, 0, 0, 0});
  ASSERT_FALSE(r.m.run(10).faulted);
  const uint64_t want[] = {0x7FFFFFFF, 0x80000000, 0x80000002, 0x80000005};
  for (uint64_t k = 0; k < 4; ++k) EXPECT_EQ(r.at(0, 4 * k), want[k]) << k;
}

// §3.5: partition 0 [2, -0, 3, +Inf], partition 1 [0.1, -4, 1e-40, 1e38].
TEST(ReduceFamily, ReciprocalIsTheCorrectlyRoundedFp32Inverse) {
  OneWord r(word(kReciprocal));
  r.put(0, 0, 4, {f32(2), 0x80000000, f32(3), 0x7F800000});
  r.put(1, 0, 4, {f32(0.1F), f32(-4), f32(1e-40F), f32(1e38F)});
  ASSERT_FALSE(r.m.run(10).faulted);
  const uint64_t p0[] = {0x3F000000, 0xFF800000, 0x3EAAAAAB, 0x00000000};
  const uint64_t p1[] = {0x41200000, 0xBE800000, 0x7F800000, 0x006CE3EF};
  for (uint64_t k = 0; k < 4; ++k) {
    EXPECT_EQ(r.at(0, 0x100 + 4 * k), p0[k]) << k;
    EXPECT_EQ(r.at(1, 0x100 + 4 * k), p1[k]) << k;
  }
}

TEST(ReduceFamily, PlacementAndFaultsChangeNothing) {  // PROJ-CONV-K1, N15
  OneWord pool(word(kCumulative), EngineId::Pool, true);
  RunSummary s = pool.m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::WrongEngine);
  OneWord act(word(kReciprocal), EngineId::Act, true);
  s = act.m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::WrongEngine);
  // A source element past the partition's active bytes: OutOfRange, and no destination written.
  Word w = word(kCumulative);
  store_le<uint32_t>(&w[12], 0x37FF0);  // element 4 at 0x38000, past CAYMAN's 224 KiB
  OneWord oob(w);
  s = oob.m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::OutOfRange);
  EXPECT_FALSE(oob.m.state().memory.initialized(0x100, 4));
  // An indirect marker (0x20) is refused whatever the generation (PROJ-CONV-K3).
  w = word(kReduce);
  store_le<uint32_t>(&w[12], 0x20000000);
  OneWord ind(w);
  s = ind.m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::UnsupportedAddressingMode);
}

}  // namespace
}  // namespace tpbisa::test::reduce_family
