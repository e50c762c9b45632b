// S4D4_TSM family semantics: PtrMulti and the SUNDA Dual pair (s4d4-tsm.md §4; check order PROJ-CONV-N15).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "families/common.hpp"
#include "kernels/alu_row.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

using tsm::bitvec_opcode;
using tsm::is_dual;

/// Byte offset of flat element k of a 4-D pattern (X fastest), scaled by the element size.
int64_t element_offset(const Tensor4d& t, uint64_t k, unsigned esz) {
  int64_t off = 0;
  for (unsigned d = 0; d < 4; ++d) {
    const uint64_t n = t.num_elem[d] == 0 ? 1 : t.num_elem[d];
    off += static_cast<int64_t>(k % n) * t.step_elem[d];
    k /= n;
  }
  return off * int64_t{esz};
}

bool dtypes_supported(const S4d4Tsm& t, exec::Txn& txn) {
  for (uint8_t d : {t.in_dtype, t.out_dtype})
    if (!convertible(d) || dtype_size(d) > 4)
      return txn.fail(
          FaultKind::UnsupportedDtype,
          fmt::format("dtype {} has no element semantics in the executor (PROJ-CONV-T13)", dtype_label(d, txn.gen())));
  return true;
}

/// The scalar of slice w, as the consumer class reads it (PROJ-CONV-T14 diagnostics).
uint32_t scalar(const DveChannel& ch, unsigned c, unsigned slot, bool arith, exec::Txn& txn) {
  using C = DveChannel::ImmClass;
  if (ch.imm_class[slot] == C::Unwritten)
    txn.diag(DiagKind::UnwrittenScalar, uint64_t{c} * 8 + slot, 4);
  else if ((ch.imm_class[slot] == C::Arith) != arith)
    txn.diag(DiagKind::ScalarClassMismatch, uint64_t{c} * 8 + slot, 4);
  return ch.imm[slot];
}

uint32_t apply_arith(uint8_t op, unsigned rev, uint32_t x_bits, uint32_t s_bits) {
  const float x = std::bit_cast<float>(x_bits);
  const float s = std::bit_cast<float>(s_bits);
  const float y = rev == 3 ? alu_fp32(op, s, x) : alu_fp32(op, x, s);
  return std::bit_cast<uint32_t>(y);
}

/// SUNDA Dual: y = (x op0 p0) * p1 with the two-op reverse formula (s4d4-tsm.md §4.4).
uint32_t apply_dual(uint8_t op, unsigned rev, uint32_t x_bits, uint32_t p0_bits, uint32_t p1_bits) {
  const float x = std::bit_cast<float>(x_bits);
  const float p0 = std::bit_cast<float>(p0_bits);
  const float p1 = std::bit_cast<float>(p1_bits);
  const bool first = rev == 1 || rev == 3;
  const bool second = rev == 2 || rev == 3;
  const float t = first ? alu_fp32(op, p0, x) : alu_fp32(op, x, p0);
  return std::bit_cast<uint32_t>(second ? alu_fp32(aluop::kMult, p1, t) : alu_fp32(aluop::kMult, t, p1));
}

// ---- The row kernel (the block path, nothing recorded) ----

/// The row kernel's op for ADD, SUBTRACT (x - s, or s - x when `reversed`) and MULT.
kernels::ScalarRowOp row_op_of(uint8_t op, bool reversed) {
  using kernels::ScalarRowOp;
  if (op == aluop::kMult) return ScalarRowOp::Mult;
  if (op == aluop::kAdd) return ScalarRowOp::Add;
  return reversed ? ScalarRowOp::ReverseSubtract : ScalarRowOp::Subtract;
}

uint64_t load_le(const uint8_t* p, unsigned n) {
  uint64_t v = 0;
  for (unsigned b = 0; b < n; ++b) v |= uint64_t{p[b]} << (8 * b);
  return v;
}

void store_le(uint8_t* p, unsigned n, uint64_t v) {
  for (unsigned b = 0; b < n; ++b) p[b] = static_cast<uint8_t>(v >> (8 * b));
}

