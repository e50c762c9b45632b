// The valid-word fast paths against the full path: random and mutated words of every modeled format and
// generation get the same verdict from validate() (the compiled pass, and the raw-word acceptor ahead of the decode)
// as from walking the conjunct list (validate_full); every word the raw-word acceptor accepts is valid in full.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "../support/seq_words.hpp"
#include "../support/validate_vectors.hpp"
#include "families/common.hpp"
#include "families/fast_accept.hpp"
#include "families/matmul/meaning.hpp"
#include "isa/predicates.hpp"
#include "tpbisa/address.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
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
  // Where a format has a raw acceptor, both of its branches ran: it accepted words and it declined words. A format
  // no word of which is valid on a generation (TENSOR_DEQUANTIZE on SUNDA, PROJ-CONV-DQ1) can only decline there.
  EXPECT_FALSE(acceptor.empty());
  for (const auto& [key, counts] : acceptor) {
    if (seen[key].second > 0) {
      EXPECT_GT(counts.first, 0U) << "raw acceptor of " << to_string(key.first) << " on " << to_string(key.second)
                                  << " never accepted";
    }
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
    // The batch judges its words in blocks grouped by opcode; the invalid words still come in word order.
    for (size_t k = 1; k < sink.got.size(); ++k)
      EXPECT_LT(sink.got[k - 1].first, sink.got[k].first) << to_string(g) << " report " << k;
    size_t header_only = 0;
    for (size_t n = 0; n < s.words; ++n)
      header_only += validator_for(stream[n * kWordBytes], g).checked == Checked::HeaderOnly ? 1 : 0;
    EXPECT_EQ(s.header_only, header_only);
    const BatchSummary counted = validate_batch(stream, g, {}, nullptr, nullptr);
    EXPECT_EQ(counted.invalid, invalid);
    EXPECT_EQ(counted.header_only, header_only);
    // A span shorter than the stream: the verdicts it holds are the same, the summary still counts every word.
    std::vector<Verdict> head(300);
    const BatchSummary h = validate_batch(stream, g, {}, head);
    EXPECT_EQ(h.invalid, invalid);
    EXPECT_EQ(h.header_only, header_only);
    for (size_t n = 0; n < head.size(); ++n) EXPECT_TRUE(same(head[n], out[n])) << to_string(g) << " word " << n;
  }
}

