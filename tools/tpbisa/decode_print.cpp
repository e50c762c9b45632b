// Text and JSON renderings of decoded words, built from the library's field description.
#include "decode_print.hpp"

#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::cli {
namespace {

using json = nlohmann::ordered_json;

// File names need not be UTF-8; replace what is not instead of failing mid-stream.
std::string dump(const json& j) {
  return io::dump_json(j);
}

std::string word_hex(std::span<const uint8_t, kWordBytes> w) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  text.reserve(2 * w.size());
  for (uint8_t b : w) {
    text += kDigits[b >> 4];
    text += kDigits[b & 0xF];
  }
  return text;
}

std::string_view status_name(DecodeStatus s) {
  switch (s) {
    case DecodeStatus::Modeled: return "modeled";
    case DecodeStatus::NotModeled: return "not-modeled";
    case DecodeStatus::Unknown: return "unknown";
  }
  return "unknown";
}

/// What the title line says after the name: the format, or why the operands are not shown decoded.
std::string status_note(const Instruction& inst) {
  switch (inst.status) {
    case DecodeStatus::Modeled: return std::string(inst.format_name());
    case DecodeStatus::NotModeled: return "operands not modeled";
    case DecodeStatus::Unknown: return describe_opcode(inst.opcode(), inst.gen);
  }
  return "";
}

/// The fields' descriptions; for a NEFF word, the def.json variables its DMA operands name replace the generic
/// meaning of the id and offset fields.
std::vector<DescribedField> fields_of(const WordSource& src, const Instruction& inst) {
  std::vector<DescribedField> fields = describe_fields(inst);
  const neff::Neff* n = src.neff();
  const io::StreamInfo* st = src.stream();
  const neff::Subgraph* sg = n != nullptr && st != nullptr ? n->subgraph(st->subgraph) : nullptr;
  if (sg == nullptr) return fields;
  for (const neff::VariableNote& note : neff::variable_notes(*sg, inst))
    for (DescribedField& f : fields)
      if (f.name == note.field) f.meaning = note.meaning;
  return fields;
}

// ---- text ----

std::string text_block(const WordSource& src, uint64_t index, const Instruction& inst) {
  std::string out = fmt::format("{}  offset {:#x}  {:#04x} {}  {}\n", word_label(src, index), index * kWordBytes,
                                inst.opcode(), inst.name(), status_note(inst));
  const std::string events = render_instruction_events(inst);
  out += fmt::format("  events: {}\n", events.empty() ? "(none)" : events);
  for (const DescribedField& f : fields_of(src, inst))
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

template <size_t N>
json mode_name(const std::array<EnumValue, N>& table, uint8_t value, Generation g) {
  const EnumValue* row = find_enum(table, value);
  if (row == nullptr || !row->gens.has(g)) return nullptr;
  return row->name;
}

json header_json(const Header& h) {
  return {{"opcode", fmt::format("{:#04x}", h.opcode)},
          {"inst_word_len", h.inst_word_len},
          {"debug_cmd", h.debug_cmd},
          {"debug_hint", h.debug_hint}};
}

json events_json(const Events& e, Generation g) {
  return {{"wait_mode", fmt::format("{:#04x}", e.wait_mode)},
          {"wait_mode_name", mode_name(kWaitModes, e.wait_mode, g)},
          {"wait_idx", e.wait_idx},
          {"update_mode", fmt::format("{:#04x}", e.update_mode)},
          {"update_mode_name", mode_name(kUpdateModes, e.update_mode, g)},
          {"update_idx", e.update_idx},
          {"semaphore_value", e.semaphore_value},
          {"text", render_events(e, g)},
          {"text_exact", events_render_exact(e, g)}};
}

json field_json(const DescribedField& f) {
  json j{{"name", f.name}, {"offset", f.offset}, {"size", f.size}};
  switch (f.kind) {
    case ValueKind::Unsigned:
      j["kind"] = "unsigned";
      j["value"] = f.u;
      break;
    case ValueKind::Signed:
      j["kind"] = "signed";
      j["value"] = f.s;
      break;
    case ValueKind::Bytes:
      j["kind"] = "bytes";
      j["value"] = format_value(f);
      break;
  }
  j["hex"] = format_hex(f);
  j["meaning"] = f.meaning;
  return j;
}

json instruction_json(const WordSource& src, uint64_t index, const Instruction& inst,
                      std::span<const uint8_t, kWordBytes> word) {
  json fields = json::array();
  for (const DescribedField& f : fields_of(src, inst)) fields.push_back(field_json(f));
  json j{{"input", src.label()}};
  if (const io::StreamInfo* s = src.stream()) {
    j["subgraph"] = s->subgraph;
    j["engine"] = neff::engine_name(static_cast<neff::Engine>(s->engine));
    j["stream"] = s->label;
    j["generation"] = to_string(inst.gen);
  }
  j.update(json{{"index", index},
                {"offset", index * kWordBytes},
                {"word", word_hex(word)},
                {"opcode", fmt::format("{:#04x}", inst.opcode())},
                {"name", inst.name()},
                {"format", inst.format_name()},
                {"status", status_name(inst.status)}});
  if (inst.status != DecodeStatus::Modeled) j["note"] = status_note(inst);
  j["header"] = header_json(inst.header());
  j["events"] = events_json(inst.events(), inst.gen);
  j["fields"] = std::move(fields);
  return j;
}

// Streams one document: the array is opened up front and each instruction is written as it decodes.
class DecodeJsonPrinter final : public DecodePrinter {
 public:
  void begin_input(const WordSource&, Generation gen, const std::string&) override {
    if (started_) return;
    started_ = true;
    out("{{\"generation\": {}, \"instructions\": [", dump(json(std::string(to_string(gen)))));
  }
  void instruction(const WordSource& src, uint64_t index, const Instruction& inst,
                   std::span<const uint8_t, kWordBytes> word) override {
    out("{}\n{}", count_ == 0 ? "" : ",", dump(instruction_json(src, index, inst, word)));
    ++count_;
  }
  void failed(const WordSource& src) override {
    error_ = json{
        {"input", src.label()}, {"index", src.index()}, {"offset", src.offset()}, {"message", src.error().message}};
  }
  void finish() override {
    out("{}]", count_ == 0 ? "" : "\n");
    if (!error_.is_null()) out(",\n\"error\": {}", dump(error_));
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
