// `tpbisa run PROG.neff`: binds the .npy inputs to the signature, runs every core's five engines, writes the
// outputs, compares them with --expect references, and prints the run report or the deadlock report.
#include "cmd_run_neff.hpp"

#include <unistd.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "output.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/npy_file.hpp"
#include "tpbisa/neff_run.hpp"
#include "tpbisa/numerics.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/trace.hpp"

namespace tpbisa::cli {
namespace {

using ojson = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

bool split_pair(const std::string& text, std::string& name, std::string& value) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) return false;
  name = text.substr(0, eq);
  value = text.substr(eq + 1);
  return true;
}

/// The ISA dtype that decodes an element of a signature dtype to a number (0: an integer type, read as such).
uint8_t isa_dtype(const std::string& d) {
  if (d == "float16") return dtype::kFp16;
  if (d == "bfloat16") return dtype::kBfloat16;
  if (d == "float32") return dtype::kFp32;
  if (d == "float8_e4m3" || d == "float8_e4m3fn") return dtype::kFp8Exp4;
  if (d == "float8_e5m2") return dtype::kFp8Exp5;
  if (d == "float8_e3m4") return dtype::kFp8Exp3;
  return 0;
}

/// Element k of `bytes` as a number: `dt` an ISA float dtype, else by the .npy kind and size.
double element_value(std::span<const uint8_t> bytes, uint64_t k, unsigned size, uint8_t dt, char kind) {
  uint64_t raw = 0;
  for (unsigned i = 0; i < size; ++i) raw |= uint64_t{bytes[k * size + i]} << (8 * i);
  if (dt != 0) return std::bit_cast<float>(to_fp32_bits(raw, dt));
  if (kind == 'f') return size == 8 ? std::bit_cast<double>(raw) : std::bit_cast<float>(static_cast<uint32_t>(raw));
  if (kind == 'i') {
    const unsigned shift = 64 - 8 * size;
    return static_cast<double>(static_cast<int64_t>(raw << shift) >> shift);
  }
  return static_cast<double>(raw);
}

std::string index_text(uint64_t k, std::span<const uint64_t> shape) {
  std::vector<uint64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] == 0 ? 0 : k % shape[d];
    k = shape[d] == 0 ? 0 : k / shape[d];
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d) s += fmt::format("{}{}", d == 0 ? "" : ", ", idx[d]);
  return s + "]";
}

struct Comparison {
  std::string name, reference;
  uint64_t elements = 0, differing = 0;
  double max_abs_diff = 0;
  std::vector<std::string> first;  ///< the first differing indices (at most 5)
};

/// Compares an output with a reference .npy element by element (NaN equals NaN; +0 equals -0).
bool compare(const neff::Tensor& t, std::span<const uint8_t> got, const io::NpyInput& ref, Comparison& c,
             std::string& error) {
  const unsigned size = neff::signature_dtype_size(t.dtype);
  if (ref.array.shape != t.shape) {
    error = fmt::format("--expect {}: the reference has shape {}, the output {}", t.name, npy::describe(ref.array),
                        fmt::format("{} {}", t.dtype, index_text(0, t.shape)));
    return false;
  }
  if (got.size() < ref.array.count * size) {
    error = fmt::format("--expect {}: the program holds {} bytes for this output, not the {} its signature needs",
                        t.name, got.size(), ref.array.count * size);
    return false;
  }
  if (ref.array.kind == 'c') {
    error = fmt::format("--expect {}: a complex reference ({}) cannot be compared", t.name, ref.array.descr);
    return false;
  }
  const std::vector<std::string> same = neff::npy_descrs_for(t.dtype);
  const bool as_output = std::find(same.begin(), same.end(), ref.array.descr) != same.end();
  const uint8_t out_dt = isa_dtype(t.dtype);
  const char out_kind = t.dtype.find("uint") == 0 ? 'u' : t.dtype.find("int") == 0 ? 'i' : 'f';
  c.elements = ref.array.count;
  const std::span<const uint8_t> want = ref.data();
  for (uint64_t k = 0; k < c.elements; ++k) {
    const double a = element_value(got, k, size, out_dt, out_kind);
    const double b = as_output ? element_value(want, k, size, out_dt, out_kind)
                               : element_value(want, k, ref.array.item_size, 0, ref.array.kind);
    if (a == b || (std::isnan(a) && std::isnan(b))) continue;
    ++c.differing;
    const double d = std::fabs(a - b);
    if (!(d <= c.max_abs_diff)) c.max_abs_diff = d;
    if (c.first.size() < 5) c.first.push_back(index_text(k, t.shape));
  }
  return true;
}

