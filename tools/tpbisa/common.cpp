// Shared subcommand pieces: --gen parsing through the library, one error format on stderr.
#include "common.hpp"

#include <cctype>
#include <cstdio>

#include <fmt/format.h>

#include "exit_codes.hpp"

namespace tpbisa::cli {

namespace {

Generation generation_or_throw(const std::string& text) {
  const auto g = parse_generation(text);
  if (!g)
    throw CLI::ValidationError(
        "--gen", fmt::format("unknown generation '{}' (expected sunda, cayman, mariana, maverick or v2..v5)", text));
  return *g;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

}  // namespace

void add_generation_option(CLI::App& app, std::optional<Generation>& gen, const std::string& help) {
  app.add_option_function<std::string>(
         "--gen", [&gen](const std::string& text) { gen = generation_or_throw(text); }, help)
      ->type_name("GEN");
}

void add_generations_option(CLI::App& app, std::vector<Generation>& gens, const std::string& help) {
  app.add_option_function<std::string>(
         "--gen",
         [&gens](const std::string& text) {
           if (iequals(text, "all")) {
             gens.assign(kAllGenerations.begin(), kAllGenerations.end());
             return;
           }
           const auto g = parse_generation(text);
           if (!g)
             throw CLI::ValidationError(
                 "--gen", fmt::format("unknown generation '{}' (expected sunda, cayman, mariana, maverick, v2..v5 "
                                      "or all)",
                                      text));
           gens.assign(1, *g);
         },
         help)
      ->type_name("GEN|all");
}

void add_validate_options(CLI::App& app, ValidateOptions& options) {
  app.add_flag("--strict-window", options.strict_window,
               "PROJ-CONV-M3: also reject MEM_2D words whose immediate-addressed bytes cross a 16 MiB window "
               "(adds mem2d_single_16mb_window)");
  app.add_option_function<std::string>(
         "--dtype-enum",
         [&options](const std::string& text) {
           if (iequals(text, "header"))
             options.dtype_enum_runtime = false;
           else if (iequals(text, "runtime"))
             options.dtype_enum_runtime = true;
           else
             throw CLI::ValidationError("--dtype-enum",
                                        fmt::format("unknown reading '{}' (expected header or runtime)", text));
         },
         "PROJ-CONV-C13: the enum term of is_valid_dtype: 'header' = membership in the generation's DTYPE "
         "enum (default), 'runtime' = the runtime's d <= 0xF")
      ->type_name("header|runtime");
  app.add_flag_callback(
      "--no-symmetric-clamp-arith", [&options] { options.symmetric_clamp_general_arith = false; },
      "PROJ-CONV-T11 off: SYMMETRIC_CLAMP (0x24) is not general-arith on MAVERICK");
}

void report_error(std::string_view message) {
  fmt::print(stderr, "{}: error: {}\n", kToolName, message);
  std::fflush(stderr);
}

int usage_error(std::string_view command, std::string_view message) {
  report_error(fmt::format("{}: {}; run 'tpbisa --help'", command, message));
  return kExitUsage;
}

std::optional<uint64_t> parse_u64(std::string_view text) {
  unsigned base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return std::nullopt;
  uint64_t v = 0;
  for (char c : text) {
    unsigned d = 0;
    if (c >= '0' && c <= '9')
      d = static_cast<unsigned>(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = static_cast<unsigned>(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = static_cast<unsigned>(c - 'A' + 10);
    else
      return std::nullopt;
    if (v > (UINT64_MAX - d) / base) return std::nullopt;
    v = v * base + d;
  }
  return v;
}

}  // namespace tpbisa::cli
