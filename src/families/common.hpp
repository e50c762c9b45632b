// Shared pieces of the family files: the common predicates every validator starts with, and helpers.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "core/exec.hpp"
#include "core/predicates.hpp"
#include "families/family.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::family {

/// The typed body of an instruction whose format the dispatcher has already checked.
template <class S>
const S& body(const Instruction& i) {
  return *std::get_if<S>(&i.body);
}

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
};

inline constexpr const Predicate* kHeaderOnlyConjuncts[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents};
inline constexpr Validator kHeaderOnlyValidator{"header-only", Checked::HeaderOnly, kHeaderOnlyConjuncts,
                                                &evaluate_conjuncts<kHeaderOnlyConjuncts>};

// ---- Engine placement (PROJ-CONV-F1): which stream engines an opcode may be issued from ----

/// A set of stream engines as data (bit e = StreamEngine e), with the sentence docs and failures use for it.
struct EnginePlacement {
  uint8_t engines;
  std::string_view allowed;  ///< "ACT, DVE or POOL"
  std::string_view meaning;  ///< the predicate's one-sentence requirement (docs/predicates.md)
  constexpr bool has(StreamEngine e) const { return (engines >> static_cast<unsigned>(e) & 1U) != 0; }
};

constexpr uint8_t engine_bits(std::initializer_list<StreamEngine> engines) {
  uint8_t bits = 0;
  for (StreamEngine e : engines) bits = static_cast<uint8_t>(bits | 1U << static_cast<unsigned>(e));
  return bits;
}

/// PROJ-CONV-F1 (real-programs.md §1, §15): COPY, CAST, MEMSET and TENSOR_TENSOR_ARITH_OP run on ACT, DVE and
/// POOL, never on PE or SP (the hardware's per-engine table is UNKNOWN).
inline constexpr EnginePlacement kDatapathEngines{
    engine_bits({StreamEngine::Act, StreamEngine::Dve, StreamEngine::Pool}), "ACT, DVE or POOL",
    "when the word's stream engine is known (ValidateOptions::engine), it is ACT, DVE or POOL "
    "(PROJ-CONV-F1); not applied while the engine is unknown"};

/// Holds when the engine is unknown (the predicate does not apply) or is one of `P`'s.
template <const EnginePlacement& P>
bool placed_on_allowed_engine(const Instruction&, const CheckContext& c) {
  return !c.engine().has_value() || P.has(*c.engine());
}

std::string explain_engine_placement(const Instruction& i, const CheckContext& c, std::string_view allowed);

template <const EnginePlacement& P>
std::string explain_placement(const Instruction& i, const CheckContext& c) {
  return explain_engine_placement(i, c, P.allowed);
}

inline constexpr FieldRef fOpcodeField[] = {field_ref<RawWord>("header.opcode")};

/// The engine-placement conjunct of a validator whose opcodes run on the engines of `P`: one predicate,
/// `engine_placement`, any family can add to its lists with its own engine set.
template <const EnginePlacement& P>
inline constexpr Predicate kEnginePlacement{
    .name = "engine_placement",
    .convention = "PROJ-CONV-F1",
    .meaning = P.meaning,
    .gens = kGensAll,
    .fields = fOpcodeField,
    .holds = placed_on_allowed_engine<P>,
    .explain = explain_placement<P>,
};

/// "reserved byte N is 0xXX, must be 0" for the first set byte of the reserved fields, in word order.
inline std::string explain_reserved_bytes(const Word& w, std::span<const FieldRef> reserved) {
  for (const FieldRef& f : reserved)
    for (unsigned b = f.offset; b < unsigned{f.offset} + f.size; ++b)
      if (w[b] != 0) return fmt::format("reserved byte {} is {:#04x}, must be 0", b, w[b]);
  return "a reserved byte is not zero";
}

/// "UINT32 (0x09)", or "0x42 (not a dtype of cayman)".
std::string dtype_label(uint8_t d, Generation g);
/// "ADD (0x04)", or "0x1e (not an ALU op of cayman)".
std::string aluop_label(uint8_t op, Generation g);
/// "sbuf[p0]+0x100" style rendering of an ADDR4.
std::string addr4_label(const Addr4& a, Generation g);

}  // namespace tpbisa::family
