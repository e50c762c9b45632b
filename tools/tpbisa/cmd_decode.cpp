// `tpbisa decode`: streams every input through the library's decoding layouts (tpbisa/io/decode_text.hpp): text blocks
// with every field explained, or one JSON document.
#include <memory>
#include <optional>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "tpbisa/io/decode_text.hpp"

namespace tpbisa::cli {
namespace {

struct DecodeOptions {
  std::optional<Generation> gen;
  bool json = false;
  WordInputs inputs;
};

// Inputs run in order; the first input error stops the run after what decoded before it was printed.
int run_decode(const DecodeOptions& o) {
  if (const auto problem = check_word_inputs(o.inputs)) return usage_error("decode", *problem);
  buffer_stdout();
  StdoutText text;
  const auto printer = io::make_decode_printer(o.json, o.inputs.files.size() > 1, text);
  for (auto& src : open_word_inputs(o.inputs, o.gen.value_or(kDefaultGeneration))) {
    const Generation gen = input_generation(*src, o.gen);
    report_neff_warnings(*src);
    const io::DecodeEnded ended = io::decode_source(*src, gen, generation_note(*src, o.gen, gen), *printer, text);
    if (ended == io::DecodeEnded::Done) continue;
    if (ended == io::DecodeEnded::OutputFailed) return kExitInput;
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
