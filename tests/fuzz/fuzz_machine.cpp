// Fuzz target: Machine::step on a random program and initial state; faults are atomic, runs are bounded.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "tpbisa/machine.hpp"

using namespace tpbisa;

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

struct Snapshot {
  std::array<uint32_t, kNumRegisters> regs;
  std::array<uint32_t, kNumSemaphores> sems;
  std::bitset<kNumEvents> events;
  std::vector<uint8_t> dve;
  uint64_t allocated;
};

Snapshot snap(const MachineState& s) {
  Snapshot x{s.regs, s.sems, s.events, {}, s.memory.allocated_bytes()};
  x.dve.resize(sizeof(s.dve));
  std::memcpy(x.dve.data(), &s.dve, sizeof(s.dve));
  return x;
}

bool same(const Snapshot& a, const Snapshot& b) {
  return a.regs == b.regs && a.sems == b.sems && a.events == b.events && a.dve == b.dve && a.allocated == b.allocated;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const auto gen = static_cast<Generation>(data[0] % 4);
  MachineOptions opt;
  opt.firmware_stubs = (data[1] & 1) != 0;
  opt.max_memory = uint64_t{1} << 22;
  opt.max_elements_per_instruction = uint64_t{1} << 14;
  opt.record_effects = true;  // the checks below read the effect lists
  data += 2;
  size -= 2;
  // Up to 256 bytes seed the registers; the rest is the program.
  const size_t seed = size < 256 ? size : 256;
  std::vector<Word> program;
  for (size_t at = seed; at + kWordBytes <= size && program.size() < 16; at += kWordBytes) {
    Word w{};
    std::memcpy(w.data(), data + at, kWordBytes);
    program.push_back(w);
  }
  Machine m(gen, program, opt);
  for (size_t i = 0; i + 4 <= seed; i += 4) std::memcpy(&m.mutable_state().regs[i / 4], data + i, 4);
  for (int steps = 0; steps < 32; ++steps) {
    const Snapshot before = snap(m.state());
    const size_t pc = m.pc();
    const StepResult r = m.step();
    if (r.status == StepResult::Status::Halted) break;
    if (r.status == StepResult::Status::Faulted || r.status == StepResult::Status::Blocked) {
      require(same(before, snap(m.state())) && m.pc() == pc);  // a fault or a blocked wait changes nothing
      require(r.reg_writes.empty() && r.mem_writes.empty() && r.dve_writes.empty() && r.sem_writes.empty());
      break;
    }
    require(m.pc() == pc + 1);
    for (const RegWrite& w : r.reg_writes) require(w.reg < kNumRegisters);
  }
  return 0;
}
