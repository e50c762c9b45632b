// The program-level checks of a NEFF (docs/neff.md "Program checks"): one accepting and one rejecting case each.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <oneapi/tbb/task_arena.h>
#include <nlohmann/json.hpp>

#include "tpbisa/describe.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/neff_run.hpp"

namespace tpbisa {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<uint8_t> bytes_of(const std::string& s) {
  return {s.begin(), s.end()};
}

/// A DMA from `src` to `dst` (PSEUDO_ADDR8 var ids, mode 0x10 unless given), 2 chunks of 256 bytes each side.
PseudoDmaDirect2d dma(uint8_t sem, uint8_t inc) {
  PseudoDmaDirect2d d;
  d.header.opcode = 0xD4;
  d.header.inst_word_len = 16;
  d.semaphore = sem;
  d.sem_increment = inc;
  d.src = {0, 1, 0, 0x10};  // x, offset 0
  d.src_step = {256, 0};
  d.src_num = {2, 1};
  d.src_elem_size = 256;
  d.dst = {0x100, 0, 0, 0x10};  // SB partition 0, byte 0x100
  d.dst_step = {0x40000, 0};    // partitions 0 and 1
  d.dst_num = {2, 1};
  d.dst_elem_size = 256;
  d.src_dtype = d.dst_dtype = 0x07;  // FP16
  return d;
}

/// A COPY (S4D4_TR) of 4 FP32 elements per partition on 2 partitions, src and dst given as partition offsets.
S4d4Tr copy(uint32_t src, uint32_t dst, uint16_t n) {
  S4d4Tr c;
  c.header.opcode = 0x46;
  c.header.inst_word_len = 16;
  c.in_dtype = c.out_dtype = 0x0A;  // FP32
  c.num_active_channels = 2;
  for (Tensor4d* t : {&c.src, &c.dst}) {
    t->step_elem = {1, 0, 0, 0};
    t->num_elem = {n, 1, 1, 1};
  }
  c.src.start_addr.raw = src;
  c.dst.start_addr.raw = dst;
  return c;
}

template <class S>
std::vector<uint8_t> word_of(const S& s) {
  const Word w = encode(s);
  return {w.begin(), w.end()};
}

json definition() {
  json d = json::parse(R"({
    "version": "0.6", "sp": "SP.json", "sp_instr": "SP.bin", "act": "Activation.json", "act_instr": "Activation.bin",
    "var": {"SB": {"type": "state-buffer", "var_id": 0}, "x": {"type": "input", "var_id": 1, "size": 512},
            "out": {"type": "output", "var_id": 2, "size": 256}, "DGETable0": {"type": "dge-table", "var_id": 4, "list": [1, 2]}},
    "dma_queue": {"qSPDynamicHW": {"type": "dynamic", "owner": "sp", "num_queues": 16, "semaphore_set": [8, 9, 10]},
                  "qPoolDynamic": {"type": "dynamic", "owner": "pool", "num_queues": 16, "semaphore_set": [24, 25]}},
    "runtime_statebuffer_reservation": [{"base_partition": 0, "offset": 229368, "partitions": 128, "size": 8,
                                         "type": "evtaccel"}]})");
  return d;
}

/// A one-subgraph CAYMAN NEFF whose SP stream is `sp` and Activation stream `act`, packed and read back.
neff::Neff make_neff(const std::vector<uint8_t>& sp, const std::vector<uint8_t>& act = {}, json def = definition()) {
  std::vector<neff::PackMember> m;
  m.push_back({"kelf-0.json", bytes_of(R"({"graphs": [{"definition": "sg00/def.json", "name": "sg00"}], )"
                                       R"("target": "cayman"})")});
  m.push_back({"sg00/def.json", bytes_of(def.dump())});
  m.push_back({"sg00/SP.json", bytes_of("{}")});
  m.push_back({"sg00/SP.bin", sp});
  m.push_back({"sg00/Activation.json", bytes_of("{}")});
  m.push_back({"sg00/Activation.bin", act});
  auto packed = neff::pack(m, neff::PackOptions{});
  EXPECT_TRUE(packed.ok()) << packed.error().to_string();
  auto n = neff::read(*packed, "t.neff");
  EXPECT_TRUE(n.ok()) << n.error().to_string();
  return std::move(*n);
}

/// The names of the predicates that fail.
std::multiset<std::string> failing(const neff::Neff& n) {
  std::multiset<std::string> out;
  for (const auto& f : neff::check_program(n, Generation::Cayman)) out.insert(std::string(f.predicate->name));
  return out;
}

std::string messages(const neff::Neff& n) {
  std::string out;
  for (const auto& f : neff::check_program(n, Generation::Cayman)) out += f.label + ": " + f.message + "\n";
  return out;
}

