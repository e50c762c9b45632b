// Decode/encode round trips: random-word and random-field properties per format, status per opcode, LE goldens.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "../support/layout_golden.hpp"
#include "../support/test_util.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa {
namespace {
// The plain binary is one unity source (tests/CMakeLists.txt): this file's helpers keep to a namespace of its own.
namespace field_roundtrip {

using test::first_diff;
using test::to_hex;

// The optimised build runs the full property (unit.plain); under the sanitizers a tenth of it checks memory safety,
// since every line runs many times slower there. Both sizes divide evenly among 1, 2 or 4 generations.
#if defined(NDEBUG) && !defined(TPBISA_ASAN)
constexpr int kWordsPerFormat = 100'000;
#else
constexpr int kWordsPerFormat = 10'000;
#endif
constexpr uint64_t kSeed = 0x7470'6269'7361'0001ULL;  // fixed: failures reproduce exactly

/// The opcodes whose words a property run draws from, and the typed layout they decode to where present.
struct FormatCase {
  std::string label;
  size_t index;  // the Operands alternative (0: RawWord, for the raw and unknown cases)
  std::vector<uint8_t> opcodes;
  GenSet gens;                   // the generations the layout applies to
  DecodeStatus status;           // what decode reports where the generation has the opcode
  std::string_view format_name;  // Instruction::format_name() there
  uint64_t seed;
};

std::vector<uint8_t> opcodes_with(Format f) {
  std::vector<uint8_t> v;
  for (const auto& r : kOpcodes)
    if (r.format == f) v.push_back(r.value);
  return v;
}

std::vector<uint8_t> unassigned_opcodes() {
  std::vector<uint8_t> v;
  for (unsigned b = 0; b < 256; ++b)
    if (find_opcode(static_cast<uint8_t>(b)) == nullptr) v.push_back(static_cast<uint8_t>(b));
  return v;
}

void PrintTo(const FormatCase& fc, std::ostream* os) {
  *os << fc.label;
}

/// One case per registered layout (from the family registry), then the raw and the unknown opcodes.
std::vector<FormatCase> all_cases() {
  std::vector<FormatCase> cases;
  for (size_t k = 0; k < kLayoutRows.size(); ++k) {
    const auto& row = kLayoutRows[k];
    std::string label(row.name);
    if (row.gens != kGensAll)  // a per-generation layout: the label names its generations
      for (Generation g : kAllGenerations)
        if (row.gens.has(g)) label += fmt::format("_{}", to_string(g));
    cases.push_back({label, k + 1, opcodes_with(row.format), row.gens, DecodeStatus::Modeled, to_string(row.format),
                     kSeed + 1 + k});
  }
  const uint64_t next = kSeed + 1 + kLayoutRows.size();
  cases.push_back(
      {"raw", 0, opcodes_with(Format::NotModeled), kGensAll, DecodeStatus::NotModeled, "not-modeled", next});
  cases.push_back({"unknown", 0, unassigned_opcodes(), kGensAll, DecodeStatus::Unknown, "unknown", next + 1});
  return cases;
}

/// What decode must report for opcode byte `v` on generation g, computed from the catalog rows.
DecodeStatus expected_status(uint8_t v, Generation g) {
  const OpcodeInfo* r = find_opcode(v);
  if (r == nullptr || !r->gens.has(g)) return DecodeStatus::Unknown;
  return r->format == Format::NotModeled ? DecodeStatus::NotModeled : DecodeStatus::Modeled;
}

/// The variant alternative a status/format pair must select: the registered layout of the opcode's catalog
/// format that covers g (searched in the registry rows, not through decode's table).
size_t expected_index(uint8_t v, Generation g) {
  if (expected_status(v, g) != DecodeStatus::Modeled) return 0;  // RawWord
  for (size_t k = 0; k < kLayoutRows.size(); ++k)
    if (kLayoutRows[k].format == find_opcode(v)->format && kLayoutRows[k].gens.has(g)) return k + 1;
  return kOperandKinds;  // no layout: decode cannot match this
}

/// The expectations above for every (opcode byte, generation), computed once: the property loops stay cheap
/// enough for a Debug+ASan build.
struct Expectations {
  std::array<const OpcodeInfo*, 256> info{};
  std::array<std::array<DecodeStatus, 4>, 256> status{};
  std::array<std::array<size_t, 4>, 256> index{};
  Expectations() {
    for (unsigned v = 0; v < 256; ++v) {
      const auto b = static_cast<uint8_t>(v);
      info[v] = find_opcode(b);
      for (Generation g : kAllGenerations) {
        status[v][static_cast<size_t>(g)] = expected_status(b, g);
        index[v][static_cast<size_t>(g)] = expected_index(b, g);
      }
    }
  }
};
const Expectations& expectations() {
  static const Expectations e;
  return e;
}

class Rng {
 public:
  explicit Rng(uint64_t seed) : eng_(seed) {}
  template <class T>
  T next() {
    return static_cast<T>(eng_());
  }
  template <class T, size_t N>
  void fill(std::array<T, N>& a) {
    for (auto& x : a) x = next<T>();
  }
  Word word() {
    Word w{};
    for (size_t i = 0; i < kWordBytes; i += 8) store_le<uint64_t>(&w[i], eng_());
    return w;
  }
  uint8_t pick(const std::vector<uint8_t>& v) { return v[eng_() % v.size()]; }

