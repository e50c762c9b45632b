// The text layouts of a NEFF container: info, ls, sems (as text and as a Graphviz graph), act-eval.
#include "tpbisa/io/neff_text.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <iterator>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "tpbisa/io/json.hpp"
#include "tpbisa/io/neff_json.hpp"

namespace tpbisa::io {
namespace {

using ojson = nlohmann::ordered_json;

std::string bracket_shape(const std::vector<uint64_t>& shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

/// Semaphore lists as ranges: "24..39", "3 5 8..9".
std::string index_ranges(const std::vector<uint32_t>& v) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    parts.push_back(j > i + 1 ? fmt::format("{}..{}", v[i], v[j])
                              : (j == i + 1 ? fmt::format("{} {}", v[i], v[j]) : fmt::format("{}", v[i])));
    i = j + 1;
  }
  return fmt::format("{}", fmt::join(parts, " "));
}

std::vector<unsigned> feature_bit_list(uint64_t v) {
  std::vector<unsigned> bits;
  for (unsigned b = 0; b < 64; ++b)
    if ((v >> b) & 1U) bits.push_back(b);
  return bits;
}

/// The prefix of tpb_per_node up to its last non-zero byte.
std::vector<unsigned> tpb_prefix(const neff::Header& h) {
  size_t n = h.tpb_per_node.size();
  while (n > 0 && h.tpb_per_node[n - 1] == 0) --n;
  return std::vector<unsigned>(h.tpb_per_node.begin(), h.tpb_per_node.begin() + static_cast<ptrdiff_t>(n));
}

/// A string from the container as a JSON string literal (bytes that are not UTF-8 escaped first).
std::string quoted(const std::string& s) {
  return ojson(neff::escape_text(s, false)).dump();
}

/// "1 word", "2 words".
std::string counted(size_t n, std::string_view noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

std::string variable_details(const neff::Neff& n, const neff::Subgraph& sg, const neff::Variable& v) {
  std::vector<std::string> parts;
  if (const neff::Tensor* t = graph_tensor(n, v.name);
      t != nullptr && (v.type == neff::VarType::Input || v.type == neff::VarType::Output))
    parts.push_back(fmt::format("{} {}", t->dtype, bracket_shape(t->shape)));
  if (v.constant) {
    parts.push_back(v.constant->array ? fmt::format("{}: {}", v.constant->member, npy::describe(*v.constant->array))
                                      : fmt::format("{}: {} raw bytes", v.constant->member, v.constant->member_bytes));
  }
  if (v.backing_offset) parts.push_back(fmt::format("backing offset {} (PROJ-CONV-X8)", *v.backing_offset));
  if (v.referenced_var_id) parts.push_back(fmt::format("references var {}", *v.referenced_var_id));
  if (!v.list.empty()) {
    std::vector<std::string> entries;
    for (size_t i = 0; i < v.list.size(); ++i) {
      const neff::Variable* target = sg.variable(v.list[i]);
      entries.push_back(fmt::format("{}->{}", i, target != nullptr ? target->name : std::to_string(v.list[i])));
    }
    parts.push_back(fmt::format("entries {}", fmt::join(entries, " ")));
  }
  if (v.alignment) parts.push_back(fmt::format("alignment {}", *v.alignment));
  if (v.type == neff::VarType::Other) parts.push_back(fmt::format("type '{}' not interpreted", v.type_name));
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::string hash_text(const neff::HashCheck& h) {
  if (h.matched)
    return fmt::format("{} {} matches ({} order, PROJ-CONV-X1)", h.algorithm, hex_bytes(h.computed),
                       to_string(*h.matched));
  return fmt::format("{} {} MISMATCH (stored {})", h.algorithm, hex_bytes(h.computed), hex_bytes(h.stored));
}

std::string payload_text(const neff::Neff& n) {
  std::string s;
  if (n.header.pkg_version == 2)
    s = fmt::format("gzip member {} bytes + {} {}bytes of padding; ", n.payload.compressed_bytes,
                    n.payload.padding_bytes, n.payload.padding_zero ? "zero " : "NON-ZERO ");
  s += fmt::format("tar {} bytes, {} members", n.payload.tar_bytes, n.members.size());
  if (n.payload.bytes_after_window > 0) s += fmt::format("; {} bytes after the window", n.payload.bytes_after_window);
  return s;
}

std::string target_text(const neff::Neff& n) {
  if (n.generation) return fmt::format("{} (generation {}, PROJ-CONV-X7)", n.target, to_string(*n.generation));
  return n.target == "*" ? std::string("* (any generation)") : fmt::format("'{}' (no known generation)", n.target);
}

/// A subgraph of `neff info`: its streams with their opcode counts, variables and queue sets; adds its words.
void subgraph_info_text(std::string& text, const neff::Neff& n, const neff::Subgraph& sg, size_t& total_words) {
  const Generation gen = n.generation.value_or(kDefaultGeneration);
  auto add = std::back_inserter(text);
  size_t words = 0;
  for (const neff::EngineDef& e : sg.engines) words += e.stream.word_count();
  total_words += words;
  fmt::format_to(add, "subgraph {} ({}, version {}): {}, {}\n", sg.name, sg.definition, quoted(sg.version),
                 counted(sg.engines.size(), "engine"), counted(words, "word"));
  for (const neff::EngineDef& e : sg.engines) {
    std::vector<std::string> counts;
    for (const auto& [name, c] : opcode_histogram(e.stream, gen)) counts.push_back(fmt::format("{} {}", name, c));
    fmt::format_to(add, "  {:<16} {:>6} word{}  {}  {}\n", e.stream.label(), e.stream.word_count(),
                   e.stream.word_count() == 1 ? " " : "s", e.stream.member, fmt::join(counts, ", "));
  }
  text += "  variables\n";
  for (const neff::Variable& v : sg.variables) {
    std::string line = fmt::format("    {:>4}  {:<24} {:<13} {:>12}  {}", v.id, v.name, v.type_name,
                                   v.size ? std::to_string(*v.size) : std::string("-"), variable_details(n, sg, v));
    while (line.back() == ' ') line.pop_back();
    text += line + '\n';
  }
  if (sg.virtual_scratch_bytes > 0)
    fmt::format_to(add, "  virtual scratch        {} bytes (PROJ-CONV-X8)\n", sg.virtual_scratch_bytes);
  text += "  queue sets\n";
  for (const neff::QueueSet& q : sg.queue_sets)
    fmt::format_to(add, "    {:<16} {:<8} owner {:<5} {:>2} queue{}  semaphores {}\n", q.name, q.type, q.owner,
                   q.num_queues, q.num_queues == 1 ? " " : "s", index_ranges(q.semaphores));
}

std::string sem_use_text(const neff::SemUse& u) {
  std::string s = fmt::format("{:<20} {:<18} {}", fmt::format("{}#{}", u.stream, u.word), u.mnemonic, u.text);
  if (!u.queue_set.empty()) s += fmt::format("  via {}", u.queue_set);
  if (!u.note.empty()) s += fmt::format("  ({})", u.note);
  return s;
}

/// A name in Graphviz's quoted form.
std::string dot_id(std::string_view text) {
  std::string q = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + '"';
}

/// The edges of one semaphore in the graph: one per (raising stream, waiting stream), the words on each end in its
/// label; the streams it touches are added to `streams`.
std::string semaphore_edges(const neff::SubgraphSems& sg, const neff::SemaphoreUses& s,
                            std::set<std::string>& streams) {
  std::string edges;
  std::map<std::pair<std::string, std::string>, std::pair<std::set<size_t>, std::set<size_t>>> pairs;
  for (const auto& w : s.waits) {
    streams.insert(w.stream);
    for (const auto& r : s.increments) {
      auto& words = pairs[{r.stream, w.stream}];
      words.first.insert(r.word);
      words.second.insert(w.word);
    }
  }
  for (const auto& r : s.increments) streams.insert(r.stream);
  for (const auto& [ends, words] : pairs)
    edges += fmt::format("  {} -> {} [label={}];\n", dot_id(ends.first), dot_id(ends.second),
                         dot_id(fmt::format("$S[{}]  #{} -> #{}", s.index, fmt::join(words.first, ",#"),
                                            fmt::join(words.second, ",#"))));
  if (s.increments.empty() && !s.waits.empty()) {
    const std::string none = fmt::format("{}: nothing raises $S[{}]", sg.subgraph, s.index);
    edges += fmt::format("  {} [shape=octagon, color=red, fontcolor=red];\n", dot_id(none));
    for (const auto& w : s.waits)
      edges += fmt::format("  {} -> {} [label={}, color=red];\n", dot_id(none), dot_id(w.stream),
                           dot_id(fmt::format("#{} {}", w.word, w.text)));
  }
  return edges;
}

}  // namespace

std::string hex_bytes(std::span<const uint8_t> bytes) {
  std::string s;
  for (uint8_t b : bytes) s += fmt::format("{:02x}", b);
  return s;
}

std::string neff_info_text(const neff::Neff& n) {
  const neff::Header& h = n.header;
  std::string text;
  auto add = std::back_inserter(text);
  fmt::format_to(add, "{}: NEFF {}.{}, {} bytes\n", n.file, h.neff_version_major, h.neff_version_minor, n.file_size);
  text += "header\n";
  fmt::format_to(add, "  pkg_version          {} ({})\n", h.pkg_version,
                 h.pkg_version == 2 ? "gzip tar, MD5" : "plain tar, SHA-256");
  fmt::format_to(add, "  header_size          {}\n", h.header_size);
  fmt::format_to(add, "  data_size            {}\n", h.data_size);
  fmt::format_to(add, "  neff_version         {}.{}\n", h.neff_version_major, h.neff_version_minor);
  fmt::format_to(add, "  neff_build_version   {}\n", quoted(h.build_version_text()));
  fmt::format_to(add, "  num_tpb              {}\n", h.num_tpb);
  fmt::format_to(add, "  hash                 {}\n", hex_bytes(h.hash));
  fmt::format_to(add, "  hash check           {}\n", hash_text(n.hash));
  fmt::format_to(add, "  uuid                 {}\n", hex_bytes(h.uuid));
  fmt::format_to(add, "  name                 {}\n", quoted(h.name_text()));
  fmt::format_to(add, "  requested_tpb_count  {}\n", h.requested_tpb_count);
  fmt::format_to(add, "  tpb_per_node         [{}] (then zeros)\n", fmt::join(tpb_prefix(h), ", "));
  fmt::format_to(
      add, "  feature_bits         0x{:x} (bits {})\n", h.feature_bits,
      h.feature_bits ? fmt::format("{}", fmt::join(feature_bit_list(h.feature_bits), " ")) : std::string("none"));
  fmt::format_to(add, "  lnc_size             {}\n", h.lnc_size);
  fmt::format_to(add, "payload                {}\n", payload_text(n));
  fmt::format_to(add, "kelf                   {} (version {})\n", n.kelf_member, quoted(n.kelf_version));
  fmt::format_to(add, "target                 {}\n", target_text(n));
  fmt::format_to(add, "compiler               {}\n",
                 n.compiler_version.empty() ? std::string("(no info.json tool_version)") : n.compiler_version);
  for (const auto& [title, list] : {std::pair{"inputs", &n.inputs}, std::pair{"outputs", &n.outputs}}) {
    fmt::format_to(add, "{}\n", title);
    for (const neff::Tensor& t : *list)
      fmt::format_to(add, "  {:<20} {} {}\n", t.name, t.dtype, bracket_shape(t.shape));
  }
  size_t total_words = 0;
  for (const neff::Subgraph& sg : n.subgraphs) subgraph_info_text(text, n, sg, total_words);
  fmt::format_to(add, "total                  {}, {}, {}\n", counted(n.subgraphs.size(), "subgraph"),
                 counted(n.streams().size(), "stream"), counted(total_words, "word"));
  return text;
}

std::string neff_ls_text(const neff::Neff& n) {
  uint64_t total = 0;
  size_t width = 4;
  for (const neff::Member& m : n.members) width = std::max(width, neff::escape_text(m.name).size());
  std::string text = fmt::format("{:>9}  {:<10}  {:<{}}  {}\n", "bytes", "kind", "name", width, "what");
  for (const neff::Member& m : n.members) {
    text += fmt::format("{:>9}  {:<10}  {:<{}}  {}\n", m.bytes.size(), neff::to_string(m.kind),
                        neff::escape_text(m.name), width, m.role);
    total += m.bytes.size();
  }
  return text + fmt::format("{}, {}\n", counted(n.members.size(), "member"), counted(total, "byte"));
}

nlohmann::ordered_json neff_ls_json(const neff::Neff& n) {
  ojson list = ojson::array();
  for (const neff::Member& m : n.members)
    list.push_back({{"name", m.name}, {"bytes", m.bytes.size()}, {"kind", neff::to_string(m.kind)}, {"role", m.role}});
  ojson doc{{"file", n.file}, {"members", list}, {"warnings", neff_warnings_json(n)}};
  escape_strings(doc);
  return doc;
}

std::string neff_sems_text(const neff::Neff& n, const std::vector<neff::SubgraphSems>& picture) {
  std::string text;
  auto add = std::back_inserter(text);
  if (!n.generation)
    fmt::format_to(add, "; events read as {} (the NEFF's target names no generation)\n", to_string(kDefaultGeneration));
  for (const neff::SubgraphSems& sg : picture) {
    fmt::format_to(add, "subgraph {}: {} used\n", sg.subgraph, counted(sg.semaphores.size(), "semaphore"));
    for (const neff::SemaphoreUses& s : sg.semaphores) {
      fmt::format_to(
          add, "  $S[{}]{}\n", s.index,
          s.queue_sets.empty() ? std::string() : fmt::format("  (queue set {})", fmt::join(s.queue_sets, ", ")));
      for (const auto& u : s.increments) fmt::format_to(add, "    raised by  {}\n", sem_use_text(u));
      for (const auto& u : s.waits) fmt::format_to(add, "    waited by  {}\n", sem_use_text(u));
      if (s.waits.empty()) text += "    waited by  (no word)\n";
      if (s.increments.empty()) text += "    raised by  (no word)\n";
    }
  }
  return text;
}

std::string neff_sems_dot(const std::vector<neff::SubgraphSems>& picture) {
  std::string text = "digraph semaphores {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n";
  for (const neff::SubgraphSems& sg : picture) {
    std::set<std::string> streams;
    std::string edges;
    for (const neff::SemaphoreUses& s : sg.semaphores) edges += semaphore_edges(sg, s, streams);
    text += fmt::format("  subgraph {} {{\n    label={};\n", dot_id("cluster_" + sg.subgraph), dot_id(sg.subgraph));
    for (const std::string& st : streams) text += fmt::format("    {};\n", dot_id(st));
    text += "  }\n" + edges;
  }
  return text + "}\n";
}

std::string act_eval_text(const ActEvalResult& r) {
  std::string text = fmt::format("; set {}, function {} (id {}): {}\n", r.set, r.function, r.func_id,
                                 r.exact ? "exact" : "reference model");
  for (const ActEvalRow& row : r.rows)
    text += fmt::format("{:.9g} ({:#010x}) -> {:.9g} ({:#010x})\n", std::bit_cast<float>(row.in), row.in,
                        std::bit_cast<float>(row.out), row.out);
  return text;
}

nlohmann::ordered_json act_eval_json(const neff::Neff& n, const ActEvalResult& r) {
  ojson values = ojson::array();
  for (const ActEvalRow& row : r.rows)
    values.push_back({{"x", fmt::format("{:#010x}", row.in)},
                      {"x_value", fmt::format("{:.9g}", std::bit_cast<float>(row.in))},
                      {"y", fmt::format("{:#010x}", row.out)},
                      {"y_value", fmt::format("{:.9g}", std::bit_cast<float>(row.out))}});
  ojson doc{{"file", n.file},
            {"set", r.set},
            {"function", r.function},
            {"func_id", r.func_id},
            {"result", r.exact ? "exact" : "reference model"},
            {"values", values}};
  escape_strings(doc);
  return doc;
}

Error neff_read_error(const neff::Error& e) {
  // A file that cannot be opened or read is worded as every command words it, without a check of the container.
  if (e.code == neff::ErrorCode::Io) return Error{ErrorKind::Invalid, e.to_string()};
  return Error{ErrorKind::Invalid, fmt::format("{} (check: {})", e.to_string(), neff::to_string(e.code))};
}

Expected<neff::Neff> read_neff_input(const std::string& path, const neff::ReadOptions& options) {
  neff::Result<neff::Neff> r =
      path == "-" ? neff::read_stream(stdin, {}, "<stdin>", options) : neff::read_file(path, options);
  if (!r) return neff_read_error(r.error());
  return std::move(*r);
}

std::string neff_warnings_text(const neff::Neff& n, std::string_view tool) {
  std::string text;
  for (const neff::Warning& w : n.warnings)
    text += fmt::format("{}: warning: {}: {}\n", tool,
                        w.member.empty() ? n.file : fmt::format("{}: {}", n.file, w.member), w.message);
  return text;
}

}  // namespace tpbisa::io
