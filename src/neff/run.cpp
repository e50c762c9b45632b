// A NEFF on the machine: a core per subgraph, the DRAM variables of each subgraph bound to shared buffers
// (PROJ-CONV-X5), private virtual scratch (X8), constants from their .npy members, inputs from the caller.
#include "tpbisa/neff_run.hpp"

#include "neff/act_tables.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tpbisa::neff {

namespace {

struct DtypeRow {
  std::string_view name;
  unsigned size;
  std::vector<std::string> descrs;
};

const std::vector<DtypeRow>& dtype_rows() {
  static const std::vector<DtypeRow> kRows{
      {"float16", 2, {"<f2"}},
      {"bfloat16", 2, {"<u2", "<i2", "|V2"}},  // NumPy has no bfloat16: raw 2-byte words
      {"float32", 4, {"<f4"}},
      {"float64", 8, {"<f8"}},
      {"int8", 1, {"|i1"}},
      {"uint8", 1, {"|u1"}},
      {"int16", 2, {"<i2"}},
      {"uint16", 2, {"<u2"}},
      {"int32", 4, {"<i4"}},
      {"uint32", 4, {"<u4"}},
      {"int64", 8, {"<i8"}},
      {"uint64", 8, {"<u8"}},
      {"bool", 1, {"|b1", "|u1"}},
      {"float8_e4m3", 1, {"|u1", "|i1", "|V1"}},  // FP8 as raw bytes
      {"float8_e5m2", 1, {"|u1", "|i1", "|V1"}},
      {"float8_e3m4", 1, {"|u1", "|i1", "|V1"}},
      {"float8_e4m3fn", 1, {"|u1", "|i1", "|V1"}},
  };
  return kRows;
}

const DtypeRow* find_row(const std::string& name) {
  for (const DtypeRow& r : dtype_rows())
    if (r.name == name) return &r;
  return nullptr;
}

/// The bytes of a signature tensor; nullopt when they pass 2^64 (a shape no buffer holds).
std::optional<uint64_t> tensor_bytes(const Tensor& t) {
  uint64_t n = signature_dtype_size(t.dtype);
  for (uint64_t d : t.shape) {
    if (d != 0 && n > UINT64_MAX / d) return std::nullopt;
    n *= d;
  }
  return n;
}

uint64_t saturating_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/// Bytes of the written-byte map of a tracked variable (Run::Tracked::written).
uint64_t bitmap_bytes(uint64_t size) {
  return (size / 64 + (size % 64 != 0)) * sizeof(uint64_t);
}

/// The signature's outputs against the variables that hold them: every output whose bytes are known has an
/// output (or tmp-buf) buffer of its name at least that large, so that what is written for it is all there.
std::optional<std::string> check_outputs(const Neff& neff) {
  for (const Tensor& t : neff.outputs) {
    const std::optional<uint64_t> need = tensor_bytes(t);
    if (!need)
      return fmt::format("output {}: the signature's {} {} is more than 2^64 bytes", t.name, t.dtype,
                         shape_text(t.shape));
    std::optional<uint64_t> held;
    for (const Subgraph& sg : neff.subgraphs)
      for (const Variable& v : sg.variables)
        if ((v.type == VarType::Output || v.type == VarType::TmpBuf) && v.name == t.name)
          held = std::max(held.value_or(0), v.size.value_or(0));
    if (!held)
      return fmt::format("output {} ({} {}) is held by no output variable of any subgraph", t.name, t.dtype,
                         shape_text(t.shape));
    if (*held < *need)
      return fmt::format("output {}: the signature ({} {}) needs {} bytes, its variable holds {}", t.name, t.dtype,
                         shape_text(t.shape), *need, *held);
  }
  return std::nullopt;
}

/// The DMA queues of a subgraph's engines (PROJ-CONV-PS4): per engine and queue name its blocks by id with their
/// variables resolved, and the completion of the def.json queue of that name. A queue whose blocks the run cannot
/// use keeps the reason; its triggers fault with it.
std::vector<DmaQueue> dma_queues(const Subgraph& sg) {
  std::map<std::string, uint32_t> ids;
  for (const Variable& v : sg.variables) ids.emplace(v.name, v.id);
  std::vector<DmaQueue> out;
  for (const EngineDef& e : sg.engines) {
    std::map<std::string, std::map<uint64_t, const DmaBlock*>> by_queue;
    std::map<std::string, std::string> problems;
    for (const DmaBlock& b : e.dma_blocks)
      if (!by_queue[b.queue].emplace(b.id, &b).second)
        problems[b.queue] = fmt::format("block id {} appears twice", b.id);
    for (const auto& [name, blocks] : by_queue) {
      DmaQueue q;
      q.engine = e.engine;
      q.name = name;
      q.problem = problems[name];
      for (const auto& [id, b] : blocks) {
        if (id != q.blocks.size() && q.problem.empty())
          q.problem =
              fmt::format("its block ids are not 0..{} (block {} is missing)", blocks.size() - 1, q.blocks.size());
        std::vector<DmaCopy>& copies = q.blocks.emplace_back();
        for (const DmaDescriptor& d : b->descriptors) {
          const auto from = ids.find(d.from), to = ids.find(d.to);
          if ((from == ids.end() || to == ids.end()) && q.problem.empty())
            q.problem = fmt::format("block {} names variable '{}', which {} does not declare", id,
                                    from == ids.end() ? d.from : d.to, sg.name);
          copies.push_back(
              {from == ids.end() ? 0 : from->second, to == ids.end() ? 0 : to->second, d.from_off, d.to_off, d.size});
        }
      }
      for (const QueueSet& qs : sg.queue_sets)
        if (qs.name == name) {
          if (!qs.semaphores.empty()) q.semaphore = static_cast<uint8_t>(qs.semaphores.front());
          q.increment = qs.num_queues == 0 ? 1 : qs.num_queues;
        }
      out.push_back(std::move(q));
    }
  }
  return out;
}

}  // namespace

