// `--expect`: an output and a reference compared as numbers (NaN equals NaN, +0 equals -0), with the first differing
// indices, and the references that cannot be compared refused by name.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include "tpbisa/io/compare.hpp"

namespace tpbisa::io {
namespace {

npy::Array header(std::string descr, char kind, unsigned item_size, std::vector<uint64_t> shape) {
  npy::Array a;
  a.descr = std::move(descr);
  a.kind = kind;
  a.item_size = item_size;
  a.shape = std::move(shape);
  a.count = 1;
  for (uint64_t d : a.shape) a.count *= d;
  a.data_bytes = a.count * item_size;
  return a;
}

template <class T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<uint8_t> out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

// fp16 bits: 1.0 = 0x3C00, 2.0 = 0x4000, -0.0 = 0x8000, NaN = 0x7E00, 3.0 = 0x4200.
const neff::Tensor kOut{"out", "float16", {2, 3}};
const std::vector<uint8_t> kGot = bytes_of<uint16_t>({0x3C00, 0x4000, 0x8000, 0x7E00, 0x4200, 0x0000});

TEST(IoCompare, AReferenceInTheOutputsOwnFormIsReadAsTheOutputIs) {
  const std::vector<uint8_t> ref = bytes_of<uint16_t>({0x3C00, 0x4200, 0x0000, 0x7E00, 0x4200, 0x3C00});
  const auto c = compare_output(kOut, kGot, header("<f2", 'f', 2, {2, 3}), ref);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->name, "out");
  EXPECT_EQ(c->elements, 6U);
  EXPECT_EQ(c->differing, 2U);  // 2 vs 3 at [0, 1], 0 vs 1 at [1, 2]; -0 == +0 and NaN == NaN
  EXPECT_EQ(c->max_abs_diff, 1.0);
  EXPECT_EQ(c->first, (std::vector<std::string>{"[0, 1]", "[1, 2]"}));
}

TEST(IoCompare, AnyOtherReferenceIsReadByItsOwnDtype) {
  const std::vector<uint8_t> ref = bytes_of<double>({1.0, 2.5, 0.0, std::nan(""), 3.0, -4.0});
  const auto c = compare_output(kOut, kGot, header("<f8", 'f', 8, {2, 3}), ref);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->differing, 2U);
  EXPECT_EQ(c->max_abs_diff, 4.0);
  const auto ints = compare_output(kOut, kGot, header("<i4", 'i', 4, {2, 3}), bytes_of<int32_t>({1, 2, 0, 0, 3, 0}));
  ASSERT_TRUE(ints.ok());
  EXPECT_EQ(ints->differing, 1U);  // only the NaN differs from an integer
  EXPECT_EQ(ints->first, std::vector<std::string>{"[1, 0]"});
}

TEST(IoCompare, AtMostFiveFirstIndices) {
  const neff::Tensor t{"y", "int8", {8}};
  const auto c = compare_output(t, bytes_of<int8_t>({0, 0, 0, 0, 0, 0, 0, 0}), header("|i1", 'i', 1, {8}),
                                bytes_of<int8_t>({1, 1, 1, 1, 1, 1, -1, 0}));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->differing, 7U);
  EXPECT_EQ(c->first.size(), 5U);
}

TEST(IoCompare, RefusesWhatCannotBeCompared) {
  const std::vector<uint8_t> ref(48);
  const auto shape = compare_output(kOut, kGot, header("<f2", 'f', 2, {3, 2}), ref);
  ASSERT_FALSE(shape.ok());
  EXPECT_EQ(shape.error().message, "--expect out: the reference has shape <f2 (3, 2), the output float16 (2, 3)");
  const auto complex = compare_output(kOut, kGot, header("<c8", 'c', 8, {2, 3}), ref);
  ASSERT_FALSE(complex.ok());
  EXPECT_EQ(complex.error().message, "--expect out: a complex reference (<c8) cannot be compared");
  const auto short_output = compare_output(kOut, std::span(kGot).first(10), header("<f2", 'f', 2, {2, 3}), ref);
  ASSERT_FALSE(short_output.ok());
  EXPECT_EQ(short_output.error().message,
            "--expect out: the program holds 10 bytes for this output, not the 12 its signature needs");
}

}  // namespace
}  // namespace tpbisa::io
