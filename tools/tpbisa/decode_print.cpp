// Text and JSON renderings of decoded words: the library's field descriptions laid out, and its JSON form streamed.
#include "decode_print.hpp"

#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/io/decode_json.hpp"
#include "tpbisa/io/json.hpp"

namespace tpbisa::cli {
namespace {

using json = nlohmann::ordered_json;

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

}  // namespace

std::unique_ptr<DecodePrinter> make_text_printer(bool headings) {
  return std::make_unique<DecodeTextPrinter>(headings);
}

std::unique_ptr<DecodePrinter> make_json_printer() {
  return std::make_unique<DecodeJsonPrinter>();
}

}  // namespace tpbisa::cli
