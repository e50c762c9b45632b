// The NEFF reader (neff.md §8): header and hash, payload, members, then the model neff.json, kelf and def.json
// describe.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <system_error>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>

#include "neff/internal.hpp"
#include "tpbisa/address.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::neff {
namespace {

using nlohmann::json;

std::string hex(std::span<const uint8_t> bytes) {
  std::string s;
  s.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) s += fmt::format("{:02x}", b);
  return s;
}

std::string join(std::string_view folder, std::string_view name) {
  name = detail::strip_dot_slash(name);
  if (folder.empty()) return std::string(name);
  return fmt::format("{}/{}", folder, name);
}

std::string_view json_kind(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "a list";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer: return "a negative integer";
    case json::value_t::number_unsigned: return "an integer";
    case json::value_t::number_float: return "a fraction";
    default: return "something else";
  }
}

/// PROJ-CONV-X7: kelf `target` strings (the runtime's, plus `maverick`/`v5` for the generation it does not name).
std::optional<Generation> target_generation(std::string_view target) {
  if (target == "sunda" || target == "v2") return Generation::Sunda;
  if (target == "cayman" || target == "v3") return Generation::Cayman;
  if (target == "mariana" || target == "v4") return Generation::Mariana;
  if (target == "maverick" || target == "v5") return Generation::Maverick;
  return std::nullopt;
}

VarType var_type(std::string_view t) {
  if (t == "state-buffer") return VarType::StateBuffer;
  if (t == "input") return VarType::Input;
  if (t == "output") return VarType::Output;
  if (t == "file") return VarType::File;
  if (t == "tmp-buf") return VarType::TmpBuf;
  if (t == "virtual") return VarType::Virtual;
  if (t == "pointer") return VarType::Pointer;
  if (t == "dge-table") return VarType::DgeTable;
  return VarType::Other;
}

/// Builds the model from the members; every failure names the member it was reading.
class Builder {
 public:
  Builder(Neff& n, const ReadOptions& o) : n_(n), o_(o) {
    index_.reserve(n_.members.size());
    for (size_t i = 0; i < n_.members.size(); ++i) index_.emplace(n_.members[i].name, i);
  }

  std::optional<Error> build() {
    if (auto e = read_graph()) return e;
    if (auto e = read_kelf()) return e;
    if (auto e = read_info()) return e;
    for (Subgraph& sg : n_.subgraphs)
      if (auto e = read_definition(sg)) return e;
    classify_rest();
    return std::nullopt;
  }

 private:
  Error fail(ErrorCode code, std::string member, std::string message) const {
    return Error{code, n_.file, std::move(member), std::move(message)};
  }
  Error bad(const std::string& member, std::string message) const {
    return fail(ErrorCode::Definition, member, std::move(message));
  }

  Member* find(std::string_view name) {
    const auto it = index_.find(name);
    return it == index_.end() ? nullptr : &n_.members[it->second];
  }

  void mark(Member& m, MemberKind kind, std::string role) {
    if (m.kind != MemberKind::Other) return;  // the first description wins (a file two keys name)
    m.kind = kind;
    m.role = std::move(role);
  }

  std::optional<Error> load_json(const Member& m, json& out) {
    return detail::parse_json(m, n_.file, o_, out, json_scratch_);
  }

  std::optional<Error> need_member(const std::string& from, const std::string& name, std::string_view what,
                                   Member*& out) {
    out = find(name);
    if (out != nullptr) return std::nullopt;
    return fail(ErrorCode::MissingMember, from,
                fmt::format("names '{}' ({}), which is not in the archive", name, what));
  }

  // Typed look-ups: absent is fine where the value is optional, the wrong kind never is.
  std::optional<Error> get_string(const json& obj, const char* key, const std::string& member, std::string& out,
                                  bool required) {
    const auto it = obj.find(key);
    if (it == obj.end()) {
      if (required) return bad(member, fmt::format("has no '{}'", key));
      return std::nullopt;
    }
    if (!it->is_string()) return bad(member, fmt::format("'{}' is {}, not a string", key, json_kind(*it)));
    out = it->get<std::string>();
    return std::nullopt;
  }
  std::optional<Error> get_u64(const json& obj, const char* key, const std::string& member,
                               std::optional<uint64_t>& out, uint64_t max = std::numeric_limits<uint64_t>::max()) {
    const auto it = obj.find(key);
    if (it == obj.end()) return std::nullopt;
    if (!it->is_number_unsigned())
      return bad(member, fmt::format("'{}' is {}, not a non-negative integer", key, json_kind(*it)));
    const uint64_t v = it->get<uint64_t>();
    if (v > max) return bad(member, fmt::format("'{}' = {} exceeds {}", key, v, max));
    out = v;
    return std::nullopt;
  }
  std::optional<Error> u64_list(const json& j, const std::string& member, std::string_view what, uint64_t max,
                                std::vector<uint64_t>& out) {
    if (!j.is_array()) return bad(member, fmt::format("{} is {}, not a list", what, json_kind(j)));
    out.clear();
    out.reserve(j.size());
    for (const json& v : j) {
      if (!v.is_number_unsigned() || v.get<uint64_t>() > max)
        return bad(member, fmt::format("{} holds {}, not an integer up to {}", what, json_kind(v), max));
      out.push_back(v.get<uint64_t>());
    }
    return std::nullopt;
  }

  // ---- neff.json: the kelf file it names, inputs and outputs ----

  std::optional<Error> tensor_list(const json& sig, const std::string& member, std::vector<Tensor>& out) {
    if (!sig.is_object()) return bad(member, "a signature list is not an object");
    std::vector<std::pair<uint64_t, Tensor>> by_id;
    for (const auto& [name, t] : sig.items()) {
      if (!t.is_object()) return bad(member, fmt::format("signature '{}' is not an object", name));
      Tensor tensor;
      tensor.name = name;
      if (auto e = get_string(t, "dtype", member, tensor.dtype, false)) return e;
      if (t.contains("shape"))
        if (auto e = u64_list(t["shape"], member, fmt::format("the shape of '{}'", name),
                              std::numeric_limits<uint64_t>::max(), tensor.shape))
          return e;
      std::optional<uint64_t> id;
      if (auto e = get_u64(t, "id", member, id)) return e;
      by_id.emplace_back(id.value_or(by_id.size()), std::move(tensor));
    }
    std::stable_sort(by_id.begin(), by_id.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [id, t] : by_id) out.push_back(std::move(t));
    return std::nullopt;
  }

