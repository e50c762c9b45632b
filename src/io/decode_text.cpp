// The layouts of `tpbisa decode`: text blocks or one streamed JSON document.
#include "tpbisa/io/decode_text.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tpbisa/describe.hpp"
#include "tpbisa/io/decode_json.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/source_text.hpp"

namespace tpbisa::io {
namespace {

class DecodeTextPrinter final : public DecodePrinter {
 public:
  DecodeTextPrinter(bool headings, TextOut& out) : headings_(headings), out_(out) {}

  void begin_input(const WordSource& src, Generation, const std::string& note) override {
    if (headings_) out_.write(fmt::format("{}== {} ==\n", first_ ? "" : "\n", src.label()));
    first_ = false;
    blocks_ = 0;  // blocks are separated within an input; the heading separates inputs
    if (!note.empty()) out_.write(note + "\n\n");
  }
  void instruction(const WordSource& src, uint64_t index, const Instruction& inst,
                   std::span<const uint8_t, kWordBytes>) override {
    out_.write(fmt::format("{}{}", blocks_ == 0 ? "" : "\n", decoded_text_block(src, index, inst)));
    ++blocks_;
  }
  void failed(const WordSource&) override { out_.flush(); }
  void finish() override { out_.flush(); }

 private:
  bool headings_;
  TextOut& out_;
  bool first_ = true;
  uint64_t blocks_ = 0;
};

// Streams one document: the array is opened up front and each instruction is written as it decodes.
class DecodeJsonPrinter final : public DecodePrinter {
 public:
  explicit DecodeJsonPrinter(TextOut& out) : out_(out) {}

  void begin_input(const WordSource&, Generation gen, const std::string&) override {
    if (started_) return;
    started_ = true;
    out_.write(fmt::format("{{\"generation\": {}, \"instructions\": [",
                           dump_json(nlohmann::ordered_json(std::string(to_string(gen))))));
  }
  void instruction(const WordSource& src, uint64_t index, const Instruction& inst,
                   std::span<const uint8_t, kWordBytes> word) override {
    out_.write(fmt::format("{}\n{}", count_ == 0 ? "" : ",", dump_json(decoded_json(src, index, inst, word))));
    ++count_;
  }
  void failed(const WordSource& src) override { error_ = input_error_json(src, src.error().message); }
  void finish() override {
    out_.write(count_ == 0 ? "]" : "\n]");
    if (!error_.is_null()) out_.write(fmt::format(",\n\"error\": {}", dump_json(error_)));
    out_.write("}\n");
    out_.flush();
  }

 private:
  TextOut& out_;
  bool started_ = false;
  uint64_t count_ = 0;
  nlohmann::ordered_json error_;
};

}  // namespace

std::unique_ptr<DecodePrinter> make_decode_printer(bool json, bool headings, TextOut& out) {
  if (json) return std::make_unique<DecodeJsonPrinter>(out);
  return std::make_unique<DecodeTextPrinter>(headings, out);
}

std::string decoded_text_block(const WordSource& src, uint64_t index, const Instruction& inst) {
  std::string out = fmt::format("{}  offset {:#x}  {:#04x} {}  {}\n", word_label(src, index), index * kWordBytes,
                                inst.opcode(), inst.name(), decode_status_note(inst));
  const std::string events = render_instruction_events(inst);
  out += fmt::format("  events: {}\n", events.empty() ? "(none)" : events);
  for (const DescribedField& f : described_fields(src, inst))
    out += fmt::format("    @{:<3}{:>3}  {:<30} {:<12}  {}\n", f.offset, f.size, f.name, format_value(f), f.meaning);
  return out;
}

DecodeEnded decode_source(WordSource& src, Generation gen, const std::string& note, DecodePrinter& printer,
                          const TextOut& out) {
  printer.begin_input(src, gen, note);
  std::span<const uint8_t> block;
  for (;;) {
    if (out.failed()) return DecodeEnded::OutputFailed;
    switch (src.next_block(block, kDecodeBlockWords)) {
      case WordSource::Next::Word:
        for (size_t i = 0; i < block.size() / kWordBytes; ++i) {
          const std::span<const uint8_t, kWordBytes> word(block.data() + i * kWordBytes, kWordBytes);
          printer.instruction(src, src.index() + i, decode(word, gen), word);
          if (out.failed()) return DecodeEnded::OutputFailed;  // stop reading at the first failed write
        }
        break;
      case WordSource::Next::End: return DecodeEnded::Done;
      case WordSource::Next::Failed: printer.failed(src); return DecodeEnded::Failed;
    }
  }
}

}  // namespace tpbisa::io
