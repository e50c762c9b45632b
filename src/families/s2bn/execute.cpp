// S2_BN family semantics: ImmLd, MatchValueLoad, BatchNormParamLoad (s2bn.md §4; check order PROJ-CONV-N15).
#include "families/common.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

/// Byte offset of flat source element i (inner num_elem[0] / step_elem[0], outer num_elem[1]).
int64_t element_offset(const Tensor2d& t, unsigned i, unsigned esz) {
  const unsigned n0 = t.num_elem[0] == 0 ? 1 : t.num_elem[0];
  const int64_t i0 = i % n0;
  const int64_t i1 = i / n0;
  return (i0 * t.step_elem[0] + i1 * t.step_elem[1]) * int64_t{esz};
}

/// Every source element of every active channel is inside its partition's backed bytes.
bool check_source(const S2Bn& s, uint32_t base, unsigned count, exec::Txn& txn) {
  const unsigned esz = dtype_size(s.dtype);
  for (unsigned c = 0; c < s.num_active_channels; ++c)
    for (unsigned i = 0; i < count; ++i) {
      uint64_t a = 0;
      if (!exec::onchip_element(txn.gen(), base, c, element_offset(s.src_mem_pattern, i, esz), esz, a))
        return txn.fail_at(FaultKind::OutOfRange,
                           exec::nominal_element_address(txn.gen(), base, c, element_offset(s.src_mem_pattern, i, esz)),
                           fmt::format("channel {} source element {} leaves SBUF/PSUM or its partition's backed "
                                       "bytes (PROJ-CONV-N2)",
                                       c, i));
    }
  return true;
}

uint32_t read_element(const S2Bn& s, uint32_t base, unsigned c, unsigned i, exec::Txn& txn) {
  const unsigned esz = dtype_size(s.dtype);
  uint64_t a = 0;
  exec::onchip_element(txn.gen(), base, c, element_offset(s.src_mem_pattern, i, esz), esz, a);
  return static_cast<uint32_t>(txn.read_mem(a, esz));
}

bool source_base(const S2Bn& s, exec::Txn& txn, uint32_t& base) {
  return exec::addr4_mode_supported(txn, s.src_mem_pattern.start_addr, "src") &&
         exec::addr4_shape_supported(txn, s.src_mem_pattern.start_addr, "src") &&
         exec::resolve_addr4(txn, s.src_mem_pattern.start_addr, base, "src");
}

/// The block path of ImmLd (nothing recorded): each channel's source is one forward run, checked once and read
/// as one block. False (nothing done) when it does not apply; the element path then runs.
bool immld_rows(const S2Bn& s, uint32_t base, unsigned count, bool arith, exec::Txn& txn) {
  const unsigned esz = dtype_size(s.dtype);
  std::array<uint64_t, kMaxChannels> rows{};
  std::array<uint8_t, 64> scratch;
  if (uint64_t{count} * esz > scratch.size() ||
      !exec::forward_runs(txn, base, s.src_mem_pattern, s.num_active_channels, count, esz, rows))
    return false;
  for (unsigned c = 0; c < s.num_active_channels; ++c) {
    const uint8_t* bytes = txn.read_run(rows[c], uint64_t{count} * esz, esz, scratch.data());
    for (unsigned i = 0; i < count; ++i) {
      uint32_t raw = 0;
      for (unsigned b = 0; b < esz && b < 4; ++b) raw |= uint32_t{bytes[i * esz + b]} << (8 * b);
      txn.stage_dve(c, DveField::Imm, i, arith ? to_fp32_bits(raw, s.dtype) : raw);
      txn.stage_imm_class(c, i, arith ? DveChannel::ImmClass::Arith : DveChannel::ImmClass::Bitvec);
    }
  }
  return true;
}

bool execute_immld(const S2Bn& s, exec::Txn& txn) {
  uint32_t base = 0;
  if (!source_base(s, txn, base)) return false;
  const unsigned w = s.src_elements();
  if (immld_rows(s, base, w, s.header.opcode == opcode::kImmLdArith, txn)) return true;
  if (!check_source(s, base, w, txn)) return false;
  const bool arith = s.header.opcode == opcode::kImmLdArith;
  for (unsigned c = 0; c < s.num_active_channels; ++c)
    for (unsigned i = 0; i < w; ++i) {
      const uint32_t raw = read_element(s, base, c, i, txn);
      // Arith converts to fp32; Bitvec keeps the raw bits zero-extended (s2bn.md §4.3).
      txn.stage_dve(c, DveField::Imm, i, arith ? to_fp32_bits(raw, s.dtype) : raw);
      txn.stage_imm_class(c, i, arith ? DveChannel::ImmClass::Arith : DveChannel::ImmClass::Bitvec);
    }
  return true;
}

