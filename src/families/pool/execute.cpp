// Pool family semantics (opcode-research.md §A.2.6): INDIRECT_COPY (NKI local_gather), SORT, POOL and
// CROSS_LANE_REDUCE. GATHER reads the Pool buffer POOL_BUFFER_LOAD 0x67 fills, whose layout is not public: it is
// refused (PROJ-CONV-G76). Sources are read from the committed state and every write is staged, so reads precede
// writes and a fault commits nothing.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "families/common.hpp"
#include "families/pool/format.hpp"
#include "families/pool/windows.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

namespace pl = pool;

bool within_bound(exec::Txn& txn, uint64_t count, unsigned channels) {
  if (count * channels <= txn.options().max_elements_per_instruction) return true;
  return txn.fail(FaultKind::ResourceLimit, fmt::format("{} elements x {} channels exceed the per-instruction bound "
                                                        "of {}",
                                                        count, channels, txn.options().max_elements_per_instruction));
}

/// fp32 maxNum: a NaN operand is ignored (PROJ-CONV-T12).
float max_num(float a, float b) {
  return alu_fp32(aluop::kMax, a, b);
}

// ---- INDIRECT_COPY (NKI local_gather; PROJ-CONV-G77) ----

bool exec_indirect_copy(const S4d4Ic& t, exec::Txn& txn) {
  if (!element_dtype_supported(txn, t.in_dtype, "in")) return false;
  uint32_t idx_base = 0, data_base = 0, dst = 0;
  if (!onchip_start(txn, t.src.index_addr, idx_base, "src.index_addr") ||
      !onchip_start(txn, t.src.data_addr, data_base, "src.data_addr") ||
      !onchip_start(txn, t.dst.start_addr, dst, "dst"))
    return false;
  const unsigned nac = t.num_active_channels, size = dtype_size(t.in_dtype), per = t.src_num_elem_per_idx;
  if (per == 0) return txn.fail(FaultKind::OutOfRange, "src_num_elem_per_idx is 0 (PROJ-CONV-G77)");
  const uint64_t n_idx = t.src.num_elem / per;  // indices per core
  if (!within_bound(txn, n_idx * per, nac)) return false;
  for (unsigned c = 0; c < nac; ++c) {
    const unsigned core = c / 16;
    for (uint64_t i = 0; i < n_idx; ++i) {
      // indices_1d of the core, flattened along the partition first: index i is column i / 16 of partition i % 16.
      const unsigned ip = core * 16 + static_cast<unsigned>(i % 16);
      uint64_t ia = 0;
      if (!exec::onchip_element(txn.gen(), idx_base, ip, static_cast<int64_t>(2 * (i / 16)), 2, ia))
        return txn.fail_at(FaultKind::OutOfRange,
                           exec::nominal_element_address(txn.gen(), idx_base, ip, static_cast<int64_t>(2 * (i / 16))),
                           fmt::format("index {} of channel {} leaves SBUF (PROJ-CONV-N2)", i, c));
      const uint64_t idx = txn.read_mem(ia, 2);
      for (unsigned e = 0; e < per; ++e) {
        const uint64_t el = idx + e;
        if (el >= t.src_buffer_size)
          return txn.fail(FaultKind::OutOfRange,
                          fmt::format("channel {} index {} ({}) + {} reaches element {} of a {}-element source buffer "
                                      "(out of bounds is undefined; PROJ-CONV-G77)",
                                      c, i, idx, e, el, t.src_buffer_size));
        uint64_t sa = 0, da = 0;
        if (!exec::onchip_element(txn.gen(), data_base, c, static_cast<int64_t>(el * size), size, sa))
          return txn.fail_at(FaultKind::OutOfRange,
                             exec::nominal_element_address(txn.gen(), data_base, c, static_cast<int64_t>(el * size)),
                             fmt::format("channel {} source element {} leaves SBUF (PROJ-CONV-N2)", c, el));
        if (!onchip_at(txn, dst, t.dst, c, i * per + e, size, "destination", da)) return false;
        txn.stage_mem(da, size, txn.read_mem(sa, size));
      }
    }
  }
  return true;
}

// ---- SORT (SORT §4, §5.1; PROJ-CONV-G78) ----