// A run reports the reservations the program wrote. Their offsets and sizes are the program's numbers (the reader
// bounds only the partitions): a reservation of size 2^64 - 1 is looked at where the SBUF has bytes (CAYMAN: 224 KiB
// active per partition, so 0x37ff8..0x37fff), without wrapping or walking 2^64 bytes, and one at an offset past them
// or starting past the partitions names nothing.
TEST(NeffRunReservations, HugeDeclaredSizesAreBoundedByTheSbuf) {
  json def = definition();
  def["runtime_statebuffer_reservation"] = json::parse(R"([
    {"base_partition": 2, "offset": 229368, "partitions": 128, "size": 18446744073709551615, "type": "huge"},
    {"base_partition": 0, "offset": 18446744073709551615, "partitions": 128, "size": 8, "type": "far"},
    {"base_partition": 128, "offset": 0, "partitions": 4, "size": 8, "type": "past"},
    {"base_partition": 0, "offset": 229368, "partitions": 2, "size": 8, "type": "evtaccel"}])");
  def["var"].erase("x");  // no input to bind (the helper's NEFF has no signature), nor a table naming it
  def["var"].erase("DGETable0");
  const neff::Neff n = make_neff({}, {}, def);
  std::string error;
  const auto run = neff::Run::create(n, {}, MachineOptions{}, error);  // the helper's NEFF has no signature
  ASSERT_NE(run, nullptr) << error;
  EXPECT_TRUE(run->reservation_violations().empty());
  // Partition 3, the reservation's last byte (0x37fff), and partition 1's first reserved byte (0x37ff8); the
  // partitions' stride is 256 KiB from SBUF address 0.
  SparseMemory& mem = run->machine().core(0).state().memory;
  ASSERT_TRUE(mem.write(3 * 0x40000 + 0x37FFF, 1, 1));
  ASSERT_TRUE(mem.write(1 * 0x40000 + 0x37FF8, 1, 1));
  ASSERT_TRUE(mem.write(5 * 0x40000 + 0x37FF7, 1, 1));  // just before the reservation: not in it
  EXPECT_EQ(run->reservation_violations(),
            (std::vector<std::string>{"core 0: SBUF partition 3 bytes 0x37ff8..0x37fff (huge) written",
                                      "core 0: SBUF partition 1 bytes 0x37ff8..0x37fff (evtaccel) written"}));
}

TEST(NeffProgramChecks, TheGoodProgramPassesEveryCheck) {
  const neff::Neff n = make_neff(word_of(dma(8, 16)), word_of(copy(0x1000, 0x2000000 + 0x800, 4)));
  ASSERT_EQ(n.subgraphs.size(), 1U);
  ASSERT_EQ(n.subgraphs[0].sbuf_reservations.size(), 1U);
  EXPECT_EQ(n.subgraphs[0].sbuf_reservations[0].offset, 229368U);
  EXPECT_TRUE(failing(n).empty()) << messages(n);
}

TEST(NeffProgramChecks, DmaOperandExists) {
  PseudoDmaDirect2d d = dma(8, 16);
  d.src.id = 7;  // no var 7
  EXPECT_EQ(failing(make_neff(word_of(d))), std::multiset<std::string>{"dma_operand_exists"});
  d = dma(8, 16);
  d.src = {0, 1, 0, 0x20};  // DGE entry 1 -> out (256 bytes): 512 read bytes leave it
  EXPECT_EQ(failing(make_neff(word_of(d))), std::multiset<std::string>{"dma_src_in_variable"});
  d.src.id = 0;  // entry 0 -> x: fits
  EXPECT_TRUE(failing(make_neff(word_of(d))).empty());
  d.src.id = 2;  // the table has 2 entries
  const neff::Neff n = make_neff(word_of(d));
  EXPECT_EQ(failing(n), std::multiset<std::string>{"dma_operand_exists"});
  EXPECT_NE(messages(n).find("sg00/SP#0: src: dge-table 'DGETable0' has 2 entries, not an entry 2"), std::string::npos)
      << messages(n);
  d.src = {0, 4, 0, 0x10};  // the dge-table variable itself holds no data
  EXPECT_EQ(failing(make_neff(word_of(d))), std::multiset<std::string>{"dma_operand_exists"});
}

