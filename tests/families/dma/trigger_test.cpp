// PSEUDO_DMATRIGGER 0xC1 in a NEFF run (PROJ-CONV-PS4): a trigger fires the next block of its queue from the issuing
// engine's `dma` list, the bytes land as the descriptors say, the queue's semaphore rises by num_queues; expected
// values are written out by hand from the descriptors.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tpbisa/machine.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/neff_run.hpp"

namespace tpbisa::neff::trigger {
namespace {

using nlohmann::json;

std::vector<uint8_t> text_bytes(const std::string& s) {
  return {s.begin(), s.end()};
}

/// A PSEUDO_DMATRIGGER word naming `queue`, no wait, no update.
Word trigger(const std::string& queue) {
  Word w{};
  w[0] = 0xC1;
  w[1] = 16;
  std::memcpy(w.data() + 12, queue.data(), queue.size());
  return w;
}

json copy(const char* from, uint64_t from_off, const char* to, uint64_t to_off, uint64_t size) {
  return {{"from", from}, {"from_off", from_off}, {"to", to}, {"to_off", to_off}, {"size", size}};
}

/// One subgraph: input x (float32[32]), tmp-buf mid, output0 (float32[32]), the state buffer; the Pool stream holds
/// the triggers of `queues`, in that order.
Neff program(const std::vector<std::string>& queues) {
  json def{{"pool", "Pool.json"},
           {"pool_instr", "Pool.bin"},
           {"var",
            {{"SB", {{"type", "state-buffer"}, {"var_id", 0}}},
             {"x", {{"type", "input"}, {"var_id", 1}, {"size", 128}}},
             {"mid", {{"type", "tmp-buf"}, {"var_id", 2}, {"size", 128}}},
             {"output0", {{"type", "output"}, {"var_id", 3}, {"size", 128}}}}},
           {"dma_queue",
            {{"q_in", {{"owner", "pool"}, {"semaphore", 10}, {"type", "in"}}},
             {"q_out", {{"owner", "pool"}, {"semaphore", 11}, {"type", "out"}}},
             {"q_sb", {{"owner", "pool"}, {"semaphore_set", {12}}, {"num_queues", 2}, {"type", "data"}}}}}};
  // q_in: x -> mid in two halves; q_out: mid -> output0 with the halves swapped; q_sb block 0: x bytes 0-63 to SBUF
  // partition 0, block 1: SBUF partition 0 bytes 32-63 to output0 bytes 0-31.
  json pool{{"instr", "Pool.bin"},
            {"dma",
             {{{"queue", "q_in"}, {"id", 0}, {"desc", {copy("x", 0, "mid", 0, 64), copy("x", 64, "mid", 64, 64)}}},
              {{"queue", "q_out"},
               {"id", 0},
               {"desc", {copy("mid", 64, "output0", 0, 64), copy("mid", 0, "output0", 64, 64)}}},
              {{"queue", "q_sb"}, {"id", 1}, {"desc", {copy("SB", 32, "output0", 0, 32)}}},
              {{"queue", "q_sb"}, {"id", 0}, {"desc", {copy("x", 0, "SB", 0, 64)}}}}}};
  std::vector<uint8_t> stream;
  for (const std::string& q : queues) {
    const Word w = trigger(q);
    stream.insert(stream.end(), w.begin(), w.end());
  }
  std::vector<PackMember> m{{"sg00/def.json", text_bytes(def.dump())},
                            {"sg00/Pool.json", text_bytes(pool.dump())},
                            {"sg00/Pool.bin", stream}};
  json kelf{{"target", "cayman"}, {"graphs", {{{"name", "sg00"}, {"definition", "sg00/def.json"}}}}};
  m.push_back({"kelf-0.json", text_bytes(kelf.dump())});
  json signature = json::object();
  signature["inputs"]["x"] = {{"id", 0}, {"dtype", "float32"}, {"shape", {32}}};
  signature["outputs"]["output0"] = {{"dtype", "float32"}, {"shape", {32}}};
  json graph = json::object();
  graph["nodes"] = json::array({{{"op", "tvm_op"}, {"attrs", {{"kelf", "kelf-0.json"}}}}});
  graph["metadata"]["signatures"]["default"] = signature;
  m.push_back({"neff.json", text_bytes(graph.dump())});
  Result<std::vector<uint8_t>> bytes = pack(m, PackOptions{});
  EXPECT_TRUE(bytes.ok());
  Result<Neff> n = read(*bytes, "trigger.neff");
  EXPECT_TRUE(n.ok()) << (n.ok() ? "" : n.error().to_string());
  return n.ok() ? std::move(*n) : Neff{};
}

/// x[i] = 1000 + i as float32 bytes.
std::vector<uint8_t> input_x() {
  std::vector<uint8_t> x(128);
  for (int i = 0; i < 32; ++i) {
    const float v = 1000.0F + static_cast<float>(i);
    std::memcpy(x.data() + 4 * i, &v, 4);
  }
  return x;
}

float element(std::span<const uint8_t> bytes, size_t i) {
  float v = 0;
  std::memcpy(&v, bytes.data() + 4 * i, 4);
  return v;
}

struct Ran {
  std::unique_ptr<Run> run;
  RunSummary summary;
};

Ran run_program(const Neff& n, const std::vector<uint8_t>& x) {
  const std::vector<RunInput> inputs{{"x", x}};
  std::string error;
  Ran r;
  r.run = Run::create(n, inputs, MachineOptions{}, error);
  EXPECT_NE(r.run, nullptr) << error;
  if (r.run) r.summary = r.run->machine().run(100);
  return r;
}

TEST(PseudoDmaTrigger, FiresEachQueueBlockByBlock) {
  const Neff n = program({"q_in", "q_out", "q_sb", "q_sb"});
  const std::vector<uint8_t> x = input_x();
  Ran r = run_program(n, x);
  ASSERT_NE(r.run, nullptr);
  ASSERT_FALSE(r.summary.faulted) << r.summary.fault.detail;
  EXPECT_EQ(r.summary.retired, 4U);
  const std::span<const uint8_t> out = r.run->output("output0");
  ASSERT_EQ(out.size(), 128U);
  // By hand: mid = x; output0 = mid[16..31] ++ mid[0..15]; then elements 0-7 = SBUF bytes 32-63 = x[8..15].
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(element(out, i), 1008.0F + static_cast<float>(i)) << i;
  for (size_t i = 8; i < 16; ++i) EXPECT_EQ(element(out, i), 1016.0F + static_cast<float>(i)) << i;
  for (size_t i = 16; i < 32; ++i) EXPECT_EQ(element(out, i), 1000.0F + static_cast<float>(i - 16)) << i;
  const CoreState& core = r.run->machine().core(0).state();
  EXPECT_EQ(core.sems[10], 1U);  // q_in: `semaphore`, no num_queues: += 1
  EXPECT_EQ(core.sems[11], 1U);
  EXPECT_EQ(core.sems[12], 4U);  // q_sb: two blocks, += num_queues 2 each
  // A rewound machine runs the streams again, and their queues from block 0.
  r.run->machine().rewind();
  const RunSummary again = r.run->machine().run(100);
  ASSERT_FALSE(again.faulted) << again.fault.detail;
  EXPECT_EQ(core.sems[10], 2U);
  EXPECT_EQ(core.sems[12], 8U);
  for (size_t i = 16; i < 32; ++i) EXPECT_EQ(element(out, i), 1000.0F + static_cast<float>(i - 16)) << i;
}

TEST(PseudoDmaTrigger, ATriggerPastTheLastBlockFaultsAndMovesNothing) {
  const Neff n = program({"q_in", "q_in"});
  Ran r = run_program(n, input_x());
  ASSERT_NE(r.run, nullptr);
  ASSERT_TRUE(r.summary.faulted);
  EXPECT_EQ(r.summary.fault.index, 1U);
  EXPECT_NE(r.summary.fault.detail.find("queue 'q_in' is triggered again after its 1 block(s)"), std::string::npos)
      << r.summary.fault.detail;
  EXPECT_EQ(r.run->machine().core(0).state().sems[10], 1U);  // the first block only
}

TEST(PseudoDmaTrigger, AQueueWithoutABlockFaults) {
  const Neff n = program({"q_none"});
  Ran r = run_program(n, input_x());
  ASSERT_NE(r.run, nullptr);
  ASSERT_TRUE(r.summary.faulted);
  EXPECT_NE(r.summary.fault.detail.find("queue 'q_none' has no DMA block in the POOL engine's description"),
            std::string::npos)
      << r.summary.fault.detail;
}

TEST(PseudoDmaTrigger, OutsideANeffRunItIsNotLowered) {
  Machine m(Generation::Cayman, std::vector<Word>{trigger("q_in")});
  const RunSummary s = m.run(10);
  ASSERT_TRUE(s.faulted);
  EXPECT_EQ(s.fault.kind, FaultKind::PseudoNotLowered);
}

}  // namespace
}  // namespace tpbisa::neff::trigger
