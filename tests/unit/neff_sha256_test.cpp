// The pkg-1 payload hash: the SHA-extension path against the FIPS 180-4 examples and against libmd's path at every
// length around the padding's block boundaries.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "neff/internal.hpp"

namespace {

using tpbisa::neff::detail::sha256;

std::string hex(const std::vector<uint8_t>& d) {
  static const char* kDigits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : d) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

std::vector<uint8_t> bytes(const std::string& s) {
  return {s.begin(), s.end()};
}

TEST(NeffSha256, FipsExamples) {
  for (const bool fast : {true, false}) {
    EXPECT_EQ(hex(sha256(bytes(""), fast)), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(hex(sha256(bytes("abc"), fast)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(hex(sha256(bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"), fast)),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(hex(sha256(std::vector<uint8_t>(1000000, 'a'), fast)),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  }
}

TEST(NeffSha256, SameAsLibmdAtEveryLength) {
  std::mt19937 rng(7);
  std::vector<uint8_t> data(4096 + 200);
  for (uint8_t& b : data) b = static_cast<uint8_t>(rng());
  for (size_t n = 0; n <= 200; ++n) {
    const std::span<const uint8_t> part(data.data(), n);
    ASSERT_EQ(sha256(part, true), sha256(part, false)) << n;
  }
  for (size_t n = 4000; n <= data.size(); ++n) {
    const std::span<const uint8_t> part(data.data() + 3, n - 3);  // unaligned
    ASSERT_EQ(sha256(part, true), sha256(part, false)) << n;
  }
}

}  // namespace
