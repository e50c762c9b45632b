// Activation family semantics (act-index-ops.md §4.3, §5.3, §6.3, §7.3, §8.3, §8.4): func(scale·x + bias) from the
// loaded set's tables, the ACT accumulators, and the table loads. Sources are read from the committed state and every
// write is staged, so reads precede writes and a fault commits nothing (§2.4, §2.6).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "families/act/format.hpp"
#include "families/act/tables.hpp"
#include "families/common.hpp"
#include "families/index/row_pieces.hpp"
#include "kernels/convert.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

float f32(uint32_t b) {
  return std::bit_cast<float>(b);
}
uint32_t bits(float f) {
  return std::bit_cast<uint32_t>(f);
}

bool within_bound(exec::Txn& txn, uint64_t count, unsigned channels) {
  if (count * channels <= txn.options().max_elements_per_instruction) return true;
  return txn.fail(FaultKind::ResourceLimit, fmt::format("{} elements x {} channels exceed the per-instruction bound "
                                                        "of {}",
                                                        count, channels, txn.options().max_elements_per_instruction));
}

/// The register check of a REG_PTR operand (§2.6 step 4), before any element access.
bool register_ok(exec::Txn& txn, uint32_t value, uint8_t src, std::string_view which) {
  if (src != imm_src::kRegPointer || (value & 0xFF) < kNumRegisters) return true;
  return txn.fail_reg(FaultKind::IllegalRegister, static_cast<int>(value & 0xFF),
                      fmt::format("{} names register {} (PROJ-CONV-N16)", which, value & 0xFF));
}

/// operand(value, src, c, dtype) of §2.2 as fp32 bits: an instruction immediate is its own fp32 bits (PROJ-CONV-A8);
/// a pointer (or a register holding one) names one element of `d` at partition_of(ptr) + c, widened by to_fp32.
bool operand(exec::Txn& txn, uint32_t value, uint8_t src, unsigned c, uint8_t d, std::string_view which,
             uint32_t& out) {
  if (src != imm_src::kPointer && src != imm_src::kRegPointer) {
    out = value;
    return true;
  }
  const uint32_t ptr = (src == imm_src::kRegPointer ? txn.reg(value & 0xFF) : value) & kPartitionAddrMask;
  const unsigned size = dtype_size(d);
  uint64_t address = 0;
  if (!exec::onchip_element(txn.gen(), ptr, c, 0, size, address))
    return txn.fail_at(FaultKind::OutOfRange, exec::nominal_element_address(txn.gen(), ptr, c, 0),
                       fmt::format("channel {} {} pointer leaves SBUF/PSUM (PROJ-CONV-N2)", c, which));
  out = to_fp32_bits(txn.read_mem(address, size), d);
  return true;
}

std::string function_label(uint8_t id) {
  const std::string_view name = act::catalog_name(id);
  return name.empty() ? fmt::format("function {}", id) : fmt::format("function {} ({})", id, name);
}

/// The loaded set and the profile of function `id` (§3.9, step 4b): faults ActivationTableNotLoaded,
/// ActivationFunctionNotInSet, UnsupportedActivationFunction (a multipass profile, PROJ-CONV-A5).
bool resolve(exec::Txn& txn, const Instruction& inst, uint8_t id, const act::TableSet*& set,
             const act::Profile*& profile) {
  set = txn.engine().act_set;
  if (set == nullptr && txn.options().act_builtin_exact) set = &act::builtin_exact_set();
  if (set == nullptr)
    return txn.fail(
        FaultKind::ActivationTableNotLoaded,
        fmt::format("{} of {}: no activation-function set is loaded (PROJ-CONV-A7)", inst.name(), function_label(id)));
  profile = set->profile(id);
  if (profile == nullptr)
    return txn.fail(FaultKind::ActivationFunctionNotInSet,
                    fmt::format("{} is not in the loaded set {} (PROJ-CONV-A7)", function_label(id), set->name()));
  if (profile->use_multipass)
    return txn.fail(FaultKind::UnsupportedActivationFunction,
                    fmt::format("{} ({}) of set {} is a multipass profile (PROJ-CONV-A5)", function_label(id),
                                profile->func_name, set->name()));
  return true;
}

act::EvalOptions eval_options(const exec::Txn& txn) {
  return {.nan_fallthrough = txn.options().pwp_nan_fallthrough};
}

bool table_fault(exec::Txn& txn, const act::TableSet& set, const act::Profile& p, int64_t index) {
  return txn.fail(FaultKind::ActivationTableError,
                  fmt::format("set {}, function {}: index {} is outside its tables", set.name(), p.func_name, index));
}

/// pwp_eval of §3.6; an index outside the tables is ActivationTableError.
bool evaluate(exec::Txn& txn, const act::TableSet& set, const act::Profile& p, uint32_t v, uint32_t alpha,
              uint32_t& out) {
  const act::EvalResult r = act::evaluate(set, p, v, alpha, eval_options(txn));
  if (r.status == act::EvalStatus::Ok) {
    out = r.bits;
    return true;
  }
  return table_fault(txn, set, p, r.index);
}

/// Row addresses of up to kMaxChannels channels (the row path).
using Rows = std::array<uint64_t, kMaxChannels>;

/// One channel's row of the row path: dtypes, sizes, element count and the row addresses.
struct Row {
  uint8_t in, out;
  unsigned isz, osz;
  uint64_t n, src, dst;
};

