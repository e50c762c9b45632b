// The vectorised row paths of the vector and pool compute families (TensorScalar 0x43/0x44, ScalarTensorTensor 0x9D,
// TensorReduce 0x42, CopyPredicated 0x72) against the element-by-element path of the same word and against
// sequential fp32 models written here, on rows that cross memory pages, with NaNs, infinities, signed zeros,
// subnormals and BF16 rounding ties in the data.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::row_paths {
namespace {

constexpr uint64_t kStride = 0x40000;  // a partition's SBUF bytes in the flat address space
constexpr unsigned kChannels = 20;     // not a multiple of the sixteen folded together
constexpr uint32_t kBytes = 0x8000;    // the bytes initialised per partition

uint32_t bits(float f) {
  return std::bit_cast<uint32_t>(f);
}
float flt(uint32_t b) {
  return std::bit_cast<float>(b);
}

/// Per partition: `kBytes` of fp32 values (or bf16 pairs of their top halves), a few of them special.
std::vector<std::vector<uint8_t>> random_memory(unsigned seed, bool specials) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-8.0F, 8.0F);
  std::vector<std::vector<uint8_t>> parts(kChannels, std::vector<uint8_t>(kBytes));
  const float special[] = {std::numeric_limits<float>::quiet_NaN(),
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           -0.0F,
                           0.0F,
                           1e-40F,
                           flt(0x7FA00001U),
                           flt(0xFFC12345U)};
  for (auto& p : parts)
    for (uint32_t k = 0; k < kBytes; k += 4) {
      float v = u(rng);
      if (specials && rng() % 97 == 0) v = special[rng() % std::size(special)];
      std::memcpy(p.data() + k, &v, 4);
    }
  return parts;
}

struct Outcome {
  bool faulted = false;
  std::vector<uint8_t> memory;  // every partition's first kBytes bytes
  std::vector<uint32_t> acc;
};

/// Runs `line` once on a DVE stream, untraced (the row paths) or recording effects (the element path).
Outcome run(const std::string& line, const std::vector<std::vector<uint8_t>>& parts, bool record) {
  const AsmResult a = assemble(line, "test", Generation::Cayman);
  EXPECT_TRUE(a.ok()) << line;
  MachineOptions mo;
  mo.engine = EngineId::Dve;
  mo.record_effects = record;
  Machine m(Generation::Cayman, a.words, mo);
  for (unsigned c = 0; c < kChannels; ++c) {
    m.mutable_state().memory.write_block(c * kStride, kBytes, parts[c].data());
    m.mutable_state().dve[c].acc = bits(0.25F * static_cast<float>(c));
  }
  const RunSummary s = m.run(SIZE_MAX);
  Outcome o;
  o.faulted = s.faulted;
  o.memory.resize(size_t{kChannels} * kBytes);
  for (unsigned c = 0; c < kChannels; ++c) {
    m.state().memory.read_block(c * kStride, kBytes, o.memory.data() + size_t{c} * kBytes);
    o.acc.push_back(m.state().dve[c].acc);
  }
  return o;
}

/// The row path and the element path leave the same memory and accumulators, and neither faults.
Outcome expect_paths_agree(const std::string& line, const std::vector<std::vector<uint8_t>>& parts) {
  const Outcome fast = run(line, parts, false), slow = run(line, parts, true);
  EXPECT_FALSE(fast.faulted) << line;
  EXPECT_FALSE(slow.faulted) << line;
  EXPECT_EQ(fast.acc, slow.acc) << line;
  size_t differing = 0, first = 0;
  for (size_t i = 0; i < fast.memory.size(); ++i)
    if (fast.memory[i] != slow.memory[i] && differing++ == 0) first = i;
  EXPECT_EQ(differing, 0U) << line << "\nfirst difference: partition " << first / kBytes << " byte " << std::hex
                           << first % kBytes << ": " << int{fast.memory[first]} << " (row path) against "
                           << int{slow.memory[first]} << " (element path)";
  return fast;
}

/// The pieces of an assembly line, joined.
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string line;
  for (std::string_view p : parts) line += p;
  return line;
}

float f32_at(const std::vector<uint8_t>& bytes, size_t at) {
  float v = 0;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;
}

