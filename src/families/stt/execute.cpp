// Scalar-tensor-tensor family semantics (alu-ops.md §6): SCALAR_TENSOR_TENSOR 0x9D/0x9E, the scan 0xE5, SELECT_REDUCE
// 0xEA with the DVE accumulator (PROJ-CONV-K12), and TENSOR_SCALAR_SELECT 0x98; checks in the order of PROJ-CONV-N15.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "families/common.hpp"
#include "families/stt/format.hpp"
#include "kernels/alu_row.hpp"
#include "kernels/convert.hpp"
#include "kernels/row_fold.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

using Stt = S2s2d2Stt;
using Sel = S3d3TsSelect;

bool within_bound(exec::Txn& txn, uint64_t count, unsigned channels) {
  if (count * channels <= txn.options().max_elements_per_instruction) return true;
  return txn.fail(FaultKind::ResourceLimit, fmt::format("{} elements x {} channels exceed the per-instruction bound "
                                                        "of {}",
                                                        count, channels, txn.options().max_elements_per_instruction));
}

bool is_signed_int(uint8_t d) {
  const DtypeInfo* row = find_dtype(d);
  return row != nullptr && row->kind == DtypeKind::SInt;
}

float f32(uint32_t bits) {
  return std::bit_cast<float>(bits);
}
uint32_t bits_of(float f) {
  return std::bit_cast<uint32_t>(f);
}

/// One tensor operand of a word: its pattern, resolved base, element size and name.
template <class T>
struct Operand {
  const T* pattern;
  unsigned size;
  std::string_view name;
  uint32_t base = 0;
};

/// Steps 3 and 4 of PROJ-CONV-N15 over the operands (sources first): every addressing mode, then every shape source,
/// then every register start.
template <class T, size_t N>
bool resolve_operands(exec::Txn& txn, std::array<Operand<T>, N>& ops) {
  for (const Operand<T>& o : ops)
    if (!exec::addr4_mode_supported(txn, o.pattern->start_addr, o.name)) return false;
  for (const Operand<T>& o : ops)
    if (!exec::addr4_shape_supported(txn, o.pattern->start_addr, o.name)) return false;
  for (Operand<T>& o : ops)
    if (!exec::resolve_addr4(txn, o.pattern->start_addr, o.base, o.name)) return false;
  return true;
}

/// Every element of every active channel of the operands lies in its partition's backed bytes (PROJ-CONV-N2).
template <class T, size_t N>
bool check_elements(exec::Txn& txn, const std::array<Operand<T>, N>& ops, size_t first, size_t last, unsigned nac,
                    uint64_t count) {
  uint64_t a = 0;
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < count; ++k)
      for (size_t i = first; i < last; ++i)
        if (!onchip_at(txn, ops[i].base, *ops[i].pattern, c, k, ops[i].size, ops[i].name, a)) return false;
  return true;
}

template <class T>
uint64_t read_at(exec::Txn& txn, const Operand<T>& o, unsigned c, uint64_t k) {
  uint64_t a = 0;
  onchip_at(txn, o.base, *o.pattern, c, k, o.size, o.name, a);  // checked before
  return txn.read_mem(a, o.size);
}
template <class T>
void write_at(exec::Txn& txn, const Operand<T>& o, unsigned c, uint64_t k, uint64_t v) {
  uint64_t a = 0;
  onchip_at(txn, o.base, *o.pattern, c, k, o.size, o.name, a);  // checked before
  txn.stage_mem(a, o.size, v);
}

/// A per-channel immediate (alu-ops.md §2.5): the instruction's own bits, or one `size`-byte element per channel at
/// the pointer's partition + c (POINTER, or REG_PTR: R[regnum] & 0x1FFFFFFF, PROJ-CONV-N16).
struct Scalar {
  uint8_t src = 0;
  uint32_t raw = 0;  ///< the instruction's 4 bytes
  unsigned size = 0;
  std::string_view name;
  uint32_t pointer = 0;
  bool from_memory() const { return src == stt::kImmPointer || src == stt::kImmRegPointer; }
};

