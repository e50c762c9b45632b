// Index family semantics (act-index-ops.md §9.3-§13.3): IOTA, AFFINE_SELECT, RANGE_SELECT (with the DVE accumulator,
// PROJ-CONV-K12), GET_SEQUENCE_BOUNDS and NONZERO_WITH_COUNT. Sources are read from the committed state and every
// write is staged, so reads precede writes and a fault commits nothing (§2.4, §2.6).
#include <array>
#include <bit>
#include <cstring>
#include <limits>

#include "families/common.hpp"
#include "families/index/format.hpp"
#include "families/index/row_pieces.hpp"
#include "kernels/index_row.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

namespace ix = index;

bool within_bound(exec::Txn& txn, uint64_t count, unsigned channels) {
  if (count * channels <= txn.options().max_elements_per_instruction) return true;
  return txn.fail(FaultKind::ResourceLimit, fmt::format("{} elements x {} channels exceed the per-instruction bound "
                                                        "of {}",
                                                        count, channels, txn.options().max_elements_per_instruction));
}

/// cast(v, INT32, d) (PROJ-CONV-A19): floats round to nearest even through fp32, integers exact then saturating.
uint64_t int32_to(int32_t v, uint8_t d, const ConvertOptions& options) {
  const DtypeInfo* row = find_dtype(d);
  if (row == nullptr || (row->kind != DtypeKind::SInt && row->kind != DtypeKind::UInt))
    return from_fp32_bits(to_fp32_bits(static_cast<uint32_t>(v), dtype::kInt32), d, options);
  const unsigned bits = 8 * dtype_size(d);
  const bool is_signed = row->kind == DtypeKind::SInt;
  const int64_t lo = is_signed ? -(int64_t{1} << (bits - 1)) : 0;
  const int64_t hi = is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
  const int64_t x = std::clamp<int64_t>(v, lo, hi);
  return static_cast<uint64_t>(x) & (bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
}

/// The DATA4D value of flat element k with the channel term (§2.1), modulo 2^32.
int32_t ramp(const Data4d& d, int32_t channel_multiplier, unsigned c, uint64_t k) {
  uint32_t v = static_cast<uint32_t>(d.base) + static_cast<uint32_t>(c) * static_cast<uint32_t>(channel_multiplier);
  for (size_t i = 0; i < 4; ++i) {
    const uint64_t n = d.num_elem[i] == 0 ? 1 : d.num_elem[i];
    v += static_cast<uint32_t>(k % n) * static_cast<uint32_t>(static_cast<int32_t>(d.step_elem[i]));
    k /= n;
  }
  return static_cast<int32_t>(v);
}

/// ramp() walked element after element (the row path): the same values, modulo 2^32, with an odometer over the four
/// dimensions instead of a division per dimension and element.
class RampWalk {
 public:
  RampWalk(const Data4d& d, int32_t channel_multiplier, unsigned c)
      : v_(static_cast<uint32_t>(ramp(d, channel_multiplier, c, 0))) {
    for (size_t i = 0; i < 4; ++i) {
      n_[i] = d.num_elem[i] == 0 ? 1 : d.num_elem[i];
      step_[i] = static_cast<uint32_t>(static_cast<int32_t>(d.step_elem[i]));
    }
  }
  int32_t value() const { return static_cast<int32_t>(v_); }
  void next() {
    for (size_t i = 0; i < 4; ++i) {
      v_ += step_[i];
      if (++at_[i] < n_[i]) return;
      v_ -= static_cast<uint32_t>(n_[i]) * step_[i];
      at_[i] = 0;
    }
  }

 private:
  uint32_t v_;
  std::array<uint64_t, 4> n_{}, at_{};
  std::array<uint32_t, 4> step_{};
};

/// Row addresses of up to kMaxChannels channels (the row path).
using Rows = std::array<uint64_t, kMaxChannels>;

/// Element k of a little-endian row of `size`-byte elements, and its store (the host is little-endian).
uint64_t row_element(const uint8_t* row, uint64_t k, unsigned size) {
  uint64_t v = 0;
  std::memcpy(&v, row + k * size, size);
  return v;
}
void set_row_element(uint8_t* row, uint64_t k, unsigned size, uint64_t v) {
  std::memcpy(row + k * size, &v, size);
}
/// `count` elements of `size` bytes, each v: a loop of fixed-size stores for the common sizes.
void fill_elements(uint8_t* row, uint64_t count, unsigned size, uint64_t v) {
  const auto fill = [&](auto x) {
    for (uint64_t k = 0; k < count; ++k) std::memcpy(row + k * sizeof(x), &x, sizeof(x));
  };
  if (size == 4) {  // sixteen at a time: fixed 64-byte copies are vector stores
    std::array<uint32_t, 16> block;
    block.fill(static_cast<uint32_t>(v));
    uint64_t k = 0;
    for (; k + 16 <= count; k += 16) std::memcpy(row + 4 * k, block.data(), sizeof block);
    row += 4 * k;
    count -= k;
    return fill(static_cast<uint32_t>(v));
  }
  if (size == 2) return fill(static_cast<uint16_t>(v));
  for (uint64_t k = 0; k < count; ++k) set_row_element(row, k, size, v);
}

/// A pointer operand's element of channel c (§2.2, PROJ-CONV-A8): at partition_of(ptr) + c, byte byte_off(ptr).
bool pointer_element(exec::Txn& txn, uint32_t value, uint8_t src, unsigned c, unsigned size, std::string_view which,
                     uint64_t& out) {
  uint32_t ptr = value & kPartitionAddrMask;
  if (src == ix::kImmRegPtr) {
    const unsigned r = value & 0xFF;
    if (r >= kNumRegisters)
      return txn.fail_reg(FaultKind::IllegalRegister, static_cast<int>(r),
                          fmt::format("{} names register {} (PROJ-CONV-N16)", which, r));
    ptr = txn.reg(r) & kPartitionAddrMask;
  }
  uint64_t address = 0;
  if (!exec::onchip_element(txn.gen(), ptr, c, 0, size, address))
    return txn.fail_at(FaultKind::OutOfRange, exec::nominal_element_address(txn.gen(), ptr, c, 0),
                       fmt::format("channel {} {} pointer leaves SBUF/PSUM (PROJ-CONV-N2)", c, which));
  out = txn.read_mem(address, size);
  return true;
}

/// operand(value, src, c, dtype) of §2.2: the instruction's own bits, or the element a pointer names.
bool operand(exec::Txn& txn, uint32_t value, uint8_t src, unsigned c, unsigned size, std::string_view which,
             uint32_t& out) {
  if (src == ix::kImmInstruction) {
    out = value;
    return true;
  }
  uint64_t v = 0;
  if (!pointer_element(txn, value, src, c, size, which, v)) return false;
  out = static_cast<uint32_t>(v);
  return true;
}

/// The register check of a REG_PTR operand (step 4), before any element access.
bool register_ok(exec::Txn& txn, uint32_t value, uint8_t src, std::string_view which) {
  if (src != ix::kImmRegPtr || (value & 0xFF) < kNumRegisters) return true;
  return txn.fail_reg(FaultKind::IllegalRegister, static_cast<int>(value & 0xFF),
                      fmt::format("{} names register {} (PROJ-CONV-N16)", which, value & 0xFF));
}

// ---- IOTA (§9.3) ----

/// The innermost dimension of a DATA4D ramp: its count (0 counts 1) and its step, modulo 2^32.
struct InnerRamp {
  uint64_t count;
  uint32_t step;
};
InnerRamp inner_ramp(const Data4d& d) {
  return {d.num_elem[0] == 0 ? 1U : uint64_t{d.num_elem[0]},
          static_cast<uint32_t>(static_cast<int32_t>(d.step_elem[0]))};
}

/// Calls run(i, len, start) over the flat elements [first, first + len) of channel c's ramp split at the innermost
/// dimension's ends: elements first + i .. first + i + len - 1 take the values start + j * step (modulo 2^32).
template <class F>
void ramp_runs(const Data4d& d, int32_t channel_multiplier, unsigned c, uint64_t first, uint64_t len, const F& run) {
  const uint64_t inner = inner_ramp(d).count;
  for (uint64_t k = first; k < first + len;) {
    const uint64_t m = std::min(inner - k % inner, first + len - k);
    run(k - first, m, static_cast<uint32_t>(ramp(d, channel_multiplier, c, k)));
    k += m;
  }
}

/// Runs shorter than this go element by element (a vector call per run would cost more than it saves).
constexpr uint64_t kMinSimdRun = 16;

bool exec_iota(const D4Iota& t, exec::Txn& txn) {
  if (!element_dtype_supported(txn, t.out_dtype, "out")) return false;
  uint32_t dst = 0;
  if (!onchip_start(txn, t.dst.start_addr, dst, "dst")) return false;
  const uint64_t n = t.src.elements();
  const unsigned nac = t.num_active_channels, size = dtype_size(t.out_dtype);
  if (!within_bound(txn, n, nac)) return false;
  if (Rows dr{}; exec::forward_runs(txn, dst, t.dst, nac, n, size, dr)) {  // the row path: rows written whole
    const bool simd =
        (t.out_dtype == dtype::kInt32 || t.out_dtype == dtype::kFp32) && inner_ramp(t.src).count >= kMinSimdRun;
    if (simd) {
      // Past its checks IOTA cannot fault: its rows go straight into memory when their pages exist.
      const bool in_place = txn.may_write_runs_in_place(dr.data(), nac, n * size);
      const uint32_t step = inner_ramp(t.src).step;
      for (unsigned c = 0; c < nac; ++c)
        row_pieces::walk(
            txn, dr[c], size, dr[c], size, n, in_place, [](uint64_t, uint64_t) { return nullptr; },
            [&](const uint8_t*, uint8_t* out, uint64_t first, uint64_t len) {
              ramp_runs(t.src, t.channel_multiplier, c, first, len, [&](uint64_t i, uint64_t m, uint32_t start) {
                kernels::int32_ramp(reinterpret_cast<uint32_t*>(out + 4 * i), m, start, step,
                                    t.out_dtype == dtype::kFp32);
              });
            });
      return true;
    }
    for (unsigned c = 0; c < nac; ++c) {
      uint8_t* row = txn.stage_run(dr[c], n * size, size);
      RampWalk r(t.src, t.channel_multiplier, c);
      for (uint64_t k = 0; k < n; ++k, r.next())
        set_row_element(row, k, size,
                        t.out_dtype == dtype::kInt32 ? static_cast<uint32_t>(r.value())
                                                     : int32_to(r.value(), t.out_dtype, txn.options().convert));
    }
    return true;
  }
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < n; ++k) {
      uint64_t a = 0;
      if (!onchip_at(txn, dst, t.dst, c, k, size, "destination", a)) return false;
      txn.stage_mem(a, size, int32_to(ramp(t.src, t.channel_multiplier, c, k), t.out_dtype, txn.options().convert));
    }
  return true;
}