// Rows of 1500 fp32 elements from 0xF00 cross two page boundaries, at different places than the dst's at 0x5000 + 8.
const std::string kRows = "{1500,1,1}";

TEST(RowPaths, TensorScalarFp32AndBf16AgreeWithTheElementPath) {
  const auto parts = random_memory(1, true);
  for (const char* dt : {"fp32", "bf16"})
    for (const char* ops : {"op0=MULT op1=ADD reverse_operands=NONE", "op0=SUBTRACT op1=SUBTRACT reverse_operands=BOTH",
                            "op0=ADD op1=BYPASS reverse_operands=NONE", "op0=MULT op1=MULT reverse_operands=SECOND"})
      for (const char* imm : {"imm0=1.5 imm1=-0.25", "imm0=1e38 imm1=3.0e38"})
        expect_paths_agree(
            cat({"TensorScalarArithOp src.start_addr=sbuf[p0]+0xf00 src.step_elem={1,0,0} src.num_elem=", kRows,
                 " in_dtype=", dt, " out_dtype=", dt, " num_active_channels=20 imm0_src=INSTRUCTION_IMMEDIATE ", ops,
                 " imm1_src=INSTRUCTION_IMMEDIATE ", imm,
                 " dst.start_addr=sbuf[p0]+0x5008 dst.step_elem={1,0,0} dst.num_elem=", kRows}),
            parts);
}

TEST(RowPaths, RowsUpdatedInPlaceAgreeWithTheElementPath) {
  const auto parts = random_memory(9, true);
  // The destination is the source row itself (written in place past the checks, element k read before written).
  for (const char* dt : {"fp32", "bf16"})
    expect_paths_agree(cat({"TensorScalarArithOp src.start_addr=sbuf[p0]+0xf00 src.step_elem={1,0,0} src.num_elem=",
                            kRows, " in_dtype=", dt, " out_dtype=", dt,
                            " num_active_channels=20 imm0_src=INSTRUCTION_IMMEDIATE op0=MULT op1=ADD "
                            "reverse_operands=NONE imm1_src=INSTRUCTION_IMMEDIATE imm0=1.5 imm1=-0.25 "
                            "dst.start_addr=sbuf[p0]+0xf00 dst.step_elem={1,0,0} dst.num_elem=",
                            kRows}),
                       parts);
  // ScalarTensorTensor into its src1 row, its scalar read through a pointer from the first destination element.
  const std::string n = "{1500,1}";
  expect_paths_agree("ScalarTensorTensorArith src0.start_addr=sbuf[p0]+0xf00 src0.step_elem={1,0} src0.num_elem=" + n +
                         " src1.start_addr=sbuf[p0]+0x2a04 src1.step_elem={1,0} src1.num_elem=" + n +
                         " op0=MULT op1=ADD imm0_src=POINTER_IMMEDIATE in0_in1_dtype=0xaa out_dtype=fp32 "
                         "num_active_channels=20 imm0_dtype=fp32 accumulator_cmd=ACCUMULATE "
                         "dst.start_addr=sbuf[p0]+0x2a04 dst.step_elem={1,0} dst.num_elem=" +
                         n + " imm0=sbuf[p0]+0x2a04",
                     parts);
}

TEST(RowPaths, TensorScalarFp32ToBf16RoundsAsTheModelDoes) {
  const auto parts = random_memory(2, false);
  const Outcome o = expect_paths_agree(
      "TensorScalarArithOp src.start_addr=sbuf[p0]+0xf00 src.step_elem={1,0,0} src.num_elem=" + kRows +
          " in_dtype=fp32 out_dtype=bf16 num_active_channels=20 imm0_src=INSTRUCTION_IMMEDIATE op0=MULT op1=ADD "
          "reverse_operands=NONE imm1_src=INSTRUCTION_IMMEDIATE imm0=1.5 imm1=-0.25 dst.start_addr=sbuf[p0]+0x5008 "
          "dst.step_elem={1,0,0} dst.num_elem=" +
          kRows,
      parts);
  // Independent model: fp32 x * 1.5 then - 0.25, rounded once each; bf16 by round to nearest even of the bits.
  for (unsigned c : {0U, 19U})
    for (unsigned k : {0U, 700U, 1499U}) {
      const float x = f32_at(parts[c], 0xF00 + 4 * k);
      const uint32_t y = bits(x * 1.5F + -0.25F);
      const auto want = static_cast<uint16_t>((y + 0x7FFFU + ((y >> 16) & 1U)) >> 16);
      uint16_t got = 0;
      std::memcpy(&got, o.memory.data() + size_t{c} * kBytes + 0x5008 + 2 * k, 2);
      EXPECT_EQ(got, want) << "channel " << c << " element " << k;
    }
}

