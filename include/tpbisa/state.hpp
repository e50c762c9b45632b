// Machine state by owner: a core's state (memory, semaphores, events) and an engine's (registers, unit state).
#pragma once

#include <array>
#include <bit>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tpbisa/address.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/generation.hpp"

namespace tpbisa::act {
class TableSet;  // src/families/act/tables.hpp
class SetCatalog;
}  // namespace tpbisa::act

namespace tpbisa {

namespace detail {
/// Memory of `bytes` (a multiple of 4 KiB). From 2 MiB on it lies on a 2 MiB boundary with transparent huge pages
/// advised, so that filling it costs one fault per 2 MiB instead of one per 4 KiB (about 2 µs each on a virtual
/// machine); where the system has no huge page to give, or they are off, it is ordinary memory. Not necessarily zero: a
/// block of the same size given back earlier in the process (up to 256 MiB of them are kept) is reused, already
/// resident. nullptr when the system refuses.
void* map_huge_advised(size_t bytes) noexcept;
void unmap_huge_advised(void* p, size_t bytes) noexcept;

/// std::allocator, except that blocks of kFrom bytes or more come from map_huge_advised (under 2 MiB rounded up to
/// a power of two, from 2 MiB to a multiple of 2 MiB): for the buffers that keep their high-water size (the staged
/// bytes of a step, the executors' scratch), which a large row fills from fresh memory once, and which a process that
/// runs program after program (the Python package) then finds already resident instead of faulting them in again.
template <class T>
struct HugeAdvisedAllocator {
  using value_type = T;
  static constexpr size_t kFrom = size_t{64} << 10;
  static constexpr size_t kRound = size_t{2} << 20;
  HugeAdvisedAllocator() = default;
  template <class U>
  explicit HugeAdvisedAllocator(const HugeAdvisedAllocator<U>&) noexcept {}
  static size_t mapped_bytes(size_t n) {
    const size_t bytes = n * sizeof(T);
    return bytes < kRound ? std::bit_ceil(bytes) : (bytes + kRound - 1) / kRound * kRound;
  }
  T* allocate(size_t n) {
    if (n * sizeof(T) < kFrom) return std::allocator<T>().allocate(n);
    void* p = map_huge_advised(mapped_bytes(n));
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) noexcept {
    if (n * sizeof(T) < kFrom) {
      std::allocator<T>().deallocate(p, n);
      return;
    }
    unmap_huge_advised(p, mapped_bytes(n));
  }
  /// A resize default-initialises (leaves bytes as they are) rather than zero-fills: every user writes the bytes it
  /// grows by before reading them, and zero-filling a staged row of megabytes costs as much as writing it.
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <class U>
  bool operator==(const HugeAdvisedAllocator<U>&) const noexcept {
    return true;
  }
};
}  // namespace detail

/// A sparse, byte-addressed 64-bit space. Pages are allocated on first write; never-written bytes read
/// as 0 and are reported as uninitialised. Following PROJ-CONV-N4, addresses in the low SBUF/PSUM region
/// are the same bytes as the on-chip arrays.
class SparseMemory {
 public:
  static constexpr uint64_t kPageBytes = 4096;

  explicit SparseMemory(uint64_t max_bytes = uint64_t{1} << 30) : max_bytes_(max_bytes) {}
  /// Copies are deep (snapshots of a machine must not share pages).
  SparseMemory(const SparseMemory& other);
  SparseMemory& operator=(const SparseMemory& other);
  SparseMemory(SparseMemory&&) noexcept = default;
  SparseMemory& operator=(SparseMemory&&) noexcept = default;
  ~SparseMemory() = default;

