// Reduce family semantics (alu-ops.md §3.2-§3.5): grouped folds (PROJ-CONV-K6), the transposed folds (K7), inclusive
// scans (K9) and the elementwise reciprocal (K17), on the fp32, integer (K5) or bit-vector (K10) path.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <vector>

#include "families/common.hpp"
#include "families/reduce/format.hpp"
#include "kernels/row_fold.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

using Tr = S4d4Tr;
using Rows = std::array<uint64_t, kMaxChannels>;

uint64_t load(const uint8_t* bytes, uint64_t i, unsigned size) {
  uint64_t v = 0;
  for (unsigned b = 0; b < size; ++b) v |= uint64_t{bytes[i * size + b]} << (8 * b);
  return v;
}
void store(uint8_t* bytes, uint64_t i, unsigned size, uint64_t v) {
  for (unsigned b = 0; b < size; ++b) bytes[i * size + b] = static_cast<uint8_t>(v >> (8 * b));
}
constexpr uint64_t low_mask(unsigned bytes) {
  return bytes >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1;
}
DtypeKind kind_of(uint8_t d) {
  const DtypeInfo* row = find_dtype(d);
  return row == nullptr ? DtypeKind::Float : row->kind;
}

/// Refused forms (step 3 of PROJ-CONV-N15): a dtype without element arithmetic here (PROJ-CONV-K21); 8-byte integers
/// are read (the TensorReduce integer path, PROJ-CONV-K5).
bool dtype_supported(exec::Txn& txn, uint8_t d, std::string_view which) {
  const unsigned size = dtype_size(d);
  if (convertible(d) && (size == 1 || size == 2 || size == 4 || size == 8)) return true;
  return txn.fail(FaultKind::UnsupportedDtype, fmt::format("{} dtype {} has no element arithmetic here (PROJ-CONV-K21)",
                                                           which, dtype_label(d, txn.gen())));
}

// ---- The three computation paths (§2.3) ----

enum class Path : uint8_t { Fp32, Integer, Bitvec };

/// A bit-vector opcode computes on raw bits; an arithmetic one on the integer path for the integer band and MOD
/// (PROJ-CONV-K5 (a)), else in fp32. RECIPROCAL is always fp32.
Path path_of(const Tr& t) {
  if (reduce::is_bitvec(t.header.opcode)) return Path::Bitvec;
  if (t.header.opcode != reduce::kReciprocal && reduce::on_integer_path(t.op)) return Path::Integer;
  return Path::Fp32;
}

/// A value of the integer path read for conversion: negative (value = int64 of `bits`) or not (value = `bits`).
struct IntValue {
  bool negative;
  uint64_t bits;
};

/// PROJ-CONV-K5 (d): the integer result in out_dtype: saturated to an integer type's range, or RNE to fp32 and then
/// converted to a float type.
uint64_t int_to_out(IntValue v, uint8_t out, const ConvertOptions& convert) {
  const DtypeKind k = kind_of(out);
  if (k == DtypeKind::Float)
    return from_fp32_bits(to_fp32_bits(v.bits, v.negative ? dtype::kInt64 : dtype::kUint64), out, convert);
  const unsigned bits = 8 * dtype_size(out);
  const bool is_signed = k == DtypeKind::SInt;
  if (v.negative) {
    if (!is_signed) return 0;
    const int64_t lo = bits >= 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
    const int64_t x = static_cast<int64_t>(v.bits);
    return static_cast<uint64_t>(x < lo ? lo : x) & low_mask(bits / 8);
  }
  const uint64_t hi = is_signed ? (uint64_t{1} << (bits - 1)) - 1 : low_mask(bits / 8);
  return v.bits > hi ? hi : v.bits;
}

