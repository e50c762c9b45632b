// Numbers named in predicate sentences are the ones the code uses: the channel bound is the geometry table's,
// the register bound the register count, and per-channel state is sized from the geometry.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "tpbisa/address.hpp"
#include "tpbisa/state.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

TEST(Constants, PerChannelStateIsSizedFromTheGeometry) {
  for (Generation g : kAllGenerations) EXPECT_LE(geometry(g).channels, kDveChannels) << to_string(g);
  bool some_generation_fills_it = false;
  for (Generation g : kAllGenerations) some_generation_fills_it |= geometry(g).channels == kDveChannels;
  EXPECT_TRUE(some_generation_fills_it);
}

// A sentence bounding num_active_channels or a partition sum ("1..N", "<= N") names the generation's channel
// count; one naming a register bound ("< N", "r0..rN") names the register count.
TEST(Constants, PredicateSentencesNameTheGeometryAndRegisterCount) {
  const std::regex channel_bound(R"((?:1\.\.|<= )(\d+))");
  const std::regex register_bound(R"((?:regnum < |r0\.\.r)(\d+))");
  unsigned channel_sentences = 0;
  for (const Validator* v : all_validators())
    for (const Predicate* p : v->conjuncts) {
      const std::string meaning(p->meaning);
      SCOPED_TRACE(std::string(p->name) + ": " + meaning);
      if (meaning.find("channels") != std::string::npos)
        for (std::sregex_iterator m(meaning.begin(), meaning.end(), channel_bound), end; m != end; ++m) {
          ++channel_sentences;
          for (Generation g : kAllGenerations) {
            if (p->gens.has(g)) {
              EXPECT_EQ(std::stoul((*m)[1]), geometry(g).channels) << to_string(g);
            }
          }
        }
      for (std::sregex_iterator m(meaning.begin(), meaning.end(), register_bound), end; m != end; ++m) {
        const unsigned long n = std::stoul((*m)[1]);
        EXPECT_TRUE(n == kNumRegisters || n == kNumRegisters - 1) << n;
      }
    }
  EXPECT_GT(channel_sentences, 3U);
}

}  // namespace
}  // namespace tpbisa
