// Catalog: opcode, dtype, ALU-op and mode tables checked against enums.md, generation by generation.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "../support/test_util.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/generation.hpp"

namespace tpbisa {
namespace {

using test::bytes;
using NameSet = std::set<std::string_view>;

using test::kCa;
using test::kMa;
using test::kMv;
using test::kSu;

std::set<unsigned> opcodes_of(Generation g) {
  std::set<unsigned> s;
  for (const auto& r : kOpcodes)
    if (r.gens.has(g)) s.insert(r.value);
  return s;
}

std::set<unsigned> minus(const std::set<unsigned>& a, const std::set<unsigned>& b) {
  std::set<unsigned> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
  return out;
}

std::string camel_of(std::string_view enum_name) {
  std::string out;
  bool word_start = true;
  for (char c : enum_name) {
    if (c == '_') {
      word_start = true;
      continue;
    }
    const auto uc = static_cast<unsigned char>(c);
    out.push_back(static_cast<char>(word_start ? std::toupper(uc) : std::tolower(uc)));
    word_start = false;
  }
  return out;
}

/// Name and convention of a small-enum value, "<absent>" when the table lacks it (a failure, not a crash).
template <size_t N>
std::string_view name_of(const std::array<EnumValue, N>& table, uint8_t v) {
  const EnumValue* r = find_enum(table, v);
  return r != nullptr ? r->name : std::string_view("<absent>");
}
template <size_t N>
std::string_view convention_of(const std::array<EnumValue, N>& table, uint8_t v) {
  const EnumValue* r = find_enum(table, v);
  return r != nullptr ? r->convention : std::string_view("<absent>");
}

/// The dtype row of a code; a zero row (and a test failure) when the catalog lacks it.
const DtypeInfo& dt(uint8_t code) {
  const DtypeInfo* r = find_dtype(code);
  EXPECT_NE(r, nullptr) << "dtype " << unsigned{code} << " missing from the catalog";
  static const DtypeInfo kNone{0, "", "", 0, DtypeKind::Sentinel, GenSet{0}, "", ""};
  return r != nullptr ? *r : kNone;
}

const OpcodeInfo& op(uint8_t v) {
  const OpcodeInfo* r = find_opcode(v);
  EXPECT_NE(r, nullptr) << "opcode " << unsigned{v} << " missing from the catalog";
  static const OpcodeInfo kNone{0, "", "", Affinity::None, Maint::None, GenSet{0}, Format::NotModeled, ""};
  return r != nullptr ? *r : kNone;
}

// ---------------------------------------------------------------- opcodes

TEST(CatalogOpcodes, PerGenerationCountsAndUnion) {
  EXPECT_EQ(kOpcodes.size(), 172U);
  EXPECT_EQ(opcodes_of(kSu).size(), 145U);
  EXPECT_EQ(opcodes_of(kCa).size(), 150U);
  EXPECT_EQ(opcodes_of(kMa).size(), 159U);
  EXPECT_EQ(opcodes_of(kMv).size(), 165U);
  std::set<unsigned> all;
  for (const auto& r : kOpcodes) {
    all.insert(r.value);
    EXPECT_NE(r.gens.bits, 0U) << r.enum_name << " is present in no generation";
    EXPECT_EQ(r.gens.bits & ~0x0FU, 0U) << r.enum_name;
  }
  EXPECT_EQ(all.size(), 172U) << "duplicate opcode values";
  std::set<std::string_view> names;
  for (const auto& r : kOpcodes) names.insert(r.enum_name);
  EXPECT_EQ(names.size(), 172U) << "duplicate opcode names";
}

TEST(CatalogOpcodes, RetiredAtCaymanExactlyAsSpec) {
  EXPECT_EQ(minus(opcodes_of(kSu), opcodes_of(kCa)), bytes({0x87, 0x88, 0x8A, 0x8B, 0x8C, 0x8D, 0x8F}));
  // Only removals ever happened at SUNDA -> CAYMAN.
  EXPECT_TRUE(minus(opcodes_of(kCa), opcodes_of(kMa)).empty());
  EXPECT_TRUE(minus(opcodes_of(kMa), opcodes_of(kMv)).empty());
  for (uint8_t v : std::initializer_list<uint8_t>{0x87, 0x88, 0x8A, 0x8B, 0x8C, 0x8D, 0x8F}) {
    SCOPED_TRACE(v);
    EXPECT_EQ(op(v).gens, kGensSundaOnly);
    EXPECT_TRUE(opcode_in(v, kSu));
    EXPECT_FALSE(opcode_in(v, kCa));
    EXPECT_FALSE(opcode_in(v, kMa));
    EXPECT_FALSE(opcode_in(v, kMv));
  }
}

TEST(CatalogOpcodes, AdditionsPerGenerationExactlyAsSpec) {
  const auto added_ca = minus(opcodes_of(kCa), opcodes_of(kSu));
  EXPECT_EQ(added_ca, bytes({0x06, 0x07, 0x81, 0xD7, 0xE4, 0xE9, 0xF1, 0xF2}, {{0xBC, 0xBF}}));
  EXPECT_EQ(added_ca.size(), 12U);
  const auto added_ma = minus(opcodes_of(kMa), opcodes_of(kCa));
  EXPECT_EQ(added_ma, bytes({0x25, 0xB4}, {{0x08, 0x0A}, {0xE0, 0xE3}}));
  EXPECT_EQ(added_ma.size(), 9U);
  const auto added_mv = minus(opcodes_of(kMv), opcodes_of(kMa));
  EXPECT_EQ(added_mv, bytes({0x26, 0xB6, 0xB9, 0xBA, 0xF3, 0xF4}));
  EXPECT_EQ(added_mv.size(), 6U);
  // 145 - 7 + 12 = 150, + 9 = 159, + 6 = 165.
  EXPECT_EQ(opcodes_of(kSu).size() - 7 + added_ca.size(), opcodes_of(kCa).size());
}

TEST(CatalogOpcodes, UnassignedValuesAreExactlyTheComplement) {
  const auto unassigned = bytes({0x00, 0x50, 0x75, 0x80, 0x89, 0x97, 0xB7, 0xC0}, {{0x0B, 0x20},
                                                                                   {0x27, 0x2F},
                                                                                   {0x31, 0x40},
                                                                                   {0x55, 0x57},
                                                                                   {0x59, 0x5D},
                                                                                   {0x90, 0x91},
                                                                                   {0xAC, 0xAF},
                                                                                   {0xEB, 0xEF},
                                                                                   {0xF5, 0xFE}});
  EXPECT_EQ(unassigned.size(), 256U - 172U);
  for (unsigned v = 0; v < 256; ++v) {
    const bool listed = unassigned.count(v) != 0;
    EXPECT_EQ(find_opcode(static_cast<uint8_t>(v)) == nullptr, listed) << "value 0x" << std::hex << v;
    if (listed) {
      for (Generation g : kAllGenerations) EXPECT_FALSE(opcode_in(static_cast<uint8_t>(v), g));
    }
  }
  // 0x81 is unassigned on SUNDA only.
  EXPECT_FALSE(opcode_in(0x81, kSu));
  EXPECT_TRUE(opcode_in(0x81, kCa) && opcode_in(0x81, kMa) && opcode_in(0x81, kMv));
  EXPECT_EQ(op(0x81).enum_name, "JPEG_DECODE");
}

TEST(CatalogOpcodes, PseudoBandIs31RuntimeOpcodes) {
  unsigned band = 0;
  for (unsigned v = 0; v < 256; ++v) {
    const bool in_band = (v & 0xE0U) == 0xC0U && v != 0xC0U;
    const OpcodeInfo* r = find_opcode(static_cast<uint8_t>(v));
    if (in_band) {
      ++band;
      ASSERT_NE(r, nullptr) << "pseudo opcode 0x" << std::hex << v << " missing";
      EXPECT_EQ(r->affinity, Affinity::Rt) << r->enum_name;
      EXPECT_EQ(r->maint, Maint::None) << r->enum_name;
      EXPECT_TRUE(r->enum_name.starts_with("PSEUDO_")) << r->enum_name;
      EXPECT_TRUE(r->pseudo()) << r->enum_name;
      EXPECT_TRUE(is_pseudo(r->value)) << r->enum_name;
    } else if (r != nullptr) {
      EXPECT_FALSE(r->pseudo()) << r->enum_name << " is marked pseudo outside the band";
      EXPECT_FALSE(is_pseudo(r->value)) << r->enum_name;
      EXPECT_NE(r->affinity, Affinity::Rt) << r->enum_name << " is Rt outside the pseudo band";
    }
  }
  EXPECT_EQ(band, 31U);
  // 0xD7 PSEUDO_JPEG_DECODE arrived with CAYMAN; every other pseudo opcode is in all generations.
  EXPECT_EQ(op(0xD7).gens, kGensCaymanUp);
  EXPECT_EQ(op(0xCC).gens, kGensAll);
}

TEST(CatalogOpcodes, MnemonicIsCamelCaseOfEnumName) {
  for (const auto& r : kOpcodes) EXPECT_EQ(r.mnemonic, camel_of(r.enum_name)) << "0x" << std::hex << unsigned{r.value};
  EXPECT_EQ(op(0xAA).enum_name, "TENSOR_LOAD");
  EXPECT_EQ(op(0xAA).mnemonic, "TensorLoad");
  EXPECT_EQ(op(0x70).mnemonic, "TensorScalarImmLdArith");
  EXPECT_EQ(op(0x71).mnemonic, "TensorScalarImmLdBitvec");
  EXPECT_EQ(op(0xCE).mnemonic, "PseudoTensorLoad");
  EXPECT_EQ(op(0xCD).mnemonic, "PseudoTensorStore");
  EXPECT_EQ(op(0x4F).mnemonic, "TensorScalarPtrMultiArith");
  EXPECT_EQ(op(0x87).mnemonic, "TensorScalarPtrMultiDualArith");
  EXPECT_EQ(op(0x64).mnemonic, "BatchNormParamLoad");
  EXPECT_EQ(op(0x6D).mnemonic, "MatchValueLoad");
  EXPECT_EQ(op(0x6E).mnemonic, "FindIndex8");
  EXPECT_EQ(op(0xFF).mnemonic, "Invalid");
}

TEST(CatalogOpcodes, MaintenanceFlagsOfSampleRows) {
  EXPECT_EQ(op(0xAA).maint, Maint::Yes);
  EXPECT_EQ(op(0xAB).maint, Maint::Yes);
  EXPECT_EQ(op(0x70).maint, Maint::No);
  EXPECT_EQ(op(0x71).maint, Maint::No);
  EXPECT_EQ(op(0x64).maint, Maint::No);
  EXPECT_EQ(op(0x6D).maint, Maint::Yes);
  EXPECT_EQ(op(0x4F).maint, Maint::No);
  EXPECT_EQ(op(0x5F).maint, Maint::No);
  EXPECT_EQ(op(0x87).maint, Maint::No);
  EXPECT_EQ(op(0x8A).maint, Maint::Yes);
  EXPECT_EQ(op(0x81).maint, Maint::No);
  EXPECT_EQ(op(0x04).maint, Maint::No);
  EXPECT_EQ(op(0x30).maint, Maint::None);  // '.' in the roster
  EXPECT_EQ(op(0xCC).maint, Maint::None);
  EXPECT_EQ(op(0xCE).maint, Maint::None);
  EXPECT_EQ(op(0xFF).maint, Maint::None);
  EXPECT_EQ(to_string(Maint::Yes), "Y");
  EXPECT_EQ(to_string(Maint::No), "n");
  EXPECT_EQ(to_string(Maint::None), "");
}

TEST(CatalogOpcodes, AffinityOfSampleRows) {
  const std::vector<std::pair<uint8_t, Affinity>> cases{
      {0x01, Affinity::Pe},      {0x0A, Affinity::Pe},      {0x21, Affinity::Act},     {0x26, Affinity::Act},
      {0x30, Affinity::Dve},     {0x41, Affinity::Pool},    {0x4F, Affinity::Dve},     {0x5F, Affinity::Dve},
      {0x64, Affinity::Dve},     {0x6D, Affinity::Dve},     {0x70, Affinity::Dve},     {0x71, Affinity::Dve},
      {0x87, Affinity::Dve},     {0x88, Affinity::Dve},     {0x8A, Affinity::Pool},    {0x7F, Affinity::PoolDve},
      {0x9B, Affinity::PoolDve}, {0xE9, Affinity::PoolDve}, {0xF3, Affinity::DvePool}, {0xF4, Affinity::DvePool},
      {0xAA, Affinity::Nx},      {0xAB, Affinity::Nx},      {0xA0, Affinity::Nx},      {0xB8, Affinity::NxDma},
      {0xBC, Affinity::NxDma},   {0xBE, Affinity::Pool},    {0xCC, Affinity::Rt},      {0xCE, Affinity::Rt},
      {0xE0, Affinity::Dve},     {0xF0, Affinity::Pool},    {0xFF, Affinity::None}};
  for (const auto& [v, e] : cases) EXPECT_EQ(op(v).affinity, e) << "0x" << std::hex << unsigned{v};
  EXPECT_EQ(to_string(Affinity::NxDma), "NX/DMA");
  EXPECT_EQ(to_string(Affinity::PoolDve), "POOL/DVE");
  EXPECT_EQ(to_string(Affinity::DvePool), "DVE/POOL");
  EXPECT_EQ(to_string(Affinity::Rt), "RT");
}

// The opcode -> format binding lives in one place, the catalog's format column; the registry checks it against
// the layouts at compile time. Here every modeled row names the struct of its format.
TEST(CatalogOpcodes, ModeledRowsNameTheirFormatsStruct) {
  unsigned modeled = 0;
  for (const auto& r : kOpcodes) {
    if (r.format == Format::NotModeled) continue;
    ++modeled;
    EXPECT_EQ(r.struct_name, to_string(r.format)) << r.enum_name;
  }
  EXPECT_GE(modeled, 12U);
  EXPECT_EQ(to_string(Format::NotModeled), "not-modeled");
}

TEST(CatalogOpcodes, InScopeOpcodesPresentWhereSpecSays) {
  for (uint8_t v : std::initializer_list<uint8_t>{0xAA, 0xAB, 0xCD, 0xCE, 0x70, 0x71, 0x64, 0x6D, 0x4F, 0x5F, 0xFF})
    EXPECT_EQ(op(v).gens, kGensAll) << "0x" << std::hex << unsigned{v};
  EXPECT_EQ(op(opcode::kInvalid).enum_name, "INVALID");
  EXPECT_EQ(op(opcode::kPtrMultiDualBitvec).enum_name, "TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC");
}

// ---------------------------------------------------------------- dtypes

TEST(CatalogDtypes, PerGenerationCounts) {
  EXPECT_EQ(kDtypes.size(), 30U);
  const unsigned want[4] = {16, 16, 24, 30};
  for (Generation g : kAllGenerations) {
    unsigned n = 0;
    for (const auto& d : kDtypes) n += d.gens.has(g) ? 1U : 0U;
    EXPECT_EQ(n, want[static_cast<unsigned>(g)]) << to_string(g);
  }
  // SUNDA/CAYMAN: exactly the codes 0x0..0xF.
  for (unsigned c = 0; c < 256; ++c) {
    EXPECT_EQ(dtype_in(static_cast<uint8_t>(c), kSu), c <= 0xF) << c;
    EXPECT_EQ(dtype_in(static_cast<uint8_t>(c), kCa), c <= 0xF) << c;
  }
  EXPECT_TRUE(dtype_in(dtype::kFp4Exp2, kMa));
  EXPECT_FALSE(dtype_in(dtype::kFp8Exp2, kMa));
  EXPECT_TRUE(dtype_in(dtype::kFp8Exp2, kMv));
  EXPECT_TRUE(dtype_in(0x1B, kMa));  // CPTC3
  for (Generation g : kAllGenerations) {
    EXPECT_FALSE(dtype_in(0x17, g));
    EXPECT_FALSE(dtype_in(0x18, g));
    EXPECT_FALSE(dtype_in(0x20, g));
  }
}

TEST(CatalogDtypes, SizesPerConvC14) {
  EXPECT_EQ(dtype_size(dtype::kUint64), 8U);
  EXPECT_EQ(dtype_size(dtype::kInt64), 8U);
  EXPECT_EQ(dtype_size(dtype::kInt8), 1U);
  EXPECT_EQ(dtype_size(dtype::kUint8), 1U);
  EXPECT_EQ(dtype_size(dtype::kInt16), 2U);
  EXPECT_EQ(dtype_size(dtype::kUint16), 2U);
  EXPECT_EQ(dtype_size(dtype::kBfloat16), 2U);
  EXPECT_EQ(dtype_size(dtype::kFp16), 2U);
  EXPECT_EQ(dtype_size(dtype::kInt32), 4U);
  EXPECT_EQ(dtype_size(dtype::kUint32), 4U);
  EXPECT_EQ(dtype_size(dtype::kFp32), 4U);
  EXPECT_EQ(dtype_size(dtype::kFp32r), 4U);
  EXPECT_EQ(dtype_size(dtype::kFp8Exp3), 1U);
  EXPECT_EQ(dtype_size(dtype::kFp8Exp4), 1U);
  EXPECT_EQ(dtype_size(dtype::kFp8Exp5), 1U);
  // Post-CAYMAN codes (PROJ-CONV-C14): FP8_EXP2 and SFP8_* are 1 byte.
  EXPECT_EQ(dtype_size(dtype::kFp8Exp2), 1U);
  for (uint8_t c : {dtype::kSfp8E8, dtype::kSfp8E7, dtype::kSfp8E6, dtype::kSfp8E5}) {
    EXPECT_EQ(dtype_size(c), 1U) << unsigned{c};
    EXPECT_FALSE(dtype_is_sub_byte(c));
  }
  // Sub-byte codes count as 1-byte aligned for addressing and have no element address.
  EXPECT_EQ(dt(dtype::kFp4Exp2).bits, 4U);
  EXPECT_EQ(dtype_size(dtype::kFp4Exp2), 1U);
  EXPECT_TRUE(dtype_is_sub_byte(dtype::kFp4Exp2));
  EXPECT_EQ(dtype_size(dtype::kInt4), 1U);
  EXPECT_TRUE(dtype_is_sub_byte(dtype::kInt4));
  for (uint8_t c = 0x19; c <= 0x1F; ++c) {
    ASSERT_NE(find_dtype(c), nullptr);
    EXPECT_EQ(dt(c).bits, c & 7U) << "CPTC width = code & 7";
    EXPECT_EQ(dt(c).kind, DtypeKind::Coded);
    EXPECT_EQ(dtype_size(c), 1U);
    EXPECT_TRUE(dtype_is_sub_byte(c));
  }
  EXPECT_EQ(dt(0x1B).name, "CPTC3");
  EXPECT_EQ(dt(0x1B).bits, 3U);
  // No size: INVALID and the unassigned codes.
  EXPECT_EQ(dt(dtype::kInvalid).bits, 0U);
  EXPECT_EQ(dtype_size(dtype::kInvalid), 0U);
  EXPECT_FALSE(dtype_is_sub_byte(dtype::kInvalid));
  for (unsigned c : {0x17U, 0x18U, 0x20U, 0x7FU, 0xFFU}) {
    EXPECT_EQ(find_dtype(static_cast<uint8_t>(c)), nullptr) << c;
    EXPECT_EQ(dtype_size(static_cast<uint8_t>(c)), 0U) << c;
    EXPECT_FALSE(dtype_is_sub_byte(static_cast<uint8_t>(c))) << c;
  }
}

TEST(CatalogDtypes, ShortNames) {
  const std::vector<std::pair<std::string_view, uint8_t>> names{
      {"u8", dtype::kUint8},     {"i8", dtype::kInt8},   {"u16", dtype::kUint16},    {"i16", dtype::kInt16},
      {"u32", dtype::kUint32},   {"i32", dtype::kInt32}, {"u64", dtype::kUint64},    {"bf16", dtype::kBfloat16},
      {"fp16", dtype::kFp16},    {"fp32", dtype::kFp32}, {"fp8e3", dtype::kFp8Exp3}, {"fp8e4", dtype::kFp8Exp4},
      {"fp8e5", dtype::kFp8Exp5}};
  for (const auto& [name, code] : names) {
    ASSERT_NE(find_dtype(code), nullptr);
    EXPECT_EQ(dt(code).short_name, name);
    EXPECT_EQ(parse_dtype(name), std::optional<uint8_t>(code)) << name;
  }
  // FP8_EXPn: the suffix is the exponent width (FP8_EXP4 = e4m3).
  EXPECT_EQ(dt(dtype::kFp8Exp4).layout.substr(0, 5), "1-4-3");
  EXPECT_EQ(dt(dtype::kFp8Exp5).layout.substr(0, 5), "1-5-2");
}

TEST(CatalogDtypes, ParseDtypeIsCaseInsensitiveForNamesAndShortNames) {
  EXPECT_EQ(parse_dtype("UINT8"), std::optional<uint8_t>(dtype::kUint8));
  EXPECT_EQ(parse_dtype("uint8"), std::optional<uint8_t>(dtype::kUint8));
  EXPECT_EQ(parse_dtype("UInt32"), std::optional<uint8_t>(dtype::kUint32));
  EXPECT_EQ(parse_dtype("bfloat16"), std::optional<uint8_t>(dtype::kBfloat16));
  EXPECT_EQ(parse_dtype("fp8_exp4"), std::optional<uint8_t>(dtype::kFp8Exp4));
  EXPECT_EQ(parse_dtype("FP32R"), std::optional<uint8_t>(dtype::kFp32r));
  EXPECT_EQ(parse_dtype("Sfp8_E8"), std::optional<uint8_t>(dtype::kSfp8E8));
  EXPECT_EQ(parse_dtype("CPTC7"), std::optional<uint8_t>(0x1F));
  EXPECT_EQ(parse_dtype("U8"), std::optional<uint8_t>(dtype::kUint8));
  EXPECT_EQ(parse_dtype("BF16"), std::optional<uint8_t>(dtype::kBfloat16));
  EXPECT_EQ(parse_dtype("Fp8E4"), std::optional<uint8_t>(dtype::kFp8Exp4));
  EXPECT_EQ(parse_dtype("I32"), std::optional<uint8_t>(dtype::kInt32));
  for (const auto& d : kDtypes) {
    EXPECT_EQ(parse_dtype(d.name), std::optional<uint8_t>(d.code)) << d.name;
    EXPECT_EQ(parse_dtype(d.short_name), std::optional<uint8_t>(d.code)) << d.short_name;
  }
  for (std::string_view junk : {"", "u7", "float", "fp8", "uint8 ", " u8", "int", "0x03", "fp32rr", "bf"})
    EXPECT_EQ(parse_dtype(junk), std::nullopt) << "'" << junk << "'";
}

// ---------------------------------------------------------------- ALU ops

NameSet alu_names(AluClass c, std::optional<Generation> g = std::nullopt) {
  NameSet s;
  for (const auto& r : kAluOps)
    if (r.is(c) && (!g || r.gens.has(*g))) s.insert(r.name);
  return s;
}

NameSet set_minus(const NameSet& a, const NameSet& b) {
  NameSet out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
  return out;
}

const NameSet kBitvecNames{"BYPASS",
                           "BITWISE_NOT",
                           "ARITH_SHIFT_LEFT",
                           "ARITH_SHIFT_RIGHT",
                           "LOGICAL_SHIFT_LEFT",
                           "LOGICAL_SHIFT_RIGHT",
                           "BITWISE_AND",
                           "BITWISE_OR",
                           "BITWISE_XOR",
                           "CRC32"};
const NameSet kArithCayman{"BYPASS",  "ADD",         "SUBTRACT",   "MULT",        "DIVIDE",        "MAX",
                           "MIN",     "LOGICAL_AND", "LOGICAL_OR", "LOGICAL_XOR", "IS_EQ",         "IS_GT",
                           "IS_GE",   "IS_LE",       "IS_LT",      "IS_NE",       "ABSOLUTE_DIFF", "ABSOLUTE_VALUE",
                           "POW",     "MOD",         "ADD_INT",    "MULT_INT",    "SUBTRACT_INT",  "DIVIDE_INT",
                           "MOD_INT", "RSQRT"};
const NameSet kInt{"ADD_INT",  "MULT_INT",   "SUBTRACT_INT", "MOD",        "DIVIDE_INT",   "MOD_INT",     "DIVIDE_UINT",
                   "MOD_UINT", "MULT_UINT",  "IS_EQUAL_INT", "IS_NE_INT",  "ABS_DIFF_INT", "ABS_MAX_INT", "ABS_MIN_INT",
                   "MAX_INT",  "MIN_INT",    "IS_GT_INT",    "IS_GE_INT",  "IS_LE_INT",    "IS_LT_INT",   "MAX_UINT",
                   "MIN_UINT", "IS_GT_UINT", "IS_GE_UINT",   "IS_LE_UINT", "IS_LT_UINT"};
const NameSet kSigned{"ADD_INT",      "MULT_INT",  "SUBTRACT_INT", "DIVIDE_INT",  "MOD_INT",     "MOD",
                      "IS_EQUAL_INT", "IS_NE_INT", "ABS_DIFF_INT", "ABS_MAX_INT", "ABS_MIN_INT", "MAX_INT",
                      "MIN_INT",      "IS_GT_INT", "IS_GE_INT",    "IS_LE_INT",   "IS_LT_INT"};
const NameSet kUnsigned{"ADD_INT",     "MULT_INT",   "SUBTRACT_INT", "DIVIDE_INT",   "MOD_INT",   "MOD",
                        "DIVIDE_UINT", "MOD_UINT",   "MULT_UINT",    "IS_EQUAL_INT", "IS_NE_INT", "MAX_UINT",
                        "MIN_UINT",    "IS_GT_UINT", "IS_GE_UINT",   "IS_LE_UINT",   "IS_LT_UINT"};
const NameSet kIntDve5{"BYPASS",    "ADD_INT",     "MULT_INT",    "SUBTRACT_INT", "MAX_INT",
                       "MIN_INT",   "ABS_MAX_INT", "ABS_MIN_INT", "ABS_DIFF_INT", "IS_EQUAL_INT",
                       "IS_GT_INT", "IS_GE_INT",   "IS_LE_INT",   "IS_LT_INT",    "IS_NE_INT"};

TEST(CatalogAluOps, PerGenerationCounts) {
  EXPECT_EQ(kAluOps.size(), 65U);
  const unsigned want[4] = {33, 60, 64, 65};
  for (Generation g : kAllGenerations) {
    unsigned n = 0;
    for (const auto& r : kAluOps) n += r.gens.has(g) ? 1U : 0U;
    EXPECT_EQ(n, want[static_cast<unsigned>(g)]) << to_string(g);
  }
  // SUNDA: base 30 (0x00..0x1D) + ADD_INT, MULT_INT, SUBTRACT_INT.
  for (const auto& r : kAluOps) {
    const bool su = r.code <= 0x1D || r.code == 0xC4 || r.code == 0xC5 || r.code == 0xC6;
    EXPECT_EQ(r.gens.has(kSu), su) << r.name;
  }
  EXPECT_EQ(find_aluop(0x1E), nullptr);
  EXPECT_EQ(find_aluop(0x25), nullptr);
  EXPECT_EQ(find_aluop(0xC3), nullptr);
  EXPECT_EQ(find_aluop(0xE2), nullptr);
}

TEST(CatalogAluOps, BitvecClasses) {
  EXPECT_EQ(alu_names(kAluBitvec), kBitvecNames);
  EXPECT_EQ(alu_names(kAluBitvec).size(), 10U);
  // is_general_bitvec_op = is_bitvec_op minus CRC32.
  const NameSet general = set_minus(alu_names(kAluBitvec), {"CRC32"});
  EXPECT_EQ(general.size(), 9U);
  EXPECT_EQ(general.count("CRC32"), 0U);
  for (Generation g : kAllGenerations) EXPECT_EQ(alu_names(kAluBitvec, g), kBitvecNames) << to_string(g);
}

TEST(CatalogAluOps, ArithClassPerGeneration) {
  NameSet mariana = kArithCayman;
  mariana.insert({"ABS_MAX", "ABS_MIN", "RE_LU", "SQUARE"});
  NameSet maverick = mariana;
  maverick.insert("SYMMETRIC_CLAMP");
  EXPECT_EQ(alu_names(kAluArith, kCa), kArithCayman);
  EXPECT_EQ(alu_names(kAluArith, kCa).size(), 26U);
  EXPECT_EQ(alu_names(kAluArith, kMa), mariana);
  EXPECT_EQ(alu_names(kAluArith, kMa).size(), 30U);
  EXPECT_EQ(alu_names(kAluArith, kMv), maverick);
  EXPECT_EQ(alu_names(kAluArith, kMv).size(), 31U);
  // SUNDA's effective set lacks the absent DIVIDE_INT and MOD_INT.
  EXPECT_EQ(alu_names(kAluArith, kSu), set_minus(kArithCayman, {"DIVIDE_INT", "MOD_INT"}));
  // SYMMETRIC_CLAMP is arith only by PROJ-CONV-T11, and only on MAVERICK.
  EXPECT_FALSE(aluop_is(aluop::kSymmetricClamp, kAluArith, kMa));
  EXPECT_TRUE(aluop_is(aluop::kSymmetricClamp, kAluArith, kMv));
  EXPECT_EQ(alu_names(kAluByConventionT11), NameSet{"SYMMETRIC_CLAMP"});
}

// Edge case #176: is_general_arith_op has 17 / 17 / 21 / 22 members, computed per generation as the
// members flagged general-arith that the generation has.
TEST(CatalogAluOps, GeneralArithPerGenerationEdgeCase176) {
  const unsigned want[4] = {17, 17, 21, 22};
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(to_string(g));
    const NameSet ga = alu_names(kAluGeneralArith, g);
    EXPECT_EQ(ga.size(), want[static_cast<unsigned>(g)]);
    // The spec's derivation: is_arith_op minus {DIVIDE, POW, MOD, RSQRT} minus is_valid_int_aluop members.
    NameSet derived = set_minus(alu_names(kAluArith, g), {"DIVIDE", "POW", "MOD", "RSQRT"});
    derived = set_minus(derived, kInt);
    EXPECT_EQ(ga, derived);
  }
  EXPECT_NE(alu_names(kAluGeneralArith, kCa).size(), 16U);
  EXPECT_EQ(set_minus(alu_names(kAluGeneralArith, kMv), alu_names(kAluGeneralArith, kMa)), NameSet{"SYMMETRIC_CLAMP"});
  EXPECT_EQ(alu_names(kAluGeneralArith, kSu), alu_names(kAluGeneralArith, kCa));
}

TEST(CatalogAluOps, IntegerClasses) {
  EXPECT_EQ(alu_names(kAluInt), kInt);
  EXPECT_EQ(alu_names(kAluInt).size(), 26U);
  EXPECT_EQ(alu_names(kAluInt).count("ABS_VALUE_INT"), 0U);
  for (std::string_view amax : {"AMAX_INT", "AMIN_INT", "AMAX_UINT", "AMIN_UINT"})
    EXPECT_EQ(alu_names(kAluInt).count(amax), 0U) << amax;
  EXPECT_EQ(alu_names(kAluSigned), kSigned);
  EXPECT_EQ(alu_names(kAluSigned).size(), 17U);
  EXPECT_EQ(alu_names(kAluUnsigned), kUnsigned);
  EXPECT_EQ(alu_names(kAluUnsigned).size(), 17U);
  EXPECT_EQ(alu_names(kAluIntDve5), kIntDve5);
  EXPECT_EQ(alu_names(kAluIntDve5).size(), 15U);
  EXPECT_EQ(alu_names(kAluIntDve5, kMv).size(), 15U);
  // On SUNDA is_valid_int_aluop can only match its three present codes plus MOD.
  EXPECT_EQ(alu_names(kAluInt, kSu), (NameSet{"ADD_INT", "MULT_INT", "SUBTRACT_INT", "MOD"}));
  // Every class member of the int band is within 0xC4..0xE1 or MOD/BYPASS.
  for (const auto& r : kAluOps)
    if (r.is(kAluSigned) || r.is(kAluUnsigned)) {
      EXPECT_TRUE(r.is(kAluInt)) << r.name;
    }
}

TEST(CatalogAluOps, HelpersHonourGeneration) {
  EXPECT_FALSE(aluop_in(0xC7, kSu));  // DIVIDE_INT
  EXPECT_TRUE(aluop_in(0xC7, kCa));
  EXPECT_FALSE(aluop_is(0xC7, kAluInt, kSu));
  EXPECT_TRUE(aluop_is(0xC7, kAluInt, kCa));
  EXPECT_FALSE(aluop_is(aluop::kAbsMax, kAluGeneralArith, kCa));
  EXPECT_TRUE(aluop_is(aluop::kAbsMax, kAluGeneralArith, kMa));
  EXPECT_FALSE(aluop_is(0x77, kAluArith, kMv));
  EXPECT_TRUE(aluop_is(aluop::kCrc32, kAluBitvec, kSu));
}

// ---------------------------------------------------------------- wait / update modes

std::set<unsigned> modes_in(std::span<const EnumValue> table, Generation g) {
  std::set<unsigned> s;
  for (const auto& r : table)
    if (r.gens.has(g)) s.insert(r.value);
  return s;
}

TEST(CatalogModes, WaitModesPerGeneration) {
  const auto su_ma = bytes({0x00, 0x06, 0x07, 0x0E, 0x0F, 0xFE}, {{0x01, 0x05}, {0x81, 0x85}});
  EXPECT_EQ(modes_in(kWaitModes, kSu), su_ma);
  EXPECT_EQ(modes_in(kWaitModes, kCa), su_ma);
  EXPECT_EQ(modes_in(kWaitModes, kMa), su_ma);
  const auto mv = bytes({0x00, 0xFE}, {{0x01, 0x05}, {0x81, 0x85}, {0x91, 0x95}});
  EXPECT_EQ(modes_in(kWaitModes, kMv), mv);
  for (uint8_t v : std::initializer_list<uint8_t>{0x06, 0x07, 0x0E, 0x0F}) {
    EXPECT_FALSE(enum_in(kWaitModes, v, kMv)) << unsigned{v};
    EXPECT_TRUE(enum_in(kWaitModes, v, kMa)) << unsigned{v};
  }
  // PROJ-CONV-E3: 0x91..0x95 in the order of 0x01..0x05.
  for (uint8_t k = 1; k <= 5; ++k) {
    const EnumValue* imm = find_enum(kWaitModes, k);
    const EnumValue* off = find_enum(kWaitModes, static_cast<uint8_t>(0x90 + k));
    const EnumValue* reg = find_enum(kWaitModes, static_cast<uint8_t>(0x80 + k));
    ASSERT_TRUE(imm && off && reg);
    const std::string_view cmp = imm->name.substr(0, 6);  // SEM_EQ, SEM_LT, ...
    EXPECT_TRUE(off->name.starts_with(cmp)) << off->name;
    EXPECT_TRUE(off->name.ends_with("_REG_OFFSET")) << off->name;
    EXPECT_EQ(off->convention, "PROJ-CONV-E3");
    EXPECT_TRUE(reg->name.starts_with(cmp)) << reg->name;
    EXPECT_EQ(reg->gens, kGensAll);
  }
  EXPECT_EQ(name_of(kWaitModes, 0xFE), "UNORDERED");
}

TEST(CatalogModes, UpdateModesPerGeneration) {
  const auto su_ma =
      bytes({0x00, 0x07, 0x09, 0x17, 0x19, 0x85, 0x87, 0x89, 0x95, 0x97, 0x99}, {{0x01, 0x05}, {0x11, 0x15}});
  EXPECT_EQ(modes_in(kUpdateModes, kSu), su_ma);
  EXPECT_EQ(modes_in(kUpdateModes, kCa), su_ma);
  EXPECT_EQ(modes_in(kUpdateModes, kMa), su_ma);
  auto mv = su_ma;
  for (unsigned v : {0x01U, 0x02U, 0x11U, 0x12U}) mv.erase(v);
  EXPECT_EQ(modes_in(kUpdateModes, kMv), mv);
  // The _COMPLETE twins are read code + 0x10, on the same generations.
  for (const auto& r : kUpdateModes) {
    if (!r.name.ends_with("_READ")) continue;
    const EnumValue* twin = find_enum(kUpdateModes, static_cast<uint8_t>(r.value + 0x10));
    ASSERT_NE(twin, nullptr) << r.name;
    EXPECT_TRUE(twin->name.ends_with("_COMPLETE")) << twin->name;
    EXPECT_EQ(twin->name.substr(0, twin->name.size() - 9), r.name.substr(0, r.name.size() - 5));
    EXPECT_EQ(twin->gens, r.gens) << twin->name;
  }
  // PROJ-CONV-E4: 0x85, 0x89, 0x95 are members by convention; INC/DEC have no register forms.
  for (uint8_t v : std::initializer_list<uint8_t>{0x85, 0x89, 0x95})
    EXPECT_EQ(convention_of(kUpdateModes, v), "PROJ-CONV-E4") << unsigned{v};
  for (uint8_t v : std::initializer_list<uint8_t>{0x83, 0x84, 0x93, 0x94, 0x06, 0x08})
    for (Generation g : kAllGenerations) EXPECT_FALSE(enum_in(kUpdateModes, v, g)) << unsigned{v};
}

// Edge case #171: 0x87 is SEM_SUB_REG_READ on every generation, independent of the SUNDA-only opcode 0x87.
TEST(CatalogModes, UpdateMode0x87OnEveryGenerationEdgeCase171) {
  const EnumValue* m = find_enum(kUpdateModes, 0x87);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->name, "SEM_SUB_REG_READ");
  EXPECT_EQ(m->convention, "");
  for (Generation g : kAllGenerations) EXPECT_TRUE(enum_in(kUpdateModes, 0x87, g)) << to_string(g);
  EXPECT_FALSE(opcode_in(0x87, kCa));
  EXPECT_TRUE(enum_in(kUpdateModes, 0x87, kCa));
}