// ---- TENSOR_SCALAR_AFFINE_SELECT (§10.3) ----

bool keep_of(uint8_t mode, int32_t m) {
  switch (mode) {
    case ix::kCmpGt: return m > 0;
    case ix::kCmpGe: return m >= 0;
    case ix::kCmpEq: return m == 0;
    default: return m != 0;
  }
}

bool exec_affine_select(const S2d2TsAs& t, exec::Txn& txn) {
  const uint8_t in = ix::pair_in(t.in_out_dtype), out = ix::pair_out(t.in_out_dtype);
  if (!element_dtype_supported(txn, in, "in") || !element_dtype_supported(txn, out, "out")) return false;
  uint32_t src = 0, dst = 0;
  if (!onchip_start(txn, t.src.start_addr, src, "src") || !onchip_start(txn, t.dst.start_addr, dst, "dst"))
    return false;
  const uint64_t n = pred::lanes_product(pred::packed_counts(t.src.num_elem));
  const unsigned nac = t.num_active_channels, zi = dtype_size(in), zo = dtype_size(out);
  if (!within_bound(txn, n, nac)) return false;
  const uint64_t fill = from_fp32_bits(txn.reg(t.fill_reg), out, txn.options().convert);  // register < 64 (A20)
  Rows sr{}, dr{};
  if (exec::forward_runs(txn, src, t.src, nac, n, zi, sr) && exec::forward_runs(txn, dst, t.dst, nac, n, zo, dr)) {
    // The row path: every element is read, kept or not, so each source row is read as it lies, a page at a time.
    EffectLog::Bytes& scratch = txn.scratch().bytes_a;
    if (scratch.size() < n * zi) scratch.resize(n * zi);
    if (in == out && zi == 4 && inner_ramp(t.mask).count >= kMinSimdRun) {
      // Past its checks AFFINE_SELECT cannot fault: its rows go straight into memory when no source row still to be
      // read is overwritten.
      const bool in_place = txn.may_write_runs_in_place(dr.data(), nac, n * zo) &&
                            exec::rows_in_place_ok(sr.data(), n * zi, dr.data(), n * zo, nac, true);
      const kernels::RampKeep keep = t.fill_mode == ix::kCmpGt   ? kernels::RampKeep::Gt
                                     : t.fill_mode == ix::kCmpGe ? kernels::RampKeep::Ge
                                     : t.fill_mode == ix::kCmpEq ? kernels::RampKeep::Eq
                                                                 : kernels::RampKeep::Ne;
      const uint32_t step = inner_ramp(t.mask).step;
      for (unsigned c = 0; c < nac; ++c)
        row_pieces::walk(
            txn, sr[c], 4, dr[c], 4, n, in_place,
            [&](uint64_t first, uint64_t len) { return txn.read_run(sr[c] + 4 * first, 4 * len, 4, scratch.data()); },
            [&](const uint8_t* row, uint8_t* res, uint64_t first, uint64_t len) {
              ramp_runs(t.mask, t.channel_multiplier, c, first, len, [&](uint64_t i, uint64_t m, uint32_t start) {
                kernels::select_by_ramp(reinterpret_cast<const uint32_t*>(row + 4 * i),
                                        reinterpret_cast<uint32_t*>(res + 4 * i), m, start, step, keep,
                                        static_cast<uint32_t>(fill));
              });
            });
      return true;
    }
    for (unsigned c = 0; c < nac; ++c) {
      const uint8_t* row = txn.read_run(sr[c], n * zi, zi, scratch.data());
      uint8_t* res = txn.stage_run(dr[c], n * zo, zo);
      RampWalk mask(t.mask, t.channel_multiplier, c);
      for (uint64_t k = 0; k < n; ++k, mask.next()) {
        const uint64_t raw = row_element(row, k, zi);
        const bool keep = keep_of(t.fill_mode, mask.value());
        set_row_element(res, k, zo,
                        !keep       ? fill
                        : in == out ? raw
                                    : from_fp32_bits(to_fp32_bits(raw, in), out, txn.options().convert));
      }
    }
    return true;
  }
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < n; ++k) {
      uint64_t a = 0, d = 0;
      if (!onchip_at(txn, src, t.src, c, k, zi, "source", a) || !onchip_at(txn, dst, t.dst, c, k, zo, "destination", d))
        return false;
      const uint64_t raw = txn.read_mem(a, zi);
      const bool keep = keep_of(t.fill_mode, ramp(t.mask, t.channel_multiplier, c, k));
      const uint64_t v = !keep       ? fill
                         : in == out ? raw
                                     : from_fp32_bits(to_fp32_bits(raw, in), out, txn.options().convert);
      txn.stage_mem(d, zo, v);
    }
  return true;
}