/// Element i of a little-endian row of `size`-byte elements, and its store.
uint32_t row_element(const uint8_t* row, uint64_t i, unsigned size) {
  uint32_t v = 0;
  std::memcpy(&v, row + i * size, size);  // little-endian host (the machine's memory is little-endian)
  return v;
}
void set_row_element(uint8_t* row, uint64_t i, unsigned size, uint64_t v) {
  const auto w = static_cast<uint32_t>(v);
  std::memcpy(row + i * size, &w, size);
}

/// Stages row `r`'s n fp32 results `y` at its destination in its output dtype.
void stage_results(exec::Txn& txn, const Row& r, const uint32_t* y) {
  uint8_t* ob = txn.stage_run(r.dst, r.n * r.osz, r.osz);
  if (r.out == dtype::kFp32) {
    std::memcpy(ob, y, r.n * 4);
  } else if (r.out == dtype::kBfloat16) {  // narrowed in SIMD lanes (from_fp32_bits' bits)
    kernels::fp32_to_bf16(reinterpret_cast<const float*>(y), reinterpret_cast<uint16_t*>(ob), r.n,  // NOLINT
                          txn.options().convert.sis);
  } else {
    const ConvertOptions& convert = txn.options().convert;
    for (uint64_t k = 0; k < r.n; ++k) set_row_element(ob, k, r.osz, from_fp32_bits(y[k], r.out, convert));
  }
}

/// activate_row written where the results go (exec_activate decided that it may: see there): each piece of the row
/// that lies in one source page and one destination page is evaluated straight into the destination's memory, an
/// fp32 output by the row pass or the memo, a BF16 one by the memo. `y` is scratch for n fp32 values.
bool activate_row_in_place(exec::Txn& txn, const act::TableSet& set, const act::Profile& p, const Row& r, float s,
                           float b, uint32_t alpha, uint32_t* y, act::Bf16Memo* memo) {
  EffectLog::Bytes& scratch = txn.scratch().bytes_a;
  scratch.resize(r.n * r.isz);
  const act::EvalOptions options = eval_options(txn);
  for (uint64_t k = 0; k < r.n;) {
    const uint64_t len = std::min(
        {r.n - k, row_pieces::page_room(r.src + k * r.isz, r.isz), row_pieces::page_room(r.dst + k * r.osz, r.osz)});
    const uint8_t* ib = txn.read_run(r.src + k * r.isz, len * r.isz, r.isz, scratch.data() + k * r.isz);
    uint8_t* ob = txn.write_run_in_place(r.dst + k * r.osz, len * r.osz, r.osz);
    if (ob == nullptr) ob = txn.stage_run(r.dst + k * r.osz, len * r.osz, r.osz);  // not met: the piece is one page
    // The memo writes a row while it looks it up and looks it up again after learning its new patterns: a row
    // written over its own source is read from a copy.
    if (memo != nullptr && ib == ob) {
      std::memcpy(scratch.data() + k * r.isz, ib, len * r.isz);
      ib = scratch.data() + k * r.isz;
    }
    act::RowInput in{.data = ib, .bf16 = r.in == dtype::kBfloat16, .affine = true, .scale = s, .bias = b};
    if (r.in != dtype::kFp32 && r.in != dtype::kBfloat16) {  // the other dtypes widened first
      for (uint64_t i = 0; i < len; ++i) y[k + i] = to_fp32_bits(row_element(ib, i, r.isz), r.in);
      in.data = y + k;
    }
    if (r.out == dtype::kFp32) {
      auto* o = reinterpret_cast<uint32_t*>(ob);  // 4-aligned: exec_activate checked every destination row
      if (memo == nullptr || !memo->row(ib, o, len)) {
        const act::RowResult e = act::evaluate_row(set, p, in, o, len, alpha, options);
        if (e.status != act::EvalStatus::Ok) return table_fault(txn, set, p, e.index);  // not met: never_faults
      }
    } else if (!memo->row_bf16(ib, ob, len)) {  // BF16 out of the memo (exec_activate required one)
      const act::RowResult e = act::evaluate_row(set, p, in, y + k, len, alpha, options);
      if (e.status != act::EvalStatus::Ok) return table_fault(txn, set, p, e.index);
      kernels::fp32_to_bf16(reinterpret_cast<const float*>(y + k), reinterpret_cast<uint16_t*>(ob), len,
                            txn.options().convert.sis);
    }
    k += len;
  }
  return true;
}

