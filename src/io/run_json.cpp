// The JSON forms of a single-stream run: status, fault, deadlock, diagnostics, state, and the --dump views.
#include "tpbisa/io/run_json.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#include <fmt/format.h>

#include "tpbisa/io/element.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/neff_run_report.hpp"
#include "tpbisa/io/verdict_json.hpp"
#include "tpbisa/trace.hpp"

namespace tpbisa::io {
namespace {

using ojson = nlohmann::ordered_json;

/// A chunk of a streamed array is handed to the sink once it holds this many bytes.
constexpr size_t kChunkBytes = 4096;

}  // namespace

std::string_view run_status(const RunSummary& s) {
  if (s.faulted) return "fault";
  if (s.interrupted) return "interrupted";
  if (s.deadlock) return "deadlock";
  if (s.step_limit) return "step-limit";
  return "ok";
}

std::vector<std::pair<std::string_view, uint64_t>> diagnostic_list(const std::array<uint64_t, kDiagKinds>& counts) {
  std::vector<std::pair<std::string_view, uint64_t>> list;
  for (size_t k = 0; k < kDiagKinds; ++k)
    if (counts[k] != 0) list.emplace_back(to_string(static_cast<DiagKind>(k)), counts[k]);
  std::sort(list.begin(), list.end());
  return list;
}

ojson diagnostics_json(const std::array<uint64_t, kDiagKinds>& counts) {
  ojson j = ojson::object();
  for (const auto& [kind, n] : diagnostic_list(counts)) j[std::string(kind)] = n;
  return j;
}

ojson run_fault_json(const Machine& m, const RunSummary& s) {
  if (!s.faulted) return nullptr;
  return fault_json(s.fault, m.instruction(s.fault.index), m.options().validate);
}

ojson blocked_waits_json(std::span<const BlockedWait> waits) {
  ojson list = ojson::array();
  for (const BlockedWait& w : waits) list.push_back(ojson::parse(blocked_wait_json(w)));
  return list;
}

ojson state_value_json(const StateValue& v) {
  switch (v.kind) {
    case StateValue::Kind::Null: return nullptr;
    case StateValue::Kind::Bool: return v.value != 0;
    case StateValue::Kind::Uint: return v.value;
    case StateValue::Kind::Fp32: return float_json(std::bit_cast<float>(static_cast<uint32_t>(v.value)));
    case StateValue::Kind::Bits32: return bits_hex(v.value, 4);
    case StateValue::Kind::Name: return v.name;
    case StateValue::Kind::Object: {
      ojson j = ojson::object();
      for (const StateValue& item : v.items) j[std::string(item.key)] = state_value_json(item);
      return j;
    }
    case StateValue::Kind::Array: {
      ojson j = ojson::array();
      for (const StateValue& item : v.items) j.push_back(state_value_json(item));
      return j;
    }
  }
  return nullptr;
}

ojson unit_state_json(const UnitState& u, unsigned instance, const EngineState& s) {
  ojson j{{"at", fmt::format("{}:{}", u.name, instance)}, {std::string(u.instance), instance}};
  j.update(state_value_json(u.describe(s, instance)));
  return j;
}

void write_memory_dump_json(const DumpSpec& d, const SparseMemory& memory, Generation g, const JsonSink& out) {
  bool ok = out(fmt::format("{{\"at\":{},\"address\":\"{:#x}\",\"dtype\":{},\"count\":{},\"values\":[",
                            dump_json(to_string(d.at, g)), d.at.address, dump_json(d.type.info->name), d.count));
  bool all_initialized = true;
  std::string chunk;
  for (uint64_t k = 0; k < d.count && ok; ++k) {
    bool init = true;
    const uint64_t raw = memory.read(d.at.address + k * d.type.size, d.type.size, &init);
    all_initialized = all_initialized && init;
    chunk += (k == 0 ? "" : ",") + dump_json(bits_to_json(raw, d.type));
    if (chunk.size() >= kChunkBytes) {
      ok = out(chunk);
      chunk.clear();
    }
  }
  chunk += "],\"bits\":[";
  for (uint64_t k = 0; k < d.count && ok; ++k) {
    const uint64_t raw = memory.read(d.at.address + k * d.type.size, d.type.size);
    chunk += fmt::format("{}\"{}\"", k == 0 ? "" : ",", bits_hex(raw, d.type.size));
    if (chunk.size() >= kChunkBytes) {
      ok = out(chunk);
      chunk.clear();
    }
  }
  if (ok) ok = out(chunk);
  if (ok) out(fmt::format("],\"initialized\":{}}}", all_initialized ? "true" : "false"));
}

void write_run_json(const Machine& m, const RunSummary& s, const RunJsonContext& ctx, const JsonSink& out) {
  const MachineState& st = m.state();
  ojson regs = ojson::array();
  for (uint32_t r : st.regs) regs.push_back(r);
  ojson sems = ojson::object();
  for (unsigned i = 0; i < kNumSemaphores; ++i)
    if (st.sems[i] != 0) sems[std::to_string(i)] = st.sems[i];
  ojson events = ojson::array();
  for (unsigned i = 0; i < kNumEvents; ++i)
    if (st.events[i]) events.push_back(i);
  const ojson head{{"status", run_status(s)}, {"retired", s.retired},          {"fault", run_fault_json(m, s)},
                   {"regs", std::move(regs)}, {"semaphores", std::move(sems)}, {"events", std::move(events)}};
  ojson tail{{"generation", to_string(ctx.gen)},
             {"program", ctx.program},
             {"instructions", ctx.instructions},
             {"pc", m.pc()},
             {"diagnostics", diagnostics_json(s.diagnostic_counts)}};
  // The engine's loaded activation-function set (act-index-ops.md §2.3), when a table load left one.
  if (st.act_set != nullptr) tail["act_set"] = activation_set_name(st.act_set);
  if (s.deadlock) tail["deadlock"] = deadlock_json(stream_deadlock(m, s.blocked, ctx.program));
  // One document, written in pieces so that large dumps stream: {head..., "dumps": [...], tail...}.
  std::string text = dump_json(head);
  text.pop_back();
  if (!out(text + ",\"dumps\":[")) return;
  for (size_t i = 0; i < ctx.dumps.size(); ++i) {
    const DumpSpec& d = ctx.dumps[i];
    if (i > 0 && !out(",")) return;
    if (d.kind == DumpSpec::Kind::Unit) {
      if (!out(dump_json(unit_state_json(*d.unit, d.instance, st)))) return;
    } else {
      write_memory_dump_json(d, st.memory, ctx.gen, out);
    }
  }
  out("]," + dump_json(tail).substr(1));
}

}  // namespace tpbisa::io
