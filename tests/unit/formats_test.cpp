// Formats: offsets, tiling and the little-endian decode/encode of each declared field.
#include <gtest/gtest.h>

#include <string_view>
#include <utility>

#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa {
namespace {

TEST(Formats, Mem2dFieldsLandAtSpecOffsets) {
  Word w{};
  w[0] = 0xAA;
  w[1] = 16;
  w[12] = 0x09;
  w[14] = 4;
  w[15] = 1;
  store_le<uint64_t>(&w[16], 0x1000);
  store_le<int32_t>(&w[24], -1);
  w[32] = 7;
  const Mem2d m = read_format<Mem2d>(w);
  EXPECT_EQ(m.header.opcode, 0xAA);
  EXPECT_EQ(m.dtype, 0x09);
  EXPECT_EQ(m.num_elem[0], 4);
  EXPECT_EQ(m.start_addr.raw, 0x1000U);
  EXPECT_EQ(m.step_elem[0], -1);
  EXPECT_EQ(m.data.reg(0), 7);
  EXPECT_EQ(encode(m), w);
}

// field_ref resolves paths through nested formats and element indexes at compile time; the byte ranges are the
// spec's (mem2d.md §2, s2bn.md §2, s4d4-tsm.md §2), written here once as the independent expectation.
TEST(Formats, FieldRefResolvesPathsAtSpecOffsets) {
  constexpr FieldRef dtype = field_ref<Mem2d>("dtype");
  static_assert(dtype.offset == 12 && dtype.size == 1);
  EXPECT_EQ(dtype.name, "dtype");
  constexpr FieldRef start = field_ref<S2Bn>("src_mem_pattern.start_addr");
  static_assert(start.offset == 16 && start.size == 4);
  constexpr FieldRef w3 = field_ref<S4d4Tsm>("src_mem_pattern.num_elem[3]");
  static_assert(w3.offset == 30 && w3.size == 2);
  constexpr FieldRef dst_counts = field_ref<S4d4Tsm>("dst_mem_pattern.num_elem");
  static_assert(dst_counts.offset == 56 && dst_counts.size == 8);
  constexpr FieldRef opcode = field_ref<RawWord>("header.opcode");
  static_assert(opcode.offset == 0 && opcode.size == 1);
  constexpr FieldRef update = field_ref<Mem2d>("events.update_mode");
  static_assert(update.offset == 6 && update.size == 1);
}

TEST(Formats, FindFieldRefReportsMissingPaths) {
  EXPECT_EQ(find_field_ref(format_desc<Mem2d>(), "start_addr").offset, 16);
  EXPECT_EQ(find_field_ref(format_desc<Mem2d>(), "start_addr").size, 8);
  for (std::string_view bad : {"nope", "dtype.x", "num_elem[2]", "num_elem[", "header", "header.opcode.x", ""})
    EXPECT_EQ(find_field_ref(format_desc<Mem2d>(), bad).size, bad == "header" ? 4 : 0) << bad;
}

TEST(Formats, ReservedFieldsComeFromTheDeclaration) {
  constexpr auto reserved = field_refs_with_role<S2Bn, Role::Reserved>();
  static_assert(reserved.size() == 4);
  const std::pair<unsigned, unsigned> want[] = {{12, 4}, {33, 1}, {35, 9}, {49, 15}};  // s2bn.md §2
  for (size_t k = 0; k < reserved.size(); ++k) {
    EXPECT_EQ(reserved[k].offset, want[k].first);
    EXPECT_EQ(reserved[k].size, want[k].second);
  }
}

}  // namespace
}  // namespace tpbisa
