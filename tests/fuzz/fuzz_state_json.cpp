// Fuzz target: the library's STATE.json and VARS.json readers on any bytes; never crash, errors say something,
// deterministic.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tpbisa/io/state.hpp"
#include "tpbisa/io/vars.hpp"

using namespace tpbisa;

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto gen = static_cast<Generation>(size % 4);
  MachineState a(gen, uint64_t{1} << 24), b(gen, uint64_t{1} << 24);
  const auto ra = io::parse_state(text, "state.json", a, {});
  const auto rb = io::parse_state(text, "state.json", b, {});
  require(ra.ok() == rb.ok());  // the reader is deterministic
  if (!ra.ok()) {
    require(ra.error().message == rb.error().message);
    require(!ra.error().message.empty());  // a refusal always says why
  } else {
    require(a.regs == b.regs && a.sems == b.sems && a.events == b.events &&
            a.memory.allocated_bytes() == b.memory.allocated_bytes());
  }
  const auto vars = io::parse_vars(text, "vars.json");
  if (!vars.ok()) require(!vars.error().message.empty());
  return 0;
}
