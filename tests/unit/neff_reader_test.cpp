// The NEFF reader and writer: the real file field by field (neff.md §2-§7), synthetic containers, hostile ones.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "tpbisa/io/neff_json.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/neff_run.hpp"
#include "tpbisa/npy.hpp"

namespace tpbisa::neff {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kRealNeff = fs::path(TPBISA_SHARED_DATA_DIR) / "matmul_small.neff";
const fs::path kGolden = fs::path(TPBISA_SOURCE_DIR) / "tests" / "golden";

std::vector<uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<uint8_t> bytes_of(const std::string& s) {
  return {s.begin(), s.end()};
}

std::string hex(std::span<const uint8_t> b) {
  std::string s;
  for (uint8_t x : b) s += "0123456789abcdef"[x >> 4], s += "0123456789abcdef"[x & 15];
  return s;
}

/// A 64-byte word: opcode, inst_word_len 16, EVENTS (wait mode/idx/value, update mode/idx), extra bytes.
std::vector<uint8_t> word(uint8_t op, uint8_t wm = 0, uint8_t wi = 0, uint32_t value = 0, uint8_t um = 0,
                          uint8_t ui = 0, std::map<size_t, uint8_t> extra = {}) {
  std::vector<uint8_t> w(kWordBytes);
  w[0] = op, w[1] = 16, w[4] = wm, w[5] = wi, w[6] = um, w[7] = ui;
  store_le<uint32_t>(&w[8], value);
  for (auto [at, v] : extra) w[at] = v;
  return w;
}

std::vector<uint8_t> cat(std::initializer_list<std::vector<uint8_t>> parts) {
  std::vector<uint8_t> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

/// The members of a synthetic NEFF with `subgraphs` subgraphs; `vars` are added to every def.json.
std::vector<PackMember> synthetic(unsigned subgraphs = 1, json vars = json::object(), bool with_graph = true) {
  std::vector<PackMember> m;
  json kelf{{"version", "0.5"}, {"target", "cayman"}, {"graphs", json::array()}};
  for (unsigned s = 0; s < subgraphs; ++s) {
    const std::string sg = "sg0" + std::to_string(s);
    kelf["graphs"].push_back({{"name", sg}, {"definition", sg + "/def.json"}});
    json def{{"version", "0.6"},
             {"pe", "PE.json"},
             {"pe_instr", "PE.bin"},
             {"sp_instr", "SP.bin"},
             {"pool_instr", "Pool.bin"},
             {"dma_queue",
              {{"qPool", {{"type", "dynamic"}, {"owner", "pool"}, {"num_queues", 4}, {"semaphore_set", {24, 25}}}}}},
             {"var",
              {{"SB", {{"type", "state-buffer"}, {"var_id", 0}}},
               {"x", {{"type", "input"}, {"var_id", 1}, {"size", 128}}},
               {"c", {{"type", "file"}, {"var_id", 2}, {"size", 8}, {"file_name", "c.bin"}}},
               {"T", {{"type", "dge-table"}, {"var_id", 3}, {"list", {1}}}}}}};
    for (const auto& [k, v] : vars.items()) def["var"][k] = v;
    m.push_back({sg + "/def.json", bytes_of(def.dump())});
    m.push_back({sg + "/PE.json", bytes_of(R"({"dma": [{"id": 1}], "instr": "PE.bin"})")});
    // PE waits for the Pool DMA on S[24]; Pool's DMA raises S[24] by 4 through qPool; SP raises S[3] at completion.
    m.push_back({sg + "/PE.bin", cat({word(0xA0, 0x05, 24, 4), word(0x02)})});
    m.push_back({sg + "/Pool.bin", word(0xD4, 0, 0, 0, 0, 0, {{13, 24}, {14, 4}})});
    m.push_back({sg + "/SP.bin", word(0xA4, 0, 0, 0, 0x13, 3)});
    m.push_back({sg + "/c.bin", std::vector<uint8_t>(8, 0xEE)});
  }
  m.push_back({"kelf-0.json", bytes_of(kelf.dump())});
  m.push_back({"info.json", bytes_of(R"({"tool_version": "9.9"})")});
  if (with_graph)
    m.push_back({"neff.json", bytes_of(R"({"nodes": [{"op": "tvm_op", "attrs": {"kelf": "kelf-0.json"}}],
      "metadata": {"signatures": {"default": {"inputs": {"x": {"id": 0, "dtype": "float32", "shape": [32]}}}}}})")});
  return m;
}

std::vector<uint8_t> packed(const std::vector<PackMember>& members, uint64_t pkg = 2,
                            HashOrder order = HashOrder::Natural) {
  PackOptions p;
  p.header.pkg_version = pkg;
  p.hash_order = order;
  Result<std::vector<uint8_t>> r = pack(members, p);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
  return r.ok() ? *r : std::vector<uint8_t>{};
}

ErrorCode read_error(std::span<const uint8_t> bytes, const ReadOptions& o = {}) {
  Result<Neff> r = read(bytes, "t.neff", o);
  EXPECT_FALSE(r.ok()) << "read succeeded";
  return r.ok() ? ErrorCode::Io : r.error().code;
}

/// Two reads denote the same program: header fields (other than sizes and hash), members, and model.
void expect_same_model(const Neff& a, const Neff& b) {
  Header ha = a.header, hb = b.header;
  ha.data_size = hb.data_size = 0;
  ha.hash = hb.hash = {};
  EXPECT_EQ(ha, hb);
  ASSERT_EQ(a.members.size(), b.members.size());
  for (size_t i = 0; i < a.members.size(); ++i) {
    EXPECT_EQ(a.members[i].name, b.members[i].name);
    EXPECT_TRUE(std::ranges::equal(a.members[i].bytes, b.members[i].bytes)) << a.members[i].name;
    EXPECT_EQ(a.members[i].kind, b.members[i].kind) << a.members[i].name;
  }
  EXPECT_EQ(a.target, b.target);
  EXPECT_EQ(a.generation, b.generation);
  EXPECT_EQ(a.compiler_version, b.compiler_version);
  ASSERT_EQ(a.subgraphs.size(), b.subgraphs.size());
  for (size_t s = 0; s < a.subgraphs.size(); ++s) {
    const Subgraph &x = a.subgraphs[s], &y = b.subgraphs[s];
    EXPECT_EQ(x.name, y.name);
    ASSERT_EQ(x.engines.size(), y.engines.size());
    for (size_t e = 0; e < x.engines.size(); ++e) EXPECT_EQ(x.engines[e].stream.bytes, y.engines[e].stream.bytes);
    ASSERT_EQ(x.variables.size(), y.variables.size());
    for (size_t v = 0; v < x.variables.size(); ++v) {
      EXPECT_EQ(x.variables[v].name, y.variables[v].name);
      EXPECT_EQ(x.variables[v].size, y.variables[v].size);
    }
    ASSERT_EQ(x.queue_sets.size(), y.queue_sets.size());
  }
  ASSERT_EQ(a.inputs.size(), b.inputs.size());
  ASSERT_EQ(a.outputs.size(), b.outputs.size());
}

// ---- the real file ----

class RealNeff : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kRealNeff)) GTEST_SKIP() << kRealNeff << " is absent (shared data not available)";
    Result<Neff> r = read_file(kRealNeff.string());
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    n_ = std::move(*r);
  }
  Neff n_;
};

TEST_F(RealNeff, HeaderFieldsAreThoseOfSection2) {
  const Header& h = n_.header;
  EXPECT_EQ(n_.file_size, 62464U);
  EXPECT_EQ(h.pkg_version, 2U);
  EXPECT_EQ(h.header_size, 0x400U);
  EXPECT_EQ(h.data_size, 0xF000U);
  EXPECT_EQ(h.neff_version_major, 2U);
  EXPECT_EQ(h.neff_version_minor, 0U);
  EXPECT_EQ(h.build_version_text(), "");
  EXPECT_EQ(h.num_tpb, 1U);
  EXPECT_EQ(hex(h.hash), "bcb3e9ef77301698cd8b4cb9471ff5ac" + std::string(32, '0'));
  EXPECT_EQ(hex(h.uuid), "00a04c535fd94f07bffdd5eacdefc852");
  EXPECT_EQ(h.name_text(), "file.neff");
  EXPECT_EQ(h.requested_tpb_count, 1U);
  EXPECT_EQ(h.tpb_per_node[0], 1U);
  EXPECT_TRUE(std::all_of(h.tpb_per_node.begin() + 1, h.tpb_per_node.end(), [](uint8_t b) { return b == 0; }));
  EXPECT_EQ(h.feature_bits, 0x209C00U);  // bits 10, 11, 12, 15, 21
  EXPECT_EQ(h.lnc_size, 2U);
  EXPECT_TRUE(std::all_of(h.pad.begin(), h.pad.end(), [](uint8_t b) { return b == 0; }));
  const std::vector<uint8_t> file = read_bytes(kRealNeff);
  EXPECT_TRUE(is_neff(file));
  const auto again = encode_header(h);
  EXPECT_TRUE(std::equal(again.begin(), again.end(), file.begin()));
}

