// Pieces every tpbisa subcommand shares: the tool's identity, the --gen option, output that never throws,
// one wording for errors, and number options.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "tpbisa/expected.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/io/arguments.hpp"
#include "tpbisa/io/source_text.hpp"
#include "tpbisa/io/text_out.hpp"
#include "tpbisa/io/words.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::cli {

using io::generation_note;
using io::input_generation;
using io::number_option;
using io::word_label;

inline constexpr std::string_view kToolName = "tpbisa";
inline constexpr std::string_view kToolVersion = "0.1.0";

/// Words `validate` and `decode` take from a source at a time, in place (a mapped window or the read buffer): large
/// enough that the per-block costs (a virtual call, one validate_batch per generation) vanish, small enough that the
/// block stays in cache across the generations (4096 x 64 bytes).
inline constexpr size_t kBlockWords = 4096;

/// The default of `run`'s and `lower`'s --max-words: the largest program they read (1 Mi words, 64 MiB).
inline constexpr uint64_t kDefaultMaxWords = uint64_t{1} << 20;

/// A registered subcommand: its CLI11 app and what to run once it parsed; `run` returns the exit code.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

/// Adds `--gen GEN` (sunda|cayman|mariana|maverick or v2..v5, case-insensitive); an unknown name is a
/// usage error raised while parsing, so it exits 2 like every other option error.
void add_generation_option(CLI::App& app, std::optional<Generation>& gen, const std::string& help);

/// Adds `--gen GEN|all`: one generation as above, or `all` for the four in generation order.
void add_generations_option(CLI::App& app, std::vector<Generation>& gens, const std::string& help);

/// Adds the switches that change a verdict (docs/conventions.md): --strict-window (PROJ-CONV-M3),
/// --dtype-enum header|runtime (PROJ-CONV-C13), --no-symmetric-clamp-arith (PROJ-CONV-T11).
void add_validate_options(CLI::App& app, ValidateOptions& options);

/// The inputs of a command that reads words: --hex words (one or more per argument, the option repeatable) or
/// FILE arguments ('-' stdin, .tasm assembled first, a NEFF container read stream by stream).
struct WordInputs {
  std::vector<std::string> hex;
  std::vector<std::string> files;
  std::vector<std::string> subgraphs;  ///< --subgraph: NEFF streams of these subgraphs only
  std::vector<StreamEngine> engines;   ///< --engine: NEFF streams of these engines only
  bool hash_check = true;              ///< false (validate --no-hash-check): a NEFF's payload hash is not computed
};
void add_word_inputs(CLI::App& app, WordInputs& in);
/// Adds --subgraph NAME and --engine ENGINE (both repeatable), the filters of NEFF inputs.
void add_stream_filters(CLI::App& app, WordInputs& in, const std::string& engine_help);
/// Checks that exactly one kind was given; a usage message when not.
std::optional<std::string> check_word_inputs(const WordInputs& in);
/// The sources in order: the --hex words as one source, or one source per FILE (NEFF containers accepted).
std::vector<std::unique_ptr<io::WordSource>> open_word_inputs(const WordInputs& in, Generation gen);

/// Prints a NEFF input's warnings (a hash mismatch, trailing bytes) on stderr, as `tpbisa neff` does.
void report_neff_warnings(const io::WordSource& src);
// ---- output: stdout is written through these, never by fmt::print (which throws on a failed write) ----

/// Gives stdout one large buffer (1 MiB) when it is not a terminal, so that printing many words costs few writes.
/// Call before anything is written to stdout; a terminal keeps its line buffering.
void buffer_stdout();
/// Writes to stdout. Never throws; the first failure (and its errno) is kept, later writes are dropped.
void out_write(std::string_view text);
/// From now on out_write writes to stderr: stdout carries something else (`run --trace -`).
void report_to_stderr();
template <class... Args>
void out(fmt::format_string<Args...> f, Args&&... args) {
  out_write(fmt::format(f, std::forward<Args>(args)...));
}
/// Flushes stdout; false when anything written to it so far failed.
bool out_flush();
/// True once a write to stdout failed (a full disk, a closed pipe, a closed descriptor).
bool stdout_failed();
/// "<stdout>: write error: <OS error>".
std::string stdout_error();

/// Stdout as the library's streamed layouts see it (a failed write is kept and reported by main).
class StdoutText final : public io::TextOut {
 public:
  void write(std::string_view text) override { out_write(text); }
  void flush() override { out_flush(); }
  bool failed() const override { return stdout_failed(); }
};

/// Prints "tpbisa: error: <message>" on stderr; never throws, whatever stderr is.
void report_error(std::string_view message);
/// Prints an error of the library (its message already names the input).
void report_error(const Error& e);
/// Prints text on stderr as it is (diagnostics); never throws.
void err_write(std::string_view text);

/// Reports "COMMAND: <message>; run 'tpbisa --help'" and returns the usage exit code (2).
int usage_error(std::string_view command, std::string_view message);

/// Prints the first 20 assembly diagnostics on stderr (bytes that are not text escaped); returns "N errors"
/// (with how many were shown when not all).
std::string print_diagnostics(std::span<const AsmDiagnostic> errors, size_t count);

/// Reports a failed input source (its assembly diagnostics first, when it is a .tasm that did not assemble).
void report_source_error(const io::WordSource& src);

/// Parses an unsigned number written in decimal or as 0x hex (no sign, no spaces); nullopt when it is
/// not one or does not fit 64 bits.
std::optional<uint64_t> parse_u64(std::string_view text);

}  // namespace tpbisa::cli