// ---- RANGE_SELECT (§11.3, PROJ-CONV-A21) ----

/// Whether alu_fp32(op, idx, bound) is 1.0: the compare ops inline (a branch the predictor learns, not a call per
/// element), any other op through alu_fp32.
bool passes(uint8_t op, float idx, float bound) {
  switch (op) {
    case aluop::kIsEq: return idx == bound;
    case aluop::kIsGt: return idx > bound;
    case aluop::kIsGe: return idx >= bound;
    case aluop::kIsLe: return idx <= bound;
    case aluop::kIsLt: return idx < bound;
    case aluop::kIsNe: return !(idx == bound);
    default: return alu_fp32(op, idx, bound) == 1.0F;
  }
}

/// A row's elements in runs that are all kept or all dropped, alternating from `first_keep`: run r ends before
/// end[r], the last at the row's end. The index base + k rises with k, so a compare against a bound changes at most
/// twice along a row and two such compares make few runs; more than fit send the row element by element.
struct KeepRuns {
  std::array<uint64_t, 16> end{};
  unsigned count = 0;
  bool first_keep = false;
};

bool keep_runs(uint8_t op0, uint8_t op1, float base, float f0, float f1, uint64_t n, KeepRuns& runs) {
  runs.count = 0;
  for (uint64_t k = 0; k < n;) {
    const auto keep_at = [&](uint64_t j) {
      const float idx = base + static_cast<float>(j);  // exact: base + N <= 2^24 (validated)
      return passes(op0, idx, f0) && passes(op1, idx, f1);
    };
    const bool keep = keep_at(k);
    if (k == 0) runs.first_keep = keep;
    uint64_t end = k + 1;
    while (end < n && keep_at(end) == keep) ++end;
    if (runs.count == runs.end.size()) return false;
    runs.end[runs.count++] = end;
    k = end;
  }
  return true;
}

