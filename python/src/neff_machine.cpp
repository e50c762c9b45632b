// tpbisa.Neff (a container read by the library), tpbisa.Machine (one stream on the simulator) and the catalog tables.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include <fmt/format.h>

#include "common.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/io/dump.hpp"
#include "tpbisa/io/element.hpp"
#include "tpbisa/io/state.hpp"
#include "tpbisa/io/verdict_json.hpp"
#include "tpbisa/location.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/trace.hpp"
#include "words.hpp"

namespace tpbisa::py {
namespace {

using json = nlohmann::ordered_json;

// ---- Neff ----

std::string hex(std::span<const uint8_t> bytes) {
  std::string s;
  for (uint8_t b : bytes) s += fmt::format("{:02x}", b);
  return s;
}

std::vector<unsigned> set_bits(uint64_t v) {
  std::vector<unsigned> bits;
  for (unsigned b = 0; b < 64; ++b)
    if ((v >> b) & 1U) bits.push_back(b);
  return bits;
}

/// Opcode counts of a stream by mnemonic, most frequent first (ties by name), as `tpbisa neff info` counts them.
std::vector<std::pair<std::string, size_t>> histogram(const neff::Stream& s, Generation gen) {
  std::map<std::string, size_t> counts;
  for (size_t i = 0; i < s.word_count(); ++i) {
    const Instruction inst = decode(s.word(i), gen);
    const std::string name = inst.status == DecodeStatus::Unknown ? fmt::format("unknown(0x{:02x})", inst.opcode())
                                                                  : std::string(inst.name());
    ++counts[name];
  }
  std::vector<std::pair<std::string, size_t>> v(counts.begin(), counts.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return v;
}

const neff::Tensor* graph_tensor(const neff::Neff& n, const std::string& name) {
  for (const auto* list : {&n.inputs, &n.outputs})
    for (const neff::Tensor& t : *list)
      if (t.name == name) return &t;
  return nullptr;
}

json warnings_json(const neff::Neff& n) {
  json list = json::array();
  for (const neff::Warning& w : n.warnings) list.push_back({{"member", w.member}, {"message", w.message}});
  return list;
}

json tensor_json(const neff::Tensor& t) {
  return {{"name", t.name}, {"dtype", t.dtype}, {"shape", t.shape}};
}

/// The document of `tpbisa neff info --json`.
json info_json(const neff::Neff& n) {
  const neff::Header& h = n.header;
  const Generation gen = n.generation.value_or(kDefaultGeneration);
  json header{{"pkg_version", h.pkg_version},
              {"header_size", h.header_size},
              {"data_size", h.data_size},
              {"neff_version_major", h.neff_version_major},
              {"neff_version_minor", h.neff_version_minor},
              {"neff_build_version", h.build_version_text()},
              {"num_tpb", h.num_tpb},
              {"hash", hex(h.hash)},
              {"uuid", hex(h.uuid)},
              {"name", h.name_text()},
              {"requested_tpb_count", h.requested_tpb_count},
              {"tpb_per_node", std::vector<unsigned>(h.tpb_per_node.begin(), h.tpb_per_node.end())},
              {"feature_bits", h.feature_bits},
              {"feature_bits_set", set_bits(h.feature_bits)},
              {"lnc_size", h.lnc_size}};
  json hash{{"algorithm", n.hash.algorithm},
            {"computed", hex(n.hash.computed)},
            {"stored", hex(n.hash.stored)},
            {"matched", n.hash.matched ? json(to_string(*n.hash.matched)) : json(nullptr)}};
  json payload{{"window_bytes", n.payload.window_bytes},
               {"compressed_bytes", n.payload.compressed_bytes},
               {"padding_bytes", n.payload.padding_bytes},
               {"padding_zero", n.payload.padding_zero},
               {"tar_bytes", n.payload.tar_bytes},
               {"members", n.members.size()},
               {"bytes_after_window", n.payload.bytes_after_window}};
  json subgraphs = json::array();
  for (const neff::Subgraph& sg : n.subgraphs) {
    json engines = json::array();
    size_t words = 0;
    for (const neff::EngineDef& e : sg.engines) {
      json hist = json::object();
      for (const auto& [name, c] : histogram(e.stream, gen)) hist[name] = c;
      words += e.stream.word_count();
      engines.push_back({{"engine", neff::engine_name(e.engine)},
                         {"index", static_cast<unsigned>(e.engine)},
                         {"label", e.stream.label()},
                         {"stream", e.stream.member},
                         {"json", e.json_member},
                         {"words", e.stream.word_count()},
                         {"opcodes", hist},
                         {"dma_descriptors", e.dma_descriptors},
                         {"tables", e.tables},
                         {"act_semaphore", e.act_semaphore ? json(*e.act_semaphore) : json(nullptr)}});
    }
    json vars = json::array();
    for (const neff::Variable& v : sg.variables) {
      json j{{"name", v.name}, {"id", v.id}, {"type", v.type_name}, {"size", v.size ? json(*v.size) : json(nullptr)}};
      if (const neff::Tensor* t = graph_tensor(n, v.name);
          t != nullptr && (v.type == neff::VarType::Input || v.type == neff::VarType::Output)) {
        j["dtype"] = t->dtype;
        j["shape"] = t->shape;
      }
      if (v.alignment) j["alignment"] = *v.alignment;
      if (!v.fabric_path.empty()) j["fabric_path"] = v.fabric_path;
      if (v.constant) {
        j["file"] = v.constant->member;
        j["file_bytes"] = v.constant->member_bytes;
        if (v.constant->array) {
          j["dtype"] = v.constant->array->descr;
          j["shape"] = v.constant->array->shape;
          j["data_bytes"] = v.constant->array->data_bytes;
        }
      }
      if (v.backing_offset) j["backing_variable_off"] = *v.backing_offset;
      if (v.referenced_var_id) j["referenced_var_id"] = *v.referenced_var_id;
      if (v.type == neff::VarType::DgeTable) j["list"] = v.list;
      vars.push_back(std::move(j));
    }
    json queues = json::array();
    for (const neff::QueueSet& q : sg.queue_sets)
      queues.push_back({{"name", q.name},
                        {"type", q.type},
                        {"owner", q.owner},
                        {"num_queues", q.num_queues},
                        {"semaphore_set", q.semaphores},
                        {"fabric_path", q.fabric_path}});
    subgraphs.push_back({{"name", sg.name},
                         {"definition", sg.definition},
                         {"version", sg.version},
                         {"words", words},
                         {"engines", engines},
                         {"variables", vars},
                         {"virtual_scratch_bytes", sg.virtual_scratch_bytes},
                         {"queue_sets", queues}});
  }
  json inputs = json::array(), outputs = json::array();
  for (const neff::Tensor& t : n.inputs) inputs.push_back(tensor_json(t));
  for (const neff::Tensor& t : n.outputs) outputs.push_back(tensor_json(t));
  return {{"file", n.file},
          {"file_bytes", n.file_size},
          {"header", header},
          {"hash_check", hash},
          {"payload", payload},
          {"kelf", n.kelf_member},
          {"kelf_version", n.kelf_version},
          {"target", n.target},
          {"generation", n.generation ? json(to_string(*n.generation)) : json(nullptr)},
          {"compiler_version", n.compiler_version},
          {"lnc_size", h.lnc_size},
          {"inputs", inputs},
          {"outputs", outputs},
          {"subgraphs", subgraphs},
          {"warnings", warnings_json(n)}};
}

std::string_view use_kind(neff::SemUse::Kind k) {
  switch (k) {
    case neff::SemUse::Kind::Wait: return "wait";
    case neff::SemUse::Kind::Update: return "update";
    case neff::SemUse::Kind::DmaCompletion: return "dma-completion";
  }
  return "?";
}

json use_json(const neff::SemUse& u) {
  json j{{"kind", use_kind(u.kind)}, {"stream", u.stream}, {"word", u.word}, {"mnemonic", u.mnemonic},
         {"mode", u.mode},           {"value", u.value},   {"text", u.text}};
  if (!u.queue_set.empty()) j["queue_set"] = u.queue_set;
  if (!u.note.empty()) j["note"] = u.note;
  return j;
}

/// The "subgraphs" list of `tpbisa neff sems --json`.
json sems_json(const neff::Neff& n) {
  json subgraphs = json::array();
  for (const neff::SubgraphSems& sg : neff::semaphore_picture(n)) {
    json sems = json::array();
    for (const neff::SemaphoreUses& s : sg.semaphores) {
      json waits = json::array(), incs = json::array();
      for (const auto& u : s.waits) waits.push_back(use_json(u));
      for (const auto& u : s.increments) incs.push_back(use_json(u));
      sems.push_back({{"semaphore", s.index}, {"queue_sets", s.queue_sets}, {"waits", waits}, {"increments", incs}});
    }
    subgraphs.push_back({{"subgraph", sg.subgraph}, {"semaphores", sems}});
  }
  return subgraphs;
}

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
};

// ---- Machine ----

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

