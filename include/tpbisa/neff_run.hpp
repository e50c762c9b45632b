// Running a whole NEFF on the functional machine: one core per subgraph, DRAM variables (PROJ-CONV-X5/X8),
// inputs bound to the signature, outputs read back.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tpbisa/machine.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/npy.hpp"

namespace tpbisa::act {
class SetCatalog;  // src/families/act/tables.hpp
}  // namespace tpbisa::act

namespace tpbisa::neff {

/// One input's element bytes, row-major in the signature's dtype (a mapped .npy's data, never copied). The
/// bytes must outlive the Run.
struct RunInput {
  std::string name;
  std::span<const uint8_t> bytes;
};

/// The .npy dtype strings accepted for a signature dtype ("float16" → "<f2"; bfloat16 as raw "<u2"; FP8 as raw
/// "|u1"/"|i1"); empty when the dtype is unknown.
std::vector<std::string> npy_descrs_for(const std::string& signature_dtype);
/// Element size of a signature dtype in bytes, 0 when unknown.
unsigned signature_dtype_size(const std::string& signature_dtype);
/// A shape as Python writes a tuple: "(8, 16)", "(3,)", "()".
std::string shape_text(std::span<const uint64_t> shape);
/// Checks an .npy header against a signature tensor: nullopt when it matches, else one sentence naming the
/// expected dtype and shape and what the file has.
std::optional<std::string> check_npy(const Tensor& t, const npy::Array& a);

/// The host bytes a core of a NEFF run with `words` words in its streams is counted for: its state (every engine's
/// registers and unit state), its on-chip page table, its effect log and its decoded words.
uint64_t core_state_bytes(size_t words);
/// What a run of `neff` sets aside before its first step, against `limit` (MachineOptions::max_memory, --max-memory):
/// each core's state, its variable table, every output and tmp-buf buffer (once per name, PROJ-CONV-X5) and each
/// core's virtual scratch (X8), the last two with their written-byte maps. Inputs are mapped and constants viewed,
/// never counted. nullopt when it fits, else one sentence naming the core or variable that passes the limit.
std::optional<std::string> check_run_memory(const Neff& neff, uint64_t limit);

/// `n` zero bytes of memory. Up to 16 MiB, memory kept from the process's earlier runs, zeroed (an output or its
/// written-byte map, which a run fills); larger, anonymous memory resident only where written: a 4 GiB scratch of which
/// a program touches a few rows costs those rows (PROJ-CONV-X8).
class ZeroPages {
 public:
  ZeroPages() = default;
  ~ZeroPages();
  ZeroPages(const ZeroPages&) = delete;
  ZeroPages& operator=(const ZeroPages&) = delete;
  ZeroPages(ZeroPages&& other) noexcept;
  ZeroPages& operator=(ZeroPages&& other) noexcept;
  /// Maps `n` bytes (none for 0); false, errno set, when it cannot.
  bool map(uint64_t n);
  uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }

 private:
  void release() noexcept;
  uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  size_t kept_bytes_ = 0;  ///< the kept block's size, when it is one (else the mapping is unmapped)
};

/// What every run of a NEFF reads the same from its members, parsed once: per subgraph its activation-function sets
/// (act-index-ops.md §3.4) and def.json's FP8 settings. A process that runs one program many
/// times (the Python package's Neff.run) keeps one and hands it to each Run; the NEFF must outlive it.
class RunBasis {
 public:
  static std::shared_ptr<const RunBasis> make(const Neff& neff);

  /// def.json `fp8_conversion_config` of the first subgraph, which every subgraph of a compiled program repeats:
  /// each setting it gives, or nullopt.
  struct Fp8Settings {
    std::optional<bool> ocp_sat, sis, sns, range_extension;
  };

  const Neff* neff = nullptr;  ///< what it was made from (Run::create checks it is handed the same)
  std::vector<std::shared_ptr<const act::SetCatalog>> act_catalogs;  ///< per subgraph
  Fp8Settings fp8;
};

