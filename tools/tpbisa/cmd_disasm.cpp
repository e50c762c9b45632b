// `tpbisa disasm`: streams words through the library's disassembler, one canonical line per word, or an
// objdump-style listing (with a NEFF's source lines, -S); a NEFF's streams go to one .tasm file each with -o DIR.
#include "commands.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "output.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/io/decode_json.hpp"
#include "tpbisa/neff_debug.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::cli {
namespace {

namespace fs = std::filesystem;

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

/// Bytes a --short listing line shows: the header and the EVENTS block, and the first operand bytes.
constexpr size_t kShortBytes = 16;
/// The mnemonic column of a listing: wide enough for every mnemonic, so the events line up.
constexpr size_t kListingNameWidth = [] {
  size_t w = 7;  // "unknown"
  for (const auto& op : kOpcodes) w = std::max(w, op.mnemonic.size());
  return w;
}();

/// What a listing line says of a word after its bytes: the disassembly (mnemonic, EVENTS, operands, the verdict
/// comment), or for a word without modeled operands its mnemonic, EVENTS and why; the mnemonic padded so the rest
/// lines up.
std::string listing_text(const Instruction& inst, Generation gen, const DisasmOptions& options) {
  std::string text;
  if (inst.status == DecodeStatus::Modeled) {
    text = disassemble(inst, gen, options);
  } else {
    text = std::string(inst.name());
    if (const std::string events = render_events(inst.events(), inst.gen); !events.empty()) text += ' ' + events;
    text += "  ; " + io::decode_status_note(inst);
  }
  const size_t space = std::min(text.find(' '), text.size());
  if (space == text.size()) return text;
  const size_t rest = std::min(text.find_first_not_of(' ', space), text.size());
  return fmt::format("{:<{}}{}", text.substr(0, space), kListingNameWidth + 2, text.substr(rest));
}

/// One listing line: label, offset, the bytes in 4-byte groups (none with --no-bytes), the listing text and, for a
/// NEFF's DMA word, where it copies from and to by variable name.
std::string listing_line(const io::WordSource& src, const Word& word, Generation gen, const DisasmCliOptions& o,
                         const DisasmOptions& options) {
  const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(word), gen);
  std::string line = fmt::format("{:<20} {:#06x}  ", word_label(src), src.offset());
  if (!o.no_bytes) {
    const size_t n = o.short_bytes ? kShortBytes : kWordBytes;
    for (size_t i = 0; i < n; ++i) line += fmt::format("{}{:02x}", i > 0 && i % 4 == 0 ? " " : "", word[i]);
    line += "  ";
  }
  line += listing_text(inst, gen, options);
  const neff::Neff* n = src.neff();
  const io::StreamInfo* st = src.stream();
  if (const neff::Subgraph* sg = n != nullptr && st != nullptr ? n->subgraph(st->subgraph) : nullptr) {
    const std::vector<std::string> ends = neff::dma_endpoints(*sg, inst);
    if (ends.size() == 2 && (ends[0] != "?" || ends[1] != "?")) line += fmt::format("  ; {} -> {}", ends[0], ends[1]);
  }
  return line + '\n';
}

/// The -S line before a word whose source differs from the word before it: the kernel's file:line, the HLO
/// operation and the compiler instruction, each where the records give it.
std::string source_line(const neff::SourceLine& s) {
  if (s.empty()) return ";   (no source: the debug records name none for this word)\n";
  std::vector<std::string> parts;
  if (!s.file.empty()) parts.push_back(s.location());
  if (!s.hlo.empty()) parts.push_back(s.op_type.empty() ? s.hlo : fmt::format("{} [{}]", s.hlo, s.op_type));
  if (!s.instruction.empty()) parts.push_back("compiler instruction " + s.instruction);
  return fmt::format(";   {}\n", fmt::join(parts, "  "));
}

/// The debug records of the current stream, for -S: per word its source, or nullopt (none in the NEFF).
struct StreamSources {
  std::optional<std::vector<neff::SourceLine>> words;
  std::optional<neff::SourceLine> last;  ///< the source printed last in this stream

