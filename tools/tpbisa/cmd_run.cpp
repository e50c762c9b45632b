// `tpbisa run`: loads a program (lowering it with --vars), the initial state (--init), runs the Machine's loop with an
// optional JSON-Lines trace, and prints the outcome, the registers, semaphores, events and the --dump views; a NEFF
// program goes to cmd_run_neff.
#include "cmd_run.hpp"
#include "commands.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "output.hpp"
#include "tpbisa/io/arguments.hpp"
#include "tpbisa/io/dump.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/program_words.hpp"
#include "tpbisa/io/run_json.hpp"
#include "tpbisa/io/run_text.hpp"
#include "tpbisa/io/stream_run.hpp"
#include "tpbisa/io/validate_stream.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::cli {
namespace {

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

/// Where the word stream's program comes from.
io::ProgramSpec program_spec(const RunCliOptions& o, uint64_t max_words) {
  return {o.program, o.hex, o.vars, o.gen.value_or(kDefaultGeneration), max_words};
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
  if (const auto why_dump = io::parse_dump_specs(o.dumps, gen, max_dump, l.dumps)) return usage_error("run", *why_dump);
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

/// A word stream: loaded, given its initial state, run with its trace, and shown.
int run_stream(const RunCliOptions& o, const RunLimits& l, Generation gen, std::unique_ptr<WordSource> source) {
  const io::ProgramSpec spec = program_spec(o, l.max_words);
  io::ProgramWords program;
  std::string diagnostics;
  if (const auto loaded = program.load(spec, std::move(source), diagnostics); !loaded) {
    err_write(diagnostics);
    report_error(loaded.error());
    return kExitInput;
  }
  io::StreamRunSetup setup{{}, o.act_tables, o.init};
  MachineOptions& mo = setup.machine;
  mo.firmware_stubs = o.firmware_stubs;
  mo.validate = o.options;
  mo.max_memory = l.max_memory;
  mo.max_elements_per_instruction = l.max_elements;
  mo.engine = l.engine;
  mo.record_effects = !o.trace.empty();
  mo.max_recorded_effects = l.trace_max_effects;
  mo.act_builtin_exact = o.act_builtin_exact;
  auto made = io::StreamRun::make(gen, program.bytes(), setup);
  if (!made) {
    report_error(made.error());
    return kExitInput;
  }
  io::StreamRun& run = **made;
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
  const RunSummary s = run.run(l.max_steps, trace.get(), *parse_trace_format(o.trace_format));
  const Machine& m = run.machine();
  const io::RunJsonContext ctx{gen, io::program_label(spec), program.size(), l.dumps};
  const io::JsonSink to_stdout = [](std::string_view piece) {
    out_write(piece);
    return !stdout_failed();
  };
  if (o.json) {
    io::write_run_json(m, s, ctx, to_stdout);
    out_write("\n");
  } else {
    io::write_run_text(m, s, ctx, program.bytes(), o.options, to_stdout);
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
    opened = io::open_input("-", io::program_input_options(program_spec(o, limits.max_words)));
    opened->generation();
    if (opened->neff() != nullptr) return run_neff_program(o, limits, opened->neff());
  }
  if (const std::string names = neff_only_options(o); !names.empty()) {
    // A program that cannot be read is an input error, whatever the options given with it.
    if (const auto why = o.hex.empty() && o.program != "-" ? io::unreadable_file(o.program) : std::nullopt) {
      report_error(*why);
      return kExitInput;
    }
    return usage_error("run", fmt::format("{} apply only to a NEFF program", names));
  }
  return run_stream(o, limits, gen, std::move(opened));
}

/// The options of a NEFF program: its inputs, outputs and references, schedule, timeline, progress and threads.
void add_neff_run_options(CLI::App* app, const std::shared_ptr<RunCliOptions>& opts) {
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
}

/// The bounds of a run and the options of a word stream's machine.
void add_limit_options(CLI::App* app, const std::shared_ptr<RunCliOptions>& opts) {
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
  const auto [units, unit_forms] = io::dump_unit_help();
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
  add_neff_run_options(app, opts);
  add_limit_options(app, opts);
  add_validate_options(*app, opts->options);
  app->footer(
      "Exit codes: 0 the program ran to its end, 1 a fault, a deadlock or --max-steps stopped it, 2 usage error "
      "(including a bad --dump or --max-* value),\n3 input or output error (unreadable PROGRAM, bad STATE.json or "
      "VARS.json, lowering failure, unwritable --trace file or stdout).");
  return {app, [opts] { return run_run(*opts); }};
}

}  // namespace tpbisa::cli