/// One running fold (a reduction group, a scan) on the word's path: start with a group's first element, add the
/// next ones in flat order with the running value as the left operand (PROJ-CONV-K6, K9, K10), read the value written.
class Fold {
 public:
  Fold(const Tr& t, const ConvertOptions& convert)
      : op_(t.op), in_(t.in_dtype), out_(t.out_dtype), negated_(t.negated != 0), path_(path_of(t)), convert_(convert) {
    in_size_ = dtype_size(in_);
    const DtypeKind k = kind_of(in_);
    wide_ = in_size_ == 8 && k != DtypeKind::Float;
    src_unsigned_ = k == DtypeKind::UInt;
    const AluOpInfo* info = find_aluop(op_);
    const bool s = info != nullptr && info->is(kAluSigned), u = info != nullptr && info->is(kAluUnsigned);
    // Ops in both classes take the source's signedness (signed for floats); the arg ops their name's.
    op_signed_ = s && u ? !src_unsigned_ : s || op_ == reduce::kAmaxInt || op_ == reduce::kAminInt;
  }

  void start(uint64_t raw) {
    acc_ = operand(raw);
    index_ = 0;
    count_ = 1;
  }
  void add(uint64_t raw) {
    const uint64_t x = operand(raw);
    const uint64_t k = count_++;
    switch (path_) {
      case Path::Fp32: acc_ = fp32(op_, acc_, x); break;
      case Path::Bitvec:  // the running value keeps the element width (PROJ-CONV-K10)
        acc_ = alu_int32(op_, to32(acc_), to32(x), kind_of(in_) == DtypeKind::SInt) & low_mask(in_size_);
        break;
      case Path::Integer:
        if (reduce::is_arg_op(op_)) {
          const bool is_max = op_ == reduce::kAmaxInt || op_ == reduce::kAmaxUint;
          if (is_max ? less(acc_, x) : less(x, acc_)) {  // strictly better: the first extreme keeps its index
            acc_ = x;
            index_ = k;
          }
        } else {
          acc_ = integer(op_, acc_, x);
        }
        break;
    }
  }
  /// The element written for the running value, in out_dtype.
  uint64_t result() const {
    switch (path_) {
      case Path::Fp32: {
        const uint64_t y = negated_ ? fp32(aluop::kMult, acc_, std::bit_cast<uint32_t>(-1.0F)) : acc_;
        return from_fp32_bits(static_cast<uint32_t>(y), out_, convert_);
      }
      case Path::Bitvec: return acc_ & low_mask(dtype_size(out_));
      case Path::Integer: break;
    }
    if (reduce::is_arg_op(op_)) return int_to_out({false, index_}, out_, convert_);
    uint64_t v = negated_ ? 0 - acc_ : acc_;
    if (!wide_) v &= 0xFFFFFFFFU;
    if (src_unsigned_) return int_to_out({false, v}, out_, convert_);
    const int64_t x = wide_ ? static_cast<int64_t>(v) : int64_t{static_cast<int32_t>(static_cast<uint32_t>(v))};
    return int_to_out({x < 0, static_cast<uint64_t>(x)}, out_, convert_);
  }

