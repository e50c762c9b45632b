// Public-layout family syntax: COPY_PREDICATED_SCALAR's src0_imm is read by its IMM_SRC (a value, a pointer or a
// register), reversed_pred is written only when not zero, and decode says which elements take the scalar.
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "families/family.hpp"
#include "families/publayout/format.hpp"

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
    if (path == "in_dtype") return "the scalar's dtype (must equal out_dtype: a copy, no conversion)";
    if (path == "pred_dtype") return "the predicate's integer dtype (non-zero is true)";
  }
  return {};
}

constexpr std::string_view kQuiet[] = {"reversed_pred"};

constexpr Syntax kSyntax{.note =
                             "COPY_PREDICATED_SCALAR's src0_imm is read as a value, a pointer or a register by "
                             "src0_imm_src; reversed_pred is written only when not zero",
                         .quiet_fields = kQuiet,
                         .imm_reading = imm_reading,
                         .meaning = meaning};

}  // namespace

const Syntax& PublicLayoutFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
