// The functional simulator: a Machine steps through a program; every step returns one StepResult.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tpbisa/instruction.hpp"
#include "tpbisa/numerics.hpp"
#include "tpbisa/state.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {

struct MachineOptions {
  /// PROJ-CONV-S8 / T10 `dve_stub_mode = firmware`: ImmLd and PtrMulti retire as the shipped firmware's
  /// log-only stubs (no operand state change). Default: the header contract.
  bool firmware_stubs = false;
  ValidateOptions validate{};
  ConvertOptions convert{};
  /// Bound on simulated memory (bytes of allocated pages); exceeding it is a MemoryLimit fault.
  uint64_t max_memory = uint64_t{1} << 30;
  /// Bound on the element accesses one PtrMulti may make (all channels); beyond it: ResourceLimit. The other
  /// in-scope instructions are bounded by the ISA itself (at most 32 elements, or 128 channels x 8).
  uint64_t max_elements_per_instruction = uint64_t{1} << 22;
};

/// Every way an instruction can fail to execute (docs/trace.md lists them with their meaning).
enum class FaultKind : uint8_t {
  InvalidInstruction,         ///< the word fails validation on the generation (carries the verdict)
  PseudoNotLowered,           ///< raw 0xcd/0xce (PROJ-CONV-M9); lower it first
  UnsupportedOpcode,          ///< a valid opcode whose execution tpbisa does not model
  WouldBlock,                 ///< the EVENTS wait is not satisfied (single-engine run: never waits)
  UnsupportedDtype,           ///< a dtype the executor has no element semantics for (PROJ-CONV-S9, T13)
  UnsupportedAddressingMode,  ///< ADDR8 table or unlisted register marker (PROJ-CONV-M6), indirect ADDR4
  UnsupportedShapeRegister,   ///< shape from a register (PROJ-CONV-S1)
  IllegalRegister,            ///< a register number >= 64 (PROJ-CONV-M4, N16, C3)
  WindowViolation,            ///< MEM_2D bytes cross a 16 MiB window (PROJ-CONV-M3)
  OutOfRange,                 ///< an element beyond its partition's backed bytes or outside SBUF/PSUM (N2)
  MemoryLimit,                ///< the simulated memory bound would be exceeded
  ResourceLimit,              ///< one instruction would make more element accesses than the bound allows
};
std::string_view to_string(FaultKind k);

struct Fault {
  FaultKind kind = FaultKind::InvalidInstruction;
  size_t index = 0;      ///< instruction index in the program
  uint64_t address = 0;  ///< the address involved, when there is one
  bool has_address = false;
  int reg = -1;        ///< the register involved, or -1
  Verdict verdict{};   ///< for InvalidInstruction
  std::string detail;  ///< one sentence
};

// ---- Effects of a retired instruction ----

struct RegWrite {
  uint8_t reg;
  uint32_t before;
  uint32_t after;
};
struct MemWrite {
  uint64_t address;
  uint8_t size;     ///< bytes (1..8)
  uint64_t before;  ///< little-endian value of the bytes before
  uint64_t after;
};
struct MemRead {
  uint64_t address;
  uint8_t size;
  bool initialized;  ///< false when any byte had never been written (it read as 0)
};
enum class DveField : uint8_t { Imm, MatchKey, BnN, BnMean, BnA, BnB, BnC };
std::string_view to_string(DveField f);
struct DveWrite {
  uint8_t channel;
  DveField field;
  uint8_t slot;  ///< Imm and MatchKey: 0..7
  uint32_t before;
  uint32_t after;
};
struct SemWrite {
  uint16_t index;
  bool event;  ///< an event bit (SUNDA..MARIANA) rather than a semaphore
  uint32_t before;
  uint32_t after;
};
enum class DiagKind : uint8_t {
  UninitializedRead,    ///< memory never written, read as 0
  UnalignedAccess,      ///< register-sourced MEM_2D base not dtype-aligned, done byte-wise (PROJ-CONV-M10)
  UnwrittenScalar,      ///< a DVE flop never written is read (PROJ-CONV-S10, T14)
  ScalarClassMismatch,  ///< Arith PtrMulti reads a Bitvec-loaded flop or vice versa (PROJ-CONV-T14)
  FirmwareStub,         ///< retired as a log-only firmware stub (PROJ-CONV-S8, T10)
};
std::string_view to_string(DiagKind k);
struct Diagnostic {
  DiagKind kind;
  uint64_t address;  ///< memory address, or channel * 8 + slot for DVE diagnostics
  uint8_t size;
};

struct StepResult {
  enum class Status : uint8_t { Retired, Faulted, Halted };
  Status status = Status::Halted;  ///< Halted: no instruction left
  size_t index = 0;
  uint8_t opcode = 0;
  std::string_view name;
  // Effects, valid until the next step (the buffers belong to the Machine and are reused).
  std::span<const RegWrite> reg_writes;
  std::span<const MemWrite> mem_writes;
  std::span<const MemRead> mem_reads;
  std::span<const DveWrite> dve_writes;
  std::span<const SemWrite> sem_writes;
  std::span<const Diagnostic> diagnostics;
  Fault fault{};  ///< when Faulted
};

/// Internal effect log the executors fill; exposed so family code and tests share one type.
struct EffectLog {
  std::vector<RegWrite> regs;
  std::vector<MemWrite> mem;
  std::vector<MemRead> reads;
  std::vector<DveWrite> dve;
  std::vector<SemWrite> sems;
  std::vector<Diagnostic> diags;
  void clear() {
    regs.clear();
    mem.clear();
    reads.clear();
    dve.clear();
    sems.clear();
    diags.clear();
  }
};

struct RunSummary {
  size_t retired = 0;
  bool faulted = false;
  bool step_limit = false;  ///< stopped by max_steps before the program ended
  Fault fault{};
};

class Machine {
 public:
  Machine(Generation gen, std::vector<Word> program, MachineOptions options = {});

  /// Executes the next instruction. A fault changes no state; the machine stays at the faulting index.
  StepResult step();
  /// Steps until the program ends, a fault, or `max_steps` retired instructions.
  RunSummary run(size_t max_steps);

  Generation gen() const { return state_.gen; }
  size_t pc() const { return pc_; }
  size_t size() const { return program_.size(); }
  /// The decoded instruction at index i (i < size()).
  const Instruction& instruction(size_t i) const { return decoded_[i]; }
  const MachineState& state() const { return state_; }
  /// Direct state access for loading initial state (registers, semaphores, memory) before running.
  MachineState& mutable_state() { return state_; }
  const MachineOptions& options() const { return options_; }

 private:
  MachineState state_;
  std::vector<Word> program_;
  std::vector<Instruction> decoded_;
  MachineOptions options_;
  size_t pc_ = 0;
  EffectLog log_;
};

}  // namespace tpbisa
