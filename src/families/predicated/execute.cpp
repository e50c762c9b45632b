// Predicated family semantics on S3S3D3_TT: TENSOR_TENSOR_BITVEC_OP on the bit-vector path (alu-ops.md §4.2,
// PROJ-CONV-K10), COPY_PREDICATED / CAST_PREDICATED as a merge under a predicate (§4.3, PROJ-CONV-K25).
#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "families/common.hpp"
#include "families/predicated/format.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

using Tt = S3s3d3Tt;

DtypeKind kind_of(uint8_t d) {
  const DtypeInfo* row = find_dtype(d);
  return row != nullptr ? row->kind : DtypeKind::Sentinel;
}
bool is_int(uint8_t d) {
  return kind_of(d) == DtypeKind::UInt || kind_of(d) == DtypeKind::SInt;
}
bool is_wide(uint8_t d) {
  return d == dtype::kUint64 || d == dtype::kInt64;
}
uint64_t width_mask(unsigned bytes) {
  return bytes >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1;
}
/// The raw bits of an element of `bytes` bytes, sign-extended to 64 bits.
int64_t sign_extended(uint64_t raw, unsigned bytes) {
  const unsigned shift = 64 - 8 * bytes;
  return static_cast<int64_t>(raw << shift) >> shift;
}

/// §4.2 on the 64-bit forms (K10): shifts count `b & 63`; ASR sign-fills for INT64 only; LSR zero-fills.
uint64_t bitvec64(uint8_t op, uint64_t a, uint64_t b, bool is_signed) {
  const unsigned count = static_cast<unsigned>(b & 63);
  switch (op) {
    case aluop::kBitwiseNot: return ~a;
    case aluop::kArithShiftLeft:
    case aluop::kLogicalShiftLeft: return a << count;
    case aluop::kArithShiftRight:
      return is_signed ? static_cast<uint64_t>(static_cast<int64_t>(a) >> count) : a >> count;
    case aluop::kLogicalShiftRight: return a >> count;
    case aluop::kBitwiseAnd: return a & b;
    case aluop::kBitwiseOr: return a | b;
    case aluop::kBitwiseXor: return a ^ b;
    default: return a;  // BYPASS (the validator admits no other op)
  }
}

/// y = OP_bv(op, a, b) on the element width of src0 (K10), truncated to out_dtype's width. Up to 32 bits the shared
/// evaluator computes it: the left operand goes in sign-extended only for ARITH_SHIFT_RIGHT of a signed dtype, so
/// that LOGICAL_SHIFT_RIGHT zero-fills from the element width.
uint64_t bitvec(const Tt& t, uint64_t a, uint64_t b) {
  const uint8_t lo = datapath::pair_lo(t.in0_in1_dtype);
  const unsigned za = dtype_size(lo);
  const bool is_signed = kind_of(lo) == DtypeKind::SInt;
  const uint64_t out_mask = width_mask(dtype_size(t.out_dtype));
  if (za == 8) return bitvec64(t.op, a, b, is_signed) & out_mask;
  const bool fill = is_signed && t.op == aluop::kArithShiftRight;
  const uint32_t x = fill ? static_cast<uint32_t>(sign_extended(a, za)) : static_cast<uint32_t>(a);
  return alu_int32(t.op, x, static_cast<uint32_t>(b), is_signed) & out_mask;
}

/// The shared Cast (K25): integer to integer exactly, then saturated to the target (N13); otherwise through fp32.
uint64_t cast(uint64_t raw, uint8_t from, uint8_t to, const ConvertOptions& options) {
  if (!is_int(from) || !is_int(to)) return from_fp32_bits(to_fp32_bits(raw, from), to, options);
  const unsigned zf = dtype_size(from), zt = dtype_size(to);
  const bool from_signed = kind_of(from) == DtypeKind::SInt, to_signed = kind_of(to) == DtypeKind::SInt;
  const int64_t v = from_signed ? sign_extended(raw, zf) : static_cast<int64_t>(raw & width_mask(zf));
  const int64_t hi = to_signed ? static_cast<int64_t>(width_mask(zt) >> 1) : static_cast<int64_t>(width_mask(zt));
  const int64_t lo = to_signed ? -hi - 1 : 0;
  return static_cast<uint64_t>(v < lo ? lo : v > hi ? hi : v) & width_mask(zt);
}

/// A dtype with element semantics here: the 64-bit integers of the bit-vector forms, or an element the conversion
/// module reads (PROJ-CONV-K21 refuses the others).
bool dtype_supported(exec::Txn& txn, uint8_t d, std::string_view which) {
  return is_wide(d) || element_dtype_supported(txn, d, which);
}

/// The three starts in the order of PROJ-CONV-N15 step 3-4 (§2.9): every addressing mode, every shape register,
/// then the address registers, sources before the destination.
bool resolve_operands(const Tt& t, exec::Txn& txn, std::array<uint32_t, 3>& base) {
  const std::array<const Addr4*, 3> a{&t.src0.start_addr, &t.src1.start_addr, &t.dst.start_addr};
  constexpr std::string_view kWhich[] = {"src0", "src1", "dst"};
  for (unsigned i = 0; i < 3; ++i)
    if (!exec::addr4_mode_supported(txn, *a[i], kWhich[i])) return false;
  for (unsigned i = 0; i < 3; ++i)
    if (!exec::addr4_shape_supported(txn, *a[i], kWhich[i])) return false;
  for (unsigned i = 0; i < 3; ++i)
    if (!exec::resolve_addr4(txn, *a[i], base[i], kWhich[i])) return false;
  return true;
}

