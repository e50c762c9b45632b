// The JSON forms of a single-stream run (`tpbisa run --json`, Python's Machine.run and Machine.flops): its status,
// fault, deadlock and diagnostics, the final state, and the --dump views of memory and of unit state. A document
// that may hold large memory dumps is written in pieces through a sink, never held whole.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tpbisa/io/dump.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/unit_state.hpp"

namespace tpbisa::io {

/// "ok", "fault", "step-limit", "deadlock" or "interrupted".
std::string_view run_status(const RunSummary& s);

/// The diagnostics that occurred, by kind name in name order: {"uninitialized-read", 260}, ...
std::vector<std::pair<std::string_view, uint64_t>> diagnostic_list(const std::array<uint64_t, kDiagKinds>& counts);
/// The same as an object: {"uninitialized-read": 260}.
nlohmann::ordered_json diagnostics_json(const std::array<uint64_t, kDiagKinds>& counts);

/// The fault of a run of `m` (io::fault_json), or null when it did not fault.
nlohmann::ordered_json run_fault_json(const Machine& m, const RunSummary& s);
/// The waits of a deadlock, each the object of blocked_wait_json.
nlohmann::ordered_json blocked_waits_json(std::span<const BlockedWait> waits);

/// An instance of a unit state: {"at": "dve:3", "channel": 3, ...what the family declares}.
nlohmann::ordered_json unit_state_json(const UnitState& u, unsigned instance, const EngineState& s);
/// A value of unit state as JSON (fp32 bits as float_json, Bits32 as "0x" and 8 digits).
nlohmann::ordered_json state_value_json(const StateValue& v);

/// Takes the pieces of a streamed document; false once the output failed (the writer then stops).
using JsonSink = std::function<bool(std::string_view)>;

/// A memory dump: {"at", "address", "dtype", "count", "values": [...], "bits": [...], "initialized"}, streamed.
void write_memory_dump_json(const DumpSpec& d, const SparseMemory& memory, Generation g, const JsonSink& out);

/// What the document of `tpbisa run --json` says besides the machine's state.
struct RunJsonContext {
  Generation gen = kDefaultGeneration;
  std::string program;      ///< the program's name: a file, <stdin> or --hex
  size_t instructions = 0;  ///< the words loaded
  std::span<const DumpSpec> dumps;
};

/// The document of `tpbisa run --json` (docs/cli.md) on one line, without a newline: status, retired, fault, regs,
/// semaphores, events, dumps, generation, program, instructions, pc, diagnostics, deadlock?.
void write_run_json(const Machine& m, const RunSummary& s, const RunJsonContext& ctx, const JsonSink& out);

}  // namespace tpbisa::io