/// The sort key of a raw element: fp32 for the float dtypes, exact integers otherwise.
struct Key {
  double v;  // every 16/32-bit integer and every float is exact in a double
  bool nan;
};
Key key_of(uint64_t raw, uint8_t d) {
  switch (d) {
    case dtype::kInt16: return {static_cast<double>(static_cast<int16_t>(raw)), false};
    case dtype::kUint16: return {static_cast<double>(static_cast<uint16_t>(raw)), false};
    case dtype::kInt32: return {static_cast<double>(static_cast<int32_t>(raw)), false};
    case dtype::kUint32: return {static_cast<double>(static_cast<uint32_t>(raw)), false};
    default: {
      const float f = std::bit_cast<float>(to_fp32_bits(raw, d));
      return {static_cast<double>(f), std::isnan(f)};
    }
  }
}

bool exec_sort(const S1d2Sort& t, exec::Txn& txn) {
  const uint8_t d = pl::pair_in(t.in_out_dtype);
  if (!element_dtype_supported(txn, d, "in")) return false;
  uint32_t src = 0, dst = 0;
  if (!onchip_start(txn, t.src.start_addr, src, "src") || !onchip_start(txn, t.dst.start_addr, dst, "dst"))
    return false;
  if (t.index_offset_src == imm_src::kRegPointer && (t.index_offset & 0xFF) >= kNumRegisters)
    return txn.fail_reg(FaultKind::IllegalRegister, static_cast<int>(t.index_offset & 0xFF),
                        fmt::format("index_offset names register {} (PROJ-CONV-N16)", t.index_offset & 0xFF));
  const unsigned nac = t.num_active_channels, size = dtype_size(d);
  const uint64_t n = t.src.num_elem[0];
  const uint64_t k_out = std::min<uint64_t>(n, t.dst.num_elem[1]);  // a short Y keeps the first K (top-K)
  if (!within_bound(txn, n, nac)) return false;
  const bool ascending = t.comparison == aluop::kIsLt;
  EffectLog::Bytes& raw = txn.scratch().bytes_a;    // n raw values, 4 bytes each
  EffectLog::Bytes& order = txn.scratch().bytes_b;  // n source positions, 4 bytes each
  raw.resize(4 * n);
  order.resize(4 * n);
  for (unsigned c = 0; c < nac; ++c) {
    uint32_t offset = t.index_offset;
    if (t.index_offset_src != imm_src::kInstruction) {
      uint32_t ptr = t.index_offset & kPartitionAddrMask;
      if (t.index_offset_src == imm_src::kRegPointer) ptr = txn.reg(t.index_offset & 0xFF) & kPartitionAddrMask;
      uint64_t a = 0;
      if (!exec::onchip_element(txn.gen(), ptr, c, 0, 4, a))
        return txn.fail_at(FaultKind::OutOfRange, exec::nominal_element_address(txn.gen(), ptr, c, 0),
                           fmt::format("channel {} index_offset pointer leaves SBUF/PSUM (PROJ-CONV-N2)", c));
      offset = static_cast<uint32_t>(txn.read_mem(a, 4));
    }
    for (uint64_t k = 0; k < n; ++k) {
      uint64_t a = 0;
      if (!onchip_at(txn, src, t.src, c, k, size, "source", a)) return false;
      store_le<uint32_t>(&raw[4 * k], static_cast<uint32_t>(txn.read_mem(a, size)));
      store_le<uint32_t>(&order[4 * k], static_cast<uint32_t>(k));
    }
    auto pos = [&](uint64_t j) { return load_le<uint32_t>(&order[4 * j]); };
    auto before = [&](uint32_t x, uint32_t y) {  // x sorts before y: NaNs last in either direction
      const Key a = key_of(load_le<uint32_t>(&raw[4 * x]), d), b = key_of(load_le<uint32_t>(&raw[4 * y]), d);
      if (a.nan || b.nan) return !a.nan && b.nan;
      return ascending ? a.v < b.v : a.v > b.v;
    };
    // A stable insertion sort over the positions (ties keep source order whatever `stable` says; no allocation).
    for (uint64_t j = 1; j < n; ++j) {
      const uint32_t x = pos(j);
      uint64_t i = j;
      while (i > 0 && before(x, pos(i - 1))) {
        store_le<uint32_t>(&order[4 * i], pos(i - 1));
        --i;
      }
      store_le<uint32_t>(&order[4 * i], x);
    }
    const uint32_t index_mask = size == 2 ? 0xFFFFU : 0xFFFFFFFFU;
    for (uint64_t j = 0; j < k_out; ++j) {
      uint64_t va = 0, ia = 0;
      if (!onchip_at(txn, dst, t.dst, c, 2 * j, size, "destination", va) ||
          !onchip_at(txn, dst, t.dst, c, 2 * j + 1, size, "destination", ia))
        return false;
      txn.stage_mem(va, size, load_le<uint32_t>(&raw[4 * pos(j)]));
      txn.stage_mem(ia, size, (pos(j) + offset) & index_mask);
    }
  }
  return true;
}

