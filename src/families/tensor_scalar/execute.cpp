// Tensor-scalar family semantics (alu-ops.md §5): the two-op composition with reverse flags on the fp32, integer
// (PROJ-CONV-K5) and bit-vector (PROJ-CONV-K10) paths, the transposed form (PROJ-CONV-K7), the cache reduce and
// cumulative forms and EXPONENTIAL over the accumulator registers (PROJ-CONV-K12), and DVE_READ_ACCUMULATOR; checks in
// the order of PROJ-CONV-N15 (alu-ops.md §2.9), nothing staged before the last check passes.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <vector>

#include "families/common.hpp"
#include "families/tensor_scalar/format.hpp"
#include "kernels/alu_row.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

namespace ts = tensor_scalar;

constexpr uint32_t kSignBit = 0x80000000U;
constexpr uint32_t kFp32One = 0x3F800000U, kFp32PlusInf = 0x7F800000U, kFp32MinusInf = 0xFF800000U;

using Rows = std::array<uint64_t, kMaxChannels>;

uint64_t element(const uint8_t* row, uint64_t i, unsigned size) {
  uint64_t v = 0;
  for (unsigned b = 0; b < size; ++b) v |= uint64_t{row[i * size + b]} << (8 * b);
  return v;
}
void set_element(uint8_t* row, uint64_t i, unsigned size, uint64_t v) {
  for (unsigned b = 0; b < size; ++b) row[i * size + b] = static_cast<uint8_t>(v >> (8 * b));
}

const DtypeInfo* info_of(uint8_t d) {
  return find_dtype(d);
}
bool is_signed_int(uint8_t d) {
  const DtypeInfo* row = info_of(d);
  return row != nullptr && row->kind == DtypeKind::SInt;
}
bool is_int(uint8_t d) {
  const DtypeInfo* row = info_of(d);
  return row != nullptr && (row->kind == DtypeKind::SInt || row->kind == DtypeKind::UInt);
}

float as_float(uint32_t bits) {
  return std::bit_cast<float>(bits);
}
uint32_t bits_of(float f) {
  return std::bit_cast<uint32_t>(f);
}

// ---- The three computation paths (alu-ops.md §2.3) ----

/// Which path an S3D3_TS word computes on.
enum class Path : uint8_t { Fp32, Integer, Bitvec };

bool int_band(uint8_t op) {
  return op >= 0xC4 && op <= 0xE1;
}

/// PROJ-CONV-K23 (d): a MAVERICK arithmetic word with an integer-band op runs on the integer path; the bit-vector
/// opcodes on raw bits; every other word on fp32.
Path path_of(const S3d3Ts& t, Generation g) {
  if (ts::bitvec_opcode(t.header.opcode)) return Path::Bitvec;
  if (g == Generation::Maverick && ts::arith_opcode(t.header.opcode) && (int_band(t.op0) || int_band(t.op1)))
    return Path::Integer;
  return Path::Fp32;
}

/// CRC32 over the `size` bytes of `a`, least significant first, `b` the running CRC (PROJ-CONV-K10, T8).
uint32_t crc32_bytes(uint32_t a, uint32_t b, unsigned size) {
  uint32_t crc = b;
  for (unsigned byte = 0; byte < size; ++byte) {
    crc ^= (a >> (8 * byte)) & 0xFFU;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1U) != 0 ? 0xEDB88320U : 0U);
  }
  return crc;
}

/// OP_bv on `size`-byte elements (PROJ-CONV-K10): shifts by count & 31; ARITH_SHIFT_RIGHT sign-fills from the element
/// width for a signed dtype; the result truncated to the element width.
uint32_t bv_op(uint8_t op, uint32_t a, uint32_t b, unsigned size, bool is_signed) {
  const uint32_t mask = size >= 4 ? 0xFFFFFFFFU : (1U << (8 * size)) - 1U;
  a &= mask;
  b &= mask;
  if (op == aluop::kCrc32) return crc32_bytes(a, b, size) & mask;
  if (op == aluop::kArithShiftRight && is_signed) a = exec::sign_extend(a, size);
  return alu_int32(op, a, b, is_signed) & mask;
}

