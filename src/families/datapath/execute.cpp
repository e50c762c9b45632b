// Datapath family semantics (real-programs.md §10.3, §11.3, §12.3): COPY (bits), CAST (through FP32),
// TENSOR_TENSOR_ARITH_OP (the shared ALU evaluator) and MEMSET (raw fill), per channel and pattern element.
#include <array>
#include <bit>
#include <cmath>
#include <cstring>

#include "families/common.hpp"
#include "families/datapath/format.hpp"
#include "kernels/alu_row.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

bool is_integer(uint8_t d) {
  const DtypeInfo* row = find_dtype(d);
  return row != nullptr && (row->kind == DtypeKind::UInt || row->kind == DtypeKind::SInt);
}

bool is_signed(uint8_t d) {
  const DtypeInfo* row = find_dtype(d);
  return row != nullptr && row->kind == DtypeKind::SInt;
}

bool within_bound(exec::Txn& txn, uint64_t count, unsigned channels) {
  if (count * channels <= txn.options().max_elements_per_instruction) return true;
  return txn.fail(FaultKind::ResourceLimit, fmt::format("{} elements x {} channels exceed the per-instruction bound "
                                                        "of {}",
                                                        count, channels, txn.options().max_elements_per_instruction));
}

/// Row addresses of up to kMaxChannels channels (the block path).
using Rows = std::array<uint64_t, kMaxChannels>;

/// Element i of a little-endian row of `size`-byte elements.
uint64_t element(const uint8_t* row, uint64_t i, unsigned size) {
  uint64_t v = 0;
  for (unsigned b = 0; b < size; ++b) v |= uint64_t{row[i * size + b]} << (8 * b);
  return v;
}
void set_element(uint8_t* row, uint64_t i, unsigned size, uint64_t v) {
  for (unsigned b = 0; b < size; ++b) row[i * size + b] = static_cast<uint8_t>(v >> (8 * b));
}

/// §10.3: COPY moves the bit pattern; CAST converts through FP32 (memory-and-numerics.md §8.3).
bool exec_copy_cast(const S4d4Tr& t, exec::Txn& txn) {
  const bool cast = t.header.opcode == opcode::kCast;
  if (!element_dtype_supported(txn, t.in_dtype, "in") || !element_dtype_supported(txn, t.out_dtype, "out"))
    return false;
  uint32_t src = 0, dst = 0;
  if (!onchip_start(txn, t.src.start_addr, src, "src") || !onchip_start(txn, t.dst.start_addr, dst, "dst"))
    return false;
  const uint64_t count = t.src.elements();
  const unsigned nac = t.num_active_channels;
  if (!within_bound(txn, count, nac)) return false;
  const unsigned in = dtype_size(t.in_dtype), out = dtype_size(t.out_dtype);
  Rows sr{}, dr{};
  if (exec::forward_runs(txn, src, t.src, nac, count, in, sr) &&
      exec::forward_runs(txn, dst, t.dst, nac, count, out, dr)) {
    EffectLog::Bytes& ib = txn.scratch().bytes_a;
    EffectLog::Bytes& ob = txn.scratch().bytes_b;
    ib.resize(count * in);
    ob.resize(count * out);
    for (unsigned c = 0; c < nac; ++c) {
      txn.read_block(sr[c], count * in, in, ib.data());
      if (!cast && in == out) {
        txn.stage_block(dr[c], ib.data(), count * in, in);
        continue;
      }
      for (uint64_t k = 0; k < count; ++k) {
        const uint64_t raw = element(ib.data(), k, in);
        set_element(ob.data(), k, out,
                    cast ? from_fp32_bits(to_fp32_bits(raw, t.in_dtype), t.out_dtype, txn.options().convert) : raw);
      }
      txn.stage_block(dr[c], ob.data(), count * out, out);
    }
    return true;
  }
  uint64_t a = 0;
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < count; ++k)
      if (!onchip_at(txn, src, t.src, c, k, in, "source", a) ||
          !onchip_at(txn, dst, t.dst, c, k, out, "destination", a))
        return false;
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < count; ++k) {
      uint64_t d = 0;
      onchip_at(txn, src, t.src, c, k, in, "source", a);
      onchip_at(txn, dst, t.dst, c, k, out, "destination", d);
      const uint64_t raw = txn.read_mem(a, in);
      const uint64_t v = cast ? from_fp32_bits(to_fp32_bits(raw, t.in_dtype), t.out_dtype, txn.options().convert) : raw;
      txn.stage_mem(d, out, v);
    }
  return true;
}

