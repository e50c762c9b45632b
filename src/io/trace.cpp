// The trace writer (the io layer): a StepResult's effects as a JSON record or a compact line, each in its fixed field
// order (docs/trace.md) with strings escaped by nlohmann's serializer, addresses decoded per generation.
#include "tpbisa/trace.hpp"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tpbisa/io/json.hpp"
#include "tpbisa/io/verdict_json.hpp"
#include "tpbisa/neff_run.hpp"

namespace tpbisa {

using ojson = nlohmann::ordered_json;

std::string_view to_string(TraceFormat f) {
  return f == TraceFormat::Compact ? "compact" : "json";
}

std::optional<TraceFormat> parse_trace_format(std::string_view text) {
  if (text == "json") return TraceFormat::Json;
  if (text == "compact") return TraceFormat::Compact;
  return std::nullopt;
}

// Ordered JSON: keys in the order docs/trace.md lists them.
std::string blocked_wait_json(const BlockedWait& w) {
  ojson j{{"core", w.core},
          {"engine", to_string(w.engine)},
          {"index", w.index},
          {"offset", w.index * kWordBytes},
          {"opcode", fmt::format("{:#04x}", w.opcode)},
          {"name", w.name}};
  j[w.event ? "event" : "semaphore"] = w.id;
  j["value"] = w.value;
  j["condition"] = wait_condition(w);
  if (!w.event) {
    j["comparand"] = w.comparand;
    j["register"] = w.reg >= 0 ? ojson(w.reg) : ojson(nullptr);
  }
  return j.dump();
}

namespace {

/// Where a Neuron address lies: an SBUF or PSUM partition and the byte in it, or flat device memory.
struct Place {
  bool on_chip = false;
  bool psum = false;
  unsigned partition = 0;
  uint64_t offset = 0;
};

Place place_of(uint64_t address, Generation gen) {
  const Geometry& geo = geometry(gen);
  const uint64_t low_end = geo.psum_size != 0 ? uint64_t{geo.psum_offset} + geo.psum_size : uint64_t{geo.sbuf_size};
  if (address >= low_end) return {};
  const PartitionAddress p = decode_partition_offset(static_cast<uint32_t>(address), gen);
  return {true, p.region == Region::Psum, p.partition, p.offset};
}

/// The variable of a NEFF run's core that holds a DRAM range's first byte ("" when none does).
std::string_view dram_variable(const neff::Run& run, unsigned core, const EffectLog::DramRange& d) {
  for (const DramVar& v : run.dram(core).vars)
    if (v.present && v.data == d.base) return v.name;
  return {};
}

/// How many of the step's DRAM ranges the record shows (capped as every effect list; none outside a NEFF run).
size_t dram_shown(const StepResult& s, const TraceStyle& style) {
  if (style.run == nullptr) return 0;
  return std::min(s.dram_ranges.size(), style.run->machine().options().max_recorded_effects);
}

// ---- The writer -----------------------------------------------------------------------------------------------

/// A one-line JSON writer for the records' fixed layouts: members and elements in the order written, the commas
/// placed by the writer, strings escaped by nlohmann's serializer, numbers and hex digits by fmt. It writes into the
/// caller's string and builds no document: a record of thousands of entries costs what its text costs (a
/// nlohmann::ordered_json per record made the traced run of matmul_small.neff 2.6 times as costly).
class LineWriter {
 public:
  explicit LineWriter(std::string& out) : out_(out) {}