/// The composition of §5.1 under `rev` (bit 0: op0 takes the scalar first; bit 1: op1 does), one element per path.
uint32_t compose_fp32(const S3d3Ts& t, uint32_t x, uint32_t s0, uint32_t s1) {
  const float a = as_float(x), f0 = as_float(s0), f1 = as_float(s1);
  const float m = (t.reverse_operands & 1) != 0 ? alu_fp32(t.op0, f0, a) : alu_fp32(t.op0, a, f0);
  return bits_of((t.reverse_operands & 2) != 0 ? alu_fp32(t.op1, f1, m) : alu_fp32(t.op1, m, f1));
}
uint32_t compose_int(const S3d3Ts& t, uint32_t x, uint32_t s0, uint32_t s1, bool sg) {
  const uint32_t m = (t.reverse_operands & 1) != 0 ? alu_int32(t.op0, s0, x, sg) : alu_int32(t.op0, x, s0, sg);
  return (t.reverse_operands & 2) != 0 ? alu_int32(t.op1, s1, m, sg) : alu_int32(t.op1, m, s1, sg);
}
uint32_t compose_bv(const S3d3Ts& t, uint32_t x, uint32_t s0, uint32_t s1, unsigned size, bool sg) {
  const uint32_t m = (t.reverse_operands & 1) != 0 ? bv_op(t.op0, s0, x, size, sg) : bv_op(t.op0, x, s0, size, sg);
  return (t.reverse_operands & 2) != 0 ? bv_op(t.op1, s1, m, size, sg) : bv_op(t.op1, m, s1, size, sg);
}

/// PROJ-CONV-K5 (b): an element as a 32-bit integer operand; a float truncates toward zero and saturates to INT32
/// (NaN -> 0).
uint32_t int_operand(uint64_t raw, uint8_t d) {
  if (is_int(d)) return is_signed_int(d) ? exec::sign_extend(raw, dtype_size(d)) : static_cast<uint32_t>(raw);
  const float f = as_float(to_fp32_bits(raw, d));
  if (std::isnan(f)) return 0;
  if (f >= 2147483648.0F) return 0x7FFFFFFFU;
  if (f < -2147483648.0F) return kSignBit;
  return static_cast<uint32_t>(static_cast<int32_t>(f));
}

/// PROJ-CONV-K5 (d): the integer result in out_dtype: saturated for an integer target (read as signed unless the
/// source dtype is unsigned), RNE to fp32 then from_fp32 for a float target.
uint64_t int_result(uint32_t y, uint8_t in, uint8_t out, const ConvertOptions& convert) {
  const bool unsigned_source = is_int(in) && !is_signed_int(in);
  if (!is_int(out))
    return from_fp32_bits(to_fp32_bits(y, unsigned_source ? dtype::kUint32 : dtype::kInt32), out, convert);
  const int64_t v = unsigned_source ? int64_t{y} : int64_t{static_cast<int32_t>(y)};
  const unsigned bits = 8 * dtype_size(out);
  const int64_t lo = is_signed_int(out) ? -(int64_t{1} << (bits - 1)) : 0;
  const int64_t hi = is_signed_int(out) ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
  return static_cast<uint64_t>(std::clamp(v, lo, hi)) & ((uint64_t{1} << bits) - 1);
}

/// PROJ-CONV-K18: e^d correctly rounded to fp32 (through double; e^-inf = +0, e^+inf = +inf, NaN stays NaN).
uint32_t exp_fp32(uint32_t d) {
  return bits_of(static_cast<float>(std::exp(static_cast<double>(as_float(d)))));
}

/// PROJ-CONV-K12: the accumulator's start for ZERO_ACCUMULATE of the cache forms (the identity of op1).
uint32_t identity_of(uint8_t op1) {
  switch (op1) {
    case aluop::kMult: return kFp32One;
    case aluop::kMax: return kFp32MinusInf;
    case aluop::kMin: return kFp32PlusInf;
    default: return 0;  // ADD, SUBTRACT: +0.0
  }
}

