// The tpbisa command line tool: entry point, subcommand dispatch and the mapping of failures to exit codes.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "build_info.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "tpbisa/io/output_file.hpp"

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

/// The one-line message for a parse error, one wording for every command: an argument nobody takes is named
/// first, in the order given ("unknown option '--x'", "unexpected argument 'y'"), prefixed by the command it was
/// given to. (CLI11 reports leftovers only after the requirements and lists them last to first.)
std::string parse_error_message(const CLI::App& app, const std::vector<Command>& commands, const CLI::ParseError& e) {
  // An option of one value given more than once: CLI11 says "--gen: At Most 1 required but received 2".
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    const std::string what = e.what();
    constexpr std::string_view kAtMostOne = ": At Most 1 required but received ";
    if (const size_t at = what.find(kAtMostOne); at != std::string::npos)
      return fmt::format("{} is given {} times; it takes one value", what.substr(0, at),
                         what.substr(at + kAtMostOne.size()));
  }
  const Leftovers left = leftovers(app);
  const bool extras = dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr;
  const bool required = dynamic_cast<const CLI::RequiredError*>(&e) != nullptr;
  if (left.args.empty() || !(extras || required)) {
    // CLI11's own wording, named by the command it concerns ("neff info: FILE is required"), as the tool's are.
    std::string path;
    for (const CLI::App* at = &app;;) {
      const auto subs = at->get_subcommands();
      if (subs.empty()) break;
      at = subs.front();
      path += (path.empty() ? "" : " ") + at->get_name();
    }
    return path.empty() ? std::string(e.what()) : fmt::format("{}: {}", path, e.what());
  }
  const std::string& first = left.args.front();
  if (left.app == &app && app.get_subcommands().empty()) {
    // Nothing selected a command: the first leftover is what the user meant as one (or an option before it).
    if (first == "--") return "unexpected '--' before the command (write 'tpbisa COMMAND ... -- ARGS')";
    if (is_option(first)) return fmt::format("unknown option '{}'", first);
    std::vector<std::string> names;
    for (const auto& c : commands) names.push_back(c.app->get_name());
    const std::string last = names.back();
    names.pop_back();
    return fmt::format("unknown command '{}' (expected {} or {})", first, fmt::join(names, ", "), last);
  }
  const std::string prefix = left.app == &app ? "" : fmt::format("{}: ", left.app->get_name());
  if (is_option(first)) return fmt::format("{}unknown option '{}'", prefix, first);
  return fmt::format("{}unexpected argument '{}'", prefix, first);
}

int run(int argc, char** argv) {
  CLI::App app{
      "tpbisa: reference decoder, validator and simulator for the NeuronCore TPB 64-byte instruction set "
      "(sunda, cayman, mariana, maverick)",
      std::string(kToolName)};
  app.set_version_flag("--version", fmt::format("{} {} (commit {})", kToolName, kToolVersion, build_info::kGitCommit));
  app.require_subcommand(1);
  const std::vector<Command> commands{
      register_decode(app), register_validate(app), register_lower(app), register_run(app), register_asm(app),
      register_disasm(app), register_catalog(app),  register_neff(app),  register_gen(app), register_trace(app)};
  // Set after the subcommands are registered: CLI11 copies the parent's footer into every subcommand added
  // later, and each subcommand has its own exit codes.
  app.footer(
      "Exit codes: 0 success, 1 negative verdict (invalid instruction, simulation fault), 2 usage error,\n"
      "3 input error.\n"
      "Run 'tpbisa COMMAND --help' for the options of one command.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help, --version: printed through out(), so a failed write is reported
      std::ostringstream text, errors;
      const int rc = app.exit(e, text, errors);
      out_write(text.str());
      err_write(errors.str());
      return rc;
    }
    report_error(fmt::format("{}; run 'tpbisa --help'", parse_error_message(app, commands, e)));
    return kExitUsage;
  }
  for (const auto& c : commands)
    if (c.app->parsed()) return c.run();
  return kExitUsage;
}

}  // namespace
}  // namespace tpbisa::cli

/// Descriptors 0, 1 and 2 that are closed are opened on /dev/null the wrong way round (stdin for writing, stdout
/// and stderr for reading): a file opened later cannot take their number and receive output meant for stdout,
/// and a write to a closed stdout still fails (EBADF) and is reported.
void reserve_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int got = ::open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
    if (got >= 0 && got != fd) {
      ::dup2(got, fd);
      ::close(got);
    }
  }
}

/// The signals that end a command remove its unfinished outputs first (temporary files, a staging folder), then
/// end the process as they would have.
extern "C" void end_by_signal(int sig) {
  tpbisa::io::remove_temporaries();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

/// One the process was started with ignored stays ignored (nohup, the background job of a script).
void install_signal_handlers() {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction sa {};
    sa.sa_handler = end_by_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

int main(int argc, char** argv) {
  using namespace tpbisa::cli;
  reserve_standard_descriptors();
  // A closed pipe is a write error like any other (exit 3, docs/cli.md), not a silent death by SIGPIPE; so is a
  // write past the file-size limit (ulimit -f): EFBIG, not SIGXFSZ, which would leave a temporary file behind.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGXFSZ, SIG_IGN);
  install_signal_handlers();
  // Nothing escapes: an unexpected failure is reported like an input error, never as a crash.
  int code = kExitInput;
  try {
    code = run(argc, argv);
  } catch (const std::exception& e) {
    report_error(fmt::format("unexpected failure: {}", e.what()));
  } catch (...) {
    report_error("unexpected failure");
  }
  // Output that could not be written (a full disk, a closed pipe) is an output error, whatever the command.
  if (!out_flush()) {
    report_error(stdout_error());
    return kExitInput;
  }
  return code;
}
