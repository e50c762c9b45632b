// Exact round trip: assemble(disassemble(w)) == w for random words of every format and every validation vector.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "../support/test_util.hpp"
#include "tpbisa/address.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa {
namespace {
// The plain binary is one unity source (tests/CMakeLists.txt): this file's helpers keep to a namespace of its own.
namespace asm_roundtrip {

// The optimised build runs the full property, 10^5 words of each format on each of its generations; the Debug+ASan
// build checks memory safety on a sample, since it runs every line some 20 times slower. TPBISA_ROUNDTRIP_WORDS in
// the environment sets another count: make test runs 10^4 within its time budget, make test-full the full 10^5.
#if defined(NDEBUG) && !defined(TPBISA_ASAN)
constexpr int kWordsPerGeneration = 100'000;
#else
constexpr int kWordsPerGeneration = 1'000;
#endif
int words_per_generation() {
  const char* env = std::getenv("TPBISA_ROUNDTRIP_WORDS");
  return env != nullptr && std::atoi(env) > 0 ? std::atoi(env) : kWordsPerGeneration;
}
constexpr uint64_t kSeed = 0x7470'6269'7361'a5a5ULL;  // fixed: a failure reproduces exactly

/// Checks one word on one generation; returns an explanation on failure, empty on success.
std::string round_trip(const Word& w, Generation g) {
  const std::string text = disassemble(std::span<const uint8_t, kWordBytes>(w), g);
  const AsmResult r = assemble(text, "roundtrip", g);
  if (!r.ok()) return "assembly failed: " + format_diagnostic(r.errors[0]);
  if (r.words.size() != 1) return "assembled " + std::to_string(r.words.size()) + " words from: " + text;
  if (r.words[0] != w)
    return "byte " + std::to_string(test::first_diff(r.words[0], w)) + " differs\n  word " + test::to_hex(w) +
           "\n  back " + test::to_hex(r.words[0]) + "\n  text " + text;
  return "";
}

// ---- Word generators ----

class Rng {
 public:
  explicit Rng(uint64_t seed) : eng_(seed) {}
  uint64_t next() { return eng_(); }
  uint64_t below(uint64_t n) { return eng_() % n; }
  bool chance(unsigned percent) { return below(100) < percent; }
  Word word() {
    Word w{};
    for (size_t i = 0; i < kWordBytes; i += 8) store_le<uint64_t>(&w[i], eng_());
    return w;
  }