/// Per partition: fp32 values whose low 16 bits sit at and beside BF16's rounding tie (0x7FFF, 0x8000, 0x8001),
/// their top halves random, with odd and even BF16 neighbours, subnormals, the largest finite values and NaNs.
std::vector<std::vector<uint8_t>> tie_memory(unsigned seed) {
  std::mt19937 rng(seed);
  const uint32_t low[] = {0x7FFFU, 0x8000U, 0x8001U, 0x0000U};
  const uint32_t high[] = {0x7F7FU, 0xFF7FU, 0x0000U, 0x8000U, 0x007FU, 0x7F80U, 0x7FC0U, 0x3F80U};
  std::vector<std::vector<uint8_t>> parts(kChannels, std::vector<uint8_t>(kBytes));
  for (auto& p : parts)
    for (uint32_t k = 0; k < kBytes; k += 4) {
      uint32_t top = rng() % 5 == 0 ? high[rng() % std::size(high)] : (rng() & 0xFFFFU);
      if ((top & 0x7F80U) == 0x7F80U && rng() % 2 == 0) top ^= 0x0100U;  // mostly finite
      const uint32_t v = (top << 16) | low[rng() % std::size(low)];
      std::memcpy(p.data() + k, &v, 4);
    }
  return parts;
}

TEST(RowPaths, TensorScalarMixedDtypesAndRoundingTiesAgreeWithTheElementPath) {
  for (unsigned seed : {10U, 11U}) {
    const auto parts = seed == 10 ? tie_memory(seed) : random_memory(seed, true);
    for (const char* io : {"in_dtype=fp32 out_dtype=bf16", "in_dtype=bf16 out_dtype=fp32",
                           "in_dtype=bf16 "
                           "out_dtype=bf16"})
      for (const char* ops : {"op0=ADD op1=BYPASS reverse_operands=NONE imm0=0.0 imm1=0.0",
                              "op0=MULT op1=SUBTRACT reverse_operands=SECOND imm0=-1.0 imm1=-0.0",
                              "op0=MULT op1=ADD reverse_operands=NONE imm0=3.0e38 imm1=1e-39"})
        for (const char* dst : {"0x5008", "0xf00"})  // beside the source, or over it (in place where sizes agree)
          expect_paths_agree(
              cat({"TensorScalarArithOp src.start_addr=sbuf[p0]+0xf00 src.step_elem={1,0,0} src.num_elem=", kRows, " ",
                   io, " num_active_channels=20 imm0_src=INSTRUCTION_IMMEDIATE ", ops,
                   " imm1_src=INSTRUCTION_IMMEDIATE dst.start_addr=sbuf[p0]+", dst,
                   " dst.step_elem={1,0,0} dst.num_elem=", kRows}),
              parts);
  }
}