uint64_t core_state_bytes(size_t words) {
  // The core (its state and every engine's), its page table below the dense limit, its effect log, and per word
  // its kind (Sequencer: the words are the NEFF's, viewed, and a word is decoded when it issues).
  constexpr uint64_t kPerWord = sizeof(uint8_t);
  constexpr uint64_t kFixed =
      sizeof(Core) + SparseMemory::kDenseLimit / SparseMemory::kPageBytes * sizeof(void*) + sizeof(EffectLog);
  return kFixed + kPerWord * words;
}

std::optional<std::string> check_run_memory(const Neff& neff, uint64_t limit) {
  uint64_t total = 0;
  const auto over = [&](uint64_t add) {
    total = saturating_add(total, add);
    return total > limit;
  };
  const auto beyond = [&](const std::string& what) {
    return fmt::format(
        "{} brings the run's DRAM and core state to {} bytes, beyond the memory limit of {} bytes (--max-memory)", what,
        total, limit);
  };
  std::map<std::string_view, uint64_t> shared;  // output and tmp-buf buffers, one per name (PROJ-CONV-X5)
  for (const Subgraph& sg : neff.subgraphs) {
    size_t words = 0;
    for (const EngineDef& e : sg.engines) words += e.stream.word_count();
    if (over(core_state_bytes(words)))
      return beyond(fmt::format("{}: its core's state ({} bytes)", sg.name, core_state_bytes(words)));
    const uint64_t max_id = sg.variables.empty() ? 0 : sg.variables.back().id;  // sorted by var_id
    if (over((max_id + 1) * sizeof(DramVar)))
      return beyond(fmt::format("{}: its table of variables up to var_id {} ({} bytes)", sg.name, max_id,
                                (max_id + 1) * sizeof(DramVar)));
    uint64_t scratch = 0;
    for (const Variable& v : sg.variables) {
      const uint64_t size = v.size.value_or(0);
      uint64_t add = 0;
      if (v.type == VarType::Output || v.type == VarType::TmpBuf) {
        uint64_t& held = shared[v.name];
        if (size > held) add = size - held + bitmap_bytes(size) - bitmap_bytes(held);
        held = std::max(held, size);
      } else if (v.type == VarType::Virtual) {
        const uint64_t end = saturating_add(v.backing_offset.value_or(0), size);
        add = saturating_add(end > scratch ? end - scratch : 0, bitmap_bytes(size));
        scratch = std::max(scratch, end);
      }
      if (over(add)) return beyond(fmt::format("{}: variable {} ({}, {} bytes)", sg.name, v.name, v.type_name, size));
    }
  }
  return std::nullopt;
}