 private:
  std::mt19937_64 eng_;
};

void put(Word& w, unsigned at, unsigned size, uint64_t v) {
  for (unsigned i = 0; i < size && i < 8; ++i) w[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

template <size_t N>
uint8_t member_of(const std::array<EnumValue, N>& table, Generation g, Rng& r) {
  for (;;) {
    const EnumValue& row = table[r.below(N)];
    if (row.gens.has(g)) return row.value;
  }
}

uint8_t dtype_of(Generation g, Rng& r) {
  for (;;) {
    const DtypeInfo& row = kDtypes[r.below(kDtypes.size())];
    if (row.gens.has(g)) return row.code;
  }
}

/// An address of SBUF or PSUM on g, as the readable forms print it.
uint32_t on_chip(Generation g, Rng& r) {
  const Geometry& geo = geometry(g);
  const bool psum = geo.psum_size != 0 && r.chance(30);
  const uint32_t part = static_cast<uint32_t>(r.below(psum ? geo.psum_partitions : geo.sbuf_partitions));
  const uint32_t stride = psum ? geo.psum_partition_size : geo.sbuf_partition_size;
  const uint32_t base = psum ? geo.psum_offset : geo.sbuf_offset;
  return base + part * stride + static_cast<uint32_t>(r.below(stride));
}

uint64_t addr4(Generation g, Rng& r) {
  if (r.chance(60)) return on_chip(g, r);
  if (r.chance(50)) return 0x80000000U | r.below(256);
  return r.next() & 0xFFFFFFFFU;
}

uint64_t addr8(Generation g, Rng& r) {
  if (r.chance(40)) return on_chip(g, r);
  if (r.chance(20)) return r.next() & 0xFFFFFFFFU;  // the low 4 GiB: on-chip only below 2^29 (PROJ-CONV-N4)
  if (r.chance(40)) return r.next() >> 6;           // a 58-bit device address
  if (r.chance(50)) return (uint64_t{0x80} << 56) | (r.below(256) << 8) | r.below(256);
  return r.next();
}

uint64_t imm(Generation g, Rng& r) {
  if (r.chance(50)) return std::bit_cast<uint32_t>(static_cast<float>(static_cast<int>(r.below(2000)) - 1000) / 8.0F);
  if (r.chance(50)) return on_chip(g, r);
  return r.chance(50) ? r.below(256) : r.next() & 0xFFFFFFFFU;
}

/// Gives a field a value of the kind the readable forms are written for, most of the time.
void shape_leaf(Word& w, unsigned at, const FieldDesc& f, Generation g, Rng& r) {
  if (r.chance(15)) return;  // keep the random bits
  switch (f.role) {
    case Role::WordLen: put(w, at, 1, kWordBytes / 4); break;
    case Role::DebugCmd:
    case Role::DebugHint: put(w, at, 1, r.chance(80) ? 0 : r.below(256)); break;
    case Role::Dtype: put(w, at, 1, dtype_of(g, r)); break;
    case Role::DataSrc: put(w, at, 1, r.below(2)); break;
    case Role::ImmSrc: put(w, at, 1, r.below(3)); break;
    case Role::AluOp: put(w, at, 1, kAluOps[r.below(kAluOps.size())].code); break;
    case Role::Subdim: put(w, at, 1, member_of(kTensorSubdim, g, r)); break;
    case Role::RevOps: put(w, at, 1, member_of(kRevOps, g, r)); break;
    case Role::NumElem:
      for (unsigned i = 0; i < f.count; ++i) put(w, at + i * f.elem_size, f.elem_size, r.below(5));
      break;
    case Role::Reserved:
      for (unsigned i = 0; i < f.size; ++i) w[at + i] = 0;
      break;
    case Role::Addr4: put(w, at, 4, addr4(g, r)); break;
    case Role::Addr8: put(w, at, 8, addr8(g, r)); break;
    case Role::ImmVal: put(w, at, 4, imm(g, r)); break;
    case Role::MemData:
      for (unsigned i = static_cast<unsigned>(r.below(f.size)); i < f.size; ++i) w[at + i] = 0;
      break;
    default: break;
  }
}

/// EVENTS the text syntax can spell, most of the time (so both the tokens and the explicit fields are exercised).
void shape_events(Word& w, unsigned at, Generation g, Rng& r) {
  if (r.chance(10)) return;
  Events e{};
  e.wait_mode = member_of(kWaitModes, g, r);
  e.update_mode = member_of(kUpdateModes, g, r);
  e.wait_idx = static_cast<uint8_t>(r.below(256));
  e.update_idx = static_cast<uint8_t>(r.below(256));
  e.semaphore_value = r.chance(50) ? static_cast<uint32_t>(r.below(64)) : static_cast<uint32_t>(r.next());
  std::array<uint8_t, 8> bytes{};
  write_format(e, bytes);
  for (unsigned i = 0; i < 8; ++i) w[at + i] = bytes[i];
}

void shape(Word& w, const FormatDesc& desc, unsigned base, Generation g, Rng& r) {
  for (const FieldDesc& f : desc.fields) {
    const unsigned at = base + f.offset;
    if (f.sub == &format_desc<Events>())
      shape_events(w, at, g, r);
    else if (f.sub != nullptr)
      shape(w, *f.sub, at, g, r);
    else
      shape_leaf(w, at, f, g, r);
  }
}

/// The descriptor of every Operands alternative, indexed like the variant (derived from the family registry).
template <size_t... I>
constexpr std::array<const FormatDesc*, kOperandKinds> make_descs(std::index_sequence<I...>) {
  return {&format_desc<std::variant_alternative_t<I, Operands>>()...};
}
constexpr auto kDescs = make_descs(std::make_index_sequence<kOperandKinds>{});

/// Opcodes that decode to alternative `index` on g (for 0, RawWord: every other byte, unknown ones included).
std::vector<uint8_t> opcodes_for(size_t index, Generation g) {
  std::vector<uint8_t> v;
  for (unsigned b = 0; b < 256; ++b) {
    const OpcodeInfo* row = find_opcode(static_cast<uint8_t>(b));
    const bool modeled = row != nullptr && row->gens.has(g) && row->format != Format::NotModeled;
    const bool match =
        index == 0 ? !modeled
                   : modeled && row->format == kLayoutRows[index - 1].format && kLayoutRows[index - 1].gens.has(g);
    if (match) v.push_back(static_cast<uint8_t>(b));
  }
  return v;
}

/// Every Operands alternative: 0 is RawWord, the rest the registered layouts.
std::vector<size_t> all_alternatives() {
  std::vector<size_t> v;
  for (size_t i = 0; i < kOperandKinds; ++i) v.push_back(i);
  return v;
}

class AsmRoundTrip : public ::testing::TestWithParam<size_t> {};

// Every word is one of the format's opcodes, so it decodes to the format on that generation, and most have the
// header's word length (a random one in a quarter of the unshaped words). Half the words are otherwise random (reserved
// bytes, odd markers, NaN payloads, invalid modes: the explicit and raw spellings); half are shaped so the readable
// forms (events text, locations, floats) are hit.
TEST_P(AsmRoundTrip, RandomWordsEveryGeneration) {
  const size_t index = GetParam();
  std::array<std::vector<uint8_t>, 4> opcodes;
  std::vector<Generation> gens;  // the generations that have opcodes of this alternative (Dual: SUNDA only)
  for (Generation g : kAllGenerations) {
    opcodes[static_cast<size_t>(g)] = opcodes_for(index, g);
    if (!opcodes[static_cast<size_t>(g)].empty()) gens.push_back(g);
  }
  ASSERT_FALSE(gens.empty());
  // Each generation draws from its own generator on its own thread (the same words however many threads run), and
  // keeps its first failures for the test's thread to report.
  const int count = words_per_generation();
  std::array<std::vector<std::string>, 4> failures;
  const auto run = [&](Generation g) {
    Rng r(kSeed + index * 4 + static_cast<size_t>(g));
    const auto& ops = opcodes[static_cast<size_t>(g)];
    std::vector<std::string>& failed = failures[static_cast<size_t>(g)];
    for (int i = 0; i < count && failed.size() < 5; ++i) {
      Word w = r.word();
      w[0] = ops[r.below(ops.size())];
      if (i % 4 != 2) w[1] = kWordBytes / 4;  // inst_word_len of a well-formed word; a quarter keep a random one
      if (i % 2 == 1) shape(w, *kDescs[index], 0, g, r);
      std::string why = round_trip(w, g);
      if (!why.empty()) failed.push_back("word " + std::to_string(i) + " on " + std::string(to_string(g)) + ": " + why);
    }
  };
  std::atomic<size_t> next{0};
  const auto work = [&] {
    for (size_t k = next++; k < gens.size(); k = next++) run(gens[k]);
  };
  std::vector<std::thread> threads;
  const size_t helpers = std::min<size_t>(gens.size(), std::max(1U, std::thread::hardware_concurrency())) - 1;
  for (size_t t = 0; t < helpers; ++t) threads.emplace_back(work);
  work();  // this thread takes its share too
  for (std::thread& t : threads) t.join();
  for (const auto& failed : failures)
    for (const std::string& why : failed) ADD_FAILURE() << why;
}

INSTANTIATE_TEST_SUITE_P(Formats, AsmRoundTrip, ::testing::ValuesIn(all_alternatives()),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           if (p.param == 0) return std::string("raw");
                           const auto& row = kLayoutRows[p.param - 1];  // a per-generation layout adds its index
                           return std::string(row.name) + (row.gens == kGensAll ? "" : "_" + std::to_string(p.param));
                         });

TEST(AsmRoundTrip, EveryValidationVectorOnEveryGeneration) {
  std::ifstream in(TPBISA_SOURCE_DIR "/tests/vectors/validate.tsv");
  ASSERT_TRUE(in) << "cannot open validate.tsv";
  std::string line;
  size_t vectors = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    Word w{};
    HexError he;
    ASSERT_TRUE(parse_hex_word(line.substr(line.rfind('\t') + 1), w, he)) << line;
    ++vectors;
    for (Generation g : kAllGenerations) {
      // With the verdict comment too: a comment never changes the bytes.
      const std::string why = round_trip(w, g);
      EXPECT_EQ(why, "") << line;
      DisasmOptions with_verdicts;
      with_verdicts.verdicts = true;
      const AsmResult r = assemble(disassemble(std::span<const uint8_t, kWordBytes>(w), g, with_verdicts), "v", g);
      ASSERT_TRUE(r.ok() && r.words.size() == 1 && r.words[0] == w) << line;
    }
  }
  EXPECT_GE(vectors, 368U);
}

TEST(AsmRoundTrip, DisassemblingTheAssembledTextGivesTheCanonicalForm) {
  // Non-canonical spellings of one word: case, hex, short lists, aliases, spacing.
  const char* const inputs[] = {
      "tensorload $S[0x0b]>0x0 $S[22]++@complete dtype=UINT32 src_datasrc=0 num_elem = { 2 , 2 } "
      "start_addr=0x80100 step_elem={1,2} data={R1,r2,r3,r4}",
      "TENSORLOAD DTYPE=u32 num_elem={2,2} start_addr=sbuf[p2]+256 step_elem={1,2} data={r1,r2,r3,r4} "
      "$S[22]++@complete $S[11]>0",
  };
  const std::string canonical =
      "TensorLoad $S[11]>0 $S[22]++@complete dtype=u32 src_datasrc=REGISTER num_elem={2,2} "
      "start_addr=sbuf[p2]+0x100 step_elem={1,2} data={r1,r2,r3,r4}";
  for (const char* input : inputs) {
    const AsmResult r = assemble(input, "t", Generation::Cayman);
    ASSERT_TRUE(r.ok()) << format_diagnostic(r.errors[0]);
    EXPECT_EQ(disassemble(std::span<const uint8_t, kWordBytes>(r.words[0]), Generation::Cayman), canonical);
  }
}

TEST(AsmRoundTrip, AnInstructionDecodedForAnotherGenerationIsPrintedForTheRequestedOne) {
  Word w{};
  w[0] = opcode::kPtrMultiDualArith;
  w[1] = 16;
  const Instruction on_sunda = decode(std::span<const uint8_t, kWordBytes>(w), Generation::Sunda);
  EXPECT_TRUE(disassemble(on_sunda, Generation::Sunda).starts_with("TensorScalarPtrMultiDualArith "));
  EXPECT_TRUE(disassemble(on_sunda, Generation::Cayman).starts_with(".raw 8710"));
}

}  // namespace asm_roundtrip
}  // namespace
}  // namespace tpbisa