TEST(RowPaths, TensorScalarBf16TiesRoundToEven) {
  const auto parts = tie_memory(12);
  const Outcome o = expect_paths_agree(
      "TensorScalarArithOp src.start_addr=sbuf[p0]+0xf00 src.step_elem={1,0,0} src.num_elem=" + kRows +
          " in_dtype=fp32 out_dtype=bf16 num_active_channels=20 imm0_src=INSTRUCTION_IMMEDIATE op0=ADD op1=BYPASS "
          "reverse_operands=NONE imm1_src=INSTRUCTION_IMMEDIATE imm0=0.0 imm1=0.0 dst.start_addr=sbuf[p0]+0x5008 "
          "dst.step_elem={1,0,0} dst.num_elem=" +
          kRows,
      parts);
  // Independent model: x + 0 is x (-0 + 0 = +0); BF16 keeps the top half, adding one when the low half is above
  // 0x8000 or is 0x8000 with an odd top half; a NaN becomes sign | 0x7FC0.
  for (unsigned c = 0; c < kChannels; ++c)
    for (unsigned k = 0; k < 1500; ++k) {
      const float x = f32_at(parts[c], 0xF00 + 4 * k);
      const uint32_t y = bits(x + 0.0F);
      uint32_t want = y >> 16;
      if (std::isnan(x)) {
        want = (want & 0x8000U) | 0x7FC0U;
      } else if ((y & 0xFFFFU) > 0x8000U || ((y & 0xFFFFU) == 0x8000U && (want & 1U) != 0)) {
        ++want;
      }
      uint16_t got = 0;
      std::memcpy(&got, o.memory.data() + size_t{c} * kBytes + 0x5008 + 2 * k, 2);
      ASSERT_EQ(got, want) << "channel " << c << " element " << k;
    }
}

const std::string kStt2 = "{1500,1}";

std::string stt_line(const char* pair, const char* out, const char* ops, const char* acc, const char* imm) {
  return std::string("ScalarTensorTensorArith src0.start_addr=sbuf[p0]+0xf00 src0.step_elem={1,0} src0.num_elem=") +
         kStt2 + " src1.start_addr=sbuf[p0]+0x2a04 src1.step_elem={1,0} src1.num_elem=" + kStt2 + " " + ops +
         " imm0_src=INSTRUCTION_IMMEDIATE in0_in1_dtype=" + pair + " out_dtype=" + out +
         " num_active_channels=20 imm0_dtype=fp32 accumulator_cmd=" + acc +
         " dst.start_addr=sbuf[p0]+0x5008 dst.step_elem={1,0} dst.num_elem=" + kStt2 + " " + imm;
}

TEST(RowPaths, ScalarTensorTensorAgreesWithTheElementPath) {
  for (bool specials : {false, true}) {
    const auto parts = random_memory(3, specials);
    for (const char* pair : {"0xaa", "0x66", "0x6a"})
      for (const char* ops :
           {"op0=MULT op1=ADD reverse_operands=NONE", "op0=SUBTRACT op1=SUBTRACT reverse_operands=BOTH",
            "op0=ADD op1=MULT reverse_operands=FIRST"})
        for (const char* acc : {"IDLE", "ZERO_ACCUMULATE", "ACCUMULATE"})
          expect_paths_agree(stt_line(pair, "fp32", ops, acc, "imm0=0.75"), parts);
    expect_paths_agree(stt_line("0xaa", "bf16", "op0=MULT op1=ADD reverse_operands=NONE", "ACCUMULATE", "imm0=nan"),
                       parts);
    for (const char* pair : {"0xaa", "0x66", "0xa6"})
      for (const char* acc : {"IDLE", "ACCUMULATE"})
        expect_paths_agree(stt_line(pair, "bf16", "op0=SUBTRACT op1=MULT reverse_operands=FIRST", acc, "imm0=-1.5"),
                           parts);
  }
  const auto ties = tie_memory(13);
  for (const char* pair : {"0xaa", "0x66"})
    expect_paths_agree(stt_line(pair, "bf16", "op0=MULT op1=ADD reverse_operands=NONE", "ZERO_ACCUMULATE", "imm0=1.0"),
                       ties);
}

TEST(RowPaths, ScalarTensorTensorOverItsOwnSourceAgreesWithTheElementPath) {
  // The destination is the src0 row itself (same element size): each piece is written only after it is known to
  // hold no NaN, since a NaN piece is recomputed from its sources.
  const std::string n = "{1500,1}";
  for (bool specials : {false, true}) {
    const auto parts = random_memory(14, specials);
    for (const char* dt : {"fp32", "bf16"})
      for (const char* acc : {"IDLE", "ACCUMULATE"})
        expect_paths_agree(
            cat({"ScalarTensorTensorArith src0.start_addr=sbuf[p0]+0xf00 src0.step_elem={1,0} src0.num_elem=", n,
                 " src1.start_addr=sbuf[p0]+0x2a04 src1.step_elem={1,0} src1.num_elem=", n,
                 " op0=MULT op1=SUBTRACT reverse_operands=SECOND imm0_src=INSTRUCTION_IMMEDIATE in0_in1_dtype=",
                 std::string_view(dt) == "fp32" ? "0xaa" : "0x66", " out_dtype=", dt,
                 " num_active_channels=20 imm0_dtype=fp32 accumulator_cmd=", acc,
                 " dst.start_addr=sbuf[p0]+0xf00 dst.step_elem={1,0} dst.num_elem=", n, " imm0=0.5"}),
            parts);
  }
}

