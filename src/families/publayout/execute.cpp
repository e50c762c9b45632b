// Public-layout family semantics: COPY_PREDICATED_SCALAR 0xE8 writes one scalar into the dst elements its integer
// predicate selects and keeps the others (s3d3_cp_pred_scalar.h's reference loop, copypredicatedscalar.md §7;
// PROJ-CONV-PU2); MAX_POOL_SELECT 0x58 writes each window's position of its maximum (avg-max-pool.md §7,
// PROJ-CONV-PU6). SB2SB_COLLECTIVE and REG_STORE decode and validate but are refused when run: their semantics are not
// public (PROJ-CONV-PU3, PU4).
#include <bit>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "families/common.hpp"
#include "families/pool/windows.hpp"
#include "families/publayout/format.hpp"

namespace tpbisa::family {
namespace {

using Cps = S3d3CpPredScalar;

uint64_t low_bits(uint64_t v, unsigned bytes) {
  return bytes >= 8 ? v : v & ((uint64_t{1} << (8 * bytes)) - 1U);
}

/// The scalar of COPY_PREDICATED_SCALAR: the instruction's bits, or one element per channel at a pointer (the word's,
/// or a register's: PROJ-CONV-N16), masked to a PartitionOffset.
struct Scalar {
  bool from_memory = false;
  uint32_t pointer = 0;
};

bool resolve_scalar(const Cps& t, exec::Txn& txn, Scalar& s) {
  s.from_memory = t.src0_imm_src == imm_src::kPointer || t.src0_imm_src == imm_src::kRegPointer;
  if (t.src0_imm_src == imm_src::kPointer) s.pointer = t.src0_imm.raw & kPartitionAddrMask;
  if (t.src0_imm_src != imm_src::kRegPointer) return true;
  if (t.src0_imm.regnum() >= kNumRegisters || t.src0_imm.reg_reserved() != 0)
    return txn.fail_reg(
        FaultKind::IllegalRegister, t.src0_imm.regnum(),
        fmt::format("src0_imm names register {:#010x}, not a register below 64 (PROJ-CONV-N16)", t.src0_imm.raw));
  s.pointer = txn.reg(t.src0_imm.regnum()) & kPartitionAddrMask;
  return true;
}

/// PROJ-CONV-N15: dtypes, addressing modes, shape registers, then registers (pred, the scalar pointer, dst); the bound;
/// then every element address (pred, scalar, dst) before anything is read or staged. Every input is read before any
/// write (K2): the predicates and scalars of all channels, then the writes in channel and flat order.
bool exec_copy_predicated_scalar(const Cps& t, exec::Txn& txn) {
  if (!element_dtype_supported(txn, t.pred_dtype, "pred") || !element_dtype_supported(txn, t.in_dtype, "in") ||
      !element_dtype_supported(txn, t.out_dtype, "out"))
    return false;
  if (!exec::addr4_mode_supported(txn, t.pred.start_addr, "pred") ||
      !exec::addr4_mode_supported(txn, t.dst.start_addr, "dst") ||
      !exec::addr4_shape_supported(txn, t.pred.start_addr, "pred") ||
      !exec::addr4_shape_supported(txn, t.dst.start_addr, "dst"))
    return false;
  uint32_t pred = 0, dst = 0;
  Scalar s;
  if (!exec::resolve_addr4(txn, t.pred.start_addr, pred, "pred") || !resolve_scalar(t, txn, s) ||
      !exec::resolve_addr4(txn, t.dst.start_addr, dst, "dst"))
    return false;
  const unsigned nac = t.num_active_channels, zp = dtype_size(t.pred_dtype), zi = dtype_size(t.in_dtype),
                 zo = dtype_size(t.out_dtype);
  const uint64_t count = t.dst.elements();
  if (count * nac > txn.options().max_elements_per_instruction)
    return txn.fail(FaultKind::ResourceLimit,
                    fmt::format("{} elements x {} channels exceed the per-instruction bound of {}", count, nac,
                                txn.options().max_elements_per_instruction));
  uint64_t a = 0;
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < count; ++k)
      if (!onchip_at(txn, pred, t.pred, c, k, zp, "pred", a)) return false;
  if (s.from_memory)
    for (unsigned c = 0; c < nac; ++c)
      if (!exec::onchip_element(txn.gen(), s.pointer, c, 0, zi, a))
        return txn.fail_at(FaultKind::OutOfRange, exec::nominal_element_address(txn.gen(), s.pointer, c, 0),
                           fmt::format("channel {} reads src0_imm outside SBUF/PSUM or its partition's backed bytes "
                                       "(PROJ-CONV-N2)",
                                       c));
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < count; ++k)
      if (!onchip_at(txn, dst, t.dst, c, k, zo, "destination", a)) return false;
  // Inputs: each channel's scalar (the low out_dtype bytes of its bits: no conversion), then which elements take it.
  EffectLog::Bytes& take = txn.scratch().bytes_a;
  take.resize(nac * count);
  std::array<uint64_t, kMaxChannels> scalar{};
  for (unsigned c = 0; c < nac; ++c) {
    uint64_t bits = t.src0_imm.raw;
    if (s.from_memory) {
      exec::onchip_element(txn.gen(), s.pointer, c, 0, zi, a);
      bits = txn.read_mem(a, zi);
    }
    scalar[c] = low_bits(bits, zo);
  }
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < count; ++k) {
      onchip_at(txn, pred, t.pred, c, k, zp, "pred", a);
      take[c * count + k] = publayout::takes_scalar(txn.read_mem(a, zp) != 0, t.reversed_pred) ? 1 : 0;
    }
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t k = 0; k < count; ++k) {
      if (take[c * count + k] == 0) continue;  // the element keeps its value
      onchip_at(txn, dst, t.dst, c, k, zo, "destination", a);
      txn.stage_mem(a, zo, scalar[c]);
    }
  return true;
}