struct TraceFilter {
  std::vector<EngineId> engines;
  std::vector<std::string> opcodes;  ///< mnemonics, lower case, or "0x02"
  std::vector<unsigned> cores;
  bool pass(const StepResult& r) const {
    if (!engines.empty() && std::find(engines.begin(), engines.end(), r.engine) == engines.end()) return false;
    if (!cores.empty() && std::find(cores.begin(), cores.end(), r.core) == cores.end()) return false;
    if (opcodes.empty()) return true;
    std::string name(r.name);
    for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const std::string hex = fmt::format("{:#04x}", r.opcode);
    return std::find(opcodes.begin(), opcodes.end(), name) != opcodes.end() ||
           std::find(opcodes.begin(), opcodes.end(), hex) != opcodes.end();
  }
};

bool parse_filters(const std::vector<std::string>& texts, TraceFilter& f, std::string& why) {
  for (const std::string& t : texts) {
    std::string key, value;
    if (!split_pair(t, key, value)) {
      why = fmt::format("--trace-filter '{}' is not KEY=VALUE (engine=PE, opcode=Matmul, core=0)", t);
      return false;
    }
    if (key == "engine") {
      const auto e = parse_engine(value);
      if (!e) {
        why = fmt::format("--trace-filter engine '{}' is not an engine (pe, act, pool, dve, sp)", value);
        return false;
      }
      f.engines.push_back(*e);
    } else if (key == "opcode") {
      for (char& ch : value) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (value.size() == 3 && value[0] == '0' && value[1] == 'x') value.insert(2, "0");
      f.opcodes.push_back(value);
    } else if (key == "core") {
      const auto n = parse_u64(value);
      if (!n || *n > 255) {
        why = fmt::format("--trace-filter core '{}' is not a core number", value);
        return false;
      }
      f.cores.push_back(static_cast<unsigned>(*n));
    } else {
      why = fmt::format("--trace-filter key '{}' is not engine, opcode or core", key);
      return false;
    }
  }
  return true;
}

struct Report {
  enum class Status { Ok, Fault, StepLimit, Deadlock } status = Status::Ok;
  uint64_t retired = 0;
  Fault fault{};
  std::vector<BlockedWait> blocked;
  std::map<std::string, uint64_t> opcodes;                   ///< retired words per mnemonic
  std::map<std::pair<unsigned, EngineId>, uint64_t> uninit;  ///< uninitialised reads per core and engine
  double seconds = 0;
};

std::string_view status_name(Report::Status s) {
  switch (s) {
    case Report::Status::Ok: return "ok";
    case Report::Status::Fault: return "fault";
    case Report::Status::StepLimit: return "step-limit";
    case Report::Status::Deadlock: return "deadlock";
  }
  return "ok";
}

uint64_t total_macs(const Machine& m) {
  uint64_t n = 0;
  for (size_t c = 0; c < m.num_cores(); ++c) n += m.core(c).state().macs;
  return n;
}

