// Scalar-tensor-tensor family semantics (alu-ops.md §6): SCALAR_TENSOR_TENSOR 0x9D/0x9E, the scan 0xE5, SELECT_REDUCE
// 0xEA with the DVE accumulator (PROJ-CONV-K12), and TENSOR_SCALAR_SELECT 0x98; checks in the order of PROJ-CONV-N15.
#include <bit>
#include <limits>

#include "families/common.hpp"
#include "families/stt/format.hpp"
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
  if (!within_bound(txn, count, nac) || !check_elements(txn, ops, 0, 2, nac, count) || !check_scalar(txn, s, nac) ||
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