// ---- Operand resolution and checks (PROJ-CONV-N15) ----

/// The resolved operands of an S3D3_TS word.
struct Operands {
  uint32_t src = 0, dst = 0;
  uint64_t count = 0;
  unsigned nac = 0, in_size = 0, out_size = 0;
  std::array<bool, 2> fetch{};    ///< imm0 / imm1 read through a pointer
  std::array<uint32_t, 2> ptr{};  ///< their masked PartitionOffsets
  unsigned scalar_size = 4;       ///< bytes of a pointer scalar (K11)
};

/// The pointer of immediate `which` (PROJ-CONV-N16 for the register form); false with IllegalRegister.
bool resolve_pointer(exec::Txn& txn, ImmReading r, ImmVal imm, uint32_t& ptr, std::string_view which) {
  if (r == ImmReading::Pointer) {
    ptr = imm.raw & kPartitionAddrMask;
    return true;
  }
  if (imm.regnum() >= kNumRegisters || imm.reg_reserved() != 0)
    return txn.fail_reg(FaultKind::IllegalRegister, imm.regnum(),
                        fmt::format("{} names register {:#010x}, not a register below 64", which, imm.raw));
  ptr = txn.reg(imm.regnum()) & kPartitionAddrMask;
  return true;
}

bool within_bound(exec::Txn& txn, uint64_t count, unsigned channels) {
  if (count * channels <= txn.options().max_elements_per_instruction) return true;
  return txn.fail(FaultKind::ResourceLimit, fmt::format("{} elements x {} channels exceed the per-instruction bound "
                                                        "of {}",
                                                        count, channels, txn.options().max_elements_per_instruction));
}

/// Steps 3 and 4 of PROJ-CONV-N15: dtypes, addressing modes, shape registers, registers (sources first).
bool resolve(const S3d3Ts& t, exec::Txn& txn, Operands& o) {
  if (!element_dtype_supported(txn, t.in_dtype, "in") || !element_dtype_supported(txn, t.out_dtype, "out"))
    return false;
  if (!exec::addr4_mode_supported(txn, t.src.start_addr, "src") ||
      !exec::addr4_mode_supported(txn, t.dst.start_addr, "dst") ||
      !exec::addr4_shape_supported(txn, t.src.start_addr, "src") ||
      !exec::addr4_shape_supported(txn, t.dst.start_addr, "dst") ||
      !exec::resolve_addr4(txn, t.src.start_addr, o.src, "src"))
    return false;
  // PROJ-CONV-K11 (d): a pointer immediate is fetched whenever its *_src selects it; imm1 of the accumulating opcodes
  // only under LOAD_ACCUMULATE.
  const uint8_t op = t.header.opcode;
  const std::array<uint8_t, 2> srcs{t.imm0_src, t.imm1_src};
  const std::array<ImmVal, 2> imms{t.imm0, t.imm1};
  for (unsigned k = 0; k < 2; ++k) {
    const ImmReading r = ts::imm_reading(op, srcs[k]);
    o.fetch[k] = r != ImmReading::Value &&
                 (k == 0 || !ts::accumulating_opcode(op) || t.accumulator_cmd == ts::kAccLoadAccumulate);
    if (o.fetch[k] && !resolve_pointer(txn, r, imms[k], o.ptr[k], k == 0 ? "imm0" : "imm1")) return false;
  }
  if (!exec::resolve_addr4(txn, t.dst.start_addr, o.dst, "dst")) return false;
  o.count = t.src.elements();
  o.nac = t.num_active_channels;
  o.in_size = dtype_size(t.in_dtype);
  o.out_size = dtype_size(t.out_dtype);
  o.scalar_size = path_of(t, txn.gen()) == Path::Bitvec ? o.in_size : 4;
  return within_bound(txn, o.count, o.nac);
}

