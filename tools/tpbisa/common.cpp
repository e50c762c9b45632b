// Shared subcommand pieces: --gen parsing through the library, word inputs, never-throwing output, one error
// format on stderr.
#include "common.hpp"

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <unistd.h>

#include "exit_codes.hpp"
#include "tpbisa/io/source_text.hpp"
#include "tpbisa/location.hpp"

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

bool report_on_stderr = false;  ///< set by report_to_stderr: stdout carries the trace
int stdout_errno = 0;           ///< errno of the first failed write to stdout; 0 while every write succeeded

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

void add_word_inputs(CLI::App& app, WordInputs& in) {
  app.add_option("--hex", in.hex,
                 "Instructions as 128 hex digits each (whitespace, '_' and 0x prefixes allowed); several words per "
                 "argument and several arguments allowed; repeatable")
      ->type_name("HEX")
      ->expected(1, CLI::detail::expected_max_vector_size)
      ->allow_extra_args(true);
  app.add_option("FILE", in.files,
                 "Files of 64-byte words, streamed ('-' reads stdin); a .tasm source is assembled first; a .neff "
                 "container (found by its header) gives the words of its engine streams")
      ->type_name("FILE");
}

void add_stream_filters(CLI::App& app, WordInputs& in, const std::string& engine_help) {
  // One value per occurrence, so `--subgraph sg00 in.neff` leaves the file to FILE; repeatable.
  app.add_option("--subgraph", in.subgraphs, "NEFF inputs: only the streams of this subgraph (sg00, ...); repeatable")
      ->type_name("NAME")
      ->allow_extra_args(false);
  app.add_option_function<std::vector<std::string>>(
         "--engine",
         [&in](const std::vector<std::string>& texts) {
           for (const std::string& text : texts) {
             const auto e = neff::parse_engine(text);
             if (!e)
               throw CLI::ValidationError(
                   "--engine",
                   fmt::format("'{}' is not an engine (pe, act, pool, dve, sp, or PE, Activation, ...)", text));
             in.engines.push_back(*e);
           }
         },
         engine_help)
      ->type_name("ENGINE")
      ->allow_extra_args(false);
}

std::optional<std::string> check_word_inputs(const WordInputs& in) {
  return io::check_word_inputs(in.hex, in.files, !in.subgraphs.empty());
}

std::vector<std::unique_ptr<io::WordSource>> open_word_inputs(const WordInputs& in, Generation gen) {
  std::vector<std::unique_ptr<io::WordSource>> sources;
  if (!in.hex.empty()) sources.push_back(io::open_hex(in.hex));
  io::InputOptions options;
  options.gen = gen;
  options.neff = true;
  options.subgraphs = in.subgraphs;
  options.engines = in.engines;
  options.neff_read.hash = in.hash_check;
  for (const auto& path : in.files) sources.push_back(io::open_input(path, options));
  return sources;
}

void report_neff_warnings(const io::WordSource& src) {
  err_write(io::source_warnings_text(src, kToolName));
}

void buffer_stdout() {
  static std::array<char, size_t{1} << 20> buffer;
  static bool done = false;
  if (done || ::isatty(::fileno(stdout)) != 0) return;
  done = true;
  std::setvbuf(stdout, buffer.data(), _IOFBF, buffer.size());
}

void report_to_stderr() {
  report_on_stderr = true;
}

void out_write(std::string_view text) {
  if (report_on_stderr) {
    err_write(text);
    return;
  }
  if (stdout_errno != 0 || text.empty()) return;
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) stdout_errno = errno != 0 ? errno : EIO;
}

bool out_flush() {
  if (stdout_errno == 0) {
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) stdout_errno = errno != 0 ? errno : EIO;
  }
  return stdout_errno == 0;
}

bool stdout_failed() {
  return stdout_errno != 0;
}

std::string stdout_error() {
  return fmt::format("<stdout>: write error: {}", std::strerror(stdout_errno != 0 ? stdout_errno : EIO));
}

void err_write(std::string_view text) {
  // An unwritable stderr must not change the exit code: the failure is ignored.
  if (std::fwrite(text.data(), 1, text.size(), stderr) != text.size()) std::clearerr(stderr);
  std::fflush(stderr);
}

void report_error(std::string_view message) {
  err_write(fmt::format("{}: error: {}\n", kToolName, message));
}

void report_error(const Error& e) {
  report_error(e.message);
}

int usage_error(std::string_view command, std::string_view message) {
  report_error(fmt::format("{}: {}; run 'tpbisa --help'", command, message));
  return kExitUsage;
}

std::string print_diagnostics(std::span<const AsmDiagnostic> errors, size_t count) {
  err_write(io::diagnostics_text(errors));
  return io::diagnostics_summary(count);
}

void report_source_error(const io::WordSource& src) {
  std::string diagnostics;
  const Error e = io::source_error(src, diagnostics);
  err_write(diagnostics);
  report_error(e);
}

std::optional<uint64_t> parse_u64(std::string_view text) {
  uint64_t v = 0;
  if (!parse_u64_text(text, v)) return std::nullopt;
  return v;
}

}  // namespace tpbisa::cli