/// Resolves a register pointer (step 4: IllegalRegister for r >= 64).
bool resolve_scalar(exec::Txn& txn, Scalar& s) {
  if (s.src == stt::kImmPointer) s.pointer = s.raw & 0x1FFFFFFFU;
  if (s.src != stt::kImmRegPointer) return true;
  const unsigned r = s.raw & 0xFFU;
  if (r >= kNumRegisters)
    return txn.fail_reg(FaultKind::IllegalRegister, static_cast<int>(r),
                        fmt::format("{} names register r{} (PROJ-CONV-N16)", s.name, r));
  s.pointer = txn.reg(r) & 0x1FFFFFFFU;
  return true;
}

/// Step 5 for a pointer immediate: channel c's scalar is an element access (OutOfRange, PROJ-CONV-N2).
bool check_scalar(exec::Txn& txn, const Scalar& s, unsigned nac) {
  if (!s.from_memory()) return true;
  uint64_t a = 0;
  for (unsigned c = 0; c < nac; ++c)
    if (!exec::onchip_element(txn.gen(), s.pointer, c, 0, s.size, a))
      return txn.fail_at(FaultKind::OutOfRange, exec::nominal_element_address(txn.gen(), s.pointer, c, 0),
                         fmt::format("channel {} reads {} outside SBUF/PSUM or its partition's backed bytes "
                                     "(PROJ-CONV-N2)",
                                     c, s.name));
  return true;
}

/// Channel c's scalar bits: from memory, or the instruction's bits (the caller narrows them).
uint64_t scalar_bits(exec::Txn& txn, const Scalar& s, unsigned c) {
  if (!s.from_memory()) return s.raw;
  uint64_t a = 0;
  exec::onchip_element(txn.gen(), s.pointer, c, 0, s.size, a);  // checked before
  return txn.read_mem(a, s.size);
}

uint64_t low_bits(uint64_t v, unsigned bytes) {
  return bytes >= 8 ? v : v & ((uint64_t{1} << (8 * bytes)) - 1U);
}

/// The bit-vector path (PROJ-CONV-K10) at the element width: operands and result are `bytes` wide; ARITH_SHIFT_RIGHT
/// sign-fills from the element's top bit only for a signed dtype, every other op sees the zero-extended bits.
uint32_t bitvec_op(uint8_t op, uint32_t a, uint32_t b, unsigned bytes, bool is_signed) {
  const auto x = static_cast<uint32_t>(low_bits(a, bytes));
  const auto y = static_cast<uint32_t>(low_bits(b, bytes));
  const uint32_t xa = is_signed && op == aluop::kArithShiftRight ? exec::sign_extend(x, bytes) : x;
  return static_cast<uint32_t>(low_bits(alu_int32(op, xa, y, is_signed), bytes));
}

/// `OP(op, a, b)`, or `OP(op, b, a)` when `reverse`: a unary op then acts on its left operand as it stands
/// (PROJ-CONV-T4, K23).
float fp_op(uint8_t op, float a, float b, bool reverse) {
  return reverse ? alu_fp32(op, b, a) : alu_fp32(op, a, b);
}

// ---- The row path of SCALAR_TENSOR_TENSOR_ARITH: FP32/BF16 rows, ADD/SUBTRACT/MULT ----

/// The vectorised form of `x op y` (or `y op x` when reversed) for an op the row kernel has.
bool row_op(uint8_t op, bool reverse, kernels::ScalarRowOp& out) {
  switch (op) {
    case aluop::kAdd: out = kernels::ScalarRowOp::Add; return true;
    case aluop::kMult: out = kernels::ScalarRowOp::Mult; return true;
    case aluop::kSubtract:
      out = reverse ? kernels::ScalarRowOp::ReverseSubtract : kernels::ScalarRowOp::Subtract;
      return true;
    default: return false;
  }
}
bool row_dtype(uint8_t d) {
  return d == dtype::kFp32 || d == dtype::kFp32r || d == dtype::kBfloat16;
}

kernels::RowElement row_element(unsigned size) {
  return size == 2 ? kernels::RowElement::Bf16 : kernels::RowElement::Fp32;
}

/// Whether the `n` bytes at p overlap the `m` bytes at q.
bool overlap(const void* p, uint64_t n, const void* q, uint64_t m) {
  const auto a = reinterpret_cast<uintptr_t>(p), b = reinterpret_cast<uintptr_t>(q);
  return a < b + m && b < a + n;
}

