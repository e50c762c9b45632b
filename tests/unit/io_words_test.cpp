// The one input layer: hex arguments with several words, .tasm sources, files; errors name input, index, offset.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "tpbisa/io/words.hpp"

namespace tpbisa::io {
namespace {

const std::string kW1 =
    "aa100000040b131600000000090002020001080000000000010000000200000001020304" + std::string(56, '0');
const std::string kW2 = "ab10" + std::string(124, '0');

std::vector<Word> all(WordSource& src, bool expect_ok = true) {
  std::vector<Word> out;
  Word w{};
  for (;;) {
    const auto n = src.next(w);
    if (n == WordSource::Next::Word) {
      out.push_back(w);
      continue;
    }
    EXPECT_EQ(n == WordSource::Next::End, expect_ok) << (n == WordSource::Next::Failed ? src.error().message : "");
    return out;
  }
}

TEST(IoWords, HexArgumentsHoldOneOrMoreWords) {
  const auto one_each = open_hex({kW1, kW2});
  const auto both_in_one = open_hex({kW1 + " " + kW2});
  const auto prefixed = open_hex({"0x" + kW1.substr(0, 64) + "_" + kW1.substr(64) + ",0x" + kW2});
  const std::vector<Word> a = all(*one_each), b = all(*both_in_one), c = all(*prefixed);
  ASSERT_EQ(a.size(), 2U);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a, c);
  EXPECT_EQ(a[0][0], 0xaa);
  EXPECT_EQ(a[1][0], 0xab);
  EXPECT_EQ(one_each->index(), 2U);
}

TEST(IoWords, HexErrorsNameTheArgumentTheWordAndTheOffset) {
  const auto short_second = open_hex({kW1, kW1 + kW2.substr(0, 5)});
  all(*short_second, false);
  EXPECT_EQ(short_second->error().message,
            "--hex #2 word 2: expected 128 hex digits, got 5 (instruction 2, offset 128)");
  EXPECT_EQ(short_second->error().kind, ErrorKind::Malformed);
  const auto bad_digit = open_hex({kW1.substr(0, 5) + "g" + kW1.substr(6)});
  all(*bad_digit, false);
  EXPECT_EQ(bad_digit->error().message, "--hex #1: 'g' at column 6 is not a hex digit (instruction 0, offset 0)");
  const auto empty = open_hex({""});
  all(*empty, false);
  EXPECT_EQ(empty->error().message, "--hex #1: expected 128 hex digits, got 0 (instruction 0, offset 0)");
}

TEST(IoWords, FilesAndSourcesGiveTheSameWords) {
  const std::string dir = ::testing::TempDir();
  const std::string bin = dir + "/io_words_test.bin", tasm = dir + "/io_words_test.tasm";
  {
    std::ofstream(tasm) << "TensorLoad dtype=u32 src_datasrc=REGISTER num_elem={2,2} start_addr=sbuf[p2]+0x100 "
                           "step_elem={1,2} data={r1,r2,r3,r4} $S[11]>0 $S[22]++@complete\n; a comment\n";
    const auto src = open_hex({kW1});
    const std::vector<Word> words = all(*src);
    std::ofstream(bin, std::ios::binary).write(reinterpret_cast<const char*>(words[0].data()), kWordBytes);
  }
  const auto from_bin = open_input(bin), from_tasm = open_input(tasm);
  EXPECT_EQ(all(*from_bin), all(*from_tasm));
  EXPECT_EQ(input_kind(tasm, {}), InputKind::Tasm);
  EXPECT_EQ(input_kind(bin, {}), InputKind::Words);

  std::ofstream(tasm) << "TensorLoad dtype=u9\n";
  const auto broken = open_input(tasm);
  all(*broken, false);
  EXPECT_EQ(broken->error().message, tasm + ": 1 error in the assembly source");
  ASSERT_EQ(broken->diagnostics().size(), 1U);
  EXPECT_EQ(broken->diagnostic_count(), 1U);
  EXPECT_EQ(broken->diagnostics()[0].column, 18U);

  std::ofstream(bin, std::ios::binary) << std::string(130, '\0');
  const auto partial = open_input(bin);
  EXPECT_EQ(all(*partial, false).size(), 2U);
  EXPECT_EQ(partial->error().message,
            bin + ": 2 trailing bytes at offset 128 do not form a 64-byte instruction (instruction 2)");
  const auto missing = open_input(dir + "/no-such-file.bin");
  all(*missing, false);
  EXPECT_EQ(missing->error().kind, ErrorKind::Open);
  std::remove(bin.c_str());
  std::remove(tasm.c_str());
}

// Words in memory are read in place and fail on a partial word exactly as a file of words does.
TEST(IoWords, BytesInMemoryReadAsAFile) {
  std::vector<uint8_t> bytes(2 * kWordBytes + 2, 0);
  bytes[0] = 0xaa;
  const auto src = open_bytes(bytes, "data");
  const std::vector<Word> words = all(*src, false);
  ASSERT_EQ(words.size(), 2U);
  EXPECT_EQ(words[0][0], 0xaa);
  EXPECT_EQ(src->error().kind, ErrorKind::Malformed);
  EXPECT_EQ(src->error().message,
            "data: 2 trailing bytes at offset 128 do not form a 64-byte instruction (instruction 2)");
  bytes.resize(kWordBytes);
  bytes[0] = 0xab;  // not copied: the source sees the caller's bytes as they are when it reads them
  const auto whole = open_bytes(bytes, "data");
  const std::vector<Word> one = all(*whole);
  ASSERT_EQ(one.size(), 1U);
  EXPECT_EQ(one[0][0], 0xab);
  EXPECT_EQ(whole->label(), "data");
  const auto empty = open_bytes({}, "none");
  EXPECT_TRUE(all(*empty).empty());
}

}  // namespace
}  // namespace tpbisa::io
