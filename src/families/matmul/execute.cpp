// PE matmul family semantics (real-programs.md §8.3, §9.3, §9.4): LdWeights loads the PE's stationary matrix,
// Matmul multiplies it with the moving tile into PSUM (accumulation groups, PROJ-CONV-F16/F17/F18).
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "families/common.hpp"
#include "families/matmul/format.hpp"
#include "families/matmul/meaning.hpp"
#include "kernels/convert.hpp"
#include "kernels/matmul.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

constexpr uint32_t kOneF32 = 0x3F800000U;

/// The low `size` bytes (1, 2 or 4) of `bits` at `to`, least significant first.
void put_le(uint8_t* to, unsigned size, uint64_t bits) {
  static_assert(std::endian::native == std::endian::little);
  if (size == 4) {
    const auto v = static_cast<uint32_t>(bits);
    std::memcpy(to, &v, 4);
  } else if (size == 2) {
    const auto v = static_cast<uint16_t>(bits);
    std::memcpy(to, &v, 2);
  } else {
    for (unsigned b = 0; b < size; ++b) to[b] = static_cast<uint8_t>(bits >> (8 * b));
  }
}

/// Whether any of the `a` runs at a[0..na) meets any of the `b` runs at b[0..nb), all `len` bytes long (their hulls:
/// a conservative answer).
bool overlaps(const uint64_t* a, unsigned na, const uint64_t* b, unsigned nb, uint64_t len) {
  const auto [a0, a1] = std::minmax_element(a, a + na);
  const auto [b0, b1] = std::minmax_element(b, b + nb);
  return *a0 < *b1 + len && *b0 < *a1 + len;
}

/// The output rows a product sums into where they lie, not into a copy staged and copied at commit: each row's N
/// FP32 sums 4-byte aligned in one stored span (exec::span_piece), every byte written when the product accumulates
/// onto them, and Txn::may_write_runs_in_place holding (the executor is past its last check, so nothing can fault
/// after the first write). Their reads and writes are counted as the staged path counts them. False, with nothing
/// counted or written, when any row is not such a run.
bool sums_in_place(exec::Txn& txn, const uint64_t* rows, unsigned cols, size_t N, bool accumulate, float** out) {
  const uint64_t n = uint64_t{N} * 4;
  for (unsigned m = 0; m < cols; ++m)
    if (rows[m] % 4 != 0 || exec::span_piece(rows[m], 4, N) != N || (accumulate && !txn.run_written(rows[m], n)))
      return false;
  if (!txn.may_write_runs_in_place(rows, cols, n)) return false;
  for (unsigned m = 0; m < cols; ++m) {
    if (accumulate) txn.read_run(rows[m], n, 4, nullptr);  // in place (all written): counts the reads
    out[m] = reinterpret_cast<float*>(txn.write_run_in_place(rows[m], n, 4));  // NOLINT: FP32 sums in memory
  }
  return true;
}

/// A word whose fields ask for what no public source defines (PROJ-CONV-PE2) or the model does not run
/// (PROJ-CONV-PE3): an UnsupportedOpcode fault that names the field and why.
bool not_run(exec::Txn& txn, std::string_view what, std::string_view why) {
  return txn.fail(FaultKind::UnsupportedOpcode, fmt::format("on {}, {}: {}", to_string(txn.gen()), what, why));
}
constexpr std::string_view kNotPublic =
    "semantics not public (real-programs.md §9.6 names the field only; PROJ-CONV-PE2)";

/// The LD_WEIGHT_FLAGS byte of MARIANA and MAVERICK (PROJ-CONV-PE1, PE2): the load order is run, the transpose,
/// scalar and seed modes are not public.
bool lw_flags(exec::Txn& txn, uint8_t flags, bool& first_col_first) {
  if ((flags & matmul::kLwFlagsNotPublic) != 0)
    return not_run(txn,
                   fmt::format("LD_WEIGHT_FLAGS {:#04x} sets xpose {}, scalar {}, seed {}", flags, flags & 1U,
                               (flags >> 1) & 3U, (flags >> 3) & 3U),
                   kNotPublic);
  first_col_first = (flags & matmul::kLwFlagsFirstColFirst) != 0;
  return true;
}

