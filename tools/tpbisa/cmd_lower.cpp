// `tpbisa lower`: streams IN through lower_pseudo() into OUT, which is replaced only when every word lowered and the
// whole report was written (PROJ-CONV-M8: never a partial output), and validates each lowered word.
#include "commands.hpp"

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "output.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/io/decode_json.hpp"
#include "tpbisa/io/lower_report.hpp"
#include "tpbisa/io/vars.hpp"
#include "tpbisa/lower.hpp"

namespace tpbisa::cli {
namespace {

struct LowerCliOptions {
  std::string vars;
  std::vector<std::string> hex;
  std::string in;
  std::string out;  ///< with --hex the one positional is OUT (CLI11 puts it in `in`)
  std::optional<Generation> gen;
  bool json = false;
  std::string max_words = std::to_string(kDefaultMaxWords);
  ValidateOptions options;
};

/// Writes the report to stdout, or to stderr when OUT is stdout.
struct ReportStream {
  bool to_stderr;
  void write(const std::string& text) const { to_stderr ? err_write(text) : out_write(text); }
  /// True when everything written so far reached its stream (stderr is not checked).
  bool delivered() const { return to_stderr || out_flush(); }
};

/// True when `text` can only be hex words (digits, separators, 0x prefixes), not a file name.
bool hex_like(const std::string& text) {
  return !text.empty() && text.find_first_not_of("0123456789abcdefABCDEFxX_, \t\n") == std::string::npos;
}

/// IN and OUT from the positionals (with --hex the one positional is OUT); a usage error's exit code when wrong.
std::optional<int> in_and_out(LowerCliOptions& o, std::string& in, std::string& out_path) {
  // --hex takes every argument up to the next option, so `--hex W OUT` hands OUT to --hex: take it back.
  if (!o.hex.empty() && o.in.empty() && o.hex.size() > 1 && !hex_like(o.hex.back())) {
    o.in = o.hex.back();
    o.hex.pop_back();
  }
  if (!o.hex.empty() && !o.out.empty())
    return usage_error("lower", fmt::format("with --hex the input is the hex words; unexpected argument '{}'", o.out));
  if (o.hex.empty() && (o.in.empty() || o.out.empty())) return usage_error("lower", "give IN and OUT");
  if (!o.hex.empty() && o.in.empty()) return usage_error("lower", "give OUT");
  in = o.hex.empty() ? o.in : std::string();
  out_path = o.hex.empty() ? o.out : o.in;
  if (in == "-" && o.vars == "-") return usage_error("lower", "IN and --vars cannot both be stdin");
  return std::nullopt;
}

int run_lower(LowerCliOptions o) {
  std::string in, out_path;
  if (const auto rc = in_and_out(o, in, out_path)) return *rc;
  const Generation gen = o.gen.value_or(kDefaultGeneration);
  std::string why;
  const auto max_words = number_option("--max-words", o.max_words, 1, UINT64_MAX, why);
  if (!max_words) return usage_error("lower", why);
  const auto vars = io::load_vars(o.vars);
  if (!vars) {
    report_error(vars.error());
    return kExitInput;
  }
  std::vector<std::string> inputs{o.vars};
  if (!in.empty()) inputs.push_back(in);
  auto sink = open_sink(out_path, inputs, true);
  if (!sink) {
    report_error(sink.error());
    return kExitInput;
  }
  io::InputOptions input;
  input.gen = gen;
  input.neff_refusal = "lowering a NEFF's pseudo words against its own variables is not available yet";
  const auto src = o.hex.empty() ? io::open_input(in, input) : io::open_hex(o.hex);
  const std::string out_label = out_path == "-" ? "<stdout>" : out_path;
  const ReportStream stream{out_path == "-"};
  io::LowerReport report(o.json, o.options, gen);
  stream.write(report.begin(src->label(), out_path));
  io::LowerCounts c;
  Word word{};
  const auto input_error = [&](const std::string& message) {
    (*sink)->discard();
    stream.write(report.finish(c, io::input_error_json(*src, message)));
    report_error(message);
    return kExitInput;
  };
  for (;;) {
    const io::WordSource::Next next = src->next(word);
    if (next == io::WordSource::Next::End) break;
    if (next == io::WordSource::Next::Failed) {
      if (src->diagnostic_count() > 0) print_diagnostics(src->diagnostics(), src->diagnostic_count());
      return input_error(src->error().message);
    }
    if (c.words >= *max_words)
      return input_error(
          fmt::format("{}: more than {} words at offset {} (instruction {}); lower reads at most that "
                      "many (--max-words); nothing written to {}",
                      src->label(), *max_words, src->offset(), src->index(), out_label));
    const LowerResult r = lower_pseudo(word, *vars);
    if (!r.ok())
      return input_error(fmt::format("{}: instruction {} (offset {}): {}; nothing written to {}", src->label(),
                                     src->index(), src->offset(), r.message, out_label));
    ++c.words;
    if (r.status == LowerStatus::Lowered) {
      ++c.lowered;
      const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(r.word), gen);
      const Verdict v = validate(inst, gen, o.options);
      if (!v.valid) ++c.invalid;
      stream.write(report.lowered(*src, word[0], r, inst, v));
    } else {
      ++c.copied;
    }
    (*sink)->write(std::span<const uint8_t>(r.word));
    if (stdout_failed()) break;  // the report cannot be written: stop, OUT stays as it was
  }
  stream.write(report.finish(c, nlohmann::ordered_json()));
  // OUT is replaced only after the whole report reached stdout: a report that failed leaves OUT untouched.
  if (!stream.delivered()) {
    (*sink)->discard();
    return kExitInput;
  }
  if (const int rc = finish_sink(**sink); rc != kExitOk) return rc;
  return c.invalid > 0 ? kExitNegative : kExitOk;
}

}  // namespace

