// Fuzz target: pseudo lowering on any word and variable table; never a partial word, lowered words re-decode.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "tpbisa/lower.hpp"
#include "tpbisa/validate.hpp"

using namespace tpbisa;

namespace {
void require(bool ok) {
  if (!ok) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kWordBytes) return 0;
  Word w{};
  std::memcpy(w.data(), data, kWordBytes);
  // The bytes after the word describe up to 8 variables: id (4), base (8), size (8).
  VarTable vars;
  for (size_t at = kWordBytes; at + 20 <= size && vars.size() < 8; at += 20) {
    uint32_t id = 0;
    uint64_t base = 0, bytes = 0;
    std::memcpy(&id, data + at, 4);
    std::memcpy(&base, data + at + 4, 8);
    std::memcpy(&bytes, data + at + 12, 8);
    vars[id % 16] = {base, bytes};
  }
  const LowerResult r = lower_pseudo(w, vars);
  const bool pseudo = w[0] == opcode::kPseudoTensorLoad || w[0] == opcode::kPseudoTensorStore;
  if (!r.ok()) {
    require(pseudo && r.word == w && !r.message.empty());  // failure: the input unchanged, with a reason
    return 0;
  }
  if (!pseudo) {
    require(r.status == LowerStatus::Copied && r.word == w);
    return 0;
  }
  // Lowered: opcode mapped, bytes 16..23 the immediate address, every other byte copied.
  require(r.word[0] == (w[0] == opcode::kPseudoTensorLoad ? opcode::kTensorLoad : opcode::kTensorStore));
  for (size_t i = 1; i < kWordBytes; ++i)
    if (i < 16 || i >= 24) require(r.word[i] == w[i]);
  const Instruction inst = decode(r.word, Generation::Cayman);
  require(inst.as<Mem2d>() != nullptr && inst.as<Mem2d>()->start_addr.is_immediate());
  (void)validate(inst);
  return 0;
}