/// A kept run of `len` source elements at `at` (in_dtype `in`) into `o` (out_dtype `out`), folded into the running
/// maximum `acc` when `reduce` (maxNum in element order, PROJ-CONV-T12); returns the maximum.
float kept_run(exec::Txn& txn, uint64_t at, uint64_t len, uint8_t in, uint8_t out, bool reduce, float acc, uint8_t* o) {
  const unsigned zi = dtype_size(in), zo = dtype_size(out);
  EffectLog::Bytes& scratch = txn.scratch().bytes_a;
  if (scratch.size() < len * zi) scratch.resize(len * zi);
  const uint8_t* row = txn.read_run(at, len * zi, zi, scratch.data());
  if (in == dtype::kFp32 && out == dtype::kFp32) {
    std::memcpy(o, row, len * 4);
    float m = 0.0F;
    if (!reduce) return acc;
    if (kernels::fp32_max_exact(reinterpret_cast<const float*>(row), len, m)) return alu_fp32(aluop::kMax, acc, m);
    for (uint64_t i = 0; i < len; ++i)
      acc = alu_fp32(aluop::kMax, acc, std::bit_cast<float>(static_cast<uint32_t>(row_element(row, i, 4))));
    return acc;
  }
  for (uint64_t i = 0; i < len; ++i) {
    const uint32_t y = to_fp32_bits(row_element(row, i, zi), in);
    set_row_element(o, i, zo, from_fp32_bits(y, out, txn.options().convert));
    if (reduce) acc = alu_fp32(aluop::kMax, acc, std::bit_cast<float>(y));
  }
  return acc;
}

