// The listing, source lines and per-stream .tasm files of `tpbisa disasm`.
#include "tpbisa/io/disasm_text.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/io/decode_json.hpp"
#include "tpbisa/io/output_file.hpp"
#include "tpbisa/io/source_text.hpp"

namespace tpbisa::io {
namespace {

/// The mnemonic column of a listing: wide enough for every mnemonic, so the events line up.
constexpr size_t kListingNameWidth = [] {
  size_t w = 7;  // "unknown"
  for (const auto& op : kOpcodes) w = std::max(w, op.mnemonic.size());
  return w;
}();

/// A subgraph name from the container that stays one plain folder name inside the output folder.
bool plain_folder_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") ==
             std::string::npos;
}

}  // namespace

std::string listing_text(const Instruction& inst, Generation gen, const DisasmOptions& options) {
  std::string text;
  if (inst.status == DecodeStatus::Modeled) {
    text = disassemble(inst, gen, options);
  } else {
    text = std::string(inst.name());
    if (const std::string events = render_events(inst.events(), inst.gen); !events.empty()) text += ' ' + events;
    text += "  ; " + decode_status_note(inst);
  }
  const size_t space = std::min(text.find(' '), text.size());
  if (space == text.size()) return text;
  const size_t rest = std::min(text.find_first_not_of(' ', space), text.size());
  return fmt::format("{:<{}}{}", text.substr(0, space), kListingNameWidth + 2, text.substr(rest));
}

std::string listing_line(const WordSource& src, const Word& word, Generation gen, size_t shown_bytes,
                         const DisasmOptions& options) {
  const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(word), gen);
  std::string line = fmt::format("{:<20} {:#06x}  ", word_label(src, src.index()), src.offset());
  if (shown_bytes != 0) {
    for (size_t i = 0; i < shown_bytes; ++i) line += fmt::format("{}{:02x}", i > 0 && i % 4 == 0 ? " " : "", word[i]);
    line += "  ";
  }
  line += listing_text(inst, gen, options);
  const neff::Neff* n = src.neff();
  const StreamInfo* st = src.stream();
  if (const neff::Subgraph* sg = n != nullptr && st != nullptr ? n->subgraph(st->subgraph) : nullptr) {
    const std::vector<std::string> ends = neff::dma_endpoints(*sg, inst);
    if (ends.size() == 2 && (ends[0] != "?" || ends[1] != "?")) line += fmt::format("  ; {} -> {}", ends[0], ends[1]);
  }
  return line + '\n';
}

std::string source_line_text(const neff::SourceLine& s) {
  if (s.empty()) return ";   (no source: the debug records name none for this word)\n";
  std::vector<std::string> parts;
  if (!s.file.empty()) parts.push_back(s.location());
  if (!s.hlo.empty()) parts.push_back(s.op_type.empty() ? s.hlo : fmt::format("{} [{}]", s.hlo, s.op_type));
  if (!s.instruction.empty()) parts.push_back("compiler instruction " + s.instruction);
  return fmt::format(";   {}\n", fmt::join(parts, "  "));
}

std::string StreamSources::open(const WordSource& src, const StreamInfo& stream) {
  words_.reset();
  last_.reset();
  const neff::Neff* n = src.neff();
  if (const neff::Subgraph* sg = n != nullptr ? n->subgraph(stream.subgraph) : nullptr)
    words_ = neff::stream_source(*n, *sg, static_cast<neff::Engine>(stream.engine));
  if (words_) return {};
  return fmt::format("; no debug records for {} in {}: source lines unknown\n", stream.label, src.label());
}

std::string StreamSources::before(uint64_t index) {
  if (!words_ || index >= words_->size()) return {};
  const neff::SourceLine& s = (*words_)[index];
  if (last_ && *last_ == s) return {};
  last_ = s;
  return source_line_text(s);
}

bool disassemble_source(WordSource& src, Generation gen, const std::string& note, const DisasmLayout& layout,
                        OutputFile& sink) {
  if (!note.empty()) sink.write("; " + note + '\n');
  DisasmOptions options = layout.options;
  const StreamInfo* stream = nullptr;
  StreamSources sources;
  Word word{};
  bool first = true;
  for (;;) {
    if (sink.failed()) return false;
    switch (src.next(word)) {
      case WordSource::Next::Word:
        if (src.stream() != stream) {  // a NEFF's next stream: a comment keeps the text assemblable
          stream = src.stream();
          const size_t n = stream->words->word_count();
          sink.write(fmt::format("; == {} ({}, {} word{}) ==\n", stream->label, stream->member, n, n == 1 ? "" : "s"));
          if (layout.source) sink.write(sources.open(src, *stream));
        } else if (layout.source && first && stream == nullptr) {
          sink.write(fmt::format("; {} is not a NEFF: no debug records, source lines unknown\n", src.label()));
        }
        first = false;
        if (stream != nullptr) options.validate.engine = stream->engine;
        if (layout.source) sink.write(sources.before(src.index()));
        sink.write(layout.listing ? listing_line(src, word, gen, layout.shown_bytes, options)
                                  : disassemble(std::span<const uint8_t, kWordBytes>(word), gen, options) + '\n');
        break;
      case WordSource::Next::End: return true;
      case WordSource::Next::Failed: return false;
    }
  }
}

Expected<void> disassemble_to_folder(WordSource& src, const std::string& dir, Generation gen, const std::string& note,
                                     DisasmOptions options, std::span<const std::string> inputs,
                                     const std::function<void(const std::string&, size_t)>& written) {
  namespace fs = std::filesystem;
  for (const StreamInfo& s : src.streams()) {
    // The subgraph name comes from the container: it must stay one plain folder name inside DIR.
    if (!plain_folder_name(s.subgraph))
      return Error{ErrorKind::Invalid, fmt::format("{}: subgraph name '{}' is not a plain folder name; not written "
                                                   "under {}",
                                                   src.label(), s.subgraph, dir)};
    const fs::path path = fs::path(dir) / (s.label + ".tasm");
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec)
      return Error{ErrorKind::Open, fmt::format("{}: cannot create: {}", path.parent_path().string(), ec.message())};
    auto sink = OutputFile::open(path.string(), OutputOptions{inputs, false});
    if (!sink) return sink.error();
    const size_t n = s.words->word_count();
    (*sink)->write(fmt::format("; {} of {} ({}, {} word{}), generation {}\n", s.label, src.label(), s.member, n,
                               n == 1 ? "" : "s", to_string(gen)));
    if (!note.empty()) (*sink)->write("; " + note + '\n');
    options.validate.engine = s.engine;
    for (size_t i = 0; i < n; ++i) (*sink)->write(disassemble(s.words->word(i), gen, options) + '\n');
    if (auto done = (*sink)->commit(); !done) return done.error();
    written(path.string(), n);
  }
  return {};
}

}  // namespace tpbisa::io