TEST_F(RealNeff, HashIsTheMd5OfTheWindowStoredWordLittleEndian) {
  EXPECT_EQ(n_.hash.algorithm, "md5");
  EXPECT_EQ(hex(n_.hash.computed), "efe9b3bc98163077b94c8bcdacf51f47");
  ASSERT_TRUE(n_.hash.matched.has_value());
  EXPECT_EQ(*n_.hash.matched, HashOrder::WordLE);
  EXPECT_TRUE(n_.warnings.empty());
}

TEST_F(RealNeff, PayloadIsOneGzipMemberThenZeroPaddingAndATarOf72Members) {
  EXPECT_EQ(n_.payload.compressed_bytes, 53601U);
  EXPECT_EQ(n_.payload.padding_bytes, 7839U);
  EXPECT_TRUE(n_.payload.padding_zero);
  EXPECT_EQ(n_.payload.tar_bytes, 356864U);
  EXPECT_EQ(n_.payload.bytes_after_window, 0U);
  ASSERT_EQ(n_.members.size(), 72U);
  EXPECT_EQ(n_.members.back().name, "neff.json");
  const std::map<std::string, size_t> sizes{{"neff.json", 2807},
                                            {"kelf-0.json", 253},
                                            {"info.json", 614},
                                            {"hlo_stats.json", 328},
                                            {"sg00/def.json", 3820},
                                            {"sg00/SP.bin", 192},
                                            {"sg00/PE.bin", 768},
                                            {"sg00/Pool.bin", 448},
                                            {"sg00/DVE.bin", 128},
                                            {"sg00/Activation.bin", 320},
                                            {"sg00/DVE.json", 259},
                                            {"sg00/Activation.json", 152},
                                            {"sg00/act_info.json", 15859},
                                            {"sg00/default_datapath_table.bin", 16384},
                                            {"sg00/default_opcode_table.bin", 1024},
                                            {"sg00/exp_and_others.json", 28093},
                                            {"sg00/exp_and_others_bkt.bin", 30112},
                                            {"sg00/tensor_map.json", 2648},
                                            {"sg00/value_sg0000_identity_82_CRSM.npy", 32896}};
  for (const auto& [name, size] : sizes) {
    const Member* m = n_.member(name);
    ASSERT_NE(m, nullptr) << name;
    EXPECT_EQ(m->bytes.size(), size) << name;
  }
  EXPECT_EQ(n_.member("sg00/PE.bin")->kind, MemberKind::Stream);
  EXPECT_EQ(n_.member("sg00/default_opcode_table.bin")->kind, MemberKind::DveTable);
  EXPECT_EQ(n_.member("sg00/value_sg0000_identity_82_CRSM.npy")->kind, MemberKind::Constant);
  EXPECT_EQ(n_.member("sg00/tensor_map.json")->kind, MemberKind::TensorMap);
  EXPECT_EQ(n_.member("kelf-0.json")->kind, MemberKind::Kelf);
}

TEST_F(RealNeff, TargetCompilerInputsAndOutputs) {
  EXPECT_EQ(n_.kelf_member, "kelf-0.json");
  EXPECT_EQ(n_.kelf_version, "0.5");
  EXPECT_EQ(n_.target, "cayman");
  EXPECT_EQ(n_.generation, Generation::Cayman);
  EXPECT_EQ(n_.compiler_version, "2.23.6484.0+3b612583");
  ASSERT_EQ(n_.inputs.size(), 2U);
  EXPECT_EQ(n_.inputs[0].name, "x");
  EXPECT_EQ(n_.inputs[0].dtype, "float16");
  EXPECT_EQ(n_.inputs[0].shape, (std::vector<uint64_t>{128, 256}));
  EXPECT_EQ(n_.inputs[1].name, "y");
  EXPECT_EQ(n_.inputs[1].shape, (std::vector<uint64_t>{256, 128}));
  ASSERT_EQ(n_.outputs.size(), 1U);  // two heads, one tensor: each core writes half of output0
  EXPECT_EQ(n_.outputs[0].name, "output0");
  EXPECT_EQ(n_.outputs[0].dtype, "float16");
  EXPECT_EQ(n_.outputs[0].shape, (std::vector<uint64_t>{128, 128}));
}

TEST_F(RealNeff, TwoSubgraphsOfFiveEnginesAnd29WordsEach) {
  ASSERT_EQ(n_.subgraphs.size(), 2U);
  const std::map<Engine, size_t> words{
      {Engine::Sp, 3}, {Engine::Pe, 12}, {Engine::Pool, 7}, {Engine::Dve, 2}, {Engine::Act, 5}};
  // Opcodes per engine stream (real-programs.md §1): every stream starts with 0xb1 then 0xcc.
  const std::map<Engine, std::multiset<uint8_t>> opcodes{
      {Engine::Pe, {0xB1, 0xCC, 0x01, 0x01, 0x01, 0x01, 0x02, 0x02, 0x02, 0x02, 0xA0, 0xA0}},
      {Engine::Act, {0xB1, 0xCC, 0x23, 0x46, 0x46}},
      {Engine::Pool, {0xB1, 0xCC, 0xA4, 0xD4, 0xD4, 0xD4, 0xD4}},
      {Engine::Dve, {0xB1, 0xCC}},
      {Engine::Sp, {0xB1, 0xCC, 0xD4}}};
  size_t total = 0;
  for (const Subgraph& sg : n_.subgraphs) {
    EXPECT_EQ(sg.version, "0.6");
    ASSERT_EQ(sg.engines.size(), 5U);
    for (const EngineDef& e : sg.engines) {
      SCOPED_TRACE(e.stream.label());
      EXPECT_EQ(e.stream.member, sg.folder + "/" + std::string(engine_name(e.engine)) + ".bin");
      EXPECT_EQ(e.stream.word_count(), words.at(e.engine));
      std::multiset<uint8_t> seen;
      for (size_t i = 0; i < e.stream.word_count(); ++i) seen.insert(e.stream.word(i)[0]);
      EXPECT_EQ(seen, opcodes.at(e.engine));
      EXPECT_EQ(e.stream.word(0)[0], 0xB1);
      EXPECT_EQ(e.stream.word(1)[0], 0xCC);
      EXPECT_EQ(e.dma_descriptors, 0U);
      total += e.stream.word_count();
    }
    EXPECT_EQ(sg.engine(Engine::Dve)->tables.size(), 4U);
    EXPECT_EQ(sg.engine(Engine::Act)->act_semaphore, 12U);
    EXPECT_EQ(sg.runtime_event_count, 12U);
    EXPECT_EQ(sg.runtime_semaphore_count, 3U);
  }
  EXPECT_EQ(total, 58U);
  EXPECT_EQ(n_.streams().size(), 10U);
  EXPECT_EQ(n_.streams()[0]->label(), "sg00/PE");
  // sg00 and sg01 differ only in Pool#03..#05 (+0x80 offsets).
  for (Engine e : kEngines) {
    const Stream& a = n_.subgraphs[0].engine(e)->stream;
    const Stream& b = n_.subgraphs[1].engine(e)->stream;
    for (size_t i = 0; i < a.word_count(); ++i) {
      const bool differs = !std::equal(a.word(i).begin(), a.word(i).end(), b.word(i).begin());
      EXPECT_EQ(differs, e == Engine::Pool && i >= 3 && i <= 5) << a.label() << "#" << i;
    }
  }
}

TEST_F(RealNeff, VariablesAndQueueSetsOfSection6) {
  for (const Subgraph& sg : n_.subgraphs) {
    SCOPED_TRACE(sg.name);
    ASSERT_EQ(sg.variables.size(), 6U);
    const std::vector<std::tuple<std::string, VarType, std::optional<uint64_t>>> want{
        {"SB", VarType::StateBuffer, std::nullopt},
        {"x", VarType::Input, 65536},
        {"y", VarType::Input, 65536},
        {"output0", VarType::Output, 32768},
        {"identity_82_sg0000", VarType::File, 32768},
        {"DGETable0", VarType::DgeTable, std::nullopt}};
    for (uint32_t id = 0; id < want.size(); ++id) {
      const Variable* v = sg.variable(id);
      ASSERT_NE(v, nullptr) << id;
      EXPECT_EQ(v->name, std::get<0>(want[id]));
      EXPECT_EQ(v->type, std::get<1>(want[id]));
      EXPECT_EQ(v->size, std::get<2>(want[id]));
    }
    const Variable* c = sg.variable("identity_82_sg0000");
    EXPECT_EQ(c->alignment, 32768U);
    EXPECT_EQ(c->fabric_path, "main");
    ASSERT_TRUE(c->constant && c->constant->array);
    EXPECT_EQ(c->constant->member, sg.folder + "/value_sg0000_identity_82_CRSM.npy");
    EXPECT_EQ(c->constant->array->descr, "<f2");
    EXPECT_EQ(c->constant->array->shape, (std::vector<uint64_t>{128, 128, 1, 1}));
    EXPECT_EQ(c->constant->array->data_offset, 128U);
    EXPECT_EQ(c->constant->array->data_bytes, 32768U);
    ASSERT_NE(sg.dge_table(), nullptr);
    EXPECT_EQ(sg.dge_table()->list, (std::vector<uint32_t>{1, 2, 3}));
    EXPECT_EQ(sg.virtual_scratch_bytes, 0U);
    ASSERT_EQ(sg.queue_sets.size(), 2U);
    const QueueSet& pool = sg.queue_sets[0];
    EXPECT_EQ(pool.name, "qPoolDynamic");
    EXPECT_EQ(pool.type, "dynamic");
    EXPECT_EQ(pool.owner_engine, Engine::Pool);
    EXPECT_EQ(pool.num_queues, 16U);
    EXPECT_EQ(pool.semaphores.front(), 24U);
    EXPECT_EQ(pool.semaphores.back(), 39U);
    EXPECT_EQ(pool.semaphores.size(), 16U);
    const QueueSet& sp = sg.queue_sets[1];
    EXPECT_EQ(sp.name, "qSPDynamicHW");
    EXPECT_EQ(sp.owner_engine, Engine::Sp);
    EXPECT_EQ(sp.semaphores.front(), 8U);
    EXPECT_EQ(sp.semaphores.back(), 23U);
    EXPECT_EQ(sp.fabric_path, "main");
  }
}