// Edge case #70: IMM_SRC and IMM_SRC_N number their members differently.
TEST(CatalogModes, ImmSrcVersusImmSrcNEdgeCase70) {
  // ACCUM_CMD (enums.md §11: IDLE 0, ZERO 1, ACCUMULATE 2, ZERO_ACCUMULATE 3, LOAD_ACCUMULATE 4).
  EXPECT_EQ(name_of(kAccumCmd, 0), "IDLE");
  EXPECT_EQ(name_of(kAccumCmd, 1), "ZERO");
  EXPECT_EQ(name_of(kAccumCmd, 2), "ACCUMULATE");
  EXPECT_EQ(name_of(kAccumCmd, 3), "ZERO_ACCUMULATE");
  EXPECT_EQ(name_of(kAccumCmd, 4), "LOAD_ACCUMULATE");
  EXPECT_EQ(find_enum(kAccumCmd, 5), nullptr);
  EXPECT_EQ(accum_cmd::kLoadAccumulate, 4);
  EXPECT_EQ(name_of(kImmSrc, 0), "INSTRUCTION_IMMEDIATE");
  EXPECT_EQ(name_of(kImmSrc, 1), "POINTER_IMMEDIATE");
  EXPECT_EQ(name_of(kImmSrc, 2), "REG_PTR_IMMEDIATE");
  EXPECT_EQ(name_of(kImmSrcN, 0), "Pointer");
  EXPECT_EQ(name_of(kImmSrcN, 1), "Instruction");
  EXPECT_EQ(name_of(kImmSrcN, 2), "RegPtr");
  EXPECT_EQ(find_enum(kImmSrc, 3), nullptr);
  EXPECT_EQ(find_enum(kImmSrcN, 3), nullptr);
  // Value 0 means "instruction" in one and "pointer" in the other.
  EXPECT_NE(name_of(kImmSrc, 0).substr(0, 4), std::string_view("POIN"));
  EXPECT_TRUE(name_of(kImmSrc, 1).starts_with("POINTER"));
  EXPECT_TRUE(name_of(kImmSrcN, 0).starts_with("Pointer"));
}