Command register_lower(CLI::App& parent) {
  auto opts = std::make_shared<LowerCliOptions>();
  CLI::App* app = parent.add_subcommand(
      "lower", "Lower PseudoTensorLoad/Store (0xce/0xcd) into TensorLoad/Store (0xaa/0xab) from a variable table");
  app->add_option("--vars", opts->vars, "Variable table: {\"vars\": {\"<id>\": {\"base\": B, \"size\": S}}}")
      ->type_name("VARS.json")
      ->required();
  add_generation_option(*app, opts->gen,
                        "Generation the lowered words are validated on: sunda|cayman|mariana|maverick or v2..v5 "
                        "(default: mariana)");
  app->add_flag("--json", opts->json, "Print the report as one JSON document");
  app->add_option("--max-words", opts->max_words, "Most words read from IN (default: 1048576)")->type_name("N");
  add_validate_options(*app, opts->options);
  app->add_option("--hex", opts->hex,
                  "The input as hex words instead of IN (128 hex digits each; several per argument allowed)")
      ->type_name("HEX")
      ->expected(1, CLI::detail::expected_max_vector_size)
      ->allow_extra_args(true);
  app->add_option("IN", opts->in, "File of 64-byte words ('-' reads stdin) or a .tasm source; left out with --hex")
      ->type_name("IN");
  app->add_option("OUT", opts->out,
                  "Output file, replaced only when every word lowered and the report was written ('-' writes stdout; "
                  "the report then goes to stderr)")
      ->type_name("OUT");
  app->footer(
      "Every other word is copied unchanged. Each lowered word is validated on the generation; an invalid "
      "one is still written.\nExit codes: 0 lowered and valid, 1 a lowered word is invalid (OUT written), "
      "2 usage error,\n3 input or output error (unknown var id, offset outside the variable, bad VARS.json, "
      "unreadable IN, a report or OUT that cannot be written; OUT untouched).");
  return {app, [opts] { return run_lower(*opts); }};
}

}  // namespace tpbisa::cli
