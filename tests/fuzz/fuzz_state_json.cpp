// Fuzz target: the STATE.json and VARS.json readers on any bytes; never crash, errors say something, deterministic.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "json_input.hpp"
#include "state_json.hpp"

using namespace tpbisa;

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

std::string scratch_file() {
  static const std::string path = [] {
    char name[] = "/tmp/tpbisa-fuzz-state-XXXXXX";
    const int fd = mkstemp(name);
    require(fd >= 0);
    close(fd);
    return std::string(name);
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = scratch_file();
  FILE* f = std::fopen(path.c_str(), "wb");
  require(f != nullptr);
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  const auto gen = static_cast<Generation>(size % 4);
  MachineState a(gen, uint64_t{1} << 24), b(gen, uint64_t{1} << 24);
  std::string ea, eb;
  const bool ok_a = cli::load_state(path, a, {}, ea);
  const bool ok_b = cli::load_state(path, b, {}, eb);
  require(ok_a == ok_b && ea == eb);  // the reader is deterministic
  require(ok_a || !ea.empty());       // a refusal always says why
  if (ok_a) require(a.regs == b.regs && a.sems == b.sems && a.memory.allocated_bytes() == b.memory.allocated_bytes());
  VarTable vars;
  std::string ev;
  if (!cli::load_vars(path, vars, ev)) require(!ev.empty());
  return 0;
}