/// The scalar of slot `slot` read by `n` elements: the diagnostics the element path would count n times.
uint32_t scalar_n(const DveChannel& ch, unsigned slot, bool arith, uint64_t n, exec::Txn& txn) {
  using C = DveChannel::ImmClass;
  if (ch.imm_class[slot] == C::Unwritten)
    txn.count_diags(DiagKind::UnwrittenScalar, n);
  else if ((ch.imm_class[slot] == C::Arith) != arith)
    txn.count_diags(DiagKind::ScalarClassMismatch, n);
  return ch.imm[slot];
}

/// The block path: every channel's source and destination is one forward run (checked once per channel), read
/// in place and staged as one block; per slice of the W dimension the scalar is read once and its elements go
/// through fp32_row (FP32 in and out, ADD/SUBTRACT/MULT, scalar not a NaN) or the same per-element evaluation as
/// the element path. False (nothing done) when it does not apply.
bool execute_rows(const S4d4Tsm& t, uint32_t src, uint32_t dst, uint64_t count, exec::Txn& txn) {
  const unsigned in_size = dtype_size(t.in_dtype), out_size = dtype_size(t.out_dtype);
  const unsigned channels = t.num_active_channels;
  std::array<uint64_t, kMaxChannels> src_rows{}, dst_rows{};
  if (!exec::forward_runs(txn, src, t.src_mem_pattern, channels, count, in_size, src_rows) ||
      !exec::forward_runs(txn, dst, t.dst_mem_pattern, channels, count, out_size, dst_rows))
    return false;
  const bool bitvec = bitvec_opcode(t.header.opcode), dual = is_dual(t.header.opcode);
  const bool is_signed = t.in_dtype == dtype::kInt32;
  const bool fp32_io = (t.in_dtype == dtype::kFp32 || t.in_dtype == dtype::kFp32r) &&
                       (t.out_dtype == dtype::kFp32 || t.out_dtype == dtype::kFp32r);
  const bool row_op =
      !bitvec && !dual && fp32_io && (t.op == aluop::kMult || t.op == aluop::kAdd || t.op == aluop::kSubtract);
  const bool reversed = t.reverse_operands == 3;
  const uint64_t per_slice = count / std::max<uint64_t>(1, t.src_mem_pattern.num_elem[3]);
  // The staged rows hold whole FP32 elements at dtype-aligned addresses (tensor4d_valid): the kernel reads floats
  // in place. Its slices are equal runs of per_slice elements, one scalar each.
  const uint64_t slices = per_slice == 0 ? 0 : count / per_slice;
  const bool whole_slices =
      slices != 0 && slices * per_slice == count && slices <= std::tuple_size_v<decltype(DveChannel::imm)>;
  EffectLog::Bytes& scratch = txn.scratch().bytes_a;
  if (scratch.size() < count * in_size) scratch.resize(count * in_size);
  const ConvertOptions& convert = txn.options().convert;
  // Past its checks a PtrMulti cannot fault, and its elements are computed one by one: when no destination row
  // overlaps a source row read after it and commit can allocate nothing, the rows are written in place, not staged
  // and copied at commit.
  const bool in_place = txn.may_write_runs_in_place(dst_rows.data(), channels, count * out_size) &&
                        exec::rows_in_place_ok(src_rows.data(), count * in_size, dst_rows.data(), count * out_size,
                                               channels, in_size == out_size);
  for (unsigned c = 0; c < channels; ++c) {
    const DveChannel& ch = txn.engine().dve[c];
    const uint8_t* in = txn.read_run(src_rows[c], count * in_size, in_size, scratch.data());
    uint8_t* out = in_place ? txn.write_run_in_place(dst_rows[c], count * out_size, out_size) : nullptr;
    if (out == nullptr) out = txn.stage_run(dst_rows[c], count * out_size, out_size);
    // A whole FP32 row in one kernel call when no slice's scalar is a NaN: then a NaN result carries x's payload
    // whichever way the op is formed, so every lane is bit for bit alu_fp32's (kernels/alu_row.hpp).
    if (row_op && whole_slices) {
      std::array<float, std::tuple_size_v<decltype(ch.imm)>> scalars{};
      bool no_nan = true;
      for (uint64_t k = 0; k < slices; ++k) {
        scalars[k] = std::bit_cast<float>(ch.imm[k]);
        no_nan = no_nan && !std::isnan(scalars[k]);
      }
      if (no_nan) {
        for (uint64_t k = 0; k < slices; ++k) scalar_n(ch, static_cast<unsigned>(k), true, per_slice, txn);
        kernels::fp32_scalar_rows(row_op_of(t.op, reversed), reinterpret_cast<const float*>(in),
                                  reinterpret_cast<uint32_t*>(out), per_slice, slices, scalars.data());
        continue;
      }
    }
    for (uint64_t k0 = 0; k0 < count; k0 += per_slice) {
      const auto w = static_cast<unsigned>(k0 / per_slice);  // scalar index = src W coordinate
      const uint64_t n = std::min(per_slice, count - k0);
      const uint8_t* x = in + k0 * in_size;
      uint8_t* y = out + k0 * out_size;
      if (bitvec) {
        const uint32_t sc = scalar_n(ch, w, false, n, txn);
        const uint64_t mask = out_size >= 4 ? 0xFFFFFFFFU : (1U << (8 * out_size)) - 1U;
        for (uint64_t i = 0; i < n; ++i) {
          const auto xi = static_cast<uint32_t>(load_le(x + i * in_size, in_size));
          const uint32_t r = reversed ? alu_int32(t.op, sc, xi, is_signed) : alu_int32(t.op, xi, sc, is_signed);
          store_le(y + i * out_size, out_size, r & mask);
        }
        continue;
      }
      const uint32_t s0 = scalar_n(ch, w, true, n, txn);
      const uint32_t s1 = dual ? scalar_n(ch, w + 4, true, n, txn) : 0;
      const float s0f = std::bit_cast<float>(s0);
      if (row_op && !std::isnan(s0f)) {  // a slice of a row whose other scalars include a NaN
        kernels::fp32_scalar_rows(row_op_of(t.op, reversed), reinterpret_cast<const float*>(x),
                                  reinterpret_cast<uint32_t*>(y), n, 1, &s0f);
        continue;
      }
      for (uint64_t i = 0; i < n; ++i) {
        const uint32_t xi = to_fp32_bits(load_le(x + i * in_size, in_size), t.in_dtype);
        const uint32_t r =
            dual ? apply_dual(t.op, t.reverse_operands, xi, s0, s1) : apply_arith(t.op, t.reverse_operands, xi, s0);
        store_le(y + i * out_size, out_size, from_fp32_bits(r, t.out_dtype, convert));
      }
    }
  }
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  const S4d4Tsm& t = body<S4d4Tsm>(inst);
  if (txn.options().firmware_stubs) {  // PROJ-CONV-T10: the shipped worker only logs
    txn.diag(DiagKind::FirmwareStub, 0, 0);
    return true;
  }
  const bool bitvec = bitvec_opcode(t.header.opcode);
  const bool dual = is_dual(t.header.opcode);
  if (!dtypes_supported(t, txn)) return false;
  // PROJ-CONV-N15 step 3: every addressing-mode refusal comes before any shape-register refusal.
  if (!exec::addr4_mode_supported(txn, t.src_mem_pattern.start_addr, "src") ||
      !exec::addr4_mode_supported(txn, t.dst_mem_pattern.start_addr, "dst") ||
      !exec::addr4_shape_supported(txn, t.src_mem_pattern.start_addr, "src") ||
      !exec::addr4_shape_supported(txn, t.dst_mem_pattern.start_addr, "dst"))
    return false;
  uint32_t src = 0, dst = 0;
  if (!exec::resolve_addr4(txn, t.src_mem_pattern.start_addr, src, "src") ||
      !exec::resolve_addr4(txn, t.dst_mem_pattern.start_addr, dst, "dst"))
    return false;
  const uint64_t count = t.src_mem_pattern.elements();
  if (count * t.num_active_channels > txn.options().max_elements_per_instruction)
    return txn.fail(FaultKind::ResourceLimit,
                    fmt::format("{} elements x {} channels exceed the per-instruction bound of {}", count,
                                t.num_active_channels, txn.options().max_elements_per_instruction));
  if (execute_rows(t, src, dst, count, txn)) return true;
  const unsigned in_size = dtype_size(t.in_dtype);
  const unsigned out_size = dtype_size(t.out_dtype);
  const Generation g = txn.gen();
  // Check every access in execution order: each source element, then the destination element it makes.
  for (unsigned c = 0; c < t.num_active_channels; ++c)
    for (uint64_t k = 0; k < count; ++k) {
      uint64_t a = 0;
      if (!exec::onchip_element(g, src, c, element_offset(t.src_mem_pattern, k, in_size), in_size, a))
        return txn.fail_at(FaultKind::OutOfRange,
                           exec::nominal_element_address(g, src, c, element_offset(t.src_mem_pattern, k, in_size)),
                           fmt::format("channel {} source element {} leaves SBUF/PSUM or its partition's backed "
                                       "bytes (PROJ-CONV-N2)",
                                       c, k));
      if (!exec::onchip_element(g, dst, c, element_offset(t.dst_mem_pattern, k, out_size), out_size, a))
        return txn.fail_at(FaultKind::OutOfRange,
                           exec::nominal_element_address(g, dst, c, element_offset(t.dst_mem_pattern, k, out_size)),
                           fmt::format("channel {} destination element {} leaves SBUF/PSUM or its partition's "
                                       "backed bytes (PROJ-CONV-N2)",
                                       c, k));
    }
  // Staged writes reach memory only at commit, so every source element and scalar is read before any
  // destination element is written (PROJ-CONV-T17); the writes then apply in flat order.
  const uint64_t per_slice = count / std::max<uint64_t>(1, t.src_mem_pattern.num_elem[3]);
  const bool is_signed = t.in_dtype == dtype::kInt32;
  for (unsigned c = 0; c < t.num_active_channels; ++c) {
    const DveChannel& ch = txn.state().dve[c];
    for (uint64_t k = 0; k < count; ++k) {
      uint64_t a = 0, d = 0;
      exec::onchip_element(g, src, c, element_offset(t.src_mem_pattern, k, in_size), in_size, a);
      exec::onchip_element(g, dst, c, element_offset(t.dst_mem_pattern, k, out_size), out_size, d);
      const uint64_t raw = txn.read_mem(a, in_size);
      const auto w = static_cast<unsigned>(k / per_slice);  // scalar index = src W coordinate
      uint64_t value = 0;
      if (bitvec) {
        const uint32_t s = scalar(ch, c, w, false, txn);
        const uint32_t x = static_cast<uint32_t>(raw);
        const uint32_t y =
            t.reverse_operands == 3 ? alu_int32(t.op, s, x, is_signed) : alu_int32(t.op, x, s, is_signed);
        value = out_size >= 4 ? y : y & ((1U << (8 * out_size)) - 1U);
      } else {
        const uint32_t x = to_fp32_bits(raw, t.in_dtype);
        const uint32_t y =
            dual ? apply_dual(t.op, t.reverse_operands, x, scalar(ch, c, w, true, txn), scalar(ch, c, w + 4, true, txn))
                 : apply_arith(t.op, t.reverse_operands, x, scalar(ch, c, w, true, txn));
        value = from_fp32_bits(y, t.out_dtype, txn.options().convert);
      }
      txn.stage_mem(d, out_size, value);
    }
  }
  return true;
}

/// The source and destination patterns, each in the element width it is read or written in (the scalars come from
/// the DVE flops, not from memory).
Footprint footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const auto* t = inst.as<S4d4Tsm>()) {
    add_tensor_footprint(f, "src", t->src_mem_pattern, dtype_size(t->in_dtype), t->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", t->dst_mem_pattern, dtype_size(t->out_dtype), t->num_active_channels, true, g);
  }
  return f;
}

constexpr Execution kExecution{.execute = execute, .footprint = footprint};

}  // namespace

const Execution& TsmFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