TEST(CatalogModes, OtherSmallEnums) {
  EXPECT_EQ(name_of(kDataSrc, 0), "REGISTER");
  EXPECT_EQ(name_of(kDataSrc, 1), "IMMEDIATE");
  EXPECT_EQ(find_enum(kTensorSubdim, 1), nullptr);  // value 1 is not assigned
  EXPECT_EQ(name_of(kTensorSubdim, 5), "XYZW");
  EXPECT_EQ(name_of(kRevOps, 3), "BOTH");
  EXPECT_EQ(kDebugCmdLevels.size(), 6U);
  EXPECT_EQ(name_of(kDebugCmdLevels, 9), "INS_FIELD");
}

// ---------------------------------------------------------------- the catalog against the spec text

/// The rows "| 0x.. | ... |" of enums.md between two headings, split into trimmed cells; empty when the spec
/// is not available (a user's clone has no shared folder).
std::vector<std::vector<std::string>> spec_rows(std::string_view from, std::string_view to) {
  std::ifstream in(std::string(TPBISA_SHARED_DATA_DIR) + "/../spec/enums.md");
  if (!in) return {};
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const size_t begin = text.find(from);
  const size_t end = text.find(to, begin == std::string::npos ? 0 : begin);
  if (begin == std::string::npos || end == std::string::npos) {
    ADD_FAILURE() << "enums.md has no section " << from;
    return {};
  }
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text.substr(begin, end - begin));
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("| 0x")) continue;
    std::vector<std::string> cells;
    std::istringstream cols(line.substr(1));
    for (std::string cell; std::getline(cols, cell, '|');) {
      const size_t a = cell.find_first_not_of(' ');
      const size_t b = cell.find_last_not_of(' ');
      cells.push_back(a == std::string::npos ? std::string() : cell.substr(a, b - a + 1));
    }
    rows.push_back(std::move(cells));
  }
  return rows;
}