TEST(NeffProgramChecks, DmaRangesInsideTheirVariables) {
  PseudoDmaDirect2d d = dma(8, 16);
  d.src.offset = 1;  // bytes 1..512 of a 512-byte variable
  const neff::Neff n = make_neff(word_of(d));
  EXPECT_EQ(failing(n), std::multiset<std::string>{"dma_src_in_variable"});
  EXPECT_NE(messages(n).find("src var 1 'x' (512 bytes): the transfer reads bytes 0x1..0x200, outside 0..0x1ff"),
            std::string::npos)
      << messages(n);
  // 64-bit arithmetic: an offset near 2^32 plus a step does not wrap back inside the variable.
  d = dma(8, 16);
  d.src.offset = 0xFFFFFF00U;
  EXPECT_EQ(failing(make_neff(word_of(d))), std::multiset<std::string>{"dma_src_in_variable"});
  d = dma(8, 16);
  d.dst.offset = 127U * 0x40000 + 0x100;  // partitions 127 and 128: the second does not exist
  EXPECT_EQ(failing(make_neff(word_of(d))), std::multiset<std::string>{"dma_dst_in_variable"});
  d = dma(8, 16);
  d.dst.offset = 0x37F00 + 0x80;  // ends past the 0x38000 active bytes of a partition
  EXPECT_EQ(failing(make_neff(word_of(d))), std::multiset<std::string>{"dma_dst_in_variable"});
  d = dma(8, 16);
  d.dst_offset_reg = 0x85;  // a register adds to the offset: placed at run time, not judged
  d.dst.offset = 0x37F00 + 0x80;
  EXPECT_TRUE(failing(make_neff(word_of(d))).empty());
}

TEST(NeffProgramChecks, QueueSetOwnerAndIncrement) {
  const neff::Neff n = make_neff(word_of(dma(24, 16)));  // SP raises a semaphore of qPoolDynamic (owner pool)
  EXPECT_EQ(failing(n), std::multiset<std::string>{"dma_queue_set_owned"});
  EXPECT_NE(messages(n).find("completion semaphore 24 is in 'qPoolDynamic' (owner pool), not in a queue set sp owns"),
            std::string::npos)
      << messages(n);
  EXPECT_EQ(failing(make_neff(word_of(dma(99, 16)))), std::multiset<std::string>{"dma_queue_set_owned"});
  EXPECT_EQ(failing(make_neff(word_of(dma(9, 1)))), std::multiset<std::string>{"dma_sem_increment_num_queues"});
}

TEST(NeffProgramChecks, SbufReservationUntouched) {
  PseudoDmaDirect2d d = dma(8, 16);
  d.dst.offset = 0x37F00;  // bytes 0x37f00..0x37fff: inside SBUF, over the reservation at 0x37ff8
  neff::Neff n = make_neff(word_of(d));
  EXPECT_EQ(failing(n), std::multiset<std::string>{"sbuf_reservation_untouched"});
  EXPECT_NE(
      messages(n).find("touches the runtime's reservation 'evtaccel' (partitions 0..127, bytes 0x37ff8..0x37fff)"),
      std::string::npos)
      << messages(n);
  // A datapath operand too: COPY writing 4 FP32 at 0x37ff0 of partitions 0-1 reaches 0x37fff.
  n = make_neff(word_of(dma(8, 16)), word_of(copy(0x1000, 0x37FF0, 4)));
  EXPECT_EQ(failing(n), std::multiset<std::string>{"sbuf_reservation_untouched"});
  // Without a reservation in def.json nothing is reserved.
  json def = definition();
  def.erase("runtime_statebuffer_reservation");
  EXPECT_TRUE(failing(make_neff(word_of(d), word_of(copy(0x1000, 0x37FF0, 4)), def)).empty());
}

// A program large enough to be checked in parts on oneTBB's threads (2^16 words and more): the failures, their order
// and their messages are those of one pass, whatever the number of threads the checks may use.
TEST(NeffProgramChecks, LargeProgramsGiveTheSameFailuresOnAnyNumberOfThreads) {
  PseudoDmaDirect2d bad = dma(8, 16);
  bad.src.offset = 1;  // dma_src_in_variable
  const std::vector<uint8_t> good_dma = word_of(dma(8, 16)), bad_dma = word_of(bad);
  const std::vector<uint8_t> good_copy = word_of(copy(0x1000, 0x2000800, 4)),
                             bad_copy = word_of(copy(0x1000, 0x37FF0, 4));  // sbuf_reservation_untouched
  std::vector<uint8_t> sp, act;
  for (size_t i = 0; i < 40000; ++i) {
    // Runs of equal words (a word like the one before it is not checked again) broken by failing ones.
    const std::vector<uint8_t>& w = i % 997 == 0 || i % 5003 == 1 ? bad_dma : good_dma;
    sp.insert(sp.end(), w.begin(), w.end());
    const std::vector<uint8_t>& c = i % 1009 == 3 || (i >= 20000 && i < 20004) ? bad_copy : good_copy;
    act.insert(act.end(), c.begin(), c.end());
  }
  const neff::Neff n = make_neff(sp, act);
  const auto listed = [&n] {
    std::vector<std::string> out;
    for (const auto& f : neff::check_program(n, Generation::Cayman))
      out.push_back(fmt::format("{} {} {} {}", f.stream, f.word, f.predicate->name, f.message));
    return out;
  };
  std::vector<std::string> one;
  tbb::task_arena(1).execute([&] { one = listed(); });
  // SP: i % 997 == 0 (41 words) or i % 5003 == 1 (8); Activation: i % 1009 == 3 (40) and 20000..20003 (4).
  ASSERT_EQ(one.size(), 93U);
  for (const int threads : {2, 3, 7, 16}) {
    std::vector<std::string> many;
    tbb::task_arena(threads).execute([&] { many = listed(); });
    EXPECT_EQ(many, one) << threads << " threads";
  }
}