/// MAVERICK's 256-column array: columns 128..255 are written to a destination dimension the spec does not give
/// (PROJ-CONV-PE3).
bool cols_fit(exec::Txn& txn, unsigned cols) {
  if (cols <= PeWeights::kCols) return true;
  return not_run(txn, fmt::format("{} PE columns", cols),
                 "columns 128..255 of the 256-column array are not modeled (where their outputs go is not in the "
                 "spec; PROJ-CONV-PE3)");
}

/// A BF16 output drains PSUM with stochastic rounding whose seeds PE_MANAGE_SEED keeps: not public (PROJ-CONV-PE2).
bool out_dtype_runs(exec::Txn& txn, uint8_t out_dtype) {
  if (out_dtype == 0 || out_dtype == dtype::kFp32) return true;
  return not_run(txn, fmt::format("out_dtype {}", dtype_label(out_dtype, txn.gen())),
                 "a BF16 drain rounds stochastically, with seeds whose use is not public (PROJ-CONV-PE2)");
}

/// MAVERICK's perf_mode (MX_PERF_MODE, the MX row pump): only 0 runs (PROJ-CONV-PE2).
bool perf_mode_runs(exec::Txn& txn, uint8_t perf_mode) {
  if (perf_mode == 0) return true;
  return not_run(txn, fmt::format("perf_mode {}", perf_mode), kNotPublic);
}

/// What an LDWEIGHTS word asks of the PE, read through its generation's layout (PROJ-CONV-PE1).
struct LwRun {
  Tensor3d src{};
  uint8_t in_dtype = 0;
  unsigned rows = 0, cols = 0;
  bool transpose = false;
  bool first_col_first = false;  ///< LD_WEIGHT_FLAGS load_order FIRST_COL_FIRST (MARIANA, MAVERICK)
};
bool lw_run(const Instruction& inst, exec::Txn& txn, LwRun& r) {
  const matmul::PeView v = matmul::view(inst);
  r = LwRun{v.src, v.in_dtype, v.rows, v.cols, v.transpose_mode != 0, false};
  if (const S3LwMariana* s = inst.as<S3LwMariana>()) {
    if (s->bg_xpose_mode != 0) return not_run(txn, fmt::format("bg_xpose_mode {}", s->bg_xpose_mode), kNotPublic);
    return lw_flags(txn, s->flags, r.first_col_first);
  }
  if (const S3LwMaverick* s = inst.as<S3LwMaverick>())
    return perf_mode_runs(txn, s->perf_mode) && lw_flags(txn, s->flags, r.first_col_first) && cols_fit(txn, r.cols);
  return true;
}

/// What a MATMUL word asks of the PE, read through its generation's layout (PROJ-CONV-PE1).
struct MmRun {
  Tensor3d src{}, dst{};
  uint8_t in_dtype = 0;
  unsigned rows = 0, cols = 0;
  bool transpose = false;
  uint8_t accumulate = 0;  ///< the PSUM accumulate flags (MAVERICK: its flags byte, PROJ-CONV-PE4)
};
bool mm_run(const Instruction& inst, exec::Txn& txn, MmRun& r) {
  const matmul::PeView v = matmul::view(inst);
  r = MmRun{v.src, v.dst, v.in_dtype, v.rows, v.cols, v.transpose_mode != 0, v.accumulate};
  if (const S3d3MmMariana* s = inst.as<S3d3MmMariana>()) {
    if (s->matmul_flags != 0)
      return not_run(txn,
                     fmt::format("MATMUL_FLAGS {:#04x} sets scalar {}, seed {}, accumulate {}, xpose {}",
                                 s->matmul_flags, s->matmul_flags & 3U, (s->matmul_flags >> 2) & 3U,
                                 (s->matmul_flags >> 4) & 1U, (s->matmul_flags >> 5) & 1U),
                     kNotPublic);
    return out_dtype_runs(txn, s->out_dtype);
  }
  if (const S3d3MmMaverick* s = inst.as<S3d3MmMaverick>()) {
    if ((s->flags & matmul::kBeginAccum) != 0)
      return not_run(txn, "the accumulate flags set BEGIN_ACCUM (bit 2)", kNotPublic);
    return out_dtype_runs(txn, s->out_dtype) && perf_mode_runs(txn, s->perf_mode) && cols_fit(txn, r.cols);
  }
  return true;
}

