// Datapath family syntax: fields print and parse from their roles; the must-be-zero flags are quiet operands, and
// the MEM_PATTERN operands of S4D4_TR and S3S3D3_TT read as the indirect arm where datapath::indirect_arm says so.
#include <string_view>

#include "families/family.hpp"

namespace tpbisa::family {
namespace {

// negated and mask_enable must be zero in every valid word: the disassembler writes them only when set.
constexpr std::string_view kQuiet[] = {"negated", "mask_enable"};

// MARIANA+ types these operands MEM_PATTERN4D / MEM_PATTERN3D (real-programs.md §10.1, §11.1); D4_MR's dst
// stays a plain TENSOR4D on every generation (§12.1).
constexpr std::string_view kTrPatterns[] = {"src", "dst"};
constexpr std::string_view kTtPatterns[] = {"src0", "src1", "dst"};

std::span<const std::string_view> pattern_operands(Format f) {
  switch (f) {
    case Format::S4d4Tr: return kTrPatterns;
    case Format::S3s3d3Tt: return kTtPatterns;
    default: return {};
  }
}

bool indirect(uint32_t start, Generation g) {
  return datapath::indirect_arm(Addr4{start}, g);
}

constexpr Syntax kSyntax{
    .note =
        "negated and mask_enable are written only when not zero; a MARIANA+ indirect MEM_PATTERN operand is "
        "written as its index, data, num_indices (and unused) fields",
    .quiet_fields = kQuiet,
    .pattern_operands = pattern_operands,
    .indirect_arm = indirect};

}  // namespace

const Syntax& DatapathFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
