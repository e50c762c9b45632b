// The raw-word fast acceptor's building blocks: typed views and tables read straight from the 64 bytes.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>

#include "isa/predicates.hpp"
#include "tpbisa/address.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/validate.hpp"

// The raw forms are forced inline into their acceptor (on_view below), which is what lets `flatten` inline every
// body. The sanitized tree turns it off (CMake defines TPBISA_INLINE_RAW_FORMS=0 there): instrumented, the fully
// inlined acceptors tripled a family file's compile time, and that tree is for checking, not speed.
#ifndef TPBISA_INLINE_RAW_FORMS
#define TPBISA_INLINE_RAW_FORMS 1
#endif
#if TPBISA_INLINE_RAW_FORMS
#define TPBISA_RAW_FORM_INLINE [[gnu::always_inline]] inline
#else
#define TPBISA_RAW_FORM_INLINE inline
#endif

namespace tpbisa::family {

// A predicate's raw form (`Predicate::accepts`) reads the fields it needs from the bytes and calls the predicate's
// own body on them; a validator's acceptor is the conjunction of its predicates' raw forms, generated from the same
// conjunct list (accept_conjuncts). No Instruction, no variant, nothing allocated. Each raw form is sound: it
// returns true only where `holds` of the decoded word does, and may return false ("not sure") anywhere else.

using RawAccept = bool (*)(const uint8_t* word, const CheckContext&);

namespace detail {
// The declaration's fields read one by one, every step forced inline: the generic Wire<S>::read is one variadic
// lambda per format, which the compiler keeps out of line, and then each raw form rebuilt the whole word.
template <class S>
[[gnu::always_inline]] inline void read_view(S& s, const uint8_t* p);
template <class T, size_t N, size_t... I>
[[gnu::always_inline]] inline void read_elements(std::array<T, N>& v, const uint8_t* p, std::index_sequence<I...>) {
  (Wire<T>::read(v[I], p + I * sizeof(T)), ...);
}
template <class T>
inline constexpr bool kWideIntArray = false;
template <class T, size_t N>
inline constexpr bool kWideIntArray<std::array<T, N>> = std::is_integral_v<T> && (sizeof(T) > 1);
template <class T>
[[gnu::always_inline]] inline void read_member(T& v, const uint8_t* p) {
  if constexpr (Composite<T>) {
    read_view(v, p);
  } else if constexpr (kWideIntArray<T>) {
    // Element by element at constant indices (Wire's loop would keep the array in memory): each element is then
    // a scalar the compiler keeps in a register, or drops when no body reads it.
    read_elements(v, p, std::make_index_sequence<std::tuple_size_v<T>>{});
  } else {
    Wire<T>::read(v, p);
  }
}
template <class S, size_t... I>
[[gnu::always_inline]] inline void read_members(S& s, const uint8_t* p, std::index_sequence<I...>) {
  (read_member(s.*(field_at<I>(fields_of<S>).ptr), p + field_at<I>(fields_of<S>).offset), ...);
}
template <class S>
inline void read_view(S& s, const uint8_t* p) {
  read_members(s, p, std::make_index_sequence<field_count<decltype(fields_of<S>)>>{});
}
}  // namespace detail

/// The typed view of a raw word as layout (or nested format) S at `offset`: the fields its declaration lists, read
/// with the same little-endian accessors decode uses. Inlined, only the fields a body reads are loaded.
template <class S>
[[gnu::always_inline]] inline S view(const uint8_t* word, unsigned offset = 0) {
  S s;
  detail::read_view(s, word + offset);
  return s;
}

/// A raw form from a body over the typed view: Body(const S&, const CheckContext&) -> bool, the same function the
/// predicate's `holds` calls on the decoded operand. Forced inline (as on_view_and_word) so that the acceptor's
/// `flatten` reaches the body's own calls: GCC's early inliner had not yet summarised an out-of-line raw form when it
/// flattened the acceptor, and left the body's helpers as calls.
template <class S, auto Body>
TPBISA_RAW_FORM_INLINE bool on_view(const uint8_t* word, const CheckContext& c) {
  return Body(view<S>(word), c);
}

/// A raw form whose body also reads packed fields straight from the word: Body(const S&, const uint8_t* word,
/// const CheckContext&) -> bool, calling the same predicate body as `holds` (e.g. on raw_counts).
template <class S, auto Body>
TPBISA_RAW_FORM_INLINE bool on_view_and_word(const uint8_t* word, const CheckContext& c) {
  return Body(view<S>(word), word, c);
}

/// The 16-bit counts of the field F (a num_elem array of 2 or 4 counts, from the declaration) as one integer, loaded
/// from the word in one read: the value pred::packed_counts gives for the decoded array.
template <const FieldRef& F, size_t N = F.size / 2>
[[gnu::always_inline]] inline pred::PackedCounts<N> raw_counts(const uint8_t* word) {
  static_assert(F.size == 4 || F.size == 8, "a num_elem field of 2 or 4 16-bit counts");
  if constexpr (std::endian::native == std::endian::little) {
    pred::PackedCounts<N> v;
    std::memcpy(&v, word + F.offset, sizeof v);  // the wire's little-endian lanes are the host's
    return v;
  } else {
    std::array<uint16_t, N> counts;
    detail::read_elements(counts, word + F.offset, std::make_index_sequence<N>{});
    return pred::packed_counts(counts);
  }
}

/// A 64-byte mask with every byte of the given fields set (the must-be-zero mask of a format's reserved fields).
template <size_t N>
constexpr std::array<uint64_t, kWordBytes / 8> byte_mask(const std::array<FieldRef, N>& fields) {
  std::array<uint64_t, kWordBytes / 8> m{};
  for (const FieldRef& f : fields)
    for (unsigned b = f.offset; b < unsigned{f.offset} + f.size; ++b) m[b / 8] |= uint64_t{0xFF} << (8 * (b % 8));
  return m;
}

/// Every masked byte of the word is zero, compared 64 bits at a time.
inline bool masked_zero(const uint8_t* word, const std::array<uint64_t, kWordBytes / 8>& mask) {
  uint64_t any = 0;
  for (size_t k = 0; k < mask.size(); ++k) {
    if (mask[k] == 0) continue;
    uint64_t v;
    std::memcpy(&v, word + 8 * k, 8);
    any |= v & mask[k];
  }
  return any == 0;
}

namespace detail {
/// The 8-byte block K of the word and-ed with its mask; no load at all where the mask is zero (a constant).
template <const auto& Mask, size_t K>
[[gnu::always_inline]] inline uint64_t masked_block(const uint8_t* word) {
  if constexpr (Mask[K] == 0) {
    return 0;
  } else {
    uint64_t v;
    std::memcpy(&v, word + 8 * K, 8);
    return v & Mask[K];
  }
}
template <const auto& Mask, size_t... K>
[[gnu::always_inline]] inline bool masked_zero_fixed(const uint8_t* word, std::index_sequence<K...>) {
  return (masked_block<Mask, K>(word) | ...) == 0;
}
template <class S>
inline constexpr auto kReservedMask = byte_mask(field_refs_with_role<S, Role::Reserved>());
}  // namespace detail

/// The must-be-zero check of S's Role::Reserved fields, the mask built at compile time from the declaration: one
/// and-mask per 8-byte block that holds a reserved byte, unrolled at compile time.
template <class S>
[[gnu::always_inline]] inline bool reserved_bytes_zero(const uint8_t* word) {
  return detail::masked_zero_fixed<detail::kReservedMask<S>>(word, std::make_index_sequence<kWordBytes / 8>{});
}

/// The fields F are exactly the declaration's Role::Reserved fields of S.
template <class S, const auto& F>
constexpr bool reads_the_reserved_fields() {
  constexpr auto reserved = field_refs_with_role<S, Role::Reserved>();
  if (std::size(F) != reserved.size()) return false;
  for (size_t k = 0; k < reserved.size(); ++k)
    if (F[k].offset != reserved[k].offset || F[k].size != reserved[k].size) return false;
  return true;
}

/// The raw form of a "these reserved fields are zero" body over F: the declaration's compile-time byte mask, and-ed
/// 64 bits at a time instead of a byte loop over the copied arrays (which cost SET_ORDERING_MODE's 51 reserved
/// bytes one compare each).
template <class S, const auto& F>
bool reserved_mask_accepts(const uint8_t* word, const CheckContext&) {
  static_assert(reads_the_reserved_fields<S, F>(), "the body reads every reserved field of the declaration, no more");
  return reserved_bytes_zero<S>(word);
}

/// A 256-entry table of a one-byte predicate term (built from the term at compile time): per value, the set of
/// generations on which it holds, twice over: bits 0-3 with the term's option off, bits 4-7 with it on (a term
/// without an option sets both alike). With the generation a constant, a look-up is one byte test against a mask
/// that only the option selects (a table per option value took an index computation per look-up).
struct ByteTable {
  std::array<uint8_t, 256> gens{};
  static constexpr unsigned kOptionShift = 4;
  static constexpr unsigned mask(Generation g, bool option) {
    return 1U << (static_cast<unsigned>(g) + (option ? kOptionShift : 0U));
  }
  constexpr bool has(Generation g, uint8_t v, bool option = false) const { return (gens[v] & mask(g, option)) != 0; }
  constexpr void set(Generation g, uint8_t v, bool option) { gens[v] |= static_cast<uint8_t>(mask(g, option)); }
  constexpr void set(Generation g, uint8_t v) {
    set(g, v, false);
    set(g, v, true);
  }
};
static_assert(kAllGenerations.size() <= ByteTable::kOptionShift, "a generation set fits in half a byte");

namespace detail {
constexpr ByteTable make_header_opcode_table() {
  ByteTable t;
  for (Generation g : kAllGenerations)
    for (unsigned op = 0; op < 256; ++op) {
      Header h;
      h.opcode = static_cast<uint8_t>(op);
      h.inst_word_len = kInstWordLen;
      if (pred::has_valid_neuron_header(h, g)) t.set(g, h.opcode);
    }
  return t;
}
/// Index: allow_fp32r; the option half of each entry: options.dtype_enum_runtime.
constexpr std::array<ByteTable, 2> make_valid_dtype_tables() {
  std::array<ByteTable, 2> t{};
  for (unsigned allow = 0; allow < 2; ++allow)
    for (unsigned runtime = 0; runtime < 2; ++runtime)
      for (Generation g : kAllGenerations) {
        CheckContext c{g, {}};
        c.options.dtype_enum_runtime = runtime != 0;
        for (unsigned d = 0; d < 256; ++d)
          if (pred::is_valid_dtype(static_cast<uint8_t>(d), allow != 0, c))
            t[allow].set(g, static_cast<uint8_t>(d), runtime != 0);
      }
  return t;
}
constexpr ByteTable make_aluop_table() {
  ByteTable t;
  for (Generation g : kAllGenerations)
    for (unsigned op = 0; op < 256; ++op)
      if (aluop_in(static_cast<uint8_t>(op), g)) t.set(g, static_cast<uint8_t>(op));
  return t;
}
/// The tables as compile-time constants: the hot path reads them with no initialisation guard.
inline constexpr ByteTable kHeaderOpcodeTable = make_header_opcode_table();
inline constexpr std::array<ByteTable, 2> kValidDtypeTables = make_valid_dtype_tables();
inline constexpr ByteTable kAluOpTable = make_aluop_table();
}  // namespace detail

/// The header predicate's table: has_valid_neuron_header of {opcode, 16} per generation.
constexpr const ByteTable& header_opcode_table() {
  return detail::kHeaderOpcodeTable;
}
/// is_valid_dtype(d, allow_fp32r, ctx) per generation, the option half options.dtype_enum_runtime.
constexpr const ByteTable& valid_dtype_table(bool allow_fp32r) {
  return detail::kValidDtypeTables[allow_fp32r ? 1U : 0U];
}

/// aluop_in per generation: one bit test where the catalog look-up takes two dependent loads.
constexpr const ByteTable& aluop_table() {
  return detail::kAluOpTable;
}

/// has_valid_neuron_header's raw form: inst_word_len is 16 and the opcode's row of the table.
inline bool header_accepts(const uint8_t* word, const CheckContext& c) {
  constexpr FieldRef kOp = field_ref<RawWord>("header.opcode");
  constexpr FieldRef kLen = field_ref<RawWord>("header.inst_word_len");
  return word[kLen.offset] == kInstWordLen && header_opcode_table().has(c.gen, word[kOp.offset]);
}

/// has_valid_neuron_events' raw form: the two catalog enum look-ups of the predicate, on the raw bytes.
inline bool events_accepts(const uint8_t* word, const CheckContext& c) {
  constexpr FieldRef kWait = field_ref<RawWord>("events.wait_mode");
  constexpr FieldRef kUpdate = field_ref<RawWord>("events.update_mode");
  return wait_mode_in(word[kWait.offset], c.gen) && update_mode_in(word[kUpdate.offset], c.gen);
}

/// is_valid_dtype's raw form (the table built from pred::is_valid_dtype, honouring dtype_enum_runtime).
inline bool dtype_accepts(uint8_t d, bool allow_fp32r, const CheckContext& c) {
  return valid_dtype_table(allow_fp32r).has(c.gen, d, c.options.dtype_enum_runtime);
}

// ---- What the route checks before an acceptor runs ----

// Every validator opens with has_valid_neuron_header and has_valid_neuron_events. The generated acceptors leave
// both to their caller, the route (validate.cpp), which checks them in two parts equal to header_accepts and
// events_accepts together: per opcode, once, when it tabulates which acceptor a word of that opcode takes (the
// header's opcode term), and per word, inst_word_len and the two event enums in one test. In each acceptor they took
// four look-ups and four branches of every word.

/// The header's opcode term: header_accepts of a word of this opcode whose inst_word_len is 16.
inline bool route_opcode_accepts(uint8_t opcode, Generation g) {
  return header_opcode_table().has(g, opcode);
}

/// The per-word rest: inst_word_len is 16 and both event modes are members of the generation's enums. `gen_bit` is
/// the generation's bit of a GenSet, which the two enum tables hold per value.
[[gnu::always_inline]] inline bool route_word_accepts(const uint8_t* word, unsigned gen_bit) {
  constexpr FieldRef kLen = field_ref<RawWord>("header.inst_word_len");
  constexpr FieldRef kWait = field_ref<RawWord>("events.wait_mode");
  constexpr FieldRef kUpdate = field_ref<RawWord>("events.update_mode");
  const unsigned events =
      ::tpbisa::detail::kWaitModeGens[word[kWait.offset]] & ::tpbisa::detail::kUpdateModeGens[word[kUpdate.offset]];
  return word[kLen.offset] == kInstWordLen && (events & gen_bit) != 0;
}

constexpr unsigned gen_bit(Generation g) {
  return 1U << static_cast<unsigned>(g);
}
static_assert(GenSet{static_cast<uint8_t>(gen_bit(Generation::Mariana))}.has(Generation::Mariana) &&
                  !GenSet{static_cast<uint8_t>(gen_bit(Generation::Mariana))}.has(Generation::Cayman),
              "a GenSet holds generation g in bit g");

/// The two conjuncts left to the route, by their raw forms.
template <const Predicate* P>
constexpr bool left_to_the_route() {
  return P->accepts == &header_accepts || P->accepts == &events_accepts;
}

// ---- The acceptor generated from a conjunct list ----

namespace detail {
/// One conjunct's raw form on generation G, called through a compile-time constant: the call is direct before the
/// inliner runs, and with on_view forced inline the body and its helpers land in the acceptor with the generation a
/// constant. Called through the Predicate's pointer, the helpers (start and pattern checks, quadrant tests) stayed
/// out of line with the generation a run-time value, and their views were zero-filled in memory.
template <const Predicate* P, Generation G>
[[gnu::always_inline]] inline bool conjunct_accepts(const uint8_t* word, const CheckContext& ctx) {
  if constexpr (!P->gens.has(G) || left_to_the_route<P>()) {
    return true;
  } else {
    constexpr RawAccept kAccepts = P->accepts;
    return kAccepts(word, ctx);
  }
}
}  // namespace detail

template <const auto& Conjuncts, Generation G, size_t... I>
[[gnu::always_inline]] inline bool all_accept(const uint8_t* word, const CheckContext& ctx, std::index_sequence<I...>) {
  return (detail::conjunct_accepts<Conjuncts[I], G>(word, ctx) && ...);
}

/// Every conjunct that applies on generation G, except the two left to the route, accepts the raw word: with the
/// route's checks, the word is valid with no failure. The context
/// is copied with the generation as a constant, so each body's generation terms (geometry, enum profiles, which
/// conjuncts apply) fold into immediates. Flattened: every raw form and the bodies it calls are inlined into one
/// function, so the typed views collapse into the few loads the bodies need (one view per predicate, not inlined,
/// would rebuild the whole word each time).
template <const auto& Conjuncts, Generation G>
[[gnu::flatten]] bool accept_on(const uint8_t* word, const CheckContext& ctx) {
  const CheckContext on{G, ctx.options};
  return all_accept<Conjuncts, G>(word, on, std::make_index_sequence<std::size(Conjuncts)>{});
}

/// The acceptor of every generation, in Generation order.
template <const auto& Conjuncts, size_t... G>
constexpr std::array<RawAccept, sizeof...(G)> make_acceptors(std::index_sequence<G...>) {
  return {&accept_on<Conjuncts, kAllGenerations[G]>...};
}
template <const auto& Conjuncts>
inline constexpr std::array<RawAccept, kAllGenerations.size()> kAcceptors =
    make_acceptors<Conjuncts>(std::make_index_sequence<kAllGenerations.size()>{});

using GenerationAcceptors = std::array<RawAccept, kAllGenerations.size()>;

template <const auto& Conjuncts>
bool accept_conjuncts(const uint8_t* word, const CheckContext& ctx);

namespace detail {
/// Records that `dispatcher` (an accept_conjuncts) selects among `by_generation`; run by static initialisation.
bool register_acceptors(RawAccept dispatcher, const GenerationAcceptors* by_generation);
template <const auto& Conjuncts>
inline const bool kAcceptorsRegistered = register_acceptors(&accept_conjuncts<Conjuncts>, &kAcceptors<Conjuncts>);
}  // namespace detail

/// The generation-specialised acceptors behind a validator's `accept` (null when it is not a generated one, or when
/// asked before static initialisation registered it): a batch loop calls these directly, one indirect call per word.
const GenerationAcceptors* generation_acceptors(RawAccept accept);

/// The conjunction on the context's generation: one table-selected call to the specialised conjunction.
template <const auto& Conjuncts>
bool accept_conjuncts(const uint8_t* word, const CheckContext& ctx) {
  static_cast<void>(detail::kAcceptorsRegistered<Conjuncts>);  // instantiates the registration
  return kAcceptors<Conjuncts>[static_cast<size_t>(ctx.gen)](word, ctx);
}

/// The validator's raw-word acceptor: generated when every conjunct has a raw form, null otherwise (the validator
/// then declines every word, which takes the decode and the full pass).
template <const auto& Conjuncts>
constexpr RawAccept fast_acceptor() {
  for (const Predicate* p : Conjuncts)
    if (p->accepts == nullptr) return nullptr;
  return &accept_conjuncts<Conjuncts>;
}

}  // namespace tpbisa::family