// The semaphore picture of a program large enough for its ranges to run on threads, with runs of equal words: every
// transfer that raises a semaphore is listed, in word order, however many equal words precede it, and a run of
// equal words that use none (skipped after the first) adds nothing.
TEST(NeffProgramChecks, SemaphorePictureOfALargeProgramListsEveryUseInOrder) {
  const std::vector<uint8_t> raise = word_of(dma(8, 16)), quiet = word_of(copy(0x1000, 0x2000800, 4));
  std::vector<uint8_t> sp;
  std::vector<size_t> raising;  // the words of SP that raise $S[8], counted here
  for (size_t i = 0; i < 2 * neff::kSemaphorePictureRangeWords + 4099; ++i) {  // past the threshold of threads
    const bool r = (i / 700) % 3 == 1 || i % 4099 == 5;  // runs of 700 raising words, and lone ones among the quiet
    sp.insert(sp.end(), (r ? raise : quiet).begin(), (r ? raise : quiet).end());
    if (r) raising.push_back(i);
  }
  const neff::Neff n = make_neff(sp, quiet);
  for (const size_t range : {neff::kSemaphorePictureRangeWords, size_t{1000}}) {
    const std::vector<neff::SubgraphSems> p = neff::semaphore_picture(n, Generation::Cayman, range);
    ASSERT_EQ(p.size(), 1U);
    ASSERT_EQ(p[0].semaphores.size(), 1U) << range;
    const neff::SemaphoreUses& s8 = p[0].semaphores[0];
    EXPECT_EQ(s8.index, 8U);
    EXPECT_TRUE(s8.waits.empty());
    std::vector<size_t> listed;
    for (const neff::SemUse& u : s8.increments) {
      EXPECT_EQ(u.stream, "sg00/SP");
      EXPECT_EQ(u.kind, neff::SemUse::Kind::DmaCompletion);
      listed.push_back(u.word);
    }
    EXPECT_EQ(listed, raising) << range;
  }
}

// sem_wait_reachable (PROJ-CONV-G8): a wait above every raise fails; a subgraph with a branch word (here a
// COMPARE_BRANCH 0xa9 opcode byte, in any stream) is not judged, since a loop may repeat its raises.
TEST(NeffProgramChecks, WaitsAboveEveryRaiseFailUnlessTheSubgraphBranches) {
  S4d4Tr waiting = copy(0x1000, 0x2000800, 4);
  waiting.events.wait_mode = 0x05;  // SEM_GE_IMM: $S[8] >= 17, raised by +16 only
  waiting.events.wait_idx = 8;
  waiting.events.semaphore_value = 17;
  const std::vector<uint8_t> raise = word_of(dma(8, 16)), wait = word_of(waiting);
  EXPECT_EQ(failing(make_neff(raise, wait)), std::multiset<std::string>{"sem_wait_reachable"});
  waiting.events.semaphore_value = 16;  // reachable
  EXPECT_TRUE(failing(make_neff(raise, word_of(waiting))).empty());
  std::vector<uint8_t> act = wait;
  act.resize(2 * kWordBytes, 0);
  act[kWordBytes] = 0xa9;
  EXPECT_TRUE(failing(make_neff(raise, act)).empty()) << messages(make_neff(raise, act));
  act[kWordBytes] = 0xa8;  // not a branch opcode: judged again
  EXPECT_EQ(failing(make_neff(raise, act)).count("sem_wait_reachable"), 1U);
}

