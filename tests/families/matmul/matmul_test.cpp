// PE matmul family (LDWEIGHTS 0x01, MATMUL 0x02): the real words of matmul_small.neff, layouts per generation,
// validation with the stream engine, and decode's plain description.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "../../support/test_util.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

Word from_hex(std::string_view hex) {
  Word w{};
  HexError e;
  EXPECT_TRUE(parse_hex_word(hex, w, e)) << hex;
  return w;
}

// ---- The real words as real-programs.md §8.4 / §9.5 tabulate them (sg00 = sg01) ----

struct LwWord {
  unsigned index;  // PE#k
  std::string_view hex;
  uint8_t wait_mode, wait_idx;
  uint32_t sem;
  uint32_t src;
  uint8_t transpose;
};
constexpr std::string_view kZero16 = "00000000000000000000000000000000";
const LwWord kLw[] = {
    {3, "01100000050800001000000000000000fe7c0300ffff0000e0ff2000010004000700010000008080000000000f0f0000", 0x05, 8, 16,
     0x37CFE, 1},
    {5, "01100000000000000000000000000000fe7d0300ffff0000e0ff2000010004000700010000008080000000000f0f0000", 0x00, 0, 0,
     0x37DFE, 1},
    {8, "01100000050400000100000000000000fe400000ffff0000e0ff2000010004000700000000008080000000000f0f0000", 0x05, 4, 1,
     0x40FE, 0},
    {10, "01100000051a00001000000000000000fe410000ffff0000e0ff2000010004000700000000008080000000000f0f0000", 0x05, 26,
     16, 0x41FE, 0},
};

struct MmWord {
  unsigned index;
  std::string_view hex;
  uint32_t src;
  uint16_t n;
  uint8_t transpose;
  uint8_t flags;
  uint32_t dst;
};
const MmWord kMm[] = {
    {4,
     "02100000000013050000000000000000007b03000100000000008000010001000700010000008080000000030f0f000000080002010000"
     "000000800001000100",
     0x37B00, 128, 1, 3, 0x2000800},
    {6,
     "02100000000013050000000000000000007b03000100000000008000010001000700010000008080000000030f0f000000090002010000"
     "000000800001000100",
     0x37B00, 128, 1, 3, 0x2000900},
    {9,
     "02100000000013050000000000000000007f03000100000000004000010001000700000000008080000000010f0f000000000002010000"
     "000000400001000100",
     0x37F00, 64, 0, 1, 0x2000000},
    {11,
     "02100000000013050000000000000000007e03000100000000004000010001000700000000008080000000020f0f000000000002010000"
     "000000400001000100",
     0x37E00, 64, 0, 2, 0x2000000},
};

ValidateOptions on_pe() {
  ValidateOptions o;
  o.engine = StreamEngine::Pe;
  return o;
}

std::string failing(const Verdict& v) {
  std::string s;
  for (const Predicate* p : v.failures()) s += (s.empty() ? "" : ", ") + std::string(p->name);
  return s.empty() ? "(none)" : s;
}

/// Every field value of a real LDWEIGHTS word as §8.4 decodes it.
void expect_lw_fields(const Instruction& inst, const LwWord& r) {
  const S3LwCayman* s = inst.as<S3LwCayman>();
  ASSERT_NE(s, nullptr) << "PE#" << r.index;
  EXPECT_EQ(inst.format_name(), "S3_LW");
  EXPECT_EQ(s->events.wait_mode, r.wait_mode);
  EXPECT_EQ(s->events.wait_idx, r.wait_idx);
  EXPECT_EQ(s->events.semaphore_value, r.sem);
  EXPECT_EQ(s->events.update_mode, 0);
  EXPECT_EQ(s->src.start_addr.raw, r.src);
  EXPECT_EQ(s->src.step_elem, (std::array<int16_t, 3>{-1, 0, -32}));
  EXPECT_EQ(s->src.num_elem, (std::array<uint16_t, 3>{32, 1, 4}));
  EXPECT_EQ(s->src.elements(), 128U);
  EXPECT_EQ(s->in_dtype, dtype::kFp16);
  EXPECT_EQ(s->fp32_mode, 0);
  EXPECT_EQ(s->transpose_mode, r.transpose);
  EXPECT_EQ(s->perf_opt, 0);
  EXPECT_EQ(s->num_active_rows, 128);
  EXPECT_EQ(s->num_active_cols, 128);
  EXPECT_EQ(s->row_grp, 0x0F);
  EXPECT_EQ(s->col_grp, 0x0F);
}

