// The valid-word fast path against the full path: random and mutated words of every modeled format and
// generation get the same verdict from validate() as from walking the conjunct list (validate_full).
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "../support/validate_vectors.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

// 10^7 word verdicts in an optimised build; fewer where every instruction is slow (Debug, the sanitizers).
#if defined(TPBISA_ASAN)
constexpr size_t kWords = 200'000;
#elif defined(NDEBUG)
constexpr size_t kWords = 10'000'000;
#else
constexpr size_t kWords = 1'000'000;
#endif

bool same(const Verdict& a, const Verdict& b) {
  return a.valid == b.valid && a.checked == b.checked && a.gen == b.gen && a.n_failed == b.n_failed &&
         a.truncated == b.truncated && a.validator == b.validator && a.failed_index == b.failed_index;
}

/// The option sets a verdict can depend on: defaults, each convention switch, and a known stream engine.
std::vector<ValidateOptions> option_sets() {
  std::vector<ValidateOptions> sets(1);
  ValidateOptions o;
  o.strict_window = true;
  sets.push_back(o);
  o = {};
  o.dtype_enum_runtime = true;
  sets.push_back(o);
  o = {};
  o.symmetric_clamp_general_arith = false;
  sets.push_back(o);
  for (StreamEngine e : kStreamEngines) {
    o = {};
    o.engine = e;
    sets.push_back(o);
  }
  return sets;
}

/// Seeds per generation: the valid words of the verdict vectors, and a word of every opcode of the generation
/// with a correct header and zero operands.
std::vector<Word> seeds_for(Generation g) {
  std::vector<Word> seeds;
  for (const test::TsvVector& v : test::validate_vector_file().vectors)
    for (Generation vg : v.gens)
      if (vg == g && v.valid) seeds.push_back(v.word);
  for (const OpcodeInfo& op : kOpcodes) {
    if (!op.gens.has(g)) continue;
    Word w{};
    w[0] = op.value;
    w[1] = 16;
    seeds.push_back(w);
  }
  return seeds;
}

TEST(FastPath, VerdictEqualsFullPathOnRandomAndMutatedWords) {
  ASSERT_TRUE(test::validate_vector_file().readable);
  const std::vector<ValidateOptions> options = option_sets();
  std::mt19937_64 rng(20261201);
  // Judged and valid counts per (format, generation): every modeled pair must be exercised.
  std::map<std::pair<Format, Generation>, std::pair<size_t, size_t>> seen;
  size_t mismatches = 0;
  size_t judged = 0;
  size_t valid = 0;
  const size_t per_gen = kWords / kAllGenerations.size();
  for (Generation g : kAllGenerations) {
    const std::vector<Word> seeds = seeds_for(g);
    ASSERT_FALSE(seeds.empty());
    for (size_t n = 0; n < per_gen; ++n) {
      Word w = seeds[rng() % seeds.size()];
      switch (rng() % 8) {
        case 0: break;  // the seed itself (mostly valid: exercises the accepting pass)
        case 1:
        case 2: w[rng() % kWordBytes] ^= static_cast<uint8_t>(1U << (rng() % 8)); break;  // one bit
        case 3: w[4 + rng() % (kWordBytes - 4)] = static_cast<uint8_t>(rng()); break;     // one operand byte
        case 4:                                                                           // several operand bytes
          for (int k = 0; k < 4; ++k) w[4 + rng() % (kWordBytes - 4)] = static_cast<uint8_t>(rng());
          break;
        case 5: w[0] = static_cast<uint8_t>(rng()); break;  // another opcode over these operands
        default:                                            // random operands under the seed's header
          for (size_t b = 4; b < kWordBytes; ++b) w[b] = static_cast<uint8_t>(rng());
          break;
      }
      const ValidateOptions& o = options[rng() % options.size()];
      const Instruction inst = decode(w, g);
      const Verdict fast = validate(inst, g, o);
      const Verdict full = validate_full(inst, g, o);
      ++judged;
      if (!same(fast, full) && ++mismatches <= 5)
        ADD_FAILURE() << "verdicts differ on " << to_string(g) << " opcode " << int{w[0]} << ": fast " << fast.valid
                      << "/" << int{fast.n_failed} << ", full " << full.valid << "/" << int{full.n_failed};
      valid += fast.valid ? 1 : 0;
      if (inst.status == DecodeStatus::Modeled) {
        auto& c = seen[{inst.info->format, g}];
        ++c.first;
        c.second += fast.valid ? 1 : 0;
      }
    }
  }
  EXPECT_EQ(mismatches, 0U);
  EXPECT_GE(judged, kWords - kAllGenerations.size());
  // Both outcomes are common, so both passes are exercised.
  EXPECT_GT(valid, judged / 20);
  EXPECT_GT(judged - valid, judged / 20);
  for (const OpcodeInfo& op : kOpcodes)
    for (Generation g : kAllGenerations)
      if (op.gens.has(g) && op.format != Format::NotModeled) {
        const size_t n = seen[std::make_pair(op.format, g)].first;
        EXPECT_GT(n, 0U) << to_string(op.format) << " on " << to_string(g);
      }
}

TEST(FastPath, BatchAgreesWithFullPath) {
  // validate_batch goes through the same dispatch: its verdicts equal the reference word by word.
  std::mt19937_64 rng(5);
  for (Generation g : kAllGenerations) {
    const std::vector<Word> seeds = seeds_for(g);
    std::vector<uint8_t> stream;
    for (size_t n = 0; n < 2000; ++n) {
      Word w = seeds[rng() % seeds.size()];
      if (n % 10 == 0) w[4 + rng() % (kWordBytes - 4)] ^= 0x5A;
      stream.insert(stream.end(), w.begin(), w.end());
    }
    std::vector<Verdict> out(2000);
    const BatchSummary s = validate_batch(stream, g, {}, out);
    ASSERT_EQ(s.words, 2000U);
    size_t invalid = 0;
    for (size_t n = 0; n < s.words; ++n) {
      const Instruction inst =
          decode(std::span<const uint8_t, kWordBytes>(stream.data() + n * kWordBytes, kWordBytes), g);
      const Verdict full = validate_full(inst, g);
      EXPECT_TRUE(same(out[n], full)) << to_string(g) << " word " << n;
      invalid += full.valid ? 0 : 1;
    }
    EXPECT_EQ(s.invalid, invalid);
  }
}

}  // namespace
}  // namespace tpbisa
