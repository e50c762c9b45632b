// The tpbisa command line tool: entry point, subcommand dispatch and the mapping of failures to exit codes.
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "cmd_asm.hpp"
#include "cmd_catalog.hpp"
#include "cmd_decode.hpp"
#include "cmd_disasm.hpp"
#include "cmd_lower.hpp"
#include "cmd_neff.hpp"
#include "cmd_run.hpp"
#include "cmd_validate.hpp"
#include "common.hpp"
#include "exit_codes.hpp"

namespace tpbisa::cli {
namespace {

/// The arguments CLI11 could not place, in command-line order, and the command they were given to (the tool
/// itself or the subcommand that parsed); empty when every argument was used.
struct Leftovers {
  const CLI::App* app = nullptr;
  std::vector<std::string> args;
};

Leftovers leftovers(const CLI::App& app) {
  // The order CLI11 checks them in: the tool's own leftovers first, then those of the subcommand.
  if (std::vector<std::string> args = app.remaining(); !args.empty()) return {&app, std::move(args)};
  for (const CLI::App* sub : app.get_subcommands())
    if (std::vector<std::string> args = sub->remaining(); !args.empty()) return {sub, std::move(args)};
  return {};
}

bool is_option(std::string_view arg) {
  return arg.size() > 1 && arg[0] == '-';
}

/// The one-line message for a parse error. CLI11 reports arguments nobody takes only after the requirements
/// (so `tpbisa frobnicate` would read "A subcommand is required") and lists them last to first; an argument
/// the tool does not know is named first, in the order given.
std::string parse_error_message(const CLI::App& app, const std::vector<Command>& commands, const CLI::ParseError& e) {
  const Leftovers left = leftovers(app);
  const bool extras = dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr;
  const bool required = dynamic_cast<const CLI::RequiredError*>(&e) != nullptr;
  if (left.args.empty() || !(extras || required)) return e.what();
  if (left.app == &app && app.get_subcommands().empty()) {
    // Nothing selected a command: the first leftover is what the user meant as one (or an option before it).
    const std::string& first = left.args.front();
    if (first == "--") return "unexpected '--' before the command (write 'tpbisa COMMAND ... -- ARGS')";
    if (is_option(first)) return fmt::format("unknown option '{}'", first);
    std::vector<std::string> names;
    for (const auto& c : commands) names.push_back(c.app->get_name());
    const std::string last = names.back();
    names.pop_back();
    return fmt::format("unknown command '{}' (expected {} or {})", first, fmt::join(names, ", "), last);
  }
  return fmt::format("The following argument{} not expected: {}", left.args.size() > 1 ? "s were" : " was",
                     fmt::join(left.args, " "));
}

int run(int argc, char** argv) {
  CLI::App app{
      "tpbisa: reference decoder, validator and simulator for the NeuronCore TPB 64-byte instruction set "
      "(sunda, cayman, mariana, maverick)",
      std::string(kToolName)};
  app.set_version_flag("--version", fmt::format("{} {}", kToolName, kToolVersion));
  app.require_subcommand(1);
  const std::vector<Command> commands{register_decode(app),  register_validate(app), register_lower(app),
                                      register_run(app),     register_asm(app),      register_disasm(app),
                                      register_catalog(app), register_neff(app)};
  // Set after the subcommands are registered: CLI11 copies the parent's footer into every subcommand added
  // later, and each subcommand has its own exit codes.
  app.footer(
      "Exit codes: 0 success, 1 negative verdict (invalid instruction, simulation fault), 2 usage error,\n"
      "3 input error.\n"
      "Run 'tpbisa COMMAND --help' for the options of one command.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    report_error(fmt::format("{}; run 'tpbisa --help'", parse_error_message(app, commands, e)));
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
    const int code = run(argc, argv);
    // Output that could not be written (a full disk, a closed pipe) is an output error, whatever the command.
    if (code != kExitInput && (std::fflush(stdout) != 0 || std::ferror(stdout) != 0)) {
      report_error("<stdout>: write error: the output could not be written");
      return kExitInput;
    }
    return code;
  } catch (const std::exception& e) {
    report_error(fmt::format("unexpected failure: {}", e.what()));
  } catch (...) {
    report_error("unexpected failure");
  }
  return kExitInput;
}
