// `tpbisa disasm`: streams words through the library's disassembler, one canonical line per word, or an
// objdump-style listing (with a NEFF's source lines, -S); a NEFF's streams go to one .tasm file each with -o DIR.
#include "commands.hpp"

#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "output.hpp"
#include "tpbisa/io/disasm_text.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::cli {
namespace {

struct DisasmCliOptions {
  std::optional<Generation> gen;
  bool no_verdicts = false;
  bool listing = false;
  bool short_bytes = false;
  bool no_bytes = false;
  bool source = false;
  std::string output;
  WordInputs inputs;
};

/// The layout of the words: the verdicts judged on the engine --engine names for plain words.
io::DisasmLayout layout(const DisasmCliOptions& o) {
  io::DisasmLayout l;
  l.options.verdicts = !o.no_verdicts;
  if (o.inputs.engines.size() == 1) l.options.validate.engine = o.inputs.engines.front();
  l.listing = o.listing;
  l.shown_bytes = o.no_bytes ? 0 : o.short_bytes ? io::kShortListingBytes : kWordBytes;
  l.source = o.source;
  return l;
}

/// Prints one input to its end or its first error; false on an input error or a failed write.
bool disasm_source(io::WordSource& src, const DisasmCliOptions& o, Sink& sink) {
  const Generation gen = input_generation(src, o.gen);
  report_neff_warnings(src);
  return io::disassemble_source(src, gen, generation_note(src, o.gen, gen), layout(o), sink);
}

/// -o DIR with a NEFF: one DIR/<subgraph>/<Engine>.tasm per stream, each under the output-file policy.
int disasm_to_folder(const DisasmCliOptions& o) {
  auto sources = open_word_inputs(o.inputs, o.gen.value_or(kDefaultGeneration));
  io::WordSource& src = *sources.front();
  const Generation gen = input_generation(src, o.gen);
  Word first{};
  if (src.next(first) == io::WordSource::Next::Failed) {
    report_source_error(src);
    return kExitInput;
  }
  report_neff_warnings(src);
  const auto done = io::disassemble_to_folder(
      src, o.output, gen, generation_note(src, o.gen, gen), layout(o).options, o.inputs.files,
      [](const std::string& path, size_t n) { out("{}: {} word{}\n", path, n, n == 1 ? "" : "s"); });
  if (!done) {
    report_error(done.error());
    return kExitInput;
  }
  if (!out_flush()) {
    report_error(stdout_error());
    return kExitInput;
  }
  return kExitOk;
}

int run_disasm(const DisasmCliOptions& o) {
  if (const auto problem = check_word_inputs(o.inputs)) return usage_error("disasm", *problem);
  if (o.short_bytes && !o.listing) return usage_error("disasm", "--short shortens the bytes of --listing; add it");
  if (o.no_bytes && !o.listing) return usage_error("disasm", "--no-bytes leaves the bytes out of --listing; add it");
  if (o.no_bytes && o.short_bytes) return usage_error("disasm", "--short and --no-bytes exclude each other");
  const bool to_folder =
      !o.output.empty() && o.output != "-" && !o.inputs.files.empty() && io::is_neff_file(o.inputs.files.front());
  if (to_folder) {
    if (o.inputs.files.size() != 1)
      return usage_error("disasm", "-o DIR writes the streams of one NEFF; give one .neff input");
    if (o.listing || o.source)
      return usage_error("disasm", "--listing and -S write one text; -o DIR takes .tasm files per stream");
    return disasm_to_folder(o);
  }
  auto sink = open_sink(o.output.empty() ? "-" : o.output, o.inputs.files);
  if (!sink) {
    report_error(sink.error());
    return kExitInput;
  }
  for (auto& src : open_word_inputs(o.inputs, o.gen.value_or(kDefaultGeneration))) {
    // Several files stay one assemblable text: each starts with a comment naming it.
    if (o.inputs.files.size() > 1) (*sink)->write(fmt::format("; == {} ==\n", src->label()));
    if (disasm_source(*src, o, **sink)) continue;
    if ((*sink)->failed()) return finish_sink(**sink);
    (*sink)->discard();
    report_source_error(*src);
    return kExitInput;
  }
  return finish_sink(**sink);
}

}  // namespace

Command register_disasm(CLI::App& parent) {
  auto opts = std::make_shared<DisasmCliOptions>();
  CLI::App* app = parent.add_subcommand("disasm", "Print 64-byte instruction words as canonical assembly text");
  add_generation_option(*app, opts->gen,
                        "Generation: sunda|cayman|mariana|maverick or v2..v5 (default: mariana, or a NEFF's target)");
  app->add_flag("--no-verdicts", opts->no_verdicts,
                "Leave out the '; INVALID on GEN: predicates' comment of words that fail validation");
  app->add_flag("--listing", opts->listing,
                "An objdump-style listing instead: per word its label, offset, bytes, mnemonic and events");
  app->add_flag("--short", opts->short_bytes, "With --listing: only the first 16 bytes of each word");
  app->add_flag("--no-bytes", opts->no_bytes, "With --listing: leave the bytes out");
  app->add_flag("-S,--source", opts->source,
                "Before the words of a NEFF, the kernel file:line, HLO operation and compiler instruction its debug "
                "records give (with --listing, or alone: the words as assembly text)");
  app->add_option("-o,--output", opts->output,
                  "Write the text to this file (replaced only when every input was read; default: stdout); for a "
                  "NEFF input a folder: one SUBGRAPH/ENGINE.tasm per stream")
      ->type_name("OUT.tasm|DIR");
  add_word_inputs(*app, opts->inputs);
  add_stream_filters(*app, opts->inputs,
                     "NEFF inputs: only the stream of this engine (pe, act, pool, dve, sp), repeatable; for other "
                     "inputs one --engine names the engine the verdicts assume");
  app->footer(
      "Exit codes: 0 success (invalid words included: they are marked, not refused), 2 usage error, "
      "3 input or output error. 'tpbisa asm' reads the output back to the same bytes.");
  return {app, [opts] { return run_disasm(*opts); }};
}

}  // namespace tpbisa::cli