 private:
  std::mt19937_64 eng_;
};

// Random field values, derived from the format declarations (fields_of<S>): every declared field, in declaration
// order, one draw per scalar and per array element; a nested format is filled the same way. A new layout needs no
// line here. (A struct member that the declaration leaves out has no bytes in the word: `tiles_exactly` fails the
// build for a layout whose declaration does not cover all 64 bytes.)
template <class T>
void fill_value(T& v, Rng& r) {
  if constexpr (Composite<T>) {
    apply_fields(
        [&](const auto&... m) {
          // The opcode is the caller's choice, not a random value.
          ((m.role == Role::Opcode ? void() : fill_value(v.*(m.ptr), r)), ...);
        },
        fields_of<T>);
  } else if constexpr (std::is_integral_v<T>) {
    v = r.next<T>();
  } else if constexpr (requires { v.raw; }) {  // the union leaves ADDR4, ADDR8, IMM_VAL: their raw bits
    v.raw = r.next<decltype(v.raw)>();
  } else if constexpr (requires { v.bytes; }) {  // MEM2D_DATA
    r.fill(v.bytes);
  } else {
    r.fill(v);  // an array of integers
  }
}
/// A layout (or RawWord) with random fields and the given opcode.
template <class S>
void fill(S& s, Rng& r, uint8_t opcode) {
  fill_value(s, r);
  s.header.opcode = opcode;
}

// ---------------------------------------------------------------- bytes -> decode -> encode

// One instance per format (so each ctest entry stays short in a Debug+ASan build).
class RoundTripFormat : public ::testing::TestWithParam<FormatCase> {};

// Every generation sees at least 25,000 of the format's 100,000 words: a word whose opcode decodes the same
// way on every generation is checked on the generations in turn; a word whose opcode is present on some
// generations only (0x87/0x88, 0x06, 0x81, 0xF3, ...) is checked on all four.
TEST_P(RoundTripFormat, RandomWordsSurviveDecodeEncodeOnEveryGeneration) {
  const FormatCase& fc = GetParam();
  const Expectations& ex = expectations();
  ASSERT_FALSE(fc.opcodes.empty());
  Rng rng(fc.seed);
  unsigned failures = 0;
  std::array<unsigned, 4> per_gen{};
  std::string first;
  auto check = [&](const Word& w, Generation g) {
    const auto gi = static_cast<size_t>(g);
    ++per_gen[gi];
    const Instruction inst = decode(w, g);
    const Word back = encode(inst);
    const bool ok = back == w && inst.status == ex.status[w[0]][gi] && inst.body.index() == ex.index[w[0]][gi] &&
                    inst.gen == g && inst.info == ex.info[w[0]];
    if (!ok && failures++ == 0)
      first = std::string(to_string(g)) + " word " + to_hex(w) + " re-encoded " + to_hex(back) +
              " first diff at byte " + std::to_string(first_diff(w, back));
  };
  for (int n = 0; n < kWordsPerFormat; ++n) {
    Word w = rng.word();
    w[0] = rng.pick(fc.opcodes);
    const auto& st = ex.status[w[0]];
    const bool uniform = st[0] == st[1] && st[1] == st[2] && st[2] == st[3];
    if (uniform) {
      check(w, kAllGenerations[static_cast<size_t>(n) % 4]);
    } else {
      for (Generation g : kAllGenerations) check(w, g);
    }
  }
  EXPECT_EQ(failures, 0U) << first;
  for (Generation g : kAllGenerations) EXPECT_GE(per_gen[static_cast<size_t>(g)], kWordsPerFormat / 4U) << to_string(g);
}

// ---------------------------------------------------------------- fields -> encode -> decode

template <class S>
void check_fields_roundtrip(const FormatCase& fc, Rng& rng) {
  const std::vector<uint8_t>& opcodes = fc.opcodes;
  const DecodeStatus want_status = fc.status;
  const std::string_view want_format = fc.format_name;
  const Expectations& ex = expectations();
  // The generations take turns; each tuple's opcode is drawn from those its generation decodes with
  // want_status (so 0x87/0x88 go to SUNDA only, unassigned values to every generation).
  std::array<std::vector<uint8_t>, 4> candidates;
  for (Generation g : kAllGenerations)
    for (uint8_t v : opcodes)
      if (fc.gens.has(g) && ex.status[v][static_cast<size_t>(g)] == want_status)
        candidates[static_cast<size_t>(g)].push_back(v);
  unsigned failures = 0;
  std::array<unsigned, 4> per_gen{};
  std::string first;
  std::vector<Generation> gens;  // the generations the layout applies to take turns
  for (Generation g : kAllGenerations)
    if (fc.gens.has(g)) gens.push_back(g);
  ASSERT_FALSE(gens.empty());
  for (int n = 0; n < kWordsPerFormat; ++n) {
    const Generation g = gens[static_cast<size_t>(n) % gens.size()];
    const std::vector<uint8_t>& ops = candidates[static_cast<size_t>(g)];
    ASSERT_FALSE(ops.empty()) << to_string(g);
    S x{};
    fill(x, rng, rng.pick(ops));
    const uint8_t v = x.header.opcode;
    ++per_gen[static_cast<size_t>(g)];
    const Word w = encode(x);
    Instruction want;
    want.gen = g;
    want.status = want_status;
    want.info = ex.info[v];
    want.body = x;
    const Instruction got = decode(w, g);
    const S* typed = got.as<S>();
    const bool ok = typed != nullptr && *typed == x && got == want && got.format_name() == want_format;
    if (!ok && failures++ == 0)
      first = std::string(to_string(g)) + " fields encoded as " + to_hex(w) + " decoded with status " +
              std::to_string(static_cast<int>(got.status)) + " format " + std::string(got.format_name());
  }
  EXPECT_EQ(failures, 0U) << first;
  // The words are shared out evenly: a format of three generations leaves one word over for one of them.
  for (Generation g : gens) {
    EXPECT_GE(per_gen[static_cast<size_t>(g)], kWordsPerFormat / gens.size()) << to_string(g);
    EXPECT_LE(per_gen[static_cast<size_t>(g)], (kWordsPerFormat + gens.size() - 1) / gens.size()) << to_string(g);
  }
  // Every opcode of the format decodes with want_status on some generation (0x87/0x88 on SUNDA).
  for (uint8_t v : opcodes) {
    bool somewhere = false;
    for (const auto& c : candidates) somewhere = somewhere || std::find(c.begin(), c.end(), v) != c.end();
    EXPECT_TRUE(somewhere) << unsigned{v};
  }
}

/// check_fields_roundtrip of every Operands alternative, indexed like the variant (derived from the registry).
using FieldsCheck = void (*)(const FormatCase&, Rng&);
template <size_t... I>
constexpr std::array<FieldsCheck, kOperandKinds> make_field_checks(std::index_sequence<I...>) {
  return {&check_fields_roundtrip<std::variant_alternative_t<I, Operands>>...};
}
constexpr auto kFieldChecks = make_field_checks(std::make_index_sequence<kOperandKinds>{});

TEST_P(RoundTripFormat, RandomFieldsSurviveEncodeDecode) {
  const FormatCase& fc = GetParam();
  Rng rng(fc.seed ^ 0xF1E1D5ULL);
  ASSERT_LT(fc.index, kFieldChecks.size());
  kFieldChecks[fc.index](fc, rng);
}

INSTANTIATE_TEST_SUITE_P(Formats, RoundTripFormat, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<FormatCase>& p) { return p.param.label; });

// The SUNDA Dual opcodes off SUNDA: raw bytes kept, status Unknown, catalog row still named.
TEST(RoundTrip, RetiredDualOpcodesKeepTheirBytesOffSunda) {
  Rng rng(kSeed + 2);
  for (uint8_t v : std::initializer_list<uint8_t>{0x87, 0x88}) {
    S4d4Tsm x{};
    fill(x, rng, v);
    const Word w = encode(x);
    const Instruction su = decode(w, Generation::Sunda);
    EXPECT_EQ(su.status, DecodeStatus::Modeled);
    ASSERT_NE(su.as<S4d4Tsm>(), nullptr);
    EXPECT_EQ(*su.as<S4d4Tsm>(), x);
    for (Generation g : {Generation::Cayman, Generation::Mariana, Generation::Maverick}) {
      const Instruction inst = decode(w, g);
      EXPECT_EQ(inst.status, DecodeStatus::Unknown);
      EXPECT_EQ(inst.as<S4d4Tsm>(), nullptr);
      ASSERT_NE(inst.as<RawWord>(), nullptr);
      EXPECT_EQ(encode(inst), w);
    }
  }
}

// ---------------------------------------------------------------- every opcode byte on every generation

TEST(Decode, NeverFailsForAnyOpcodeByteOnAnyGeneration) {
  Rng rng(kSeed + 3);
  for (unsigned v = 0; v < 256; ++v) {
    for (Generation g : kAllGenerations) {
      SCOPED_TRACE(std::string(to_string(g)) + " opcode " + std::to_string(v));
      Word w = rng.word();
      w[0] = static_cast<uint8_t>(v);
      const Instruction inst = decode(w, g);
      const OpcodeInfo* row = find_opcode(w[0]);
      EXPECT_EQ(inst.gen, g);
      EXPECT_EQ(inst.info, row);
      EXPECT_EQ(inst.status, expected_status(w[0], g));
      EXPECT_EQ(inst.body.index(), expected_index(w[0], g));
      EXPECT_EQ(inst.opcode(), w[0]);
      EXPECT_EQ(encode(inst), w);
      switch (inst.status) {
        case DecodeStatus::Modeled:
          EXPECT_EQ(inst.name(), row->mnemonic);
          EXPECT_EQ(inst.format_name(), to_string(row->format));
          break;
        case DecodeStatus::NotModeled:
          EXPECT_EQ(inst.name(), row->mnemonic);
          EXPECT_EQ(inst.format_name(), "not-modeled");
          break;
        case DecodeStatus::Unknown:
          EXPECT_EQ(inst.name(), "unknown");
          EXPECT_EQ(inst.format_name(), "unknown");
          break;
      }
    }
  }
}

TEST(Decode, StatusOfNamedOpcodes) {
  Word w{};
  w[1] = 16;
  w[0] = 0x87;
  const Instruction su = decode(w, Generation::Sunda);
  EXPECT_EQ(su.status, DecodeStatus::Modeled);
  EXPECT_EQ(su.format_name(), "S4D4_TSM");
  EXPECT_NE(su.as<S4d4Tsm>(), nullptr);
  EXPECT_EQ(su.name(), "TensorScalarPtrMultiDualArith");
  const Instruction ca = decode(w, Generation::Cayman);
  EXPECT_EQ(ca.status, DecodeStatus::Unknown);
  ASSERT_NE(ca.info, nullptr);
  EXPECT_EQ(ca.info->enum_name, "TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH");
  EXPECT_EQ(ca.info->gens, kGensSundaOnly);
  EXPECT_EQ(ca.format_name(), "unknown");

  w[0] = 0x00;
  for (Generation g : kAllGenerations) {
    const Instruction z = decode(w, g);
    EXPECT_EQ(z.status, DecodeStatus::Unknown);
    EXPECT_EQ(z.info, nullptr);
    EXPECT_EQ(z.name(), "unknown");
  }
  w[0] = 0x81;  // JPEG_DECODE: unknown on SUNDA only, not modeled elsewhere
  EXPECT_EQ(decode(w, Generation::Sunda).status, DecodeStatus::Unknown);
  EXPECT_EQ(decode(w, Generation::Cayman).status, DecodeStatus::NotModeled);
  w[0] = 0xF3;  // MAVERICK only
  EXPECT_EQ(decode(w, Generation::Mariana).status, DecodeStatus::Unknown);
  EXPECT_EQ(decode(w, Generation::Maverick).status, DecodeStatus::NotModeled);
  w[0] = 0xFF;  // INVALID is an enum member of every generation
  for (Generation g : kAllGenerations) EXPECT_EQ(decode(w, g).status, DecodeStatus::NotModeled);
  w[0] = 0xCE;
  for (Generation g : kAllGenerations) EXPECT_EQ(decode(w, g).format_name(), "PSEUDO_MEM_2D");
}

// ---------------------------------------------------------------- little-endian goldens

using test::distinct_word;
using test::expect_common_prefix;

// Each family's layout goldens are in its folder (tests/families/<family>/layout_golden_test.cpp).
TEST(Golden, RawWordKeepsOperandBytes) {
  const Word w = distinct_word(0x9F);  // ENGINE_NOP: not modeled
  const Instruction inst = decode(w, Generation::Cayman);
  ASSERT_EQ(inst.status, DecodeStatus::NotModeled);
  const RawWord* r = inst.as<RawWord>();
  ASSERT_NE(r, nullptr);
  expect_common_prefix(r->header, r->events, 0x9F);
  for (size_t k = 0; k < 52; ++k) EXPECT_EQ(r->operands[k], w[12 + k]) << k;
  EXPECT_EQ(encode(*r), w);
  EXPECT_EQ(inst.name(), "EngineNop");
}

}  // namespace field_roundtrip
}  // namespace
}  // namespace tpbisa
