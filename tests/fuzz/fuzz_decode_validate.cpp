// Fuzz target: any bytes decode and validate on every generation; properties: exact re-encode, stable verdicts,
// the fast path's verdict equals the full path's.
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
  ValidateOptions strict;
  strict.strict_window = true;
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
  return 0;
}