TEST(FastPath, BatchEndingAtAnUnmappedPageTouchesNothingPastItsWords) {
  // The batch loops ask for the stream a page ahead of the word they judge: a hint that must never become a read.
  // The words fill a page whose successor is inaccessible; a load past the last word would fault.
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* map = mmap(nullptr, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  auto* base = static_cast<uint8_t*>(map);
  ASSERT_EQ(mprotect(base + page, 2 * page, PROT_NONE), 0);
  std::mt19937_64 rng(11);
  for (Generation g : kAllGenerations) {
    const std::vector<Word> seeds = seeds_for(g);
    for (size_t off = 0; off + kWordBytes <= page; off += kWordBytes) {
      Word w = seeds[rng() % seeds.size()];
      if (off % (7 * kWordBytes) == 0) w[4 + rng() % (kWordBytes - 4)] ^= 0x33;
      std::memcpy(base + off, w.data(), kWordBytes);
    }
    const std::vector<uint8_t> copy(base, base + page);
    const std::span<const uint8_t> at_end(base, page);
    const BatchSummary want = validate_batch(copy, g, {}, nullptr, nullptr);
    const BatchSummary counted = validate_batch(at_end, g, {}, nullptr, nullptr);
    std::vector<Verdict> out(page / kWordBytes);
    const BatchSummary judged = validate_batch(at_end, g, {}, out);
    EXPECT_EQ(counted.words, page / kWordBytes);
    EXPECT_EQ(counted.invalid, want.invalid) << to_string(g);
    EXPECT_GT(counted.invalid, 0U) << to_string(g);
    EXPECT_EQ(judged.invalid, want.invalid) << to_string(g);
    EXPECT_EQ(judged.header_only, want.header_only) << to_string(g);
  }
  munmap(map, 3 * page);
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
  // The header, dtype and ALU-op tables are built at compile time from the predicate bodies; they equal the bodies.
  for (Generation g : kAllGenerations) {
    for (unsigned v = 0; v < 256; ++v) {
      Header h;
      h.opcode = static_cast<uint8_t>(v);
      h.inst_word_len = kInstWordLen;
      // A table of a term without an option answers alike in both halves.
      for (bool half : {false, true}) {
        ASSERT_EQ(family::header_opcode_table().has(g, h.opcode, half), pred::has_valid_neuron_header(h, g));
        ASSERT_EQ(family::aluop_table().has(g, h.opcode, half), aluop_in(h.opcode, g));
      }
      for (bool fp32r : {false, true})
        for (bool runtime : {false, true}) {
          CheckContext c{g, {}};
          c.options.dtype_enum_runtime = runtime;
          ASSERT_EQ(family::valid_dtype_table(fp32r).has(g, h.opcode, runtime),
                    pred::is_valid_dtype(h.opcode, fp32r, c));
          ASSERT_EQ(family::dtype_accepts(h.opcode, fp32r, c), pred::is_valid_dtype(h.opcode, fp32r, c));
        }
    }
  }
}

TEST(FastPath, TabulatedAlignmentAndQuadrantTestsEqualTheirDefinitions) {
  // addr_aligned_dtype reads a compile-time mask per dtype code and matmul's group_ok a nibble per quadrant mask;
  // both must say what the rules say: size != 0 and addr % size == 0; a mask of the compiler's table whose
  // quadrants (32 rows each) cover n.
  constexpr uint64_t kAddrs[] = {0,
                                 1,
                                 2,
                                 3,
                                 4,
                                 6,
                                 7,
                                 8,
                                 12,
                                 0x1000,
                                 0x1001,
                                 0x1002,
                                 0x1004,
                                 0xFFFFFFFF,
                                 0xFFFFFFF8,
                                 uint64_t{1} << 63,
                                 ~uint64_t{0},
                                 (uint64_t{1} << 63) | 8};
  int aligned = 0, not_aligned = 0;
  for (unsigned d = 0; d < 256; ++d)
    for (uint64_t a : kAddrs) {
      const unsigned size = dtype_size(static_cast<uint8_t>(d));
      const bool want = size != 0 && a % size == 0;
      ASSERT_EQ(pred::addr_aligned_dtype(a, static_cast<uint8_t>(d)), want) << "dtype " << d << " addr " << a;
      (want ? aligned : not_aligned) += 1;
    }
  EXPECT_GT(aligned, 0);
  EXPECT_GT(not_aligned, 0);
  constexpr uint8_t kListed[] = {0x1, 0x2, 0x4, 0x8, 0x3, 0xC, 0xF};
  int covering = 0, not_covering = 0;
  for (unsigned m = 0; m < 256; ++m)
    for (unsigned n = 0; n <= 160; ++n) {
      const bool listed = std::find(std::begin(kListed), std::end(kListed), m) != std::end(kListed);
      const bool want = listed && 32U * static_cast<unsigned>(std::popcount(m)) >= n;
      ASSERT_EQ(family::matmul::group_ok(static_cast<uint8_t>(m), n), want) << "mask " << m << " n " << n;
      (want ? covering : not_covering) += 1;
    }
  EXPECT_GT(covering, 0);
  EXPECT_GT(not_covering, 0);
}
TEST(FastPath, RouteChecksEqualTheHeaderAndEventsRawForms) {
  // The generated acceptors leave has_valid_neuron_header and has_valid_neuron_events to the route; its two parts
  // together equal the two raw forms, on every generation and opcode, with inst_word_len and the two event modes
  // random or set to values that pass (so each term is seen both ways).
  std::mt19937_64 rng(11);
  constexpr FieldRef kLen = field_ref<RawWord>("header.inst_word_len");
  constexpr FieldRef kWait = field_ref<RawWord>("events.wait_mode");
  constexpr FieldRef kUpdate = field_ref<RawWord>("events.update_mode");
  // The sanitized tree checks a quarter of the words (the optimised tree runs them all).
#if defined(TPBISA_ASAN)
  constexpr unsigned kPerOpcode = 500;
#else
  constexpr unsigned kPerOpcode = 2000;
#endif
  size_t both = 0;
  size_t neither = 0;
  for (Generation g : kAllGenerations) {
    const CheckContext c{g, {}};
    for (unsigned op = 0; op < 256; ++op)
      for (unsigned k = 0; k < kPerOpcode; ++k) {
        Word w{};
        for (auto& b : w) b = static_cast<uint8_t>(rng());
        w[0] = static_cast<uint8_t>(op);
        // Mostly the values that pass, so both outcomes of each term are seen.
        if (k % 2 == 0) w[kLen.offset] = kInstWordLen;
        if (k % 4 < 3) w[kWait.offset] = static_cast<uint8_t>(k % 8);
        if (k % 8 < 6) w[kUpdate.offset] = static_cast<uint8_t>(k % 16);
        const bool raw = family::header_accepts(w.data(), c) && family::events_accepts(w.data(), c);
        const bool route =
            family::route_opcode_accepts(w[0], g) && family::route_word_accepts(w.data(), family::gen_bit(g));
        ASSERT_EQ(route, raw) << to_string(g) << " opcode " << op << " word " << k;
        (raw ? both : neither) += 1;
      }
  }
  EXPECT_GT(both, kPerOpcode * 50);
  EXPECT_GT(neither, kPerOpcode * 50);
}

TEST(FastPath, EveryGeneratedAcceptorLeavesOnlyTheRouteChecksToItsCaller) {
  // The route's checks stand in for two conjuncts that every validator with an acceptor holds: a validator without
  // them would decline words its own conjuncts accept (correct, through the full pass, but slow).
  size_t with_acceptor = 0;
  for (const Validator* v : all_validators()) {
    if (v->accept == nullptr) continue;
    ++with_acceptor;
    const auto has = [&](const Predicate& p) {
      return std::find(v->conjuncts.begin(), v->conjuncts.end(), &p) != v->conjuncts.end();
    };
    EXPECT_TRUE(has(family::kHasValidNeuronHeader)) << v->name;
    EXPECT_TRUE(has(family::kHasValidNeuronEvents)) << v->name;
  }
  EXPECT_GT(with_acceptor, 20U);  // the loop saw the validators, not an empty list
  static_assert(family::left_to_the_route<&family::kHasValidNeuronHeader>());
  static_assert(family::left_to_the_route<&family::kHasValidNeuronEvents>());
  static_assert(!family::left_to_the_route<&family::kEnginePlacement>());
}

TEST(FastPath, RawAcceptorCoversTheSliceAndTheDatapathFormats) {
  // Which formats have a raw-word acceptor on every generation that has them (docs/performance-log.md lists the rest,
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

// ---- The matmul (LDWEIGHTS, MATMUL) and seq (sequencer control block) acceptors ----

/// The formats of the matmul and seq families: each has a raw-word acceptor on every generation.
constexpr Format kMmSeqFormats[] = {Format::S3Lw,
                                    Format::S3d3Mm,
                                    Format::CtrlWr,
                                    Format::CtrlMv,
                                    Format::CtrlAl,
                                    Format::CtrlBr,
                                    Format::CtrlEr,
                                    Format::PollSem,
                                    Format::BranchPrefetchHint,
                                    Format::PseudoFunction,
                                    Format::PseudoFunctionCall,
                                    Format::PseudoInst};

bool is_mm_seq(Format f) {
  return std::find(std::begin(kMmSeqFormats), std::end(kMmSeqFormats), f) != std::end(kMmSeqFormats);
}

/// SBUF / PSUM addresses of a partition and a byte offset (memory-and-numerics.md §2).
uint32_t sbuf_at(Generation g, uint32_t partition, uint32_t offset) {
  return geometry(g).sbuf_offset + partition * geometry(g).sbuf_partition_size + offset;
}
uint32_t psum_at(Generation g, uint32_t partition, uint32_t offset) {
  return geometry(g).psum_offset + partition * geometry(g).psum_partition_size + offset;
}

/// A valid LDWEIGHTS of layout L: 128 rows from SBUF partition 0, 64 columns (BFLOAT16).
template <class L>
Word ldweights_word(Generation g) {
  L s{};
  s.header.opcode = opcode::kLdWeights;
  s.header.inst_word_len = 16;
  s.src.start_addr.raw = sbuf_at(g, 0, 0x100);
  s.src.step_elem = {1, 0, 0};
  s.src.num_elem = {64, 1, 1};
  s.in_dtype = dtype::kBfloat16;
  s.num_active_rows = 128;
  s.num_active_cols = 64;
  if constexpr (requires { s.row_grp; }) {
    s.row_grp = 0xF;
    s.col_grp = 0x3;
  }
  return encode(s);
}

/// A valid MATMUL of layout L: 64 rows at SBUF partition 32 into 32 PSUM partitions (SBUF on MAVERICK).
template <class L>
Word matmul_word(Generation g) {
  L s{};
  s.header.opcode = opcode::kMatmul;
  s.header.inst_word_len = 16;
  s.src.start_addr.raw = sbuf_at(g, 32, 0x40);
  s.src.step_elem = {1, 0, 0};
  s.src.num_elem = {16, 1, 1};
  s.in_dtype = dtype::kFp8Exp4;
  s.num_active_rows = 64;
  s.num_active_cols = 32;
  if constexpr (requires { s.row_grp; }) {
    s.row_grp = 0x3;
    s.col_grp = 0x1;
  }
  s.dst.start_addr.raw = g == Generation::Maverick ? sbuf_at(g, 64, 0x200) : psum_at(g, 0, 0x7C0);
  s.dst.step_elem = {1, 0, 0};
  s.dst.num_elem = {16, 1, 1};
  return encode(s);
}

/// Valid words of every matmul and seq format on generation g (the tests assert they are valid).
std::vector<Word> mm_seq_words(Generation g) {
  std::vector<Word> w;
  switch (g) {
    case Generation::Mariana:
      w.push_back(ldweights_word<S3LwMariana>(g));
      w.push_back(matmul_word<S3d3MmMariana>(g));
      break;
    case Generation::Maverick:
      w.push_back(ldweights_word<S3LwMaverick>(g));
      w.push_back(matmul_word<S3d3MmMaverick>(g));
      break;
    default:
      w.push_back(ldweights_word<S3LwCayman>(g));
      w.push_back(matmul_word<S3d3MmCayman>(g));
      break;
  }
  using namespace seq_words;
  for (const Word& s :
       {write_word(), move_word(), spec_move_word(), alu_word(), branch_word(), back_branch_word(), range_clear_word(),
        poll_word(), hint_word(opcode::kBranchPrefetchHint), hint_word(opcode::kPseudoBranchPrefetchHint), call_word(),
        exit_word(), with_header(opcode::kPseudoFunctionBegin), with_header(opcode::kPseudoFunctionReturn)})
    w.push_back(s);
  return w;
}

/// Writes `v` little-endian into `size` bytes at `offset`.
void put(Word& w, unsigned offset, unsigned size, uint64_t v) {
  for (unsigned b = 0; b < size; ++b) w[offset + b] = static_cast<uint8_t>(v >> (8 * b));
}

/// A start address at the edges the matmul predicates test: a partition at and around the quadrant boundaries
/// and the last one, an offset at alignment, PSUM bank and partition-size edges, in SBUF, PSUM or neither, with
/// an address marker now and then.
uint32_t edge_address(Generation g, std::mt19937_64& rng) {
  constexpr uint32_t kPartitions[] = {0, 1, 31, 32, 33, 63, 64, 95, 96, 97, 100, 126, 127, 128};
  constexpr uint32_t kOffsets[] = {0,     1,     2,     3,     4,      6,      8,      0x7C0,  0x7F8,
                                   0x7FC, 0x7FE, 0x800, 0x804, 0x3FFC, 0x4000, 0x7FFC, 0x8000, 0x38000};
  const uint32_t p = kPartitions[rng() % std::size(kPartitions)];
  const uint32_t o = kOffsets[rng() % std::size(kOffsets)];
  uint32_t a = 0;
  switch (rng() % 5) {
    case 0:
    case 1: a = sbuf_at(g, p, o); break;
    case 2:
    case 3: a = psum_at(g, p % 128, o % geometry(g).psum_partition_size); break;
    default: a = static_cast<uint32_t>(rng()); break;
  }
  if (rng() % 6 == 0) a = (a & 0x1FFFFFFF) | uint32_t{kMarkers[rng() % std::size(kMarkers)]} << 24;
  if (rng() % 12 == 0) a = 0x80000000U | static_cast<uint32_t>(rng() % 70);  // ADDR_REG {regnum, 0, 0, 0x80}
  return a;
}

/// One field of a matmul layout L set to an edge its predicates test.
template <class L>
void mutate_pe(Word& w, Generation g, std::mt19937_64& rng) {
  constexpr uint8_t kCounts[] = {0, 1, 2, 31, 32, 33, 63, 64, 65, 96, 127, 128, 129, 200, 255};
  auto ref = [](std::string_view name) { return find_field_ref(format_desc<L>(), name); };
  auto byte_of = [&](std::string_view name) { return ref(name).offset; };
  const bool dst = L::kFormat == Format::S3d3Mm && rng() % 2 == 0;
  switch (rng() % 9) {
    case 0: put(w, byte_of(dst ? "dst.start_addr" : "src.start_addr"), 4, edge_address(g, rng)); break;
    case 1: w[byte_of("num_active_rows")] = kCounts[rng() % std::size(kCounts)]; break;
    case 2: w[byte_of("num_active_cols")] = kCounts[rng() % std::size(kCounts)]; break;
    case 3: w[byte_of("in_dtype")] = static_cast<uint8_t>(rng() % 20); break;  // every dtype and some beyond
    case 4: w[byte_of("fp32_mode")] = static_cast<uint8_t>(rng() % 5); break;
    case 5: {  // a count or a step of either pattern at an edge (element counts, the PSUM bank span)
      constexpr uint16_t kEdges16[] = {0, 1, 2, 15, 16, 17, 32, 64, 128, 256, 511, 512, 513, 0x7FFF, 0x8000, 0xFFFF};
      const FieldRef f =
          ref(dst ? (rng() % 2 ? "dst.num_elem" : "dst.step_elem") : (rng() % 2 ? "src.num_elem" : "src.step_elem"));
      put(w, f.offset + 2 * static_cast<unsigned>(rng() % 3), 2, kEdges16[rng() % std::size(kEdges16)]);
      break;
    }
    case 6:
      if constexpr (requires { L{}.row_grp; }) {
        w[byte_of(rng() % 2 ? "row_grp" : "col_grp")] = static_cast<uint8_t>(rng() % 17);
        break;
      }
      [[fallthrough]];
    case 7: {  // the mode and flag bytes of the layout
      constexpr const char* kNames[] = {
          "transpose_mode",        "perf_opt",         "perf_mode",       "out_dtype",
          "psum_accumulate_flags", "psum_zero_region", "active_row_mode", "flags",
          "matmul_flags",          "tile_size",        "tile_sel",        "bg_xpose_mode"};
      const FieldRef f = ref(kNames[rng() % std::size(kNames)]);
      if (f.size == 0) break;  // not a field of this layout
      constexpr uint8_t kBytes[] = {0, 1, 2, 3, 4, 5, 7, 8, 0x0A, 0x3F, 0x40, 0x80, 0xC0, 0xFF};
      w[f.offset] = rng() % 3 == 0 ? static_cast<uint8_t>(rng()) : kBytes[rng() % std::size(kBytes)];
      break;
    }
    default: {  // one reserved byte set
      constexpr auto kReserved = field_refs_with_role<L, Role::Reserved>();
      const FieldRef f = kReserved[rng() % kReserved.size()];
      w[f.offset + rng() % f.size] = static_cast<uint8_t>(1U << (rng() % 8));
      break;
    }
  }
}

/// One field of a seq word set to an edge its predicates test: register numbers around 63/64 and 128/129, counts
/// around their limits, every enum value, the callee's terminator and characters, the alignment bits.
void mutate_seq(Word& w, std::mt19937_64& rng) {
  constexpr uint8_t kBytes[] = {0,  1,  2,  3,  4,  5,  6,   7,   8,   9,   10,  13,  14,  15,
                                16, 17, 32, 63, 64, 65, 126, 127, 128, 129, 130, 200, 254, 255};
  switch (rng() % 4) {
    case 0: w[12 + rng() % 52] = kBytes[rng() % std::size(kBytes)]; break;  // any operand byte at an edge
    case 1: w[12 + rng() % 12] = static_cast<uint8_t>(rng()); break;        // the mode, dtype and op bytes
    case 2: {                                                               // the callee: characters and NUL
      const unsigned at = 12 + static_cast<unsigned>(rng() % PseudoFunctionCall::kNameBytes);
      constexpr uint8_t kChars[] = {0, 0x1F, 0x20, 'a', 'Z', '_', 0x7E, 0x7F, 0x80};
      w[at] = kChars[rng() % std::size(kChars)];
      break;
    }
    default: w[16 + rng() % 48] ^= static_cast<uint8_t>(1U << (rng() % 8)); break;  // alignment and high bits
  }
}

void mutate_mm_seq(Word& w, Generation g, std::mt19937_64& rng) {
  if (w[0] == opcode::kLdWeights || w[0] == opcode::kMatmul) {
    const bool mm = w[0] == opcode::kMatmul;
    switch (g) {
      case Generation::Mariana: mm ? mutate_pe<S3d3MmMariana>(w, g, rng) : mutate_pe<S3LwMariana>(w, g, rng); break;
      case Generation::Maverick: mm ? mutate_pe<S3d3MmMaverick>(w, g, rng) : mutate_pe<S3LwMaverick>(w, g, rng); break;
      default: mm ? mutate_pe<S3d3MmCayman>(w, g, rng) : mutate_pe<S3LwCayman>(w, g, rng); break;
    }
    return;
  }
  mutate_seq(w, rng);
}

TEST(FastPath, MatmulAndSeqAcceptorsAgreeWithFullPath) {
  const std::vector<ValidateOptions> options = option_sets();
  std::mt19937_64 rng(20261214);
  std::map<std::pair<Format, Generation>, std::pair<size_t, size_t>> acceptor;  // accepted, declined
  size_t mismatches = 0, judged = 0, valid = 0;
  const size_t per_gen = kWords / kAllGenerations.size();
  for (Generation g : kAllGenerations) {
    std::vector<Word> seeds = mm_seq_words(g);
    for (const Word& s : seeds)
      ASSERT_TRUE(validate_full(decode(s, g), g).valid) << "seed opcode " << int{s[0]} << " on " << to_string(g);
    for (const test::TsvVector& v : test::validate_vector_file().vectors)
      for (Generation vg : v.gens) {
        const Instruction inst = decode(v.word, g);
        if (vg == g && inst.status == DecodeStatus::Modeled && is_mm_seq(inst.info->format)) seeds.push_back(v.word);
      }
    for (size_t n = 0; n < per_gen; ++n) {
      Word w = seeds[rng() % seeds.size()];
      const unsigned edits = static_cast<unsigned>(rng() % 4);  // 0: the seed itself; else 1-3 edge mutations
      for (unsigned k = 0; k < edits; ++k) mutate_mm_seq(w, g, rng);
      if (rng() % 16 == 0) w[3] = static_cast<uint8_t>(rng() % 4);  // inst_flags (MAVERICK MOVE's tile index)
      if (rng() % 32 == 0) w[rng() % 2 == 0 ? 8 : 9] = static_cast<uint8_t>(rng() % 8);  // event modes
      const ValidateOptions& o = options[rng() % options.size()];
      const Instruction inst = decode(w, g);
      const Verdict full = validate_full(inst, g, o);
      const Verdict raw = validate(std::span<const uint8_t, kWordBytes>(w), g, o);
      const bool accepted = fast_accepts(w, g, o);
      ++judged;
      valid += full.valid ? 1 : 0;
      if ((!same(raw, full) || accepted != full.valid) && ++mismatches <= 5)
        ADD_FAILURE() << "on " << to_string(g) << " opcode " << int{w[0]} << ": bytes " << raw.valid << "/"
                      << int{raw.n_failed} << ", raw acceptor " << accepted << ", full " << full.valid << "/"
                      << int{full.n_failed};
      if (inst.status == DecodeStatus::Modeled && is_mm_seq(inst.info->format)) {
        auto& a = acceptor[{inst.info->format, g}];
        (accepted ? a.first : a.second) += 1;
      }
    }
  }
  EXPECT_EQ(mismatches, 0U);
  // Both verdicts well represented (about a fifth of the words come out valid, by the seeds' order in the vector
  // file; the bound only guards against a generator that stopped making one of them).
  EXPECT_GT(valid, judged / 8);
  EXPECT_GT(judged - valid, judged / 8);
  // Every format on every generation: its acceptor accepted words and declined words.
  for (Format f : kMmSeqFormats)
    for (Generation g : kAllGenerations) {
      const auto counts = acceptor[{f, g}];
      EXPECT_GT(counts.first, 0U) << to_string(f) << " on " << to_string(g) << ": the acceptor never accepted";
      EXPECT_GT(counts.second, 0U) << to_string(f) << " on " << to_string(g) << ": the acceptor never declined";
    }
}

TEST(FastPath, MatmulAndSeqAcceptorsHonourEnginePlacementAndOptions) {
  // A valid MATMUL is accepted from PE or an unknown engine only (PROJ-CONV-F1); a seq word from any engine.
  const Generation g = Generation::Cayman;
  const Word mm = matmul_word<S3d3MmCayman>(g);
  const Word wr = seq_words::write_word();
  for (StreamEngine e : kStreamEngines) {
    ValidateOptions o;
    o.engine = e;
    EXPECT_EQ(fast_accepts(mm, g, o), e == StreamEngine::Pe) << to_string(e);
    EXPECT_EQ(validate_full(decode(mm, g), g, o).valid, e == StreamEngine::Pe) << to_string(e);
    EXPECT_TRUE(fast_accepts(wr, g, o)) << to_string(e);
  }
  EXPECT_TRUE(fast_accepts(mm, g, {}));
  // The acceptor is the layout's own: a MAVERICK MATMUL writes SBUF, so the CAYMAN word (PSUM dst) is declined there
  // exactly when the full path rejects it.
  for (Generation h : kAllGenerations)
    EXPECT_EQ(fast_accepts(mm, h, {}), validate_full(decode(mm, h), h).valid) << to_string(h);
}

TEST(FastPath, RawAcceptorCoversTheMatmulAndSeqFormats) {
  for (const OpcodeInfo& op : kOpcodes)
    for (Generation g : kAllGenerations)
      if (op.gens.has(g) && is_mm_seq(op.format)) {
        EXPECT_TRUE(has_fast_acceptor(op.value, g)) << op.mnemonic << " on " << to_string(g);
      }
}

TEST(FastPath, MatmulPlacementAndCountHelpersEqualTheSharedDecodes) {
  // The matmul bodies' own placement decode, packed count test and unrolled span are the shared readings: the
  // differential above cannot see a fault in them (the full path calls the same bodies), so they are compared here.
  std::mt19937_64 rng(20261215);
  for (Generation g : kAllGenerations) {
    const Geometry& geo = geometry(g);
    std::vector<uint32_t> raws;
    for (uint32_t base :
         {0U, geo.sbuf_offset, geo.sbuf_offset + geo.sbuf_size, geo.psum_offset, geo.psum_offset + geo.psum_size})
      for (uint32_t d : {0U, 1U, 2U, 4U, 0x7FFU, 0x800U, geo.sbuf_partition_size - 1, geo.sbuf_partition_size})
        for (uint32_t top : {0U, 0x80000000U, 0x40000000U, 0x20000000U, 0xA0000000U})
          raws.push_back((base + d) | top), raws.push_back((base - d) | top);
    for (int k = 0; k < 100'000; ++k) raws.push_back(static_cast<uint32_t>(rng()));
    size_t known = 0;
    for (uint32_t raw : raws) {
      const Addr4 a{raw};
      const family::matmul::Place p = family::matmul::place_of(a, g);
      if (a.from_register()) {
        EXPECT_FALSE(p.known);
        continue;
      }
      const PartitionAddress at = decode_partition_offset(a.masked(), g);
      ASSERT_EQ(p.known, at.region != Region::Outside) << std::hex << raw;
      known += p.known ? 1 : 0;
      if (!p.known) continue;
      EXPECT_EQ(p.at.region, at.region) << std::hex << raw;
      EXPECT_EQ(p.at.partition, at.partition) << std::hex << raw;
      EXPECT_EQ(p.at.offset, at.offset) << std::hex << raw;
    }
    EXPECT_GT(known, 0U) << to_string(g);
    for (int k = 0; k < 20'000; ++k) {
      Tensor3d t{};
      t.start_addr = Addr4{static_cast<uint32_t>(rng())};
      for (size_t d = 0; d < 3; ++d) {
        t.num_elem[d] = rng() % 4 == 0 ? 0 : static_cast<uint16_t>(rng());
        t.step_elem[d] = static_cast<int16_t>(rng());
      }
      EXPECT_EQ(family::matmul::counts3_nonzero(t, g), pred::counts_nonzero(t.num_elem, t.start_addr, g));
      // The span by the loop over the dimensions it replaces.
      int64_t lo = 0, hi = 0;
      bool empty = false;
      for (size_t d = 0; d < 3; ++d) {
        if (t.num_elem[d] == 0) empty = true;
        const int64_t reach = int64_t{t.step_elem[d]} * (int64_t{t.num_elem[d]} - 1);
        (reach < 0 ? lo : hi) += reach;
      }
      const family::matmul::Span s = family::matmul::pattern_span(t, 2);
      EXPECT_EQ(s.empty(), empty);
      if (!empty) {
        EXPECT_EQ(s.lo, lo * 2);
        EXPECT_EQ(s.hi, hi * 2 + 1);
      }
    }
  }
}

}  // namespace
}  // namespace tpbisa
