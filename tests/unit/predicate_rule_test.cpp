// The predicate builders of src/families/common.hpp: one rule gives a Predicate both forms, and they agree.
#include <gtest/gtest.h>

#include <random>
#include <string_view>

#include "families/common.hpp"
#include "families/seq/format.hpp"
#include "families/sync/format.hpp"

namespace tpbisa::family {
namespace {

constexpr CheckContext kCayman{Generation::Cayman, {}};

constexpr auto kWrSizeIsFour = [](const CtrlWr& x, const CheckContext&) { return x.wr_size == 4; };
constexpr FieldRef fWrSize[] = {field_ref<CtrlWr>("wr_size")};
constexpr Predicate kWrSize = rule<CtrlWr, kWrSizeIsFour>(
    {.name = "wr_size_is_four", .meaning = "wr_size is 4", .fields = fWrSize, .explain = nullptr});

constexpr FieldRef fEsReserved[] = {field_ref<CtrlEs>("reserved0"), field_ref<CtrlEs>("reserved1")};
constexpr Predicate kEsReserved =
    reserved_rule<CtrlEs, fEsReserved>({.name = "ctrl_es_reserved_zero", .meaning = "reserved bytes are zero"});

constexpr Predicate kIsWrite = rule<CtrlWr, has_opcode<opcode::kWrite>>(
    {.name = "has_write_opcode", .meaning = "the opcode is WRITE", .fields = kOpcodeFieldOf<CtrlWr>});
constexpr Predicate kIsMove = rule<CtrlWr, has_opcode<opcode::kMove>>(
    {.name = "has_move_opcode", .meaning = "the opcode is MOVE", .fields = kOpcodeFieldOf<CtrlWr>});

template <class S>
Word word_of(const S& s) {
  return encode(s);
}

bool holds(const Predicate& p, const Word& w) {
  return p.holds(decode(w, kCayman.gen), kCayman);
}

TEST(PredicateRule, BothFormsComeFromTheOneBody) {
  CtrlWr w;
  w.header.opcode = opcode::kWrite;
  w.header.inst_word_len = kInstWordLen;
  w.wr_size = 4;
  EXPECT_TRUE(holds(kWrSize, word_of(w)));
  EXPECT_TRUE(kWrSize.accepts(word_of(w).data(), kCayman));
  w.wr_size = 8;
  EXPECT_FALSE(holds(kWrSize, word_of(w)));
  EXPECT_FALSE(kWrSize.accepts(word_of(w).data(), kCayman));
  EXPECT_EQ(kWrSize.name, "wr_size_is_four");
  EXPECT_EQ(kWrSize.gens.bits, kGensAll.bits);
  EXPECT_EQ(kWrSize.fields.size(), 1U);
}

TEST(PredicateRule, TheTwoFormsAgreeOnRandomWords) {
  std::mt19937_64 rng(12);
  for (int k = 0; k < 2000; ++k) {
    Word w{};
    for (uint8_t& b : w) b = static_cast<uint8_t>(rng() % 3 == 0 ? rng() : 0);
    w[0] = opcode::kWrite;  // a WRITE word decodes to CTRL_WR, the layout of the rules
    w[1] = kInstWordLen;
    w[fWrSize[0].offset] = static_cast<uint8_t>(rng() % 2 ? 4 : rng());
    EXPECT_TRUE(holds(kIsWrite, w));
    EXPECT_TRUE(kIsWrite.accepts(w.data(), kCayman));
    EXPECT_FALSE(holds(kIsMove, w));
    EXPECT_FALSE(kIsMove.accepts(w.data(), kCayman));
    EXPECT_EQ(holds(kWrSize, w), kWrSize.accepts(w.data(), kCayman)) << k;
    EXPECT_EQ(holds(kWrSize, w), w[fWrSize[0].offset] == 4) << k;
  }
}

TEST(PredicateRule, ReservedRuleReadsEveryReservedFieldAndNoOther) {
  CtrlEs es;
  es.header.opcode = opcode::kEventSemaphore;
  es.header.inst_word_len = kInstWordLen;
  es.ext.wait_mode = 1;  // not reserved
  EXPECT_TRUE(reserved_fields_zero(es, kCayman));
  EXPECT_TRUE(holds(kEsReserved, word_of(es)));
  EXPECT_TRUE(kEsReserved.accepts(word_of(es).data(), kCayman));
  EXPECT_EQ(kEsReserved.fields.size(), 2U);
  CtrlEs bad0 = es;
  bad0.reserved0.back() = 0x01;
  CtrlEs bad1 = es;
  bad1.reserved1.front() = 0x80;
  for (const CtrlEs& bad : {bad0, bad1}) {
    EXPECT_FALSE(reserved_fields_zero(bad, kCayman));
    EXPECT_FALSE(holds(kEsReserved, word_of(bad)));
    EXPECT_FALSE(kEsReserved.accepts(word_of(bad).data(), kCayman));
  }
}

TEST(PredicateRule, NameIsTheWordItWasGiven) {
  constexpr Name kSrc0 = "src0";
  EXPECT_EQ(std::string_view{kSrc0}, "src0");
  EXPECT_NE(std::string_view{Name("dst")}, "src");
}

}  // namespace
}  // namespace tpbisa::family
