// Sparsity-compress family syntax: op and op_dim written by their COMPRESS_OP and TENSOR_SUBDIM names, and the
// meanings decode shows for the output packaging.
#include <string>

#include <fmt/format.h>

#include "families/family.hpp"
#include "families/sc/format.hpp"

namespace tpbisa::family {
namespace {

std::string meaning(const Instruction& inst, std::string_view path) {
  if (path == "transpose_src") return "1: the source stream is transposed in 32 x 32 groups";
  if (inst.as<S3d3Sc>() != nullptr && path == "out_struct_dtype")
    return "the {data, tag} element: UINT16 for FP8 data, UINT32 for BFLOAT16/FP16";
  if (const auto* t = inst.as<S2d2d2Sc>(); t != nullptr && path == "packed_tags")
    return t->packed_tags == 1 ? "four 4-bit tags per UINT16 (lowest bits first)" : "one tag per data element";
  return {};
}

constexpr CustomField kCustom[] = {
    {.path = "op", .names = sc::kCompressOps, .names_what = "COMPRESS_OP"},
    {.path = "op_dim", .names = kTensorSubdim, .names_what = "TENSOR_SUBDIM"},
};

constexpr std::string_view kQuiet[] = {"transpose_src", "packed_tags"};

constexpr Syntax kSyntax{
    .note =
        "`op` and `op_dim` are written by their COMPRESS_OP and TENSOR_SUBDIM names; `transpose_src` and "
        "`packed_tags` only when not zero",
    .quiet_fields = kQuiet,
    .meaning = meaning,
    .custom_fields = kCustom,
};

}  // namespace

const Syntax& SparsityCompressFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