 private:
  static uint32_t to32(uint64_t v) { return static_cast<uint32_t>(v); }
  static uint64_t fp32(uint8_t op, uint64_t a, uint64_t b) {
    return std::bit_cast<uint32_t>(alu_fp32(op, std::bit_cast<float>(to32(a)), std::bit_cast<float>(to32(b))));
  }
  /// An element as the path reads it: fp32 bits; raw bits; or (K5 (b)) an integer by value, a float truncated and
  /// saturated to INT32, as a 32-bit pattern (64-bit for 8-byte integers).
  uint64_t operand(uint64_t raw) const {
    switch (path_) {
      case Path::Fp32: return to_fp32_bits(raw, in_);
      case Path::Bitvec: return raw;
      case Path::Integer: break;
    }
    const DtypeKind k = kind_of(in_);
    uint64_t v = raw;
    if (k == DtypeKind::Float)
      v = exec::sign_extend(from_fp32_bits(to_fp32_bits(raw, in_), dtype::kInt32), 4);
    else if (k == DtypeKind::SInt && in_size_ < 8)
      v = exec::sign_extend(raw, in_size_);
    return wide_ ? v : v & 0xFFFFFFFFU;
  }
  bool less(uint64_t a, uint64_t b) const {
    if (wide_) return op_signed_ ? static_cast<int64_t>(a) < static_cast<int64_t>(b) : a < b;
    return op_signed_ ? static_cast<int32_t>(to32(a)) < static_cast<int32_t>(to32(b)) : to32(a) < to32(b);
  }
  /// The shared evaluator on 32-bit words; the TensorReduce integer ops on 64-bit words (wrap modulo 2^64).
  uint64_t integer(uint8_t op, uint64_t a, uint64_t b) const {
    if (!wide_) return alu_int32(op, to32(a), to32(b), op_signed_);
    if (op == reduce::kAddInt) return a + b;
    if (op == reduce::kMultInt) return a * b;
    const bool max = op == reduce::kMaxInt || op == reduce::kMaxUint;
    return max == less(a, b) ? b : a;  // MAX/MIN in the op's signedness
  }

  uint8_t op_, in_, out_;
  bool negated_;
  Path path_;
  const ConvertOptions& convert_;
  unsigned in_size_ = 0;
  bool wide_ = false, src_unsigned_ = false, op_signed_ = false;
  uint64_t acc_ = 0, index_ = 0, count_ = 0;
};

// ---- Operand access: every source read first, every destination written after (PROJ-CONV-K2) ----

bool within_bound(exec::Txn& txn, uint64_t count, unsigned channels) {
  if (count * channels <= txn.options().max_elements_per_instruction) return true;
  return txn.fail(FaultKind::ResourceLimit, fmt::format("{} elements x {} channels exceed the per-instruction bound "
                                                        "of {}",
                                                        count, channels, txn.options().max_elements_per_instruction));
}

/// Where channel c's n source elements are: rows[c], read in place (the untraced block path) or copied to bytes
/// [c stride, c stride + n size) of `image`; OutOfRange at the first element that leaves its partition (every element
/// is checked before any is read).
using SourceRows = std::array<const uint8_t*, kMaxChannels>;
bool read_sources(const Tr& t, uint32_t base, uint64_t n, exec::Txn& txn, EffectLog::Bytes& image, SourceRows& rows) {
  const unsigned size = dtype_size(t.in_dtype), nac = t.num_active_channels;
  // Rows a multiple of 4 KiB apart would share cache sets, and the block fold reads sixteen of them at once.
  const uint64_t stride = n * size + 256;
  image.resize(stride * nac);
  Rows runs{};
  if (exec::forward_runs(txn, base, t.src, nac, n, size, runs)) {
    for (unsigned c = 0; c < nac; ++c) rows[c] = txn.read_run(runs[c], n * size, size, image.data() + c * stride);
    return true;
  }
  uint64_t a = 0;
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < n; ++k)
      if (!onchip_at(txn, base, t.src, c, k, size, "source", a)) return false;
  for (unsigned c = 0; c < nac; ++c) {
    rows[c] = image.data() + c * stride;
    for (uint64_t k = 0; k < n; ++k) {
      onchip_at(txn, base, t.src, c, k, size, "source", a);
      store(image.data() + c * stride, k, size, txn.read_mem(a, size));
    }
  }
  return true;
}