  LineWriter& key(std::string_view k) {
    separate();
    out_ += '"';
    out_ += k;
    out_ += "\":";
    after_key_ = true;
    return *this;
  }
  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  /// Where the next value goes, written by the caller in place (the comma before it placed).
  std::back_insert_iterator<std::string> item() {
    separate();
    return std::back_inserter(out_);
  }
  void number(uint64_t v) { fmt::format_to(item(), "{}", v); }
  void boolean(bool v) {
    separate();
    out_ += v ? "true" : "false";
  }
  void null() {
    separate();
    out_ += "null";
  }
  /// Any text, escaped as nlohmann does (a string of printable ASCII needs nothing escaped and is written as it is).
  void string(std::string_view text) {
    separate();
    const bool plain =
        std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
    if (plain) {
      out_ += '"';
      out_ += text;
      out_ += '"';
    } else {
      out_ += io::dump_json(ojson(text));
    }
  }
  /// A string of the program's own vocabulary (a key, a region, a kind): printable ASCII, nothing to escape.
  void token(std::string_view text) {
    separate();
    out_ += '"';
    out_ += text;
    out_ += '"';
  }
  /// `"0x…"` (prefixed) or `"…"`: v in hex, zero-padded to `digits` digits (0: as many as it needs).
  void hex(uint64_t v, unsigned digits, bool prefixed) {
    if (prefixed)
      fmt::format_to(item(), "\"{:#0{}x}\"", v, digits + 2);
    else
      fmt::format_to(item(), "\"{:0{}x}\"", v, digits);
  }
  /// A value serialised already (a fault object).
  void json(const ojson& j) {
    separate();
    out_ += io::dump_json(j);
  }

 private:
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_) out_ += ',';
    first_ = false;
  }
  void open(char c) {
    separate();
    out_ += c;
    first_ = true;
  }
  void close(char c) {
    out_ += c;
    first_ = false;
  }

  std::string& out_;
  bool first_ = true;       ///< nothing written yet in the innermost object or array
  bool after_key_ = false;  ///< a key was written: its value follows without a comma
};

/// `key: [each entry as put(writer, entry)]`.
template <class T, class F>
void put_list(LineWriter& w, std::string_view key, std::span<const T> xs, F put) {
  w.key(key).begin_array();
  for (const T& x : xs) put(w, x);
  w.end_array();
}

// ---- The record -------------------------------------------------------------------------------------------------

/// Writes a record's fields in one of its two forms: the JSON record (docs/trace.md: named members, entries as
/// objects, `0x`-prefixed hex, a location as its parts) or the compact line (short keys, entries as rows of values,
/// bare hex, a location as one string, empty lists left out). The record's fields are walked once, by append_record.
class Record {
 public:
  Record(std::string& out, bool compact, Generation gen) : w_(out), compact_(compact), gen_(gen) {}

  bool compact() const { return compact_; }
  /// The member `json_key` (`short_key` in the compact line) of the record, about to take its value.
  LineWriter& member(std::string_view json_key, std::string_view short_key) {
    return w_.key(compact_ ? short_key : json_key);
  }
  /// Where an entry's field `key` goes: its member in JSON, the next value of the row in compact.
  LineWriter& at(std::string_view key) { return compact_ ? w_ : w_.key(key); }
  void hex(std::string_view key, uint64_t v, unsigned digits) { at(key).hex(v, digits, !compact_); }
  void flag(std::string_view key, bool v) {
    if (compact_)
      w_.number(v ? 1 : 0);
    else
      w_.key(key).boolean(v);
  }
  /// A Neuron address: `addr`, `region`[, `partition`, `offset`] in JSON; `s3+1a0` (SBUF partition 3, byte 0x1a0),
  /// `p0+800` (PSUM) or `d+80100` (device memory) in compact.
  void location(uint64_t address) {
    const Place p = place_of(address, gen_);
    if (compact_) {
      if (p.on_chip)
        fmt::format_to(w_.item(), "\"{}{}+{:x}\"", p.psum ? 'p' : 's', p.partition, p.offset);
      else
        fmt::format_to(w_.item(), "\"d+{:x}\"", address);
      return;
    }
    w_.key("addr").hex(address, 0, true);
    w_.key("region").token(!p.on_chip ? "dev" : p.psum ? "psum" : "sbuf");
    if (!p.on_chip) return;
    w_.key("partition").number(p.partition);
    w_.key("offset").number(p.offset);
  }
  /// An activation-function set's name, or null for none.
  void set(std::string_view key, const act::TableSet* loaded) {
    LineWriter& w = at(key);
    if (loaded == nullptr)
      w.null();
    else
      w.string(activation_set_name(loaded));
  }
  /// An entry (or a group of fields): an object in JSON, a row in compact.
  void begin() { compact_ ? w_.begin_array() : w_.begin_object(); }
  void end() { compact_ ? w_.end_array() : w_.end_object(); }
  /// A list of entries, each written by put(record, entry); in compact left out when empty, in JSON when not `shown`.
  template <class T, class F>
  void list(std::string_view json_key, std::string_view short_key, std::span<const T> xs, F put, bool shown = true) {
    if (compact_ ? xs.empty() : !shown) return;
    put_list(w_, compact_ ? short_key : json_key, xs, [&](LineWriter&, const T& e) {
      begin();
      put(*this, e);
      end();
    });
  }
  /// What the capped lists left out, `key` then each list's count by its name, those with none left out.
  void omitted(std::string_view key, std::span<const std::pair<std::string_view, uint64_t>> counts) {
    bool any = false;
    for (const auto& [name, n] : counts) {
      if (n == 0) continue;
      if (!any) w_.key(key).begin_object();
      any = true;
      w_.key(name).number(n);
    }
    if (any) w_.end_object();
  }
  LineWriter& writer() { return w_; }

