// tpbisa.Neff (a container read by the library), tpbisa.Machine (one stream on the simulator) and the catalog tables.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "common.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/coverage.hpp"
#include "tpbisa/io/act_tables.hpp"
#include "tpbisa/io/arguments.hpp"
#include "tpbisa/io/catalog_tables.hpp"
#include "tpbisa/io/dump.hpp"
#include "tpbisa/io/element.hpp"
#include "tpbisa/io/neff_json.hpp"
#include "tpbisa/io/neff_run_report.hpp"
#include "tpbisa/io/output_file.hpp"
#include "tpbisa/io/run_json.hpp"
#include "tpbisa/io/state.hpp"
#include "tpbisa/io/verdict_json.hpp"
#include "tpbisa/location.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/neff_run.hpp"
#include "tpbisa/npy.hpp"
#include "tpbisa/trace.hpp"
#include "tpbisa/unit_state.hpp"
#include "words.hpp"

namespace tpbisa::py {
namespace {

using json = nlohmann::ordered_json;

// ---- Neff ----

class PyNeff {
 public:
  PyNeff(const std::string& path, bool verify_hash, bool strict_trailing) {
    neff::ReadOptions o;
    o.verify_hash = verify_hash;
    o.strict_trailing = strict_trailing;
    std::optional<neff::Result<neff::Neff>> r;
    {
      pb::gil_scoped_release release;
      r.emplace(neff::read_file(path, o));
    }
    if (!*r) raise_neff(r->error());
    neff_ = std::make_shared<const neff::Neff>(std::move(r->value()));
  }

  const neff::Neff& get() const { return *neff_; }
  std::shared_ptr<const neff::Neff> shared() const { return neff_; }
  /// The members every run reads, parsed at the first run and kept (called with the GIL held).
  std::shared_ptr<const neff::RunBasis> basis() const {
    if (!basis_) basis_ = neff::RunBasis::make(*neff_);
    return basis_;
  }
  Generation generation(const pb::object& gen) const {
    return gen.is_none() ? neff_->generation.value_or(kDefaultGeneration) : parse_gen(gen);
  }

  /// The streams after the filters, as the command line's --subgraph / --engine select them.
  std::unique_ptr<io::WordSource> open(const pb::object& subgraph, const pb::object& engine) const {
    io::InputOptions o;
    o.neff = true;
    const auto names = [](const pb::object& v) {
      std::vector<pb::object> out;
      if (v.is_none()) return out;
      if (pb::isinstance<pb::str>(v)) {
        out.push_back(v);
        return out;
      }
      for (const pb::handle item : v) out.push_back(pb::reinterpret_borrow<pb::object>(item));
      return out;
    };
    for (const pb::object& s : names(subgraph)) o.subgraphs.push_back(pb::str(s));
    for (const pb::object& e : names(engine)) o.engines.push_back(*parse_stream_engine(e));
    return io::open_neff(neff_, o);
  }

  pb::dict tensors(const std::vector<neff::Tensor>& list) const {
    pb::dict d;
    for (const neff::Tensor& t : list) d[pb::str(t.name)] = pb::make_tuple(t.dtype, pb::tuple(pb::cast(t.shape)));
    return d;
  }

 private:
  std::shared_ptr<const neff::Neff> neff_;
  mutable std::shared_ptr<const neff::RunBasis> basis_;
};

// ---- Neff.tables() (docs/activation.md) ----

/// The activation-function sets of a NEFF: `sets` as `tpbisa neff tables --json` shows them, and `eval` over arrays.
class PyActTables {
 public:
  explicit PyActTables(std::shared_ptr<const neff::Neff> n) : neff_(std::move(n)) {}
  pb::object sets() const { return to_python(io::activation_tables_json(*neff_)["subgraphs"]); }
  /// f(x) elementwise over a float32 array (any shape; other dtypes are converted to float32), by the tables.
  pb::array_t<float> eval(const std::string& func,
                          const pb::array_t<float, pb::array::c_style | pb::array::forcecast>& x,
                          const std::string& set) const {
    const Expected<io::ActEvaluator> e = io::ActEvaluator::make(*neff_, func, set);
    if (!e) raise_error(e.error());
    pb::array_t<float> out(x.request().shape);
    const auto* in = reinterpret_cast<const uint32_t*>(x.data());
    auto* to = reinterpret_cast<uint32_t*>(out.mutable_data());
    const size_t n = static_cast<size_t>(x.size());
    std::string message;
    bool ok = true;
    {
      pb::gil_scoped_release release;
      ok = e->eval(in, to, n, message);
    }
    if (!ok) raise_error(Error{ErrorKind::Invalid, message});
    return out;
  }
  /// Whether `func` is exact (act-index-ops.md §3.7) or the compiler's reference model (PROJ-CONV-A1).
  bool exact(const std::string& func, const std::string& set) const {
    const Expected<io::ActEvaluator> e = io::ActEvaluator::make(*neff_, func, set);
    if (!e) raise_error(e.error());
    return e->exact();
  }