/// ACTIVATE's row path for one channel: f(RN32(RN32(x·s) + b)) over the row in one pass (act::evaluate_row: the
/// widening, the affine step, the lookup and the cubic; or the BF16 memo), the source read a memory page at a time
/// where it lies. The fp32 results go to `y` (n fp32 bits) when `keep` (the accumulators read them), else straight
/// into the staged row when the output is fp32; other outputs are converted from them and staged.
bool activate_row(exec::Txn& txn, const act::TableSet& set, const act::Profile& p, const Row& r, float s, float b,
                  uint32_t alpha, uint32_t* y, bool keep, act::Bf16Memo* memo) {
  // BF16 out of the memo: its narrowed results straight into the staged row.
  const bool narrow_memo = memo != nullptr && r.out == dtype::kBfloat16 && !keep;
  uint8_t* ob = nullptr;
  if ((r.out == dtype::kFp32 || narrow_memo) && !keep) ob = txn.stage_run(r.dst, r.n * r.osz, r.osz);
  if (r.out == dtype::kFp32 && !keep)
    y = reinterpret_cast<uint32_t*>(ob);  // the staged bytes are 4-aligned: every run of this step is fp32
  EffectLog::Bytes& scratch = txn.scratch().bytes_a;
  scratch.resize(r.n * r.isz);
  const act::EvalOptions options = eval_options(txn);
  for (uint64_t k = 0; k < r.n;) {
    const uint64_t len = std::min(r.n - k, row_pieces::page_room(r.src + k * r.isz, r.isz));
    const uint8_t* ib = txn.read_run(r.src + k * r.isz, len * r.isz, r.isz, scratch.data() + k * r.isz);
    act::RowInput in{.data = ib, .bf16 = r.in == dtype::kBfloat16, .affine = true, .scale = s, .bias = b};
    if (r.in != dtype::kFp32 && r.in != dtype::kBfloat16) {  // the other dtypes widened first, evaluated in place
      for (uint64_t i = 0; i < len; ++i) y[k + i] = to_fp32_bits(row_element(ib, i, r.isz), r.in);
      in.data = y + k;
    }
    const bool memo_done =
        memo != nullptr && (narrow_memo ? memo->row_bf16(ib, ob + 2 * k, len) : memo->row(ib, y + k, len));
    if (!memo_done) {  // a row the memo refuses faults here, at its element
      const act::RowResult e = act::evaluate_row(set, p, in, y + k, len, alpha, options);
      if (e.status != act::EvalStatus::Ok) return table_fault(txn, set, p, e.index);
      if (narrow_memo)
        kernels::fp32_to_bf16(reinterpret_cast<const float*>(y + k), reinterpret_cast<uint16_t*>(ob + 2 * k), len,
                              txn.options().convert.sis);
    }
    k += len;
  }
  if (ob != nullptr) return true;
  stage_results(txn, r, y);
  return true;
}

/// The row path's memo of BF16 patterns (act::Bf16Memo), one per thread, forgotten when the instruction ends.
class MemoRun {
 public:
  MemoRun() = default;
  MemoRun(const MemoRun&) = delete;
  MemoRun& operator=(const MemoRun&) = delete;
  ~MemoRun() {
    if (memo_ != nullptr) memo_->end();
  }
  act::Bf16Memo* begin(const act::TableSet& set, const act::Profile& p, const act::RowInput& in,
                       const act::EvalOptions& options, bool saturate) {
    thread_local act::Bf16Memo memo;  // allocated at the thread's first BF16 row, reused after
    memo_ = &memo;
    memo_->begin(set, p, in, options, saturate);
    return memo_;
  }

 private:
  act::Bf16Memo* memo_ = nullptr;
};

/// The channels whose accumulations the row path runs side by side: each channel's sum is one chain of fp32
/// additions in element order (PROJ-CONV-A9), a chain bound by the adder's latency; eight independent chains keep
/// the adders busy.
constexpr unsigned kSumGroup = 8;

/// acc[j] += rows[j·stride + k] for k = 0 .. n-1 in element order, one rounding per addition, for the `g` rows.
void accumulate_rows(const uint32_t* rows, uint64_t stride, unsigned g, uint64_t n, float* acc) {
  if (g == kSumGroup) {
    float a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3], a4 = acc[4], a5 = acc[5], a6 = acc[6], a7 = acc[7];
    for (uint64_t k = 0; k < n; ++k) {
      a0 = a0 + f32(rows[k]);
      a1 = a1 + f32(rows[stride + k]);
      a2 = a2 + f32(rows[2 * stride + k]);
      a3 = a3 + f32(rows[3 * stride + k]);
      a4 = a4 + f32(rows[4 * stride + k]);
      a5 = a5 + f32(rows[5 * stride + k]);
      a6 = a6 + f32(rows[6 * stride + k]);
      a7 = a7 + f32(rows[7 * stride + k]);
    }
    const float sums[kSumGroup] = {a0, a1, a2, a3, a4, a5, a6, a7};
    std::copy(std::begin(sums), std::end(sums), acc);
    return;
  }
  for (unsigned j = 0; j < g; ++j)
    for (uint64_t k = 0; k < n; ++k) acc[j] = acc[j] + f32(rows[j * stride + k]);
}

// ---- ACTIVATE (§4.3) ----

/// Channel c's operands of an ACTIVATE (fp32 bits) and its accumulator's start value, read in the order of §4.3:
/// scale, bias, the immediate where it is read (parametric ReLU, LOAD_ACCUMULATE), the accumulator (ACCUMULATE).
struct ChannelOperands {
  uint32_t scale = 0, bias = 0, alpha = 0;
  float acc = 0.0F;
};
bool channel_operands(exec::Txn& txn, const S3d3Ac& t, const act::Profile& p, uint8_t bias_src, uint8_t bias_d,
                      unsigned c, ChannelOperands& ops) {
  const uint8_t cmd = t.accumulator_cmd;
  if (!operand(txn, t.scale_value.raw, t.scale_src, c, dtype::kFp32, "scale_value", ops.scale) ||
      !operand(txn, t.bias.raw, bias_src, c, bias_d, "bias", ops.bias))
    return false;
  if ((p.parametric_relu || cmd == accum_cmd::kLoadAccumulate) &&
      !operand(txn, t.imm.raw, t.imm_src, c, dtype::kFp32, "imm", ops.alpha))
    return false;
  if (cmd == accum_cmd::kAccumulate) txn.note_dve_read(c, DveField::Acc, 0, txn.engine().dve[c].acc);
  ops.acc = cmd == accum_cmd::kAccumulate       ? f32(txn.engine().dve[c].acc)
            : cmd == accum_cmd::kLoadAccumulate ? f32(ops.alpha)
                                                : 0.0F;
  return true;
}

