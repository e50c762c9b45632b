// The forms of a decoded word shared by `tpbisa decode` and the Python module.
#include "tpbisa/io/decode_json.hpp"

#include <memory>

#include <fmt/format.h>

#include "tpbisa/catalog.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::io {
namespace {

using ojson = nlohmann::ordered_json;

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

template <size_t N>
ojson mode_name(const std::array<EnumValue, N>& table, uint8_t value, Generation g) {
  const EnumValue* row = find_enum(table, value);
  if (row == nullptr || !row->gens.has(g)) return nullptr;
  return row->name;
}

ojson field_json(const DescribedField& f) {
  ojson j{{"name", f.name}, {"offset", f.offset}, {"size", f.size}};
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

}  // namespace

std::string_view decode_status_name(DecodeStatus s) {
  switch (s) {
    case DecodeStatus::Modeled: return "modeled";
    case DecodeStatus::NotModeled: return "not-modeled";
    case DecodeStatus::Unknown: return "unknown";
  }
  return "unknown";
}

std::string decode_status_note(const Instruction& inst) {
  switch (inst.status) {
    case DecodeStatus::Modeled: return std::string(inst.format_name());
    case DecodeStatus::NotModeled: return std::string(raw_operands_note(inst.info));
    case DecodeStatus::Unknown: return describe_opcode(inst.opcode(), inst.gen);
  }
  return "";
}

std::vector<DescribedField> described_fields(const WordSource& src, const Instruction& inst) {
  std::vector<DescribedField> fields = describe_fields(inst);
  const neff::Neff* n = src.neff();
  const StreamInfo* st = src.stream();
  const neff::Subgraph* sg = n != nullptr && st != nullptr ? n->subgraph(st->subgraph) : nullptr;
  if (sg == nullptr) return fields;
  for (const neff::VariableNote& note : neff::variable_notes(*sg, inst))
    for (DescribedField& f : fields)
      if (f.name == note.field) f.meaning = note.meaning;
  return fields;
}

std::optional<neff::SourceLine> word_source(const WordSource& src, uint64_t index) {
  const neff::Neff* n = src.neff();
  const StreamInfo* st = src.stream();
  const neff::Subgraph* sg = n != nullptr && st != nullptr ? n->subgraph(st->subgraph) : nullptr;
  if (sg == nullptr) return std::nullopt;
  // The container is known by its bytes' buffer, which no other container shares while this one lives.
  struct Cache {
    std::weak_ptr<const neff::MemberData> data;
    const neff::Stream* stream = nullptr;
    std::optional<std::vector<neff::SourceLine>> words;
  };
  thread_local Cache cache;
  if (cache.data.expired() || cache.data.lock() != n->member_data || cache.stream != st->words) {
    cache.data = n->member_data;
    cache.stream = st->words;
    cache.words = neff::stream_source(*n, *sg, static_cast<neff::Engine>(st->engine));
  }
  if (!cache.words || index >= cache.words->size()) return std::nullopt;
  return (*cache.words)[index];
}

ojson source_json(const neff::SourceLine& s) {
  const auto text = [](const std::string& t) { return t.empty() ? ojson(nullptr) : ojson(t); };
  return {{"file", text(s.file)},
          {"line", s.line == 0 ? ojson(nullptr) : ojson(s.line)},
          {"hlo", text(s.hlo)},
          {"op_type", text(s.op_type)},
          {"instruction", text(s.instruction)}};
}

ojson header_json(const Header& h) {
  return {{"opcode", fmt::format("{:#04x}", h.opcode)},
          {"inst_word_len", h.inst_word_len},
          {"debug_cmd", h.debug_cmd},
          {"debug_hint", h.debug_hint}};
}

ojson events_json(const Events& e, Generation g) {
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

ojson decoded_json(const WordSource& src, uint64_t index, const Instruction& inst,
                   std::span<const uint8_t, kWordBytes> word) {
  ojson fields = ojson::array();
  for (const DescribedField& f : described_fields(src, inst)) fields.push_back(field_json(f));
  ojson j{{"input", src.label()}};
  if (const StreamInfo* s = src.stream()) {
    j["subgraph"] = s->subgraph;
    j["engine"] = to_string(static_cast<Engine>(s->engine));  // PE, ACT, POOL, DVE, SP: as every report
    j["stream"] = s->label;
    j["generation"] = to_string(inst.gen);
  }
  j.update(ojson{{"index", index},
                 {"offset", index * kWordBytes},
                 {"word", word_hex(word)},
                 {"opcode", fmt::format("{:#04x}", inst.opcode())},
                 {"name", inst.name()},
                 {"format", inst.format_name()},
                 {"status", decode_status_name(inst.status)}});
  if (inst.status != DecodeStatus::Modeled) j["note"] = decode_status_note(inst);
  j["header"] = header_json(inst.header());
  // null for a word whose bytes 4-11 are not EVENTS (COMPACT_CONTROL_INST)
  j["events"] = inst.carries_events() ? events_json(inst.events(), inst.gen) : ojson(nullptr);
  j["fields"] = std::move(fields);
  if (const auto source = word_source(src, index)) j["source"] = source_json(*source);
  return j;
}

ojson input_error_json(const WordSource& src, std::string_view message) {
  return {{"input", src.label()}, {"index", src.index()}, {"offset", src.offset()}, {"message", message}};
}

}  // namespace tpbisa::io
