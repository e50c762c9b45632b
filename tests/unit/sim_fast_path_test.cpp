// The untraced fast path of the seed slice (TensorLoad/TensorStore, ImmLd, PtrMulti) against the traced element
// path over random programs and states: the same step statuses, faults, effect counts and diagnostic counts, and
// the same final state (registers, DVE flops, every watched byte and whether it was written, allocated pages).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "../support/machine_builders.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

using test::f32;

/// SBUF partition offsets the programs touch: the start of each partition and its last active bytes.
constexpr uint32_t kLowBytes = 0x400, kHighBytes = 0x100;

struct Gen {
  std::mt19937_64 rng;
  Generation g;
  uint64_t pick(uint64_t n) { return rng() % n; }
  bool chance(unsigned percent) { return pick(100) < percent; }

  uint32_t active() const { return geometry(g).sbuf_partition_active; }
  /// A partition offset near either end of the touched ranges (sometimes running past the active bytes).
  uint32_t offset(uint32_t span) {
    if (chance(75)) return static_cast<uint32_t>(pick(kLowBytes));
    return active() - static_cast<uint32_t>(pick(kHighBytes)) - (chance(70) ? span : 0);
  }
  uint32_t partition_base(uint32_t partition, uint32_t offset) const {
    return geometry(g).sbuf_offset + partition * geometry(g).sbuf_partition_size + offset;
  }
  uint8_t any_of(std::initializer_list<uint8_t> xs) { return *(xs.begin() + pick(xs.size())); }

  Word mem2d() {
    Mem2d m = chance(50) ? test::tl() : test::ts();
    m.dtype = any_of({dtype::kUint8, dtype::kInt8, dtype::kUint16, dtype::kInt16, dtype::kUint32, dtype::kInt32,
                      dtype::kFp32, dtype::kUint64, dtype::kFp16});
    const auto n0 = static_cast<uint8_t>(1 + pick(8)), n1 = static_cast<uint8_t>(1 + pick(4));
    m.num_elem = {n0, n1};
    m.step_elem = {1, n0};  // consecutive
    if (chance(25)) m.step_elem = {static_cast<int32_t>(pick(5)) - 2, static_cast<int32_t>(pick(20)) - 5};
    const uint32_t span = n0 * n1 * test::dsize(m.dtype);
    uint64_t a = partition_base(static_cast<uint32_t>(pick(128)), offset(span));
    if (chance(10)) a = 0x100000000ULL + (chance(50) ? pick(0x1000) : 0xFFFFFF - pick(64));  // flat, window edge
    if (chance(5)) a = pick(uint64_t{1} << 32);                                              // anywhere
    m.start_addr = test::addr8_imm(a);
    if (m.header.opcode == opcode::kTensorStore && chance(50)) m.src_datasrc = 1;  // immediates
    for (unsigned k = 0; k < 32; ++k) m.data.bytes[k] = static_cast<uint8_t>(rng());
    if (m.src_datasrc == 0)
      for (unsigned k = 0; k < 32; ++k) m.data.bytes[k] = static_cast<uint8_t>(pick(chance(3) ? 70 : 62));
    return test::word(m);
  }

  Word immld() {
    S2Bn s = test::il();
    s.header.opcode = chance(50) ? opcode::kImmLdArith : opcode::kImmLdBitvec;
    s.dtype = any_of({dtype::kFp32, dtype::kInt8, dtype::kUint8, dtype::kInt16, dtype::kUint16, dtype::kFp16,
                      dtype::kBfloat16, dtype::kUint32, dtype::kInt32});
    const auto n0 = static_cast<uint16_t>(1 + pick(8));
    s.src_mem_pattern.num_elem = {n0, 1};
    s.src_mem_pattern.step_elem = {1, 0};
    if (chance(20)) s.src_mem_pattern.step_elem = {static_cast<int16_t>(pick(5) - 2), 0};
    s.num_active_channels = static_cast<uint8_t>(1 + pick(128));
    const uint32_t part = chance(80) ? 0 : static_cast<uint32_t>(pick(128));
    s.src_mem_pattern.start_addr = test::addr4_imm(partition_base(part, offset(n0 * test::dsize(s.dtype))));
    return test::word(s);
  }