/// The elements of a little-endian word of Z-byte elements that are zero, each flagged somewhere in its own bits;
/// the lowest flag is exact (a borrow only rises from a zero element, so the elements below the first are exact).
template <unsigned Z>
uint64_t zero_elements(uint64_t x) {
  static_assert(std::endian::native == std::endian::little, "the elements are read as little-endian words");
  static_assert(Z == 1 || Z == 2 || Z == 4, "the predicates the validators admit");
  constexpr uint64_t kOnes = ~uint64_t{0} / ((uint64_t{1} << (8 * Z)) - 1);  // 1 in each element
  constexpr uint64_t kHighs = kOnes << (8 * Z - 1);                          // each element's top bit
  return (x - kOnes) & ~x & kHighs;
}

/// The first k' >= k below n whose predicate (Z bytes, raw bits: zero or not, K25) is not `set`; n if none. Eight
/// bytes of predicates are tested at once.
template <unsigned Z>
uint64_t run_end_of(const uint8_t* p, uint64_t k, uint64_t n, bool set) {
  constexpr unsigned kPerWord = 8 / Z;
  for (; k + kPerWord <= n; k += kPerWord) {
    uint64_t x = 0;
    std::memcpy(&x, p + k * Z, 8);
    const uint64_t stop = set ? zero_elements<Z>(x) : x;  // the elements that end the run
    if (stop != 0) return k + static_cast<unsigned>(std::countr_zero(stop)) / (8 * Z);
  }
  for (; k < n; ++k) {
    uint64_t x = 0;
    std::memcpy(&x, p + k * Z, Z);
    if ((x != 0) != set) break;
  }
  return k;
}
uint64_t run_end(unsigned z, const uint8_t* p, uint64_t k, uint64_t n, bool set) {
  switch (z) {
    case 1: return run_end_of<1>(p, k, n, set);
    case 2: return run_end_of<2>(p, k, n, set);
    default: return run_end_of<4>(p, k, n, set);
  }
}

/// The untraced block path of COPY_PREDICATED with a source as wide as the destination: when every operand row is
/// one forward run (so every element check passes), each channel's rows are read whole (the same element reads as
/// the element path) and each maximal run of elements whose predicate is non-zero is staged as one block; the other
/// elements are not written. False (nothing done) when it does not apply.
bool copy_predicated_rows(const Tt& t, exec::Txn& txn, const std::array<uint32_t, 3>& base, unsigned nac,
                          uint64_t count) {
  const unsigned z0 = dtype_size(datapath::pair_lo(t.in0_in1_dtype));
  const unsigned z1 = dtype_size(datapath::pair_hi(t.in0_in1_dtype)), zo = dtype_size(t.out_dtype);
  // Predicates of 8, 16 or 32 bits: the validators refuse the 64-bit ones (is_valid_dtype,
  // s3s3d3_copy_pred_src0_dtype), so no such word reaches an executor.
  if (t.header.opcode != predicated::kCopyPredicated || z1 != zo || (z0 != 1 && z0 != 2 && z0 != 4)) return false;
  std::array<uint64_t, kMaxChannels> r0{}, r1{}, rd{};
  if (!exec::forward_runs(txn, base[0], t.src0, nac, count, z0, r0) ||
      !exec::forward_runs(txn, base[1], t.src1, nac, count, z1, r1) ||
      !exec::forward_runs(txn, base[2], t.dst, nac, count, zo, rd))
    return false;
  EffectLog::Bytes& scratch = txn.scratch().bytes_a;
  scratch.resize(count * (z0 + z1));
  // Past its checks the step cannot fault: when no destination row overlaps a source row read after it and commit
  // can allocate nothing, the runs are written in place, not staged and copied at commit.
  const bool in_place = txn.may_write_runs_in_place(rd.data(), nac, count * zo) &&
                        exec::rows_in_place_ok(r0.data(), count * z0, rd.data(), count * zo, nac, false) &&
                        exec::rows_in_place_ok(r1.data(), count * z1, rd.data(), count * zo, nac, true);
  // Piece by piece within memory pages, so that each piece is read (and written) in place, not copied.
  const auto piece = [](uint64_t address, unsigned size, uint64_t left) {
    const uint64_t room = (SparseMemory::kPageBytes - address % SparseMemory::kPageBytes) / size;
    return std::min(left, std::max<uint64_t>(room, 1));
  };
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k0 = 0; k0 < count;) {
      const uint64_t at0 = r0[c] + k0 * z0, at1 = r1[c] + k0 * z1;
      const uint64_t len =
          std::min({piece(at0, z0, count - k0), piece(at1, z1, count - k0), piece(rd[c] + k0 * zo, zo, count - k0)});
      const uint8_t* p = txn.read_run(at0, len * z0, z0, scratch.data());
      const uint8_t* d = txn.read_run(at1, len * z1, z1, scratch.data() + len * z0);
      for (uint64_t k = run_end(z0, p, 0, len, false); k < len;) {
        const uint64_t e = run_end(z0, p, k, len, true);
        const uint64_t at = rd[c] + (k0 + k) * zo, n = (e - k) * zo;
        if (uint8_t* out = in_place ? txn.write_run_in_place(at, n, zo) : nullptr)
          std::memmove(out, d + k * zo, n);  // the data row may be this very row
        else
          txn.stage_block(at, d + k * zo, n, zo);
        k = run_end(z0, p, e, len, false);
      }
      k0 += len;
    }
  return true;
}

