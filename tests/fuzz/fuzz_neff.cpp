// Fuzz target: the NEFF reader on any bytes, as a container and as the plain-tar payload of one; errors only.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "tpbisa/neff.hpp"
#include "tpbisa/npy.hpp"

using namespace tpbisa;

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

neff::ReadOptions small_limits() {
  // Bounds low enough that no input can make a run slow or large; the checks themselves are what is fuzzed.
  neff::ReadOptions o;
  o.max_inflated_bytes = 8 << 20;
  o.max_member_bytes = 4 << 20;
  o.max_members = 512;
  o.max_json_bytes = 1 << 20;
  o.max_json_depth = 64;
  return o;
}

void check(std::span<const uint8_t> file, const neff::ReadOptions& o) {
  neff::Result<neff::Neff> r = neff::read(file, "fuzz.neff", o);
  if (!r) {
    require(!r.error().message.empty() && r.error().file == "fuzz.neff");
    return;
  }
  const neff::Neff& n = *r;
  require(n.header.data_size + neff::kPayloadOffset <= file.size());
  uint64_t total = 0;
  for (const neff::Member& m : n.members) {
    require(!m.name.empty() && m.name.front() != '/' && m.bytes.size() <= o.max_member_bytes);
    total += m.bytes.size();
  }
  require(total <= o.max_inflated_bytes);
  for (const neff::Stream* s : n.streams()) require(s->bytes.size() % kWordBytes == 0);
  for (const neff::SubgraphSems& sg : neff::semaphore_picture(n))
    for (const neff::SemaphoreUses& s : sg.semaphores) require(s.index < 256);
  // What was read packs again and reads back to the same members.
  std::vector<neff::PackMember> members;
  for (const neff::Member& m : n.members) members.push_back({m.name, {m.bytes.begin(), m.bytes.end()}});
  neff::PackOptions p;
  p.header = n.header;
  neff::Result<std::vector<uint8_t>> packed = neff::pack(members, p);
  require(packed.ok());
  neff::Result<neff::Neff> again = neff::read(*packed, "repacked.neff", o);
  require(again.ok() && again->members.size() == n.members.size());
  for (size_t i = 0; i < n.members.size(); ++i)
    require(again->members[i].name == n.members[i].name &&
            std::ranges::equal(again->members[i].bytes, n.members[i].bytes));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const neff::ReadOptions o = small_limits();
  const std::span<const uint8_t> bytes(data, size);
  (void)neff::is_neff(bytes);
  check(bytes, o);

  // The same bytes as the plain-tar payload of a pkg 1 container: mutations reach tar and JSON directly instead
  // of stopping at the gzip layer.
  neff::Header h;
  h.pkg_version = 1;
  h.data_size = size;
  std::vector<uint8_t> wrapped(neff::kHeaderBytes);
  const auto head = neff::encode_header(h);
  std::copy(head.begin(), head.end(), wrapped.begin());
  wrapped.insert(wrapped.end(), data, data + size);
  check(wrapped, o);

  npy::Array a;
  std::string error;
  if (npy::parse(bytes, a, error)) require(a.data_offset + a.data_bytes <= size);
  return 0;
}