// The picture of ranges looked at apart (on oneTBB's threads) and joined is the picture of one pass, use for use.
TEST_F(RealNeff, SemaphorePictureIsTheSameForEveryRangeSize) {
  const auto flat = [](const std::vector<SubgraphSems>& p) {
    std::vector<std::string> out;
    for (const SubgraphSems& sg : p)
      for (const SemaphoreUses& s : sg.semaphores) {
        std::string queue_sets;
        for (const std::string& q : s.queue_sets) queue_sets += q + ",";
        out.push_back(sg.subgraph + " $S[" + std::to_string(s.index) + "] in " + queue_sets);
        for (const auto* list : {&s.waits, &s.increments})
          for (const SemUse& u : *list)
            out.push_back(std::to_string(static_cast<int>(u.kind)) + " " + u.stream + "#" + std::to_string(u.word) +
                          " " + u.mnemonic + " " + std::to_string(u.mode) + " " + std::to_string(u.value) + " " +
                          u.text + " " + u.queue_set + " " + u.note);
      }
    return out;
  };
  // Every list in stream then word order (the order of one pass), checked on the picture of single-word ranges.
  const std::vector<SubgraphSems> single = semaphore_picture(n_, kDefaultGeneration, 1);
  ASSERT_EQ(single.size(), n_.subgraphs.size());
  for (size_t k = 0; k < single.size(); ++k) {
    std::map<std::string, size_t> stream_at;
    for (const EngineDef& e : n_.subgraphs[k].engines) stream_at.emplace(e.stream.label(), stream_at.size());
    for (const SemaphoreUses& s : single[k].semaphores)
      for (const auto* list : {&s.waits, &s.increments})
        for (size_t i = 1; i < list->size(); ++i) {
          const SemUse &a = (*list)[i - 1], &b = (*list)[i];
          EXPECT_LT(std::make_pair(stream_at.at(a.stream), a.word), std::make_pair(stream_at.at(b.stream), b.word))
              << "$S[" << s.index << "] " << a.stream << "#" << a.word << " before " << b.stream << "#" << b.word;
        }
  }
  const std::vector<std::string> whole = flat(semaphore_picture(n_, kDefaultGeneration, SIZE_MAX));
  ASSERT_GT(whole.size(), 20U);
  for (const size_t range : {size_t{1}, size_t{3}, size_t{64}, kSemaphorePictureRangeWords})
    EXPECT_EQ(flat(semaphore_picture(n_, kDefaultGeneration, range)), whole) << range;
}

TEST_F(RealNeff, SemaphorePictureMatchesTheDmaWordsOfRealPrograms7) {
  const std::vector<SubgraphSems> p = semaphore_picture(n_);
  ASSERT_EQ(p.size(), 2U);
  std::map<uint32_t, const SemaphoreUses*> by_index;
  for (const SemaphoreUses& s : p[0].semaphores) by_index[s.index] = &s;
  // Pool#02 raises S[24] by 16 through qPoolDynamic; PE#02 (EventSemaphore) waits for S[24] >= 16.
  ASSERT_TRUE(by_index.count(24));
  const SemaphoreUses& s24 = *by_index[24];
  ASSERT_EQ(s24.increments.size(), 1U);
  EXPECT_EQ(s24.increments[0].kind, SemUse::Kind::DmaCompletion);
  EXPECT_EQ(s24.increments[0].stream, "sg00/Pool");
  EXPECT_EQ(s24.increments[0].word, 2U);
  EXPECT_EQ(s24.increments[0].value, 16U);
  EXPECT_EQ(s24.increments[0].queue_set, "qPoolDynamic");
  EXPECT_TRUE(s24.increments[0].note.empty());
  ASSERT_EQ(s24.waits.size(), 1U);
  EXPECT_EQ(s24.waits[0].stream, "sg00/PE");
  EXPECT_EQ(s24.waits[0].word, 2U);
  EXPECT_EQ(s24.waits[0].text, "$S[24]>=16");
  EXPECT_EQ(s24.queue_sets, (std::vector<std::string>{"qPoolDynamic"}));
  // SP#02 raises S[8] through qSPDynamicHW; Pool#05 waits for S[4] >= 2.
  ASSERT_TRUE(by_index.count(8));
  EXPECT_EQ(by_index[8]->increments.at(0).queue_set, "qSPDynamicHW");
  EXPECT_EQ(by_index[8]->increments.at(0).stream, "sg00/SP");
  ASSERT_TRUE(by_index.count(4));
  bool pool05 = false;
  for (const SemUse& u : by_index[4]->waits) pool05 |= u.stream == "sg00/Pool" && u.word == 5 && u.value == 2;
  EXPECT_TRUE(pool05);
}

TEST_F(RealNeff, PackOfTheMembersReadsBackToTheSameModel) {
  std::vector<PackMember> members;
  for (const Member& m : n_.members) members.push_back({m.name, {m.bytes.begin(), m.bytes.end()}});
  for (HashOrder order : {HashOrder::Natural, HashOrder::WordLE}) {
    PackOptions p;
    p.header = n_.header;
    p.hash_order = order;
    Result<std::vector<uint8_t>> bytes = pack(members, p);
    ASSERT_TRUE(bytes.ok()) << bytes.error().to_string();
    Result<Neff> again = read(*bytes, "repacked.neff", ReadOptions{.verify_hash = true});
    ASSERT_TRUE(again.ok()) << again.error().to_string();
    EXPECT_EQ(again->hash.matched, order);
    EXPECT_EQ(again->payload.tar_bytes, n_.payload.tar_bytes);  // no record padding, as the compiler writes it
    expect_same_model(n_, *again);
  }
}

