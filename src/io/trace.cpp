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

// ---- The JSON record -------------------------------------------------------------------------------------------

/// `"addr", "region"[, "partition", "offset"]` of a Neuron address, in the object being written.
void put_location(LineWriter& w, uint64_t address, Generation gen) {
  w.key("addr").hex(address, 0, true);
  const Place p = place_of(address, gen);
  if (!p.on_chip) {
    w.key("region").token("dev");
    return;
  }
  w.key("region").token(p.psum ? "psum" : "sbuf");
  w.key("partition").number(p.partition);
  w.key("offset").number(p.offset);
}

/// An activation-function set's name, or null for none.
void put_set(LineWriter& w, const act::TableSet* set) {
  if (set == nullptr)
    w.null();
  else
    w.string(activation_set_name(set));
}

void append_json(std::string& out, const StepResult& s, const Instruction& inst, const ValidateOptions& options,
                 const TraceStyle& style) {
  const Generation gen = inst.gen;
  LineWriter w(out);
  w.begin_object();
  w.key("schema").number(kTraceSchemaVersion);
  if (style.engine) {
    w.key("core").number(s.core);
    w.key("engine").token(to_string(s.engine));
  }
  w.key("index").number(s.index);
  w.key("opcode").hex(s.opcode, 2, true);
  w.key("name").string(s.name);
  w.key("status").token(s.status == StepResult::Status::Retired ? "retired" : "fault");
  put_list(w, "regs", s.reg_writes, [](LineWriter& x, const RegWrite& r) {
    x.begin_object();
    x.key("reg").number(r.reg);
    x.key("before").hex(r.before, 8, true);
    x.key("after").hex(r.after, 8, true);
    x.end_object();
  });
  put_list(w, "mem", s.mem_writes, [gen](LineWriter& x, const MemWrite& m) {
    x.begin_object();
    put_location(x, m.address, gen);
    x.key("size").number(m.size);
    x.key("before").hex(m.before, 2U * m.size, true);
    x.key("after").hex(m.after, 2U * m.size, true);
    x.end_object();
  });
  put_list(w, "reads", s.mem_reads, [gen](LineWriter& x, const MemRead& r) {
    x.begin_object();
    put_location(x, r.address, gen);
    x.key("size").number(r.size);
    x.key("initialized").boolean(r.initialized);
    x.end_object();
  });
  put_list(w, "dve", s.dve_writes, [](LineWriter& x, const DveWrite& d) {
    x.begin_object();
    x.key("channel").number(d.channel);
    x.key("field").token(to_string(d.field));
    x.key("slot").number(d.slot);
    x.key("before").hex(d.before, 8, true);
    x.key("after").hex(d.after, 8, true);
    x.end_object();
  });
  // The ACT accumulators read and a table load's set change: keys only in the records that have them.
  if (!s.dve_reads.empty())
    put_list(w, "dve_reads", s.dve_reads, [](LineWriter& x, const DveRead& d) {
      x.begin_object();
      x.key("channel").number(d.channel);
      x.key("field").token(to_string(d.field));
      x.key("slot").number(d.slot);
      x.key("value").hex(d.value, 8, true);
      x.end_object();
    });
  if (s.act_set_loaded) {
    w.key("act_set").begin_object();
    put_set(w.key("before"), s.act_set_before);
    put_set(w.key("after"), s.act_set_after);
    w.end_object();
  }
  put_list(w, "sems", s.sem_writes, [](LineWriter& x, const SemWrite& m) {
    x.begin_object();
    x.key(m.event ? "event" : "semaphore").number(m.index);
    x.key("before").number(m.before);
    x.key("after").number(m.after);
    x.end_object();
  });
  put_list(w, "diagnostics", s.diagnostics, [](LineWriter& x, const Diagnostic& d) {
    x.begin_object();
    x.key("kind").token(to_string(d.kind));
    if (d.kind == DiagKind::UnwrittenScalar || d.kind == DiagKind::ScalarClassMismatch) {
      x.key("channel").number(d.address / 8);
      x.key("slot").number(d.address % 8);
    } else if (d.kind != DiagKind::FirmwareStub) {
      x.key("addr").hex(d.address, 0, true);
      x.key("size").number(d.size);
    }
    x.end_object();
  });
  // Bounded records: the lists hold at most MachineOptions::max_recorded_effects entries; what a capped
  // list left out is counted here (only the capped lists appear).
  if (s.recorded) {
    const std::pair<std::string_view, uint64_t> omitted[] = {
        {"regs", s.totals.regs - s.reg_writes.size()},  {"mem", s.totals.mem - s.mem_writes.size()},
        {"reads", s.totals.reads - s.mem_reads.size()}, {"dve", s.totals.dve - s.dve_writes.size()},
        {"sems", s.totals.sems - s.sem_writes.size()},  {"diagnostics", s.totals.diagnostics - s.diagnostics.size()}};
    bool any = false;
    for (const auto& [key, n] : omitted) {
      if (n == 0) continue;
      if (!any) w.key("omitted").begin_object();
      any = true;
      w.key(key).number(n);
    }
    if (any) w.end_object();
  }
  if (s.status == StepResult::Status::Faulted)
    w.key("fault").json(io::fault_json(s.fault, inst, options));
  else
    w.key("fault").null();
  // A NEFF run's DRAM side of its transfers, after the rest (a record without any has no `dram` key).
  if (style.run != nullptr && !s.dram_ranges.empty()) {
    const size_t shown = dram_shown(s, style);
    put_list(w, "dram", s.dram_ranges.first(shown), [&](LineWriter& x, const EffectLog::DramRange& d) {
      x.begin_object();
      x.key("variable").string(dram_variable(*style.run, s.core, d));
      x.key("offset").number(d.offset);
      x.key("size").number(d.n);
      x.key("access").token(d.write ? "write" : "read");
      x.end_object();
    });
    if (shown < s.dram_ranges.size()) w.key("dram_omitted").number(s.dram_ranges.size() - shown);
  }
  w.end_object();
}