// ---- POOL (POOL §3-§6; PROJ-CONV-G79) ----

bool exec_pool(const S4d4Pl& t, exec::Txn& txn) {
  PoolWindows ws;
  if (!pool_windows(t, txn, ws)) return false;
  const uint32_t src = ws.src, dst = ws.dst;
  const uint64_t period = ws.period, windows = ws.count;
  const unsigned nac = ws.channels, zi = ws.in_size, zo = ws.out_size;
  const bool avg = t.pool_func == pl::kPoolAvg;
  for (unsigned c = 0; c < nac; ++c)
    for (uint64_t w = 0; w < windows; ++w) {
      float acc = 0.0F;
      for (uint64_t e = 0; e < period; ++e) {
        uint64_t a = 0;
        if (!onchip_at(txn, src, t.src, c, w * period + e, zi, "source", a)) return false;
        const float x = std::bit_cast<float>(to_fp32_bits(txn.read_mem(a, zi), t.in_dtype));
        acc = e == 0 ? x : avg ? acc + x : max_num(acc, x);
      }
      if (avg) acc *= t.pool_scale.as_fp32();
      uint64_t da = 0;
      if (!onchip_at(txn, dst, t.dst, c, w, zo, "destination", da)) return false;
      txn.stage_mem(da, zo, from_fp32_bits(std::bit_cast<uint32_t>(acc), t.out_dtype, txn.options().convert));
    }
  return true;
}

// ---- CROSS_LANE_REDUCE (CR §4, §7; PROJ-CONV-G80) ----

bool exec_cross_lane(const S4d4Cr& t, exec::Txn& txn) {
  if (!element_dtype_supported(txn, t.in_dtype, "in") || !element_dtype_supported(txn, t.out_dtype, "out"))
    return false;
  uint32_t src = 0, dst = 0;
  if (!onchip_start(txn, t.src.start_addr, src, "src") || !onchip_start(txn, t.dst.start_addr, dst, "dst"))
    return false;
  const unsigned nac = t.num_active_channels, zi = dtype_size(t.in_dtype), zo = dtype_size(t.out_dtype);
  const uint64_t n = pl::count_of(t.src);
  if (!within_bound(txn, n, nac)) return false;
  const bool bitvec = t.reduce_op >= pl::kReduceOr;
  const float scale = t.scale.as_fp32();
  auto fold = [&](bool first, uint64_t& acc, uint64_t raw) {
    if (bitvec) {
      acc = first                           ? raw
            : t.reduce_op == pl::kReduceOr  ? acc | raw
            : t.reduce_op == pl::kReduceAnd ? acc & raw
                                            : acc ^ raw;
      return;
    }
    float x = std::bit_cast<float>(to_fp32_bits(raw, t.in_dtype));
    if (t.reduce_op == pl::kReduceAverage) x *= scale;
    const float a = std::bit_cast<float>(static_cast<uint32_t>(acc));
    const float r = first ? x : t.reduce_op == pl::kReduceMax ? max_num(a, x) : a + x;
    acc = std::bit_cast<uint32_t>(r);
  };
  auto put = [&](uint64_t k, uint64_t acc) {
    uint64_t da = 0;
    if (!onchip_at(txn, dst, t.dst, 0, k, zo, "destination", da)) return false;
    const uint64_t mask = zo >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * zo)) - 1;
    txn.stage_mem(da, zo,
                  bitvec ? acc & mask : from_fp32_bits(static_cast<uint32_t>(acc), t.out_dtype, txn.options().convert));
    return true;
  };
  auto element = [&](unsigned c, uint64_t k, uint64_t& raw) {
    uint64_t a = 0;
    if (!onchip_at(txn, src, t.src, c, k, zi, "source", a)) return false;
    raw = txn.read_mem(a, zi);
    return true;
  };
  if (t.reduce_axis == pl::kAxisAll) {
    uint64_t acc = 0, raw = 0;
    for (unsigned c = 0; c < nac; ++c)
      for (uint64_t k = 0; k < n; ++k) {
        if (!element(c, k, raw)) return false;
        fold(c == 0 && k == 0, acc, raw);
      }
    return put(0, acc);
  }
  for (uint64_t k = 0; k < n; ++k) {
    uint64_t acc = 0, raw = 0;
    for (unsigned c = 0; c < nac; ++c) {
      if (!element(c, k, raw)) return false;
      fold(c == 0, acc, raw);
    }
    if (!put(k, acc)) return false;
  }
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  // GATHER is refused on every engine (its refusal is the opcode's, whatever stream holds it).
  if (inst.as<S4d4Gt>() == nullptr && !engine_runs(inst, txn)) return false;
  if (const auto* t = inst.as<S4d4Ic>()) return exec_indirect_copy(*t, txn);
  if (const auto* t = inst.as<S1d2Sort>()) return exec_sort(*t, txn);
  if (const auto* t = inst.as<S4d4Pl>()) return exec_pool(*t, txn);
  if (const auto* t = inst.as<S4d4Cr>()) return exec_cross_lane(*t, txn);
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("execution of {} ({:#04x}) is not modeled: it reads the Pool buffer that "
                              "POOL_BUFFER_LOAD 0x67 fills, whose layout is not public (PROJ-CONV-G76)",
                              inst.name(), inst.opcode()));
}