/// A piece of an ACTIVATE row evaluated on a kernel thread: `len` fp32 inputs at `in`, results to `out`, which is the
/// destination at `dst` in memory, or the scratch row when `staged`.
struct RowPiece {
  const uint8_t* in;
  uint32_t* out;
  uint64_t len, dst;
  bool staged;
};

/// What activate_rows_on_threads needs of the instruction, decided by exec_activate.
struct ThreadedRows {
  const S3d3Ac& t;
  const act::TableSet& set;
  const act::Profile& p;
  uint8_t in, out, bias_d, bias_src, cmd;
  unsigned isz, osz, nac;
  uint64_t n;
  bool in_place, accumulating;
};

/// ACTIVATE's row path with the channels' rows evaluated on the step's kernel threads, for fp32 or BF16 rows of a
/// function that cannot fault (Profile::never_faults), no two channels' rows overlapping (exec::rows_apart_ok). The
/// calling thread first reads each channel's operands and row and claims its in-place destination, channel after
/// channel, as the one-thread path does (a pointer operand out of range faults there, before any write); the threads
/// then evaluate whole channels (each row, and each channel's sum, exactly as on one thread); last, in channel order
/// again, the rows not written in place and the accumulators are staged. The same reads, writes, counts and faults as
/// the one-thread path.
bool activate_rows_on_threads(exec::Txn& txn, const ThreadedRows& r, const Rows& sr, const Rows& dr) {
  const uint64_t n = r.n;
  EffectLog::Bytes& in_bytes = txn.scratch().bytes_a;
  in_bytes.resize(r.nac * n * r.isz);
  // The results of the rows not written in place.
  EffectLog::Bytes& y_bytes = txn.scratch().bytes_b;
  y_bytes.resize(r.nac * n * 4 + 4);
  auto* ys = reinterpret_cast<uint32_t*>(y_bytes.data());  // NOLINT: byte storage as fp32 bits, written before read
  // Reused by the calling thread's steps; named through references, which the threads' lambda captures (a
  // thread_local named in it would be the executing thread's own).
  thread_local std::vector<RowPiece> kept_pieces;
  thread_local std::vector<size_t> kept_first_piece;
  std::vector<RowPiece>& pieces = kept_pieces;
  std::vector<size_t>& first_piece = kept_first_piece;
  pieces.clear();
  first_piece.assign(r.nac + 1, 0);
  // Per channel: the operands, and the accumulator (its start value, then its sum).
  std::array<float, kMaxChannels> scale{}, bias{}, acc{};
  std::array<uint32_t, kMaxChannels> alpha{};
  for (unsigned c = 0; c < r.nac; ++c) {
    ChannelOperands ops;
    if (!channel_operands(txn, r.t, r.p, r.bias_src, r.bias_d, c, ops)) return false;
    scale[c] = f32(ops.scale);
    bias[c] = f32(ops.bias);
    alpha[c] = ops.alpha;
    acc[c] = ops.acc;
    first_piece[c] = pieces.size();
    uint32_t* y = ys + c * n;
    for (uint64_t k = 0; k < n;) {
      uint64_t len = std::min(n - k, row_pieces::page_room(sr[c] + k * r.isz, r.isz));
      if (r.in_place) len = std::min(len, row_pieces::page_room(dr[c] + k * r.osz, r.osz));
      const uint8_t* ib = txn.read_run(sr[c] + k * r.isz, len * r.isz, r.isz, in_bytes.data() + (c * n + k) * r.isz);
      uint8_t* ob = r.in_place ? txn.write_run_in_place(dr[c] + k * r.osz, len * r.osz, r.osz) : nullptr;
      // Not met in place (each piece lies in one page): the piece is then staged like a row that is not in place.
      pieces.push_back({ib, ob != nullptr ? reinterpret_cast<uint32_t*>(ob) : y + k, len,  // NOLINT: fp32, aligned
                        dr[c] + k * r.osz, ob == nullptr});
      k += len;
    }
  }
  first_piece[r.nac] = pieces.size();
  const unsigned threads = txn.options().kernel_threads;
  const size_t parts = std::min<size_t>(threads, r.nac);
  std::array<int64_t, kMaxChannels> bad{};  // per channel: the faulting index, when one faults (never_faults)
  std::array<bool, kMaxChannels> faulted{};
  const act::EvalOptions options = eval_options(txn);
  exec::for_parts(threads, parts, [&](size_t i) {
    const auto from = static_cast<unsigned>(r.nac * i / parts), to = static_cast<unsigned>(r.nac * (i + 1) / parts);
    for (unsigned c = from; c < to; ++c)
      for (size_t q = first_piece[c]; q < first_piece[c + 1]; ++q) {
        const RowPiece& piece = pieces[q];
        const act::RowInput in{
            .data = piece.in, .bf16 = r.in == dtype::kBfloat16, .affine = true, .scale = scale[c], .bias = bias[c]};
        const act::RowResult e = act::evaluate_row(r.set, r.p, in, piece.out, piece.len, alpha[c], options);
        if (e.status != act::EvalStatus::Ok) {
          faulted[c] = true;
          bad[c] = e.index;
          break;
        }
      }
    if (r.accumulating)
      for (unsigned c = from; c < to; c += kSumGroup)
        accumulate_rows(ys + c * n, n, std::min(kSumGroup, to - c), n, acc.data() + c);
  });
  for (unsigned c = 0; c < r.nac; ++c)
    if (faulted[c]) return table_fault(txn, r.set, r.p, bad[c]);  // not met: never_faults
  for (unsigned c = 0; c < r.nac; ++c) {
    if (r.in_place) {
      for (size_t q = first_piece[c]; q < first_piece[c + 1]; ++q)
        if (const RowPiece& piece = pieces[q]; piece.staged)
          std::memcpy(txn.stage_run(piece.dst, piece.len * 4, 4), piece.out, piece.len * 4);
    } else {
      stage_results(txn, {r.in, r.out, r.isz, r.osz, n, sr[c], dr[c]}, ys + c * n);
    }
    if (r.cmd == accum_cmd::kZero)
      txn.stage_dve(c, DveField::Acc, 0, 0);
    else if (r.accumulating)
      txn.stage_dve(c, DveField::Acc, 0, bits(acc[c]));
  }
  return true;
}

