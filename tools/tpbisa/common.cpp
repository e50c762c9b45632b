// Shared subcommand pieces: --gen parsing through the library, word inputs, never-throwing output, one error
// format on stderr.
#include "common.hpp"

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

#include "exit_codes.hpp"
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
  if (in.hex.empty() && in.files.empty()) return "no input: give --hex HEX or FILE ('-' for stdin)";
  if (!in.hex.empty() && !in.files.empty()) return "give either --hex words or FILE arguments, not both";
  if (!in.hex.empty() && !in.subgraphs.empty()) return "--subgraph selects streams of a NEFF input, not --hex words";
  // --hex takes every argument up to the next option, so `--hex WORD prog.bin` would read the file name as hex.
  for (const std::string& arg : in.hex) {
    struct stat st {};
    const bool hexlike = arg.find_first_not_of("0123456789abcdefABCDEFxX_, \t\n") == std::string::npos;
    if (!hexlike && ::stat(arg.c_str(), &st) == 0)
      return fmt::format("'{}' after --hex is a file; give either --hex words or FILE arguments, not both", arg);
  }
  return std::nullopt;
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

Generation input_generation(io::WordSource& src, const std::optional<Generation>& given) {
  if (given) return *given;
  return src.generation().value_or(kDefaultGeneration);
}

std::string generation_note(const io::WordSource& src, const std::optional<Generation>& given, Generation gen) {
  const neff::Neff* n = src.neff();
  if (given || n == nullptr) return {};
  if (n->generation)
    return fmt::format("generation {}: the target of {} (PROJ-CONV-X7; --gen overrides)", to_string(gen), n->file);
  return fmt::format("generation {} (the default): the target '{}' of {} names no generation; --gen overrides",
                     to_string(gen), n->target, n->file);
}

void report_neff_warnings(const io::WordSource& src) {
  const neff::Neff* n = src.neff();
  if (n == nullptr) return;
  for (const neff::Warning& w : n->warnings)
    err_write(fmt::format("{}: warning: {}: {}\n", kToolName,
                          w.member.empty() ? n->file : fmt::format("{}: {}", n->file, w.member), w.message));
}

std::string word_label(const io::WordSource& src) {
  return word_label(src, src.index());
}

std::string word_label(const io::WordSource& src, uint64_t index) {
  if (const io::StreamInfo* s = src.stream()) return fmt::format("{}#{}", s->label, index);
  return fmt::format("#{}", index);
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

namespace {

constexpr size_t kShownErrors = 20;  // assembly diagnostics printed; the summary gives the full count

/// Length of the valid UTF-8 sequence at text[i] (1..4), or 0 when the byte does not start one.
size_t utf8_length(std::string_view text, size_t i) {
  const auto u = static_cast<unsigned char>(text[i]);
  const size_t n = u < 0x80 ? 1 : (u >> 5) == 0x6 ? 2 : (u >> 4) == 0xE ? 3 : (u >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return 0;
  return n;
}

/// The pieces a text is shown as, one per byte: the byte itself, or \xNN for control bytes and bytes that are
/// not UTF-8 (a NUL in a source line must not reach the terminal raw). `keep_tabs` leaves tabs as they are.
std::vector<std::string> shown_bytes(std::string_view text, bool keep_tabs) {
  std::vector<std::string> out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto u = static_cast<unsigned char>(text[i]);
    const size_t n = utf8_length(text, i);
    if ((u < 0x20 && !(keep_tabs && u == '\t')) || u == 0x7F || n == 0) {
      out.push_back(fmt::format("\\x{:02x}", u));
      ++i;
      continue;
    }
    out.emplace_back(text.substr(i, 1));
    for (size_t k = 1; k < n; ++k) out.emplace_back(text.substr(i + k, 1));
    i += n;
  }
  return out;
}

std::string escape_text(std::string_view text) {
  std::string out;
  for (const std::string& s : shown_bytes(text, false)) out += s;
  return out;
}

/// format_diagnostic's three lines with the source line escaped and the caret line kept under the same bytes.
std::string escaped_diagnostic(const AsmDiagnostic& d) {
  const std::vector<std::string> shown = shown_bytes(d.source_line, true);
  std::string line, carets;
  for (const std::string& s : shown) line += s;
  // The caret line repeats the line's tabs so that the caret sits under the right byte however tabs are shown.
  for (size_t i = 0; i + 1 < d.column && i < shown.size(); ++i)
    carets += shown[i] == "\t" ? std::string("\t") : std::string(shown[i].size(), ' ');
  size_t width = 0;
  for (size_t i = d.column == 0 ? 0 : d.column - 1, k = 0; k < std::max<size_t>(d.length, 1); ++i, ++k)
    width += i < shown.size() ? shown[i].size() : 1;
  carets += '^';
  carets.append(width - 1, '~');
  return fmt::format("{}:{}:{}: error: {}\n{}\n{}\n", escape_text(d.file), d.line, d.column, escape_text(d.message),
                     line, carets);
}

}  // namespace

std::string print_diagnostics(std::span<const AsmDiagnostic> errors, size_t count) {
  for (size_t i = 0; i < errors.size() && i < kShownErrors; ++i) err_write(escaped_diagnostic(errors[i]));
  const std::string shown = count > kShownErrors ? fmt::format(" (the first {} shown)", kShownErrors) : "";
  return fmt::format("{} error{}{}", count, count == 1 ? "" : "s", shown);
}

void report_source_error(const io::WordSource& src) {
  if (src.diagnostic_count() == 0) {
    report_error(src.error());
    return;
  }
  report_error(fmt::format("{}: {} in the assembly source", src.label(),
                           print_diagnostics(src.diagnostics(), src.diagnostic_count())));
}

std::optional<uint64_t> parse_u64(std::string_view text) {
  uint64_t v = 0;
  if (!parse_u64_text(text, v)) return std::nullopt;
  return v;
}

std::optional<uint64_t> number_option(std::string_view option, std::string_view text, uint64_t min, uint64_t max,
                                      std::string& error) {
  uint64_t v = 0;
  bool too_big = false;
  if (!parse_u64_text(text, v, &too_big)) {
    error = too_big ? fmt::format("{} '{}' is out of range {}..{}", option, text, min, max)
                    : fmt::format("{} '{}' is not a number", option, text);
    return std::nullopt;
  }
  if (v < min || v > max) {
    error = fmt::format("{} '{}' is out of range {}..{}", option, text, min, max);
    return std::nullopt;
  }
  return v;
}

}  // namespace tpbisa::cli
