// PE seed family syntax: mode written by its PE_SEED_MODE name, and the meanings decode shows for the fields the
// header describes in prose (the fixed array shape, which tensor each mode uses).
#include <string>

#include <fmt/format.h>

#include "families/family.hpp"
#include "families/peseed/format.hpp"

namespace tpbisa::family {
namespace {

std::string meaning(const Instruction& inst, std::string_view path) {
  const auto* s = inst.as<S2s1d2PeSeed>();
  if (s == nullptr) return {};
  if (path == "num_active_rows") return "PE rows: 16, the seeds' SBUF partitions (fixed)";
  if (path == "num_active_cols") return "PE columns: 128, the PSUM partitions (fixed)";
  if (path == "identity_dtype") return "the identity operand's dtype (BFLOAT16, FP16, FP32R or an FP8)";
  if (path == "src.num_elem")
    return s->mode == peseed::kModeLoad ? "the 16 x 128 seeds to load" : "unused unless mode is LOAD_SEED";
  if (path == "dst.num_elem")
    return s->mode == peseed::kModeSave ? "where the 128 x 16 seeds are saved" : "unused unless mode is SAVE_SEED";
  return {};
}

constexpr CustomField kCustom[] = {
    {.path = "mode", .names = peseed::kModes, .names_what = "PE_SEED_MODE"},
};

constexpr Syntax kSyntax{
    .note = "`mode` is written by its PE_SEED_MODE name",
    .meaning = meaning,
    .custom_fields = kCustom,
};

}  // namespace

const Syntax& PeSeedFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