TEST(NeffProgramChecks, PsumAccessOneBank) {
  // 4 FP32 elements from PSUM byte 0x7f8: bytes 0x7f8..0x807 cross from bank 0 into bank 1.
  const neff::Neff n = make_neff(word_of(dma(8, 16)), word_of(copy(0x2000000 + 0x7F8, 0x1000, 4)));
  EXPECT_EQ(failing(n), std::multiset<std::string>{"psum_access_one_bank"});
  EXPECT_NE(messages(n).find("sg00/Activation#0: src: PSUM partitions 0..1 bytes 0x7f8..0x807 spans PSUM banks 0..1"),
            std::string::npos)
      << messages(n);
  EXPECT_TRUE(failing(make_neff(word_of(dma(8, 16)), word_of(copy(0x2000000 + 0x7F0, 0x1000, 4)))).empty());
}

// ---- LDWEIGHTS / MATMUL operands, through each generation's layout (real-programs.md §8-§9.6) ----

/// An LDWEIGHTS of layout L: `rows` partitions of 128 FP16 elements from SBUF start `src`.
template <class L>
L ldweights(uint32_t src, uint8_t rows = 128) {
  L w;
  w.header.opcode = 0x01;
  w.header.inst_word_len = 16;
  w.src.start_addr.raw = src;
  w.src.step_elem = {1, 0, 0};
  w.src.num_elem = {128, 1, 1};
  w.in_dtype = 0x07;  // FP16
  w.num_active_rows = rows;
  w.num_active_cols = 128;
  if constexpr (requires { w.row_grp; }) w.row_grp = w.col_grp = 0xF;
  return w;
}

/// A MATMUL of layout L over 128 rows and 128 output partitions: `n` FP16 elements from SBUF start `src` into
/// `n` elements at `dst` (FP32, or FP16 in transpose mode), SINGLE accumulation.
template <class L>
L matmul(uint32_t src, uint32_t dst, uint16_t n, bool transpose = false) {
  L m;
  m.header.opcode = 0x02;
  m.header.inst_word_len = 16;
  m.src.start_addr.raw = src;
  m.dst.start_addr.raw = dst;
  for (Tensor3d* t : {&m.src, &m.dst}) {
    t->step_elem = {1, 0, 0};
    t->num_elem = {n, 1, 1};
  }
  m.in_dtype = 0x07;  // FP16
  m.num_active_rows = 128;
  m.num_active_cols = 128;
  if constexpr (requires { m.row_grp; }) m.row_grp = m.col_grp = 0xF;
  if constexpr (requires { m.transpose_mode; }) m.transpose_mode = transpose ? 1 : 0;
  if constexpr (requires { m.psum_accumulate_flags; })
    m.psum_accumulate_flags = 3;
  else
    m.flags = 3;
  return m;
}

/// A one-subgraph NEFF for `target` whose PE stream is `pe`; the reservation covers partitions `p0`..127.
neff::Neff make_pe_neff(const std::vector<uint8_t>& pe, std::string_view target, uint32_t p0 = 0) {
  json def = definition();
  def["pe"] = "PE.json";
  def["pe_instr"] = "PE.bin";
  def["runtime_statebuffer_reservation"][0]["base_partition"] = p0;
  def["runtime_statebuffer_reservation"][0]["partitions"] = 128 - p0;
  std::vector<neff::PackMember> m;
  m.push_back({"kelf-0.json", bytes_of(fmt::format(R"({{"graphs": [{{"definition": "sg00/def.json", "name": )"
                                                   R"("sg00"}}], "target": "{}"}})",
                                                   target))});
  m.push_back({"sg00/def.json", bytes_of(def.dump())});
  for (const char* f : {"sg00/SP.json", "sg00/Activation.json", "sg00/PE.json"}) m.push_back({f, bytes_of("{}")});
  m.push_back({"sg00/SP.bin", {}});
  m.push_back({"sg00/Activation.bin", {}});
  m.push_back({"sg00/PE.bin", pe});
  auto packed = neff::pack(m, neff::PackOptions{});
  EXPECT_TRUE(packed.ok()) << packed.error().to_string();
  auto n = neff::read(*packed, "t.neff");
  EXPECT_TRUE(n.ok()) << n.error().to_string();
  EXPECT_TRUE(n->generation.has_value()) << target;
  return std::move(*n);
}

/// The words of `parts`, one stream.
template <class... S>
std::vector<uint8_t> stream_of(const S&... parts) {
  std::vector<uint8_t> out;
  (..., [&] {
    const std::vector<uint8_t> w = word_of(parts);
    out.insert(out.end(), w.begin(), w.end());
  }());
  return out;
}

/// The failing predicates and the sentences, judged on the NEFF's own generation.
std::multiset<std::string> failing_on_target(const neff::Neff& n, std::string* text = nullptr) {
  std::multiset<std::string> out;
  for (const auto& f : neff::check_program(n, *n.generation)) {
    out.insert(std::string(f.predicate->name));
    if (text != nullptr) *text += f.label + ": " + f.message + "\n";
  }
  return out;
}