 private:
  std::shared_ptr<const neff::Neff> neff_;
};

// ---- Neff.run ----

/// The .npy header a NumPy array would have: what the library's check_npy judges against the signature.
npy::Array npy_header_of(const pb::array& a) {
  npy::Array h;
  const pb::dtype dt = a.dtype();
  h.descr = pb::str(dt.attr("str"));
  h.kind = dt.kind();
  h.item_size = static_cast<unsigned>(dt.itemsize());
  h.count = static_cast<uint64_t>(a.size());
  for (pb::ssize_t d = 0; d < a.ndim(); ++d) h.shape.push_back(static_cast<uint64_t>(a.shape(d)));
  h.data_bytes = h.count * h.item_size;
  return h;
}

/// Neff.run: binds the arrays (read in place) to the signature, runs the machine without the GIL, and returns
/// {"outputs": name -> array (owning its memory, the signature's dtype as raw .npy bits), "report": the document
/// of `tpbisa run PROG.neff --json`}.
pb::dict run_neff(const PyNeff& n, const pb::dict& given, const std::string& schedule, bool check_races,
                  unsigned threads, const pb::object& trace, const std::string& trace_format,
                  const pb::object& max_steps, const pb::object& max_memory, const pb::object& timeout,
                  const pb::object& on_step) {
  const neff::Neff& nf = n.get();
  io::NeffRunOptions ro;
  if (!io::parse_schedule(schedule, ro.machine))
    raise_usage(fmt::format("schedule '{}' is not default, reverse or random:SEED", schedule));
  if (threads == 0) raise_usage("threads must be 1 (one order of steps) or more (every core on its own thread)");
  if (threads > 1 && (!trace.is_none() || check_races))
    raise_usage("threads > 1 runs without trace and check_races (they follow one order of steps)");
  ro.check_races = check_races;
  ro.basis = n.basis();
  ro.threads = threads > 1;
  ro.max_threads = threads;  // with one core, its long products take the other threads
  ro.trace = !trace.is_none();
  if (ro.trace && !pb::isinstance<pb::str>(trace))
    raise_usage(fmt::format("trace must be a file name (str or os.PathLike), not {}",
                            std::string(pb::str(trace.get_type().attr("__name__")))));
  const std::optional<TraceFormat> format = parse_trace_format(trace_format);
  if (!format) raise_usage(fmt::format("trace_format '{}' is not json or compact", trace_format));
  ro.trace_format = *format;
  // Without max_steps the run is bounded as on the command line: a loop that never ends is stopped.
  ro.max_steps = max_steps.is_none() ? io::default_neff_max_steps(nf) : count_arg(max_steps, "max_steps");
  if (!max_memory.is_none()) ro.machine.max_memory = count_arg(max_memory, "max_memory");
  // Ctrl-C stops the run at the next word (a NEFF's words are heavy) and raises KeyboardInterrupt; so does a timeout
  // (TimeoutError), checked on the clock at every word, so that a thread without signals (a pool's) is bounded too.
  using Clock = std::chrono::steady_clock;
  std::optional<Clock::time_point> deadline;
  double seconds = 0;
  if (!timeout.is_none()) {
    seconds = pb::cast<double>(pb::float_(timeout));
    if (!(seconds > 0) || seconds > 1e9)
      raise_usage(fmt::format("timeout must be a number of seconds above 0, not {}", seconds));
    deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  }
  bool timed_out = false;
  // on_step: called with the GIL for every retired or faulting word; False stops the run (status interrupted), an
  // exception stops it and is raised from run().
  bool hook_stopped = false;
  std::optional<pb::error_already_set> hook_error;
  const std::optional<Expected<io::NeffRun>>* running = nullptr;
  if (!on_step.is_none()) {
    if (!PyCallable_Check(on_step.ptr()))
      raise_usage("on_step must be callable (it is called with each word's record)");
    if (threads > 1) raise_usage("threads > 1 runs without on_step (it follows one order of steps)");
    ro.trace = true;  // the effects of every step are recorded, as for a trace
    ro.on_step = [&](const StepResult& step) {
      if (hook_stopped || (step.status != StepResult::Status::Retired && step.status != StepResult::Status::Faulted))
        return;
      const neff::Run& run = *(**running)->run;
      std::string line;
      io::append_neff_trace_line(line, step, run);
      pb::gil_scoped_acquire gil;
      try {
        pb::object record = to_python(nlohmann::ordered_json::parse(line));
        record["stream"] = run.stream_label(step.core, step.engine);
        record["instruction"] = io::neff_instruction_text(run, step.core, step.engine, step.index);
        const pb::object answer = on_step(record);
        if (answer.ptr() == Py_False) hook_stopped = true;
      } catch (pb::error_already_set& e) {
        hook_error.emplace(std::move(e));
        hook_stopped = true;
      }
    };
  }
  ro.on_progress = [signals = signal_check(), deadline, &timed_out, &hook_stopped](uint64_t retired) mutable {
    if (hook_stopped) return false;
    if (deadline && Clock::now() >= *deadline) {
      timed_out = true;
      return false;
    }
    return signals(retired);
  };
  ro.progress_words = 1;

  // Inputs: NumPy arrays (anything array-like is converted first), C-contiguous ones read in place.
  std::vector<pb::array> arrays;
  std::vector<std::unique_ptr<Buffer>> views;
  std::vector<neff::RunInput> inputs;
  for (const auto& [key, value] : given) {
    const std::string name = pb::str(key);
    const auto t =
        std::find_if(nf.inputs.begin(), nf.inputs.end(), [&](const neff::Tensor& x) { return x.name == name; });
    if (t == nf.inputs.end()) continue;  // Run::create names the unknown input, as the command line does
    pb::array a = pb::array::ensure(value);
    if (!a) raise_usage(fmt::format("input {}: not an array", name));
    if (!(a.flags() & pb::array::c_style)) a = pb::array::ensure(value, pb::array::c_style);
    if (const auto bad = neff::check_npy(*t, npy_header_of(a))) raise_usage(*bad);
    arrays.push_back(a);
    views.push_back(std::make_unique<Buffer>(a));
    inputs.push_back({name, views.back()->bytes()});
  }
  for (const auto& [key, value] : given) {
    const std::string name = pb::str(key);
    if (std::none_of(nf.inputs.begin(), nf.inputs.end(), [&](const neff::Tensor& x) { return x.name == name; }))
      inputs.push_back({name, {}});
  }

  std::unique_ptr<io::OutputFile> trace_file;
  if (!trace.is_none()) {
    // The trace is never written over the NEFF the run reads (the inputs are arrays, not files).
    const std::vector<std::string> read{nf.file};
    auto opened = io::OutputFile::open(text_arg(trace, "trace"), io::OutputOptions{read, false, {}});
    if (!opened) raise_error(opened.error());
    trace_file = std::move(*opened);
  }
  std::optional<Expected<io::NeffRun>> prepared;
  running = &prepared;
  io::NeffRunReport rep;
  {
    pb::gil_scoped_release release;
    prepared.emplace(io::prepare_neff_run(nf, inputs, ro));
    if (*prepared) rep = io::execute_neff_run(**prepared, ro, trace_file.get());
  }
  if (!*prepared) raise_usage(prepared->error().message);
  if (timed_out && PyErr_Occurred() == nullptr)
    raise(PyExc_TimeoutError,
          fmt::format("the run took longer than its timeout of {} s ({} words retired)", seconds, rep.retired));
  // An interrupted run leaves its trace unwritten (the temporary file goes with trace_file). A threaded run may have
  // finished meanwhile: the handler's exception is raised all the same.
  if (hook_error) throw std::move(*hook_error);
  if ((rep.status == io::NeffRunReport::Status::Interrupted && !hook_stopped) || PyErr_Occurred() != nullptr)
    throw pb::error_already_set();
  neff::Run& run = *(*prepared)->run;
  if (trace_file) {
    if (auto done = trace_file->commit(); !done) raise_error(done.error());
  }
  // The report first: the outputs' buffers are then handed to their arrays.
  io::NeffRunReportContext ctx;
  ctx.program = nf.file;
  ctx.races = (*prepared)->races.get();
  ctx.max_steps = ro.max_steps;
  ctx.default_max_steps = max_steps.is_none();
  pb::object report = to_python(io::neff_run_json(nf, run, rep, ctx));
  pb::dict outputs;
  for (const neff::Tensor& t : nf.outputs) {
    const auto descrs = neff::npy_descrs_for(t.dtype);
    if (descrs.empty())
      raise(exceptions().input, fmt::format("output {}: dtype {} has no NumPy form", t.name, t.dtype));
    const std::vector<pb::ssize_t> shape(t.shape.begin(), t.shape.end());
    const pb::dtype dtype(descrs.front());
    pb::ssize_t count = 1;
    for (const pb::ssize_t d : shape) count *= d;
    const size_t need = static_cast<size_t>(count) * static_cast<size_t>(dtype.itemsize());
    const std::span<const uint8_t> bytes = run.output(t.name);
    if (bytes.size() < need)
      raise(exceptions().input, fmt::format("output {}: the program holds {} bytes for it, not the {} its signature "
                                            "needs",
                                            t.name, bytes.size(), need));
    if (need == 0) {
      outputs[pb::str(t.name)] = pb::array(dtype, shape);
      continue;
    }
    // The array owns the run's buffer (no copy into fresh memory, which would fault in page by page); freeing the
    // array gives the buffer back for the next run's outputs.
    auto owned = std::make_unique<neff::ZeroPages>(run.take_output(t.name));
    uint8_t* data = owned->data();
    const pb::capsule base(owned.get(), [](void* p) { delete static_cast<neff::ZeroPages*>(p); });
    owned.release();  // the capsule owns it now
    outputs[pb::str(t.name)] = pb::array(dtype, shape, {}, data, base);
  }
  // Where the library read each input: the tests compare it with the array's own data pointer (no copy).
  pb::dict addresses;
  for (const neff::RunInput& in : inputs)
    if (!in.bytes.empty()) addresses[pb::str(in.name)] = reinterpret_cast<uintptr_t>(in.bytes.data());
  pb::dict out;
  out["outputs"] = outputs;
  out["input_addresses"] = addresses;
  out["report"] = report;
  return out;
}

// ---- Machine ----

template <class T>
pb::array filled_array(const UnitState& u, const UnitStateArray& a, const EngineState& s) {
  const auto n = static_cast<pb::ssize_t>(u.instances);
  pb::array_t<T> out = a.slots == 0 ? pb::array_t<T>(n) : pb::array_t<T>({n, static_cast<pb::ssize_t>(a.slots)});
  T* data = out.mutable_data();
  const unsigned per = std::max(a.slots, 1U);
  for (unsigned i = 0; i < u.instances; ++i)
    for (unsigned k = 0; k < per; ++k) data[size_t{i} * per + k] = static_cast<T>(a.read(s, i, k));
  return out;
}

/// One declared array of unit state: instances x slots (or instances) of its element type.
pb::array unit_array(const UnitState& u, const UnitStateArray& a, const EngineState& s) {
  switch (a.type) {
    case UnitStateArray::Type::U32: return filled_array<uint32_t>(u, a, s);
    case UnitStateArray::Type::U8: return filled_array<uint8_t>(u, a, s);
    case UnitStateArray::Type::Bool: return filled_array<bool>(u, a, s);
  }
  return filled_array<uint32_t>(u, a, s);
}

std::string_view status_name(StepResult::Status s) {
  switch (s) {
    case StepResult::Status::Retired: return "retired";
    case StepResult::Status::Faulted: return "faulted";
    case StepResult::Status::Halted: return "halted";
    case StepResult::Status::Blocked: return "blocked";
  }
  return "halted";
}

template <class T>
pb::array_t<T> array_of(std::span<const T> values) {
  pb::array_t<T> a(static_cast<pb::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), a.mutable_data());
  return a;
}

class PyMachine {
 public:
  PyMachine(const pb::object& program, const pb::object& gen, const std::string& engine, bool firmware_stubs,
            uint64_t max_memory, uint64_t max_elements, bool record_effects, uint64_t max_words, bool strict_window,
            const std::string& dtype_enum, bool symmetric_clamp_arith) {
    gen_ = parse_gen(gen);
    MachineOptions mo;
    mo.firmware_stubs = firmware_stubs;
    mo.validate = validate_options(strict_window, dtype_enum, symmetric_clamp_arith, pb::none());
    mo.max_memory = max_memory;
    mo.max_elements_per_instruction = max_elements;
    const auto e = parse_engine(engine);
    if (!e) raise_usage(fmt::format("engine '{}' is not an engine (pe, act, pool, dve, sp)", engine));
    mo.engine = *e;
    mo.record_effects = record_effects;
    std::vector<Word> words;
    {
      const Buffer b(program);
      auto src = io::open_bytes(b.bytes(), "program");
      Word w{};
      for (;;) {
        const auto next = src->next(w);
        if (next == io::WordSource::Next::End) break;
        if (next == io::WordSource::Next::Failed) raise_error(src->error());
        if (words.size() >= max_words)
          raise_error({ErrorKind::TooLarge,
                       fmt::format("program: more than {} instructions at offset {} (instruction {}); a Machine "
                                   "loads at most that many (max_words)",
                                   max_words, src->offset(), src->index())});
        words.push_back(w);
      }
    }
    machine_ = std::make_unique<Machine>(gen_, std::move(words), mo);
  }

