// Tensor-scalar family syntax: the immediates' readings, ACCUM_CMD by name, and the meanings decode shows for the
// fields whose reading depends on the opcode (reverse flags, accumulator command, op1, imm1, negated).
#include <string>

#include <fmt/format.h>

#include "families/family.hpp"
#include "families/tensor_scalar/format.hpp"

namespace tpbisa::family {
namespace {

namespace ts = tensor_scalar;

/// imm0 and imm1 are read by tensor_scalar::imm_reading (the one decision, shared with the validators and the
/// executor).
ImmReading imm_reading(const Word& w, std::string_view path) {
  const uint8_t opcode = w[field_ref<S3d3Ts>("header.opcode").offset];
  if (path == field_ref<S3d3Ts>("imm0").name) return ts::imm_reading(opcode, w[field_ref<S3d3Ts>("imm0_src").offset]);
  if (path == field_ref<S3d3Ts>("imm1").name) return ts::imm_reading(opcode, w[field_ref<S3d3Ts>("imm1_src").offset]);
  return ImmReading::Value;
}

std::string_view accum_name(uint8_t cmd) {
  for (const EnumValue& v : kAccumCmd)
    if (v.value == cmd) return v.name;
  return "not an ACCUM_CMD value";
}

/// The composition of §5.1 under each TENS_SCALAR_REV_OPS value (enums.md §8).
std::string reverse_meaning(const S3d3Ts& t) {
  switch (t.reverse_operands) {
    case 0: return "NONE: y = (x op0 s0) op1 s1";
    case 1: return "FIRST: y = (s0 op0 x) op1 s1";
    case 2: return "SECOND: y = s1 op1 (x op0 s0)";
    case 3: return "BOTH: y = s1 op1 (s0 op0 x)";
    default: return fmt::format("{:#04x}: not a TENS_SCALAR_REV_OPS value", t.reverse_operands);
  }
}

/// ACCUM_CMD as the opcode reads it (PROJ-CONV-K12).
std::string accum_meaning(const S3d3Ts& t) {
  const std::string_view name = accum_name(t.accumulator_cmd);
  if (!ts::accumulating_opcode(t.header.opcode))
    return fmt::format("{}: this opcode keeps no accumulator (must be IDLE)", name);
  switch (t.accumulator_cmd) {
    case ts::kAccIdle: return fmt::format("{}: the accumulator registers are left unchanged (PROJ-CONV-K12)", name);
    case ts::kAccAccumulate: return fmt::format("{}: continue from ACC[c] (PROJ-CONV-K12)", name);
    case ts::kAccZeroAccumulate:
      return fmt::format("{}: ACC[c] = {}, then accumulate (PROJ-CONV-K12)", name,
                         t.header.opcode == ts::kExponential ? "0.0" : "the identity of op1");
    case ts::kAccLoadAccumulate: return fmt::format("{}: ACC[c] = imm1 of channel c, then accumulate", name);
    default: return fmt::format("{}: not accepted here", name);
  }
}

std::string meaning(const Instruction& inst, std::string_view path) {
  if (const auto* rd = inst.as<D1Rd>()) {
    if (path == "negated")
      return rd->negated == 0   ? "0: ACC[c] written as it is"
             : rd->negated == 1 ? "1: the sign bit of ACC[c] flipped before the write (PROJ-CONV-K16)"
                                : fmt::format("{}: must be 0 or 1", rd->negated);
    if (path == "dst_element_count") return fmt::format("{} element per channel (must be 1)", rd->dst_element_count);
    return {};
  }
  const auto* t = inst.as<S3d3Ts>();
  if (t == nullptr) return {};
  const uint8_t op = t->header.opcode;
  if (path == "reverse_operands") return reverse_meaning(*t);
  if (path == "accumulator_cmd") return accum_meaning(*t);
  if (path == "op1" && (op == ts::kCacheReduce || op == ts::kCacheCumulative))
    return "the accumulate op: ACC[c] = op1(t, ACC[c]) per element (PROJ-CONV-K12)";
  if (path == "imm0" && op == ts::kExponential) return "max_value m: y = exp(x - m)";
  if (path == "imm1" && ts::accumulating_opcode(op))
    return t->accumulator_cmd == ts::kAccLoadAccumulate ? "the LOAD_ACCUMULATE seed of ACC[c]"
                                                        : "unused (must be 0 unless LOAD_ACCUMULATE)";
  return {};
}

constexpr CustomField kCustom[] = {
    {.path = "accumulator_cmd", .names = kAccumCmd, .names_what = "ACCUM_CMD"},
};

constexpr std::string_view kQuiet[] = {"accumulator_cmd", "negated"};

constexpr Syntax kSyntax{
    .note =
        "`imm0`/`imm1` are read as a float, a pointer or a register by their *_src (always pointers for the PTR "
        "forms); `accumulator_cmd` is an ACCUM_CMD name",
    .quiet_fields = kQuiet,
    .imm_reading = imm_reading,
    .meaning = meaning,
    .custom_fields = kCustom,
};

}  // namespace

const Syntax& TensorScalarFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
