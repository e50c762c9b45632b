// A NEFF word in its program: the checks no single word shows (DMA ranges, ids, queue sets, SBUF reservation,
// PSUM banks) and the def.json variables its DMA operands name.
#include <algorithm>
#include <array>
#include <iterator>
#include <optional>
#include <string>
#include <tuple>
#include <variant>

#include <fmt/format.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include "families/family.hpp"
#include "tpbisa/address.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/neff_debug.hpp"

namespace tpbisa::neff {
namespace {

// The order is the evaluation order; the indices below name them.
constexpr std::array<ProgramPredicate, 8> kPredicates{{
    {"dma_operand_exists", "PROJ-CONV-F12",
     "each DMA operand names a def.json variable that holds data: a var_id that exists (mode 0x10), or an "
     "entry of the subgraph's dge-table that exists (modes 0x20/0x28)"},
    {"dma_src_in_variable", "PROJ-CONV-G1",
     "every byte the DMA reads lies inside its source variable (64-bit arithmetic; SBUF: inside the active bytes "
     "of existing partitions)"},
    {"dma_dst_in_variable", "PROJ-CONV-G1",
     "every byte the DMA writes lies inside its destination variable (64-bit arithmetic; SBUF: inside the active "
     "bytes of existing partitions)"},
    {"dma_queue_set_owned", "PROJ-CONV-F1",
     "a def.json queue set whose semaphore_set holds the DMA's completion semaphore is owned by the issuing engine"},
    {"dma_sem_increment_num_queues", "PROJ-CONV-G2",
     "the DMA's sem_increment equals num_queues of the queue set that carries it"},
    {"sbuf_reservation_untouched", "PROJ-CONV-G3",
     "no SBUF byte a word reads or writes lies in the runtime's runtime_statebuffer_reservation"},
    {"psum_access_one_bank", "PROJ-CONV-G4", "every PSUM operand stays inside one PSUM bank of each partition"},
    {"sem_wait_reachable", "PROJ-CONV-G8",
     "a semaphore wait with an immediate comparand asks for a value the subgraph's raises of that semaphore can "
     "reach: its largest write plus every increment, add and DMA completion (judged where no stream of the "
     "subgraph branches and nothing lowers the semaphore or raises it by a register's value)"},
}};
enum : size_t {
  kOperandExists,
  kSrcInVar,
  kDstInVar,
  kQueueOwned,
  kSemIncrement,
  kReservation,
  kPsumBank,
  kWaitReachable
};

// PSEUDO_ADDR8 modes (real-programs.md §2.4): the base kinds, with the register-pair and move bits cleared.
constexpr uint8_t kModeVarId = 0x10, kModeDgeImm = 0x20, kModeDgeReg = 0x28;
constexpr uint8_t kModeFlagBits = 0x04 | 0x40;
constexpr uint8_t kOffsetRegPresent = 0x80;  // src/dst_offset_reg bit 7: a register adds to the offset
// Beyond this many chunks an SBUF DMA operand is checked at its four corner chunks only (docs/neff.md).
constexpr uint64_t kMaxWalkedChunks = uint64_t{1} << 20;

struct Ctx {
  const Subgraph& sg;
  Generation gen;
  size_t stream;
  const std::string& stream_label;  // "sg00/Pool"
  size_t word;
  std::vector<ProgramFailure>& out;

