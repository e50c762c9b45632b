// MEM_2D family semantics: TensorLoad and TensorStore (mem2d.md §6; check order PROJ-CONV-N15).
#include <algorithm>
#include <bit>
#include <cstring>

#include "families/common.hpp"

namespace tpbisa::family {
namespace {

struct Mem2dWalk {
  uint64_t base = 0;
  unsigned esz = 0;
  unsigned count = 0;
  std::array<uint64_t, 32> ea{};  // only validated words execute: the product is at most 32
};

/// Element addresses in walk order: inner num_elem[0] / step_elem[0], outer num_elem[1] / step_elem[1].
void walk(const Mem2d& m, uint64_t base, Mem2dWalk& w) {
  w.base = base;
  w.esz = dtype_size(m.dtype);
  w.count = 0;
  for (unsigned i1 = 0; i1 < m.num_elem[1]; ++i1)
    for (unsigned i0 = 0; i0 < m.num_elem[0]; ++i0) {
      const uint64_t delta = static_cast<uint64_t>(int64_t{m.step_elem[0]}) * i0 * w.esz +
                             static_cast<uint64_t>(int64_t{m.step_elem[1]}) * i1 * w.esz;
      w.ea[w.count++] = base + delta;  // modulo 2^64
    }
}

bool resolve_start(const Mem2d& m, exec::Txn& txn, uint64_t& base, bool& immediate) {
  // The forms of describe(Addr8) read straight off the marker (its partition decode is not needed to execute).
  const Addr8& a = m.start_addr;
  immediate = a.is_immediate();
  if (immediate) {
    base = a.immediate();
    return true;
  }
  if (!a.is_register_pair())
    return txn.fail(FaultKind::UnsupportedAddressingMode,
                    fmt::format("start_addr marker {:#04x} (address table or unlisted form) is not executed "
                                "(PROJ-CONV-M6)",
                                a.marker()));
  for (unsigned r : {unsigned{a.reg_lo()}, unsigned{a.reg_hi()}})
    if (r >= kNumRegisters)
      return txn.fail_reg(
          FaultKind::IllegalRegister, static_cast<int>(r),
          fmt::format("start_addr register pair names r{} (registers are r0..r{})", r, kNumRegisters - 1));
  base = uint64_t{txn.reg(a.reg_lo())} | (uint64_t{txn.reg(a.reg_hi())} << 32);
  return true;
}

bool check_window(const Mem2dWalk& w, exec::Txn& txn) {
  if (w.count == 0) return true;
  const uint64_t window = w.ea[0] >> 24;
  for (unsigned k = 0; k < w.count; ++k) {
    const uint64_t last = w.ea[k] + w.esz - 1;
    if (last < w.ea[k] || (w.ea[k] >> 24) != window || (last >> 24) != window)
      return txn.fail_at(FaultKind::WindowViolation, (w.ea[k] >> 24) != window ? w.ea[k] : last,
                         fmt::format("element {} at {:#x} leaves the 16 MiB window {:#x}..{:#x} of the first "
                                     "element (PROJ-CONV-M3)",
                                     k, w.ea[k], window << 24, (window << 24) + 0xFFFFFF));
  }
  return true;
}

bool check_ranges(const Mem2dWalk& w, exec::Txn& txn) {
  for (unsigned k = 0; k < w.count; ++k)
    if (!exec::neuron_access_ok(txn.gen(), w.ea[k], w.esz))
      return txn.fail_at(FaultKind::OutOfRange, w.ea[k],
                         fmt::format("element {} ({} bytes at {:#x}) is outside its SBUF/PSUM partition's backed "
                                     "bytes (PROJ-CONV-N2)",
                                     k, w.esz, w.ea[k]));
  return true;
}

/// True when each of the first `count` slots names a register (and, for pairs, its successor too): eight slots
/// at a time. A slot of 64 or more has bit 6 or 7 set; the pair of r is out of range also when r is 63, the one
/// value whose low six bits plus one reach bit 6 (no carry leaves a byte: they are at most 63 + 1).
bool slots_in_range(const Mem2dData& data, unsigned count, bool pair) {
  static_assert(kNumRegisters == 64, "the byte test reads bits 6 and 7");
  if constexpr (std::endian::native != std::endian::little) {
    for (unsigned k = 0; k < count; ++k)
      if (data.reg(k) + (pair ? 1U : 0U) >= kNumRegisters) return false;
    return true;
  }
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  for (unsigned k = 0; k < count; k += 8) {
    uint64_t v = 0;
    std::memcpy(&v, data.bytes.data() + k, sizeof v);  // count <= 32 = the slots' size, so k + 8 <= 32
    const unsigned live = std::min(8U, count - k);
    const uint64_t mask = live == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * live)) - 1;  // the first `live` bytes
    uint64_t bad = v & (kOnes * 0xC0);
    if (pair) bad |= ((v & (kOnes * 0x3F)) + kOnes) & (kOnes * 0x40);
    if ((bad & mask) != 0) return false;
  }
  return true;
}