  /// Reads `n` bytes (n <= 8) little-endian; `initialized` tells whether every byte had been written.
  uint64_t read(uint64_t address, unsigned n, bool* initialized = nullptr) const;
  /// Writes the low `n` bytes (n <= 8) of `value` little-endian. Fails (returns false, writes nothing)
  /// when the pages it needs would exceed the memory limit.
  bool write(uint64_t address, unsigned n, uint64_t value);
  /// Bytes of new pages that writing [address, address + n) would allocate.
  uint64_t new_bytes_for(uint64_t address, uint64_t n) const;
  /// True when every byte in [address, address + n) has been written.
  bool initialized(uint64_t address, uint64_t n) const;
  /// True when some byte in [address, address + n) has been written: a page look-up and its bitmap's words, not a
  /// look-up per byte. The range must not wrap past 2^64.
  bool any_written(uint64_t address, uint64_t n) const;
  /// Copies the `n` bytes at `address` to `out` (never-written bytes read as 0), one page look-up per page;
  /// true when every byte had been written. The range must not wrap past 2^64.
  bool read_block(uint64_t address, uint64_t n, uint8_t* out) const;
  /// Writes `n` bytes from `in` at `address`, one page look-up per page. Fails (returns false, writes nothing)
  /// when the pages it needs would exceed the memory limit.
  bool write_block(uint64_t address, uint64_t n, const uint8_t* in);
  /// write_block for a range whose pages all exist (pages_present(address, n) is true: the caller has checked it,
  /// as commit does for every block): no page is counted or allocated.
  void write_present(uint64_t address, uint64_t n, const uint8_t* in);
  /// The stored bytes of [address, address + n) when they lie in one page, or in one block of the dense region, and
  /// have all been written, else nullptr (the caller then reads through read_block). Valid until the next write.
  const uint8_t* written_span(uint64_t address, uint64_t n) const;
  /// True when writing [address, address + n) allocates no page (each page it touches exists already).
  bool pages_present(uint64_t address, uint64_t n) const;
  /// Makes every page [address, address + n) touches, nothing written in them (they read as before); false, nothing
  /// made, when the range wraps past 2^64 or the pages would exceed the memory limit.
  bool make_pages(uint64_t address, uint64_t n);
  /// The stored bytes of [address, address + n), marked written, when they lie in one page that exists, or in one
  /// block of the dense region whose pages all exist; else nullptr, nothing marked. For a writer that then writes
  /// every one of the n bytes before anything reads them (the executors' in-place runs).
  uint8_t* claim_span(uint64_t address, uint64_t n);

  uint64_t allocated_bytes() const { return (pages_.size() + low_pages_) * kPageBytes; }
  uint64_t max_bytes() const { return max_bytes_; }

  /// Pages below this address (the on-chip SBUF/PSUM region of every generation) are kept in a dense table
  /// indexed by page number, so the executors' element accesses never hash; the rest are in the page map.
  static constexpr uint64_t kDenseLimit = uint64_t{1} << 27;
  /// The dense region's bytes are stored in blocks of this size, each contiguous: a run within one block (an
  /// SBUF/PSUM partition's row: partition strides are powers of two no larger) is read and written in place however
  /// many pages it spans. A block is mapped on its first write.
  static constexpr uint64_t kDenseBlockBytes = uint64_t{2} << 20;

 private:
  struct alignas(64) Page {                           // whole cache lines: a row's copy starts on a line
    std::array<uint64_t, kPageBytes / 64> written{};  ///< bit b of word w: byte 64 w + b has been written
    /// Bit w: word w of `written` has all 64 bits set. A run's whole words are answered from this one word instead
    /// of the eight lines of the bitmap (the executors' runs read and write whole rows).
    uint64_t full_words = 0;
    /// The page's kPageBytes bytes: stored right after this header, or in the dense region's block. A byte not
    /// written is never read (it reads as 0 by its bit), so the bytes are not zeroed when the page is made.
    uint8_t* bytes = nullptr;
    bool is_written(size_t at) const { return (written[at / 64] >> (at % 64) & 1U) != 0; }
    /// True when bytes [at, at + n) of the page have all been written (word-wise).
    bool all_written(size_t at, size_t n) const;
    void mark_written(size_t at, size_t n);
  };
  /// Where the pages live: chunks of fresh mapped memory carved in order, released together with the memory (a page
  /// is never freed alone). Why: a page allocated alone cost a heap allocation and, on a virtual machine, a fault of
  /// about 2 µs for each 4 KiB it first touches; from kHugeChunkBytes of pages on, chunks are 2 MiB-aligned and
  /// advised for transparent huge pages, one fault per 2 MiB (docs/performance.md, "Memory of a run"). Released
  /// chunks are kept for the process's next memories (detail::map_huge_advised), already resident.
  class PageArena {
   public:
    PageArena() = default;
    PageArena(const PageArena&) = delete;
    PageArena& operator=(const PageArena&) = delete;
    PageArena(PageArena&& other) noexcept;
    PageArena& operator=(PageArena&& other) noexcept;
    ~PageArena();
    /// A page with nothing written, its bytes at `bytes` (a page of the dense region) or, for nullptr, stored after
    /// its header; nullptr when the system refuses the memory.
    Page* make(uint8_t* bytes);
    /// A copy of `page`, its bytes at `bytes` as for make(); nullptr when the system refuses the memory.
    Page* copy(const Page& page, uint8_t* bytes);
    /// Chunks up to this total are mapped with the system's page size; those after it with huge pages advised.
    static constexpr size_t kHugeChunkBytes = size_t{2} << 20;

