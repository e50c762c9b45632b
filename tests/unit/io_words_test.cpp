// The one input layer: hex arguments with several words, .tasm sources, files; errors name input, index, offset.
#include <gtest/gtest.h>

#include <algorithm>
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

/// Every block of `src` (at most `max` words each): its first index and its words, until End or Failed.
struct Blocks {
  std::vector<uint64_t> first;
  std::vector<size_t> sizes;
  std::vector<uint8_t> bytes;
  WordSource::Next last = WordSource::Next::End;
};
Blocks blocks(WordSource& src, size_t max) {
  Blocks b;
  std::span<const uint8_t> block;
  while ((b.last = src.next_block(block, max)) == WordSource::Next::Word) {
    EXPECT_EQ(block.size() % kWordBytes, 0U);
    b.first.push_back(src.index());
    b.sizes.push_back(block.size() / kWordBytes);
    b.bytes.insert(b.bytes.end(), block.begin(), block.end());
  }
  return b;
}

// Blocks of a file, of bytes in memory and of --hex words are the words next() hands out, with the same error at
// the same instruction; a file and bytes in memory give whole blocks in place, --hex one word at a time.
TEST(IoWords, BlocksAreTheWordsNextHandsOut) {
  std::vector<uint8_t> bytes(10 * kWordBytes + 3);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7 + i / kWordBytes);
  const std::string bin = ::testing::TempDir() + "/io_words_blocks_test.bin";
  std::ofstream(bin, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  const std::string trailing = "3 trailing bytes at offset 640 do not form a 64-byte instruction (instruction 10)";
  const std::vector<uint8_t> whole(bytes.begin(), bytes.begin() + 10 * kWordBytes);

  for (const auto& src : {open_input(bin), open_bytes(bytes, bin)}) {
    const Blocks b = blocks(*src, 4);
    EXPECT_EQ(b.first, (std::vector<uint64_t>{0, 4, 8}));
    EXPECT_EQ(b.sizes, (std::vector<size_t>{4, 4, 2}));
    EXPECT_EQ(b.bytes, whole);
    EXPECT_EQ(b.last, WordSource::Next::Failed);
    EXPECT_EQ(src->index(), 10U);
    EXPECT_EQ(src->error().message, bin + ": " + trailing);
  }
  // In place: the block of bytes in memory is the caller's buffer, not a copy.
  const auto mem = open_bytes(bytes, "data");
  std::span<const uint8_t> block;
  ASSERT_EQ(mem->next_block(block, 100), WordSource::Next::Word);
  EXPECT_EQ(block.data(), bytes.data());
  EXPECT_EQ(block.size(), 10 * kWordBytes);
  // next() and next_block() continue where the other stopped.
  const auto mixed = open_input(bin);
  Word w{};
  ASSERT_EQ(mixed->next(w), WordSource::Next::Word);
  ASSERT_EQ(mixed->next_block(block, 3), WordSource::Next::Word);
  EXPECT_EQ(mixed->index(), 1U);
  EXPECT_TRUE(std::equal(block.begin(), block.end(), bytes.begin() + kWordBytes));
  ASSERT_EQ(mixed->next(w), WordSource::Next::Word);
  EXPECT_EQ(mixed->index(), 4U);
  EXPECT_TRUE(std::equal(w.begin(), w.end(), bytes.begin() + 4 * kWordBytes));
  // A maximum of 0 still makes progress (one word).
  ASSERT_EQ(mixed->next_block(block, 0), WordSource::Next::Word);
  EXPECT_EQ(block.size(), kWordBytes);

  const auto hex = open_hex({kW1 + kW2, kW1});
  const Blocks h = blocks(*hex, 4096);
  EXPECT_EQ(h.sizes, (std::vector<size_t>{1, 1, 1}));
  EXPECT_EQ(h.first, (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(h.last, WordSource::Next::End);
  EXPECT_EQ(h.bytes[0], 0xaa);
  EXPECT_EQ(h.bytes[kWordBytes], 0xab);
  std::remove(bin.c_str());
}

}  // namespace
}  // namespace tpbisa::io
