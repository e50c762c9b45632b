// `tpbisa run`: loads a program (lowering it with --vars), the initial state (--init), runs the Machine's loop with an
// optional JSON-Lines trace, and prints the outcome, the registers, semaphores, events and the --dump views; a NEFF
// program goes to cmd_run_neff.
#include "cmd_run.hpp"
#include "commands.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "output.hpp"
#include "tpbisa/io/act_tables.hpp"
#include "tpbisa/io/arguments.hpp"
#include "tpbisa/io/dump.hpp"
#include "tpbisa/io/element.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/run_json.hpp"
#include "tpbisa/io/state.hpp"
#include "tpbisa/io/validate_stream.hpp"
#include "tpbisa/io/vars.hpp"
#include "tpbisa/lower.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/trace.hpp"
#include "verdict_print.hpp"

namespace tpbisa::cli {
namespace {

using io::bits_hex;
using io::bits_to_text;
using io::DumpSpec;
using io::WordSource;

/// The NEFF-only options given to a run of a plain word stream, for the usage error.
std::string neff_only_options(const RunCliOptions& o) {
  std::string names;
  const auto add = [&](bool given, std::string_view name) {
    if (given) names += fmt::format("{}{}", names.empty() ? "" : ", ", name);
  };
  add(!o.inputs.empty(), "--input");
  add(!o.out_dir.empty(), "--out");
  add(!o.expects.empty(), "--expect");
  add(o.rtol != "0" || o.atol != "0", "--rtol/--atol");
  add(o.schedule != "default", "--schedule");
  add(!o.trace_filters.empty(), "--trace-filter");
  add(o.check_races, "--check-races");
  add(o.threads, "--threads");
  add(!o.timeline.empty(), "--timeline");
  add(o.jobs_given, "--jobs");
  add(o.progress, "--progress");
  return names;
}

/// Why PROGRAM (a file) cannot be read: "PROG: cannot open: OS error" (a missing or unreadable file, a folder);
/// nullopt when it can, or when the program is stdin or --hex words.
std::optional<std::string> unreadable(const RunCliOptions& o) {
  if (!o.hex.empty() || o.program == "-") return std::nullopt;
  // Non-blocking: a FIFO is not waited for (it is readable, as a word stream).
  const int fd = ::open(o.program.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  int err = fd < 0 ? errno : 0;
  struct stat st {};
  if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) err = EISDIR;
  if (fd >= 0) ::close(fd);
  if (err == 0) return std::nullopt;
  return fmt::format("{}: cannot open: {}", o.program, std::strerror(err));
}

/// The program's name in messages and output: the file, <stdin>, or --hex.
std::string program_label(const RunCliOptions& o) {
  return o.hex.empty() ? io::input_label(o.program) : "--hex";
}

/// How PROGRAM is opened: a .tasm source for the run's generation; a NEFF only from stdin, where the run looks at
/// the bytes to tell (a NEFF file is run by run_neff_program).
io::InputOptions program_input(const RunCliOptions& o) {
  io::InputOptions input;
  input.gen = o.gen.value_or(kDefaultGeneration);
  input.neff = o.program == "-";
  input.neff_refusal = "a NEFF runs whole (tpbisa run PROG.neff)";
  return input;
}

bool read_program(const RunCliOptions& o, uint64_t max_words, std::vector<Word>& program,
                  std::unique_ptr<WordSource> opened);

/// The program's words: PROGRAM mapped read-only when it is a plain file of whole words within --max-words (no
/// copy into memory: the machine views the mapping), else the words read, and lowered with --vars, into memory.
class ProgramWords {
 public:
  ProgramWords() = default;
  ~ProgramWords() {
    if (map_ != nullptr) ::munmap(map_, length_);
  }
  ProgramWords(const ProgramWords&) = delete;
  ProgramWords& operator=(const ProgramWords&) = delete;

  /// Maps `path` when it is a regular file of 1..max_words whole words; false (nothing mapped) otherwise, and the
  /// words are then read as any input's, with its checks and messages.
  bool map_file(const std::string& path, uint64_t max_words) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return false;
    struct stat st {};
    void* map = MAP_FAILED;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size % kWordBytes == 0 &&
        static_cast<uint64_t>(st.st_size) / kWordBytes <= max_words)
      map = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    ::close(fd);
    if (map == MAP_FAILED) return false;
    map_ = map;
    length_ = static_cast<size_t>(st.st_size);
    bytes_ = std::span<const uint8_t>(static_cast<const uint8_t*>(map), length_);
    return true;
  }
  std::vector<Word> owned;  ///< the words read into memory (when not mapped)
  /// Called once `owned` is complete (when not mapped).
  void use_owned() {
    bytes_ = std::span<const uint8_t>(owned.empty() ? nullptr : owned.front().data(), owned.size() * kWordBytes);
  }
  std::span<const uint8_t> bytes() const { return bytes_; }
  size_t size() const { return bytes_.size() / kWordBytes; }
  std::span<const uint8_t, kWordBytes> word(size_t i) const {
    return std::span<const uint8_t, kWordBytes>(bytes_.data() + i * kWordBytes, kWordBytes);
  }