   private:
    void release() noexcept;
    struct Chunk {
      void* base;
      size_t bytes;
    };
    std::vector<Chunk> chunks_;
    std::byte* next_ = nullptr;
    size_t left_ = 0;    ///< bytes left in the newest chunk
    size_t mapped_ = 0;  ///< bytes of every chunk
  };
  /// A block of the dense region's bytes, given back (kept for the process's next memories) with the memory.
  struct BlockRelease {
    void operator()(uint8_t* p) const noexcept { detail::unmap_huge_advised(p, kDenseBlockBytes); }
  };
  using Block = std::unique_ptr<uint8_t, BlockRelease>;
  /// Inline (below): the executors' runs look a page up two or three times per step.
  const Page* find(uint64_t page) const;
  Page* slot_for_write(uint64_t page);
  /// Where the bytes of dense page `page` live, mapping its block on first use (nullptr when refused).
  uint8_t* dense_bytes(uint64_t page);
  /// written_span and claim_span for a run past its first page: within one dense block, else nullptr.
  const uint8_t* written_run(uint64_t address, uint64_t n) const;
  uint8_t* claim_run(uint64_t address, uint64_t n);
  std::array<Block, kDenseLimit / kDenseBlockBytes> blocks_;  // declared before the pages that point into them
  PageArena arena_;                                           // declared before the tables that point into it
  std::unordered_map<uint64_t, Page*> pages_;
  /// Dense table of the pages below kDenseLimit (sized on first use); a kept block, as a process's next machine needs
  /// one of the same size (no fresh zeroed pages from the kernel for it).
  std::vector<Page*, detail::HugeAdvisedAllocator<Page*>> low_;
  uint64_t low_pages_ = 0;  ///< pages allocated in `low_`
  uint64_t max_bytes_;
};

// The look-ups of every run the executors read or stage, inline so that a step does not pay a call for each.
inline const SparseMemory::Page* SparseMemory::find(uint64_t page) const {
  if (page < kDenseLimit / kPageBytes) return page < low_.size() ? low_[page] : nullptr;
  const auto it = pages_.find(page);
  return it == pages_.end() ? nullptr : it->second;
}

/// Bits a..b of a word (a <= b < 64).
constexpr uint64_t bit_range(size_t a, size_t b) {
  return (~uint64_t{0} >> (63 - b)) & (~uint64_t{0} << a);
}

inline bool SparseMemory::Page::all_written(size_t at, size_t n) const {
  static_assert(kPageBytes / 64 == 64, "full_words holds a bit per bitmap word");
  if (n == 0) return true;
  // A run within one bitmap word reads that word alone (an element's access touches no further line); a longer one
  // takes its partial first and last words by mask and the whole words between by their bits in full_words.
  const size_t first = at / 64, last = (at + n - 1) / 64;
  const uint64_t head = ~uint64_t{0} << (at % 64);
  const uint64_t tail = ~uint64_t{0} >> (63 - (at + n - 1) % 64);
  if (first == last) return (written[first] & (head & tail)) == (head & tail);
  if (full_words == ~uint64_t{0}) return true;
  const uint64_t between = last - first > 1 ? bit_range(first + 1, last - 1) : 0;
  return (full_words & between) == between && (written[first] | ~head) == ~uint64_t{0} &&
         (written[last] | ~tail) == ~uint64_t{0};
}

inline const uint8_t* SparseMemory::written_span(uint64_t address, uint64_t n) const {
  const size_t at = address % kPageBytes;
  if (n == 0) return nullptr;
  if (n > kPageBytes - at) return written_run(address, n);
  const Page* p = find(address / kPageBytes);
  return p != nullptr && p->all_written(at, static_cast<size_t>(n)) ? p->bytes + at : nullptr;
}

inline uint8_t* SparseMemory::claim_span(uint64_t address, uint64_t n) {
  const size_t at = address % kPageBytes;
  if (n == 0) return nullptr;
  if (n > kPageBytes - at) return claim_run(address, n);
  Page* p = const_cast<Page*>(find(address / kPageBytes));  // this memory is not const, nor its pages
  if (p == nullptr) return nullptr;
  p->mark_written(at, static_cast<size_t>(n));
  return p->bytes + at;
}

inline bool SparseMemory::pages_present(uint64_t address, uint64_t n) const {
  if (n == 0) return true;
  const uint64_t last = address + n - 1;
  if (last < address) return false;  // wraps: the slow path decides
  for (uint64_t page = address / kPageBytes; page <= last / kPageBytes; ++page)
    if (find(page) == nullptr) return false;
  return true;
}

/// Per-channel DVE state (s2bn.md §4.1): the eight ImmLd scalar flops, the MatchValueLoad keys and the
/// BatchNormParamLoad parameters. Reset 0 with an "unwritten" shadow (PROJ-CONV-S6).
struct DveChannel {
  enum class ImmClass : uint8_t { Unwritten, Arith, Bitvec };
  std::array<uint32_t, 8> imm{};
  std::array<ImmClass, 8> imm_class{};
  std::array<uint32_t, 8> match_key{};  ///< fp32 bits; mv[7 - k] = src[k]
  std::array<bool, 8> match_key_written{};
  std::array<bool, 8> matched{};
  struct BnParams {
    uint32_t n = 0, batch_mean = 0, a = 0, b = 0, c = 0;  ///< fp32 bits
    bool written = false;
  } bn;
  /// The engine's accumulator register of this channel (fp32 bits, reset +0.0): written by the accumulating
  /// instructions, read by DVE_READ_ACCUMULATOR / ACTIVATION_READ_ACCUMULATOR (alu-ops.md §2.6, PROJ-CONV-K12;
  /// act-index-ops.md §2.3). Indexed by channel, like the flops (PROJ-CONV-A9).
  uint32_t acc = 0;
  /// The matched indices MI[0..7] of FIND_INDEX8 / MATCH_REPLACE8 (act-index-ops.md §2.3, §15.3; read by
  /// DVE_READ_INDICES): reset all-ones, the value of a key never matched.
  std::array<uint32_t, 8> match_index = {~0U, ~0U, ~0U, ~0U, ~0U, ~0U, ~0U, ~0U};
};

inline constexpr unsigned kDveChannels = kMaxChannels;  ///< DVE_NUM_CHANNELS, from the geometry table
inline constexpr unsigned kNumEvents = 256;             ///< PROJ-CONV-N6

/// The five sequencers of a core, by engine index (sequencer.md §2): the catalog's engine enum.
using EngineId = Engine;
inline constexpr unsigned kEnginesPerCore = static_cast<unsigned>(kEngines.size());
/// The engine named `text` (case-insensitive: pe, act, pool, dve, sp), or nullopt.
std::optional<EngineId> parse_engine(std::string_view text);

/// The PE array's stationary matrix (real-programs.md §8.3): W[k][m] for k < rows, m < cols, as the element
/// bits LdWeights read (in `dtype`), replaced by each LdWeights and consumed by the Matmuls after it.
struct PeWeights {
  static constexpr unsigned kRows = 128, kCols = 128;
  bool loaded = false;
  uint8_t dtype = 0;
  bool transpose = false;  ///< loaded with transpose_mode 1
  unsigned rows = 0, cols = 0;
  std::array<uint32_t, kRows * kCols> bits{};  ///< W[k][m] at k * kCols + m
};

/// What one engine owns besides its program counter and stream: registers R0..R63 and its unit state
/// (the DVE flops, the PE's stationary weights).
struct EngineState {
  std::array<uint32_t, kNumRegisters> regs{};  ///< R0..R63, reset 0 (PROJ-CONV-N5)
  std::array<DveChannel, kDveChannels> dve{};
  PeWeights pe{};
  /// The 32-byte lane map LOAD_MASK_SELECT writes and STREAM_SHUFFLE reads, one per engine (PROJ-CONV-K8): lane i
  /// of each 32-channel quadrant takes source lane mask[i]; a value >= 32 leaves the lane unmodified. Reset: the
  /// identity map.
  std::array<uint8_t, 32> mask_select = [] {
    std::array<uint8_t, 32> m{};
    for (unsigned i = 0; i < m.size(); ++i) m[i] = static_cast<uint8_t>(i);
    return m;
  }();
  /// ACTSET (act-index-ops.md §2.3): the activation-function set the last table load made resident on this engine,
  /// or none. Owned by the run's set catalog (or the built-in set); persists until the next load.
  const act::TableSet* act_set = nullptr;
};

/// One DRAM variable as a NEFF run addresses it (neff.md §6.2): bytes outside the cores. Inputs and constants
/// are read-only views (an input is mapped from its file, never copied); outputs and scratch are writable.
struct DramVar {
  bool present = false;
  bool state_buffer = false;      ///< var type `state-buffer`: offsets are SBUF PartitionOffsets (§2.4)
  const uint8_t* data = nullptr;  ///< the bytes (nullptr for the state buffer)
  uint8_t* writable = nullptr;    ///< the same bytes when the program may write them, else nullptr
  uint64_t size = 0;
  std::string name;
};

/// One descriptor of an engine JSON's DMA block: `size` bytes from variable `from` at `from_off` to variable `to`
/// at `to_off` (PROJ-CONV-PS4).
struct DmaCopy {
  uint32_t from = 0, to = 0;  ///< var_ids
  uint64_t from_off = 0, to_off = 0, size = 0;
};

/// A DMA queue of one engine in a NEFF run: the blocks of its engine JSON's `dma` list that name it, in block-id
/// order, and the completion its def.json `dma_queue` entry gives. A PSEUDO_DMATRIGGER of the queue fires block
/// `fired` and advances it (PROJ-CONV-PS4).
struct DmaQueue {
  Engine engine = Engine::Pe;
  std::string name;
  std::vector<std::vector<DmaCopy>> blocks;  ///< index = block id
  std::string problem;                       ///< why the queue's blocks cannot run (a descriptor the run cannot use)
  std::optional<uint8_t> semaphore;          ///< raised by `increment` when a block has moved its bytes
  uint32_t increment = 1;
  uint64_t fired = 0;  ///< blocks fired so far
};

/// A core's view of DRAM in a NEFF run: its subgraph's variables by var_id (shared buffers per PROJ-CONV-X5,
/// a private scratch per X8), the dge-table of PROJ-CONV-F12 and the DMA queues of its engines. Counters are the run
/// report's.
struct DramView {
  std::vector<DramVar> vars;        ///< index = var_id
  std::vector<uint32_t> dge_table;  ///< entry i names var_id dge_table[i]
  std::vector<DmaQueue> dma_queues;
  uint64_t dma_bytes = 0;  ///< bytes written by the core's DMAs
  uint64_t dma_transfers = 0;
  const DramVar* var(uint32_t id) const { return id < vars.size() && vars[id].present ? &vars[id] : nullptr; }
};

/// What a core owns and its engines share: the 256 semaphores, the events, and memory. `memory` is the
/// sparse Neuron address space: its low region is this core's SBUF/PSUM (PROJ-CONV-N4), the rest is the
/// device memory outside the cores (one core today, so the two are one map).
struct CoreState {
  explicit CoreState(Generation g, uint64_t max_memory = uint64_t{1} << 30) : gen(g), memory(max_memory) {}
  Generation gen;
  std::array<uint32_t, kNumSemaphores> sems{};  ///< u32, modular (PROJ-CONV-C6)
  std::bitset<kNumEvents> events;               ///< SUNDA..MARIANA event bits (PROJ-CONV-N6)
  SparseMemory memory;
  DramView* dram = nullptr;  ///< a NEFF run: the DRAM variables this core's DMAs address; null otherwise
  uint64_t macs = 0;         ///< multiply-adds done by the core's Matmuls (run report)
  /// A NEFF run: the activation-function sets this core's subgraph embeds, which the table loads select from
  /// (act-index-ops.md §3.4); null otherwise (device mode: a load leaves no set, PROJ-CONV-A6).
  const act::SetCatalog* act_catalog = nullptr;
};

/// One core as one engine sees it: the core's state and that engine's registers and unit state. This is
/// what STATE.json describes and what a single-stream run shows; `Machine::state()` is the live one.
struct MachineState : CoreState, EngineState {
  explicit MachineState(Generation g, uint64_t max_memory = uint64_t{1} << 30) : CoreState(g, max_memory) {}
};

/// The Neuron address of (partition, byte offset) in SBUF or PSUM of generation g; nullopt when the
/// location is outside the partition's backed bytes (or g has no PSUM).
std::optional<uint64_t> sbuf_address(Generation g, uint32_t partition, uint32_t offset);
std::optional<uint64_t> psum_address(Generation g, uint32_t partition, uint32_t offset);

}  // namespace tpbisa