Footprint footprint(const Instruction& inst, Generation g) {
  Footprint f;
  if (const auto* t = inst.as<S4d4Gt>()) {
    add_tensor_footprint(f, "src", t->src, dtype_size(t->in_dtype), t->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", t->dst, dtype_size(t->out_dtype), t->num_active_channels, true, g);
  } else if (const auto* i = inst.as<S4d4Ic>()) {
    add_tensor_footprint(f, "dst", i->dst, dtype_size(i->out_dtype), i->num_active_channels, true, g);
  } else if (const auto* s = inst.as<S1d2Sort>()) {
    const unsigned z = dtype_size(pl::pair_in(s->in_out_dtype));
    add_tensor_footprint(f, "src", s->src, z, s->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", s->dst, z, s->num_active_channels, true, g);
  } else if (const auto* p = inst.as<S4d4Pl>()) {
    add_tensor_footprint(f, "src", p->src, dtype_size(p->in_dtype), p->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", p->dst, dtype_size(p->out_dtype), p->num_active_channels, true, g);
  } else if (const auto* r = inst.as<S4d4Cr>()) {
    add_tensor_footprint(f, "src", r->src, dtype_size(r->in_dtype), r->num_active_channels, false, g);
    add_tensor_footprint(f, "dst", r->dst, dtype_size(r->out_dtype), 1, true, g);
  }
  return f;
}

constexpr uint8_t kRefused[] = {pl::kGather};

constexpr Execution kExecution{.execute = execute,
                               .not_executed_opcodes = kRefused,
                               .refusal = Execution::Refusal::Convention,
                               .refusal_convention = "PROJ-CONV-G76",
                               .footprint = footprint};

}  // namespace
bool pool_windows(const S4d4Pl& t, exec::Txn& txn, PoolWindows& out) {
  if (!element_dtype_supported(txn, t.in_dtype, "in") || !element_dtype_supported(txn, t.out_dtype, "out"))
    return false;
  if (!onchip_start(txn, t.src.start_addr, out.src, "src") || !onchip_start(txn, t.dst.start_addr, out.dst, "dst"))
    return false;
  out.period = 1;
  for (unsigned k = 0; k < pool::window_dims(t.pool_dim); ++k) out.period *= t.src.num_elem[k];
  const uint64_t total = pool::count_of(t.src);
  out.count = out.period == 0 ? 0 : total / out.period;
  if (pool::count_of(t.dst) != out.count)
    return txn.fail(FaultKind::OutOfRange, fmt::format("{} windows of {} elements but dst has {} elements "
                                                       "(PROJ-CONV-G79)",
                                                       out.count, out.period, pool::count_of(t.dst)));
  out.channels = t.num_active_channels;
  out.in_size = dtype_size(t.in_dtype);
  out.out_size = dtype_size(t.out_dtype);
  return within_bound(txn, total, out.channels);
}

const Execution& PoolFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