/// A NEFF loaded on a Machine: the cores, their DRAM views and the variable buffers the run owns (outputs,
/// scratch). The Neff and the input bytes must outlive it.
class Run {
 public:
  /// Builds the machine for `neff` with `inputs` bound by name (every signature input exactly once, sizes
  /// checked); `options` are used with neff_mode on. Before anything is allocated it checks that every output of
  /// the signature has a variable holding its bytes and that the run fits options.max_memory (check_run_memory).
  /// Returns nullptr and sets `error` when it cannot. `basis` (RunBasis::make of the same NEFF, or null: made here)
  /// saves parsing the members again.
  static std::unique_ptr<Run> create(const Neff& neff, std::span<const RunInput> inputs, MachineOptions options,
                                     std::string& error, std::shared_ptr<const RunBasis> basis = nullptr);

  Machine& machine() { return *machine_; }
  const Machine& machine() const { return *machine_; }
  Generation gen() const { return gen_; }
  /// The bytes of the output variable `name` (row-major, the signature's dtype); empty when there is none.
  std::span<const uint8_t> output(const std::string& name) const;
  /// Hands the buffer of the output variable `name` to the caller (an empty ZeroPages when there is none): a caller
  /// that keeps the bytes past the run (the Python package's result arrays) then takes them without a copy into fresh
  /// memory. Afterwards the run's machine must not step again and output(name) is empty.
  ZeroPages take_output(const std::string& name);
  /// The DRAM view of core i (its variables and DMA counters).
  const DramView& dram(size_t core) const { return views_[core]; }
  /// The subgraph name of core i ("sg00").
  const std::string& subgraph(size_t core) const { return subgraphs_[core]; }
  /// The stream label of engine e of core i ("sg00/PE"), as the NEFF names it.
  std::string stream_label(size_t core, EngineId e) const;
  /// The FP8 conversion settings taken from def.json `fp8_conversion_config` (the machine runs with them).
  const ConvertOptions& conversion() const { return machine_->options().convert; }
  /// One line per runtime-reserved SBUF range (def.json `runtime_statebuffer_reservation`) the program wrote:
  /// "core 0: SBUF partition 3 bytes 0x37ff8..0x37fff (evtaccel) written". Empty when it left them alone.
  std::vector<std::string> reservation_violations() const;

  /// Follows a retired step's DMA ranges (StepResult::dram_ranges) to count reads of DRAM bytes of an output,
  /// tmp-buf or virtual variable that nothing has written yet (they read as 0): "silently zero" is never
  /// silent. Thread-safe (the cores of --threads call it concurrently).
  void note_step(const StepResult& step);
  /// Unwritten DRAM bytes read, per (stream label, variable name).
  std::map<std::pair<std::string, std::string>, uint64_t> uninitialized_dram_reads() const;

 private:
  Run() = default;
  Generation gen_ = kDefaultGeneration;
  std::map<std::string, ZeroPages> shared_;  ///< writable DRAM variables shared by name (X5)
  std::vector<ZeroPages> scratch_;           ///< per core: the virtual variables' buffer (X8)
  std::vector<DramView> views_;              ///< per core; the cores point at these
  /// The activation-function sets (the cores point at them) and the NEFF whose reservations are checked.
  std::shared_ptr<const RunBasis> basis_;
  std::vector<std::string> subgraphs_;
  struct Tracked {
    std::string name;
    uint64_t size = 0;
    ZeroPages written;  ///< bit b % 64 of word b / 64: byte b has been written (word-wise updates)
    uint64_t* words() const { return reinterpret_cast<uint64_t*>(written.data()); }  // NOLINT: page-aligned words
  };
  std::map<const uint8_t*, Tracked> tracked_;  ///< writable DRAM variables by first byte
  std::map<std::pair<std::string, std::string>, uint64_t> uninit_dram_;
  std::unique_ptr<std::mutex> tracking_lock_ = std::make_unique<std::mutex>();
  std::unique_ptr<Machine> machine_;
};