  Word ptr_multi() {
    S4d4Tsm t = chance(60) ? test::pm() : test::pmb();
    const bool bitvec = t.header.opcode == opcode::kPtrMultiBitvec;
    if (bitvec) {
      t.op = any_of({aluop::kBitwiseAnd, aluop::kBitwiseOr, aluop::kBitwiseXor, aluop::kAdd, aluop::kSubtract,
                     aluop::kLogicalShiftLeft, aluop::kArithShiftRight, aluop::kMax});
      t.in_dtype = any_of({dtype::kUint32, dtype::kInt32, dtype::kUint8, dtype::kUint16});
      t.out_dtype = any_of({dtype::kUint32, dtype::kInt32, dtype::kUint8, dtype::kUint16});
    } else {
      t.op = chance(70) ? any_of({aluop::kAdd, aluop::kSubtract, aluop::kMult})
                        : any_of({aluop::kMax, aluop::kMin, aluop::kDivide, aluop::kBypass, aluop::kIsGe});
      t.in_dtype = chance(70) ? dtype::kFp32 : any_of({dtype::kFp16, dtype::kBfloat16, dtype::kInt32, dtype::kFp32r});
      t.out_dtype = chance(70) ? dtype::kFp32 : any_of({dtype::kFp16, dtype::kBfloat16, dtype::kInt8, dtype::kFp32r});
    }
    t.reverse_operands = static_cast<uint8_t>(pick(4));
    const std::array<uint16_t, 4> num{static_cast<uint16_t>(1 + pick(24)), static_cast<uint16_t>(1 + pick(2)), 1,
                                      static_cast<uint16_t>(1 + pick(4))};
    const uint32_t elems = num[0] * num[1] * num[3];
    t.num_active_channels = static_cast<uint8_t>(1 + pick(128));
    const uint32_t part = chance(80) ? 0 : static_cast<uint32_t>(pick(128));
    // Mostly one start partition for both; sometimes the destination a partition or two on (its row c shares a
    // partition with a later channel's source row), or the source one or two on (row c with an earlier channel's).
    uint32_t src_part = part, dst_part = part;
    if (chance(20)) (chance(60) ? dst_part : src_part) += chance(60) ? 1 : 1 + static_cast<uint32_t>(pick(2));
    t.src_mem_pattern = test::dense4d(partition_base(src_part % 128, offset(elems * test::dsize(t.in_dtype))), num);
    t.dst_mem_pattern = test::dense4d(partition_base(dst_part % 128, offset(elems * test::dsize(t.out_dtype))), num);
    if (chance(15)) t.dst_mem_pattern.start_addr = t.src_mem_pattern.start_addr;  // in place
    if (chance(10)) t.src_mem_pattern.step_elem[0] = -1;                          // not a forward walk
    return test::word(t);
  }

  /// A word valid on the generation (most of the time: a few invalid ones check the fault path too).
  Word word() {
    for (int attempt = 0; attempt < 50; ++attempt) {
      const uint64_t kind = pick(3);
      const Word w = kind == 0 ? mem2d() : kind == 1 ? immld() : ptr_multi();
      if (chance(2) || validate(decode(w, g), g).valid) return w;
    }
    return test::word(test::tl());
  }

  uint32_t fp32_value() {
    static constexpr std::array<uint32_t, 8> kSpecial{0x7F800001U, 0x7FC00001U, 0xFFC12345U, 0x7F800000U,
                                                      0xFF800000U, 0x80000000U, 0x00000001U, 0x807FFFFFU};
    if (chance(8)) return kSpecial[pick(kSpecial.size())];
    return f32(static_cast<float>(static_cast<int>(pick(200)) - 100) * 0.375F);
  }

  /// Random bytes (FP32 values with the specials among them) over the touched ranges, with holes left unwritten;
  /// random registers and DVE flops of every class.
  void preset(MachineState& s) {
    std::vector<uint8_t> bytes(kLowBytes + 64);
    for (uint32_t p = 0; p < 128; ++p) {
      for (size_t i = 0; i < bytes.size(); i += 4) {
        const uint32_t v = fp32_value();
        for (unsigned b = 0; b < 4; ++b) bytes[i + b] = static_cast<uint8_t>(v >> (8 * b));
      }
      for (const uint64_t base : {uint64_t{partition_base(p, 0)}, uint64_t{partition_base(p, active() - kHighBytes)}}) {
        const size_t n = base == partition_base(p, 0) ? bytes.size() : kHighBytes;
        for (size_t at = 0; at < n; at += 64) {
          if (chance(4)) continue;                           // a hole never written
          const size_t len = chance(5) ? 63 - pick(8) : 64;  // elements partly written
          s.memory.write_block(base + at, std::min(len, n - at), bytes.data() + at);
        }
      }
    }
    for (uint32_t& r : s.regs) r = static_cast<uint32_t>(rng());
    for (DveChannel& ch : s.dve)
      for (unsigned k = 0; k < 8; ++k) {
        ch.imm[k] = chance(50) ? fp32_value() : static_cast<uint32_t>(rng());
        ch.imm_class[k] = static_cast<DveChannel::ImmClass>(pick(3));
      }
  }
};

