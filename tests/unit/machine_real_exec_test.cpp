// Executors of the real-program opcodes (real-programs.md §3-§12) against scalar references: MEMSET, CAST,
// COPY, TENSOR_TENSOR ADD, LDWEIGHTS + MATMUL (transpose and accumulation groups), EVENT_SEMAPHORE's two lanes.
#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "../support/real_words.hpp"
#include "../support/test_util.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa {
namespace {

using test::f32;
using test::hex;
using test::kC;
using test::kCast;
using test::kLwT0;
using test::kLwT1;
using test::kLwX0;
using test::kMemset;
using test::kMmBegin;
using test::kMmEnd;
using test::kMmT0;
using test::kPsum;
using test::kPsumStride;
using test::kStride;
using test::kTt;

uint16_t f16(float v) {
  return static_cast<uint16_t>(from_fp32_bits(f32(v), dtype::kFp16));
}

MachineOptions on(EngineId e) {
  MachineOptions mo;
  mo.engine = e;
  return mo;
}

TEST(RealExec, MemsetFillsEveryElementWithTheRawValue) {
  Machine m(kC, std::vector<Word>{hex(kMemset)}, on(EngineId::Dve));
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  for (uint64_t p : {0ULL, 77ULL, 127ULL})
    for (uint64_t k : {0ULL, 63ULL}) EXPECT_EQ(m.state().memory.read(p * kStride + 0x4600 + 4 * k, 4), f32(1.0F));
  EXPECT_FALSE(m.state().memory.initialized(0x4600 + 4 * 64, 4));  // element 64 is not part of the pattern
}

TEST(RealExec, CastRoundsFp32ToFp16) {
  Machine m(kC, std::vector<Word>{hex(kCast)}, on(EngineId::Act));
  const std::vector<float> values{1.0F, -2.5F, 65504.0F, 1.0F / 3.0F, 70000.0F};
  for (uint64_t p = 0; p < 128; ++p)
    for (uint64_t k = 0; k < 64; ++k)
      m.mutable_state().memory.write(p * kStride + 0x4200 + 4 * k, 4, f32(values[(p + k) % values.size()]));
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  for (uint64_t p = 0; p < 128; p += 31)
    for (uint64_t k = 0; k < 64; k += 7) {
      const float v = values[(p + k) % values.size()];
      EXPECT_EQ(m.state().memory.read(p * kStride + 0x4400 + 2 * k, 2), from_fp32_bits(f32(v), dtype::kFp16))
          << p << " " << k;
    }
}

TEST(RealExec, TensorTensorAddsInFp32) {
  Machine m(kC, std::vector<Word>{hex(kTt)}, on(EngineId::Dve));
  for (uint64_t p = 0; p < 128; ++p)
    for (uint64_t k = 0; k < 64; ++k) {
      m.mutable_state().memory.write(p * kStride + 0x1000 + 4 * k, 4, f32(static_cast<float>(p) * 0.5F));
      m.mutable_state().memory.write(p * kStride + 0x2000 + 4 * k, 4, f32(static_cast<float>(k) + 0.25F));
    }
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  for (uint64_t p = 0; p < 128; p += 17)
    for (uint64_t k = 0; k < 64; k += 9)
      EXPECT_EQ(m.state().memory.read(kPsum + p * kPsumStride + 4 * k, 4),
                f32(static_cast<float>(p) * 0.5F + (static_cast<float>(k) + 0.25F)));
}

// matmul_small Activation#03 (§10.4): wait S[5] >= 2; COPY PSUM p0+0x800 -> SB 0x4000 as 128 raw INT32 words.
const std::string kCopyAct03 =
    "4610000005051304020000000008000201000100010001008000010001000100"
    "08088000000000000000000000400000"
    "01000100010001008000010001000100";

TEST(RealExec, CopyMovesRawBitsAndWaitsForItsSemaphore) {
  Machine m(kC, std::vector<Word>{hex(kCopyAct03)}, on(EngineId::Act));
  auto bits = [](uint64_t p, uint64_t k) {
    return static_cast<uint32_t>(0x7FC00001U ^ (p * 2654435761U + k * 40503U));
  };
  for (uint64_t p = 0; p < 128; ++p)
    for (uint64_t k = 0; k < 128; ++k)
      m.mutable_state().memory.write(kPsum + p * kPsumStride + 0x800 + 4 * k, 4, bits(p, k));
  m.mutable_state().sems[5] = 1;
  StepResult r = m.step();
  EXPECT_EQ(r.status, StepResult::Status::Blocked);  // S[5] >= 2 does not hold yet
  m.mutable_state().sems[5] = 2;
  r = m.step();
  ASSERT_EQ(r.status, StepResult::Status::Retired) << r.fault.detail;
  for (uint64_t p = 0; p < 128; p += 9)
    for (uint64_t k = 0; k < 128; k += 5)
      EXPECT_EQ(m.state().memory.read(p * kStride + 0x4000 + 4 * k, 4), bits(p, k)) << p << " " << k;
  EXPECT_EQ(m.state().sems[4], 1U);
}

TEST(RealExec, TensorTensorIntegerOpsUseThe32BitEvaluator) {
  // The §11.4 word with the dtypes INT32/INT32 -> INT32 and op SUBTRACT_INT (is_valid_int_aluop): exact 32-bit
  // integer subtraction. (An arithmetic op such as SUBTRACT is evaluated in FP32 even on integers, §11.3.)
  Word w = hex(kTt);
  w[12] = 0x88;  // in0_in1_dtype: INT32, INT32
  w[13] = dtype::kInt32;
  w[14] = 0xC6;  // SUBTRACT_INT
  Machine m(kC, std::vector<Word>{w}, on(EngineId::Dve));
  for (uint64_t p = 0; p < 128; ++p)
    for (uint64_t k = 0; k < 64; ++k) {
      // 2^24 + 1 + 2p is odd and above 2^24: not an FP32 value, so only the integer path is exact.
      m.mutable_state().memory.write(p * kStride + 0x1000 + 4 * k, 4, static_cast<uint32_t>(16777217 + 2 * p));
      m.mutable_state().memory.write(p * kStride + 0x2000 + 4 * k, 4, static_cast<uint32_t>(k + 100));
    }
  const RunSummary s = m.run(10);
  ASSERT_FALSE(s.faulted) << s.fault.detail;
  for (uint64_t p = 0; p < 128; p += 13)
    for (uint64_t k = 0; k < 64; k += 7)
      EXPECT_EQ(m.state().memory.read(kPsum + p * kPsumStride + 4 * k, 4),
                static_cast<uint32_t>(16777217 + 2 * p - (k + 100)));
}

TEST(RealExec, CopyOnPeIsRefusedByEnginePlacement) {
  // PROJ-CONV-F1 with the stream engine known: a datapath word on PE is invalid, not executed.
  MachineOptions mo = on(EngineId::Pe);
  mo.validate.engine = StreamEngine::Pe;
  Machine m(kC, std::vector<Word>{hex(kMemset)}, mo);
  const RunSummary s = m.run(10);
  EXPECT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::InvalidInstruction);
  EXPECT_FALSE(m.state().memory.initialized(0x4600, 4));
}

