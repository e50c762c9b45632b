// `tpbisa decode`: streams every input, a block of words at a time and in place, through decode(), and prints the
// library's field descriptions as text blocks or its JSON form of each word.
#include <memory>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/io/decode_json.hpp"
#include "tpbisa/io/json.hpp"

namespace tpbisa::cli {
namespace {

using io::WordSource;
using json = nlohmann::ordered_json;

/// Receives decoded words as they stream in; output is written as it goes, never held back.
class DecodePrinter {
 public:
  virtual ~DecodePrinter() = default;
  /// An input starts, read for `gen`; `note` says where the generation came from when a NEFF named it (or "").
  virtual void begin_input(const WordSource& src, Generation gen, const std::string& note) = 0;
  /// Word `index` of the source's current stream (a word of the block next_block handed out last).
  virtual void instruction(const WordSource& src, uint64_t index, const Instruction& inst,
                           std::span<const uint8_t, kWordBytes> word) = 0;
  /// The input failed after the words already printed; the error itself goes to stderr.
  virtual void failed(const WordSource& src) = 0;
  virtual void finish() = 0;
};

// ---- text ----

std::string text_block(const WordSource& src, uint64_t index, const Instruction& inst) {
  std::string out = fmt::format("{}  offset {:#x}  {:#04x} {}  {}\n", word_label(src, index), index * kWordBytes,
                                inst.opcode(), inst.name(), io::decode_status_note(inst));
  const std::string events = render_instruction_events(inst);
  out += fmt::format("  events: {}\n", events.empty() ? "(none)" : events);
  for (const DescribedField& f : io::described_fields(src, inst))
    out += fmt::format("    @{:<3}{:>3}  {:<30} {:<12}  {}\n", f.offset, f.size, f.name, format_value(f), f.meaning);
  return out;
}

class DecodeTextPrinter final : public DecodePrinter {
 public:
  explicit DecodeTextPrinter(bool headings) : headings_(headings) {}

  void begin_input(const WordSource& src, Generation, const std::string& note) override {
    if (headings_) out("{}== {} ==\n", first_ ? "" : "\n", src.label());
    first_ = false;
    blocks_ = 0;  // blocks are separated within an input; the heading separates inputs
    if (!note.empty()) out("{}\n\n", note);
  }
  void instruction(const WordSource& src, uint64_t index, const Instruction& inst,
                   std::span<const uint8_t, kWordBytes>) override {
    out("{}{}", blocks_ == 0 ? "" : "\n", text_block(src, index, inst));
    ++blocks_;
  }
  void failed(const WordSource&) override { out_flush(); }
  void finish() override { out_flush(); }

 private:
  bool headings_;
  bool first_ = true;
  uint64_t blocks_ = 0;
};

// ---- JSON ----

// Streams one document: the array is opened up front and each instruction is written as it decodes.
class DecodeJsonPrinter final : public DecodePrinter {
 public:
  void begin_input(const WordSource&, Generation gen, const std::string&) override {
    if (started_) return;
    started_ = true;
    out("{{\"generation\": {}, \"instructions\": [", io::dump_json(json(std::string(to_string(gen)))));
  }
  void instruction(const WordSource& src, uint64_t index, const Instruction& inst,
                   std::span<const uint8_t, kWordBytes> word) override {
    out("{}\n{}", count_ == 0 ? "" : ",", io::dump_json(io::decoded_json(src, index, inst, word)));
    ++count_;
  }
  void failed(const WordSource& src) override { error_ = io::input_error_json(src, src.error().message); }
  void finish() override {
    out("{}]", count_ == 0 ? "" : "\n");
    if (!error_.is_null()) out(",\n\"error\": {}", io::dump_json(error_));
    out("}}\n");
    out_flush();
  }

 private:
  bool started_ = false;
  uint64_t count_ = 0;
  json error_;
};

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
  const std::unique_ptr<DecodePrinter> printer =
      o.json ? std::unique_ptr<DecodePrinter>(std::make_unique<DecodeJsonPrinter>())
             : std::make_unique<DecodeTextPrinter>(o.inputs.files.size() > 1);
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