  pb::dict run(uint64_t max_steps) {
    check_idle();
    RunSummary s;
    {
      // Other threads run meanwhile; `running_` keeps them off this machine until it is done.
      running_ = true;
      pb::gil_scoped_release release;
      s = machine_->run(static_cast<size_t>(std::min<uint64_t>(max_steps, SIZE_MAX)));
    }
    running_ = false;
    pb::dict d;
    d["status"] = s.faulted ? "fault" : s.deadlock ? "deadlock" : s.step_limit ? "step-limit" : "ok";
    d["retired"] = s.retired;
    d["fault"] =
        s.faulted
            ? to_python(io::fault_json(s.fault, machine_->instruction(s.fault.index), machine_->options().validate))
            : pb::none();
    pb::list blocked;
    for (const BlockedWait& w : s.blocked)
      blocked.append(to_python(nlohmann::ordered_json::parse(blocked_wait_json(w))));
    d["deadlock"] = blocked;
    pb::dict diags;
    for (size_t k = 0; k < kDiagKinds; ++k)
      if (s.diagnostic_counts[k] != 0)
        diags[pb::str(std::string(to_string(static_cast<DiagKind>(k))))] = s.diagnostic_counts[k];
    d["diagnostics"] = diags;
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

  pb::dict flops() const {
    const MachineState& s = machine().state();
    const auto n = static_cast<pb::ssize_t>(kDveChannels);
    pb::array_t<uint32_t> imm({n, pb::ssize_t{8}}), keys({n, pb::ssize_t{8}}), bn({n, pb::ssize_t{5}});
    pb::array_t<uint8_t> classes({n, pb::ssize_t{8}});
    pb::array_t<bool> key_written({n, pb::ssize_t{8}}), matched({n, pb::ssize_t{8}}), bn_written(n);
    auto i = imm.mutable_unchecked<2>();
    auto k = keys.mutable_unchecked<2>();
    auto b = bn.mutable_unchecked<2>();
    auto c = classes.mutable_unchecked<2>();
    auto kw = key_written.mutable_unchecked<2>();
    auto m = matched.mutable_unchecked<2>();
    auto bw = bn_written.mutable_unchecked<1>();
    for (pb::ssize_t ch = 0; ch < n; ++ch) {
      const DveChannel& d = s.dve[static_cast<size_t>(ch)];
      for (pb::ssize_t slot = 0; slot < 8; ++slot) {
        const auto j = static_cast<size_t>(slot);
        i(ch, slot) = d.imm[j];
        c(ch, slot) = static_cast<uint8_t>(d.imm_class[j]);
        k(ch, slot) = d.match_key[j];
        kw(ch, slot) = d.match_key_written[j];
        m(ch, slot) = d.matched[j];
      }
      b(ch, 0) = d.bn.n;
      b(ch, 1) = d.bn.batch_mean;
      b(ch, 2) = d.bn.a;
      b(ch, 3) = d.bn.b;
      b(ch, 4) = d.bn.c;
      bw(ch) = d.bn.written;
    }
    pb::dict out;
    out["imm"] = imm;
    out["imm_class"] = classes;
    out["match_key"] = keys;
    out["match_key_written"] = key_written;
    out["matched"] = matched;
    out["bn"] = bn;
    out["bn_written"] = bn_written;
    return out;
  }

 private:
  Generation gen_ = kDefaultGeneration;
  std::unique_ptr<Machine> machine_;
  bool running_ = false;
};

// ---- catalog ----

json generations_json(GenSet gens) {
  json list = json::array();
  for (Generation g : kAllGenerations)
    if (gens.has(g)) list.push_back(to_string(g));
  return list;
}

std::string hex_byte(uint8_t v) {
  return fmt::format("{:#04x}", v);
}

std::string_view dtype_kind(DtypeKind k) {
  switch (k) {
    case DtypeKind::Sentinel: return "sentinel";
    case DtypeKind::UInt: return "unsigned int";
    case DtypeKind::SInt: return "signed int";
    case DtypeKind::Float: return "float";
    case DtypeKind::Scale: return "scale";
    case DtypeKind::Coded: return "coded";
  }
  return "?";
}

std::vector<std::string> alu_classes(const AluOpInfo& op) {
  constexpr std::array<std::pair<AluClass, std::string_view>, 8> kNames{{
      {kAluBitvec, "bitvec"},
      {kAluArith, "arith"},
      {kAluGeneralArith, "general_arith"},
      {kAluInt, "int"},
      {kAluSigned, "signed"},
      {kAluUnsigned, "unsigned"},
      {kAluIntDve5, "int_dve"},
      {kAluByConventionT11, "PROJ-CONV-T11"},
  }};
  std::vector<std::string> out;
  for (const auto& [bit, name] : kNames)
    if (op.is(bit)) out.emplace_back(name);
  return out;
}

json enum_entries(std::span<const EnumValue> values) {
  json list = json::array();
  for (const auto& v : values)
    list.push_back({{"value", hex_byte(v.value)},
                    {"name", v.name},
                    {"convention", v.convention},
                    {"generations", generations_json(v.gens)}});
  return list;
}

/// The entries of `tpbisa catalog --json` for every table (values as the CLI writes them).
json catalog_json() {
  json opcodes = json::array(), dtypes = json::array(), aluops = json::array();
  for (const auto& op : kOpcodes)
    opcodes.push_back({{"value", hex_byte(op.value)},
                       {"name", op.enum_name},
                       {"mnemonic", op.mnemonic},
                       {"engine", to_string(op.engine)},
                       {"maintained", to_string(op.maint)},
                       {"format", to_string(op.format)},
                       {"struct", op.struct_name},
                       {"generations", generations_json(op.gens)}});
  for (const auto& d : kDtypes)
    dtypes.push_back({{"code", hex_byte(d.code)},
                      {"name", d.name},
                      {"short_name", d.short_name},
                      {"bits", d.bits},
                      {"kind", dtype_kind(d.kind)},
                      {"layout", d.layout},
                      {"role", d.role},
                      {"generations", generations_json(d.gens)}});
  for (const auto& op : kAluOps)
    aluops.push_back({{"code", hex_byte(op.code)},
                      {"name", op.name},
                      {"classes", alu_classes(op)},
                      {"computes", op.computes},
                      {"generations", generations_json(op.gens)}});
  json modes{{"WAIT_MODE", enum_entries(kWaitModes)},       {"UPDATE_MODE", enum_entries(kUpdateModes)},
             {"DATA_SRC", enum_entries(kDataSrc)},          {"IMM_SRC", enum_entries(kImmSrc)},
             {"IMM_SRC_N", enum_entries(kImmSrcN)},         {"TENSOR_SUBDIM", enum_entries(kTensorSubdim)},
             {"TENS_SCALAR_REV_OPS", enum_entries(kRevOps)}};
  return {{"opcodes", opcodes}, {"dtypes", dtypes}, {"aluops", aluops}, {"modes", modes}};
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
      .def_property_readonly("info", [](const PyNeff& n) { return to_python(info_json(n.get())); })
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
                                 d["engine"] = std::string(neff::engine_name(s->engine));
                                 d["label"] = s->label();
                                 d["member"] = s->member;
                                 d["words"] = s->word_count();
                                 d["data"] = pb::bytes(reinterpret_cast<const char*>(s->bytes.data()), s->bytes.size());
                                 out.append(d);
                               }
                               return out;
                             })
      .def(
          "sems", [](const PyNeff& n) { return to_python(sems_json(n.get())); },
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
      .def("run", &PyMachine::run, pb::arg("max_steps") = 1000000)
      .def("_read", &PyMachine::read)
      .def_property_readonly("flops", &PyMachine::flops)
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
