// `tpbisa decode`: streams every input, a block of words at a time and in place, through decode() and a printer.
#include "cmd_decode.hpp"

#include <memory>
#include <vector>

#include <fmt/format.h>

#include "decode_print.hpp"
#include "exit_codes.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa::cli {
namespace {

struct DecodeOptions {
  std::optional<Generation> gen;
  bool json = false;
  WordInputs inputs;
};

enum class Ended { Done, Failed, OutputFailed };

/// Decodes one input to its end, its first error, or a failed write to stdout.
Ended decode_source(WordSource& src, const std::optional<Generation>& given, DecodePrinter& printer) {
  const Generation gen = input_generation(src, given);
  report_neff_warnings(src);
  printer.begin_input(src, gen, generation_note(src, given, gen));
  std::span<const uint8_t> block;
  for (;;) {
    if (stdout_failed()) return Ended::OutputFailed;
    switch (src.next_block(block, kBlockWords)) {
      case WordSource::Next::Word:
        for (size_t i = 0; i < block.size() / kWordBytes; ++i) {
          const std::span<const uint8_t, kWordBytes> word(block.data() + i * kWordBytes, kWordBytes);
          printer.instruction(src, src.index() + i, decode(word, gen), word);
          if (stdout_failed()) return Ended::OutputFailed;  // stop reading at the first failed write
        }
        break;
      case WordSource::Next::End: return Ended::Done;
      case WordSource::Next::Failed: printer.failed(src); return Ended::Failed;
    }
  }
}

// Inputs run in order; the first input error stops the run after what decoded before it was printed.
int run_decode(const DecodeOptions& o) {
  if (const auto problem = check_word_inputs(o.inputs)) return usage_error("decode", *problem);
  buffer_stdout();
  const auto printer = o.json ? make_json_printer() : make_text_printer(o.inputs.files.size() > 1);
  for (auto& src : open_word_inputs(o.inputs, o.gen.value_or(kDefaultGeneration))) {
    const Ended ended = decode_source(*src, o.gen, *printer);
    if (ended == Ended::Done) continue;
    if (ended == Ended::OutputFailed) return kExitInput;
    printer->finish();
    report_source_error(*src);
    return kExitInput;
  }
  printer->finish();
  return kExitOk;
}

}  // namespace

Command register_decode(CLI::App& parent) {
  auto opts = std::make_shared<DecodeOptions>();
  CLI::App* app = parent.add_subcommand("decode", "Decode 64-byte instruction words and explain every field");
  add_generation_option(*app, opts->gen,
                        "Generation: sunda|cayman|mariana|maverick or v2..v5 (default: mariana, or a NEFF's target)");
  app->add_flag("--json", opts->json, "Print one JSON document instead of text");
  add_word_inputs(*app, opts->inputs);
  add_stream_filters(*app, opts->inputs,
                     "NEFF inputs: only the stream of this engine (pe, act, pool, dve, sp); repeatable");
  app->footer(
      "Exit codes: 0 success, 2 usage error, 3 input error (unreadable file, bad hex, partial word, assembly "
      "errors in a .tasm, a NEFF that fails a check) or output error.");
  return {app, [opts] { return run_decode(*opts); }};
}

}  // namespace tpbisa::cli
