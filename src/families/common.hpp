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
/// Forced inline into the compiled pass (evaluate_conjuncts), which calls it through a compile-time constant: left
/// to the inliner, the instantiations stayed out of line and decode + validate of the seed-slice stream took 4 %
/// more instructions than the hand-written lambdas it replaced (2 % fewer with it).
template <class S, auto Body>
[[gnu::always_inline]] inline bool holds_on_body(const Instruction& i, const CheckContext& c) {
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
  constexpr auto f = field_at<I>(fields_of<S>);
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
  constexpr size_t kN = field_count<decltype(fields_of<S>)>;
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

/// The reserved-bytes rule and a term Body over layout S (a field that must be zero unless the opcode says
/// otherwise): the decoded form checks the reserved fields and calls Body, the raw form and-s the declaration's
/// byte mask over the word and calls Body on the typed view. `p.fields` lists what the whole rule reads.
template <class S, auto Body>
bool reserved_zero_and(const S& s, const CheckContext& c) {
  return reserved_fields_zero<S>(s, c) && Body(s, c);
}
template <class S, auto Body>
bool reserved_mask_and_view(const uint8_t* word, const CheckContext& c) {
  return reserved_bytes_zero<S>(word) && on_view<S, Body>(word, c);
}
template <class S, auto Body>
constexpr Predicate reserved_and_rule(const PredicateSpec& p) {
  return with_forms(p, &holds_on_body<S, reserved_zero_and<S, Body>>, &reserved_mask_and_view<S, Body>);
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
/// The failure sentence of every opcode clause (it fails only when a validator is asked about another opcode's word).
std::string explain_opcode(const Instruction& i, const CheckContext&);

/// The opcode clause of a validator over layout S: header.opcode is one of Ops.
template <class S, uint8_t... Ops>
constexpr Predicate opcode_clause(std::string_view name, std::string_view convention, std::string_view meaning) {
  return rule<S, has_opcode<Ops...>>({.name = name,
                                      .convention = convention,
                                      .meaning = meaning,
                                      .gens = kGensAll,
                                      .fields = kOpcodeFieldOf<S>,
                                      .explain = explain_opcode});
}

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

/// PROJ-CONV-SQ6: the tile index (header byte 3, PROJ-CONV-C2) is 0 on MAVERICK; MOVE and COMPACT_CONTROL_INST.
constexpr bool tile_idx_zero(const Header& h) {
  return h.debug_hint == 0;
}
inline constexpr FieldRef fTileIdx[] = {field_ref<RawWord>("header.debug_hint")};
std::string explain_tile_idx(const Instruction& i, const CheckContext&);

inline constexpr Predicate kHasTileIdxZero{
    .name = "has_tile_idx_zero",
    .convention = "PROJ-CONV-SQ6",
    .meaning = "(MAVERICK) the tile index in inst_flags (header byte 3, PROJ-CONV-C2) is 0",
    .gens = kGensMaverickOnly,
    .fields = fTileIdx,
    .holds = [](const Instruction& i, const CheckContext&) { return tile_idx_zero(i.header()); },
    .explain = explain_tile_idx,
    .accepts = [](const uint8_t* w, const CheckContext&) { return tile_idx_zero(view<RawWord>(w).header); }};

inline constexpr const Predicate* kHeaderOnlyConjuncts[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents};
inline constexpr Validator kHeaderOnlyValidator{"header-only", Checked::HeaderOnly, kHeaderOnlyConjuncts,
                                                &evaluate_conjuncts<kHeaderOnlyConjuncts>,
                                                fast_acceptor<kHeaderOnlyConjuncts>()};

// ---- Engine placement (PROJ-CONV-F1): which stream engines an opcode may be issued from ----
// The rule is the catalog's placement column (placement_of); this is its predicate.

/// Holds when the engine is unknown (the predicate does not apply) or the table lets the opcode run on it.
bool placed_on_allowed_engine(const Instruction& i, const CheckContext& c);
std::string explain_engine_placement(const Instruction& i, const CheckContext& c);

inline constexpr FieldRef fOpcodeField[] = {field_ref<RawWord>("header.opcode")};

/// The engine-placement conjunct of every validator of the datapath, matmul, sparse matmul, sync and seq families:
/// one predicate over the catalog's placement column.
inline constexpr Predicate kEnginePlacement{
    .name = "engine_placement",
    .convention = "PROJ-CONV-F1",
    .meaning =
        "when the word's stream engine is known (ValidateOptions::engine), the opcode may be issued from it, "
        "as the placement column of its catalog row says (PROJ-CONV-F1): the PE opcodes (LDWEIGHTS, MATMUL, ...) "
        "from PE; the datapath words (COPY, CAST, MEMSET, TENSOR_TENSOR_ARITH_OP, ...) from ACT, DVE or POOL; the "
        "sequencer and synchronisation words from any engine; not applied while the engine is unknown",
    .gens = kGensAll,
    .fields = fOpcodeField,
    .holds = placed_on_allowed_engine,
    .explain = explain_engine_placement,
    .accepts =
        [](const uint8_t* word, const CheckContext& c) {
          return !c.engine().has_value() || placement_of(word[fOpcodeField[0].offset], c.gen).has(*c.engine());
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

/// The element offsets [lo, hi] a TENSOR3D/TENSOR4D pattern reaches (the hull of its walk); hi < lo when a count is 0.
template <class T>
std::pair<int64_t, int64_t> element_hull(const T& t) {
  int64_t lo = 0, hi = 0;
  for (size_t k = 0; k < t.num_elem.size(); ++k) {
    if (t.num_elem[k] == 0) return {0, -1};  // no element
    const int64_t reach = int64_t{t.step_elem[k]} * (t.num_elem[k] - 1);
    (reach < 0 ? lo : hi) += reach;
  }
  return {lo, hi};
}

/// Adds the footprint of tensor operand `name` (`esz`-byte elements on `channels` partitions) when its start address
/// is an immediate in SBUF or PSUM; register and indirect forms (placed at run time) and patterns with no element
/// add nothing.
template <class T>
void add_tensor_footprint(Footprint& f, std::string_view name, const T& t, unsigned esz, unsigned channels, bool write,
                          Generation g) {
  const Addr4Meaning a = describe(t.start_addr, g);
  const auto [lo, hi] = element_hull(t);
  if (!a.plain_immediate || a.target.region == Region::Outside || esz == 0 || hi < lo) return;
  f.add({name, a.target.region, a.target.partition, channels, int64_t{a.target.offset} + lo * esz,
         int64_t{a.target.offset} + hi * esz + esz - 1, write});
}

/// The row of a family's `semantics_not_public` list for the word's opcode, or nullptr.
const Execution::NotPublic* not_public_row(const Instruction& inst, std::span<const Execution::NotPublic> rows);
/// Refuses the run of a word whose semantics are not public: an UnsupportedOpcode fault naming the opcode, what would
/// settle it (`row.source`) and the convention that decided the refusal (none when empty). Returns false.
bool refuse_not_public(const Instruction& inst, exec::Txn& txn, const Execution::NotPublic& row,
                       std::string_view convention);
/// Refuses the run of a word whose execution the family does not model. Returns false.
bool refuse_not_modeled(const Instruction& inst, exec::Txn& txn);

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

/// The placement check of the compute families at run time (PROJ-CONV-K1, A17): when the run knows the engine whose
/// stream holds the word and the catalog's placement column excludes it, a WrongEngine fault; true otherwise (a bare
/// stream with no known engine runs the word).
bool engine_runs(const Instruction& inst, exec::Txn& txn);

/// PROJ-CONV-K7 (alu-ops.md §2.8): the 32 x 32 transposed image of a source with channels in groups of 32 and elements
/// in blocks of 32 takes, at channel c and element k, source channel 32g + i and element 32b + j, where c = 32g + j and
/// k = 32b + i: T[32g + j][32b + i] = S[32g + i][32b + j]. Shared by every transposing opcode (0x6B, 0x83/0x84, 0x93).
struct TransposeSource {
  unsigned channel;
  uint64_t element;
};
constexpr TransposeSource transpose32_source(unsigned c, uint64_t k) {
  const unsigned g = c / 32, j = c % 32;
  const uint64_t b = k / 32, i = k % 32;
  return {32 * g + static_cast<unsigned>(i), 32 * b + j};
}
static_assert(transpose32_source(0, 0).channel == 0 && transpose32_source(0, 0).element == 0);
static_assert(transpose32_source(1, 0).channel == 0 && transpose32_source(1, 0).element == 1);  // T[1][0] = S[0][1]
static_assert(transpose32_source(33, 37).channel == 37 && transpose32_source(33, 37).element == 33);  // g 1, b 1

/// Refuses a dtype without element semantics here (wider than 4 bytes, or not convertible).
bool element_dtype_supported(exec::Txn& txn, uint8_t d, std::string_view which);

/// "UINT32 (0x09)", or "0x42 (not a dtype of cayman)".
std::string dtype_label(uint8_t d, Generation g);
/// "ADD (0x04)", or "0x1e (not an ALU op of cayman)".
std::string aluop_label(uint8_t op, Generation g);
/// "sbuf[p0]+0x100" style rendering of an ADDR4.
std::string addr4_label(const Addr4& a, Generation g);

}  // namespace tpbisa::family