  void fail(size_t predicate, std::string message) const {
    out.push_back(
        {&kPredicates[predicate], stream, word, fmt::format("{}#{}", stream_label, word), std::move(message)});
  }
};

std::string hex(uint64_t v) {
  return fmt::format("{:#x}", v);
}

// ---- on-chip footprints: the operands each family declares (family::footprint) ----

using OnChip = family::OnChipOperand;

std::string range_text(const OnChip& f) {
  return fmt::format("{} partitions {}..{} bytes {}..{}", f.region == Region::Sbuf ? "SBUF" : "PSUM", f.first_partition,
                     f.first_partition + f.partitions - 1, hex(static_cast<uint64_t>(f.first)),
                     hex(static_cast<uint64_t>(f.last)));
}

/// The reservation an SBUF footprint overlaps, if any.
const SbufReservation* overlapped(const Subgraph& sg, uint32_t p0, uint32_t parts, int64_t first, int64_t last) {
  for (const SbufReservation& r : sg.sbuf_reservations) {
    const bool partitions = p0 < uint64_t{r.base_partition} + r.partitions && r.base_partition < uint64_t{p0} + parts;
    const bool bytes = first < static_cast<int64_t>(r.offset + r.size) && static_cast<int64_t>(r.offset) <= last;
    if (partitions && bytes && r.size > 0 && r.partitions > 0) return &r;
  }
  return nullptr;
}

std::string reservation_text(const SbufReservation& r) {
  return fmt::format("the runtime's reservation{} (partitions {}..{}, bytes {}..{})",
                     r.type.empty() ? "" : fmt::format(" '{}'", r.type), r.base_partition,
                     r.base_partition + r.partitions - 1, hex(r.offset), hex(r.offset + r.size - 1));
}

void check_on_chip(const Ctx& c, const OnChip& f) {
  if (f.partitions == 0) return;
  if (f.region == Region::Sbuf) {
    if (const SbufReservation* r = overlapped(c.sg, f.first_partition, f.partitions, f.first, f.last))
      c.fail(kReservation, fmt::format("{}: {} touches {}", f.operand, range_text(f), reservation_text(*r)));
  } else if (f.region == Region::Psum) {
    const int64_t bank = geometry(c.gen).psum_bank_size;
    if (f.first < 0 || f.first / bank != f.last / bank)
      c.fail(kPsumBank, fmt::format("{}: {} spans PSUM banks {}..{} (a bank is {} bytes)", f.operand, range_text(f),
                                    f.first / bank, f.last / bank, bank));
  }
}

// ---- DMA words ----

/// What a PSEUDO_ADDR8 operand resolves to: the variable, or why it names none.
struct Resolved {
  const Variable* var = nullptr;
  std::string what;  // "var 2 'y'", "dge-table 'DGETable0' entry 1 -> var 2 'y'"
  std::string problem;
};

Resolved resolve(const Subgraph& sg, const PseudoAddr8& a) {
  Resolved r;
  const uint32_t id = uint32_t{a.id} | (uint32_t{a.id_hi} << 16);
  const uint8_t kind = static_cast<uint8_t>(a.mode & ~kModeFlagBits);
  if (kind == kModeVarId) {
    r.var = sg.variable(id);
    r.what = r.var != nullptr ? fmt::format("var {} '{}'", id, r.var->name) : fmt::format("var {}", id);
    if (r.var == nullptr) r.problem = fmt::format("var_id {} is not a variable of {}", id, sg.name);
  } else if (kind == kModeDgeImm || kind == kModeDgeReg) {
    const Variable* table = sg.dge_table();
    if (table == nullptr) {
      r.problem = fmt::format("dge-table entry {}, but {} declares no dge-table variable", id, sg.name);
      return r;
    }
    if (id >= table->list.size()) {
      r.problem = fmt::format("dge-table '{}' has {} entries, not an entry {}", table->name, table->list.size(), id);
      return r;
    }
    r.var = sg.variable(table->list[id]);  // the reader checks every entry names a variable
    r.what = fmt::format("dge-table '{}' entry {} -> var {} '{}'", table->name, id, table->list[id],
                         r.var != nullptr ? r.var->name : "?");
  } else {
    return r;  // an unknown mode: is_valid_pseudo_dma_direct2d reports it per word
  }
  if (r.var != nullptr && r.var->type != VarType::StateBuffer && !r.var->size)
    r.problem = fmt::format("{} is a {} variable and holds no data", r.what, r.var->type_name);
  return r;
}

/// One DMA operand as the walk reads it: start offset, byte steps, counts and the chunk size.
struct DmaSide {
  std::string_view name;  // "src", "dst"
  const PseudoAddr8& addr;
  std::array<int32_t, 2> step;
  std::array<uint16_t, 2> num;
  uint64_t chunk;  // esz: 0 means 65 536
  bool offset_reg;
};

/// The range [lo, hi) of the walk's bytes relative to the variable (hull of the affine walk; exact bounds).
std::pair<int64_t, int64_t> dma_hull(const DmaSide& s) {
  int64_t lo = int64_t{s.addr.offset}, hi = int64_t{s.addr.offset};  // the 32-bit offset, zero-extended
  for (size_t k = 0; k < 2; ++k) {
    const int64_t reach = int64_t{s.step[k]} * (s.num[k] == 0 ? 0 : s.num[k] - 1);
    (reach < 0 ? lo : hi) += reach;
  }
  return {lo, hi + static_cast<int64_t>(s.chunk)};
}

/// An SBUF operand (the state-buffer variable, PartitionOffsets): every chunk lies in the active bytes of one
/// existing partition, and none touches the runtime's reservation.
void check_state_buffer(const Ctx& c, const DmaSide& s, size_t range_predicate, const std::string& what) {
  const Geometry& g = geometry(c.gen);
  const uint64_t chunks = uint64_t{s.num[0]} * s.num[1];
  const bool walk_all = chunks <= kMaxWalkedChunks;
  const SbufReservation* hit = nullptr;
  int64_t hit_at = 0;
  auto chunk = [&](uint32_t j0, uint32_t j1) {
    const int64_t a = int64_t{s.addr.offset} + int64_t{s.step[0]} * j0 + int64_t{s.step[1]} * j1;
    const int64_t end = a + static_cast<int64_t>(s.chunk);
    const int64_t stride = g.sbuf_partition_size;
    const int64_t partition = a >= 0 ? a / stride : -1;
    const int64_t byte = a >= 0 ? a % stride : 0;
    if (a < 0 || partition >= g.sbuf_partitions || byte + static_cast<int64_t>(s.chunk) > g.sbuf_partition_active) {
      c.fail(range_predicate,
             fmt::format("{} {}: chunk ({}, {}) at {}..{} leaves SBUF (partitions 0..{}, active bytes 0..{} of each)",
                         s.name, what, j0, j1, hex(static_cast<uint64_t>(a)), hex(static_cast<uint64_t>(end - 1)),
                         g.sbuf_partitions - 1, hex(g.sbuf_partition_active - 1)));
      return false;
    }
    if (hit == nullptr)
      if (const SbufReservation* r =
              overlapped(c.sg, static_cast<uint32_t>(partition), 1, byte, byte + static_cast<int64_t>(s.chunk) - 1)) {
        hit = r;
        hit_at = a;
      }
    return true;
  };
  if (walk_all) {
    for (uint32_t j1 = 0; j1 < s.num[1]; ++j1)
      for (uint32_t j0 = 0; j0 < s.num[0]; ++j0)
        if (!chunk(j0, j1)) return;
  } else {
    for (uint32_t j1 : {0U, s.num[1] - 1U})
      for (uint32_t j0 : {0U, s.num[0] - 1U})
        if (!chunk(j0, j1)) return;
  }
  if (hit != nullptr) {
    const int64_t stride = g.sbuf_partition_size;
    c.fail(kReservation,
           fmt::format("{} {}: the chunk at partition {} bytes {}..{} touches {}", s.name, what, hit_at / stride,
                       hex(static_cast<uint64_t>(hit_at % stride)),
                       hex(static_cast<uint64_t>(hit_at % stride) + s.chunk - 1), reservation_text(*hit)));
  }
}

void check_dma_side(const Ctx& c, const DmaSide& s, size_t range_predicate) {
  const Resolved r = resolve(c.sg, s.addr);
  if (!r.problem.empty()) {
    c.fail(kOperandExists, fmt::format("{}: {}", s.name, r.problem));
    return;
  }
  if (r.var == nullptr || s.offset_reg || s.num[0] == 0 || s.num[1] == 0) return;  // placed at run time, or empty
  if (r.var->type == VarType::StateBuffer) {
    check_state_buffer(c, s, range_predicate, r.what);
    return;
  }
  const auto [lo, hi] = dma_hull(s);
  const uint64_t size = *r.var->size;
  if (lo < 0 || static_cast<uint64_t>(hi) > size)
    c.fail(range_predicate,
           fmt::format("{} {} ({} bytes): the transfer {} bytes {}..{}, outside 0..{}", s.name, r.what, size,
                       range_predicate == kSrcInVar ? "reads" : "writes",
                       lo < 0 ? fmt::format("-{:#x}", static_cast<uint64_t>(-lo)) : hex(static_cast<uint64_t>(lo)),
                       hex(static_cast<uint64_t>(hi - 1)), hex(size == 0 ? 0 : size - 1)));
}

void check_queue_set(const Ctx& c, const PseudoDmaDirect2d& d, Engine issuer) {
  const QueueSet* owned = nullptr;
  std::vector<std::string> holders;
  for (const QueueSet& q : c.sg.queue_sets) {
    if (std::find(q.semaphores.begin(), q.semaphores.end(), d.semaphore) == q.semaphores.end()) continue;
    holders.push_back(fmt::format("'{}' (owner {})", q.name, q.owner));
    if (q.owner_engine == issuer && owned == nullptr) owned = &q;
  }
  if (owned == nullptr) {
    c.fail(kQueueOwned, holders.empty()
                            ? fmt::format("completion semaphore {} is in no queue set of {}", d.semaphore, c.sg.name)
                            : fmt::format("completion semaphore {} is in {}, not in a queue set {} owns", d.semaphore,
                                          fmt::join(holders, ", "), engine_key(issuer)));
    return;
  }
  if (d.sem_increment != owned->num_queues)
    c.fail(kSemIncrement, fmt::format("sem_increment {} on semaphore {}, but queue set '{}' has num_queues {}",
                                      d.sem_increment, d.semaphore, owned->name, owned->num_queues));
}

void check_dma(const Ctx& c, const PseudoDmaDirect2d& d, Engine issuer) {
  const auto chunk = [](uint16_t esz) { return esz == 0 ? uint64_t{65536} : uint64_t{esz}; };
  check_dma_side(
      c, {"src", d.src, d.src_step, d.src_num, chunk(d.src_elem_size), (d.src_offset_reg & kOffsetRegPresent) != 0},
      kSrcInVar);
  check_dma_side(
      c, {"dst", d.dst, d.dst_step, d.dst_num, chunk(d.dst_elem_size), (d.dst_offset_reg & kOffsetRegPresent) != 0},
      kDstInVar);
  check_queue_set(c, d, issuer);
}

std::string variable_text(const Variable& v) {
  if (v.type == VarType::StateBuffer)
    return fmt::format("'{}' (state-buffer: SBUF, offsets are PartitionOffsets)", v.name);
  return v.size ? fmt::format("'{}' ({}, {} bytes)", v.name, v.type_name, *v.size)
                : fmt::format("'{}' ({})", v.name, v.type_name);
}

std::string offset_text(const Variable& v, uint32_t offset, bool reg, Generation g) {
  const std::string plus_reg = reg ? " + a register (offset register byte set)" : "";
  if (v.type != VarType::StateBuffer) return fmt::format("byte {} of '{}'{}", hex(offset), v.name, plus_reg);
  const uint32_t stride = geometry(g).sbuf_partition_size;
  return fmt::format("SBUF partition {} byte {}{}", offset / stride, hex(offset % stride), plus_reg);
}

}  // namespace

const Subgraph* Neff::subgraph(std::string_view name) const {
  for (const Subgraph& sg : subgraphs)
    if (sg.name == name) return &sg;
  return nullptr;
}

std::vector<VariableNote> variable_notes(const Subgraph& sg, const Instruction& inst) {
  std::vector<VariableNote> out;
  const auto* d = inst.as<PseudoDmaDirect2d>();
  if (d == nullptr) return out;
  const auto side = [&](std::string_view name, const PseudoAddr8& a, uint8_t offset_reg) {
    const Resolved r = resolve(sg, a);
    if (r.var == nullptr && r.problem.empty()) return;  // a mode that names no variable
    out.push_back({fmt::format("{}.id", name),
                   r.var != nullptr ? fmt::format("{} {}", r.what.substr(0, r.what.rfind(" '")), variable_text(*r.var))
                                    : r.problem});
    if (r.var != nullptr)
      out.push_back({fmt::format("{}.offset", name),
                     offset_text(*r.var, a.offset, (offset_reg & kOffsetRegPresent) != 0, inst.gen)});
  };
  side("src", d->src, d->src_offset_reg);
  side("dst", d->dst, d->dst_offset_reg);
  return out;
}

std::vector<std::string> dma_endpoints(const Subgraph& sg, const Instruction& inst) {
  std::vector<std::string> out;
  const auto* d = inst.as<PseudoDmaDirect2d>();
  if (d == nullptr) return out;
  const auto side = [&](const PseudoAddr8& a, uint8_t offset_reg) {
    const Resolved r = resolve(sg, a);
    const std::string reg = (offset_reg & kOffsetRegPresent) != 0 ? "+reg" : "";
    if (r.var == nullptr) return "?" + reg;
    if (r.var->type != VarType::StateBuffer) return fmt::format("{}+{}{}", r.var->name, hex(a.offset), reg);
    const uint32_t stride = geometry(inst.gen).sbuf_partition_size;
    return fmt::format("sbuf[p{}]+{}{}", a.offset / stride, hex(a.offset % stride), reg);
  };
  out.push_back(side(d->src, d->src_offset_reg));
  out.push_back(side(d->dst, d->dst_offset_reg));
  return out;
}

namespace {

// ---- semaphore waits no raise can satisfy ----

/// The highest value the raises of one semaphore can give it, when the picture bounds it: every increment, add
/// and DMA completion once (no stream branches) on top of the largest write. nullopt when an update lowers it
/// (modular: a lowering from 0 wraps to the top), takes its operand from a register, or the sum passes 32 bits.
std::optional<uint64_t> highest_reachable(const SemaphoreUses& uses) {
  uint64_t raised = 0, written = 0;
  for (const SemUse& u : uses.increments) {
    if (u.kind == SemUse::Kind::DmaCompletion) {
      raised += u.value;
      continue;
    }
    const UpdateModeInfo* m = update_mode_info(u.mode);
    if (m == nullptr || (m->operand != ModeOperand::None && m->operand != ModeOperand::Immediate)) return std::nullopt;
    switch (m->action) {
      case UpdateAction::Increment: raised += 1; break;
      case UpdateAction::Add: raised += u.value; break;
      case UpdateAction::Write: written = std::max<uint64_t>(written, u.value); break;
      default: return std::nullopt;
    }
  }
  const uint64_t top = raised + written;
  if (top > UINT32_MAX) return std::nullopt;
  return top;
}

/// Every semaphore wait of `sg` whose immediate comparand no raise of the picture reaches, as failures of the
/// waiting words; `first_stream` is the index of the subgraph's first stream in Neff::streams().
void check_waits(const Subgraph& sg, const SubgraphSems& picture, size_t first_stream,
                 std::vector<ProgramFailure>& out) {
  if (picture.branches) return;  // a loop may repeat the raises: the waits are not judged
  for (const SemaphoreUses& uses : picture.semaphores) {
    const std::optional<uint64_t> top = highest_reachable(uses);
    if (!top) continue;
    for (const SemUse& w : uses.waits) {
      const WaitModeInfo* m = wait_mode_info(w.mode);
      if (m == nullptr || m->operand != ModeOperand::Immediate) continue;
      const bool never = (m->comparator == Comparator::Ge || m->comparator == Comparator::Eq) ? *top < w.value
                         : m->comparator == Comparator::Gt                                    ? *top <= w.value
                                                                                              : false;
      if (!never) continue;
      size_t stream = first_stream;
      for (const EngineDef& e : sg.engines) {
        if (e.stream.label() == w.stream) break;
        ++stream;
      }
      out.push_back({&kPredicates[kWaitReachable], stream, w.word, fmt::format("{}#{}", w.stream, w.word),
                     fmt::format("{} can never hold: the raises of $S[{}] reach at most {} ({} word{} raise{} it)",
                                 w.text, uses.index, *top, uses.increments.size(),
                                 uses.increments.size() == 1 ? "" : "s", uses.increments.size() == 1 ? "s" : "")});
    }
  }
}

}  // namespace

std::span<const ProgramPredicate> program_predicates() {
  return kPredicates;
}

namespace {

/// Words [first, last) of one stream, checked in order into `out`.
struct WordRange {
  const Subgraph* sg;
  const Stream* stream;
  size_t stream_index;
  const std::string* label;
  size_t first, last;
};

void check_range(const WordRange& r, Generation gen, std::vector<ProgramFailure>& out) {
  const Stream& s = *r.stream;
  bool failed_last = false;
  for (size_t i = r.first; i < r.last; ++i) {
    // The checks read the word and its subgraph alone: a word like the one before it, which passed them, passes
    // them too (a stream of Nops, a repeated transfer).
    const size_t before = out.size();
    if (i > r.first && std::equal(s.word(i).begin(), s.word(i).end(), s.word(i - 1).begin()) && !failed_last) continue;
    const Ctx c{*r.sg, gen, r.stream_index, *r.label, i, out};
    const Instruction inst = decode(s.word(i), gen);
    if (const auto* d = inst.as<PseudoDmaDirect2d>()) check_dma(c, *d, s.engine);
    const family::Footprint footprint = family::footprint(inst, gen);
    for (const OnChip& f : footprint.all()) check_on_chip(c, f);
    failed_last = out.size() != before;
  }
}

/// Programs of fewer words are checked on the calling thread alone.
constexpr size_t kParallelCheckWords = size_t{1} << 16;
constexpr unsigned kMaxCheckThreads = 16;

}  // namespace

std::vector<ProgramFailure> check_program(const Neff& neff, Generation gen) {
  std::vector<std::string> labels;
  size_t words = 0;
  for (const Subgraph& sg : neff.subgraphs)
    for (const EngineDef& e : sg.engines) {
      labels.push_back(e.stream.label());
      words += e.stream.word_count();
    }
  // Each word's checks read that word and its subgraph alone: ranges of words checked apart and joined in order
  // give the failures of one pass. A large program is split into a part per thread of oneTBB's arena, checked as
  // tasks of it.
  const unsigned threads =
      words < kParallelCheckWords
          ? 1U
          : std::clamp(static_cast<unsigned>(tbb::this_task_arena::max_concurrency()), 1U, kMaxCheckThreads);
  const size_t per = (words + threads - 1) / threads;
  std::vector<std::vector<WordRange>> parts(threads);
  size_t stream = 0, at = 0;
  for (const Subgraph& sg : neff.subgraphs)
    for (const EngineDef& e : sg.engines) {
      for (size_t i = 0; i < e.stream.word_count();) {
        const size_t part = std::min<size_t>(at / std::max<size_t>(per, 1), threads - 1);
        const size_t n = std::min(e.stream.word_count() - i, (part + 1) * per - at);
        parts[part].push_back({&sg, &e.stream, stream, &labels[stream], i, i + std::max<size_t>(n, 1)});
        i += std::max<size_t>(n, 1);
        at += std::max<size_t>(n, 1);
      }
      ++stream;
    }
  std::vector<std::vector<ProgramFailure>> found(threads);
  const auto check_part = [&](size_t p) {
    for (const WordRange& r : parts[p]) check_range(r, gen, found[p]);
  };
  if (threads == 1)
    check_part(0);
  else
    tbb::parallel_for(size_t{0}, size_t{threads}, check_part);
  std::vector<ProgramFailure> out = std::move(found[0]);
  for (size_t p = 1; p < threads; ++p)
    out.insert(out.end(), std::make_move_iterator(found[p].begin()), std::make_move_iterator(found[p].end()));
  // The never-met wait check, per subgraph, after the word checks; then failures in stream then word order.
  const std::vector<SubgraphSems> picture = semaphore_picture(neff, gen);
  size_t first_stream = 0;
  for (size_t k = 0; k < neff.subgraphs.size(); ++k) {
    if (k < picture.size()) check_waits(neff.subgraphs[k], picture[k], first_stream, out);
    first_stream += neff.subgraphs[k].engines.size();
  }
  std::stable_sort(out.begin(), out.end(), [](const ProgramFailure& a, const ProgramFailure& b) {
    return std::tie(a.stream, a.word) < std::tie(b.stream, b.word);
  });
  return out;
}

}  // namespace tpbisa::neff
