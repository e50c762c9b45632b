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
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

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

// Explicit per-member fills: a member missing from a format's field declaration would not survive encode.
void fill(Header& h, Rng& r, uint8_t opcode) {
  h.opcode = opcode;
  h.inst_word_len = r.next<uint8_t>();
  h.debug_cmd = r.next<uint8_t>();
  h.debug_hint = r.next<uint8_t>();
}
void fill(Events& e, Rng& r) {
  e.wait_mode = r.next<uint8_t>();
  e.wait_idx = r.next<uint8_t>();
  e.update_mode = r.next<uint8_t>();
  e.update_idx = r.next<uint8_t>();
  e.semaphore_value = r.next<uint32_t>();
}
void fill(Tensor2d& t, Rng& r) {
  t.start_addr.raw = r.next<uint32_t>();
  r.fill(t.step_elem);
  r.fill(t.num_elem);
}
void fill(Tensor4d& t, Rng& r) {
  t.start_addr.raw = r.next<uint32_t>();
  r.fill(t.step_elem);
  r.fill(t.num_elem);
}
void fill(Mem2d& s, Rng& r, uint8_t opcode) {
  fill(s.header, r, opcode);
  fill(s.events, r);
  s.dtype = r.next<uint8_t>();
  s.src_datasrc = r.next<uint8_t>();
  r.fill(s.num_elem);
  s.start_addr.raw = r.next<uint64_t>();
  r.fill(s.step_elem);
  r.fill(s.data.bytes);
}
void fill(PseudoMem2d& s, Rng& r, uint8_t opcode) {
  fill(s.header, r, opcode);
  fill(s.events, r);
  s.dtype = r.next<uint8_t>();
  s.src_datasrc = r.next<uint8_t>();
  r.fill(s.num_elem);
  s.var_id = r.next<uint32_t>();
  s.var_offset = r.next<uint32_t>();
  r.fill(s.step_elem);
  r.fill(s.data.bytes);
}
void fill(S2Bn& s, Rng& r, uint8_t opcode) {
  fill(s.header, r, opcode);
  fill(s.events, r);
  r.fill(s.reserved0);
  fill(s.src_mem_pattern, r);
  s.imm1.raw = r.next<uint32_t>();
  s.dtype = r.next<uint8_t>();
  r.fill(s.reserved1);
  s.num_active_channels = r.next<uint8_t>();
  r.fill(s.reserved2);
  s.imm0_ptr.raw = r.next<uint32_t>();
  s.imm0_src = r.next<uint8_t>();
  r.fill(s.reserved3);
}
void fill(S4d4Tsm& s, Rng& r, uint8_t opcode) {
  fill(s.header, r, opcode);
  fill(s.events, r);
  fill(s.src_mem_pattern, r);
  s.in_dtype = r.next<uint8_t>();
  s.out_dtype = r.next<uint8_t>();
  s.num_active_channels = r.next<uint8_t>();
  r.fill(s.reserved0);
  s.op = r.next<uint8_t>();
  s.op_dim = r.next<uint8_t>();
  s.reverse_operands = r.next<uint8_t>();
  r.fill(s.reserved1);
  fill(s.dst_mem_pattern, r);
}
// Datapath family (real-programs.md §10-§12).
void fill(Tensor3d& t, Rng& r) {
  t.start_addr.raw = r.next<uint32_t>();
  r.fill(t.step_elem);
  r.fill(t.num_elem);
}
void fill(S4d4Tr& s, Rng& r, uint8_t opcode) {
  fill(s.header, r, opcode);
  fill(s.events, r);
  fill(s.src, r);
  s.in_dtype = r.next<uint8_t>();
  s.out_dtype = r.next<uint8_t>();
  s.num_active_channels = r.next<uint8_t>();
  s.negated = r.next<uint8_t>();
  s.op = r.next<uint8_t>();
  s.op_dim = r.next<uint8_t>();
  s.mask_enable = r.next<uint8_t>();
  r.fill(s.reserved1);
  fill(s.dst, r);
}
void fill(S3s3d3Tt& s, Rng& r, uint8_t opcode) {
  fill(s.header, r, opcode);
  fill(s.events, r);
  s.in0_in1_dtype = r.next<uint8_t>();
  s.out_dtype = r.next<uint8_t>();
  s.op = r.next<uint8_t>();
  s.num_active_channels = r.next<uint8_t>();
  fill(s.src0, r);
  fill(s.src1, r);
  fill(s.dst, r);
}
void fill(D4Mr& s, Rng& r, uint8_t opcode) {
  fill(s.header, r, opcode);
  fill(s.events, r);
  r.fill(s.reserved0);
  s.dst_element_count = r.next<uint32_t>();
  s.dtype = r.next<uint8_t>();
  r.fill(s.reserved1);
  s.num_active_channels = r.next<uint8_t>();
  r.fill(s.reserved2);
  s.serialization_mode = r.next<uint8_t>();
  r.fill(s.reserved3);
  s.set_value = r.next<uint32_t>();
  fill(s.dst, r);
}
void fill(CtrlNo& s, Rng& r, uint8_t opcode) {
  fill(s.header, r, opcode);
  fill(s.events, r);
  r.fill(s.reserved0);
  s.notification = r.next<uint8_t>();
  s.drain_count = r.next<uint8_t>();
  r.fill(s.reserved1);
}
// ---- PE matmul (S3_LW, S3D3_MM: one layout per generation set) ----
/// One member by its type: a byte, a byte array or a TENSOR3D.
template <class M>
void fill_member(M& m, Rng& r) {
  if constexpr (std::is_same_v<M, Tensor3d>)
    fill(m, r);
  else if constexpr (requires { m.size(); })
    r.fill(m);
  else
    m = r.next<M>();
}
/// Each member by name, where the layout has it (the six layouts share most of their members).
template <class S>
requires(S::kFormat == Format::S3Lw || S::kFormat == Format::S3d3Mm) void fill(S& s, Rng& r, uint8_t opcode) {
  fill(s.header, r, opcode);
  fill(s.events, r);
  fill_member(s.reserved0, r);
  fill_member(s.src, r);
  fill_member(s.in_dtype, r);
  fill_member(s.fp32_mode, r);
  fill_member(s.num_active_rows, r);
  fill_member(s.num_active_cols, r);
  fill_member(s.reserved1, r);
  if constexpr (requires { s.bg_xpose_mode; }) fill_member(s.bg_xpose_mode, r);
  if constexpr (requires { s.transpose_mode; }) fill_member(s.transpose_mode, r);
  if constexpr (requires { s.perf_opt; }) fill_member(s.perf_opt, r);
  if constexpr (requires { s.out_dtype; }) fill_member(s.out_dtype, r);
  if constexpr (requires { s.reserved2; }) fill_member(s.reserved2, r);
  if constexpr (requires { s.matmul_flags; }) fill_member(s.matmul_flags, r);
  if constexpr (requires { s.psum_accumulate_flags; }) fill_member(s.psum_accumulate_flags, r);
  if constexpr (requires { s.row_grp; }) fill_member(s.row_grp, r);
  if constexpr (requires { s.col_grp; }) fill_member(s.col_grp, r);
  if constexpr (requires { s.active_row_mode; }) fill_member(s.active_row_mode, r);
  if constexpr (requires { s.psum_zero_region; }) fill_member(s.psum_zero_region, r);
  if constexpr (requires { s.reserved3; }) fill_member(s.reserved3, r);
  if constexpr (requires { s.flags; }) fill_member(s.flags, r);
  if constexpr (requires { s.reserved4; }) fill_member(s.reserved4, r);
  if constexpr (requires { s.tile_size; }) fill_member(s.tile_size, r);
  if constexpr (requires { s.tile_sel; }) fill_member(s.tile_sel, r);
  if constexpr (requires { s.perf_mode; }) fill_member(s.perf_mode, r);
  if constexpr (requires { s.dst; }) fill_member(s.dst, r);
}
#include "roundtrip_fill_seq.inc"  // the sequencer family's layouts

