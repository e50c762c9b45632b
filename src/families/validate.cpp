// Validation dispatch: picks the validator by opcode and generation, evaluates every conjunct.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "families/common.hpp"

namespace tpbisa {

std::string_view to_string(Basis b) {
  return b == Basis::Isa ? "isa" : "convention";
}
std::string_view to_string(Checked c) {
  return c == Checked::Full ? "full" : "header-only";
}

bool Verdict::fails(std::string_view predicate) const {
  for (const Predicate* p : failures())
    if (p->name == predicate) return true;
  return false;
}

namespace {

const Validator& select_validator(uint8_t op, Generation gen) {
  // The catalog's format column names the family; its validator table names the validator (registry.cpp).
  const Validator* v = family::validator_of(op, gen);
  return v != nullptr ? *v : family::kHeaderOnlyValidator;
}

/// The dispatch above, tabulated once per (generation, opcode) so the hot path is one load.
using DispatchTable = std::array<std::array<const Validator*, 256>, kAllGenerations.size()>;
const DispatchTable& dispatch_table() {
  // A function-local static: safe whatever other static initialiser validates first.
  static const DispatchTable table = [] {
    DispatchTable t{};
    for (Generation g : kAllGenerations)
      for (unsigned op = 0; op < 256; ++op)
        t[static_cast<size_t>(g)][op] = &select_validator(static_cast<uint8_t>(op), g);
    return t;
  }();
  return table;
}

}  // namespace

const Validator& validator_for(uint8_t op, Generation gen) {
  return *dispatch_table()[static_cast<size_t>(gen)][op];
}

namespace {

/// The conjunct list walked one predicate at a time (validators without a compiled form, and validate_full).
void run_list(const Validator& v, const Instruction& inst, const CheckContext& ctx, Verdict& out) {
  for (size_t k = 0; k < v.conjuncts.size(); ++k) {
    const Predicate* p = v.conjuncts[k];
    if (p->gens.has(ctx.gen) && !p->holds(inst, ctx)) family::record_failure(out, k);
  }
}

Verdict run(const Validator& v, const Instruction& inst, const CheckContext& ctx) {
  Verdict out;
  out.gen = ctx.gen;
  out.checked = v.checked;
  out.validator = &v;
  if (v.evaluate != nullptr) {
    v.evaluate(inst, ctx, out);
    return out;
  }
  run_list(v, inst, ctx, out);
  return out;
}

}  // namespace

Verdict validate(const Instruction& inst, Generation gen, const ValidateOptions& options) {
  if (inst.gen != gen) return validate(decode(encode(inst), gen), gen, options);
  const CheckContext ctx{gen, options};
  return run(validator_for(inst.opcode(), gen), inst, ctx);
}

Verdict validate(const Instruction& inst, const ValidateOptions& options) {
  return validate(inst, inst.gen, options);
}

Verdict validate_full(const Instruction& inst, Generation gen, const ValidateOptions& options) {
  if (inst.gen != gen) return validate_full(decode(encode(inst), gen), gen, options);
  const CheckContext ctx{gen, options};
  const Validator& v = validator_for(inst.opcode(), gen);
  Verdict out;
  out.gen = gen;
  out.checked = v.checked;
  out.validator = &v;
  run_list(v, inst, ctx, out);
  return out;
}

namespace {

constexpr unsigned kOpcodeByte = field_ref<RawWord>("header.opcode").offset;

/// How far ahead of the word being judged a batch loop asks for the stream: one 4 KiB page (64 words). The
/// hardware's stream prefetcher stops at each page boundary (docs/performance-log.md, "A prefetch a page ahead").
constexpr uintptr_t kPrefetchAhead = 4096;

/// A hint, no more: the address is integer arithmetic, so a line past the buffer's end is never a pointer formed out
/// of bounds, and a prefetch does not fault.
[[gnu::always_inline]] inline void prefetch_ahead(const uint8_t* word) {
  __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(word) + kPrefetchAhead));
}

/// The verdict of a word the fast acceptor accepted: exactly what the full pass gives a word with no failure.
Verdict accepted(const Validator& v, Generation gen) {
  Verdict out;
  out.gen = gen;
  out.checked = v.checked;
  out.validator = &v;
  return out;
}