float value(uint64_t a, uint64_t b, int salt) {
  return static_cast<float>(static_cast<int>((a * 7 + b * 3 + static_cast<uint64_t>(salt)) % 5) - 2);
}

TEST(RealExec, TransposeIsBitExactForEveryPattern) {
  Machine m(kC, std::vector<Word>{hex(kLwX0), hex(kMmT0)}, on(EngineId::Pe));
  MachineState& s = m.mutable_state();
  s.sems[8] = 16;
  // x tile: partition r holds 128 FP16 at 0x37c00, including -0, NaN and Inf patterns; identity at 0x37b00.
  auto pattern = [](uint64_t r, uint64_t c) -> uint16_t {
    const uint64_t v = r * 131 + c * 17;
    return v % 11 == 0 ? 0x8000 : v % 13 == 0 ? 0x7E01 : v % 17 == 0 ? 0x7C00 : static_cast<uint16_t>(v * 40503);
  };
  for (uint64_t r = 0; r < 128; ++r)
    for (uint64_t c = 0; c < 128; ++c) {
      s.memory.write(r * kStride + 0x37c00 + 2 * c, 2, pattern(r, c));
      s.memory.write(r * kStride + 0x37b00 + 2 * c, 2, r == c ? f16(1.0F) : 0);
    }
  const RunSummary sum = m.run(10);
  ASSERT_FALSE(sum.faulted) << sum.fault.detail;
  // out[m][n] = x[n][m]: PSUM partition m, FP16 element n at 0x800.
  for (uint64_t mm = 0; mm < 128; mm += 5)
    for (uint64_t n = 0; n < 128; n += 3)
      ASSERT_EQ(m.state().memory.read(kPsum + mm * kPsumStride + 0x800 + 2 * n, 2), pattern(n, mm)) << mm << " " << n;
  EXPECT_EQ(m.state().sems[5], 1U);
}

