// Datapath family (COPY/CAST, TENSOR_TENSOR_ARITH_OP, MEMSET): the spec's real and synthetic words, the real
// program's COPY words, and the family's spec decisions (real-programs.md §10-§12, docs/conventions.md).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../../support/test_util.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

namespace fs = std::filesystem;

using test::dec;

// real-programs.md §10.4 (Activation#03, #04 of matmul_small, sg00 = sg01) and the synthetic words.
constexpr std::string_view kAct03 =
    "46100000050513040200000000080002 01000100010001008000010001000100 08088000000000000000000000400000 "
    "01000100010001008000010001000100";
constexpr std::string_view kAct04 =
    "46100000050513040400000000000002 01000100010001004000010001000100 0a0a8000000000000000000000420000 "
    "01000100010001004000010001000100";
constexpr std::string_view kCast105 =
    "47100000000000000000000000420000 01000100010001004000010001000100 0a078000000000000000000000440000 "
    "01000100010001004000010001000100";
constexpr std::string_view kTt114 =
    "411000000000000000000000aa0a0480 00100000010000000000400001000100 00200000010000000000400001000100 "
    "00000002010000000000400001000100";
constexpr std::string_view kMemset124 =
    "49100000000000000000000000000000 00000000000000000000000040000000 0a008000000000000000803f00460000 "
    "01000100010001004000010001000100";

void expect_copy_fields(const S4d4Tr& t, uint8_t wait_value, uint32_t src, uint16_t n, uint8_t dtype_code,
                        uint32_t dst) {
  EXPECT_EQ(t.events.wait_mode, 0x05);  // SEM_GE_IMM
  EXPECT_EQ(t.events.wait_idx, 5);
  EXPECT_EQ(t.events.update_mode, 0x13);  // SEM_INC_COMPLETE
  EXPECT_EQ(t.events.update_idx, 4);
  EXPECT_EQ(t.events.semaphore_value, wait_value);
  EXPECT_EQ(t.src.start_addr.raw, src);
  EXPECT_EQ(t.src.step_elem, (std::array<int16_t, 4>{1, 1, 1, 1}));
  EXPECT_EQ(t.src.num_elem, (std::array<uint16_t, 4>{n, 1, 1, 1}));
  EXPECT_EQ(t.in_dtype, dtype_code);
  EXPECT_EQ(t.out_dtype, dtype_code);
  EXPECT_EQ(t.num_active_channels, 128);
  EXPECT_EQ(t.negated, 0);
  EXPECT_EQ(t.op, 0);
  EXPECT_EQ(t.op_dim, 0);
  EXPECT_EQ(t.mask_enable, 0);
  EXPECT_EQ(t.dst.start_addr.raw, dst);
  EXPECT_EQ(t.dst.num_elem, (std::array<uint16_t, 4>{n, 1, 1, 1}));
}

TEST(Datapath, RealCopyWordsDecodeToTheTabulatedFieldsAndValidateOnCayman) {
  const Instruction a3 = dec(test::hex_word_of(kAct03), Generation::Cayman);
  ASSERT_EQ(a3.status, DecodeStatus::Modeled);
  // PSUM p0+0x800 (bank 1), INT32 x 128 -> SB p0+0x4000.
  expect_copy_fields(std::get<S4d4Tr>(a3.body), 2, 0x2000800, 128, dtype::kInt32, 0x4000);
  const Instruction a4 = dec(test::hex_word_of(kAct04), Generation::Cayman);
  expect_copy_fields(std::get<S4d4Tr>(a4.body), 4, 0x2000000, 64, dtype::kFp32, 0x4200);
  for (const Instruction* i : {&a3, &a4}) {
    const Verdict v = validate(*i, Generation::Cayman);
    EXPECT_TRUE(v.valid);
    EXPECT_EQ(v.checked, Checked::Full);
    EXPECT_EQ(v.validator->name, "is_valid_copy");
  }
}

TEST(Datapath, SyntheticWordsPassWhereTheirAddressesExist) {
  // The synthetic TENSOR_TENSOR writes PSUM p0, which is SBUF partition 32 on MAVERICK (no PSUM there).
  for (Generation g : {Generation::Sunda, Generation::Cayman, Generation::Mariana}) {
    for (std::string_view hex : {kCast105, kTt114, kMemset124}) {
      const Verdict v = validate(dec(test::hex_word_of(hex), g), g);
      EXPECT_TRUE(v.valid) << hex << " on " << to_string(g);
      EXPECT_EQ(v.checked, Checked::Full);
    }
  }
  EXPECT_FALSE(validate(dec(test::hex_word_of(kTt114), Generation::Maverick)).valid);
  EXPECT_TRUE(validate(dec(test::hex_word_of(kCast105), Generation::Maverick)).valid);
  EXPECT_TRUE(validate(dec(test::hex_word_of(kMemset124), Generation::Maverick)).valid);
}