/// The element of `size` bytes (FP32 or BF16) at row[i] as fp32 (to_fp32_bits).
float row_value(const uint8_t* row, uint64_t i, unsigned size, uint8_t d) {
  uint32_t raw = 0;
  std::memcpy(&raw, row + i * size, size);
  return f32(to_fp32_bits(raw, d));
}

/// Folds the accumulators of the channels [c0, c0 + lanes) over their v rows (`stride` floats apart from `v`), each
/// in element order (PROJ-CONV-K12) and sixteen at once; a channel whose sum is a NaN is folded again with alu_fp32.
void fold_accumulators(const Stt& t, exec::Txn& txn, const float* v, uint64_t stride, unsigned c0, unsigned lanes,
                       uint64_t count) {
  std::array<float, kernels::kFoldLanes> seed{}, acc{};
  std::array<const uint8_t*, kernels::kFoldLanes> lane_rows{};
  for (unsigned j = 0; j < kernels::kFoldLanes; ++j) {
    const unsigned l = j < lanes ? j : 0;  // spare lanes repeat the first channel and are dropped
    lane_rows[j] = reinterpret_cast<const uint8_t*>(v + l * stride);
    seed[j] = t.accumulator_cmd == stt::kAccZeroAccumulate ? 0.0F : f32(txn.engine().dve[c0 + l].acc);
  }
  kernels::fp32_lane_folds(kernels::FoldOp::Add, kernels::FoldElement::Fp32, lane_rows.data(), 0, count, seed.data(),
                           acc.data());
  for (unsigned j = 0; j < lanes; ++j) {
    float sum = acc[j];
    if (std::isnan(sum)) {  // alu_fp32's own NaN bits
      sum = seed[j];
      for (uint64_t k = 0; k < count; ++k) sum = alu_fp32(aluop::kAdd, sum, v[j * stride + k]);
    }
    txn.stage_dve(c0 + j, DveField::Acc, 0, bits_of(sum));
  }
}