struct Outcome {
  std::vector<std::string> steps;  ///< status, fault, totals and diagnostic counts of each step
  test::Snapshot state;
};

Outcome run_program(Generation g, const std::vector<Word>& program, uint64_t seed, bool traced) {
  MachineOptions mo;
  mo.record_effects = traced;
  Machine m(g, program, mo);
  Gen gen{std::mt19937_64(seed), g};
  gen.preset(m.mutable_state());
  Outcome out;
  for (size_t i = 0; i <= program.size(); ++i) {
    const StepResult r = m.step();
    if (r.status == StepResult::Status::Halted) break;
    std::string line = fmt::format("{} {}", static_cast<int>(r.status), r.index);
    if (r.status == StepResult::Status::Faulted)
      line += fmt::format(" {} {} {} {}", to_string(r.fault.kind), r.fault.detail, r.fault.address, r.fault.reg);
    const EffectTotals& t = r.totals;
    for (uint64_t n : {t.regs, t.mem, t.reads, t.dve, t.sems, t.diagnostics}) line += fmt::format(" {}", n);
    for (uint64_t n : r.diagnostic_counts) line += fmt::format(" d{}", n);
    out.steps.push_back(line);
    if (r.status == StepResult::Status::Faulted) break;
  }
  std::vector<test::Range> ranges;
  const Geometry& geo = geometry(g);
  for (uint32_t p = 0; p < 128; ++p) {
    ranges.push_back({gen.partition_base(p, 0), kLowBytes + 0x200});
    ranges.push_back({gen.partition_base(p, geo.sbuf_partition_active - kHighBytes), kHighBytes});
  }
  out.state = test::snapshot(m.state(), {});
  for (const test::Range& r : ranges)
    for (uint64_t i = 0; i < r.size; ++i) {
      bool init = false;
      const auto b = static_cast<uint8_t>(m.state().memory.read(r.address + i, 1, &init));
      out.state.bytes.emplace_back(r.address + i, b, init);
    }
  return out;
}

TEST(SimFastPath, RandomSliceProgramsEqualTheTracedElementPath) {
#if defined(TPBISA_ASAN)
  constexpr int kPrograms = 40;  // each traced element costs tens of times more under the sanitizers
#else
  constexpr int kPrograms = 120;
#endif
  size_t retired = 0, faulted = 0, steps = 0;
  for (int trial = 0; trial < kPrograms; ++trial) {
    const Generation g = kAllGenerations[static_cast<size_t>(trial) % kAllGenerations.size()];
    Gen gen{std::mt19937_64(0x5EED0000U + static_cast<uint64_t>(trial)), g};
    std::vector<Word> program;
    for (int i = 0; i < 12; ++i) program.push_back(gen.word());
    const uint64_t seed = 77 + static_cast<uint64_t>(trial);
    const Outcome fast = run_program(g, program, seed, false), traced = run_program(g, program, seed, true);
    SCOPED_TRACE(fmt::format("trial {} on {}", trial, to_string(g)));
    ASSERT_EQ(fast.steps, traced.steps);
    ASSERT_TRUE(fast.state == traced.state);
    steps += fast.steps.size();
    for (const std::string& s : fast.steps) {
      retired += s.rfind("0 ", 0) == 0 ? 1 : 0;
      faulted += s.rfind("1 ", 0) == 0 ? 1 : 0;
    }
  }
  // The programs exercise both outcomes: mostly retired words, and faults of the element path's kinds.
  EXPECT_GT(retired, steps / 2);
  EXPECT_GT(faulted, 10U);
}