/// The validator's acceptor with the route's checks it leaves to its caller (fast_accept.hpp): true only for a word
/// the full pass finds valid.
inline bool accepted_on_route(const Validator& v, const uint8_t* word, const CheckContext& ctx) {
  return v.accept != nullptr && family::route_opcode_accepts(word[kOpcodeByte], ctx.gen) &&
         family::route_word_accepts(word, family::gen_bit(ctx.gen)) && v.accept(word, ctx);
}

/// The one bytes -> verdict step: the raw-word acceptor first; a word it does not accept (or a validator without
/// one) is decoded and judged by the compiled full pass, unchanged.
inline bool judge(const uint8_t* word, const CheckContext& ctx, const Validator*& v, Verdict* out) {
  v = &validator_for(word[kOpcodeByte], ctx.gen);
  if (accepted_on_route(*v, word, ctx)) [[likely]] {
    if (out != nullptr) *out = accepted(*v, ctx.gen);
    return true;
  }
  const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(word, kWordBytes), ctx.gen);
  Verdict full = run(*v, inst, ctx);
  const bool valid = full.valid;
  if (out != nullptr) *out = full;
  return valid;
}

}  // namespace

Verdict validate(std::span<const uint8_t, kWordBytes> bytes, Generation gen, const ValidateOptions& options) {
  const CheckContext ctx{gen, options};
  const Validator* v = nullptr;
  Verdict out;
  judge(bytes.data(), ctx, v, &out);
  return out;
}

bool fast_accepts(std::span<const uint8_t, kWordBytes> bytes, Generation gen, const ValidateOptions& options) {
  const CheckContext ctx{gen, options};
  return accepted_on_route(validator_for(bytes[kOpcodeByte], gen), bytes.data(), ctx);
}

bool has_fast_acceptor(uint8_t opcode, Generation gen) {
  return validator_for(opcode, gen).accept != nullptr;
}

BatchSummary validate_batch(std::span<const uint8_t> words, Generation gen, const ValidateOptions& options,
                            std::span<Verdict> out) {
  BatchSummary s;
  const CheckContext ctx{gen, options};
  const Validator* v = nullptr;
  Verdict scratch;
  for (size_t off = 0; off + kWordBytes <= words.size(); off += kWordBytes) {
    prefetch_ahead(words.data() + off);
    Verdict* slot = s.words < out.size() ? &out[s.words] : &scratch;
    const bool valid = judge(words.data() + off, ctx, v, slot);
    ++s.words;
    (valid ? s.valid : s.invalid) += 1;
    if (v->checked == Checked::HeaderOnly) ++s.header_only;
  }
  return s;
}

namespace {

bool declines(const uint8_t*, const CheckContext&) {
  return false;
}

/// What the counting loop needs of each opcode on one generation, in three arrays indexed by opcode: its acceptor
/// (one that declines every word where the validator has none or the route's opcode term fails, so the loop has no
/// null test and checks only the route's per-word term), whether its validator is header-only, and the validator
/// itself (read only for a declined word). Separate arrays keep the per-word look-up to one scaled load of a pointer
/// and one byte.
struct Routes {
  std::array<family::RawAccept, 256> accept;
  std::array<uint8_t, 256> header_only;
  std::array<const Validator*, 256> validator;
};
using RouteTable = std::array<Routes, kAllGenerations.size()>;

const RouteTable& route_table() {
  static const RouteTable table = [] {
    RouteTable t{};
    for (Generation g : kAllGenerations)
      for (unsigned op = 0; op < 256; ++op) {
        const Validator* v = dispatch_table()[static_cast<size_t>(g)][op];
        const bool routed = v->accept != nullptr && family::route_opcode_accepts(static_cast<uint8_t>(op), g);
        family::RawAccept accept = routed ? v->accept : &declines;
        // The generation's own conjunction where the acceptor is a generated one: no dispatch hop per word.
        if (const family::GenerationAcceptors* by_gen = family::generation_acceptors(accept); by_gen != nullptr)
          accept = (*by_gen)[static_cast<size_t>(g)];
        Routes& r = t[static_cast<size_t>(g)];
        r.accept[op] = accept;
        r.header_only[op] = v->checked == Checked::HeaderOnly ? 1 : 0;
        r.validator[op] = v;
      }
    return t;
  }();
  return table;
}

/// A word the acceptor declined: decoded and judged by the full pass (out of line, off the accepted words' path).
/// Without a sink only the verdict's `valid` is wanted: the conjunct list is walked until the first failure (the
/// full pass is `valid` exactly when no conjunct that applies fails), with no failure recorded.
[[gnu::noinline]] bool judge_declined(const uint8_t* word, const Validator& v, const CheckContext& ctx, size_t index,
                                      InvalidWordSink on_invalid, void* context) {
  const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(word, kWordBytes), ctx.gen);
  if (on_invalid == nullptr) {
    for (const Predicate* p : v.conjuncts)
      if (p->gens.has(ctx.gen) && !p->holds(inst, ctx)) return false;
    return true;
  }
  const Verdict full = run(v, inst, ctx);
  if (!full.valid && on_invalid != nullptr) on_invalid(context, index, full);
  return full.valid;
}

}  // namespace

