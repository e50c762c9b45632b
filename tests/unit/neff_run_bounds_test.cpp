// What a NEFF run sets aside before its first step (issue 36: D04, D05, D11): DRAM variables, cores and their
// variable tables counted against the memory limit, and the signature's outputs checked against their variables,
// all before anything is allocated.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tpbisa/neff.hpp"
#include "tpbisa/neff_run.hpp"

namespace tpbisa::neff::run_bounds {
namespace {

using nlohmann::json;

std::vector<uint8_t> text_bytes(const std::string& s) {
  return {s.begin(), s.end()};
}

/// A container of `subgraphs` subgraphs with one Nop on PE, the variables `vars` in every def.json, an input x
/// (float32 [32], 128 bytes) and the signature outputs `outputs` ({name: {"dtype", "shape"}}).
Neff program(unsigned subgraphs, const json& vars, const json& outputs = json::object(),
             const ReadOptions& read_options = {}) {
  std::vector<PackMember> m;
  json kelf{{"target", "cayman"}, {"graphs", json::array()}};
  for (unsigned s = 0; s < subgraphs; ++s) {
    const std::string sg = "sg" + std::to_string(100 + s).substr(1);
    kelf["graphs"].push_back({{"name", sg}, {"definition", sg + "/def.json"}});
    json def{{"pe_instr", "PE.bin"},
             {"var",
              {{"SB", {{"type", "state-buffer"}, {"var_id", 0}}},
               {"x", {{"type", "input"}, {"var_id", 1}, {"size", 128}}}}}};
    for (const auto& [k, v] : vars.items()) def["var"][k] = v;
    m.push_back({sg + "/def.json", text_bytes(def.dump())});
    std::vector<uint8_t> nop(kWordBytes);
    nop[0] = 0xA4, nop[1] = 16;
    m.push_back({sg + "/PE.bin", nop});
  }
  m.push_back({"kelf-0.json", text_bytes(kelf.dump())});
  json signature = json::object();
  signature["inputs"]["x"] = {{"id", 0}, {"dtype", "float32"}, {"shape", {32}}};
  signature["outputs"] = outputs;
  json graph = json::object();
  graph["nodes"] = json::array({{{"op", "tvm_op"}, {"attrs", {{"kelf", "kelf-0.json"}}}}});
  graph["metadata"]["signatures"]["default"] = signature;
  m.push_back({"neff.json", text_bytes(graph.dump())});
  Result<std::vector<uint8_t>> bytes = pack(m, PackOptions{});
  EXPECT_TRUE(bytes.ok());
  Result<Neff> n = read(*bytes, "b.neff", read_options);
  EXPECT_TRUE(n.ok()) << (n.ok() ? "" : n.error().to_string());
  return n.ok() ? std::move(*n) : Neff{};
}

/// Run::create's error ("" when it built the run).
std::string create_error(const Neff& n, uint64_t max_memory = uint64_t{1} << 30) {
  static const std::vector<uint8_t> x(128);
  const std::vector<RunInput> inputs{{"x", x}};
  MachineOptions mo;
  mo.max_memory = max_memory;
  std::string error;
  const auto run = Run::create(n, inputs, mo, error);
  EXPECT_EQ(run == nullptr, !error.empty());
  return error;
}

TEST(NeffRunBounds, DramVariablesAreCountedBeforeTheyAreAllocated) {
  // A 4 GiB virtual variable (PROJ-CONV-X8 scratch) under the default limit of 1 GiB.
  const Neff big = program(
      1, {{"spill", {{"type", "virtual"}, {"var_id", 2}, {"size", uint64_t{4} << 30}, {"backing_variable_off", 0}}}});
  const std::string e4 = create_error(big);
  EXPECT_EQ(e4.find("sg00: variable spill (virtual, 4294967296 bytes) brings the run's DRAM and core state to "), 0U)
      << e4;
  EXPECT_TRUE(e4.ends_with(" bytes, beyond the memory limit of 1073741824 bytes (--max-memory)")) << e4;
  // A 2 GiB tmp-buf with the limit at 1 MiB, and 1 TiB: refused by the count, never by the allocator.
  for (const uint64_t size : {uint64_t{2} << 30, uint64_t{1} << 40}) {
    const Neff n = program(1, {{"t", {{"type", "tmp-buf"}, {"var_id", 2}, {"size", size}}}});
    const std::string e = create_error(n, size == uint64_t{1} << 40 ? uint64_t{1} << 30 : uint64_t{1} << 20);
    EXPECT_NE(e.find("sg00: variable t (tmp-buf, " + std::to_string(size) + " bytes) brings"), std::string::npos) << e;
  }
  // Outputs and tmp-bufs of one name are one buffer (PROJ-CONV-X5): counted once, at their largest size.
  const json shared{{"t", {{"type", "tmp-buf"}, {"var_id", 2}, {"size", uint64_t{200} << 20}}}};
  const Neff four = program(4, shared);
  EXPECT_EQ(check_run_memory(four, uint64_t{300} << 20), std::nullopt);
  EXPECT_NE(check_run_memory(four, uint64_t{200} << 20), std::nullopt);
  EXPECT_EQ(create_error(program(1, {{"t", {{"type", "tmp-buf"}, {"var_id", 2}, {"size", 65536}}}})), "");
}

TEST(NeffRunBounds, EveryCoreCountsAgainstTheLimit) {
  const Neff n = program(20, json::object());
  const uint64_t core = core_state_bytes(1);
  EXPECT_GT(core, sizeof(Core));
  // Room for 12 cores and their variable tables: the 13th is named.
  const std::string e = create_error(n, 12 * core + 12 * 2 * sizeof(DramVar) + core / 2);
  EXPECT_EQ(
      e.find("sg12: its core's state (" + std::to_string(core) + " bytes) brings the run's DRAM and core state to"), 0U)
      << e;
  EXPECT_EQ(create_error(n), "");
}

TEST(NeffRunBounds, TheVariableTableIsCountedByItsLargestId) {
  // var_id 2^32 - 1: a table of 2^32 entries, refused by the count (it used to be allocated, or end in bad_alloc).
  const Neff n = program(1, {{"far", {{"type", "tmp-buf"}, {"var_id", UINT32_MAX}, {"size", 8}}}});
  const std::string e = create_error(n);
  EXPECT_EQ(e.find("sg00: its table of variables up to var_id 4294967295"), 0U) << e;
}

TEST(NeffRunBounds, SignatureOutputsMustFitTheirVariables) {
  const json out{{"out", {{"type", "output"}, {"var_id", 2}, {"size", 256}}}};
  // float16 [8, 16] is 256 bytes: it fits.
  EXPECT_EQ(create_error(program(1, out, {{"out", {{"dtype", "float16"}, {"shape", {8, 16}}}}})), "");
  // float32 [8, 16] needs 512: the .npy written would promise bytes the run does not have.
  EXPECT_EQ(create_error(program(1, out, {{"out", {{"dtype", "float32"}, {"shape", {8, 16}}}}})),
            "output out: the signature (float32 (8, 16)) needs 512 bytes, its variable holds 256");
  EXPECT_EQ(create_error(program(1, out, {{"out", {{"dtype", "float16"}, {"shape", {9, 16}}}}})),
            "output out: the signature (float16 (9, 16)) needs 288 bytes, its variable holds 256");
  // A shape whose size passes 2^64 (it used to wrap to a small number).
  EXPECT_EQ(create_error(
                program(1, out, {{"out", {{"dtype", "float16"}, {"shape", {uint64_t{1} << 32, uint64_t{1} << 32}}}}})),
            "output out: the signature's float16 (4294967296, 4294967296) is more than 2^64 bytes");
  // An output no variable holds.
  EXPECT_EQ(create_error(program(1, out, {{"y", {{"dtype", "float16"}, {"shape", {4}}}}})),
            "output y (float16 (4,)) is held by no output variable of any subgraph");
}

}  // namespace
}  // namespace tpbisa::neff::run_bounds
