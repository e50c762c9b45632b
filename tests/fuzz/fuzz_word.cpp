// Fuzz target: one hostile word of any format, on every generation: a verdict whose every failure is explained,
// decode's field descriptions, an exact disassemble -> assemble round trip, and one step of the machine that either
// retires the word or faults without a change. Its seed corpora are per format (tests/fuzz/corpus/formats/).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "tpbisa/describe.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"
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
  const std::span<const uint8_t, kWordBytes> bytes(w);
  for (Generation g : kAllGenerations) {
    const Instruction inst = decode(bytes, g);
    const Verdict v = validate(inst, g);
    require(v.valid == (v.n_failed == 0));
    const CheckContext ctx{g, {}};
    for (const Predicate* p : v.failures()) require(!report(*p, inst, ctx).message.empty());
    require(!describe_fields(inst).empty());
    const std::string text = disassemble(bytes, g);
    const AsmResult back = assemble(text, "fuzz", g);
    require(back.ok() && back.words.size() == 1 && back.words[0] == w);
    // One step: a retired word or a fault (or a blocked wait) that leaves the state as it was.
    MachineOptions opt;
    opt.max_memory = uint64_t{1} << 22;
    opt.max_elements_per_instruction = uint64_t{1} << 14;
    Machine m(g, std::vector<Word>{w}, opt);
    const StepResult r = m.step();
    if (r.status == StepResult::Status::Faulted || r.status == StepResult::Status::Blocked)
      require(m.pc() == 0 && r.mem_writes.empty() && r.reg_writes.empty());
  }
  return 0;
}