namespace {

/// The counting loop on generation G: the route table's address and the generation's bit are constants, so the
/// loop keeps two registers fewer across the call.
template <Generation G>
BatchSummary count_on(std::span<const uint8_t> words, const ValidateOptions& options, InvalidWordSink on_invalid,
                      void* context) {
  const CheckContext ctx{G, options};
  const auto& routes = route_table()[static_cast<size_t>(G)];  // one entry per word
  constexpr unsigned kGenBit = family::gen_bit(G);
  const size_t n = words.size() / kWordBytes;
  const uint8_t* const first = words.data();
  const uint8_t* const end = first + n * kWordBytes;
  size_t valid = 0;
  size_t header_only = 0;
  // The word index is derived from the pointer only for a declined word: two counters live across the call, and
  // an accepted word costs the look-up, the call and two additions.
  for (const uint8_t* word = first; word != end; word += kWordBytes) {
    prefetch_ahead(word);
    const uint8_t op = word[kOpcodeByte];
    header_only += routes.header_only[op];
    if (family::route_word_accepts(word, kGenBit) && routes.accept[op](word, ctx)) [[likely]] {
      ++valid;
      continue;
    }
    // The opcode read again, not kept across the call: one register fewer in the loop.
    if (judge_declined(word, *routes.validator[word[kOpcodeByte]], ctx, static_cast<size_t>(word - first) / kWordBytes,
                       on_invalid, context))
      ++valid;
  }
  BatchSummary s;
  s.words = n;
  s.valid = valid;
  s.invalid = n - valid;
  s.header_only = header_only;
  return s;
}

}  // namespace

BatchSummary validate_batch(std::span<const uint8_t> words, Generation gen, const ValidateOptions& options,
                            InvalidWordSink on_invalid, void* context) {
  switch (gen) {
    case Generation::Sunda: return count_on<Generation::Sunda>(words, options, on_invalid, context);
    case Generation::Cayman: return count_on<Generation::Cayman>(words, options, on_invalid, context);
    case Generation::Mariana: return count_on<Generation::Mariana>(words, options, on_invalid, context);
    case Generation::Maverick: return count_on<Generation::Maverick>(words, options, on_invalid, context);
  }
  return count_on<Generation::Sunda>(words, options, on_invalid, context);  // not reached: a Generation is one of four
}

FailureReport report(const Predicate& p, const Instruction& inst, const CheckContext& ctx) {
  FailureReport r;
  r.predicate = p.name;
  r.convention = p.convention;
  if (p.failure_convention != nullptr) {
    const std::string_view c = p.failure_convention(inst, ctx);
    if (!c.empty()) r.convention = c;
  }
  r.basis = r.convention.empty() ? Basis::Isa : Basis::Convention;
  if (p.via != nullptr) r.via = p.via(inst, ctx);
  const Word w = encode(inst);
  for (const FieldRef& f : p.fields) {
    if (r.n_fields == r.fields.size()) break;
    FieldValue& v = r.fields[r.n_fields++];
    v.name = f.name;
    v.first_byte = f.offset;
    v.last_byte = static_cast<uint8_t>(f.offset + f.size - 1);
    v.size = static_cast<uint8_t>(std::min<size_t>(f.size, v.bytes.size()));
    std::copy_n(w.begin() + f.offset, v.size, v.bytes.begin());
  }
  r.message = p.explain(inst, ctx);
  return r;
}

std::span<const Validator* const> all_validators() {
  static const std::vector<const Validator*> all = [] {
    std::vector<const Validator*> v{&family::kHeaderOnlyValidator};
    // Each family's validators in the order its table first names them.
    for (const family::Family& f : family::families())
      for (const family::ValidatorRow& r : f.validation.rows)
        if (std::find(v.begin(), v.end(), r.validator) == v.end()) v.push_back(r.validator);
    return v;
  }();
  return all;
}

}  // namespace tpbisa
