// Shared pieces of the family files: the common predicates every validator starts with, and helpers.
#pragma once

#include <algorithm>
#include <array>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "families/family.hpp"
#include "families/fast_accept.hpp"
#include "isa/exec.hpp"
#include "isa/predicates.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::family {

/// The typed body of an instruction whose format the dispatcher has already checked.
template <class S>
const S& body(const Instruction& i) {
  return *std::get_if<S>(&i.body);
}

// ---- One body per predicate: a rule written once gives both forms of its Predicate ----

/// `holds` of a rule over layout S, Body(const S&, const CheckContext&) -> bool, called on the decoded operand.
template <class S, auto Body>
bool holds_on_body(const Instruction& i, const CheckContext& c) {
  return Body(body<S>(i), c);
}

/// `explain` from a sentence over layout S, Text(const S&, const CheckContext&) -> std::string.
template <class S, auto Text>
std::string explain_on_body(const Instruction& i, const CheckContext& c) {
  return Text(body<S>(i), c);
}

/// What a predicate says about itself (Predicate without its two forms): the name, convention, meaning,
/// generations, fields read and failure sentence a rule's builder completes.
struct PredicateSpec {
  std::string_view name;
  std::string_view convention = "";
  std::string_view meaning;
  GenSet gens = kGensAll;
  std::span<const FieldRef> fields = {};
  std::string (*explain)(const Instruction&, const CheckContext&) = nullptr;
  std::string_view (*via)(const Instruction&, const CheckContext&) = nullptr;
  std::string_view (*failure_convention)(const Instruction&, const CheckContext&) = nullptr;
};

/// The Predicate of `p` with the two forms of its rule: `holds` on the decoded word, `accepts` on the raw bytes.
constexpr Predicate with_forms(const PredicateSpec& p, bool (*holds)(const Instruction&, const CheckContext&),
                               RawAccept accepts) {
  return {.name = p.name,
          .convention = p.convention,
          .meaning = p.meaning,
          .gens = p.gens,
          .fields = p.fields,
          .holds = holds,
          .explain = p.explain,
          .via = p.via,
          .failure_convention = p.failure_convention,
          .accepts = accepts};
}

/// The Predicate of `p` whose `holds` and `accepts` are made from the one rule `Body` over layout S: `holds`
/// calls it on the decoded operand, `accepts` on the typed view of the raw 64 bytes (on_view), so the two forms
/// cannot disagree.
template <class S, auto Body>
constexpr Predicate rule(const PredicateSpec& p) {
  return with_forms(p, &holds_on_body<S, Body>, &on_view<S, Body>);
}

/// The opcode clause's term: the header's opcode is one of Ops.
template <uint8_t... Ops>
constexpr bool opcode_is(const Header& h) {
  return ((h.opcode == Ops) || ...);
}
/// The field an opcode clause reads.
template <class S>
inline constexpr FieldRef kOpcodeFieldOf[] = {field_ref<S>("header.opcode")};
/// The rule of an opcode clause over any layout (every one declares its header).
template <uint8_t... Ops>
inline constexpr auto has_opcode = [](const auto& x, const CheckContext&) { return opcode_is<Ops...>(x.header); };

namespace detail {
template <class M>
constexpr bool member_zero(const M& v) {
  if constexpr (requires { v.begin(); }) {
    return std::all_of(v.begin(), v.end(), [](auto b) { return b == 0; });
  } else {
    return v == 0;
  }
}
template <class S, size_t I>
constexpr bool reserved_member_zero(const S& s) {
  constexpr auto f = std::get<I>(fields_of<S>);
  if constexpr (f.role == Role::Reserved)
    return member_zero(s.*(f.ptr));
  else
    return true;
}
template <class S, size_t... I>
constexpr bool reserved_members_zero(const S& s, std::index_sequence<I...>) {
  return (reserved_member_zero<S, I>(s) && ...);
}
}  // namespace detail

/// The reserved-bytes rule: every field S's declaration gives Role::Reserved is zero.
template <class S>
bool reserved_fields_zero(const S& s, const CheckContext&) {
  constexpr size_t kN = std::tuple_size_v<std::remove_cvref_t<decltype(fields_of<S>)>>;
  return detail::reserved_members_zero(s, std::make_index_sequence<kN>{});
}