/// The untraced block path of 0x9D (every check passed): each channel's v = op1(op0(src0, s), src1) over its rows,
/// widened, computed and narrowed into the destination in one vector pass per memory page (kernels/alu_row.hpp), a
/// piece holding a NaN recomputed element by element with alu_fp32; the accumulators folded over the v rows of
/// sixteen channels at once, each in element order (PROJ-CONV-K12), while those rows are still in cache. When every
/// tensor operand is one forward run per channel its element checks pass, so only the scalar's is made here.
/// Nullopt (nothing done) when the word is not of that form; else the step's result.
std::optional<bool> stt_rows(const Stt& t, const std::array<Operand<Tensor2d>, 3>& ops, const Scalar& s, exec::Txn& txn,
                             unsigned nac, uint64_t count) {
  const uint8_t d0 = stt::pair_lo(t.in0_in1_dtype), d1 = stt::pair_hi(t.in0_in1_dtype);
  const bool rev0 = (t.reverse_operands & stt::kRevFirst) != 0;
  const bool rev1 = (t.reverse_operands & stt::kRevSecond) != 0;
  kernels::ScalarRowOp k0{}, k1{};
  // op0(a, s) reversed is op0(s, a); op1(u, b) reversed is op1(b, u): the kernel's ops name x op y with x = a, u.
  if (!row_dtype(d0) || !row_dtype(d1) || !row_dtype(t.out_dtype) || !row_op(t.op0, rev0, k0) ||
      !row_op(t.op1, rev1, k1))
    return std::nullopt;
  std::array<uint64_t, kMaxChannels> r0{}, r1{}, rd{};
  if (!exec::forward_runs(txn, ops[0].base, *ops[0].pattern, nac, count, ops[0].size, r0) ||
      !exec::forward_runs(txn, ops[1].base, *ops[1].pattern, nac, count, ops[1].size, r1) ||
      !exec::forward_runs(txn, ops[2].base, *ops[2].pattern, nac, count, ops[2].size, rd))
    return std::nullopt;
  if (!check_scalar(txn, s, nac)) return false;
  const unsigned z0 = ops[0].size, z1 = ops[1].size, zo = ops[2].size;
  const bool accumulate = t.accumulator_cmd != stt::kAccIdle;
  const bool sis = txn.options().convert.sis;
  // The v rows of sixteen channels (kept for their accumulators), a little over a multiple of 4 KiB apart so that
  // the fold's sixteen rows do not alias; a piece written over its own source goes through `tmp` first.
  const uint64_t stride = count + 64;
  EffectLog::Floats& v = txn.scratch().f32c;
  if (accumulate) v.resize(stride * kernels::kFoldLanes);
  EffectLog::Floats& tmp = txn.scratch().f32a;
  tmp.resize(count);
  EffectLog::Bytes& scratch = txn.scratch().bytes_a;
  scratch.resize(count * (z0 + z1));
  // Past its checks the step cannot fault: when no destination row overlaps a source row of a later channel and
  // commit can allocate nothing, the rows are written in place, not staged and copied at commit.
  const bool in_place = txn.may_write_runs_in_place(rd.data(), nac, count * zo) &&
                        exec::rows_in_place_ok(r0.data(), count * z0, rd.data(), count * zo, nac, true) &&
                        exec::rows_in_place_ok(r1.data(), count * z1, rd.data(), count * zo, nac, true);
  // Every channel's scalar first, as the element path reads them: a row written in place must not change one.
  std::array<float, kMaxChannels> scalars{};
  for (unsigned c = 0; c < nac; ++c) {
    const uint64_t sraw = scalar_bits(txn, s, c);
    scalars[c] = f32(s.from_memory() ? to_fp32_bits(sraw, t.imm0_dtype) : static_cast<uint32_t>(sraw));
  }
  for (unsigned c = 0; c < nac; ++c) {
    const float sf = scalars[c];
    float* y = accumulate ? v.data() + (c % kernels::kFoldLanes) * stride : nullptr;
    // Piece by piece within stored spans (exec::span_piece), so that each piece is read and written in place, not
    // copied.
    for (uint64_t k = 0; k < count;) {
      const uint64_t at0 = r0[c] + k * z0, at1 = r1[c] + k * z1, at = rd[c] + k * zo;
      const uint64_t len = std::min({exec::span_piece(at0, z0, count - k), exec::span_piece(at1, z1, count - k),
                                     exec::span_piece(at, zo, count - k)});
      const uint8_t* a = txn.read_run(at0, len * z0, z0, scratch.data());
      const uint8_t* b = txn.read_run(at1, len * z1, z1, scratch.data() + len * z0);
      uint8_t* out = in_place ? txn.write_run_in_place(at, len * zo, zo) : nullptr;
      if (out == nullptr) out = txn.stage_run(at, len * zo, zo);
      // A destination over its own source is written after the piece is known to hold no NaN (the element
      // recomputation reads the sources); any other is written in the kernel's pass.
      const bool over = overlap(out, len * zo, a, len * z0) || overlap(out, len * zo, b, len * z1);
      float* yk = y != nullptr ? y + k : over ? tmp.data() : nullptr;
      const kernels::TensorRowIo io{a,  row_element(z0), b, row_element(z1), yk, over ? nullptr : out, row_element(zo),
                                    sis};
      const bool exact = kernels::scalar_tensor_row_io(k0, k1, sf, io, len);
      if (!exact || over)
        for (uint64_t i = 0; i < len; ++i) {
          const float e =
              exact ? yk[i]
                    : fp_op(t.op1, fp_op(t.op0, row_value(a, i, z0, d0), sf, rev0), row_value(b, i, z1, d1), rev1);
          if (yk != nullptr) yk[i] = e;
          if (zo == 4)
            std::memcpy(out + i * 4, &e, 4);
          else
            kernels::fp32_to_bf16(&e, reinterpret_cast<uint16_t*>(out) + i, 1, sis);
        }
      k += len;
    }
    if (accumulate && (c % kernels::kFoldLanes == kernels::kFoldLanes - 1 || c + 1 == nac)) {
      const unsigned c0 = c - c % kernels::kFoldLanes;
      fold_accumulators(t, txn, v.data(), stride, c0, c + 1 - c0, count);
    }
  }
  return true;
}

// ---- S2S2D2_STT: 0x9D/0x9E, 0xE5, 0xEA (alu-ops.md §6.2-§6.4) ----