  void load_state(const std::string& path) {
    check_idle();
    const auto r = io::load_state(path, machine_->mutable_state(), machine_->options().convert);
    if (!r) raise_error(r.error());
  }
  void load_state_json(const std::string& text, const std::string& label) {
    check_idle();
    const auto r = io::parse_state(text, label, machine_->mutable_state(), machine_->options().convert);
    if (!r) raise_error(r.error());
  }

  pb::dict step() {
    check_idle();
    const StepResult r = machine_->step();
    pb::dict d;
    d["status"] = std::string(status_name(r.status));
    d["engine"] = std::string(to_string(r.engine));
    d["index"] = r.index;
    d["opcode"] = r.opcode;
    d["name"] = std::string(r.name);
    d["record"] = pb::none();
    d["fault"] = pb::none();
    d["wait"] = pb::none();
    if (r.status == StepResult::Status::Retired || r.status == StepResult::Status::Faulted) {
      // The effects in the trace record's shape (docs/trace.md): one JSON form for the CLI and Python.
      d["record"] = to_python(nlohmann::ordered_json::parse(trace_line(r, *machine_)));
      if (r.status == StepResult::Status::Faulted)
        d["fault"] =
            to_python(io::fault_json(r.fault, machine_->instruction(r.fault.index), machine_->options().validate));
    }
    if (r.status == StepResult::Status::Blocked)
      d["wait"] = to_python(nlohmann::ordered_json::parse(blocked_wait_json(r.wait)));
    return d;
  }