  /// A graph entry (node output) as a tensor: its shape and dtype from attrs via node_row_ptr.
  std::optional<Tensor> entry_tensor(const json& g, uint64_t node, uint64_t output) {
    const json& nodes = g["nodes"];
    if (node >= nodes.size() || !nodes[node].is_object()) return std::nullopt;
    Tensor t;
    const json& n = nodes[node];
    const auto names = n.find("output_names");
    if (names != n.end() && names->is_array() && output < names->size() && (*names)[output].is_string())
      t.name = (*names)[output].get<std::string>();
    else if (n.contains("name") && n["name"].is_string())
      t.name = n["name"].get<std::string>();
    const auto rows = g.find("node_row_ptr");
    if (rows == g.end() || !rows->is_array() || node >= rows->size() || !(*rows)[node].is_number_unsigned()) return t;
    const uint64_t entry = (*rows)[node].get<uint64_t>() + output;
    const auto attrs = g.find("attrs");
    if (attrs == g.end() || !attrs->is_object()) return t;
    const auto pick = [&](const char* key) -> const json* {
      const auto it = attrs->find(key);
      if (it == attrs->end() || !it->is_array() || it->size() != 2 || !(*it)[1].is_array() || entry >= (*it)[1].size())
        return nullptr;
      return &(*it)[1][entry];
    };
    if (const json* dt = pick("dltype"); dt != nullptr && dt->is_string()) t.dtype = dt->get<std::string>();
    if (const json* sh = pick("shape"); sh != nullptr && sh->is_array())
      for (const json& d : *sh)
        if (d.is_number_unsigned()) t.shape.push_back(d.get<uint64_t>());
    return t;
  }

  std::optional<Error> read_graph() {
    Member* m = find("neff.json");
    if (m == nullptr) return std::nullopt;
    mark(*m, MemberKind::Graph, "graph description");
    json g;
    if (auto e = load_json(*m, g)) return e;
    if (!g.is_object()) return bad(m->name, fmt::format("is {}, not an object", json_kind(g)));
    has_graph_ = true;
    const auto nodes = g.find("nodes");
    if (nodes == g.end() || !nodes->is_array()) return bad(m->name, "has no 'nodes' list");
    for (const json& node : *nodes) {
      if (!node.is_object() || node.value("op", json()) != "tvm_op") continue;
      const auto attrs = node.find("attrs");
      if (attrs == node.end() || !attrs->is_object() || !attrs->contains("kelf")) continue;
      if (!(*attrs)["kelf"].is_string()) return bad(m->name, "a tvm_op node's 'kelf' is not a string");
      kelf_name_ = std::string(detail::strip_dot_slash((*attrs)["kelf"].get<std::string>()));
      break;
    }
    if (kelf_name_.empty()) return bad(m->name, "no tvm_op node names a kelf file (attrs.kelf)");

    // Inputs and outputs: the default signature when it lists them, else the graph's argument and head entries.
    const json* sig = nullptr;
    if (auto meta = g.find("metadata"); meta != g.end() && meta->is_object())
      if (auto sigs = meta->find("signatures"); sigs != meta->end() && sigs->is_object())
        if (auto def = sigs->find("default"); def != sigs->end() && def->is_object()) sig = &*def;
    if (sig != nullptr && sig->contains("inputs") && !(*sig)["inputs"].empty()) {
      if (auto e = tensor_list((*sig)["inputs"], m->name, n_.inputs)) return e;
    } else if (auto args = g.find("arg_nodes"); args != g.end() && args->is_array()) {
      for (const json& a : *args)
        if (a.is_number_unsigned())
          if (auto t = entry_tensor(g, a.get<uint64_t>(), 0)) n_.inputs.push_back(std::move(*t));
    }
    if (sig != nullptr && sig->contains("outputs") && !(*sig)["outputs"].empty()) {
      if (auto e = tensor_list((*sig)["outputs"], m->name, n_.outputs)) return e;
    } else if (auto heads = g.find("heads"); heads != g.end() && heads->is_array()) {
      for (const json& h : *heads) {
        if (!h.is_array() || h.size() < 2 || !h[0].is_number_unsigned() || !h[1].is_number_unsigned()) continue;
        auto t = entry_tensor(g, h[0].get<uint64_t>(), h[1].get<uint64_t>());
        if (!t) continue;
        // Several heads may name one output (each core writes part of output0).
        const bool seen =
            std::any_of(n_.outputs.begin(), n_.outputs.end(), [&](const Tensor& o) { return o.name == t->name; });
        if (!seen) n_.outputs.push_back(std::move(*t));
      }
    }
    return std::nullopt;
  }

  // ---- kelf: subgraphs and target ----

  std::optional<Error> read_kelf() {
    Member* m = nullptr;
    if (has_graph_) {
      if (auto e = need_member("neff.json", kelf_name_, "the kelf file", m)) return e;
    } else {
      // No neff.json: the archive's one top-level kelf-*.json.
      for (Member& c : n_.members)
        if (c.name.starts_with("kelf-") && c.name.ends_with(".json") && c.name.find('/') == std::string::npos) {
          if (m != nullptr)
            return fail(ErrorCode::MissingMember, "", "no neff.json, and more than one kelf-*.json member");
          m = &c;
        }
      if (m == nullptr)
        return fail(ErrorCode::MissingMember, "", "neither neff.json nor a kelf-*.json member is present");
    }
    mark(*m, MemberKind::Kelf, "subgraph list");
    n_.kelf_member = m->name;
    json k;
    if (auto e = load_json(*m, k)) return e;
    if (!k.is_object()) return bad(m->name, fmt::format("is {}, not an object", json_kind(k)));
    if (auto e = get_string(k, "version", m->name, n_.kelf_version, false)) return e;
    if (auto e = get_string(k, "target", m->name, n_.target, false)) return e;
    n_.generation = target_generation(n_.target);
    if (!n_.generation && n_.target != "*")
      n_.warnings.push_back({m->name, n_.target.empty()
                                          ? std::string("no 'target': the generation is unknown")
                                          : fmt::format("target '{}' names no known generation", n_.target)});
    const auto graphs = k.find("graphs");
    if (graphs == k.end() || !graphs->is_array()) return bad(m->name, "has no 'graphs' list");
    // Each subgraph is a model built from its def.json and, in a run, a core: bounded before any is built.
    if (graphs->size() > o_.max_subgraphs)
      return fail(
          ErrorCode::Limit, m->name,
          fmt::format("lists {} subgraphs, more than the subgraph limit of {}", graphs->size(), o_.max_subgraphs));
    for (const json& g : *graphs) {
      if (!g.is_object()) return bad(m->name, "a 'graphs' entry is not an object");
      Subgraph sg;
      if (auto e = get_string(g, "name", m->name, sg.name, true)) return e;
      if (auto e = get_string(g, "definition", m->name, sg.definition, true)) return e;
      sg.definition = std::string(detail::strip_dot_slash(sg.definition));
      const size_t slash = sg.definition.rfind('/');
      sg.folder = slash == std::string::npos ? std::string() : sg.definition.substr(0, slash);
      for (const Subgraph& other : n_.subgraphs)
        if (other.name == sg.name) return bad(m->name, fmt::format("two subgraphs are named '{}'", sg.name));
      n_.subgraphs.push_back(std::move(sg));
    }
    return std::nullopt;
  }

