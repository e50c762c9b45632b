// Batch-norm statistics and search family semantics (act-index-ops.md §14.3, §15.3; PROJ-CONV-A24..A28): per channel,
// every source element read and converted to fp32 before any write, results converted to out_dtype.
#include <array>
#include <bit>
#include <cstring>

#include "families/bnsearch/format.hpp"
#include "families/common.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

using namespace bnsearch;

constexpr uint32_t kNegInf = 0xFF800000U;
constexpr unsigned kSlots = 8;

float as_float(uint32_t bits) {
  return std::bit_cast<float>(bits);
}
uint32_t bits_of(float f) {
  return std::bit_cast<uint32_t>(f);
}

/// The operands' start addresses, the dtype and bound checks of step 3 (§2.6), in source-then-destination order.
template <class S>
bool prepare(const S& s, uint64_t count, uint32_t& src, uint32_t& dst, exec::Txn& txn) {
  if (!element_dtype_supported(txn, s.in_dtype, "in") || !element_dtype_supported(txn, s.out_dtype, "out"))
    return false;
  if (!onchip_start(txn, s.src.start_addr, src, "src") || !onchip_start(txn, s.dst.start_addr, dst, "dst"))
    return false;
  if (count * s.num_active_channels <= txn.options().max_elements_per_instruction) return true;
  return txn.fail(FaultKind::ResourceLimit,
                  fmt::format("{} elements x {} channels exceed the per-instruction bound of {}", count,
                              s.num_active_channels, txn.options().max_elements_per_instruction));
}

/// The row path's source rows: every channel's source a forward run, checked once (exec::forward_runs; never when
/// recording, so traces show element accesses), read whole; `ok` false sends the executor element by element.
struct SourceRows {
  std::array<uint64_t, kMaxChannels> at{};
  bool ok = false;
};

template <class S>
SourceRows source_rows(const S& s, uint32_t src, uint64_t n, exec::Txn& txn) {
  SourceRows r;
  r.ok = exec::forward_runs(txn, src, s.src, s.num_active_channels, n, dtype_size(s.in_dtype), r.at);
  return r;
}

/// Channel c's `n` source elements as fp32 bits into `out` (addresses checked before, by check_channels): the row
/// read whole when `rows` has it, else element by element.
template <class S>
void read_source(const S& s, uint32_t src, unsigned c, uint64_t n, exec::Txn& txn, uint32_t* out,
                 const SourceRows& rows) {
  const unsigned size = dtype_size(s.in_dtype);
  if (rows.ok) {
    if (s.in_dtype == dtype::kFp32) {  // the bits as they are
      txn.read_block(rows.at[c], n * 4, 4, reinterpret_cast<uint8_t*>(out));
      return;
    }
    std::vector<uint8_t>& raw = txn.scratch().bytes_b;
    raw.resize(n * size);
    txn.read_block(rows.at[c], n * size, size, raw.data());
    for (uint64_t k = 0; k < n; ++k) {
      uint32_t v = 0;
      std::memcpy(&v, raw.data() + k * size, size);  // little-endian, as memory holds it
      out[k] = to_fp32_bits(v, s.in_dtype);
    }
    return;
  }
  uint64_t a = 0;
  for (uint64_t k = 0; k < n; ++k) {
    onchip_at(txn, src, s.src, c, k, size, "source", a);
    out[k] = to_fp32_bits(txn.read_mem(a, size), s.in_dtype);
  }
}

/// OutOfRange in the order of the pseudo-code (§2.6): channel by channel, the sources, then the destinations.
template <class S>
bool check_channels(const S& s, uint32_t src, uint64_t n, uint32_t dst, uint64_t m, exec::Txn& txn,
                    const SourceRows& rows) {
  const unsigned in = dtype_size(s.in_dtype), out = dtype_size(s.out_dtype);
  uint64_t a = 0;
  for (unsigned c = 0; c < s.num_active_channels; ++c) {
    for (uint64_t k = 0; k < n && !rows.ok; ++k)  // the rows' check is this one's verdict
      if (!onchip_at(txn, src, s.src, c, k, in, "source", a)) return false;
    for (uint64_t j = 0; j < m; ++j)
      if (!onchip_at(txn, dst, s.dst, c, j, out, "destination", a)) return false;
  }
  return true;
}

