// RNG family semantics: DROPOUT keeps an element or writes zero by comparing a per-element draw with the threshold
// (no rescale, opcode-research.md §A.2.8). The draw's LFSR is not public, so a word runs only where its threshold
// decides every element whatever the draw (PROJ-CONV-RN3); otherwise it faults saying so. Checks in the order of
// PROJ-CONV-N15, nothing staged before the last check passes. The draw and state words (RAND, RAND_GET_STATE,
// RAND_SET_STATE, RAND2) decode and validate but are refused: their semantics are not public.
#include <array>
#include <bit>
#include <cmath>

#include "families/common.hpp"
#include "families/rng/format.hpp"

namespace tpbisa::family {
namespace {

/// What a channel's threshold makes of its elements, whatever the draw r in [0, 1] (PROJ-CONV-RN3).
enum class Outcome : uint8_t { KeepAll, ZeroAll, DependsOnDraw };

/// DROP_RATE zeroes when r < t: every r when t > 1, none when t <= 0. KEEP_RATE zeroes when r > t: none when t >= 1,
/// every r when t < 0. A NaN threshold, or one inside the draw's range, depends on the draw.
Outcome outcome_of(uint8_t type, uint32_t threshold_bits) {
  const float t = std::bit_cast<float>(threshold_bits);
  if (std::isnan(t)) return Outcome::DependsOnDraw;
  if (type == rng::kDropRate) {
    if (t > 1.0F) return Outcome::ZeroAll;
    if (t <= 0.0F) return Outcome::KeepAll;
  } else {
    if (t >= 1.0F) return Outcome::KeepAll;
    if (t < 0.0F) return Outcome::ZeroAll;
  }
  return Outcome::DependsOnDraw;
}

/// The resolved operands of a DROPOUT word.
struct Operands {
  uint32_t src = 0, dst = 0, ptr = 0;
  bool fetch = false;  ///< the threshold is read through a pointer
  uint64_t count = 0;
  unsigned nac = 0, size = 0, threshold_size = 4;
  uint8_t threshold_dtype = dtype::kFp32;
};

/// Steps 3 and 4 of PROJ-CONV-N15: dtypes, addressing modes, shape registers, registers (sources first).
bool resolve(const S3d3Dropout& d, exec::Txn& txn, Operands& o) {
  if (!element_dtype_supported(txn, d.in_dtype, "in") || !element_dtype_supported(txn, d.out_dtype, "out"))
    return false;
  o.threshold_dtype = rng::threshold_dtype_of(d.threshold_dtype);
  const ImmReading r = rng::threshold_reading(d.threshold_src);
  if (r != ImmReading::Value && !element_dtype_supported(txn, o.threshold_dtype, "threshold")) return false;
  if (!exec::addr4_mode_supported(txn, d.src.start_addr, "src") ||
      !exec::addr4_mode_supported(txn, d.dst.start_addr, "dst") ||
      !exec::addr4_shape_supported(txn, d.src.start_addr, "src") ||
      !exec::addr4_shape_supported(txn, d.dst.start_addr, "dst") ||
      !exec::resolve_addr4(txn, d.src.start_addr, o.src, "src"))
    return false;
  o.fetch = r != ImmReading::Value;
  if (r == ImmReading::Pointer) {
    o.ptr = d.threshold.raw & kPartitionAddrMask;
  } else if (r == ImmReading::Register) {
    if (d.threshold.regnum() >= kNumRegisters || d.threshold.reg_reserved() != 0)
      return txn.fail_reg(FaultKind::IllegalRegister, d.threshold.regnum(),
                          fmt::format("threshold names register {:#010x}, not a register below 64", d.threshold.raw));
    o.ptr = txn.reg(d.threshold.regnum()) & kPartitionAddrMask;
  }
  if (!exec::resolve_addr4(txn, d.dst.start_addr, o.dst, "dst")) return false;
  o.count = d.src.elements();
  o.nac = d.num_active_channels;
  o.size = dtype_size(d.in_dtype);
  o.threshold_size = dtype_size(o.threshold_dtype);
  if (o.count * o.nac <= txn.options().max_elements_per_instruction) return true;
  return txn.fail(FaultKind::ResourceLimit,
                  fmt::format("{} elements x {} channels exceed the per-instruction bound of {}", o.count, o.nac,
                              txn.options().max_elements_per_instruction));
}

/// Step 5: every source element, threshold scalar and destination element of every active channel is accessible.
bool check_elements(const S3d3Dropout& d, exec::Txn& txn, const Operands& o) {
  uint64_t a = 0;
  for (unsigned c = 0; c < o.nac; ++c)
    for (uint64_t k = 0; k < o.count; ++k)
      if (!onchip_at(txn, o.src, d.src, c, k, o.size, "source", a)) return false;
  if (o.fetch)
    for (unsigned c = 0; c < o.nac; ++c)
      if (!exec::onchip_element(txn.gen(), o.ptr, c, 0, o.threshold_size, a))
        return txn.fail_at(FaultKind::OutOfRange, exec::nominal_element_address(txn.gen(), o.ptr, c, 0),
                           fmt::format("channel {} threshold pointer leaves SBUF/PSUM or its partition's backed bytes "
                                       "(PROJ-CONV-N2)",
                                       c));
  for (unsigned c = 0; c < o.nac; ++c)
    for (uint64_t k = 0; k < o.count; ++k)
      if (!onchip_at(txn, o.dst, d.dst, c, k, o.size, "destination", a)) return false;
  return true;
}

bool exec_dropout(const S3d3Dropout& d, exec::Txn& txn) {
  Operands o;
  if (!resolve(d, txn, o) || !check_elements(d, txn, o)) return false;
  std::array<Outcome, kMaxChannels> outcome{};
  for (unsigned c = 0; c < o.nac; ++c) {
    uint32_t bits = d.threshold.raw;
    if (o.fetch) {
      uint64_t a = 0;
      exec::onchip_element(txn.gen(), o.ptr, c, 0, o.threshold_size, a);
      bits = to_fp32_bits(txn.read_mem(a, o.threshold_size), o.threshold_dtype);
    }
    outcome[c] = outcome_of(d.threshold_type, bits);
    if (outcome[c] == Outcome::DependsOnDraw)
      return txn.fail(
          FaultKind::UnsupportedOpcode,
          fmt::format("DROPOUT channel {}: threshold {} ({}) keeps or zeroes an element by its LFSR draw, "
                      "whose generator is not public; only thresholds outside the draw's range run "
                      "(PROJ-CONV-RN3)",
                      c, std::bit_cast<float>(bits), d.threshold_type == rng::kDropRate ? "DROP_RATE" : "KEEP_RATE"));
  }
  // Every source element is read before any write (the staged writes reach memory at commit).
  uint64_t a = 0;
  for (unsigned c = 0; c < o.nac; ++c)
    for (uint64_t k = 0; k < o.count; ++k) {
      uint64_t v = 0;
      if (outcome[c] == Outcome::KeepAll) {
        onchip_at(txn, o.src, d.src, c, k, o.size, "source", a);
        v = txn.read_mem(a, o.size);
      }
      onchip_at(txn, o.dst, d.dst, c, k, o.size, "destination", a);
      txn.stage_mem(a, o.size, v);
    }
  return true;
}

/// The random-number words whose results no public source states (PROJ-CONV-RN3): catalog --coverage reports them
/// `semantics not public` with what would settle them, and the run refuses them saying so.
constexpr Execution::NotPublic kNotPublic[] = {
    {rng::kRand, kGensAll,
     "the draws of RAND's generators (the LFSR taps, the PCG32 and PHILOX rounds as the hardware runs them; "
     "opcode-research.md §A.2.8, §F)"},
    {rng::kRandGetState, kGensAll,
     "each engine's generator state: where it is kept and the order of its words in the state tensor "
     "(rng-seed-state-ops.md)"},
    {rng::kRandSetState, kGensAll,
     "each engine's generator state: where it is kept and the order of its words in the state tensor "
     "(rng-seed-state-ops.md)"},
    {rng::kRand2, GenSet{0xC},
     "the DVE Xorwow draw feeding RAND2: its state layout, the high half of the Weyl counter's start and the "
     "uint32-to-fp32 map (rand2.md, rng-xorwow-sw.md)"},
};

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (const Execution::NotPublic* n = not_public_row(inst, kNotPublic))
    return refuse_not_public(inst, txn, *n, "PROJ-CONV-RN3");
  if (!engine_runs(inst, txn)) return false;
  if (const auto* d = inst.as<S3d3Dropout>()) return exec_dropout(*d, txn);
  return refuse_not_modeled(inst, txn);
}

/// src and dst in their element width on num_active_channels partitions, and an instruction-encoded threshold
/// pointer (a register pointer is placed at run time).
Footprint operand_footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const auto* r = inst.as<D4Rand>())
    add_tensor_footprint(f, "dst", r->dst, dtype_size(r->dtype), r->num_active_channels, true, g);
  if (const auto* r = inst.as<S1Rand>(); r != nullptr && r->update_state == rng::kUpdateSrcTensor)
    add_tensor_footprint(f, "src", r->src, dtype_size(r->in_dtype), r->num_active_channels, false, g);
  if (const auto* r = inst.as<D3Rand>())
    add_tensor_footprint(f, "dst", r->dst, dtype_size(r->dtype), r->num_active_channels, true, g);
  const auto* d = inst.as<S3d3Dropout>();
  if (d == nullptr) return f;
  const unsigned nac = d->num_active_channels, size = dtype_size(d->in_dtype);
  add_tensor_footprint(f, "src", d->src, size, nac, false, g);
  add_tensor_footprint(f, "dst", d->dst, dtype_size(d->out_dtype), nac, true, g);
  if (rng::threshold_reading(d->threshold_src) == ImmReading::Pointer) {
    const PartitionAddress p = decode_partition_offset(d->threshold.raw & kPartitionAddrMask, g);
    const unsigned ts = dtype_size(rng::threshold_dtype_of(d->threshold_dtype));
    if (p.region != Region::Outside && ts != 0)
      f.add({"threshold", p.region, p.partition, nac, int64_t{p.offset}, int64_t{p.offset} + ts - 1, false});
  }
  return f;
}

constexpr Execution kExecution{.execute = execute, .semantics_not_public = kNotPublic, .footprint = operand_footprint};

}  // namespace

const Execution& RngFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