unsigned parse_hex_cell(const std::string& cell) {
  return static_cast<unsigned>(std::stoul(cell, nullptr, 16));
}

/// Presence glyphs of four generation columns as a GenSet: anything but "–" is present.
GenSet gens_of(const std::vector<std::string>& cells, size_t first, std::string_view absent) {
  uint8_t bits = 0;
  for (size_t i = 0; i < 4; ++i)
    if (cells[first + i] != absent) bits = static_cast<uint8_t>(bits | (1U << i));
  return GenSet{bits};
}

TEST(CatalogAgainstSpec, OpcodeRosterRowByRow) {
  const auto rows = spec_rows("### 1.2 Full roster", "## 2. ");
  if (rows.empty()) GTEST_SKIP() << "spec not available";
  EXPECT_EQ(rows.size(), 172U);
  const std::map<std::string, Affinity> engines{{"PE", Affinity::Pe},
                                                {"ACT", Affinity::Act},
                                                {"DVE", Affinity::Dve},
                                                {"POOL", Affinity::Pool},
                                                {"NX", Affinity::Nx},
                                                {"NX/DMA", Affinity::NxDma},
                                                {"POOL/DVE", Affinity::PoolDve},
                                                {"DVE/POOL", Affinity::DvePool},
                                                {"RT", Affinity::Rt},
                                                {"—", Affinity::None}};
  for (const auto& c : rows) {
    ASSERT_GE(c.size(), 7U);
    SCOPED_TRACE(c[0] + " " + c[1]);
    const OpcodeInfo* r = find_opcode(static_cast<uint8_t>(parse_hex_cell(c[0])));
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->enum_name, c[1]);
    ASSERT_EQ(engines.count(c[2]), 1U) << c[2];
    EXPECT_EQ(r->affinity, engines.at(c[2]));
    EXPECT_EQ(r->gens, gens_of(c, 3, "–"));
    for (size_t i = 3; i < 7; ++i) {
      if (c[i] == "–") continue;
      const Maint want = c[i] == "Y" ? Maint::Yes : c[i] == "n" ? Maint::No : Maint::None;
      EXPECT_EQ(r->maint, want) << "glyph " << c[i];
    }
  }
}