/// Writes dst[c][j] = value (already in out_dtype).
template <class S>
void write_dst(const S& s, uint32_t dst, unsigned c, uint64_t j, uint64_t value, exec::Txn& txn) {
  const unsigned size = dtype_size(s.out_dtype);
  uint64_t a = 0;
  onchip_at(txn, dst, s.dst, c, j, size, "destination", a);
  txn.stage_mem(a, size, value);
}

uint64_t convert_out(uint32_t fp32, uint8_t out_dtype, exec::Txn& txn) {
  return from_fp32_bits(fp32, out_dtype, txn.options().convert);
}

/// A scratch buffer of n fp32 words (reused across steps: no allocation once warm).
uint32_t* scratch_words(exec::Txn& txn, uint64_t n) {
  std::vector<uint8_t>& b = txn.scratch().bytes_a;
  if (b.size() < n * 4 + 4) b.resize(n * 4 + 4);
  return reinterpret_cast<uint32_t*>(b.data());
}

// ---- BATCH_NORM_STATS / STATS2 (PROJ-CONV-A24) and AGGREGATE (PROJ-CONV-A25) ----

struct Moments {
  float mean, nvar;
};

/// moments() of §14.3 over x[first], x[first + stride], ... (below n): fp32 in element order, the mean by the
/// correctly rounded reciprocal, the two-pass sum of squared deviations; an empty set gives +0, +0.
Moments moments(const uint32_t* x, uint64_t n, uint64_t first, uint64_t stride) {
  uint64_t count = 0;
  float sum = 0.0F;
  for (uint64_t k = first; k < n; k += stride, ++count) sum = sum + as_float(x[k]);
  if (count == 0) return {0.0F, 0.0F};
  const float recip = 1.0F / static_cast<float>(count);
  const float mean = sum * recip;
  float v = 0.0F;
  for (uint64_t k = first; k < n; k += stride) {
    const float d = as_float(x[k]) - mean;
    const float sq = d * d;
    v = v + sq;
  }
  return {mean, v};
}

/// moments() of the even and of the odd elements at once: the same two chains of fp32 sums, each in its own element
/// order, interleaved so that one's latency hides the other's (STATS2's halves of a long row).
std::array<Moments, 2> moments_even_odd(const uint32_t* x, uint64_t n) {
  const uint64_t count[2] = {(n + 1) / 2, n / 2};
  float sum[2] = {0.0F, 0.0F};
  uint64_t k = 0;
  for (; k + 1 < n; k += 2) {
    sum[0] = sum[0] + as_float(x[k]);
    sum[1] = sum[1] + as_float(x[k + 1]);
  }
  if (k < n) sum[0] = sum[0] + as_float(x[k]);
  float mean[2] = {0.0F, 0.0F};
  for (unsigned h = 0; h < 2; ++h)
    if (count[h] != 0) mean[h] = sum[h] * (1.0F / static_cast<float>(count[h]));
  float v[2] = {0.0F, 0.0F};
  for (k = 0; k + 1 < n; k += 2) {
    const float d0 = as_float(x[k]) - mean[0], d1 = as_float(x[k + 1]) - mean[1];
    const float sq0 = d0 * d0, sq1 = d1 * d1;
    v[0] = v[0] + sq0;
    v[1] = v[1] + sq1;
  }
  if (k < n) {
    const float d0 = as_float(x[k]) - mean[0];
    const float sq0 = d0 * d0;
    v[0] = v[0] + sq0;
  }
  return {Moments{mean[0], count[0] != 0 ? v[0] : 0.0F}, Moments{mean[1], count[1] != 0 ? v[1] : 0.0F}};
}