/// Every field value of a real MATMUL word as §9.5 decodes it.
void expect_mm_fields(const Instruction& inst, const MmWord& r) {
  const S3d3MmCayman* s = inst.as<S3d3MmCayman>();
  ASSERT_NE(s, nullptr) << "PE#" << r.index;
  EXPECT_EQ(inst.format_name(), "S3D3_MM");
  EXPECT_EQ(s->events.wait_mode, 0);
  EXPECT_EQ(s->events.update_mode, 0x13);  // SEM_INC_COMPLETE
  EXPECT_EQ(s->events.update_idx, 5);
  EXPECT_EQ(s->src.start_addr.raw, r.src);
  EXPECT_EQ(s->src.step_elem, (std::array<int16_t, 3>{1, 0, 0}));
  EXPECT_EQ(s->src.num_elem, (std::array<uint16_t, 3>{r.n, 1, 1}));
  EXPECT_EQ(s->in_dtype, dtype::kFp16);
  EXPECT_EQ(s->transpose_mode, r.transpose);
  EXPECT_EQ(s->num_active_rows, 128);
  EXPECT_EQ(s->num_active_cols, 128);
  EXPECT_EQ(s->out_dtype, 0);
  EXPECT_EQ(s->psum_accumulate_flags, r.flags);
  EXPECT_EQ(s->row_grp, 0x0F);
  EXPECT_EQ(s->col_grp, 0x0F);
  EXPECT_EQ(s->active_row_mode, 0);
  EXPECT_EQ(s->psum_zero_region, 0);
  EXPECT_EQ(s->dst.start_addr.raw, r.dst);
  EXPECT_EQ(s->dst.num_elem, (std::array<uint16_t, 3>{r.n, 1, 1}));
}

TEST(Matmul, SpecRealWordsDecodeAsTabulatedAndValidateOnCayman) {
  for (const LwWord& r : kLw) {
    const Word w = from_hex(std::string(r.hex) + std::string(kZero16));
    const Instruction inst = decode(w, Generation::Cayman);
    expect_lw_fields(inst, r);
    const Verdict v = validate(inst, Generation::Cayman, on_pe());
    EXPECT_TRUE(v.valid) << "PE#" << r.index << " fails " << failing(v);
    EXPECT_EQ(v.validator->name, "is_valid_ldweights");
  }
  for (const MmWord& r : kMm) {
    const Instruction inst = decode(from_hex(r.hex), Generation::Cayman);
    expect_mm_fields(inst, r);
    const Verdict v = validate(inst, Generation::Cayman, on_pe());
    EXPECT_TRUE(v.valid) << "PE#" << r.index << " fails " << failing(v);
    EXPECT_EQ(v.validator->name, "is_valid_matmul");
  }
}

// One mutation per MATMUL predicate of the CAYMAN validator, on the real word PE#09: exactly that one fails.
TEST(Matmul, RealWordMutationsFailExactlyOnePredicate) {
  const Word base = from_hex(kMm[2].hex);
  struct Case {
    std::string_view predicate;
    void (*mutate)(Word&);
  };
  const Case cases[] = {
      {"d3_mm_reserved_zero", [](Word& w) { w[36] = 1; }},
      {"has_valid_mm_in_dtype", [](Word& w) { w[32] = dtype::kUint8; }},
      {"has_valid_mm_out_dtype", [](Word& w) { w[40] = dtype::kFp32; }},  // FP32 output is MARIANA+
      {"s3d3_mm_valid_fp32_mode", [](Word& w) { w[33] = 2; }},
      {"d3_mm_valid_transpose_mode", [](Word& w) { w[34] = 3; }},
      {"d3_mm_valid_accumulate_flags", [](Word& w) { w[43] = 5; }},
      {"d3_mm_valid_zero_region", [](Word& w) { w[47] = 2; }},
      {"d3_mm_valid_row_group", [](Word& w) { w[44] = 0x03; }},  // 64 rows < 128
      {"d3_mm_valid_col_group_active_col", [](Word& w) { w[45] = 0x06; }},
      {"d3_mm_valid_dst", [](Word& w) { store_le<uint16_t>(&w[48], 0x0780); }},  // 0x780 + 64 * 4 leaves bank 0
      {"d3_mm_num_elements", [](Word& w) { store_le<uint16_t>(&w[58], 63); }},
      {"d3_mm_perf_opt_dtype", [](Word& w) { w[35] = 1; }},
  };
  for (const Case& c : cases) {
    Word w = base;
    c.mutate(w);
    const Verdict v = validate(decode(w, Generation::Cayman), Generation::Cayman, on_pe());
    EXPECT_EQ(v.n_failed, 1U) << c.predicate << ": " << failing(v);
    EXPECT_TRUE(v.fails(c.predicate)) << c.predicate << ": " << failing(v);
  }
  // The same word on the wrong engine fails only the placement rule (PROJ-CONV-F1).
  ValidateOptions on_sp;
  on_sp.engine = StreamEngine::Sp;
  const Verdict v = validate(decode(base, Generation::Cayman), Generation::Cayman, on_sp);
  EXPECT_EQ(failing(v), "engine_placement");
}