/// Stages channel c's m elements (bytes [c m size, ...) of `values`) to dst elements 0..m-1, channel by channel.
bool write_destinations(const Tr& t, uint32_t base, uint64_t m, exec::Txn& txn, const EffectLog::Bytes& values) {
  const unsigned size = dtype_size(t.out_dtype), nac = t.num_active_channels;
  Rows rows{};
  if (exec::forward_runs(txn, base, t.dst, nac, m, size, rows)) {
    for (unsigned c = 0; c < nac; ++c) txn.stage_block(rows[c], values.data() + c * m * size, m * size, size);
    return true;
  }
  uint64_t a = 0;
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < m; ++k)
      if (!onchip_at(txn, base, t.dst, c, k, size, "destination", a)) return false;
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < m; ++k) {
      onchip_at(txn, base, t.dst, c, k, size, "destination", a);
      txn.stage_mem(a, size, load(values.data(), c * m + k, size));
    }
  return true;
}

// ---- The opcodes ----

/// The group a reduction or scan runs over: the leading op_dim dimensions of src (§3.2); a whole channel when op_dim
/// names none (RECIPROCAL does not group).
uint64_t group_size(const Tr& t) {
  const unsigned r = reduce::leading_dims(t.op_dim);
  uint64_t g = 1;
  for (unsigned d = 0; d < r; ++d) g *= t.src.num_elem[d];
  return g == 0 ? 1 : g;
}

// ---- The block fold: sequential fp32 ADD/MAX/MIN folds of FP32 or BF16 rows, eight channels at a time ----

/// The block fold applies to an fp32 ADD, MAX or MIN reduction of FP32 or BF16 elements: each lane's running value
/// is then alu_fp32's fold step for step while no NaN appears (kernels/row_fold.hpp); a lane ending in a NaN is
/// recomputed by the Fold.
bool block_fold_applies(const Tr& t, kernels::FoldOp& op, kernels::FoldElement& element) {
  if (path_of(t) != Path::Fp32) return false;
  if (t.in_dtype == dtype::kFp32 || t.in_dtype == dtype::kFp32r)
    element = kernels::FoldElement::Fp32;
  else if (t.in_dtype == dtype::kBfloat16)
    element = kernels::FoldElement::Bf16;
  else
    return false;
  switch (t.op) {
    case aluop::kAdd: op = kernels::FoldOp::Add; return true;
    case aluop::kMax: op = kernels::FoldOp::Max; return true;
    case aluop::kMin: op = kernels::FoldOp::Min; return true;
    default: return false;
  }
}