bool exec_stats(const S4d2Bn& s, exec::Txn& txn) {
  const bool two = s.header.opcode == kBnStats2;
  const uint64_t n = s.src.elements(), m = two ? 6 : 3;
  uint32_t src = 0, dst = 0;
  if (!prepare(s, n, src, dst, txn)) return false;
  const SourceRows rows = source_rows(s, src, n, txn);
  if (!check_channels(s, src, n, dst, m, txn, rows)) return false;
  uint32_t* x = scratch_words(txn, n);
  for (unsigned c = 0; c < s.num_active_channels; ++c) {
    read_source(s, src, c, n, txn, x, rows);
    std::array<uint32_t, 6> out{};
    if (two) {
      // The row path interleaves the two halves; the element path keeps them apart (the differential test
      // compares the two).
      const std::array<Moments, 2> eo =
          rows.ok ? moments_even_odd(x, n) : std::array<Moments, 2>{moments(x, n, 0, 2), moments(x, n, 1, 2)};
      const Moments e = eo[0], o = eo[1];
      out = {s.even_count.raw, bits_of(e.mean), bits_of(e.nvar), s.odd_count.raw, bits_of(o.mean), bits_of(o.nvar)};
    } else {
      const Moments a = moments(x, n, 0, 1);
      out = {s.even_count.raw, bits_of(a.mean), bits_of(a.nvar)};
    }
    for (uint64_t j = 0; j < m; ++j) write_dst(s, dst, c, j, convert_out(out[j], s.out_dtype, txn), txn);
  }
  return true;
}

bool exec_aggregate(const S4d2Bn& s, exec::Txn& txn) {
  const uint64_t n = s.src.elements(), tuples = n / 3;
  uint32_t src = 0, dst = 0;
  if (!prepare(s, n, src, dst, txn)) return false;
  const SourceRows rows = source_rows(s, src, n, txn);
  if (!check_channels(s, src, n, dst, 2, txn, rows)) return false;
  uint32_t* x = scratch_words(txn, n);
  for (unsigned c = 0; c < s.num_active_channels; ++c) {
    read_source(s, src, c, n, txn, x, rows);
    float total = 0.0F, weighted = 0.0F;
    for (uint64_t t = 0; t < tuples; ++t) {
      const float nt = as_float(x[3 * t]), mt = as_float(x[3 * t + 1]);
      total = total + nt;
      const float p = nt * mt;
      weighted = weighted + p;
    }
    const float mean = weighted / total;  // N = 0 gives NaN (0/0), PROJ-CONV-A25
    float m2 = 0.0F;
    for (uint64_t t = 0; t < tuples; ++t) {
      const float nt = as_float(x[3 * t]), mt = as_float(x[3 * t + 1]), vt = as_float(x[3 * t + 2]);
      const float d = mt - mean;
      const float d2 = d * d;
      const float spread = nt * d2;
      const float term = vt + spread;
      m2 = m2 + term;
    }
    const float variance = m2 / total;
    write_dst(s, dst, c, 0, convert_out(bits_of(mean), s.out_dtype, txn), txn);
    write_dst(s, dst, c, 1, convert_out(bits_of(variance), s.out_dtype, txn), txn);
  }
  return true;
}

// ---- MAX8 (PROJ-CONV-A27) ----

bool exec_max8(const S4d2Bn& s, exec::Txn& txn) {
  const uint64_t n = s.src.elements();
  uint32_t src = 0, dst = 0;
  if (!prepare(s, n, src, dst, txn)) return false;
  const SourceRows rows = source_rows(s, src, n, txn);
  if (!check_channels(s, src, n, dst, kSlots, txn, rows)) return false;
  uint32_t* x = scratch_words(txn, n);
  for (unsigned c = 0; c < s.num_active_channels; ++c) {
    read_source(s, src, c, n, txn, x, rows);
    // The eight largest, largest first; an element enters only above a strictly smaller one, so equal values keep
    // source order (+0 == -0) and the -Inf the slots start with is what a channel with fewer than 8 values keeps.
    std::array<uint32_t, kSlots> top;
    top.fill(kNegInf);
    for (uint64_t k = 0; k < n; ++k) {
      const float v = as_float(x[k]);
      // NaN is ignored, and so is every value not above the smallest slot (the slots stay in descending order).
      if (!(v > as_float(top[kSlots - 1]))) continue;
      unsigned p = 0;
      while (p < kSlots && !(v > as_float(top[p]))) ++p;
      if (p == kSlots) continue;
      for (unsigned q = kSlots - 1; q > p; --q) top[q] = top[q - 1];
      top[p] = x[k];
    }
    for (unsigned j = 0; j < kSlots; ++j) write_dst(s, dst, c, j, convert_out(top[j], s.out_dtype, txn), txn);
  }
  return true;
}

