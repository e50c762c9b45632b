// The one location grammar: both spellings parse to the same place, one spelling prints, every bound is checked.
#include <gtest/gtest.h>

#include <string>

#include "../support/test_util.hpp"
#include "tpbisa/address.hpp"
#include "tpbisa/location.hpp"
#include "tpbisa/state.hpp"

namespace tpbisa {
namespace {

using test::kMariana;

Location parsed(const std::string& text, Generation g = kMariana) {
  const auto loc = parse_location(text, g);
  EXPECT_TRUE(loc.ok()) << text << ": " << (loc.ok() ? "" : loc.error().message);
  return loc.ok() ? *loc : Location{};
}

std::string error_of(const std::string& text, Generation g = kMariana) {
  const auto loc = parse_location(text, g);
  EXPECT_FALSE(loc.ok()) << text;
  return loc.ok() ? "" : loc.error().message;
}

TEST(IoLocation, BothSpellingsNameTheSameByte) {
  for (Generation g : kAllGenerations) {
    const Location a = parsed("sbuf:2:0x100", g), b = parsed("sbuf[p2]+0x100", g), c = parsed("SBUF[P2]+256", g);
    EXPECT_EQ(a.address, *sbuf_address(g, 2, 0x100));
    EXPECT_EQ(b.address, a.address);
    EXPECT_EQ(c.address, a.address);
    EXPECT_EQ(b.kind, Location::Kind::Sbuf);
    EXPECT_EQ(b.partition, 2U);
    EXPECT_EQ(b.offset, 0x100U);
    EXPECT_EQ(parsed("sbuf[p3]", g).address, *sbuf_address(g, 3, 0));
  }
  // PSUM: bank B, byte OFF inside it; or OFF inside the partition.
  const uint32_t bank = geometry(kMariana).psum_bank_size;
  EXPECT_EQ(parsed("psum[p1].bank2+0x10").address, *psum_address(kMariana, 1, 2 * bank + 0x10));
  EXPECT_EQ(parsed("psum:1:0x1010").address, *psum_address(kMariana, 1, 0x1010));
  EXPECT_EQ(parsed("psum[p1]+0x1010").address, parsed("psum:1:0x1010").address);
  EXPECT_EQ(parsed("dev:0x10000000").address, 0x10000000U);
  EXPECT_EQ(parsed("dev:0x10000000").kind, Location::Kind::Dev);
}

TEST(IoLocation, PrintsTheSpellingDecodeAndDisasmUse) {
  EXPECT_EQ(to_string(parsed("sbuf:2:0x100"), kMariana), "sbuf[p2]+0x100");
  EXPECT_EQ(to_string(parsed("psum:0:0x810"), kMariana), "psum[p0].bank1+0x10");
  EXPECT_EQ(to_string(parsed("dev:4096"), kMariana), "dev:0x1000");
  // The printed form reads back to the same place, on every generation.
  for (Generation g : kAllGenerations)
    for (const char* text : {"sbuf:0:0", "sbuf:127:0x1fff", "dev:0xffffffffffffffff", "psum:5:0x3ff0"}) {
      const auto loc = parse_location(text, g);
      if (!loc.ok()) continue;  // MAVERICK has no PSUM
      const Location again = parsed(to_string(*loc, g), g);
      EXPECT_EQ(again.address, loc->address) << text;
      EXPECT_EQ(again.kind, loc->kind) << text;
    }
}

TEST(IoLocation, RefusesWhatIsNotThere) {
  EXPECT_EQ(error_of("sbuf[p200]+0"), "partition 200 is outside SBUF (partitions 0..127)");
  EXPECT_EQ(error_of("sbuf:2:0x40000"), "offset 0x40000 is outside SBUF partition 2's 0x40000 backed bytes on mariana");
  EXPECT_EQ(error_of("psum[p0].bank9+0"), "bank 9 is outside PSUM (banks 0..7)");
  EXPECT_EQ(error_of("psum:0:0", Generation::Maverick), "maverick has no PSUM");
  EXPECT_EQ(error_of("heap:1"),
            "'heap:1' is not a location (sbuf[pP]+OFF, psum[pP].bankB+OFF, dev:ADDR (or sbuf:P:OFF, psum:P:OFF))");
  EXPECT_NE(error_of("sbuf[2]+0").find("is not a location"), std::string::npos);
  EXPECT_NE(error_of("sbuf[p2]+").find("is not a location"), std::string::npos);
  EXPECT_NE(error_of("sbuf[p2]-4").find("is not a location"), std::string::npos);
  EXPECT_EQ(error_of("dev:99999999999999999999"),
            "address '99999999999999999999' is not a decimal or 0x hex number below 2^64");
  // Bytes that cannot be shown are escaped in the message.
  EXPECT_EQ(error_of(std::string("dev:\x01", 5)), "address '\\x01' is not a decimal or 0x hex number below 2^64");
}

TEST(IoLocation, ExtentsStayInsideWhatIsBacked) {
  EXPECT_TRUE(check_extent(parsed("sbuf:2:0x3fffc"), kMariana, 4).ok());
  const auto past = check_extent(parsed("sbuf:2:0x3fffc"), kMariana, 8);
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.error().message,
            "8 bytes at sbuf[p2]+0x3fffc run past SBUF partition 2's 0x40000 backed bytes on mariana");
  EXPECT_FALSE(check_extent(parsed("dev:0xfffffffffffffffc"), kMariana, 8).ok());
  EXPECT_TRUE(check_extent(parsed("dev:0x10000000"), kMariana, 1 << 20).ok());
  EXPECT_FALSE(check_extent(parsed("dev:0x3fffc"), kMariana, 8).ok());  // low region, across partitions
}

TEST(IoLocation, NumbersSayWhetherTheyAreTooBig) {
  uint64_t v = 0;
  bool too_big = false;
  EXPECT_TRUE(parse_u64_text("0xffffffffffffffff", v, &too_big));
  EXPECT_EQ(v, UINT64_MAX);
  EXPECT_FALSE(parse_u64_text("18446744073709551616", v, &too_big));
  EXPECT_TRUE(too_big);
  EXPECT_FALSE(parse_u64_text("12x", v, &too_big));
  EXPECT_FALSE(too_big);
  EXPECT_FALSE(parse_u64_text("", v, &too_big));
  EXPECT_FALSE(parse_u64_text("0x", v, &too_big));
}

}  // namespace
}  // namespace tpbisa
