// The sparse Neuron memory and the (partition, offset) view of its SBUF/PSUM region.
#include <algorithm>
#include <cstring>

#include "tpbisa/state.hpp"

namespace tpbisa {

SparseMemory::SparseMemory(const SparseMemory& other) : low_pages_(other.low_pages_), max_bytes_(other.max_bytes_) {
  for (const auto& [page, data] : other.pages_) pages_.emplace(page, std::make_unique<Page>(*data));
  if (!other.low_.empty()) {
    low_.resize(other.low_.size());
    for (size_t i = 0; i < low_.size(); ++i)
      if (other.low_[i]) low_[i] = std::make_unique<Page>(*other.low_[i]);
  }
}

SparseMemory& SparseMemory::operator=(const SparseMemory& other) {
  if (this != &other) {
    SparseMemory copy(other);
    *this = std::move(copy);
  }
  return *this;
}

SparseMemory::Page* SparseMemory::slot_for_write(uint64_t page) {
  if (page < kDenseLimit / kPageBytes) {
    if (low_.empty()) low_.resize(kDenseLimit / kPageBytes);
    std::unique_ptr<Page>& slot = low_[page];
    if (!slot) {
      slot = std::make_unique<Page>();
      ++low_pages_;
    }
    return slot.get();
  }
  auto& slot = pages_[page];
  if (!slot) slot = std::make_unique<Page>();
  return slot.get();
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
      std::memcpy(out, p->bytes.data() + at, take);
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
    std::memcpy(p->bytes.data() + at, in, take);
    p->mark_written(at, take);
    address += take;
    in += take;
    n -= take;
  }
  return true;
}

void SparseMemory::write_present(uint64_t address, uint64_t n, const uint8_t* in) {
  while (n != 0) {
    const size_t at = address % kPageBytes;
    const size_t take = static_cast<size_t>(std::min<uint64_t>(kPageBytes - at, n));
    // find() of this (non-const) memory's page: the page itself is not const.
    Page* p = const_cast<Page*>(find(address / kPageBytes));
    std::memcpy(p->bytes.data() + at, in, take);
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