/// SUNDA and CAYMAN share one layout (PROJ-CONV-F19), MARIANA keeps its offsets for these fields: PSUM
/// destinations, one bank; SBUF sources outside the reservation.
template <class Lw, class Mm>
void check_psum_generation(std::string_view target) {
  SCOPED_TRACE(std::string(target));
  constexpr uint32_t kPsumAddr = 0x2000000;
  // 128 FP16 source bytes 0x37c00..0x37cff and 0x37b00..0x37bff; 128 FP32 results at 0x800..0x9ff of bank 1.
  std::string text;
  EXPECT_TRUE(
      failing_on_target(
          make_pe_neff(stream_of(ldweights<Lw>(0x37C00), matmul<Mm>(0x37B00, kPsumAddr + 0x800, 128)), target), &text)
          .empty())
      << text;
  // The stationary tile 0x37f00..0x37fff reaches the runtime's bytes at 0x37ff8; so does the moving one.
  EXPECT_EQ(failing_on_target(make_pe_neff(stream_of(ldweights<Lw>(0x37F00)), target)),
            std::multiset<std::string>{"sbuf_reservation_untouched"});
  text.clear();
  EXPECT_EQ(failing_on_target(make_pe_neff(stream_of(matmul<Mm>(0x37F80, kPsumAddr, 64)), target), &text),
            std::multiset<std::string>{"sbuf_reservation_untouched"});
  EXPECT_NE(text.find("sg00/PE#0: src: SBUF partitions 0..127 bytes 0x37f80..0x37fff touches the runtime's "
                      "reservation 'evtaccel'"),
            std::string::npos)
      << text;
  // num_active_rows is the partition count: 32 rows stay below a reservation of partitions 64..127, 128 do not.
  EXPECT_TRUE(failing_on_target(make_pe_neff(stream_of(ldweights<Lw>(0x37F00, 32)), target, 64)).empty());
  EXPECT_EQ(failing_on_target(make_pe_neff(stream_of(ldweights<Lw>(0x37F00, 128)), target, 64)),
            std::multiset<std::string>{"sbuf_reservation_untouched"});
  // 128 FP32 results from PSUM byte 0x700 end at 0x8ff, in bank 1; in transpose mode they are FP16 (PROJ-CONV-F15)
  // and end at 0x7ff, in bank 0.
  text.clear();
  EXPECT_EQ(failing_on_target(make_pe_neff(stream_of(matmul<Mm>(0x37B00, kPsumAddr + 0x700, 128)), target), &text),
            std::multiset<std::string>{"psum_access_one_bank"});
  EXPECT_NE(text.find("sg00/PE#0: dst: PSUM partitions 0..127 bytes 0x700..0x8ff spans PSUM banks 0..1"),
            std::string::npos)
      << text;
  EXPECT_TRUE(
      failing_on_target(make_pe_neff(stream_of(matmul<Mm>(0x37B00, kPsumAddr + 0x700, 128, true)), target)).empty());
}

TEST(NeffProgramChecks, PeOperandsSundaCayman) {
  check_psum_generation<S3LwCayman, S3d3MmCayman>("sunda");
  check_psum_generation<S3LwCayman, S3d3MmCayman>("cayman");
}

TEST(NeffProgramChecks, PeOperandsMariana) {
  check_psum_generation<S3LwMariana, S3d3MmMariana>("mariana");
}

TEST(NeffProgramChecks, PeOperandsMaverick) {
  // MAVERICK's re-packed words (rows at byte 34 for LDWEIGHTS, 35 for MATMUL) and its SBUF destination
  // (no PSUM, PROJ-CONV-N1): the reservation applies to dst as well.
  std::string text;
  EXPECT_TRUE(failing_on_target(
                  make_pe_neff(stream_of(ldweights<S3LwMaverick>(0x37C00), matmul<S3d3MmMaverick>(0x37B00, 0x1000, 64)),
                               "maverick"),
                  &text)
                  .empty())
      << text;
  EXPECT_EQ(failing_on_target(make_pe_neff(stream_of(ldweights<S3LwMaverick>(0x37F00)), "maverick")),
            std::multiset<std::string>{"sbuf_reservation_untouched"});
  EXPECT_TRUE(failing_on_target(make_pe_neff(stream_of(ldweights<S3LwMaverick>(0x37F00, 32)), "maverick", 64)).empty());
  EXPECT_EQ(failing_on_target(make_pe_neff(stream_of(ldweights<S3LwMaverick>(0x37F00, 128)), "maverick", 64)),
            std::multiset<std::string>{"sbuf_reservation_untouched"});
  // 32 FP32 results at SBUF 0x37f80..0x37fff of partitions 0..127.
  text.clear();
  EXPECT_EQ(failing_on_target(make_pe_neff(stream_of(matmul<S3d3MmMaverick>(0x1000, 0x37F80, 32)), "maverick"), &text),
            std::multiset<std::string>{"sbuf_reservation_untouched"});
  EXPECT_NE(text.find("sg00/PE#0: dst: SBUF partitions 0..127 bytes 0x37f80..0x37fff touches"), std::string::npos)
      << text;
  // The same destination bytes as 16 results stop at 0x37fbf, before the reservation.
  EXPECT_TRUE(
      failing_on_target(make_pe_neff(stream_of(matmul<S3d3MmMaverick>(0x1000, 0x37F80, 16)), "maverick")).empty());
}