bool exec_activate(const Instruction& inst, const S3d3Ac& t, exec::Txn& txn) {
  const uint8_t in = act::pair_in(t.in_bias_dtype), bias_d = act::pair_bias(t.in_bias_dtype), out = t.out_dtype;
  const uint8_t bias_src = act::to_imm_src(t.bias_src_n);
  const bool bias_ptr = bias_src == imm_src::kPointer || bias_src == imm_src::kRegPointer;
  if (!element_dtype_supported(txn, in, "in") || !element_dtype_supported(txn, out, "out") ||
      (bias_ptr && !element_dtype_supported(txn, bias_d, "bias")))
    return false;
  uint32_t src = 0, dst = 0;
  if (!onchip_start(txn, t.src.start_addr, src, "src") || !onchip_start(txn, t.dst.start_addr, dst, "dst"))
    return false;
  const act::TableSet* set = nullptr;
  const act::Profile* p = nullptr;
  const uint8_t cmd = t.accumulator_cmd;
  // Step 4: the register operands; `imm` only where it is read (PROJ-CONV-A10).
  const bool imm_read =
      cmd == accum_cmd::kLoadAccumulate ||
      (txn.engine().act_set != nullptr && txn.engine().act_set->profile(t.activation_func) != nullptr &&
       txn.engine().act_set->profile(t.activation_func)->parametric_relu);
  if (!register_ok(txn, t.scale_value.raw, t.scale_src, "scale_value") ||
      !register_ok(txn, t.bias.raw, bias_src, "bias") || (imm_read && !register_ok(txn, t.imm.raw, t.imm_src, "imm")))
    return false;
  if (!resolve(txn, inst, t.activation_func, set, p)) return false;
  const uint64_t n = t.src.elements();
  const unsigned nac = t.num_active_channels, isz = dtype_size(in), osz = dtype_size(out);
  if (!within_bound(txn, n, nac)) return false;
  const bool accumulating =
      cmd == accum_cmd::kAccumulate || cmd == accum_cmd::kZeroAccumulate || cmd == accum_cmd::kLoadAccumulate;
  // The row path: every row a forward run (checked once), read and staged whole, and the set's lookup instead of
  // steps 3-5 per element; the same reads, writes, values and faults as the element path below.
  Rows sr{}, dr{};
  const bool rows = act::row_path_applies(*p, eval_options(txn)) &&
                    exec::forward_runs(txn, src, t.src, nac, n, isz, sr) &&
                    exec::forward_runs(txn, dst, t.dst, nac, n, osz, dr);
  // The row path's results: one row, or a group of rows whose sums run side by side (accumulate_rows). The byte
  // scratch holds the fp32 bits (byte storage holds objects of any type, C++20 [intro.object]).
  uint32_t* ys = nullptr;
  float group_acc[kSumGroup] = {};
  // BF16 rows whose scale and bias are the instruction's own (one affine step for every channel): each input pattern
  // is evaluated once, every element looked up.
  MemoRun memo_run;
  act::Bf16Memo* memo = nullptr;
  const auto immediate = [](uint8_t from) { return from != imm_src::kPointer && from != imm_src::kRegPointer; };
  if (rows) {
    EffectLog::Bytes& y_bytes = txn.scratch().bytes_b;
    y_bytes.resize((accumulating ? kSumGroup : 1) * n * 4 + 4);
    ys = reinterpret_cast<uint32_t*>(y_bytes.data());
    if (in == dtype::kBfloat16 && immediate(t.scale_src) && immediate(bias_src))
      memo = memo_run.begin(*set, *p,
                            {.bf16 = true, .affine = true, .scale = f32(t.scale_value.raw), .bias = f32(t.bias.raw)},
                            eval_options(txn), txn.options().convert.sis);
  }
  // The rows written where they go instead of staged and copied at commit. Past this point nothing can fault: the
  // function reaches no index outside the tables (Profile::never_faults) and every operand is the instruction's own
  // (no per-channel pointer read), so no result written is ever one a fault would drop. Besides: no accumulator reads
  // the results, the output is fp32 (4-aligned rows) or BF16 out of the memo, the destination pages exist and no
  // destination row overlaps a source row read after it (the step's commit then allocates nothing and cannot fail).
  const bool in_place = rows && !accumulating && p->never_faults && immediate(t.scale_src) && immediate(bias_src) &&
                        (out == dtype::kFp32 || (out == dtype::kBfloat16 && memo != nullptr)) &&
                        std::all_of(dr.begin(), dr.begin() + nac, [osz](uint64_t a) { return a % osz == 0; }) &&
                        txn.may_write_runs_in_place(dr.data(), nac, n * osz) &&
                        exec::rows_in_place_ok(sr.data(), n * isz, dr.data(), n * osz, nac, isz == osz);
  // Long fp32 or BF16 rows on the kernel threads: the same results, counts and faults (activate_rows_on_threads).
  if (rows && memo == nullptr && (in == dtype::kFp32 || in == dtype::kBfloat16) && p->never_faults &&
      !txn.recording() && txn.options().kernel_threads > 1 && n * nac >= txn.options().kernel_split_elements &&
      exec::rows_apart_ok(sr.data(), n * isz, dr.data(), n * osz, nac, isz == osz))
    return activate_rows_on_threads(
        txn, {t, *set, *p, in, out, bias_d, bias_src, cmd, isz, osz, nac, n, in_place, accumulating}, sr, dr);
  for (unsigned c = 0; c < nac; ++c) {
    ChannelOperands ops;
    if (!channel_operands(txn, t, *p, bias_src, bias_d, c, ops)) return false;
    const uint32_t s = ops.scale, b = ops.bias, alpha = ops.alpha;
    float acc = ops.acc;
    if (rows) {
      const unsigned slot = accumulating ? c % kSumGroup : 0;
      const Row row{in, out, isz, osz, n, sr[c], dr[c]};
      if (in_place ? !activate_row_in_place(txn, *set, *p, row, f32(s), f32(b), alpha, ys, memo)
                   : !activate_row(txn, *set, *p, row, f32(s), f32(b), alpha, ys + slot * n, accumulating, memo))
        return false;
      if (cmd == accum_cmd::kZero) txn.stage_dve(c, DveField::Acc, 0, 0);
      if (accumulating) {  // the group's sums once its last row is in, staged in channel order
        group_acc[slot] = acc;
        if (slot + 1 == kSumGroup || c + 1 == nac) {
          accumulate_rows(ys, n, slot + 1, n, group_acc);
          for (unsigned j = 0; j <= slot; ++j) txn.stage_dve(c - slot + j, DveField::Acc, 0, bits(group_acc[j]));
        }
      }
      continue;
    }
    for (uint64_t k = 0; k < n; ++k) {
      uint64_t a = 0;
      if (!onchip_at(txn, src, t.src, c, k, isz, "source", a)) return false;
      const float x = f32(to_fp32_bits(txn.read_mem(a, isz), in));
      const float xs = x * f32(s);
      const float y = xs + f32(b);  // two roundings, no fused multiply-add (PROJ-CONV-A8)
      uint32_t fb = 0;
      if (!evaluate(txn, *set, *p, bits(y), alpha, fb)) return false;
      uint64_t d = 0;
      if (!onchip_at(txn, dst, t.dst, c, k, osz, "destination", d)) return false;
      txn.stage_mem(d, osz, from_fp32_bits(fb, out, txn.options().convert));
      if (accumulating) acc = acc + f32(fb);
    }
    if (cmd == accum_cmd::kZero)
      txn.stage_dve(c, DveField::Acc, 0, 0);
    else if (accumulating)
      txn.stage_dve(c, DveField::Acc, 0, bits(acc));
  }
  return true;
}

