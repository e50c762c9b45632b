// `tpbisa neff info|ls|extract|pack|sems`: text and JSON layouts over the library's NEFF reader and writer.
#include "commands.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "exit_codes.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/io/act_tables.hpp"
#include "tpbisa/io/neff_json.hpp"
#include "tpbisa/io/output_file.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::cli {
namespace {

using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

struct NeffCliOptions {
  neff::ReadOptions read;
  bool json = false;
  bool dot = false;  ///< sems: a Graphviz digraph instead of text
  std::string file;  ///< the NEFF read (info, ls, extract, sems)
  std::string dir;   ///< extract target, pack source
  std::string out;   ///< pack output
  // pack
  uint64_t pkg_version = 2;
  neff::HashOrder hash_order = neff::HashOrder::Natural;
  std::string header_from;
  std::optional<std::string> name;
  std::optional<uint64_t> lnc_size, feature_bits, num_tpb, padding;
  // act-eval
  std::string act_func, act_set;
  std::vector<std::string> act_values;
};

std::string hex(std::span<const uint8_t> bytes) {
  std::string s;
  for (uint8_t b : bytes) s += fmt::format("{:02x}", b);
  return s;
}

std::string shape_text(const std::vector<uint64_t>& shape) {
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

std::vector<unsigned> set_bits(uint64_t v) {
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
  return json(neff::escape_text(s, false)).dump();
}

/// "1 word", "2 words".
std::string count(size_t n, std::string_view noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

void add_read_options(CLI::App& app, neff::ReadOptions& o) {
  const auto number = [&app](const std::string& name, uint64_t& field, const std::string& help) {
    app.add_option_function<std::string>(
           name,
           [&field, name](const std::string& text) {
             const auto v = parse_u64(text);
             if (!v || *v == 0) throw CLI::ValidationError(name, fmt::format("'{}' is not a positive number", text));
             field = *v;
           },
           help)
        ->type_name("N");
  };
  app.add_flag("--verify-hash", o.verify_hash,
               "PROJ-CONV-X1: a payload hash that matches in neither byte order is an error (default: a warning)");
  app.add_flag("--strict-trailing", o.strict_trailing,
               "PROJ-CONV-X3: bytes after the gzip member or after the payload window are an error (default: a "
               "warning)");
  number(
      "--max-inflated", o.max_inflated_bytes,
      fmt::format("Refuse a payload that inflates to more bytes (default {} = 1 GiB)", neff::kDefaultMaxInflatedBytes));
  number("--max-member", o.max_member_bytes,
         fmt::format("Refuse a member that declares more bytes (default {} = 512 MiB)", neff::kDefaultMaxMemberBytes));
  number("--max-members", o.max_members,
         fmt::format("Refuse an archive of more members (default {})", neff::kDefaultMaxMembers));
  number(
      "--max-subgraphs", o.max_subgraphs,
      fmt::format("Refuse a kelf listing more subgraphs, the cores of a run (default {})", neff::kDefaultMaxSubgraphs));
  number("--max-json", o.max_json_bytes,
         fmt::format("Refuse a JSON member of more bytes (default {} = 64 MiB)", neff::kDefaultMaxJsonBytes));
  app.add_option_function<std::string>(
         "--max-json-depth",
         [&o](const std::string& text) {
           const auto v = parse_u64(text);
           if (!v || *v == 0 || *v > 100000)
             throw CLI::ValidationError("--max-json-depth", fmt::format("'{}' is not a depth from 1 to 100000", text));
           o.max_json_depth = static_cast<unsigned>(*v);
         },
         fmt::format("Refuse JSON nested deeper (default {})", neff::kDefaultMaxJsonDepth))
      ->type_name("N");
}

void print_warnings(const neff::Neff& n) {
  for (const neff::Warning& w : n.warnings) {
    const std::string where = w.member.empty() ? n.file : fmt::format("{}: {}", n.file, w.member);
    err_write(fmt::format("{}: warning: {}: {}\n", kToolName, where, w.message));
  }
}

int input_error(const neff::Error& e) {
  report_error(fmt::format("{} (check: {})", e.to_string(), neff::to_string(e.code)));
  return kExitInput;
}

/// Reads the NEFF for a subcommand; nullopt after reporting the error.
std::optional<neff::Neff> load(const NeffCliOptions& o) {
  // "-" reads the container from stdin, as every command that reads a NEFF does.
  neff::Result<neff::Neff> r =
      o.file == "-" ? neff::read_stream(stdin, {}, "<stdin>", o.read) : neff::read_file(o.file, o.read);
  if (!r) {
    input_error(r.error());
    return std::nullopt;
  }
  print_warnings(*r);
  return std::move(*r);
}

// ---- info ----

std::string variable_details(const neff::Neff& n, const neff::Subgraph& sg, const neff::Variable& v) {
  std::vector<std::string> parts;
  if (const neff::Tensor* t = io::graph_tensor(n, v.name);
      t != nullptr && (v.type == neff::VarType::Input || v.type == neff::VarType::Output))
    parts.push_back(fmt::format("{} {}", t->dtype, shape_text(t->shape)));
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
    return fmt::format("{} {} matches ({} order, PROJ-CONV-X1)", h.algorithm, hex(h.computed), to_string(*h.matched));
  return fmt::format("{} {} MISMATCH (stored {})", h.algorithm, hex(h.computed), hex(h.stored));
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

std::string generation_text(const neff::Neff& n) {
  if (n.generation) return fmt::format("{} (generation {}, PROJ-CONV-X7)", n.target, to_string(*n.generation));
  return n.target == "*" ? std::string("* (any generation)") : fmt::format("'{}' (no known generation)", n.target);
}

void print_info_text(const neff::Neff& n) {
  const neff::Header& h = n.header;
  const Generation gen = n.generation.value_or(kDefaultGeneration);
  out("{}: NEFF {}.{}, {} bytes\n", n.file, h.neff_version_major, h.neff_version_minor, n.file_size);
  out("header\n");
  out("  pkg_version          {} ({})\n", h.pkg_version, h.pkg_version == 2 ? "gzip tar, MD5" : "plain tar, SHA-256");
  out("  header_size          {}\n", h.header_size);
  out("  data_size            {}\n", h.data_size);
  out("  neff_version         {}.{}\n", h.neff_version_major, h.neff_version_minor);
  out("  neff_build_version   {}\n", quoted(h.build_version_text()));
  out("  num_tpb              {}\n", h.num_tpb);
  out("  hash                 {}\n", hex(h.hash));
  out("  hash check           {}\n", hash_text(n.hash));
  out("  uuid                 {}\n", hex(h.uuid));
  out("  name                 {}\n", quoted(h.name_text()));
  out("  requested_tpb_count  {}\n", h.requested_tpb_count);
  out("  tpb_per_node         [{}] (then zeros)\n", fmt::join(tpb_prefix(h), ", "));
  out("  feature_bits         0x{:x} (bits {})\n", h.feature_bits,
      h.feature_bits ? fmt::format("{}", fmt::join(set_bits(h.feature_bits), " ")) : std::string("none"));
  out("  lnc_size             {}\n", h.lnc_size);
  out("payload                {}\n", payload_text(n));
  out("kelf                   {} (version {})\n", n.kelf_member, quoted(n.kelf_version));
  out("target                 {}\n", generation_text(n));
  out("compiler               {}\n",
      n.compiler_version.empty() ? std::string("(no info.json tool_version)") : n.compiler_version);
  for (const auto& [title, list] : {std::pair{"inputs", &n.inputs}, std::pair{"outputs", &n.outputs}}) {
    out("{}\n", title);
    for (const neff::Tensor& t : *list) out("  {:<20} {} {}\n", t.name, t.dtype, shape_text(t.shape));
  }
  size_t total_words = 0;
  for (const neff::Subgraph& sg : n.subgraphs) {
    size_t words = 0;
    for (const neff::EngineDef& e : sg.engines) words += e.stream.word_count();
    total_words += words;
    out("subgraph {} ({}, version {}): {}, {}\n", sg.name, sg.definition, quoted(sg.version),
        count(sg.engines.size(), "engine"), count(words, "word"));
    for (const neff::EngineDef& e : sg.engines) {
      std::vector<std::string> counts;
      for (const auto& [name, c] : io::opcode_histogram(e.stream, gen)) counts.push_back(fmt::format("{} {}", name, c));
      out("  {:<16} {:>6} word{}  {}  {}\n", e.stream.label(), e.stream.word_count(),
          e.stream.word_count() == 1 ? " " : "s", e.stream.member, fmt::join(counts, ", "));
    }
    out("  variables\n");
    for (const neff::Variable& v : sg.variables) {
      std::string line = fmt::format("    {:>4}  {:<24} {:<13} {:>12}  {}", v.id, v.name, v.type_name,
                                     v.size ? std::to_string(*v.size) : std::string("-"), variable_details(n, sg, v));
      while (line.back() == ' ') line.pop_back();
      out("{}\n", line);
    }
    if (sg.virtual_scratch_bytes > 0)
      out("  virtual scratch        {} bytes (PROJ-CONV-X8)\n", sg.virtual_scratch_bytes);
    out("  queue sets\n");
    for (const neff::QueueSet& q : sg.queue_sets)
      out("    {:<16} {:<8} owner {:<5} {:>2} queue{}  semaphores {}\n", q.name, q.type, q.owner, q.num_queues,
          q.num_queues == 1 ? " " : "s", index_ranges(q.semaphores));
  }
  out("total                  {}, {}, {}\n", count(n.subgraphs.size(), "subgraph"), count(n.streams().size(), "stream"),
      count(total_words, "word"));
}

int run_info(const NeffCliOptions& o) {
  const auto n = load(o);
  if (!n) return kExitInput;
  if (o.json)
    out("{}\n", io::neff_info_json(*n).dump(2));
  else
    print_info_text(*n);
  return kExitOk;
}

// ---- ls ----

int run_ls(const NeffCliOptions& o) {
  const auto n = load(o);
  if (!n) return kExitInput;
  if (o.json) {
    json list = json::array();
    for (const neff::Member& m : n->members)
      list.push_back(
          {{"name", m.name}, {"bytes", m.bytes.size()}, {"kind", neff::to_string(m.kind)}, {"role", m.role}});
    json doc{{"file", n->file}, {"members", list}, {"warnings", io::neff_warnings_json(*n)}};
    io::escape_strings(doc);
    out("{}\n", doc.dump(2));
    return kExitOk;
  }
  uint64_t total = 0;
  size_t width = 4;
  for (const neff::Member& m : n->members) width = std::max(width, neff::escape_text(m.name).size());
  out("{:>9}  {:<10}  {:<{}}  {}\n", "bytes", "kind", "name", width, "what");
  for (const neff::Member& m : n->members) {
    out("{:>9}  {:<10}  {:<{}}  {}\n", m.bytes.size(), neff::to_string(m.kind), neff::escape_text(m.name), width,
        m.role);
    total += m.bytes.size();
  }
  out("{}, {}\n", count(n->members.size(), "member"), count(total, "byte"));
  return kExitOk;
}

// ---- extract ----

int run_extract(const NeffCliOptions& o) {
  const auto n = load(o);
  if (!n) return kExitInput;
  if (auto e = neff::extract(*n, o.dir)) return input_error(*e);
  uint64_t total = 0;
  for (const neff::Member& m : n->members) total += m.bytes.size();
  out("extracted {} ({}) into {}\n", count(n->members.size(), "member"), count(total, "byte"), o.dir);
  return kExitOk;
}

// ---- pack ----

int run_pack(const NeffCliOptions& o) {
  neff::PackOptions p;
  if (!o.header_from.empty()) {
    std::ifstream in(o.header_from, std::ios::binary);
    std::vector<uint8_t> head(neff::kHeaderBytes);
    if (!in || !in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()))) {
      report_error(fmt::format("{}: cannot read a {}-byte NEFF header", o.header_from, neff::kHeaderBytes));
      return kExitInput;
    }
    p.header = neff::parse_header(std::span<const uint8_t, neff::kHeaderBytes>(head.data(), neff::kHeaderBytes));
  } else {
    p.header.set_name(fs::path(o.out).filename().string());
    p.header.tpb_per_node[0] = 1;
  }
  p.header.pkg_version = o.pkg_version;
  p.hash_order = o.hash_order;
  if (o.name) p.header.set_name(*o.name);
  if (o.lnc_size) p.header.lnc_size = static_cast<uint32_t>(*o.lnc_size);
  if (o.feature_bits) p.header.feature_bits = *o.feature_bits;
  if (o.num_tpb) p.header.num_tpb = static_cast<uint32_t>(*o.num_tpb);
  p.padding = o.padding.value_or(0);
  neff::Result<std::vector<neff::PackMember>> members = neff::collect_directory(o.dir, o.read);
  if (!members) return input_error(members.error());
  neff::Result<std::vector<uint8_t>> bytes = neff::pack(*members, p);
  if (!bytes) return input_error(bytes.error());
  // The library's output-file policy: a temporary file beside OUT, renamed onto it once every byte is written.
  std::vector<std::string> inputs{o.dir};
  if (!o.header_from.empty()) inputs.push_back(o.header_from);
  auto sink = io::OutputFile::open(o.out, io::OutputOptions{inputs, false});
  if (!sink) {
    report_error(sink.error());
    return kExitInput;
  }
  (*sink)->write(std::span<const uint8_t>(*bytes));
  if (const auto done = (*sink)->commit(); !done) {
    report_error(done.error());
    return kExitInput;
  }
  out("packed {} from {} into {} ({}, pkg_version {}, {} hash)\n", count(members->size(), "member"), o.dir, o.out,
      count(bytes->size(), "byte"), o.pkg_version, to_string(o.hash_order));
  return kExitOk;
}

// ---- sems ----

std::string use_text(const neff::SemUse& u) {
  std::string s = fmt::format("{:<20} {:<18} {}", fmt::format("{}#{:02}", u.stream, u.word), u.mnemonic, u.text);
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

/// The semaphore graph for Graphviz: per subgraph a cluster of its streams; an edge from each stream that raises a
/// semaphore to each stream that waits on it, labelled with the semaphore and the words; a semaphore that is waited
/// on and raised by no word gets a red node of its own.
std::string sems_dot(const std::vector<neff::SubgraphSems>& picture) {
  std::string text = "digraph semaphores {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n";
  for (const neff::SubgraphSems& sg : picture) {
    std::set<std::string> streams;
    std::string edges;
    for (const neff::SemaphoreUses& s : sg.semaphores) {
      // One edge per (raising stream, waiting stream): the words on each end in its label.
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
    }
    text += fmt::format("  subgraph {} {{\n    label={};\n", dot_id("cluster_" + sg.subgraph), dot_id(sg.subgraph));
    for (const std::string& st : streams) text += fmt::format("    {};\n", dot_id(st));
    text += "  }\n" + edges;
  }
  return text + "}\n";
}

int run_tables(const NeffCliOptions& o) {
  const auto n = load(o);
  if (!n) return kExitInput;
  if (o.json)
    out("{}\n", io::activation_tables_json(*n).dump(2));
  else
    out("{}", io::activation_tables_text(*n));
  return kExitOk;
}

/// An fp32 operand of `act-eval`: a decimal number (inf, nan included) or 0x-prefixed bits.
std::optional<uint32_t> fp32_operand(const std::string& t) {
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    const auto v = parse_u64(t);
    if (!v || *v > UINT32_MAX) return std::nullopt;
    return static_cast<uint32_t>(*v);
  }
  char* end = nullptr;
  const float f = std::strtof(t.c_str(), &end);
  if (t.empty() || end != t.c_str() + t.size()) return std::nullopt;
  return std::bit_cast<uint32_t>(f);
}

int run_act_eval(const NeffCliOptions& o) {
  std::vector<uint32_t> inputs;
  for (const std::string& t : o.act_values) {
    const auto v = fp32_operand(t);
    if (!v) {
      report_error(fmt::format("neff act-eval: '{}' is not a number or 0x-prefixed fp32 bits", t));
      return kExitUsage;
    }
    inputs.push_back(*v);
  }
  const auto n = load(o);
  if (!n) return kExitInput;
  const Expected<io::ActEvalResult> r = io::activation_eval(*n, o.act_func, inputs, o.act_set);
  if (!r) {
    report_error(r.error());
    return kExitInput;
  }
  const std::string_view label = r->exact ? "exact" : "reference model";
  if (o.json) {
    json values = json::array();
    for (const io::ActEvalRow& row : r->rows)
      values.push_back({{"x", fmt::format("{:#010x}", row.in)},
                        {"x_value", fmt::format("{:.9g}", std::bit_cast<float>(row.in))},
                        {"y", fmt::format("{:#010x}", row.out)},
                        {"y_value", fmt::format("{:.9g}", std::bit_cast<float>(row.out))}});
    json doc{{"file", n->file},       {"set", r->set},   {"function", r->function},
             {"func_id", r->func_id}, {"result", label}, {"values", values}};
    io::escape_strings(doc);
    out("{}\n", doc.dump(2));
    return kExitOk;
  }
  out("; set {}, function {} (id {}): {}\n", r->set, r->function, r->func_id, label);
  for (const io::ActEvalRow& row : r->rows)
    out("{:.9g} ({:#010x}) -> {:.9g} ({:#010x})\n", std::bit_cast<float>(row.in), row.in, std::bit_cast<float>(row.out),
        row.out);
  return kExitOk;
}

int run_sems(const NeffCliOptions& o) {
  const auto n = load(o);
  if (!n) return kExitInput;
  const std::vector<neff::SubgraphSems> picture = neff::semaphore_picture(*n);
  if (o.dot) {
    out("{}", sems_dot(picture));
    return kExitOk;
  }
  if (o.json) {
    json doc = io::neff_sems_json(*n);
    out("{}\n", doc.dump(2));
    return kExitOk;
  }
  if (!n->generation)
    out("; events read as {} (the NEFF's target names no generation)\n", to_string(kDefaultGeneration));
  for (const neff::SubgraphSems& sg : picture) {
    out("subgraph {}: {} used\n", sg.subgraph, count(sg.semaphores.size(), "semaphore"));
    for (const neff::SemaphoreUses& s : sg.semaphores) {
      out("  S[{}]{}\n", s.index,
          s.queue_sets.empty() ? std::string() : fmt::format("  (queue set {})", fmt::join(s.queue_sets, ", ")));
      for (const auto& u : s.increments) out("    raised by  {}\n", use_text(u));
      for (const auto& u : s.waits) out("    waited by  {}\n", use_text(u));
      if (s.waits.empty()) out("    waited by  (no word)\n");
      if (s.increments.empty()) out("    raised by  (no word)\n");
    }
  }
  return kExitOk;
}

/// `neff pack`'s arguments and the header fields it sets.
void add_pack_options(CLI::App& pack, NeffCliOptions& o) {
  pack.add_option("DIR", o.dir, "Folder whose regular files become the members (names relative to it)")
      ->required()
      ->type_name("DIR");
  pack.add_option("OUT", o.out, "The container to write")->required()->type_name("OUT.neff");
  pack.add_option_function<std::string>(
          "--pkg-version",
          [&o](const std::string& t) {
            if (t != "1" && t != "2") throw CLI::ValidationError("--pkg-version", fmt::format("'{}' is not 1 or 2", t));
            o.pkg_version = t == "1" ? 1 : 2;
          },
          "Packaging: 2 = gzip tar with MD5 (default), 1 = plain tar with SHA-256")
      ->type_name("1|2");
  pack.add_option_function<std::string>(
          "--hash-order",
          [&o](const std::string& t) {
            if (t == "natural")
              o.hash_order = neff::HashOrder::Natural;
            else if (t == "word-le")
              o.hash_order = neff::HashOrder::WordLE;
            else
              throw CLI::ValidationError("--hash-order", fmt::format("'{}' is not natural or word-le", t));
          },
          "PROJ-CONV-X1: store the digest as computed (natural, default) or with every 4-byte group reversed "
          "(word-le, the compiler's form)")
      ->type_name("natural|word-le");
  pack.add_option("--header-from", o.header_from,
                  "Copy the header fields (name, uuid, lnc_size, feature bits, ...) from this NEFF")
      ->type_name("FILE.neff");
  pack.add_option("--name", o.name, "Header name (default: the output's file name)")->type_name("TEXT");
  const auto number = [&pack](const char* name, std::optional<uint64_t>& field, const char* help, uint64_t max) {
    pack.add_option_function<std::string>(
            name,
            [&field, name, max](const std::string& t) {
              const auto v = parse_u64(t);
              if (!v || *v > max)
                throw CLI::ValidationError(name, fmt::format("'{}' is not a number up to {}", t, max));
              field = *v;
            },
            help)
        ->type_name("N");
  };
  number("--lnc", o.lnc_size, "Header lnc_size (default 1)", UINT32_MAX);
  number("--num-tpb", o.num_tpb, "Header num_tpb (default 1)", UINT32_MAX);
  number("--feature-bits", o.feature_bits, "Header feature_bits (default 0)", UINT64_MAX);
  number("--padding", o.padding, "Zero bytes after the payload inside the data_size window (default 0)",
         uint64_t{1} << 30);
}

}  // namespace

Command register_neff(CLI::App& parent) {
  auto o = std::make_shared<NeffCliOptions>();
  CLI::App* app = parent.add_subcommand("neff", "Inspect, list, extract and pack NEFF containers (docs/neff.md)");
  app->require_subcommand(1);

  CLI::App* info = app->add_subcommand("info",
                                       "Header, hash check, target and generation, subgraphs, streams with "
                                       "their opcode counts, variables, inputs and outputs, queue sets");
  CLI::App* ls = app->add_subcommand("ls", "The archive members with their sizes and what each is");
  CLI::App* extract = app->add_subcommand("extract",
                                          "Unpack the members into a new folder (never outside it; nothing "
                                          "is left behind on failure)");
  CLI::App* pack = app->add_subcommand("pack", "Build a container from a folder (header, hash, gzip tar)");
  CLI::App* sems = app->add_subcommand(
      "sems", "The static semaphore picture: per subgraph, which words wait on each semaphore and which raise it");
  CLI::App* tables = app->add_subcommand(
      "tables", "The activation-function sets of each subgraph: functions with their ids, ranges and bucket counts");
  CLI::App* act_eval = app->add_subcommand(
      "act-eval", "Evaluate an activation function of the NEFF's own tables at values (docs/activation.md)");
  act_eval->add_option("--func", o->act_func, "The function: a name (exp, tanh, ...) or its id")
      ->required()
      ->type_name("NAME|ID");
  act_eval->add_option("--set", o->act_set, "The set (default: the first embedded set that has the function)")
      ->type_name("NAME");
  for (CLI::App* sub : {info, ls, extract, sems, tables, act_eval}) {
    sub->add_option("FILE", o->file, "The .neff file (- reads stdin)")->required()->type_name("FILE.neff");
    add_read_options(*sub, o->read);
  }
  act_eval
      ->add_option("VALUES", o->act_values,
                   "fp32 inputs: decimal numbers or 0x-prefixed bits (-- before "
                   "negative ones)")
      ->required();
  for (CLI::App* sub : {info, ls, sems, tables, act_eval})
    sub->add_flag("--json", o->json, "Print one JSON document instead of text");
  sems->add_flag("--dot", o->dot, "Print the semaphore graph for Graphviz (dot -Tsvg) instead of text")
      ->excludes(sems->get_option("--json"));
  extract->add_option("DIR", o->dir, "Folder to create (it must not exist, or be empty)")->required()->type_name("DIR");

  add_pack_options(*pack, *o);

  app->footer(
      "Exit codes: 0 success, 2 usage error, 3 input or output error (a container that fails a check: the "
      "message names the file, the member and the check).");
  return {app, [o, info, ls, extract, pack, sems, tables, act_eval] {
            if (act_eval->parsed()) return run_act_eval(*o);
            if (tables->parsed()) return run_tables(*o);
            if (info->parsed()) return run_info(*o);
            if (ls->parsed()) return run_ls(*o);
            if (extract->parsed()) return run_extract(*o);
            if (pack->parsed()) return run_pack(*o);
            if (sems->parsed()) return run_sems(*o);
            return static_cast<int>(kExitUsage);
          }};
}

}  // namespace tpbisa::cli