/// A "reserved bytes are zero" predicate over S's Role::Reserved fields F (checked to be all of them): `holds` on the
/// decoded fields, `accepts` the declaration's compile-time byte mask on the raw word.
template <class S, const auto& F>
constexpr Predicate reserved_rule(PredicateSpec p) {
  static_assert(reads_the_reserved_fields<S, F>(), "the rule reads every reserved field of the declaration, no more");
  p.fields = F;
  return with_forms(p, &holds_on_body<S, reserved_fields_zero<S>>, &reserved_mask_accepts<S, F>);
}

/// A word used as a template argument (an operand's name in a shared predicate's sentence, "src0").
template <size_t N>
struct Name {
  char text[N]{};
  consteval Name(const char (&s)[N]) { std::copy_n(s, N, text); }
  constexpr operator std::string_view() const { return {text, N - 1}; }
};

/// Records the failing conjunct at `index` (at most kMaxFailures kept, PROJ-CONV-C10).
inline void record_failure(Verdict& out, size_t index) {
  out.valid = false;
  if (out.n_failed < kMaxFailures)
    out.failed_index[out.n_failed++] = static_cast<uint8_t>(index);
  else
    out.truncated = true;
}

template <const Predicate* P, size_t Index>
inline void check_one(const Instruction& inst, const CheckContext& ctx, Verdict& out) {
  if (P->gens.has(ctx.gen) && !P->holds(inst, ctx)) record_failure(out, Index);
}

template <const auto& Conjuncts, size_t... I>
inline void check_all(const Instruction& inst, const CheckContext& ctx, Verdict& out, std::index_sequence<I...>) {
  (check_one<Conjuncts[I], I>(inst, ctx, out), ...);
}

/// Validator lists built from shared parts (no macro): the parts' predicates, in order, as one array.
template <size_t... N>
constexpr auto concat_predicates(const std::array<const Predicate*, N>&... parts) {
  std::array<const Predicate*, (N + ...)> out{};
  size_t k = 0;
  ((std::copy(parts.begin(), parts.end(), out.begin() + static_cast<std::ptrdiff_t>(k)), k += N), ...);
  return out;
}

/// The fast path: the same predicates in boolean short-circuit mode, nothing recorded.
template <const auto& Conjuncts, size_t... I>
inline bool all_hold(const Instruction& inst, const CheckContext& ctx, std::index_sequence<I...>) {
  return ((!Conjuncts[I]->gens.has(ctx.gen) || Conjuncts[I]->holds(inst, ctx)) && ...);
}

/// A validator's conjunction with every predicate call resolved at compile time (no indirect calls). A word
/// every conjunct accepts leaves `out` as it came (valid, no failures) after one short-circuit pass; only a
/// word some conjunct rejects takes the full pass, which evaluates the same list in the same order without
/// short-circuit and records every failure. Both passes call the same predicate functions, so the verdict is
/// the one the full pass alone would give (tests/unit/fast_path_test.cpp checks it against the list).
template <const auto& Conjuncts>
void evaluate_conjuncts(const Instruction& inst, const CheckContext& ctx, Verdict& out) {
  constexpr auto kIndices = std::make_index_sequence<std::size(Conjuncts)>{};
  if (all_hold<Conjuncts>(inst, ctx, kIndices)) [[likely]]
    return;
  check_all<Conjuncts>(inst, ctx, out, kIndices);
}

std::string explain_header(const Instruction& i, const CheckContext& ctx);
std::string_view header_convention(const Instruction& i, const CheckContext&);
std::string explain_events(const Instruction& i, const CheckContext& ctx);

inline constexpr FieldRef fHeaderFields[] = {field_ref<RawWord>("header.opcode"),
                                             field_ref<RawWord>("header.inst_word_len")};
inline constexpr FieldRef fEventFields[] = {field_ref<RawWord>("events.wait_mode"),
                                            field_ref<RawWord>("events.update_mode")};