  pb::dict run(const pb::object& steps) {
    const uint64_t max_steps = count_arg(steps, "max_steps");
    check_idle();
    RunSummary s;
    {
      // Other threads run meanwhile; `running_` keeps them off this machine until it is done.
      running_ = true;
      pb::gil_scoped_release release;
      RunHooks hooks;
      hooks.on_progress = signal_check();  // Ctrl-C stops the run: KeyboardInterrupt
      hooks.progress_words = 256;
      s = machine_->run(static_cast<size_t>(std::min<uint64_t>(max_steps, SIZE_MAX)), hooks);
    }
    running_ = false;
    if (s.interrupted || PyErr_Occurred() != nullptr) throw pb::error_already_set();
    pb::dict d;
    d["status"] = std::string(io::run_status(s));
    d["retired"] = s.retired;
    d["fault"] = to_python(io::run_fault_json(*machine_, s));
    d["deadlock"] = to_python(io::deadlock_json(io::stream_deadlock(*machine_, s.blocked, "program")));
    d["diagnostics"] = to_python(io::diagnostics_json(s.diagnostic_counts));
    return d;
  }

  const Machine& machine() const {
    check_idle();
    return *machine_;
  }
  /// Called with the GIL held: a machine that another thread is running (without the GIL) is not touched.
  void check_idle() const {
    if (running_) raise_usage("the Machine is running in another thread");
  }
  Generation gen() const { return gen_; }