TEST(RowPaths, ScalarTensorTensorAccumulatesInElementOrder) {
  const auto parts = random_memory(4, false);
  const Outcome o = expect_paths_agree(
      stt_line("0xaa", "fp32", "op0=MULT op1=ADD reverse_operands=NONE", "ACCUMULATE", "imm0=0.75"), parts);
  // Independent model: v = x0 * 0.75 + x1 rounded per op; ACC = ACC0 + v0 + v1 + ... in element order.
  for (unsigned c = 0; c < kChannels; ++c) {
    float acc = 0.25F * static_cast<float>(c);
    for (unsigned k = 0; k < 1500; ++k) {
      const float p = f32_at(parts[c], 0xF00 + 4 * k) * 0.75F;
      const float v = p + f32_at(parts[c], 0x2A04 + 4 * k);
      acc = acc + v;
      if (k == 1499) {
        EXPECT_EQ(bits(f32_at(o.memory, size_t{c} * kBytes + 0x5008 + 4 * k)), bits(v));
      }
    }
    EXPECT_EQ(o.acc[c], bits(acc)) << "channel " << c;
  }
}

std::string reduce_line(const char* dt, const char* op, const char* extra, const char* num, const char* dst_num) {
  return std::string("TensorReduceArithOp src.start_addr=sbuf[p0]+0xf00 src.step_elem={1,50,1,1} src.num_elem=") + num +
         " in_dtype=" + dt + " out_dtype=fp32 num_active_channels=20 " + extra + "op=" + op +
         " op_dim=X dst.start_addr=sbuf[p0]+0x5008 dst.step_elem={1,1,1,1} dst.num_elem=" + dst_num;
}

TEST(RowPaths, ReductionsAgreeWithTheElementPath) {
  for (bool specials : {false, true}) {
    const auto parts = random_memory(5, specials);
    for (const char* dt : {"fp32", "bf16"})
      for (const char* op : {"ADD", "MAX", "MIN"})
        for (const char* extra : {"", "negated=1 "}) {
          expect_paths_agree(reduce_line(dt, op, extra, "{50,30,1,1}", "{30,1,1,1}"), parts);
          expect_paths_agree(reduce_line(dt, op, extra, "{1500,1,1,1}", "{1,1,1,1}"), parts);
          expect_paths_agree(reduce_line(dt, op, extra, "{1,30,1,1}", "{30,1,1,1}"), parts);
        }
  }
}

TEST(RowPaths, ReductionAddsInFlatOrder) {
  auto parts = random_memory(6, false);
  // Partition 1: 1e30, 1, -1e30, 1, then zeros: sequentially (1e30 + 1 - 1e30) + 1 = 1, not 2 (alu-ops.md §3.2).
  const float head[] = {1e30F, 1.0F, -1e30F, 1.0F};
  std::memset(parts[1].data() + 0xF00, 0, 1500 * 4);
  std::memcpy(parts[1].data() + 0xF00, head, sizeof head);
  const Outcome o = expect_paths_agree(reduce_line("fp32", "ADD", "", "{1500,1,1,1}", "{1,1,1,1}"), parts);
  EXPECT_EQ(f32_at(o.memory, size_t{1} * kBytes + 0x5008), 1.0F);
  for (unsigned c : {0U, 7U, 16U, 19U}) {
    float acc = f32_at(parts[c], 0xF00);
    for (unsigned k = 1; k < 1500; ++k) acc = acc + f32_at(parts[c], 0xF00 + 4 * k);
    EXPECT_EQ(bits(f32_at(o.memory, size_t{c} * kBytes + 0x5008)), bits(acc)) << "channel " << c;
  }
}