/// Computes every output of every channel from the source rows into `out` (channel c's outputs at c m).
/// Reductions write one element per group, scans and RECIPROCAL one per source element. TRANSPOSE_TENSOR_REDUCE
/// reads channel c's sequence from the transposed image (PROJ-CONV-K7).
uint64_t compute(const Tr& t, uint64_t n, const SourceRows& rows, EffectLog::Bytes& out,
                 const ConvertOptions& convert) {
  const unsigned in = dtype_size(t.in_dtype), zo = dtype_size(t.out_dtype), nac = t.num_active_channels;
  const uint8_t opcode = t.header.opcode;
  const bool transpose = reduce::is_transpose(opcode), reduction = reduce::is_reduce(opcode);
  const uint64_t g = group_size(t);
  const uint64_t m = reduction ? n / g : n;
  out.resize(m * zo * nac);
  const auto element = [&](unsigned c, uint64_t k) {
    if (!transpose) return load(rows[c], k, in);
    const TransposeSource s = transpose32_source(c, k);
    return load(rows[s.channel], s.element, in);
  };
  Fold fold(t, convert);
  // One group of channel c: the fold's output, or (scans) every step's.
  const auto run_group = [&](unsigned c, uint64_t first) {
    fold.start(element(c, first));
    if (!reduction) store(out.data(), c * m + first, zo, fold.result());
    for (uint64_t k = first + 1; k < first + g; ++k) {
      fold.add(element(c, k));
      if (!reduction) store(out.data(), c * m + k, zo, fold.result());
    }
    if (reduction) store(out.data(), c * m + first / g, zo, fold.result());
  };
  if (opcode == reduce::kReciprocal) {
    for (unsigned c = 0; c < nac; ++c)
      for (uint64_t k = 0; k < n; ++k) {
        const float x = std::bit_cast<float>(to_fp32_bits(element(c, k), t.in_dtype));
        const auto y = std::bit_cast<uint32_t>(alu_fp32(aluop::kDivide, 1.0F, x));  // PROJ-CONV-K17
        store(out.data(), c * m + k, zo, from_fp32_bits(y, t.out_dtype, convert));
      }
    return m;
  }
  kernels::FoldOp fold_op{};
  kernels::FoldElement fold_element{};
  if (reduction && !transpose && block_fold_applies(t, fold_op, fold_element)) {
    std::array<float, kernels::kFoldLanes> acc{};
    std::array<const uint8_t*, kernels::kFoldLanes> lane_rows{};
    for (unsigned c0 = 0; c0 < nac; c0 += kernels::kFoldLanes) {
      const unsigned lanes = std::min(kernels::kFoldLanes, nac - c0);
      for (unsigned j = 0; j < kernels::kFoldLanes; ++j) lane_rows[j] = rows[c0 + (j < lanes ? j : 0)];  // spares
      for (uint64_t first = 0; first + g <= n; first += g) {
        kernels::fp32_lane_folds(fold_op, fold_element, lane_rows.data(), first, g, nullptr, acc.data());
        for (unsigned j = 0; j < lanes; ++j) {
          if (std::isnan(acc[j])) {
            run_group(c0 + j, first);
            continue;
          }
          const float y = t.negated != 0 ? alu_fp32(aluop::kMult, acc[j], -1.0F) : acc[j];
          store(out.data(), (c0 + j) * m + first / g, zo,
                from_fp32_bits(std::bit_cast<uint32_t>(y), t.out_dtype, convert));
        }
      }
    }
    return m;
  }
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t first = 0; first + g <= n; first += g) run_group(c, first);
  return m;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  const Tr* t = inst.as<Tr>();
  if (t == nullptr)
    return txn.fail(FaultKind::UnsupportedOpcode,
                    fmt::format("execution of {} ({:#04x}) is not modeled", inst.name(), inst.opcode()));
  if (!engine_runs(inst, txn)) return false;
  if (!dtype_supported(txn, t->in_dtype, "in") || !dtype_supported(txn, t->out_dtype, "out")) return false;
  // Refused addressing forms of both operands, then their registers, sources first (PROJ-CONV-N15).
  uint32_t src = 0, dst = 0;
  if (!exec::addr4_mode_supported(txn, t->src.start_addr, "src") ||
      !exec::addr4_mode_supported(txn, t->dst.start_addr, "dst") ||
      !exec::addr4_shape_supported(txn, t->src.start_addr, "src") ||
      !exec::addr4_shape_supported(txn, t->dst.start_addr, "dst") ||
      !exec::resolve_addr4(txn, t->src.start_addr, src, "src") ||
      !exec::resolve_addr4(txn, t->dst.start_addr, dst, "dst"))
    return false;
  const uint64_t n = t->src.elements();
  if (!within_bound(txn, n, t->num_active_channels)) return false;
  EffectLog::Bytes& image = txn.scratch().bytes_a;
  EffectLog::Bytes& values = txn.scratch().bytes_b;
  SourceRows rows{};
  if (!read_sources(*t, src, n, txn, image, rows)) return false;
  const uint64_t m = compute(*t, n, rows, values, txn.options().convert);
  return write_destinations(*t, dst, m, txn, values);
}

/// src and dst, each in its element width, on num_active_channels partitions.
Footprint footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const Tr* t = inst.as<Tr>()) {
    add_tensor_footprint(f, "src", t->src, dtype_size(t->in_dtype), t->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", t->dst, dtype_size(t->out_dtype), t->num_active_channels, true, g);
  }
  return f;
}

constexpr Execution kExecution{.execute = execute, .footprint = footprint};

}  // namespace

const Execution& ReduceFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
