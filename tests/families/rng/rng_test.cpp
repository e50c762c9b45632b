// RNG family: DROPOUT decoded field by field, described, round-tripped through assembly, and executed where its
// threshold decides every element whatever the draw (PROJ-CONV-RN3), against hand-computed results.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../../support/machine_builders.hpp"
#include "../../support/test_util.hpp"
#include "families/family.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::rng_test {
namespace {

using test::bits;
using test::dec;
using test::peek;
using test::poke;
using Status = StepResult::Status;

constexpr Generation kCayman = Generation::Cayman;

uint64_t sb(Generation g, unsigned p, uint32_t off) {
  return *sbuf_address(g, p, off);
}

void set_tensor3d(Word& w, unsigned at, uint32_t start, uint16_t n) {
  store_le<uint32_t>(&w[at], start);
  store_le<int16_t>(&w[at + 4], 1);
  store_le<uint16_t>(&w[at + 10], n);
  store_le<uint16_t>(&w[at + 12], 1);
  store_le<uint16_t>(&w[at + 14], 1);
}

/// DROPOUT over `n` elements of `dt` from sbuf +0x0 to +0x100 on `nac` channels; threshold inline.
Word dropout(uint8_t type, float threshold, uint8_t dt = dtype::kFp32, uint16_t n = 4, uint8_t nac = 2) {
  Word w{};
  w[0] = 0x7F;
  w[1] = 0x10;
  set_tensor3d(w, 16, 0x0, n);
  w[32] = dt;
  w[33] = dt;
  w[34] = nac;
  w[43] = type;
  store_le<uint32_t>(&w[44], bits(threshold));
  set_tensor3d(w, 48, 0x100, n);
  return w;
}

std::vector<uint32_t> row(const MachineState& s, Generation g, unsigned p, uint32_t off, unsigned n, unsigned size) {
  std::vector<uint32_t> out;
  for (unsigned k = 0; k < n; ++k) out.push_back(static_cast<uint32_t>(peek(s, sb(g, p, off + size * k), size)));
  return out;
}

/// One word on `g` after `init`; returns the step result's status and fault detail, and the state.
template <class Init>
std::pair<StepResult, MachineState> run(Generation g, const Word& w, Init init, bool record = true) {
  Machine m(g, {w}, record ? test::recording() : MachineOptions{});
  init(m.mutable_state());
  StepResult r = m.step();
  return {r, m.state()};
}

void fill(MachineState& s, Generation g) {
  const float v[2][4] = {{1.5F, -2.0F, 0.25F, 3.0F}, {-1.0F, 8.0F, 0.0F, 7.5F}};
  for (unsigned c = 0; c < 2; ++c)
    for (unsigned k = 0; k < 4; ++k) poke(s, sb(g, c, 4 * k), 4, bits(v[c][k]));
  for (unsigned c = 0; c < 2; ++c) poke(s, sb(g, c, 0x100), 16, 0xAAAAAAAAAAAAAAAAULL);
}

// ---- Decode, describe, assembly round trip ----

TEST(Dropout, DecodesEveryFieldAndValidatesEverywhere) {
  const Word w = dropout(rng::kKeepRate, 0.75F);
  for (Generation g : kAllGenerations) {
    const Instruction i = dec(w, g);
    ASSERT_EQ(i.status, DecodeStatus::Modeled);
    EXPECT_TRUE(validate(i, g).valid) << to_string(g);
    const S3d3Dropout& d = std::get<S3d3Dropout>(i.body);
    EXPECT_EQ(d.src.num_elem[0], 4);
    EXPECT_EQ(d.dst.start_addr.raw, 0x100U);
    EXPECT_EQ(d.in_dtype, dtype::kFp32);
    EXPECT_EQ(d.num_active_channels, 2);
    EXPECT_EQ(d.threshold_type, rng::kKeepRate);
    EXPECT_EQ(d.threshold.raw, 0x3F400000U);
  }
}

TEST(Dropout, DecodeNamesTheThresholdReadings) {
  const auto field = [](const Word& w, std::string_view name) {
    for (const DescribedField& f : describe_fields(dec(w, kCayman)))
      if (f.name == name) return f.meaning;
    return std::string("(absent)");
  };
  const Word w = dropout(rng::kDropRate, 0.5F);
  EXPECT_NE(field(w, "threshold_type").find("DROP_RATE"), std::string::npos);
  EXPECT_NE(field(w, "threshold").find("PROJ-CONV-RN3"), std::string::npos);
  EXPECT_NE(field(w, "threshold_dtype").find("FP32"), std::string::npos);
}

TEST(Dropout, WordsRoundTripThroughAssembly) {
  Word ptr = dropout(rng::kKeepRate, 0.0F, dtype::kBfloat16);
  ptr[35] = imm_src::kPointer;
  ptr[36] = dtype::kBfloat16;
  store_le<uint32_t>(&ptr[44], 0x2000);
  Word reg = dropout(rng::kDropRate, 0.0F, dtype::kInt32);
  reg[35] = imm_src::kRegPointer;
  store_le<uint32_t>(&reg[44], 7);
  Word odd = dropout(5, -3.0F);  // an invalid threshold_type still round-trips
  for (const Word& w : {dropout(rng::kDropRate, 0.5F), ptr, reg, odd})
    for (Generation g : kAllGenerations) {
      const std::string text = disassemble(dec(w, g), g);
      const AsmResult a = assemble(text, "roundtrip", g);
      ASSERT_TRUE(a.ok()) << text;
      ASSERT_EQ(a.words.size(), 1U);
      EXPECT_EQ(a.words[0], w) << text;
    }
}

// ---- Execution (PROJ-CONV-RN3): a threshold outside the draw's range decides every element ----

TEST(Dropout, ThresholdsOutsideTheDrawKeepOrZeroEveryElement) {
  const uint32_t z = 0;
  struct Case {
    uint8_t type;
    float threshold;
    bool keep;
  };
  // DROP_RATE zeroes when r < t (every r in [0, 1] for t > 1, none for t <= 0); KEEP_RATE zeroes when r > t.
  for (const Case& k :
       {Case{rng::kDropRate, 0.0F, true}, Case{rng::kDropRate, -5.0F, true}, Case{rng::kDropRate, 1.5F, false},
        Case{rng::kKeepRate, 1.0F, true}, Case{rng::kKeepRate, 9.0F, true}, Case{rng::kKeepRate, -0.25F, false}})
    for (bool record : {true, false}) {
      const auto [r, s] = run(
          kCayman, dropout(k.type, k.threshold), [](MachineState& st) { fill(st, kCayman); }, record);
      ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
      const std::vector<uint32_t> c0 = k.keep ? std::vector<uint32_t>{bits(1.5F), bits(-2.0F), bits(0.25F), bits(3.0F)}
                                              : std::vector<uint32_t>{z, z, z, z};
      const std::vector<uint32_t> c1 =
          k.keep ? std::vector<uint32_t>{bits(-1.0F), bits(8.0F), 0, bits(7.5F)} : std::vector<uint32_t>{z, z, z, z};
      EXPECT_EQ(row(s, kCayman, 0, 0x100, 4, 4), c0) << k.threshold;
      EXPECT_EQ(row(s, kCayman, 1, 0x100, 4, 4), c1) << k.threshold;
    }
}

TEST(Dropout, IntegerElementsPassThroughUnchanged) {
  const auto [r, s] = run(kCayman, dropout(rng::kDropRate, 0.0F, dtype::kInt16, 3, 1), [](MachineState& st) {
    const uint16_t v[] = {0x8001, 0x7FFF, 0x0042};
    for (unsigned k = 0; k < 3; ++k) poke(st, sb(kCayman, 0, 2 * k), 2, v[k]);
  });
  ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
  EXPECT_EQ(row(s, kCayman, 0, 0x100, 3, 2), (std::vector<uint32_t>{0x8001, 0x7FFF, 0x0042}));
}

TEST(Dropout, PointerThresholdPerChannelInItsDtype) {  // BF16 thresholds: channel 0 2.0 (zero), channel 1 0.0 (keep)
  Word w = dropout(rng::kDropRate, 0.0F);
  w[35] = imm_src::kPointer;
  w[36] = dtype::kBfloat16;
  store_le<uint32_t>(&w[44], 0x200);
  for (Generation g : {Generation::Sunda, Generation::Maverick}) {
    const auto [r, s] = run(g, w, [g](MachineState& st) {
      fill(st, g);
      poke(st, sb(g, 0, 0x200), 2, 0x4000);  // bf16 2.0
      poke(st, sb(g, 1, 0x200), 2, 0x0000);  // bf16 +0.0
    });
    ASSERT_EQ(r.status, Status::Retired) << r.fault.detail;
    EXPECT_EQ(row(s, g, 0, 0x100, 4, 4), (std::vector<uint32_t>{0, 0, 0, 0}));
    EXPECT_EQ(row(s, g, 1, 0x100, 4, 4), (std::vector<uint32_t>{bits(-1.0F), bits(8.0F), 0, bits(7.5F)}));
  }
}

TEST(Dropout, ADrawDependentThresholdFaultsAndChangesNothing) {
  for (float t : {0.5F, 1.0F, 0.0F}) {
    const uint8_t type = t == 0.0F ? rng::kKeepRate : rng::kDropRate;  // KEEP_RATE 0.0 zeroes every r > 0, keeps r == 0
    const auto [r, s] = run(kCayman, dropout(type, t), [](MachineState& st) { fill(st, kCayman); });
    ASSERT_EQ(r.status, Status::Faulted) << t;
    EXPECT_EQ(r.fault.kind, FaultKind::UnsupportedOpcode);
    EXPECT_NE(r.fault.detail.find("PROJ-CONV-RN3"), std::string::npos) << r.fault.detail;
    EXPECT_EQ(peek(s, sb(kCayman, 0, 0x100), 8), 0xAAAAAAAAAAAAAAAAULL);
  }
  Word nan = dropout(rng::kDropRate, 0.0F);
  store_le<uint32_t>(&nan[44], 0x7FC00000U);
  EXPECT_EQ(run(kCayman, nan, [](MachineState& st) { fill(st, kCayman); }).first.status, Status::Faulted);
}

}  // namespace
}  // namespace tpbisa::rng_test
