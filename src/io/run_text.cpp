// The text report of a single-stream run: outcome, state, diagnostics and dumps.
#include "tpbisa/io/run_text.hpp"

#include <utility>

#include <fmt/format.h>

#include "tpbisa/instruction.hpp"
#include "tpbisa/io/element.hpp"
#include "tpbisa/io/verdict_text.hpp"

namespace tpbisa::io {
namespace {

/// The fault of a run: where, what, the address or register, and an invalid word's failing predicates.
std::string run_fault_text(const RunSummary& s, std::span<const uint8_t> program, Generation gen,
                           const ValidateOptions& options) {
  const Fault& f = s.fault;
  const Instruction inst =
      decode(std::span<const uint8_t, kWordBytes>(program.data() + f.index * kWordBytes, kWordBytes), gen);
  std::string text =
      fmt::format("status: fault after {} instruction{} retired; the faulting instruction changed nothing\n", s.retired,
                  s.retired == 1 ? "" : "s");
  text += fmt::format("fault: {} at #{} offset {:#x} {:#04x} {}: {}\n", to_string(f.kind), f.index,
                      f.index * kWordBytes, inst.opcode(), inst.name(), f.detail);
  if (f.has_address) text += fmt::format("  address: {:#x}\n", f.address);
  if (f.reg >= 0) text += fmt::format("  register: r{}\n", f.reg);
  if (f.kind == FaultKind::InvalidInstruction) {
    text += fmt::format("  failing predicates of {} ({}{}):\n",
                        f.verdict.validator != nullptr ? f.verdict.validator->name : "the validator",
                        f.verdict.n_failed, f.verdict.truncated ? "+" : "");
    text += failure_lines(f.verdict, inst, options, "    ");
  }
  return text;
}

}  // namespace

std::string blocked_wait_text(const BlockedWait& w) {
  std::string cond = wait_condition(w);
  if (w.reg >= 0) cond += fmt::format(" (= {})", w.comparand);
  const std::string value = w.event ? fmt::format("event {} is {}", w.id, w.value != 0 ? "set" : "clear")
                                    : fmt::format("semaphore {} is {}", w.id, w.value);
  return fmt::format("  {} blocked at #{} offset {:#x} {:#04x} {}: waits for {}; {}\n", to_string(w.engine), w.index,
                     w.index * kWordBytes, w.opcode, w.name, cond, value);
}

std::string run_status_text(const Machine& m, const RunSummary& s, std::span<const uint8_t> program, Generation gen,
                            const ValidateOptions& options) {
  const std::string_view plural = s.retired == 1 ? "" : "s";
  if (s.step_limit)
    return fmt::format(
        "status: step-limit: stopped by --max-steps after {} instruction{}, before instruction {} "
        "(offset {:#x}) of {}\n",
        s.retired, plural, m.pc(), m.pc() * kWordBytes, program.size() / kWordBytes);
  if (s.deadlock) {
    std::string text =
        fmt::format("status: deadlock after {} instruction{} retired: every engine that has not finished is blocked\n",
                    s.retired, plural);
    for (const BlockedWait& w : s.blocked) text += blocked_wait_text(w);
    return text;
  }
  if (!s.faulted) return fmt::format("status: ok, {} instruction{} retired\n", s.retired, plural);
  return run_fault_text(s, program, gen, options);
}

std::string machine_state_text(const MachineState& s, Generation gen) {
  bool any = false;
  std::string text = "registers (non-zero):\n";
  for (unsigned r = 0; r < kNumRegisters; ++r) {
    if (s.regs[r] == 0) continue;
    text += fmt::format("  r{:<3} {}  {}\n", r, bits_hex(s.regs[r], 4), s.regs[r]);
    any = true;
  }
  if (!any) text += "  (all zero)\n";
  any = false;
  text += "semaphores (non-zero):\n";
  for (unsigned i = 0; i < kNumSemaphores; ++i) {
    if (s.sems[i] == 0) continue;
    text += fmt::format("  $S[{}] = {}\n", i, s.sems[i]);
    any = true;
  }
  if (!any) text += "  (all zero)\n";
  if (gen != Generation::Maverick) {
    std::string set;
    for (unsigned i = 0; i < kNumEvents; ++i)
      if (s.events[i]) set += fmt::format(" {}", i);
    text += fmt::format("events set:{}\n", set.empty() ? " (none)" : set);
  }
  // The engine's loaded activation-function set, when a table load left one (act-index-ops.md §2.3).
  if (s.act_set != nullptr) text += fmt::format("activation set: {}\n", activation_set_name(s.act_set));
  return text;
}

void write_memory_dump_text(const DumpSpec& d, const MachineState& s, Generation g, const JsonSink& out) {
  bool ok =
      out(fmt::format("{} {} x{} (address {:#x}):\n", to_string(d.at, g), d.type.info->name, d.count, d.at.address));
  bool all_initialized = true;
  constexpr uint64_t kPerLine = 8;
  std::string line;
  for (uint64_t k = 0; k < d.count && ok; ++k) {
    bool init = true;
    const uint64_t raw = s.memory.read(d.at.address + k * d.type.size, d.type.size, &init);
    all_initialized = all_initialized && init;
    if (k % kPerLine == 0) line += fmt::format("  [{}]", k);
    line += fmt::format(" {}", bits_to_text(raw, d.type));
    if (k % kPerLine == kPerLine - 1 || k + 1 == d.count) {
      line += '\n';
      if (line.size() >= 4096 || k + 1 == d.count) ok = out(std::exchange(line, {}));
    }
  }
  if (!all_initialized) out("  (some bytes were never written and read as 0)\n");
}

void write_run_text(const Machine& m, const RunSummary& s, const RunJsonContext& ctx, std::span<const uint8_t> program,
                    const ValidateOptions& options, const JsonSink& out) {
  std::string text = fmt::format("program: {} ({} instruction{}) on {}\n", ctx.program, ctx.instructions,
                                 ctx.instructions == 1 ? "" : "s", to_string(ctx.gen));
  text += run_status_text(m, s, program, ctx.gen, options) + machine_state_text(m.state(), ctx.gen);
  if (const auto diags = diagnostic_list(s.diagnostic_counts); !diags.empty()) {
    std::string list;
    for (const auto& [kind, n] : diags) list += fmt::format("{}{} {}", list.empty() ? "" : ", ", n, kind);
    text += fmt::format("diagnostics: {} (details with --trace)\n", list);
  }
  out(text);
  for (const DumpSpec& d : ctx.dumps) {
    if (d.kind == DumpSpec::Kind::Unit)
      out(fmt::format("{} {} {}:\n", d.unit->name, d.unit->instance, d.instance) + d.unit->text(m.state(), d.instance));
    else
      write_memory_dump_text(d, m.state(), ctx.gen, out);
  }
}

}  // namespace tpbisa::io
