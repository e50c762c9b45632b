// `tpbisa run`: loads a program (lowering it with --vars), the initial state (--init), steps the Machine with an
// optional JSON-Lines trace, and prints the outcome, the registers, semaphores, events and the --dump views.
#include "cmd_run.hpp"

#include "cmd_asm.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "io.hpp"
#include "json_input.hpp"
#include "state_json.hpp"
#include "tpbisa/lower.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/trace.hpp"
#include "verdict_print.hpp"

namespace tpbisa::cli {
namespace {

/// Largest program `run` loads (1 Mi words, 64 MiB).
constexpr size_t kMaxProgramWords = size_t{1} << 20;
constexpr std::string_view kDefaultMaxSteps = "1000000";
constexpr std::string_view kDefaultMaxMemory = "1GiB";
constexpr std::string_view kDefaultMaxElements = "4194304";

struct RunCliOptions {
  std::optional<Generation> gen;
  std::string program;
  std::string init;
  std::string vars;
  std::vector<std::string> dumps;
  bool json = false;
  std::string trace;
  std::string max_steps{kDefaultMaxSteps};
  std::string max_memory{kDefaultMaxMemory};
  std::string max_elements{kDefaultMaxElements};
  bool firmware_stubs = false;
  std::string engine{"dve"};
  std::string trace_max_effects{std::to_string(kDefaultMaxRecordedEffects)};
  ValidateOptions options;
};

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

/// Reads the whole program (bounded), lowering pseudo words when a variable table is given.
bool load_program(const RunCliOptions& o, std::vector<Word>& program, std::string& error) {
  VarTable vars;
  if (!o.vars.empty() && !load_vars(o.vars, vars, error)) return false;
  // A .tasm program is assembled on load; any other file is a stream of 64-byte words.
  const std::unique_ptr<WordSource> source = open_words(o.program, o.gen.value_or(kDefaultGeneration));
  WordSource& src = *source;
  Word word{};
  for (;;) {
    switch (src.next(word)) {
      case WordSource::Next::End: return true;
      case WordSource::Next::Failed: error = src.error(); return false;
      case WordSource::Next::Word: break;
    }
    if (program.size() >= kMaxProgramWords) {
      error = fmt::format(
          "{}: more than {} instructions ({} MiB) at offset {} (instruction {}); run loads at most "
          "that many",
          src.label(), kMaxProgramWords, kMaxProgramWords * kWordBytes >> 20, src.offset(), src.index());
      return false;
    }
    if (!o.vars.empty()) {
      const LowerResult r = lower_pseudo(word, vars);
      if (!r.ok()) {
        error = fmt::format("{}: instruction {} (offset {}): {} (--vars {})", src.label(), src.index(), src.offset(),
                            r.message, input_label(o.vars));
        return false;
      }
      word = r.word;
    }
    program.push_back(word);
  }
}

struct Outcome {
  enum class Status { Ok, Fault, StepLimit, Deadlock } status = Status::Ok;
  uint64_t retired = 0;
  Fault fault{};
  std::vector<BlockedWait> blocked;                  ///< on deadlock: each blocked engine's wait
  std::map<std::string_view, uint64_t> diagnostics;  ///< count per diagnostic kind
};

std::string_view status_name(Outcome::Status s) {
  switch (s) {
    case Outcome::Status::Ok: return "ok";
    case Outcome::Status::Fault: return "fault";
    case Outcome::Status::StepLimit: return "step-limit";
    case Outcome::Status::Deadlock: return "deadlock";
  }
  return "ok";
}

/// The JSON-Lines trace file, buffered; write errors are kept for the end.
class TraceFile {
 public:
  ~TraceFile() {
    if (file_ != nullptr) std::fclose(file_);
  }
  bool open(const std::string& path, std::string& error) {
    file_ = std::fopen(path.c_str(), "wb");
    if (file_ == nullptr) {
      error = fmt::format("{}: cannot open the trace for writing: {}", path, std::strerror(errno));
      return false;
    }
    path_ = path;
    return true;
  }
  bool enabled() const { return file_ != nullptr; }
  void line(const std::string& text) {
    if (std::fwrite(text.data(), 1, text.size(), file_) != text.size() || std::fputc('\n', file_) == EOF)
      failed_ = true;
  }
  bool close(std::string& error) {
    if (file_ == nullptr) return true;
    const bool ok = !failed_ && std::fflush(file_) == 0 && std::ferror(file_) == 0;
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (ok && closed) return true;
    error = fmt::format("{}: write error in the trace: {}", path_, std::strerror(errno));
    return false;
  }