/// Step 5: every source element, pointer scalar and destination element of every active channel is accessible.
/// `rows_ok` skips the patterns whose rows were checked as runs.
bool check_elements(const S3d3Ts& t, exec::Txn& txn, const Operands& o, bool src_rows_ok, bool dst_rows_ok) {
  uint64_t a = 0;
  if (!src_rows_ok)
    for (unsigned c = 0; c < o.nac; ++c)
      for (uint64_t k = 0; k < o.count; ++k)
        if (!onchip_at(txn, o.src, t.src, c, k, o.in_size, "source", a)) return false;
  for (unsigned which = 0; which < 2; ++which)
    if (o.fetch[which])
      for (unsigned c = 0; c < o.nac; ++c)
        if (!exec::onchip_element(txn.gen(), o.ptr[which], c, 0, o.scalar_size, a))
          return txn.fail_at(FaultKind::OutOfRange, exec::nominal_element_address(txn.gen(), o.ptr[which], c, 0),
                             fmt::format("channel {} imm{} pointer scalar leaves SBUF/PSUM or its partition's backed "
                                         "bytes (PROJ-CONV-N2)",
                                         c, which));
  if (!dst_rows_ok)
    for (unsigned c = 0; c < o.nac; ++c)
      for (uint64_t k = 0; k < o.count; ++k)
        if (!onchip_at(txn, o.dst, t.dst, c, k, o.out_size, "destination", a)) return false;
  return true;
}

/// Scalar `which` of channel c: the inline bits, or the element its pointer names in partition ptr + c.
uint32_t scalar(exec::Txn& txn, const Operands& o, ImmVal imm, unsigned which, unsigned c) {
  if (!o.fetch[which]) return imm.raw;
  uint64_t a = 0;
  exec::onchip_element(txn.gen(), o.ptr[which], c, 0, o.scalar_size, a);
  return static_cast<uint32_t>(txn.read_mem(a, o.scalar_size));
}

// ---- The element loop ----

/// One channel's computation over its input row `in` (count elements of in_size bytes, in the order the opcode
/// consumes them) into `out`; `acc` is the channel's accumulator, updated by the accumulating opcodes.
void compute_row(const S3d3Ts& t, Path path, const Operands& o, const uint8_t* in, uint8_t* out, uint32_t s0,
                 uint32_t s1, uint32_t& acc, const ConvertOptions& convert) {
  const uint8_t op = t.header.opcode;
  const uint8_t in_dt = t.in_dtype, out_dt = t.out_dtype;
  if (op == ts::kCacheReduce || op == ts::kCacheCumulative) {
    const float f0 = as_float(s0);
    for (uint64_t k = 0; k < o.count; ++k) {  // reverse is NONE (validated); ACC = op1(t, ACC) (K12)
      const float v = alu_fp32(t.op0, as_float(to_fp32_bits(element(in, k, o.in_size), in_dt)), f0);
      acc = bits_of(alu_fp32(t.op1, v, as_float(acc)));
      set_element(out, k, o.out_size, from_fp32_bits(op == ts::kCacheReduce ? bits_of(v) : acc, out_dt, convert));
    }
    return;
  }
  if (op == ts::kExponential) {
    for (uint64_t k = 0; k < o.count; ++k) {
      const uint32_t x = to_fp32_bits(element(in, k, o.in_size), in_dt);
      const uint32_t y = exp_fp32(bits_of(alu_fp32(aluop::kSubtract, as_float(x), as_float(s0))));
      set_element(out, k, o.out_size, from_fp32_bits(y, out_dt, convert));
      if (t.accumulator_cmd != ts::kAccIdle) acc = bits_of(alu_fp32(aluop::kAdd, as_float(acc), as_float(y)));
    }
    return;
  }
  switch (path) {
    case Path::Bitvec: {
      const bool sg = is_signed_int(in_dt);
      for (uint64_t k = 0; k < o.count; ++k)
        set_element(out, k, o.out_size,
                    compose_bv(t, static_cast<uint32_t>(element(in, k, o.in_size)), s0, s1, o.in_size, sg));
      return;
    }
    case Path::Integer: {
      const bool sg = !is_int(in_dt) || is_signed_int(in_dt);  // float sources count as signed (K5 c)
      for (uint64_t k = 0; k < o.count; ++k)
        set_element(out, k, o.out_size,
                    int_result(compose_int(t, int_operand(element(in, k, o.in_size), in_dt), s0, s1, sg), in_dt, out_dt,
                               convert));
      return;
    }
    case Path::Fp32:
      for (uint64_t k = 0; k < o.count; ++k)
        set_element(
            out, k, o.out_size,
            from_fp32_bits(compose_fp32(t, to_fp32_bits(element(in, k, o.in_size), in_dt), s0, s1), out_dt, convert));
      return;
  }
}

