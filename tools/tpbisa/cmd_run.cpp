// `tpbisa run`: loads a program (lowering it with --vars), the initial state (--init), steps the Machine with an
// optional JSON-Lines trace, and prints the outcome, the registers, semaphores, events and the --dump views.
#include "cmd_run.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cmd_run_neff.hpp"
#include "exit_codes.hpp"
#include "output.hpp"
#include "tpbisa/io/dump.hpp"
#include "tpbisa/io/element.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/state.hpp"
#include "tpbisa/io/vars.hpp"
#include "tpbisa/io/verdict_json.hpp"
#include "tpbisa/lower.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/trace.hpp"
#include "verdict_print.hpp"

namespace tpbisa::cli {
namespace {

using io::bits_hex;
using io::bits_to_json;
using io::bits_to_text;
using io::DumpSpec;
using io::float_json;
using io::WordSource;
using ojson = nlohmann::ordered_json;

constexpr std::string_view kDefaultMaxSteps = "1000000";
constexpr std::string_view kDefaultMaxMemory = "1GiB";
constexpr std::string_view kDefaultMaxElements = "4194304";

struct RunCliOptions {
  std::optional<Generation> gen;
  std::string program;
  std::vector<std::string> hex;
  std::string init;
  std::string vars;
  std::vector<std::string> dumps;
  bool json = false;
  std::string trace;
  std::string max_steps{kDefaultMaxSteps};
  std::string max_memory{kDefaultMaxMemory};
  std::string max_elements{kDefaultMaxElements};
  std::string max_words = std::to_string(kDefaultMaxWords);
  std::string max_dump_elements = std::to_string(io::kMaxDumpElements);
  bool firmware_stubs = false;
  std::string engine{"dve"};
  std::string trace_max_effects{std::to_string(kDefaultMaxRecordedEffects)};
  ValidateOptions options;
  // A NEFF program only:
  std::vector<std::string> inputs;
  std::string out_dir;
  std::vector<std::string> expects;
  std::string schedule{"default"};
  bool quiet = false;
  bool check_races = false;
  bool threads = false;
  std::vector<std::string> trace_filters;
  bool max_steps_given = false;
};

/// Whether PROGRAM is a file that starts with a NEFF header.
bool is_neff_file(const std::string& path) {
  if (path.empty() || path == "-") return false;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  std::array<uint8_t, 16> head{};
  const size_t n = std::fread(head.data(), 1, head.size(), f);
  std::fclose(f);
  return neff::is_neff(std::span<const uint8_t>(head.data(), n));
}

/// The NEFF-only options given to a run of a plain word stream, for the usage error.
std::string neff_only_options(const RunCliOptions& o) {
  std::string names;
  const auto add = [&](bool given, std::string_view name) {
    if (given) names += fmt::format("{}{}", names.empty() ? "" : ", ", name);
  };
  add(!o.inputs.empty(), "--input");
  add(!o.out_dir.empty(), "--out");
  add(!o.expects.empty(), "--expect");
  add(o.schedule != "default", "--schedule");
  add(!o.trace_filters.empty(), "--trace-filter");
  add(o.check_races, "--check-races");
  add(o.threads, "--threads");
  return names;
}

/// A byte count: a number (decimal or 0x hex) with an optional binary suffix K, M, G, T (also KiB, KB, k...).
std::optional<uint64_t> parse_size(std::string_view text) {
  size_t digits = 0;
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  digits = hex ? 2 : 0;
  while (digits < text.size() && (hex ? std::isxdigit(static_cast<unsigned char>(text[digits])) != 0
                                      : std::isdigit(static_cast<unsigned char>(text[digits])) != 0))
    ++digits;
  const auto n = parse_u64(text.substr(0, digits));
  if (!n) return std::nullopt;
  std::string suffix(text.substr(digits));
  for (char& c : suffix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  unsigned shift = 0;
  if (suffix.empty() || suffix == "b")
    shift = 0;
  else if (suffix == "k" || suffix == "kb" || suffix == "kib")
    shift = 10;
  else if (suffix == "m" || suffix == "mb" || suffix == "mib")
    shift = 20;
  else if (suffix == "g" || suffix == "gb" || suffix == "gib")
    shift = 30;
  else if (suffix == "t" || suffix == "tb" || suffix == "tib")
    shift = 40;
  else
    return std::nullopt;
  if (shift != 0 && *n > (UINT64_MAX >> shift)) return std::nullopt;
  return *n << shift;
}

/// The program's name in messages and output: the file, <stdin>, or --hex.
std::string program_label(const RunCliOptions& o) {
  return o.hex.empty() ? io::input_label(o.program) : "--hex";
}

/// Reads the whole program (at most `max_words`), lowering pseudo words when a variable table is given.
bool load_program(const RunCliOptions& o, uint64_t max_words, std::vector<Word>& program) {
  VarTable vars;
  if (!o.vars.empty()) {
    auto loaded = io::load_vars(o.vars);
    if (!loaded) {
      report_error(loaded.error());
      return false;
    }
    vars = std::move(*loaded);
  }
  io::InputOptions input;
  input.gen = o.gen.value_or(kDefaultGeneration);
  input.neff_refusal =
      "whole-NEFF execution is not available yet; run one of its streams (tpbisa disasm FILE.neff -o DIR, then "
      "tpbisa asm)";
  const auto source = o.hex.empty() ? io::open_input(o.program, input) : io::open_hex(o.hex);
  WordSource& src = *source;
  Word word{};
  for (;;) {
    switch (src.next(word)) {
      case WordSource::Next::End: return true;
      case WordSource::Next::Failed: report_source_error(src); return false;
      case WordSource::Next::Word: break;
    }
    if (program.size() >= max_words) {
      report_error(
          fmt::format("{}: more than {} instructions at offset {} (instruction {}); run loads at most that "
                      "many (--max-words)",
                      src.label(), max_words, src.offset(), src.index()));
      return false;
    }
    if (!o.vars.empty()) {
      const LowerResult r = lower_pseudo(word, vars);
      if (!r.ok()) {
        report_error(fmt::format("{}: instruction {} (offset {}): {} (--vars {})", src.label(), src.index(),
                                 src.offset(), r.message, io::input_label(o.vars)));
        return false;
      }
      word = r.word;
    }
    program.push_back(word);
  }
}

struct RunOutcome {
  enum class Status { Ok, Fault, StepLimit, Deadlock } status = Status::Ok;
  uint64_t retired = 0;
  Fault fault{};
  std::vector<BlockedWait> blocked;                  ///< on deadlock: each blocked engine's wait
  std::map<std::string_view, uint64_t> diagnostics;  ///< count per diagnostic kind
};

std::string_view status_name(RunOutcome::Status s) {
  switch (s) {
    case RunOutcome::Status::Ok: return "ok";
    case RunOutcome::Status::Fault: return "fault";
    case RunOutcome::Status::StepLimit: return "step-limit";
    case RunOutcome::Status::Deadlock: return "deadlock";
  }
  return "ok";
}

/// Steps until the end, a fault or the step limit; `trace` (may be null) receives one record per step.
RunOutcome execute(Machine& m, uint64_t max_steps, Sink* trace) {
  RunOutcome out;
  std::string line;
  while (!m.finished()) {
    if (m.deadlocked()) {
      out.status = RunOutcome::Status::Deadlock;
      out.blocked = m.blocked_waits();
      return out;
    }
    if (out.retired >= max_steps) {
      out.status = RunOutcome::Status::StepLimit;
      return out;
    }
    const StepResult r = m.step();
    if (r.status == StepResult::Status::Blocked) continue;  // a blocked turn writes no record
    if (trace != nullptr && r.status != StepResult::Status::Halted) {
      line.clear();
      append_trace_line(line, r, m);
      line += '\n';
      trace->write(line);
    }
    if (r.status == StepResult::Status::Faulted) {
      out.status = RunOutcome::Status::Fault;
      out.fault = r.fault;
      return out;
    }
    if (r.status == StepResult::Status::Halted) break;
    for (size_t k = 0; k < kDiagKinds; ++k)
      if (r.diagnostic_counts[k] != 0) out.diagnostics[to_string(static_cast<DiagKind>(k))] += r.diagnostic_counts[k];
    ++out.retired;
  }
  return out;
}

/// One deadlock line: the engine, its instruction, the condition, and the semaphore's (or event's) value.
std::string blocked_text(const BlockedWait& w) {
  std::string cond = wait_condition(w);
  if (w.reg >= 0) cond += fmt::format(" (= {})", w.comparand);
  const std::string value = w.event ? fmt::format("event {} is {}", w.id, w.value != 0 ? "set" : "clear")
                                    : fmt::format("semaphore {} is {}", w.id, w.value);
  return fmt::format("  {} blocked at #{} offset {:#x} {:#04x} {}: waits for {}; {}\n", to_string(w.engine), w.index,
                     w.index * kWordBytes, w.opcode, w.name, cond, value);
}

// ---- dumps ----

ojson imm_class_json(DveChannel::ImmClass c) {
  switch (c) {
    case DveChannel::ImmClass::Unwritten: return "unwritten";
    case DveChannel::ImmClass::Arith: return "arith";
    case DveChannel::ImmClass::Bitvec: return "bitvec";
  }
  return "unwritten";
}

ojson fp32_entry(uint32_t bits) {
  return {{"bits", bits_hex(bits, 4)}, {"value", float_json(std::bit_cast<float>(bits))}};
}

ojson dve_dump_json(const DumpSpec& d, const MachineState& s) {
  const DveChannel& ch = s.dve[d.channel];
  ojson imm = ojson::array();
  for (unsigned k = 0; k < 8; ++k) {
    const auto c = ch.imm_class[k];
    ojson value = c == DveChannel::ImmClass::Arith    ? float_json(std::bit_cast<float>(ch.imm[k]))
                  : c == DveChannel::ImmClass::Bitvec ? ojson(ch.imm[k])
                                                      : ojson(nullptr);
    imm.push_back({{"slot", k},
                   {"bits", bits_hex(ch.imm[k], 4)},
                   {"written", c != DveChannel::ImmClass::Unwritten},
                   {"class", imm_class_json(c)},
                   {"value", std::move(value)}});
  }
  ojson keys = ojson::array();
  for (unsigned k = 0; k < 8; ++k)
    keys.push_back({{"slot", k},
                    {"bits", bits_hex(ch.match_key[k], 4)},
                    {"value", float_json(std::bit_cast<float>(ch.match_key[k]))},
                    {"written", ch.match_key_written[k]},
                    {"matched", ch.matched[k]}});
  const ojson bn{{"written", ch.bn.written}, {"n", fp32_entry(ch.bn.n)}, {"batch_mean", fp32_entry(ch.bn.batch_mean)},
                 {"a", fp32_entry(ch.bn.a)}, {"b", fp32_entry(ch.bn.b)}, {"c", fp32_entry(ch.bn.c)}};
  return {{"at", fmt::format("dve:{}", d.channel)},
          {"channel", d.channel},
          {"imm", std::move(imm)},
          {"match_keys", std::move(keys)},
          {"bn", bn}};
}

/// Streams one memory dump as JSON: values and bits are written as they are read, never held as a whole.
void write_memory_dump_json(const DumpSpec& d, const MachineState& s, Generation g) {
  out("{{\"at\":{},\"address\":\"{:#x}\",\"dtype\":{},\"count\":{},\"values\":[", io::dump_json(to_string(d.at, g)),
      d.at.address, io::dump_json(d.type.info->name), d.count);
  bool all_initialized = true;
  std::string chunk;
  for (uint64_t k = 0; k < d.count && !stdout_failed(); ++k) {
    bool init = true;
    const uint64_t raw = s.memory.read(d.at.address + k * d.type.size, d.type.size, &init);
    all_initialized = all_initialized && init;
    chunk += (k == 0 ? "" : ",") + io::dump_json(bits_to_json(raw, d.type));
    if (chunk.size() >= 4096) out_write(std::exchange(chunk, {}));
  }
  chunk += "],\"bits\":[";
  for (uint64_t k = 0; k < d.count && !stdout_failed(); ++k) {
    const uint64_t raw = s.memory.read(d.at.address + k * d.type.size, d.type.size);
    chunk += fmt::format("{}\"{}\"", k == 0 ? "" : ",", bits_hex(raw, d.type.size));
    if (chunk.size() >= 4096) out_write(std::exchange(chunk, {}));
  }
  out_write(chunk);
  out("],\"initialized\":{}}}", all_initialized ? "true" : "false");
}

std::string dve_dump_text(const DumpSpec& d, const MachineState& s) {
  const DveChannel& ch = s.dve[d.channel];
  std::string out = fmt::format("dve channel {}:\n", d.channel);
  for (unsigned k = 0; k < 8; ++k) {
    const auto c = ch.imm_class[k];
    const std::string cls = imm_class_json(c).get<std::string>();
    std::string value;
    if (c == DveChannel::ImmClass::Arith) value = fmt::format("  {}", std::bit_cast<float>(ch.imm[k]));
    if (c == DveChannel::ImmClass::Bitvec) value = fmt::format("  {}", ch.imm[k]);
    out += fmt::format("  imm[{}]        {}  {}{}\n", k, bits_hex(ch.imm[k], 4), cls, value);
  }
  for (unsigned k = 0; k < 8; ++k)
    out += fmt::format("  match_key[{}]  {}  {}{}\n", k, bits_hex(ch.match_key[k], 4),
                       ch.match_key_written[k] ? fmt::format("{}", std::bit_cast<float>(ch.match_key[k])) : "unwritten",
                       ch.matched[k] ? "  matched" : "");
  if (!ch.bn.written) {
    out += "  bn            unwritten\n";
  } else {
    const auto f = [](uint32_t b) { return fmt::format("{} ({})", std::bit_cast<float>(b), bits_hex(b, 4)); };
    out += fmt::format("  bn            n={} batch_mean={} a={} b={} c={}\n", f(ch.bn.n), f(ch.bn.batch_mean),
                       f(ch.bn.a), f(ch.bn.b), f(ch.bn.c));
  }
  return out;
}

/// Streams one memory dump as text, 8 values a line.
void write_memory_dump_text(const DumpSpec& d, const MachineState& s, Generation g) {
  out("{} {} x{} (address {:#x}):\n", to_string(d.at, g), d.type.info->name, d.count, d.at.address);
  bool all_initialized = true;
  constexpr uint64_t kPerLine = 8;
  std::string line;
  for (uint64_t k = 0; k < d.count && !stdout_failed(); ++k) {
    bool init = true;
    const uint64_t raw = s.memory.read(d.at.address + k * d.type.size, d.type.size, &init);
    all_initialized = all_initialized && init;
    if (k % kPerLine == 0) line += fmt::format("  [{}]", k);
    line += fmt::format(" {}", bits_to_text(raw, d.type));
    if (k % kPerLine == kPerLine - 1 || k + 1 == d.count) {
      line += '\n';
      if (line.size() >= 4096 || k + 1 == d.count) out_write(std::exchange(line, {}));
    }
  }
  if (!all_initialized) out_write("  (some bytes were never written and read as 0)\n");
}

// ---- results ----

struct RunContext {
  const RunCliOptions& o;
  Generation gen;
  const std::vector<Word>& program;
  const std::vector<DumpSpec>& dumps;
};

void print_json(const RunContext& ctx, const Machine& m, const RunOutcome& outcome) {
  const MachineState& s = m.state();
  ojson regs = ojson::array();
  for (uint32_t r : s.regs) regs.push_back(r);
  ojson sems = ojson::object();
  for (unsigned i = 0; i < kNumSemaphores; ++i)
    if (s.sems[i] != 0) sems[std::to_string(i)] = s.sems[i];
  ojson events = ojson::array();
  for (unsigned i = 0; i < kNumEvents; ++i)
    if (s.events[i]) events.push_back(i);
  ojson diags = ojson::object();
  for (const auto& [kind, n] : outcome.diagnostics) diags[std::string(kind)] = n;
  const bool faulted = outcome.status == RunOutcome::Status::Fault;
  const ojson head{
      {"status", status_name(outcome.status)},
      {"retired", outcome.retired},
      {"fault", faulted ? io::fault_json(outcome.fault, m.instruction(outcome.fault.index), m.options().validate)
                        : ojson(nullptr)},
      {"regs", std::move(regs)},
      {"semaphores", std::move(sems)},
      {"events", std::move(events)}};
  ojson tail{{"generation", to_string(ctx.gen)},
             {"program", program_label(ctx.o)},
             {"instructions", ctx.program.size()},
             {"pc", m.pc()},
             {"diagnostics", std::move(diags)}};
  if (outcome.status == RunOutcome::Status::Deadlock) {
    ojson blocked = ojson::array();
    for (const BlockedWait& w : outcome.blocked) blocked.push_back(ojson::parse(blocked_wait_json(w)));
    tail["deadlock"] = std::move(blocked);
  }
  // One document, written in pieces so that large dumps stream: {head..., "dumps": [...], tail...}.
  std::string text = io::dump_json(head);
  text.pop_back();
  out("{},\"dumps\":[", text);
  for (size_t i = 0; i < ctx.dumps.size(); ++i) {
    const DumpSpec& d = ctx.dumps[i];
    if (i > 0) out_write(",");
    if (d.kind == DumpSpec::Kind::Dve)
      out_write(io::dump_json(dve_dump_json(d, s)));
    else
      write_memory_dump_json(d, s, ctx.gen);
  }
  text = io::dump_json(tail);
  out("],{}\n", text.substr(1));
}

void print_text(const RunContext& ctx, const Machine& m, const RunOutcome& outcome) {
  const RunOutcome& out = outcome;
  const MachineState& s = m.state();
  std::string text = fmt::format("program: {} ({} instruction{}) on {}\n", program_label(ctx.o), ctx.program.size(),
                                 ctx.program.size() == 1 ? "" : "s", to_string(ctx.gen));
  switch (out.status) {
    case RunOutcome::Status::Ok:
      text += fmt::format("status: ok, {} instruction{} retired\n", out.retired, out.retired == 1 ? "" : "s");
      break;
    case RunOutcome::Status::StepLimit:
      text += fmt::format(
          "status: step-limit: stopped by --max-steps after {} instruction{}, before instruction {} "
          "(offset {:#x}) of {}\n",
          out.retired, out.retired == 1 ? "" : "s", m.pc(), m.pc() * kWordBytes, ctx.program.size());
      break;
    case RunOutcome::Status::Deadlock:
      text += fmt::format(
          "status: deadlock after {} instruction{} retired: every engine that has not finished is blocked\n",
          out.retired, out.retired == 1 ? "" : "s");
      for (const BlockedWait& w : out.blocked) text += blocked_text(w);
      break;
    case RunOutcome::Status::Fault: {
      const Fault& f = out.fault;
      const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(ctx.program[f.index]), ctx.gen);
      text += fmt::format("status: fault after {} instruction{} retired; the faulting instruction changed nothing\n",
                          out.retired, out.retired == 1 ? "" : "s");
      text += fmt::format("fault: {} at #{} offset {:#x} {:#04x} {}: {}\n", to_string(f.kind), f.index,
                          f.index * kWordBytes, inst.opcode(), inst.name(), f.detail);
      if (f.has_address) text += fmt::format("  address: {:#x}\n", f.address);
      if (f.reg >= 0) text += fmt::format("  register: r{}\n", f.reg);
      if (f.kind == FaultKind::InvalidInstruction) {
        text += fmt::format("  failing predicates of {} ({}{}):\n",
                            f.verdict.validator != nullptr ? f.verdict.validator->name : "the validator",
                            f.verdict.n_failed, f.verdict.truncated ? "+" : "");
        text += failure_lines(f.verdict, inst, ctx.o.options, "    ");
      }
      break;
    }
  }
  bool any = false;
  text += "registers (non-zero):\n";
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
  if (ctx.gen != Generation::Maverick) {
    std::string set;
    for (unsigned i = 0; i < kNumEvents; ++i)
      if (s.events[i]) set += fmt::format(" {}", i);
    text += fmt::format("events set:{}\n", set.empty() ? " (none)" : set);
  }
  if (!out.diagnostics.empty()) {
    std::string list;
    for (const auto& [kind, n] : out.diagnostics) list += fmt::format("{}{} {}", list.empty() ? "" : ", ", n, kind);
    text += fmt::format("diagnostics: {} (details with --trace)\n", list);
  }
  out_write(text);
  for (const DumpSpec& d : ctx.dumps) {
    if (d.kind == DumpSpec::Kind::Dve)
      out_write(dve_dump_text(d, s));
    else
      write_memory_dump_text(d, s, ctx.gen);
  }
}

int run_run(const RunCliOptions& o) {
  const Generation gen = o.gen.value_or(kDefaultGeneration);
  if (o.hex.empty() == o.program.empty())
    return usage_error("run", o.hex.empty() ? "no program: give PROGRAM ('-' for stdin) or --hex HEX"
                                            : "give either --hex words or PROGRAM, not both");
  std::string why;
  const auto max_steps = number_option("--max-steps", o.max_steps, 0, UINT64_MAX, why);
  if (!max_steps) return usage_error("run", why);
  const auto max_memory = parse_size(o.max_memory);
  if (!max_memory)
    return usage_error(
        "run", fmt::format("--max-memory '{}' is not a byte count (e.g. 1073741824, 512M, 1GiB)", o.max_memory));
  const auto max_elements = number_option("--max-elements", o.max_elements, 0, UINT64_MAX, why);
  if (!max_elements) return usage_error("run", why);
  const auto max_words = number_option("--max-words", o.max_words, 1, UINT64_MAX, why);
  if (!max_words) return usage_error("run", why);
  const auto max_dump = number_option("--max-dump-elements", o.max_dump_elements, 1, UINT64_MAX, why);
  if (!max_dump) return usage_error("run", why);
  if (o.trace == "-") return usage_error("run", "--trace needs a file name ('-' is not accepted)");
  const auto engine = parse_engine(o.engine);
  if (!engine)
    return usage_error("run", fmt::format("--engine '{}' is not an engine (pe, act, pool, dve, sp)", o.engine));
  const auto trace_max_effects = number_option("--trace-max-effects", o.trace_max_effects, 1, UINT64_MAX, why);
  if (!trace_max_effects) return usage_error("run", why);
  std::vector<DumpSpec> dumps;
  uint64_t dumped = 0;
  for (const std::string& text : o.dumps) {
    auto d = io::parse_dump_spec(text, gen);
    if (!d) return usage_error("run", fmt::format("--dump '{}': {}", io::printable(text), d.error().message));
    dumped += d->kind == DumpSpec::Kind::Memory ? d->count : 0;
    // The output of all dumps together is bounded, not only that of each.
    if (dumped > *max_dump)
      return usage_error("run", fmt::format("--dump '{}': the dumps show more than {} elements in all "
                                            "(--max-dump-elements)",
                                            io::printable(text), *max_dump));
    dumps.push_back(std::move(*d));
  }
  if (o.hex.empty() && is_neff_file(o.program)) {
    if (!o.init.empty() || !o.vars.empty() || !o.dumps.empty())
      return usage_error("run", "--init, --vars and --dump apply to a word stream, not to a NEFF");
    NeffRunCliOptions n;
    n.program = o.program;
    n.inputs = o.inputs;
    n.out = o.out_dir;
    n.expects = o.expects;
    n.schedule = o.schedule;
    n.json = o.json;
    n.quiet = o.quiet;
    n.check_races = o.check_races;
    n.threads = o.threads;
    n.trace = o.trace;
    n.trace_filters = o.trace_filters;
    n.max_steps = o.max_steps_given ? *max_steps : UINT64_MAX;
    n.max_memory = *max_memory;
    n.max_elements = *max_elements;
    n.trace_max_effects = static_cast<size_t>(std::min<uint64_t>(*trace_max_effects, SIZE_MAX));
    n.validate = o.options;
    return run_neff(n);
  }
  if (const std::string names = neff_only_options(o); !names.empty())
    return usage_error("run", fmt::format("{} apply only to a NEFF program", names));
  const int stdin_users = (o.program == "-") + (o.init == "-") + (o.vars == "-");
  if (stdin_users > 1) return usage_error("run", "only one of PROGRAM, --init and --vars can be stdin");

  std::vector<Word> program;
  if (!load_program(o, *max_words, program)) return kExitInput;
  MachineOptions mo;
  mo.firmware_stubs = o.firmware_stubs;
  mo.validate = o.options;
  mo.max_memory = *max_memory;
  mo.max_elements_per_instruction = *max_elements;
  mo.engine = *engine;
  mo.record_effects = !o.trace.empty();
  mo.max_recorded_effects = static_cast<size_t>(std::min<uint64_t>(*trace_max_effects, SIZE_MAX));
  Machine m(gen, program, mo);
  if (!o.init.empty()) {
    if (const auto loaded = io::load_state(o.init, m.mutable_state(), mo.convert); !loaded) {
      report_error(loaded.error());
      return kExitInput;
    }
  }
  std::unique_ptr<Sink> trace;
  if (!o.trace.empty()) {
    std::vector<std::string> inputs{o.init, o.vars};
    if (o.hex.empty()) inputs.push_back(o.program);
    auto opened = open_sink(o.trace, inputs);
    if (!opened) {
      report_error(opened.error());
      return kExitInput;
    }
    trace = std::move(*opened);
  }
  const RunOutcome out = execute(m, *max_steps, trace.get());
  const RunContext ctx{o, gen, program, dumps};
  if (o.json)
    print_json(ctx, m, out);
  else
    print_text(ctx, m, out);
  if (trace != nullptr && finish_sink(*trace) != kExitOk) return kExitInput;
  return out.status == RunOutcome::Status::Ok ? kExitOk : kExitNegative;
}

}  // namespace

Command register_run(CLI::App& parent) {
  auto opts = std::make_shared<RunCliOptions>();
  CLI::App* app = parent.add_subcommand("run", "Execute a program on the functional simulator and show the state");
  add_generation_option(*app, opts->gen, "Generation: sunda|cayman|mariana|maverick or v2..v5 (default: mariana)");
  app->add_option("PROGRAM", opts->program,
                  "File of 64-byte words ('-' reads stdin) or a .tasm source; at most --max-words words")
      ->type_name("PROGRAM");
  app->add_option("--hex", opts->hex,
                  "The program as hex words instead of PROGRAM (128 hex digits each; several per argument allowed)")
      ->type_name("HEX")
      ->expected(1, CLI::detail::expected_max_vector_size)
      ->allow_extra_args(true);
  app->add_option("--init", opts->init, "Initial registers, semaphores, events and memory (docs/cli.md)")
      ->type_name("STATE.json");
  app->add_option("--vars", opts->vars, "Lower pseudo words on load with this variable table")->type_name("VARS.json");
  app->add_option("--dump", opts->dumps,
                  "Show memory or DVE state at the end: LOCATION:DTYPE:COUNT (LOCATION sbuf[pP]+OFF, "
                  "psum[pP].bankB+OFF, dev:ADDR, or sbuf:P:OFF, psum:P:OFF) or dve:CHANNEL; repeat for more")
      ->type_name("SPEC")
      ->allow_extra_args(false);
  app->add_flag("--json", opts->json, "Print one JSON document instead of text");
  app->add_option("--trace", opts->trace, "Write a JSON-Lines trace, one record per retired or faulting instruction")
      ->type_name("FILE.jsonl");
  app->add_option("--max-steps", opts->max_steps,
                  "Stop after this many retired instructions (default: 1000000; a NEFF: no limit)")
      ->type_name("N")
      ->each([opts](const std::string&) { opts->max_steps_given = true; });
  app->add_option("--input", opts->inputs, "A NEFF: input NAME of the signature from FILE.npy (mapped); repeat")
      ->type_name("NAME=FILE.npy")
      ->allow_extra_args(false);
  app->add_option("--out", opts->out_dir, "A NEFF: write every output as DIR/NAME.npy")->type_name("DIR");
  app->add_option("--expect", opts->expects,
                  "A NEFF: compare output NAME with REF.npy (differing elements, largest difference); repeat")
      ->type_name("NAME=REF.npy")
      ->allow_extra_args(false);
  app->add_option("--schedule", opts->schedule,
                  "A NEFF: engine order: default (round robin PE..SP, core by core), reverse, random:SEED")
      ->type_name("ORDER");
  app->add_option("--trace-filter", opts->trace_filters,
                  "A NEFF: keep trace records of engine=E, opcode=NAME|0xNN or core=N only; repeat")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  app->add_flag("--quiet", opts->quiet, "A NEFF: no progress line on stderr");
  app->add_flag("--threads", opts->threads,
                "A NEFF: run every core on its own thread (same outputs; not with --trace or --check-races)");
  app->add_flag("--check-races", opts->check_races,
                "A NEFF: report conflicting accesses of different engines with no happens-before order (exit 1)");
  app->add_option("--max-memory", opts->max_memory,
                  "Bound on simulated memory in bytes, suffixes K/M/G/T (binary) allowed (default: 1GiB); the "
                  "initial state counts")
      ->type_name("BYTES");
  app->add_option("--max-elements", opts->max_elements,
                  "Bound on the element accesses of one instruction (default: 4194304)")
      ->type_name("N");
  app->add_option("--trace-max-effects", opts->trace_max_effects,
                  "At most N entries per effect list in a trace record; the rest are counted in 'omitted' "
                  "(default: 4096)")
      ->type_name("N");
  app->add_option("--engine", opts->engine,
                  "PROJ-CONV-P1: the engine that runs PROGRAM: pe, act, pool, dve, sp (default: dve)")
      ->type_name("ENGINE");
  app->add_option("--max-words", opts->max_words, "Most words PROGRAM may hold (default: 1048576)")->type_name("N");
  app->add_option("--max-dump-elements", opts->max_dump_elements,
                  "Most elements all --dump specs together may show (default: 4194304)")
      ->type_name("N");
  app->add_flag("--firmware-stubs", opts->firmware_stubs,
                "PROJ-CONV-S8/T10: ImmLd and PtrMulti retire as the firmware's log-only stubs");
  add_validate_options(*app, opts->options);
  app->footer(
      "Exit codes: 0 the program ran to its end, 1 a fault, a deadlock or --max-steps stopped it, 2 usage error "
      "(including a bad --dump or --max-* value),\n3 input or output error (unreadable PROGRAM, bad STATE.json or "
      "VARS.json, lowering failure, unwritable --trace file or stdout).");
  return {app, [opts] { return run_run(*opts); }};
}

}  // namespace tpbisa::cli
