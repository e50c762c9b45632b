// Batch-norm statistics and search family syntax: which count immediates a word reads, and their meanings by opcode.
#include <bit>

#include "families/bnsearch/format.hpp"
#include "families/family.hpp"

#include <fmt/format.h>

namespace tpbisa::family {
namespace {

using namespace bnsearch;

/// even_count and odd_count are operands only of the opcodes that write them (§14.3); the others leave them out of
/// the text when zero, as the validators require.
bool operand_used(const Instruction& inst, std::string_view path) {
  if (path == "even_count") return reads_even_count(inst.opcode());
  if (path == "odd_count") return reads_odd_count(inst.opcode());
  return true;
}

std::string meaning(const Instruction& inst, std::string_view path) {
  if (const auto* s = inst.as<S4d2Bn>()) {
    const uint8_t op = inst.opcode();
    if (path == "even_count")
      return reads_even_count(op) ? fmt::format("count {} written to output slot 0", s->even_count.as_fp32())
                                  : std::string("unused by this opcode, must be 0.0");
    if (path == "odd_count")
      return reads_odd_count(op) ? fmt::format("count {} written to output slot 3", s->odd_count.as_fp32())
                                 : std::string(op == kBnStats ? "unused by BATCH_NORM_STATS, must be finite"
                                                              : "unused by this opcode, must be 0.0");
  }
  if (const auto* m = inst.as<S4d4Mr>(); m != nullptr && path == "immediate")
    return fmt::format("every matched element becomes {}", m->immediate.as_fp32());
  return {};
}

constexpr Syntax kSyntax{
    .note = "even_count and odd_count are written only for the opcodes that read them (or when not zero)",
    .operand_used = operand_used,
    .meaning = meaning};

}  // namespace

const Syntax& BnSearchFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