 private:
  std::FILE* file_ = nullptr;
  std::string path_;
  bool failed_ = false;
};

Outcome execute(Machine& m, uint64_t max_steps, TraceFile& trace) {
  Outcome out;
  std::string line;
  while (!m.finished()) {
    if (m.deadlocked()) {
      out.status = Outcome::Status::Deadlock;
      out.blocked = m.blocked_waits();
      return out;
    }
    if (out.retired >= max_steps) {
      out.status = Outcome::Status::StepLimit;
      return out;
    }
    const StepResult r = m.step();
    if (r.status == StepResult::Status::Blocked) continue;  // a blocked turn writes no record
    if (trace.enabled()) {
      line.clear();
      append_trace_line(line, r, m.gen());
      trace.line(line);
    }
    if (r.status == StepResult::Status::Faulted) {
      out.status = Outcome::Status::Fault;
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

ojson memory_dump_json(const DumpSpec& d, const MachineState& s) {
  ojson values = ojson::array();
  ojson bits = ojson::array();
  bool all_initialized = true;
  for (uint64_t k = 0; k < d.count; ++k) {
    bool init = true;
    const uint64_t raw = s.memory.read(d.at.address + k * d.type.size, d.type.size, &init);
    all_initialized = all_initialized && init;
    values.push_back(bits_to_json(raw, d.type));
    bits.push_back(bits_hex(raw, d.type.size));
  }
  return {{"at", d.at.text},
          {"address", fmt::format("{:#x}", d.at.address)},
          {"dtype", d.type.info->name},
          {"count", d.count},
          {"values", std::move(values)},
          {"bits", std::move(bits)},
          {"initialized", all_initialized}};
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

std::string memory_dump_text(const DumpSpec& d, const MachineState& s) {
  std::string out = fmt::format("{} {} x{} (address {:#x}):\n", d.at.text, d.type.info->name, d.count, d.at.address);
  bool all_initialized = true;
  constexpr uint64_t kPerLine = 8;
  for (uint64_t k = 0; k < d.count; ++k) {
    bool init = true;
    const uint64_t raw = s.memory.read(d.at.address + k * d.type.size, d.type.size, &init);
    all_initialized = all_initialized && init;
    if (k % kPerLine == 0) out += fmt::format("  [{}]", k);
    out += fmt::format(" {}", bits_to_text(raw, d.type));
    if (k % kPerLine == kPerLine - 1 || k + 1 == d.count) out += '\n';
  }
  if (!all_initialized) out += "  (some bytes were never written and read as 0)\n";
  return out;
}

// ---- results ----

struct RunContext {
  const RunCliOptions& o;
  Generation gen;
  const std::vector<Word>& program;
  const std::vector<DumpSpec>& dumps;
};

ojson fault_object(const RunContext& ctx, const Fault& f) {
  ojson j = ojson::parse(fault_json(f, ctx.gen));
  j["offset"] = f.index * kWordBytes;
  if (f.index < ctx.program.size()) {
    const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(ctx.program[f.index]), ctx.gen);
    j["opcode"] = fmt::format("{:#04x}", inst.opcode());
    j["name"] = inst.name();
    if (f.kind == FaultKind::InvalidInstruction) {
      const CheckContext check{ctx.gen, ctx.o.options};
      ojson failures = ojson::array();
      for (const Predicate* p : f.verdict.failures()) failures.push_back(failure_json(report(*p, inst, check)));
      j["failures"] = std::move(failures);
    }
  }
  return j;
}

void print_json(const RunContext& ctx, const Machine& m, const Outcome& out) {
  const MachineState& s = m.state();
  ojson regs = ojson::array();
  for (uint32_t r : s.regs) regs.push_back(r);
  ojson sems = ojson::object();
  for (unsigned i = 0; i < kNumSemaphores; ++i)
    if (s.sems[i] != 0) sems[std::to_string(i)] = s.sems[i];
  ojson events = ojson::array();
  for (unsigned i = 0; i < kNumEvents; ++i)
    if (s.events[i]) events.push_back(i);
  ojson dumps = ojson::array();
  for (const DumpSpec& d : ctx.dumps)
    dumps.push_back(d.kind == DumpSpec::Kind::Dve ? dve_dump_json(d, s) : memory_dump_json(d, s));
  ojson diags = ojson::object();
  for (const auto& [kind, n] : out.diagnostics) diags[std::string(kind)] = n;
  const ojson doc{{"status", status_name(out.status)},
                  {"retired", out.retired},
                  {"fault", out.status == Outcome::Status::Fault ? fault_object(ctx, out.fault) : ojson(nullptr)},
                  {"regs", std::move(regs)},
                  {"semaphores", std::move(sems)},
                  {"events", std::move(events)},
                  {"dumps", std::move(dumps)},
                  {"generation", to_string(ctx.gen)},
                  {"program", input_label(ctx.o.program)},
                  {"instructions", ctx.program.size()},
                  {"pc", m.pc()},
                  {"diagnostics", std::move(diags)}};
  if (out.status == Outcome::Status::Deadlock) {
    ojson blocked = ojson::array();
    for (const BlockedWait& w : out.blocked) blocked.push_back(ojson::parse(blocked_wait_json(w)));
    ojson with = doc;
    with["deadlock"] = std::move(blocked);
    fmt::print("{}\n", dump_json(with));
    return;
  }
  fmt::print("{}\n", dump_json(doc));
}

void print_text(const RunContext& ctx, const Machine& m, const Outcome& out) {
  const MachineState& s = m.state();
  std::string text = fmt::format("program: {} ({} instruction{}) on {}\n", input_label(ctx.o.program),
                                 ctx.program.size(), ctx.program.size() == 1 ? "" : "s", to_string(ctx.gen));
  switch (out.status) {
    case Outcome::Status::Ok:
      text += fmt::format("status: ok, {} instruction{} retired\n", out.retired, out.retired == 1 ? "" : "s");
      break;
    case Outcome::Status::StepLimit:
      text += fmt::format(
          "status: step-limit: stopped by --max-steps after {} instruction{}, before instruction {} "
          "(offset {:#x}) of {}\n",
          out.retired, out.retired == 1 ? "" : "s", m.pc(), m.pc() * kWordBytes, ctx.program.size());
      break;
    case Outcome::Status::Deadlock:
      text += fmt::format(
          "status: deadlock after {} instruction{} retired: every engine that has not finished is blocked\n",
          out.retired, out.retired == 1 ? "" : "s");
      for (const BlockedWait& w : out.blocked) text += blocked_text(w);
      break;
    case Outcome::Status::Fault: {
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
  for (const DumpSpec& d : ctx.dumps)
    text += d.kind == DumpSpec::Kind::Dve ? dve_dump_text(d, s) : memory_dump_text(d, s);
  std::fputs(text.c_str(), stdout);
}

int run_run(const RunCliOptions& o) {
  const Generation gen = o.gen.value_or(kDefaultGeneration);
  const auto max_steps = parse_u64(o.max_steps);
  if (!max_steps) return usage_error("run", fmt::format("--max-steps '{}' is not a number", o.max_steps));
  const auto max_memory = parse_size(o.max_memory);
  if (!max_memory)
    return usage_error(
        "run", fmt::format("--max-memory '{}' is not a byte count (e.g. 1073741824, 512M, 1GiB)", o.max_memory));
  const auto max_elements = parse_u64(o.max_elements);
  if (!max_elements) return usage_error("run", fmt::format("--max-elements '{}' is not a number", o.max_elements));
  if (o.trace == "-") return usage_error("run", "--trace needs a file name ('-' is not accepted)");
  const auto engine = parse_engine(o.engine);
  if (!engine)
    return usage_error("run", fmt::format("--engine '{}' is not an engine (pe, act, pool, dve, sp)", o.engine));
  const auto trace_max_effects = parse_u64(o.trace_max_effects);
  if (!trace_max_effects || *trace_max_effects == 0)
    return usage_error("run", fmt::format("--trace-max-effects '{}' is not a positive number", o.trace_max_effects));
  std::vector<DumpSpec> dumps;
  for (const std::string& text : o.dumps) {
    DumpSpec d;
    std::string why;
    if (!parse_dump_spec(text, gen, d, why)) return usage_error("run", fmt::format("--dump '{}': {}", text, why));
    dumps.push_back(std::move(d));
  }
  const int stdin_users = (o.program == "-") + (o.init == "-") + (o.vars == "-");
  if (stdin_users > 1) return usage_error("run", "only one of PROGRAM, --init and --vars can be stdin");

  std::string error;
  std::vector<Word> program;
  if (!load_program(o, program, error)) {
    report_error(error);
    return kExitInput;
  }
  MachineOptions mo;
  mo.firmware_stubs = o.firmware_stubs;
  mo.validate = o.options;
  mo.max_memory = *max_memory;
  mo.max_elements_per_instruction = *max_elements;
  mo.engine = *engine;
  mo.record_effects = !o.trace.empty();
  mo.max_recorded_effects = static_cast<size_t>(std::min<uint64_t>(*trace_max_effects, SIZE_MAX));
  Machine m(gen, program, mo);
  if (!o.init.empty() && !load_state(o.init, m.mutable_state(), mo.convert, error)) {
    report_error(error);
    return kExitInput;
  }
  TraceFile trace;
  if (!o.trace.empty() && !trace.open(o.trace, error)) {
    report_error(error);
    return kExitInput;
  }
  const Outcome out = execute(m, *max_steps, trace);
  const RunContext ctx{o, gen, program, dumps};
  if (o.json)
    print_json(ctx, m, out);
  else
    print_text(ctx, m, out);
  std::fflush(stdout);
  if (!trace.close(error)) {
    report_error(error);
    return kExitInput;
  }
  return out.status == Outcome::Status::Ok ? kExitOk : kExitNegative;
}

}  // namespace

Command register_run(CLI::App& parent) {
  auto opts = std::make_shared<RunCliOptions>();
  CLI::App* app = parent.add_subcommand("run", "Execute a program on the functional simulator and show the state");
  add_generation_option(*app, opts->gen, "Generation: sunda|cayman|mariana|maverick or v2..v5 (default: mariana)");
  app->add_option("PROGRAM", opts->program, "File of 64-byte words ('-' reads stdin); at most 1048576 words")
      ->type_name("PROGRAM")
      ->required();
  app->add_option("--init", opts->init, "Initial registers, semaphores, events and memory (docs/cli.md)")
      ->type_name("STATE.json");
  app->add_option("--vars", opts->vars, "Lower pseudo words on load with this variable table")->type_name("VARS.json");
  app->add_option("--dump", opts->dumps,
                  "Show memory or DVE state at the end: dev:ADDR:DTYPE:COUNT, sbuf:P:OFF:DTYPE:COUNT, "
                  "psum:P:OFF:DTYPE:COUNT, dve:CHANNEL; repeat for more")
      ->type_name("SPEC")
      ->allow_extra_args(false);
  app->add_flag("--json", opts->json, "Print one JSON document instead of text");
  app->add_option("--trace", opts->trace, "Write a JSON-Lines trace, one record per retired or faulting instruction")
      ->type_name("FILE.jsonl");
  app->add_option("--max-steps", opts->max_steps, "Stop after this many retired instructions (default: 1000000)")
      ->type_name("N");
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
  app->add_flag("--firmware-stubs", opts->firmware_stubs,
                "PROJ-CONV-S8/T10: ImmLd and PtrMulti retire as the firmware's log-only stubs");
  add_validate_options(*app, opts->options);
  app->footer(
      "Exit codes: 0 the program ran to its end, 1 a fault, a deadlock or --max-steps stopped it, 2 usage error "
      "(including a bad --dump or --max-* value),\n3 input error (unreadable PROGRAM, bad STATE.json or "
      "VARS.json, lowering failure, unwritable --trace file).");
  return {app, [opts] { return run_run(*opts); }};
}

}  // namespace tpbisa::cli