// MARIANA's flag bytes and MAVERICK's re-packed fields sit where §9.6 puts them.
TEST(Matmul, LayoutsPerGeneration) {
  Word w{};
  for (unsigned k = 0; k < kWordBytes; ++k) w[k] = static_cast<uint8_t>(0x80 + k);
  w[0] = opcode::kLdWeights;
  const Instruction i1 = decode(w, Generation::Mariana);  // kept alive while its operands are read
  const S3LwMariana* lwm = i1.as<S3LwMariana>();
  ASSERT_NE(lwm, nullptr);
  EXPECT_EQ(lwm->bg_xpose_mode, 0x80 + 12);
  EXPECT_EQ(lwm->flags, 0x80 + 47);
  EXPECT_EQ(lwm->num_active_rows, 0x80 + 38);
  const Instruction i2 = decode(w, Generation::Maverick);  // kept alive while its operands are read
  const S3LwMaverick* lwv = i2.as<S3LwMaverick>();
  ASSERT_NE(lwv, nullptr);
  EXPECT_EQ(lwv->num_active_rows, 0x80 + 34);
  EXPECT_EQ(lwv->num_active_cols, 0x80 + 35);
  EXPECT_EQ(lwv->flags, 0x80 + 38);
  EXPECT_EQ(lwv->perf_mode, 0x80 + 39);
  ASSERT_NE(decode(w, Generation::Sunda).as<S3LwCayman>(), nullptr);  // PROJ-CONV-F19
  w[0] = opcode::kMatmul;
  const Instruction i3 = decode(w, Generation::Mariana);  // kept alive while its operands are read
  const S3d3MmMariana* mmm = i3.as<S3d3MmMariana>();
  ASSERT_NE(mmm, nullptr);
  EXPECT_EQ(mmm->matmul_flags, 0x80 + 42);
  EXPECT_EQ(mmm->psum_accumulate_flags, 0x80 + 43);
  const Instruction i4 = decode(w, Generation::Maverick);  // kept alive while its operands are read
  const S3d3MmMaverick* mmv = i4.as<S3d3MmMaverick>();
  ASSERT_NE(mmv, nullptr);
  EXPECT_EQ(mmv->out_dtype, 0x80 + 34);
  EXPECT_EQ(mmv->num_active_rows, 0x80 + 35);
  EXPECT_EQ(mmv->flags, 0x80 + 39);
  EXPECT_EQ(mmv->perf_mode, 0x80 + 40);
  EXPECT_EQ(mmv->dst.start_addr.raw, load_le<uint32_t>(&w[48]));
  for (Generation g : kAllGenerations) EXPECT_EQ(encode(decode(w, g)), w) << to_string(g);
}

std::string meaning_of(const Instruction& inst, std::string_view field) {
  for (const DescribedField& f : describe_fields(inst))
    if (f.name == field) return f.meaning;
  ADD_FAILURE() << "no field " << field;
  return "";
}

TEST(Matmul, DecodeDescribesPartitionsBanksAndTheGroup) {
  const Instruction mm = decode(from_hex(kMm[0].hex), Generation::Cayman);  // PE#04: transpose into bank 1
  EXPECT_NE(meaning_of(mm, "src.start_addr").find("SBUF partitions 0..127, bytes 0x37b00..0x37bff"), std::string::npos)
      << meaning_of(mm, "src.start_addr");
  EXPECT_NE(meaning_of(mm, "dst.start_addr").find("PSUM partitions 0..127, bytes 0x800..0x8ff"), std::string::npos);
  EXPECT_NE(meaning_of(mm, "dst.start_addr").find("bank 1"), std::string::npos);
  EXPECT_NE(meaning_of(mm, "psum_accumulate_flags").find("SINGLE"), std::string::npos);
  EXPECT_NE(meaning_of(mm, "transpose_mode").find("PE transpose"), std::string::npos);
  const Instruction start = decode(from_hex(kMm[2].hex), Generation::Cayman);  // PE#09: MULTI_START, FP32
  EXPECT_NE(meaning_of(start, "psum_accumulate_flags").find("MULTI_START"), std::string::npos);
  EXPECT_NE(meaning_of(start, "dst.start_addr").find("bytes 0x0..0xff of each (64 elements of 4 bytes)"),
            std::string::npos)
      << meaning_of(start, "dst.start_addr");
  EXPECT_EQ(render_events(decode(from_hex(kMm[3].hex), Generation::Cayman).events(), Generation::Cayman),
            "$S[5]++@complete");
  const Instruction lw = decode(from_hex(std::string(kLw[0].hex) + std::string(kZero16)), Generation::Cayman);
  EXPECT_EQ(render_events(lw.events(), Generation::Cayman), "$S[8]>=16");
  // The backward walk from 0x37cfe covers 0x37c00..0x37cff.
  EXPECT_NE(meaning_of(lw, "src.start_addr").find("bytes 0x37c00..0x37cff"), std::string::npos)
      << meaning_of(lw, "src.start_addr");
  EXPECT_NE(meaning_of(lw, "row_grp").find("quadrants 0, 1, 2, 3"), std::string::npos);
}

