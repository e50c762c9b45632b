// The raw-word fast acceptor's building blocks: typed views and tables read straight from the 64 bytes.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tpbisa/address.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/validate.hpp"

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
template <class T>
[[gnu::always_inline]] inline void read_member(T& v, const uint8_t* p) {
  if constexpr (Composite<T>)
    read_view(v, p);
  else
    Wire<T>::read(v, p);
}
template <class S, size_t... I>
[[gnu::always_inline]] inline void read_members(S& s, const uint8_t* p, std::index_sequence<I...>) {
  (read_member(s.*(std::get<I>(fields_of<S>).ptr), p + std::get<I>(fields_of<S>).offset), ...);
}
template <class S>
inline void read_view(S& s, const uint8_t* p) {
  read_members(s, p, std::make_index_sequence<std::tuple_size_v<std::remove_cvref_t<decltype(fields_of<S>)>>>{});
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
/// predicate's `holds` calls on the decoded operand.
template <class S, auto Body>
bool on_view(const uint8_t* word, const CheckContext& c) {
  return Body(view<S>(word), c);
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

/// The must-be-zero check of S's Role::Reserved fields, the mask built at compile time from the declaration.
template <class S>
bool reserved_bytes_zero(const uint8_t* word) {
  static constexpr auto kMask = byte_mask(field_refs_with_role<S, Role::Reserved>());
  return masked_zero(word, kMask);
}

/// A 256-entry table of a one-byte predicate term, per generation and option set (built once from the term).
struct ByteTable {
  std::array<std::array<uint64_t, 4>, kAllGenerations.size()> bits{};
  bool has(Generation g, uint8_t v) const { return (bits[static_cast<size_t>(g)][v >> 6] >> (v & 63) & 1U) != 0; }
  void set(Generation g, uint8_t v) { bits[static_cast<size_t>(g)][v >> 6] |= uint64_t{1} << (v & 63); }
};

namespace detail {
ByteTable build_header_opcode_table();
std::array<ByteTable, 4> build_valid_dtype_tables();
}  // namespace detail

/// The header predicate's table: has_valid_neuron_header of {opcode, 16} per generation (built in
/// fast_accept.cpp; function-local statics, inline so the hot path pays one guard load, not a call).
inline const ByteTable& header_opcode_table() {
  static const ByteTable table = detail::build_header_opcode_table();
  return table;
}
/// is_valid_dtype(d, allow_fp32r, ctx) per generation, by (allow_fp32r, options.dtype_enum_runtime).
inline const ByteTable& valid_dtype_table(bool allow_fp32r, bool dtype_enum_runtime) {
  static const std::array<ByteTable, 4> tables = detail::build_valid_dtype_tables();
  return tables[(dtype_enum_runtime ? 2U : 0U) | (allow_fp32r ? 1U : 0U)];
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
  return valid_dtype_table(allow_fp32r, c.options.dtype_enum_runtime).has(c.gen, d);
}

// ---- The acceptor generated from a conjunct list ----

template <const auto& Conjuncts, size_t... I>
inline bool all_accept(const uint8_t* word, const CheckContext& ctx, std::index_sequence<I...>) {
  return ((!Conjuncts[I]->gens.has(ctx.gen) || Conjuncts[I]->accepts(word, ctx)) && ...);
}

/// Every conjunct that applies on the generation accepts the raw word: the word is valid with no failure.
/// Flattened: every raw form and the bodies it calls are inlined into one function, so the typed views collapse
/// into the few loads the bodies need (one view per predicate, not inlined, would rebuild the whole word each time).
template <const auto& Conjuncts>
[[gnu::flatten]] bool accept_conjuncts(const uint8_t* word, const CheckContext& ctx) {
  return all_accept<Conjuncts>(word, ctx, std::make_index_sequence<std::size(Conjuncts)>{});
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