// ---- The FP32 row kernel: 0x43 / 0x44 / 0x93 FP32 or BF16 rows with ADD/SUBTRACT/MULT ops ----

bool row_op(uint8_t op, bool scalar_first, kernels::ScalarRowOp& out) {
  switch (op) {
    case aluop::kAdd: out = kernels::ScalarRowOp::Add; return true;
    case aluop::kMult: out = kernels::ScalarRowOp::Mult; return true;
    case aluop::kSubtract:
      out = scalar_first ? kernels::ScalarRowOp::ReverseSubtract : kernels::ScalarRowOp::Subtract;
      return true;
    default: return false;
  }
}

/// The kernel form of a word: op0 (and op1 unless it is a plain BYPASS) each one ADD/SUBTRACT/MULT pass over the row,
/// bit for bit alu_fp32's while the scalars are not NaN (kernels/alu_row.hpp).
struct RowForm {
  kernels::ScalarRowOp op0{}, op1{};
  bool second = false;
};
/// FP32 or BF16 rows: BF16 is widened and narrowed in the kernel's pass, bit for bit to_fp32_bits and
/// from_fp32_bits.
bool row_dtype(uint8_t d) {
  return d == dtype::kFp32 || d == dtype::kFp32r || d == dtype::kBfloat16;
}
bool row_form(const S3d3Ts& t, Path path, RowForm& f) {
  const bool row_io = row_dtype(t.in_dtype) && row_dtype(t.out_dtype);
  if (path != Path::Fp32 || !row_io || !ts::arith_opcode(t.header.opcode)) return false;
  if (!row_op(t.op0, (t.reverse_operands & 1) != 0, f.op0)) return false;
  if (t.op1 == aluop::kBypass && (t.reverse_operands & 2) == 0) return true;
  f.second = true;
  return row_op(t.op1, (t.reverse_operands & 2) != 0, f.op1);
}

// ---- The executors ----