TEST(NeffProgramChecks, PeMaverickColumnsZeroAre256) {
  // PROJ-CONV-G5: MAVERICK's num_active_cols 0 means 256 output partitions. 32 FP32 results at SBUF 0x37f80..0x37fff:
  // on 32 partitions they stay below a reservation of partitions 64..127; on 0 = 256 they reach it (a reading of
  // 0 as no partition, or as 0 columns, would pass the word).
  const auto mm = [](uint8_t cols, uint16_t n) {
    S3d3MmMaverick m = matmul<S3d3MmMaverick>(0x1000, 0x37F80, n);
    m.num_active_cols = cols;
    return m;
  };
  std::string text;
  EXPECT_TRUE(failing_on_target(make_pe_neff(stream_of(mm(32, 32)), "maverick", 64), &text).empty()) << text;
  text.clear();
  EXPECT_EQ(failing_on_target(make_pe_neff(stream_of(mm(0, 32)), "maverick", 64), &text),
            std::multiset<std::string>{"sbuf_reservation_untouched"});
  EXPECT_NE(text.find("sg00/PE#0: dst: SBUF partitions 0..255 bytes 0x37f80..0x37fff touches the runtime's "
                      "reservation 'evtaccel' (partitions 64..127"),
            std::string::npos)
      << text;
  // 16 results end at 0x37fbf, before the reserved bytes: 256 partitions, no overlap.
  EXPECT_TRUE(failing_on_target(make_pe_neff(stream_of(mm(0, 16)), "maverick", 64)).empty());
}

/// The start-address forms placed at run time (common-formats.md §3): ADDR_REG, INDIRECT_IMM, INDIRECT_REG and
/// the shape-from-register bit, over an address whose immediate bytes would fail.
constexpr std::array<uint32_t, 4> kRunTimeMarkers{0x80000000U, 0x20000000U, 0xA0000000U, 0x40000000U};

/// The meaning decode gives the field `path` of `word` on the NEFF's generation.
std::string meaning_of(const std::vector<uint8_t>& word, Generation g, std::string_view path) {
  Word w{};
  std::copy(word.begin(), word.end(), w.begin());
  for (const DescribedField& f : describe_fields(decode(w, g)))
    if (f.name == path) return f.meaning;
  ADD_FAILURE() << "no field " << path;
  return {};
}

/// PROJ-CONV-G5: a register or indirect start (or a shape from a register) is placed at run time: neither check
/// judges it, and decode says so.
template <class Lw, class Mm>
void check_run_time_starts(std::string_view target, uint32_t reserved_src, uint32_t crossing_dst, uint16_t n) {
  SCOPED_TRACE(std::string(target));
  for (uint32_t marker : kRunTimeMarkers) {
    SCOPED_TRACE(fmt::format("marker {:#x}", marker));
    const neff::Neff lw = make_pe_neff(stream_of(ldweights<Lw>(reserved_src | marker)), target);
    EXPECT_TRUE(failing_on_target(lw).empty());
    EXPECT_NE(
        meaning_of(word_of(ldweights<Lw>(reserved_src | marker)), *lw.generation, "src.start_addr").find("run time"),
        std::string::npos);
    const Mm m = matmul<Mm>(0x1000, crossing_dst | marker, n);
    EXPECT_TRUE(failing_on_target(make_pe_neff(stream_of(m), target)).empty());
    EXPECT_NE(meaning_of(word_of(m), *lw.generation, "dst.start_addr").find("run time"), std::string::npos);
  }
  // Without the marker both words fail (the immediate forms are judged).
  EXPECT_EQ(failing_on_target(make_pe_neff(stream_of(ldweights<Lw>(reserved_src)), target)).size(), 1U);
  EXPECT_EQ(failing_on_target(make_pe_neff(stream_of(matmul<Mm>(0x1000, crossing_dst, n)), target)).size(), 1U);
}

