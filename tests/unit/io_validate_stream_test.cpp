// The streaming validator: its counts and the words it hands out agree with judging every word alone, and are the
// same for every thread count, with failing words only or every word.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

#include "tpbisa/io/validate_stream.hpp"

namespace tpbisa::io {
namespace {

/// Words a little over two blocks of the parallel path: copies of a valid TensorLoad, of a header-only word, and
/// random bytes under a few opcodes.
std::vector<uint8_t> mixed_words(size_t n) {
  const std::vector<uint8_t> tensor_load = {0xaa, 0x10, 0x00, 0x00, 0x04, 0x0b, 0x13, 0x16, 0,    0,    0,    0,
                                            0x09, 0x00, 0x02, 0x02, 0x00, 0x01, 0x08, 0,    0,    0,    0,    0,
                                            0x01, 0,    0,    0,    0x02, 0,    0,    0,    0x01, 0x02, 0x03, 0x04};
  std::mt19937_64 rng(35);
  std::vector<uint8_t> out(n * kWordBytes);
  for (size_t i = 0; i < n; ++i) {
    uint8_t* w = out.data() + i * kWordBytes;
    switch (rng() % 4) {
      case 0:
      case 1: std::copy(tensor_load.begin(), tensor_load.end(), w); break;
      default:
        for (size_t b = 0; b < kWordBytes; ++b) w[b] = static_cast<uint8_t>(rng());
        w[0] = std::array<uint8_t, 5>{0xaa, 0x41, 0x02, 0xe4, 0x4f}[rng() % 5];
        w[1] = rng() % 8 == 0 ? 0x11 : 0x10;
    }
  }
  return out;
}

struct Collected final : ValidateObserver {
  void begin_input(const WordSource&, std::span<const Generation>) override { ++inputs; }
  void word(const WordSource&, const JudgedWord& j) override {
    std::string line = std::to_string(j.index) + " " + std::string(j.name);
    for (size_t k = 0; k < j.n; ++k) line += j.verdict[k].valid ? " ok" : " " + std::to_string(j.verdict[k].n_failed);
    words.push_back(line);
  }
  int inputs = 0;
  std::vector<std::string> words;
};

Outcome alone(const uint8_t* w, Generation g) {
  const Verdict v = validate(std::span<const uint8_t, kWordBytes>(w, kWordBytes), g);
  return !v.valid ? Outcome::Invalid : v.checked == Checked::HeaderOnly ? Outcome::HeaderOnly : Outcome::Valid;
}

TEST(IoValidateStream, CountsAndWordsAgreeWithEachWordAloneForEveryThreadCount) {
#if defined(TPBISA_ASAN)
  const size_t n = 9000;  // a few chunks of one parallel block; the optimised tree runs over two blocks
#else
  const size_t n = 140000;  // over two blocks of the parallel path
#endif
  const std::vector<uint8_t> bytes = mixed_words(n);
  for (const std::vector<Generation>& gens :
       {std::vector<Generation>{Generation::Mariana},
        std::vector<Generation>(kAllGenerations.begin(), kAllGenerations.end())}) {
    ValidateSummary want;
    std::vector<uint64_t> invalid_words;
    for (size_t i = 0; i < n; ++i) {
      bool invalid = false, header_only = false;
      for (Generation g : gens) {
        const Outcome o = alone(bytes.data() + i * kWordBytes, g);
        want.per_gen[static_cast<size_t>(g)].add(o);
        invalid = invalid || o == Outcome::Invalid;
        header_only = header_only || o == Outcome::HeaderOnly;
      }
      want.all.add(invalid ? Outcome::Invalid : header_only ? Outcome::HeaderOnly : Outcome::Valid);
      if (invalid) invalid_words.push_back(i);
    }
    ASSERT_GT(want.all.invalid, 1000U);
    ASSERT_GT(want.all.valid, 1000U);
    std::vector<std::string> first;
    for (const bool failing_only : {true, false})
      for (const unsigned jobs : {1U, 5U}) {  // one thread, and more than there are chunks in flight
        StreamValidateOptions o;
        o.gens = gens;
        o.failing_only = failing_only;
        o.jobs = jobs;
        StreamValidator v(o);
        Collected c;
        const auto src = open_bytes(bytes, "words");
        ASSERT_EQ(v.validate(*src, c), StreamValidator::Ended::Done);
        const ValidateSummary& s = v.summary();
        EXPECT_EQ(s.checked, n);
        for (size_t g = 0; g < 4; ++g) {
          EXPECT_EQ(s.per_gen[g].valid, want.per_gen[g].valid) << g << " jobs " << jobs;
          EXPECT_EQ(s.per_gen[g].invalid, want.per_gen[g].invalid) << g;
          EXPECT_EQ(s.per_gen[g].header_only, want.per_gen[g].header_only) << g;
        }
        EXPECT_EQ(s.all.valid, want.all.valid);
        EXPECT_EQ(s.all.invalid, want.all.invalid);
        EXPECT_EQ(s.all.header_only, want.all.header_only);
        ASSERT_EQ(c.words.size(), failing_only ? invalid_words.size() : n);
        if (!failing_only) continue;
        for (size_t k = 0; k < invalid_words.size(); k += 997)
          EXPECT_EQ(c.words[k].substr(0, c.words[k].find(' ')), std::to_string(invalid_words[k]));
        if (first.empty()) first = c.words;
        EXPECT_EQ(c.words, first) << "jobs " << jobs;
      }
  }
}

TEST(IoValidateStream, StopsWhenTheObserverStopsAndReportsAFailingInput) {
  struct StopAtFirst final : ValidateObserver {
    void begin_input(const WordSource&, std::span<const Generation>) override {}
    void word(const WordSource&, const JudgedWord&) override { ++seen; }
    bool stopped() const override { return seen > 0; }
    int seen = 0;
  };
  const std::vector<uint8_t> bytes = mixed_words(100);
  StreamValidator v(StreamValidateOptions{});
  StopAtFirst stop;
  EXPECT_EQ(v.validate(*open_bytes(bytes, "words"), stop), StreamValidator::Ended::Stopped);
  EXPECT_EQ(stop.seen, 1);
  const std::vector<uint8_t> partial(64 + 10);
  Collected c;
  const auto src = open_bytes(partial, "words");
  EXPECT_EQ(v.validate(*src, c), StreamValidator::Ended::Failed);
  EXPECT_NE(src->error().message.find("10 trailing bytes"), std::string::npos) << src->error().message;
}

}  // namespace
}  // namespace tpbisa::io