Report execute(neff::Run& run, const NeffRunCliOptions& o, Sink* trace, const TraceFilter& filter,
               neff::RaceChecker* races) {
  Machine& m = run.machine();
  Report rep;
  const auto start = Clock::now();
  const bool progress = !o.quiet && ::isatty(STDERR_FILENO) != 0;
  auto next_progress = start + std::chrono::seconds(1);
  bool progress_shown = false;
  std::string line;
  const TraceStyle style{true};
  while (!m.finished()) {
    if (m.deadlocked()) {
      rep.status = Report::Status::Deadlock;
      rep.blocked = m.blocked_waits();
      break;
    }
    if (rep.retired >= o.max_steps) {
      rep.status = Report::Status::StepLimit;
      break;
    }
    const StepResult r = m.step();
    if (r.status == StepResult::Status::Blocked) continue;
    if (trace != nullptr && r.status != StepResult::Status::Halted && filter.pass(r)) {
      line.clear();
      append_trace_line(line, r, m, style);
      line += '\n';
      trace->write(line);
    }
    if (r.status == StepResult::Status::Faulted) {
      rep.status = Report::Status::Fault;
      rep.fault = r.fault;
      break;
    }
    if (r.status == StepResult::Status::Halted) break;
    if (races != nullptr) races->observe(r);
    run.note_step(r);
    ++rep.retired;
    ++rep.opcodes[std::string(r.name)];
    if (const uint64_t u = r.diagnostic_counts[static_cast<size_t>(DiagKind::UninitializedRead)]; u != 0)
      rep.uninit[{r.core, r.engine}] += u;
    if (progress && (rep.retired & 0xFFF) == 0 && Clock::now() >= next_progress) {
      const double s = std::chrono::duration<double>(Clock::now() - start).count();
      err_write(fmt::format("\r{} words retired, {} MACs, {:.1f} s", rep.retired, total_macs(m), s));
      progress_shown = true;
      next_progress = Clock::now() + std::chrono::milliseconds(500);
    }
  }
  if (progress_shown) err_write("\n");
  rep.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return rep;
}

/// --threads: every core on its own thread (Machine::run_core); cores share only DRAM, so the outputs are those of
/// one thread. The report is merged from the per-core results.
Report execute_threads(neff::Run& run, const NeffRunCliOptions& o) {
  Machine& m = run.machine();
  const auto start = Clock::now();
  struct Part {
    RunSummary summary;
    std::map<std::string, uint64_t> opcodes;
    std::map<std::pair<unsigned, EngineId>, uint64_t> uninit;
  };
  std::vector<Part> parts(m.num_cores());
  std::vector<std::thread> threads;
  for (size_t c = 0; c < m.num_cores(); ++c)
    threads.emplace_back([&m, &run, &parts, &o, c] {
      Part& p = parts[c];
      p.summary = m.run_core(c, o.max_steps, [&p, &run](const StepResult& r) {
        if (r.status != StepResult::Status::Retired) return;
        run.note_step(r);
        ++p.opcodes[std::string(r.name)];
        if (const uint64_t u = r.diagnostic_counts[static_cast<size_t>(DiagKind::UninitializedRead)]; u != 0)
          p.uninit[{r.core, r.engine}] += u;
      });
    });
  for (std::thread& t : threads) t.join();
  Report rep;
  for (const Part& p : parts) {
    rep.retired += p.summary.retired;
    for (const auto& [k, n] : p.opcodes) rep.opcodes[k] += n;
    for (const auto& [k, n] : p.uninit) rep.uninit[k] += n;
    if (p.summary.faulted && rep.status != Report::Status::Fault) {
      rep.status = Report::Status::Fault;
      rep.fault = p.summary.fault;
    } else if (p.summary.deadlock && rep.status == Report::Status::Ok) {
      rep.status = Report::Status::Deadlock;
    } else if (p.summary.step_limit && rep.status == Report::Status::Ok) {
      rep.status = Report::Status::StepLimit;
    }
    rep.blocked.insert(rep.blocked.end(), p.summary.blocked.begin(), p.summary.blocked.end());
  }
  if (rep.status != Report::Status::Deadlock) rep.blocked.clear();
  rep.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return rep;
}