  /// The raw bits of `count` elements from a location: (bits as an unsigned array, dtype name, initialized).
  pb::tuple read(const std::string& at, const std::string& dtype, uint64_t count) const {
    const auto loc = parse_location(at, gen_);
    if (!loc) raise_usage(fmt::format("location '{}': {}", at, loc.error().message));
    const auto type = io::parse_element_type(dtype, false);
    if (!type) raise_usage(fmt::format("dtype '{}': {}", dtype, type.error().message));
    if (count == 0 || count > io::kMaxDumpElements)
      raise_usage(fmt::format("count {} is not 1..{} (the --dump bound)", count, io::kMaxDumpElements));
    if (const auto ok = check_extent(*loc, gen_, count * type->size); !ok)
      raise_usage(fmt::format("location '{}': {}", at, ok.error().message));
    const SparseMemory& mem = machine().state().memory;
    bool all = true;
    const auto fill = [&](auto* out) {
      for (uint64_t k = 0; k < count; ++k) {
        bool init = true;
        out[k] = static_cast<std::remove_pointer_t<decltype(out)>>(
            mem.read(loc->address + k * type->size, type->size, &init));
        all = all && init;
      }
    };
    pb::object bits;
    const auto n = static_cast<pb::ssize_t>(count);
    switch (type->size) {
      case 1: {
        pb::array_t<uint8_t> a(n);
        fill(a.mutable_data());
        bits = a;
        break;
      }
      case 2: {
        pb::array_t<uint16_t> a(n);
        fill(a.mutable_data());
        bits = a;
        break;
      }
      case 4: {
        pb::array_t<uint32_t> a(n);
        fill(a.mutable_data());
        bits = a;
        break;
      }
      default: {
        pb::array_t<uint64_t> a(n);
        fill(a.mutable_data());
        bits = a;
        break;
      }
    }
    return pb::make_tuple(bits, std::string(type->info->name), std::string(type->info->short_name), all);
  }