TEST(RowPaths, CopyPredicatedWritesOnlyWherePredicated) {
  auto parts = random_memory(7, true);
  std::mt19937 rng(8);
  for (auto& p : parts)  // predicates at 0x4000: u8 runs of random lengths, zero or not
    for (uint32_t k = 0; k < 1500;) {
      const auto len = static_cast<uint32_t>(1 + rng() % 40);
      const uint8_t v = rng() % 2 == 0 ? 0 : static_cast<uint8_t>(1 + rng() % 255);
      for (uint32_t i = k; i < k + len && i < 1500; ++i) p[0x4000 + i] = v;
      k += len;
    }
  const Outcome o = expect_paths_agree(
      "CopyPredicated in0_in1_dtype={u8,fp32} out_dtype=fp32 op=BYPASS num_active_channels=20 "
      "src0.start_addr=sbuf[p0]+0x4000 src0.step_elem={1,0,0} src0.num_elem=" +
          kRows + " src1.start_addr=sbuf[p0]+0xf00 src1.step_elem={1,0,0} src1.num_elem=" + kRows +
          " dst.start_addr=sbuf[p0]+0x5008 dst.step_elem={1,0,0} dst.num_elem=" + kRows,
      parts);
  // The destination is the data row itself, or the predicate row (u8 predicates, fp32 data: overlapping rows).
  for (const char* dst : {"0xf00", "0x3c00"})
    expect_paths_agree(cat({"CopyPredicated in0_in1_dtype={u8,fp32} out_dtype=fp32 op=BYPASS num_active_channels=20 "
                            "src0.start_addr=sbuf[p0]+0x4000 src0.step_elem={1,0,0} src0.num_elem=",
                            kRows, " src1.start_addr=sbuf[p0]+0xf00 src1.step_elem={1,0,0} src1.num_elem=", kRows,
                            " dst.start_addr=sbuf[p0]+", dst, " dst.step_elem={1,0,0} dst.num_elem=", kRows}),
                       parts);
  // Predicates of 2 and 4 bytes, non-zero ones with zero bytes among their bytes (tested eight bytes at a time).
  for (unsigned z : {2U, 4U}) {
    auto wide = random_memory(15 + z, true);
    for (auto& p : wide)
      for (uint32_t k = 0; k < 700;) {
        const auto len = static_cast<uint32_t>(1 + rng() % 12);
        const uint64_t v = rng() % 2 == 0 ? 0 : uint64_t{1} << (8 * (rng() % z));
        for (uint32_t i = k; i < k + len && i < 700; ++i) std::memcpy(p.data() + 0x4000 + i * z, &v, z);
        k += len;
      }
    const char* pred = z == 2 ? "u16" : "u32";
    const Outcome w =
        expect_paths_agree(cat({"CopyPredicated in0_in1_dtype={", pred,
                                ",fp32} out_dtype=fp32 op=BYPASS num_active_channels=20 "
                                "src0.start_addr=sbuf[p0]+0x4000 src0.step_elem={1,0,0} src0.num_elem={700,1,1} "
                                "src1.start_addr=sbuf[p0]+0xf00 src1.step_elem={1,0,0} src1.num_elem={700,1,1} "
                                "dst.start_addr=sbuf[p0]+0x5008 dst.step_elem={1,0,0} dst.num_elem={700,1,1}"}),
                           wide);
    for (unsigned c = 0; c < kChannels; ++c)
      for (unsigned k = 0; k < 700; ++k) {
        uint64_t p = 0;
        std::memcpy(&p, wide[c].data() + 0x4000 + k * z, z);
        const size_t from = p != 0 ? 0xF00 + 4 * k : 0x5008 + 4 * k;
        ASSERT_EQ(std::memcmp(w.memory.data() + size_t{c} * kBytes + 0x5008 + 4 * k, wide[c].data() + from, 4), 0)
            << pred << " channel " << c << " element " << k;
      }
  }
  for (unsigned c = 0; c < kChannels; ++c)
    for (unsigned k = 0; k < 1500; ++k) {
      const size_t from = parts[c][0x4000 + k] != 0 ? 0xF00 + 4 * k : 0x5008 + 4 * k;
      ASSERT_EQ(std::memcmp(o.memory.data() + size_t{c} * kBytes + 0x5008 + 4 * k, parts[c].data() + from, 4), 0)
          << "channel " << c << " element " << k;
    }
}