namespace {
constexpr uint64_t kHugeAdviceBytes = uint64_t{2} << 20;
/// Variables up to this size take memory kept from the process's earlier runs (detail::map_huge_advised) and zero
/// it: a run that writes its output whole then writes memory already resident, instead of taking a fault and a page
/// zeroed by the system for every 4 KiB or 2 MiB of it (a Python session runs programs one after another). Larger
/// ones (the virtual scratch, PROJ-CONV-X8) stay resident only where written.
constexpr uint64_t kKeptZeroBytes = uint64_t{16} << 20;
constexpr uint64_t kSystemPage = 4096;
}  // namespace

bool ZeroPages::map(uint64_t n) {
  if (n == 0) return true;
  if (n > SIZE_MAX) {
    errno = ENOMEM;
    return false;
  }
  if (n <= kKeptZeroBytes) {
    const size_t bytes = static_cast<size_t>((n + kSystemPage - 1) / kSystemPage * kSystemPage);
    void* kept = tpbisa::detail::map_huge_advised(bytes);
    if (kept == nullptr) {
      errno = ENOMEM;
      return false;
    }
    std::memset(kept, 0, bytes);
    data_ = static_cast<uint8_t*>(kept);
    size_ = n;
    kept_bytes_ = bytes;
    return true;
  }
  // Anonymous memory reads as zero and becomes resident page by page as it is written (MAP_NORESERVE: no commit
  // charge for the pages never touched).
  void* p = ::mmap(nullptr, static_cast<size_t>(n), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
  if (p == MAP_FAILED) return false;
  // A variable of 2 MiB or more takes huge pages where the system gives them: an output a program fills costs one
  // fault per 2 MiB instead of one per 4 KiB (docs/performance.md, "Memory of a run"). Advice only.
  if (n >= kHugeAdviceBytes) ::madvise(p, static_cast<size_t>(n), MADV_HUGEPAGE);
  data_ = static_cast<uint8_t*>(p);
  size_ = n;
  return true;
}

void ZeroPages::release() noexcept {
  if (data_ == nullptr) return;
  if (kept_bytes_ != 0)
    tpbisa::detail::unmap_huge_advised(data_, kept_bytes_);
  else
    ::munmap(data_, static_cast<size_t>(size_));
  data_ = nullptr;
  size_ = 0;
  kept_bytes_ = 0;
}

ZeroPages::~ZeroPages() {
  release();
}

ZeroPages::ZeroPages(ZeroPages&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      kept_bytes_(std::exchange(other.kept_bytes_, 0)) {}

ZeroPages& ZeroPages::operator=(ZeroPages&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    kept_bytes_ = std::exchange(other.kept_bytes_, 0);
  }
  return *this;
}

std::vector<std::string> npy_descrs_for(const std::string& signature_dtype) {
  const DtypeRow* r = find_row(signature_dtype);
  return r != nullptr ? r->descrs : std::vector<std::string>{};
}

unsigned signature_dtype_size(const std::string& signature_dtype) {
  const DtypeRow* r = find_row(signature_dtype);
  return r != nullptr ? r->size : 0;
}

std::string shape_text(std::span<const uint64_t> shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += fmt::format("{}{}", i == 0 ? "" : ", ", shape[i]);
  if (shape.size() == 1) s += ",";
  return s + ")";
}

std::optional<std::string> check_npy(const Tensor& t, const npy::Array& a) {
  const std::vector<std::string> descrs = npy_descrs_for(t.dtype);
  std::string expected;
  for (const std::string& d : descrs) expected += fmt::format("{}'{}'", expected.empty() ? "" : " or ", d);
  const bool dtype_ok = std::find(descrs.begin(), descrs.end(), a.descr) != descrs.end();
  const bool shape_ok = a.shape == t.shape && !a.fortran_order;
  if (dtype_ok && shape_ok) return std::nullopt;
  return fmt::format("input {} expects {} {} ({}{}), the file has '{}' {}{}", t.name, t.dtype, shape_text(t.shape),
                     expected.empty() ? "no .npy dtype known" : expected, ", C order", a.descr, shape_text(a.shape),
                     a.fortran_order ? " in Fortran order" : "");
}

namespace {

/// def.json of a subgraph, parsed (null when absent or malformed: the reader has already judged it).
nlohmann::json definition(const Neff& neff, const Subgraph& sg) {
  const Member* m = neff.member(sg.definition);
  if (m == nullptr) return nullptr;
  return nlohmann::json::parse(m->bytes.begin(), m->bytes.end(), nullptr, false);
}

}  // namespace

std::vector<std::string> Run::reservation_violations() const {
  std::vector<std::string> out;
  const Geometry& geo = geometry(gen_);
  // The reservations as the reader checked them (Subgraph::sbuf_reservations: partitions within the SBUF's).
  for (size_t c = 0; c < basis_->neff->subgraphs.size() && c < views_.size(); ++c)
    for (const SbufReservation& r : basis_->neff->subgraphs[c].sbuf_reservations) {
      // Its offset and size are the program's numbers: it is looked at only where the SBUF has bytes (a size near
      // 2^64 neither wraps nor walks that far).
      const uint64_t bytes =
          r.offset < geo.sbuf_partition_active ? std::min(r.size, geo.sbuf_partition_active - r.offset) : 0;
      if (bytes == 0) continue;
      for (uint64_t p = r.base_partition; p < geo.sbuf_partitions && p - r.base_partition < r.partitions; ++p) {
        const std::optional<uint64_t> a = sbuf_address(gen_, static_cast<uint32_t>(p), static_cast<uint32_t>(r.offset));
        if (a && machine_->core(c).state().memory.any_written(*a, bytes))
          out.push_back(fmt::format("core {}: SBUF partition {} bytes {:#x}..{:#x} ({}) written", c, p, r.offset,
                                    r.offset + bytes - 1, r.type));
      }
    }
  return out;
}

void Run::note_step(const StepResult& step) {
  if (step.status != StepResult::Status::Retired || step.dram_ranges.empty()) return;
  const std::lock_guard<std::mutex> lock(*tracking_lock_);
  for (const EffectLog::DramRange& r : step.dram_ranges) {
    const auto it = tracked_.find(r.base);
    if (it == tracked_.end()) continue;  // an input or a constant: every byte is initialised
    Tracked& t = it->second;
    const uint64_t end = std::min(t.size, r.offset + r.n);
    uint64_t unwritten = 0;
    for (uint64_t b = r.offset; b < end;) {  // a 64-byte word of the bitmap at a time
      const uint64_t bit = b % 64, take = std::min<uint64_t>(64 - bit, end - b);
      const uint64_t mask = take == 64 ? ~uint64_t{0} : ((uint64_t{1} << take) - 1) << bit;
      uint64_t& word = t.words()[b / 64];
      if (r.write)
        word |= mask;
      else
        unwritten += static_cast<uint64_t>(std::popcount(~word & mask));
      b += take;
    }
    if (unwritten != 0) uninit_dram_[{stream_label(step.core, step.engine), t.name}] += unwritten;
  }
}

std::map<std::pair<std::string, std::string>, uint64_t> Run::uninitialized_dram_reads() const {
  const std::lock_guard<std::mutex> lock(*tracking_lock_);
  return uninit_dram_;
}

std::string Run::stream_label(size_t core, EngineId e) const {
  return fmt::format("{}/{}", subgraphs_[core], engine_name(static_cast<Engine>(e)));
}

std::span<const uint8_t> Run::output(const std::string& name) const {
  const auto it = shared_.find(name);
  return it == shared_.end() ? std::span<const uint8_t>{}
                             : std::span<const uint8_t>(it->second.data(), it->second.size());
}

ZeroPages Run::take_output(const std::string& name) {
  const auto it = shared_.find(name);
  return it == shared_.end() ? ZeroPages{} : std::move(it->second);
}

std::unique_ptr<Run> Run::create(const Neff& neff, std::span<const RunInput> inputs, MachineOptions options,
                                 std::string& error, std::shared_ptr<const RunBasis> basis) {
  std::unique_ptr<Run> run(new Run());
  run->gen_ = neff.generation.value_or(Generation::Cayman);
  if (neff.subgraphs.empty()) {
    error = fmt::format("{}: the NEFF has no subgraph to run", neff.file);
    return nullptr;
  }
  // Inputs: each signature input exactly once, with the size the signature gives.
  std::map<std::string, std::span<const uint8_t>> bound;
  for (const RunInput& in : inputs) {
    const auto t =
        std::find_if(neff.inputs.begin(), neff.inputs.end(), [&](const Tensor& x) { return x.name == in.name; });
    if (t == neff.inputs.end()) {
      std::string names;
      for (const Tensor& x : neff.inputs) names += fmt::format("{}{}", names.empty() ? "" : ", ", x.name);
      error = fmt::format("--input {}: the program has no input of that name (its inputs: {})", in.name, names);
      return nullptr;
    }
    if (bound.count(in.name) != 0) {
      error = fmt::format("--input {} is given twice", in.name);
      return nullptr;
    }
    if (const std::optional<uint64_t> need = tensor_bytes(*t); !need || in.bytes.size() != *need) {
      error = need ? fmt::format("input {}: {} bytes given, the signature ({} {}) needs {}", in.name, in.bytes.size(),
                                 t->dtype, shape_text(t->shape), *need)
                   : fmt::format("input {}: the signature's {} {} is more than 2^64 bytes", in.name, t->dtype,
                                 shape_text(t->shape));
      return nullptr;
    }
    bound[in.name] = in.bytes;
  }
  for (const Tensor& t : neff.inputs)
    if (bound.count(t.name) == 0) {
      error = fmt::format("input {} ({} {}) is not given (--input {}=FILE.npy)", t.name, t.dtype, shape_text(t.shape),
                          t.name);
      return nullptr;
    }
  // Checked before anything is allocated: the outputs' buffers hold what the signature promises, and every buffer
  // and core the run sets up fits the memory limit.
  if (auto bad = check_outputs(neff)) {
    error = *bad;
    return nullptr;
  }
  if (auto bad = check_run_memory(neff, options.max_memory)) {
    error = *bad;
    return nullptr;
  }
  // Output and tmp-buf buffers: one per name, at the largest size a subgraph declares (X5).
  std::map<std::string, uint64_t> shared_sizes;
  for (const Subgraph& sg : neff.subgraphs)
    for (const Variable& v : sg.variables)
      if (v.type == VarType::Output || v.type == VarType::TmpBuf) {
        uint64_t& size = shared_sizes[v.name];
        size = std::max(size, v.size.value_or(0));
      }
  for (const auto& [name, size] : shared_sizes)
    if (!run->shared_[name].map(size)) {
      error = fmt::format("cannot map the {} bytes of variable {}: {}", size, name, std::strerror(errno));
      return nullptr;
    }
  std::vector<CoreProgram> programs(neff.subgraphs.size());
  run->views_.resize(neff.subgraphs.size());
  run->scratch_.resize(neff.subgraphs.size());
  for (size_t c = 0; c < neff.subgraphs.size(); ++c) {
    const Subgraph& sg = neff.subgraphs[c];
    run->subgraphs_.push_back(sg.name);
    // The machine views the streams (the NEFF outlives the run, as its constants do): a program of 10^7 words is
    // not held twice.
    for (const EngineDef& e : sg.engines)
      programs[c].view(static_cast<EngineId>(e.engine),
                       std::span<const uint8_t>(e.stream.bytes.data(), e.stream.word_count() * kWordBytes));
    if (!run->scratch_[c].map(sg.virtual_scratch_bytes)) {
      error = fmt::format("{}: cannot map the {}-byte scratch of its virtual variables: {}", sg.name,
                          sg.virtual_scratch_bytes, std::strerror(errno));
      return nullptr;
    }
    DramView& view = run->views_[c];
    uint32_t max_id = 0;
    for (const Variable& v : sg.variables) max_id = std::max(max_id, v.id);
    view.vars.resize(size_t{max_id} + 1);
    for (const Variable& v : sg.variables) {
      DramVar& d = view.vars[v.id];
      d.name = v.name;
      switch (v.type) {
        case VarType::StateBuffer:
          d.present = true;
          d.state_buffer = true;
          break;
        case VarType::Input: {
          const auto it = bound.find(v.name);
          if (it == bound.end()) {
            error = fmt::format("{}: input variable {} (var_id {}) is not an input of the signature", sg.name, v.name,
                                v.id);
            return nullptr;
          }
          d.present = true;
          d.data = it->second.data();
          d.size = it->second.size();
          break;
        }
        case VarType::Output:
        case VarType::TmpBuf: {
          ZeroPages& buf = run->shared_.at(v.name);  // shared by name across the cores (X5)
          d.present = true;
          d.data = buf.data();
          d.writable = buf.data();
          d.size = v.size.value_or(0);
          break;
        }
        case VarType::Virtual: {
          const uint64_t off = v.backing_offset.value_or(0), size = v.size.value_or(0);
          ZeroPages& buf = run->scratch_[c];
          if (off > buf.size() || size > buf.size() - off) {
            error = fmt::format("{}: virtual variable {} lies outside the subgraph's scratch", sg.name, v.name);
            return nullptr;
          }
          d.present = true;
          d.data = buf.data() + off;
          d.writable = buf.data() + off;
          d.size = size;
          break;
        }
        case VarType::File: {
          if (!v.constant) break;
          const Member* m = neff.member(v.constant->member);
          if (m == nullptr) break;
          d.present = true;
          if (v.constant->array) {
            d.data = m->bytes.data() + v.constant->array->data_offset;
            d.size = v.constant->array->data_bytes;
          } else {
            d.data = m->bytes.data();
            d.size = m->bytes.size();
          }
          break;
        }
        default: break;  // pointer, dge-table and unknown types are not addressable by a DMA here
      }
    }
    if (const Variable* t = sg.dge_table()) view.dge_table = t->list;
    view.dma_queues = dma_queues(sg);
  }
  // Every writable variable starts unwritten (virtual variables of one core share its scratch: tracked apart).
  for (size_t c = 0; c < run->views_.size(); ++c)
    for (const DramVar& d : run->views_[c].vars)
      if (d.present && d.writable != nullptr && run->tracked_.count(d.data) == 0) {
        Tracked& t = run->tracked_[d.data];
        t.name = d.name;
        t.size = d.size;
        if (!t.written.map(bitmap_bytes(d.size))) {
          error = fmt::format("cannot map the written-byte map of variable {}: {}", d.name, std::strerror(errno));
          return nullptr;
        }
      }
  // def.json's FP8 conversion settings (memory-and-numerics.md §8.2) and the activation-function sets, parsed once.
  run->basis_ = basis != nullptr && basis->neff == &neff ? std::move(basis) : RunBasis::make(neff);
  const RunBasis::Fp8Settings& fp8 = run->basis_->fp8;
  options.convert.ocp_sat = fp8.ocp_sat.value_or(options.convert.ocp_sat);
  options.convert.sis = fp8.sis.value_or(options.convert.sis);
  options.convert.sns = fp8.sns.value_or(options.convert.sns);
  options.convert.fp8_range_extension = fp8.range_extension.value_or(options.convert.fp8_range_extension);
  options.neff_mode = true;
  run->machine_ = std::make_unique<Machine>(run->gen_, std::move(programs), options);
  for (size_t c = 0; c < run->views_.size(); ++c) run->machine_->core(c).state().dram = &run->views_[c];
  for (size_t c = 0; c < run->basis_->act_catalogs.size() && c < run->views_.size(); ++c)
    run->machine_->core(c).state().act_catalog = run->basis_->act_catalogs[c].get();
  return run;
}

std::shared_ptr<const RunBasis> RunBasis::make(const Neff& neff) {
  auto b = std::make_shared<RunBasis>();
  b->neff = &neff;
  for (size_t c = 0; c < neff.subgraphs.size(); ++c) {
    const Subgraph& sg = neff.subgraphs[c];
    b->act_catalogs.push_back(std::make_shared<const act::SetCatalog>(activation_sets(neff, sg)));
    if (c != 0) continue;
    // def.json: the FP8 conversion settings the runtime programs (the first subgraph's).
    const nlohmann::json def = definition(neff, sg);
    if (!def.is_object()) continue;
    if (const auto cfg = def.find("fp8_conversion_config"); cfg != def.end() && cfg->is_object()) {
      const auto setting = [&](const char* key) -> std::optional<bool> {
        const auto it = cfg->find(key);
        return it != cfg->end() && it->is_boolean() ? std::optional<bool>(it->get<bool>()) : std::nullopt;
      };
      b->fp8 = {setting("ocp_sat"), setting("fp8_sis"), setting("fp8_sns"), setting("fp8_range_extension")};
    }
  }
  return b;
}

}  // namespace tpbisa::neff
