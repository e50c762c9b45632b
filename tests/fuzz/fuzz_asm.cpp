// Fuzz target: the assembler on any text; words it accepts disassemble and reassemble to the same bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tpbisa/text.hpp"

using namespace tpbisa;

namespace {
void require(bool ok) {
  if (!ok) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto gen = static_cast<Generation>(data[0] % 4);
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const AsmResult r = assemble(text, "fuzz.tasm", gen);
  require(r.ok() == r.errors.empty() && r.errors.size() <= kAsmMaxErrors && r.error_count >= r.errors.size());
  for (const AsmDiagnostic& d : r.errors) {
    require(d.line >= 1 && d.column >= 1 && !d.message.empty());
    require(!format_diagnostic(d).empty());
  }
  // Every word the assembler produced round-trips through the canonical text, exactly.
  std::string canon;
  for (const Word& w : r.words) {
    const std::string line = disassemble(w, gen);
    const AsmResult back = assemble(line, "canon.tasm", gen);
    require(back.ok() && back.words.size() == 1 && back.words[0] == w);
    require(disassemble(back.words[0], gen) == line);  // canonical text is a fixed point
  }
  return 0;
}
