// `tpbisa disasm`: streams words through the library's disassembler, one canonical line per word.
#include "cmd_disasm.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cmd_asm.hpp"
#include "exit_codes.hpp"
#include "io.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::cli {
namespace {

struct DisasmCliOptions {
  std::optional<Generation> gen;
  bool no_verdicts = false;
  std::vector<std::string> hex;
  std::vector<std::string> files;
};

int usage_error(std::string_view message) {
  report_error(fmt::format("disasm: {}; run 'tpbisa --help'", message));
  return kExitUsage;
}

/// Prints one input to its end or its first error; false on error.
bool disasm_source(WordSource& src, Generation gen, const DisasmOptions& options) {
  Word word{};
  for (;;) {
    switch (src.next(word)) {
      case WordSource::Next::Word:
        fmt::print("{}\n", disassemble(std::span<const uint8_t, kWordBytes>(word), gen, options));
        break;
      case WordSource::Next::End: return true;
      case WordSource::Next::Failed: return false;
    }
  }
}

int run_disasm(const DisasmCliOptions& o) {
  if (o.hex.empty() && o.files.empty()) return usage_error("no input: give --hex HEX or FILE ('-' for stdin)");
  if (!o.hex.empty() && !o.files.empty()) return usage_error("give either --hex words or FILE arguments, not both");
  const Generation gen = o.gen.value_or(kDefaultGeneration);
  DisasmOptions options;
  options.verdicts = !o.no_verdicts;
  std::vector<std::unique_ptr<WordSource>> sources;
  if (!o.hex.empty()) sources.push_back(std::make_unique<HexWords>(o.hex));
  for (const auto& path : o.files) sources.push_back(open_words(path, gen));  // a .tasm prints canonically
  for (auto& src : sources) {
    // Several files stay one assemblable text: each starts with a comment naming it.
    if (o.files.size() > 1) fmt::print("; == {} ==\n", src->label());
    if (disasm_source(*src, gen, options)) continue;
    std::fflush(stdout);
    report_error(src->error());
    return kExitInput;
  }
  return kExitOk;
}

}  // namespace

Command register_disasm(CLI::App& parent) {
  auto opts = std::make_shared<DisasmCliOptions>();
  CLI::App* app = parent.add_subcommand("disasm", "Print 64-byte instruction words as canonical assembly text");
  add_generation_option(*app, opts->gen, "Generation: sunda|cayman|mariana|maverick or v2..v5 (default: mariana)");
  app->add_flag("--no-verdicts", opts->no_verdicts,
                "Leave out the '; INVALID on GEN: predicates' comment of words that fail validation");
  app->add_option("--hex", opts->hex,
                  "One instruction as 128 hex digits (whitespace, '_' and 0x prefixes allowed); repeat for more")
      ->type_name("HEX")
      ->allow_extra_args(false);
  app->add_option("FILE", opts->files,
                  "Files of 64-byte words, streamed ('-' reads stdin), or .tasm sources (printed canonically)")
      ->type_name("FILE");
  app->footer(
      "Exit codes: 0 success (invalid words included: they are marked, not refused), 2 usage error, "
      "3 input error. 'tpbisa asm' reads the output back to the same bytes.");
  return {app, [opts] { return run_disasm(*opts); }};
}

}  // namespace tpbisa::cli
