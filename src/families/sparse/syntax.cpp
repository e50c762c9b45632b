// Sparse matmul family syntax: psum_zero_region written by its MATMUL_ZERO_REGION name, and the meanings decode shows
// for the fields whose reading the wiki gives in prose (the fmap count, the column group, the PE modes).
#include <string>

#include <fmt/format.h>

#include "families/family.hpp"
#include "families/sparse/format.hpp"

namespace tpbisa::family {
namespace {

std::string meaning(const Instruction& inst, std::string_view path) {
  const auto* m = inst.as<S4d3Mm>();
  if (m == nullptr) return {};
  if (path == "src.num_elem[3]")
    return fmt::format(
        "{} fmaps per partition (2, 3 or 4); each PE cell uses one, "
        "chosen by its loaded tag",
        m->src.num_elem[3]);
  if (path == "col_grp") return "fine-grain sparsity runs across all four column groups (0x0f)";
  if (path == "row_grp") return "row quadrant mask (bit k: partitions 32k..32k+31)";
  if (path == "num_active_rows") return fmt::format("K = {} PE rows = SBUF partitions read", m->num_active_rows);
  if (path == "num_active_cols") return fmt::format("{} PE columns = output partitions", m->num_active_cols);
  if (path == "fp32_mode") return "PE_FP32MODE: None 0, Low 1, High 2, Low_High 3 (FP32 input only)";
  if (path == "perf_opt") return "performance mode (non-zero needs a 1-byte in_dtype)";
  if (path == "out_dtype")
    return m->out_dtype == 0 ? "0: FP32 accumulate" : "the PSUM result's dtype (FP32; BFLOAT16 from MARIANA on)";
  if (path == "active_row_mode") return "logical or physical top rows (ACTIVE_ROW_MODE; values not public)";
  if (path == "psum_accumulate_flags")
    return "bit 0 BEGIN_MATMUL_GROUP, bit 1 END_MATMUL_GROUP (0 MULTI_MID, 1 MULTI_START, 2 MULTI_END, 3 SINGLE)";
  return {};
}

constexpr CustomField kCustom[] = {
    {.path = "psum_zero_region", .names = sparse::kZeroRegion, .names_what = "MATMUL_ZERO_REGION"},
};

constexpr std::string_view kQuiet[] = {"fp32_mode", "out_dtype", "perf_opt", "active_row_mode", "psum_zero_region"};
constexpr std::string_view kHex[] = {"row_grp", "col_grp"};

constexpr Syntax kSyntax{
    .note = "`psum_zero_region` is written by its MATMUL_ZERO_REGION name; `row_grp` and `col_grp` in hexadecimal",
    .quiet_fields = kQuiet,
    .hex_fields = kHex,
    .meaning = meaning,
    .custom_fields = kCustom,
};

}  // namespace

const Syntax& SparseFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