/// The slot-by-slot walk that names the first bad slot in the fault (out of line: the message's formatting kept
/// out of the common path's registers).
[[gnu::noinline]] bool fail_first_bad_slot(const Mem2d& m, unsigned count, bool pair, exec::Txn& txn) {
  for (unsigned k = 0; k < count; ++k) {
    const unsigned r = m.data.reg(k);
    if (r >= kNumRegisters || (pair && r + 1 >= kNumRegisters))
      return txn.fail_reg(FaultKind::IllegalRegister, static_cast<int>(r),
                          fmt::format("data slot {} names r{}{} (registers are r0..r{}, PROJ-CONV-M4)", k, r,
                                      pair ? " and its pair" : "", kNumRegisters - 1));
  }
  return true;
}

bool check_data_registers(const Mem2d& m, unsigned count, exec::Txn& txn) {
  // A load writes registers whatever src_datasrc holds (its validator requires REGISTER): the register view.
  const bool pair = mem2d::data_reading(mem2d::kDataSrcRegister, m.dtype, count).pairs;
  return slots_in_range(m.data, count, pair) || fail_first_bad_slot(m, count, pair, txn);
}

void load_elements(const Mem2d& m, const Mem2dWalk& w, exec::Txn& txn) {
  for (unsigned k = 0; k < w.count; ++k) {
    const uint64_t v = txn.read_mem(w.ea[k], w.esz);
    const unsigned r = m.data.reg(k);
    switch (m.dtype) {
      case dtype::kInt8:
      case dtype::kInt16: txn.stage_reg(r, exec::sign_extend(v, w.esz)); break;
      case dtype::kUint64:
        txn.stage_reg(r, static_cast<uint32_t>(v));
        txn.stage_reg(r + 1, static_cast<uint32_t>(v >> 32));
        break;
      default: txn.stage_reg(r, static_cast<uint32_t>(v)); break;  // zero-extend or bit copy, no conversion
    }
  }
}

uint64_t store_value(const Mem2d& m, const DataReading& d, unsigned k, exec::Txn& txn) {
  if (d.view == DataView::Immediates) {
    switch (d.elem) {
      case 1: return m.data.bytes[k];
      case 2: return m.data.u16(k);
      case 4: return m.data.u32(k);
      default: return m.data.u64(k);
    }
  }
  const unsigned r = m.data.reg(k);
  if (d.pairs) return uint64_t{txn.reg(r)} | (uint64_t{txn.reg(r + 1)} << 32);
  return txn.reg(r);
}

uint64_t element_mask(unsigned esz) {
  return esz >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * esz)) - 1;
}

void store_elements(const Mem2d& m, const Mem2dWalk& w, exec::Txn& txn) {
  const DataReading d = mem2d::data_reading(m);
  for (unsigned k = 0; k < w.count; ++k)
    txn.stage_mem(w.ea[k], w.esz, store_value(m, d, k, txn) & element_mask(w.esz));  // truncation, never a cast
}