  /// The engine's loaded activation-function set (a table load's), or None.
  pb::object act_set() const {
    const std::string_view name = activation_set_name(machine().state().act_set);
    return name.empty() ? pb::none() : pb::object(pb::str(std::string(name)));
  }

  /// Every unit state the families declare, array name -> NumPy array of instances (x slots).
  pb::dict flops() const {
    const EngineState& s = machine().state();
    pb::dict out;
    for (const UnitState* u : unit_states())
      for (const UnitStateArray& a : u->arrays) out[pb::str(std::string(a.name))] = unit_array(*u, a, s);
    return out;
  }

 private:
  Generation gen_ = kDefaultGeneration;
  std::unique_ptr<Machine> machine_;
  bool running_ = false;
};

// ---- catalog ----

/// The entries of `tpbisa catalog --json` for every table (the library's documents): opcodes, dtypes, aluops, and
/// modes by enum name.
json catalog_json() {
  const json doc = io::catalog_json("modes", std::nullopt);
  json modes = json::object();
  for (const json& e : doc["enums"]) modes[e["name"].get<std::string>()] = e["entries"];
  // The NEFF signature dtype of each catalog dtype that has one (the catalog's signature column), as the CLI reads it.
  json signatures = json::object();
  for (const auto& d : kDtypes)
    if (!d.signature.empty()) signatures[std::string(d.signature)] = d.name;
  return {{"opcodes", io::catalog_json("opcodes", std::nullopt)["entries"]},
          {"dtypes", io::catalog_json("dtypes", std::nullopt)["entries"]},
          {"aluops", io::catalog_json("aluops", std::nullopt)["entries"]},
          {"modes", std::move(modes)},
          {"signature_dtypes", std::move(signatures)}};
}

}  // namespace

