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
#include "tpbisa/io/neff_run_report.hpp"
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

/// The ISA float dtype that decodes an element of a signature dtype to a number: the catalog's signature column
/// (0: an integer type or a dtype no catalog dtype means, read by its .npy kind and size).
uint8_t isa_dtype(const std::string& d) {
  const DtypeInfo* row = signature_dtype(d);
  return row != nullptr && row->kind == DtypeKind::Float ? row->code : 0;
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

/// Compares an output with a reference .npy element by element (NaN equals NaN; +0 equals -0).
bool compare(const neff::Tensor& t, std::span<const uint8_t> got, const io::NpyInput& ref, io::OutputComparison& c,
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
  // Without an ISA float dtype an element is an integer, float64, or raw bits (bool, float8_e4m3: unsigned).
  const char out_kind = t.dtype.find("int") == 0 ? 'i' : t.dtype == "float64" ? 'f' : 'u';
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

uint64_t total_macs(const Machine& m) {
  uint64_t n = 0;
  for (size_t c = 0; c < m.num_cores(); ++c) n += m.core(c).state().macs;
  return n;
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
  io::NeffRunHooks hooks;
  std::string line;
  if (trace != nullptr)
    hooks.on_step = [&](const StepResult& r) {
      if (!filter.pass(r)) return;
      line.clear();
      append_trace_line(line, r, run->machine(), TraceStyle{true});
      line += '\n';
      trace->write(line);
    };
  // The progress line on a terminal: words retired, MACs and time, at most twice a second.
  const auto start = Clock::now();
  auto next_progress = start + std::chrono::seconds(1);
  bool progress_shown = false;
  if (!o.quiet && ::isatty(STDERR_FILENO) != 0)
    hooks.on_progress = [&](uint64_t retired) {
      if (Clock::now() < next_progress) return;
      const double s = std::chrono::duration<double>(Clock::now() - start).count();
      err_write(fmt::format("\r{} words retired, {} MACs, {:.1f} s", retired, total_macs(run->machine()), s));
      progress_shown = true;
      next_progress = Clock::now() + std::chrono::milliseconds(500);
    };
  const io::NeffRunReport rep = o.threads ? io::execute_neff_run_threads(*run, o.max_steps)
                                          : io::execute_neff_run(*run, o.max_steps, races.get(), hooks);
  if (progress_shown) err_write("\n");
  auto access_text = [&](const neff::RaceAccess& a) { return io::race_access_text(*run, a); };
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
  std::vector<io::OutputComparison> comparisons;
  for (const auto& [name, ref] : refs) {
    const std::string& wanted = name;  // clang 14 cannot capture a structured binding
    const auto t =
        std::find_if(nf.outputs.begin(), nf.outputs.end(), [&](const neff::Tensor& x) { return x.name == wanted; });
    io::OutputComparison c;
    c.name = name;
    if (!compare(*t, run->output(name), ref, c, error)) {
      report_error(error);
      return kExitInput;
    }
    comparisons.push_back(std::move(c));
  }
  const std::vector<neff::SubgraphSems> picture = rep.status == io::NeffRunReport::Status::Deadlock
                                                      ? neff::semaphore_picture(nf)
                                                      : std::vector<neff::SubgraphSems>{};
  const uint64_t macs = total_macs(m);
  const double rate = rep.seconds > 0 ? static_cast<double>(macs) / rep.seconds : 0.0;

  if (o.json) {
    io::NeffRunReportContext ctx;
    ctx.program = o.program;
    ctx.written = written;
    ctx.comparisons = comparisons;
    ctx.races = races.get();
    const ojson doc = io::neff_run_json(nf, *run, rep, ctx);
    out("{}\n", io::dump_json(doc));
  } else {
    std::string text = fmt::format("program: {} ({} core{}, target {}, generation {})\n", o.program, m.num_cores(),
                                   m.num_cores() == 1 ? "" : "s", nf.target, to_string(run->gen()));
    switch (rep.status) {
      case io::NeffRunReport::Status::Ok:
        text += fmt::format("status: ok, {} words retired in {:.3f} s\n", rep.retired, rep.seconds);
        break;
      case io::NeffRunReport::Status::StepLimit:
        text += fmt::format("status: step-limit: stopped by --max-steps after {} words\n", rep.retired);
        break;
      case io::NeffRunReport::Status::Fault: {
        const Fault& f = rep.fault;
        text += fmt::format("status: fault after {} words retired; the faulting instruction changed nothing\n",
                            rep.retired);
        text += fmt::format("fault: {} at {}#{}: {}\n  {}\n", to_string(f.kind), run->stream_label(f.core, f.engine),
                            f.index, f.detail, io::neff_instruction_text(*run, f.core, f.engine, f.index));
        break;
      }
      case io::NeffRunReport::Status::Deadlock:
        text += fmt::format("status: deadlock after {} words retired: every engine that has not finished is blocked\n",
                            rep.retired);
        for (const BlockedWait& w : rep.blocked) {
          text += fmt::format("  {}#{}: {}\n", run->stream_label(w.core, w.engine), w.index,
                              io::neff_instruction_text(*run, w.core, w.engine, w.index));
          text += fmt::format("    waits for {}; semaphore {} is {}\n", wait_condition(w), w.id, w.value);
          const std::vector<std::string> r = io::deadlock_raisers(*run, picture, w);
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
    for (const io::OutputComparison& c : comparisons) {
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
      if (const std::string gap = races->incomplete(); !gap.empty())
        text += fmt::format("races: incomplete: {}\n", gap);
      for (const neff::Race& r : races->races())
        text += fmt::format("  {}\n    and {}\n    at {}: no happens-before order between them\n",
                            access_text(r.earlier), access_text(r.later), r.location);
    }
    out_write(text);
  }
  if (trace != nullptr && finish_sink(*trace) != kExitOk) return kExitInput;
  bool all_equal = true;
  for (const io::OutputComparison& c : comparisons) all_equal = all_equal && c.differing == 0;
  const bool race_free = (!races || races->count() == 0) && run->reservation_violations().empty();
  return rep.status == io::NeffRunReport::Status::Ok && all_equal && race_free ? kExitOk : kExitNegative;
}

}  // namespace tpbisa::cli
