// The compiler's protobuf debug records (.dbg members): word -> compiler instruction -> penguin value -> HLO op,
// read with a bounded protobuf wire-format walker (the records' schema is not published; docs/neff.md names the
// fields read).
#include <charconv>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "tpbisa/neff.hpp"
#include "tpbisa/neff_debug.hpp"

namespace tpbisa::neff {
namespace {

using Bytes = std::span<const uint8_t>;

/// One field of a protobuf message: its number, and a varint value or a length-delimited payload.
struct PbField {
  uint32_t number = 0;
  bool delimited = false;
  uint64_t value = 0;
  Bytes bytes;
};

/// Walks the fields of one message; stops (ok() false) at anything malformed, never reading past the bytes.
class PbReader {
 public:
  explicit PbReader(Bytes b) : b_(b) {}
  bool next(PbField& f) {
    if (pos_ >= b_.size() || bad_) return false;
    uint64_t key = 0;
    if (!varint(key)) return fail();
    f.number = static_cast<uint32_t>(key >> 3);
    f.delimited = false;
    f.bytes = {};
    switch (key & 7) {
      case 0: return varint(f.value) || fail();
      case 1: return skip(8);
      case 5: return skip(4);
      case 2: {
        uint64_t n = 0;
        if (!varint(n) || n > b_.size() - pos_) return fail();
        f.delimited = true;
        f.bytes = b_.subspan(pos_, static_cast<size_t>(n));
        pos_ += static_cast<size_t>(n);
        return true;
      }
      default: return fail();
    }
  }
  bool ok() const { return !bad_; }

 private:
  bool varint(uint64_t& v) {
    v = 0;
    for (unsigned shift = 0; shift < 64 && pos_ < b_.size(); shift += 7) {
      const uint8_t c = b_[pos_++];
      v |= uint64_t{c & 0x7Fu} << shift;
      if (c < 0x80) return true;
    }
    return false;
  }
  bool skip(size_t n) {
    if (n > b_.size() - pos_) return fail();
    pos_ += n;
    return true;
  }
  bool fail() {
    bad_ = true;
    return false;
  }
  Bytes b_;
  size_t pos_ = 0;
  bool bad_ = false;
};

std::string text_of(Bytes b) {
  return std::string(b.begin(), b.end());
}

/// A repeated integer field, packed (one delimited run of varints) or not.
void add_ids(const PbField& f, std::vector<uint64_t>& out) {
  if (!f.delimited) {
    out.push_back(f.value);
    return;
  }
  size_t i = 0;
  while (i < f.bytes.size()) {
    uint64_t v = 0;
    unsigned shift = 0;
    for (; i < f.bytes.size() && shift < 64; shift += 7) {
      const uint8_t c = f.bytes[i++];
      v |= uint64_t{c & 0x7Fu} << shift;
      if (c < 0x80) break;
    }
    out.push_back(v);
  }
}

/// One record of a backend, penguin or HLO file: field 1 its id, 2 its name (or text), 3 the ids of the next
/// level it came from, 7 its attributes (key 1, value 2).
struct Record {
  uint64_t id = 0;
  std::string name;
  std::vector<uint64_t> from;
  std::vector<std::pair<std::string, std::string>> attrs;

  std::string attr(std::string_view key) const {
    for (const auto& [k, v] : attrs)
      if (k == key) return v;
    return {};
  }
};

/// A debug file: field 2 names the next level's file, 3 holds the records, 5 the source files attributes index.
struct DebugFile {
  std::string next;
  std::vector<Record> records;
  std::vector<std::string> files;
  std::unordered_map<uint64_t, size_t> by_id;