TEST(Matmul, DisassemblyRoundTripsTheRealWords) {
  std::vector<Word> words;
  for (const LwWord& r : kLw) words.push_back(from_hex(std::string(r.hex) + std::string(kZero16)));
  for (const MmWord& r : kMm) words.push_back(from_hex(r.hex));
  for (const Word& w : words) {
    const std::string line = disassemble(decode(w, Generation::Cayman), Generation::Cayman);
    EXPECT_EQ(line.find(".raw"), std::string::npos) << line;
    EXPECT_EQ(line.find("INVALID"), std::string::npos) << line;
    const AsmResult r = assemble(line, "real.tasm", Generation::Cayman);
    ASSERT_TRUE(r.errors.empty()) << line;
    ASSERT_EQ(r.words.size(), 1U);
    EXPECT_EQ(r.words[0], w) << line;
  }
}

// ---- The NEFF itself (skipped when the shared data is absent) ----

namespace fs = std::filesystem;
using test::kNeff;

using test::quoted;

/// The PE streams of matmul_small.neff (a gzip tar after the 1024-byte header, neff.md), unpacked for the test.
class MatmulNeff : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kNeff)) GTEST_SKIP() << kNeff << " is absent (shared data not available)";
    std::string tmpl = (fs::temp_directory_path() / "tpbisa_matmul_neff_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    const std::string cmd = "tail -c +1025 " + quoted(kNeff.string()) + " | tar -xzf - -C " + quoted(dir_.string());
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    for (const auto& e : fs::recursive_directory_iterator(dir_))
      if (e.is_regular_file() && e.path().filename() == "PE.bin" &&
          e.path().parent_path().filename().string().starts_with("sg"))
        pe_[e.path().parent_path().filename().string()] = e.path();
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  fs::path dir_;
  std::map<std::string, fs::path> pe_;  // "sg00" -> sg00/PE.bin
};

TEST_F(MatmulNeff, EveryPeMatmulWordIsTheTabulatedOneAndValidOnCayman) {
  ASSERT_EQ(pe_.size(), 2U) << "expected the PE streams of sg00 and sg01";
  for (const auto& [sg, path] : pe_) {
    std::ifstream in(path, std::ios::binary);
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    ASSERT_EQ(bytes.size(), 12U * kWordBytes) << sg << "/PE holds 12 records";
    unsigned lw = 0, mm = 0;
    for (unsigned k = 0; k < 12; ++k) {
      SCOPED_TRACE(sg + "/PE#" + std::to_string(k));
      Word w{};
      std::copy_n(bytes.begin() + k * kWordBytes, kWordBytes, w.begin());
      if (w[0] != opcode::kLdWeights && w[0] != opcode::kMatmul) continue;
      const Instruction inst = decode(w, Generation::Cayman);
      EXPECT_EQ(inst.status, DecodeStatus::Modeled);
      const Verdict v = validate(inst, Generation::Cayman, on_pe());
      EXPECT_TRUE(v.valid) << failing(v);
      EXPECT_EQ(v.checked, Checked::Full);
      bool tabulated = false;
      for (const LwWord& r : kLw)
        if (r.index == k) {
          EXPECT_EQ(w, from_hex(std::string(r.hex) + std::string(kZero16)));
          expect_lw_fields(inst, r);
          tabulated = true;
          ++lw;
        }
      for (const MmWord& r : kMm)
        if (r.index == k) {
          EXPECT_EQ(w, from_hex(r.hex));
          expect_mm_fields(inst, r);
          tabulated = true;
          ++mm;
        }
      EXPECT_TRUE(tabulated) << "an LDWEIGHTS/MATMUL word the spec does not tabulate";
    }
    EXPECT_EQ(lw, 4U);
    EXPECT_EQ(mm, 4U);
  }
}

}  // namespace
}  // namespace tpbisa