// Sync family (src/families/sync).
void fill(EventsExtended& x, Rng& r) {
  x.wait_mode = r.next<uint8_t>();
  x.wait_idx = r.next<uint8_t>();
  x.update_mode = r.next<uint8_t>();
  x.update_idx = r.next<uint8_t>();
  x.sem_wait_value = r.next<uint32_t>();
  x.sem_update_value = r.next<uint32_t>();
}
void fill(CtrlEs& s, Rng& r, uint8_t opcode) {
  fill(s.header, r, opcode);
  fill(s.events, r);
  r.fill(s.reserved0);
  fill(s.ext, r);
  r.fill(s.reserved1);
}
void fill(SetOrderingMode& s, Rng& r, uint8_t opcode) {
  fill(s.header, r, opcode);
  fill(s.events, r);
  s.ordering_mode = r.next<uint8_t>();
  r.fill(s.reserved);
}
void fill(PseudoBranchLabel& s, Rng& r, uint8_t opcode) {
  fill(s.header, r, opcode);
  fill(s.events, r);
  s.label_id = r.next<uint32_t>();
  r.fill(s.payload);
}
void fill(PseudoAddr8& a, Rng& r) {
  a.offset = r.next<uint32_t>();
  a.id = r.next<uint16_t>();
  a.id_hi = r.next<uint8_t>();
  a.mode = r.next<uint8_t>();
}
void fill(PseudoDmaDirect2d& s, Rng& r, uint8_t opcode) {
  fill(s.header, r, opcode);
  fill(s.events, r);
  s.qos_flags = r.next<uint8_t>();
  s.semaphore = r.next<uint8_t>();
  s.sem_increment = r.next<uint8_t>();
  s.command = r.next<uint8_t>();
  fill(s.src, r);
  r.fill(s.src_step);
  r.fill(s.src_num);
  s.src_elem_size = r.next<uint16_t>();
  s.src_offset_reg = r.next<uint8_t>();
  s.dst_offset_reg = r.next<uint8_t>();
  fill(s.dst, r);
  r.fill(s.dst_step);
  r.fill(s.dst_num);
  s.dst_elem_size = r.next<uint16_t>();
  s.src_dtype = r.next<uint8_t>();
  s.dst_dtype = r.next<uint8_t>();
}
void fill(RawWord& s, Rng& r, uint8_t opcode) {
  fill(s.header, r, opcode);
  fill(s.events, r);
  r.fill(s.operands);
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
  for (Generation g : gens) EXPECT_EQ(per_gen[static_cast<size_t>(g)], kWordsPerFormat / gens.size()) << to_string(g);
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

/// A word whose every byte is distinct: byte i = 0x80 + i, then the opcode in byte 0.
Word distinct_word(uint8_t opcode) {
  Word w{};
  for (size_t i = 0; i < kWordBytes; ++i) w[i] = static_cast<uint8_t>(0x80 + i);
  w[0] = opcode;
  return w;
}

void expect_common_prefix(const Header& h, const Events& e, uint8_t opcode) {
  EXPECT_EQ(h.opcode, opcode);
  EXPECT_EQ(h.inst_word_len, 0x81);
  EXPECT_EQ(h.debug_cmd, 0x82);
  EXPECT_EQ(h.debug_hint, 0x83);
  EXPECT_EQ(e.wait_mode, 0x84);
  EXPECT_EQ(e.wait_idx, 0x85);
  EXPECT_EQ(e.update_mode, 0x86);
  EXPECT_EQ(e.update_idx, 0x87);
  EXPECT_EQ(e.semaphore_value, 0x8B8A8988U);
}

TEST(Golden, Mem2dLittleEndianFields) {
  const Word w = distinct_word(0xAA);
  const Instruction inst = decode(w, Generation::Cayman);
  ASSERT_EQ(inst.status, DecodeStatus::Modeled);
  const Mem2d* m = inst.as<Mem2d>();
  ASSERT_NE(m, nullptr);
  expect_common_prefix(m->header, m->events, 0xAA);
  EXPECT_EQ(m->dtype, 0x8C);
  EXPECT_EQ(m->src_datasrc, 0x8D);
  EXPECT_EQ(m->num_elem[0], 0x8E);
  EXPECT_EQ(m->num_elem[1], 0x8F);
  EXPECT_EQ(m->start_addr.raw, 0x9796959493929190ULL);
  EXPECT_EQ(m->start_addr.reg_lo(), 0x90);
  EXPECT_EQ(m->start_addr.reg_hi(), 0x91);
  EXPECT_EQ(m->start_addr.marker(), 0x94);  // byte 7 & 0xFC
  EXPECT_EQ(m->step_elem[0], static_cast<int32_t>(0x9B9A9998U));
  EXPECT_EQ(m->step_elem[1], static_cast<int32_t>(0x9F9E9D9CU));  // bytes 28..31, signed
  EXPECT_LT(m->step_elem[1], 0);
  for (unsigned k = 0; k < 32; ++k) EXPECT_EQ(m->data.reg(k), 0xA0 + k);
  EXPECT_EQ(m->data.u16(1), 0xA3A2);
  EXPECT_EQ(m->data.u32(0), 0xA3A2A1A0U);
  EXPECT_EQ(m->data.u64(3), 0xBFBEBDBCBBBAB9B8ULL);  // low word first
  EXPECT_EQ(encode(*m), w);
  EXPECT_EQ(encode(inst), w);

  // A field written through the typed struct lands at its bytes, little-endian, and nowhere else.
  Mem2d edited = *m;
  edited.step_elem[1] = -2;
  const Word e = encode(edited);
  EXPECT_EQ(e[28], 0xFE);
  EXPECT_EQ(e[29], 0xFF);
  EXPECT_EQ(e[30], 0xFF);
  EXPECT_EQ(e[31], 0xFF);
  for (size_t i = 0; i < kWordBytes; ++i)
    if (i < 28 || i > 31) {
      EXPECT_EQ(e[i], w[i]) << "byte " << i;
    }
}

// Edge case #60: var_offset is the 4 bytes 20..23; byte 24 (step_elem[0]) is untouched.
TEST(Golden, PseudoMem2dVarOffsetEdgeCase60) {
  const Word w = distinct_word(0xCE);
  const Instruction inst = decode(w, Generation::Mariana);
  ASSERT_EQ(inst.status, DecodeStatus::Modeled);
  const PseudoMem2d* p = inst.as<PseudoMem2d>();
  ASSERT_NE(p, nullptr);
  expect_common_prefix(p->header, p->events, 0xCE);
  EXPECT_EQ(p->dtype, 0x8C);
  EXPECT_EQ(p->src_datasrc, 0x8D);
  EXPECT_EQ(p->num_elem[0], 0x8E);
  EXPECT_EQ(p->num_elem[1], 0x8F);
  EXPECT_EQ(p->var_id, 0x93929190U);
  EXPECT_EQ(p->var_offset, 0x97969594U);
  EXPECT_EQ(p->step_elem[0], static_cast<int32_t>(0x9B9A9998U));
  EXPECT_EQ(p->step_elem[1], static_cast<int32_t>(0x9F9E9D9CU));
  EXPECT_EQ(p->data.reg(31), 0xBF);
  EXPECT_EQ(encode(*p), w);

  PseudoMem2d edited = *p;
  edited.var_offset = 0xDEADBEEF;
  const Word e = encode(edited);
  EXPECT_EQ(e[20], 0xEF);
  EXPECT_EQ(e[21], 0xBE);
  EXPECT_EQ(e[22], 0xAD);
  EXPECT_EQ(e[23], 0xDE);
  EXPECT_EQ(e[24], w[24]) << "byte 24 belongs to step_elem[0]";
  for (size_t i = 0; i < kWordBytes; ++i)
    if (i < 20 || i > 23) {
      EXPECT_EQ(e[i], w[i]) << "byte " << i;
    }
}

// Edge case #65: imm1 is at 28..31; byte 40 lies inside reserved2 (35..43).
TEST(Golden, S2BnLayoutEdgeCase65) {
  const Word w = distinct_word(0x70);
  const Instruction inst = decode(w, Generation::Sunda);
  ASSERT_EQ(inst.status, DecodeStatus::Modeled);
  const S2Bn* s = inst.as<S2Bn>();
  ASSERT_NE(s, nullptr);
  expect_common_prefix(s->header, s->events, 0x70);
  for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(s->reserved0[k], 0x8C + k);
  EXPECT_EQ(s->src_mem_pattern.start_addr.raw, 0x93929190U);
  EXPECT_EQ(s->src_mem_pattern.step_elem[0], static_cast<int16_t>(0x9594));
  EXPECT_EQ(s->src_mem_pattern.step_elem[1], static_cast<int16_t>(0x9796));
  EXPECT_LT(s->src_mem_pattern.step_elem[0], 0);
  EXPECT_EQ(s->src_mem_pattern.num_elem[0], 0x9998);
  EXPECT_EQ(s->src_mem_pattern.num_elem[1], 0x9B9A);
  EXPECT_EQ(s->imm1.raw, 0x9F9E9D9CU);  // byte 28
  EXPECT_EQ(s->dtype, 0xA0);            // byte 32
  EXPECT_EQ(s->reserved1[0], 0xA1);
  EXPECT_EQ(s->num_active_channels, 0xA2);                                // byte 34
  for (unsigned k = 0; k < 9; ++k) EXPECT_EQ(s->reserved2[k], 0xA3 + k);  // bytes 35..43
  EXPECT_EQ(s->reserved2[5], 0xA8) << "byte 40 is reserved2[5]";
  EXPECT_EQ(s->imm0_ptr.raw, 0xAFAEADACU);  // byte 44
  EXPECT_EQ(s->imm0_src, 0xB0);             // byte 48
  for (unsigned k = 0; k < 15; ++k) EXPECT_EQ(s->reserved3[k], 0xB1 + k);
  EXPECT_EQ(encode(*s), w);

  // Only byte 40 set: it shows up in reserved2, never in imm1.
  Word only40{};
  only40[0] = 0x70;
  only40[1] = 16;
  only40[40] = 0x5A;
  const Instruction only40_inst = decode(only40, Generation::Cayman);
  const S2Bn* z = only40_inst.as<S2Bn>();
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(z->imm1.raw, 0U);
  EXPECT_EQ(z->reserved2[5], 0x5A);
  EXPECT_EQ(z->imm0_ptr.raw, 0U);
  S2Bn imm1_only{};
  imm1_only.header.opcode = 0x70;
  imm1_only.imm1.raw = 0x04030201;
  const Word e = encode(imm1_only);
  EXPECT_EQ(e[28], 0x01);
  EXPECT_EQ(e[31], 0x04);
  EXPECT_EQ(e[40], 0x00);
}

// Edge case #142: byte 44 is the low byte of dst_mem_pattern.start_addr; reserved1 is exactly bytes 39..43.
TEST(Golden, S4d4TsmLayoutEdgeCase142) {
  const Word w = distinct_word(0x4F);
  const Instruction inst = decode(w, Generation::Maverick);
  ASSERT_EQ(inst.status, DecodeStatus::Modeled);
  const S4d4Tsm* t = inst.as<S4d4Tsm>();
  ASSERT_NE(t, nullptr);
  expect_common_prefix(t->header, t->events, 0x4F);
  EXPECT_EQ(t->src_mem_pattern.start_addr.raw, 0x8F8E8D8CU);  // byte 12
  EXPECT_EQ(t->src_mem_pattern.step_elem[0], static_cast<int16_t>(0x9190));
  EXPECT_EQ(t->src_mem_pattern.step_elem[3], static_cast<int16_t>(0x9796));
  EXPECT_EQ(t->src_mem_pattern.num_elem[0], 0x9998);
  EXPECT_EQ(t->src_mem_pattern.num_elem[3], 0x9F9E);  // W = num_elem[3]
  EXPECT_EQ(t->in_dtype, 0xA0);
  EXPECT_EQ(t->out_dtype, 0xA1);
  EXPECT_EQ(t->num_active_channels, 0xA2);
  EXPECT_EQ(t->reserved0[0], 0xA3);
  EXPECT_EQ(t->op, 0xA4);
  EXPECT_EQ(t->op_dim, 0xA5);
  EXPECT_EQ(t->reverse_operands, 0xA6);
  ASSERT_EQ(t->reserved1.size(), 5U);
  for (unsigned k = 0; k < 5; ++k) EXPECT_EQ(t->reserved1[k], 0xA7 + k);  // bytes 39..43
  EXPECT_EQ(t->dst_mem_pattern.start_addr.raw, 0xAFAEADACU);              // byte 44
  EXPECT_EQ(t->dst_mem_pattern.step_elem[0], static_cast<int16_t>(0xB1B0));
  EXPECT_EQ(t->dst_mem_pattern.num_elem[3], 0xBFBE);
  EXPECT_EQ(encode(*t), w);

  // The PM word of edge case #142: byte 44 = 0x04 (with byte 45 = 0x10) is dst start 0x1004, not reserved.
  Word pm{};
  pm[0] = 0x4F;
  pm[1] = 16;
  pm[44] = 0x04;
  pm[45] = 0x10;
  const Instruction pm_inst = decode(pm, Generation::Cayman);
  const S4d4Tsm* p = pm_inst.as<S4d4Tsm>();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->dst_mem_pattern.start_addr.raw, 0x1004U);
  for (uint8_t b : p->reserved1) EXPECT_EQ(b, 0);
  // Each of bytes 38..44 lands in exactly the field the layout says.
  for (size_t i = 38; i <= 44; ++i) {
    Word one{};
    one[0] = 0x4F;
    one[i] = 0x77;
    const Instruction one_inst = decode(one, Generation::Sunda);
    const S4d4Tsm* q = one_inst.as<S4d4Tsm>();
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(q->reverse_operands, i == 38 ? 0x77 : 0) << i;
    for (size_t k = 0; k < 5; ++k) EXPECT_EQ(q->reserved1[k], i == 39 + k ? 0x77 : 0) << i;
    EXPECT_EQ(q->dst_mem_pattern.start_addr.raw, i == 44 ? 0x77U : 0U) << i;
  }
}

