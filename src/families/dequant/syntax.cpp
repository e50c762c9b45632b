// Tensor-dequantize family syntax: dequant_fmt written by its DEQUANT_FMT name, and the meanings decode shows for the
// fields whose reading the wiki gives in prose (the transport dtypes, the group size).
#include <string>

#include <fmt/format.h>

#include "families/dequant/format.hpp"
#include "families/family.hpp"

namespace tpbisa::family {
namespace {

std::string meaning(const Instruction& inst, std::string_view path) {
  const auto* d = inst.as<S3d3TensDequant>();
  if (d == nullptr) return {};
  if (path == "group_size")
    return d->group_size == dequant::kNoGroup   ? "no scale: a plain format widening"
           : d->group_size == dequant::kMxGroup ? "one in-band scale per block of 8 codes (micro-scaling)"
                                                : "not a group size (must be 0 or 8)";
  if (path == "in_dtype") return "the transport word of the packed codes (must be UINT32)";
  if (path == "out_dtype") return "the transport word of the FP8 results (must be UINT32)";
  if (path == "num_active_channels") return fmt::format("{} SBUF partitions", d->num_active_channels);
  return {};
}

constexpr CustomField kCustom[] = {
    {.path = "dequant_fmt", .names = dequant::kDequantFmt, .names_what = "DEQUANT_FMT"},
};

constexpr std::string_view kQuiet[] = {"group_size"};

constexpr Syntax kSyntax{
    .note = "`dequant_fmt` is written by its DEQUANT_FMT name; `group_size` only when not zero",
    .quiet_fields = kQuiet,
    .meaning = meaning,
    .custom_fields = kCustom,
};

}  // namespace

const Syntax& DequantFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