void bind_neff_machine(pb::module_& m) {
  m.def("_catalog", [] { return to_python(catalog_json()); });

  pb::class_<PyNeff>(m, "Neff", "A NEFF container read and checked by the library (tpbisa neff ...).")
      .def(pb::init<const std::string&, bool, bool>(), pb::arg("path"), pb::kw_only(), pb::arg("verify_hash") = false,
           pb::arg("strict_trailing") = false)
      .def_property_readonly("file", [](const PyNeff& n) { return n.get().file; })
      .def_property_readonly("target", [](const PyNeff& n) { return n.get().target; })
      .def_property_readonly("generation",
                             [](const PyNeff& n) -> pb::object {
                               if (!n.get().generation) return pb::none();
                               return pb::str(std::string(to_string(*n.get().generation)));
                             })
      .def_property_readonly("info", [](const PyNeff& n) { return to_python(io::neff_info_json(n.get())); })
      .def_property_readonly("inputs", [](const PyNeff& n) { return n.tensors(n.get().inputs); })
      .def_property_readonly("outputs", [](const PyNeff& n) { return n.tensors(n.get().outputs); })
      .def_property_readonly("warnings",
                             [](const PyNeff& n) {
                               pb::list out;
                               for (const auto& w : n.get().warnings) out.append(pb::make_tuple(w.member, w.message));
                               return out;
                             })
      .def_property_readonly("streams",
                             [](const PyNeff& n) {
                               pb::list out;
                               for (const neff::Stream* s : n.get().streams()) {
                                 pb::dict d;
                                 d["subgraph"] = s->subgraph;
                                 d["engine"] = std::string(to_string(s->engine));
                                 d["label"] = s->label();
                                 d["member"] = s->member;
                                 d["words"] = s->word_count();
                                 d["data"] = pb::bytes(reinterpret_cast<const char*>(s->bytes.data()), s->bytes.size());
                                 out.append(d);
                               }
                               return out;
                             })
      .def("_run", &run_neff, pb::arg("inputs"), pb::arg("schedule") = "default", pb::arg("check_races") = false,
           pb::arg("threads") = 1, pb::arg("trace") = pb::none(), pb::arg("trace_format") = "json",
           pb::arg("max_steps") = pb::none(), pb::arg("max_memory") = pb::none(), pb::arg("timeout") = pb::none(),
           pb::arg("on_step") = pb::none(), "Runs the whole NEFF (use Neff.run).")
      .def(
          "tables", [](const PyNeff& n) { return PyActTables(n.shared()); },
          "The activation-function sets the NEFF embeds, evaluable over arrays (docs/activation.md).")
      .def(
          "sems",
          [](const PyNeff& n) { return to_python(io::neff_sems_subgraphs_json(neff::semaphore_picture(n.get()))); },
          "The static semaphore picture: per subgraph, who waits on and who raises each semaphore.")
      .def(
          "disasm",
          [](const PyNeff& n, const pb::object& subgraph, const pb::object& engine, const pb::object& gen,
             bool verdicts) {
            DisasmOptions o;
            o.verdicts = verdicts;
            return word_iterator(n.open(subgraph, engine), nullptr, n.generation(gen), o, 0, false);
          },
          pb::kw_only(), pb::arg("subgraph") = pb::none(), pb::arg("engine") = pb::none(), pb::arg("gen") = pb::none(),
          pb::arg("verdicts") = true, "Iterates the words of the streams (after the filters) as Instruction objects.")
      .def(
          "validate",
          [](const PyNeff& n, const pb::object& subgraph, const pb::object& engine, const pb::object& gen,
             bool strict_window, const std::string& dtype_enum, bool symmetric_clamp_arith) {
            const ValidateOptions vo = validate_options(strict_window, dtype_enum, symmetric_clamp_arith, pb::none());
            const std::vector<Generation> gens = parse_gens(gen, n.generation(pb::none()));
            const bool several = !gen.is_none() && !(pb::isinstance<pb::str>(gen) && gens.size() == 1);
            auto src = n.open(subgraph, engine);
            return judge_all(*src, gens, vo, several);
          },
          pb::kw_only(), pb::arg("subgraph") = pb::none(), pb::arg("engine") = pb::none(), pb::arg("gen") = pb::none(),
          pb::arg("strict_window") = false, pb::arg("dtype_enum") = "header", pb::arg("symmetric_clamp_arith") = true,
          "Validates the words of the streams, each on its stream's engine (as tpbisa validate FILE.neff).");

  pb::class_<PyActTables>(m, "ActivationTables",
                          "A NEFF's activation-function sets (Neff.tables()): `sets`, and `eval(func, x)` over "
                          "arrays with the tables (the compiler's reference model unless the function is exact).")
      .def_property_readonly("sets", &PyActTables::sets)
      .def("eval", &PyActTables::eval, pb::arg("func"), pb::arg("x"), pb::kw_only(), pb::arg("set") = "",
           "f(x) elementwise (float32), evaluated from the NEFF's own tables; the GIL is released.")
      .def("exact", &PyActTables::exact, pb::arg("func"), pb::kw_only(), pb::arg("set") = "",
           "True for the exactly-known functions of act-index-ops.md §3.7.");

  pb::class_<PyMachine>(m, "_Machine")
      .def(pb::init<const pb::object&, const pb::object&, const std::string&, bool, uint64_t, uint64_t, bool, uint64_t,
                    bool, const std::string&, bool>(),
           pb::arg("program"), pb::arg("gen") = pb::none(), pb::kw_only(), pb::arg("engine") = "dve",
           pb::arg("firmware_stubs") = false, pb::arg("max_memory") = uint64_t{1} << 30,
           pb::arg("max_elements") = uint64_t{1} << 22, pb::arg("record_effects") = true,
           pb::arg("max_words") = uint64_t{1} << 20, pb::arg("strict_window") = false, pb::arg("dtype_enum") = "header",
           pb::arg("symmetric_clamp_arith") = true)
      .def("load_state", &PyMachine::load_state, pb::arg("path"))
      .def("load_state_json", &PyMachine::load_state_json, pb::arg("text"), pb::arg("label") = "<state>")
      .def("step", &PyMachine::step)
      .def("run", &PyMachine::run, pb::arg("max_steps") = pb::int_(1000000))
      .def("_read", &PyMachine::read)
      .def_property_readonly("flops", &PyMachine::flops)
      .def_property_readonly("act_set", &PyMachine::act_set,
                             "The engine's loaded activation-function set (a table load's), or None")
      .def_property_readonly("generation", [](const PyMachine& p) { return std::string(to_string(p.gen())); })
      .def_property_readonly("pc", [](const PyMachine& p) { return p.machine().pc(); })
      .def_property_readonly("size", [](const PyMachine& p) { return p.machine().size(); })
      .def_property_readonly("finished", [](const PyMachine& p) { return p.machine().finished(); })
      .def_property_readonly("deadlocked", [](const PyMachine& p) { return p.machine().deadlocked(); })
      .def_property_readonly(
          "registers", [](const PyMachine& p) { return array_of(std::span<const uint32_t>(p.machine().state().regs)); })
      .def_property_readonly(
          "semaphores",
          [](const PyMachine& p) { return array_of(std::span<const uint32_t>(p.machine().state().sems)); })
      .def_property_readonly("events", [](const PyMachine& p) {
        pb::array_t<bool> a(static_cast<pb::ssize_t>(kNumEvents));
        for (unsigned i = 0; i < kNumEvents; ++i) a.mutable_data()[i] = p.machine().state().events[i];
        return a;
      });
}

}  // namespace tpbisa::py