// ---- FIND_INDEX8 / MATCH_REPLACE8: the one match core (PROJ-CONV-A28) ----

/// A quick test that an element can equal none of the eight keys (most elements of a long row): under IEEE
/// equality a value equals a key only when their bits are equal, or both are zeros (+0 == -0), so a bit set by a
/// hash of each key's bits (zeros hashed as +0) rules out every element whose own bit is clear. NaN keys match
/// nothing but only add a bit; the exact claim() below decides.
class KeyFilter {
 public:
  explicit KeyFilter(const std::array<uint32_t, kSlots>& keys) {
    for (const uint32_t k : keys) bits_ |= uint64_t{1} << slot(k);
  }
  bool may_match(uint32_t e) const { return ((bits_ >> slot(e)) & 1U) != 0; }

 private:
  static unsigned slot(uint32_t v) {
    const uint32_t canonical = (v & 0x7FFFFFFFU) == 0 ? 0U : v;
    return static_cast<unsigned>((canonical * 0x9E3779B1U) >> 26);
  }
  uint64_t bits_ = 0;
};

/// The key slot element e claims: the lowest-numbered key not yet matched in this instruction that equals it
/// (IEEE equality: NaN never matches, +0 matches -0); kSlots when none.
unsigned claim(float e, const std::array<uint32_t, kSlots>& keys, std::array<bool, kSlots>& matched) {
  for (unsigned k = 0; k < kSlots; ++k)
    if (!matched[k] && e == as_float(keys[k])) {
      matched[k] = true;
      return k;
    }
  return kSlots;
}

bool exec_find_index8(const S4d2Bn& s, exec::Txn& txn) {
  const uint64_t n = s.src.elements();
  uint32_t src = 0, dst = 0;
  if (!prepare(s, n, src, dst, txn)) return false;
  const SourceRows rows = source_rows(s, src, n, txn);
  if (!check_channels(s, src, n, dst, kSlots, txn, rows)) return false;
  const uint64_t miss = s.out_dtype == dtype::kUint16 ? 0xFFFFU : 0xFFFFFFFFU;
  uint32_t* x = scratch_words(txn, n);
  for (unsigned c = 0; c < s.num_active_channels; ++c) {
    read_source(s, src, c, n, txn, x, rows);
    const std::array<uint32_t, kSlots>& keys = txn.engine().dve[c].match_key;
    std::array<bool, kSlots> matched{};
    std::array<uint32_t, kSlots> index;
    index.fill(~0U);
    const KeyFilter filter(keys);
    for (uint64_t k = 0; k < n; ++k)
      if (filter.may_match(x[k]))
        if (const unsigned slot = claim(as_float(x[k]), keys, matched); slot < kSlots)
          index[slot] = static_cast<uint32_t>(k);
    for (unsigned j = 0; j < kSlots; ++j) {
      write_dst(s, dst, c, j, index[j] == ~0U ? miss : index[j], txn);
      txn.stage_dve(c, DveField::MatchIndex, j, index[j]);
    }
  }
  return true;
}