TEST_F(RealNeff, ExtractThenCollectThenPackIsTheSameModel) {
  const fs::path dir = fs::temp_directory_path() / ("tpbisa_neff_extract_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  ASSERT_FALSE(extract(n_, dir.string()).has_value());
  EXPECT_TRUE(std::ranges::equal(read_bytes(dir / "sg01" / "Pool.bin"), n_.member("sg01/Pool.bin")->bytes));
  Result<std::vector<PackMember>> members = collect_directory(dir.string());
  ASSERT_TRUE(members.ok()) << members.error().to_string();
  EXPECT_EQ(members->size(), 72U);
  PackOptions p;
  p.header = n_.header;
  Result<std::vector<uint8_t>> bytes = pack(*members, p);
  ASSERT_TRUE(bytes.ok());
  Result<Neff> again = read(*bytes, "repacked.neff");
  ASSERT_TRUE(again.ok()) << again.error().to_string();
  EXPECT_EQ(again->streams().size(), 10U);
  EXPECT_EQ(again->subgraphs[1].engine(Engine::Pool)->stream.bytes, n_.subgraphs[1].engine(Engine::Pool)->stream.bytes);
  EXPECT_EQ(again->generation, Generation::Cayman);
  fs::remove_all(dir);
}

// ---- synthetic containers from the writer ----

TEST(NeffWriter, BothPackagingsAndBothHashOrdersReadBack) {
  for (uint64_t pkg : {1U, 2U})
    for (HashOrder order : {HashOrder::Natural, HashOrder::WordLE}) {
      SCOPED_TRACE(std::to_string(pkg) + " " + std::string(to_string(order)));
      const std::vector<uint8_t> f = packed(synthetic(), pkg, order);
      Result<Neff> r = read(f, "s.neff", ReadOptions{.verify_hash = true});
      ASSERT_TRUE(r.ok()) << r.error().to_string();
      EXPECT_EQ(r->header.pkg_version, pkg);
      EXPECT_EQ(r->hash.algorithm, pkg == 1 ? "sha256" : "md5");
      EXPECT_EQ(r->hash.stored.size(), pkg == 1 ? 32U : 16U);
      EXPECT_EQ(r->hash.matched, order);
      EXPECT_EQ(r->payload.compressed_bytes, pkg == 2 ? r->header.data_size : 0U);
      EXPECT_EQ(r->subgraphs.size(), 1U);
      EXPECT_EQ(r->compiler_version, "9.9");
      ASSERT_EQ(r->inputs.size(), 1U);
      EXPECT_EQ(r->inputs[0].shape, (std::vector<uint64_t>{32}));
      const Subgraph& sg = r->subgraphs[0];
      ASSERT_EQ(sg.engines.size(), 3U);  // PE, Pool, SP: engines def.json does not name are absent
      EXPECT_EQ(sg.engines[0].engine, Engine::Pe);
      EXPECT_EQ(sg.engines[0].dma_descriptors, 1U);
      EXPECT_EQ(sg.engines[0].json_member, "sg00/PE.json");
      EXPECT_EQ(sg.engine(Engine::Pool)->json_member, "");
      EXPECT_EQ(sg.variable("c")->constant->member_bytes, 8U);
      EXPECT_FALSE(sg.variable("c")->constant->array.has_value());  // not .npy: raw bytes
    }
}

TEST(NeffReader, MembersViewOneBufferThatCopiesShare) {
  const std::vector<PackMember> members = synthetic();
  for (uint64_t pkg : {1U, 2U}) {
    SCOPED_TRACE(pkg);
    std::optional<Neff> copy;
    {
      Result<Neff> r = read(packed(members, pkg), "s.neff");
      ASSERT_TRUE(r.ok()) << r.error().to_string();
      ASSERT_TRUE(r->member_data != nullptr);
      // Every member's bytes lie in the one buffer, back to back in archive order, and are the packed bytes.
      const uint8_t* at = r->member_data->data();
      for (const Member& m : r->members) {
        EXPECT_EQ(m.bytes.data(), at) << m.name;
        at += m.bytes.size();
        const auto packed_member =
            std::find_if(members.begin(), members.end(), [&](const PackMember& p) { return p.name == m.name; });
        ASSERT_NE(packed_member, members.end()) << m.name;
        EXPECT_TRUE(std::ranges::equal(m.bytes, packed_member->bytes)) << m.name;
      }
      EXPECT_EQ(at, r->member_data->data() + r->member_data->size());
      copy = *r;
    }
    // The read result is gone; the copy keeps the buffer its members view.
    ASSERT_EQ(copy->members.size(), members.size());
    for (const Member& m : copy->members) {
      const auto packed_member =
          std::find_if(members.begin(), members.end(), [&](const PackMember& p) { return p.name == m.name; });
      EXPECT_TRUE(std::ranges::equal(m.bytes, packed_member->bytes)) << m.name;
    }
  }
}

TEST(NeffWriter, SeveralSubgraphsVirtualVariablesAnd64BitSizes) {
  json vars = json::object();
  for (int i = 0; i < 3; ++i)
    vars["spill" + std::to_string(i)] = {
        {"type", "virtual"}, {"var_id", 10 + i}, {"size", 1 << 20}, {"backing_variable_off", (2 - i) << 20}};
  vars["big"] = {{"type", "input"}, {"var_id", 20}, {"size", (uint64_t{1} << 34) + 4}};
  vars["p"] = {{"type", "pointer"}, {"var_id", 21}, {"referenced_var_id", 20}};
  Result<Neff> r = read(packed(synthetic(3, vars)), "m.neff");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  ASSERT_EQ(r->subgraphs.size(), 3U);
  EXPECT_EQ(r->subgraphs[2].name, "sg02");
  EXPECT_EQ(r->streams().size(), 9U);
  EXPECT_EQ(r->streams()[8]->label(), "sg02/SP");
  for (const Subgraph& sg : r->subgraphs) {
    EXPECT_EQ(sg.virtual_scratch_bytes, uint64_t{3} << 20);  // PROJ-CONV-X8: max(off + size)
    EXPECT_EQ(sg.variable("spill0")->backing_offset, uint64_t{2} << 20);
    EXPECT_EQ(sg.variable("big")->size, (uint64_t{1} << 34) + 4);
    EXPECT_EQ(sg.variable("p")->referenced_var_id, 20U);
    EXPECT_EQ(sg.variable(21)->type, VarType::Pointer);
  }
}

TEST(NeffWriter, WithoutNeffJsonTheOneKelfMemberIsUsed) {
  Result<Neff> r = read(packed(synthetic(1, json::object(), false)), "k.neff");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->kelf_member, "kelf-0.json");
  EXPECT_TRUE(r->inputs.empty());
  std::vector<PackMember> two = synthetic(1, json::object(), false);
  two.push_back({"kelf-1.json", two[two.size() - 2].bytes});
  EXPECT_EQ(read_error(packed(two)), ErrorCode::MissingMember);
}

TEST(NeffWriter, RefusesNamesTheReaderWouldRefuse) {
  for (const char* name : {"/abs", "a/../b", "a//b", "./x", ""}) {
    PackOptions p;
    EXPECT_FALSE(pack(std::vector<PackMember>{{name, {}}}, p).ok()) << name;
  }
  PackOptions p;
  EXPECT_FALSE(pack(std::vector<PackMember>{{"a", {}}, {"a", {}}}, p).ok());
  p.header.pkg_version = 3;
  EXPECT_FALSE(pack(synthetic(), p).ok());
}

// ---- hostile containers ----

TEST(NeffHostile, AcceptanceChecksRunInTheRuntimeOrder) {
  std::vector<uint8_t> f = packed(synthetic());
  EXPECT_EQ(read_error(std::span(f).first(1023)), ErrorCode::TooSmall);
  auto patched = [&](size_t at, uint64_t v) {
    std::vector<uint8_t> g = f;
    store_le<uint64_t>(&g[at], v);
    return g;
  };
  EXPECT_EQ(read_error(patched(0x08, f.size())), ErrorCode::HeaderSize);
  EXPECT_EQ(read_error(patched(0x18, 3)), ErrorCode::MajorVersion);
  EXPECT_EQ(read_error(patched(0x10, f.size())), ErrorCode::PayloadSize);
  EXPECT_EQ(read_error(patched(0x220, uint64_t{1} << 27)), ErrorCode::FeatureBits);
  EXPECT_EQ(read_error(patched(0x00, 0)), ErrorCode::PkgVersion);
  // Bits 0..26 and bit 63 pass the feature gate; major 1 skips it.
  EXPECT_TRUE(read(patched(0x220, (uint64_t{1} << 63) | 0x7FFFFFF), "t").ok());
  std::vector<uint8_t> old = patched(0x18, 1);
  store_le<uint64_t>(&old[0x220], ~uint64_t{0});
  EXPECT_TRUE(read(old, "t").ok());
  // Two failures at once: the first in the runtime's order is the one reported.
  std::vector<uint8_t> both = patched(0x18, 9);
  store_le<uint64_t>(&both[0], 5);
  EXPECT_EQ(read_error(both), ErrorCode::MajorVersion);
  // header_size other than 0x400 is accepted; the payload is still read at 0x400.
  EXPECT_TRUE(read(patched(0x08, 0x200), "t").ok());
}

TEST(NeffHostile, HashMismatchWarnsByDefaultAndFailsWhenVerified) {
  std::vector<uint8_t> f = packed(synthetic());
  f[0xAC] ^= 1;
  Result<Neff> r = read(f, "h.neff");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->hash.matched.has_value());
  ASSERT_EQ(r->warnings.size(), 1U);
  EXPECT_NE(r->warnings[0].message.find(hex(r->hash.computed)), std::string::npos);
  EXPECT_EQ(read_error(f, ReadOptions{.verify_hash = true}), ErrorCode::Hash);
  // Bytes 16..31 of an MD5 hash are not compared.
  std::vector<uint8_t> g = packed(synthetic());
  g[0xAC + 20] = '0';
  EXPECT_TRUE(read(g, "t", ReadOptions{.verify_hash = true}).ok());
}

TEST(NeffHostile, HashOffComputesNothingAndWarnsOfNothing) {
  for (uint64_t pkg : {1, 2}) {
    SCOPED_TRACE(pkg);
    std::vector<uint8_t> f = packed(synthetic(), pkg);
    f[0xAC] ^= 1;  // a stored hash that matches nothing
    Result<Neff> r = read(f, "h.neff", ReadOptions{.hash = false});
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->hash.computed_skipped);
    EXPECT_TRUE(r->hash.computed.empty());
    EXPECT_EQ(r->hash.algorithm, pkg == 1 ? "sha256" : "md5");
    EXPECT_TRUE(r->warnings.empty());
    // The model is the one read with the hash.
    Result<Neff> hashed = read(f, "h.neff");
    ASSERT_TRUE(hashed.ok());
    ASSERT_EQ(hashed->members.size(), r->members.size());
    for (size_t m = 0; m < r->members.size(); ++m)
      EXPECT_TRUE(std::ranges::equal(hashed->members[m].bytes, r->members[m].bytes)) << r->members[m].name;
    // verify_hash computes it regardless.
    EXPECT_EQ(read_error(f, ReadOptions{.verify_hash = true, .hash = false}), ErrorCode::Hash);
  }
}