// ---- ACTIVATE_QUANTIZE (§5.3) ----

bool exec_activate_quantize(const Instruction& inst, const S3d3Aq& t, exec::Txn& txn) {
  const uint8_t in = act::pair_in(t.in_bias_dtype), bias_d = act::pair_bias(t.in_bias_dtype), out = t.out_dtype;
  if (!element_dtype_supported(txn, in, "in") || !element_dtype_supported(txn, out, "out") ||
      !element_dtype_supported(txn, bias_d, "bias"))
    return false;
  uint32_t src = 0, dst = 0;
  if (!onchip_start(txn, t.src.start_addr, src, "src") || !onchip_start(txn, t.dst.start_addr, dst, "dst"))
    return false;
  const act::TableSet* set = nullptr;
  const act::Profile* p = nullptr;
  if (!resolve(txn, inst, t.activation_func, set, p)) return false;
  if (p->parametric_relu)
    return txn.fail(FaultKind::UnsupportedActivationFunction,
                    fmt::format("{}: parametric ReLU is excluded from ACTIVATE_QUANTIZE (PROJ-CONV-A13)",
                                function_label(t.activation_func)));
  const uint64_t n = t.src.elements();
  const unsigned nac = t.num_active_channels, isz = dtype_size(in), osz = dtype_size(out);
  if (!within_bound(txn, n, nac)) return false;
  const float dq = f32(t.dequant_scale_value.raw), q = f32(t.quant_scale_value.raw), z = f32(t.quant_zero_value.raw);
  for (unsigned c = 0; c < nac; ++c) {
    uint32_t b = 0;
    if (!operand(txn, t.bias_addr, imm_src::kPointer, c, bias_d, "bias_addr", b)) return false;
    for (uint64_t k = 0; k < n; ++k) {
      uint64_t a = 0;
      if (!onchip_at(txn, src, t.src, c, k, isz, "source", a)) return false;
      const float xs = f32(to_fp32_bits(txn.read_mem(a, isz), in)) * dq;
      const float y = xs + f32(b);
      uint32_t fb = 0;
      if (!evaluate(txn, *set, *p, bits(y), 0, fb)) return false;
      const float qf = q * f32(fb);
      const float r = qf + z;  // two roundings (PROJ-CONV-A13)
      uint64_t d = 0;
      if (!onchip_at(txn, dst, t.dst, c, k, osz, "destination", d)) return false;
      txn.stage_mem(d, osz, from_fp32_bits(bits(r), out, txn.options().convert));
    }
  }
  return true;
}

