// Batch-norm statistics and search family semantics (act-index-ops.md §14.3, §15.3; PROJ-CONV-A24..A28): per channel,
// every source element read and converted to fp32 before any write, results converted to out_dtype.
#include <array>
#include <bit>
#include <cstring>
#include <limits>

#include "families/bnsearch/format.hpp"
#include "families/common.hpp"
#include "families/index/row_pieces.hpp"
#include "kernels/index_row.hpp"
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
inline bool is_nan_f(float f) {
  return f != f;
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
    EffectLog::Bytes& raw = txn.scratch().bytes_b;
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

/// Channel c's source as fp32 bits, piece by piece in element order: body(x, first, len) with x[i] element first + i.
/// An fp32 row is read where it lies a memory page at a time (Txn::read_run, no copy when its pages are written);
/// any other is read whole into `scratch` (n words) as read_source reads it.
template <class S, class Body>
void source_pieces(const S& s, uint32_t src, unsigned c, uint64_t n, exec::Txn& txn, uint32_t* scratch,
                   const SourceRows& rows, const Body& body) {
  if (!rows.ok || s.in_dtype != dtype::kFp32) {
    read_source(s, src, c, n, txn, scratch, rows);
    body(static_cast<const uint32_t*>(scratch), uint64_t{0}, n);
    return;
  }
  for (uint64_t k = 0; k < n;) {
    const uint64_t at = rows.at[c] + 4 * k, len = std::min(n - k, row_pieces::page_room(at, 4));
    body(reinterpret_cast<const uint32_t*>(txn.read_run(at, 4 * len, 4, reinterpret_cast<uint8_t*>(scratch + k))), k,
         len);
    k += len;
  }
}

/// The elements a TENSOR pattern addresses before it wraps around (pattern_offset), every count 0 taken as 1.
template <class T>
uint64_t pattern_elements(const T& t) {
  uint64_t n = 1;
  for (const auto e : t.num_elem) n *= e == 0 ? 1 : e;
  return n;
}

/// The row path's destination rows of m results: every channel's m elements one forward run (checked once, never
/// when recording), staged whole by write_results; `ok` false sends the results element by element.
struct DestRows {
  std::array<uint64_t, kMaxChannels> at{};
  bool ok = false;
  bool in_place = false;  ///< written straight into memory (write_results), decided by write_in_place
};

template <class S>
DestRows dest_rows(const S& s, uint32_t dst, uint64_t m, exec::Txn& txn) {
  DestRows r;
  r.ok = m <= pattern_elements(s.dst) &&
         exec::forward_runs(txn, dst, s.dst, s.num_active_channels, m, dtype_size(s.out_dtype), r.at);
  return r;
}

/// OutOfRange in the order of the pseudo-code (§2.6): channel by channel, the sources, then the destinations.
template <class S>
bool check_channels(const S& s, uint32_t src, uint64_t n, uint32_t dst, uint64_t m, exec::Txn& txn,
                    const SourceRows& rows, const DestRows& drows) {
  const unsigned in = dtype_size(s.in_dtype), out = dtype_size(s.out_dtype);
  uint64_t a = 0;
  for (unsigned c = 0; c < s.num_active_channels && !(rows.ok && drows.ok); ++c) {
    for (uint64_t k = 0; k < n && !rows.ok; ++k)  // the rows' check is this one's verdict
      if (!onchip_at(txn, src, s.src, c, k, in, "source", a)) return false;
    for (uint64_t j = 0; j < m && !drows.ok; ++j)
      if (!onchip_at(txn, dst, s.dst, c, j, out, "destination", a)) return false;
  }
  return true;
}

/// Past the checks (nothing faults afterwards): the destination rows of m results are written in place, not staged
/// and copied at commit, when commit can allocate nothing and no destination row overlaps a source row read after it
/// (each channel's source is read before its results are written).
template <class S>
void write_in_place(const S& s, uint64_t n, uint64_t m, exec::Txn& txn, const SourceRows& rows, DestRows& drows) {
  const unsigned in = dtype_size(s.in_dtype), out = dtype_size(s.out_dtype), nac = s.num_active_channels;
  drows.in_place = rows.ok && drows.ok && txn.may_write_runs_in_place(drows.at.data(), nac, m * out) &&
                   exec::rows_in_place_ok(rows.at.data(), n * in, drows.at.data(), m * out, nac, false);
}

/// Writes dst[c][j] = value (already in out_dtype).
template <class S>
void write_dst(const S& s, uint32_t dst, unsigned c, uint64_t j, uint64_t value, exec::Txn& txn) {
  const unsigned size = dtype_size(s.out_dtype);
  uint64_t a = 0;
  onchip_at(txn, dst, s.dst, c, j, size, "destination", a);
  txn.stage_mem(a, size, value);
}

/// Writes channel c's m results (already in out_dtype): its destination row staged whole when `drows` has it, else
/// element by element.
template <class S>
void write_results(const S& s, uint32_t dst, unsigned c, const uint64_t* values, uint64_t m, const DestRows& drows,
                   exec::Txn& txn) {
  const unsigned size = dtype_size(s.out_dtype);
  if (drows.ok) {
    uint8_t* row = drows.in_place ? txn.write_run_in_place(drows.at[c], m * size, size) : nullptr;
    if (row == nullptr) row = txn.stage_run(drows.at[c], m * size, size);
    for (uint64_t j = 0; j < m; ++j) std::memcpy(row + j * size, &values[j], size);  // little-endian host
    return;
  }
  for (uint64_t j = 0; j < m; ++j) write_dst(s, dst, c, j, values[j], txn);
}

uint64_t convert_out(uint32_t fp32, uint8_t out_dtype, exec::Txn& txn) {
  if (out_dtype == dtype::kFp32) return fp32;  // from_fp32_bits keeps FP32 bits as they are, NaNs included
  return from_fp32_bits(fp32, out_dtype, txn.options().convert);
}

/// A scratch buffer of n fp32 words (reused across steps: no allocation once warm).
uint32_t* scratch_words(exec::Txn& txn, uint64_t n) {
  EffectLog::Bytes& b = txn.scratch().bytes_a;
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

/// Every channel's source row as fp32, for the channel-lane kernels: rows[c] where row c lies (Txn::read_run: in
/// place when it is stored in one page, else copied into an image of n words a channel).
using LaneRows = std::array<const float*, kMaxChannels>;
const float* const* lane_rows(const S4d2Bn& s, uint64_t n, exec::Txn& txn, const SourceRows& rows, LaneRows& at) {
  EffectLog::Bytes& image = txn.scratch().bytes_a;
  if (image.size() < s.num_active_channels * n * 4 + 4) image.resize(s.num_active_channels * n * 4 + 4);
  for (unsigned c = 0; c < s.num_active_channels; ++c) {
    uint8_t* row = image.data() + c * n * 4;
    if (n * 4 <= row_pieces::page_room(rows.at[c], 1)) {  // in one page: read where it lies
      at[c] = reinterpret_cast<const float*>(txn.read_run(rows.at[c], n * 4, 4, row));
      continue;
    }
    for (uint64_t k = 0; k < n;) {  // page by page, each piece where it lies copied into the image
      const uint64_t len = std::min(n - k, row_pieces::page_room(rows.at[c] + 4 * k, 4));
      const uint8_t* piece = txn.read_run(rows.at[c] + 4 * k, 4 * len, 4, row + 4 * k);
      if (piece != row + 4 * k) std::memcpy(row + 4 * k, piece, 4 * len);
      k += len;
    }
    at[c] = reinterpret_cast<const float*>(row);
  }
  return at.data();
}

/// Every channel's source row (fp32) in pieces, for fp32_aggregate_pieces: when every row lies at the same offset in
/// its memory pages (so that the pages split every row at the same elements) in at most kMaxSegments pages, each
/// piece where it lies (Txn::read_run, channel by channel in element order as lane_rows reads them); else false and
/// nothing read.
constexpr size_t kMaxSegments = 4;
struct PieceRows {
  std::array<const float*, kMaxSegments * kMaxChannels> pieces{};
  std::array<size_t, kMaxSegments + 1> bounds{};
  kernels::RowPieces view;
};
bool piece_rows(const S4d2Bn& s, uint64_t n, exec::Txn& txn, const SourceRows& rows, PieceRows& p) {
  const unsigned nac = s.num_active_channels;
  const uint64_t offset = rows.at[0] % SparseMemory::kPageBytes;
  for (unsigned c = 1; c < nac; ++c)
    if (rows.at[c] % SparseMemory::kPageBytes != offset) return false;
  size_t segments = 0;
  for (uint64_t k = 0; k < n; ++segments) {
    if (segments == kMaxSegments) return false;
    p.bounds[segments] = k;
    k += std::min(n - k, row_pieces::page_room(rows.at[0] + 4 * k, 4));
  }
  p.bounds[segments] = n;
  EffectLog::Bytes& image = txn.scratch().bytes_a;  // where a piece not all written is copied
  if (image.size() < nac * n * 4 + 4) image.resize(nac * n * 4 + 4);
  for (unsigned c = 0; c < nac; ++c)
    for (size_t g = 0; g < segments; ++g) {
      const uint64_t k = p.bounds[g], len = p.bounds[g + 1] - k;
      p.pieces[g * nac + c] =
          reinterpret_cast<const float*>(txn.read_run(rows.at[c] + 4 * k, 4 * len, 4, image.data() + (c * n + k) * 4));
    }
  p.view = {p.pieces.data(), p.bounds.data(), segments, nac};
  return true;
}

/// Channel c's row from its pieces, whole in the image (the element recomputation of a NaN channel).
const float* whole_row(const PieceRows& p, unsigned c, uint64_t n, exec::Txn& txn) {
  float* row = reinterpret_cast<float*>(txn.scratch().bytes_a.data()) + c * n;
  for (size_t g = 0; g < p.view.segments; ++g) {
    const float* piece = p.pieces[g * p.view.row_count + c];
    if (piece != row + p.bounds[g]) std::memmove(row + p.bounds[g], piece, 4 * (p.bounds[g + 1] - p.bounds[g]));
  }
  return row;
}

/// The channel-lane kernels' scratch for rows of n elements (reused across steps: no allocation once warm).
float* lane_scratch(exec::Txn& txn, uint64_t n) {
  EffectLog::Bytes& b = txn.scratch().bytes_b;
  if (b.size() < 4 * kernels::lane_rows_scratch(n)) b.resize(4 * kernels::lane_rows_scratch(n));
  return reinterpret_cast<float*>(b.data());
}

bool exec_stats(const S4d2Bn& s, exec::Txn& txn) {
  const bool two = s.header.opcode == kBnStats2;
  const uint64_t n = s.src.elements(), m = two ? 6 : 3;
  uint32_t src = 0, dst = 0;
  if (!prepare(s, n, src, dst, txn)) return false;
  const SourceRows rows = source_rows(s, src, n, txn);
  DestRows drows = dest_rows(s, dst, m, txn);
  if (!check_channels(s, src, n, dst, m, txn, rows, drows)) return false;
  write_in_place(s, n, m, txn, rows, drows);
  const unsigned nac = s.num_active_channels, halves = two ? 2 : 1;
  std::array<float, 2 * kMaxChannels> mean{}, nvar{};
  const bool lanes = rows.ok && s.in_dtype == dtype::kFp32;
  LaneRows at{};
  if (lanes)
    kernels::fp32_moments_rows(lane_rows(s, n, txn, rows, at), nac, n, halves, mean.data(), nvar.data(),
                               lane_scratch(txn, n));
  uint32_t* x = lanes ? nullptr : scratch_words(txn, n);
  for (unsigned c = 0; c < nac; ++c) {
    // A NaN's payload depends on the order of each addition's operands, which the lanes need not keep: a channel
    // with one is computed again as the element path computes it (the differential test compares the two).
    const bool nan = lanes && (is_nan_f(mean[c * halves]) || is_nan_f(nvar[c * halves]) ||
                               (halves == 2 && (is_nan_f(mean[c * halves + 1]) || is_nan_f(nvar[c * halves + 1]))));
    if (!lanes || nan) {  // element by element, each half on its own
      const uint32_t* v = x;
      if (lanes)
        v = reinterpret_cast<const uint32_t*>(at[c]);
      else
        read_source(s, src, c, n, txn, x, rows);
      for (unsigned h = 0; h < halves; ++h) {
        const Moments a = moments(v, n, h, halves);
        mean[c * halves + h] = a.mean;
        nvar[c * halves + h] = a.nvar;
      }
    }
    const std::array<uint32_t, 6> out =
        two ? std::array<uint32_t, 6>{s.even_count.raw, bits_of(mean[2 * c]),     bits_of(nvar[2 * c]),
                                      s.odd_count.raw,  bits_of(mean[2 * c + 1]), bits_of(nvar[2 * c + 1])}
            : std::array<uint32_t, 6>{s.even_count.raw, bits_of(mean[c]), bits_of(nvar[c])};
    std::array<uint64_t, 6> values{};
    for (uint64_t j = 0; j < m; ++j) values[j] = convert_out(out[j], s.out_dtype, txn);
    write_results(s, dst, c, values.data(), m, drows, txn);
  }
  return true;
}

bool exec_aggregate(const S4d2Bn& s, exec::Txn& txn) {
  const uint64_t n = s.src.elements(), tuples = n / 3;
  uint32_t src = 0, dst = 0;
  if (!prepare(s, n, src, dst, txn)) return false;
  const SourceRows rows = source_rows(s, src, n, txn);
  DestRows drows = dest_rows(s, dst, 2, txn);
  if (!check_channels(s, src, n, dst, 2, txn, rows, drows)) return false;
  write_in_place(s, n, 2, txn, rows, drows);
  const unsigned nac = s.num_active_channels;
  std::array<float, kMaxChannels> mean{}, variance{};
  const bool lanes = rows.ok && s.in_dtype == dtype::kFp32;
  LaneRows at{};
  PieceRows pieces;
  // Rows across pages are read in pieces where they lie rather than copied whole (the copy was a third of the step).
  const bool in_pieces = lanes && piece_rows(s, n, txn, rows, pieces);
  if (in_pieces)
    kernels::fp32_aggregate_pieces(pieces.view, tuples, mean.data(), variance.data(), lane_scratch(txn, n));
  else if (lanes)
    kernels::fp32_aggregate_rows(lane_rows(s, n, txn, rows, at), nac, tuples, mean.data(), variance.data(),
                                 lane_scratch(txn, n));
  uint32_t* x = lanes ? nullptr : scratch_words(txn, n);
  for (unsigned c = 0; c < nac; ++c) {
    if (!lanes || is_nan_f(mean[c]) || is_nan_f(variance[c])) {  // a NaN's payload: as in exec_stats
      const uint32_t* v = x;
      if (in_pieces)
        v = reinterpret_cast<const uint32_t*>(whole_row(pieces, c, n, txn));
      else if (lanes)
        v = reinterpret_cast<const uint32_t*>(at[c]);
      else
        read_source(s, src, c, n, txn, x, rows);
      float total = 0.0F, weighted = 0.0F;
      for (uint64_t t = 0; t < tuples; ++t) {
        const float nt = as_float(v[3 * t]), mt = as_float(v[3 * t + 1]);
        total = total + nt;
        const float p = nt * mt;
        weighted = weighted + p;
      }
      mean[c] = weighted / total;  // N = 0 gives NaN (0/0), PROJ-CONV-A25
      float m2 = 0.0F;
      for (uint64_t t = 0; t < tuples; ++t) {
        const float nt = as_float(v[3 * t]), mt = as_float(v[3 * t + 1]), vt = as_float(v[3 * t + 2]);
        const float d = mt - mean[c];
        const float d2 = d * d;
        const float spread = nt * d2;
        const float term = vt + spread;
        m2 = m2 + term;
      }
      variance[c] = m2 / total;
    }
    const std::array<uint64_t, 2> values = {convert_out(bits_of(mean[c]), s.out_dtype, txn),
                                            convert_out(bits_of(variance[c]), s.out_dtype, txn)};
    write_results(s, dst, c, values.data(), 2, drows, txn);
  }
  return true;
}

// ---- MAX8 (PROJ-CONV-A27) ----

bool exec_max8(const S4d2Bn& s, exec::Txn& txn) {
  const uint64_t n = s.src.elements();
  uint32_t src = 0, dst = 0;
  if (!prepare(s, n, src, dst, txn)) return false;
  const SourceRows rows = source_rows(s, src, n, txn);
  DestRows drows = dest_rows(s, dst, kSlots, txn);
  if (!check_channels(s, src, n, dst, kSlots, txn, rows, drows)) return false;
  write_in_place(s, n, kSlots, txn, rows, drows);
  uint32_t* x = scratch_words(txn, n);
  for (unsigned c = 0; c < s.num_active_channels; ++c) {
    // The eight largest, largest first; an element enters only above a strictly smaller one, so equal values keep
    // source order (+0 == -0) and the -Inf the slots start with is what a channel with fewer than 8 values keeps.
    std::array<uint32_t, kSlots> top;
    top.fill(kNegInf);
    // NaN is ignored, and so is every value not above the smallest slot (the slots stay in descending order): the
    // candidates are found in lanes.
    source_pieces(s, src, c, n, txn, x, rows, [&](const uint32_t* v, uint64_t, uint64_t len) {
      kernels::max8_update(reinterpret_cast<const float*>(v), len, top.data());
    });
    std::array<uint64_t, kSlots> values{};
    for (unsigned j = 0; j < kSlots; ++j) values[j] = convert_out(top[j], s.out_dtype, txn);
    write_results(s, dst, c, values.data(), kSlots, drows, txn);
  }
  return true;
}

// ---- FIND_INDEX8 / MATCH_REPLACE8: the one match core (PROJ-CONV-A28) ----

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

/// The keys still to be matched, as the lanes' search compares them: a matched key is a NaN, which equals nothing.
struct OpenKeys {
  explicit OpenKeys(const std::array<uint32_t, kSlots>& keys) {
    for (unsigned k = 0; k < kSlots; ++k) open[k] = as_float(keys[k]);
  }
  void close(unsigned slot) { open[slot] = std::numeric_limits<float>::quiet_NaN(); }
  /// The first i < len from which x[i] equals an open key, or len.
  uint64_t next(const uint32_t* x, uint64_t i, uint64_t len) const {
    return i + kernels::first_equal_any(reinterpret_cast<const float*>(x) + i, len - i, open.data());
  }
  std::array<float, kSlots> open{};
};

bool exec_find_index8(const S4d2Bn& s, exec::Txn& txn) {
  const uint64_t n = s.src.elements();
  uint32_t src = 0, dst = 0;
  if (!prepare(s, n, src, dst, txn)) return false;
  const SourceRows rows = source_rows(s, src, n, txn);
  const DestRows drows = dest_rows(s, dst, kSlots, txn);
  if (!check_channels(s, src, n, dst, kSlots, txn, rows, drows)) return false;
  const uint64_t miss = s.out_dtype == dtype::kUint16 ? 0xFFFFU : 0xFFFFFFFFU;
  uint32_t* x = scratch_words(txn, n);
  for (unsigned c = 0; c < s.num_active_channels; ++c) {
    const std::array<uint32_t, kSlots>& keys = txn.engine().dve[c].match_key;
    std::array<bool, kSlots> matched{};
    std::array<uint32_t, kSlots> index;
    index.fill(~0U);
    OpenKeys open(keys);
    source_pieces(s, src, c, n, txn, x, rows, [&](const uint32_t* v, uint64_t first, uint64_t len) {
      for (uint64_t k = open.next(v, 0, len); k < len; k = open.next(v, k + 1, len)) {
        const unsigned slot = claim(as_float(v[k]), keys, matched);  // < kSlots: v[k] equals an open key
        index[slot] = static_cast<uint32_t>(first + k);
        open.close(slot);
      }
    });
    std::array<uint64_t, kSlots> values{};
    for (unsigned j = 0; j < kSlots; ++j) values[j] = index[j] == ~0U ? miss : index[j];
    write_results(s, dst, c, values.data(), kSlots, drows, txn);
    for (unsigned j = 0; j < kSlots; ++j) txn.stage_dve(c, DveField::MatchIndex, j, index[j]);
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
  const bool fp32 = s.in_dtype == dtype::kFp32 && s.out_dtype == dtype::kFp32;
  // Past its checks MATCH_REPLACE8 cannot fault: fp32 rows go straight into memory when no source row still to be
  // read is overwritten.
  const bool in_place = row_path && fp32 && txn.may_write_runs_in_place(drows.data(), s.num_active_channels, n * 4) &&
                        exec::rows_in_place_ok(rows.at.data(), n * 4, drows.data(), n * 4, s.num_active_channels, true);
  for (unsigned c = 0; c < s.num_active_channels; ++c) {
    const std::array<uint32_t, kSlots>& keys = txn.engine().dve[c].match_key;
    std::array<bool, kSlots> matched{};
    OpenKeys open(keys);
    if (row_path && fp32) {  // the row copied a page at a time where it lies, the claimed elements replaced
      row_pieces::walk(
          txn, rows.at[c], 4, drows[c], 4, n, in_place,
          [&](uint64_t first, uint64_t len) {
            return txn.read_run(rows.at[c] + 4 * first, 4 * len, 4, reinterpret_cast<uint8_t*>(x + first));
          },
          [&](const uint8_t* v, uint8_t* o, uint64_t first, uint64_t len) {
            if (o != v) std::memcpy(o, v, 4 * len);
            const auto* w = reinterpret_cast<const uint32_t*>(v);
            for (uint64_t k = open.next(w, 0, len); k < len; k = open.next(w, k + 1, len)) {
              const unsigned slot = claim(as_float(w[k]), keys, matched);  // < kSlots: an open key
              open.close(slot);
              txn.stage_dve(c, DveField::MatchIndex, slot, static_cast<uint32_t>(first + k));
              std::memcpy(o + 4 * k, &replaced, 4);  // little-endian host
            }
          });
      continue;
    }
    read_source(s, src, c, n, txn, x, rows);
    if (row_path) {  // the row's values converted, the claimed ones replaced, the row staged whole
      uint8_t* row = txn.stage_run(drows[c], n * out, out);
      for (uint64_t k = 0; k < n; ++k) {
        const unsigned slot = claim(as_float(x[k]), keys, matched);
        if (slot < kSlots) txn.stage_dve(c, DveField::MatchIndex, slot, static_cast<uint32_t>(k));
        const uint64_t v = slot < kSlots ? replaced : convert_out(x[k], s.out_dtype, txn);
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
  if (const Execution::NotPublic* n = not_public_row(inst, kNotPublic))
    return refuse_not_public(inst, txn, *n, "PROJ-CONV-A31");
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
  return refuse_not_modeled(inst, txn);
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
