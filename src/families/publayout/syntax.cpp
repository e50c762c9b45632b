// Public-layout family syntax: COPY_PREDICATED_SCALAR's src0_imm is read by its IMM_SRC (a value, a pointer or a
// register), reversed_pred is written only when not zero, SB2SB_COLLECTIVE's lnc_size_fmt by its LNC_SIZE_FMT name;
// decode says what the fields mean for each opcode (REG_STORE and MAX_POOL_SELECT keep their structs' text).
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "families/family.hpp"
#include "families/publayout/format.hpp"
#include "tpbisa/describe.hpp"

namespace tpbisa::family {
namespace {

using Cps = S3d3CpPredScalar;

ImmReading imm_reading(const Word& w, std::string_view path) {
  if (w[field_ref<Cps>("header.opcode").offset] == publayout::kCopyPredicatedScalar &&
      path == field_ref<Cps>("src0_imm").name)
    return publayout::imm_reading(w[field_ref<Cps>("src0_imm_src").offset]);
  return ImmReading::Value;
}

std::string meaning(const Instruction& inst, std::string_view path) {
  if (const auto* t = inst.as<Cps>()) {
    if (path == "reversed_pred")
      return t->reversed_pred == 0   ? "0: a zero predicate element takes src0_imm, a non-zero one keeps dst"
             : t->reversed_pred == 1 ? "1: a non-zero predicate element takes src0_imm, a zero one keeps dst"
                                     : "not 0 or 1 (invalid)";
    if (path == "src0_imm" && t->src0_imm_src == imm_src::kInstruction)
      return fmt::format("the scalar: the low out_dtype bytes of {:#010x}, written as they are", t->src0_imm.raw);
    if (path == "in_dtype")
      return describe_dtype(t->in_dtype, inst.gen) + ": the scalar's (must equal out_dtype: a copy, no conversion)";
    if (path == "pred_dtype")
      return describe_dtype(t->pred_dtype, inst.gen) + ": the predicate's integer type (non-zero is true)";
  }
  if (const auto* t = inst.as<S3d3Collective>()) {
    if (path == "lnc_size_fmt")
      return t->lnc_size_fmt == publayout::kLnc1   ? "LNC1: the core copies to itself (self-test)"
             : t->lnc_size_fmt == publayout::kLnc2 ? "LNC2: to the other core of its pair (NC0-NC1, NC2-NC3, ...)"
                                                   : "not LNC1 or LNC2 (invalid for SB2SB_COLLECTIVE)";
  }
  if (const auto* m = inst.as<D4Mr>()) {
    if (path == "set_value") return "REG_STORE's reading of these bits is not public (PROJ-CONV-PU4)";
    if (path == "serialization_mode")
      return m->serialization_mode == datapath::kSerial ? "Serial (PROJ-CONV-F22)" : "not Serial: must be 0";
    if (path == "dst_element_count") return fmt::format("{} elements per partition", m->dst_element_count);
  }
  if (const auto* p = inst.as<S4d4Pl>()) {
    if (path == "pool_func")
      return p->pool_func == pool::kPoolNone ? "NONE, as MAX_POOL_SELECT requires: the opcode names the operation"
                                             : "not NONE: MAX_POOL_SELECT requires NONE (0)";
    if (path == "pool_dim") return "the source dimensions of one window (X, XY, XYZ or XYZW)";
    if (path == "pool_scale") return "unused by MAX_POOL_SELECT, must be 1.0";
    if (path == "out_dtype")
      return describe_dtype(p->out_dtype, inst.gen) + ": each window's position of its maximum (UINT8, UINT16, UINT32)";
  }
  return {};
}

constexpr std::string_view kQuiet[] = {"reversed_pred"};
/// LNC_SIZE_FMT (sb2sb-remote-copy.md §2b).
constexpr EnumValue kLncSizeFmt[] = {{publayout::kLnc1, "LNC1", kGensCaymanUp, ""},
                                     {publayout::kLnc2, "LNC2", kGensCaymanUp, ""},
                                     {publayout::kLnc4, "LNC4", kGensCaymanUp, ""},
                                     {publayout::kLnc8, "LNC8", kGensCaymanUp, ""}};
constexpr CustomField kCustom[] = {{.path = "lnc_size_fmt", .names = kLncSizeFmt, .names_what = "LNC_SIZE_FMT"}};

constexpr Syntax kSyntax{.note =
                             "COPY_PREDICATED_SCALAR's src0_imm is read as a value, a pointer or a register by "
                             "src0_imm_src; reversed_pred is written only when not zero; SB2SB_COLLECTIVE's "
                             "lnc_size_fmt takes the LNC_SIZE_FMT names",
                         .quiet_fields = kQuiet,
                         .imm_reading = imm_reading,
                         .meaning = meaning,
                         .custom_fields = kCustom};

}  // namespace

const Syntax& PublicLayoutFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
