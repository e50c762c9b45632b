// The text report of a NEFF run (`tpbisa run PROG.neff`): the program, the outcome (with the deadlock or the loops that
// stopped it), per core its engines and semaphores, the opcodes and MACs, and the findings (uninitialized reads,
// reservation violations, outputs written and compared, races). The JSON form is neff_run_json.
#pragma once

#include <string>

#include "tpbisa/io/neff_run_report.hpp"

namespace tpbisa::io {

/// "status: ..." and what follows it: the fault, the deadlock's waits (the root waits first), or per engine left
/// unfinished the loop it was in.
std::string neff_status_text(const NeffRun& r, const NeffRunReport& rep, const NeffRunReportContext& ctx,
                             const neff::Neff& nf);

/// Per core its MACs, DMA bytes, each engine's words retired and its non-zero semaphores; then the opcodes and MACs.
std::string neff_cores_text(const neff::Run& run, const NeffRunReport& rep);

/// Uninitialized reads, reservation violations, the outputs written and compared, the races.
std::string neff_findings_text(const NeffRun& r, const NeffRunReport& rep, const NeffRunReportContext& ctx);

/// The whole report: "program: ..." and the three parts above.
std::string neff_run_text(const neff::Neff& nf, const NeffRun& r, const NeffRunReport& rep,
                          const NeffRunReportContext& ctx);

}  // namespace tpbisa::io
