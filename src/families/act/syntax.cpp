// Activation family syntax: ACCUM_CMD and REDUCE_CMD by name, the immediates' readings (bias by its inverted
// IMM_SRC_N), DTYPE_PAIR in hexadecimal, and the meanings decode shows (function id, accumulator commands, set index
// and name).
#include <bit>
#include <string>

#include <fmt/format.h>

#include "families/act/format.hpp"
#include "families/act/tables.hpp"
#include "families/family.hpp"
#include "tpbisa/describe.hpp"

namespace tpbisa::family {
namespace {

// REDUCE_CMD of ACTIVATE2 (§7.1).
constexpr EnumValue kReduceCmd[] = {{act::kReduceIdle, "IDLE", kGensAll, ""},
                                    {act::kReduceReset, "RESET", kGensAll, ""},
                                    {act::kReduceReduce, "REDUCE", kGensAll, ""},
                                    {act::kReduceResetReduce, "RESET_REDUCE", kGensAll, ""}};

constexpr std::string_view kQuiet[] = {"accumulator_cmd", "reverse_operands"};
constexpr std::string_view kHex[] = {"in_bias_dtype", "bias_addr"};

ImmReading imm_reading(const Word& w, std::string_view path) {
  if (w[0] == act::kActivate) {
    const S3d3Ac s = read_format<S3d3Ac>(w);
    if (path == "scale_value") return act::imm_reading_of(s.scale_src);
    if (path == "bias") return act::imm_reading_of(act::to_imm_src(s.bias_src_n));
    if (path == "imm") return act::imm_reading_of(s.imm_src);
  }
  if (w[0] == act::kActivate2) {
    const S2d2Ac s = read_format<S2d2Ac>(w);
    if (path == "imm0") return act::imm_reading_of(s.imm0_src);
    if (path == "imm1") return act::imm_reading_of(s.imm1_src);
    if (path == "relu_param") return act::imm_reading_of(s.relu_param_src);
  }
  return ImmReading::Value;
}

std::string function_meaning(uint8_t id) {
  const std::string_view name = act::catalog_name(id);
  return fmt::format("function id {}{}: matched against the func_id of the loaded set's profiles (§3.5)", id,
                     name.empty() ? "" : fmt::format(" ({} in the trainium catalog)", name));
}

std::string pair_meaning(uint8_t pair, Generation g) {
  return fmt::format("input {} (low nibble), bias {} (high nibble)", describe_dtype(act::pair_in(pair), g),
                     describe_dtype(act::pair_bias(pair), g));
}

std::string accum_meaning(uint8_t cmd) {
  switch (cmd) {
    case accum_cmd::kIdle: return "IDLE: the ACT accumulators are left unchanged";
    case accum_cmd::kZero: return "ZERO: ACC[c] = +0, nothing added (PROJ-CONV-A9)";
    case accum_cmd::kAccumulate: return "ACCUMULATE: ACC[c] += every function result, in element order";
    case accum_cmd::kZeroAccumulate: return "ZERO_ACCUMULATE: ACC[c] = +0, then the results are added";
    case accum_cmd::kLoadAccumulate: return "LOAD_ACCUMULATE: ACC[c] = imm of channel c, then the results are added";
    default: return fmt::format("{}: not an ACCUM_CMD value", cmd);
  }
}

std::string meaning(const Instruction& inst, std::string_view path) {
  if (const auto* a = inst.as<S3d3Ac>()) {
    if (path == "activation_func") return function_meaning(a->activation_func);
    if (path == "in_bias_dtype") return pair_meaning(a->in_bias_dtype, inst.gen);
    if (path == "accumulator_cmd") return accum_meaning(a->accumulator_cmd);
    if (path == "bias_src_n") {
      switch (a->bias_src_n) {
        case 0: return "0: bias is a pointer (IMM_SRC_N: inverted polarity)";
        case 1: return "1: bias is the instruction's fp32 value";
        case 2: return "2: bias names the register holding the pointer";
        default: return fmt::format("{}: not an IMM_SRC_N value", a->bias_src_n);
      }
    }
    if (path == "scale_value") return "the scale s of func(s·x + bias)";
    if (path == "imm") return "the parametric-ReLU slope, or the LOAD_ACCUMULATE seed (read only then, PROJ-CONV-A10)";
  }
  if (const auto* q = inst.as<S3d3Aq>()) {
    if (path == "activation_func") return function_meaning(q->activation_func);
    if (path == "in_bias_dtype") return pair_meaning(q->in_bias_dtype, inst.gen);
    if (path == "bias_addr") return "the per-partition bias pointer (partition + c)";
    if (path == "quant_scale_value") return "output scale: out = quant_scale · f + quant_zero, as UINT8";
    if (path == "dequant_scale_value") return "input scale: f = func(x · dequant_scale + bias)";
    if (path == "quant_zero_value") return "output zero point";
  }
  if (const auto* b = inst.as<S2d2Ac>()) {
    if (path == "activation_func") return function_meaning(b->activation_func);
    if (path == "relu_param") return "the parametric-ReLU slope";
    if (path == "reduce_cmd") return "what the results do to the ACT accumulators (reduced with reduce_op)";
  }
  if (const auto* r = inst.as<D1Rd>(); r != nullptr && inst.opcode() == act::kReadAccumulator) {
    if (path == "negated") return r->negated == 0 ? "0: ACC[c] written as it is" : "must be 0 on ACT";
    if (path == "dst_element_count") return fmt::format("{} element per channel (must be 1)", r->dst_element_count);
  }
  if (const auto* p = inst.as<PseudoLoadActFuncSet>(); p != nullptr && path.starts_with("act_set_name")) {
    std::string name;
    for (uint8_t ch : p->act_set_name) {
      if (ch == 0) break;
      name += ch >= 0x20 && ch < 0x7F ? static_cast<char>(ch) : '?';
    }
    return fmt::format("the set \"{}\" of Activation.json", name);
  }
  return {};
}

/// ActivationTableLoad keeps the CTRL_NO payload readings of its own struct's family.
std::string_view plain_meaning(const Word& w, std::string_view path) {
  const Syntax& ctrl_no = CtrlNoFamily::syntax();
  if (w[0] == act::kTableLoad && ctrl_no.plain_meaning != nullptr) return ctrl_no.plain_meaning(w, path);
  return {};
}

constexpr CustomField kCustom[] = {
    {.path = "accumulator_cmd", .names = kAccumCmd, .names_what = "ACCUM_CMD"},
    {.path = "reduce_cmd", .names = kReduceCmd, .names_what = "REDUCE_CMD"},
};

constexpr Syntax kSyntax{
    .note =
        "accumulator_cmd (ACCUM_CMD) and reduce_cmd (REDUCE_CMD) by name; in_bias_dtype is the DTYPE_PAIR byte in "
        "hexadecimal; scale, bias (by its inverted IMM_SRC_N) and imm follow their sources",
    .quiet_fields = kQuiet,
    .imm_reading = imm_reading,
    .hex_fields = kHex,
    .meaning = meaning,
    .custom_fields = kCustom,
    .plain_meaning = plain_meaning};

}  // namespace

const Syntax& ActFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
