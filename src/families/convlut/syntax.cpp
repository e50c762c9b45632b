// Conversion-LUT family syntax: the groups in hexadecimal, the CPTC-only fields only when not zero, and the meanings
// decode shows for the leg lut_dtype selects.
#include <string>

#include <fmt/format.h>

#include "families/convlut/format.hpp"
#include "families/family.hpp"

namespace tpbisa::family {
namespace {

std::string meaning(const Instruction& inst, std::string_view path) {
  const auto* c = inst.as<S2Convlut>();
  if (c == nullptr) return {};
  const bool cptc = convlut::is_cptc(*c);
  if (path == "lut_dtype")
    return cptc ? "a CPTC code: the compressed-tensor decode leg"
                : "INVALID or FP32: the legacy leg, the PE array's 4-bit converter table";
  if (path == "in_dtype")
    return cptc ? "the block's transport word (must be UINT32)" : "the table entries' SBUF width (must be UINT16)";
  if (path == "num_active_rows")
    return cptc ? "the source partitions" : "PE rows: 128, the table is loaded into every row";
  if (path == "num_active_cols")
    return cptc ? "the columns (not fixed on the CPTC leg)" : "PE columns: 128 (no meaning here, set for the hardware)";
  if (path == "row_grp" || path == "col_grp")
    return cptc ? "a quadrant mask (bit k: 32k..32k+31)" : "a quadrant mask: 0x0f, every row and column";
  if (path.starts_with("multiplicative_const") || path == "block_size")
    return cptc ? "a CPTC decode parameter" : "unused by the legacy leg, must be 0";
  return {};
}

constexpr std::string_view kQuiet[] = {"multiplicative_const", "block_size"};
constexpr std::string_view kHex[] = {"row_grp", "col_grp"};

constexpr Syntax kSyntax{
    .note = "`row_grp` and `col_grp` in hexadecimal; `multiplicative_const` and `block_size` only when not zero",
    .quiet_fields = kQuiet,
    .hex_fields = kHex,
    .meaning = meaning,
};

}  // namespace

const Syntax& ConvLutFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