/// The FP32 values of `n` elements of `dtype` (`size` bytes each) stored little-endian at `bytes`.
void row_to_f32(const uint8_t* bytes, size_t n, uint8_t dtype, unsigned size, float* out) {
  if (dtype == dtype::kFp16 || dtype == dtype::kBfloat16) {
    static_assert(std::endian::native == std::endian::little);
    const auto* h = reinterpret_cast<const uint16_t*>(bytes);  // NOLINT: the row's 2-byte elements
    if (dtype == dtype::kFp16)
      kernels::fp16_to_fp32(h, out, n);
    else
      kernels::bf16_to_fp32(h, out, n);
    return;
  }
  if (dtype == dtype::kFp32 || dtype == dtype::kFp32r) {  // to_fp32_bits is the identity on these (N17)
    std::memcpy(out, bytes, n * sizeof(float));
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    uint64_t raw = 0;
    for (unsigned b = 0; b < size; ++b) raw |= uint64_t{bytes[i * size + b]} << (8 * b);
    out[i] = std::bit_cast<float>(to_fp32_bits(raw, dtype));
  }
}

/// One weights row: element e of the row's bytes (position e on a forward walk, cols - 1 - e on a backward one)
/// into column e of `out` (cols - 1 - e when `reversed`): column j holds element j when exactly one of the two
/// reverses, else element cols - 1 - j.
void unpack_weights_row(const uint8_t* bytes, unsigned size, unsigned cols, bool forward, bool reversed,
                        uint32_t* out) {
  kernels::widen_elements(bytes, size, cols, forward == reversed, out);
}