TEST(CatalogAgainstSpec, DtypeTableRowByRow) {
  const auto rows = spec_rows("## 4. `NEURON_ISA_TPB_DTYPE`", "### 4.1");
  if (rows.empty()) GTEST_SKIP() << "spec not available";
  EXPECT_EQ(rows.size(), kDtypes.size());
  for (const auto& c : rows) {
    ASSERT_GE(c.size(), 10U);
    SCOPED_TRACE(c[0] + " " + c[1]);
    const uint8_t code = static_cast<uint8_t>(parse_hex_cell(c[0]));
    EXPECT_EQ(dt(code).name, c[1]);
    // Bytes column: "—" no size, "½" a nibble, "N bit(s)", or a byte count.
    const unsigned bits = c[2] == "—"                             ? 0U
                          : c[2] == "½"                           ? 4U
                          : c[2].find("bit") != std::string::npos ? static_cast<unsigned>(std::stoul(c[2]))
                                                                  : 8U * static_cast<unsigned>(std::stoul(c[2]));
    EXPECT_EQ(dt(code).bits, bits) << c[2];
    EXPECT_EQ(dt(code).gens, gens_of(c, 6, "–"));
  }
}

TEST(CatalogAgainstSpec, AluOpTableRowByRow) {
  const auto rows = spec_rows("## 5. `NEURON_ISA_TPB_ALU_OP`", "### 5.1");
  if (rows.empty()) GTEST_SKIP() << "spec not available";
  EXPECT_EQ(rows.size(), kAluOps.size());
  for (const auto& c : rows) {
    ASSERT_GE(c.size(), 12U);
    SCOPED_TRACE(c[0] + " " + c[1]);
    const AluOpInfo* r = find_aluop(static_cast<uint8_t>(parse_hex_cell(c[0])));
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->name, c[1]);
    EXPECT_EQ(r->gens, gens_of(c, 2, "–"));
    EXPECT_EQ(r->is(kAluBitvec), c[6] == "✓");
    EXPECT_EQ(r->is(kAluArith), c[7].starts_with("✓"));  // "✓*" = by PROJ-CONV-T11
    EXPECT_EQ(r->is(kAluGeneralArith), c[8].starts_with("✓"));
    EXPECT_EQ(r->is(kAluByConventionT11), c[7] == "✓\\*" || c[7] == "✓*");
    EXPECT_EQ(r->is(kAluInt), c[9] == "✓");
    EXPECT_EQ(r->is(kAluSigned), c[10].find('S') != std::string::npos);
    EXPECT_EQ(r->is(kAluUnsigned), c[10].find('U') != std::string::npos);
    EXPECT_EQ(r->is(kAluIntDve5), c[11] == "✓");
  }
}