  std::optional<Error> read_info() {
    Member* m = find("info.json");
    if (m == nullptr) return std::nullopt;
    mark(*m, MemberKind::Info, "build information");
    json info;
    if (auto e = load_json(*m, info)) return e;
    if (!info.is_object()) return bad(m->name, fmt::format("is {}, not an object", json_kind(info)));
    return get_string(info, "tool_version", m->name, n_.compiler_version, false);
  }

  // ---- def.json ----

  std::optional<Error> read_engine(Subgraph& sg, const json& d, const std::string& def_member, Engine eng) {
    const std::string key(engine_key(eng));
    const std::string instr_key = key + "_instr";
    if (!d.contains(key) && !d.contains(instr_key)) return std::nullopt;
    EngineDef ed;
    ed.engine = eng;
    std::string instr;
    if (auto e = get_string(d, instr_key.c_str(), def_member, instr, true)) return e;
    Member* stream = nullptr;
    if (auto e = need_member(def_member, join(sg.folder, instr), fmt::format("its {}", instr_key), stream)) return e;
    ed.stream.subgraph = sg.name;
    ed.stream.engine = eng;
    ed.stream.member = stream->name;
    if (stream->bytes.size() % kWordBytes != 0)
      return fail(
          ErrorCode::StreamSize, stream->name,
          fmt::format("{} bytes is not a whole number of 64-byte instructions ({} trailing bytes, PROJ-CONV-X6)",
                      stream->bytes.size(), stream->bytes.size() % kWordBytes));
    // Subgraphs may name one stream: their copies together are bounded as the members are.
    if (stream->bytes.size() > o_.max_inflated_bytes - std::min(o_.max_inflated_bytes, stream_bytes_))
      return fail(ErrorCode::Limit, stream->name,
                  fmt::format("the subgraphs' copies of their streams exceed {} bytes, the inflated-size limit",
                              o_.max_inflated_bytes));
    stream_bytes_ += stream->bytes.size();
    ed.stream.bytes = StreamBytes(stream->bytes);
    mark(*stream, MemberKind::Stream, fmt::format("{} stream, {} words", ed.stream.label(), ed.stream.word_count()));

    std::string json_name;
    if (auto e = get_string(d, key.c_str(), def_member, json_name, false)) return e;
    if (!json_name.empty()) {
      Member* em = nullptr;
      if (auto e = need_member(def_member, join(sg.folder, json_name), fmt::format("its {} engine file", key), em))
        return e;
      ed.json_member = em->name;
      mark(*em, MemberKind::EngineJson, fmt::format("{} engine description", ed.stream.label()));
      json ej;
      if (auto e = load_json(*em, ej)) return e;
      if (!ej.is_object()) return bad(em->name, fmt::format("is {}, not an object", json_kind(ej)));
      if (auto dma = ej.find("dma"); dma != ej.end()) {
        if (!dma->is_array()) return bad(em->name, "'dma' is not a list");
        ed.dma_descriptors = dma->size();
        for (const json& b : *dma)
          if (b.is_object() && b.contains("queue"))
            if (auto e = read_dma_block(b, em->name, ed.dma_blocks)) return e;
      }
      if (auto tables = ej.find("dve_tables"); tables != ej.end()) {
        if (!tables->is_array()) return bad(em->name, "'dve_tables' is not a list");
        for (const json& t : *tables) {
          if (!t.is_object()) return bad(em->name, "a 'dve_tables' entry is not an object");
          for (const auto& [role, file] : t.items()) {
            if (!file.is_string()) return bad(em->name, fmt::format("DVE table '{}' is not a file name", role));
            ed.tables.push_back(file.get<std::string>());
            if (Member* tm = find(join(sg.folder, file.get<std::string>())))
              mark(*tm, MemberKind::DveTable, fmt::format("{} DVE table ({})", sg.name, role));
            else
              n_.warnings.push_back({em->name, fmt::format("names DVE table '{}', which is not in the archive",
                                                           file.get<std::string>())});
          }
        }
      }
      if (auto sets = ej.find("activation_function_sets"); sets != ej.end()) {
        if (!sets->is_array()) return bad(em->name, "'activation_function_sets' is not a list");
        for (const json& s : *sets) {
          if (!s.is_string()) return bad(em->name, "an activation function set is not a name");
          const std::string set = s.get<std::string>();
          ed.tables.push_back(set);
          for (const char* suffix : {".json", "_bkt.bin", "_ctrl.bin"})
            if (Member* am = find(join(sg.folder, set + suffix)))
              mark(*am, MemberKind::Activation, fmt::format("{} activation function set '{}'", sg.name, set));
        }
      }
      std::string act_info;
      if (auto e = get_string(ej, "act_info", em->name, act_info, false)) return e;
      if (!act_info.empty())
        if (Member* am = find(join(sg.folder, act_info)))
          mark(*am, MemberKind::Activation, fmt::format("{} activation table index", sg.name));
      if (auto e = get_u64(ej, "act_semaphore", em->name, ed.act_semaphore)) return e;
    }
    sg.engines.push_back(std::move(ed));
    return std::nullopt;
  }

