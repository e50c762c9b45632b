// The valid-word fast paths against the full path: random and mutated words of every modeled format and
// generation get the same verdict from validate() (the compiled pass, and the raw-word acceptor ahead of the decode)
// as from walking the conjunct list (validate_full); every word the raw-word acceptor accepts is valid in full.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "../support/validate_vectors.hpp"
#include "core/predicates.hpp"
#include "families/fast_accept.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
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

/// The leaf fields of every Operands alternative (offset and size in the word), from the declarations: where the
/// boundary mutations land.
struct Leaf {
  uint8_t offset;
  uint8_t size;
};
void leaves_of(const FormatDesc& d, unsigned base, std::vector<Leaf>& out) {
  for (const FieldDesc& f : d.fields) {
    if (f.nested) {
      leaves_of(*f.sub, base + f.offset, out);
      continue;
    }
    // Arrays by element, so each count, step and register slot is hit on its own.
    for (unsigned k = 0; k < f.count; ++k)
      out.push_back({static_cast<uint8_t>(base + f.offset + k * f.elem_size), f.elem_size});
  }
}
template <size_t... I>
std::vector<std::vector<Leaf>> make_leaves(std::index_sequence<I...>) {
  std::vector<std::vector<Leaf>> all(kOperandKinds);
  ((leaves_of(format_desc<std::variant_alternative_t<I, Operands>>(), 0, all[I])), ...);
  return all;
}
const std::vector<std::vector<Leaf>>& leaves() {
  static const auto all = make_leaves(std::make_index_sequence<kOperandKinds>{});
  return all;
}

/// Values at the edges the predicates test: enum ends, counts (0, 1, 3, 4, 8, 16, 32, 33 ...), signs, address
/// markers (the top byte of a 4- or 8-byte field), all ones.
constexpr uint64_t kEdges[] = {0,   1,   2,      3,      4,      5,      7,      8,      9,      15,        16,
                               17,  31,  32,     33,     63,     64,     65,     127,    128,    129,       254,
                               255, 256, 0xFFFF, 0x7FFF, 0x8000, 0x1000, 0x1001, 0x1002, 0x1004, 0xFFFFFFFF};
constexpr uint8_t kMarkers[] = {0x00, 0x01, 0x04, 0x08, 0x10, 0x20, 0x40, 0x60, 0x80, 0xA0, 0xC0, 0xE0, 0xFF};

/// Sets one leaf field of the word's layout to an edge value (or its top byte to an address marker).
void mutate_at_edge(Word& w, Generation g, std::mt19937_64& rng) {
  const size_t alt = decode(w, g).body.index();
  const std::vector<Leaf>& fields = leaves()[alt];
  const Leaf f = fields[rng() % fields.size()];
  if (f.size >= 4 && rng() % 3 == 0) {
    w[f.offset + f.size - 1] = kMarkers[rng() % std::size(kMarkers)];
    return;
  }
  uint64_t v = kEdges[rng() % std::size(kEdges)];
  if (rng() % 4 == 0) v = ~v + 1;  // the negative edge of a signed field
  for (unsigned b = 0; b < f.size; ++b) w[f.offset + b] = static_cast<uint8_t>(v >> (8 * b));
}