TEST(NeffFile, UncompressedMembersViewTheMappedFileAndStreamsViewTheirMembers) {
  // A pkg-1 container larger than the hash thread's threshold, read from a file: no member and no stream is a copy.
  std::vector<PackMember> members = synthetic();
  for (PackMember& m : members)
    if (m.name.ends_with(".bin")) m.bytes.resize(m.bytes.size() + 64 * 20000, 0);
  const fs::path path = fs::temp_directory_path() / fmt::format("tpbisa_view_{}.neff", ::getpid());
  {
    const std::vector<uint8_t> f = packed(members, 1);
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(f.data()), static_cast<long>(f.size()));
  }
  Result<Neff> r = read_file(path.string());
  std::error_code ec;
  fs::remove(path, ec);  // the mapping outlives the name
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(r->hash.matched.has_value());
  EXPECT_EQ(r->member_data->size(), 0U);  // nothing copied
  size_t streams = 0;
  for (const Subgraph& sg : r->subgraphs)
    for (const EngineDef& e : sg.engines) {
      const Member* m = r->member(e.stream.member);
      ASSERT_NE(m, nullptr);
      EXPECT_EQ(e.stream.bytes.data(), m->bytes.data());
      EXPECT_EQ(e.stream.bytes.size(), m->bytes.size());
      ++streams;
    }
  EXPECT_GT(streams, 0U);
  // A copy of the model views the same bytes; a changed word makes the changed stream a copy of its own.
  Neff copy = *r;
  StreamBytes& b = copy.subgraphs[0].engines[0].stream.bytes;
  const uint8_t was = b[5];
  b[5] = static_cast<uint8_t>(was ^ 0xFF);
  EXPECT_NE(b.data(), r->subgraphs[0].engines[0].stream.bytes.data());
  EXPECT_EQ(r->subgraphs[0].engines[0].stream.bytes[5], was);
  Neff again = copy;
  EXPECT_NE(again.subgraphs[0].engines[0].stream.bytes.data(), b.data());
  EXPECT_EQ(again.subgraphs[0].engines[0].stream.bytes, b);
}

TEST(NeffHostile, TrailingBytesWarnUnlessStrict) {
  PackOptions p;
  p.padding = 100;
  std::vector<uint8_t> f = *pack(synthetic(), p);
  Result<Neff> zero = read(f, "t");
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(zero->payload.padding_bytes, 100U);
  EXPECT_TRUE(zero->warnings.empty());
  f[f.size() - 3] = 7;  // garbage inside the window breaks the hash too: recompute it
  const auto digest = payload_digest(2, std::span(f).subspan(kPayloadOffset));
  const auto stored = stored_hash(digest, HashOrder::Natural);
  std::copy(stored.begin(), stored.end(), f.begin() + 0xAC);
  Result<Neff> garbage = read(f, "t");
  ASSERT_TRUE(garbage.ok());
  EXPECT_FALSE(garbage->payload.padding_zero);
  EXPECT_EQ(garbage->warnings.size(), 1U);
  EXPECT_EQ(read_error(f, ReadOptions{.strict_trailing = true}), ErrorCode::Trailing);
  std::vector<uint8_t> after = packed(synthetic());
  after.push_back(0);
  EXPECT_EQ(read(after, "t")->payload.bytes_after_window, 1U);
  EXPECT_EQ(read_error(after, ReadOptions{.strict_trailing = true}), ErrorCode::Trailing);
}

TEST(NeffHostile, StreamsMustBeWholeWordsAndNamedMembersMustExist) {
  std::vector<PackMember> m = synthetic();
  for (auto& pm : m)
    if (pm.name == "sg00/SP.bin") pm.bytes.resize(65);
  EXPECT_EQ(read_error(packed(m)), ErrorCode::StreamSize);
  for (const char* gone : {"sg00/PE.bin", "sg00/PE.json", "sg00/c.bin", "sg00/def.json", "kelf-0.json"}) {
    std::vector<PackMember> g = synthetic();
    std::erase_if(g, [&](const PackMember& pm) { return pm.name == gone; });
    EXPECT_EQ(read_error(packed(g)), ErrorCode::MissingMember) << gone;
  }
}

TEST(NeffHostile, DefinitionsOfTheWrongKindAreNamed) {
  const std::vector<std::pair<json, const char*>> bad{
      {{{"x", {{"type", "input"}, {"var_id", -1}}}}, "var_id"},
      {{{"x", {{"type", "input"}, {"var_id", 1}, {"size", 1.5}}}}, "size"},
      {{{"y", {{"type", "input"}, {"var_id", 1}}}}, "share var_id"},
      {{{"T", {{"type", "dge-table"}, {"var_id", 3}, {"list", {99}}}}}, "var_id 99"},
      {{{"v", {{"type", "virtual"}, {"var_id", 9}, {"size", 8}}}}, "backing_variable_off"},
      {{{"a", {{"type", "tmp-buf"}, {"var_id", 9}, {"alignment", 3}}}}, "power of two"},
  };
  for (const auto& [vars, what] : bad) {
    Result<Neff> r = read(packed(synthetic(1, vars)), "d.neff");
    ASSERT_FALSE(r.ok()) << what;
    EXPECT_EQ(r.error().code, ErrorCode::Definition) << r.error().to_string();
    EXPECT_EQ(r.error().member, "sg00/def.json");
    EXPECT_NE(r.error().message.find(what), std::string::npos) << r.error().message;
  }
}

TEST(NeffHostile, JsonIsBoundedInSizeAndDepth) {
  std::vector<PackMember> m = synthetic();
  for (auto& pm : m)
    if (pm.name == "info.json") pm.bytes = bytes_of(std::string(200, '[') + std::string(200, ']'));
  const std::vector<uint8_t> f = packed(m);
  EXPECT_EQ(read_error(f), ErrorCode::Json);
  EXPECT_TRUE(read(f, "t", ReadOptions{.max_json_depth = 300}).ok() == false);  // parses, but is not an object
  EXPECT_EQ(read(f, "t", ReadOptions{.max_json_depth = 300}).error().code, ErrorCode::Definition);
  EXPECT_EQ(read_error(packed(synthetic()), ReadOptions{.max_json_bytes = 10}), ErrorCode::Json);
  // Brackets inside strings do not count as nesting.
  for (auto& pm : m)
    if (pm.name == "info.json") pm.bytes = bytes_of(fmt::format(R"({{"tool_version": "{}"}})", std::string(500, '[')));
  EXPECT_TRUE(read(packed(m), "t").ok());
}

// The reader drops the whitespace beside structural characters before parsing (the compiler's JSON is indented):
// the value, the verdict on invalid documents and the positions an error quotes are those of the original text.
TEST(NeffHostile, JsonWhitespaceChangesNothing) {
  std::vector<PackMember> compact = synthetic(2);
  std::vector<PackMember> indented = compact;
  for (auto& pm : indented)
    if (pm.name.ends_with(".json")) pm.bytes = bytes_of(json::parse(pm.bytes.begin(), pm.bytes.end()).dump(4));
  Result<Neff> a = read(packed(compact), "a.neff");
  Result<Neff> b = read(packed(indented), "b.neff");
  ASSERT_TRUE(a.ok() && b.ok());
  // The JSON members' bytes differ by their whitespace; everything read from them must not.
  Neff model_b = *b;
  for (size_t i = 0; i < model_b.members.size() && i < a->members.size(); ++i)
    if (model_b.members[i].name.ends_with(".json")) model_b.members[i].bytes = a->members[i].bytes;
  expect_same_model(*a, model_b);
  EXPECT_EQ(b->subgraphs[0].queue_sets[0].semaphores, (std::vector<uint32_t>{24, 25}));
  const auto info_error = [](const std::string& text) {
    std::vector<PackMember> m = synthetic();
    for (auto& pm : m)
      if (pm.name == "info.json") pm.bytes = bytes_of(text);
    Result<Neff> r = read(packed(m), "t.neff");
    return r.ok() ? std::string("read") : r.error().message;
  };
  // Whitespace inside strings is kept; whitespace between two literals still separates them (never "12").
  std::vector<PackMember> m = synthetic();
  for (auto& pm : m)
    if (pm.name == "info.json") pm.bytes = bytes_of("{ \"tool_version\" :\n\t\" 9 .  9 \" }");
  Result<Neff> spaced = read(packed(m), "t.neff");
  ASSERT_TRUE(spaced.ok());
  EXPECT_EQ(spaced->compiler_version, " 9 .  9 ");
  EXPECT_NE(info_error("{\"tool_version\": \"9\", \"n\": [1 2]}").find("invalid JSON"), std::string::npos);
  EXPECT_NE(info_error("{\"x\": tr ue}").find("invalid JSON"), std::string::npos);
  // The position is the original's: line 3, not the line 1 of the text without its newlines.
  const std::string where = info_error("{\n  \"tool_version\": \"9\",\n  \"n\": [1 2]\n}");
  EXPECT_NE(where.find("line 3"), std::string::npos) << where;
}

TEST(NeffHostile, LimitsStopBeforeAllocating) {
  std::vector<PackMember> m = synthetic();
  m.push_back({"zeros.bin", std::vector<uint8_t>(1 << 20)});
  const std::vector<uint8_t> f = packed(m);
  EXPECT_LT(f.size(), 1U << 14);  // a small file that inflates to over a MiB
  EXPECT_EQ(read_error(f, ReadOptions{.max_inflated_bytes = 1 << 19}), ErrorCode::Limit);
  EXPECT_EQ(read_error(f, ReadOptions{.max_member_bytes = 1 << 19}), ErrorCode::Limit);
  EXPECT_EQ(read_error(f, ReadOptions{.max_members = 3}), ErrorCode::Limit);
  EXPECT_TRUE(read(f, "t").ok());
}