/// §8.3: W[k][cols-1-e] = element e of row k (LAST_COL_FIRST; FIRST_COL_FIRST: W[k][e]), as stored bits.
bool exec_ldweights(const Instruction& inst, exec::Txn& txn) {
  LwRun lw;
  if (!lw_run(inst, txn, lw)) return false;
  if (!element_dtype_supported(txn, lw.in_dtype, "in")) return false;
  uint32_t base = 0;
  if (!onchip_start(txn, lw.src.start_addr, base, "src")) return false;
  const unsigned rows = lw.rows, cols = lw.cols;
  const unsigned size = dtype_size(lw.in_dtype);
  if (rows > PeWeights::kRows || cols > PeWeights::kCols || lw.src.elements() != cols)
    return txn.fail(FaultKind::OutOfRange,
                    fmt::format("{} rows x {} columns (pattern of {} elements) do not fit the 128 x 128 PE array", rows,
                                cols, lw.src.elements()));
  std::array<uint64_t, PeWeights::kRows> run{};
  int walk = 0;
  const bool blocks = exec::row_runs(txn, base, lw.src, rows, cols, size, run, walk);
  // The block path cannot fault: it loads the engine's array in place when the step may write in place.
  PeWeights& w = blocks && txn.may_write_in_place() ? txn.pe_in_place() : txn.stage_pe();
  w.loaded = true;
  w.dtype = lw.in_dtype;
  w.transpose = lw.transpose;
  w.rows = rows;
  w.cols = cols;
  const bool reversed = !txn.options().controls.lw_read_order_fill && !lw.first_col_first;
  if (blocks) {
    // The row's bytes hold element e at position e (forward walk) or cols - 1 - e (backward walk).
    EffectLog::Bytes& bytes = txn.scratch().bytes_a;
    bytes.resize(size_t{cols} * size);
    for (unsigned k = 0; k < rows; ++k) {
      // Untraced, a written row is read where it lies (Txn::read_run); traced, element by element (read_block).
      const uint64_t n = uint64_t{cols} * size;
      const uint8_t* src = bytes.data();
      if (txn.recording())
        txn.read_block(run[k], n, size, bytes.data());
      else
        src = txn.read_run(run[k], n, size, bytes.data());
      uint32_t* row = w.bits.data() + size_t{k} * PeWeights::kCols;
      if (size == 1 || size == 2 || size == 4) {
        unpack_weights_row(src, size, cols, walk > 0, reversed, row);
      } else {  // no such element size today (element_dtype_supported): byte by byte, in bounds whatever it is
        for (unsigned e = 0; e < cols; ++e) {
          const size_t at = size_t{walk > 0 ? e : cols - 1 - e} * size;
          uint32_t v = 0;
          for (unsigned b = 0; b < size && b < 4; ++b) v |= uint32_t{src[at + b]} << (8 * b);
          row[reversed ? cols - 1 - e : e] = v;
        }
      }
    }
    return true;
  }
  for (unsigned k = 0; k < rows; ++k)
    for (unsigned e = 0; e < cols; ++e) {
      uint64_t a = 0;
      if (!onchip_at(txn, base, lw.src, k, e, size, "source", a)) return false;
      const unsigned m = reversed ? cols - 1 - e : e;
      w.bits[size_t{k} * PeWeights::kCols + m] = static_cast<uint32_t>(txn.read_mem(a, size));
    }
  return true;
}

/// Output rows a selection transpose fills at once: each selected row of W is read as this many neighbours (reading
/// a column of W, 512 bytes between elements, evicts itself from the first-level cache).
constexpr unsigned kSelectionGroup = 8;

/// Rows i < g of a selection transpose's group: element n of row i is W[sel[n]][i] (`w` at the group's first column),
/// its low kSize bytes stored little-endian, the rows N elements apart in `out`.
template <unsigned kSize>
void gather_selections(const uint32_t* w, const int* sel, size_t N, unsigned g, uint8_t* out) {
  for (size_t n = 0; n < N; ++n) {
    const uint32_t* selected = w + static_cast<size_t>(sel[n]) * PeWeights::kCols;
    for (unsigned i = 0; i < g; ++i) put_le(out + (i * N + n) * kSize, kSize, selected[i]);
  }
}

