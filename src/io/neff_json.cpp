// The JSON documents of `tpbisa neff info --json` and `tpbisa neff sems --json`, shared by the command line and the
// Python module so the two cannot drift apart.
#include "tpbisa/io/neff_json.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tpbisa/instruction.hpp"
#include "tpbisa/io/neff_text.hpp"

namespace tpbisa::io {
namespace {

using ojson = nlohmann::ordered_json;

std::vector<unsigned> set_bits(uint64_t v) {
  std::vector<unsigned> bits;
  for (unsigned b = 0; b < 64; ++b)
    if ((v >> b) & 1U) bits.push_back(b);
  return bits;
}

ojson tensor_json(const neff::Tensor& t) {
  return {{"name", t.name}, {"dtype", t.dtype}, {"shape", t.shape}};
}

std::string_view kind_text(neff::SemUse::Kind k) {
  switch (k) {
    case neff::SemUse::Kind::Wait: return "wait";
    case neff::SemUse::Kind::Update: return "update";
    case neff::SemUse::Kind::DmaCompletion: return "dma-completion";
  }
  return "?";
}

ojson use_json(const neff::SemUse& u) {
  ojson j{
      {"kind", kind_text(u.kind)}, {"stream", u.stream}, {"word", u.word}, {"mnemonic", u.mnemonic}, {"mode", u.mode},
      {"value", u.value},          {"text", u.text}};
  if (!u.queue_set.empty()) j["queue_set"] = u.queue_set;
  if (!u.note.empty()) j["note"] = u.note;
  return j;
}

}  // namespace

void escape_strings(ojson& doc) {
  if (doc.is_string()) {
    std::string& text = doc.get_ref<std::string&>();
    std::string safe = neff::escape_text(text, false);
    if (safe != text) text = std::move(safe);
  } else if (doc.is_array()) {
    for (ojson& v : doc) escape_strings(v);
  } else if (doc.is_object()) {
    bool renamed = false;
    for (auto it = doc.begin(); it != doc.end(); ++it) {
      escape_strings(it.value());
      renamed = renamed || neff::escape_text(it.key(), false) != it.key();
    }
    if (!renamed) return;
    ojson fixed = ojson::object();
    for (auto it = doc.begin(); it != doc.end(); ++it)
      fixed[neff::escape_text(it.key(), false)] = std::move(it.value());
    doc = std::move(fixed);
  }
}

std::vector<std::pair<std::string, size_t>> opcode_histogram(const neff::Stream& s, Generation gen) {
  std::map<std::string, size_t> counts;
  for (size_t i = 0; i < s.word_count(); ++i) {
    const Instruction inst = decode(s.word(i), gen);
    const std::string name = inst.status == DecodeStatus::Unknown ? fmt::format("unknown(0x{:02x})", inst.opcode())
                                                                  : std::string(inst.name());
    ++counts[name];
  }
  std::vector<std::pair<std::string, size_t>> v(counts.begin(), counts.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return v;
}

const neff::Tensor* graph_tensor(const neff::Neff& n, const std::string& name) {
  for (const auto* list : {&n.inputs, &n.outputs})
    for (const neff::Tensor& t : *list)
      if (t.name == name) return &t;
  return nullptr;
}

ojson neff_warnings_json(const neff::Neff& n) {
  ojson list = ojson::array();
  for (const neff::Warning& w : n.warnings) list.push_back({{"member", w.member}, {"message", w.message}});
  escape_strings(list);
  return list;
}

ojson neff_info_json(const neff::Neff& n) {
  const neff::Header& h = n.header;
  const Generation gen = n.generation.value_or(kDefaultGeneration);
  ojson header{{"pkg_version", h.pkg_version},
               {"header_size", h.header_size},
               {"data_size", h.data_size},
               {"neff_version_major", h.neff_version_major},
               {"neff_version_minor", h.neff_version_minor},
               {"neff_build_version", h.build_version_text()},
               {"num_tpb", h.num_tpb},
               {"hash", hex_bytes(h.hash)},
               {"uuid", hex_bytes(h.uuid)},
               {"name", h.name_text()},
               {"requested_tpb_count", h.requested_tpb_count},
               {"tpb_per_node", std::vector<unsigned>(h.tpb_per_node.begin(), h.tpb_per_node.end())},
               {"feature_bits", h.feature_bits},
               {"feature_bits_set", set_bits(h.feature_bits)},
               {"lnc_size", h.lnc_size}};
  ojson hash{{"algorithm", n.hash.algorithm},
             {"computed", hex_bytes(n.hash.computed)},
             {"stored", hex_bytes(n.hash.stored)},
             {"matched", n.hash.matched ? ojson(to_string(*n.hash.matched)) : ojson(nullptr)}};
  ojson payload{{"window_bytes", n.payload.window_bytes},
                {"compressed_bytes", n.payload.compressed_bytes},
                {"padding_bytes", n.payload.padding_bytes},
                {"padding_zero", n.payload.padding_zero},
                {"tar_bytes", n.payload.tar_bytes},
                {"members", n.members.size()},
                {"bytes_after_window", n.payload.bytes_after_window}};
  ojson subgraphs = ojson::array();
  for (const neff::Subgraph& sg : n.subgraphs) {
    ojson engines = ojson::array();
    size_t words = 0;
    for (const neff::EngineDef& e : sg.engines) {
      ojson hist = ojson::object();
      for (const auto& [name, c] : opcode_histogram(e.stream, gen)) hist[name] = c;
      words += e.stream.word_count();
      engines.push_back({{"engine", to_string(e.engine)},
                         {"index", static_cast<unsigned>(e.engine)},
                         {"label", e.stream.label()},
                         {"member", e.stream.member},
                         {"json", e.json_member},
                         {"words", e.stream.word_count()},
                         {"opcodes", hist},
                         {"dma_descriptors", e.dma_descriptors},
                         {"tables", e.tables},
                         {"act_semaphore", e.act_semaphore ? ojson(*e.act_semaphore) : ojson(nullptr)}});
    }
    ojson vars = ojson::array();
    for (const neff::Variable& v : sg.variables) {
      ojson j{
          {"name", v.name}, {"id", v.id}, {"type", v.type_name}, {"size", v.size ? ojson(*v.size) : ojson(nullptr)}};
      if (const neff::Tensor* t = graph_tensor(n, v.name);
          t != nullptr && (v.type == neff::VarType::Input || v.type == neff::VarType::Output)) {
        j["dtype"] = t->dtype;
        j["shape"] = t->shape;
      }
      if (v.alignment) j["alignment"] = *v.alignment;
      if (!v.fabric_path.empty()) j["fabric_path"] = v.fabric_path;
      if (v.constant) {
        j["file"] = v.constant->member;
        j["file_bytes"] = v.constant->member_bytes;
        if (v.constant->array) {
          j["dtype"] = v.constant->array->descr;
          j["shape"] = v.constant->array->shape;
          j["data_bytes"] = v.constant->array->data_bytes;
        }
      }
      if (v.backing_offset) j["backing_variable_off"] = *v.backing_offset;
      if (v.referenced_var_id) j["referenced_var_id"] = *v.referenced_var_id;
      if (v.type == neff::VarType::DgeTable) j["list"] = v.list;
      vars.push_back(std::move(j));
    }
    ojson queues = ojson::array();
    for (const neff::QueueSet& q : sg.queue_sets)
      queues.push_back({{"name", q.name},
                        {"type", q.type},
                        {"owner", q.owner},
                        {"num_queues", q.num_queues},
                        {"semaphore_set", q.semaphores},
                        {"fabric_path", q.fabric_path}});
    subgraphs.push_back({{"name", sg.name},
                         {"definition", sg.definition},
                         {"version", sg.version},
                         {"words", words},
                         {"engines", engines},
                         {"variables", vars},
                         {"virtual_scratch_bytes", sg.virtual_scratch_bytes},
                         {"queue_sets", queues}});
  }
  ojson inputs = ojson::array(), outputs = ojson::array();
  for (const neff::Tensor& t : n.inputs) inputs.push_back(tensor_json(t));
  for (const neff::Tensor& t : n.outputs) outputs.push_back(tensor_json(t));
  ojson doc{{"file", n.file},
            {"file_bytes", n.file_size},
            {"header", header},
            {"hash_check", hash},
            {"payload", payload},
            {"kelf", n.kelf_member},
            {"kelf_version", n.kelf_version},
            {"target", n.target},
            {"generation", n.generation ? ojson(to_string(*n.generation)) : ojson(nullptr)},
            {"compiler_version", n.compiler_version},
            {"lnc_size", h.lnc_size},
            {"inputs", inputs},
            {"outputs", outputs},
            {"subgraphs", subgraphs},
            {"warnings", neff_warnings_json(n)}};
  escape_strings(doc);
  return doc;
}

ojson neff_sems_subgraphs_json(const std::vector<neff::SubgraphSems>& picture) {
  ojson subgraphs = ojson::array();
  for (const neff::SubgraphSems& sg : picture) {
    ojson sems = ojson::array();
    for (const neff::SemaphoreUses& s : sg.semaphores) {
      ojson waits = ojson::array(), incs = ojson::array();
      for (const auto& u : s.waits) waits.push_back(use_json(u));
      for (const auto& u : s.increments) incs.push_back(use_json(u));
      sems.push_back({{"semaphore", s.index}, {"queue_sets", s.queue_sets}, {"waits", waits}, {"increments", incs}});
    }
    subgraphs.push_back({{"subgraph", sg.subgraph}, {"semaphores", sems}});
  }
  return subgraphs;
}

ojson neff_sems_json(const neff::Neff& n) {
  ojson doc{{"file", n.file},
            {"generation", to_string(n.generation.value_or(kDefaultGeneration))},
            {"subgraphs", neff_sems_subgraphs_json(neff::semaphore_picture(n))},
            {"warnings", neff_warnings_json(n)}};
  escape_strings(doc);
  return doc;
}

}  // namespace tpbisa::io