/// The block path (nothing recorded): a walk whose element k is at base + k * esz is one run of bytes, checked
/// once for its window and its partition (true only when every element passes the element path's checks).
bool run_accessible(const Mem2d& m, uint64_t base, exec::Txn& txn) {
  const unsigned n0 = m.num_elem[0], n1 = m.num_elem[1];
  const bool consecutive = (n0 <= 1 || m.step_elem[0] == 1) && (n1 <= 1 || int64_t{m.step_elem[1]} == int64_t{n0});
  if (txn.recording() || !consecutive || n0 * n1 == 0) return false;
  const uint64_t n = uint64_t{n0} * n1 * dtype_size(m.dtype);
  const uint64_t last = base + n - 1;
  if (last < base || (base >> 24) != (last >> 24)) return false;
  // Common case first: the run lies in one SBUF partition's active bytes (a sufficient condition of
  // neuron_access_ok, decided without decoding the partition twice).
  const Geometry& geo = geometry(txn.gen());
  if (base >= geo.sbuf_offset && last < uint64_t{geo.sbuf_offset} + geo.sbuf_size) {
    const uint64_t rel = base - geo.sbuf_offset, rel_last = last - geo.sbuf_offset;
    if (rel >> geo.sbuf_partition_shift == rel_last >> geo.sbuf_partition_shift &&
        (rel_last & (geo.sbuf_partition_size - 1)) < geo.sbuf_partition_active)
      return true;
  }
  return exec::neuron_access_ok(txn.gen(), base, static_cast<unsigned>(n));
}

/// Element k of a run of `esz`-byte little-endian elements.
uint64_t run_element(const uint8_t* bytes, unsigned k, unsigned esz) {
  switch (esz) {
    case 1: return bytes[k];
    case 2: return load_le<uint16_t>(bytes + 2 * k);
    case 4: return load_le<uint32_t>(bytes + 4 * k);
    default: return load_le<uint64_t>(bytes + 8 * k);
  }
}

void load_run(const Mem2d& m, uint64_t base, exec::Txn& txn) {
  const unsigned esz = dtype_size(m.dtype), count = m.elements();
  std::array<uint8_t, 32 * 8> scratch;
  const uint8_t* bytes = txn.read_run(base, uint64_t{count} * esz, esz, scratch.data());
  if (esz == 4 && txn.may_write_in_place()) {
    // The common case, one register per 32-bit element. Every check has passed and a load stages no memory, so
    // its commit cannot fail: the registers are written now, in element order (a later slot naming the same
    // register wins, as at commit). The bytes are read before any register changes (they are memory, not
    // registers), so the result is the staged one.
    for (unsigned k = 0; k < count; ++k) txn.write_reg_in_place(m.data.reg(k), load_le<uint32_t>(bytes + 4 * k));
    return;
  }
  if (esz == 4) {
    for (unsigned k = 0; k < count; ++k) txn.stage_reg(m.data.reg(k), load_le<uint32_t>(bytes + 4 * k));
    return;
  }
  for (unsigned k = 0; k < count; ++k) {
    const uint64_t v = run_element(bytes, k, esz);
    const unsigned r = m.data.reg(k);
    switch (m.dtype) {
      case dtype::kInt8:
      case dtype::kInt16: txn.stage_reg(r, exec::sign_extend(v, esz)); break;
      case dtype::kUint64:
        txn.stage_reg(r, static_cast<uint32_t>(v));
        txn.stage_reg(r + 1, static_cast<uint32_t>(v >> 32));
        break;
      default: txn.stage_reg(r, static_cast<uint32_t>(v)); break;
    }
  }
}

void store_run(const Mem2d& m, uint64_t base, exec::Txn& txn) {
  const unsigned esz = dtype_size(m.dtype), count = m.elements();
  const DataReading d = mem2d::data_reading(m);
  // Every check has passed and the run is the step's only write: in place when its page exists (commit then has
  // nothing that can fail), else staged.
  uint8_t* out = txn.may_write_in_place() ? txn.write_run_in_place(base, uint64_t{count} * esz, esz) : nullptr;
  if (out == nullptr) out = txn.stage_run(base, uint64_t{count} * esz, esz);
  if (d.view == DataView::Immediates && d.elem == esz && uint64_t{count} * esz <= m.data.bytes.size()) {
    // Immediates of the element's own size: the run is the data bytes as they lie (little-endian both).
    std::memcpy(out, m.data.bytes.data(), uint64_t{count} * esz);
    return;
  }
  for (unsigned k = 0; k < count; ++k) {
    const uint64_t v = store_value(m, d, k, txn);
    for (unsigned b = 0; b < esz; ++b) out[k * esz + b] = static_cast<uint8_t>(v >> (8 * b));  // truncation
  }
}