/// §11.3: dst = ALU(op, src0, src1); floats in FP32, integer ops on 32-bit words when every dtype is an integer.
/// alu_fp32's ADD, SUBTRACT or MULT (`Op`) over a row of `n` fp32 pairs into fp32, stored as it is (from_fp32_bits of
/// fp32 is the identity): the same bits as the element path without its calls per element. A pair holding a NaN goes
/// through alu_fp32 itself (which NaN's payload survives must not depend on how this loop is compiled); any other
/// pair's NaN result is the one default NaN, already quiet.
template <uint8_t Op>
void fp32_pair_row(const uint8_t* a, const uint8_t* b, uint8_t* out, uint64_t n) {
  for (uint64_t k = 0; k < n; ++k) {
    float x = 0.0F, y = 0.0F;
    std::memcpy(&x, a + 4 * k, 4);
    std::memcpy(&y, b + 4 * k, 4);
    float r = Op == aluop::kAdd ? x + y : (Op == aluop::kSubtract ? x - y : x * y);
    if (std::isnan(x) || std::isnan(y)) [[unlikely]]
      r = alu_fp32(Op, x, y);
    std::memcpy(out + 4 * k, &r, 4);
  }
}

/// The row of fp32_pair_row for `op`; false (nothing written) for another op. The row goes through the vectorised
/// ScalarTensorTensor kernel as (a * 1.0) op b: a * 1.0 is a itself for every a but a NaN (subnormals kept), and the
/// kernel answers false when any result is a NaN, whose payload the element loop above then decides.
bool fp32_pair_row(uint8_t op, const uint8_t* a, const uint8_t* b, uint8_t* out, uint64_t n) {
  kernels::ScalarRowOp row_op = kernels::ScalarRowOp::Add;
  switch (op) {
    case aluop::kAdd: row_op = kernels::ScalarRowOp::Add; break;
    case aluop::kSubtract: row_op = kernels::ScalarRowOp::Subtract; break;
    case aluop::kMult: row_op = kernels::ScalarRowOp::Mult; break;
    default: return false;
  }
  const kernels::TensorRowIo io{a,   kernels::RowElement::Fp32, b,    kernels::RowElement::Fp32, nullptr,
                                out, kernels::RowElement::Fp32, false};
  if (kernels::scalar_tensor_row_io(kernels::ScalarRowOp::Mult, row_op, 1.0F, io, n)) return true;
  switch (op) {
    case aluop::kAdd: fp32_pair_row<aluop::kAdd>(a, b, out, n); break;
    case aluop::kSubtract: fp32_pair_row<aluop::kSubtract>(a, b, out, n); break;
    default: fp32_pair_row<aluop::kMult>(a, b, out, n); break;
  }
  return true;
}

