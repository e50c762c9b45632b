// Fuzz target: any bytes decode and validate on every generation; properties: exact re-encode, stable verdicts,
// the fast paths' verdicts (compiled pass, raw-word acceptor) equal the full path's.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "tpbisa/validate.hpp"

using namespace tpbisa;

namespace {
void require(bool ok) {
  if (!ok) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Word w{};
  std::memcpy(w.data(), data, size < kWordBytes ? size : kWordBytes);
  static const ValidateOptions kDefaults{};
  ValidateOptions strict;
  strict.strict_window = true;
  // A third option set from the input's 65th byte: the engine and the convention switches.
  ValidateOptions mixed;
  if (size > kWordBytes) {
    const uint8_t k = data[kWordBytes];
    mixed.strict_window = (k & 1U) != 0;
    mixed.dtype_enum_runtime = (k & 2U) != 0;
    mixed.symmetric_clamp_general_arith = (k & 4U) == 0;
    if ((k >> 3) % 6 != 0) mixed.engine = kStreamEngines[((k >> 3) % 6) - 1];
  }
  for (Generation g : kAllGenerations) {
    const Instruction inst = decode(w, g);
    require(encode(inst) == w);
    require(decode(encode(inst), g) == inst);
    const Verdict a = validate(inst, g);
    const Verdict b = validate(inst, g);
    require(a.valid == b.valid && a.n_failed == b.n_failed && a.failed_index == b.failed_index);
    require(a.valid == (a.n_failed == 0));
    const Verdict s = validate(inst, g, strict);
    require(!s.valid || a.valid);  // the strict switch only ever adds a failure
    // The valid-word fast path is an optimisation only: the reference walk of the conjunct list agrees.
    for (const Verdict* fast : {&a, &s}) {
      const Verdict full = validate_full(inst, g, fast == &a ? ValidateOptions{} : strict);
      require(fast->valid == full.valid && fast->n_failed == full.n_failed && fast->truncated == full.truncated &&
              fast->failed_index == full.failed_index && fast->validator == full.validator &&
              fast->checked == full.checked);
    }
    // The raw-word acceptor ahead of the decode: the bytes entry point gives the full verdict, and a word the
    // acceptor accepts is valid in full, under every option set tried.
    const ValidateOptions* const option_sets[] = {&kDefaults, &strict, &mixed};
    for (const ValidateOptions* o : option_sets) {
      const Verdict full = validate_full(inst, g, *o);
      const Verdict raw = validate(std::span<const uint8_t, kWordBytes>(w), g, *o);
      require(raw.valid == full.valid && raw.n_failed == full.n_failed && raw.truncated == full.truncated &&
              raw.failed_index == full.failed_index && raw.validator == full.validator && raw.checked == full.checked &&
              raw.gen == full.gen);
      require(!fast_accepts(w, g, *o) || (full.valid && full.n_failed == 0));
    }
    const CheckContext ctx{g, {}};
    for (const Predicate* p : a.failures()) {
      const FailureReport r = report(*p, inst, ctx);
      require(!r.message.empty() && r.predicate == p->name);
    }
  }
  // The batch form agrees with the single-word form.
  Verdict out[1];
  const BatchSummary sum = validate_batch(std::span<const uint8_t>(w.data(), w.size()), Generation::Mariana, {}, out);
  require(sum.words == 1 && out[0].valid == validate(decode(w, Generation::Mariana), Generation::Mariana).valid);
  const BatchSummary counted =
      validate_batch(std::span<const uint8_t>(w.data(), w.size()), Generation::Mariana, {}, nullptr, nullptr);
  require(counted.words == 1 && counted.invalid == sum.invalid && counted.header_only == sum.header_only);
  return 0;
}