TEST(Datapath, TensorTensorOperandsAreInHeaderOrder) {  // PROJ-CONV-F20
  const Instruction inst = dec(test::hex_word_of(kTt114), Generation::Cayman);
  const S3s3d3Tt& t = std::get<S3s3d3Tt>(inst.body);
  EXPECT_EQ(t.src0.start_addr.raw, 0x1000U);
  EXPECT_EQ(t.src1.start_addr.raw, 0x2000U);
  EXPECT_EQ(t.dst.start_addr.raw, 0x2000000U);  // PSUM p0: the destination, written in FP32
  EXPECT_EQ(datapath::pair_lo(t.in0_in1_dtype), dtype::kFp32);
  EXPECT_EQ(datapath::pair_hi(t.in0_in1_dtype), dtype::kFp32);
  EXPECT_EQ(t.op, aluop::kAdd);
}

TEST(Datapath, MemsetSerialIsZeroAndTheFillValueIsDescribedInItsDtype) {  // PROJ-CONV-F22
  Word w = test::hex_word_of(kMemset124);
  const Instruction i = dec(w, Generation::Cayman);
  bool seen = false;
  for (const DescribedField& f : describe_fields(i)) {
    if (f.name == "set_value") {
      EXPECT_EQ(f.meaning, "each element set to fp32 1");
      seen = true;
    }
    if (f.name == "serialization_mode") {
      EXPECT_NE(f.meaning.find("Serial"), std::string::npos);
    }
  }
  EXPECT_TRUE(seen);
  w[36] = 1;
  EXPECT_TRUE(validate(dec(w, Generation::Cayman)).fails("d4_mr_zero_serialization"));
}

TEST(Datapath, IndirectMemPatternArmIsJudgedByTheIndirectRuleOnMarianaOnly) {
  // CAST with src marker 0x20 (INDIRECT_IMM): index SB p0+0x4200, data word = step_elem[0..1] = 0x00010001.
  Word w = test::hex_word_of(kCast105);
  w[15] = 0x20;
  // SUNDA/CAYMAN: a TENSOR4D; the masked bits are SB p0+0x4200, so the word stays valid.
  EXPECT_TRUE(validate(dec(w, Generation::Cayman)).valid);
  // MARIANA: the `i` arm; data 0x00010001 is SB p0+0x10001, same quadrant-base partition 0 as the index.
  EXPECT_TRUE(validate(dec(w, Generation::Mariana)).valid);
  // Data moved to partition 1: the indirect rule fails (PROJ-CONV-C17), only on MARIANA+.
  store_le<int16_t>(&w[18], 0x0004);  // data = 0x00040001: SBUF partition 1
  const Verdict m = validate(dec(w, Generation::Mariana));
  EXPECT_TRUE(m.fails("tensor4d_valid"));
  ASSERT_EQ(m.failures().size(), 1U);
  EXPECT_EQ(report(*m.failures()[0], dec(w, Generation::Mariana), {Generation::Mariana, {}}).convention,
            "PROJ-CONV-C17");
  EXPECT_TRUE(validate(dec(w, Generation::Cayman)).valid);
}

TEST(Datapath, IntegerOpsNeedOneSignednessTheOpAllows) {
  Word w = test::hex_word_of(kTt114);
  w[14] = 0xC4;  // ADD_INT: in both the signed and the unsigned sets
  w[12] = 0x88;  // INT32 / INT32
  w[13] = dtype::kInt32;
  store_le<uint32_t>(&w[48], 0x3000);  // SBUF dst: the int32 write is not to PSUM
  EXPECT_TRUE(validate(dec(w, Generation::Cayman)).valid);
  w[13] = dtype::kUint32;  // mixed signedness
  EXPECT_TRUE(validate(dec(w, Generation::Cayman)).fails("s3s3d3_tt_valid_int_signness"));
  w[12] = 0x99;  // all unsigned
  EXPECT_TRUE(validate(dec(w, Generation::Cayman)).valid);
}

// ---- matmul_small.neff: every COPY word of the Activation streams is one of the tabulated words ----

using test::kNeff;

TEST(Datapath, NeffCopyWordsAreTheTabulatedWords) {
  if (!fs::exists(kNeff)) GTEST_SKIP() << kNeff << " is absent (shared data not available)";
  const fs::path dir = fs::current_path() / ("datapath_test_scratch_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string cmd =
      "tail -c +1025 '" + kNeff.string() + "' | tar -xzf - -C '" + dir.string() + "'";  // 1024-byte header
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::vector<Word> copies;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().filename() != "Activation.bin") continue;
    std::ifstream in(e.path(), std::ios::binary);
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    for (size_t off = 0; off + kWordBytes <= bytes.size(); off += kWordBytes) {
      if (bytes[off] != opcode::kCopy) continue;
      Word w{};
      std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(off), kWordBytes, w.begin());
      copies.push_back(w);
    }
  }
  fs::remove_all(dir);
  ASSERT_EQ(copies.size(), 4U);  // two per subgraph
  for (const Word& w : copies) {
    EXPECT_TRUE(w == test::hex_word_of(kAct03) || w == test::hex_word_of(kAct04));
    const Instruction i = dec(w, Generation::Cayman);
    EXPECT_EQ(encode(i), w);
    const Verdict v = validate(i, Generation::Cayman);
    EXPECT_TRUE(v.valid);
    EXPECT_EQ(v.checked, Checked::Full);
  }
}

}  // namespace
}  // namespace tpbisa