bool exec_range_select(const S2d2Rs& t, exec::Txn& txn) {
  const uint8_t in = ix::pair_in(t.in_out_dtype), out = ix::pair_out(t.in_out_dtype);
  if (!element_dtype_supported(txn, in, "in") || !element_dtype_supported(txn, out, "out")) return false;
  uint32_t src = 0, dst = 0;
  if (!onchip_start(txn, t.src.start_addr, src, "src") || !onchip_start(txn, t.dst.start_addr, dst, "dst") ||
      !register_ok(txn, t.bound0.raw, t.bound0_src, "bound0") ||
      !register_ok(txn, t.bound1.raw, t.bound1_src, "bound1"))
    return false;
  const uint64_t n = pred::lanes_product(pred::packed_counts(t.src.num_elem));
  const unsigned nac = t.num_active_channels, zi = dtype_size(in), zo = dtype_size(out);
  if (!within_bound(txn, n, nac)) return false;
  const float base = t.base.as_fp32();
  const bool reduce = t.reduce_cmd != ix::kAccIdle;
  Rows sr{}, dr{};
  const bool rows =
      exec::forward_runs(txn, src, t.src, nac, n, zi, sr) && exec::forward_runs(txn, dst, t.dst, nac, n, zo, dr);
  // With immediate bounds nothing can fault past the checks above: the rows then go straight into memory when no
  // destination row is a source row (a kept element is read after its piece is claimed).
  const bool in_place = rows && t.bound0_src == ix::kImmInstruction && t.bound1_src == ix::kImmInstruction &&
                        txn.may_write_runs_in_place(dr.data(), nac, n * zo) &&
                        exec::rows_in_place_ok(sr.data(), n * zi, dr.data(), n * zo, nac, false);
  const uint64_t dropped = from_fp32_bits(ix::kNegFltMax, out, txn.options().convert);
  KeepRuns runs;  // the keep runs of the last bounds, reused while a channel's bounds are the same
  bool keep_valid = false;
  uint32_t keep_b0 = 0, keep_b1 = 0;
  for (unsigned c = 0; c < nac; ++c) {
    uint32_t b0 = 0, b1 = 0;
    if (!operand(txn, t.bound0.raw, t.bound0_src, c, 4, "bound0", b0) ||
        !operand(txn, t.bound1.raw, t.bound1_src, c, 4, "bound1", b1))
      return false;
    const float f0 = std::bit_cast<float>(b0), f1 = std::bit_cast<float>(b1);
    if (t.reduce_cmd == ix::kAccAccumulate) txn.note_dve_read(c, DveField::Acc, 0, txn.engine().dve[c].acc);
    float acc = t.reduce_cmd == ix::kAccAccumulate ? std::bit_cast<float>(txn.engine().dve[c].acc)
                                                   : -std::numeric_limits<float>::infinity();
    if (rows && (keep_valid && b0 == keep_b0 && b1 == keep_b1
                     ? true
                     : (keep_valid = keep_runs(t.comp_op0, t.comp_op1, base, f0, f1, n, runs)))) {
      keep_b0 = b0;
      keep_b1 = b1;
      // The row path: the kept elements read run by run where they lie (only they are read, as below), the
      // others written with the fill; the maximum of a kept run taken in lanes when that cannot change it.
      row_pieces::walk(
          txn, sr[c], zi, dr[c], zo, n, in_place, [](uint64_t, uint64_t) { return nullptr; },
          [&](const uint8_t*, uint8_t* res, uint64_t first, uint64_t len) {
            uint64_t from = 0;
            for (unsigned r = 0; r < runs.count; from = runs.end[r++]) {
              const uint64_t j0 = std::max(from, first), j1 = std::min(runs.end[r], first + len);
              if (j0 >= j1) continue;
              uint8_t* o = res + (j0 - first) * zo;
              if ((r % 2 == 0) == runs.first_keep) {
                acc = kept_run(txn, sr[c] + j0 * zi, j1 - j0, in, out, reduce, acc, o);
              } else {
                fill_elements(o, j1 - j0, zo, dropped);
                if (reduce) acc = alu_fp32(aluop::kMax, acc, std::bit_cast<float>(ix::kNegFltMax));
              }
            }
          });
      if (reduce) txn.stage_dve(c, DveField::Acc, 0, std::bit_cast<uint32_t>(acc));
      continue;
    }
    for (uint64_t k = 0; k < n; ++k) {
      uint64_t a = 0, d = 0;
      if (!onchip_at(txn, src, t.src, c, k, zi, "source", a) || !onchip_at(txn, dst, t.dst, c, k, zo, "destination", d))
        return false;
      const float idx = base + static_cast<float>(k);  // exact: base + N <= 2^24 (validated)
      const bool keep = alu_fp32(t.comp_op0, idx, f0) == 1.0F && alu_fp32(t.comp_op1, idx, f1) == 1.0F;
      const uint32_t y = keep ? to_fp32_bits(txn.read_mem(a, zi), in) : ix::kNegFltMax;
      txn.stage_mem(d, zo, from_fp32_bits(y, out, txn.options().convert));
      if (reduce) acc = alu_fp32(aluop::kMax, acc, std::bit_cast<float>(y));  // maxNum (PROJ-CONV-T12)
    }
    if (reduce) txn.stage_dve(c, DveField::Acc, 0, std::bit_cast<uint32_t>(acc));
  }
  return true;
}