bool exec_stt(const Instruction& inst, const Stt& t, exec::Txn& txn) {
  const uint8_t op = t.header.opcode;
  const uint8_t d0 = stt::pair_lo(t.in0_in1_dtype), d1 = stt::pair_hi(t.in0_in1_dtype);
  if (!engine_runs(inst, txn)) return false;
  if (!element_dtype_supported(txn, d0, "src0") || !element_dtype_supported(txn, d1, "src1") ||
      !element_dtype_supported(txn, t.out_dtype, "out") || !element_dtype_supported(txn, t.imm0_dtype, "imm0"))
    return false;
  std::array<Operand<Tensor2d>, 3> ops{
      {{&t.src0, dtype_size(d0), "src0"}, {&t.src1, dtype_size(d1), "src1"}, {&t.dst, dtype_size(t.out_dtype), "dst"}}};
  Scalar s{t.imm0_src, t.imm0.raw, dtype_size(t.imm0_dtype), "imm0"};
  if (!resolve_operands(txn, ops) || !resolve_scalar(txn, s)) return false;
  const uint64_t count = uint64_t{t.src0.num_elem[0]} * t.src0.num_elem[1];
  const unsigned nac = t.num_active_channels;
  if (!within_bound(txn, count, nac)) return false;
  if (op == stt::kSttArith)
    if (const std::optional<bool> done = stt_rows(t, ops, s, txn, nac, count)) return *done;
  if (!check_elements(txn, ops, 0, 2, nac, count) || !check_scalar(txn, s, nac) ||
      !check_elements(txn, ops, 2, 3, nac, count))
    return false;

  const bool rev0 = (t.reverse_operands & stt::kRevFirst) != 0;
  const bool rev1 = (t.reverse_operands & stt::kRevSecond) != 0;
  const uint8_t cmd = t.accumulator_cmd;
  const bool accumulate = cmd != stt::kAccIdle && (op == stt::kSttArith || op == stt::kSelectReduce);
  const unsigned zo = ops[2].size;
  const bool out_signed = is_signed_int(t.out_dtype);
  for (unsigned c = 0; c < nac; ++c) {
    // The scalar: fp32 inline, a converted imm0_dtype element from memory; the bit-vector opcode keeps raw bits.
    const uint64_t sraw = scalar_bits(txn, s, c);
    const float sf = f32(s.from_memory() ? to_fp32_bits(sraw, t.imm0_dtype) : static_cast<uint32_t>(sraw));
    float acc = f32(txn.engine().dve[c].acc);
    if (cmd == stt::kAccZeroAccumulate)  // PROJ-CONV-K12: the identity of each opcode's combine
      acc = op == stt::kSelectReduce ? -std::numeric_limits<float>::infinity() : 0.0F;
    float state = sf;  // the scan's running value (PROJ-CONV-K20)
    for (uint64_t k = 0; k < count; ++k) {
      const uint64_t r0 = read_at(txn, ops[0], c, k), r1 = read_at(txn, ops[1], c, k);
      if (op == stt::kSttBitvec) {
        const auto sb = static_cast<uint32_t>(low_bits(sraw, zo));
        const uint32_t v = bitvec_op(t.op0, rev0 ? sb : static_cast<uint32_t>(r0),
                                     rev0 ? static_cast<uint32_t>(r0) : sb, zo, out_signed);
        write_at(txn, ops[2], c, k,
                 bitvec_op(t.op1, rev1 ? static_cast<uint32_t>(r1) : v, rev1 ? v : static_cast<uint32_t>(r1), zo,
                           out_signed));
        continue;
      }
      float v = 0.0F;
      if (op == stt::kSelectReduce) {  // PROJ-CONV-K13: a non-zero predicate selects the data, else the scalar
        const bool sel = (r0 != 0) != rev0;
        v = sel ? f32(to_fp32_bits(r1, d1)) : sf;
        if (accumulate) acc = alu_fp32(aluop::kMax, acc, v);
      } else {
        const float a = f32(to_fp32_bits(r0, d0)), b = f32(to_fp32_bits(r1, d1));
        const float scalar = op == stt::kScan ? state : sf;
        const float u = fp_op(t.op0, a, scalar, rev0);
        v = fp_op(t.op1, u, b, rev1);
        state = v;
        if (accumulate) acc = alu_fp32(aluop::kAdd, acc, v);
      }
      write_at(txn, ops[2], c, k, from_fp32_bits(bits_of(v), t.out_dtype, txn.options().convert));
    }
    if (accumulate) txn.stage_dve(c, DveField::Acc, 0, bits_of(acc));
  }
  return true;
}