/// Every S3S3D3_TT opcode of the family: check, read every source element of every channel (K2), then write the
/// destination channel by channel in flat order; a predicated element whose predicate is zero is not written, though
/// its address was checked.
bool exec_tt(const Tt& t, exec::Txn& txn) {
  const uint8_t lo = datapath::pair_lo(t.in0_in1_dtype), hi = datapath::pair_hi(t.in0_in1_dtype);
  if (!dtype_supported(txn, lo, "src0") || !dtype_supported(txn, hi, "src1") ||
      !dtype_supported(txn, t.out_dtype, "out"))
    return false;
  std::array<uint32_t, 3> base{};
  if (!resolve_operands(t, txn, base)) return false;
  const unsigned nac = t.num_active_channels, z0 = dtype_size(lo), z1 = dtype_size(hi), zo = dtype_size(t.out_dtype);
  const uint64_t count = t.dst.elements();
  if (count * nac > txn.options().max_elements_per_instruction)
    return txn.fail(FaultKind::ResourceLimit,
                    fmt::format("{} elements x {} channels exceed the per-instruction bound of {}", count, nac,
                                txn.options().max_elements_per_instruction));
  if (copy_predicated_rows(t, txn, base, nac, count)) return true;
  uint64_t a = 0;
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < count; ++k)
      if (!onchip_at(txn, base[0], t.src0, c, k, z0, "src0", a) ||
          !onchip_at(txn, base[1], t.src1, c, k, z1, "src1", a))
        return false;
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < count; ++k)
      if (!onchip_at(txn, base[2], t.dst, c, k, zo, "destination", a)) return false;
  // Inputs first (K2): both operands of every element, in channel and flat order.
  EffectLog::Bytes& in = txn.scratch().bytes_a;
  in.resize(2 * nac * count * sizeof(uint64_t));
  const auto put = [&in](uint64_t at, uint64_t x) { std::memcpy(in.data() + at * sizeof x, &x, sizeof x); };
  const auto get = [&in](uint64_t at) {
    uint64_t x = 0;
    std::memcpy(&x, in.data() + at * sizeof x, sizeof x);
    return x;
  };
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < count; ++k) {
      const uint64_t at = 2 * (c * count + k);
      onchip_at(txn, base[0], t.src0, c, k, z0, "src0", a);
      put(at, txn.read_mem(a, z0));
      onchip_at(txn, base[1], t.src1, c, k, z1, "src1", a);
      put(at + 1, txn.read_mem(a, z1));
    }
  const uint8_t op = t.header.opcode;
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < count; ++k) {
      const uint64_t at = 2 * (c * count + k);
      const uint64_t left = get(at), right = get(at + 1);
      uint64_t y = 0;
      if (op == predicated::kTensorTensorBitvec) {
        y = bitvec(t, left, right);
      } else if (left == 0) {
        continue;  // predicate false: dst unchanged (K25: the predicate is its raw bits)
      } else {
        y = op == predicated::kCopyPredicated ? right : cast(right, hi, t.out_dtype, txn.options().convert);
      }
      onchip_at(txn, base[2], t.dst, c, k, zo, "destination", a);
      txn.stage_mem(a, zo, y);
    }
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (!engine_runs(inst, txn)) return false;
  if (const auto* t = inst.as<Tt>();
      t != nullptr && (inst.opcode() == predicated::kTensorTensorBitvec ||
                       inst.opcode() == predicated::kCopyPredicated || inst.opcode() == predicated::kCastPredicated))
    return exec_tt(*t, txn);
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("execution of {} ({:#04x}) is not modeled", inst.name(), inst.opcode()));
}

/// src0 (the left operand or the predicate) and src1 are read, dst written, each in its own dtype.
Footprint footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const auto* t = inst.as<Tt>()) {
    const unsigned nac = t->num_active_channels;
    add_tensor_footprint(f, "src0", t->src0, dtype_size(datapath::pair_lo(t->in0_in1_dtype)), nac, false, g);
    add_tensor_footprint(f, "src1", t->src1, dtype_size(datapath::pair_hi(t->in0_in1_dtype)), nac, false, g);
    add_tensor_footprint(f, "dst", t->dst, dtype_size(t->out_dtype), nac, true, g);
  }
  return f;
}

constexpr Execution kExecution{.execute = execute, .footprint = footprint};

}  // namespace

const Execution& PredicatedFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
