// The failure sentences of the shared operand rules (src/families/operand_rules.hpp).
#include "families/operand_rules.hpp"

namespace tpbisa::family::operand_rules {

std::string explain_predicate_opcode(const Instruction& i, const CheckContext&) {
  return fmt::format("opcode {:#04x} is not the opcode this predicate requires", i.opcode());
}

std::string immediate_failure(std::string_view which, uint32_t value, uint8_t src, unsigned nac, uint8_t d) {
  switch (src) {
    case imm_src::kPointer:
      return fmt::format("{} pointer {:#010x}: not a {}-aligned SBUF/PSUM address whose partition + {} channels fit",
                         which, value, dtype_size(d), nac);
    case imm_src::kRegPointer:
      return fmt::format("{} register form {:#010x}: the register must be < 64 and bytes 1..3 zero", which, value);
    default: return fmt::format("{} source {} is not an IMM_SRC (0, 1, 2)", which, src);
  }
}

std::string_view dtype_via(uint8_t d, bool allow_fp32r, const CheckContext& c) {
  std::string_view via;
  pred::is_valid_dtype(d, allow_fp32r, c, &via);
  return via;
}

std::string dtype_fails(std::string_view which, uint8_t d, std::string_view rule, const CheckContext& c) {
  if (which.empty()) return fmt::format("{} fails {}", dtype_label(d, c.gen), rule);
  return fmt::format("{} {} fails {}", which, dtype_label(d, c.gen), rule);
}

std::string dtype_failure(std::string_view which, uint8_t d, bool allow_fp32r, const CheckContext& c) {
  return dtype_fails(which, d, fmt::format("is_valid_dtype ({})", dtype_via(d, allow_fp32r, c)), c);
}

std::string start_failure(const Wording& w, std::string_view which, const Addr4& start, unsigned nac,
                          const CheckContext& c) {
  return fmt::format("{} start {}: its partition + {} active channels must stay within {}", which,
                     addr4_label(start, c.gen), nac, w.start_limit);
}

std::string pattern_failure(const Wording& w, std::string_view which, const Addr4& start, bool zero_count, uint8_t d,
                            bool write, const CheckContext& c) {
  if (zero_count)
    return fmt::format("{} has a zero element count{}", which,
                       !w.names_sunda_escape || pred::has_shape_escape(c.gen)
                           ? " and its shape does not come from a register"
                           : " (no shape-from-register escape on sunda, PROJ-CONV-C18)");
  return fmt::format("{} start {} is not a {}-aligned {} for {}{}", which, addr4_label(start, c.gen), dtype_size(d),
                     w.pattern_start, dtype_label(d, c.gen), write ? w.written_note : "");
}

std::string count_failure(const Wording& w, std::string_view which_a, uint64_t a, std::string_view which_b,
                          uint64_t b) {
  return fmt::format("{} has {} elements, {} {}{}", which_a, a, which_b, w.count_has, b);
}

}  // namespace tpbisa::family::operand_rules