// ---- GET_SEQUENCE_BOUNDS (§12.3, PROJ-CONV-A22) ----

bool exec_sequence_bounds(const S3d3SeqBounds& t, exec::Txn& txn) {
  if (!element_dtype_supported(txn, t.in_dtype, "in") || !element_dtype_supported(txn, t.out_dtype, "out"))
    return false;
  uint32_t src = 0, dst = 0;
  if (!onchip_start(txn, t.src.start_addr, src, "src") || !onchip_start(txn, t.dst.start_addr, dst, "dst"))
    return false;
  const uint64_t n = t.src.elements();
  if (!within_bound(txn, 2 * n, 1)) return false;
  EffectLog::Bytes& ids = txn.scratch().bytes_a;  // the n ids, 4 bytes each
  ids.resize(4 * n);
  for (uint64_t k = 0; k < n; ++k) {
    uint64_t a = 0;
    if (!onchip_at(txn, src, t.src, 0, k, 4, "source", a)) return false;
    store_le<uint32_t>(&ids[4 * k], static_cast<uint32_t>(txn.read_mem(a, 4)));
  }
  auto id = [&](uint64_t k) { return load_le<uint32_t>(&ids[4 * k]); };
  const bool fp = t.in_dtype == dtype::kFp32;
  auto zero = [&](uint32_t v) { return fp ? std::bit_cast<float>(v) == 0.0F : v == 0; };
  auto equal = [&](uint32_t x, uint32_t y) { return fp ? std::bit_cast<float>(x) == std::bit_cast<float>(y) : x == y; };
  const unsigned zo = dtype_size(t.out_dtype);
  auto put = [&](uint64_t j, int32_t v) {
    uint64_t d = 0;
    if (!onchip_at(txn, dst, t.dst, 0, j, zo, "destination", d)) return false;
    txn.stage_mem(d, zo, int32_to(v, t.out_dtype, txn.options().convert));
    return true;
  };
  for (uint64_t a = 0; a < n;) {
    uint64_t b = a;
    while (b + 1 < n && equal(id(b + 1), id(a))) ++b;  // a maximal run of adjacent equal ids
    for (uint64_t k = a; k <= b; ++k) {
      const bool pad = zero(id(k));
      if (!put(k, pad ? static_cast<int32_t>(n) : static_cast<int32_t>(a)) ||
          !put(n + k, pad ? -1 : static_cast<int32_t>(b + 1)))
        return false;
    }
    a = b + 1;
  }
  return true;
}