/// The checks after the address checks: the data registers, then the unaligned-access diagnostic.
bool register_checks(const Mem2d& m, uint64_t base, bool immediate, exec::Txn& txn) {
  const unsigned esz = dtype_size(m.dtype);
  // A load always writes registers (its validator requires REGISTER); a store reads them in the register view.
  const bool uses_registers =
      m.header.opcode == opcode::kTensorLoad || mem2d::data_reading(m).view == DataView::Registers;
  if (uses_registers && !check_data_registers(m, m.elements(), txn)) return false;
  if (!immediate && esz > 1 && base % esz != 0)
    txn.diag(DiagKind::UnalignedAccess, base, esz);  // PROJ-CONV-M10: performed byte-wise
  return true;
}

/// The element path: each element's address checked, read or staged (and recorded when tracing).
bool execute_elements(const Mem2d& m, uint64_t base, bool immediate, exec::Txn& txn) {
  Mem2dWalk w;
  walk(m, base, w);
  if (!check_window(w, txn) || !check_ranges(w, txn) || !register_checks(m, base, immediate, txn)) return false;
  if (m.header.opcode == opcode::kTensorLoad)
    load_elements(m, w, txn);
  else
    store_elements(m, w, txn);
  return true;
}

bool execute(const Instruction& inst, exec::Txn& txn) {
  if (inst.as<Mem2d>() == nullptr)  // pseudo words are lowered before they run (PROJ-CONV-M9)
    return txn.fail(FaultKind::UnsupportedOpcode, "not a MEM_2D opcode");
  const Mem2d& m = body<Mem2d>(inst);
  if (m.elements() > 32)  // unreachable for a validated word; keeps the walk in bounds regardless
    return txn.fail(FaultKind::InvalidInstruction, "more than 32 elements");
  uint64_t base = 0;
  bool immediate = false;
  if (!resolve_start(m, txn, base, immediate)) return false;
  // The element path checks (and faults at) each element; the block path checks the run once.
  if (!run_accessible(m, base, txn)) return execute_elements(m, base, immediate, txn);
  if (!register_checks(m, base, immediate, txn)) return false;
  if (m.header.opcode == opcode::kTensorLoad)
    load_run(m, base, txn);
  else
    store_run(m, base, txn);
  return true;
}

/// The on-chip bytes an immediate start places: the hull of the walk, when it stays inside one SBUF/PSUM
/// partition (TensorLoad reads it, TensorStore writes it). A walk across partitions, a DRAM address or a register
/// start is placed at run time and not listed.
Footprint footprint(const Instruction& inst, Generation g) {
  Footprint f;
  const Mem2d* m = inst.as<Mem2d>();
  if (m == nullptr || !m->start_addr.is_immediate() || m->elements() == 0 || m->elements() > 32) return f;
  Mem2dWalk w;
  walk(*m, m->start_addr.immediate(), w);
  const auto [lo, hi] = std::minmax_element(w.ea.begin(), w.ea.begin() + w.count);
  const uint64_t last = *hi + w.esz - 1;
  const Geometry& geo = geometry(g);
  const uint64_t onchip_end =  // addresses from here up are flat memory (PROJ-CONV-N4)
      geo.psum_size != 0 ? uint64_t{geo.psum_offset} + geo.psum_size : uint64_t{geo.sbuf_offset} + geo.sbuf_size;
  if (w.esz == 0 || last < *hi || last >= onchip_end) return f;
  const PartitionAddress first = decode_partition_offset(static_cast<uint32_t>(*lo), g);
  const PartitionAddress end = decode_partition_offset(static_cast<uint32_t>(last), g);
  if (first.region == Region::Outside || end.region != first.region || end.partition != first.partition) return f;
  f.add({"start_addr", first.region, first.partition, 1, int64_t{first.offset}, int64_t{end.offset},
         m->header.opcode == opcode::kTensorStore});
  return f;
}

// The pseudo forms run only after lowering (PROJ-CONV-M9): the executor refuses them.
constexpr std::array<Format, 1> kNotExecuted{Format::PseudoMem2d};
constexpr Execution kExecution{
    .execute = execute, .not_executed = kNotExecuted, .refusal = Execution::Refusal::Lowered, .footprint = footprint};

}  // namespace

const Execution& Mem2dFamily::execution() {
  return kExecution;
}

}  // namespace tpbisa::family
