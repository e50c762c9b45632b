// A single-stream run: its machine, activation sets, initial state and trace.
#include "tpbisa/io/stream_run.hpp"

#include <algorithm>

#include "tpbisa/io/act_tables.hpp"
#include "tpbisa/io/state.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/trace.hpp"

namespace tpbisa::io {

Expected<std::unique_ptr<StreamRun>> StreamRun::make(Generation gen, std::span<const uint8_t> program,
                                                     const StreamRunSetup& setup) {
  auto r = std::make_unique<StreamRun>();
  CoreProgram streams;
  streams.view(setup.machine.engine, program);
  r->machine_ = std::make_unique<Machine>(gen, std::move(streams), setup.machine);
  if (!setup.act_tables.empty()) {
    const neff::Result<neff::Neff> tables = neff::read_file(setup.act_tables);
    if (!tables) return Error{ErrorKind::Invalid, tables.error().to_string()};
    r->act_sets_ = attach_activation_sets(*r->machine_, *tables);
  }
  if (!setup.init.empty())
    if (const auto loaded = load_state(setup.init, r->machine_->mutable_state(), setup.machine.convert); !loaded)
      return loaded.error();
  return r;
}

RunSummary StreamRun::run(uint64_t max_steps, OutputFile* trace, TraceFormat format) {
  RunHooks hooks;
  std::string line;
  if (trace != nullptr)
    hooks.on_step = [&, style = TraceStyle{false, format, nullptr}](const StepResult& r) {
      line.clear();
      append_trace_line(line, r, *machine_, style);
      line += '\n';
      trace->write(line);
    };
  return machine_->run(static_cast<size_t>(std::min<uint64_t>(max_steps, SIZE_MAX)), hooks);
}

}  // namespace tpbisa::io
