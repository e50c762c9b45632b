// The JSON-Lines trace writer (the io layer): a StepResult's effects written straight to text, addresses decoded per
// generation.
#include "tpbisa/trace.hpp"

#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tpbisa/io/verdict_json.hpp"

namespace tpbisa {

// Ordered JSON: keys in the order docs/trace.md lists them.
std::string blocked_wait_json(const BlockedWait& w) {
  nlohmann::ordered_json j{{"core", w.core},
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
    j["register"] = w.reg >= 0 ? nlohmann::ordered_json(w.reg) : nlohmann::ordered_json(nullptr);
  }
  return j.dump();
}

namespace {

using Out = std::back_insert_iterator<std::string>;

/// `"addr":"0x…","region":…` of a Neuron address (the keys of `location`, written in place).
void put_location(Out o, uint64_t address, Generation gen) {
  const Geometry& geo = geometry(gen);
  const uint64_t low_end = geo.psum_size != 0 ? uint64_t{geo.psum_offset} + geo.psum_size : uint64_t{geo.sbuf_size};
  fmt::format_to(o, "\"addr\":\"{:#x}\"", address);
  if (address < low_end) {
    const PartitionAddress p = decode_partition_offset(static_cast<uint32_t>(address), gen);
    fmt::format_to(o, ",\"region\":\"{}\",\"partition\":{},\"offset\":{}", p.region == Region::Sbuf ? "sbuf" : "psum",
                   p.partition, p.offset);
  } else {
    fmt::format_to(o, ",\"region\":\"dev\"");
  }
}

void put_hex(Out o, uint64_t v, unsigned bytes) {
  fmt::format_to(o, "\"{:#0{}x}\"", v, 2 + 2 * bytes);
}

/// `"key":[e0,e1,…]` with each element written by `put`.
template <class T, class F>
void put_array(std::string& out, std::string_view key, std::span<const T> xs, F put) {
  fmt::format_to(std::back_inserter(out), ",\"{}\":[", key);
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i != 0) out += ',';
    out += '{';
    put(std::back_inserter(out), xs[i]);
    out += '}';
  }
  out += ']';
}

}  // namespace

void append_trace_line(std::string& out, const StepResult& s, const Instruction& inst, const ValidateOptions& options,
                       const TraceStyle& style) {
  const Generation gen = inst.gen;
  const Out o = std::back_inserter(out);
  fmt::format_to(o, "{{\"schema\":{}", kTraceSchemaVersion);
  if (style.engine) fmt::format_to(o, ",\"core\":{},\"engine\":\"{}\"", s.core, to_string(s.engine));
  fmt::format_to(o, ",\"index\":{},\"opcode\":\"{:#04x}\",\"name\":{},\"status\":\"{}\"", s.index, s.opcode,
                 nlohmann::ordered_json(s.name).dump(), s.status == StepResult::Status::Retired ? "retired" : "fault");
  put_array(out, "regs", s.reg_writes, [](Out x, const RegWrite& w) {
    fmt::format_to(x, "\"reg\":{},\"before\":", w.reg);
    put_hex(x, w.before, 4);
    fmt::format_to(x, ",\"after\":");
    put_hex(x, w.after, 4);
  });
  put_array(out, "mem", s.mem_writes, [gen](Out x, const MemWrite& w) {
    put_location(x, w.address, gen);
    fmt::format_to(x, ",\"size\":{},\"before\":", w.size);
    put_hex(x, w.before, w.size);
    fmt::format_to(x, ",\"after\":");
    put_hex(x, w.after, w.size);
  });
  put_array(out, "reads", s.mem_reads, [gen](Out x, const MemRead& r) {
    put_location(x, r.address, gen);
    fmt::format_to(x, ",\"size\":{},\"initialized\":{}", r.size, r.initialized);
  });
  put_array(out, "dve", s.dve_writes, [](Out x, const DveWrite& w) {
    fmt::format_to(x, "\"channel\":{},\"field\":\"{}\",\"slot\":{},\"before\":", w.channel, to_string(w.field), w.slot);
    put_hex(x, w.before, 4);
    fmt::format_to(x, ",\"after\":");
    put_hex(x, w.after, 4);
  });
  // The ACT accumulators read and a table load's set change: keys only in the records that have them.
  if (!s.dve_reads.empty())
    put_array(out, "dve_reads", s.dve_reads, [](Out x, const DveRead& r) {
      fmt::format_to(x, "\"channel\":{},\"field\":\"{}\",\"slot\":{},\"value\":", r.channel, to_string(r.field),
                     r.slot);
      put_hex(x, r.value, 4);
    });
  if (s.act_set_loaded) {
    const auto name = [](const act::TableSet* set) {
      return set == nullptr ? std::string("null") : nlohmann::ordered_json(activation_set_name(set)).dump();
    };
    fmt::format_to(o, ",\"act_set\":{{\"before\":{},\"after\":{}}}", name(s.act_set_before), name(s.act_set_after));
  }
  put_array(out, "sems", s.sem_writes, [](Out x, const SemWrite& w) {
    fmt::format_to(x, "\"{}\":{},\"before\":{},\"after\":{}", w.event ? "event" : "semaphore", w.index, w.before,
                   w.after);
  });
  put_array(out, "diagnostics", s.diagnostics, [](Out x, const Diagnostic& d) {
    fmt::format_to(x, "\"kind\":\"{}\"", to_string(d.kind));
    if (d.kind == DiagKind::UnwrittenScalar || d.kind == DiagKind::ScalarClassMismatch)
      fmt::format_to(x, ",\"channel\":{},\"slot\":{}", d.address / 8, d.address % 8);
    else if (d.kind != DiagKind::FirmwareStub)
      fmt::format_to(x, ",\"addr\":\"{:#x}\",\"size\":{}", d.address, d.size);
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
      fmt::format_to(o, "{}\"{}\":{}", any ? "," : ",\"omitted\":{", key, n);
      any = true;
    }
    if (any) out += '}';
  }
  out += ",\"fault\":";
  out += s.status == StepResult::Status::Faulted ? io::fault_json(s.fault, inst, options).dump() : "null";
  out += '}';
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