TEST(NeffProgramChecks, PeRegisterAndIndirectStartsAreNotJudged) {
  constexpr uint32_t kPsumAddr = 0x2000000;
  // CAYMAN-like layouts: 128 FP32 results from PSUM 0x700 cross into bank 1; MAVERICK: 32 results at SBUF 0x37f80
  // reach the reservation.
  check_run_time_starts<S3LwCayman, S3d3MmCayman>("sunda", 0x37F00, kPsumAddr + 0x700, 128);
  check_run_time_starts<S3LwCayman, S3d3MmCayman>("cayman", 0x37F00, kPsumAddr + 0x700, 128);
  check_run_time_starts<S3LwMariana, S3d3MmMariana>("mariana", 0x37F00, kPsumAddr + 0x700, 128);
  check_run_time_starts<S3LwMaverick, S3d3MmMaverick>("maverick", 0x37F00, 0x37F80, 32);
}

/// The operand range each failure names ("src: SBUF partitions 0..127 bytes 0x37f80..0x37fff") is the range
/// decode's description of that operand states: the checks and the description read one footprint.
void expect_description_states_failure_range(const std::vector<uint8_t>& word, std::string_view target,
                                             uint32_t p0 = 0) {
  SCOPED_TRACE(std::string(target));
  const neff::Neff n = make_pe_neff(word, target, p0);
  const auto failures = neff::check_program(n, *n.generation);
  ASSERT_FALSE(failures.empty());
  const std::regex range(R"(^(src|dst): (SBUF|PSUM) partitions (\d+)\.\.(\d+) bytes (0x[0-9a-f]+)\.\.(0x[0-9a-f]+) )");
  for (const auto& f : failures) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(f.message, m, range)) << f.message;
    const std::string stated = fmt::format("{} partitions {}..{}, bytes {}..{} of each", m[2].str(), m[3].str(),
                                           m[4].str(), m[5].str(), m[6].str());
    const std::string meaning = meaning_of(word, *n.generation, m[1].str() + ".start_addr");
    EXPECT_NE(meaning.find(stated), std::string::npos) << f.message << "\n" << meaning;
  }
}

TEST(NeffProgramChecks, PeFailuresNameTheRangeDecodeDescribes) {
  constexpr uint32_t kPsumAddr = 0x2000000;
  for (std::string_view t : {"sunda", "cayman"}) {
    expect_description_states_failure_range(word_of(ldweights<S3LwCayman>(0x37F00)), t);
    expect_description_states_failure_range(word_of(matmul<S3d3MmCayman>(0x37F80, kPsumAddr + 0x700, 64)), t);
    expect_description_states_failure_range(word_of(matmul<S3d3MmCayman>(0x37B00, kPsumAddr + 0x700, 128)), t);
  }
  expect_description_states_failure_range(word_of(ldweights<S3LwMariana>(0x37F00, 96)), "mariana", 64);
  expect_description_states_failure_range(word_of(matmul<S3d3MmMariana>(0x37B00, kPsumAddr + 0x700, 128)), "mariana");
  S3d3MmMaverick mv = matmul<S3d3MmMaverick>(0x1000, 0x37F80, 32);
  mv.num_active_cols = 0;  // 256 output partitions
  expect_description_states_failure_range(word_of(mv), "maverick", 64);
  expect_description_states_failure_range(word_of(ldweights<S3LwMaverick>(0x37F00)), "maverick");
}

TEST(NeffProgramChecks, EveryPredicateHasAConvention) {
  ASSERT_EQ(neff::program_predicates().size(), 8U);
  for (const auto& p : neff::program_predicates()) {
    EXPECT_TRUE(p.convention.starts_with("PROJ-CONV-")) << p.name;
    EXPECT_FALSE(p.meaning.empty()) << p.name;
  }
}

TEST(NeffProgramChecks, MatmulSmallPassesEveryCheck) {
  const fs::path file = fs::path(TPBISA_SHARED_DATA_DIR "/matmul_small.neff");
  if (!fs::exists(file)) GTEST_SKIP() << file << " is absent (shared data not available)";
  auto n = neff::read_file(file.string());
  ASSERT_TRUE(n.ok()) << n.error().to_string();
  ASSERT_EQ(n->subgraphs.size(), 2U);
  ASSERT_EQ(n->subgraphs[0].sbuf_reservations.size(), 1U);
  EXPECT_EQ(n->subgraphs[0].sbuf_reservations[0].type, "evtaccel");
  EXPECT_TRUE(neff::check_program(*n, Generation::Cayman).empty()) << messages(*n);
}

}  // namespace
}  // namespace tpbisa