 private:
  void* map_ = nullptr;
  size_t length_ = 0;
  std::span<const uint8_t> bytes_;
};

/// Reads the whole program (at most `max_words`), lowering pseudo words when a variable table is given: a plain file
/// of words is mapped instead (ProgramWords::map_file). `opened` is PROGRAM already opened (stdin, whose first bytes
/// were read to tell a NEFF), or null.
bool load_program(const RunCliOptions& o, uint64_t max_words, ProgramWords& words, std::unique_ptr<WordSource> opened) {
  if (opened == nullptr && o.vars.empty() && o.hex.empty() && o.program != "-" && !o.program.ends_with(".tasm") &&
      words.map_file(o.program, max_words))
    return true;
  std::vector<Word>& program = words.owned;
  const bool loaded = read_program(o, max_words, program, std::move(opened));
  words.use_owned();
  return loaded;
}

/// Reads the whole program (at most `max_words`) into `program`, lowering pseudo words when a variable table is given.
bool read_program(const RunCliOptions& o, uint64_t max_words, std::vector<Word>& program,
                  std::unique_ptr<WordSource> opened) {
  VarTable vars;
  if (!o.vars.empty()) {
    auto loaded = io::load_vars(o.vars);
    if (!loaded) {
      report_error(loaded.error());
      return false;
    }
    vars = std::move(*loaded);
  }
  const auto source = opened          ? std::move(opened)
                      : o.hex.empty() ? io::open_input(o.program, program_input(o))
                                      : io::open_hex(o.hex);
  WordSource& src = *source;
  // A file of words is read a block at a time into a program reserved for its size (no regrowth copies).
  if (o.hex.empty() && o.program != "-" && !o.program.ends_with(".tasm")) {
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(o.program, ec);
    if (!ec) program.reserve(static_cast<size_t>(std::min<uint64_t>(size / kWordBytes, max_words)));
  }
  std::span<const uint8_t> block;
  for (;;) {
    switch (src.next_block(block, size_t{1} << 16)) {
      case WordSource::Next::End: return true;
      case WordSource::Next::Failed: report_source_error(src); return false;
      case WordSource::Next::Word: break;
    }
    for (size_t k = 0; k < block.size() / kWordBytes; ++k) {
      if (program.size() >= max_words) {
        report_error(
            fmt::format("{}: more than {} instructions at offset {} (instruction {}); run loads at most that "
                        "many (--max-words)",
                        src.label(), max_words, src.offset() + k * kWordBytes, src.index() + k));
        return false;
      }
      Word word{};
      std::memcpy(word.data(), block.data() + k * kWordBytes, kWordBytes);
      if (!o.vars.empty()) {
        const LowerResult r = lower_pseudo(word, vars);
        if (!r.ok()) {
          report_error(fmt::format("{}: instruction {} (offset {}): {} (--vars {})", src.label(), src.index() + k,
                                   src.offset() + k * kWordBytes, r.message, io::input_label(o.vars)));
          return false;
        }
        word = r.word;
      }
      program.push_back(word);
    }
  }
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

/// Reads the number options, --engine and the --dump specs; a usage error's exit code when one is wrong.
std::optional<int> read_limits(const RunCliOptions& o, Generation gen, RunLimits& l) {
  std::string why;
  const auto number = [&](std::string_view option, const std::string& text, uint64_t min, uint64_t& out) {
    const auto v = number_option(option, text, min, UINT64_MAX, why);
    out = v.value_or(0);
    return v.has_value();
  };
  uint64_t max_dump = 0, max_effects = 0;
  if (!number("--max-steps", o.max_steps, 0, l.max_steps)) return usage_error("run", why);
  const auto max_memory = io::parse_size(o.max_memory);
  if (!max_memory)
    return usage_error(
        "run", fmt::format("--max-memory '{}' is not a byte count (e.g. 1073741824, 512M, 1GiB)", o.max_memory));
  l.max_memory = *max_memory;
  if (!number("--max-elements", o.max_elements, 0, l.max_elements) ||
      !number("--max-words", o.max_words, 1, l.max_words) ||
      !number("--max-dump-elements", o.max_dump_elements, 1, max_dump))
    return usage_error("run", why);
  // --trace - writes the records to stdout; the report then goes to stderr, so stdout stays JSON Lines.
  if (o.trace == "-") report_to_stderr();
  const auto engine = parse_engine(o.engine);
  if (!engine)
    return usage_error("run", fmt::format("--engine '{}' is not an engine (pe, act, pool, dve, sp)", o.engine));
  l.engine = *engine;
  if (!number("--trace-max-effects", o.trace_max_effects, 1, max_effects)) return usage_error("run", why);
  l.trace_max_effects = static_cast<size_t>(std::min<uint64_t>(max_effects, SIZE_MAX));
  uint64_t dumped = 0;
  for (const std::string& text : o.dumps) {
    auto d = io::parse_dump_spec(text, gen);
    if (!d) return usage_error("run", fmt::format("--dump '{}': {}", io::printable(text), d.error().message));
    dumped += d->kind == DumpSpec::Kind::Memory ? d->count : 0;
    // The output of all dumps together is bounded, not only that of each.
    if (dumped > max_dump)
      return usage_error("run", fmt::format("--dump '{}': the dumps show more than {} elements in all "
                                            "(--max-dump-elements)",
                                            io::printable(text), max_dump));
    l.dumps.push_back(std::move(*d));
  }
  return std::nullopt;
}

/// A NEFF program: the word stream's options refused, the rest run by run_neff.
int run_neff_program(const RunCliOptions& o, const RunLimits& l, const neff::Neff* from_stdin = nullptr) {
  if (!o.init.empty() || !o.vars.empty() || !o.dumps.empty())
    return usage_error("run", "--init, --vars and --dump apply to a word stream, not to a NEFF");
  if (o.engine_given)
    return usage_error("run",
                       "--engine names the engine of a word stream; each stream of a NEFF runs on its own engine "
                       "(--trace-filter engine=E keeps one engine's trace records)");
  return run_neff(o, l, from_stdin);
}

// ---- results ----

std::string status_text(const Machine& m, const RunSummary& s, const ProgramWords& program, Generation gen,
                        const ValidateOptions& options) {
  const std::string_view plural = s.retired == 1 ? "" : "s";
  if (s.step_limit)
    return fmt::format(
        "status: step-limit: stopped by --max-steps after {} instruction{}, before instruction {} "
        "(offset {:#x}) of {}\n",
        s.retired, plural, m.pc(), m.pc() * kWordBytes, program.size());
  if (s.deadlock) {
    std::string text =
        fmt::format("status: deadlock after {} instruction{} retired: every engine that has not finished is blocked\n",
                    s.retired, plural);
    for (const BlockedWait& w : s.blocked) text += blocked_text(w);
    return text;
  }
  if (!s.faulted) return fmt::format("status: ok, {} instruction{} retired\n", s.retired, plural);
  const Fault& f = s.fault;
  const Instruction inst = decode(program.word(f.index), gen);
  std::string text = fmt::format(
      "status: fault after {} instruction{} retired; the faulting instruction changed nothing\n", s.retired, plural);
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

std::string state_text(const MachineState& s, Generation gen) {
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

void print_text(const RunCliOptions& o, const Machine& m, const RunSummary& s, const ProgramWords& program,
                const RunLimits& l, Generation gen) {
  std::string text = fmt::format("program: {} ({} instruction{}) on {}\n", program_label(o), program.size(),
                                 program.size() == 1 ? "" : "s", to_string(gen));
  text += status_text(m, s, program, gen, o.options) + state_text(m.state(), gen);
  if (const auto diags = io::diagnostic_list(s.diagnostic_counts); !diags.empty()) {
    std::string list;
    for (const auto& [kind, n] : diags) list += fmt::format("{}{} {}", list.empty() ? "" : ", ", n, kind);
    text += fmt::format("diagnostics: {} (details with --trace)\n", list);
  }
  out_write(text);
  for (const DumpSpec& d : l.dumps) {
    if (d.kind == DumpSpec::Kind::Unit)
      out_write(fmt::format("{} {} {}:\n", d.unit->name, d.unit->instance, d.instance) +
                d.unit->text(m.state(), d.instance));
    else
      write_memory_dump_text(d, m.state(), gen);
  }
}

/// A word stream: loaded, given its initial state, run with its trace, and shown.
int run_stream(const RunCliOptions& o, const RunLimits& l, Generation gen, std::unique_ptr<WordSource> source) {
  ProgramWords program;
  if (!load_program(o, l.max_words, program, std::move(source))) return kExitInput;
  MachineOptions mo;
  mo.firmware_stubs = o.firmware_stubs;
  mo.validate = o.options;
  mo.max_memory = l.max_memory;
  mo.max_elements_per_instruction = l.max_elements;
  mo.engine = l.engine;
  mo.record_effects = !o.trace.empty();
  mo.max_recorded_effects = l.trace_max_effects;
  mo.act_builtin_exact = o.act_builtin_exact;
  // The machine views the program (which outlives it) rather than holding a second copy of it.
  CoreProgram streams;
  streams.view(l.engine, program.bytes());
  Machine m(gen, std::move(streams), mo);
  std::shared_ptr<const void> act_sets;  // the --act-tables catalog, alive while the machine runs
  if (!o.act_tables.empty()) {
    const neff::Result<neff::Neff> tables = neff::read_file(o.act_tables);
    if (!tables) {
      report_error(Error{ErrorKind::Invalid, tables.error().to_string()});
      return kExitInput;
    }
    act_sets = io::attach_activation_sets(m, *tables);
  }
  if (!o.init.empty()) {
    if (const auto loaded = io::load_state(o.init, m.mutable_state(), mo.convert); !loaded) {
      report_error(loaded.error());
      return kExitInput;
    }
  }
  std::unique_ptr<Sink> trace;
  RunHooks hooks;
  std::string line;
  if (!o.trace.empty()) {
    std::vector<std::string> inputs{o.init, o.vars};
    if (o.hex.empty()) inputs.push_back(o.program);
    auto opened = open_sink(o.trace, inputs);
    if (!opened) {
      report_error(opened.error());
      return kExitInput;
    }
    trace = std::move(*opened);
    const TraceStyle style{false, *parse_trace_format(o.trace_format)};
    hooks.on_step = [&, style](const StepResult& r) {
      line.clear();
      append_trace_line(line, r, m, style);
      line += '\n';
      trace->write(line);
    };
  }
  const RunSummary s = m.run(static_cast<size_t>(std::min<uint64_t>(l.max_steps, SIZE_MAX)), hooks);
  if (o.json) {
    const io::RunJsonContext ctx{gen, program_label(o), program.size(), l.dumps};
    io::write_run_json(m, s, ctx, [](std::string_view piece) {
      out_write(piece);
      return !stdout_failed();
    });
    out_write("\n");
  } else {
    print_text(o, m, s, program, l, gen);
  }
  if (trace != nullptr && finish_sink(*trace) != kExitOk) return kExitInput;
  return s.faulted || s.deadlock || s.step_limit ? kExitNegative : kExitOk;
}

int run_run(const RunCliOptions& o) {
  const Generation gen = o.gen.value_or(kDefaultGeneration);
  if (o.hex.empty() == o.program.empty())
    return usage_error("run", o.hex.empty() ? "no program: give PROGRAM ('-' for stdin) or --hex HEX"
                                            : "give either --hex words or PROGRAM, not both");
  RunLimits limits;
  if (const auto rc = read_limits(o, gen, limits)) return *rc;
  if (o.hex.empty() && o.program != "-" && io::is_neff_file(o.program)) return run_neff_program(o, limits);
  const int stdin_users = (o.program == "-") + (o.init == "-") + (o.vars == "-");
  if (stdin_users > 1) return usage_error("run", "only one of PROGRAM, --init and --vars can be stdin");
  // Stdin is a NEFF or words: its first bytes tell (read once, so the stream run reads on from the same source).
  std::unique_ptr<WordSource> opened;
  if (o.hex.empty() && o.program == "-") {
    opened = io::open_input("-", program_input(o));
    opened->generation();
    if (opened->neff() != nullptr) return run_neff_program(o, limits, opened->neff());
  }
  if (const std::string names = neff_only_options(o); !names.empty()) {
    // A program that cannot be read is an input error, whatever the options given with it.
    if (const auto why = unreadable(o)) {
      report_error(*why);
      return kExitInput;
    }
    return usage_error("run", fmt::format("{} apply only to a NEFF program", names));
  }
  return run_stream(o, limits, gen, std::move(opened));
}

/// The unit states a --dump may name, for its help: "DVE" and " or dve:CHANNEL".
std::pair<std::string, std::string> unit_dump_help() {
  std::string names, forms;
  for (const UnitState* u : unit_states()) {
    std::string upper(u->name), instance(u->instance);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (char& c : instance) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    names += fmt::format("{}{}", names.empty() ? "" : "/", upper);
    forms += fmt::format(" or {}:{}", u->name, instance);
  }
  return {names, forms};
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
  const auto [units, unit_forms] = unit_dump_help();
  app->add_option("--dump", opts->dumps,
                  fmt::format("Show memory or {} state at the end: LOCATION:DTYPE:COUNT (LOCATION sbuf[pP]+OFF, "
                              "psum[pP].bankB+OFF, dev:ADDR, or sbuf:P:OFF, psum:P:OFF){}; repeat for more",
                              units, unit_forms))
      ->type_name("SPEC")
      ->allow_extra_args(false);
  app->add_flag("--json", opts->json, "Print one JSON document instead of text");
  app->add_option("--trace", opts->trace, "Write a JSON-Lines trace, one record per retired or faulting instruction")
      ->type_name("FILE.jsonl");
  app->add_option("--trace-format", opts->trace_format,
                  "The trace's records: json (default) or compact, one short line per step (docs/trace.md)")
      ->check(CLI::IsMember({"json", "compact"}))
      ->needs("--trace")
      ->type_name("FORMAT");
  app->add_option(
         "--max-steps", opts->max_steps,
         "Stop after this many retired instructions (default: 1000000; a NEFF: 1000 per word of its streams, at "
         "least 1000000)")
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
  app->add_option(
         "--rtol", opts->rtol,
         "A NEFF: --expect counts elements as equal within this relative tolerance (|a-b| <= atol + rtol*|ref|)")
      ->type_name("R");
  app->add_option("--atol", opts->atol, "A NEFF: --expect counts elements as equal within this absolute tolerance")
      ->type_name("A");
  app->add_option("--schedule", opts->schedule,
                  "A NEFF: engine order: default (round robin PE..SP, core by core), reverse, random:SEED")
      ->type_name("ORDER");
  app->add_option("--timeline", opts->timeline,
                  "A NEFF: write the run's timeline as Chrome trace-event JSON (ui.perfetto.dev), timed by a cost "
                  "model, not silicon (docs/trace.md)")
      ->type_name("FILE.json");
  app->add_option("--trace-filter", opts->trace_filters,
                  "A NEFF: keep trace records of engine=E, opcode=NAME|0xNN or core=N only; repeat")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  app->add_flag("--quiet", opts->quiet, "A NEFF: no progress line on stderr");
  app->add_flag("--progress", opts->progress,
                "A NEFF: the progress line on stderr (percentage, time left) even when stderr is not a terminal");
  app->add_flag("--threads", opts->threads,
                "A NEFF: run the cores on threads, as by default (kept for scripts; not with --trace or "
                "--check-races)");
  app->add_option("-j,--jobs", opts->jobs,
                  fmt::format("A NEFF: at most N threads run its cores at once, 1..{} (default: the CPUs this process "
                              "may run on); the outputs and the report are those of 1 for every N (a result that one "
                              "order of steps might not give is run again in one order); --trace, --check-races and "
                              "--schedule random run in one order",
                              io::kMaxValidateJobs))
      ->type_name("N")
      ->each([opts](const std::string&) { opts->jobs_given = true; });
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
                  "PROJ-CONV-P1: the engine that runs PROGRAM: pe, act, pool, dve, sp (default: dve); not with a "
                  "NEFF, whose streams name their engines")
      ->type_name("ENGINE")
      ->each([opts](const std::string&) { opts->engine_given = true; });
  app->add_option("--max-words", opts->max_words, "Most words PROGRAM may hold (default: 1048576)")->type_name("N");
  app->add_option("--max-dump-elements", opts->max_dump_elements,
                  "Most elements all --dump specs together may show (default: 4194304)")
      ->type_name("N");
  app->add_flag("--firmware-stubs", opts->firmware_stubs,
                "PROJ-CONV-S8/T10: ImmLd and PtrMulti retire as the firmware's log-only stubs");
  app->add_option("--act-tables", opts->act_tables,
                  "A word stream: ActivationTableLoad selects from this NEFF's activation-function sets "
                  "(docs/activation.md)")
      ->type_name("FILE.neff");
  app->add_flag("--act-builtin-exact", opts->act_builtin_exact,
                "PROJ-CONV-A7: with no set loaded, evaluate identity, copy, relu, abs, sign, square and memset_zero "
                "from a built-in set");
  add_validate_options(*app, opts->options);
  app->footer(
      "Exit codes: 0 the program ran to its end, 1 a fault, a deadlock or --max-steps stopped it, 2 usage error "
      "(including a bad --dump or --max-* value),\n3 input or output error (unreadable PROGRAM, bad STATE.json or "
      "VARS.json, lowering failure, unwritable --trace file or stdout).");
  return {app, [opts] { return run_run(*opts); }};
}

}  // namespace tpbisa::cli
