// `tpbisa asm`: reads a source, reports every error as file:line:col with a caret line, writes the words.
#include "commands.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "output.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/words.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::cli {
namespace {

constexpr std::string_view kSourceExt = ".tasm";
constexpr std::string_view kOutputExt = ".bin";

struct AsmOptions {
  std::optional<Generation> gen;
  std::string input;
  std::string output;
  bool hex = false;
};

/// IN.tasm -> IN.bin; any other name gets .bin appended.
std::string default_output(const std::string& input) {
  if (input.ends_with(kSourceExt)) return input.substr(0, input.size() - kSourceExt.size()) + std::string(kOutputExt);
  return input + std::string(kOutputExt);
}

int run_asm(const AsmOptions& o) {
  if (o.hex && !o.output.empty())
    return usage_error("asm", "--hex prints the words on stdout; give either --hex or -o");
  if (o.input == "-" && o.output.empty() && !o.hex)
    return usage_error("asm", "reading stdin: name the output with -o OUT.bin (or -o - for stdout)");
  // The same bounded reader every command uses for .tasm inputs, whatever the file is called.
  const auto assembled = io::assemble_source(o.input, o.gen.value_or(kDefaultGeneration));
  if (!assembled) {
    report_error(assembled.error());
    return kExitInput;
  }
  const AsmResult& r = *assembled;
  const std::string label = io::input_label(o.input);
  if (!r.ok()) {
    report_error(fmt::format("{}: {}; nothing written", label, print_diagnostics(r.errors, r.error_count)));
    return kExitInput;
  }
  if (o.hex) {
    for (const Word& w : r.words) {
      std::string line;
      line.reserve(2 * w.size() + 1);
      for (uint8_t b : w) line += fmt::format("{:02x}", b);
      line += '\n';
      out_write(line);
      if (stdout_failed()) return kExitInput;
    }
    return kExitOk;
  }
  const std::string inputs[] = {o.input};
  auto sink = open_sink(o.output.empty() ? default_output(o.input) : o.output, inputs);
  if (!sink) {
    report_error(sink.error());
    return kExitInput;
  }
  for (const Word& w : r.words) (*sink)->write(std::span<const uint8_t>(w));
  return finish_sink(**sink);
}

}  // namespace

Command register_asm(CLI::App& parent) {
  auto opts = std::make_shared<AsmOptions>();
  CLI::App* app = parent.add_subcommand("asm", "Assemble a .tasm source into 64-byte instruction words");
  add_generation_option(*app, opts->gen, "Generation: sunda|cayman|mariana|maverick or v2..v5 (default: mariana)");
  app->add_option("IN", opts->input, "Source file (syntax: docs/asm.md); '-' reads stdin; at most 64 MiB")
      ->type_name("IN.tasm")
      ->required();
  app->add_option("-o,--output", opts->output,
                  "Output file (default: IN with .tasm replaced by .bin), replaced only when the whole source "
                  "assembled; '-' is stdout")
      ->type_name("OUT.bin");
  app->add_flag("--hex", opts->hex, "Print each word as 128 hex digits on stdout instead of writing a file");
  app->footer(
      "Exit codes: 0 assembled, 2 usage error, 3 input error (assembly errors, unreadable or oversized input, "
      "unwritable output). Up to 20 errors are printed as file:line:col: error: ... with a caret line.");
  return {app, [opts] { return run_asm(*opts); }};
}

}  // namespace tpbisa::cli