  std::optional<Error> read_variable(Subgraph& sg, const std::string& def_member, const std::string& name,
                                     const json& v) {
    if (!v.is_object()) return bad(def_member, fmt::format("variable '{}' is not an object", name));
    Variable var;
    var.name = name;
    const std::string where = fmt::format("variable '{}'", name);
    if (auto e = get_string(v, "type", def_member, var.type_name, true))
      return bad(def_member, fmt::format("{}: {}", where, e->message));
    var.type = var_type(var.type_name);
    std::optional<uint64_t> id;
    if (auto e = get_u64(v, "var_id", def_member, id, std::numeric_limits<uint32_t>::max()))
      return bad(def_member, fmt::format("{}: {}", where, e->message));
    if (!id) return bad(def_member, fmt::format("{} has no 'var_id'", where));
    var.id = static_cast<uint32_t>(*id);
    for (const auto& [key, field] : {std::pair{"size", &var.size}, std::pair{"alignment", &var.alignment},
                                     std::pair{"backing_variable_off", &var.backing_offset}})
      if (auto e = get_u64(v, key, def_member, *field))
        return bad(def_member, fmt::format("{}: {}", where, e->message));
    if (var.alignment && (*var.alignment == 0 || (*var.alignment & (*var.alignment - 1)) != 0))
      return bad(def_member, fmt::format("{}: alignment {} is not a power of two", where, *var.alignment));
    std::optional<uint64_t> ref;
    if (auto e = get_u64(v, "referenced_var_id", def_member, ref, std::numeric_limits<uint32_t>::max()))
      return bad(def_member, fmt::format("{}: {}", where, e->message));
    if (ref) var.referenced_var_id = static_cast<uint32_t>(*ref);
    if (auto e = get_string(v, "fabric_path", def_member, var.fabric_path, false))
      return bad(def_member, fmt::format("{}: {}", where, e->message));
    if (auto e = get_string(v, "file_name", def_member, var.file_name, var.type == VarType::File))
      return bad(def_member, fmt::format("{}: {}", where, e->message));
    if (var.type == VarType::DgeTable) {
      std::vector<uint64_t> list;
      if (!v.contains("list")) return bad(def_member, fmt::format("{} (dge-table) has no 'list'", where));
      if (auto e = u64_list(v["list"], def_member, fmt::format("the list of {}", where),
                            std::numeric_limits<uint32_t>::max(), list))
        return e;
      var.list.assign(list.begin(), list.end());
    }
    if (var.type == VarType::Virtual) {
      if (!var.backing_offset) return bad(def_member, fmt::format("{} (virtual) has no 'backing_variable_off'", where));
      const uint64_t size = var.size.value_or(0);
      if (*var.backing_offset > std::numeric_limits<uint64_t>::max() - size)
        return bad(def_member, fmt::format("{}: backing_variable_off + size overflows 64 bits", where));
      sg.virtual_scratch_bytes = std::max(sg.virtual_scratch_bytes, *var.backing_offset + size);
    }
    if (var.type == VarType::File) {
      Member* cm = nullptr;
      if (auto e = need_member(def_member, join(sg.folder, var.file_name), fmt::format("the file of {}", where), cm))
        return e;
      Constant c;
      c.member = cm->name;
      c.member_bytes = cm->bytes.size();
      std::string role = fmt::format("{} constant {}", sg.name, name);
      if (cm->name.ends_with(".npy")) {
        npy::Array a;
        std::string why;
        if (!npy::parse(cm->bytes, a, why)) return fail(ErrorCode::Npy, cm->name, why);
        if (var.size && a.data_bytes > *var.size)
          return fail(ErrorCode::Npy, cm->name,
                      fmt::format("holds {} data bytes, more than the {} bytes of {}", a.data_bytes, *var.size, where));
        role += ": " + npy::describe(a);
        c.array = std::move(a);
      }
      mark(*cm, MemberKind::Constant, std::move(role));
      var.constant = std::move(c);
    }
    sg.variables.push_back(std::move(var));
    return std::nullopt;
  }

  /// An engine JSON `dma` entry that names a queue: its block id and descriptors (PROJ-CONV-PS4).
  std::optional<Error> read_dma_block(const json& b, const std::string& member, std::vector<DmaBlock>& out) {
    DmaBlock block;
    if (auto e = get_string(b, "queue", member, block.queue, true)) return e;
    const std::string where = fmt::format("DMA block of queue '{}'", block.queue);
    std::optional<uint64_t> id;
    if (auto e = get_u64(b, "id", member, id)) return bad(member, fmt::format("{}: {}", where, e->message));
    block.id = id.value_or(0);
    const auto desc = b.find("desc");
    if (desc == b.end() || !desc->is_array()) return bad(member, fmt::format("{} has no 'desc' list", where));
    for (const json& d : *desc) {
      if (!d.is_object()) return bad(member, fmt::format("{}: a descriptor is not an object", where));
      DmaDescriptor dd;
      std::optional<uint64_t> from_off, to_off, size;
      for (auto [key, field] : {std::pair{"from", &dd.from}, std::pair{"to", &dd.to}})
        if (auto e = get_string(d, key, member, *field, true))
          return bad(member, fmt::format("{}: {}", where, e->message));
      for (auto [key, field] :
           {std::pair{"from_off", &from_off}, std::pair{"to_off", &to_off}, std::pair{"size", &size}})
        if (auto e = get_u64(d, key, member, *field)) return bad(member, fmt::format("{}: {}", where, e->message));
      if (!size) return bad(member, fmt::format("{}: a descriptor has no 'size'", where));
      dd.from_off = from_off.value_or(0);
      dd.to_off = to_off.value_or(0);
      dd.size = *size;
      block.descriptors.push_back(std::move(dd));
    }
    out.push_back(std::move(block));
    return std::nullopt;
  }