/// The opcode -> struct table of the spec's README (§1): every opcode the spec binds to a struct, with it.
std::map<unsigned, std::string> spec_struct_bindings() {
  std::ifstream in(std::string(TPBISA_SHARED_DATA_DIR) + "/../spec/README.md");
  std::map<unsigned, std::string> out;
  if (!in) return out;
  // The `...` items of a cell, each with whether an en dash ("a–b", a range) precedes it.
  struct Item {
    std::string text;
    bool after_dash;
  };
  auto backquoted = [](const std::string& cell) {
    std::vector<Item> v;
    size_t prev = 0;
    for (size_t a = cell.find('`'); a != std::string::npos; a = cell.find('`', a)) {
      const size_t b = cell.find('`', a + 1);
      if (b == std::string::npos) break;
      const bool dash = cell.substr(prev, a - prev).find("\xE2\x80\x93") != std::string::npos;
      v.push_back({cell.substr(a + 1, b - a - 1), dash});
      prev = b + 1;
      a = b + 1;
    }
    return v;
  };
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("| `0x")) continue;
    std::vector<std::string> cells;
    std::istringstream cols(line.substr(1));
    for (std::string cell; std::getline(cols, cell, '|');) cells.push_back(cell);
    if (cells.size() < 3) continue;
    std::vector<unsigned> ops;
    for (const Item& t : backquoted(cells[0])) {
      const unsigned v = parse_hex_cell(t.text);
      if (t.after_dash && !ops.empty())
        for (unsigned x = ops.back() + 1; x < v; ++x) ops.push_back(x);
      ops.push_back(v);
    }
    // One part per opcode ("`A` / `B`", "`CTRL_NO`, pseudo"); a part with no backquoted name ("own", "pseudo",
    // "lane map") binds its opcode to no struct (recorded as "").
    std::vector<std::string> parts;
    for (size_t a = 0, b = 0; a <= cells[2].size(); a = b + 1) {
      b = cells[2].find_first_of("/,", a);
      if (b == std::string::npos) b = cells[2].size();
      parts.push_back(cells[2].substr(a, b - a));
    }
    const auto struct_of = [&](const std::string& part) {
      const std::vector<Item> names = backquoted(part);
      return names.empty() ? std::string() : names[0].text;
    };
    // Fewer parts than opcodes: the parts bind the first opcodes one to one and the last part the rest
    // ("lane map / `S4D4_TR`" for 0x69 / 0x6A / 0x6B); a single part binds them all.
    for (size_t i = 0; i < ops.size(); ++i) out[ops[i]] = struct_of(parts[std::min(i, parts.size() - 1)]);
  }
  // The one row where the first part binds the first opcodes instead: "`0x6c` / `0x6e` / `0x6f` ... `S4D2_BN` /
  // `S4D4_MR`" (act-index-ops.md §15.1: MAX8 and FIND_INDEX8 in S4D2_BN, MATCH_REPLACE8 alone in S4D4_MR).
  if (out.count(0x6E) != 0 && out.count(0x6C) != 0 && out[0x6C] == "S4D2_BN" && out[0x6F] == "S4D4_MR")
    out[0x6E] = "S4D2_BN";
  return out;
}

