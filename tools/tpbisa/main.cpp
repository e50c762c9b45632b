// The tpbisa command line tool: entry point, subcommand dispatch and the mapping of failures to exit codes.
#include <exception>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cmd_asm.hpp"
#include "cmd_catalog.hpp"
#include "cmd_decode.hpp"
#include "cmd_disasm.hpp"
#include "cmd_lower.hpp"
#include "cmd_run.hpp"
#include "cmd_validate.hpp"
#include "common.hpp"
#include "exit_codes.hpp"

namespace tpbisa::cli {
namespace {

int run(int argc, char** argv) {
  CLI::App app{"tpbisa: reference decoder, validator and simulator for the NeuronCore TPB 64-byte instruction set "
               "(sunda, cayman, mariana, maverick)",
               std::string(kToolName)};
  app.set_version_flag("--version", fmt::format("{} {}", kToolName, kToolVersion));
  app.require_subcommand(1);
  app.footer("Exit codes: 0 success, 1 negative verdict (invalid instruction, simulation fault), 2 usage error,\n"
             "3 input error.\n"
             "Run 'tpbisa COMMAND --help' for the options of one command.");
  const std::vector<Command> commands{register_decode(app), register_validate(app), register_lower(app),
                                      register_run(app), register_asm(app), register_disasm(app),
                                      register_catalog(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    report_error(fmt::format("{}; run 'tpbisa --help'", e.what()));
    return kExitUsage;
  }
  for (const auto& c : commands)
    if (c.app->parsed()) return c.run();
  return kExitUsage;
}

}  // namespace
}  // namespace tpbisa::cli

int main(int argc, char** argv) {
  using namespace tpbisa::cli;
  // Nothing escapes: an unexpected failure is reported like an input error, never as a crash.
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    report_error(fmt::format("unexpected failure: {}", e.what()));
  } catch (...) {
    report_error("unexpected failure");
  }
  return kExitInput;
}
