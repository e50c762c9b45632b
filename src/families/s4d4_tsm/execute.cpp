// S4D4_TSM family semantics: PtrMulti and the SUNDA Dual pair (s4d4-tsm.md §4; check order PROJ-CONV-N15).
#include <algorithm>
#include <bit>

#include "families/common.hpp"
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

constexpr Execution kExecution{execute};

}  // namespace

const Execution& TsmFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