// ---- ACTIVATION_READ_ACCUMULATOR (§6.3) ----

bool exec_read_accumulator(const D1Rd& t, exec::Txn& txn) {
  if (!element_dtype_supported(txn, t.dtype, "dst")) return false;
  uint32_t dst = 0;
  if (!onchip_start(txn, t.dst.start_addr, dst, "dst")) return false;
  const unsigned size = dtype_size(t.dtype);
  for (unsigned c = 0; c < t.num_active_channels; ++c) {
    uint64_t d = 0;
    if (!onchip_at(txn, dst, t.dst, c, 0, size, "destination", d)) return false;
    txn.note_dve_read(c, DveField::Acc, 0, txn.engine().dve[c].acc);
    txn.stage_mem(d, size, from_fp32_bits(txn.engine().dve[c].acc, t.dtype, txn.options().convert));
  }
  return true;
}

// ---- ACTIVATE2 (§7.3) ----

/// The reduce identities of PROJ-CONV-A15.
float reduce_identity(uint8_t op) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  switch (op) {
    case aluop::kMax: return -kInf;
    case aluop::kMin:
    case aluop::kAbsMin: return kInf;
    default: return 0.0F;
  }
}

bool exec_activate2(const Instruction& inst, const S2d2Ac& t, exec::Txn& txn) {
  const uint8_t in = t.in_dtype, out = t.out_dtype;
  const bool ptr_imm = t.imm0_src != imm_src::kInstruction || t.imm1_src != imm_src::kInstruction ||
                       t.relu_param_src != imm_src::kInstruction;
  if (!element_dtype_supported(txn, in, "in") || !element_dtype_supported(txn, out, "out") ||
      (ptr_imm && !element_dtype_supported(txn, t.imm_dtype, "imm")))
    return false;
  uint32_t src = 0, dst = 0;
  if (!onchip_start(txn, t.src.start_addr, src, "src") || !onchip_start(txn, t.dst.start_addr, dst, "dst"))
    return false;
  if (!register_ok(txn, t.imm0.raw, t.imm0_src, "imm0") || !register_ok(txn, t.imm1.raw, t.imm1_src, "imm1") ||
      !register_ok(txn, t.relu_param.raw, t.relu_param_src, "relu_param"))
    return false;
  const act::TableSet* set = nullptr;
  const act::Profile* p = nullptr;
  if (!resolve(txn, inst, t.activation_func, set, p)) return false;
  const uint64_t n = uint64_t{t.src.num_elem[0]} * t.src.num_elem[1];
  const unsigned nac = t.num_active_channels, isz = dtype_size(in), osz = dtype_size(out);
  if (!within_bound(txn, n, nac)) return false;
  const uint8_t cmd = t.reduce_cmd;
  const bool reducing = cmd == act::kReduceReduce || cmd == act::kReduceResetReduce;
  for (unsigned c = 0; c < nac; ++c) {
    uint32_t s0 = 0, s1 = 0, alpha = 0;
    if (!operand(txn, t.imm0.raw, t.imm0_src, c, t.imm_dtype, "imm0", s0) ||
        !operand(txn, t.imm1.raw, t.imm1_src, c, t.imm_dtype, "imm1", s1) ||
        !operand(txn, t.relu_param.raw, t.relu_param_src, c, t.imm_dtype, "relu_param", alpha))
      return false;
    if (cmd == act::kReduceReduce) txn.note_dve_read(c, DveField::Acc, 0, txn.engine().dve[c].acc);
    float acc = cmd == act::kReduceReduce ? f32(txn.engine().dve[c].acc) : reduce_identity(t.reduce_op);
    for (uint64_t k = 0; k < n; ++k) {
      uint64_t a = 0;
      if (!onchip_at(txn, src, t.src, c, k, isz, "source", a)) return false;
      float v = f32(to_fp32_bits(txn.read_mem(a, isz), in));
      if (t.op0 != aluop::kBypass)
        v = (t.reverse_operands & 1) != 0 ? alu_fp32(t.op0, f32(s0), v) : alu_fp32(t.op0, v, f32(s0));
      if (t.op1 != aluop::kBypass)
        v = (t.reverse_operands & 2) != 0 ? alu_fp32(t.op1, f32(s1), v) : alu_fp32(t.op1, v, f32(s1));
      uint32_t fb = 0;
      if (!evaluate(txn, *set, *p, bits(v), alpha, fb)) return false;
      uint64_t d = 0;
      if (!onchip_at(txn, dst, t.dst, c, k, osz, "destination", d)) return false;
      txn.stage_mem(d, osz, from_fp32_bits(fb, out, txn.options().convert));
      if (reducing) acc = alu_fp32(t.reduce_op, acc, f32(fb));
    }
    if (cmd == act::kReduceReset)
      txn.stage_dve(c, DveField::Acc, 0, bits(reduce_identity(t.reduce_op)));
    else if (reducing)
      txn.stage_dve(c, DveField::Acc, 0, bits(acc));
  }
  return true;
}