bool exec_tensor_tensor(const S3s3d3Tt& t, exec::Txn& txn) {
  const uint8_t d0 = datapath::pair_lo(t.in0_in1_dtype), d1 = datapath::pair_hi(t.in0_in1_dtype);
  if (!element_dtype_supported(txn, d0, "src0") || !element_dtype_supported(txn, d1, "src1") ||
      !element_dtype_supported(txn, t.out_dtype, "out"))
    return false;
  uint32_t s0 = 0, s1 = 0, dst = 0;
  if (!onchip_start(txn, t.src0.start_addr, s0, "src0") || !onchip_start(txn, t.src1.start_addr, s1, "src1") ||
      !onchip_start(txn, t.dst.start_addr, dst, "dst"))
    return false;
  const uint64_t count = t.dst.elements();
  const unsigned nac = t.num_active_channels;
  if (!within_bound(txn, count, nac)) return false;
  const unsigned z0 = dtype_size(d0), z1 = dtype_size(d1), zo = dtype_size(t.out_dtype);
  // Rows that pass their run checks hold only accessible elements: the element checks below then cannot fault.
  Rows r0{}, r1{}, rd{};
  const bool rows = exec::forward_runs(txn, s0, t.src0, nac, count, z0, r0) &&
                    exec::forward_runs(txn, s1, t.src1, nac, count, z1, r1) &&
                    exec::forward_runs(txn, dst, t.dst, nac, count, zo, rd);
  uint64_t a = 0;
  for (unsigned c = 0; c < nac && !rows; ++c)
    for (uint64_t k = 0; k < count; ++k)
      if (!onchip_at(txn, s0, t.src0, c, k, z0, "src0", a) || !onchip_at(txn, s1, t.src1, c, k, z1, "src1", a) ||
          !onchip_at(txn, dst, t.dst, c, k, zo, "destination", a))
        return false;
  const AluOpInfo* op = find_aluop(t.op);
  const bool integer = op != nullptr && op->is(kAluInt) && is_integer(d0) && is_integer(d1) && is_integer(t.out_dtype);
  auto apply = [&](uint64_t v0, uint64_t v1) -> uint64_t {
    if (integer) {
      const uint32_t x = is_signed(d0) ? exec::sign_extend(v0, z0) : static_cast<uint32_t>(v0);
      const uint32_t y = is_signed(d1) ? exec::sign_extend(v1, z1) : static_cast<uint32_t>(v1);
      const uint32_t r = alu_int32(t.op, x, y, is_signed(d0));
      return zo >= 4 ? r : r & ((1U << (8 * zo)) - 1U);
    }
    const float x = std::bit_cast<float>(to_fp32_bits(v0, d0));
    const float y = std::bit_cast<float>(to_fp32_bits(v1, d1));
    return from_fp32_bits(std::bit_cast<uint32_t>(alu_fp32(t.op, x, y)), t.out_dtype, txn.options().convert);
  };
  if (rows && !txn.recording()) {
    EffectLog::Bytes& b0 = txn.scratch().bytes_a;
    EffectLog::Bytes& b1 = txn.scratch().bytes_b;
    b0.resize(count * z0);
    b1.resize(count * z1);
    const bool fp32 = !integer && d0 == dtype::kFp32 && d1 == dtype::kFp32 && t.out_dtype == dtype::kFp32;
    // Past its checks the step cannot fault: when no destination row overlaps a source row and commit can allocate
    // nothing, the rows are written in place, not staged and copied at commit.
    const bool in_place = txn.may_write_runs_in_place(rd.data(), nac, count * zo) &&
                          exec::rows_in_place_ok(r0.data(), count * z0, rd.data(), count * zo, nac, false) &&
                          exec::rows_in_place_ok(r1.data(), count * z1, rd.data(), count * zo, nac, false);
    for (unsigned c = 0; c < nac; ++c)
      // Per element the two operands are read in turn; a piece of each gives the same reads and diagnostics. Each
      // piece lies in one stored span, so that it is read (and written) in place, not copied.
      for (uint64_t k = 0; k < count;) {
        const uint64_t at0 = r0[c] + k * z0, at1 = r1[c] + k * z1, at = rd[c] + k * zo;
        const uint64_t len = std::min({exec::span_piece(at0, z0, count - k), exec::span_piece(at1, z1, count - k),
                                       exec::span_piece(at, zo, count - k)});
        const uint8_t* p0 = txn.read_run(at0, len * z0, z0, b0.data());
        const uint8_t* p1 = txn.read_run(at1, len * z1, z1, b1.data());
        uint8_t* out = in_place ? txn.write_run_in_place(at, len * zo, zo) : nullptr;
        if (out == nullptr) out = txn.stage_run(at, len * zo, zo);
        if (!fp32 || !fp32_pair_row(t.op, p0, p1, out, len))
          for (uint64_t i = 0; i < len; ++i) set_element(out, i, zo, apply(element(p0, i, z0), element(p1, i, z1)));
        k += len;
      }
    return true;
  }
  if (rows) {  // recording: rows read and staged through the Txn, which records them element by element
    EffectLog::Bytes& b0 = txn.scratch().bytes_a;
    EffectLog::Bytes& b1 = txn.scratch().bytes_b;
    b0.resize(count * (z0 + zo));
    b1.resize(count * z1);
    uint8_t* bo = b0.data() + count * z0;
    for (unsigned c = 0; c < nac; ++c) {  // element by element (the row kernel's differential, BlockPath.*)
      txn.read_block(r0[c], count * z0, z0, b0.data());
      txn.read_block(r1[c], count * z1, z1, b1.data());
      for (uint64_t k = 0; k < count; ++k)
        set_element(bo, k, zo, apply(element(b0.data(), k, z0), element(b1.data(), k, z1)));
      txn.stage_block(rd[c], bo, count * zo, zo);
    }
    return true;
  }
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < count; ++k) {
      uint64_t a0 = 0, a1 = 0, ad = 0;
      onchip_at(txn, s0, t.src0, c, k, z0, "src0", a0);
      onchip_at(txn, s1, t.src1, c, k, z1, "src1", a1);
      onchip_at(txn, dst, t.dst, c, k, zo, "destination", ad);
      const uint64_t v0 = txn.read_mem(a0, z0), v1 = txn.read_mem(a1, z1);
      txn.stage_mem(ad, zo, apply(v0, v1));
    }
  return true;
}

