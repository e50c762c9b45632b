// Fuzz target: Machine::step on a random program and initial state; faults are atomic, runs are bounded.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
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

/// Memory as the retired steps' effects say it must be: every byte written so far and its value. Kept from the
/// effects instead of copying memory before each step, so the check costs nothing until a fault.
using Shadow = std::map<uint64_t, uint8_t>;

void apply(Shadow& shadow, const MemWrite& w) {
  for (unsigned k = 0; k < w.size; ++k) shadow[w.address + k] = static_cast<uint8_t>(w.after >> (8 * k));
}

/// Every byte of every page the shadow touches holds its value (0 where never written), and each 8-byte group
/// is written in full exactly when the shadow says so: memory content, not only its size, read 8 bytes at a time
/// so that the check stays cheap under the sanitizers.
bool matches(const SparseMemory& memory, const Shadow& shadow) {
  std::set<uint64_t> pages;
  for (const auto& [address, value] : shadow) pages.insert(address / SparseMemory::kPageBytes);
  if (pages.size() * SparseMemory::kPageBytes != memory.allocated_bytes()) return false;
  for (uint64_t page : pages) {
    auto it = shadow.lower_bound(page * SparseMemory::kPageBytes);
    for (uint64_t at = page * SparseMemory::kPageBytes; at < (page + 1) * SparseMemory::kPageBytes; at += 8) {
      uint64_t want = 0;
      unsigned covered = 0;
      for (; it != shadow.end() && it->first < at + 8; ++it, ++covered)
        want |= uint64_t{it->second} << (8 * (it->first - at));
      bool all = false;
      if (memory.read(at, 8, &all) != want || all != (covered == 8)) return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const auto gen = static_cast<Generation>(data[0] % 4);
  MachineOptions opt;
  opt.firmware_stubs = (data[1] & 1) != 0;
  opt.max_memory = uint64_t{1} << 22;
  opt.max_elements_per_instruction = uint64_t{1} << 14;
  opt.record_effects = true;            // the checks below read the effect lists...
  opt.max_recorded_effects = SIZE_MAX;  // ...whole: a Matmul writes more elements than a trace record keeps
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
  Shadow shadow;  // memory starts empty; only retired steps change it
  for (int steps = 0; steps < 32; ++steps) {
    const Snapshot before = snap(m.state());
    const size_t pc = m.pc();
    const StepResult r = m.step();
    if (r.status == StepResult::Status::Halted) break;
    if (r.status == StepResult::Status::Faulted || r.status == StepResult::Status::Blocked) {
      require(same(before, snap(m.state())) && m.pc() == pc);  // a fault or a blocked wait changes nothing...
      // ...in memory neither: not its size only, every byte and whether it was written.
      require(matches(m.state().memory, shadow));
      require(r.reg_writes.empty() && r.mem_writes.empty() && r.dve_writes.empty() && r.sem_writes.empty());
      break;
    }
    // A retired word moves to the next one, or a branch to a word of the stream or one past its end (PROJ-CONV-Q12).
    require(m.pc() == pc + 1 || m.pc() <= program.size());
    for (const MemWrite& w : r.mem_writes) apply(shadow, w);
    for (const RegWrite& w : r.reg_writes) require(w.reg < kNumRegisters);
  }
  return 0;
}
