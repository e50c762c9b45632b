// The operand rules the families share: one body per rule (a tensor pattern's validity, its element count,
// has_valid_immediates over IMM_SRC, is_valid_dtype's failure) and one builder per predicate shape (a dtype, the
// channel range, a start, a pattern, an element count, an immediate, an ALU op, a byte field), parameterised by the
// operand it reads and by the family's wording of the failure sentence.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

#include "families/common.hpp"
#include "tpbisa/families/datapath/format.hpp"

namespace tpbisa::family::operand_rules {

// ---- Bodies ----

/// The member of S at the accessor A: a field (a member pointer) or a reader (a dtype out of a DTYPE_PAIR).
template <class S, auto A>
constexpr auto read(const S& s) {
  if constexpr (std::is_member_object_pointer_v<decltype(A)>)
    return s.*A;
  else
    return A(s);
}

/// A count predicate's shape-from-register escape (PROJ-CONV-A18, C18): CAYMAN+ and the start's shape from a register.
constexpr bool shape_escapes(const Addr4& start, Generation g) {
  return pred::has_shape_escape(g) && start.shape_from_register();
}

/// tensorNd_valid(t, d, write, allow_psum, allow_sbuf) on the TENSORnD bytes (common-formats.md §10.6): non-zero
/// counts (or a register shape, CAYMAN+) and a register start or a d-aligned start in an allowed region.
template <class T>
bool tensor_valid(const T& t, uint8_t d, bool write, Generation g, bool allow_psum = true, bool allow_sbuf = true) {
  return pred::counts_nonzero(t.num_elem, t.start_addr, g) &&
         pred::tensor_start_addr_valid(t.start_addr, d, write, allow_psum, allow_sbuf, g);
}

/// The element count of a TENSORnD pattern: the product of its counts.
template <class T>
constexpr uint64_t elements_of(const T& t) {
  uint64_t n = 1;
  for (const uint16_t k : t.num_elem) n *= k;
  return n;
}

/// The element counts of two patterns agree, or either start takes its shape from a register (CAYMAN+; never on
/// SUNDA, PROJ-CONV-C18).
template <class A, class B>
bool same_count(const A& a, const B& b, Generation g) {
  return shape_escapes(a.start_addr, g) || shape_escapes(b.start_addr, g) || elements_of(a) == elements_of(b);
}

/// has_valid_immediates(value, src, nac, dtype) (common-formats.md §7.2, PROJ-CONV-S4, A11): an instruction value, an
/// on-chip pointer whose partition + nac channels fit and aligned for d, or a register form; a src outside IMM_SRC
/// fails.
constexpr bool immediates_ok(uint32_t value, uint8_t src, unsigned nac, uint8_t d, Generation g) {
  switch (src) {
    case imm_src::kInstruction: return true;
    case imm_src::kPointer: return pred::tpb_addr_active_channels(value, nac, g) && pred::addr_aligned_dtype(value, d);
    case imm_src::kRegPointer: return pred::is_valid_imm_reg(ImmVal{value});
    default: return false;
  }
}
/// Why has_valid_immediates fails for the immediate `which`.
std::string immediate_failure(std::string_view which, uint32_t value, uint8_t src, unsigned nac, uint8_t d);

/// The term of is_valid_dtype(d, allow_fp32r) that fails.
std::string_view dtype_via(uint8_t d, bool allow_fp32r, const CheckContext& c);
/// "{which} {dtype} fails {rule}" ("src UINT64 (0x0a) fails is_valid_dtype (d != UINT64 && d != INT64)"); with no
/// `which`, "{dtype} fails {rule}".
std::string dtype_fails(std::string_view which, uint8_t d, std::string_view rule, const CheckContext& c);
/// is_valid_dtype's failure for the dtype `which`, naming the failing term.
std::string dtype_failure(std::string_view which, uint8_t d, bool allow_fp32r, const CheckContext& c);

// ---- How a family words the failures of the shared shapes (its verdict texts are kept as they are) ----

struct Wording {
  /// A start: "{which} start {addr}: its partition + {n} active channels must stay within {start_limit}".
  std::string_view start_limit;
  /// A pattern: "{which} start {addr} is not a {size}-aligned {pattern_start} for {dtype}{written_note}".
  std::string_view pattern_start;
  std::string_view written_note;
  /// A zero count on SUNDA names the missing shape-from-register escape (PROJ-CONV-C18).
  bool names_sunda_escape;
  /// A count: "{a} has {n} elements, {b} {count_has}{m}".
  std::string_view count_has;
  /// is_valid_dtype's failing term named for a 64-bit dtype (empty: the predicate's own term).
  std::string_view via_64 = "";
};

/// The wording of the compute families (alu-ops.md §2.10).
inline constexpr Wording kPartitionWording{.start_limit = "128 SBUF or PSUM partitions",
                                           .pattern_start = "SBUF/PSUM address",
                                           .written_note = " (a tensor written to PSUM must use a 4-byte dtype)",
                                           .names_sunda_escape = true,
                                           .count_has = "has "};
/// The wording of the pool and index families (a region per operand).
inline constexpr Wording kRegionWording{.start_limit = "its region",
                                        .pattern_start = "start in an allowed region",
                                        .written_note = " (PSUM is written only with 4-byte dtypes)",
                                        .names_sunda_escape = false,
                                        .count_has = ""};

std::string start_failure(const Wording& w, std::string_view which, const Addr4& start, unsigned nac,
                          const CheckContext& c);
std::string pattern_failure(const Wording& w, std::string_view which, const Addr4& start, bool zero_count, uint8_t d,
                            bool write, const CheckContext& c);
/// The failure of tensor_valid(t, d, write).
template <class T>
std::string pattern_failure(const Wording& w, std::string_view which, const T& t, uint8_t d, bool write,
                            const CheckContext& c) {
  return pattern_failure(w, which, t.start_addr, !pred::counts_nonzero(t.num_elem, t.start_addr, c.gen), d, write, c);
}
std::string count_failure(const Wording& w, std::string_view which_a, uint64_t a, std::string_view which_b, uint64_t b);

// ---- Builders ----

/// The failure sentence of an opcode conjunct that names one predicate's opcodes.
std::string explain_predicate_opcode(const Instruction& i, const CheckContext&);
/// An opcode conjunct over layout S with its own name and convention: header.opcode is one of Ops.
template <class S, uint8_t... Ops>
constexpr Predicate opcode_rule(std::string_view name, std::string_view convention, std::string_view meaning,
                                std::span<const FieldRef> fields) {
  return rule<S, has_opcode<Ops...>>({.name = name,
                                      .convention = convention,
                                      .meaning = meaning,
                                      .gens = kGensAll,
                                      .fields = fields,
                                      .explain = explain_predicate_opcode});
}

/// A rule over layout S from its body and its failure sentence, Text(const S&, const CheckContext&) -> std::string.
template <class S, auto Body, auto Text>
constexpr Predicate text_rule(std::string_view name, std::string_view convention, std::string_view meaning,
                              std::span<const FieldRef> fields, GenSet gens = kGensAll) {
  return rule<S, Body>({.name = name,
                        .convention = convention,
                        .meaning = meaning,
                        .gens = gens,
                        .fields = fields,
                        .explain = explain_on_body<S, Text>});
}

/// is_valid_dtype of the dtype at D (with Wide, is_valid_dtype_64 with UINT64 and INT64 allowed, common-formats.md
/// §10.4).
template <class S, auto D, bool AllowFp32r, bool Wide>
bool dtype_ok(const S& x, const CheckContext& c) {
  const uint8_t d = read<S, D>(x);
  if (Wide && (d == dtype::kUint64 || d == dtype::kInt64)) return true;
  return dtype_accepts(d, AllowFp32r, c);
}
template <class S, auto D, bool AllowFp32r, bool Wide, Name Which, const Wording& W>
std::string dtype_text(const S& x, const CheckContext& c) {
  const uint8_t d = read<S, D>(x);
  std::string_view via = dtype_via(d, AllowFp32r, c);
  if (!W.via_64.empty() && (d == dtype::kUint64 || d == dtype::kInt64)) via = W.via_64;
  return dtype_fails(Which, d,
                     fmt::format("{} ({})", Wide ? "is_valid_dtype_64" : "is_valid_dtype",
                                 via.empty() ? "64-bit dtypes are not allowed" : via),
                     c);
}
template <class S, auto D, bool AllowFp32r, Name Which, bool Wide = false, const Wording& W = kPartitionWording>
constexpr Predicate dtype_rule(std::string_view meaning, std::span<const FieldRef> fields,
                               std::string_view convention = "") {
  return rule<S, dtype_ok<S, D, AllowFp32r, Wide>>(
      {.name = Wide ? "is_valid_dtype_64" : "is_valid_dtype",
       .convention = convention,
       .meaning = meaning,
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<S, dtype_text<S, D, AllowFp32r, Wide, Which, W>>});
}

/// The active channel range under the name its header gives it: has_valid_active_channel_range(n, 128), or with
/// Checked check_active_channels(n) (1..the generation's channels).
template <class S, bool Checked>
bool channels_ok(const S& x, const CheckContext& c) {
  return Checked ? pred::check_active_channels(x.num_active_channels, c.gen)
                 : pred::has_valid_active_channel_range(x.num_active_channels, 128);
}
template <class S, bool Checked>
std::string channels_text(const S& x, const CheckContext& c) {
  return fmt::format("num_active_channels is {}, must be 1..{}", x.num_active_channels,
                     Checked ? geometry(c.gen).channels : 128U);
}
template <class S, bool Checked = false>
constexpr Predicate channels_rule(std::string_view name, std::string_view meaning, std::span<const FieldRef> fields,
                                  std::string_view convention = "") {
  return rule<S, channels_ok<S, Checked>>({.name = name,
                                           .convention = convention,
                                           .meaning = meaning,
                                           .gens = kGensAll,
                                           .fields = fields,
                                           .explain = explain_on_body<S, channels_text<S, Checked>>});
}

/// start_addr_active_channels of the pattern at P over num_active_channels (One: over one channel): a register
/// start, or partition + channels within its region (PROJ-CONV-C15).
template <class S, auto P, bool One>
bool start_ok(const S& x, const CheckContext& c) {
  return pred::start_addr_active_channels((x.*P).start_addr, One ? 1U : x.num_active_channels, c.gen);
}
template <class S, auto P, bool One, Name Which, const Wording& W>
std::string start_text(const S& x, const CheckContext& c) {
  return start_failure(W, Which, (x.*P).start_addr, One ? 1U : unsigned{x.num_active_channels}, c);
}
template <class S, auto P, Name Which, const Wording& W = kPartitionWording, bool One = false>
constexpr Predicate start_rule(std::string_view meaning, std::span<const FieldRef> fields,
                               std::string_view convention = "PROJ-CONV-C15") {
  return rule<S, start_ok<S, P, One>>({.name = "start_addr_active_channels",
                                       .convention = convention,
                                       .meaning = meaning,
                                       .gens = kGensAll,
                                       .fields = fields,
                                       .explain = explain_on_body<S, start_text<S, P, One, Which, W>>});
}

/// The generations on which a pattern may lie in PSUM (a GenSet's bits).
inline constexpr uint8_t kPsumOnAll = 0x0F;

/// tensor_valid of the pattern at P in the dtype at D, read or (Write) written; PSUM allowed on the generations of
/// PsumGens.
template <class S, auto P, auto D, bool Write, uint8_t PsumGens>
bool pattern_ok(const S& x, const CheckContext& c) {
  return tensor_valid(x.*P, read<S, D>(x), Write, c.gen, GenSet{PsumGens}.has(c.gen));
}
template <class S, auto P, auto D, bool Write, Name Which, const Wording& W>
std::string pattern_text(const S& x, const CheckContext& c) {
  return pattern_failure(W, Which, x.*P, read<S, D>(x), Write, c);
}
template <class S, auto P, auto D, bool Write, Name Which, const Wording& W = kPartitionWording,
          uint8_t PsumGens = kPsumOnAll>
constexpr Predicate pattern_rule(std::string_view name, std::string_view meaning, std::span<const FieldRef> fields,
                                 std::string_view (*failure_convention)(const Instruction&,
                                                                        const CheckContext&) = nullptr) {
  return rule<S, pattern_ok<S, P, D, Write, PsumGens>>(
      {.name = name,
       .convention = "",
       .meaning = meaning,
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<S, pattern_text<S, P, D, Write, Which, W>>,
       .via = nullptr,
       .failure_convention = failure_convention});
}

/// The element counts of the patterns at A and B are equal (AtMost: B's no larger), true when either start Escapes
/// (by default a shape from a register, CAYMAN+; never on SUNDA, PROJ-CONV-C18).
template <class S, auto A, auto B, bool AtMost, auto Escapes>
bool count_ok(const S& x, const CheckContext& c) {
  if (Escapes((x.*A).start_addr, c.gen) || Escapes((x.*B).start_addr, c.gen)) return true;
  return AtMost ? elements_of(x.*B) <= elements_of(x.*A) : elements_of(x.*A) == elements_of(x.*B);
}
template <class S, auto A, auto B, Name WhichA, Name WhichB, const Wording& W>
std::string count_text(const S& x, const CheckContext&) {
  return count_failure(W, WhichA, elements_of(x.*A), WhichB, elements_of(x.*B));
}
template <class S, auto A, auto B, Name WhichA, Name WhichB, const Wording& W = kPartitionWording, bool AtMost = false,
          auto Escapes = shape_escapes>
constexpr Predicate count_rule(std::string_view name, std::string_view convention, std::string_view meaning,
                               std::span<const FieldRef> fields) {
  return rule<S, count_ok<S, A, B, AtMost, Escapes>>(
      {.name = name,
       .convention = convention,
       .meaning = meaning,
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<S, count_text<S, A, B, WhichA, WhichB, W>>});
}

/// A failure of an operand the generation types as a MEM_PATTERN indirect arm rests on PROJ-CONV-K3 (judged as a
/// plain tensor all the same).
template <class S, auto Operand>
std::string_view indirect_arm_convention(const Instruction& i, const CheckContext& c) {
  return datapath::indirect_arm((body<S>(i).*Operand).start_addr, c.gen) ? "PROJ-CONV-K3" : "";
}
/// has_valid_immediates of the IMM_VAL at V read per the IMM_SRC at Src, elements of dtype D.
template <class S, auto V, auto Src, uint8_t D>
bool immediate_ok(const S& x, const CheckContext& c) {
  return immediates_ok(static_cast<uint32_t>(read<S, V>(x)), x.*Src, x.num_active_channels, D, c.gen);
}
template <class S, auto V, auto Src, uint8_t D, Name Which>
std::string immediate_text(const S& x, const CheckContext&) {
  return immediate_failure(Which, static_cast<uint32_t>(read<S, V>(x)), x.*Src, x.num_active_channels, D);
}
template <class S, auto V, auto Src, uint8_t D, Name Which>
constexpr Predicate immediate_rule(std::span<const FieldRef> fields) {
  return rule<S, immediate_ok<S, V, Src, D>>(
      {.name = "has_valid_immediates",
       .convention = "PROJ-CONV-A11",
       .meaning = "the immediate operand per its IMM_SRC: an instruction value, an aligned on-chip pointer whose "
                  "channels fit, or a register < 64",
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<S, immediate_text<S, V, Src, D, Which>>});
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

}  // namespace tpbisa::family::operand_rules