TEST(NeffHostile, GoldenFixturesFailTheirCheck) {
  // The hostile containers of tests/golden/neff-*/ (tests/neff/make_fixtures.py) and the check each must fail.
  const std::map<std::string, ErrorCode> cases{{"truncated-header", ErrorCode::TooSmall},
                                               {"header-size-beyond-file", ErrorCode::HeaderSize},
                                               {"data-size-beyond-file", ErrorCode::PayloadSize},
                                               {"major-version", ErrorCode::MajorVersion},
                                               {"feature-bits", ErrorCode::FeatureBits},
                                               {"pkg-version", ErrorCode::PkgVersion},
                                               {"not-gzip", ErrorCode::Gzip},
                                               {"gzip-corrupt", ErrorCode::Gzip},
                                               {"gzip-truncated", ErrorCode::Gzip},
                                               {"gzip-bad-crc", ErrorCode::Gzip},
                                               {"gzip-two-members", ErrorCode::Gzip},
                                               {"tar-garbage", ErrorCode::Tar},
                                               {"member-absolute", ErrorCode::MemberName},
                                               {"member-dotdot", ErrorCode::MemberName},
                                               {"member-symlink", ErrorCode::MemberType},
                                               {"member-hardlink", ErrorCode::MemberType},
                                               {"member-device", ErrorCode::MemberType},
                                               {"member-fifo", ErrorCode::MemberType},
                                               {"member-duplicate", ErrorCode::DuplicateMember},
                                               {"member-file-and-folder", ErrorCode::DuplicateMember},
                                               {"member-huge-declared", ErrorCode::Limit},
                                               {"json-malformed", ErrorCode::Json},
                                               {"json-deep", ErrorCode::Json},
                                               {"json-wrong-kind", ErrorCode::Definition},
                                               {"missing-kelf", ErrorCode::MissingMember},
                                               {"missing-definition", ErrorCode::MissingMember},
                                               {"missing-stream", ErrorCode::MissingMember},
                                               {"missing-constant", ErrorCode::MissingMember},
                                               {"stream-size", ErrorCode::StreamSize},
                                               {"npy-bad-header", ErrorCode::Npy}};
  for (const auto& [name, code] : cases) {
    const fs::path p = kGolden / ("neff-" + name) / "in.neff";
    ASSERT_TRUE(fs::exists(p)) << p;
    Result<Neff> r = read_file(p.string());
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_EQ(r.error().code, code) << name << ": " << r.error().to_string();
    EXPECT_EQ(r.error().file, p.string());
  }
  for (const char* good : {"info-synthetic", "info-pkg1-sha256", "info-multi-subgraph", "ls-gnu-tar", "ls-pax-tar"}) {
    Result<Neff> r = read_file((kGolden / ("neff-" + std::string(good)) / "in.neff").string());
    EXPECT_TRUE(r.ok()) << good << ": " << (r.ok() ? "" : r.error().to_string());
  }
}

TEST(NeffFixtures, CommittedFilesAreGenerated) {
  const std::string cmd =
      "/usr/bin/python3 '" + std::string(TPBISA_SOURCE_DIR) + "/tests/neff/make_fixtures.py' --check";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << "run tests/neff/make_fixtures.py and commit its output";
}

TEST(NeffDetect, IsNeffSeesHeadersNotInstructionWords) {
  EXPECT_TRUE(is_neff(packed(synthetic())));
  EXPECT_TRUE(is_neff(packed(synthetic(), 1)));
  EXPECT_FALSE(is_neff(word(0x02)));  // inst_word_len 16 in byte 1
  EXPECT_FALSE(is_neff(std::vector<uint8_t>(15, 0)));
  std::vector<uint8_t> w(64);
  w[0] = 2;  // pkg_version 2 with header_size 0: a header the §4 gate accepts (0 is below any file's size)
  EXPECT_TRUE(is_neff(w));
  store_le<uint64_t>(&w[8], uint64_t{1} << 32);
  EXPECT_FALSE(is_neff(w));
}

TEST(NeffDetect, HeaderSizeZeroIsOneAnswerForEveryReader) {
  // The detector and the reader agree: a container with header_size 0 is a NEFF, read as any other (issue 36, D17).
  std::vector<uint8_t> f = packed(synthetic());
  store_le<uint64_t>(&f[0x08], 0);
  EXPECT_TRUE(is_neff(f));
  Result<Neff> r = read(f, "zero.neff");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->header.header_size, 0U);
  EXPECT_EQ(r->streams().size(), 3U);
}

TEST(NeffExtract, RefusesANonEmptyFolderAndLeavesNothingBehind) {
  Result<Neff> n = read(packed(synthetic()), "e.neff");
  ASSERT_TRUE(n.ok());
  const fs::path base = fs::temp_directory_path() / ("tpbisa_neff_x_" + std::to_string(::getpid()));
  fs::remove_all(base);
  fs::create_directories(base / "full");
  std::ofstream(base / "full" / "keep") << "x";
  std::optional<Error> e = extract(*n, (base / "full").string());
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->code, ErrorCode::Write);
  EXPECT_EQ(std::distance(fs::directory_iterator(base / "full"), fs::directory_iterator()), 1);
  // A member that cannot be written (its folder name is taken by a file inside the model) removes the partial tree.
  Neff broken = *n;
  static constexpr uint8_t kOneByte[] = {1};
  broken.members.push_back({"sg00/PE.bin/x", kOneByte, MemberKind::Other, ""});
  EXPECT_TRUE(extract(broken, (base / "new").string()).has_value());
  EXPECT_FALSE(fs::exists(base / "new"));
  EXPECT_EQ(std::distance(fs::directory_iterator(base), fs::directory_iterator()), 1);  // only "full"
  ASSERT_FALSE(extract(*n, (base / "ok").string()).has_value());
  EXPECT_TRUE(std::ranges::equal(read_bytes(base / "ok" / "sg00" / "SP.bin"), n->member("sg00/SP.bin")->bytes));
  fs::create_directories(base / "empty");
  EXPECT_FALSE(extract(*n, (base / "empty").string()).has_value());
  fs::remove_all(base);
}

TEST(Npy, HeaderIsParsedWithBounds) {
  const auto file = [](const std::string& dict, size_t data) {
    // Sized once and filled in place (an insert after a small initializer list trips g++ 12's -Warray-bounds).
    std::vector<uint8_t> f(10 + dict.size() + data, 0);
    const uint8_t magic[] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    std::copy(std::begin(magic), std::end(magic), f.begin());
    store_le<uint16_t>(&f[8], static_cast<uint16_t>(dict.size()));
    std::copy(dict.begin(), dict.end(), f.begin() + 10);
    return f;
  };
  npy::Array a;
  std::string why;
  ASSERT_TRUE(npy::parse(file("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }\n", 24), a, why)) << why;
  EXPECT_EQ(a.item_size, 4U);
  EXPECT_EQ(a.count, 6U);
  EXPECT_EQ(a.data_bytes, 24U);
  EXPECT_EQ(npy::describe(a), "<f4 (3, 2)");
  ASSERT_TRUE(npy::parse(file("{'descr': '|u1', 'fortran_order': True, 'shape': (5,), }", 5), a, why)) << why;
  EXPECT_EQ(npy::describe(a), "|u1 (5,) fortran order");
  ASSERT_TRUE(npy::parse(file("{'descr': '<i8', 'fortran_order': False, 'shape': (), }", 8), a, why)) << why;
  EXPECT_EQ(a.count, 1U);
  // Raw bytes ('|V2', how NumPy saves bfloat16 without a native dtype) are read; a byte-ordered 'V' is not.
  ASSERT_TRUE(npy::parse(file("{'descr': '|V2', 'fortran_order': False, 'shape': (3,), }", 6), a, why)) << why;
  EXPECT_EQ(a.kind, 'V');
  EXPECT_EQ(a.item_size, 2U);
  EXPECT_EQ(a.data_bytes, 6U);
  EXPECT_FALSE(npy::parse(file("{'descr': '<V2', 'fortran_order': False, 'shape': (3,), }", 6), a, why));
  EXPECT_FALSE(npy::parse(file("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", 4), a, why));
  EXPECT_NE(why.find("little-endian"), std::string::npos);
  EXPECT_FALSE(npy::parse(file("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }", 23), a, why));
  EXPECT_FALSE(
      npy::parse(file("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }", 0), a, why));
  EXPECT_FALSE(npy::parse(file("{'descr': '<f4', 'shape': (1,), }", 4), a, why));
  std::vector<uint8_t> lying = file("{}", 0);
  store_le<uint16_t>(&lying[8], 60000);
  EXPECT_FALSE(npy::parse(lying, a, why));
  EXPECT_FALSE(npy::parse(std::vector<uint8_t>{1, 2, 3}, a, why));
}

}  // namespace
}  // namespace tpbisa::neff

