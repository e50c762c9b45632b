// `tpbisa trace show`: an execution trace (docs/trace.md; JSON or compact records) as one readable block per record
// (tpbisa/io/trace_show.hpp).
#include <memory>
#include <string>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "tpbisa/io/trace_show.hpp"

namespace tpbisa::cli {
namespace {

struct TraceShowOptions {
  std::string file;
  size_t limit = 8;
};

int run_trace_show(const TraceShowOptions& o) {
  StdoutText out;
  if (const auto error = io::show_trace(o.file, o.limit, out)) {
    report_error(*error);
    return kExitInput;
  }
  return kExitOk;
}

}  // namespace

Command register_trace(CLI::App& parent) {
  auto o = std::make_shared<TraceShowOptions>();
  CLI::App* app = parent.add_subcommand("trace", "Look at an execution trace of tpbisa run --trace (docs/trace.md)");
  app->require_subcommand(1);
  CLI::App* show = app->add_subcommand(
      "show", "One readable block per record: core and engine (a NEFF run), word, status and its effects");
  show->add_option("FILE", o->file, "The trace (- reads stdin)")->required()->type_name("FILE.jsonl");
  show->add_option("--limit", o->limit, "At most N entries per effect list of a record, 0 for all (default: 8)")
      ->type_name("N");
  show->footer(
      "Exit codes: 0 success, 2 usage error, 3 input or output error (unreadable FILE, a line that is not a "
      "trace record, stdout cannot be written).");
  return {app, [o] { return run_trace_show(*o); }};
}

}  // namespace tpbisa::cli