inline constexpr Predicate kHasValidNeuronHeader{
    .name = "has_valid_neuron_header",
    .convention = "",
    .meaning =
        "the opcode is a member of the generation's OPCODE enum (INVALID 0xff excluded, PROJ-CONV-C11) "
        "and inst_word_len is 16",
    .gens = kGensAll,
    .fields = fHeaderFields,
    .holds = [](const Instruction& i,
                const CheckContext& c) { return pred::has_valid_neuron_header(i.header(), c.gen); },
    .explain = explain_header,
    .via = nullptr,
    .failure_convention = header_convention,
    .accepts = header_accepts,
};

inline constexpr Predicate kHasValidNeuronEvents{
    .name = "has_valid_neuron_events",
    .convention = "",
    .meaning =
        "wait_mode and update_mode are members of the generation's WAIT_MODE and UPDATE_MODE enums "
        "(the semaphore-consistency term is taken as true, PROJ-CONV-M1)",
    .gens = kGensAll,
    .fields = fEventFields,
    .holds = [](const Instruction& i,
                const CheckContext& c) { return pred::has_valid_neuron_events(i.events(), c.gen); },
    .explain = explain_events,
    .accepts = events_accepts,
};

inline constexpr const Predicate* kHeaderOnlyConjuncts[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents};
inline constexpr Validator kHeaderOnlyValidator{"header-only", Checked::HeaderOnly, kHeaderOnlyConjuncts,
                                                &evaluate_conjuncts<kHeaderOnlyConjuncts>,
                                                fast_acceptor<kHeaderOnlyConjuncts>()};

// ---- Engine placement (PROJ-CONV-F1): which stream engines an opcode may be issued from ----

/// A set of stream engines as data (bit e = StreamEngine e), with the words failures use for it.
struct EnginePlacement {
  uint8_t engines;
  std::string_view allowed;  ///< "ACT, DVE or POOL"
  constexpr bool has(StreamEngine e) const { return (engines >> static_cast<unsigned>(e) & 1U) != 0; }
};

constexpr uint8_t engine_bits(std::initializer_list<StreamEngine> engines) {
  uint8_t bits = 0;
  for (StreamEngine e : engines) bits = static_cast<uint8_t>(bits | 1U << static_cast<unsigned>(e));
  return bits;
}

inline constexpr EnginePlacement kPeEngine{engine_bits({StreamEngine::Pe}), "PE"};
inline constexpr EnginePlacement kDatapathEngines{
    engine_bits({StreamEngine::Act, StreamEngine::Dve, StreamEngine::Pool}), "ACT, DVE or POOL"};
inline constexpr EnginePlacement kAnyEngine{
    engine_bits({StreamEngine::Pe, StreamEngine::Act, StreamEngine::Pool, StreamEngine::Dve, StreamEngine::Sp}),
    "any engine"};

/// One row of the placement table: an opcode and the engines it may be issued from.
struct PlacementRow {
  uint8_t opcode;
  const EnginePlacement* placement;
};

/// PROJ-CONV-F1 as one table (real-programs.md §1, §15), the only place a family states placement: COPY, CAST,
/// MEMSET and TENSOR_TENSOR_ARITH_OP run on ACT, DVE and POOL, never on PE or SP (the hardware's per-engine table
/// is UNKNOWN); LDWEIGHTS and MATMUL on PE (F1 extended to the PE opcodes). Every opcode without a row -- the
/// sequencer control block, EVENT_SEMAPHORE, SET_ORDERING_MODE, PSEUDO_BRANCH_LABEL, PSEUDO_DMA_DIRECT2D -- may be
/// issued from any engine; that a DMA's engine owns its queue set only the NEFF shows (dma_queue_set_owned).
inline constexpr PlacementRow kPlacementTable[] = {
    {opcode::kLdWeights, &kPeEngine},
    {opcode::kMatmul, &kPeEngine},
    {opcode::kCopy, &kDatapathEngines},
    {opcode::kCast, &kDatapathEngines},
    {opcode::kTensorTensorArith, &kDatapathEngines},
    {opcode::kMemset, &kDatapathEngines},
};

constexpr const EnginePlacement& placement_of(uint8_t op) {
  for (const PlacementRow& r : kPlacementTable)
    if (r.opcode == op) return *r.placement;
  return kAnyEngine;
}