// A 64-bit predicate is refused by the validators (is_valid_dtype, s3s3d3_copy_pred_src0_dtype) on both paths, so
// the row path has no 64-bit predicate branch: the word faults and changes nothing, whatever the predicates and the
// data (NaN payloads among them), from an address that is a multiple of eight or not.
TEST(RowPaths, CopyPredicatedWith64BitPredicatesFaultsAndChangesNothing) {
  auto parts = random_memory(31, true);
  std::mt19937 rng(32);
  for (auto& p : parts)  // predicates at 0x6000: u64 runs, non-zero ones with their bits in any one byte
    for (uint32_t k = 0; k < 700;) {
      const auto len = static_cast<uint32_t>(1 + rng() % 12);
      const uint64_t v = rng() % 2 == 0 ? 0 : uint64_t{1 + rng() % 255} << (8 * (rng() % 8));
      for (uint32_t i = k; i < k + len && i < 700; ++i) std::memcpy(p.data() + 0x6000 + 8 * i, &v, 8);
      k += len;
    }
  for (const char* pred : {"0x6000", "0x6004"})
    for (const char* data : {"fp32", "u64"})
      for (const bool record : {false, true}) {
        const Outcome o = run(cat({"CopyPredicated in0_in1_dtype={u64,", data, "} out_dtype=", data,
                                   " op=BYPASS num_active_channels=20 src0.start_addr=sbuf[p0]+", pred,
                                   " src0.step_elem={1,0,0} src0.num_elem={700,1,1} src1.start_addr=sbuf[p0]+0xf08 "
                                   "src1.step_elem={1,0,0} src1.num_elem={700,1,1} dst.start_addr=sbuf[p0]+0x3008 "
                                   "dst.step_elem={1,0,0} dst.num_elem={700,1,1}"}),
                              parts, record);
        EXPECT_TRUE(o.faulted) << pred << " " << data;
        for (unsigned c = 0; c < kChannels; ++c)
          ASSERT_EQ(std::memcmp(o.memory.data() + size_t{c} * kBytes, parts[c].data(), kBytes), 0)
              << pred << " " << data << " channel " << c;
      }
}

// TensorTensorArith (0x41, the datapath family) of fp32 pairs into fp32: its ADD, SUBTRACT and MULT rows against the
// element path, NaN payloads included, and against IEEE fp32 arithmetic written here.
TEST(RowPaths, TensorTensorFp32PairsAgreeWithTheElementPathAndIeee) {
  const auto parts = random_memory(4, true);
  for (const char* op : {"ADD", "SUBTRACT", "MULT"}) {
    const Outcome o = expect_paths_agree(
        cat({"TensorTensorArithOp in0_in1_dtype={fp32,fp32} out_dtype=fp32 op=", op,
             " num_active_channels=20 src0.start_addr=sbuf[p0]+0xf00 src0.step_elem={1,0,0} src0.num_elem=", kRows,
             " src1.start_addr=sbuf[p0]+0x2a04 src1.step_elem={1,0,0} src1.num_elem=", kRows,
             " dst.start_addr=sbuf[p0]+0x5008 dst.step_elem={1,0,0} dst.num_elem=", kRows}),
        parts);
    for (unsigned c : {0U, 7U, 19U})
      for (unsigned k = 0; k < 1500; k += 149) {
        const float x = f32_at(parts[c], 0xF00 + 4 * k), y = f32_at(parts[c], 0x2A04 + 4 * k);
        if (std::isnan(x) || std::isnan(y)) continue;  // the element path's NaN rules: checked against it above
        const float want = op[0] == 'A' ? x + y : (op[0] == 'S' ? x - y : x * y);
        const float got = f32_at(o.memory, size_t{c} * kBytes + 0x5008 + 4 * k);
        EXPECT_EQ(bits(got), bits(want)) << op << " channel " << c << " element " << k;  // inf - inf: the default NaN
      }
  }
}

}  // namespace
}  // namespace tpbisa::row_paths
