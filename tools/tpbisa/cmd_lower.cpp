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
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/vars.hpp"
#include "tpbisa/io/verdict_json.hpp"
#include "tpbisa/lower.hpp"
#include "verdict_print.hpp"

namespace tpbisa::cli {
namespace {

using ojson = nlohmann::ordered_json;

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

struct LowerCounts {
  uint64_t words = 0, lowered = 0, copied = 0, invalid = 0;
};

/// `"key": value` of the JSON report's outer object, key and value serialised by nlohmann. The report streams its
/// `lowered` entries as the words are lowered, one per line, so its outer object is written a member at a time.
std::string member(std::string_view key, const ojson& value) {
  return io::dump_json(ojson(key)) + ": " + io::dump_json(value);
}

/// Reports as it goes: text lines, or one JSON document; to stderr when OUT is stdout.
class LowerReport {
 public:
  LowerReport(const LowerCliOptions& o, std::string in, std::string out, Generation gen, bool to_stderr)
      : o_(o), out_(std::move(out)), gen_(gen), to_stderr_(to_stderr) {
    if (o_.json)
      write(fmt::format("{{{}, {}, {}, {}: [", member("input", in), member("output", out_ == "-" ? "<stdout>" : out_),
                        member("generation", to_string(gen_)), io::dump_json(ojson("lowered"))));
  }

  void lowered(const io::WordSource& src, uint8_t pseudo_opcode, const LowerResult& r, const Instruction& inst,
               const Verdict& v) {
    if (o_.json) {
      const ojson j{{"index", src.index()},
                    {"offset", src.offset()},
                    {"pseudo_opcode", fmt::format("{:#04x}", pseudo_opcode)},
                    {"opcode", fmt::format("{:#04x}", r.word[0])},
                    {"name", inst.name()},
                    {"var_id", r.var_id},
                    {"var_offset", r.var_offset},
                    {"start_addr", fmt::format("{:#x}", load_le<uint64_t>(&r.word[16]))},
                    {"verdict", io::verdict_json(v, inst, o_.options)}};
      write(fmt::format("{}\n{}", count_ == 0 ? "" : ",", io::dump_json(j)));
      ++count_;
      return;
    }
    std::string line = fmt::format("#{} {:#x} {:#04x} -> {:#04x} {}  var {} + {:#x} = {:#x}  {}\n", src.index(),
                                   src.offset(), pseudo_opcode, r.word[0], inst.name(), r.var_id, r.var_offset,
                                   load_le<uint64_t>(&r.word[16]), verdict_word(v));
    if (!v.valid) line += failure_lines(v, inst, o_.options, "    ");
    write(line);
  }
  void finish(const LowerCounts& c, const ojson& error) {
    if (o_.json) {
      const ojson summary{{"words", c.words}, {"lowered", c.lowered}, {"copied", c.copied}, {"invalid", c.invalid}};
      write(fmt::format("{}],\n{}", count_ == 0 ? "" : "\n", member("summary", summary)));
      if (!error.is_null()) write(",\n" + member("error", error));
      write("}\n");
    } else if (error.is_null()) {
      write(fmt::format("{} word{}: {} lowered, {} copied; {} lowered word{} invalid on {}\n", c.words,
                        c.words == 1 ? "" : "s", c.lowered, c.copied, c.invalid, c.invalid == 1 ? "" : "s",
                        to_string(gen_)));
    }
  }
  /// True when everything reported so far reached its stream (stderr is not checked).
  bool delivered() { return to_stderr_ || out_flush(); }

 private:
  void write(const std::string& text) {
    if (to_stderr_)
      err_write(text);
    else
      out_write(text);
  }
  const LowerCliOptions& o_;
  std::string out_;
  Generation gen_;
  bool to_stderr_;
  uint64_t count_ = 0;
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
  LowerReport report(o, src->label(), out_path, gen, out_path == "-");
  LowerCounts c;
  Word word{};
  const auto input_error = [&](const std::string& message) {
    (*sink)->discard();
    report.finish(c, io::input_error_json(*src, message));
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
      report.lowered(*src, word[0], r, inst, v);
    } else {
      ++c.copied;
    }
    (*sink)->write(std::span<const uint8_t>(r.word));
    if (stdout_failed()) break;  // the report cannot be written: stop, OUT stays as it was
  }
  report.finish(c, ojson());
  // OUT is replaced only after the whole report reached stdout: a report that failed leaves OUT untouched.
  if (!report.delivered()) {
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