/// Holds when the engine is unknown (the predicate does not apply) or the table lets the opcode run on it.
bool placed_on_allowed_engine(const Instruction& i, const CheckContext& c);
std::string explain_engine_placement(const Instruction& i, const CheckContext& c);

inline constexpr FieldRef fOpcodeField[] = {field_ref<RawWord>("header.opcode")};

/// The engine-placement conjunct of every validator of the datapath, matmul, sync and seq families: one
/// predicate over kPlacementTable.
inline constexpr Predicate kEnginePlacement{
    .name = "engine_placement",
    .convention = "PROJ-CONV-F1",
    .meaning =
        "when the word's stream engine is known (ValidateOptions::engine), the opcode may be issued from it "
        "(PROJ-CONV-F1): LDWEIGHTS and MATMUL from PE; COPY, CAST, MEMSET and TENSOR_TENSOR_ARITH_OP from "
        "ACT, DVE or POOL; the sequencer and synchronisation words from any engine; not applied while the "
        "engine is unknown",
    .gens = kGensAll,
    .fields = fOpcodeField,
    .holds = placed_on_allowed_engine,
    .explain = explain_engine_placement,
    .accepts =
        [](const uint8_t* word, const CheckContext& c) {
          return !c.engine().has_value() || placement_of(word[fOpcodeField[0].offset]).has(*c.engine());
        },
};

/// "reserved byte N is 0xXX, must be 0" for the first set byte of the reserved fields, in word order.
inline std::string explain_reserved_bytes(const Word& w, std::span<const FieldRef> reserved) {
  for (const FieldRef& f : reserved)
    for (unsigned b = f.offset; b < unsigned{f.offset} + f.size; ++b)
      if (w[b] != 0) return fmt::format("reserved byte {} is {:#04x}, must be 0", b, w[b]);
  return "a reserved byte is not zero";
}

// ---- Execution helpers shared by the executors of the real-program families ----

/// Element offset (in elements) of flat element k of a TENSOR3D/TENSOR4D pattern, dimension 0 fastest; a
/// count of 0 walks as 1 (common-formats.md §6.1).
template <class T>
int64_t pattern_offset(const T& t, uint64_t k) {
  int64_t off = 0;
  for (size_t d = 0; d < t.num_elem.size(); ++d) {
    const uint64_t n = t.num_elem[d] == 0 ? 1 : t.num_elem[d];
    off += static_cast<int64_t>(k % n) * t.step_elem[d];
    k /= n;
  }
  return off;
}

/// Resolves an on-chip pattern's start (immediate or register; indirect and shape-register forms refused).
bool onchip_start(exec::Txn& txn, const Addr4& a, uint32_t& base, std::string_view which);

/// The address of element k of channel c of a pattern at `base`, or an OutOfRange fault.
template <class T>
bool onchip_at(exec::Txn& txn, uint32_t base, const T& t, unsigned c, uint64_t k, unsigned size, std::string_view which,
               uint64_t& address) {
  const int64_t off = pattern_offset(t, k) * int64_t{size};
  if (exec::onchip_element(txn.gen(), base, c, off, size, address)) return true;
  return txn.fail_at(FaultKind::OutOfRange, exec::nominal_element_address(txn.gen(), base, c, off),
                     fmt::format("channel {} {} element {} leaves SBUF/PSUM or its partition's backed bytes "
                                 "(PROJ-CONV-N2)",
                                 c, which, k));
}

/// Refuses a dtype without element semantics here (wider than 4 bytes, or not convertible).
bool element_dtype_supported(exec::Txn& txn, uint8_t d, std::string_view which);

/// "UINT32 (0x09)", or "0x42 (not a dtype of cayman)".
std::string dtype_label(uint8_t d, Generation g);
/// "ADD (0x04)", or "0x1e (not an ALU op of cayman)".
std::string aluop_label(uint8_t op, Generation g);
/// "sbuf[p0]+0x100" style rendering of an ADDR4.
std::string addr4_label(const Addr4& a, Generation g);

}  // namespace tpbisa::family