  std::optional<Error> read_queue_set(Subgraph& sg, const std::string& def_member, const std::string& name,
                                      const json& q) {
    if (!q.is_object()) return bad(def_member, fmt::format("queue set '{}' is not an object", name));
    QueueSet qs;
    qs.name = name;
    const std::string where = fmt::format("queue set '{}'", name);
    for (const auto& [key, field] :
         {std::pair{"type", &qs.type}, std::pair{"owner", &qs.owner}, std::pair{"fabric_path", &qs.fabric_path}})
      if (auto e = get_string(q, key, def_member, *field, false))
        return bad(def_member, fmt::format("{}: {}", where, e->message));
    qs.owner_engine = parse_engine(qs.owner);
    std::optional<uint64_t> nq;
    if (auto e = get_u64(q, "num_queues", def_member, nq, std::numeric_limits<uint32_t>::max()))
      return bad(def_member, fmt::format("{}: {}", where, e->message));
    qs.num_queues = static_cast<uint32_t>(nq.value_or(0));
    if (q.contains("semaphore_set")) {
      std::vector<uint64_t> sems;
      if (auto e = u64_list(q["semaphore_set"], def_member, fmt::format("the semaphore_set of {}", where),
                            kNumSemaphores - 1, sems))
        return e;
      qs.semaphores.assign(sems.begin(), sems.end());
    } else if (std::optional<uint64_t> sem; q.contains("semaphore")) {
      // A queue of one semaphore (the runtime's embedded all-reduce NEFF writes `semaphore`, PROJ-CONV-PS4).
      if (auto e = get_u64(q, "semaphore", def_member, sem, kNumSemaphores - 1))
        return bad(def_member, fmt::format("{}: {}", where, e->message));
      qs.semaphores.push_back(static_cast<uint32_t>(*sem));
    }
    sg.queue_sets.push_back(std::move(qs));
    return std::nullopt;
  }

  std::optional<Error> read_definition(Subgraph& sg) {
    Member* m = nullptr;
    if (auto e = need_member(n_.kelf_member, sg.definition, fmt::format("the definition of subgraph {}", sg.name), m))
      return e;
    mark(*m, MemberKind::Definition, fmt::format("{} definition", sg.name));
    json d;
    if (auto e = load_json(*m, d)) return e;
    if (!d.is_object()) return bad(m->name, fmt::format("is {}, not an object", json_kind(d)));
    if (auto e = get_string(d, "version", m->name, sg.version, false)) return e;
    for (Engine eng : kEngines)
      if (auto e = read_engine(sg, d, m->name, eng)) return e;
    if (auto vars = d.find("var"); vars != d.end()) {
      if (!vars->is_object()) return bad(m->name, "'var' is not an object");
      for (const auto& [name, v] : vars->items())
        if (auto e = read_variable(sg, m->name, name, v)) return e;
    }
    std::sort(sg.variables.begin(), sg.variables.end(),
              [](const Variable& a, const Variable& b) { return a.id < b.id; });
    for (size_t i = 1; i < sg.variables.size(); ++i)
      if (sg.variables[i].id == sg.variables[i - 1].id)
        return bad(m->name, fmt::format("variables '{}' and '{}' share var_id {}", sg.variables[i - 1].name,
                                        sg.variables[i].name, sg.variables[i].id));
    for (const Variable& v : sg.variables)
      for (size_t i = 0; i < v.list.size(); ++i)
        if (sg.variable(v.list[i]) == nullptr)
          return bad(m->name, fmt::format("entry {} of dge-table '{}' names var_id {}, which no variable has", i,
                                          v.name, v.list[i]));
    if (auto queues = d.find("dma_queue"); queues != d.end()) {
      if (!queues->is_object()) return bad(m->name, "'dma_queue' is not an object");
      for (const auto& [name, q] : queues->items())
        if (auto e = read_queue_set(sg, m->name, name, q)) return e;
    }
    if (auto e = get_u64(d, "runtime_event_count", m->name, sg.runtime_event_count)) return e;
    if (auto e = get_u64(d, "runtime_semaphore_count", m->name, sg.runtime_semaphore_count)) return e;
    if (auto res = d.find("runtime_statebuffer_reservation"); res != d.end())
      if (auto e = read_reservations(sg, m->name, *res)) return e;
    return std::nullopt;
  }

  std::optional<Error> read_reservations(Subgraph& sg, const std::string& def_member, const json& list) {
    if (!list.is_array()) return bad(def_member, "'runtime_statebuffer_reservation' is not a list");
    for (const json& r : list) {
      if (!r.is_object()) return bad(def_member, "a runtime_statebuffer_reservation entry is not an object");
      SbufReservation res;
      std::optional<uint64_t> base, parts, off, size;
      if (auto e = get_u64(r, "base_partition", def_member, base, kMaxChannels)) return e;
      if (auto e = get_u64(r, "partitions", def_member, parts, kMaxChannels)) return e;
      if (auto e = get_u64(r, "offset", def_member, off)) return e;
      if (auto e = get_u64(r, "size", def_member, size)) return e;
      if (auto e = get_string(r, "type", def_member, res.type, false)) return e;
      res.base_partition = static_cast<uint32_t>(base.value_or(0));
      res.partitions = static_cast<uint32_t>(parts.value_or(0));
      res.offset = off.value_or(0);
      res.size = size.value_or(0);
      sg.sbuf_reservations.push_back(std::move(res));
    }
    return std::nullopt;
  }

  void classify_rest() {
    for (Member& m : n_.members) {
      if (m.kind != MemberKind::Other) continue;
      const std::string_view name = m.name;
      const std::string_view base = name.substr(name.rfind('/') == std::string_view::npos ? 0 : name.rfind('/') + 1);
      if (name.ends_with("wavegraph-bin.json"))
        mark(m, MemberKind::Skipped, "not interpreted (PROJ-CONV-X4)");
      else if (base == "tensor_map.json")
        mark(m, MemberKind::TensorMap, "tensor metadata (informative)");
      else if (name.ends_with(".dbg") || base.starts_with("debug_info"))
        mark(m, MemberKind::Debug, "compiler debug records");
      else
        m.role = base == "hlo_stats.json" ? "compiler statistics" : "not interpreted";
    }
  }

  Neff& n_;
  const ReadOptions& o_;
  std::unordered_map<std::string_view, size_t> index_;  ///< names of n_.members (which the builder never resizes)
  bool has_graph_ = false;
  uint64_t stream_bytes_ = 0;  ///< bytes of the streams copied into the model so far
  std::string kelf_name_;
  std::string json_scratch_;  ///< one buffer for every JSON member's compacted text
};

}  // namespace

