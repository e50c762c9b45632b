// Hex input: parse_hex_word takes exactly 128 digits, tolerates separators and "0x" groups, and says what is wrong.
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "../support/test_util.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa {
namespace {

/// The 64-byte word 00 01 02 ... 3f.
Word counting_word() {
  Word w{};
  for (size_t i = 0; i < kWordBytes; ++i) w[i] = static_cast<uint8_t>(i);
  return w;
}

TEST(HexWord, Exactly128DigitsAreAccepted) {
  const std::string text = test::to_hex(counting_word());
  ASSERT_EQ(text.size(), 128U);
  Word out{};
  HexError err;
  ASSERT_TRUE(parse_hex_word(text, out, err)) << err.what;
  EXPECT_EQ(out, counting_word());  // the first two digits are byte 0
}

TEST(HexWord, UpperAndMixedCaseDigits) {
  Word w{};
  for (size_t i = 0; i < kWordBytes; ++i) w[i] = static_cast<uint8_t>(0xA0 + (i % 16) * 0x11 % 256);
  std::string text = test::to_hex(w);
  for (size_t i = 0; i < text.size(); i += 3)
    text[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
  Word out{};
  HexError err;
  ASSERT_TRUE(parse_hex_word(text, out, err)) << err.what;
  EXPECT_EQ(out, w);
}

TEST(HexWord, WhitespaceUnderscoresAnd0xGroupsAreTolerated) {
  const Word want = counting_word();
  const std::string plain = test::to_hex(want);
  // Groups of 8 digits separated by spaces, tabs and newlines.
  std::string spaced;
  for (size_t i = 0; i < plain.size(); i += 8) {
    if (i != 0) spaced += (i % 32 == 0) ? "\n" : (i % 16 == 0 ? "\t" : " ");
    spaced += plain.substr(i, 8);
  }
  // Groups of 4 digits joined by underscores.
  std::string underscored;
  for (size_t i = 0; i < plain.size(); i += 4) {
    if (i != 0) underscored += '_';
    underscored += plain.substr(i, 4);
  }
  // Eight "0x"-prefixed groups of 16 digits (lower and upper X).
  std::string prefixed;
  for (size_t i = 0; i < plain.size(); i += 16) {
    prefixed += i == 0 ? "0x" : (i % 32 == 0 ? " 0x" : " 0X");
    prefixed += plain.substr(i, 16);
  }
  for (const std::string& text : {spaced, underscored, prefixed, "  " + plain + "\n", "0x" + plain}) {
    SCOPED_TRACE(text);
    Word out{};
    HexError err;
    ASSERT_TRUE(parse_hex_word(text, out, err)) << err.what << " at " << err.position;
    EXPECT_EQ(out, want);
  }
}

TEST(HexWord, Fewer127DigitsRejectedWithCount) {
  const std::string text = test::to_hex(counting_word()).substr(0, 127);
  Word out{};
  HexError err;
  EXPECT_FALSE(parse_hex_word(text, out, err));
  EXPECT_EQ(err.digits, 127U);
  EXPECT_FALSE(err.what.empty());
  EXPECT_NE(err.what.find("128"), std::string_view::npos) << err.what;
  EXPECT_EQ(err.position, text.size());
}

TEST(HexWord, More129DigitsRejectedWithCountAndPosition) {
  const std::string text = test::to_hex(counting_word()) + "7";
  Word out{};
  HexError err;
  EXPECT_FALSE(parse_hex_word(text, out, err));
  EXPECT_EQ(err.digits, 128U) << "digits accepted before the extra one";
  EXPECT_EQ(err.position, 128U) << "the 129th digit";
  EXPECT_FALSE(err.what.empty());
  EXPECT_NE(err.what.find("128"), std::string_view::npos) << err.what;
  // Separators do not count as digits: 129 digits in groups are still too many.
  const std::string grouped = "0x" + test::to_hex(counting_word()) + " 0x7";
  EXPECT_FALSE(parse_hex_word(grouped, out, err));
  EXPECT_EQ(err.digits, 128U);
  EXPECT_EQ(err.position, grouped.size() - 1);
}

TEST(HexWord, NonHexCharacterRejectedWithPosition) {
  std::string text = test::to_hex(counting_word());
  text[10] = 'g';
  Word out{};
  HexError err;
  EXPECT_FALSE(parse_hex_word(text, out, err));
  EXPECT_EQ(err.position, 10U);
  EXPECT_EQ(err.digits, 10U);
  EXPECT_FALSE(err.what.empty());
  EXPECT_EQ(err.what.find("fewer"), std::string_view::npos) << "a bad character is not a short word: " << err.what;

  // The position counts characters of the text, separators included.
  const std::string grouped = "0011 2233 zz";
  EXPECT_FALSE(parse_hex_word(grouped, out, err));
  EXPECT_EQ(err.position, 10U);
  EXPECT_EQ(err.digits, 8U);

  for (const char bad : {'-', '.', ':', 'x', 'G', '#'}) {
    std::string t = test::to_hex(counting_word());
    t[63] = bad;
    EXPECT_FALSE(parse_hex_word(t, out, err)) << bad;
    EXPECT_EQ(err.position, 63U) << bad;
  }
}

TEST(HexWord, EmptyAndPrefixOnlyRejected) {
  Word out{};
  HexError err;
  EXPECT_FALSE(parse_hex_word("", out, err));
  EXPECT_EQ(err.digits, 0U);
  EXPECT_FALSE(parse_hex_word("0x", out, err));
  EXPECT_EQ(err.digits, 0U);
  EXPECT_FALSE(parse_hex_word("  \n", out, err));
  EXPECT_EQ(err.digits, 0U);
}

TEST(HexWord, ParsedWordDecodes) {
  std::string text = test::to_hex(counting_word());
  text[0] = 'a';
  text[1] = 'a';  // opcode 0xaa: TensorLoad
  Word out{};
  HexError err;
  ASSERT_TRUE(parse_hex_word(text, out, err));
  const Instruction inst = decode(out, Generation::Cayman);
  EXPECT_EQ(inst.name(), "TensorLoad");
  EXPECT_EQ(test::to_hex(encode(inst)), text);
}

}  // namespace
}  // namespace tpbisa