TEST(FastPath, VerdictEqualsFullPathOnRandomAndMutatedWords) {
  ASSERT_TRUE(test::validate_vector_file().readable);
  const std::vector<ValidateOptions> options = option_sets();
  std::mt19937_64 rng(20261201);
  // Judged and valid counts per (format, generation): every modeled pair must be exercised.
  std::map<std::pair<Format, Generation>, std::pair<size_t, size_t>> seen;
  // Raw-acceptor accepted and declined counts per (format, generation) with an acceptor.
  std::map<std::pair<Format, Generation>, std::pair<size_t, size_t>> acceptor;
  size_t declined_valid = 0;  // valid words the raw acceptor was not sure of (sound, only slower)
  size_t mismatches = 0;
  size_t judged = 0;
  size_t valid = 0;
  const size_t per_gen = kWords / kAllGenerations.size();
  for (Generation g : kAllGenerations) {
    const std::vector<Word> seeds = seeds_for(g);
    ASSERT_FALSE(seeds.empty());
    for (size_t n = 0; n < per_gen; ++n) {
      Word w = seeds[rng() % seeds.size()];
      switch (rng() % 10) {
        case 0: break;  // the seed itself (mostly valid: exercises the accepting pass)
        case 8:
        case 9: mutate_at_edge(w, g, rng); break;  // one field at a boundary the predicates test
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
      const Verdict raw = validate(std::span<const uint8_t, kWordBytes>(w), g, o);
      const bool accepted = fast_accepts(w, g, o);
      ++judged;
      if ((!same(fast, full) || !same(raw, full) || (accepted && !full.valid)) && ++mismatches <= 5)
        ADD_FAILURE() << "verdicts differ on " << to_string(g) << " opcode " << int{w[0]} << ": compiled " << fast.valid
                      << "/" << int{fast.n_failed} << ", bytes " << raw.valid << "/" << int{raw.n_failed}
                      << ", raw acceptor " << accepted << ", full " << full.valid << "/" << int{full.n_failed};
      valid += fast.valid ? 1 : 0;
      if (inst.status == DecodeStatus::Modeled) {
        auto& c = seen[{inst.info->format, g}];
        ++c.first;
        c.second += fast.valid ? 1 : 0;
        if (has_fast_acceptor(w[0], g)) {
          auto& a = acceptor[{inst.info->format, g}];
          (accepted ? a.first : a.second) += 1;
          declined_valid += !accepted && full.valid ? 1 : 0;
        }
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
  // Where a format has a raw acceptor, both of its branches ran: it accepted words and it declined words.
  EXPECT_FALSE(acceptor.empty());
  for (const auto& [key, counts] : acceptor) {
    EXPECT_GT(counts.first, 0U) << "raw acceptor of " << to_string(key.first) << " on " << to_string(key.second)
                                << " never accepted";
    EXPECT_GT(counts.second, 0U) << "raw acceptor of " << to_string(key.first) << " on " << to_string(key.second)
                                 << " never declined";
  }
  RecordProperty("raw_acceptor_declined_valid_words", static_cast<int>(declined_valid));
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
    // The counting form: the same counts, and exactly the invalid words reported, with the full verdict.
    struct Sink {
      std::vector<std::pair<size_t, Verdict>> got;
    } sink;
    const BatchSummary c = validate_batch(
        stream, g, {},
        [](void* ctx, size_t index, const Verdict& v) { static_cast<Sink*>(ctx)->got.emplace_back(index, v); }, &sink);
    EXPECT_EQ(c.words, s.words);
    EXPECT_EQ(c.valid, s.valid);
    EXPECT_EQ(c.invalid, s.invalid);
    EXPECT_EQ(c.header_only, s.header_only);
    ASSERT_EQ(sink.got.size(), invalid);
    for (const auto& [index, v] : sink.got) {
      EXPECT_FALSE(v.valid);
      EXPECT_TRUE(same(v, out[index])) << to_string(g) << " word " << index;
    }
    EXPECT_EQ(validate_batch(stream, g, {}, nullptr, nullptr).invalid, invalid);
  }
}

/// Count vectors at the edges the SWAR tests could get wrong: zero lanes, lanes with only the top bit, all ones.
std::array<uint16_t, 4> edge_counts(std::mt19937_64& rng) {
  constexpr uint16_t kLanes[] = {0, 1, 2, 3, 4, 8, 0x7FFF, 0x8000, 0x8001, 0xFFFE, 0xFFFF, 0x0100, 0x00FF};
  std::array<uint16_t, 4> n{};
  for (uint16_t& v : n) v = rng() % 3 == 0 ? static_cast<uint16_t>(rng()) : kLanes[rng() % std::size(kLanes)];
  return n;
}

TEST(FastPath, PackedCountTestsEqualTheLoopsOverTheCounts) {
  // The count predicates test a pattern's counts as one integer (every lane non-zero by SWAR, equal vectors before
  // the product); they must say what the loop over the array says.
  std::mt19937_64 rng(14);
  for (int n = 0; n < 200'000; ++n) {
    const std::array<uint16_t, 4> a = edge_counts(rng);
    const std::array<uint16_t, 4> b = rng() % 4 == 0 ? a : edge_counts(rng);
    uint64_t pa = 1, pb = 1;
    bool nonzero4 = true;
    for (size_t k = 0; k < 4; ++k) {
      pa *= a[k];
      pb *= b[k];
      nonzero4 = nonzero4 && a[k] != 0;
    }
    const uint64_t packed = pred::packed_counts(a);
    ASSERT_EQ(pred::lanes_nonzero(packed), nonzero4) << a[0] << " " << a[1] << " " << a[2] << " " << a[3];
    ASSERT_EQ(pred::lanes_product(packed), pa);
    ASSERT_EQ(pred::same_element_count(packed, pred::packed_counts(b)), pa == pb);
    const std::array<uint16_t, 2> a2{a[0], a[1]};
    ASSERT_EQ(pred::lanes_nonzero(pred::packed_counts(a2)), a[0] != 0 && a[1] != 0);
    ASSERT_EQ(pred::lanes_product(pred::packed_counts(a2)), uint64_t{a[0]} * a[1]);
  }
}

constexpr FieldRef kTsmSrcCounts = field_ref<S4d4Tsm>("src_mem_pattern.num_elem");
constexpr FieldRef kBnSrcCounts = field_ref<S2Bn>("src_mem_pattern.num_elem");

TEST(FastPath, RawCountsAndReservedMasksEqualTheDecodedFields) {
  // The raw forms load a pattern's counts from the word in one read and test reserved bytes by 8-byte masks: the
  // same values the decoded word's fields give.
  std::mt19937_64 rng(1414);
  for (int n = 0; n < 100'000; ++n) {
    Word w{};
    for (uint8_t& b : w) b = rng() % 4 == 0 ? static_cast<uint8_t>(rng()) : 0;
    const S4d4Tsm t = family::view<S4d4Tsm>(w.data());
    ASSERT_EQ(family::raw_counts<kTsmSrcCounts>(w.data()), pred::packed_counts(t.src_mem_pattern.num_elem));
    const S2Bn s = family::view<S2Bn>(w.data());
    ASSERT_EQ(family::raw_counts<kBnSrcCounts>(w.data()), pred::packed_counts(s.src_mem_pattern.num_elem));
    bool zero = true;
    for (const FieldRef& f : field_refs_with_role<S4d4Tsm, Role::Reserved>())
      for (unsigned b = f.offset; b < unsigned{f.offset} + f.size; ++b) zero = zero && w[b] == 0;
    ASSERT_EQ(family::reserved_bytes_zero<S4d4Tsm>(w.data()), zero);
    ASSERT_EQ(family::masked_zero(w.data(), family::detail::kReservedMask<S4d4Tsm>), zero);
  }
}

TEST(FastPath, CompileTimeTablesEqualTheirPredicateBodies) {
  // The header and dtype tables are built at compile time from the predicate bodies; they equal the bodies.
  for (Generation g : kAllGenerations) {
    for (unsigned v = 0; v < 256; ++v) {
      Header h;
      h.opcode = static_cast<uint8_t>(v);
      h.inst_word_len = kInstWordLen;
      ASSERT_EQ(family::header_opcode_table().has(g, h.opcode), pred::has_valid_neuron_header(h, g));
      for (bool fp32r : {false, true})
        for (bool runtime : {false, true}) {
          CheckContext c{g, {}};
          c.options.dtype_enum_runtime = runtime;
          ASSERT_EQ(family::valid_dtype_table(fp32r, runtime).has(g, h.opcode),
                    pred::is_valid_dtype(h.opcode, fp32r, c));
        }
    }
  }
}

TEST(FastPath, RawAcceptorCoversTheSliceAndTheDatapathFormats) {
  // Which formats have a raw-word acceptor on every generation that has them (docs/performance.md lists the rest,
  // which take the decode and the compiled pass for every word).
  const Format covered[] = {Format::Mem2d,
                            Format::PseudoMem2d,
                            Format::S2Bn,
                            Format::S4d4Tsm,
                            Format::CtrlNo,
                            Format::S4d4Tr,
                            Format::S3s3d3Tt,
                            Format::D4Mr,
                            Format::CtrlEs,
                            Format::SetOrderingMode,
                            Format::PseudoBranchLabel,
                            Format::PseudoDmaDirect2d};
  size_t with = 0;
  for (const OpcodeInfo& op : kOpcodes)
    for (Generation g : kAllGenerations) {
      if (!op.gens.has(g)) continue;
      const bool has = has_fast_acceptor(op.value, g);
      with += has ? 1 : 0;
      if (std::find(std::begin(covered), std::end(covered), op.format) != std::end(covered)) {
        EXPECT_TRUE(has) << op.mnemonic << " on " << to_string(g);
      }
    }
  EXPECT_GT(with, 0U);
  // A word of an opcode outside the generation is judged header-only, and that validator has a raw form too.
  EXPECT_TRUE(has_fast_acceptor(0xFF, Generation::Cayman));
}

}  // namespace
}  // namespace tpbisa
