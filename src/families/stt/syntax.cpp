// Scalar-tensor-tensor family syntax: the immediates read by their IMM_SRC, the DTYPE_PAIR byte in hexadecimal, the
// accumulator command by name, and the meanings that depend on the opcode (the operands' roles, reverse, accumulator).
#include <fmt/format.h>

#include "families/family.hpp"
#include "families/stt/format.hpp"
#include "tpbisa/describe.hpp"

namespace tpbisa::family {
namespace {

using Stt = S2s2d2Stt;
using Sel = S3d3TsSelect;

/// imm0 by imm0_src; src1_imm by src1_imm_src and pred_imm by pred_imm_src (the one reading, stt::imm_reading).
ImmReading imm_reading(const Word& w, std::string_view path) {
  const uint8_t opcode = w[field_ref<Stt>("header.opcode").offset];
  if (opcode == stt::kTsSelect) {
    if (path == field_ref<Sel>("src1_imm").name) return stt::imm_reading(w[field_ref<Sel>("src1_imm_src").offset]);
    if (path == field_ref<Sel>("pred_imm").name) return stt::imm_reading(w[field_ref<Sel>("pred_imm_src").offset]);
    return ImmReading::Value;
  }
  if (path == field_ref<Stt>("imm0").name) return stt::imm_reading(w[field_ref<Stt>("imm0_src").offset]);
  return ImmReading::Value;
}

std::string pair_meaning(const Stt& t, Generation g) {
  const bool select = t.header.opcode == stt::kSelectReduce;
  return fmt::format("src0 {} (low nibble{}), src1 {} (high nibble{})",
                     describe_dtype(stt::pair_lo(t.in0_in1_dtype), g), select ? ", the predicate" : "",
                     describe_dtype(stt::pair_hi(t.in0_in1_dtype), g), select ? ", the data" : "");
}

std::string reverse_meaning(const Stt& t) {
  const unsigned r = t.reverse_operands;
  if (r > 3) return fmt::format("{} is not a TENS_SCALAR_REV_OPS value", r);
  const bool r0 = (r & stt::kRevFirst) != 0, r1 = (r & stt::kRevSecond) != 0;
  switch (t.header.opcode) {
    case stt::kSelectReduce:
      if (r == 0) return "NONE: a non-zero predicate selects the data (PROJ-CONV-K13)";
      if (r == stt::kRevFirst) return "FIRST: the predicate is inverted (PROJ-CONV-K13)";
      return "not NONE or FIRST (invalid for SELECT_REDUCE)";
    case stt::kScan:
      return fmt::format("r = {} (PROJ-CONV-K20)", r1 ? (r0 ? "src1 op1 (r op0 src0)" : "src1 op1 (src0 op0 r)")
                                                      : (r0 ? "(r op0 src0) op1 src1" : "(src0 op0 r) op1 src1"));
    default:
      return fmt::format("dst = {}", r1 ? (r0 ? "src1 op1 (s op0 src0)" : "src1 op1 (src0 op0 s)")
                                        : (r0 ? "(s op0 src0) op1 src1" : "(src0 op0 s) op1 src1"));
  }
}

std::string accumulator_meaning(const Stt& t) {
  const uint8_t cmd = t.accumulator_cmd;
  const bool idle = cmd == stt::kAccIdle;
  const bool accepted = idle || cmd == stt::kAccAccumulate || cmd == stt::kAccZeroAccumulate;
  const std::string_view name = cmd < kAccumCmd.size() ? kAccumCmd[cmd].name : "not an ACCUM_CMD value";
  switch (t.header.opcode) {
    case stt::kSttArith:
      if (!accepted) return fmt::format("{} (invalid here)", name);
      return fmt::format("{}: {} (PROJ-CONV-K12)", name,
                         idle                             ? "the accumulator is left unchanged"
                         : cmd == stt::kAccZeroAccumulate ? "ACC[c] = +0.0, then ACC[c] += each result"
                                                          : "ACC[c] += each result");
    case stt::kSelectReduce:
      if (!accepted) return fmt::format("{} (invalid here)", name);
      return fmt::format("{}: {} (PROJ-CONV-K12)", name,
                         idle                             ? "the accumulator is left unchanged"
                         : cmd == stt::kAccZeroAccumulate ? "ACC[c] = -Inf, then ACC[c] = max(ACC[c], each value)"
                                                          : "ACC[c] = max(ACC[c], each value)");
    default: return idle ? fmt::format("{}: no accumulation", name) : fmt::format("{} (must be IDLE)", name);
  }
}

std::string imm0_role(const Stt& t) {
  switch (t.header.opcode) {
    case stt::kScan: return "the scan's initial value (PROJ-CONV-K20)";
    case stt::kSelectReduce: return "the value of predicate-false elements (PROJ-CONV-K13)";
    case stt::kSttBitvec: return "the scalar s: its low out_dtype bits (PROJ-CONV-K11)";
    default: return "the scalar s (PROJ-CONV-K11)";
  }
}

std::string meaning(const Instruction& inst, std::string_view path) {
  if (const auto* t = inst.as<Stt>()) {
    if (path == "in0_in1_dtype") return pair_meaning(*t, inst.gen);
    if (path == "reverse_operands") return reverse_meaning(*t);
    if (path == "accumulator_cmd") return accumulator_meaning(*t);
    if (path == "imm0") {
      const ImmReading r = stt::imm_reading(t->imm0_src);
      if (r == ImmReading::Pointer)
        return fmt::format("{}; pointer {}", imm0_role(*t),
                           to_string(decode_partition_offset(t->imm0.raw & 0x1FFFFFFFU, inst.gen)));
      if (r == ImmReading::Register) return fmt::format("{}; register pointer r{}", imm0_role(*t), t->imm0.regnum());
      return fmt::format("{}; fp32 {} | u32 {:#010x}", imm0_role(*t), t->imm0.as_fp32(), t->imm0.raw);
    }
  } else if (const auto* e = inst.as<Sel>()) {
    if (path == "reversed_pred")
      return e->reversed_pred == 0   ? "0: a true predicate takes src0, else src1_imm"
             : e->reversed_pred == 1 ? "1: a true predicate takes src1_imm, else src0"
                                     : "not 0 or 1 (invalid)";
    if (path == "pred_imm" && e->pred_imm_src == stt::kImmInstruction)
      return fmt::format("inline predicate {}", e->pred_imm.raw);
  }
  return {};
}

// The accumulator command is named from ACCUM_CMD; the dtype pair is one byte, written in hexadecimal (its two
// dtypes are in its meaning).
constexpr CustomField kCustom[] = {
    {.path = "accumulator_cmd", .names = kAccumCmd, .names_what = "ACCUM_CMD"},
};
constexpr std::string_view kHex[] = {"in0_in1_dtype"};
constexpr std::string_view kQuiet[] = {"accumulator_cmd", "reverse_operands", "reversed_pred"};

constexpr Syntax kSyntax{.note =
                             "`in0_in1_dtype` is the DTYPE_PAIR byte in hexadecimal (low nibble src0); "
                             "`accumulator_cmd` takes the ACCUM_CMD "
                             "names; the immediates are read as a value, a pointer or a register by their IMM_SRC",
                         .quiet_fields = kQuiet,
                         .imm_reading = imm_reading,
                         .hex_fields = kHex,
                         .meaning = meaning,
                         .custom_fields = kCustom};

}  // namespace

const Syntax& SttFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