// ---- the table loads (§8.3, §8.4) ----

FaultKind fault_of(act::LoadFault f) {
  switch (f) {
    case act::LoadFault::SetIndexOutOfRange: return FaultKind::ActivationSetIndexOutOfRange;
    case act::LoadFault::SetNotInNeff: return FaultKind::ActivationSetNotInNeff;
    case act::LoadFault::TableError: return FaultKind::ActivationTableError;
  }
  return FaultKind::ActivationTableError;
}

bool load(exec::Txn& txn, const act::TableSet::Parsed& p) {
  if (!p.ok()) return txn.fail(fault_of(p.error.fault), p.error.message);
  txn.stage_act_set(p.set.get());
  return true;
}

bool exec_table_load(const CtrlNo& t, exec::Txn& txn) {
  const act::SetCatalog* catalog = txn.core().act_catalog;
  // Device mode without a catalog: the tables' contents are unknown, so no set is resident (PROJ-CONV-A6).
  if (catalog == nullptr) {
    txn.stage_act_set(nullptr);
    return true;
  }
  return load(txn, catalog->by_index(t.reserved0[act::kActTblSelByte - 12]));
}

bool exec_pseudo_load(const PseudoLoadActFuncSet& t, exec::Txn& txn) {
  const act::SetCatalog* catalog = txn.core().act_catalog;
  size_t len = 0;
  while (len < t.act_set_name.size() && t.act_set_name[len] != 0) ++len;
  const std::string_view name(reinterpret_cast<const char*>(t.act_set_name.data()), len);
  if (!txn.options().neff_mode)
    return txn.fail(FaultKind::PseudoNotLowered, "PseudoLoadActFuncSet runs only in a NEFF run (PROJ-CONV-A16)");
  // PROJ-CONV-A17 for the pseudo form (the catalog states no placement for the pseudo band): that of the table load.
  const EnginePlacement placed = placement_of(opcode::kActivationTableLoad, txn.gen());
  if (const std::optional<Engine> e = txn.stream_engine(); e && !placed.has(*e))
    return txn.fail(FaultKind::WrongEngine, fmt::format("PseudoLoadActFuncSet runs on {} (PROJ-CONV-A17), not on the "
                                                        "{} stream",
                                                        placed.allowed, to_string(*e)));
  if (catalog == nullptr)
    return txn.fail(FaultKind::ActivationSetNotInNeff,
                    fmt::format("set {}: the run has no activation-function sets", name));
  return load(txn, catalog->by_name(name));
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (!engine_runs(inst, txn)) return false;  // PROJ-CONV-A17: placement_of(opcode, generation)
  if (const auto* t = inst.as<S3d3Ac>()) return exec_activate(inst, *t, txn);
  if (const auto* t = inst.as<S3d3Aq>()) return exec_activate_quantize(inst, *t, txn);
  if (const auto* t = inst.as<D1Rd>()) return exec_read_accumulator(*t, txn);
  if (const auto* t = inst.as<S2d2Ac>()) return exec_activate2(inst, *t, txn);
  if (const auto* t = inst.as<CtrlNo>()) return exec_table_load(*t, txn);
  if (const auto* t = inst.as<PseudoLoadActFuncSet>()) return exec_pseudo_load(*t, txn);
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("execution of {} ({:#04x}) is not modeled", inst.name(), inst.opcode()));
}

/// The tensor operands in their element widths; pointer operands are placed at run time and not listed.
Footprint footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const auto* a = inst.as<S3d3Ac>()) {
    add_tensor_footprint(f, "src", a->src, dtype_size(act::pair_in(a->in_bias_dtype)), a->num_active_channels, false,
                         g);
    add_tensor_footprint(f, "dst", a->dst, dtype_size(a->out_dtype), a->num_active_channels, true, g);
  } else if (const auto* q = inst.as<S3d3Aq>()) {
    add_tensor_footprint(f, "src", q->src, dtype_size(act::pair_in(q->in_bias_dtype)), q->num_active_channels, false,
                         g);
    add_tensor_footprint(f, "dst", q->dst, dtype_size(q->out_dtype), q->num_active_channels, true, g);
  } else if (const auto* r = inst.as<D1Rd>()) {
    add_tensor_footprint(f, "dst", r->dst, dtype_size(r->dtype), r->num_active_channels, true, g);
  } else if (const auto* b = inst.as<S2d2Ac>()) {
    add_tensor_footprint(f, "src", b->src, dtype_size(b->in_dtype), b->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", b->dst, dtype_size(b->out_dtype), b->num_active_channels, true, g);
  }
  return f;
}

constexpr Execution kExecution{.execute = execute, .footprint = footprint};

}  // namespace

const Execution& ActFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