// ---- S3D3_TS_SELECT: 0x98 (alu-ops.md §6.5) ----

bool exec_select(const Instruction& inst, const Sel& t, exec::Txn& txn) {
  if (!engine_runs(inst, txn)) return false;
  if (!element_dtype_supported(txn, t.dtype, "dtype") || !element_dtype_supported(txn, t.pred_imm_dtype, "pred_imm"))
    return false;
  const unsigned z = dtype_size(t.dtype);
  std::array<Operand<Tensor3d>, 2> ops{{{&t.src0, z, "src0"}, {&t.dst, z, "dst"}}};
  Scalar s{t.src1_imm_src, t.src1_imm.raw, z, "src1_imm"};
  Scalar p{t.pred_imm_src, t.pred_imm.raw, dtype_size(t.pred_imm_dtype), "pred_imm"};
  if (!resolve_operands(txn, ops) || !resolve_scalar(txn, s) || !resolve_scalar(txn, p)) return false;
  const uint64_t count = t.src0.elements();
  const unsigned nac = t.num_active_channels;
  if (!within_bound(txn, count, nac) || !check_elements(txn, ops, 0, 1, nac, count) || !check_scalar(txn, s, nac) ||
      !check_scalar(txn, p, nac) || !check_elements(txn, ops, 1, 2, nac, count))
    return false;
  for (unsigned c = 0; c < nac; ++c) {
    const bool pred = scalar_bits(txn, p, c) != 0;
    const uint64_t scalar = low_bits(scalar_bits(txn, s, c), z);  // PROJ-CONV-K11 (c): the low dtype bytes, raw
    const bool take_tensor = t.reversed_pred != 0 ? !pred : pred;
    for (uint64_t k = 0; k < count; ++k) write_at(txn, ops[1], c, k, take_tensor ? read_at(txn, ops[0], c, k) : scalar);
  }
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const auto* t = inst.as<Stt>()) return exec_stt(inst, *t, txn);
  if (const auto* e = inst.as<Sel>()) return exec_select(inst, *e, txn);
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("execution of {} ({:#04x}) is not modeled", inst.name(), inst.opcode()));
}

/// A pointer immediate's footprint: one `size`-byte element on each of `channels` partitions from the pointer's.
void add_pointer_footprint(Footprint& f, std::string_view name, uint8_t src, uint32_t raw, unsigned size,
                           unsigned channels, Generation g) {
  if (src != stt::kImmPointer || size == 0) return;
  const PartitionAddress p = decode_partition_offset(raw & 0x1FFFFFFFU, g);
  if (p.region == Region::Outside) return;
  f.add({name, p.region, p.partition, channels, int64_t{p.offset}, int64_t{p.offset} + size - 1, false});
}

/// The tensor operands in the widths they are read or written in, and the pointer immediates placed in the word.
Footprint footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const auto* t = inst.as<Stt>()) {
    const unsigned nac = t->num_active_channels;
    add_tensor_footprint(f, "src0", t->src0, dtype_size(stt::pair_lo(t->in0_in1_dtype)), nac, false, g);
    add_tensor_footprint(f, "src1", t->src1, dtype_size(stt::pair_hi(t->in0_in1_dtype)), nac, false, g);
    add_tensor_footprint(f, "dst", t->dst, dtype_size(t->out_dtype), nac, true, g);
    add_pointer_footprint(f, "imm0", t->imm0_src, t->imm0.raw, dtype_size(t->imm0_dtype), nac, g);
  } else if (const auto* e = inst.as<Sel>()) {
    const unsigned nac = e->num_active_channels;
    add_tensor_footprint(f, "src0", e->src0, dtype_size(e->dtype), nac, false, g);
    add_tensor_footprint(f, "dst", e->dst, dtype_size(e->dtype), nac, true, g);
    add_pointer_footprint(f, "src1_imm", e->src1_imm_src, e->src1_imm.raw, dtype_size(e->dtype), nac, g);
    add_pointer_footprint(f, "pred_imm", e->pred_imm_src, e->pred_imm.raw, dtype_size(e->pred_imm_dtype), nac, g);
  }
  return f;
}

constexpr Execution kExecution{.execute = execute, .footprint = footprint};

}  // namespace

const Execution& SttFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