bool exec_match_replace8(const S4d4Mr& s, exec::Txn& txn) {
  const uint64_t n = s.src.elements();
  uint32_t src = 0, dst = 0;
  if (!prepare(s, n, src, dst, txn)) return false;
  const unsigned in = dtype_size(s.in_dtype), out = dtype_size(s.out_dtype);
  const SourceRows rows = source_rows(s, src, n, txn);
  std::array<uint64_t, kMaxChannels> drows{};
  const bool row_path = rows.ok && exec::forward_runs(txn, dst, s.dst, s.num_active_channels, n, out, drows);
  uint64_t a = 0;
  for (unsigned c = 0; c < s.num_active_channels && !row_path; ++c)  // element by element: read k, then write k
    for (uint64_t k = 0; k < n; ++k)
      if (!onchip_at(txn, src, s.src, c, k, in, "source", a) ||
          !onchip_at(txn, dst, s.dst, c, k, out, "destination", a))
        return false;
  uint32_t* x = scratch_words(txn, n);
  const uint64_t replaced = convert_out(s.immediate.raw, s.out_dtype, txn);
  for (unsigned c = 0; c < s.num_active_channels; ++c) {
    read_source(s, src, c, n, txn, x, rows);
    const std::array<uint32_t, kSlots>& keys = txn.engine().dve[c].match_key;
    std::array<bool, kSlots> matched{};
    if (row_path) {  // the row's values converted in place, the claimed ones replaced, the row staged whole
      const KeyFilter filter(keys);
      uint8_t* row = txn.stage_run(drows[c], n * out, out);
      for (uint64_t k = 0; k < n; ++k) {
        const unsigned slot = filter.may_match(x[k]) ? claim(as_float(x[k]), keys, matched) : kSlots;
        if (slot < kSlots) txn.stage_dve(c, DveField::MatchIndex, slot, static_cast<uint32_t>(k));
        const uint64_t v = slot < kSlots                 ? replaced
                           : s.out_dtype == dtype::kFp32 ? x[k]
                                                         : convert_out(x[k], s.out_dtype, txn);
        std::memcpy(row + k * out, &v, out);  // little-endian host
      }
      continue;
    }
    for (uint64_t k = 0; k < n; ++k) {
      const unsigned slot = claim(as_float(x[k]), keys, matched);
      if (slot < kSlots) txn.stage_dve(c, DveField::MatchIndex, slot, static_cast<uint32_t>(k));
      write_dst(s, dst, c, k, slot < kSlots ? replaced : convert_out(x[k], s.out_dtype, txn), txn);
    }
  }
  return true;
}

/// TRANSPOSE_BATCH_NORM_STATS2 decodes and validates, but which source element feeds which partition's statistics
/// is not stated: the run refuses it (PROJ-CONV-A31).
constexpr Execution::NotPublic kNotPublic[] = {
    {kTransposeBnStats2, kGensAll,
     "the element order TRANSPOSE_BATCH_NORM_STATS2 reads its source in: the wiki gives STATS2 with 32-multiple "
     "channels and elements and no transpose mapping (batchnorm-forward.md §2.3)"},
};

bool bn_execute(const Instruction& inst, exec::Txn& txn) {
  for (const Execution::NotPublic& n : kNotPublic)
    if (inst.opcode() == n.opcode)
      return txn.fail(FaultKind::UnsupportedOpcode,
                      fmt::format("{} ({:#04x}) is not executed: its semantics are not public ({}; PROJ-CONV-A31)",
                                  inst.name(), inst.opcode(), n.source));
  if (!engine_runs(inst, txn)) return false;  // PROJ-CONV-A17, step 1b
  if (const auto* s = inst.as<S4d4Mr>(); s != nullptr && inst.opcode() == kMatchReplace8)
    return exec_match_replace8(*s, txn);
  if (const auto* s = inst.as<S4d2Bn>()) {
    const uint8_t op = inst.opcode();
    if (op == kBnStats || op == kBnStats2) return exec_stats(*s, txn);
    if (op == kBnAggregate) return exec_aggregate(*s, txn);
    if (op == kMax8) return exec_max8(*s, txn);
    if (op == kFindIndex8) return exec_find_index8(*s, txn);
  }
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("execution of {} ({:#04x}) is not modeled", inst.name(), inst.opcode()));
}

/// The source read in in_dtype and the destination written in out_dtype, on num_active_channels partitions.
Footprint bn_footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const auto* s = inst.as<S4d2Bn>()) {
    add_tensor_footprint(f, "src", s->src, dtype_size(s->in_dtype), s->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", s->dst, dtype_size(s->out_dtype), s->num_active_channels, true, g);
  } else if (const auto* m = inst.as<S4d4Mr>()) {
    add_tensor_footprint(f, "src", m->src, dtype_size(m->in_dtype), m->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", m->dst, dtype_size(m->out_dtype), m->num_active_channels, true, g);
  }
  return f;
}

}  // namespace

const Execution& BnSearchFamily::execution() {
  static const Execution kExecution{
      .execute = bn_execute, .semantics_not_public = kNotPublic, .footprint = bn_footprint, .unit_state = unit_state()};
  return kExecution;
}

}  // namespace tpbisa::family