 private:
  LineWriter w_;
  bool compact_;
  Generation gen_;
};

/// A NEFF run's DRAM side of the step's transfers.
void put_dram(Record& r, const StepResult& s, const TraceStyle& style) {
  r.list(
      "dram", "D", s.dram_ranges.first(dram_shown(s, style)),
      [&](Record& x, const EffectLog::DramRange& d) {
        x.at("variable").string(dram_variable(*style.run, s.core, d));
        x.at("offset").number(d.offset);
        x.at("size").number(d.n);
        x.at("access").token(d.write ? (x.compact() ? "w" : "write") : (x.compact() ? "r" : "read"));
      },
      !s.dram_ranges.empty());
}

void append_record(std::string& out, const StepResult& s, const Instruction& inst, const ValidateOptions& options,
                   const TraceStyle& style) {
  Record r(out, style.format == TraceFormat::Compact, inst.gen);
  const bool compact = r.compact();
  r.writer().begin_object();
  r.member("schema", "v").number(compact ? kCompactTraceVersion : kTraceSchemaVersion);
  if (style.engine) {
    r.member("core", "c").number(s.core);
    r.member("engine", "e").token(to_string(s.engine));
  }
  r.member("index", "i").number(s.index);
  r.member("opcode", "o").hex(s.opcode, 2, !compact);
  r.member("name", "n").string(s.name);
  if (!compact) r.member("status", "").token(s.status == StepResult::Status::Retired ? "retired" : "fault");
  r.list("regs", "r", s.reg_writes, [](Record& x, const RegWrite& e) {
    x.at("reg").number(e.reg);
    x.hex("before", e.before, 8);
    x.hex("after", e.after, 8);
  });
  r.list("mem", "w", s.mem_writes, [](Record& x, const MemWrite& m) {
    x.location(m.address);
    x.at("size").number(m.size);
    x.hex("before", m.before, 2U * m.size);
    x.hex("after", m.after, 2U * m.size);
  });
  r.list("reads", "m", s.mem_reads, [](Record& x, const MemRead& m) {
    x.location(m.address);
    x.at("size").number(m.size);
    x.flag("initialized", m.initialized);
  });
  r.list("dve", "d", s.dve_writes, [](Record& x, const DveWrite& d) {
    x.at("channel").number(d.channel);
    x.at("field").token(to_string(d.field));
    x.at("slot").number(d.slot);
    x.hex("before", d.before, 8);
    x.hex("after", d.after, 8);
  });
  // The ACT accumulators read and a table load's set change: only in the records that have them.
  r.list(
      "dve_reads", "q", s.dve_reads,
      [](Record& x, const DveRead& d) {
        x.at("channel").number(d.channel);
        x.at("field").token(to_string(d.field));
        x.at("slot").number(d.slot);
        x.hex("value", d.value, 8);
      },
      !s.dve_reads.empty());
  if (s.act_set_loaded) {
    r.member("act_set", "a");
    r.begin();
    r.set("before", s.act_set_before);
    r.set("after", s.act_set_after);
    r.end();
  }
  r.list("sems", "s", s.sem_writes, [](Record& x, const SemWrite& m) {
    if (x.compact())
      fmt::format_to(x.writer().item(), "\"{}{}\"", m.event ? 'E' : 'S', m.index);
    else
      x.at(m.event ? "event" : "semaphore").number(m.index);
    x.at("before").number(m.before);
    x.at("after").number(m.after);
  });
  if (compact && style.run != nullptr) put_dram(r, s, style);
  r.list("diagnostics", "g", s.diagnostics, [](Record& x, const Diagnostic& d) {
    x.at("kind").token(to_string(d.kind));
    if (d.kind == DiagKind::UnwrittenScalar || d.kind == DiagKind::ScalarClassMismatch) {
      x.at("channel").number(d.address / 8);
      x.at("slot").number(d.address % 8);
    } else if (d.kind != DiagKind::FirmwareStub) {
      if (x.compact())
        x.location(d.address);
      else
        x.hex("addr", d.address, 0);
      x.at("size").number(d.size);
    }
  });
  // Bounded records: the lists hold at most MachineOptions::max_recorded_effects entries; what a capped list left out
  // is counted (only the capped lists appear).
  if (s.recorded) {
    const uint64_t dram_left = s.dram_ranges.size() - dram_shown(s, style);
    const std::pair<std::string_view, uint64_t> json[] = {
        {"regs", s.totals.regs - s.reg_writes.size()},  {"mem", s.totals.mem - s.mem_writes.size()},
        {"reads", s.totals.reads - s.mem_reads.size()}, {"dve", s.totals.dve - s.dve_writes.size()},
        {"sems", s.totals.sems - s.sem_writes.size()},  {"diagnostics", s.totals.diagnostics - s.diagnostics.size()}};
    const std::pair<std::string_view, uint64_t> short_keys[] = {{"r", json[0].second},
                                                                {"w", json[1].second},
                                                                {"m", json[2].second},
                                                                {"d", json[3].second},
                                                                {"s", json[4].second},
                                                                {"D", dram_left},
                                                                {"g", s.totals.diagnostics - s.diagnostics.size()}};
    if (compact)
      r.omitted("z", short_keys);
    else
      r.omitted("omitted", json);
  }
  if (s.status == StepResult::Status::Faulted)
    r.member("fault", "x").json(io::fault_json(s.fault, inst, options));
  else if (!compact)
    r.member("fault", "x").null();
  // A NEFF run's DRAM side of its transfers, after the rest of a JSON record (one without any has no `dram` key).
  if (!compact && style.run != nullptr) {
    put_dram(r, s, style);
    if (!s.dram_ranges.empty() && dram_shown(s, style) < s.dram_ranges.size())
      r.member("dram_omitted", "").number(s.dram_ranges.size() - dram_shown(s, style));
  }
  r.writer().end_object();
}

}  // namespace

void append_trace_line(std::string& out, const StepResult& s, const Instruction& inst, const ValidateOptions& options,
                       const TraceStyle& style) {
  append_record(out, s, inst, options, style);
}

std::string trace_line(const StepResult& s, const Instruction& inst, const ValidateOptions& options,
                       const TraceStyle& style) {
  std::string out;
  append_trace_line(out, s, inst, options, style);
  return out;
}

Instruction stepped_instruction(const Machine& m, const StepResult& s) {
  return m.core(s.core).engine(s.engine).instruction(s.index);
}

void append_trace_line(std::string& out, const StepResult& s, const Machine& m, const TraceStyle& style) {
  append_trace_line(out, s, stepped_instruction(m, s), m.options().validate, style);
}

std::string trace_line(const StepResult& s, const Machine& m, const TraceStyle& style) {
  return trace_line(s, stepped_instruction(m, s), m.options().validate, style);
}

}  // namespace tpbisa