/// The words that could still raise semaphore `w.id` of core `w.core`, from the static picture, with their state.
std::vector<std::string> raisers(const neff::Run& run, const std::vector<neff::SubgraphSems>& picture,
                                 const BlockedWait& w) {
  std::vector<std::string> out;
  const std::string& sg = run.subgraph(w.core);
  for (const neff::SubgraphSems& s : picture) {
    if (s.subgraph != sg) continue;
    for (const neff::SemaphoreUses& u : s.semaphores) {
      if (u.index != w.id) continue;
      for (const neff::SemUse& inc : u.increments) {
        std::string state = "not found";
        for (unsigned e = 0; e < kEnginesPerCore; ++e) {
          const auto id = static_cast<EngineId>(e);
          if (run.stream_label(w.core, id) != inc.stream) continue;
          const Sequencer& q = run.machine().core(w.core).engine(id);
          if (q.pc() > inc.word)
            state = "retired";
          else if (q.pc() == inc.word)
            state = q.blocked() ? fmt::format("blocked at it, waiting for {}", wait_condition(*q.blocked()))
                                : "next to run";
          else
            state = fmt::format("not reached: its engine is at #{}{}", q.pc(), q.finished() ? " (finished)" : "");
        }
        out.push_back(fmt::format("{}#{} {} ({}): {}", inc.stream, inc.word, inc.mnemonic, inc.text, state));
      }
    }
  }
  return out;
}

std::string instruction_text(const neff::Run& run, unsigned core, EngineId e, size_t index) {
  const Sequencer& q = run.machine().core(core).engine(e);
  if (index >= q.size()) return "(end of stream)";
  return disassemble(q.instruction(index), run.gen());
}

}  // namespace

