// `tpbisa gen KERNEL ...`: writes a kernel NEFF; the front end of the Python module tpbisa.gen (docs/kernels.md).
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "build_info.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "exit_codes.hpp"

namespace tpbisa::cli {
namespace {

/// The running binary's path (/proc/self/exe), empty when the system does not say.
std::string self_path() {
  std::string buf(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return {};
  buf.resize(static_cast<size_t>(n));
  return buf;
}

bool is_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

/// Replaces the process with `python3 -m tpbisa.gen ARGS`: the generator is Python (it writes assembly, replays the
/// synchronisation and packs with this binary, named to it as $TPBISA). A build tree's package (<build>/python, beside
/// the binary) comes first on the module path; otherwise the interpreter finds an installed package.
int run_gen(const std::vector<std::string>& args) {
  const std::string exe = self_path();
  if (!exe.empty()) {
    const std::string dir = exe.substr(0, exe.rfind('/'));
    const std::string package = dir + "/python";
    if (is_file(package + "/tpbisa/gen.py")) {
      const char* old = std::getenv("PYTHONPATH");
      const std::string path = old != nullptr && *old != '\0' ? package + ":" + old : package;
      ::setenv("PYTHONPATH", path.c_str(), 1);
    }
    ::setenv("TPBISA", exe.c_str(), 0);
  }
  const char* env_python = std::getenv("TPBISA_PYTHON");
  const std::string python = env_python != nullptr && *env_python != '\0' ? env_python : build_info::kGenPython;
  std::vector<std::string> argv_s{python, "-m", "tpbisa.gen"};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  if (!out_flush()) return kExitInput;
  ::execvp(argv[0], argv.data());
  report_error(
      fmt::format("gen: cannot run {} ({}); the generator is the Python module tpbisa.gen (set "
                  "TPBISA_PYTHON to an interpreter that has it)",
                  python, std::strerror(errno)));
  return kExitInput;
}

}  // namespace

Command register_gen(CLI::App& parent) {
  CLI::App* app = parent.add_subcommand("gen",
                                        "Write a kernel NEFF: layernorm, rmsnorm, softmax, topk, causal_mask, mlp, "
                                        "attention (the Python module tpbisa.gen; "
                                        "docs/kernels.md)");
  // Every argument, --help included, goes to the module.
  app->prefix_command();
  app->set_help_flag();
  app->allow_extras();
  return {app, [app] { return run_gen(app->remaining()); }};
}

}  // namespace tpbisa::cli