// CTRL_NO (sequencer.md §3.1): reserved bytes 12..38, the notification flag at 39, drain_count at 40, reserved
// bytes 41..63; the same on every generation.
TEST(Golden, CtrlNoLayout) {
  for (uint8_t op : std::initializer_list<uint8_t>{0x23, 0xA1, 0xA2, 0xA3, 0xA4, 0xA6})
    for (Generation g : kAllGenerations) {
      const Word w = distinct_word(op);
      const Instruction inst = decode(w, g);
      ASSERT_EQ(inst.status, DecodeStatus::Modeled);
      EXPECT_EQ(inst.format_name(), "CTRL_NO");
      const CtrlNo* c = inst.as<CtrlNo>();
      ASSERT_NE(c, nullptr);
      expect_common_prefix(c->header, c->events, op);
      for (unsigned k = 0; k < 27; ++k) EXPECT_EQ(c->reserved0[k], 0x8CU + k);  // bytes 12..38
      EXPECT_EQ(c->notification, 0xA7);                                         // byte 39
      EXPECT_EQ(c->drain_count, 0xA8);                                          // byte 40
      for (unsigned k = 0; k < 23; ++k) EXPECT_EQ(c->reserved1[k], 0xA9U + k);  // bytes 41..63
      EXPECT_EQ(encode(*c), w);
    }
}

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