int run_neff(const NeffRunCliOptions& o) {
  MachineOptions mo;
  mo.validate = o.validate;
  mo.max_memory = o.max_memory;
  mo.max_elements_per_instruction = o.max_elements;
  mo.record_effects = !o.trace.empty() || o.check_races;
  // The race check needs every access of every step: nothing is capped then.
  mo.max_recorded_effects = o.check_races ? SIZE_MAX : o.trace_max_effects;
  if (o.schedule == "default") {
    mo.schedule = Schedule::RoundRobin;
  } else if (o.schedule == "reverse") {
    mo.schedule = Schedule::ReverseRoundRobin;
  } else if (o.schedule.rfind("random:", 0) == 0 && parse_u64(o.schedule.substr(7))) {
    mo.schedule = Schedule::Random;
    mo.seed = *parse_u64(o.schedule.substr(7));
  } else {
    return usage_error("run", fmt::format("--schedule '{}' is not default, reverse or random:SEED", o.schedule));
  }
  TraceFilter filter;
  std::string why;
  if (!parse_filters(o.trace_filters, filter, why)) return usage_error("run", why);
  if (!o.trace_filters.empty() && o.trace.empty()) return usage_error("run", "--trace-filter needs --trace FILE");
  if (o.trace == "-") return usage_error("run", "--trace needs a file name ('-' is not accepted)");
  if (o.threads && (!o.trace.empty() || o.check_races))
    return usage_error("run", "--threads runs without --trace and --check-races (they follow one order of steps)");

  auto read = neff::read_file(o.program);
  if (!read) {
    report_error(read.error().to_string());
    return kExitInput;
  }
  const neff::Neff& nf = *read;
  // Inputs: mapped, checked against the signature.
  std::vector<io::NpyInput> mapped;
  mapped.reserve(o.inputs.size());
  std::vector<neff::RunInput> inputs;
  for (const std::string& text : o.inputs) {
    std::string name, path;
    if (!split_pair(text, name, path))
      return usage_error("run", fmt::format("--input '{}' is not NAME=FILE.npy", text));
    const auto t =
        std::find_if(nf.inputs.begin(), nf.inputs.end(), [&](const neff::Tensor& x) { return x.name == name; });
    if (t == nf.inputs.end()) {
      std::string names;
      for (const neff::Tensor& x : nf.inputs) names += fmt::format("{}{}", names.empty() ? "" : ", ", x.name);
      return usage_error(
          "run", fmt::format("--input {}: the program has no input of that name (its inputs: {})", name, names));
    }
    io::NpyInput in;
    std::string error;
    if (!io::open_npy(path, in, error)) {
      report_error(error);
      return kExitInput;
    }
    if (const auto bad = neff::check_npy(*t, in.array)) {
      report_error(fmt::format("{}: {}", path, *bad));
      return kExitInput;
    }
    mapped.push_back(std::move(in));
    inputs.push_back({name, mapped.back().data()});
  }
  std::vector<std::pair<std::string, io::NpyInput>> refs;
  for (const std::string& text : o.expects) {
    std::string name, path;
    if (!split_pair(text, name, path))
      return usage_error("run", fmt::format("--expect '{}' is not NAME=REF.npy", text));
    if (std::none_of(nf.outputs.begin(), nf.outputs.end(), [&](const neff::Tensor& x) { return x.name == name; }))
      return usage_error("run", fmt::format("--expect {}: the program has no output of that name", name));
    io::NpyInput in;
    std::string error;
    if (!io::open_npy(path, in, error)) {
      report_error(error);
      return kExitInput;
    }
    refs.emplace_back(name, std::move(in));
  }
  std::string error;
  auto run = neff::Run::create(nf, inputs, mo, error);
  if (!run) {
    report_error(fmt::format("{}: {}", o.program, error));
    return kExitInput;
  }
  std::unique_ptr<Sink> trace;
  if (!o.trace.empty()) {
    std::vector<std::string> names{o.program};
    auto opened = open_sink(o.trace, names);
    if (!opened) {
      report_error(opened.error());
      return kExitInput;
    }
    trace = std::move(*opened);
  }
  std::unique_ptr<neff::RaceChecker> races;
  if (o.check_races) races = std::make_unique<neff::RaceChecker>(*run);
  const Report rep = o.threads ? execute_threads(*run, o) : execute(*run, o, trace.get(), filter, races.get());
  auto access_text = [&](const neff::RaceAccess& a) {
    return fmt::format("{}#{} {} ({})", run->stream_label(a.core, a.engine), a.index,
                       instruction_text(*run, a.core, a.engine, a.index), a.write ? "write" : "read");
  };
  const Machine& m = run->machine();

  // Outputs and comparisons.
  std::vector<std::string> written;
  if (!o.out.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.out, ec);
    if (ec) {
      report_error(fmt::format("--out {}: {}", o.out, ec.message()));
      return kExitInput;
    }
    for (const neff::Tensor& t : nf.outputs) {
      const auto descrs = neff::npy_descrs_for(t.dtype);
      const std::string path = (std::filesystem::path(o.out) / (t.name + ".npy")).string();
      if (descrs.empty() || !io::write_npy(path, descrs.front(), t.shape, run->output(t.name), error)) {
        report_error(descrs.empty() ? fmt::format("output {}: dtype {} has no .npy form", t.name, t.dtype) : error);
        return kExitInput;
      }
      written.push_back(path);
    }
  }
  std::vector<Comparison> comparisons;
  for (const auto& [name, ref] : refs) {
    const auto t =
        std::find_if(nf.outputs.begin(), nf.outputs.end(), [&](const neff::Tensor& x) { return x.name == name; });
    Comparison c;
    c.name = name;
    if (!compare(*t, run->output(name), ref, c, error)) {
      report_error(error);
      return kExitInput;
    }
    comparisons.push_back(std::move(c));
  }
  const std::vector<neff::SubgraphSems> picture =
      rep.status == Report::Status::Deadlock ? neff::semaphore_picture(nf) : std::vector<neff::SubgraphSems>{};
  const uint64_t macs = total_macs(m);
  const double rate = rep.seconds > 0 ? static_cast<double>(macs) / rep.seconds : 0.0;

  if (o.json) {
    ojson cores = ojson::array();
    for (size_t c = 0; c < m.num_cores(); ++c) {
      ojson engines = ojson::object();
      for (unsigned e = 0; e < kEnginesPerCore; ++e) {
        const auto id = static_cast<EngineId>(e);
        const Sequencer& q = m.core(c).engine(id);
        const auto u = rep.uninit.find({static_cast<unsigned>(c), id});
        engines[std::string(to_string(id))] = {{"stream", run->stream_label(c, id)},
                                               {"words", q.size()},
                                               {"retired", q.retired()},
                                               {"pc", q.pc()},
                                               {"uninitialized_reads", u == rep.uninit.end() ? 0 : u->second}};
      }
      ojson sems = ojson::object();
      for (unsigned i = 0; i < kNumSemaphores; ++i)
        if (m.core(c).state().sems[i] != 0) sems[std::to_string(i)] = m.core(c).state().sems[i];
      cores.push_back({{"core", c},
                       {"subgraph", run->subgraph(c)},
                       {"engines", std::move(engines)},
                       {"macs", m.core(c).state().macs},
                       {"dma_bytes", run->dram(c).dma_bytes},
                       {"dma_transfers", run->dram(c).dma_transfers},
                       {"semaphores", std::move(sems)}});
    }
    ojson opcodes = ojson::object();
    for (const auto& [name, n] : rep.opcodes) opcodes[name] = n;
    ojson doc{{"status", status_name(rep.status)},
              {"program", o.program},
              {"generation", to_string(run->gen())},
              {"retired", rep.retired},
              {"cores", std::move(cores)},
              {"opcodes", std::move(opcodes)},
              {"macs", macs},
              {"seconds", rep.seconds},
              {"macs_per_second", rate},
              {"outputs", written},
              {"reservation_violations", run->reservation_violations()},
              {"uninitialized_dram_reads",
               [&] {
                 ojson list = ojson::array();
                 for (const auto& [key, n] : run->uninitialized_dram_reads())
                   list.push_back({{"stream", key.first}, {"variable", key.second}, {"bytes", n}});
                 return list;
               }()},
              {"fp8",
               {{"ocp_sat", run->conversion().ocp_sat},
                {"sis", run->conversion().sis},
                {"sns", run->conversion().sns},
                {"range_extension", run->conversion().fp8_range_extension}}}};
    if (rep.status == Report::Status::Fault)
      doc["fault"] = {{"kind", to_string(rep.fault.kind)},
                      {"core", rep.fault.core},
                      {"stream", run->stream_label(rep.fault.core, rep.fault.engine)},
                      {"index", rep.fault.index},
                      {"instruction", instruction_text(*run, rep.fault.core, rep.fault.engine, rep.fault.index)},
                      {"detail", rep.fault.detail}};
    if (rep.status == Report::Status::Deadlock) {
      ojson blocked = ojson::array();
      for (const BlockedWait& w : rep.blocked)
        blocked.push_back({{"core", w.core},
                           {"stream", run->stream_label(w.core, w.engine)},
                           {"index", w.index},
                           {"instruction", instruction_text(*run, w.core, w.engine, w.index)},
                           {"condition", wait_condition(w)},
                           {"value", w.value},
                           {"could_raise", raisers(*run, picture, w)}});
      doc["deadlock"] = std::move(blocked);
    }
    ojson cmp = ojson::array();
    for (const Comparison& c : comparisons)
      cmp.push_back({{"output", c.name},
                     {"elements", c.elements},
                     {"differing", c.differing},
                     {"max_abs_diff", c.max_abs_diff},
                     {"first_differing", c.first}});
    doc["expect"] = std::move(cmp);
    if (races) {
      ojson list = ojson::array();
      for (const neff::Race& r : races->races())
        list.push_back(
            {{"earlier", access_text(r.earlier)}, {"later", access_text(r.later)}, {"location", r.location}});
      doc["races"] = {{"count", races->count()}, {"reported", std::move(list)}};
    }
    out("{}\n", io::dump_json(doc));
  } else {
    std::string text = fmt::format("program: {} ({} core{}, target {}, generation {})\n", o.program, m.num_cores(),
                                   m.num_cores() == 1 ? "" : "s", nf.target, to_string(run->gen()));
    switch (rep.status) {
      case Report::Status::Ok:
        text += fmt::format("status: ok, {} words retired in {:.3f} s\n", rep.retired, rep.seconds);
        break;
      case Report::Status::StepLimit:
        text += fmt::format("status: step-limit: stopped by --max-steps after {} words\n", rep.retired);
        break;
      case Report::Status::Fault: {
        const Fault& f = rep.fault;
        text += fmt::format("status: fault after {} words retired; the faulting instruction changed nothing\n",
                            rep.retired);
        text += fmt::format("fault: {} at {}#{}: {}\n  {}\n", to_string(f.kind), run->stream_label(f.core, f.engine),
                            f.index, f.detail, instruction_text(*run, f.core, f.engine, f.index));
        break;
      }
      case Report::Status::Deadlock:
        text += fmt::format("status: deadlock after {} words retired: every engine that has not finished is blocked\n",
                            rep.retired);
        for (const BlockedWait& w : rep.blocked) {
          text += fmt::format("  {}#{}: {}\n", run->stream_label(w.core, w.engine), w.index,
                              instruction_text(*run, w.core, w.engine, w.index));
          text += fmt::format("    waits for {}; semaphore {} is {}\n", wait_condition(w), w.id, w.value);
          const std::vector<std::string> r = raisers(*run, picture, w);
          if (r.empty()) text += "    no word of the program raises it\n";
          for (const std::string& s : r) text += fmt::format("    could be raised by {}\n", s);
        }
        break;
    }
    for (size_t c = 0; c < m.num_cores(); ++c) {
      text += fmt::format("core {} ({}): {} MACs, {} DMA bytes in {} transfers\n", c, run->subgraph(c),
                          m.core(c).state().macs, run->dram(c).dma_bytes, run->dram(c).dma_transfers);
      for (unsigned e = 0; e < kEnginesPerCore; ++e) {
        const auto id = static_cast<EngineId>(e);
        const Sequencer& q = m.core(c).engine(id);
        text += fmt::format("  {:<5} {} of {} words retired\n", to_string(id), q.retired(), q.size());
      }
      std::string sems;
      for (unsigned i = 0; i < kNumSemaphores; ++i)
        if (m.core(c).state().sems[i] != 0) sems += fmt::format(" $S[{}]={}", i, m.core(c).state().sems[i]);
      text += fmt::format("  semaphores:{}\n", sems.empty() ? " (all zero)" : sems);
    }
    std::string ops;
    for (const auto& [name, n] : rep.opcodes) ops += fmt::format("{}{} {}", ops.empty() ? "" : ", ", name, n);
    text += fmt::format("opcodes: {}\n", ops.empty() ? "(none)" : ops);
    text += fmt::format("MACs: {} in {:.3f} s ({:.3g} MAC/s)\n", macs, rep.seconds, rate);
    const auto dram_uninit = run->uninitialized_dram_reads();
    if (rep.uninit.empty() && dram_uninit.empty()) {
      text += "uninitialized reads: none\n";
    } else {
      text += "uninitialized reads (read as 0):\n";
      for (const auto& [key, n] : rep.uninit)
        text +=
            fmt::format("  {}: {} on-chip read{}\n", run->stream_label(key.first, key.second), n, n == 1 ? "" : "s");
      for (const auto& [key, n] : dram_uninit)
        text += fmt::format("  {}: {} byte{} of {}\n", key.first, n, n == 1 ? "" : "s", key.second);
    }
    for (const std::string& v : run->reservation_violations())
      text += fmt::format("runtime SBUF reservation violated: {}\n", v);
    for (const std::string& p : written) text += fmt::format("wrote {}\n", p);
    for (const Comparison& c : comparisons) {
      text += fmt::format("expect {}: {} of {} elements differ", c.name, c.differing, c.elements);
      if (c.differing != 0) {
        std::string first;
        for (const std::string& s : c.first) first += fmt::format("{}{}", first.empty() ? "" : " ", s);
        text += fmt::format(", max abs diff {}, first at {}", c.max_abs_diff, first);
      }
      text += "\n";
    }
    if (races) {
      text +=
          fmt::format("races: {} unordered conflicting access{}\n", races->count(), races->count() == 1 ? "" : "es");
      for (const neff::Race& r : races->races())
        text += fmt::format("  {}\n    and {}\n    at {}: no happens-before order between them\n",
                            access_text(r.earlier), access_text(r.later), r.location);
    }
    out_write(text);
  }
  if (trace != nullptr && finish_sink(*trace) != kExitOk) return kExitInput;
  bool all_equal = true;
  for (const Comparison& c : comparisons) all_equal = all_equal && c.differing == 0;
  const bool race_free = (!races || races->count() == 0) && run->reservation_violations().empty();
  return rep.status == Report::Status::Ok && all_equal && race_free ? kExitOk : kExitNegative;
}

}  // namespace tpbisa::cli