TEST(RealExec, MatmulGroupBeginOverwritesEndAccumulates) {
  Machine m(kC, std::vector<Word>{hex(kLwT0), hex(kMmBegin), hex(kLwT1), hex(kMmEnd)}, on(EngineId::Pe));
  MachineState& s = m.mutable_state();
  s.sems[4] = 1;
  s.sems[26] = 16;
  // Stationary tiles W0 (0x4000) and W1 (0x4100): row k = partition k, 128 FP16 each; moving tiles y0 (0x37f00)
  // and y1 (0x37e00): 64 FP16 per partition. PSUM starts with garbage that BEGIN must overwrite.
  for (uint64_t k = 0; k < 128; ++k) {
    for (uint64_t c = 0; c < 128; ++c) {
      s.memory.write(k * kStride + 0x4000 + 2 * c, 2, f16(value(k, c, 0)));
      s.memory.write(k * kStride + 0x4100 + 2 * c, 2, f16(value(k, c, 1)));
    }
    for (uint64_t n = 0; n < 64; ++n) {
      s.memory.write(k * kStride + 0x37f00 + 2 * n, 2, f16(value(k, n, 2)));
      s.memory.write(k * kStride + 0x37e00 + 2 * n, 2, f16(value(k, n, 3)));
      s.memory.write(kPsum + k * kPsumStride + 4 * n, 4, f32(1000.0F));
    }
  }
  const RunSummary sum = m.run(10);
  ASSERT_FALSE(sum.faulted) << sum.fault.detail;
  // LAST_COL_FIRST: element e of a row walked from its end (step -1 from element 127) is W[k][127-e], i.e. the
  // walk's reversal restores W[k][m] = stored element m.
  for (uint64_t mm = 0; mm < 128; mm += 3)
    for (uint64_t n = 0; n < 64; n += 5) {
      float acc0 = 0, acc1 = 0;
      for (uint64_t k = 0; k < 128; ++k) acc0 += value(k, mm, 0) * value(k, n, 2);
      for (uint64_t k = 0; k < 128; ++k) acc1 += value(k, mm, 1) * value(k, n, 3);
      EXPECT_EQ(m.state().memory.read(kPsum + mm * kPsumStride + 4 * n, 4), f32(acc0 + acc1)) << mm << " " << n;
    }
  EXPECT_EQ(m.state().sems[5], 2U);
  EXPECT_EQ(m.core(0).state().macs, 2 * 128ULL * 128 * 64);
}

// EVENT_SEMAPHORE with both lanes: wait S[1]>=1 (lane 0) and S[2]>=3 (extended); update S[3] += 5 (extended).
Word ctrl_es_word() {
  CtrlEs es{};
  es.header = {0xa0, 0x10, 0, 0};
  es.events = {0x05, 1, 0x00, 0, 1};
  es.ext = {0x05, 2, 0x05, 3, 3, 5};
  return encode(es);
}

TEST(RealExec, EventSemaphoreNeedsBothLanes) {
  Machine m(kC, std::vector<Word>{ctrl_es_word()}, on(EngineId::Pe));
  m.mutable_state().sems[1] = 1;
  m.mutable_state().sems[2] = 2;
  StepResult r = m.step();
  EXPECT_EQ(r.status, StepResult::Status::Blocked);  // lane 0 holds, the extended lane does not
  EXPECT_EQ(r.wait.id, 2U);
  EXPECT_TRUE(m.deadlocked());
  m.mutable_state().sems[2] = 3;
  r = m.step();
  ASSERT_EQ(r.status, StepResult::Status::Retired) << r.fault.detail;
  EXPECT_EQ(m.state().sems[3], 5U);
}

TEST(RealExec, EventSemaphoreLaneZeroOnlyControlIgnoresTheSecondWait) {
  MachineOptions mo = on(EngineId::Pe);
  mo.controls.es_lane0_only = true;
  Machine m(kC, std::vector<Word>{ctrl_es_word()}, mo);
  m.mutable_state().sems[1] = 1;
  EXPECT_EQ(m.step().status, StepResult::Status::Retired);
}

TEST(RealExec, PseudoWordsAreRefusedOutsideANeffRun) {
  Word label{};
  label[0] = 0xcc;
  label[1] = 0x10;
  Machine m(kC, std::vector<Word>{label}, on(EngineId::Sp));
  const RunSummary s = m.run(10);
  EXPECT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::PseudoNotLowered);
}

}  // namespace
}  // namespace tpbisa
