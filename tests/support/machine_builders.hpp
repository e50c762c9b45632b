// Header-only builders for simulator tests: edge-case baseline words, hand-computed addresses, state snapshots.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/state.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
/// gtest prints fault kinds by name.
inline void PrintTo(FaultKind k, std::ostream* os) {
  *os << to_string(k);
}
}  // namespace tpbisa

namespace tpbisa::test {

// ---- Geometry, restated by hand from memory-and-numerics.md §2 (never read back from the library) ----

inline constexpr uint64_t kSbufStride[4] = {0x40000, 0x40000, 0x40000, 0x100000};
inline constexpr uint64_t kSbufActive[4] = {0x30000, 0x38000, 0x40000, 0x80000};
inline constexpr uint64_t kPsumBase = 0x2000000;
inline constexpr uint64_t kPsumStride = 0x8000;
inline constexpr uint64_t kPsumActive = 0x4000;

constexpr size_t gi(Generation g) {
  return static_cast<size_t>(g);
}
/// sbuf_addr(p, o) = STATE_BUF_OFFSET (0) + p * STATE_BUF_PARTITION_SIZE + o.
constexpr uint64_t sbuf(Generation g, uint64_t partition, uint64_t offset) {
  return partition * kSbufStride[gi(g)] + offset;
}
/// psum_addr(p, o) = PSUM_BUF_OFFSET + p * PSUM_BUF_PARTITION_SIZE + o (SUNDA..MARIANA).
constexpr uint64_t psum(uint64_t partition, uint64_t offset) {
  return kPsumBase + partition * kPsumStride + offset;
}

/// Element size of a dtype code (common-formats.md §10.4 table; PROJ-CONV-C14 for FP8_EXP2); 0 when none.
constexpr unsigned dsize(uint8_t d) {
  switch (d) {
    case dtype::kInt8:
    case dtype::kUint8:
    case dtype::kFp8Exp3:
    case dtype::kFp8Exp4:
    case dtype::kFp8Exp5:
    case dtype::kFp8Exp2: return 1;
    case dtype::kInt16:
    case dtype::kUint16:
    case dtype::kBfloat16:
    case dtype::kFp16: return 2;
    case dtype::kInt32:
    case dtype::kUint32:
    case dtype::kFp32:
    case dtype::kFp32r: return 4;
    case dtype::kUint64:
    case dtype::kInt64: return 8;
    default: return 0;
  }
}

constexpr uint32_t f32(float x) {
  return std::bit_cast<uint32_t>(x);
}
constexpr float as_f32(uint32_t b) {
  return std::bit_cast<float>(b);
}
constexpr bool is_quiet_nan(uint32_t b) {
  return (b & 0x7F800000U) == 0x7F800000U && (b & 0x00400000U) != 0;
}

// ---- Operand helpers ----

inline Addr8 addr8_imm(uint64_t a) {
  return Addr8{a};
}
/// Register-pair ADDR8: reg_lo @0, reg_hi @1, marker @7.
inline Addr8 addr8_regs(uint8_t lo, uint8_t hi, uint8_t marker = addr8_marker::kAddrReg) {
  return Addr8{uint64_t{lo} | (uint64_t{hi} << 8) | (uint64_t{marker} << 56)};
}
inline Addr4 addr4_imm(uint32_t a) {
  return Addr4{a};
}
/// Register-form ADDR4: regnum @0, reserved @1..2, marker @3.
inline Addr4 addr4_reg(uint8_t regnum, uint8_t marker = addr4_marker::kAddrReg) {
  return Addr4{uint32_t{regnum} | (uint32_t{marker} << 24)};
}

inline Header hdr(uint8_t opcode) {
  return Header{opcode, 16, 0, 0};
}

inline Mem2dData regs_data(std::initializer_list<uint8_t> r) {
  Mem2dData d;
  size_t k = 0;
  for (uint8_t v : r) d.bytes[k++] = v;
  return d;
}

// ---- Baselines of edge-cases.md §0 ----

/// TL: 0xaa, UINT32, REGISTER, num {4,1}, start 0x1000 (marker 0x00), step {1,0}, data [0,1,2,3,0...].
inline Mem2d tl() {
  Mem2d m;
  m.header = hdr(opcode::kTensorLoad);
  m.dtype = dtype::kUint32;
  m.src_datasrc = 0;
  m.num_elem = {4, 1};
  m.start_addr = addr8_imm(0x1000);
  m.step_elem = {1, 0};
  m.data = regs_data({0, 1, 2, 3});
  return m;
}
inline Mem2d ts() {
  Mem2d m = tl();
  m.header.opcode = opcode::kTensorStore;
  return m;
}
/// PTL / PTS: TL / TS with 0xce / 0xcd, var_id 1, var_offset 0.
inline PseudoMem2d ptl() {
  const Mem2d b = tl();
  PseudoMem2d p;
  p.header = hdr(opcode::kPseudoTensorLoad);
  p.dtype = b.dtype;
  p.src_datasrc = b.src_datasrc;
  p.num_elem = b.num_elem;
  p.var_id = 1;
  p.var_offset = 0;
  p.step_elem = b.step_elem;
  p.data = b.data;
  return p;
}
inline PseudoMem2d pts() {
  PseudoMem2d p = ptl();
  p.header.opcode = opcode::kPseudoTensorStore;
  return p;
}
/// IL: 0x70, FP32, src start 0x0, step {1,0}, num {4,1}, 128 channels, zero immediates.
inline S2Bn il() {
  S2Bn s;
  s.header = hdr(opcode::kImmLdArith);
  s.dtype = dtype::kFp32;
  s.src_mem_pattern.start_addr = addr4_imm(0);
  s.src_mem_pattern.step_elem = {1, 0};
  s.src_mem_pattern.num_elem = {4, 1};
  s.num_active_channels = 128;
  return s;
}
inline S2Bn mvl() {
  S2Bn s = il();
  s.header.opcode = opcode::kMatchValueLoad;
  s.src_mem_pattern.num_elem = {8, 1};
  return s;
}
inline S2Bn bnpl() {
  S2Bn s = il();
  s.header.opcode = opcode::kBatchNormParamLoad;
  s.src_mem_pattern.num_elem = {3, 1};
  s.imm1.raw = f32(1.0F);
  s.imm0_ptr.raw = 0x100;
  s.imm0_src = 1;
  return s;
}
/// A TENSOR4D walked contiguously: steps {1, X, X*Y, X*Y*Z}.
inline Tensor4d dense4d(uint32_t start, std::array<uint16_t, 4> num) {
  Tensor4d t;
  t.start_addr = addr4_imm(start);
  t.num_elem = num;
  t.step_elem = {1, static_cast<int16_t>(num[0]), static_cast<int16_t>(num[0] * num[1]),
                 static_cast<int16_t>(num[0] * num[1] * num[2])};
  return t;
}
/// PM: 0x4F, src {8,1,1,4} step {1,8,8,8} at 0x0, dst same shape at 0x1000, FP32 -> FP32, 128 channels, ADD, XYZ.
inline S4d4Tsm pm() {
  S4d4Tsm t;
  t.header = hdr(opcode::kPtrMultiArith);
  t.src_mem_pattern = dense4d(0x0, {8, 1, 1, 4});
  t.dst_mem_pattern = dense4d(0x1000, {8, 1, 1, 4});
  t.in_dtype = dtype::kFp32;
  t.out_dtype = dtype::kFp32;
  t.num_active_channels = 128;
  t.op = aluop::kAdd;
  t.op_dim = 0x04;
  t.reverse_operands = 0;
  return t;
}
inline S4d4Tsm pmb() {
  S4d4Tsm t = pm();
  t.header.opcode = opcode::kPtrMultiBitvec;
  t.in_dtype = dtype::kUint32;
  t.out_dtype = dtype::kUint32;
  t.op = aluop::kBitwiseAnd;
  return t;
}

template <class S>
Word word(const S& s) {
  return encode(s);
}

/// Options that record every effect of a step (the machine tests inspect them).
inline MachineOptions recording() {
  MachineOptions o;
  o.record_effects = true;
  return o;
}

// ---- Memory set-up and inspection ----

/// Writes `n` bytes of `value` little-endian (n > 8 repeats the 8-byte pattern); returns the memory's answer.
inline bool poke(MachineState& s, uint64_t address, unsigned n, uint64_t value) {
  bool ok = true;
  for (unsigned at = 0; at < n; at += 8) ok = s.memory.write(address + at, n - at < 8 ? n - at : 8, value) && ok;
  return ok;
}
inline uint64_t peek(const MachineState& s, uint64_t address, unsigned n) {
  return s.memory.read(address, n);
}
inline bool written(const MachineState& s, uint64_t address, unsigned n) {
  return s.memory.initialized(address, n);
}

/// Sets DVE flop `slot` of channel `c` as if an ImmLd of the given class had loaded it.
inline void set_imm(MachineState& s, unsigned c, unsigned slot, uint32_t bits,
                    DveChannel::ImmClass cls = DveChannel::ImmClass::Arith) {
  s.dve[c].imm[slot] = bits;
  s.dve[c].imm_class[slot] = cls;
}

// ---- Effects of one step, copied out of the machine's reused buffers ----

inline auto key(const RegWrite& w) {
  return std::make_tuple(w.reg, w.before, w.after);
}
inline auto key(const MemWrite& w) {
  return std::make_tuple(w.address, w.size, w.before, w.after);
}
inline auto key(const MemRead& r) {
  return std::make_tuple(r.address, r.size, r.initialized);
}
inline auto key(const DveWrite& w) {
  return std::make_tuple(w.channel, w.field, w.slot, w.before, w.after);
}
inline auto key(const SemWrite& w) {
  return std::make_tuple(w.index, w.event, w.before, w.after);
}
inline auto key(const Diagnostic& d) {
  return std::make_tuple(d.kind, d.address, d.size);
}

template <class T>
auto keys(std::span<const T> xs) {
  std::vector<decltype(key(std::declval<const T&>()))> out;
  for (const T& x : xs) out.push_back(key(x));
  return out;
}

struct Effects {
  StepResult::Status status = StepResult::Status::Halted;
  size_t index = 0;
  std::vector<std::tuple<uint8_t, uint32_t, uint32_t>> regs;
  std::vector<std::tuple<uint64_t, uint8_t, uint64_t, uint64_t>> mem;
  std::vector<std::tuple<uint64_t, uint8_t, bool>> reads;
  std::vector<std::tuple<uint8_t, DveField, uint8_t, uint32_t, uint32_t>> dve;
  std::vector<std::tuple<uint16_t, bool, uint32_t, uint32_t>> sems;
  std::vector<std::tuple<DiagKind, uint64_t, uint8_t>> diags;
  bool operator==(const Effects&) const = default;
};

inline Effects effects(const StepResult& r) {
  Effects e;
  e.status = r.status;
  e.index = r.index;
  e.regs = keys(r.reg_writes);
  e.mem = keys(r.mem_writes);
  e.reads = keys(r.mem_reads);
  e.dve = keys(r.dve_writes);
  e.sems = keys(r.sem_writes);
  e.diags = keys(r.diagnostics);
  return e;
}

inline bool no_effects(const StepResult& r) {
  return r.reg_writes.empty() && r.mem_writes.empty() && r.mem_reads.empty() && r.dve_writes.empty() &&
         r.sem_writes.empty() && r.diagnostics.empty();
}

/// Whether w is a valid instruction word on g.
inline bool valid_on(const Word& w, Generation g) {
  return validate(decode(w, g), g).valid;
}

/// A blocked step: the wait is not satisfied, nothing changed, no effects, the engine still at its word.
inline void expect_blocked(const Machine& m, const StepResult& r) {
  ASSERT_EQ(r.status, StepResult::Status::Blocked) << "got " << to_string(r.fault.kind) << ": " << r.fault.detail;
  EXPECT_EQ(r.wait.index, 0U);
  EXPECT_EQ(m.pc(), 0U);
  EXPECT_TRUE(no_effects(r));
}

inline bool has_diag(const StepResult& r, DiagKind kind) {
  for (const Diagnostic& d : r.diagnostics)
    if (d.kind == kind) return true;
  return false;
}
inline bool has_diag(const StepResult& r, DiagKind kind, uint64_t address) {
  for (const Diagnostic& d : r.diagnostics)
    if (d.kind == kind && d.address == address) return true;
  return false;
}

// ---- Whole-state snapshots (atomicity: a fault changes nothing) ----

/// Every field of one DVE channel flattened to words, so two channels compare with ==.
inline std::vector<uint32_t> flatten(const DveChannel& ch) {
  std::vector<uint32_t> v;
  for (unsigned i = 0; i < 8; ++i) {
    v.push_back(ch.imm[i]);
    v.push_back(static_cast<uint32_t>(ch.imm_class[i]));
    v.push_back(ch.match_key[i]);
    v.push_back(ch.match_key_written[i] ? 1U : 0U);
    v.push_back(ch.matched[i] ? 1U : 0U);
  }
  for (uint32_t x : {ch.bn.n, ch.bn.batch_mean, ch.bn.a, ch.bn.b, ch.bn.c, ch.bn.written ? 1U : 0U}) v.push_back(x);
  return v;
}

struct Snapshot {
  std::array<uint32_t, kNumRegisters> regs{};
  std::array<uint32_t, kNumSemaphores> sems{};
  std::string events;
  std::vector<std::vector<uint32_t>> dve;
  /// (address, byte, initialized) for every watched byte.
  std::vector<std::tuple<uint64_t, uint8_t, bool>> bytes;
  uint64_t allocated = 0;
  bool operator==(const Snapshot&) const = default;
};

/// A byte range to watch: [address, address + size).
struct Range {
  uint64_t address;
  uint64_t size;
};

inline Snapshot snapshot(const MachineState& s, std::initializer_list<Range> watched) {
  Snapshot out;
  out.regs = s.regs;
  out.sems = s.sems;
  out.events = s.events.to_string();
  for (const DveChannel& ch : s.dve) out.dve.push_back(flatten(ch));
  for (const Range& r : watched)
    for (uint64_t i = 0; i < r.size; ++i) {
      bool init = false;
      const auto b = static_cast<uint8_t>(s.memory.read(r.address + i, 1, &init));
      out.bytes.emplace_back(r.address + i, b, init);
    }
  out.allocated = s.memory.allocated_bytes();
  return out;
}

}  // namespace tpbisa::test