/// One access of a conflicting pair: the word (core, engine, index) and whether it wrote.
struct RaceAccess {
  unsigned core = 0;
  EngineId engine = EngineId::Pe;
  size_t index = 0;
  bool write = false;
};

/// Two accesses of one location by different engines, at least one a write, with no happens-before order.
/// `earlier` is the access whose word comes first in stream order (core, then engine PE, ACT, POOL, DVE, SP,
/// then index), whichever ran first.
/// Where a race is: the lowest location its two words conflict on, and how many bytes from there on they conflict
/// on without a gap (inside one partition or one variable).
struct RaceLocation {
  enum class Memory : uint8_t { Sbuf, Psum, Dev, Dram };
  Memory memory = Memory::Sbuf;
  unsigned core = 0;       ///< sbuf, psum, dev: the core whose memory it is
  uint32_t partition = 0;  ///< sbuf, psum
  std::string variable;    ///< dram: the DRAM variable holding it (empty: none does)
  uint64_t offset = 0;     ///< sbuf, psum: byte in the partition; dram: in the variable (or address); dev: address
  uint64_t bytes = 0;      ///< the conflicting bytes from `offset` on
};

struct Race {
  RaceAccess earlier, later;
  std::string location;  ///< "sbuf[p3]+0x4000 (core 0)", "output0+0x80", ...: `where` as the text report prints it
  RaceLocation where;
};

/// The happens-before check of `tpbisa run --check-races`: program order within an engine, semaphore update →
/// the wait it satisfies (PROJ-CONV-P4: a passing wait is ordered after the update that made its condition hold and
/// the updates since the last set that moved the semaphore its way, not after every earlier update), DMA
/// completion (synchronous: the completion is the issuing word's own update). Every access of a 2-byte location is
/// kept (once per engine, word and read/write) until every engine still running is ordered after it, so every
/// unordered conflicting pair is found, whatever the schedule (bounds in docs/robustness.md). Every retired step
/// must be observed, with its effects recorded completely (MachineOptions::record_effects,
/// max_recorded_effects = SIZE_MAX). Cores past the third are not checked.
class RaceChecker {
 public:
  explicit RaceChecker(const Run& run);
  ~RaceChecker();
  RaceChecker(const RaceChecker&) = delete;
  RaceChecker& operator=(const RaceChecker&) = delete;
  void observe(const StepResult& step);
  /// The first `max_reported` races in stream order of their two words, one per pair of words: of its
  /// locations and read/write combinations, the lowest location (on-chip by core and address, then DRAM by
  /// variable name and offset). The Run must still exist.
  const std::vector<Race>& races() const;
  /// The conflicting unordered accesses found: each 2-byte location once per pair of accesses (word and read or
  /// write on each side).
  uint64_t count() const { return count_; }
  /// The pairs of words that race (each pair once, whatever its locations and read/write combinations): what
  /// races() lists, unbounded by max_reported.
  uint64_t word_pairs() const;
  /// Empty, or why the check is incomplete: a bound of docs/robustness.md was reached, so pairs may be missing
  /// (the count is then a lower bound) or a wait may have been ordered after less than it acquired.
  std::string incomplete() const;
  /// What the check holds now (the bounds of docs/robustness.md): accesses in the shadow, semaphore updates in the
  /// histories, racing pairs of accesses.
  struct Kept {
    uint64_t accesses = 0, updates = 0, pairs = 0;
  };
  Kept kept() const;
  static constexpr size_t max_reported = 50;

 private:
  struct Impl;
  const Run& run_;
  std::unique_ptr<Impl> impl_;
  mutable std::vector<Race> races_;
  mutable uint64_t word_pairs_ = 0;
  uint64_t count_ = 0;
};

}  // namespace tpbisa::neff
