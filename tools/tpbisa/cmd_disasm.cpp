// `tpbisa disasm`: streams words through the library's disassembler, one canonical line per word.
#include "cmd_disasm.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "output.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::cli {
namespace {

struct DisasmCliOptions {
  std::optional<Generation> gen;
  bool no_verdicts = false;
  std::string output;
  WordInputs inputs;
};

/// Prints one input to its end or its first error; false on an input error or a failed write.
bool disasm_source(io::WordSource& src, Generation gen, const DisasmOptions& options, Sink& sink) {
  Word word{};
  for (;;) {
    if (sink.failed()) return false;
    switch (src.next(word)) {
      case io::WordSource::Next::Word:
        sink.write(disassemble(std::span<const uint8_t, kWordBytes>(word), gen, options) + '\n');
        break;
      case io::WordSource::Next::End: return true;
      case io::WordSource::Next::Failed: return false;
    }
  }
}

int run_disasm(const DisasmCliOptions& o) {
  if (const auto problem = check_word_inputs(o.inputs)) return usage_error("disasm", *problem);
  const Generation gen = o.gen.value_or(kDefaultGeneration);
  DisasmOptions options;
  options.verdicts = !o.no_verdicts;
  auto sink = open_sink(o.output.empty() ? "-" : o.output, o.inputs.files);
  if (!sink) {
    report_error(sink.error());
    return kExitInput;
  }
  for (auto& src : open_word_inputs(o.inputs, gen)) {
    // Several files stay one assemblable text: each starts with a comment naming it.
    if (o.inputs.files.size() > 1) (*sink)->write(fmt::format("; == {} ==\n", src->label()));
    if (disasm_source(*src, gen, options, **sink)) continue;
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
  add_generation_option(*app, opts->gen, "Generation: sunda|cayman|mariana|maverick or v2..v5 (default: mariana)");
  app->add_flag("--no-verdicts", opts->no_verdicts,
                "Leave out the '; INVALID on GEN: predicates' comment of words that fail validation");
  app->add_option("-o,--output", opts->output,
                  "Write the text to this file (replaced only when every input was read; default: stdout)")
      ->type_name("OUT.tasm");
  add_word_inputs(*app, opts->inputs);
  app->footer(
      "Exit codes: 0 success (invalid words included: they are marked, not refused), 2 usage error, "
      "3 input or output error. 'tpbisa asm' reads the output back to the same bytes.");
  return {app, [opts] { return run_disasm(*opts); }};
}

}  // namespace tpbisa::cli