namespace tpbisa::neff {
namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(NeffDocs, ExamplesAreGoldenOutput) {
  // Each ``` block of docs/neff.md that starts with "$ COMMAND" shows an excerpt of a neff-* golden case's output.
  const std::string doc = slurp(fs::path(TPBISA_SOURCE_DIR) / "docs" / "neff.md");
  size_t examples = 0;
  for (size_t at = doc.find("```\n$ "); at != std::string::npos; at = doc.find("```\n$ ", at + 1)) {
    const size_t cmd_end = doc.find('\n', at + 6);
    const size_t block_end = doc.find("```", cmd_end);
    ASSERT_NE(block_end, std::string::npos);
    const std::string cmd = doc.substr(at + 6, cmd_end - at - 6);
    const std::string body = doc.substr(cmd_end + 1, block_end - cmd_end - 1);
    bool found = false;
    for (const auto& e : fs::directory_iterator(kGolden)) {
      if (!e.path().filename().string().starts_with("neff-")) continue;
      if (slurp(e.path() / "cmd") != cmd + "\n") continue;
      found |= slurp(e.path() / "stdout").find(body) != std::string::npos ||
               slurp(e.path() / "stderr").find(body) != std::string::npos;
    }
    EXPECT_TRUE(found) << "no neff-* golden case of '" << cmd << "' prints:\n" << body;
    ++examples;
  }
  EXPECT_GE(examples, 4U);
}

// ---- bounds of the reader (issue 36: D07, D12-D14, D25, member sizes, subgraphs) ----

/// A file under the temporary folder, removed with the fixture.
class TempFile {
 public:
  explicit TempFile(const std::string& name)
      : path_(fs::temp_directory_path() / ("tpbisa_neff_" + std::to_string(::getpid()) + "_" + name)) {}
  ~TempFile() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const fs::path& path() const { return path_; }
  /// Writes `bytes`, then extends the file to `size` bytes without writing them (a sparse tail).
  void write(std::span<const uint8_t> bytes, uint64_t size = 0) const {
    {
      std::ofstream out(path_, std::ios::binary | std::ios::trunc);
      out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    if (size > bytes.size()) fs::resize_file(path_, size);
  }

 private:
  fs::path path_;
};

TEST(NeffBounds, ReadFileReadsTheHeaderThenOnlyTheWindow) {
  // A real container followed by 8 GiB that are never written: the bytes after the window are counted, not read.
  const TempFile t("tail.neff");
  const std::vector<uint8_t> real = read_bytes(kRealNeff);
  t.write(real, real.size() + (uint64_t{8} << 30));
  Result<Neff> r = read_file(t.path().string());
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->payload.bytes_after_window, uint64_t{8} << 30);
  EXPECT_EQ(r->members.size(), 72U);
  EXPECT_TRUE(std::any_of(r->warnings.begin(), r->warnings.end(), [](const Warning& w) {
    return w.message.find("8589934592 bytes after the payload window") != std::string::npos;
  }));
  // The same header in front of 100 GiB that are never written: the window is refused by its declared size.
  std::vector<uint8_t> head(real.begin(), real.begin() + kHeaderBytes);
  store_le<uint64_t>(&head[0x10], (uint64_t{100} << 30) - kHeaderBytes);
  t.write(head, uint64_t{100} << 30);
  r = read_file(t.path().string());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::Limit);
  EXPECT_NE(r.error().message.find("data_size 107374181376 exceeds the inflated-size limit of 1073741824"),
            std::string::npos)
      << r.error().to_string();
  // 6 GiB of zeros: refused by the header's pkg_version, the rest never read.
  t.write({}, uint64_t{6} << 30);
  r = read_file(t.path().string());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::PkgVersion) << r.error().to_string();
}

TEST(NeffBounds, ReadFileRefusesWhatIsNotARegularFileWithoutWaiting) {
  const TempFile t("fifo.neff");
  ASSERT_EQ(::mkfifo(t.path().c_str(), 0600), 0);
  Result<Neff> r = read_file(t.path().string());  // no writer: opening must not block
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::Io);
  EXPECT_NE(r.error().message.find("not a regular file"), std::string::npos);
  r = read_file(fs::temp_directory_path().string());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("is a directory"), std::string::npos);
}

/// Reads `bytes` as a stream (a socket: neither a regular file nor seekable) after taking `head` bytes of it.
Result<Neff> read_through_socket(const std::vector<uint8_t>& bytes, size_t head, const ReadOptions& o = {}) {
  int fds[2];
  EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  std::thread writer([&] {
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::send(fds[1], bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
      if (n <= 0) break;  // the reader stopped early
      done += static_cast<size_t>(n);
    }
    ::close(fds[1]);
  });
  std::FILE* f = ::fdopen(fds[0], "rb");
  std::vector<uint8_t> first(head);
  const size_t got = std::fread(first.data(), 1, head, f);
  first.resize(got);
  Result<Neff> r = read_stream(f, first, "<stream>", o);
  std::fclose(f);
  writer.join();
  return r;
}

TEST(NeffBounds, AStreamIsReadToItsEndHoldingOnlyHeaderAndWindow) {
  std::vector<uint8_t> f = packed(synthetic());
  const size_t window_end = f.size();
  f.resize(f.size() + 100000, 0xAB);  // after the window: counted, not held
  for (size_t head : {size_t{0}, size_t{100}, size_t{5000}}) {
    SCOPED_TRACE(head);
    Result<Neff> r = read_through_socket(f, head);
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    EXPECT_EQ(r->file_size, f.size());
    EXPECT_EQ(r->payload.bytes_after_window, f.size() - window_end);
    Result<Neff> whole = read(f, "<stream>");
    ASSERT_TRUE(whole.ok());
    expect_same_model(*r, *whole);
  }
  // A stream longer than the inflated-size limit and the header is refused as it passes it.
  Result<Neff> r = read_through_socket(f, 100, ReadOptions{.max_inflated_bytes = 50000});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::Limit);
  EXPECT_NE(r.error().message.find("more than 51024 bytes"), std::string::npos) << r.error().to_string();
  // Too short for a header: the first gate, as for a file.
  r = read_through_socket(std::vector<uint8_t>(f.begin(), f.begin() + 1000), 10);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::TooSmall);
}

TEST(NeffBounds, MemberBufferMovesOnceThenNever) {
  // A heap start for what a container usually holds; past it, one move into a reservation of the whole capacity.
  MemberData d;
  ASSERT_TRUE(d.reserve(uint64_t{64} << 20, uint64_t{1} << 20));
  EXPECT_EQ(d.room(), size_t{1} << 20);
  std::vector<uint8_t> block(100000, 0x5C);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(d.append(block.data(), block.size()));
  EXPECT_FALSE(d.mapped());
  ASSERT_TRUE(d.append(block.data(), block.size()));
  ASSERT_TRUE(d.mapped());
  const uint8_t* fixed = d.data();
  for (int i = 0; i < 39; ++i) ASSERT_TRUE(d.append(block.data(), block.size()));
  EXPECT_EQ(d.data(), fixed);  // never moved again
  EXPECT_EQ(d.size(), 5000000U);
  EXPECT_EQ(d.data()[0], 0x5C);
  EXPECT_EQ(d.data()[4999999], 0x5C);
  d.trim();
  EXPECT_LT(d.room(), 5000000U + 4096U * 16);
  EXPECT_GE(d.room(), 5000000U);
  MemberData moved(std::move(d));
  EXPECT_EQ(moved.data(), fixed);
  // Never beyond the capacity: refused, nothing appended.
  MemberData small;
  ASSERT_TRUE(small.reserve(1000, 1 << 20));
  EXPECT_EQ(small.room(), 1000U);
  ASSERT_TRUE(small.append(block.data(), 1000));
  EXPECT_FALSE(small.append(block.data(), 1));
  EXPECT_EQ(small.size(), 1000U);
}

TEST(NeffBounds, SubgraphsAndTheirStreamCopiesAreBounded) {
  std::vector<PackMember> m = synthetic();
  json kelf{{"version", "0.5"}, {"target", "cayman"}, {"graphs", json::array()}};
  for (int i = 0; i < 300; ++i)
    kelf["graphs"].push_back({{"name", "sg" + std::to_string(i)}, {"definition", "sg00/def.json"}});
  for (PackMember& p : m)
    if (p.name == "kelf-0.json") p.bytes = bytes_of(kelf.dump());
  const std::vector<uint8_t> f = packed(m);
  Result<Neff> r = read(f, "many.neff");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::Limit);
  EXPECT_EQ(r.error().member, "kelf-0.json");
  EXPECT_NE(r.error().message.find("lists 300 subgraphs, more than the subgraph limit of 256"), std::string::npos);
  r = read(f, "many.neff", ReadOptions{.max_subgraphs = 300});
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->subgraphs.size(), 300U);
  // 300 copies of the same 256 bytes of streams pass an inflated-size limit that the members alone fit.
  uint64_t members = 0;
  for (const PackMember& p : m) members += p.bytes.size();
  r = read(f, "many.neff", ReadOptions{.max_inflated_bytes = members + 20000, .max_subgraphs = 300});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::Limit);
  EXPECT_NE(r.error().message.find("copies of their streams exceed"), std::string::npos) << r.error().to_string();
}