namespace detail {

namespace {

/// A character next to which whitespace never separates two tokens.
constexpr bool structural(uint8_t c) {
  return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':' || c == '"';
}

/// nlohmann's DOM parser with one more check, at no extra pass: a key its object already holds is refused (the
/// parser alone keeps the last value silently; the documents of this format, like VARS.json, have unique keys).
class DomBuilder {
 public:
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  explicit DomBuilder(json& root) : root_(root) {}
  bool null() { return put(nullptr); }
  bool boolean(bool v) { return put(v); }
  bool number_integer(number_integer_t v) { return put(v); }
  bool number_unsigned(number_unsigned_t v) { return put(v); }
  bool number_float(number_float_t v, const string_t&) { return put(v); }
  bool string(string_t& v) { return put(std::move(v)); }
  bool binary(binary_t& v) { return put(json::binary(std::move(v))); }
  bool start_object(std::size_t) { return put(json::value_t::object, true); }
  bool key(string_t& k) {
    auto [it, inserted] = stack_.back()->get_ref<json::object_t&>().try_emplace(k);
    if (!inserted) {
      duplicate = k;
      return false;
    }
    slot_ = &it->second;
    return true;
  }
  bool end_object() {
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) { return put(json::value_t::array, true); }
  bool end_array() {
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

  std::optional<std::string> duplicate;  ///< the key refused

 private:
  /// Puts the value in its place: the root, the next element of the open array, or the open object's last key;
  /// `opens` makes it the open container. A parent grows only once its open child is closed, so the pointers on the
  /// stack stay valid. Always true (the SAX handler's "go on").
  template <class V>
  bool put(V&& v, bool opens = false) {
    json* at = slot_;
    if (stack_.empty()) {
      root_ = json(std::forward<V>(v));
      at = &root_;
    } else if (json& top = *stack_.back(); top.is_array()) {
      auto& a = top.get_ref<json::array_t&>();
      a.emplace_back(std::forward<V>(v));
      at = &a.back();
    } else {
      *slot_ = json(std::forward<V>(v));
    }
    if (opens) stack_.push_back(at);
    return true;
  }

  json& root_;
  std::vector<json*> stack_;
  json* slot_ = nullptr;
};

}  // namespace

std::optional<Error> parse_json(const Member& m, std::string_view label, const ReadOptions& options, json& out,
                                std::string& scratch) {
  const auto fail = [&](std::string message) {
    return Error{ErrorCode::Json, std::string(label), m.name, std::move(message)};
  };
  if (m.bytes.size() > options.max_json_bytes)
    return fail(
        fmt::format("{} bytes of JSON exceed the JSON-size limit of {}", m.bytes.size(), options.max_json_bytes));
  // A raw NUL is never JSON, and the parser would take it for the end of the text and ignore the rest.
  if (const void* nul = std::memchr(m.bytes.data(), 0, m.bytes.size()); nul != nullptr)
    return fail(fmt::format("invalid JSON: a NUL byte at byte {}", static_cast<const uint8_t*>(nul) - m.bytes.data()));
  // One pass bounds the nesting before the parser sees a byte (so a hostile document cannot exhaust its stack or
  // memory) and copies the document without the whitespace around structural characters: the compiler writes
  // indented JSON, and the parser spent most of its time stepping over the indentation. A run of whitespace is
  // dropped only beside a structural character or a quote, so no two tokens merge: the token sequence — the value,
  // and whether the document is valid — is the one of the original.
  scratch.resize(m.bytes.size());
  char* to = scratch.data();
  const uint8_t* p = m.bytes.data();
  const uint8_t* const end = p + m.bytes.size();
  const auto blank = [](uint8_t c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; };
  unsigned depth = 0;
  uint8_t last = '{';  // leading whitespace is dropped
  while (p < end) {
    uint8_t c = *p++;
    if (blank(c)) {
      while (p < end && blank(*p)) ++p;
      if (p == end) break;
      c = *p++;
      // At most one byte is written per byte read, so `to` never passes the end.
      if (!structural(last) && !structural(c)) *to++ = ' ';
    }
    *to++ = static_cast<char>(c);
    last = c;
    if (c == '"') {
      // A string, copied as it is up to its closing quote (an escaped quote does not close it).
      while (p < end) {
        const uint8_t s = *p++;
        *to++ = static_cast<char>(s);
        if (s == '"') break;
        if (s == '\\' && p < end) *to++ = static_cast<char>(*p++);
      }
    } else if (c == '[' || c == '{') {
      if (++depth > options.max_json_depth)
        return fail(fmt::format("JSON nested deeper than {} levels", options.max_json_depth));
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  scratch.resize(static_cast<size_t>(to - scratch.data()));
  DomBuilder builder(out);
  if (json::sax_parse(scratch.data(), scratch.data() + scratch.size(), &builder)) return std::nullopt;
  if (builder.duplicate) return fail(fmt::format("invalid JSON: duplicate key \"{}\"", *builder.duplicate));
  // The message quotes lines and columns of the original: parse that for it.
  try {
    const char* text = reinterpret_cast<const char*>(m.bytes.data());
    out = json::parse(text, text + m.bytes.size());
  } catch (const json::exception& e) {
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." -> the part after the tag.
    if (const size_t tag = what.find("] "); what.starts_with("[json.exception") && tag != std::string::npos)
      what.erase(0, tag + 2);
    return fail("invalid JSON: " + what);
  }
  return std::nullopt;
}

}  // namespace detail

std::string_view to_string(VarType t) {
  switch (t) {
    case VarType::StateBuffer: return "state-buffer";
    case VarType::Input: return "input";
    case VarType::Output: return "output";
    case VarType::File: return "file";
    case VarType::TmpBuf: return "tmp-buf";
    case VarType::Virtual: return "virtual";
    case VarType::Pointer: return "pointer";
    case VarType::DgeTable: return "dge-table";
    case VarType::Other: return "other";
  }
  return "other";
}

std::string_view to_string(MemberKind k) {
  switch (k) {
    case MemberKind::Graph: return "graph";
    case MemberKind::Kelf: return "kelf";
    case MemberKind::Info: return "info";
    case MemberKind::Definition: return "definition";
    case MemberKind::EngineJson: return "engine";
    case MemberKind::Stream: return "stream";
    case MemberKind::DveTable: return "dve-table";
    case MemberKind::Activation: return "activation";
    case MemberKind::Constant: return "constant";
    case MemberKind::TensorMap: return "tensor-map";
    case MemberKind::Debug: return "debug";
    case MemberKind::Skipped: return "skipped";
    case MemberKind::Other: return "other";
  }
  return "other";
}

std::string Stream::label() const {
  return fmt::format("{}/{}", subgraph, engine_name(engine));
}

const EngineDef* Subgraph::engine(Engine e) const {
  for (const EngineDef& d : engines)
    if (d.engine == e) return &d;
  return nullptr;
}

const Variable* Subgraph::variable(uint32_t id) const {
  const auto it = std::lower_bound(variables.begin(), variables.end(), id,
                                   [](const Variable& v, uint32_t key) { return v.id < key; });
  return it != variables.end() && it->id == id ? &*it : nullptr;
}

const Variable* Subgraph::variable(std::string_view var_name) const {
  for (const Variable& v : variables)
    if (v.name == var_name) return &v;
  return nullptr;
}

const Variable* Subgraph::dge_table() const {
  for (const Variable& v : variables)  // sorted by var_id: the first is the lowest (PROJ-CONV-F12)
    if (v.type == VarType::DgeTable) return &v;
  return nullptr;
}

const Member* Neff::member(std::string_view name) const {
  for (const Member& m : members)
    if (m.name == name) return &m;
  return nullptr;
}

std::vector<const Stream*> Neff::streams() const {
  std::vector<const Stream*> out;
  for (const Subgraph& sg : subgraphs)
    for (const EngineDef& e : sg.engines) out.push_back(&e.stream);
  return out;
}

namespace {

/// A read-only mapping of the payload window (read_regular's): members of an uncompressed archive view it, and then
/// the model keeps it; otherwise it is unmapped as soon as the members hold their own copies.
struct WindowMapping {
  void* base = nullptr;
  size_t length = 0;
  void unmap() {
    if (base != nullptr) ::munmap(base, length);
    base = nullptr;
  }
};

/// Windows at least this large are hashed on a thread of their own while the members are read and the model built.
constexpr size_t kHashThreadBytes = size_t{1} << 20;

/// The model of a container whose header passed the §4 gates: `window` is its data_size window, `file_size` the
/// whole file's size. With `mapping` (the window is that mapping), members of an uncompressed archive view the window
/// and the model keeps the mapping; else nothing of the model views the window.
Result<Neff> read_payload(const Header& h, uint64_t file_size, std::span<const uint8_t> window, std::string_view label,
                          const ReadOptions& options, WindowMapping* mapping = nullptr) {
  Neff n;
  n.file = std::string(label);
  n.file_size = file_size;
  n.header = h;
  n.payload.window_bytes = h.data_size;
  n.payload.bytes_after_window = file_size - kPayloadOffset - h.data_size;

  // The hash (a third of reading a large uncompressed NEFF) runs beside the members' reading and the model's
  // building; its verdict and warning still come first, as when it ran before them.
  const bool hashed = options.hash || options.verify_hash;
  HashCheck hash;
  // One job beside the calling thread's own work (not chunks of one): a thread of its own, not a pool's task.
  std::thread hasher;
  if (hashed && window.size() >= kHashThreadBytes) {
    try {
      hasher = std::thread([&hash, &h, window] { hash = detail::check_hash(h, window); });
    } catch (const std::system_error&) {  // no thread to be had: hashed here, first
    }
  }
  if (hashed && !hasher.joinable()) hash = detail::check_hash(h, window);

  // The members and the model, with their warnings apart until the hash's are in.
  std::optional<Error> failed;
  auto data = std::make_shared<MemberData>();
  bool viewed = false;
  if (h.pkg_version == 2) {
    failed = detail::read_gzip_tar(window, label, options, n.members, *data, n.payload, n.warnings);
  } else {
    n.payload.tar_bytes = window.size();
    failed =
        detail::read_tar(window, label, options, n.members, *data, n.warnings, mapping != nullptr ? &viewed : nullptr);
  }
  if (hasher.joinable()) hasher.join();
  if (mapping != nullptr) {
    if (viewed) {
      data->keep_window(mapping->base, mapping->length);
      mapping->base = nullptr;
    } else {
      mapping->unmap();  // the members hold their own copies: the window is not held beside the model
    }
  }
  data->trim();
  n.member_data = std::move(data);
  if (!failed) failed = Builder(n, options).build();

  std::vector<Warning> first;
  if (hashed) {
    n.hash = std::move(hash);
  } else {
    n.hash.algorithm = h.pkg_version == 1 ? "sha256" : "md5";
    n.hash.computed_skipped = true;
  }
  if (hashed && !n.hash.matched) {
    std::string message = fmt::format("the payload's {} {} matches the stored hash {} in neither byte order",
                                      n.hash.algorithm, hex(n.hash.computed), hex(n.hash.stored));
    if (options.verify_hash) return Error{ErrorCode::Hash, n.file, "", std::move(message)};
    first.push_back({"", message + " (PROJ-CONV-X1: a warning unless the hash is verified)"});
  }
  if (n.payload.bytes_after_window > 0) {
    std::string message = fmt::format("{} bytes after the payload window (header + data_size = {} of {} bytes)",
                                      n.payload.bytes_after_window, kPayloadOffset + h.data_size, file_size);
    if (options.strict_trailing) return Error{ErrorCode::Trailing, n.file, "", std::move(message)};
    first.push_back({"", message + " (ignored)"});
  }
  if (failed) return *failed;
  n.warnings.insert(n.warnings.begin(), first.begin(), first.end());
  // Warnings quote names from the container: one printable line each, valid UTF-8 for JSON and Python.
  for (Warning& w : n.warnings) {
    w.member = escape_text(w.member);
    w.message = escape_text(w.message);
  }
  return n;
}

/// The window is held whole (hashed, then inflated or read as tar): bounded like the tar it holds.
std::optional<Error> check_window(const Header& h, std::string_view label, const ReadOptions& options) {
  if (h.data_size <= options.max_inflated_bytes) return std::nullopt;
  return Error{ErrorCode::Limit, std::string(label), "",
               fmt::format("data_size {} exceeds the inflated-size limit of {}: the payload window is read whole",
                           h.data_size, options.max_inflated_bytes)};
}

Error io_error(std::string_view label, std::string message) {
  return Error{ErrorCode::Io, std::string(label), "", std::move(message)};
}

/// Reads n bytes at `offset` of `fd` into `out`; the error's message when it cannot.
std::optional<std::string> read_at(int fd, uint64_t offset, uint8_t* out, uint64_t n) {
  uint64_t done = 0;
  while (done < n) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(n - done, uint64_t{1} << 30));
    const ssize_t got = ::pread(fd, out + done, want, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return fmt::format("cannot read at byte {}: {}", offset + done, std::strerror(errno));
    if (got == 0)
      return fmt::format("the file ended at byte {}, before the {} bytes its size promised", offset + done, offset + n);
    done += static_cast<uint64_t>(got);
  }
  return std::nullopt;
}

/// A regular file whose NEFF starts at byte `start` and holds `size` bytes: the header, then the window alone.
Result<Neff> read_regular(int fd, uint64_t start, uint64_t size, std::string_view label, const ReadOptions& options) {
  std::array<uint8_t, kHeaderBytes> head{};
  const uint64_t got = std::min<uint64_t>(size, kHeaderBytes);
  if (auto e = read_at(fd, start, head.data(), got)) return io_error(label, *e);
  Result<Header> h = detail::check_header(std::span<const uint8_t>(head.data(), got), size, label);
  if (!h) return h.error();
  if (auto e = check_window(*h, label, options)) return *e;
  // The window mapped read-only where it can be: no copy into anonymous pages (a 640 MB program was a third of its
  // reading time in page faults). Not populated up front: that maps every page on this thread before anything
  // starts, where the checks' threads and the hash's fault in their own parts at once (10^7 words: `validate
  // --no-hash-check` 0.130 to 0.108 s). An uncompressed archive's members view it; a gzip one's are copies, and then
  // the mapping ends once they are read.
  const uint64_t at = start + kPayloadOffset;
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t base = at / page * page;
  if (h->data_size > 0 && page > 0 && at - base + h->data_size <= SIZE_MAX) {
    const auto len = static_cast<size_t>(at - base + h->data_size);
    void* map = ::mmap(nullptr, len, PROT_READ, MAP_PRIVATE, fd, static_cast<off_t>(base));
    if (map != MAP_FAILED) {
      WindowMapping mapping{map, len};
      const std::span<const uint8_t> window(static_cast<const uint8_t*>(map) + (at - base), h->data_size);
      Result<Neff> r = read_payload(*h, size, window, label, options, &mapping);
      mapping.unmap();  // unless the model keeps it
      return r;
    }
  }
  // Not zero-filled: every byte is read over.
  const std::unique_ptr<uint8_t[]> window(new uint8_t[std::max<uint64_t>(h->data_size, 1)]);
  if (auto e = read_at(fd, start + kPayloadOffset, window.get(), h->data_size)) return io_error(label, *e);
  return read_payload(*h, size, std::span<const uint8_t>(window.get(), h->data_size), label, options);
}

}  // namespace

Result<Neff> read(std::span<const uint8_t> file, std::string_view label, const ReadOptions& options) {
  Result<Header> h = check_header(file, label);
  if (!h) return h.error();
  if (auto e = check_window(*h, label, options)) return *e;
  return read_payload(*h, file.size(), file.subspan(kPayloadOffset, h->data_size), label, options);
}

Result<Neff> read_file(const std::string& path, const ReadOptions& options) {
  // O_NONBLOCK: a FIFO is refused below rather than waited on (it has no size to check the header against).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return io_error(path, fmt::format("cannot open: {}", std::strerror(errno)));
  struct stat st {};
  Result<Neff> r = io_error(path, "cannot read: not a regular file");
  if (::fstat(fd, &st) != 0)
    r = io_error(path, fmt::format("cannot read: {}", std::strerror(errno)));
  else if (S_ISDIR(st.st_mode))
    r = io_error(path, "cannot read: is a directory");
  else if (S_ISREG(st.st_mode))
    r = read_regular(fd, 0, static_cast<uint64_t>(st.st_size), path, options);
  ::close(fd);
  return r;
}

Result<Neff> read_stream(std::FILE* file, std::span<const uint8_t> head, std::string_view label,
                         const ReadOptions& options) {
  const int fd = ::fileno(file);
  struct stat st {};
  if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    const long at = std::ftell(file);
    if (at >= 0 && static_cast<uint64_t>(at) >= head.size() &&
        static_cast<uint64_t>(st.st_size) >= static_cast<uint64_t>(at)) {
      const uint64_t start = static_cast<uint64_t>(at) - head.size();
      return read_regular(fd, start, static_cast<uint64_t>(st.st_size) - start, label, options);
    }
  }
  // A pipe or a device: its size is known only at its end. The header and the window are held (as much of the
  // window as the limit allows), the rest is counted, and the whole may not pass the limit and the header.
  const uint64_t bound =
      options.max_inflated_bytes > UINT64_MAX - kHeaderBytes ? UINT64_MAX : options.max_inflated_bytes + kHeaderBytes;
  std::vector<uint8_t> held(head.begin(), head.end());
  uint64_t total = held.size();
  uint64_t keep = 0;  // the bytes worth holding (header and window), known once the header is in
  const auto hold = [&](const uint8_t* p, size_t n) {
    if (keep == 0 && held.size() < kHeaderBytes) {
      const size_t take = std::min(n, kHeaderBytes - held.size());
      held.insert(held.end(), p, p + take);
      p += take, n -= take;
    }
    if (keep == 0 && held.size() >= kHeaderBytes) {
      // Reserved once (resident only as it is filled): the window, as far as the limit allows.
      const Header h = parse_header(std::span<const uint8_t, kHeaderBytes>(held.data(), kHeaderBytes));
      keep = kPayloadOffset + std::min(h.data_size, options.max_inflated_bytes);
      if (keep > held.size()) held.reserve(static_cast<size_t>(keep));
    }
    if (keep > held.size()) {
      const size_t take = static_cast<size_t>(std::min<uint64_t>(n, keep - held.size()));
      held.insert(held.end(), p, p + take);
    }
  };
  const auto too_large = [&] {
    return Error{ErrorCode::Limit, std::string(label), "",
                 fmt::format("more than {} bytes: the inflated-size limit of {} and the header (a stream is read to "
                             "its end to know its size)",
                             bound, options.max_inflated_bytes)};
  };
  if (total > bound) return too_large();
  hold(head.data(), 0);
  std::vector<uint8_t> chunk(size_t{1} << 16);
  for (;;) {
    const size_t got = std::fread(chunk.data(), 1, chunk.size(), file);
    if (got == 0) {
      if (std::ferror(file) != 0)
        return io_error(label, fmt::format("read error at byte {}: {}", total, std::strerror(errno)));
      break;
    }
    if (got > bound - total) return too_large();
    total += got;
    hold(chunk.data(), got);
  }
  Result<Header> h = detail::check_header(held, total, label);
  if (!h) return h.error();
  if (auto e = check_window(*h, label, options)) return *e;
  return read_payload(*h, total, std::span<const uint8_t>(held).subspan(kPayloadOffset, h->data_size), label, options);
}

}  // namespace tpbisa::neff
