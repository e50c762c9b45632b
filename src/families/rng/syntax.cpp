// RNG family syntax: DROPOUT's threshold and RAND2's bounds read by their IMM_SRC, the RNG enums by name, and the
// meanings decode shows for the fields whose reading depends on the opcode or the state source.
#include <string>

#include <fmt/format.h>

#include "families/family.hpp"
#include "families/rng/format.hpp"

namespace tpbisa::family {
namespace {

/// The threshold is read by rng::threshold_reading (the one decision, shared with the validator and the executor).
ImmReading imm_reading(const Word& w, std::string_view path) {
  if (w[0] == rng::kRand2) {  // RAND2's min and max are read by their IMM_SRC, as DROPOUT's threshold
    if (path == field_ref<D3Rand>("min").name) return rng::threshold_reading(w[field_ref<D3Rand>("min_src").offset]);
    if (path == field_ref<D3Rand>("max").name) return rng::threshold_reading(w[field_ref<D3Rand>("max_src").offset]);
    return ImmReading::Value;
  }
  if (path == field_ref<S3d3Dropout>("threshold").name)
    return rng::threshold_reading(w[field_ref<S3d3Dropout>("threshold_src").offset]);
  return ImmReading::Value;
}

std::string meaning(const Instruction& inst, std::string_view path) {
  if (const auto* r = inst.as<D4Rand>()) {
    if (path.starts_with("params"))
      return r->header.opcode == rng::kRand ? "params[0], params[1]: the fp32 min and max of UNIFORM_IN_RANGE"
                                            : "unused by RAND_GET_STATE (must be 0)";
    if (path == "rand_num_steps") return "LFSR: how many steps each draw advances (>= 1)";
    return {};
  }
  if (const auto* r = inst.as<S1Rand>()) {
    if (path.starts_with("imm_state"))
      return r->update_state == rng::kUpdateSrcTensor ? "unused: the state is read from src (must be 0)"
                                                      : "the inline PHILOX state (imm_state[7] must be 0)";
    return {};
  }
  if (inst.as<D3Rand>() != nullptr) {
    if (path == "min" || path == "max") return "a bound of the uniform draw (fp32)";
    return {};
  }
  const auto* d = inst.as<S3d3Dropout>();
  if (d == nullptr) return {};
  if (path == "threshold_type") {
    switch (d->threshold_type) {
      case rng::kDropRate: return "DROP_RATE: an element is zeroed when its draw r < threshold, else kept";
      case rng::kKeepRate: return "KEEP_RATE: an element is zeroed when its draw r > threshold, else kept";
      default: return fmt::format("{}: not a DROPOUT_THRESHOLD_TYPE value", d->threshold_type);
    }
  }
  if (path == "threshold_dtype" && d->threshold_dtype == dtype::kInvalid)
    return "0: read as FP32 (the header's backward-compatible default)";
  if (path == "threshold" && rng::threshold_reading(d->threshold_src) == ImmReading::Value)
    return "compared with each element's draw r in [0, 1); the draw's generator (an LFSR per lane) is not public "
           "(PROJ-CONV-RN3)";
  return {};
}

constexpr CustomField kCustom[] = {
    {.path = "threshold_type", .names = rng::kThresholdType, .names_what = "DROPOUT_THRESHOLD_TYPE"},
    {.path = "rand_algorithm", .names = rng::kRandAlgorithm, .names_what = "RAND_ALGORITHM"},
    {.path = "post_process", .names = rng::kRandPostProc, .names_what = "RAND_POST_PROC"},
    {.path = "rand_generator", .names = rng::kRandSrc, .names_what = "RAND_SRC"},
    {.path = "update_state", .names = rng::kRandStateUpdate, .names_what = "RAND_STATE_UPDATE"},
};

constexpr std::string_view kQuiet[] = {"threshold_type", "threshold_dtype", "params", "imm_state"};
constexpr std::string_view kHex[] = {"params", "imm_state"};

constexpr Syntax kSyntax{
    .note =
        "`threshold` (DROPOUT) and `min`/`max` (RAND2) are read as a float, a pointer or a register by their "
        "IMM_SRC; the RNG enums are written by name",
    .quiet_fields = kQuiet,
    .imm_reading = imm_reading,
    .hex_fields = kHex,
    .meaning = meaning,
    .custom_fields = kCustom,
};

}  // namespace

const Syntax& RngFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