/// MAX_POOL_SELECT: the window-major stream of src (pool_dim's dimensions make one window, as POOL reads it), each
/// window's elements in fp32; dst element w of channel c gets the position (0..N-1) in window w of its maximum: the
/// first element, then each later one strictly greater (IEEE), a NaN never chosen over a number (PROJ-CONV-PU6).
bool exec_max_pool_select(const S4d4Pl& t, exec::Txn& txn) {
  PoolWindows ws;
  if (!pool_windows(t, txn, ws)) return false;
  const uint32_t src = ws.src, dst = ws.dst;
  const uint64_t period = ws.period, windows = ws.count;
  const unsigned nac = ws.channels, zi = ws.in_size, zo = ws.out_size;
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t w = 0; w < windows; ++w) {
      float best = 0.0F;
      uint64_t at = 0;
      for (uint64_t e = 0; e < period; ++e) {
        uint64_t a = 0;
        if (!onchip_at(txn, src, t.src, c, w * period + e, zi, "source", a)) return false;
        const float x = std::bit_cast<float>(to_fp32_bits(txn.read_mem(a, zi), t.in_dtype));
        if (e == 0 || (std::isnan(best) && !std::isnan(x)) || x > best) {
          best = x;
          at = e;
        }
      }
      uint64_t da = 0;
      if (!onchip_at(txn, dst, t.dst, c, w, zo, "destination", da)) return false;
      txn.stage_mem(da, zo, low_bits(at, zo));
    }
  return true;
}

/// The words whose result no public source states: catalog --coverage reports them `semantics not public` with what
/// would settle them, and the run refuses them saying so.
constexpr Execution::NotPublic kNotPublic[] = {
    {publayout::kSb2sbCollective, S3d3Collective::kGens,
     "how a leg's source elements map onto the peer's partitions and pattern (the firmware's partition swizzle), "
     "and the pre-sync and semaphore handshake with the peer core (sb2sb-remote-copy.md §3-§8; PROJ-CONV-PU3)"},
    {publayout::kRegStore, kGensAll,
     "what REG_STORE stores and how set_value reads for it: d4_mr.h binds the opcode to D4_MR and states no validator "
     "or behaviour for it (real-programs.md §12.1; PROJ-CONV-PU4)"},
};

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const Execution::NotPublic* n = not_public_row(inst, kNotPublic)) return refuse_not_public(inst, txn, *n, "");
  if (!engine_runs(inst, txn)) return false;  // PROJ-CONV-A17: 0xE8 on DVE, 0x58 on POOL
  if (const auto* t = inst.as<Cps>(); t != nullptr && inst.opcode() == publayout::kCopyPredicatedScalar)
    return exec_copy_predicated_scalar(*t, txn);
  if (const auto* t = inst.as<S4d4Pl>(); t != nullptr && inst.opcode() == publayout::kMaxPoolSelect)
    return exec_max_pool_select(*t, txn);
  return refuse_not_modeled(inst, txn);
}

/// A pointer immediate's footprint: one element on each active channel's partition from the pointer's.
void add_pointer_footprint(Footprint& f, std::string_view name, uint32_t raw, unsigned size, unsigned channels,
                           Generation g) {
  const PartitionAddress p = decode_partition_offset(raw & kPartitionAddrMask, g);
  if (p.region == Region::Outside || size == 0) return;
  f.add({name, p.region, p.partition, channels, int64_t{p.offset}, int64_t{p.offset} + size - 1, false});
}

/// COPY_PREDICATED_SCALAR: pred read in pred_dtype, dst written in out_dtype, and a word-held scalar pointer read (a
/// register pointer is placed at run time). SB2SB_COLLECTIVE: src read; dst written only under LNC1 (the core's own
/// SBUF; under LNC2 it is the peer's). REG_STORE: dst written in dtype. MAX_POOL_SELECT: src read, dst written.
Footprint footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const auto* t = inst.as<Cps>()) {
    const unsigned nac = t->num_active_channels;
    add_tensor_footprint(f, "pred", t->pred, dtype_size(t->pred_dtype), nac, false, g);
    if (t->src0_imm_src == imm_src::kPointer)
      add_pointer_footprint(f, "src0_imm", t->src0_imm.raw, dtype_size(t->in_dtype), nac, g);
    add_tensor_footprint(f, "dst", t->dst, dtype_size(t->out_dtype), nac, true, g);
  } else if (const auto* s = inst.as<S3d3Collective>()) {
    const unsigned nac = s->num_active_channels;
    add_tensor_footprint(f, "src", s->src, dtype_size(s->in_dtype), nac, false, g);
    if (s->lnc_size_fmt == publayout::kLnc1)
      add_tensor_footprint(f, "dst", s->dst, dtype_size(s->out_dtype), nac, true, g);
  } else if (const auto* m = inst.as<D4Mr>()) {
    add_tensor_footprint(f, "dst", m->dst, dtype_size(m->dtype), m->num_active_channels, true, g);
  } else if (const auto* p = inst.as<S4d4Pl>()) {
    add_tensor_footprint(f, "src", p->src, dtype_size(p->in_dtype), p->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", p->dst, dtype_size(p->out_dtype), p->num_active_channels, true, g);
  }
  return f;
}

constexpr Execution kExecution{.execute = execute, .semantics_not_public = kNotPublic, .footprint = footprint};

}  // namespace

const Execution& PublicLayoutFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
