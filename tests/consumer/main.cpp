// A program built against the installed library: assembles a word, decodes and validates it, prints the verdict.
#include <tpbisa/tpbisa.hpp>

#include <cstdio>

int main() {
  const tpbisa::Generation gen = tpbisa::Generation::Cayman;
  const tpbisa::AsmResult assembled = tpbisa::assemble("Nop", "consumer", gen);
  if (!assembled.ok() || assembled.words.size() != 1) return 1;
  const tpbisa::Instruction inst = tpbisa::decode(assembled.words[0], gen);
  const tpbisa::Verdict verdict = tpbisa::validate(inst, gen);
  std::printf("%s: %s\n", tpbisa::disassemble(inst, gen).c_str(), verdict.valid ? "valid" : "invalid");
  return verdict.valid ? 0 : 1;
}
