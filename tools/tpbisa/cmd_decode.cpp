// `tpbisa decode`: streams every input through decode() and one of the printers.
#include "cmd_decode.hpp"

#include <memory>
#include <vector>

#include <fmt/format.h>

#include "decode_print.hpp"
#include "exit_codes.hpp"
#include "io.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa::cli {
namespace {

struct DecodeOptions {
  std::optional<Generation> gen;
  bool json = false;
  std::vector<std::string> hex;
  std::vector<std::string> files;
};

int usage_error(std::string_view message) {
  report_error(fmt::format("decode: {}; run 'tpbisa --help'", message));
  return kExitUsage;
}

/// Decodes one input to the end or to its first error; false on error (already reported to the printer).
bool decode_source(WordSource& src, Generation gen, DecodePrinter& printer) {
  printer.begin_input(src);
  Word word{};
  for (;;) {
    switch (src.next(word)) {
      case WordSource::Next::Word:
        printer.instruction(src, decode(std::span<const uint8_t, kWordBytes>(word), gen), word);
        break;
      case WordSource::Next::End: return true;
      case WordSource::Next::Failed: printer.failed(src); return false;
    }
  }
}

// Inputs run in order; the first input error stops the run after what decoded before it was printed.
int run_decode(const DecodeOptions& o) {
  if (o.hex.empty() && o.files.empty()) return usage_error("no input: give --hex HEX or FILE ('-' for stdin)");
  if (!o.hex.empty() && !o.files.empty()) return usage_error("give either --hex words or FILE arguments, not both");
  const Generation gen = o.gen.value_or(kDefaultGeneration);
  const auto printer = o.json ? make_json_printer(gen) : make_text_printer(o.files.size() > 1);
  std::vector<std::unique_ptr<WordSource>> sources;
  if (!o.hex.empty()) sources.push_back(std::make_unique<HexWords>(o.hex));
  for (const auto& path : o.files) sources.push_back(std::make_unique<FileWords>(path));
  for (auto& src : sources) {
    if (decode_source(*src, gen, *printer)) continue;
    printer->finish();
    report_error(src->error());
    return kExitInput;
  }
  printer->finish();
  return kExitOk;
}

}  // namespace

Command register_decode(CLI::App& parent) {
  auto opts = std::make_shared<DecodeOptions>();
  CLI::App* app = parent.add_subcommand("decode", "Decode 64-byte instruction words and explain every field");
  add_generation_option(*app, opts->gen, "Generation: sunda|cayman|mariana|maverick or v2..v5 (default: mariana)");
  app->add_flag("--json", opts->json, "Print one JSON document instead of text");
  app->add_option("--hex", opts->hex,
                  "One instruction as 128 hex digits (whitespace, '_' and 0x prefixes allowed); repeat for more")
      ->type_name("HEX")
      ->allow_extra_args(false);
  app->add_option("FILE", opts->files, "Files of 64-byte words, streamed; '-' reads stdin")->type_name("FILE");
  app->footer("Exit codes: 0 success, 2 usage error, 3 input error (unreadable file, bad hex, partial word).");
  return {app, [opts] { return run_decode(*opts); }};
}

}  // namespace tpbisa::cli