bool exec_tensor_scalar(const S3d3Ts& t, exec::Txn& txn) {
  Operands o;
  if (!resolve(t, txn, o)) return false;
  const Path path = path_of(t, txn.gen());
  const bool transpose = t.header.opcode == ts::kTranspose;
  Rows sr{}, dr{};
  const bool src_rows = exec::forward_runs(txn, o.src, t.src, o.nac, o.count, o.in_size, sr);
  const bool dst_rows = exec::forward_runs(txn, o.dst, t.dst, o.nac, o.count, o.out_size, dr);
  if (!check_elements(t, txn, o, src_rows, dst_rows)) return false;

  // Every input is read before anything is written (K2): the scalars and the accumulators first, then the rows (the
  // staged writes reach memory at commit).
  std::array<uint32_t, kMaxChannels> s0{}, s1{}, acc{};
  for (unsigned c = 0; c < o.nac; ++c) {
    s0[c] = scalar(txn, o, t.imm0, 0, c);
    s1[c] = scalar(txn, o, t.imm1, 1, c);
    switch (t.accumulator_cmd) {
      case ts::kAccZeroAccumulate: acc[c] = t.header.opcode == ts::kExponential ? 0 : identity_of(t.op1); break;
      case ts::kAccLoadAccumulate: acc[c] = s1[c]; break;
      default: acc[c] = txn.engine().dve[c].acc; break;
    }
  }
  const uint64_t in_bytes = o.count * o.in_size, out_bytes = o.count * o.out_size;
  RowForm form;
  const bool kernel = !transpose && src_rows && dst_rows && row_form(t, path, form);
  EffectLog::Bytes& ib = txn.scratch().bytes_a;
  EffectLog::Bytes& ob = txn.scratch().bytes_b;
  // The transposed form reads every channel's row before it forms T (K7).
  ib.resize(transpose ? in_bytes * o.nac * 2 : in_bytes);
  ob.resize(out_bytes);
  uint8_t* all = ib.data() + (transpose ? in_bytes : 0);
  if (transpose)
    for (unsigned c = 0; c < o.nac; ++c) {
      if (src_rows) {
        txn.read_block(sr[c], in_bytes, o.in_size, all + c * in_bytes);
        continue;
      }
      for (uint64_t k = 0; k < o.count; ++k) {
        uint64_t a = 0;
        onchip_at(txn, o.src, t.src, c, k, o.in_size, "source", a);
        set_element(all + c * in_bytes, k, o.in_size, txn.read_mem(a, o.in_size));
      }
    }
  // Past its checks the step cannot fault: when no destination row overlaps a source row read after it and commit
  // can allocate nothing, the kernel's rows are written in place, not staged and copied at commit.
  const bool in_place =
      kernel && txn.may_write_runs_in_place(dr.data(), o.nac, out_bytes) &&
      exec::rows_in_place_ok(sr.data(), in_bytes, dr.data(), out_bytes, o.nac, o.in_size == o.out_size);
  for (unsigned c = 0; c < o.nac; ++c) {
    const uint8_t* in = ib.data();
    if (kernel && !std::isnan(as_float(s0[c])) && (!form.second || !std::isnan(as_float(s1[c])))) {
      // Piece by piece within stored spans (exec::span_piece), so that each source piece is read in place, not copied.
      const float f0 = as_float(s0[c]), f1 = as_float(s1[c]);
      for (uint64_t k = 0; k < o.count;) {
        const uint64_t src_at = sr[c] + k * o.in_size, dst_at = dr[c] + k * o.out_size;
        const uint64_t len = std::min(exec::span_piece(src_at, o.in_size, o.count - k),
                                      exec::span_piece(dst_at, o.out_size, o.count - k));
        const uint8_t* raw = txn.read_run(src_at, len * o.in_size, o.in_size, ib.data());
        uint8_t* out = in_place ? txn.write_run_in_place(dst_at, len * o.out_size, o.out_size) : nullptr;
        if (out == nullptr) out = txn.stage_run(dst_at, len * o.out_size, o.out_size);
        // Widening, both ops and narrowing in one pass over the piece (kernels/alu_row.hpp).
        const kernels::ScalarRowIo io{raw, o.in_size == 2 ? kernels::RowElement::Bf16 : kernels::RowElement::Fp32, out,
                                      o.out_size == 2 ? kernels::RowElement::Bf16 : kernels::RowElement::Fp32,
                                      txn.options().convert.sis};
        kernels::scalar_row_io(form.op0, form.second ? &form.op1 : nullptr, f0, f1, io, len);
        k += len;
      }
      continue;
    }
    if (transpose) {
      for (uint64_t k = 0; k < o.count; ++k) {
        const TransposeSource s = transpose32_source(c, k);
        set_element(ib.data(), k, o.in_size, element(all + s.channel * in_bytes, s.element, o.in_size));
      }
    } else if (src_rows) {
      txn.read_block(sr[c], in_bytes, o.in_size, ib.data());
    } else {
      for (uint64_t k = 0; k < o.count; ++k) {
        uint64_t a = 0;
        onchip_at(txn, o.src, t.src, c, k, o.in_size, "source", a);
        set_element(ib.data(), k, o.in_size, txn.read_mem(a, o.in_size));
      }
    }
    compute_row(t, path, o, in, ob.data(), s0[c], s1[c], acc[c], txn.options().convert);
    if (dst_rows) {
      txn.stage_block(dr[c], ob.data(), out_bytes, o.out_size);
    } else {
      for (uint64_t k = 0; k < o.count; ++k) {
        uint64_t a = 0;
        onchip_at(txn, o.dst, t.dst, c, k, o.out_size, "destination", a);
        txn.stage_mem(a, o.out_size, element(ob.data(), k, o.out_size));
      }
    }
  }
  // The accumulator: staged by the accumulating opcodes unless IDLE leaves it (K12).
  if (ts::accumulating_opcode(t.header.opcode) && t.accumulator_cmd != ts::kAccIdle)
    for (unsigned c = 0; c < o.nac; ++c) txn.stage_dve(c, DveField::Acc, 0, acc[c]);
  return true;
}