/// §9.3/§9.4: out = Wᵀ · X into PSUM; BEGIN overwrites, MID/END accumulate; transpose mode writes the input
/// width, bit-exact for selection columns (PROJ-CONV-F18).
bool exec_matmul(const Instruction& inst, exec::Txn& txn) {
  MmRun mm;
  if (!mm_run(inst, txn, mm)) return false;
  if (!element_dtype_supported(txn, mm.in_dtype, "in")) return false;
  uint32_t src = 0, dst = 0;
  if (!onchip_start(txn, mm.src.start_addr, src, "src") || !onchip_start(txn, mm.dst.start_addr, dst, "dst"))
    return false;
  const unsigned rows = mm.rows, cols = mm.cols;
  const uint64_t n_elems = mm.src.elements();
  if (rows > PeWeights::kRows || cols > PeWeights::kCols || n_elems != mm.dst.elements())
    return txn.fail(FaultKind::OutOfRange, fmt::format("{} rows x {} columns with {} moving and {} output elements "
                                                       "do not fit the PE array",
                                                       rows, cols, n_elems, mm.dst.elements()));
  const PeWeights& w = txn.engine().pe;
  if (!w.loaded || rows > w.rows || cols > w.cols)
    txn.diag(DiagKind::UninitializedRead, 0, 0);  // PE rows/columns no LdWeights loaded read as +0
  const size_t N = n_elems;
  const unsigned in_size = dtype_size(mm.in_dtype);
  const NegativeControls& ctl = txn.options().controls;
  const bool transpose = mm.transpose;
  const unsigned out_size = transpose && !ctl.transpose_writes_fp32 ? in_size : 4;
  // Every address first (a fault changes nothing), reading the moving tile X[k][n] as FP32.
  EffectLog& s = txn.scratch();
  EffectLog::Floats& x = s.f32a;
  EffectLog::Floats& wf = s.f32b;
  EffectLog::Floats& out = s.f32c;
  // The block path: each channel's moving row and output row is one run of bytes (checked once per row).
  std::array<uint64_t, PeWeights::kRows> src_rows{}, dst_rows{};
  const bool blocks = exec::forward_runs(txn, src, mm.src, rows, N, in_size, src_rows) &&
                      exec::forward_runs(txn, dst, mm.dst, cols, N, out_size, dst_rows);
  x.resize(size_t{rows} * N);
  // Row k of the moving tile: in `x`, or where it lies in memory.
  std::array<const float*, PeWeights::kRows> x_rows{};
  for (unsigned k = 0; k < rows; ++k) x_rows[k] = x.data() + size_t{k} * N;
  bool x_in_memory = false;
  if (blocks && (mm.in_dtype == dtype::kFp32 || mm.in_dtype == dtype::kFp32r)) {
    // FP32 moving rows are their stored bits (to_fp32_bits is the identity, N17): read where they lie when they are
    // written, 4-byte aligned and in one stored span, else copied into the tile.
    for (unsigned k = 0; k < rows; ++k) {
      auto* row = reinterpret_cast<uint8_t*>(x.data() + size_t{k} * N);  // NOLINT: FP32 bits
      const uint8_t* at = src_rows[k] % 4 == 0 ? txn.read_run(src_rows[k], N * 4, 4, row) : nullptr;
      if (at == nullptr) txn.read_block(src_rows[k], N * 4, 4, row);
      if (at != nullptr && at != row) {
        x_rows[k] = reinterpret_cast<const float*>(at);  // NOLINT: FP32 bits in memory
        x_in_memory = true;
      }
    }
  } else if (blocks) {
    EffectLog::Bytes& bytes = s.bytes_a;
    bytes.resize(N * in_size);
    for (unsigned k = 0; k < rows; ++k) {
      txn.read_block(src_rows[k], N * in_size, in_size, bytes.data());
      row_to_f32(bytes.data(), N, mm.in_dtype, in_size, x.data() + k * N);
    }
  } else {
    for (unsigned k = 0; k < rows; ++k)
      for (size_t n = 0; n < N; ++n) {
        uint64_t a = 0;
        if (!onchip_at(txn, src, mm.src, k, n, in_size, "source", a)) return false;
        x[k * N + n] = std::bit_cast<float>(to_fp32_bits(txn.read_mem(a, in_size), mm.in_dtype));
      }
    for (unsigned m = 0; m < cols; ++m)
      for (size_t n = 0; n < N; ++n) {
        uint64_t a = 0;
        if (!onchip_at(txn, dst, mm.dst, m, n, out_size, "destination", a)) return false;
      }
  }
  const bool w_ok = w.loaded && convertible(w.dtype);
  // PROJ-CONV-F18: a selection column (one 1.0, every other entry ±0) passes W's stored bits unchanged. Column n's
  // selection is its selected row, -1 for none, -2 for a column that is not a selection; found a row at a time.
  EffectLog::Bytes& sels = s.bytes_a;
  int* column_sel = nullptr;
  bool all_selections = false;
  if (transpose && blocks) {
    sels.resize(N * sizeof(int));
    column_sel = reinterpret_cast<int*>(sels.data());  // NOLINT: the scratch bytes as ints, written before read
    std::fill(column_sel, column_sel + N, -1);
    for (unsigned k = 0; k < rows; ++k)
      kernels::note_selection_row(reinterpret_cast<const uint32_t*>(x_rows[k]), static_cast<int>(k), N,  // NOLINT
                                  column_sel);
    all_selections = std::all_of(column_sel, column_sel + N, [](int v) { return v >= 0; });
  }
  if (blocks && all_selections && out_size == in_size && w_ok && rows <= w.rows && cols <= w.cols) {
    // Every column selects a row and the output keeps the stored bits: output row m's element n is W[sel(n)][m],
    // kSelectionGroup output rows at a time. No sum is read, so the weights are not converted either.
    txn.add_macs(uint64_t{rows} * cols * N);
    // Nothing can fault past here, and no moving row is read again: the rows go straight to memory when they may.
    const uint64_t row_bytes = uint64_t{N} * out_size;
    const bool direct = txn.may_write_runs_in_place(dst_rows.data(), cols, row_bytes);
    EffectLog::Bytes& group = s.bytes_b;
    group.resize(size_t{kSelectionGroup} * N * out_size);
    for (unsigned m0 = 0; m0 < cols; m0 += kSelectionGroup) {
      const unsigned g = std::min(kSelectionGroup, cols - m0);
      if (out_size == 4)
        kernels::gather_selection_rows(w.bits.data() + m0, PeWeights::kCols, column_sel, N, g,
                                       reinterpret_cast<uint32_t*>(group.data()));  // NOLINT: the scratch as u32
      else if (out_size == 2)
        gather_selections<2>(w.bits.data() + m0, column_sel, N, g, group.data());
      else
        gather_selections<1>(w.bits.data() + m0, column_sel, N, g, group.data());
      for (unsigned i = 0; i < g; ++i) {
        const uint8_t* row = group.data() + size_t{i} * row_bytes;
        if (uint8_t* at = direct ? txn.write_run_in_place(dst_rows[m0 + i], row_bytes, out_size) : nullptr)
          std::memcpy(at, row, row_bytes);
        else
          txn.stage_block(dst_rows[m0 + i], row, row_bytes, out_size);
      }
    }
    return true;
  }
  // The weights as FP32, row k at wp + k * ldw. FP32 weights are their stored bits (to_fp32_bits is the identity,
  // N17): the kernel reads the engine's array in place.
  const float* wp = nullptr;
  size_t ldw = cols;
  if (w_ok && (w.dtype == dtype::kFp32 || w.dtype == dtype::kFp32r) && rows <= w.rows && cols <= w.cols) {
    wp = reinterpret_cast<const float*>(w.bits.data());  // NOLINT: FP32 bits, as in memory
    ldw = PeWeights::kCols;
  } else if (w_ok && (w.dtype == dtype::kFp16 || w.dtype == dtype::kBfloat16) && rows <= w.rows && cols <= w.cols) {
    // The block path of the weights: each row's stored 2-byte patterns through the row conversion.
    wf.resize(size_t{rows} * cols);
    EffectLog::Bytes& bytes = s.bytes_b;
    bytes.resize(size_t{cols} * 2);
    for (unsigned k = 0; k < rows; ++k) {
      for (unsigned m = 0; m < cols; ++m) {
        const uint32_t b = w.bits[size_t{k} * PeWeights::kCols + m];
        bytes[2 * m] = static_cast<uint8_t>(b);
        bytes[2 * m + 1] = static_cast<uint8_t>(b >> 8);
      }
      row_to_f32(bytes.data(), cols, w.dtype, 2, wf.data() + size_t{k} * cols);
    }
    wp = wf.data();
  } else {
    wf.resize(size_t{rows} * cols);
    for (unsigned k = 0; k < rows; ++k)
      for (unsigned m = 0; m < cols; ++m)
        wf[size_t{k} * cols + m] =
            w_ok && k < w.rows && m < w.cols
                ? std::bit_cast<float>(to_fp32_bits(w.bits[size_t{k} * PeWeights::kCols + m], w.dtype))
                : 0.0F;
    wp = wf.data();
  }
  const bool begin = (mm.accumulate & 1U) != 0;
  const bool accumulate = !transpose && !begin && !ctl.matmul_never_accumulates;
  std::array<float*, PeWeights::kCols> out_rows{};
  const bool in_place =
      blocks && !transpose && sums_in_place(txn, dst_rows.data(), cols, N, accumulate, out_rows.data());
  if (in_place && x_in_memory && overlaps(src_rows.data(), rows, dst_rows.data(), cols, uint64_t{N} * 4)) {
    for (unsigned k = 0; k < rows; ++k) {  // the sums would change moving rows they read: those are copied first
      float* copy = x.data() + size_t{k} * N;
      if (x_rows[k] != copy) std::memcpy(copy, x_rows[k], N * 4);
      x_rows[k] = copy;
    }
  }
  if (!in_place) {  // the sums go to `out`, from zero or from the output rows, and are staged
    out.resize(size_t{cols} * N);
    for (unsigned m = 0; m < cols; ++m) out_rows[m] = out.data() + size_t{m} * N;
    if (accumulate && blocks) {
      static_assert(std::endian::native == std::endian::little);
      for (unsigned m = 0; m < cols; ++m)
        txn.read_block(dst_rows[m], N * 4, 4, reinterpret_cast<uint8_t*>(out.data() + m * N));  // NOLINT: FP32 bits
    } else if (!accumulate) {
      std::fill(out.begin(), out.end(), 0.0F);
    } else {
      for (unsigned m = 0; m < cols; ++m)
        for (size_t n = 0; n < N; ++n) {
          uint64_t a = 0;
          onchip_at(txn, dst, mm.dst, m, n, 4, "destination", a);
          out[m * N + n] = std::bit_cast<float>(static_cast<uint32_t>(txn.read_mem(a, 4)));
        }
    }
  }
  // The fused kernel equals the F17 order exactly when every product is exact in FP32: always for FP16/FP8 values,
  // for BF16 unless a value is extreme, for FP32 only by chance; the tiles are checked, the rest go unfused.
  // FP16 times FP16 is always exact (11-bit significands, products far inside FP32's range): no check needed.
  const bool fp16_only = mm.in_dtype == dtype::kFp16 && (!w_ok || w.dtype == dtype::kFp16);
  const bool exact_products = fp16_only || all_selections ||
                              (kernels::fma_exact_operands(wp, ldw, rows, cols) &&
                               std::all_of(x_rows.begin(), x_rows.begin() + rows,
                                           [&](const float* r) { return kernels::fma_exact_operands(r, N, 1, N); }));
  // A long product's moving columns are split across the step's kernel threads: a column's sums are the same on any
  // thread, so the bits do not depend on the split. A transpose whose every column selects a row reads no sum.
  const size_t parts = uint64_t{rows} * cols * N >= txn.options().kernel_split_macs
                           ? std::clamp<size_t>(txn.options().kernel_threads, 1, N / 32 + 1)
                           : 1;
  if (!all_selections)
    exec::for_parts(txn.options().kernel_threads, parts, [&](size_t i) {
      const size_t from = N * i / parts / 16 * 16, to = i + 1 == parts ? N : N * (i + 1) / parts / 16 * 16;
      if (exact_products)
        kernels::matmul_f32_rows(wp, ldw, x_rows.data(), out_rows.data(), from, rows, cols, to - from, accumulate);
      else
        kernels::matmul_f32_generic_rows(wp, ldw, x_rows.data(), out_rows.data(), from, rows, cols, to - from,
                                         accumulate);
    });
  txn.add_macs(uint64_t{rows} * cols * N);
  if (in_place) return true;
  if (blocks && !transpose) {
    for (unsigned m = 0; m < cols; ++m)
      txn.stage_block(dst_rows[m], reinterpret_cast<const uint8_t*>(out.data() + m * N), N * 4, 4);  // NOLINT
    return true;
  }
  const auto selection = [&](size_t n) {  // the element path's selection of column n, as above
    int sel = -1;
    for (unsigned k = 0; k < rows; ++k) {
      const uint32_t b = std::bit_cast<uint32_t>(x[k * N + n]);
      if (b == kOneF32 && sel == -1) {
        sel = static_cast<int>(k);
      } else if ((b & 0x7FFFFFFFU) != 0) {
        return -2;
      }
    }
    return sel;
  };
  const auto transposed = [&](int sel, unsigned m, size_t n) -> uint64_t {
    if (sel >= 0) {
      const uint32_t stored = w_ok && static_cast<unsigned>(sel) < w.rows && m < w.cols
                                  ? w.bits[static_cast<size_t>(sel) * PeWeights::kCols + m]
                                  : 0;
      return out_size == in_size ? stored : to_fp32_bits(stored, w.dtype);
    }
    const uint32_t acc = std::bit_cast<uint32_t>(out[m * N + n]);
    return out_size == 4 ? acc : from_fp32_bits(acc, mm.in_dtype, txn.options().convert);
  };
  if (blocks) {  // a transpose: each output row is one run, its elements the bytes the element path stages
    EffectLog::Bytes& row = s.bytes_b;
    row.resize(N * out_size);
    for (unsigned m = 0; m < cols; ++m) {
      for (size_t n = 0; n < N; ++n) put_le(row.data() + n * out_size, out_size, transposed(column_sel[n], m, n));
      txn.stage_block(dst_rows[m], row.data(), N * out_size, out_size);
    }
    return true;
  }
  for (size_t n = 0; n < N; ++n) {
    const int sel = transpose ? selection(n) : -1;
    for (unsigned m = 0; m < cols; ++m) {
      uint64_t a = 0;
      onchip_at(txn, dst, mm.dst, m, n, out_size, "destination", a);
      if (!transpose) {
        txn.stage_mem(a, 4, std::bit_cast<uint32_t>(out[m * N + n]));
        continue;
      }
      txn.stage_mem(a, out_size, transposed(sel, m, n));
    }
  }
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  switch (inst.opcode()) {
    case opcode::kLdWeights: return exec_ldweights(inst, txn);
    case opcode::kMatmul: return exec_matmul(inst, txn);
    default:
      return txn.fail(FaultKind::UnsupportedOpcode,
                      fmt::format("execution of {} ({:#04x}) is not modeled", inst.name(), inst.opcode()));
  }
}

/// LDWEIGHTS / MATMUL through their generation's layout (PROJ-CONV-G5; real-programs.md §8.3, §9.3, §9.6): src is
/// read on num_active_rows partitions in in_dtype; MATMUL's dst is written on num_active_cols output partitions at
/// the input width in transpose mode, else FP32 (PROJ-CONV-F15); it lies where its address says (PSUM, or SBUF on
/// MAVERICK, which has no PSUM: PROJ-CONV-N1). The ranges are the ones decode's description states.
Footprint footprint(const Instruction& inst, Generation g) {
  Footprint f;
  const matmul::PeView v = matmul::view(inst);
  const auto add = [&](std::string_view name, const matmul::Footprint& m, bool write) {
    if (m.known) f.add({name, m.region, m.first_partition, m.partitions, m.first, m.last, write});
  };
  add("src", matmul::src_footprint(v, g), false);
  if (v.matmul) add("dst", matmul::dst_footprint(v, g), true);
  return f;
}

constexpr Execution kExecution{.execute = execute, .footprint = footprint};

}  // namespace

const Execution& MatmulFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