/// Opcodes of the compute families (the spec's alu-ops.md) whose struct is already decoded for other opcodes
/// (S4D4_TR of Copy/Cast, S3S3D3_TT of TensorTensorArithOp) but which are not modeled yet: listed here so that the
/// catalog does not silently leave any other such opcode unbound. An entry leaves the list when its family lands.
constexpr std::array<uint8_t, 0> kAwaitingModel{};

/// Whether spec file `name` has a line naming both `opcode` ("0x45") and `struct_name` ("S4D4_PL").
bool spec_file_binds(std::string_view name, uint8_t opcode, std::string_view struct_name) {
  std::ifstream in(std::string(TPBISA_SHARED_DATA_DIR) + "/../spec/" + std::string(name));
  const std::string hex = fmt::format("0x{:02X}", opcode), lower = fmt::format("0x{:02x}", opcode);
  for (std::string line; std::getline(in, line);)
    if ((line.find(hex) != std::string::npos || line.find(lower) != std::string::npos) &&
        line.find(struct_name) != std::string::npos)
      return true;
  return false;
}

TEST(CatalogAgainstSpec, FormatBindingAsTheSpecTable) {
  const auto spec = spec_struct_bindings();
  if (spec.empty()) GTEST_SKIP() << "spec not available";
  EXPECT_EQ(spec.at(0xAA), "MEM_2D");  // the table was read: a single opcode, a pair, a range
  EXPECT_EQ(spec.at(0x6D), "S2_BN");
  EXPECT_EQ(spec.at(0xA2), "CTRL_NO");
  EXPECT_EQ(spec.at(0x02), "S3D3_MM");
  std::set<std::string_view> modeled_structs;
  for (const auto& row : kLayoutRows) modeled_structs.insert(row.name);
  for (const auto& r : kOpcodes) {
    SCOPED_TRACE(r.enum_name);
    const auto it = spec.find(r.value);
    if (r.format != Format::NotModeled) {
      // A row whose binding the README's table does not give names where it comes from (the catalog's struct_source
      // column): a spec file, which must name the struct beside the opcode, or the catalog's own reason.
      if (!r.struct_source.empty()) {
        EXPECT_TRUE(it == spec.end()) << "the README binds it: clear struct_source";
        if (r.struct_source.ends_with(".md")) {
          EXPECT_TRUE(spec_file_binds(r.struct_source, r.value, r.struct_name))
              << r.struct_source << " names no " << r.struct_name << " beside the opcode";
        }
        continue;
      }
      ASSERT_NE(it, spec.end()) << "a modeled opcode the spec binds to no struct";
      if (it->second.empty()) {  // the struct name is the catalog's own, never one the spec gives another row
        EXPECT_FALSE(r.struct_name.empty());
        EXPECT_EQ(modeled_structs.count(r.struct_name), 1U);
        continue;
      }
      EXPECT_EQ(it->second, to_string(r.format));
    } else if (it != spec.end() && std::count(kAwaitingModel.begin(), kAwaitingModel.end(), r.value) == 0) {
      EXPECT_EQ(modeled_structs.count(it->second), 0U) << "the spec binds it to the modeled struct " << it->second;
    }
  }
  // The list holds only opcodes that still await their model, each bound by the spec to a struct already decoded.
  for (uint8_t op : kAwaitingModel) {
    SCOPED_TRACE(fmt::format("{:#04x}", op));
    ASSERT_NE(find_opcode(op), nullptr);
    EXPECT_EQ(find_opcode(op)->format, Format::NotModeled) << "modeled now: remove it from kAwaitingModel";
    ASSERT_EQ(spec.count(op), 1U);
    EXPECT_EQ(modeled_structs.count(spec.at(op)), 1U);
  }
}