  void open(const io::WordSource& src, const io::StreamInfo& stream, Sink& sink) {
    words.reset();
    last.reset();
    const neff::Neff* n = src.neff();
    if (const neff::Subgraph* sg = n != nullptr ? n->subgraph(stream.subgraph) : nullptr)
      words = neff::stream_source(*n, *sg, static_cast<neff::Engine>(stream.engine));
    if (!words)
      sink.write(fmt::format("; no debug records for {} in {}: source lines unknown\n", stream.label, src.label()));
  }
  void before(uint64_t index, Sink& sink) {
    if (!words || index >= words->size()) return;
    const neff::SourceLine& s = (*words)[index];
    if (last && *last == s) return;
    sink.write(source_line(s));
    last = s;
  }
};

/// The options of one input: the verdicts judged on the engine --engine names for plain words.
DisasmOptions input_options(const DisasmCliOptions& o) {
  DisasmOptions options;
  options.verdicts = !o.no_verdicts;
  if (o.inputs.engines.size() == 1) options.validate.engine = o.inputs.engines.front();
  return options;
}

/// Prints one input to its end or its first error; false on an input error or a failed write.
bool disasm_source(io::WordSource& src, const DisasmCliOptions& o, Sink& sink) {
  const Generation gen = input_generation(src, o.gen);
  report_neff_warnings(src);
  if (const std::string note = generation_note(src, o.gen, gen); !note.empty()) sink.write("; " + note + '\n');
  DisasmOptions options = input_options(o);
  const io::StreamInfo* stream = nullptr;
  StreamSources sources;
  Word word{};
  bool first = true;
  for (;;) {
    if (sink.failed()) return false;
    switch (src.next(word)) {
      case io::WordSource::Next::Word:
        if (src.stream() != stream) {  // a NEFF's next stream: a comment keeps the text assemblable
          stream = src.stream();
          const size_t n = stream->words->word_count();
          sink.write(fmt::format("; == {} ({}, {} word{}) ==\n", stream->label, stream->member, n, n == 1 ? "" : "s"));
          if (o.source) sources.open(src, *stream, sink);
        } else if (o.source && first && stream == nullptr) {
          sink.write(fmt::format("; {} is not a NEFF: no debug records, source lines unknown\n", src.label()));
        }
        first = false;
        if (stream != nullptr) options.validate.engine = stream->engine;
        if (o.source) sources.before(src.index(), sink);
        sink.write(o.listing ? listing_line(src, word, gen, o, options)
                             : disassemble(std::span<const uint8_t, kWordBytes>(word), gen, options) + '\n');
        break;
      case io::WordSource::Next::End: return true;
      case io::WordSource::Next::Failed: return false;
    }
  }
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
  const std::string note = generation_note(src, o.gen, gen);
  DisasmOptions options = input_options(o);
  for (const io::StreamInfo& s : src.streams()) {
    // The subgraph name comes from the container: it must stay one plain folder name inside DIR.
    if (s.subgraph.empty() || s.subgraph == "." || s.subgraph == ".." ||
        s.subgraph.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") !=
            std::string::npos) {
      report_error(fmt::format("{}: subgraph name '{}' is not a plain folder name; not written under {}", src.label(),
                               s.subgraph, o.output));
      return kExitInput;
    }
    const fs::path path = fs::path(o.output) / (s.label + ".tasm");
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec) {
      report_error(fmt::format("{}: cannot create: {}", path.parent_path().string(), ec.message()));
      return kExitInput;
    }
    auto sink = open_sink(path.string(), o.inputs.files);
    if (!sink) {
      report_error(sink.error());
      return kExitInput;
    }
    const size_t n = s.words->word_count();
    (*sink)->write(fmt::format("; {} of {} ({}, {} word{}), generation {}\n", s.label, src.label(), s.member, n,
                               n == 1 ? "" : "s", to_string(gen)));
    if (!note.empty()) (*sink)->write("; " + note + '\n');
    options.validate.engine = s.engine;
    for (size_t i = 0; i < s.words->word_count(); ++i)
      (*sink)->write(disassemble(s.words->word(i), gen, options) + '\n');
    if (const int rc = finish_sink(**sink); rc != kExitOk) return rc;
    out("{}: {} word{}\n", path.string(), s.words->word_count(), s.words->word_count() == 1 ? "" : "s");
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
