// Reduce family syntax: S4D4_TR reads and writes as the datapath family declares it; `decode` says what op, op_dim
// and negated mean for a reduction, a scan or RECIPROCAL (alu-ops.md §3.1).
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "families/family.hpp"
#include "families/reduce/format.hpp"

namespace tpbisa::family {
namespace {

std::string_view dims_text(unsigned r) {
  constexpr std::string_view kDims[] = {"", "X", "X and Y", "X, Y and Z", "X, Y, Z and W"};
  return kDims[r];
}

std::string op_dim_meaning(const S4d4Tr& t) {
  const unsigned r = reduce::leading_dims(t.op_dim);
  if (t.header.opcode == reduce::kReciprocal)
    return t.op_dim == 0 || t.op_dim == 2 ? "unused by RECIPROCAL (UNUSED or X)" : "must be UNUSED (0) or X (2)";
  if (r == 0) return "not a leading-dimension count (must be X, XY, XYZ or XYZW)";
  uint64_t group = 1;
  for (unsigned d = 0; d < r; ++d) group *= t.src.num_elem[d];
  if (reduce::is_cumulative(t.header.opcode))
    return fmt::format("an inclusive scan over src's {} (groups of {} elements)", dims_text(r), group);
  return fmt::format("reduces src's {}: one dst element per group of {} elements", dims_text(r), group);
}

std::string op_meaning(const S4d4Tr& t, Generation g) {
  const AluOpInfo* row = find_aluop(t.op);
  const std::string name = row != nullptr && row->gens.has(g)
                               ? std::string(row->name)
                               : fmt::format("{:#04x} (not an ALU op of this generation)", t.op);
  if (t.header.opcode == reduce::kReciprocal) return fmt::format("{} (RECIPROCAL requires BYPASS)", name);
  if (reduce::is_bitvec(t.header.opcode)) return fmt::format("{}, folded on raw bits (PROJ-CONV-K10)", name);
  if (reduce::on_integer_path(t.op)) {
    if (reduce::is_arg_op(t.op)) return fmt::format("{}: the index of the first extreme in each group", name);
    return fmt::format("{}, on the integer path (PROJ-CONV-K5)", name);
  }
  return fmt::format("{}, in fp32", name);
}

std::string meaning(const Instruction& inst, std::string_view path) {
  const auto* t = inst.as<S4d4Tr>();
  if (t == nullptr) return {};
  if (path == "op_dim") return op_dim_meaning(*t);
  if (path == "op") return op_meaning(*t, inst.gen);
  if (path == "negated" && reduce::is_reduce(t->header.opcode)) {
    if (t->negated == 0) return "off";
    return t->negated == 1 ? "each arithmetic result multiplied by -1.0 (integer path: negated, wrapping)"
                           : "must be 0 or 1";
  }
  return {};
}

constexpr Syntax kSyntax{
    .note = "none beyond S4D4_TR's: decode reads op, op_dim and negated as a reduction, a scan or RECIPROCAL",
    .meaning = meaning};

}  // namespace

const Syntax& ReduceFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