// ---- The compact line ------------------------------------------------------------------------------------------

/// A location as one string: `s3+1a0` (SBUF partition 3, byte 0x1a0), `p0+800` (PSUM), `d+80100` (device memory).
void put_place(LineWriter& w, uint64_t address, Generation gen) {
  const Place p = place_of(address, gen);
  if (p.on_chip)
    fmt::format_to(w.item(), "\"{}{}+{:x}\"", p.psum ? 'p' : 's', p.partition, p.offset);
  else
    fmt::format_to(w.item(), "\"d+{:x}\"", address);
}

/// A compact list: `key: [[fields of each entry], …]`, left out when empty.
template <class T, class F>
void put_rows(LineWriter& w, std::string_view key, std::span<const T> xs, F put) {
  if (xs.empty()) return;
  put_list(w, key, xs, [&put](LineWriter& x, const T& e) {
    x.begin_array();
    put(x, e);
    x.end_array();
  });
}

void append_compact(std::string& out, const StepResult& s, const Instruction& inst, const ValidateOptions& options,
                    const TraceStyle& style) {
  const Generation gen = inst.gen;
  LineWriter w(out);
  w.begin_object();
  w.key("v").number(kCompactTraceVersion);
  if (style.engine) {
    w.key("c").number(s.core);
    w.key("e").token(to_string(s.engine));
  }
  w.key("i").number(s.index);
  w.key("o").hex(s.opcode, 2, false);
  w.key("n").string(s.name);
  put_rows(w, "r", s.reg_writes, [](LineWriter& x, const RegWrite& r) {
    x.number(r.reg);
    x.hex(r.before, 8, false);
    x.hex(r.after, 8, false);
  });
  put_rows(w, "w", s.mem_writes, [gen](LineWriter& x, const MemWrite& m) {
    put_place(x, m.address, gen);
    x.number(m.size);
    x.hex(m.before, 2U * m.size, false);
    x.hex(m.after, 2U * m.size, false);
  });
  put_rows(w, "m", s.mem_reads, [gen](LineWriter& x, const MemRead& r) {
    put_place(x, r.address, gen);
    x.number(r.size);
    x.number(r.initialized ? 1 : 0);
  });
  put_rows(w, "d", s.dve_writes, [](LineWriter& x, const DveWrite& d) {
    x.number(d.channel);
    x.token(to_string(d.field));
    x.number(d.slot);
    x.hex(d.before, 8, false);
    x.hex(d.after, 8, false);
  });
  put_rows(w, "q", s.dve_reads, [](LineWriter& x, const DveRead& d) {
    x.number(d.channel);
    x.token(to_string(d.field));
    x.number(d.slot);
    x.hex(d.value, 8, false);
  });
  if (s.act_set_loaded) {
    w.key("a").begin_array();
    put_set(w, s.act_set_before);
    put_set(w, s.act_set_after);
    w.end_array();
  }
  put_rows(w, "s", s.sem_writes, [](LineWriter& x, const SemWrite& m) {
    fmt::format_to(x.item(), "\"{}{}\"", m.event ? 'E' : 'S', m.index);
    x.number(m.before);
    x.number(m.after);
  });
  if (style.run != nullptr)
    put_rows(w, "D", s.dram_ranges.first(dram_shown(s, style)), [&](LineWriter& x, const EffectLog::DramRange& d) {
      x.string(dram_variable(*style.run, s.core, d));
      x.number(d.offset);
      x.number(d.n);
      x.token(d.write ? "w" : "r");
    });
  put_rows(w, "g", s.diagnostics, [gen](LineWriter& x, const Diagnostic& d) {
    x.token(to_string(d.kind));
    if (d.kind == DiagKind::UnwrittenScalar || d.kind == DiagKind::ScalarClassMismatch) {
      x.number(d.address / 8);
      x.number(d.address % 8);
    } else if (d.kind != DiagKind::FirmwareStub) {
      put_place(x, d.address, gen);
      x.number(d.size);
    }
  });
  if (s.recorded) {
    const std::pair<std::string_view, uint64_t> omitted[] = {
        {"r", s.totals.regs - s.reg_writes.size()},        {"w", s.totals.mem - s.mem_writes.size()},
        {"m", s.totals.reads - s.mem_reads.size()},        {"d", s.totals.dve - s.dve_writes.size()},
        {"s", s.totals.sems - s.sem_writes.size()},        {"D", s.dram_ranges.size() - dram_shown(s, style)},
        {"g", s.totals.diagnostics - s.diagnostics.size()}};
    bool any = false;
    for (const auto& [key, n] : omitted) {
      if (n == 0) continue;
      if (!any) w.key("z").begin_object();
      any = true;
      w.key(key).number(n);
    }
    if (any) w.end_object();
  }
  if (s.status == StepResult::Status::Faulted) w.key("x").json(io::fault_json(s.fault, inst, options));
  w.end_object();
}

}  // namespace

void append_trace_line(std::string& out, const StepResult& s, const Instruction& inst, const ValidateOptions& options,
                       const TraceStyle& style) {
  if (style.format == TraceFormat::Compact)
    append_compact(out, s, inst, options, style);
  else
    append_json(out, s, inst, options, style);
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