TEST(NeffBounds, JsonWithDuplicateKeysOrANulIsRefused) {
  const auto with = [](const std::string& member, const std::string& text) {
    std::vector<PackMember> m = synthetic();
    for (PackMember& p : m)
      if (p.name == member) p.bytes = bytes_of(text);
    return read(packed(m), "j.neff");
  };
  Result<Neff> r = with("info.json", R"({"tool_version": "1", "tool_version": "2"})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::Json);
  EXPECT_EQ(r.error().member, "info.json");
  EXPECT_EQ(r.error().message, "invalid JSON: duplicate key \"tool_version\"");
  // Nested, in the whitespace-free copy the parser reads.
  r = with("kelf-0.json",
           "{\"graphs\": [{\"name\": \"sg00\",\n \"name\": \"sg01\", \"definition\": \"sg00/def.json\"}]}");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "invalid JSON: duplicate key \"name\"");
  // The same key in two objects is no duplicate.
  EXPECT_TRUE(with("info.json", R"({"a": {"k": 1}, "b": {"k": 2}, "tool_version": "1"})").ok());
  std::string nul = R"({"tool_version": "1"})";
  nul += std::string(1, '\0') + "garbage";
  r = with("info.json", nul);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::Json);
  EXPECT_EQ(r.error().message, "invalid JSON: a NUL byte at byte 21");
}

/// The one gzip member of a packed container's window (pack writes no padding).
std::vector<uint8_t> container_with_window(std::vector<uint8_t> f, std::vector<uint8_t> window) {
  f.resize(kHeaderBytes);
  store_le<uint64_t>(&f[0x10], window.size());
  f.insert(f.end(), window.begin(), window.end());
  return f;
}

TEST(NeffBounds, GzipHeaderAndTrailerFaultsAreNamed) {
  const std::vector<uint8_t> f = packed(synthetic());
  const std::vector<uint8_t> gz(f.begin() + kHeaderBytes, f.end());
  const auto message = [](const std::vector<uint8_t>& bytes) {
    Result<Neff> r = read(bytes, "g.neff");
    EXPECT_FALSE(r.ok());
    if (r.ok()) return std::string();
    EXPECT_EQ(r.error().code, ErrorCode::Gzip) << r.error().to_string();
    return r.error().message;
  };
  std::vector<uint8_t> w = gz;
  w[2] = 7;
  EXPECT_EQ(message(container_with_window(f, w)), "gzip: compression method 7 is not deflate (8)");
  w = gz;
  w[3] |= 0x40;
  EXPECT_EQ(message(container_with_window(f, w)), "gzip: reserved flag bits 0x40 are set (FLG 0x40)");
  w.assign(gz.begin(), gz.begin() + 6);
  EXPECT_EQ(message(container_with_window(f, w)), "gzip: the 6-byte payload is too short for the 10-byte gzip header");
  for (size_t cut : {size_t{8}, size_t{3}}) {
    w.assign(gz.begin(), gz.end() - static_cast<ptrdiff_t>(cut));  // the trailer, or part of it, missing
    const std::string m = message(container_with_window(f, w));
    EXPECT_EQ(m.find("unknown"), std::string::npos) << m;
    EXPECT_NE(m.find("gzip: "), std::string::npos) << m;
    EXPECT_NE(m.find("trailer"), std::string::npos) << m;
  }
}

/// A ustar block for a regular file of any name (up to 100 bytes) and `size` bytes.
std::vector<uint8_t> ustar_block(std::string_view name, size_t size) {
  std::vector<uint8_t> h(512, 0);
  std::copy_n(name.begin(), std::min<size_t>(name.size(), 100), h.begin());
  const auto put = [&](size_t at, const std::string& text) { std::copy(text.begin(), text.end(), h.begin() + at); };
  put(100, "0000644");
  put(108, "0000000");
  put(116, "0000000");
  char octal[16];
  std::snprintf(octal, sizeof octal, "%011zo", size);
  put(124, octal);
  put(136, "00000000000");
  h[156] = '0';
  put(257, std::string("ustar\0"
                       "00",
                       8));
  std::fill(h.begin() + 148, h.begin() + 156, ' ');
  unsigned sum = 0;
  for (uint8_t b : h) sum += b;
  std::snprintf(octal, sizeof octal, "%06o", sum);
  put(148, std::string(octal, 6) + std::string("\0 ", 2));
  return h;
}

/// A pkg_version 1 container whose tar holds `members` as written (names are not checked here).
std::vector<uint8_t> raw_container(const std::vector<PackMember>& members) {
  std::vector<uint8_t> tar;
  for (const PackMember& m : members) {
    const std::vector<uint8_t> h = ustar_block(m.name, m.bytes.size());
    tar.insert(tar.end(), h.begin(), h.end());
    tar.insert(tar.end(), m.bytes.begin(), m.bytes.end());
    tar.resize((tar.size() + 511) / 512 * 512, 0);
  }
  tar.resize(tar.size() + 1024, 0);
  Header h;
  h.pkg_version = 1;
  h.data_size = tar.size();
  const std::array<uint8_t, kHeaderBytes> head = encode_header(h);
  std::vector<uint8_t> f(head.begin(), head.end());
  f.insert(f.end(), tar.begin(), tar.end());
  return f;
}

TEST(NeffBounds, TextThatIsNotUtf8OrHoldsControlCharactersIsEscaped) {
  // Valid UTF-8 is kept; every byte outside a well-formed sequence is \xNN; controls too on one line.
  EXPECT_EQ(escape_text("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  EXPECT_EQ(escape_text("a\xff"
                        "b\xc0\x80"
                        "c"),
            "a\\xffb\\xc0\\x80c");  // a stray byte, an overlong form
  EXPECT_EQ(escape_text("\xed\xa0\x80"
                        "\xf4\x90\x80\x80"),
            "\\xed\\xa0\\x80\\xf4\\x90\\x80\\x80");  // surrogate, > U+10FFFF
  EXPECT_EQ(escape_text("\xe2\x82"), "\\xe2\\x82");  // cut short
  EXPECT_EQ(escape_text("a\nb\x1b[31m"), "a\\x0ab\\x1b[31m");
  EXPECT_EQ(escape_text("a\nb\xff", false), "a\nb\\xff");

  // Header strings and a member name that are not UTF-8: the JSON documents are valid UTF-8 and serialise.
  std::vector<PackMember> m = synthetic();
  m.push_back({"odd\xff\xfe.bin", bytes_of("x")});
  std::vector<uint8_t> f = raw_container(m);
  const std::string bad_name = "name\xff\xfe";
  std::copy(bad_name.begin(), bad_name.end(), f.begin() + 0xDC);
  f[0x28] = 0xC0;  // neff_build_version: an overlong form's first byte
  Result<Neff> r = read(f, "u.neff");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  ASSERT_NE(r->member("odd\xff\xfe.bin"), nullptr);  // the name itself is kept: extract writes it as it is
  const std::string info = io::neff_info_json(*r).dump();
  EXPECT_NE(info.find(R"("name":"name\\xff\\xfe")"), std::string::npos) << info;
  EXPECT_NE(info.find(R"("neff_build_version":"\\xc0")"), std::string::npos);
  nlohmann::ordered_json ls{{"members", {{{"name", r->members.back().name}}}}};
  io::escape_strings(ls);
  EXPECT_EQ(ls.dump(), R"({"members":[{"name":"odd\\xff\\xfe.bin"}]})");

  // A warning that quotes a name with a newline: one escaped line.
  m = synthetic();
  for (PackMember& p : m)
    if (p.name == "sg00/PE.json") p.bytes = bytes_of(R"({"dve_tables": [{"t": "a\nb.bin"}]})");
  r = read(packed(m), "w.neff");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  ASSERT_EQ(r->warnings.size(), 1U);
  EXPECT_EQ(r->warnings[0].message, "names DVE table 'a\\x0ab.bin', which is not in the archive");

  // A member name with a newline and an escape sequence: refused, on one line, the name escaped.
  m = synthetic();
  m.push_back({"evil\n\x1b[2J.bin", bytes_of("x")});
  r = read(raw_container(m), "u.neff");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::MemberName);
  EXPECT_EQ(r.error().to_string(), "u.neff: evil\\x0a\\x1b[2J.bin: the name holds a control character");
}

}  // namespace
}  // namespace tpbisa::neff

namespace tpbisa {
namespace {

TEST(NeffRunInputs, Bfloat16AndFp8AcceptRawByteArrays) {
  // Inputs without a native NumPy dtype arrive as raw words or raw bytes; the accepted spellings are documented
  // in docs/cli.md (--input).
  const std::vector<std::string> bf16 = neff::npy_descrs_for("bfloat16");
  for (const char* d : {"<u2", "<i2", "|V2"}) EXPECT_NE(std::find(bf16.begin(), bf16.end(), d), bf16.end()) << d;
  const std::vector<std::string> fp8 = neff::npy_descrs_for("float8_e4m3");
  for (const char* d : {"|u1", "|i1", "|V1"}) EXPECT_NE(std::find(fp8.begin(), fp8.end(), d), fp8.end()) << d;
  const std::vector<std::string> f16 = neff::npy_descrs_for("float16");
  EXPECT_EQ(std::find(f16.begin(), f16.end(), "|V2"), f16.end());  // a native dtype is required where one exists
}

}  // namespace
}  // namespace tpbisa
