// Read-indices family: DVE_READ_INDICES 0xE9 decoded, validated, written and read back, and run after FIND_INDEX8
// against hand values (dve-read-state.md §6; PROJ-CONV-A32).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "../../support/test_util.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

using test::dec;

/// Four channels' eight UINT32 indices to SB p0+0x2000.
constexpr std::string_view kBase =
    "e9100000000000000000000000000000 00000000000000000000000008000000 09000400000000000000000000200000 "
    "01000000000000000800010001000100";
// act-index-ops.md §15.4's search words (one channel, source at SB 0x1000): MAX8 to 0x2000, MatchValueLoad of its
// eight values, FIND_INDEX8 to 0x3000.
constexpr std::string_view kX17 =
    "6c100000000000000000000000100000 01000000000000000a00010001000100 0a0a0100000000000000000000000000 "
    "00200000010000000800010000000000";
constexpr std::string_view kMvl =
    "6d100000000000000000000000000000 1c200000ffff00000800010000000000 0a000100000000000000000000000000 "
    "00000000000000000000000000000000";
constexpr std::string_view kX18 =
    "6e100000000000000000000000100000 01000000000000000a00010001000100 0a090100000000000000000000000000 "
    "00300000010000000800010000000000";

/// kBase on `nac` channels in `dtype`, to SB p0 + `dst`.
Word read_indices(unsigned nac, uint8_t dtype, uint32_t dst) {
  Word w = test::hex_word_of(kBase);
  w[34] = static_cast<uint8_t>(nac);
  w[32] = dtype;
  store_le<uint32_t>(&w[44], dst);
  return w;
}

TEST(ReadIndices, DecodesValidatesAndRoundTripsOnCaymanAndLater) {
  const Word w = test::hex_word_of(kBase);
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    const Instruction i = dec(w, g);
    if (g == Generation::Sunda) {  // not in SUNDA's enum (dve-read-state.md §3.1)
      EXPECT_EQ(i.status, DecodeStatus::Unknown);
      continue;
    }
    ASSERT_EQ(i.status, DecodeStatus::Modeled);
    const auto& t = std::get<D4Mr>(i.body);
    EXPECT_EQ(t.dst_element_count, 8U);
    EXPECT_EQ(t.dtype, dtype::kUint32);
    EXPECT_EQ(t.num_active_channels, 4);
    EXPECT_EQ(t.dst.start_addr.raw, 0x2000U);
    const Verdict v = validate(i, g);
    EXPECT_TRUE(v.valid);
    ASSERT_NE(v.validator, nullptr);
    EXPECT_EQ(v.validator->name, "is_valid_dve_read_indices");
    const std::string text = disassemble(std::span<const uint8_t, kWordBytes>(w), g);
    EXPECT_TRUE(text.starts_with("DveReadIndices ")) << text;
    EXPECT_EQ(text.find("set_value"), std::string::npos) << text;  // unused and zero: left out
    const AsmResult r = assemble(text, "t.tasm", g);
    ASSERT_EQ(r.words.size(), 1U) << text;
    EXPECT_EQ(r.words[0], w);
  }
  bool seen = false;
  for (const DescribedField& f : describe_fields(dec(w, Generation::Cayman)))
    if (f.name == "set_value") {
      seen = true;
      EXPECT_NE(f.meaning.find("unused"), std::string::npos) << f.meaning;
    }
  EXPECT_TRUE(seen);
}

TEST(ReadIndices, ValidateNamesTheFailingPredicates) {
  Word w = test::hex_word_of(kBase);
  w[32] = dtype::kFp32;              // not an index type
  store_le<uint32_t>(&w[28], 9);     // nine indices
  store_le<uint32_t>(&w[40], 0x10);  // a fill value
  const Verdict v = validate(dec(w, Generation::Mariana), Generation::Mariana);
  ASSERT_FALSE(v.valid);
  std::vector<std::string_view> names;
  for (unsigned k = 0; k < v.n_failed; ++k) names.push_back(v.validator->conjuncts[v.failed_index[k]]->name);
  EXPECT_EQ(names, (std::vector<std::string_view>{"is_valid_dtype_dve_read_indices", "dve_read_indices_elem_count_8",
                                                  "d4_mr_zero_set_value"}));
}

TEST(ReadIndicesExec, WritesTheIndicesFindIndex8LeftAndAllOnesWhereNoneWasFound) {
  // Source {3, 9, -1, 7, 9, 0.5, 2, 8, 6, 1}: MAX8 gives 9, 9, 8, 7, 6, 3, 2, 1; FIND_INDEX8's first positions are
  // 9 -> 1, the second 9 -> 4 (the first is claimed), 8 -> 7, 7 -> 3, 6 -> 8, 3 -> 0, 2 -> 6, 1 -> 9. Channel 1 ran
  // no search: its MI is the reset all-ones, 0xFFFF as UINT16.
  for (const auto& [dtype, size] : {std::pair{dtype::kUint32, 4U}, std::pair{dtype::kUint16, 2U}}) {
    SCOPED_TRACE(size);
    std::vector<Word> words = {test::hex_word_of(kX17), test::hex_word_of(kMvl), test::hex_word_of(kX18),
                               read_indices(2, dtype, 0x5000)};
    Machine m(Generation::Cayman, words);
    const std::vector<float> src = {3, 9, -1, 7, 9, 0.5F, 2, 8, 6, 1};
    for (size_t k = 0; k < src.size(); ++k)
      ASSERT_TRUE(m.mutable_state().memory.write(0x1000 + 4 * k, 4, std::bit_cast<uint32_t>(src[k])));
    const RunSummary s = m.run(10);
    ASSERT_FALSE(s.faulted) << s.fault.detail;
    const std::vector<uint64_t> want = {1, 4, 7, 3, 8, 0, 6, 9};
    const uint64_t ones = size == 4 ? 0xFFFFFFFFU : 0xFFFFU;
    for (unsigned k = 0; k < 8; ++k) {
      EXPECT_EQ(m.state().memory.read(0x5000 + size * k, size), want[k]) << k;
      EXPECT_EQ(m.state().memory.read(0x40000 + 0x5000 + size * k, size), ones) << k;
    }
  }
}

TEST(ReadIndicesExec, RunsOnDveOnlyAndAnOutOfRangeDestinationCommitsNothing) {
  MachineOptions mo;
  mo.engine = EngineId::Pool;  // PROJ-CONV-A17: the row's placement is DVE
  mo.neff_mode = true;
  Machine pool(Generation::Cayman, std::vector<Word>{test::hex_word_of(kBase)}, mo);
  const RunSummary s = pool.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::WrongEngine);
  // Eight UINT32 from 16 bytes before partition 0's end: the fourth leaves it.
  Machine m(Generation::Cayman, std::vector<Word>{read_indices(1, dtype::kUint32, 0x3FFF0)});
  const RunSummary r = m.run(10);
  ASSERT_TRUE(r.faulted);
  EXPECT_EQ(r.fault.kind, FaultKind::OutOfRange);
  EXPECT_EQ(m.state().memory.read(0x3FFF0, 4), 0U);
}

}  // namespace
}  // namespace tpbisa
