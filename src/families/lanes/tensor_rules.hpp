// The operand-shaped predicates of the compute families on S4D4_TR and S3S3D3_TT (alu-ops.md §2.10, §2.11): one
// builder per shape (an opcode clause, a dtype, a channel range, a start, a pattern, an element count), parameterised
// by the operand it reads. Patterns are judged by their TENSORnD bytes on every generation (PROJ-CONV-K3).
#pragma once

#include <string>
#include <string_view>

#include "families/common.hpp"
#include "tpbisa/families/datapath/format.hpp"

namespace tpbisa::family::tensor_rules {

/// is_valid_dtype(Dtype(x), AllowFp32r), or with Wide the 64-bit form is_valid_dtype_64(d, AllowFp32r, True, True)
/// (common-formats.md §10.4).
template <class S, auto Dtype, bool AllowFp32r, bool Wide>
bool dtype_ok(const S& x, const CheckContext& c) {
  const uint8_t d = Dtype(x);
  if (Wide && (d == dtype::kUint64 || d == dtype::kInt64)) return true;
  return dtype_accepts(d, AllowFp32r, c);
}
template <class S, auto Dtype, bool AllowFp32r, bool Wide, Name Which>
std::string dtype_text(const S& x, const CheckContext& c) {
  std::string_view via;
  pred::is_valid_dtype(Dtype(x), AllowFp32r, c, &via);
  return fmt::format("{} {} fails {} ({})", std::string_view{Which}, dtype_label(Dtype(x), c.gen),
                     Wide ? "is_valid_dtype_64" : "is_valid_dtype",
                     via.empty() ? "64-bit dtypes are not allowed" : via);
}
template <class S, auto Dtype, bool AllowFp32r, bool Wide, Name Which>
constexpr Predicate dtype_rule(std::string_view meaning, std::span<const FieldRef> fields) {
  return rule<S, dtype_ok<S, Dtype, AllowFp32r, Wide>>(
      {.name = Wide ? "is_valid_dtype_64" : "is_valid_dtype",
       .convention = "",
       .meaning = meaning,
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<S, dtype_text<S, Dtype, AllowFp32r, Wide, Which>>});
}

/// is_valid_enum(ALU_OP, op).
template <class S>
constexpr Predicate aluop_rule(std::span<const FieldRef> fields) {
  return rule<S, [](const S& x, const CheckContext& c) { return aluop_in(x.op, c.gen); }>(
      {.name = "is_valid_enum(AluOp)",
       .convention = "",
       .meaning = "op is a member of the generation's ALU_OP enum",
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<S, [](const S& x, const CheckContext& c) {
         return fmt::format("op {} is not in the ALU_OP enum of {}", aluop_label(x.op, c.gen), to_string(c.gen));
       }>});
}

/// The active channel range 1..128 under the name its header gives it (has_valid_active_channel_range(n, 128) or
/// check_active_channels, the same body, alu-ops.md §2.10).
template <class S>
constexpr Predicate channels_rule(std::string_view name, std::span<const FieldRef> fields) {
  return rule<S, [](const S& x,
                    const CheckContext&) { return pred::has_valid_active_channel_range(x.num_active_channels, 128); }>(
      {.name = name,
       .convention = "",
       .meaning = "num_active_channels is 1..128",
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<S, [](const S& x, const CheckContext&) {
         return fmt::format("num_active_channels is {}, must be 1..128", x.num_active_channels);
       }>});
}

/// start_addr_active_channels of operand x.*Operand: a register start, or partition + channels <= 128 (C15).
template <class S, auto Operand>
bool start_ok(const S& x, const CheckContext& c) {
  return pred::start_addr_active_channels((x.*Operand).start_addr, x.num_active_channels, c.gen);
}
template <class S, auto Operand, Name Which>
std::string start_text(const S& x, const CheckContext& c) {
  return fmt::format("{} start {}: its partition + {} active channels must stay within 128 SBUF or PSUM partitions",
                     std::string_view{Which}, addr4_label((x.*Operand).start_addr, c.gen), x.num_active_channels);
}
template <class S, auto Operand, Name Which>
constexpr Predicate start_rule(std::string_view meaning, std::span<const FieldRef> fields) {
  return rule<S, start_ok<S, Operand>>({.name = "start_addr_active_channels",
                                        .convention = "PROJ-CONV-C15",
                                        .meaning = meaning,
                                        .gens = kGensAll,
                                        .fields = fields,
                                        .explain = explain_on_body<S, start_text<S, Operand, Which>>});
}

/// tensorNd_valid(t, d, write, True, True) on the TENSORnD bytes (PROJ-CONV-K3): non-zero counts (or a register
/// shape, CAYMAN+) and a register start or a d-aligned SBUF/PSUM start; PSUM is written only with 4-byte dtypes.
template <class S, auto Operand, auto Dtype, bool Write>
bool pattern_ok(const S& x, const CheckContext& c) {
  const auto& t = x.*Operand;
  return pred::counts_nonzero(t.num_elem, t.start_addr, c.gen) &&
         pred::tensor_start_addr_valid(t.start_addr, Dtype(x), Write, true, true, c.gen);
}
template <class S, auto Operand, auto Dtype, bool Write, Name Which>
std::string pattern_text(const S& x, const CheckContext& c) {
  const auto& t = x.*Operand;
  if (!pred::counts_nonzero(t.num_elem, t.start_addr, c.gen))
    return fmt::format("{} has a zero element count{}", std::string_view{Which},
                       pred::has_shape_escape(c.gen) ? " and its shape does not come from a register"
                                                     : " (no shape-from-register escape on sunda, PROJ-CONV-C18)");
  return fmt::format("{} start {} is not a {}-aligned SBUF/PSUM address for {}{}", std::string_view{Which},
                     addr4_label(t.start_addr, c.gen), dtype_size(Dtype(x)), dtype_label(Dtype(x), c.gen),
                     Write ? " (a tensor written to PSUM must use a 4-byte dtype)" : "");
}
/// A failure of an operand the generation types as a MEM_PATTERN indirect arm rests on PROJ-CONV-K3 (judged as a
/// plain tensor all the same).
template <class S, auto Operand>
std::string_view pattern_convention(const Instruction& i, const CheckContext& c) {
  return datapath::indirect_arm((body<S>(i).*Operand).start_addr, c.gen) ? "PROJ-CONV-K3" : "";
}
template <class S, auto Operand, auto Dtype, bool Write, Name Which>
constexpr Predicate pattern_rule(std::string_view name, std::string_view meaning, std::span<const FieldRef> fields) {
  return rule<S, pattern_ok<S, Operand, Dtype, Write>>(
      {.name = name,
       .convention = "",
       .meaning = meaning,
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<S, pattern_text<S, Operand, Dtype, Write, Which>>,
       .via = nullptr,
       .failure_convention = pattern_convention<S, Operand>});
}

/// Element counts of operands A and B compared by Cmp (equal, or B no larger), true when a start of the two has
/// shape_from_register (CAYMAN+; never on SUNDA, PROJ-CONV-C18).
template <class S, auto A, auto B, bool AtMost>
bool count_ok(const S& x, const CheckContext& c) {
  const auto escapes = [&c](const Addr4& s) { return pred::has_shape_escape(c.gen) && s.shape_from_register(); };
  if (escapes((x.*A).start_addr) || escapes((x.*B).start_addr)) return true;
  return AtMost ? (x.*B).elements() <= (x.*A).elements() : (x.*A).elements() == (x.*B).elements();
}
template <class S, auto A, auto B, Name WhichA, Name WhichB>
std::string count_text(const S& x, const CheckContext&) {
  return fmt::format("{} has {} elements, {} has {}", std::string_view{WhichA}, (x.*A).elements(),
                     std::string_view{WhichB}, (x.*B).elements());
}
template <class S, auto A, auto B, bool AtMost, Name WhichA, Name WhichB>
constexpr Predicate count_rule(std::string_view name, std::string_view convention, std::string_view meaning,
                               std::span<const FieldRef> fields) {
  return rule<S, count_ok<S, A, B, AtMost>>({.name = name,
                                             .convention = convention,
                                             .meaning = meaning,
                                             .gens = kGensAll,
                                             .fields = fields,
                                             .explain = explain_on_body<S, count_text<S, A, B, WhichA, WhichB>>});
}

/// A u8 field x.*F that must hold a value Ok accepts (negated, mask_enable, op_dim, op): "Field is v, must be Must".
template <class S, auto F, auto Ok, Name Field, Name Must>
std::string byte_text(const S& x, const CheckContext&) {
  return fmt::format("{} is {:#04x}, must be {}", std::string_view{Field}, x.*F, std::string_view{Must});
}
template <class S, auto F, auto Ok, Name Field, Name Must>
constexpr Predicate byte_rule(std::string_view name, std::string_view meaning, std::span<const FieldRef> fields) {
  return rule<S, [](const S& x, const CheckContext&) { return Ok(x.*F); }>(
      {.name = name,
       .convention = "",
       .meaning = meaning,
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<S, byte_text<S, F, Ok, Field, Must>>});
}

}  // namespace tpbisa::family::tensor_rules
