// The text report of a single-stream run (`tpbisa run PROGRAM`): the program, the outcome (the fault with its failing
// predicates, the deadlock's waits), the registers, semaphores and events, the diagnostics, and the --dump views.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "tpbisa/io/run_json.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::io {

/// One deadlock line: the engine, its instruction, the condition, and the semaphore's (or event's) value.
std::string blocked_wait_text(const BlockedWait& w);

/// "status: ..." and what follows it: the fault (with its failing predicates), the deadlock's waits, or the step limit.
/// `program` is the run's words (the faulting word is decoded from it).
std::string run_status_text(const Machine& m, const RunSummary& s, std::span<const uint8_t> program, Generation gen,
                            const ValidateOptions& options);

/// The non-zero registers and semaphores, the events set (not on maverick) and the loaded activation set.
std::string machine_state_text(const MachineState& s, Generation gen);

/// A memory dump, 8 values a line, streamed in pieces of about 4 KiB.
void write_memory_dump_text(const DumpSpec& d, const MachineState& s, Generation g, const JsonSink& out);

/// The whole text report of `tpbisa run` (docs/cli.md), streamed: the program line, status, state, diagnostics, and
/// each --dump of ctx.dumps.
void write_run_text(const Machine& m, const RunSummary& s, const RunJsonContext& ctx, std::span<const uint8_t> program,
                    const ValidateOptions& options, const JsonSink& out);

}  // namespace tpbisa::io