bool execute_match_value_load(const S2Bn& s, exec::Txn& txn) {
  if (!convertible(s.dtype) || dtype_size(s.dtype) > 4)
    return txn.fail(FaultKind::UnsupportedDtype,
                    fmt::format("dtype {} has no element semantics in the executor (PROJ-CONV-S9)",
                                dtype_label(s.dtype, txn.gen())));
  uint32_t base = 0;
  if (!source_base(s, txn, base) || !check_source(s, base, 8, txn)) return false;
  for (unsigned c = 0; c < s.num_active_channels; ++c)
    for (unsigned k = 0; k < 8; ++k)  // reversed: the first source element lands in mv[7]
      txn.stage_dve(c, DveField::MatchKey, 7 - k, to_fp32_bits(read_element(s, base, c, k, txn), s.dtype));
  return true;
}

bool execute_bn_param_load(const S2Bn& s, exec::Txn& txn) {
  uint32_t base = 0;
  if (!source_base(s, txn, base) || !check_source(s, base, 3, txn)) return false;
  uint32_t mean_ptr = s.imm0_ptr.raw & kPartitionAddrMask;
  if (s.imm0_src == 2) {
    const unsigned r = s.imm0_ptr.regnum();  // validated <= 63
    mean_ptr = txn.reg(r) & kPartitionAddrMask;
  }
  for (unsigned c = 0; c < s.num_active_channels; ++c) {
    uint64_t a = 0;
    if (!exec::onchip_element(txn.gen(), mean_ptr, c, 0, 4, a))
      return txn.fail_at(FaultKind::OutOfRange, exec::nominal_element_address(txn.gen(), mean_ptr, c, 0),
                         fmt::format("channel {} batch-mean pointer {:#x} leaves SBUF/PSUM or its partition's backed "
                                     "bytes (PROJ-CONV-N2)",
                                     c, mean_ptr));
  }
  for (unsigned c = 0; c < s.num_active_channels; ++c) {
    const DveField coeff[] = {DveField::BnA, DveField::BnB, DveField::BnC};
    for (unsigned i = 0; i < 3; ++i)
      txn.stage_dve(c, coeff[i], 0, to_fp32_bits(read_element(s, base, c, i, txn), s.dtype));
    uint64_t a = 0;
    exec::onchip_element(txn.gen(), mean_ptr, c, 0, 4, a);
    txn.stage_dve(c, DveField::BnN, 0, s.imm1.raw);
    txn.stage_dve(c, DveField::BnMean, 0, static_cast<uint32_t>(txn.read_mem(a, 4)));
  }
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  const S2Bn& s = body<S2Bn>(inst);
  switch (s.header.opcode) {
    case opcode::kImmLdArith:
    case opcode::kImmLdBitvec:
      if (txn.options().firmware_stubs) {  // PROJ-CONV-S8: the shipped worker only logs
        txn.diag(DiagKind::FirmwareStub, 0, 0);
        return true;
      }
      return execute_immld(s, txn);
    case opcode::kMatchValueLoad: return execute_match_value_load(s, txn);
    case opcode::kBatchNormParamLoad: return execute_bn_param_load(s, txn);
    default: return txn.fail(FaultKind::UnsupportedOpcode, "not an S2_BN opcode");
  }
}

/// The source elements a word reads (all of them for ImmLd, 8 for MatchValueLoad, 3 for BatchNormParamLoad) and
/// BatchNormParamLoad's batch-mean pointer (one fp32 per channel) when the word places them: immediate addresses.
Footprint operand_footprint(const Instruction& inst, Generation g) {
  Footprint f;
  const S2Bn& s = body<S2Bn>(inst);
  const unsigned esz = dtype_size(s.dtype);
  const unsigned count = s.header.opcode == opcode::kMatchValueLoad       ? 8u
                         : s.header.opcode == opcode::kBatchNormParamLoad ? 3u
                                                                          : s.src_elements();
  const Addr4Meaning a = describe(s.src_mem_pattern.start_addr, g);
  if (a.plain_immediate && a.target.region != Region::Outside && esz != 0 && count != 0) {
    int64_t lo = 0, hi = 0;
    for (unsigned i = 0; i < count; ++i) {
      lo = std::min(lo, element_offset(s.src_mem_pattern, i, esz));
      hi = std::max(hi, element_offset(s.src_mem_pattern, i, esz));
    }
    f.add({"src", a.target.region, a.target.partition, s.num_active_channels, int64_t{a.target.offset} + lo,
           int64_t{a.target.offset} + hi + esz - 1, false});
  }
  if (s.header.opcode == opcode::kBatchNormParamLoad && s.imm0_src != 2) {
    const PartitionAddress mean = decode_partition_offset(s.imm0_ptr.raw & kPartitionAddrMask, g);
    if (mean.region != Region::Outside)
      f.add({"imm0_ptr", mean.region, mean.partition, s.num_active_channels, int64_t{mean.offset},
             int64_t{mean.offset} + 3, false});
  }
  return f;
}

}  // namespace

const Execution& S2BnFamily::execution() {
  static const Execution kExecution{.execute = execute, .footprint = operand_footprint, .unit_state = unit_state()};
  return kExecution;
}

}  // namespace tpbisa::family