/// §5.7: each channel's accumulator (its sign bit flipped when negated, PROJ-CONV-K16) to dst element 0 in dtype.
bool exec_read_accumulator(const D1Rd& t, exec::Txn& txn) {
  if (!element_dtype_supported(txn, t.dtype, "dtype")) return false;
  uint32_t dst = 0;
  if (!onchip_start(txn, t.dst.start_addr, dst, "dst")) return false;
  const unsigned size = dtype_size(t.dtype);
  uint64_t a = 0;
  for (unsigned c = 0; c < t.num_active_channels; ++c)
    if (!onchip_at(txn, dst, t.dst, c, 0, size, "destination", a)) return false;
  for (unsigned c = 0; c < t.num_active_channels; ++c) {
    const uint32_t v = txn.engine().dve[c].acc ^ (t.negated != 0 ? kSignBit : 0U);
    onchip_at(txn, dst, t.dst, c, 0, size, "destination", a);
    txn.stage_mem(a, size, from_fp32_bits(v, t.dtype, txn.options().convert));
  }
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (!engine_runs(inst, txn)) return false;
  if (const auto* rd = inst.as<D1Rd>()) return exec_read_accumulator(*rd, txn);
  if (const auto* t = inst.as<S3d3Ts>()) return exec_tensor_scalar(*t, txn);
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("execution of {} ({:#04x}) is not modeled", inst.name(), inst.opcode()));
}

/// A pointer immediate's scalars: one element at the pointer's offset on each active channel's partition.
void add_pointer_footprint(Footprint& f, std::string_view name, uint32_t ptr, unsigned size, unsigned channels,
                           Generation g) {
  const PartitionAddress p = decode_partition_offset(ptr & kPartitionAddrMask, g);
  if (p.region == Region::Outside || size == 0) return;
  f.add({name, p.region, p.partition, channels, int64_t{p.offset}, int64_t{p.offset} + size - 1, false});
}

/// The tensor operands in their element widths on num_active_channels partitions, and the pointer immediates an
/// instruction-encoded pointer names (register pointers are placed at run time).
Footprint operand_footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const auto* rd = inst.as<D1Rd>()) {
    add_tensor_footprint(f, "dst", rd->dst, dtype_size(rd->dtype), rd->num_active_channels, true, g);
  } else if (const auto* t = inst.as<S3d3Ts>()) {
    const unsigned nac = t->num_active_channels;
    add_tensor_footprint(f, "src", t->src, dtype_size(t->in_dtype), nac, false, g);
    add_tensor_footprint(f, "dst", t->dst, dtype_size(t->out_dtype), nac, true, g);
    const unsigned scalar_size = ts::bitvec_opcode(t->header.opcode) ? dtype_size(t->in_dtype) : 4;
    const bool imm1_read = !ts::accumulating_opcode(t->header.opcode) || t->accumulator_cmd == ts::kAccLoadAccumulate;
    if (ts::imm_reading(t->header.opcode, t->imm0_src) == ImmReading::Pointer)
      add_pointer_footprint(f, "imm0", t->imm0.raw, scalar_size, nac, g);
    if (imm1_read && ts::imm_reading(t->header.opcode, t->imm1_src) == ImmReading::Pointer)
      add_pointer_footprint(f, "imm1", t->imm1.raw, scalar_size, nac, g);
  }
  return f;
}

}  // namespace

const Execution& TensorScalarFamily::execution() {
  static const Execution kExecution{.execute = execute, .footprint = operand_footprint, .unit_state = unit_state()};
  return kExecution;
}

}  // namespace tpbisa::family