/// §12.3: the low type_size(dtype) bytes of set_value into every element, no conversion.
bool exec_memset(const D4Mr& t, exec::Txn& txn) {
  const unsigned size = dtype_size(t.dtype);
  if (size < 1 || size > 4)
    return txn.fail(FaultKind::UnsupportedDtype,
                    fmt::format("MEMSET dtype {} has no element size", dtype_label(t.dtype, txn.gen())));
  uint32_t dst = 0;
  if (!onchip_start(txn, t.dst.start_addr, dst, "dst")) return false;
  const uint64_t count = t.dst.elements();
  const unsigned nac = t.num_active_channels;
  if (!within_bound(txn, count, nac)) return false;
  const uint64_t v = size >= 4 ? t.set_value : t.set_value & ((1U << (8 * size)) - 1U);
  Rows rd{};
  if (exec::forward_runs(txn, dst, t.dst, nac, count, size, rd)) {
    EffectLog::Bytes& row = txn.scratch().bytes_a;
    row.resize(count * size);
    for (uint64_t k = 0; k < count; ++k) set_element(row.data(), k, size, v);
    for (unsigned c = 0; c < nac; ++c) txn.stage_block(rd[c], row.data(), count * size, size);
    return true;
  }
  uint64_t a = 0;
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < count; ++k)
      if (!onchip_at(txn, dst, t.dst, c, k, size, "destination", a)) return false;
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < count; ++k) {
      onchip_at(txn, dst, t.dst, c, k, size, "destination", a);
      txn.stage_mem(a, size, v);
    }
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const auto* t = inst.as<S4d4Tr>();
      t != nullptr && (inst.opcode() == opcode::kCopy || inst.opcode() == opcode::kCast))
    return exec_copy_cast(*t, txn);
  if (const auto* t = inst.as<S3s3d3Tt>(); t != nullptr && inst.opcode() == opcode::kTensorTensorArith)
    return exec_tensor_tensor(*t, txn);
  if (const auto* t = inst.as<D4Mr>(); t != nullptr && inst.opcode() == opcode::kMemset) return exec_memset(*t, txn);
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("execution of {} ({:#04x}) is not modeled", inst.name(), inst.opcode()));
}

/// The tensor operands, each in the element width it is read or written in, on num_active_channels partitions.
Footprint footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const auto* tr = inst.as<S4d4Tr>()) {
    add_tensor_footprint(f, "src", tr->src, dtype_size(tr->in_dtype), tr->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", tr->dst, dtype_size(tr->out_dtype), tr->num_active_channels, true, g);
  } else if (const auto* tt = inst.as<S3s3d3Tt>()) {
    const unsigned nac = tt->num_active_channels;
    add_tensor_footprint(f, "src0", tt->src0, dtype_size(static_cast<uint8_t>(tt->in0_in1_dtype & 0xF)), nac, false, g);
    add_tensor_footprint(f, "src1", tt->src1, dtype_size(static_cast<uint8_t>(tt->in0_in1_dtype >> 4)), nac, false, g);
    add_tensor_footprint(f, "dst", tt->dst, dtype_size(tt->out_dtype), nac, true, g);
  } else if (const auto* mr = inst.as<D4Mr>()) {
    add_tensor_footprint(f, "dst", mr->dst, dtype_size(mr->dtype), mr->num_active_channels, true, g);
  }
  return f;
}

constexpr Execution kExecution{.execute = execute, .footprint = footprint};

}  // namespace

const Execution& DatapathFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
