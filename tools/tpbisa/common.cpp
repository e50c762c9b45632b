// Shared subcommand pieces: --gen parsing through the library, one error format on stderr.
#include "common.hpp"

#include <cstdio>

#include <fmt/format.h>

namespace tpbisa::cli {

void add_generation_option(CLI::App& app, std::optional<Generation>& gen, const std::string& help) {
  app.add_option_function<std::string>(
         "--gen",
         [&gen](const std::string& text) {
           const auto g = parse_generation(text);
           if (!g)
             throw CLI::ValidationError(
                 "--gen", fmt::format("unknown generation '{}' (expected sunda, cayman, mariana, maverick or v2..v5)",
                                      text));
           gen = *g;
         },
         help)
      ->type_name("GEN");
}

void report_error(std::string_view message) {
  fmt::print(stderr, "{}: error: {}\n", kToolName, message);
  std::fflush(stderr);
}

}  // namespace tpbisa::cli