  const Record* find(uint64_t id) const {
    const auto it = by_id.find(id);
    return it == by_id.end() ? nullptr : &records[it->second];
  }
};

std::optional<Record> parse_record(Bytes b) {
  Record r;
  PbReader rd(b);
  PbField f;
  while (rd.next(f)) {
    if (f.number == 1 && !f.delimited) r.id = f.value;
    if (f.number == 2 && f.delimited) r.name = text_of(f.bytes);
    if (f.number == 3) add_ids(f, r.from);
    if (f.number == 7 && f.delimited) {
      std::pair<std::string, std::string> kv;
      PbReader ar(f.bytes);
      PbField a;
      while (ar.next(a)) {
        if (a.number == 1 && a.delimited) kv.first = text_of(a.bytes);
        if (a.number == 2 && a.delimited) kv.second = text_of(a.bytes);
      }
      if (!ar.ok()) return std::nullopt;
      r.attrs.push_back(std::move(kv));
    }
  }
  if (!rd.ok()) return std::nullopt;
  return r;
}

std::optional<DebugFile> parse_file(Bytes b) {
  DebugFile d;
  PbReader rd(b);
  PbField f;
  while (rd.next(f)) {
    if (f.number == 2 && f.delimited) d.next = text_of(f.bytes);
    if (f.number == 5 && f.delimited) d.files.push_back(text_of(f.bytes));
    if (f.number != 3 || !f.delimited) continue;
    auto r = parse_record(f.bytes);
    if (!r) return std::nullopt;
    d.by_id.emplace(r->id, d.records.size());  // the first record of an id wins
    d.records.push_back(std::move(*r));
  }
  if (!rd.ok()) return std::nullopt;
  return d;
}

/// The member a debug file names: beside the subgraph's def.json, else a `debug_info/NAME_*` member of the
/// container (the compiler's program-wide records; the first such member in archive order).
const Member* find_debug_member(const Neff& neff, const Subgraph& sg, const std::string& name) {
  if (name.empty()) return nullptr;
  if (const Member* m = neff.member(sg.folder.empty() ? name : sg.folder + "/" + name)) return m;
  const std::string prefix = "debug_info/" + name;
  for (const Member& m : neff.members)
    if (m.name == prefix || (m.name.starts_with(prefix) && m.name[prefix.size()] == '_')) return &m;
  return nullptr;
}

std::optional<DebugFile> load(const Neff& neff, const Subgraph& sg, const std::string& name) {
  const Member* m = find_debug_member(neff, sg, name);
  if (m == nullptr) return std::nullopt;
  return parse_file(m->bytes);
}

uint64_t line_number(const std::string& text) {
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && end == text.data() + text.size() ? v : 0;
}

/// A record's kernel_file / kernel_line attributes: the file is an index into its debug file's list.
void kernel_location(const Record& r, const DebugFile& file, SourceLine& out) {
  if (!out.file.empty() || r.attr("kernel_line").empty()) return;
  const std::string index = r.attr("kernel_file");
  const uint64_t i = line_number(index);
  out.file = !index.empty() && i < file.files.size() && std::to_string(i) == index ? file.files[i] : index;
  out.line = line_number(r.attr("kernel_line"));
}

/// The asm record of `engine`: def.json's `<key>_asm_dbg` list, its first name.
std::string asm_member_name(const Neff& neff, const Subgraph& sg, Engine engine) {
  const Member* def = neff.member(sg.definition);
  if (def == nullptr) return {};
  const auto j = nlohmann::json::parse(def->bytes.begin(), def->bytes.end(), nullptr, false);
  if (!j.is_object()) return {};
  const auto it = j.find(std::string(engine_key(engine)) + "_asm_dbg");
  if (it == j.end() || !it->is_array() || it->empty() || !it->front().is_string()) return {};
  return it->front().get<std::string>();
}

}  // namespace

std::string SourceLine::location() const {
  if (file.empty()) return {};
  return line == 0 ? file : file + ":" + std::to_string(line);
}

std::optional<std::vector<SourceLine>> stream_source(const Neff& neff, const Subgraph& sg, Engine engine) {
  const EngineDef* def = sg.engine(engine);
  if (def == nullptr) return std::nullopt;
  const auto asm_file = load(neff, sg, asm_member_name(neff, sg, engine));
  if (!asm_file) return std::nullopt;
  const auto backend = load(neff, sg, asm_file->next);
  const auto penguin = backend ? load(neff, sg, backend->next) : std::nullopt;
  const auto hlo = penguin ? load(neff, sg, penguin->next) : std::nullopt;

  std::vector<SourceLine> out(def->stream.word_count());
  // The asm records follow the words in order; a record for word i names the compiler instructions it came from.
  for (size_t i = 0; i < out.size() && i < asm_file->records.size(); ++i) {
    SourceLine& s = out[i];
    for (uint64_t bid : asm_file->records[i].from) {
      const Record* b = backend ? backend->find(bid) : nullptr;
      if (b == nullptr) continue;
      if (s.instruction.empty()) s.instruction = b->name;
      kernel_location(*b, *backend, s);
      for (uint64_t pid : b->from) {
        const Record* p = penguin ? penguin->find(pid) : nullptr;
        if (p == nullptr) continue;
        kernel_location(*p, *penguin, s);
        for (uint64_t hid : p->from) {
          const Record* h = hlo ? hlo->find(hid) : nullptr;
          if (h == nullptr || !s.hlo.empty()) continue;
          s.hlo = h->name;
          s.op_type = h->attr("op_type");
          if (s.file.empty() && !h->attr("source_file").empty()) {
            s.file = h->attr("source_file");
            s.line = line_number(h->attr("source_line"));
          }
        }
      }
    }
  }
  return out;
}

}  // namespace tpbisa::neff