// ---------------------------------------------------------------- generations

TEST(CatalogGenerations, ParseGenerationAcceptsNamesAndVersions) {
  EXPECT_EQ(parse_generation("sunda"), std::optional(kSu));
  EXPECT_EQ(parse_generation("CAYMAN"), std::optional(kCa));
  EXPECT_EQ(parse_generation("Mariana"), std::optional(kMa));
  EXPECT_EQ(parse_generation("mAvErIcK"), std::optional(kMv));
  EXPECT_EQ(parse_generation("v2"), std::optional(kSu));
  EXPECT_EQ(parse_generation("V3"), std::optional(kCa));
  EXPECT_EQ(parse_generation("v4"), std::optional(kMa));
  EXPECT_EQ(parse_generation("V5"), std::optional(kMv));
  for (Generation g : kAllGenerations) {
    EXPECT_EQ(parse_generation(to_string(g)), std::optional(g));
    EXPECT_EQ(parse_generation(version_label(g)), std::optional(g));
  }
  EXPECT_EQ(to_string(kMv), "maverick");
  EXPECT_EQ(version_label(kCa), "v3");
  EXPECT_EQ(kDefaultGeneration, kMa);
}

TEST(CatalogGenerations, ParseGenerationRejectsJunk) {
  for (std::string_view junk :
       {"", "v1", "v6", "v", "2", "sund", "sundaa", " sunda", "cayman ", "tonga", "trn2", "v2x", "mariana,", "vv3"})
    EXPECT_EQ(parse_generation(junk), std::nullopt) << "'" << junk << "'";
}

TEST(CatalogGenerations, GenSetConstants) {
  EXPECT_TRUE(kGensAll.has(kSu) && kGensAll.has(kMv));
  EXPECT_TRUE(kGensSundaOnly.has(kSu));
  EXPECT_FALSE(kGensSundaOnly.has(kCa));
  EXPECT_FALSE(kGensCaymanUp.has(kSu));
  EXPECT_TRUE(kGensCaymanUp.has(kCa) && kGensCaymanUp.has(kMv));
  EXPECT_FALSE(kGensMarianaUp.has(kCa));
  EXPECT_TRUE(kGensMaverickOnly.has(kMv));
  EXPECT_FALSE(kGensMaverickOnly.has(kMa));
  EXPECT_FALSE(kGensNotMaverick.has(kMv));
  EXPECT_TRUE(kGensNotMaverick.has(kMa));
}

}  // namespace
}  // namespace tpbisa
