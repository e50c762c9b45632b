// The JSON-Lines trace writer: every effect of a StepResult, with addresses decoded per generation.
#include "tpbisa/trace.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tpbisa/io/verdict_json.hpp"

namespace tpbisa {
namespace {

using json = nlohmann::ordered_json;  // keys in the order docs/trace.md lists them

std::string hex(uint64_t v) {
  return fmt::format("{:#x}", v);
}
std::string hex_sized(uint64_t v, unsigned bytes) {
  return fmt::format("{:#0{}x}", v, 2 + 2 * bytes);
}

/// Where a Neuron address lands: SBUF/PSUM (partition, offset) in the low region, else flat memory.
json location(uint64_t address, Generation gen) {
  json j;
  j["addr"] = hex(address);
  const Geometry& geo = geometry(gen);
  const uint64_t low_end = geo.psum_size != 0 ? uint64_t{geo.psum_offset} + geo.psum_size : uint64_t{geo.sbuf_size};
  if (address < low_end) {
    const PartitionAddress p = decode_partition_offset(static_cast<uint32_t>(address), gen);
    j["region"] = p.region == Region::Sbuf ? "sbuf" : "psum";
    j["partition"] = p.partition;
    j["offset"] = p.offset;
  } else {
    j["region"] = "dev";
  }
  return j;
}

}  // namespace

std::string trace_line(const StepResult& s, const Instruction& inst, const ValidateOptions& options) {
  const Generation gen = inst.gen;
  json j{{"schema", kTraceSchemaVersion},
         {"index", s.index},
         {"opcode", fmt::format("{:#04x}", s.opcode)},
         {"name", s.name},
         {"status", s.status == StepResult::Status::Retired ? "retired" : "fault"}};
  json regs = json::array();
  for (const RegWrite& w : s.reg_writes)
    regs.push_back({{"reg", w.reg}, {"before", hex_sized(w.before, 4)}, {"after", hex_sized(w.after, 4)}});
  json mem = json::array();
  for (const MemWrite& w : s.mem_writes) {
    json m = location(w.address, gen);
    m["size"] = w.size;
    m["before"] = hex_sized(w.before, w.size);
    m["after"] = hex_sized(w.after, w.size);
    mem.push_back(std::move(m));
  }
  json reads = json::array();
  for (const MemRead& r : s.mem_reads) {
    json m = location(r.address, gen);
    m["size"] = r.size;
    m["initialized"] = r.initialized;
    reads.push_back(std::move(m));
  }
  json dve = json::array();
  for (const DveWrite& w : s.dve_writes)
    dve.push_back({{"channel", w.channel},
                   {"field", to_string(w.field)},
                   {"slot", w.slot},
                   {"before", hex_sized(w.before, 4)},
                   {"after", hex_sized(w.after, 4)}});
  json sems = json::array();
  for (const SemWrite& w : s.sem_writes)
    sems.push_back({{w.event ? "event" : "semaphore", w.index}, {"before", w.before}, {"after", w.after}});
  json diags = json::array();
  for (const Diagnostic& d : s.diagnostics) {
    json x{{"kind", to_string(d.kind)}};
    if (d.kind == DiagKind::UnwrittenScalar || d.kind == DiagKind::ScalarClassMismatch) {
      x["channel"] = d.address / 8;
      x["slot"] = d.address % 8;
    } else if (d.kind != DiagKind::FirmwareStub) {
      x["addr"] = hex(d.address);
      x["size"] = d.size;
    }
    diags.push_back(std::move(x));
  }
  j["regs"] = std::move(regs);
  j["mem"] = std::move(mem);
  j["reads"] = std::move(reads);
  j["dve"] = std::move(dve);
  j["sems"] = std::move(sems);
  j["diagnostics"] = std::move(diags);
  j["fault"] = s.status == StepResult::Status::Faulted ? io::fault_json(s.fault, inst, options) : json(nullptr);
  return j.dump();
}

}  // namespace tpbisa
