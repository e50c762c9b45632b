// The sparse Neuron memory and the (partition, offset) view of its SBUF/PSUM region.
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>

#include "tpbisa/state.hpp"

namespace tpbisa {

namespace {

/// Fresh zeroed memory of `bytes` (a multiple of 4 KiB), aligned to `align` (a power of two, at least 4 KiB), or
/// nullptr.
void* map_chunk(size_t bytes, size_t align) {
  const size_t extra = align > 4096 ? align : 0;
  void* raw = mmap(nullptr, bytes + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  auto* base = static_cast<std::byte*>(raw);
  if (extra != 0) {  // keep the aligned `bytes` and give the rest back
    const uintptr_t at = reinterpret_cast<uintptr_t>(raw);
    const size_t head = static_cast<size_t>(((at + align - 1) & ~(uintptr_t{align} - 1)) - at);
    if (head != 0) munmap(raw, head);
    if (extra - head != 0) munmap(base + head + bytes, extra - head);
    base += head;
  }
  return base;
}

constexpr size_t kHugePage = size_t{2} << 20;

// Under AddressSanitizer each page is a heap allocation of its own, so that the sanitizer sees every page's bounds
// (mapped chunks are invisible to it).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kPagePerAllocation = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kPagePerAllocation = true;
#else
constexpr bool kPagePerAllocation = false;
#endif
#else
constexpr bool kPagePerAllocation = false;
#endif

/// A kept block given back for good: unmapped, or under AddressSanitizer (where blocks are heap allocations) deleted.
void release_block(void* p, size_t bytes) noexcept {
  if constexpr (kPagePerAllocation)
    ::operator delete (p, std::align_val_t{64});
  else
    munmap(p, bytes);
}

/// The mapped blocks given back (huge-advised ones, the buffers' blocks under 2 MiB and the page chunks, all mapped
/// the same way, so that a block of one kind may serve as one of another of its size), kept for the next ones of the
/// same size: a process that runs programs one after another (the Python package,
/// a benchmark) then writes memory it has touched before instead of taking a fault and a zeroed page from the kernel
/// for every 4 KiB or 2 MiB again. At most kHeldBytes are kept; the oldest go first.
class MapCache {
 public:
  static constexpr size_t kHeldBytes = size_t{256} << 20;
  void* take(size_t bytes) noexcept {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = count_; i-- > 0;)
      if (blocks_[i].bytes == bytes) {
        void* p = blocks_[i].base;
        held_ -= bytes;
        std::copy(blocks_ + i + 1, blocks_ + count_, blocks_ + i);
        --count_;
        return p;
      }
    return nullptr;
  }
  /// Keeps the block, or releases it (and any older ones in the way) when it does not fit.
  void give(void* p, size_t bytes) noexcept {
    if (bytes > kHeldBytes) {
      release_block(p, bytes);
      return;
    }
    const std::lock_guard<std::mutex> lock(mutex_);
    while (count_ > 0 && (held_ + bytes > kHeldBytes || count_ == kBlocks)) {
      release_block(blocks_[0].base, blocks_[0].bytes);
      held_ -= blocks_[0].bytes;
      std::copy(blocks_ + 1, blocks_ + count_, blocks_);
      --count_;
    }
    blocks_[count_++] = {p, bytes};
    held_ += bytes;
  }

 private:
  struct Block {
    void* base;
    size_t bytes;
  };
  static constexpr size_t kBlocks = 128;  // a fixed table: giving back never allocates
  std::mutex mutex_;
  Block blocks_[kBlocks] = {};
  size_t count_ = 0, held_ = 0;
};

MapCache& map_cache() {
  // Never destroyed: a memory released by another static object's destructor at exit still finds it.
  static MapCache* const cache = new MapCache;
  return *cache;
}

}  // namespace

namespace detail {

void* map_huge_advised(size_t bytes) noexcept {
  // Under AddressSanitizer a block is a heap allocation (the sanitizer sees its bounds), kept all the same: a fresh
  // one of megabytes is new mapped memory there, which the many short machines of the unit suite would fault in.
  if (void* kept = map_cache().take(bytes)) return kept;
  if constexpr (kPagePerAllocation) return ::operator new (bytes, std::align_val_t{64}, std::nothrow);
  if (bytes < kHugePage) return map_chunk(bytes, 4096);  // a block under 2 MiB: kept, never huge
  void* p = map_chunk(bytes, kHugePage);
  if (p != nullptr) madvise(p, bytes, MADV_HUGEPAGE);  // advice: its failure leaves ordinary memory
  return p;
}

void unmap_huge_advised(void* p, size_t bytes) noexcept {
  if (p == nullptr) return;
  map_cache().give(p, bytes);
}

}  // namespace detail

SparseMemory::PageArena::PageArena(PageArena&& other) noexcept
    : chunks_(std::move(other.chunks_)), next_(other.next_), left_(other.left_), mapped_(other.mapped_) {
  other.chunks_.clear();
  other.next_ = nullptr;
  other.left_ = 0;
  other.mapped_ = 0;
}

SparseMemory::PageArena& SparseMemory::PageArena::operator=(PageArena&& other) noexcept {
  if (this != &other) {
    release();
    chunks_ = std::move(other.chunks_);
    next_ = other.next_;
    left_ = other.left_;
    mapped_ = other.mapped_;
    other.chunks_.clear();
    other.next_ = nullptr;
    other.left_ = 0;
    other.mapped_ = 0;
  }
  return *this;
}

SparseMemory::PageArena::~PageArena() {
  release();
}

void SparseMemory::PageArena::release() noexcept {
  for (const Chunk& c : chunks_) {
    if constexpr (kPagePerAllocation)
      ::operator delete (c.base, std::align_val_t{alignof(Page)});
    else
      map_cache().give(c.base, c.bytes);  // a chunk of under 2 MiB, or a huge-advised one: either is kept by size
  }
  chunks_.clear();
}

SparseMemory::Page* SparseMemory::PageArena::make(uint8_t* bytes) {
  static_assert(alignof(Page) <= 64 && sizeof(Page) % alignof(Page) == 0 && kPageBytes % alignof(Page) == 0);
  // A page of the dense region is its header; any other stores its bytes after it.
  const size_t size = sizeof(Page) + (bytes == nullptr ? kPageBytes : 0);
  if constexpr (kPagePerAllocation) {
    chunks_.reserve(chunks_.size() + 1);
    void* raw = ::operator new (size, std::align_val_t{alignof(Page)}, std::nothrow);
    if (raw == nullptr) return nullptr;
    chunks_.push_back({raw, size});
    Page* p = ::new (raw) Page();
    p->bytes = bytes != nullptr ? bytes : reinterpret_cast<uint8_t*>(p + 1);
    return p;
  }
  if (left_ < size) {
    // Chunks double from 64 KiB until kHugeChunkBytes are mapped (a small program maps little), then are 4 MiB on
    // 2 MiB boundaries with huge pages advised. The advice is only that: where the system has none to give, or
    // transparent huge pages are off, the chunk is ordinary memory.
    const bool huge = mapped_ >= kHugeChunkBytes;
    const size_t chunk = huge ? 2 * kHugeChunkBytes : std::max<size_t>(size_t{64} << 10, mapped_);
    chunks_.reserve(chunks_.size() + 1);  // the one step that may throw, before anything is mapped
    void* base = huge ? detail::map_huge_advised(chunk) : map_cache().take(chunk);
    if (base == nullptr && !huge) base = map_chunk(chunk, 4096);
    if (base == nullptr) return nullptr;
    chunks_.push_back({base, chunk});
    next_ = static_cast<std::byte*>(base);
    left_ = chunk;
    mapped_ += chunk;
  }
  // The header is value-initialised (the chunk may be one given back earlier, not zero); the bytes are left as
  // they are, as nothing reads a byte not written.
  Page* p = ::new (next_) Page();
  p->bytes = bytes != nullptr ? bytes : reinterpret_cast<uint8_t*>(p + 1);
  next_ += size;
  left_ -= size;
  return p;
}

SparseMemory::Page* SparseMemory::PageArena::copy(const Page& page, uint8_t* bytes) {
  Page* p = make(bytes);
  if (p == nullptr) return nullptr;
  p->written = page.written;
  p->full_words = page.full_words;
  std::memcpy(p->bytes, page.bytes, kPageBytes);
  return p;
}

SparseMemory::SparseMemory(const SparseMemory& other) : low_pages_(other.low_pages_), max_bytes_(other.max_bytes_) {
  const auto copy_of = [this](const Page& page, uint8_t* bytes) {
    Page* p = arena_.copy(page, bytes);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  };
  for (const auto& [page, data] : other.pages_) pages_.emplace(page, copy_of(*data, nullptr));
  if (!other.low_.empty()) {
    low_.resize(other.low_.size(), nullptr);
    for (size_t i = 0; i < low_.size(); ++i)
      if (other.low_[i] != nullptr) {
        uint8_t* bytes = dense_bytes(i);
        if (bytes == nullptr) throw std::bad_alloc();
        low_[i] = copy_of(*other.low_[i], bytes);
      }
  }
}

uint8_t* SparseMemory::dense_bytes(uint64_t page) {
  constexpr uint64_t kPagesPerBlock = kDenseBlockBytes / kPageBytes;
  Block& block = blocks_[page / kPagesPerBlock];
  if (!block) block.reset(static_cast<uint8_t*>(detail::map_huge_advised(kDenseBlockBytes)));
  return block ? block.get() + page % kPagesPerBlock * kPageBytes : nullptr;
}

const uint8_t* SparseMemory::written_run(uint64_t address, uint64_t n) const {
  const uint64_t last = address + n - 1;
  if (last < address || last >= kDenseLimit || address / kDenseBlockBytes != last / kDenseBlockBytes) return nullptr;
  for (uint64_t a = address; a <= last;) {
    const size_t at = a % kPageBytes;
    const size_t take = static_cast<size_t>(std::min<uint64_t>(kPageBytes - at, last - a + 1));
    const Page* p = find(a / kPageBytes);
    if (p == nullptr || !p->all_written(at, take)) return nullptr;
    a += take;
  }
  return find(address / kPageBytes)->bytes + address % kPageBytes;  // the block's bytes are contiguous
}

uint8_t* SparseMemory::claim_run(uint64_t address, uint64_t n) {
  const uint64_t last = address + n - 1;
  if (last < address || last >= kDenseLimit || address / kDenseBlockBytes != last / kDenseBlockBytes) return nullptr;
  if (!pages_present(address, n)) return nullptr;
  for (uint64_t a = address; a <= last;) {
    const size_t at = a % kPageBytes;
    const size_t take = static_cast<size_t>(std::min<uint64_t>(kPageBytes - at, last - a + 1));
    low_[a / kPageBytes]->mark_written(at, take);
    a += take;
  }
  return low_[address / kPageBytes]->bytes + address % kPageBytes;
}

SparseMemory& SparseMemory::operator=(const SparseMemory& other) {
  if (this != &other) {
    SparseMemory copy(other);
    *this = std::move(copy);
  }
  return *this;
}

SparseMemory::Page* SparseMemory::slot_for_write(uint64_t page) {
  const auto fresh = [this](uint8_t* bytes) {
    Page* p = arena_.make(bytes);
    if (p == nullptr) throw std::bad_alloc();  // as the heap allocation it replaces
    return p;
  };
  if (page < kDenseLimit / kPageBytes) {
    if (low_.empty()) low_.resize(kDenseLimit / kPageBytes, nullptr);
    Page*& slot = low_[page];
    if (slot == nullptr) {
      uint8_t* bytes = dense_bytes(page);
      if (bytes == nullptr) throw std::bad_alloc();
      slot = fresh(bytes);
      ++low_pages_;
    }
    return slot;
  }
  Page*& slot = pages_[page];
  if (slot == nullptr) slot = fresh(nullptr);
  return slot;
}

uint64_t SparseMemory::read(uint64_t address, unsigned n, bool* initialized) const {
  uint64_t value = 0;
  bool all = true;
  const size_t at = address % kPageBytes;
  if (at + n <= kPageBytes) {  // one page: one look-up, the written bits tested as one mask
    const Page* p = find(address / kPageBytes);
    if (p == nullptr) {
      all = false;
    } else if (p->all_written(at, n)) {
      for (unsigned i = 0; i < n; ++i) value |= uint64_t{p->bytes[at + i]} << (8 * i);
    } else {
      all = false;
      for (unsigned i = 0; i < n; ++i)
        if (p->is_written(at + i)) value |= uint64_t{p->bytes[at + i]} << (8 * i);
    }
  } else {
    for (unsigned i = 0; i < n; ++i) {
      const uint64_t a = address + i;  // wraps modulo 2^64 like the address generator
      const Page* p = find(a / kPageBytes);
      const bool w = p != nullptr && p->is_written(a % kPageBytes);
      all = all && w;
      if (w) value |= uint64_t{p->bytes[a % kPageBytes]} << (8 * i);
    }
  }
  if (initialized != nullptr) *initialized = all;
  return value;
}

uint64_t SparseMemory::new_bytes_for(uint64_t address, uint64_t n) const {
  uint64_t bytes = 0;
  const uint64_t last = address + (n == 0 ? 0 : n - 1);
  for (uint64_t page = address / kPageBytes;; ++page) {
    if (find(page) == nullptr) bytes += kPageBytes;
    if (page == last / kPageBytes) break;
  }
  return bytes;
}

bool SparseMemory::write(uint64_t address, unsigned n, uint64_t value) {
  if (n == 0) return allocated_bytes() + new_bytes_for(address, 0) <= max_bytes_;  // as before: nothing written
  const size_t at = address % kPageBytes;
  if (at + n <= kPageBytes) {  // one page: one look-up and one mask for the written bits
    const uint64_t page_number = address / kPageBytes;
    if (find(page_number) == nullptr && allocated_bytes() + kPageBytes > max_bytes_) return false;
    Page* page = slot_for_write(page_number);
    for (unsigned i = 0; i < n; ++i) page->bytes[at + i] = static_cast<uint8_t>(value >> (8 * i));
    page->mark_written(at, n);
    return true;
  }
  if (allocated_bytes() + new_bytes_for(address, n) > max_bytes_) return false;
  Page* page = nullptr;
  uint64_t page_number = ~uint64_t{0};
  for (unsigned i = 0; i < n; ++i) {
    const uint64_t a = address + i;
    if (a / kPageBytes != page_number) {  // look the page up once per page touched
      page_number = a / kPageBytes;
      page = slot_for_write(page_number);
    }
    page->bytes[a % kPageBytes] = static_cast<uint8_t>(value >> (8 * i));
    page->mark_written(a % kPageBytes, 1);
  }
  return true;
}

bool SparseMemory::initialized(uint64_t address, uint64_t n) const {
  for (uint64_t i = 0; i < n; ++i) {
    const Page* p = find((address + i) / kPageBytes);
    if (p == nullptr || !p->is_written((address + i) % kPageBytes)) return false;
  }
  return true;
}

bool SparseMemory::any_written(uint64_t address, uint64_t n) const {
  while (n != 0) {
    const uint64_t at = address % kPageBytes, len = std::min<uint64_t>(n, kPageBytes - at);
    if (const Page* p = find(address / kPageBytes)) {
      const size_t first = at / 64, last = (at + len - 1) / 64;
      for (size_t w = first; w <= last; ++w) {
        uint64_t mask = ~uint64_t{0};
        if (w == first) mask &= ~uint64_t{0} << (at % 64);
        if (w == last) mask &= ~uint64_t{0} >> (63 - (at + len - 1) % 64);
        if ((p->written[w] & mask) != 0) return true;
      }
    }
    address += len;
    n -= len;
  }
  return false;
}

void SparseMemory::Page::mark_written(size_t at, size_t n) {
  if (n == 0) return;
  const size_t first = at / 64, last = (at + n - 1) / 64;
  const uint64_t head = ~uint64_t{0} << (at % 64);
  const uint64_t tail = ~uint64_t{0} >> (63 - (at + n - 1) % 64);
  // full_words is read or written only when a word becomes all ones or the run is longer than one word, so an
  // element's write touches no further line.
  auto edge = [&](size_t w, uint64_t mask) {
    const uint64_t was = written[w];
    if ((was | mask) == was) return;
    written[w] = was | mask;
    if ((was | mask) == ~uint64_t{0}) full_words |= uint64_t{1} << w;
  };
  if (first == last) {
    edge(first, head & tail);
    return;
  }
  if (full_words == ~uint64_t{0}) return;
  edge(first, head);
  for (size_t w = first + 1; w < last; ++w) written[w] = ~uint64_t{0};
  if (last - first > 1) full_words |= bit_range(first + 1, last - 1);
  edge(last, tail);
}

bool SparseMemory::read_block(uint64_t address, uint64_t n, uint8_t* out) const {
  bool all = true;
  while (n != 0) {
    const size_t at = address % kPageBytes;
    const size_t take = static_cast<size_t>(std::min<uint64_t>(kPageBytes - at, n));
    const Page* p = find(address / kPageBytes);
    if (p == nullptr) {
      std::memset(out, 0, take);
      all = false;
    } else if (p->all_written(at, take)) {
      std::memcpy(out, p->bytes + at, take);
    } else {
      all = false;
      for (size_t i = 0; i < take; ++i) out[i] = p->is_written(at + i) ? p->bytes[at + i] : 0;
    }
    address += take;
    out += take;
    n -= take;
  }
  return all;
}

bool SparseMemory::write_block(uint64_t address, uint64_t n, const uint8_t* in) {
  if (n == 0) return true;
  // Usually every page exists already (a commit's blocks land where earlier steps wrote): then no page is counted
  // against the limit and none is allocated.
  if (pages_present(address, n)) {
    write_present(address, n, in);
    return true;
  }
  if (allocated_bytes() + new_bytes_for(address, n) > max_bytes_) return false;
  while (n != 0) {
    const size_t at = address % kPageBytes;
    const size_t take = static_cast<size_t>(std::min<uint64_t>(kPageBytes - at, n));
    Page* p = slot_for_write(address / kPageBytes);
    std::memcpy(p->bytes + at, in, take);
    p->mark_written(at, take);
    address += take;
    in += take;
    n -= take;
  }
  return true;
}

bool SparseMemory::make_pages(uint64_t address, uint64_t n) {
  if (n == 0) return true;
  const uint64_t last = address + n - 1;
  if (last < address || allocated_bytes() + new_bytes_for(address, n) > max_bytes_) return false;
  for (uint64_t page = address / kPageBytes; page <= last / kPageBytes; ++page) slot_for_write(page);
  return true;
}

void SparseMemory::write_present(uint64_t address, uint64_t n, const uint8_t* in) {
  while (n != 0) {
    const size_t at = address % kPageBytes;
    const size_t take = static_cast<size_t>(std::min<uint64_t>(kPageBytes - at, n));
    // find() of this (non-const) memory's page: the page itself is not const.
    Page* p = const_cast<Page*>(find(address / kPageBytes));
    std::memcpy(p->bytes + at, in, take);
    p->mark_written(at, take);
    address += take;
    in += take;
    n -= take;
  }
}

std::optional<uint64_t> sbuf_address(Generation g, uint32_t partition, uint32_t offset) {
  const Geometry& geo = geometry(g);
  if (partition >= geo.sbuf_partitions || offset >= geo.sbuf_partition_active) return std::nullopt;
  return uint64_t{geo.sbuf_offset} + uint64_t{partition} * geo.sbuf_partition_size + offset;
}

std::optional<uint64_t> psum_address(Generation g, uint32_t partition, uint32_t offset) {
  const Geometry& geo = geometry(g);
  if (geo.psum_size == 0 || partition >= geo.psum_partitions || offset >= geo.psum_partition_active)
    return std::nullopt;
  return uint64_t{geo.psum_offset} + uint64_t{partition} * geo.psum_partition_size + offset;
}

}  // namespace tpbisa