/// A slice word with an EVENTS wait or update now and then (so a stream mixes words Machine::run retires without
/// a scheduler turn and words that take one), valid on the generation (when one is found).
Word word_with_events(Gen& gen) {
  for (int attempt = 0; attempt < 50; ++attempt) {
    Word w = gen.word();
    if (gen.chance(30)) {
      w[4] = gen.any_of({0x00, 0x01, 0x03, 0x05, 0xFE});  // wait_mode: none, ==, <=, >=, none
      w[5] = static_cast<uint8_t>(gen.pick(4));           // wait_idx
      w[6] = gen.any_of({0x00, 0x03, 0x04, 0x09});        // update_mode: none, +1, -1, set
      w[7] = static_cast<uint8_t>(gen.pick(4));           // update_idx
      w[8] = static_cast<uint8_t>(gen.pick(3));           // semaphore_value
    }
    if (validate(decode(w, gen.g), gen.g).valid) return w;
  }
  return test::word(test::tl());
}

/// run() in chunks of random size, each chunk's summary, a step() after each chunk (the scheduler's position and
/// Random draws must be where stepping leaves them) and the final state of both engines. `traced`: every effect
/// recorded, so run takes the scheduler's turn for every word (the reference).
std::vector<std::string> run_in_chunks(Generation g, const CoreProgram& program, Schedule schedule, uint64_t seed,
                                       bool traced) {
  MachineOptions mo;
  mo.record_effects = traced;
  mo.schedule = schedule;
  mo.seed = seed;
  Machine m(g, program, mo);
  Gen gen{std::mt19937_64(seed), g};
  gen.preset(m.mutable_state());
  for (uint32_t& v : m.mutable_state().sems) v = static_cast<uint32_t>(gen.pick(3));
  std::vector<std::string> out;
  std::mt19937_64 chunks(seed * 3 + 1);
  for (int round = 0; round < 40 && !m.finished(); ++round) {
    const RunSummary s = m.run(1 + chunks() % 6);
    std::string line =
        fmt::format("run {} {}{}{} {} {} {} {}", s.retired, int(s.faulted), int(s.step_limit), int(s.deadlock),
                    s.fault.index, to_string(s.fault.kind), s.fault.detail, s.blocked.size());
    for (uint64_t n : s.diagnostic_counts) line += fmt::format(" d{}", n);
    out.push_back(line);
    if (s.faulted || s.deadlock) break;
    const StepResult r = m.step();
    out.push_back(fmt::format("step {} {} {}", static_cast<int>(r.status), to_string(r.engine), r.index));
    if (r.status == StepResult::Status::Faulted) break;
  }
  std::string regs;
  for (uint32_t v : m.core(0).engine_state(EngineId::Act).regs) regs += std::to_string(v) + ",";
  for (const Sequencer* e : {&m.core(0).engine(EngineId::Dve), &m.core(0).engine(EngineId::Act)})
    out.push_back(fmt::format("engine {} {} {}", e->pc(), e->retired(), int(e->halted())));
  out.push_back("act regs " + regs);
  std::string dve;
  for (uint32_t v : m.state().regs) dve += std::to_string(v) + ",";
  for (uint32_t v : m.state().sems) dve += std::to_string(v) + ",";
  for (const DveChannel& ch : m.state().dve)
    for (unsigned k = 0; k < 8; ++k)
      dve += std::to_string(ch.imm[k]) + "/" + std::to_string(int(ch.imm_class[k])) + ",";
  out.push_back("dve " + dve);
  uint64_t digest = 0;
  for (uint32_t p = 0; p < 128; ++p)
    for (uint64_t i = 0; i < kLowBytes + 0x200; ++i) {
      bool init = false;
      const uint64_t b = m.state().memory.read(gen.partition_base(p, 0) + i, 1, &init);
      digest = digest * 1099511628211ULL + (b << 1 | (init ? 1 : 0));
    }
  out.push_back(fmt::format("memory {} {}", digest, m.state().memory.allocated_bytes()));
  return out;
}