// ---- NONZERO_WITH_COUNT (§13.3, PROJ-CONV-A23) ----

bool exec_nonzero(const S3d3NonzeroWithCount& t, exec::Txn& txn) {
  if (!element_dtype_supported(txn, t.in_dtype, "in") || !element_dtype_supported(txn, t.out_dtype, "out"))
    return false;
  uint32_t src = 0, dst = 0;
  const auto off_raw = static_cast<uint32_t>(t.index_offset), pad_raw = static_cast<uint32_t>(t.padding_val);
  if (!onchip_start(txn, t.src.start_addr, src, "src") || !onchip_start(txn, t.dst.start_addr, dst, "dst") ||
      !register_ok(txn, off_raw, t.index_offset_src, "index_offset") ||
      !register_ok(txn, pad_raw, t.padding_val_src, "padding_val"))
    return false;
  const uint64_t n = t.src.elements();
  const unsigned nac = t.num_active_channels;
  if (!within_bound(txn, n + 1, nac)) return false;
  const unsigned p0 = decode_partition_offset(src, txn.gen()).partition;
  const bool fp = t.in_dtype == dtype::kFp32;
  for (unsigned c = 0; c < nac; ++c) {
    if ((p0 + c) % 16 != 0) continue;  // not a core's partition 0 (A23)
    uint32_t off = 0, pad = 0;
    if (!operand(txn, off_raw, t.index_offset_src, c, 4, "index_offset", off) ||
        !operand(txn, pad_raw, t.padding_val_src, c, 4, "padding_val", pad))
      return false;
    uint64_t count = 0;
    for (uint64_t k = 0; k < n; ++k) {
      uint64_t a = 0;
      if (!onchip_at(txn, src, t.src, c, k, 4, "source", a)) return false;
      const auto v = static_cast<uint32_t>(txn.read_mem(a, 4));
      if (fp ? std::bit_cast<float>(v) == 0.0F : v == 0) continue;  // a NaN is nonzero
      uint64_t d = 0;
      if (!onchip_at(txn, dst, t.dst, c, count, 4, "destination", d)) return false;
      txn.stage_mem(d, 4, static_cast<uint32_t>(k) + off);  // wraps at 32 bits
      ++count;
    }
    for (uint64_t j = count; j <= n; ++j) {
      uint64_t d = 0;
      if (!onchip_at(txn, dst, t.dst, c, j, 4, "destination", d)) return false;
      txn.stage_mem(d, 4, j == n ? static_cast<uint32_t>(count) : pad);
    }
  }
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (!engine_runs(inst, txn)) return false;
  if (const auto* t = inst.as<D4Iota>()) return exec_iota(*t, txn);
  if (const auto* t = inst.as<S2d2TsAs>()) return exec_affine_select(*t, txn);
  if (const auto* t = inst.as<S2d2Rs>()) return exec_range_select(*t, txn);
  if (const auto* t = inst.as<S3d3SeqBounds>()) return exec_sequence_bounds(*t, txn);
  if (const auto* t = inst.as<S3d3NonzeroWithCount>()) return exec_nonzero(*t, txn);
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("execution of {} ({:#04x}) is not modeled", inst.name(), inst.opcode()));
}