TEST(SimFastPath, RunOfASoleEngineEqualsTheSchedulersTurns) {
  // Machine::run retires a sole engine's plain words without a scheduler turn; the traced machine takes the turn
  // for every word. Both must give the same summaries, the same next step and the same final state, on every
  // schedule, with a second engine that finishes early (and semaphores between them).
#if defined(TPBISA_ASAN)
  constexpr int kPrograms =
      30;  // every generation and schedule still; each machine costs far more under the sanitizers
#else
  constexpr int kPrograms = 90;
#endif
  size_t chunks = 0, step_limits = 0;
  for (int trial = 0; trial < kPrograms; ++trial) {
    const Generation g = kAllGenerations[static_cast<size_t>(trial) % kAllGenerations.size()];
    const auto schedule = static_cast<Schedule>(trial % 3);
    Gen gen{std::mt19937_64(0xC0DE0000U + static_cast<uint64_t>(trial)), g};
    CoreProgram program;
    for (int i = 0; i < 16; ++i) program.stream(EngineId::Dve).push_back(word_with_events(gen));
    const int act_words = static_cast<int>(gen.pick(4));
    for (int i = 0; i < act_words; ++i) program.stream(EngineId::Act).push_back(word_with_events(gen));
    const uint64_t seed = 991 + static_cast<uint64_t>(trial);
    const std::vector<std::string> fast = run_in_chunks(g, program, schedule, seed, false);
    const std::vector<std::string> turns = run_in_chunks(g, program, schedule, seed, true);
    SCOPED_TRACE(fmt::format("trial {} on {}", trial, to_string(g)));
    ASSERT_EQ(fast, turns);
    for (const std::string& line : fast) {
      chunks += line.rfind("run ", 0) == 0 ? 1 : 0;
      step_limits += line.find(" 010 ") != std::string::npos ? 1 : 0;
    }
  }
  // Most chunks stop at their step limit, in the middle of a stream (where the scheduler's position matters).
  EXPECT_GT(step_limits, chunks / 3);
}

TEST(SimFastPath, WrittenBitmapRangesAgreeWithByteWiseMarks) {
  // Page::mark_written / all_written work on whole bitmap words between a partial first and last word: every
  // start and length within a page against byte-wise writes.
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 400; ++trial) {
    SparseMemory mem(uint64_t{1} << 24);
    std::array<bool, SparseMemory::kPageBytes> ref{};
    for (int w = 0; w < 6; ++w) {
      const size_t at = rng() % SparseMemory::kPageBytes;
      const size_t n = 1 + rng() % std::min<size_t>(SparseMemory::kPageBytes - at, rng() % 2 ? 200 : 4096);
      std::vector<uint8_t> bytes(n, static_cast<uint8_t>(w + 1));
      if (rng() % 2) {
        mem.write_block(0x1000 + at, n, bytes.data());  // the range form
      } else {
        for (size_t i = 0; i < n; ++i) mem.write(0x1000 + at + i, 1, w + 1);  // byte by byte
      }
      for (size_t i = 0; i < n; ++i) ref[at + i] = true;
    }
    for (int q = 0; q < 40; ++q) {
      const size_t at = rng() % SparseMemory::kPageBytes;
      const size_t n = 1 + rng() % (SparseMemory::kPageBytes - at);
      const bool all = std::all_of(ref.begin() + static_cast<ptrdiff_t>(at),
                                   ref.begin() + static_cast<ptrdiff_t>(at + n), [](bool b) { return b; });
      ASSERT_EQ(mem.written_span(0x1000 + at, n) != nullptr, all) << at << " " << n;
      ASSERT_EQ(mem.initialized(0x1000 + at, n), all) << at << " " << n;
    }
  }
}

TEST(SimFastPath, RewindRunsTheProgramAgainOnTheStateItLeft) {
  Mem2d store = test::ts();
  store.src_datasrc = 1;  // immediates
  for (unsigned k = 0; k < 16; ++k) store.data.bytes[k] = static_cast<uint8_t>(k + 1);
  Mem2d load = test::tl();
  load.data = test::regs_data({10, 11, 12, 13});
  Machine m(Generation::Cayman, {test::word(store), test::word(load)});
  EXPECT_EQ(m.run(100).retired, 2U);
  ASSERT_TRUE(m.finished());
  m.mutable_state().regs[10] = 0;
  m.rewind();
  EXPECT_FALSE(m.finished());
  EXPECT_EQ(m.pc(), 0U);
  EXPECT_EQ(m.core(0).engine(EngineId::Dve).retired(), 0U);
  EXPECT_EQ(m.run(1).retired, 1U);             // the store again, over the bytes it wrote the first time
  EXPECT_EQ(m.state().regs[10], 0U);           // the state is kept, not reset
  EXPECT_EQ(m.run(100).retired, 1U);           // then the load
  EXPECT_EQ(m.state().regs[10], 0x04030201U);  // the first element the store wrote
  EXPECT_TRUE(m.finished());
}

}  // namespace
}  // namespace tpbisa