/// The tensor operands in their element widths; pointer operands are placed at run time and not listed.
Footprint footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const auto* t = inst.as<D4Iota>()) {
    add_tensor_footprint(f, "dst", t->dst, dtype_size(t->out_dtype), t->num_active_channels, true, g);
  } else if (const auto* a = inst.as<S2d2TsAs>()) {
    add_tensor_footprint(f, "src", a->src, dtype_size(ix::pair_in(a->in_out_dtype)), a->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", a->dst, dtype_size(ix::pair_out(a->in_out_dtype)), a->num_active_channels, true, g);
  } else if (const auto* r = inst.as<S2d2Rs>()) {
    add_tensor_footprint(f, "src", r->src, dtype_size(ix::pair_in(r->in_out_dtype)), r->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", r->dst, dtype_size(ix::pair_out(r->in_out_dtype)), r->num_active_channels, true, g);
  } else if (const auto* s = inst.as<S3d3SeqBounds>()) {
    add_tensor_footprint(f, "src", s->src, dtype_size(s->in_dtype), 1, false, g);
    add_tensor_footprint(f, "dst", s->dst, dtype_size(s->out_dtype), 1, true, g);
  } else if (const auto* z = inst.as<S3d3NonzeroWithCount>()) {
    add_tensor_footprint(f, "src", z->src, dtype_size(z->in_dtype), z->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", z->dst, dtype_size(z->out_dtype), z->num_active_channels, true, g);
  }
  return f;
}

constexpr Execution kExecution{.execute = execute, .footprint = footprint};

}  // namespace

const Execution& IndexFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
